/**
 * `triton-translate`'s full command-line reader (yargs, loaded only for the command lines that
 * `simpleTranslateArgs` leaves to it: help, stdin, unusual spellings), from the option table in
 * `translate-options.ts`.
 */
import yargs from 'yargs';
import { UserError } from './input-chunks.js';
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
  return y
    .strictOptions()
    .version('0.1.0')
    .help()
    .alias('h', 'help')
    // yargs wraps at 80 columns by default, inside words when a description is long; use the terminal's width.
    .wrap(Math.min(120, process.stdout.columns ?? 100))
    .fail((msg, err) => {
      throw new UserError(err?.message ?? msg);
    })
    .parseSync() as unknown as TranslateArgv; // the options of the table, by name
}
