/**
 * Unit tests of shared-memory allocation (`alloc-shared`, `test-print-allocation`): the lit files
 * in-process, packing rules on hand-made buffers, and the real matmul_kernel.sm80 allocation.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import type { Operation } from '../../ir/ir.js';
import { parseSourceFile, parseText } from '../../ir/parser.js';
import { allocShared } from '../../passes/alloc-shared.js';
import { allocateModule, packBuffers, type SharedBuffer } from '../../passes/support/alloc-shared-core.js';
import { AnalysisCache, PassContext } from '../../passes/pass.js';
import { testPrintAllocation } from '../../passes/test-print-allocation.js';
import { splitInput } from '../../tools/input-chunks.js';
import { checkDiagnostics } from '../../tools/verify-diagnostics.js';
import { litCheck } from '../helpers/pass-harness.js';

registerAllDialects();

test('lit/passes/alloc-shared.tir', () => {
  litCheck(allocShared);
});

/** Runs a lit file as `--split-input-file --test-print-allocation --verify-diagnostics` does; returns the problems. */
function verifyLit(text: string): string[] {
  const problems: string[] = [];
  for (const src of splitInput('test-print-allocation.tir', text, '// -----')) {
    const { module } = parseSourceFile(src);
    const ctx = new PassContext(testPrintAllocation, {}, new AnalysisCache());
    testPrintAllocation.run(module, ctx);
    problems.push(...checkDiagnostics(src, ctx.remarks));
  }
  return problems;
}

const printLit = readFileSync(new URL('../../lit/passes/test-print-allocation.tir', import.meta.url), 'utf8');

test('lit/passes/test-print-allocation.tir', () => {
  assert.equal(verifyLit(printLit), []);
});

test('lit/passes/test-print-allocation.tir fails on a wrong expectation', () => {
  const broken = printLit.replace('{{offset = 4096, size = 2048}}', '{{offset = 0, size = 2048}}');
  assert.is.not(broken, printLit);
  assert.ok(verifyLit(broken).length > 0);
});

const fake = {} as Operation;
const buf = (size: number, start: number, end: number, alignment = 16): SharedBuffer => ({
  kind: 'explicit', owner: fake, size, alignment, live: { start, end }, offset: -1,
});

test('packing: largest first, first fit, reuse across disjoint lifetimes, alignment', () => {
  const [a, b, c, d] = [buf(100, 0, 4), buf(300, 2, 6), buf(200, 6, 9), buf(50, 3, 5, 1024)];
  const total = packBuffers([a, b, c, d]);
  assert.equal([b.offset, c.offset, a.offset, d.offset], [0, 0, 304, 1024]);
  assert.is(total, 1074);
});

test('examples/ttir/matmul_kernel.sm80.ttgir: both operand buffers live together, 98304 bytes', () => {
  const text = readFileSync(new URL('../../examples/ttir/matmul_kernel.sm80.ttgir', import.meta.url), 'utf8');
  const { module } = parseText(text);
  const { functions, total } = allocateModule(module);
  assert.is(total, 98304);
  const explicit = functions[0].buffers.filter((b) => b.kind === 'explicit').map((b) => [b.size, b.offset]);
  assert.equal(explicit, [[32768, 65536], [65536, 0]]);
  const ctx = new PassContext(allocShared, {}, new AnalysisCache());
  allocShared.run(module, ctx);
  assert.is(String(module.getAttr('ttg.shared')), '98304 : i32');
  assert.is(ctx.statistics.get('explicit-buffers'), 2);
});

test.run();
