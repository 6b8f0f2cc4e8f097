/**
 * The target's tf32 tensor-core path, emulated thread by thread (test/helpers/nvptx-emulator.ts,
 * whose `mma.sync.m16n8k8` tf32 follows the PTX ISA and reads its f32 operands as tf32): A and B (f32) are
 * loaded, stored to shared memory, read into `#ttg.dot_op<{kWidth = 1}>` operands (directly, or B
 * through a `ttg.memdesc_trans` view; operands contiguous along K with ldmatrix, the others with
 * ld.shared), multiplied by `tt.dot ... inputPrecision = tf32` on an
 * `#ttg.nvidia_mma` accumulator, converted to a blocked layout and stored. The inputs are small
 * integers, exact in tf32 and in every f32 partial sum, so C must equal A x B exactly; run with
 * the unswizzled encodings as written and with the swizzles pad-shared picks.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import type { Operation } from '../../ir/ir.js';
import { registerAllPasses } from '../../passes/all.js';
import { emulateKernel } from '../helpers/nvptx-emulator.js';
import { lowerForEmulation } from '../helpers/nvptx-lowered.js';

registerAllDialects();
registerAllPasses();

const [M, N, K] = [32, 32, 16];

/** Row-major pointers `base + i * cols + j` of a rows x cols f32 tensor in `layout`. */
function ptrs(name: string, base: string, rows: number, cols: number, layout: string): string {
  const t = (s: string) => `tensor<${s}, ${layout}>`;
  return `
    %${name}r = tt.make_range {end = ${rows} : i32, start = 0 : i32} : tensor<${rows}xi32, #ttg.slice<{dim = 1, parent = ${layout}}>>
    %${name}c = tt.make_range {end = ${cols} : i32, start = 0 : i32} : tensor<${cols}xi32, #ttg.slice<{dim = 0, parent = ${layout}}>>
    %${name}r1 = tt.expand_dims %${name}r {axis = 1 : i32} : tensor<${rows}xi32, #ttg.slice<{dim = 1, parent = ${layout}}>> -> ${t(`${rows}x1xi32`)}
    %${name}w = arith.constant dense<${cols}> : ${t(`${rows}x1xi32`)}
    %${name}ro = arith.muli %${name}r1, %${name}w : ${t(`${rows}x1xi32`)}
    %${name}c1 = tt.expand_dims %${name}c {axis = 0 : i32} : tensor<${cols}xi32, #ttg.slice<{dim = 0, parent = ${layout}}>> -> ${t(`1x${cols}xi32`)}
    %${name}o0 = tt.broadcast %${name}ro : ${t(`${rows}x1xi32`)} -> ${t(`${rows}x${cols}xi32`)}
    %${name}o1 = tt.broadcast %${name}c1 : ${t(`1x${cols}xi32`)} -> ${t(`${rows}x${cols}xi32`)}
    %${name}o = arith.addi %${name}o0, %${name}o1 : ${t(`${rows}x${cols}xi32`)}
    %${name}s = tt.splat %${base} : !tt.ptr<f32> -> ${t(`${rows}x${cols}x!tt.ptr<f32>`)}
    %${name} = tt.addptr %${name}s, %${name}o : ${t(`${rows}x${cols}x!tt.ptr<f32>`)}, ${t(`${rows}x${cols}xi32`)}`;
}

/** C = A x B on tf32 tensor cores; with `transB`, B is stored N x K and read through memdesc_trans. */
function kernel(transB: boolean): string {
  const opA = `#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>`;
  const opB = `#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>`;
  const readB = transB
    ? `${ptrs('pb', 'b', N, K, '#blocked')}
    %y = tt.load %pb : tensor<${N}x${K}x!tt.ptr<f32>, #blocked>
    %sb = ttg.local_alloc %y : (tensor<${N}x${K}xf32, #blocked>) -> !ttg.memdesc<${N}x${K}xf32, #shared, #smem>
    %tb = ttg.memdesc_trans %sb {order = array<i32: 1, 0>} : !ttg.memdesc<${N}x${K}xf32, #shared, #smem> -> !ttg.memdesc<${K}x${N}xf32, #shared1, #smem>
    %bd = ttg.local_load %tb : !ttg.memdesc<${K}x${N}xf32, #shared1, #smem> -> tensor<${K}x${N}xf32, ${opB}>`
    : `${ptrs('pb', 'b', K, N, '#blockedb')}
    %y = tt.load %pb : tensor<${K}x${N}x!tt.ptr<f32>, #blockedb>
    %sb = ttg.local_alloc %y : (tensor<${K}x${N}xf32, #blockedb>) -> !ttg.memdesc<${K}x${N}xf32, #shared, #smem>
    %bd = ttg.local_load %sb : !ttg.memdesc<${K}x${N}xf32, #shared, #smem> -> tensor<${K}x${N}xf32, ${opB}>`;
  return `#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blockedb = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#out = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {${ptrs('pa', 'a', M, K, '#blocked')}
    %x = tt.load %pa : tensor<${M}x${K}x!tt.ptr<f32>, #blocked>
    %sa = ttg.local_alloc %x : (tensor<${M}x${K}xf32, #blocked>) -> !ttg.memdesc<${M}x${K}xf32, #shared, #smem>
    %ad = ttg.local_load %sa : !ttg.memdesc<${M}x${K}xf32, #shared, #smem> -> tensor<${M}x${K}xf32, ${opA}>
    ${readB}
    %zero = arith.constant dense<0.000000e+00> : tensor<${M}x${N}xf32, #mma>
    %d = tt.dot %ad, %bd, %zero, inputPrecision = tf32 : tensor<${M}x${K}xf32, ${opA}> * tensor<${K}x${N}xf32, ${opB}> -> tensor<${M}x${N}xf32, #mma>
    %z = ttg.convert_layout %d : tensor<${M}x${N}xf32, #mma> -> tensor<${M}x${N}xf32, #out>${ptrs('pc', 'c', M, N, '#out')}
    tt.store %pc, %z : tensor<${M}x${N}x!tt.ptr<f32>, #out>
    tt.return
  }
}
`;
}

const f32Bits = (v: number): number => new Uint32Array(new Float32Array([v]).buffer)[0];
const bitsF32 = (b: number): number => new Float32Array(new Uint32Array([b]).buffer)[0];
/** The inputs: small integers (exact in tf32; every partial sum exact in f32). */
const aAt = (i: number, k: number): number => ((i * 5 + k * 3) % 11) - 5;
const bAt = (k: number, j: number): number => ((k * 7 + j * 2) % 9) - 4;

/** Lowers the kernel after `passes`, emulates it; returns C (row-major) and the module text. */
function run(transB: boolean, passes: string, tamper?: (op: Operation) => void): { out: number[]; ir: string; ptx: string[]; ldmatrix: number } {
  const { module, ir, fn, ptx } = lowerForEmulation(kernel(transB), passes, 'nvptx.mma', tamper);
  let ldmatrix = 0;
  fn.walk((op) => void (op.name === 'nvptx.ldmatrix' && ldmatrix++));
  const [A, B, C] = [4096, 8192, 12288];
  const global = new Map<number, number>();
  const put = (addr: number, v: number) => {
    const b = f32Bits(v);
    global.set(addr, b & 0xffff);
    global.set(addr + 2, b >>> 16);
  };
  for (let i = 0; i < M; i++) for (let k = 0; k < K; k++) put(A + 4 * (i * K + k), aAt(i, k));
  for (let k = 0; k < K; k++) for (let j = 0; j < N; j++) put(B + 4 * (transB ? j * K + k : k * N + j), bAt(k, j));
  const shared = new DataView(new ArrayBuffer(Math.max(16, Number((module.getAttr('ttg.shared') as { value?: bigint } | undefined)?.value ?? 0))));
  emulateKernel(fn, 128, [A, B, C], { global, shared });
  const out = Array.from({ length: M * N }, (_, k) => {
    const [lo, hi] = [global.get(C + 4 * k), global.get(C + 4 * k + 2)];
    return lo === undefined || hi === undefined ? NaN : bitsF32(((hi << 16) | lo) >>> 0);
  });
  return { out, ir, ptx, ldmatrix };
}

/** A x B. */
function expected(): number[] {
  const out: number[] = [];
  for (let i = 0; i < M; i++)
    for (let j = 0; j < N; j++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += aAt(i, k) * bAt(k, j);
      out.push(s);
    }
  return out;
}

for (const transB of [false, true]) {
  for (const passes of ['alloc-shared,insert-barriers', 'pad-shared,alloc-shared,insert-barriers']) {
    test(`tf32 mma.sync, B ${transB ? 'through memdesc_trans' : 'direct'}, ${passes.startsWith('pad') ? 'swizzled by pad-shared' : 'unswizzled'}: C = A x B exactly`, () => {
      const { out, ir, ptx, ldmatrix } = run(transB, passes);
      // warps 2 x 2 over 32 x 32: each warp 16 x 16 = 2 blocks of 16 x 8, times 2 K steps of 8
      assert.equal(ptx, new Array(4).fill('sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32'));
      // A (contiguous along K): one ldmatrix.x4 per 16 x 8 block, 2 per warp; B through the view
      // (contiguous along K too): one x4 per K step for the warp's two 8-wide column blocks, 2 more;
      // B stored K x N (contiguous along N) is read with ld.shared instead.
      assert.is(ldmatrix, transB ? 4 : 2, 'ldmatrix count');
      if (passes.startsWith('pad')) assert.ok(/maxPhase = [248]/.test(ir), 'pad-shared swizzled a tile');
      assert.equal(out, expected());
    });
  }
}

test('the check can fail: swapping two A registers of every mma.sync changes C', () => {
  const { out } = run(false, 'alloc-shared,insert-barriers', (op) => {
    if (op.name !== 'nvptx.mma') return;
    const [a1, a2] = [op.operand(1), op.operand(2)];
    op.setOperand(1, a2);
    op.setOperand(2, a1);
  });
  assert.not.equal(out, expected());
});

test.run();
