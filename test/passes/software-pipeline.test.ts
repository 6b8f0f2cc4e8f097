/**
 * Unit tests of the `software-pipeline` pass: the lit file run in-process, and meaning kept: a 32x32 matmul
 * over K = 72 (five iterations of 16, the last one half masked, so the prefetches of iterations 5
 * and 6 are masked off entirely) gives the same output in the CPU interpreter before and after
 * `software-pipeline{num-stages=S}` for S = 2, 3 and 4 (with and without a spare slot), on random inputs, for f16 operands (MMA parent),
 * f32 operands (blocked parent), and operands in convert-to-gpu's convert_layout form.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { softwarePipeline } from '../../passes/software-pipeline.js';
import { interpret } from '../../tools/interpreter/interpreter.js';
import { Memory } from '../../tools/interpreter/memory.js';
import { parse } from '../interpreter/helpers.js';
import { litCheck, runPass } from '../helpers/pass-harness.js';

registerAllDialects();

const K = 72;

/** The matmul kernel; `form` says how the loads reach the dot; without `maskA` A's load has no mask. */
function kernel(elt: 'f16' | 'f32', form: 'shared' | 'convert', maskA = true): string {
  const acc = elt === 'f16' ? '#mma' : '#acc';
  const opA = elt === 'f16' ? `#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>` : `#ttg.dot_op<{opIdx = 0, parent = #acc}>`;
  const opB = elt === 'f16' ? `#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>` : `#ttg.dot_op<{opIdx = 1, parent = #acc}>`;
  const operand = (name: string, shape: string, op: string): string =>
    form === 'convert'
      ? `%${name}d = ttg.convert_layout %${name} : tensor<${shape}x${elt}, #blocked> -> tensor<${shape}x${elt}, ${op}>`
      : `%${name}s = ttg.local_alloc %${name} : (tensor<${shape}x${elt}, #blocked>) -> !ttg.memdesc<${shape}x${elt}, #shared, #smem>
      %${name}d = ttg.local_load %${name}s : !ttg.memdesc<${shape}x${elt}, #shared, #smem> -> tensor<${shape}x${elt}, ${op}>`;
  return `#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @k(%A: !tt.ptr<${elt}>, %B: !tt.ptr<${elt}>, %c: !tt.ptr<f32>, %K: i32) {
    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, ${acc}>
    %za = arith.constant dense<0.000000e+00> : tensor<32x16x${elt}, #blocked>
    %zb = arith.constant dense<0.000000e+00> : tensor<16x32x${elt}, #blocked>
    %rm = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rn = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rka = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rkb = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %rka2 = tt.expand_dims %rka {axis = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x16xi32, #blocked>
    %rkb2 = tt.expand_dims %rkb {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16x1xi32, #blocked>
    %Ks = tt.splat %K : i32 -> tensor<32x1xi32, #blocked>
    %am = arith.muli %rm2, %Ks : tensor<32x1xi32, #blocked>
    %amb = tt.broadcast %am : tensor<32x1xi32, #blocked> -> tensor<32x16xi32, #blocked>
    %akb = tt.broadcast %rka2 : tensor<1x16xi32, #blocked> -> tensor<32x16xi32, #blocked>
    %aoff = arith.addi %amb, %akb : tensor<32x16xi32, #blocked>
    %asp = tt.splat %A : !tt.ptr<${elt}> -> tensor<32x16x!tt.ptr<${elt}>, #blocked>
    %pa0 = tt.addptr %asp, %aoff : tensor<32x16x!tt.ptr<${elt}>, #blocked>, tensor<32x16xi32, #blocked>
    %c32 = arith.constant dense<32> : tensor<16x1xi32, #blocked>
    %bk = arith.muli %rkb2, %c32 : tensor<16x1xi32, #blocked>
    %bkb = tt.broadcast %bk : tensor<16x1xi32, #blocked> -> tensor<16x32xi32, #blocked>
    %bnb = tt.broadcast %rn2 : tensor<1x32xi32, #blocked> -> tensor<16x32xi32, #blocked>
    %boff = arith.addi %bkb, %bnb : tensor<16x32xi32, #blocked>
    %bsp = tt.splat %B : !tt.ptr<${elt}> -> tensor<16x32x!tt.ptr<${elt}>, #blocked>
    %pb0 = tt.addptr %bsp, %boff : tensor<16x32x!tt.ptr<${elt}>, #blocked>, tensor<16x32xi32, #blocked>
    %sa = arith.constant dense<16> : tensor<32x16xi32, #blocked>
    %sb = arith.constant dense<512> : tensor<16x32xi32, #blocked>
    %r:3 = scf.for %kk = %c0 to %K step %c16 iter_args(%acc = %zero, %pa = %pa0, %pb = %pb0) -> (tensor<32x32xf32, ${acc}>, tensor<32x16x!tt.ptr<${elt}>, #blocked>, tensor<16x32x!tt.ptr<${elt}>, #blocked>) : i32 {
      %kka = tt.splat %kk : i32 -> tensor<1x16xi32, #blocked>
      %ka = arith.addi %rka2, %kka : tensor<1x16xi32, #blocked>
      %Ka = tt.splat %K : i32 -> tensor<1x16xi32, #blocked>
      %ma1 = arith.cmpi slt, %ka, %Ka : tensor<1x16xi32, #blocked>
      %ma = tt.broadcast %ma1 : tensor<1x16xi1, #blocked> -> tensor<32x16xi1, #blocked>
      %a = tt.load %pa${maskA ? ', %ma, %za' : ''} : tensor<32x16x!tt.ptr<${elt}>, #blocked>
      ${operand('a', '32x16', opA)}
      %kkb = tt.splat %kk : i32 -> tensor<16x1xi32, #blocked>
      %kb = arith.addi %rkb2, %kkb : tensor<16x1xi32, #blocked>
      %Kb = tt.splat %K : i32 -> tensor<16x1xi32, #blocked>
      %mb1 = arith.cmpi slt, %kb, %Kb : tensor<16x1xi32, #blocked>
      %mb = tt.broadcast %mb1 : tensor<16x1xi1, #blocked> -> tensor<16x32xi1, #blocked>
      %b = tt.load %pb, %mb, %zb : tensor<16x32x!tt.ptr<${elt}>, #blocked>
      ${operand('b', '16x32', opB)}
      %d = tt.dot %ad, %bd, %acc : tensor<32x16x${elt}, ${opA}> * tensor<16x32x${elt}, ${opB}> -> tensor<32x32xf32, ${acc}>
      %pa1 = tt.addptr %pa, %sa : tensor<32x16x!tt.ptr<${elt}>, #blocked>, tensor<32x16xi32, #blocked>
      %pb1 = tt.addptr %pb, %sb : tensor<16x32x!tt.ptr<${elt}>, #blocked>, tensor<16x32xi32, #blocked>
      scf.yield %d, %pa1, %pb1 : tensor<32x32xf32, ${acc}>, tensor<32x16x!tt.ptr<${elt}>, #blocked>, tensor<16x32x!tt.ptr<${elt}>, #blocked>
    }
    %out = ttg.convert_layout %r#0 : tensor<32x32xf32, ${acc}> -> tensor<32x32xf32, #blocked>
    %c32r = arith.constant dense<32> : tensor<32x1xi32, #blocked>
    %cm = arith.muli %rm2, %c32r : tensor<32x1xi32, #blocked>
    %cmb = tt.broadcast %cm : tensor<32x1xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %cnb = tt.broadcast %rn2 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %coff = arith.addi %cmb, %cnb : tensor<32x32xi32, #blocked>
    %csp = tt.splat %c : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #blocked>
    %pc = tt.addptr %csp, %coff : tensor<32x32x!tt.ptr<f32>, #blocked>, tensor<32x32xi32, #blocked>
    tt.store %pc, %out : tensor<32x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
`;
}

/** `kernel(elt, 'shared', false)` with B prefetched by hand into registers, as the seeds' kernels do (it reads one tile past K). */
function prefetchedKernel(elt: 'f16' | 'f32'): string {
  const bt = `tensor<16x32x${elt}, #blocked>`;
  const pbt = `tensor<16x32x!tt.ptr<${elt}>, #blocked>`;
  const edits: [string, string][] = [
    ['    %sa = arith.constant', `    %b0 = tt.load %pb0 : ${pbt}\n    %sa = arith.constant`],
    ['%r:3 = scf.for', '%r:4 = scf.for'],
    ['iter_args(%acc = %zero, %pa = %pa0, %pb = %pb0)', 'iter_args(%acc = %zero, %pa = %pa0, %pb = %pb0, %bc = %b0)'],
    [`${pbt}) : i32 {`, `${pbt}, ${bt}) : i32 {`],
    [`      %b = tt.load %pb, %mb, %zb : ${pbt}\n`, ''],
    ['%bs = ttg.local_alloc %b :', '%bs = ttg.local_alloc %bc :'],
    ['      scf.yield %d, %pa1, %pb1 : ', `      %bn = tt.load %pb1 : ${pbt}\n      scf.yield %d, %pa1, %pb1, %bn : `],
    [`${pbt}\n    }`, `${pbt}, ${bt}\n    }`],
  ];
  let text = kernel(elt, 'shared', false);
  for (const [from, to] of edits) {
    assert.ok(text.includes(from), `prefetched kernel: '${from}' not found`);
    text = text.replace(from, to);
  }
  return text;
}

/** Runs `text` on seeded random A (32xK) and B (Kx32), `pad` spare rows after them, and a trip count from `k`; returns C. */
function runMatmul(text: string, elt: 'f16' | 'f32', seed: number, k = K, pad = 0): number[] {
  const n = Math.max(k, 16) + pad;
  let s = seed;
  const rand = (): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return Math.round((s / 2147483648) * 16 - 8) / 4;
  };
  const mem = new Memory();
  const a = mem.alloc(elt, 32 * n, 'a').fill(() => rand());
  const b = mem.alloc(elt, n * 32, 'b').fill(() => rand());
  const c = mem.alloc('f32', 32 * 32, 'c').fill(() => -1);
  interpret(parse(text), 'k', { grid: [1], args: [a, b, c, k], memory: mem });
  return c.toNumbers();
}

// The lit file's CHECK lines are those of its first RUN line (spare-slot=never).
test('lit file', () => litCheck(softwarePipeline, { 'spare-slot': 'never' }));

for (const elt of ['f16', 'f32'] as const) {
  for (const form of ['shared', 'convert'] as const) {
    test(`${elt} ${form}: the interpreter gives the same C with 2, 3 and 4 stages`, () => {
      const src = kernel(elt, form);
      const want = runMatmul(src, elt, 7);
      assert.ok(want.some((x) => x !== 0 && x !== -1), 'the reference computes something');
      for (const stages of [2, 3, 4]) {
        const { out, stats } = runPass(softwarePipeline, src, { 'num-stages': stages });
        assert.is(stats.get('loads-pipelined'), 2, `${stages} stages: both loads pipelined`);
        assert.ok(out.includes(`!ttg.memdesc<${stages - 1}x32x16x${elt}`), `${stages} stages: ${stages - 1} buffers`);
        assert.equal(runMatmul(out, elt, 7), want, `${stages} stages`);
        // One slot more: the same C, with the copies refilling the slot the previous iteration read.
        const spare = runPass(softwarePipeline, src, { 'num-stages': stages, 'spare-slot': 'always' });
        assert.is(spare.stats.get('spare-slots'), 1, `${stages} stages: a spare slot`);
        assert.ok(spare.out.includes(`!ttg.memdesc<${stages}x32x16x${elt}`), `${stages} stages: ${stages} buffers with the spare`);
        assert.equal(runMatmul(spare.out, elt, 7), want, `${stages} stages with a spare slot`);
      }
    });
  }
}

test('a zero-trip and a one-trip loop: every prefetch past the end is masked off', () => {
  const src = kernel('f32', 'shared');
  for (const k of [0, 16]) {
    const want = runMatmul(src, 'f32', 3, k);
    for (const stages of [2, 4]) assert.equal(runMatmul(runPass(softwarePipeline, src, { 'num-stages': stages }).out, 'f32', 3, k), want, `K=${k}, ${stages} stages`);
  }
});

test('an unmasked load: only the predicate keeps the prefetches past the end in bounds', () => {
  const src = kernel('f16', 'shared', false);
  const want = runMatmul(src, 'f16', 5, 80);
  for (const stages of [2, 3, 4]) assert.equal(runMatmul(runPass(softwarePipeline, src, { 'num-stages': stages }).out, 'f16', 5, 80), want, `${stages} stages`);
});

test('hand-prefetched B: turned back into an in-loop load and pipelined, same C with 2, 3 and 4 stages', () => {
  const src = prefetchedKernel('f16');
  const want = runMatmul(src, 'f16', 11, 80, 16);
  assert.ok(want.some((x) => x !== 0 && x !== -1), 'the reference computes something');
  for (const stages of [2, 3, 4]) {
    const { out, stats } = runPass(softwarePipeline, src, { 'num-stages': stages });
    assert.is(stats.get('prefetches-undone'), 1, `${stages} stages: the prefetch is undone`);
    assert.is(stats.get('loads-pipelined'), 2, `${stages} stages: both loads pipelined`);
    assert.equal(runMatmul(out, 'f16', 11, 80, 16), want, `${stages} stages`);
  }
});

/** `kernel(elt, 'shared')` as a counted loop (0 to ceil(K / 16) step 1) whose B pointer advances by a stride computed in the body. */
function countedKernel(elt: 'f16' | 'f32'): string {
  const edits: [string, string][] = [
    ['    %r:3 = scf.for %kk = %c0 to %K step %c16 iter_args',
      '    %c1 = arith.constant 1 : i32\n    %c15 = arith.constant 15 : i32\n    %c32i = arith.constant 32 : i32\n    %kp = arith.addi %K, %c15 : i32\n    %nk = arith.divsi %kp, %c16 : i32\n    %r:3 = scf.for %it = %c0 to %nk step %c1 iter_args'],
    [') : i32 {\n', ') : i32 {\n      %kk = arith.muli %it, %c16 : i32\n'],
    ['      %pb1 = tt.addptr %pb, %sb :', '      %sbv = arith.muli %c16, %c32i : i32\n      %sbs = tt.splat %sbv : i32 -> tensor<16x32xi32, #blocked>\n      %pb1 = tt.addptr %pb, %sbs :'],
  ];
  let text = kernel(elt, 'shared');
  for (const [from, to] of edits) {
    assert.ok(text.includes(from), `counted kernel: '${from}' not found`);
    text = text.replace(from, to);
  }
  return text;
}

test('remat-pointers=always: pointers recomputed from the scalar base (a step computed in the body moves out), same C', () => {
  for (const elt of ['f16', 'f32'] as const) {
    const src = countedKernel(elt);
    const want = runMatmul(src, elt, 13);
    assert.ok(want.some((x) => x !== 0 && x !== -1), 'the reference computes something');
    for (const stages of [2, 3]) {
      const { out, stats } = runPass(softwarePipeline, src, { 'num-stages': stages, 'remat-pointers': 'always' });
      assert.is(stats.get('loop-pointers-rematerialized'), 2, `${elt}, ${stages} stages: both pointers recomputed`);
      assert.is(stats.get('loads-pipelined'), 2, `${elt}, ${stages} stages: both loads pipelined`);
      assert.not.ok(/iter_args\([^)]*%pa0/.test(out), 'the pointers are no longer loop-carried');
      assert.equal(runMatmul(out, elt, 13), want, `${elt}, ${stages} stages`);
    }
  }
});

test('num-stages=1 leaves the loop alone', () => {
  const src = kernel('f16', 'shared');
  const { out, stats } = runPass(softwarePipeline, src, { 'num-stages': 1 });
  assert.not.ok(out.includes('async_copy'));
  assert.is(stats.get('loops-pipelined'), undefined);
});

test.run();
