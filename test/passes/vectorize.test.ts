/**
 * Unit tests of the `vectorize` pass: widths limited by the 16-byte vector, divisibility,
 * contiguity, mask constancy and the layout's sizePerThread; atomics; IR without layouts left
 * alone; and the lit file run in-process through `convert-to-gpu,coalesce,vectorize`.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import type { Operation } from '../../ir/ir.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { verify } from '../../ir/verifier.js';
import { coalesce } from '../../passes/coalesce.js';
import { convertToGpu } from '../../passes/convert-to-gpu.js';
import { AnalysisCache, PassContext, type PassDecl } from '../../passes/pass.js';
import { VECTOR_WIDTH_ATTR, vectorize } from '../../passes/vectorize.js';
import { runFileCheck } from '../../tools/filecheck.js';

registerAllDialects();

/** Runs `passes` with their defaults on `module`, verifying after each; returns the last statistics. */
function runAll(module: Operation, passes: PassDecl[]): Map<string, number> {
  const cache = new AnalysisCache();
  let stats = new Map<string, number>();
  for (const p of passes) {
    const defaults = Object.fromEntries(Object.entries(p.options ?? {}).map(([k, d]) => [k, d.default]));
    const ctx = new PassContext(p, defaults, cache);
    p.run(module, ctx);
    cache.invalidate(ctx.preserved);
    verify(module);
    stats = ctx.statistics;
  }
  return stats;
}

/** The `tt.vector_width` of every access op in walk order (undefined where none was set). */
function widths(module: Operation): (number | undefined)[] {
  const out: (number | undefined)[] = [];
  module.walk((op) => {
    if (!['tt.load', 'tt.store', 'tt.atomic_rmw', 'tt.atomic_cas'].includes(op.name)) return;
    const a = op.getAttr(VECTOR_WIDTH_ATTR) as { num?: number } | undefined;
    out.push(a?.num);
  }, 'pre');
  return out;
}

const LAYOUT_CAPPED = `#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %v: tensor<1024xf16, #blocked>, %w: tensor<1024xf16, #blocked1>) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %s = tt.splat %x : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %p = tt.addptr %s, %r : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %p, %v : tensor<1024x!tt.ptr<f16>, #blocked>
    %a = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xf16, #blocked>) -> tensor<1024xf16, #blocked>
    %r1 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked1>
    %s1 = tt.splat %x : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked1>
    %p1 = tt.addptr %s1, %r1 : tensor<1024x!tt.ptr<f16>, #blocked1>, tensor<1024xi32, #blocked1>
    %c = tt.atomic_cas relaxed, gpu, %p1, %w, %w : (tensor<1024x!tt.ptr<f16>, #blocked1>, tensor<1024xf16, #blocked1>, tensor<1024xf16, #blocked1>) -> tensor<1024xf16, #blocked1>
    tt.return
  }
}`;

test('sizePerThread caps the width (2 of 8 possible f16); f16 atomic_rmw packs 2; atomic_cas takes 1', () => {
  const { module } = parseText(LAYOUT_CAPPED);
  const stats = runAll(module, [vectorize]);
  assert.equal(widths(module), [2, 2, 1]);
  assert.is(stats.get('accesses-annotated'), 3);
  assert.is(stats.get('accesses-vectorized'), 2);
  const out = printModule(module);
  assert.ok(out.includes('tt.store %p, %v {tt.vector_width = 2 : i32} : tensor<1024x!tt.ptr<f16>, #blocked>'), out);
  const again = runAll(module, [vectorize]);
  assert.is(again.get('accesses-annotated') ?? 0, 0);
  assert.is(printModule(module), out);
});

test('accesses without a layout (not converted yet) get no width', () => {
  const text = `tt.func @f(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %s = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %p = tt.addptr %s, %r : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %v = tt.load %p : tensor<1024x!tt.ptr<f32>>
  tt.return
}`;
  const { module } = parseText(text);
  runAll(module, [vectorize]);
  assert.equal(widths(module), [undefined]);
  runAll(module, [convertToGpu, coalesce, vectorize]);
  assert.equal(widths(module), [4]);
});

test('example kernels: add 4 (f32), matmul 8 (f16), softmax 1 (mask of unknown n_cols)', () => {
  const cases: [string, number[]][] = [['add_kernel', [4, 4, 4]], ['matmul_kernel', [8, 8, 8]], ['softmax_kernel', [1, 1]]];
  for (const [name, want] of cases) {
    const { module } = parseText(readFileSync(new URL(`../../examples/ttir/${name}.ttir`, import.meta.url), 'utf8'));
    runAll(module, [convertToGpu, coalesce, vectorize]);
    assert.equal(widths(module), want, name);
  }
});

test('lit/passes/vectorize.tir (convert-to-gpu,coalesce,vectorize)', () => {
  const text = readFileSync(new URL('../../lit/passes/vectorize.tir', import.meta.url), 'utf8');
  const out = text
    .split(/^\/\/ -----$/m)
    .map((chunk) => {
      const { module } = parseText(chunk);
      runAll(module, [convertToGpu, coalesce, vectorize]);
      return printModule(module);
    })
    .join('// -----\n');
  const r = runFileCheck(text, out, { checkFileName: 'vectorize.tir' });
  assert.ok(r.ok, r.message + '\n--- output ---\n' + out);
});

test.run();
