/**
 * Tests for tools/translate-options.ts: the command lines `simpleTranslateArgs` reads give exactly
 * the options yargs (tools/translate-flags.ts) gives, and every other command line is left to yargs.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTranslateArgs } from '../../tools/translate-flags.js';
import { simpleTranslateArgs, TRANSLATE_OPTIONS, type TranslateArgv } from '../../tools/translate-options.js';

const TRANSLATIONS = [
  { flag: 'to-mlir', summary: 'a' },
  { flag: 'to-ptx', summary: 'b' },
  { flag: 'to-llvm', summary: 'c' },
];
const FLAGS = TRANSLATIONS.map((t) => t.flag);

/** The values the tool reads: every option of the table, every translation, and the inputs. */
function values(argv: TranslateArgv): Record<string, unknown> {
  const out: Record<string, unknown> = { _: argv._ };
  for (const name of [...Object.keys(TRANSLATE_OPTIONS), ...FLAGS]) out[name] = argv[name];
  return out;
}

test('common command lines: the same values as yargs', () => {
  for (const args of [
    [],
    ['k.ttir', '--to-ptx'],
    ['k.ttir', '--to-ptx', '--arch', 'sm_90a', '--num-warps', '8', '-o', 'k.ptx', '--emit-metadata', 'k.json'],
    ['--to-ptx', '--arch=sm_80', '--num-warps=4', 'k.ttir', '-o', 'out/k.ptx', '--emit-ttgir', 'k.ttgir'],
    ['k.ttir', '--to-ptx', '--no-residency-hint', '--force', '-o', 'k.ttir'],
    ['k.ttir', '--to-ptx', '--residency-hint'],
    ['k.tc', '--from-c', '--variant', '3', '--to-ptx', '--allow-tf32'],
    ['k.tc', '--from-c', '--all-variants', 'space', '--to-ptx', '--arch', 'sm_90a'],
    ['k.tc', '--from-c', '--list-variants'],
    ['k.mlir', '--to-mlir', '--allow-unregistered-dialect', '--debug'],
    ['k.ttir', '--to-llvm', '--emit-bitcode', 'k.bc', '--num-warps', '0'],
    ['k.ttir', '--to-ptx', '--via-llvm'],
  ]) {
    const simple = simpleTranslateArgs(args, FLAGS);
    assert.ok(simple, `not read without yargs: ${args.join(' ')}`);
    assert.equal(values(simple), values(parseTranslateArgs(args, TRANSLATIONS)), args.join(' '));
  }
});

test('anything else goes to yargs', () => {
  for (const args of [
    ['-'],
    ['a.ttir', 'b.ttir'],
    ['010', '--to-ptx'],
    ['k.ttir', '--to-ptx', '--num-warps', '08'],
    ['k.ttir', '--to-ptx', '--num-warps', '4.5'],
    ['k.ttir', '--to-ptx', '--num-warps'],
    ['k.ttir', '--to-ptx', '--arch'],
    ['k.ttir', '--to-ptx', '-o', '-'],
    ['k.ttir', '--to-ptx', '-o', 'a', '-o', 'b'],
    ['k.ttir', '--to-ptx', '-o=k.ptx'],
    ['k.ttir', '--to-ptx', '--arch', '90'],
    ['k.ttir', '--to-ptx', '--to-ptx'],
    ['k.ttir', '--to-ptx=true'],
    ['k.ttir', '--toPtx'],
    ['k.ttir', '--no-force'],
    ['k.ttir', '--to-ptx', '--residency-hint', '--no-residency-hint'],
    ['k.ttir', '--unknown'],
    ['k.ttir', '-x'],
    ['--list-translations'],
    ['--help'],
    ['-h'],
    ['--version'],
  ]) assert.is(simpleTranslateArgs(args, FLAGS), null, args.join(' '));
});

test.run();
