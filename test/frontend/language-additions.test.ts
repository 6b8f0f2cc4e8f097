/**
 * The rest of the original Triton-C language, run in the interpreter on fresh random inputs
 * against plain-TS float64 references: masked loads / stores through a scalar pointer under a
 * tile mask (examples/triton-c/masked-broadcast.tc) and their 2-D and conditional forms,
 * `bitcast<T[shape]>` on tiles, the `(TYPE[TM, TN]) x` conversion spelling, and batched `@` on
 * 3-D tiles (batch last). Reproduce a failure with the TC_KERNEL_SEED its message prints.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileTritonC } from '../../frontend/triton-c/index.js';
import type { Operation } from '../../ir/ir.js';
import { verify } from '../../ir/verifier.js';
import { interpret } from '../../tools/interpreter/interpreter.js';
import { Memory } from '../../tools/interpreter/memory.js';
import { type Random, compileExample, matmulTolerance, roundTo, withSeed } from '../helpers/tc-kernels.js';

const SENTINEL = -7.25;

function compile(src: string, defines: Record<string, string> = {}): Operation {
  const m = compileTritonC(src, 'test.tc', defines);
  verify(m);
  return m;
}

function uniform(random: Random, n: number, lo = -1, hi = 1): number[] {
  return Array.from({ length: n }, () => Math.fround(lo + random() * (hi - lo)));
}

// ---- masked loads and stores through scalar pointers -------------------------------------------

test('masked-broadcast.tc: a scalar pointer under a tile mask loads / stores a tile (rows of several lengths)', () => {
  const BLOCK = 64;
  const module = compileExample('masked-broadcast.tc', { BLOCK: String(BLOCK) });
  withSeed('masked-broadcast', (random) => {
    for (const N of [64, 37, 1]) {
      const M = 5;
      const ldx = N + 3;
      const mem = new Memory();
      const x = uniform(random, M * ldx);
      const s = uniform(random, M, -2, 2);
      const xb = mem.alloc('f32', M * ldx, 'X').fill(x);
      const sb = mem.alloc('f32', M + 1, 'S').fill([...s, NaN]);
      const yb = mem.alloc('f32', M * ldx, 'Y').fill(() => SENTINEL);
      const rb = mem.alloc('f32', M + 1, 'R').fill(() => SENTINEL);
      interpret(module, 'scale_rows', { grid: [M], args: [xb, sb, yb, rb, N, ldx], memory: mem });
      const y = yb.toNumbers();
      const r = rb.toNumbers();
      for (let m = 0; m < M; m++) {
        let sum = 0;
        for (let n = 0; n < ldx; n++) {
          const want = n < N ? Math.fround(x[m * ldx + n] * s[m]) : SENTINEL;
          assert.is(y[m * ldx + n], want, `N=${N}: Y[${m}][${n}]`);
          if (n < N) sum += want;
        }
        assert.ok(Math.abs(r[m] - sum) <= 2 ** -22 * N * Math.max(1, Math.abs(sum)), `N=${N}: R[${m}] = ${r[m]}, expected ${sum}`);
      }
      assert.is(r[M], SENTINEL, 'R past the rows is not written');
    }
  });
});

test('masked broadcasting in 2-D, of a scalar mask, and in `c ? *p : other`', () => {
  const module = compile(`
    __global__ void k(float* P, float* Out, int M, int N, int on) {
      int rm[8] = 0 ... 8;
      int rn[16] = 0 ... 16;
      // mask [8, 1] and pointers [1, 16] broadcast to [8, 16]: row i < M holds P[0..15]
      float a[8, 16] = *?(rm[:, newaxis] < M) (P + rn[newaxis, :]);
      // a scalar mask over a tile of pointers
      float b[16] = *?(on) (P + rn);
      // the conditional load through a scalar pointer: lanes j < N hold P[3], the others -1
      float c[16] = rn < N ? *(P + 3) : -1.0f;
      *(Out + rm[:, newaxis] * 16 + rn[newaxis, :]) = a;
      *(Out + 128 + rn) = b;
      *(Out + 144 + rn) = c;
    }`);
  withSeed('masked-2d', (random) => {
    for (const [M, N, on] of [[3, 5, 1], [8, 0, 0], [0, 16, 1]]) {
      const p = uniform(random, 16);
      const mem = new Memory();
      const pb = mem.alloc('f32', 16, 'P').fill(p);
      const out = mem.alloc('f32', 160, 'Out').fill(() => SENTINEL);
      interpret(module, 'k', { grid: [1], args: [pb, out, M, N, on], memory: mem });
      const ref: number[] = [];
      for (let i = 0; i < 8; i++) for (let j = 0; j < 16; j++) ref.push(i < M ? p[j] : 0);
      for (let j = 0; j < 16; j++) ref.push(on ? p[j] : 0);
      for (let j = 0; j < 16; j++) ref.push(j < N ? p[3] : -1);
      assert.equal(out.toNumbers(), ref, `M=${M} N=${N} on=${on}`);
    }
  });
});

// ---- bitcast and conversions on tiles -----------------------------------------------------------

test('bitcast<uint32[16, 4]>(x) and back, bitcast<int16[8]> of half; (half[16, 4]) x and (float[16, 4]) scalar', () => {
  const module = compile(`
    __global__ void k(float* X, int* U, float* Back, half* H, int* Hb, half* Hc, float* Splat, float v) {
      int r[16] = 0 ... 16;
      int c[4] = 0 ... 4;
      float x[16, 4] = *(X + r[:, newaxis] * 4 + c[newaxis, :]);
      uint32 u[16, 4] = bitcast<uint32[16, 4]>(x);
      *(U + r[:, newaxis] * 4 + c[newaxis, :]) = u;
      *(Back + r[:, newaxis] * 4 + c[newaxis, :]) = bitcast<float[16, 4]>(u ^ 0x80000000);
      half h[8] = *(H + (0 ... 8));
      *(Hb + (0 ... 8)) = bitcast<int16[8]>(h);
      *(Hc + r[:, newaxis] * 4 + c[newaxis, :]) = (half[16, 4]) x;
      *(Splat + r[:, newaxis] * 4 + c[newaxis, :]) = (float[16, 4]) v;
    }`);
  withSeed('bitcast', (random) => {
    const x = uniform(random, 64, -1000, 1000);
    const h = uniform(random, 8, -100, 100).map((v) => roundTo('f16', v));
    const v = Math.fround(random() * 10);
    const mem = new Memory();
    const xb = mem.alloc('f32', 64, 'X').fill(x);
    const ub = mem.alloc('i32', 64, 'U');
    const back = mem.alloc('f32', 64, 'Back');
    const hb = mem.alloc('f16', 8, 'H').fill(h);
    const hbits = mem.alloc('i32', 8, 'Hb');
    const hc = mem.alloc('f16', 64, 'Hc');
    const splat = mem.alloc('f32', 64, 'Splat');
    interpret(module, 'k', { grid: [1], args: [xb, ub, back, hb, hbits, hc, splat, v], memory: mem });
    // Reference bits through typed arrays (no compiler involved).
    const f = new Float32Array(x);
    const bits = new Int32Array(f.buffer);
    assert.equal(ub.toNumbers(), [...bits]);
    assert.equal(back.toNumbers(), x.map((e) => -e));
    assert.equal(hbits.toNumbers(), h.map(halfBits), 'half bits (sign-extended int16)');
    assert.equal(hc.toNumbers(), x.map((e) => roundTo('f16', e)));
    assert.equal(splat.toNumbers(), new Array(64).fill(v));
  });
});

/** The IEEE half bit pattern of a value exactly representable in half, as a signed int16. */
function halfBits(v: number): number {
  const sign = v < 0 || Object.is(v, -0) ? 1 : 0;
  const a = Math.abs(v);
  let bits: number;
  if (a === 0) bits = 0;
  else if (a < 2 ** -14) bits = Math.round(a / 2 ** -24);
  else {
    const e = Math.floor(Math.log2(a));
    bits = ((e + 15) << 10) | Math.round((a / 2 ** e - 1) * 1024);
  }
  const u = (sign << 15) | bits;
  return u >= 0x8000 ? u - 0x10000 : u;
}

// ---- batched @ ------------------------------------------------------------------------------------

const BMM = `
  // C[b] = A[b] @ B[b] for TB matrices at once: A is TB x TM x K, B is TB x K x TN, C is TB x TM x TN
  // (row-major, batch outermost); the tiles are TM x TK x TB and TK x TN x TB, batch last.
  __global__ void bmm(TYPE* A, TYPE* B, TYPE* C, int K) {
    int rm[TM] = 0 ... TM;
    int rn[TN] = 0 ... TN;
    int rk[TK] = 0 ... TK;
    int rb[TB] = 0 ... TB;
    TYPE* pa[TM, TK, TB] = A + rm[:, newaxis, newaxis] * K + rk[newaxis, :, newaxis] + rb[newaxis, newaxis, :] * TM * K;
    TYPE* pb[TK, TN, TB] = B + rk[:, newaxis, newaxis] * TN + rn[newaxis, :, newaxis] + rb[newaxis, newaxis, :] * K * TN;
    float acc[TM, TN, TB] = 0;
    for (int k = 0; k < K; k += TK) {
      TYPE a[TM, TK, TB] = *pa;
      TYPE b[TK, TN, TB] = *pb;
    #ifdef UNFUSED
      acc = acc + a @ b;
    #else
      acc += a @ b;
    #endif
      pa += TK;
      pb += TK * TN;
    }
    TYPE* pc[TM, TN, TB] = C + rm[:, newaxis, newaxis] * TN + rn[newaxis, :, newaxis] + rb[newaxis, newaxis, :] * TM * TN;
    *pc = acc;
  }`;

function checkBmm(type: 'float' | 'half', TM: number, TN: number, TK: number, TB: number, K: number, unfused: boolean, random: Random): void {
  const elt = type === 'float' ? 'f32' : 'f16';
  const label = `bmm TYPE=${type} TM=${TM} TN=${TN} TK=${TK} TB=${TB} K=${K}${unfused ? ' (acc = acc + a @ b)' : ''}`;
  const defines: Record<string, string> = { TYPE: type, TM: String(TM), TN: String(TN), TK: String(TK), TB: String(TB) };
  if (unfused) defines.UNFUSED = '1';
  const module = compile(BMM, defines);
  const a = uniform(random, TB * TM * K).map((v) => roundTo(elt, v));
  const b = uniform(random, TB * K * TN).map((v) => roundTo(elt, v));
  const mem = new Memory();
  const ab = mem.alloc(elt, a.length, 'A').fill(a);
  const bb = mem.alloc(elt, b.length, 'B').fill(b);
  const cb = mem.alloc(elt, TB * TM * TN, 'C').fill(() => SENTINEL);
  interpret(module, 'bmm', { grid: [1], args: [ab, bb, cb, K], memory: mem });
  const out = cb.toNumbers();
  for (let p = 0; p < TB; p++)
    for (let i = 0; i < TM; i++)
      for (let j = 0; j < TN; j++) {
        let s = 0;
        let mag = 0;
        for (let k = 0; k < K; k++) {
          const prod = a[(p * TM + i) * K + k] * b[(p * K + k) * TN + j];
          s += prod;
          mag += Math.abs(prod);
        }
        const got = out[(p * TM + i) * TN + j];
        const tol = matmulTolerance(elt, K, s, mag);
        assert.ok(Math.abs(got - s) <= tol, `${label}: C[${p}][${i}][${j}] = ${got}, expected ${s} ± ${tol}`);
      }
}

test('batched @ on 3-D tiles (batch last): f32 and f16, fused into the dot and not', () => {
  withSeed('bmm', (random) => {
    checkBmm('float', 16, 8, 4, 4, 12, false, random);
    checkBmm('float', 8, 16, 8, 2, 16, true, random);
    checkBmm('half', 16, 16, 8, 2, 24, false, random);
  });
});

test.run();
