/**
 * Unit tests of the `coalesce` pass: the layouts it gives the loads and stores of the example
 * kernels agree with Triton's (examples/ttir/*.sm80.ttgir), exact output on a small kernel,
 * idempotence, and the lit file run in-process through `convert-to-gpu,coalesce`.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { IntegerAttr } from '../../ir/attributes.js';
import type { Operation } from '../../ir/ir.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { verify } from '../../ir/verifier.js';
import { RankedTensorType } from '../../ir/types.js';
import { coalesce } from '../../passes/coalesce.js';
import { convertToGpu } from '../../passes/convert-to-gpu.js';
import { AnalysisCache, PassContext, type PassDecl, type PassOptions } from '../../passes/pass.js';
import { runFileCheck } from '../../tools/filecheck.js';

registerAllDialects();

const ACCESS = new Set(['tt.load', 'tt.store', 'ttg.async_copy_global_to_local']);

/** Runs `passes` in order on `module` (defaults plus `options` for each), verifying after each. */
function runAll(module: Operation, passes: PassDecl[], options: PassOptions = {}): Map<string, number> {
  const cache = new AnalysisCache();
  let stats = new Map<string, number>();
  for (const p of passes) {
    const defaults = Object.fromEntries(Object.entries(p.options ?? {}).map(([k, d]) => [k, d.default]));
    const own = Object.fromEntries(Object.entries(options).filter(([k]) => k in (p.options ?? {})));
    const ctx = new PassContext(p, { ...defaults, ...own }, cache);
    p.run(module, ctx);
    cache.invalidate(ctx.preserved);
    verify(module);
    stats = ctx.statistics;
  }
  return stats;
}

/** The layout of the pointer of every global access in `module`, by pointer shape (all accesses of one shape must agree). */
function accessLayouts(module: Operation): Map<string, string> {
  const out = new Map<string, string>();
  module.walk((op) => {
    if (!ACCESS.has(op.name)) return;
    const t = op.operand(0).type;
    if (!(t instanceof RankedTensorType)) return;
    const key = t.shape.join('x');
    const layout = String(t.encoding);
    assert.is(out.get(key) ?? layout, layout, `accesses of shape ${key} disagree`);
    out.set(key, layout);
  });
  return out;
}

for (const name of ['add_kernel', 'matmul_kernel', 'softmax_kernel']) {
  test(`${name}: the access layouts match Triton's sm80 choices`, () => {
    const base = new URL(`../../examples/ttir/${name}`, import.meta.url);
    const triton = parseText(readFileSync(new URL(`${base.href}.sm80.ttgir`), 'utf8')).module;
    const warps = triton.getAttr('ttg.num-warps');
    const { module } = parseText(readFileSync(new URL(`${base.href}.ttir`), 'utf8'));
    runAll(module, [convertToGpu, coalesce], { 'num-warps': warps instanceof IntegerAttr ? warps.num : 4 });
    const ours = accessLayouts(module);
    const theirs = accessLayouts(triton);
    assert.ok(theirs.size > 0);
    assert.equal([...ours.entries()].sort(), [...theirs.entries()].sort());
  });
}

test('add kernel: sizePerThread [4] for 1024xf32 with 4 warps; matmul: [1, 8] for f16', () => {
  const add = parseText(readFileSync(new URL('../../examples/ttir/add_kernel.ttir', import.meta.url), 'utf8')).module;
  runAll(add, [convertToGpu, coalesce]);
  assert.is(accessLayouts(add).get('1024'), '#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>');
  const mm = parseText(readFileSync(new URL('../../examples/ttir/matmul_kernel.ttir', import.meta.url), 'utf8')).module;
  runAll(mm, [convertToGpu, coalesce], { 'num-warps': 8 });
  assert.is(accessLayouts(mm).get('128x64'), '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>');
});

const SMALL = `tt.func @f(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %s = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %p = tt.addptr %s, %r : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  %v = tt.atomic_rmw fadd, relaxed, gpu, %p, %v0 : (tensor<256x!tt.ptr<f32>>, tensor<256xf32>) -> tensor<256xf32>
  tt.return
}`;

test('exact output: an atomic over 256 contiguous f32 gets 2 per thread (256 / 128 threads); a second run changes nothing', () => {
  const text = SMALL.replace('%v0', '%c').replace('  %v = tt.atomic', '  %c = arith.constant dense<1.000000e+00> : tensor<256xf32>\n  %v = tt.atomic');
  const { module } = parseText(text);
  const stats = runAll(module, [convertToGpu, coalesce]);
  assert.is(stats.get('accesses-coalesced'), 1);
  assert.is(stats.get('converts-inserted'), 3);
  const out = printModule(module);
  assert.ok(out.includes('#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>'), out);
  assert.ok(out.includes('%v = tt.atomic_rmw fadd, relaxed, gpu, %0, %1 : (tensor<256x!tt.ptr<f32>, #blocked1>, tensor<256xf32, #blocked1>) -> tensor<256xf32, #blocked1>'), out);
  assert.ok(out.includes('%2 = ttg.convert_layout %v : tensor<256xf32, #blocked1> -> tensor<256xf32, #blocked>'), out);
  const again = runAll(module, [coalesce]);
  assert.is(again.get('accesses-coalesced') ?? 0, 0);
  assert.is(printModule(module), out);
});

test('lit/passes/coalesce.tir (convert-to-gpu,coalesce)', () => {
  const text = readFileSync(new URL('../../lit/passes/coalesce.tir', import.meta.url), 'utf8');
  const out = text
    .split(/^\/\/ -----$/m)
    .map((chunk) => {
      const { module } = parseText(chunk);
      runAll(module, [convertToGpu, coalesce]);
      return printModule(module);
    })
    .join('// -----\n');
  const r = runFileCheck(text, out, { checkFileName: 'coalesce.tir' });
  assert.ok(r.ok, r.message + '\n--- output ---\n' + out);
});

test.run();
