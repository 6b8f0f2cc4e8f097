/**
 * Batched (rank-3) `tt.dot` on the target, emulated thread by thread (test/helpers/nvptx-emulator.ts):
 * on tf32 tensor cores (a rank-3 `#ttg.nvidia_mma`, instrShape [1, 16, 8], warps along the batch;
 * A read from shared memory as stored, B stored batch last and read through a `ttg.memdesc_trans`
 * view, as mma-lowering leaves a Triton-C batched `@`), the accumulator converted to a blocked
 * layout with warps along M (through scratch, in rounds when the scratch is smaller than the
 * tensor), and on CUDA cores (`fma.rn.f32` on a rank-3 blocked parent). The inputs are small
 * integers, exact in tf32 and in every f32 partial sum, so C[z] must equal A[z] x B[z] exactly.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Operation } from '../../ir/ir.js';
import { emulateKernel, halfBitsRne } from '../helpers/nvptx-emulator.js';
import { lowerForEmulation } from '../helpers/nvptx-lowered.js';

/**
 * `%name`: pointers `base + sum_d i_d * strides[d]` of a tensor of `shape` (rank 3) in `layout`:
 * one make_range per dim in the layout sliced to that dim, expanded, scaled and broadcast.
 */
function ptrs3(name: string, base: string, shape: number[], strides: number[], layout: string, elt = 'f32'): string {
  const full = (elt: string) => `tensor<${shape.join('x')}x${elt}, ${layout}>`;
  const lines: string[] = [];
  const terms: string[] = [];
  for (let d = 0; d < 3; d++) {
    const [o1, o2] = [0, 1, 2].filter((x) => x !== d);
    const mid = `#ttg.slice<{dim = ${o2}, parent = ${layout}}>`;
    const one = `#ttg.slice<{dim = ${o1}, parent = ${mid}}>`;
    const s2 = [0, 1, 2].filter((x) => x !== o2).map((x) => (x === d ? shape[d] : 1));
    const s3 = [0, 1, 2].map((x) => (x === d ? shape[d] : 1));
    const t2 = `tensor<${s2.join('x')}xi32, ${mid}>`;
    const t3 = `tensor<${s3.join('x')}xi32, ${layout}>`;
    const v = `%${name}_${d}`;
    lines.push(
      `${v}r = tt.make_range {end = ${shape[d]} : i32, start = 0 : i32} : tensor<${shape[d]}xi32, ${one}>`,
      `${v}e = tt.expand_dims ${v}r {axis = ${o1} : i32} : tensor<${shape[d]}xi32, ${one}> -> ${t2}`,
      `${v}f = tt.expand_dims ${v}e {axis = ${o2} : i32} : ${t2} -> ${t3}`,
      `${v}s = arith.constant dense<${strides[d]}> : ${t3}`,
      `${v}m = arith.muli ${v}f, ${v}s : ${t3}`,
      `${v} = tt.broadcast ${v}m : ${t3} -> ${full('i32')}`,
    );
    terms.push(v);
  }
  lines.push(
    `%${name}_01 = arith.addi ${terms[0]}, ${terms[1]} : ${full('i32')}`,
    `%${name}_o = arith.addi %${name}_01, ${terms[2]} : ${full('i32')}`,
    `%${name}_b = tt.splat %${base} : !tt.ptr<${elt}> -> ${full(`!tt.ptr<${elt}>`)}`,
    `%${name} = tt.addptr %${name}_b, %${name}_o : ${full(`!tt.ptr<${elt}>`)}, ${full('i32')}`,
  );
  return lines.map((l) => `\n    ${l}`).join('');
}

/** The module and kernel header; A and B are `elt`, C is f32. */
const HEADER = (warps: number, elt = 'f32') =>
  `module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = ${warps} : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%a: !tt.ptr<${elt}> {tt.divisibility = 16 : i32}, %b: !tt.ptr<${elt}> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {`;

/** Problem sizes: Z matrices of M x K times K x N. */
interface Sizes {
  Z: number;
  M: number;
  N: number;
  K: number;
}

/**
 * C[z] = A[z] x B[z] on tensor cores: f32 operands as tf32 (kWidth 1) or f16 (kWidth 2). A is
 * Z x M x K in memory; B is K x N per matrix, the tile indexed [k, n, z] (batch last, as Triton-C
 * writes it) and read through memdesc_trans.
 */
function mmaKernel({ Z, M, N, K }: Sizes, elt: 'f32' | 'f16'): string {
  const kWidth = elt === 'f32' ? 1 : 2;
  const opA = `#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = ${kWidth}}>`;
  const opB = `#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = ${kWidth}}>`;
  const precision = elt === 'f32' ? ', inputPrecision = tf32' : '';
  return `#la = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 16, 2], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#lb = #ttg.blocked<{sizePerThread = [1, 4, 1], threadsPerWarp = [4, 8, 1], warpsPerCTA = [1, 1, 4], order = [1, 0, 2]}>
#out = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 2, 16], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1, 1], instrShape = [1, 16, 8]}>
#sa = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#sb = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0, 2]}>
#sbt = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#smem = #ttg.shared_memory
${HEADER(4, elt)}${ptrs3('pa', 'a', [Z, M, K], [M * K, K, 1], '#la', elt)}
    %x = tt.load %pa : tensor<${Z}x${M}x${K}x!tt.ptr<${elt}>, #la>
    %sa = ttg.local_alloc %x : (tensor<${Z}x${M}x${K}x${elt}, #la>) -> !ttg.memdesc<${Z}x${M}x${K}x${elt}, #sa, #smem>
    %ad = ttg.local_load %sa : !ttg.memdesc<${Z}x${M}x${K}x${elt}, #sa, #smem> -> tensor<${Z}x${M}x${K}x${elt}, ${opA}>${ptrs3('pb', 'b', [K, N, Z], [N, 1, K * N], '#lb', elt)}
    %y = tt.load %pb : tensor<${K}x${N}x${Z}x!tt.ptr<${elt}>, #lb>
    %sb = ttg.local_alloc %y : (tensor<${K}x${N}x${Z}x${elt}, #lb>) -> !ttg.memdesc<${K}x${N}x${Z}x${elt}, #sb, #smem>
    %tb = ttg.memdesc_trans %sb {order = array<i32: 2, 0, 1>} : !ttg.memdesc<${K}x${N}x${Z}x${elt}, #sb, #smem> -> !ttg.memdesc<${Z}x${K}x${N}x${elt}, #sbt, #smem>
    %bd = ttg.local_load %tb : !ttg.memdesc<${Z}x${K}x${N}x${elt}, #sbt, #smem> -> tensor<${Z}x${K}x${N}x${elt}, ${opB}>
    %zero = arith.constant dense<0.000000e+00> : tensor<${Z}x${M}x${N}xf32, #mma>
    %d = tt.dot %ad, %bd, %zero${precision} : tensor<${Z}x${M}x${K}x${elt}, ${opA}> * tensor<${Z}x${K}x${N}x${elt}, ${opB}> -> tensor<${Z}x${M}x${N}xf32, #mma>
    %z = ttg.convert_layout %d : tensor<${Z}x${M}x${N}xf32, #mma> -> tensor<${Z}x${M}x${N}xf32, #out>${ptrs3('pc', 'c', [Z, M, N], [M * N, N, 1], '#out')}
    tt.store %pc, %z : tensor<${Z}x${M}x${N}x!tt.ptr<f32>, #out>
    tt.return
  }
}
`;
}

/** C[z] = A[z] x B[z] on CUDA cores: operands converted to #ttg.dot_op of a rank-3 blocked parent. */
function fmaKernel({ Z, M, N, K }: Sizes): string {
  const opA = `#ttg.dot_op<{opIdx = 0, parent = #p}>`;
  const opB = `#ttg.dot_op<{opIdx = 1, parent = #p}>`;
  return `#la = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 16, 2], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#p = #ttg.blocked<{sizePerThread = [1, 2, 2], threadsPerWarp = [1, 4, 8], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
${HEADER(4)}${ptrs3('pa', 'a', [Z, M, K], [M * K, K, 1], '#la')}
    %x = tt.load %pa : tensor<${Z}x${M}x${K}x!tt.ptr<f32>, #la>
    %ad = ttg.convert_layout %x : tensor<${Z}x${M}x${K}xf32, #la> -> tensor<${Z}x${M}x${K}xf32, ${opA}>${ptrs3('pb', 'b', [Z, K, N], [K * N, N, 1], '#la')}
    %y = tt.load %pb : tensor<${Z}x${K}x${N}x!tt.ptr<f32>, #la>
    %bd = ttg.convert_layout %y : tensor<${Z}x${K}x${N}xf32, #la> -> tensor<${Z}x${K}x${N}xf32, ${opB}>
    %zero = arith.constant dense<0.000000e+00> : tensor<${Z}x${M}x${N}xf32, #p>
    %d = tt.dot %ad, %bd, %zero, inputPrecision = ieee : tensor<${Z}x${M}x${K}xf32, ${opA}> * tensor<${Z}x${K}x${N}xf32, ${opB}> -> tensor<${Z}x${M}x${N}xf32, #p>${ptrs3('pc', 'c', [Z, M, N], [M * N, N, 1], '#p')}
    tt.store %pc, %d : tensor<${Z}x${M}x${N}x!tt.ptr<f32>, #p>
    tt.return
  }
}
`;
}

const f32Bits = (v: number): number => new Uint32Array(new Float32Array([v]).buffer)[0];
const bitsF32 = (b: number): number => new Float32Array(new Uint32Array([b]).buffer)[0];
/** The inputs: small integers (exact in tf32; every partial sum exact in f32), different per matrix. */
const aAt = (z: number, i: number, k: number): number => ((i * 5 + k * 3 + z * 7) % 11) - 5;
const bAt = (z: number, k: number, j: number): number => ((k * 7 + j * 2 + z * 3) % 9) - 4;

/**
 * Lowers `text` after alloc-shared and insert-barriers and emulates it on A (Z x M x K) and B
 * (Z x K x N, row-major, `elt`); returns C, the ttg IR, the `ptx` of each `opName` op and the ldmatrix count.
 */
function run(text: string, s: Sizes, opName: string, elt: 'f32' | 'f16' = 'f32', tamper?: (op: Operation) => void, passes = 'alloc-shared,insert-barriers'): { out: number[]; ir: string; ptx: string[]; ldmatrix: number } {
  const { Z, M, N, K } = s;
  const { module, ir, fn, ptx } = lowerForEmulation(text, passes, opName, tamper);
  let ldmatrix = 0;
  fn.walk((op) => void (op.name === 'nvptx.ldmatrix' && ldmatrix++));
  const [A, B, C] = [1 << 16, 1 << 18, 1 << 20];
  const global = new Map<number, number>();
  const bytes = elt === 'f32' ? 4 : 2;
  const put = (addr: number, v: number) => {
    if (elt === 'f16') return void global.set(addr, halfBitsRne(v));
    const bits = f32Bits(v);
    global.set(addr, bits & 0xffff);
    global.set(addr + 2, bits >>> 16);
  };
  for (let z = 0; z < Z; z++) {
    for (let i = 0; i < M; i++) for (let k = 0; k < K; k++) put(A + bytes * ((z * M + i) * K + k), aAt(z, i, k));
    for (let k = 0; k < K; k++) for (let j = 0; j < N; j++) put(B + bytes * ((z * K + k) * N + j), bAt(z, k, j));
  }
  const shared = new DataView(new ArrayBuffer(Math.max(16, Number((module.getAttr('ttg.shared') as { value?: bigint } | undefined)?.value ?? 0))));
  emulateKernel(fn, 128, [A, B, C], { global, shared });
  const out = Array.from({ length: Z * M * N }, (_, k) => {
    const [lo, hi] = [global.get(C + 4 * k), global.get(C + 4 * k + 2)];
    return lo === undefined || hi === undefined ? NaN : bitsF32(((hi << 16) | lo) >>> 0);
  });
  return { out, ir, ptx, ldmatrix };
}

/** A[z] x B[z] for every z, row-major. */
function expected({ Z, M, N, K }: Sizes): number[] {
  const out: number[] = [];
  for (let z = 0; z < Z; z++)
    for (let i = 0; i < M; i++)
      for (let j = 0; j < N; j++) {
        let sum = 0;
        for (let k = 0; k < K; k++) sum += aAt(z, i, k) * bAt(z, k, j);
        out.push(sum);
      }
  return out;
}

const MMA: Sizes = { Z: 4, M: 64, N: 16, K: 8 };

test('batched tf32 mma.sync: one warp per matrix, B through memdesc_trans; C[z] = A[z] x B[z] exactly', () => {
  const { out, ptx, ldmatrix } = run(mmaKernel(MMA, 'f32'), MMA, 'nvptx.mma');
  // per warp (one matrix): 64 x 16 = 4 x 2 blocks of 16 x 8, one K step of 8
  assert.equal(ptx, new Array(8).fill('sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32'));
  // A (contiguous along K): one ldmatrix.x4 per 16 x 8 block of its matrix, 4; B (contiguous along N) with ld.shared
  assert.is(ldmatrix, 4, 'ldmatrix count');
  assert.equal(out, expected(MMA));
});

const MMA16: Sizes = { Z: 4, M: 32, N: 16, K: 16 };

test('batched f16 mma.sync: ldmatrix for A and ldmatrix.trans for B through memdesc_trans; C[z] = A[z] x B[z] exactly', () => {
  const { out, ptx, ldmatrix } = run(mmaKernel(MMA16, 'f16'), MMA16, 'nvptx.mma', 'f16');
  // per warp (one matrix): 32 x 16 = 2 x 2 blocks of 16 x 8, one K step of 16
  assert.equal(ptx, new Array(4).fill('sync.aligned.m16n8k16.row.col.f32.f16.f16.f32'));
  // A: one x4 per 16 x 16 block (2); B (contiguous along N): one x4.trans for the warp's two column blocks
  assert.is(ldmatrix, 3, 'ldmatrix count');
  assert.equal(out, expected(MMA16));
});

const MMA16W: Sizes = { Z: 4, M: 64, N: 32, K: 32 };

test('batched f16 mma.sync on swizzled rank-3 tiles (pad-shared): ldmatrix addresses the swizzle; C[z] = A[z] x B[z] exactly', () => {
  for (const s of [MMA16, MMA16W]) {
    const plain = run(mmaKernel(s, 'f16'), s, 'nvptx.mma', 'f16');
    const { out, ir, ldmatrix } = run(mmaKernel(s, 'f16'), s, 'nvptx.mma', 'f16', undefined, 'pad-shared,alloc-shared,insert-barriers');
    // Both rank-3 buffers get Triton's mma swizzle (vec = 8) over their two fastest dims.
    const swizzles = [...ir.matchAll(/#ttg\.swizzled_shared<\{vec = (\d+), perPhase = (\d+), maxPhase = (\d+), order = \[(\d), (\d), (\d)\]\}>/g)];
    assert.ok(swizzles.length >= 2 && swizzles.every((m) => m[1] === '8' && m[3] !== '1'), `swizzled rank-3 encodings: ${swizzles.map((m) => m[0]).join(', ')}`);
    assert.is(ldmatrix, plain.ldmatrix, 'the swizzle keeps every ldmatrix');
    assert.equal(out, expected(s));
  }
});

test('batched mma accumulator to warps along M in rounds: the scratch (alloc-shared) is smaller than the tensor', () => {
  const { ir } = run(mmaKernel(MMA, 'f32'), MMA, 'nvptx.mma');
  // ttg.shared bounds every allocation, the conversion's scratch included.
  const shared = Number(/ttg\.shared = (\d+)/.exec(ir)?.[1]);
  const accBytes = 4 * MMA.Z * MMA.M * MMA.N;
  assert.ok(shared < accBytes, `ttg.shared = ${shared}, accumulator ${accBytes} bytes`);
});

test('the batched mma check can fail: swapping two A registers of every mma.sync changes C', () => {
  const { out } = run(mmaKernel(MMA16, 'f16'), MMA16, 'nvptx.mma', 'f16', (op) => {
    if (op.name !== 'nvptx.mma') return;
    const [a1, a2] = [op.operand(1), op.operand(2)];
    op.setOperand(1, a2);
    op.setOperand(2, a1);
  });
  assert.not.equal(out, expected(MMA16));
});

const FMA: Sizes = { Z: 2, M: 16, N: 16, K: 8 };

test('batched FMA dot on a rank-3 blocked parent: C[z] = A[z] x B[z] exactly, K fma.rn.f32 per element', () => {
  const { out, ptx } = run(fmaKernel(FMA), FMA, 'nvptx.fma');
  // 2 x 16 x 16 elements over 128 threads: 4 each, K = 8 fmas per element
  assert.equal(ptx, new Array(4 * FMA.K).fill('rn.f32'));
  assert.equal(out, expected(FMA));
});

test('the batched FMA check can fail: swapping two fma operands from different matrices changes C', () => {
  const { out } = run(fmaKernel(FMA), FMA, 'nvptx.fma', 'f32', (op) => {
    if (op.name === 'nvptx.fma') op.setOperand(0, op.operand(1));
  });
  assert.not.equal(out, expected(FMA));
});

test.run();
