/**
 * Unit tests of the `convert-to-gpu` pass: the default blocked layouts (checked against Triton's
 * builder on known shapes), exact output of small kernels, options, the lit file run in-process
 * (both RUN lines), and every examples/ttir kernel converted, verified and run in the
 * interpreter with identical outputs before and after.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import type { Operation } from '../../ir/ir.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { verify } from '../../ir/verifier.js';
import { convertToGpu } from '../../passes/convert-to-gpu.js';
import { defaultBlocked, dotResultLayout, type GpuConfig } from '../../passes/support/convert-to-gpu-layouts.js';
import { AnalysisCache, PassContext, type PassOptions } from '../../passes/pass.js';
import { runFileCheck } from '../../tools/filecheck.js';
import { runPass } from '../helpers/pass-harness.js';
import { runExample } from '../helpers/example-kernels.js';

registerAllDialects();

const cfg = (numWarps = 4, threadsPerWarp = 32, numCTAs = 1): GpuConfig => ({ numWarps, threadsPerWarp, numCTAs });

/** Runs the pass on a parsed module in place (verifying before and after). */
function convertModule(module: Operation, options: PassOptions = {}): Map<string, number> {
  verify(module);
  const defaults = Object.fromEntries(Object.entries(convertToGpu.options ?? {}).map(([k, d]) => [k, d.default]));
  const ctx = new PassContext(convertToGpu, { ...defaults, ...options }, new AnalysisCache());
  convertToGpu.run(module, ctx);
  verify(module);
  return ctx.statistics;
}

test('default blocked layouts follow Triton (fastest dimension first, the slowest takes the rest)', () => {
  assert.is(String(defaultBlocked([1024], cfg())), '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>');
  assert.is(String(defaultBlocked([128, 64], cfg())), '#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>');
  assert.is(String(defaultBlocked([128, 1], cfg())), '#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>');
  assert.is(String(defaultBlocked([1, 8], cfg())), '#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>');
  assert.is(String(defaultBlocked([4, 8, 16], cfg(8))), '#ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 2, 16], warpsPerCTA = [2, 4, 1], order = [2, 1, 0]}>');
  assert.is(String(defaultBlocked([64], cfg(4, 64))), '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>');
  assert.is(
    String(defaultBlocked([16, 32], cfg(4, 32, 2))),
    '#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0], CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>',
  );
  assert.is(String(dotResultLayout([128, 256], cfg())), '#ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>');
  assert.is(String(dotResultLayout([16, 16], cfg())), '#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>');
  assert.is(String(dotResultLayout([32, 32], cfg())), '#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>');
});

test('1-D: every tensor gets #blocked, module attributes are set, nothing is converted', () => {
  const { out, stats } = runPass(
    convertToGpu,
    `tt.func @k(%p: !tt.ptr<f32>, %n: i32) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %s = tt.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %s : tensor<128xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %c = arith.constant dense<1.000000e+00> : tensor<128xf32>
  tt.store %pp, %c, %m : tensor<128x!tt.ptr<f32>>
  tt.return
}`,
  );
  assert.is(
    out,
    `#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @k(%p: !tt.ptr<f32>, %n: i32) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %s = tt.splat %n : i32 -> tensor<128xi32, #blocked>
    %m = arith.cmpi slt, %r, %s : tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %c = arith.constant dense<1.000000e+00> : tensor<128xf32, #blocked>
    tt.store %pp, %c, %m : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
`,
  );
  assert.is(stats.get('converts-inserted'), 0);
});

test('expand_dims takes a slice of its (Triton) result layout; its result and broadcasts are converted for their users', () => {
  const { out, stats } = runPass(
    convertToGpu,
    `tt.func @k(%x: tensor<16xi32>) -> tensor<16x8xi32> {
  %e = tt.expand_dims %x {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %b = tt.broadcast %e : tensor<16x1xi32> -> tensor<16x8xi32>
  %s = arith.addi %b, %b : tensor<16x8xi32>
  tt.return %s : tensor<16x8xi32>
}`,
  );
  assert.is(
    out,
    `#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @k(%x: tensor<16xi32, #blocked>) -> tensor<16x8xi32, #blocked1> {
    %0 = ttg.convert_layout %x : tensor<16xi32, #blocked> -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %e = tt.expand_dims %0 {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<16x1xi32, #blocked2>
    %1 = ttg.convert_layout %e : tensor<16x1xi32, #blocked2> -> tensor<16x1xi32, #blocked3>
    %b = tt.broadcast %1 : tensor<16x1xi32, #blocked3> -> tensor<16x8xi32, #blocked3>
    %2 = ttg.convert_layout %b : tensor<16x8xi32, #blocked3> -> tensor<16x8xi32, #blocked1>
    %s = arith.addi %2, %2 : tensor<16x8xi32, #blocked1>
    tt.return %s : tensor<16x8xi32, #blocked1>
  }
}
`,
  );
  assert.is(stats.get('converts-inserted'), 3);
});

test('join / split / trans / cat / scf.while / tt.call follow Triton and verify', () => {
  const { out } = runPass(
    convertToGpu,
    `tt.func @shapes(%x: tensor<16x32xf32>, %y: tensor<16x32xf32>) -> (tensor<32x16xf32>, tensor<32x32xf32>) {
  %j = tt.join %x, %y : tensor<16x32xf32> -> tensor<16x32x2xf32>
  %a, %b = tt.split %j : tensor<16x32x2xf32> -> tensor<16x32xf32>
  %t = tt.trans %a {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
  %c = tt.cat %x, %b : tensor<16x32xf32> -> tensor<32x32xf32>
  tt.return %t, %c : tensor<32x16xf32>, tensor<32x32xf32>
}
tt.func @id(%x: tensor<8xi32>) -> tensor<8xi32> {
  tt.return %x : tensor<8xi32>
}
tt.func @loop(%n: i32) -> tensor<8xi32> {
  %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %w:2 = scf.while (%i = %n, %v = %r) : (i32, tensor<8xi32>) -> (i32, tensor<8xi32>) {
    %c0 = arith.constant 0 : i32
    %cond = arith.cmpi sgt, %i, %c0 : i32
    scf.condition(%cond) %i, %v : i32, tensor<8xi32>
  } do {
  ^bb0(%i2: i32, %v2: tensor<8xi32>):
    %c1 = arith.constant 1 : i32
    %i3 = arith.subi %i2, %c1 : i32
    %v3 = tt.call @id(%v2) : (tensor<8xi32>) -> tensor<8xi32>
    scf.yield %i3, %v3 : i32, tensor<8xi32>
  }
  tt.return %w#1 : tensor<8xi32>
}`,
  );
  const lines = [
    '#blocked2 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>',
    '#blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>',
    '%j = tt.join %x, %y : tensor<16x32xf32, #blocked> -> tensor<16x32x2xf32, #blocked2>',
    '%a, %b = tt.split %j : tensor<16x32x2xf32, #blocked2> -> tensor<16x32xf32, #blocked>',
    '%t = tt.trans %a {order = array<i32: 1, 0>} : tensor<16x32xf32, #blocked> -> tensor<32x16xf32, #blocked3>',
    '%0 = ttg.convert_layout %t : tensor<32x16xf32, #blocked3> -> tensor<32x16xf32, #blocked1>',
    '%c = tt.cat %x, %b : tensor<16x32xf32, #blocked> -> tensor<32x32xf32, #blocked>',
    'tt.func @id(%x: tensor<8xi32, #blocked4>) -> tensor<8xi32, #blocked4> {',
    '%w:2 = scf.while (%i = %n, %v = %r) : (i32, tensor<8xi32, #blocked4>) -> (i32, tensor<8xi32, #blocked4>) {',
    'scf.condition(%cond) %i, %v : i32, tensor<8xi32, #blocked4>',
    '%v3 = tt.call @id(%v2) : (tensor<8xi32, #blocked4>) -> tensor<8xi32, #blocked4>',
  ];
  for (const l of lines) assert.ok(out.includes(l), `missing: ${l}\n--- output ---\n${out}`);
});

test('options: num-warps=8, threads-per-warp=64 and target change the layouts and attributes', () => {
  const { out } = runPass(
    convertToGpu,
    `tt.func @k() -> tensor<64x64xi32> {
  %c = arith.constant dense<7> : tensor<64x64xi32>
  tt.return %c : tensor<64x64xi32>
}`,
    { 'num-warps': 8, 'threads-per-warp': 64, target: 'hip:gfx942' },
  );
  assert.match(out, '#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [8, 1], order = [1, 0]}>');
  assert.match(out, 'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32}');
});

test('tensors that already have a layout are left alone', () => {
  const text = `#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @k(%x: tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked> {
    %0 = arith.addi %x, %x : tensor<128xi32, #blocked>
    tt.return %0 : tensor<128xi32, #blocked>
  }
}
`;
  const { out, stats } = runPass(convertToGpu, text);
  assert.is(out, text);
  assert.is(stats.get('converts-inserted'), 0);
});

test('bad options are reported', () => {
  const { module } = parseText('tt.func @k() {\n  tt.return\n}');
  assert.throws(() => convertModule(module, { 'num-warps': 3 }), /num-warps must be a power of 2, got 3/);
  assert.throws(() => convertModule(module, { target: '' }), /requires the 'target' option/);
  convertModule(module);
  assert.throws(() => convertModule(module, { 'num-warps': 8 }), /'builtin.module' op was already converted with ttg.num-warps = 4; its layouts do not fit 8/);
});

/** Runs a lit file the way its RUN lines do: each `// -----` chunk through the pass, then FileCheck per prefix. */
test('lit/passes/convert-to-gpu.tir (both RUN lines)', () => {
  const text = readFileSync(new URL('../../lit/passes/convert-to-gpu.tir', import.meta.url), 'utf8');
  const runs: { options: PassOptions; prefix: string }[] = [
    { options: {}, prefix: 'CHECK' },
    { options: { 'num-warps': 8 }, prefix: 'WARPS8' },
  ];
  for (const { options, prefix } of runs) {
    const out = text.split(/^\/\/ -----$/m).map((chunk) => runPass(convertToGpu, chunk, options).out).join('// -----\n');
    const r = runFileCheck(text, out, { checkFileName: 'convert-to-gpu.tir', checkPrefixes: [prefix] });
    assert.ok(r.ok, r.message + '\n--- output ---\n' + out);
  }
});

// ---- the example kernels, before and after, in the interpreter --------------------------

const dir = new URL('../../examples/ttir/', import.meta.url);
const load = (name: string): Operation => {
  const { module } = parseText(readFileSync(new URL(name, dir), 'utf8'), {}, name);
  verify(module);
  return module;
};

/** Runs one example kernel on random inputs and returns every output buffer. */

for (const file of readdirSync(dir).filter((f) => f.endsWith('.ttir'))) {
  test(`examples/ttir/${file}: converts, verifies, round-trips, and computes the same outputs`, () => {
    const before = load(file);
    const after = load(file);
    convertModule(after);
    const printed = printModule(after);
    assert.match(printed, 'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32}');
    assert.not.match(printed, /tensor<[0-9x]+(x!tt\.ptr<\w+>|x?[a-z]+\d+)>/, 'a tensor without a layout is left');
    const reparsed = parseText(printed).module;
    verify(reparsed);
    assert.is(printModule(reparsed), printed);
    for (const seed of [1, 2]) assert.equal(runExample(file, after, seed), runExample(file, before, seed), `seed ${seed}`);
  });
}

test.run();
