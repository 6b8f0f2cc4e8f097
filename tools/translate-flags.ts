/**
 * `triton-translate`'s full command-line reader (yargs, loaded only for the command lines that
 * `simpleTranslateArgs` leaves to it: help, stdin, unusual spellings), from the option table in
 * `translate-options.ts`.
 */
import yargs from 'yargs';
import { parseStrictly } from './yargs-strict.js';
import { TRANSLATE_OPTIONS, type TranslateArgv } from './translate-options.js';

/** Reads `args` (the -D definitions already split off); `translations` are the `--to-*` flags with their summaries. */
export function parseTranslateArgs(args: string[], translations: readonly { flag: string; summary: string }[]): TranslateArgv {
  let y = yargs(args)
    .scriptName('triton-translate')
    .usage('$0 [file|-] --<translation> [-o out]\n\nTranslates Triton IR to other formats.');
  for (const [name, o] of Object.entries(TRANSLATE_OPTIONS)) {
    y = y.option(name, { type: o.kind, describe: o.describe, ...(o.default !== undefined ? { default: o.default } : { requiresArg: true }) });
  }
  for (const t of translations) y = y.option(t.flag, { type: 'boolean', default: false, describe: t.summary });
  return parseStrictly(y) as unknown as TranslateArgv; // the options of the table, by name
}
