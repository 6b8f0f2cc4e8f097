/**
 * The target's Hopper tensor-core path (targets/nvptx/wgmma.ts), emulated thread by thread: A and
 * B (f16 or bf16) are loaded from global memory, stored with `ttg.local_alloc` into
 * `#ttg.nvmma_shared` tiles (K-major or MN-major, directly or through a `ttg.memdesc_trans` view),
 * multiplied by `ttng.warp_group_dot` into a version-3 `#ttg.nvidia_mma` accumulator, converted to
 * a blocked layout and stored. The emulator's `wgmma.mma_async` (test/helpers/nvptx-emulator-wgmma.ts)
 * follows the PTX ISA: it decodes the descriptors, forms each element's address by the canonical
 * layouts with the hardware swizzle, and scatters D by the m64nNk16 fragment. The inputs are
 * fresh random values exact in the input type; C is checked against a float64 product within
 * f32 accumulation error. Tile shapes stay small (up to 256x32 and 64x128) for the emulator's
 * speed. Tt-level dots also go through the whole default pipeline for sm_90a (mma-lowering's own
 * layouts and swizzles, tt.trans operands), f32 dots with `inputPrecision = tf32` among them
 * (m64nNk8 tf32 on K-major 32-bit tiles). Also: tampered kernels must fail the check; the
 * descriptor words' bit packing and `nvmmaOffset` against constants worked out by hand from the
 * ISA's field layout and swizzle rule; the emulator's own address and fragment rules likewise.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import type { Operation } from '../../ir/ir.js';
import { IntegerAttr } from '../../ir/attributes.js';
import { IntegerType } from '../../ir/types.js';
import { nvmmaOffset } from '../../dialects/ttg/shared-layout.js';
import { MemDescType } from '../../dialects/ttg/types.js';
import { parseText } from '../../ir/parser.js';
import { registerAllPasses } from '../../passes/all.js';
import { descriptorHi, descriptorLo, operandByteOffset, operandForm, type OperandForm } from '../../targets/nvptx/wgmma.js';
import { emulateKernel } from '../helpers/nvptx-emulator.js';
import { decodeDescriptor, wgmmaElementAddress, wgmmaFragment } from '../helpers/nvptx-emulator-wgmma.js';
import { lowerForEmulation } from '../helpers/nvptx-lowered.js';
import { kernel, nvmma, ttChainedKernel, ttKernel, type WgmmaCase as Case } from '../helpers/wgmma-kernels.js';

registerAllDialects();
registerAllPasses();

const f32Bits = (v: number): number => new Uint32Array(new Float32Array([v]).buffer)[0];
const bitsF32 = (b: number): number => new Float32Array(new Uint32Array([b]).buffer)[0];

/** The f16 bits of `v`, which must be a normal f16 value or zero (exact: no rounding). */
function halfBits(v: number): number {
  if (v === 0) return 0;
  const b = f32Bits(v);
  const e = ((b >>> 23) & 255) - 127 + 15;
  if (e < 1 || e > 30 || b & 0x1fff) throw new Error(`${v} is not a normal f16`);
  return ((b >>> 16) & 0x8000) | (e << 10) | ((b & 0x7fffff) >>> 13);
}

/** `v` rounded to the nearest f16 (ties to even; normal range only: the test's values stay in it). */
function roundToHalf(v: number): number {
  if (v === 0) return 0;
  const ulp = 2 ** (Math.floor(Math.log2(Math.abs(v))) - 10);
  const q = v / ulp;
  const r = Math.abs(q - Math.trunc(q)) === 0.5 ? 2 * Math.round(q / 2) : Math.round(q);
  return r * ulp;
}

/** The bf16 bits of `v`, which must be exact in bf16. */
function bfloatBits(v: number): number {
  const b = f32Bits(v);
  if (b & 0xffff) throw new Error(`${v} is not a bf16`);
  return b >>> 16;
}

/** A small seeded generator (mulberry32), so a failure names the seed that reproduces it. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Random values in (-1, 1) exact in `type`: a full significand (11 bits for f16 and tf32, 8 for bf16). */
function randomValues(n: number, type: 'f16' | 'bf16' | 'tf32', next: () => number): number[] {
  const scale = type === 'bf16' ? 256 : 2048;
  return Array.from({ length: n }, () => {
    const m = Math.floor(next() * (2 * scale - 1)) - (scale - 1);
    return m === 0 ? 1 / scale : m / scale;
  });
}

/** Global addresses of the operands and the result. */
const [A_AT, B_AT, C_AT] = [1 << 16, 2 << 16, 3 << 16];

interface Run {
  out: number[];
  A: number[];
  B: number[];
  seed: number;
  ir: string;
  ptx: string[];
  wgmmaOps: number;
}

/**
 * Lowers case `c`, emulates it on random A (M x K) and B (K x N); returns C (row-major). With
 * `fromTT`, the tt-level kernel goes through the whole default pipeline for sm_90a instead.
 */
function run(c: Case, seed: number, tamper?: (op: Operation) => void, fromTT = false): Run {
  const { M, N, K } = c;
  const [text, passes] = fromTT ? [ttKernel(c), `default{arch=sm_90a num-warps=${c.warps}}`] : [kernel(c), 'fence-async-shared,alloc-shared,insert-barriers'];
  const { module, ir, fn, ptx } = lowerForEmulation(text, passes, 'nvptx.wgmma', tamper, 'sm_90a');
  let wgmmaOps = 0;
  fn.walk((op) => void (op.name === 'nvptx.wgmma' && wgmmaOps++));
  const next = rng(seed);
  const A = randomValues(M * K, c.type, next);
  const B = randomValues(K * N, c.type, next);
  const global = new Map<number, number>();
  // Memory is kept in 16-bit units: an f32 (tf32 cases) is two, low half first.
  const put = c.type === 'tf32'
    ? (at: number, v: number) => { const b = f32Bits(v); global.set(at, b & 0xffff); global.set(at + 2, b >>> 16); }
    : (at: number, v: number) => global.set(at, (c.type === 'f16' ? halfBits : bfloatBits)(v));
  const bytes = c.type === 'tf32' ? 4 : 2;
  // A is in memory as M x K, or K x M for an M-major tile; B as K x N, or N x K for a K-major one.
  for (let i = 0; i < M; i++) for (let k = 0; k < K; k++) put(A_AT + bytes * (c.aMN ? k * M + i : i * K + k), A[i * K + k]);
  for (let k = 0; k < K; k++) for (let j = 0; j < N; j++) put(B_AT + bytes * (c.bK ? j * K + k : k * N + j), B[k * N + j]);
  const sharedBytes = Number((module.getAttr('ttg.shared') as IntegerAttr | undefined)?.value ?? 0);
  const shared = new DataView(new ArrayBuffer(Math.max(16, sharedBytes)));
  emulateKernel(fn, 32 * c.warps, [A_AT, B_AT, C_AT], { global, shared });
  const out = Array.from({ length: M * N }, (_, k) => {
    const [lo, hi] = [global.get(C_AT + 4 * k), global.get(C_AT + 4 * k + 2)];
    return lo === undefined || hi === undefined ? NaN : bitsF32(((hi << 16) | lo) >>> 0);
  });
  return { out, A, B, seed, ir, ptx, wgmmaOps };
}

/** The first element of C that is not A x B (float64) within f32 accumulation error, or null. */
function mismatch(c: Case, r: Run): string | null {
  const { M, N, K } = c;
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < N; j++) {
      let ref = 0;
      let mag = 0;
      for (let k = 0; k < K; k++) {
        ref += r.A[i * K + k] * r.B[k * N + j];
        mag += Math.abs(r.A[i * K + k] * r.B[k * N + j]);
      }
      const got = r.out[i * N + j];
      // K/16 roundings to f32 of partial sums bounded by mag: well under 2^-20 mag
      if (!(Math.abs(got - ref) <= 2 ** -20 * mag + 1e-30)) return `C(${i}, ${j}) = ${got}, expected ${ref} (seed ${r.seed})`;
    }
  }
  return null;
}

const CASES: [string, Case][] = [
  ['f16 64x64x64, 4 warps: A K-major and B N-major, 128-byte swizzles', { type: 'f16', M: 64, N: 64, K: 64, warps: 4, warpsPerCTA: [4, 1], instrN: 64 }],
  ['bf16 64x64x64, 4 warps: A K-major and B N-major, 128-byte swizzles', { type: 'bf16', M: 64, N: 64, K: 64, warps: 4, warpsPerCTA: [4, 1], instrN: 64 }],
  ['f16 64x64x32: A rows of 64 bytes (64-byte swizzle)', { type: 'f16', M: 64, N: 64, K: 32, warps: 4, warpsPerCTA: [4, 1], instrN: 64 }],
  ['f16 64x32x16: A rows of 32 bytes (32-byte swizzle), B 64-byte', { type: 'f16', M: 64, N: 32, K: 16, warps: 4, warpsPerCTA: [4, 1], instrN: 32 }],
  ['bf16 64x64x32: A 64-byte swizzle', { type: 'bf16', M: 64, N: 64, K: 32, warps: 4, warpsPerCTA: [4, 1], instrN: 64 }],
  ['f16 64x64x64: B K-major through memdesc_trans (transposed = true), 128-byte', { type: 'f16', M: 64, N: 64, K: 64, warps: 4, warpsPerCTA: [4, 1], instrN: 64, bK: true }],
  ['bf16 64x32x32: B K-major, 64-byte swizzles', { type: 'bf16', M: 64, N: 32, K: 32, warps: 4, warpsPerCTA: [4, 1], instrN: 32, bK: true }],
  ['f16 64x32x16: B K-major, 32-byte swizzles', { type: 'f16', M: 64, N: 32, K: 16, warps: 4, warpsPerCTA: [4, 1], instrN: 32, bK: true }],
  ['f16 64x64x32: A M-major through memdesc_trans, 128-byte', { type: 'f16', M: 64, N: 64, K: 32, warps: 4, warpsPerCTA: [4, 1], instrN: 64, aMN: true }],
  ['bf16 64x64x32: A M-major in two 64-byte column blocks (leading offset), B K-major', { type: 'bf16', M: 64, N: 64, K: 32, warps: 4, warpsPerCTA: [4, 1], instrN: 64, aMN: true, bK: true, swA: 64 }],
  ['f16 64x64x32: B N-major in four 32-byte column blocks (leading offset)', { type: 'f16', M: 64, N: 64, K: 32, warps: 4, warpsPerCTA: [4, 1], instrN: 64, swB: 32 }],
  ['f16 64x32x64: A K-major in four 32-byte column blocks', { type: 'f16', M: 64, N: 32, K: 64, warps: 4, warpsPerCTA: [4, 1], instrN: 32, swA: 32 }],
  ['f16 128x64x32, 4 warps: two m64 blocks per warp group', { type: 'f16', M: 128, N: 64, K: 32, warps: 4, warpsPerCTA: [4, 1], instrN: 64 }],
  ['f16 64x64x32, 4 warps: instruction N = 32, two column blocks', { type: 'f16', M: 64, N: 64, K: 32, warps: 4, warpsPerCTA: [4, 1], instrN: 32 }],
  ['bf16 64x128x16, 4 warps: instruction N = 64 of a 128-wide tile, B K-major, C stored from the accumulator', { type: 'bf16', M: 64, N: 128, K: 16, warps: 4, warpsPerCTA: [4, 1], instrN: 64, bK: true, direct: true }],
  ['f16 64x128x32, 4 warps: instruction N = 128, C stored from the accumulator', { type: 'f16', M: 64, N: 128, K: 32, warps: 4, warpsPerCTA: [4, 1], instrN: 128, direct: true }],
  ['f16 64x64x64, 4 warps: C stored from the accumulator', { type: 'f16', M: 64, N: 64, K: 64, warps: 4, warpsPerCTA: [4, 1], instrN: 64, direct: true }],
  ['bf16 64x64x16, 4 warps: instruction N = 16, four column blocks, B K-major 32-byte', { type: 'bf16', M: 64, N: 64, K: 16, warps: 4, warpsPerCTA: [4, 1], instrN: 16, bK: true }],
  ['f16 128x64x32, 8 warps, warpsPerCTA [8, 1]: a 64-row block per warp group', { type: 'f16', M: 128, N: 64, K: 32, warps: 8, warpsPerCTA: [8, 1], instrN: 64 }],
  ['f16 64x128x32, 8 warps, warpsPerCTA [4, 2]: a 64-column block per warp group', { type: 'f16', M: 64, N: 128, K: 32, warps: 8, warpsPerCTA: [4, 2], instrN: 64 }],
  ['bf16 64x128x32, 8 warps, [4, 2], B K-major: each group reads its own rows of B', { type: 'bf16', M: 64, N: 128, K: 32, warps: 8, warpsPerCTA: [4, 2], instrN: 64, bK: true }],
  ['f16 256x32x16, 8 warps, [8, 1]: two m64 blocks per warp group, A M-major', { type: 'f16', M: 256, N: 32, K: 16, warps: 8, warpsPerCTA: [8, 1], instrN: 32, aMN: true }],
];

for (const [name, c] of CASES) {
  test(`wgmma ${name}: C = A x B`, () => {
    const r = run(c, (Date.now() ^ (Math.random() * 2 ** 31)) >>> 0);
    const groups = c.warps / 4;
    // Instructions: (M / 64 row blocks) x (N / instrN column blocks) x (K / 16 steps), split over the warp groups.
    assert.is(r.wgmmaOps, ((c.M / 64) * (c.N / c.instrN) * (c.K / 16)) / groups, 'wgmma count per thread');
    assert.ok(r.ptx.every((p) => p === `sync.aligned.m64n${c.instrN}k16.f32.${c.type}.${c.type}`), r.ptx[0]);
    assert.ok(r.ir.includes('ttng.fence_async_shared'), 'fence-async-shared fenced the stored tiles');
    assert.is(mismatch(c, r), null);
  });
}

// tt.dot through the default pipeline (mma-lowering's layouts and swizzles, tt.trans operands
// stored untransposed and read through memdesc_trans, fence-async-shared, pad-shared, alloc-shared).
const TT_CASES: [string, Case, string][] = [
  ['f16 64x64x32, 4 warps', { type: 'f16', M: 64, N: 64, K: 32, warps: 4, warpsPerCTA: [4, 1], instrN: 64 }, 'm64n64k16'],
  ['bf16 64x64x32, B = tt.trans of an N x K tile', { type: 'bf16', M: 64, N: 64, K: 32, warps: 4, warpsPerCTA: [4, 1], instrN: 64, bK: true }, 'm64n64k16'],
  ['f16 64x64x16, A = tt.trans of a K x M tile', { type: 'f16', M: 64, N: 64, K: 16, warps: 4, warpsPerCTA: [4, 1], instrN: 64, aMN: true }, 'm64n64k16'],
  ['f16 128x128x32, 8 warps', { type: 'f16', M: 128, N: 128, K: 32, warps: 8, warpsPerCTA: [8, 1], instrN: 128 }, 'm64n128k16'],
  // tf32: both tiles K-major (B loaded N x K), 128-byte rows of 32 f32.
  ['tf32 64x64x32, B = tt.trans of an N x K tile', { type: 'tf32', M: 64, N: 64, K: 32, warps: 4, warpsPerCTA: [4, 1], instrN: 64, bK: true }, 'm64n64k8'],
  ['tf32 128x64x32, 8 warps, B K-major', { type: 'tf32', M: 128, N: 64, K: 32, warps: 8, warpsPerCTA: [8, 1], instrN: 64, bK: true }, 'm64n64k8'],
  ['tf32 64x32x16, B K-major: 64-byte swizzles', { type: 'tf32', M: 64, N: 32, K: 16, warps: 4, warpsPerCTA: [4, 1], instrN: 32, bK: true }, 'm64n32k8'],
];

for (const [name, c, shape] of TT_CASES) {
  test(`tt.dot on sm_90a through the default pipeline, ${name}: C = A x B`, () => {
    const r = run(c, (Date.now() ^ (Math.random() * 2 ** 31)) >>> 0, undefined, true);
    assert.ok(r.ptx.length > 0 && r.ptx.every((p) => p === `sync.aligned.${shape}.f32.${c.type}.${c.type}`), r.ptx.join(', '));
    if (c.aMN || c.bK) assert.ok(r.ir.includes('ttg.memdesc_trans'), 'the tt.trans operand is read through memdesc_trans');
    assert.is(mismatch(c, r), null);
  });
}

test('the check can fail: a wrong transpose flag, swapped descriptors, a swapped accumulator register', () => {
  // both operands K-major 64x64 with 128-byte swizzles: every tampered read stays inside the tiles
  const c = CASES.find(([, x]) => x.bK && x.M === 64 && x.N === 64 && x.K === 64)![1];
  assert.is(mismatch(c, run(c, 1)), null, 'untouched');
  const flipA = run(c, 2, (op) => void (op.name === 'nvptx.wgmma' && op.setAttr('transA', IntegerAttr.get(1, IntegerType.get(32)))));
  assert.ok(mismatch(c, flipA), 'A read M-major instead of K-major');
  // swapped descriptors read B^T x A^T: C transposed
  const swapped = run(c, 3, (op) => {
    if (op.name !== 'nvptx.wgmma') return;
    const [a, b] = [op.operand(0), op.operand(1)];
    op.setOperand(0, b);
    op.setOperand(1, a);
  });
  assert.ok(mismatch(c, swapped), 'A and B descriptors swapped');
  // the last K step's results 0 and 2 (rows g and g + 8) exchanged
  let seen = 0;
  const regs = run(c, 4, (op) => {
    if (op.name !== 'nvptx.wgmma' || ++seen !== 4) return;
    const [r0, r2] = [op.result(0), op.result(2)];
    const [u0, u2] = [[...r0.uses()], [...r2.uses()]];
    u0.forEach((u) => u.set(r2));
    u2.forEach((u) => u.set(r0));
  });
  assert.ok(mismatch(c, regs), 'fragment rows exchanged');
});

test('chained products (attention): P = A x B1 rounded to f16 feeds wgmma from registers, C = P x B2', () => {
  const [M, K, N1, N2] = [64, 32, 64, 64];
  const { module, fn, ir } = lowerForEmulation(ttChainedKernel(M, K, N1, N2), 'default{arch=sm_90a num-warps=4}', 'nvptx.wgmma', undefined, 'sm_90a');
  assert.match(ir, '#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>');
  let registerA = 0;
  fn.walk((op) => void (op.name === 'nvptx.wgmma' && op.numOperands - 2 - op.numResults === 4 && registerA++));
  assert.ok(registerA > 0, 'the second product reads A from registers');
  for (const seed of [11, 12]) {
    const next = rng(seed);
    const A = randomValues(M * K, 'f16', next);
    const B1 = randomValues(K * N1, 'f16', next);
    const B2 = randomValues(N1 * N2, 'f16', next);
    const B2_AT = 4 << 16;
    const global = new Map<number, number>();
    A.forEach((v, k) => global.set(A_AT + 2 * k, halfBits(v)));
    B1.forEach((v, k) => global.set(B_AT + 2 * k, halfBits(v)));
    B2.forEach((v, k) => global.set(B2_AT + 2 * k, halfBits(v)));
    const bytes = Number((module.getAttr('ttg.shared') as IntegerAttr | undefined)?.value ?? 0);
    const shared = new DataView(new ArrayBuffer(Math.max(16, bytes)));
    emulateKernel(fn, 128, [A_AT, B_AT, B2_AT, C_AT], { global, shared });
    // P: the f32 product rounded to f16 (its f32 rounding may flip the f16 rounding: within 1 f16 ulp).
    const P = new Array<number>(M * N1);
    for (let i = 0; i < M; i++) for (let j = 0; j < N1; j++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += A[i * K + k] * B1[k * N1 + j];
      P[i * N1 + j] = roundToHalf(s);
    }
    for (let i = 0; i < M; i++) for (let j = 0; j < N2; j++) {
      let ref = 0;
      let mag = 0;
      for (let k = 0; k < N1; k++) {
        ref += P[i * N1 + k] * B2[k * N2 + j];
        mag += Math.abs(P[i * N1 + k] * B2[k * N2 + j]);
      }
      const [lo, hi] = [global.get(C_AT + 4 * (i * N2 + j)), global.get(C_AT + 4 * (i * N2 + j) + 2)];
      const got = lo === undefined || hi === undefined ? NaN : bitsF32(((hi << 16) | lo) >>> 0);
      assert.ok(Math.abs(got - ref) <= 2 ** -10 * mag + 1e-30, `C(${i}, ${j}) = ${got}, expected ${ref} (seed ${seed})`);
    }
  }
});

test('emulator: descriptor fields and canonical addresses from the ISA (hand-computed)', () => {
  // start 0x1230 >> 4 = 0x123, LBO 0x40 >> 4 = 4, SBO 1024 >> 4 = 64, mode 1 (128 bytes)
  const d = decodeDescriptor(0x123n | (4n << 16n) | (64n << 32n) | (1n << 62n));
  assert.equal(d, { start: 0x1230, lbo: 0x40, sbo: 1024, baseOffset: 0, swizzle: 128 });
  assert.is(decodeDescriptor(3n << 62n).swizzle, 32);
  assert.is(decodeDescriptor(2n << 62n).swizzle, 64);
  const k128 = { start: 0, lbo: 16, sbo: 1024, baseOffset: 0, swizzle: 128 };
  // K-major, 128 bytes: (mn 9, k 3) at 128 + 1024 + 6 = 1158; row bits (1158 >> 7) & 7 = 1 flip bit 4: 1174
  assert.is(wgmmaElementAddress(k128, false, 9, 3), 1174);
  // (mn 7, k 8): 7 * 128 + 16 = 912; (912 >> 7) & 7 = 7: chunk 1 ^ 7 = 6: 896 + 96 = 992
  assert.is(wgmmaElementAddress(k128, false, 7, 8), 992);
  // MN-major, 64 bytes, LBO 2048, SBO 512: (mn 33, k 9) at 2 + 2048 + 64 + 512 = 2626; (2626 >> 7) & 3 = 0b10100 & 3 = 0: 2626
  const m64 = { start: 0, lbo: 2048, sbo: 512, baseOffset: 0, swizzle: 64 };
  assert.is(wgmmaElementAddress(m64, true, 33, 9), 2626);
  // (mn 5, k 3): 10 + 192 = 202; (202 >> 7) & 3 = 1: chunk 0 ^ 1 = 1: 202 ^ 16 = 218
  assert.is(wgmmaElementAddress(m64, true, 5, 3), 218);
  // 32 bytes: K-major (mn 12, k 5) with SBO 256: 4 * 32 + 256 + 10 = 394; (394 >> 7) & 1 = 1: 394 ^ 16 = 410
  assert.is(wgmmaElementAddress({ start: 0, lbo: 16, sbo: 256, baseOffset: 0, swizzle: 32 }, false, 12, 5), 410);
  // the fragment: thread 37 (warp 1, lane 5) register 6 = row 16 + 1 + 8, column 8 + 2 + 0
  assert.equal(wgmmaFragment(37, 6), [25, 10]);
  assert.equal(wgmmaFragment(127, 31), [63, 63]);
});

/** The wgmma form of a `shape` tile under `#ttg.nvmma_shared<{sw, transposed}>` read as operand `which`. */
function formOf(shape: number[], sw: number, transposed: boolean, which: 'a' | 'b'): OperandForm {
  const { module } = parseText(`#smem = #ttg.shared_memory
module {
  tt.func @f(%x: !ttg.memdesc<${shape.join('x')}xf16, ${nvmma(sw, transposed)}, #smem>) {
    tt.return
  }
}`);
  let t: MemDescType | null = null;
  module.walk((op) => void (op.name === 'tt.func' && (t = op.region(0).blocks[0].args[0].type as MemDescType)));
  const f = operandForm(t!, which);
  if (typeof f === 'string') throw new Error(f);
  return f;
}

test('descriptorLo / descriptorHi: the ISA field layout (hand-computed words)', () => {
  // A 64x64 f16 K-major tile, 128-byte swizzle: SBO = 8 rows x 128 bytes = 1024 (field 64), mode 1
  // (bits 62-63 = bits 30-31 of the high word): 0x40000040. Address 0x2400 >> 4 = 0x240; LBO 16 >> 4 = 1 at bit 16.
  const a = formOf([64, 64], 128, false, 'a');
  assert.is(descriptorHi(a), 0x40000040);
  assert.is(descriptorLo(a, 0x2400), 0x00010240);
  // only address bits 4-17 enter the start field
  assert.is(descriptorLo(a, 0x42400), 0x00010240);
  // B 32x64 f16 N-major, 64-byte swizzle: 2 column blocks of 32 x 64 bytes, LBO = 32 rows x 64 = 2048
  // (field 128 at bit 16), SBO = 8 x 64 = 512 (field 32), mode 2: hi 0x80000020, lo (0x400 >> 4) | 128 << 16.
  const b = formOf([32, 64], 64, false, 'b');
  assert.is(b.mnMajor, true);
  assert.is(descriptorHi(b), 0x80000020);
  assert.is(descriptorLo(b, 0x400), 0x00800040);
  // 32-byte swizzle, K-major A 64x16: SBO 256 (field 16), mode 3: 0xc0000010
  assert.is(descriptorHi(formOf([64, 16], 32, false, 'a')), 0xc0000010);
  // the offset of the instruction at (m 0, k 16) of a 64x64 K-major tile: 32 bytes into the first rows
  assert.is(operandByteOffset(a, [0, 16]), 32);
});

test('nvmmaOffset: 16-byte chunk XOR 128-byte row, as the ISA swizzles addresses', () => {
  const f16 = (sw: number, transposed = false) => ({ swizzleBytes: sw, transposed, elementBits: 16 });
  // 128 bytes, 64x64: (r, c) at byte 128 r + 2 c, chunk (c / 8) ^ (r % 8)
  // (1, 0): byte 128, row bits 1: chunk 1: byte 144 = element 72
  assert.is(nvmmaOffset(f16(128), [64, 64], [1, 0]), 72);
  // (3, 17): byte 384 + 34 = 418, chunk 2 ^ 3 = 1: 384 + 16 + 2 = 402 = element 201
  assert.is(nvmmaOffset(f16(128), [64, 64], [3, 17]), 201);
  // (9, 63): byte 1152 + 126, chunk 7 ^ (9 & 7 = 1) = 6: 1152 + 96 + 14 = 1262 = element 631
  assert.is(nvmmaOffset(f16(128), [64, 64], [9, 63]), 631);
  // 64 bytes, 16x32: (r, c) at 64 r + 2 c; chunk bits 4-5 ^ bits 7-8 = (64 r) >> 7 & 3 = (r >> 1) & 3
  // (2, 0): byte 128, XOR 1 chunk: 144 = element 72; (7, 9): 448 + 18 = 466, (466 >> 7) & 3 = 3: chunk 1 ^ 3 = 2: 448 + 32 + 2 = 482 = element 241
  assert.is(nvmmaOffset(f16(64), [16, 32], [2, 0]), 72);
  assert.is(nvmmaOffset(f16(64), [16, 32], [7, 9]), 241);
  // 32 bytes, 16x16: bit 4 ^ bit 7: (4, 3) at 128 + 6 = 134: bit 7 set, flip bit 4: 150 = element 75; (3, 8) at 96 + 16 = 112: unchanged, element 56
  assert.is(nvmmaOffset(f16(32), [16, 16], [4, 3]), 75);
  assert.is(nvmmaOffset(f16(32), [16, 16], [3, 8]), 56);
  // 64 bytes on a 64-wide row: two column blocks of 32 elements, each 16 rows x 64 bytes (1024 bytes)
  // (0, 32): block 1 starts at byte 1024 (row bits 0): element 512; (5, 40): 1024 + 320 + 16 = 1360, (1360 >> 7) & 3 = 2: chunk 1 ^ 2 = 3: 1024 + 320 + 48 = 1392 = element 696
  assert.is(nvmmaOffset(f16(64), [16, 64], [0, 32]), 512);
  assert.is(nvmmaOffset(f16(64), [16, 64], [5, 40]), 696);
  // transposed: dim 0 is contiguous. 64x16 tile (K = 16 rows of 64 M... contiguous dim 0): (c, r) = (coords[0], coords[1])
  // (17, 3): byte 3 * 128 + 34 = 418, chunk 2 ^ 3 = 1: 402 = element 201
  assert.is(nvmmaOffset(f16(128, true), [64, 16], [17, 3]), 201);
});

test.run();
