/**
 * The C math library names of the original Triton-C prelude (`sqrtf`, `expf`, `fmaxf`, ...): one
 * test per name, each a kernel applying it to a tile of fresh random f32 inputs in the
 * interpreter, against float64 references written here (Math.*, and a series for erf).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileTritonC } from '../../frontend/triton-c/index.js';
import { verify } from '../../ir/verifier.js';
import { interpret } from '../../tools/interpreter/interpreter.js';
import { Memory } from '../../tools/interpreter/memory.js';
import { withSeed } from '../helpers/tc-kernels.js';

const LANES = 64;

/** erf(x) by its Maclaurin series (|x| <= 3: the terms shrink below 1e-17 well before 80). */
function erf(x: number): number {
  let term = x;
  let sum = x;
  for (let n = 1; n < 80; n++) {
    term *= (-x * x) / n;
    sum += term / (2 * n + 1);
  }
  return (2 / Math.sqrt(Math.PI)) * sum;
}

/** C's fmax / fmin: a NaN operand is ignored. */
const fmax = (a: number, b: number) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b));
const fmin = (a: number, b: number) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b));

interface Case {
  ref: (a: number, b: number) => number;
  /** Input range [lo, hi). */
  lo: number;
  hi: number;
  binary?: boolean;
}

const CASES: Record<string, Case> = {
  expf: { ref: Math.exp, lo: -10, hi: 10 },
  exp2f: { ref: (a) => 2 ** a, lo: -20, hi: 20 },
  logf: { ref: Math.log, lo: 1e-3, hi: 100 },
  log2f: { ref: Math.log2, lo: 1e-3, hi: 100 },
  sqrtf: { ref: Math.sqrt, lo: 0, hi: 100 },
  rsqrtf: { ref: (a) => 1 / Math.sqrt(a), lo: 1e-2, hi: 100 },
  sinf: { ref: Math.sin, lo: -4, hi: 4 },
  cosf: { ref: Math.cos, lo: -4, hi: 4 },
  tanhf: { ref: Math.tanh, lo: -5, hi: 5 },
  floorf: { ref: Math.floor, lo: -50, hi: 50 },
  ceilf: { ref: Math.ceil, lo: -50, hi: 50 },
  erff: { ref: erf, lo: -2.5, hi: 2.5 },
  fabsf: { ref: Math.abs, lo: -50, hi: 50 },
  fmaxf: { ref: fmax, lo: -50, hi: 50, binary: true },
  fminf: { ref: fmin, lo: -50, hi: 50, binary: true },
};

for (const [name, c] of Object.entries(CASES)) {
  test(`${name}: the built-in of the same name without 'f', on a float tile`, () => {
    const call = c.binary ? `${name}(x, y)` : `${name}(x)`;
    const src = `__global__ void k(float* X, float* Y, float* Z) {
      int r[${LANES}] = 0 ... ${LANES};
      float x[${LANES}] = *(X + r);
      float y[${LANES}] = *(Y + r);
      *(Z + r) = ${call};
    }`;
    const module = compileTritonC(src, `${name}.tc`);
    verify(module);
    withSeed(`c-math ${name}`, (random) => {
      const draw = () => Math.fround(c.lo + random() * (c.hi - c.lo));
      const x = Array.from({ length: LANES }, draw);
      const y = Array.from({ length: LANES }, draw);
      // fmaxf / fminf ignore a NaN operand: put some in either side.
      if (c.binary) for (const k of [3, 17, 40]) (k % 2 ? x : y)[k] = NaN;
      const mem = new Memory();
      const xb = mem.alloc('f32', LANES, 'X').fill(x);
      const yb = mem.alloc('f32', LANES, 'Y').fill(y);
      const zb = mem.alloc('f32', LANES, 'Z').fill(() => -1);
      interpret(module, 'k', { grid: [1], args: [xb, yb, zb], memory: mem });
      const out = zb.toNumbers();
      for (let l = 0; l < LANES; l++) {
        const want = c.ref(x[l], y[l]);
        // One f32 rounding of a correctly rounded result (2^-24), doubled; sin / cos near zero: absolute.
        const tol = 2 ** -23 * Math.max(Math.abs(want), name === 'sinf' || name === 'cosf' ? 1 : 0);
        assert.ok(Math.abs(out[l] - want) <= tol, `${call} with x = ${x[l]}, y = ${y[l]}: got ${out[l]}, expected ${want} ± ${tol}`);
      }
    });
  });
}

test('a function of the file named like a C math name is called instead of the built-in', () => {
  const module = compileTritonC(`float expf(float x) { return x + 1.0f; }
    __global__ void k(float* X) { *X = expf(*X); }`, 'own.tc');
  verify(module);
  const mem = new Memory();
  const xb = mem.alloc('f32', 1, 'X').fill([2.5]);
  interpret(module, 'k', { grid: [1], args: [xb], memory: mem });
  assert.equal(xb.toNumbers(), [3.5]);
});

test.run();
