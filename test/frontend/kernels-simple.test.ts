/**
 * The seed tutorials' simple Triton-C kernels (examples/triton-c: vector add, transpose with and
 * without bounds checks, fused softmax) compiled, verified and run in the interpreter on fresh
 * random inputs against plain-TS references. Grids follow each kernel's launch comment.
 * Reproduce a failure with the TC_KERNEL_SEED the failure message prints.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseDefines, variants } from '../../frontend/triton-c/autotune.js';
import { Memory } from '../../tools/interpreter/memory.js';
import {
  BASE_SEED, type Random, at, checkMatrix, compileExample, eltOf, launch, outputMatrix, randomMatrix, roundTo, timings, withSeed,
} from '../helpers/tc-kernels.js';

const SENTINEL = -7.25;

/** Runs an `add(int N, T* a, T* b, T* c)` kernel on n elements (grid n / size) and checks c == round(a + b) exactly. */
function checkAdd(label: string, file: string, defines: Record<string, string>, elt: 'f32' | 'f16', size: number, n: number, random: Random): void {
  const module = compileExample(file, defines);
  const mem = new Memory();
  const a = randomMatrix(mem, elt, 1, n, n, 0, random, 'a');
  const b = randomMatrix(mem, elt, 1, n, n, 0, random, 'b');
  const c = outputMatrix(mem, elt, 1, n + 8, n + 8, SENTINEL, 'c');
  launch(label, module, 'add', [n / size], [n, a.buffer, b.buffer, c.buffer], mem);
  const out = c.buffer.toNumbers();
  for (let k = 0; k < n; k++) assert.is(out[k], roundTo(elt, a.values[k] + b.values[k]), `${label}: c[${k}] = ${a.values[k]} + ${b.values[k]}`);
  for (let k = n; k < n + 8; k++) assert.is(out[k], SENTINEL, `${label}: c[${k}] (past N) must not be written`);
}

test('vector-add.tc: c = a + b (f32), N = 32 * 11 on a grid of N / 32', () => {
  withSeed('vector-add', (random) => checkAdd('vector-add N=352', 'vector-add.tc', {}, 'f32', 32, 352, random));
});

test('vector-add-param.tc: the header configurations (SIZE=32/128 float, SIZE=256 half)', () => {
  withSeed('vector-add-param', (random) => {
    for (const [size, type, n] of [[32, 'float', 32 * 5], [128, 'float', 128 * 3], [256, 'half', 256 * 3]] as const) {
      checkAdd(`vector-add-param SIZE=${size} TYPE=${type} N=${n}`, 'vector-add-param.tc', { SIZE: String(size), TYPE: type }, eltOf(type), size, n, random);
    }
  });
});

test('vector-add-param.tc: every variant of -DSIZE=[32, 64, 128, 256] -DTYPE=float', () => {
  withSeed('vector-add-param autotune', (random) => {
    const all = variants(parseDefines(['-DSIZE=[32, 64, 128, 256] -DTYPE=float']));
    assert.equal(all.map((v) => v.SIZE), ['32', '64', '128', '256']);
    for (const v of all) checkAdd(`vector-add-param SIZE=${v.SIZE}`, 'vector-add-param.tc', v, 'f32', Number(v.SIZE), 512, random);
  });
});

/**
 * Runs a `transpose(T* X, T* Y, int M, int N, int ldx, int ldy)` kernel: X is M x N (leading
 * dimension ldx), Y must become N x M (leading dimension ldy) with Y[n][m] = X[m][n]; the grid is
 * ceil(M / TM) x ceil(N / TN). Padding of X is NaN; Y's padding must keep its sentinel.
 */
function checkTranspose(file: string, type: string, M: number, N: number, TM: number, TN: number, random: Random): void {
  const label = `${file} TYPE=${type} M=${M} N=${N} TM=${TM} TN=${TN}`;
  const elt = eltOf(type);
  const module = compileExample(file, { TYPE: type, TM: String(TM), TN: String(TN) });
  const mem = new Memory();
  const x = randomMatrix(mem, elt, M, N, N + 3, 0, random, 'X');
  const y = outputMatrix(mem, elt, N, M, M + 5, SENTINEL, 'Y');
  launch(label, module, 'transpose', [Math.ceil(M / TM), Math.ceil(N / TN)], [x.buffer, y.buffer, M, N, x.ld, y.ld], mem);
  const ref = Array.from({ length: N * M }, (_, k) => at(x, k % M, Math.floor(k / M)));
  checkMatrix(label, y, ref, () => 0, SENTINEL);
}

test('transpose.tc: sizes that are multiples of the tile (f32 and f16, square and rectangular tiles)', () => {
  withSeed('transpose', (random) => {
    checkTranspose('transpose.tc', 'float', 64, 96, 32, 32, random);
    checkTranspose('transpose.tc', 'float', 32, 64, 16, 32, random);
    checkTranspose('transpose.tc', 'half', 64, 32, 32, 16, random);
  });
});

test('transpose-checked.tc: sizes that are NOT multiples of the tile (M=70, N=45, TM=TN=32, and others)', () => {
  withSeed('transpose-checked', (random) => {
    checkTranspose('transpose-checked.tc', 'float', 70, 45, 32, 32, random);
    checkTranspose('transpose-checked.tc', 'float', 33, 17, 16, 32, random);
    checkTranspose('transpose-checked.tc', 'half', 45, 70, 32, 16, random);
    checkTranspose('transpose-checked.tc', 'float', 64, 64, 32, 32, random);
  });
});

/**
 * Runs softmax.tc (`softmax(float* Y, float* X, int stride_ym, int stride_xm, int M, int N)`,
 * one program per row, BLOCK the smallest power of two >= N) against a float64 softmax.
 */
function checkSoftmax(M: number, N: number, random: Random): void {
  let block = 1;
  while (block < N) block *= 2;
  const label = `softmax.tc M=${M} N=${N} BLOCK=${block}`;
  const module = compileExample('softmax.tc', { BLOCK: String(block) });
  const mem = new Memory();
  const y = outputMatrix(mem, 'f32', M, N, N + 7, SENTINEL, 'Y');
  const x = mem.alloc('f32', M * (N + 2), 'X').fill(() => NaN);
  const xs: number[] = [];
  for (let r = 0; r < M; r++)
    for (let c = 0; c < N; c++) {
      const v = Math.fround(random() * 20 - 10);
      xs.push(v);
      x.set(r * (N + 2) + c, v);
    }
  launch(label, module, 'softmax', [M], [y.buffer, x, y.ld, N + 2, M, N], mem);
  const ref: number[] = [];
  for (let r = 0; r < M; r++) {
    const row = xs.slice(r * N, (r + 1) * N);
    const mx = Math.max(...row);
    const e = row.map((v) => Math.exp(v - mx));
    const s = e.reduce((p, q) => p + q, 0);
    ref.push(...e.map((v) => v / s));
  }
  // f32 arithmetic on a row of N values: a few ulps of the result plus N ulps of the sum.
  checkMatrix(label, y, ref, (k) => (8 + N) * 2 ** -24 * ref[k] + 1e-30, SENTINEL);
}

test('softmax.tc: rows of random values, N not a power of two and one that is', () => {
  withSeed('softmax', (random) => {
    checkSoftmax(5, 1000, random);
    checkSoftmax(3, 37, random);
    checkSoftmax(4, 64, random);
    checkSoftmax(2, 1, random);
  });
});

test('timings', () => {
  console.log(`\n  base seed ${BASE_SEED}; interpreter runtimes:\n    ${timings.join('\n    ')}`);
});

test.run();
