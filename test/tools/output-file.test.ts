/** Tests of tools/output-file.ts: outputs never overwrite an input unless forced, and bad paths are user errors. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { UserError } from '../../tools/input-chunks.js';
import { checkOutputPath, writeOutput } from '../../tools/output-file.js';
import { parse } from '../../tools/api.js';
import { printModule, printModuleParts } from '../../ir/printer.js';

const dir = mkdtempSync(join(tmpdir(), 'output-file-test-'));
const input = join(dir, 'in.tir');
writeFileSync(input, 'input');
mkdirSync(join(dir, 'sub'));
symlinkSync(input, join(dir, 'link.tir'));

/** The message of the UserError `f` throws. */
function userError(f: () => void): string {
  try {
    f();
  } catch (e) {
    assert.instance(e, UserError);
    return (e as Error).message;
  }
  return assert.unreachable('no error') as never;
}

test('an output naming an input (any spelling of it) is refused unless forced', () => {
  for (const spelling of [input, join(dir, 'sub', '..', 'in.tir'), join(dir, 'link.tir')]) {
    const msg = userError(() => checkOutputPath('-o', spelling, [input], false));
    assert.match(msg, `-o ${spelling} would overwrite the input file '${input}'; write elsewhere, or pass --force to overwrite it`);
  }
  checkOutputPath('-o', input, [input], true);
  checkOutputPath('-o', join(dir, 'out.tir'), [input], false);
  checkOutputPath('-o', input, ['-'], false);
});

test("'-' is stdout; a missing directory or a directory is a user error", () => {
  checkOutputPath('-o', '-', [input], false);
  assert.match(userError(() => checkOutputPath('--emit-metadata', join(dir, 'no', 'm.json'), [], false)), `could not open output file '${join(dir, 'no', 'm.json')}': no such directory '${join(dir, 'no')}'`);
  assert.match(userError(() => checkOutputPath('-o', join(dir, 'sub'), [], false)), 'is a directory');
  assert.match(userError(() => writeOutput(join(dir, 'no', 'x'), 'text')), 'no such file or directory');
  writeOutput(join(dir, 'sub', 'x'), 'text');
  assert.is(readFileSync(join(dir, 'sub', 'x'), 'utf8'), 'text');
});

test('a text in parts is written part by part, whole, multi-byte characters included; a module prints in the same parts', () => {
  const parts = ['module {\n', '  // é ∀ 𝔽\n'.repeat(5000), '}\n'];
  writeOutput(join(dir, 'parts.tir'), parts);
  assert.is(readFileSync(join(dir, 'parts.tir'), 'utf8'), parts.join(''));
  writeOutput(join(dir, 'none.tir'), []);
  assert.is(readFileSync(join(dir, 'none.tir'), 'utf8'), '');
  // a module of ~150 KiB of text: several 64 KiB chunks, joined exactly as printModule's text
  const ops = Array.from({ length: 3000 }, (_, k) => `  %v${k + 1} = arith.addi %v${k}, %v${k} : i32`).join('\n');
  const module = parse(`func.func @f(%v0: i32) -> i32 {\n${ops}\n  return %v3000 : i32\n}\n`);
  const printed = printModuleParts(module);
  assert.ok(printed.length > 2, `${printed.length} parts`);
  assert.is(printed.join(''), printModule(module));
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
