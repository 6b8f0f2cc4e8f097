/** Interpreter unit tests of the math dialect (float functions rounded to the element type, integer bit ops). */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { halfBitsToNumber, numberToHalfBits } from '../../ir/attributes.js';
import { runBinary, runUnary, run, loadLines, storeLines } from './helpers.js';

const fr = Math.fround;
const X = [0.5, 1, 2, 0.25, 3, 0.75, 1.5, 0.125].map(fr);
const UNARY: Record<string, (x: number) => number> = {
  absf: Math.abs, acos: (x) => Math.acos(x / 4), asin: (x) => Math.asin(x / 4), atan: Math.atan, cbrt: Math.cbrt,
  ceil: Math.ceil, cos: Math.cos, cosh: Math.cosh, exp: Math.exp, exp2: (x) => 2 ** x, expm1: Math.expm1, floor: Math.floor,
  log: Math.log, log10: Math.log10, log1p: Math.log1p, log2: Math.log2, rsqrt: (x) => 1 / Math.sqrt(x), sin: Math.sin,
  sinh: Math.sinh, sqrt: Math.sqrt, tan: Math.tan, tanh: Math.tanh, trunc: Math.trunc, asinh: Math.asinh,
};

for (const [name, ref] of Object.entries(UNARY)) {
  test(`math.${name} f32`, () => {
    const xs = name === 'acos' || name === 'asin' ? X.map((x) => fr(x / 4)) : X;
    const f = name === 'acos' ? Math.acos : name === 'asin' ? Math.asin : ref;
    assert.equal(runUnary(`math.${name} %x : tensor<8xf32>`, 'f32', 'f32', xs), xs.map((x) => fr(f(x))));
  });
}

test('math.exp f16 rounds to half precision', () => {
  const h = (v: number) => halfBitsToNumber(numberToHalfBits(v));
  assert.equal(runUnary('math.exp %x : tensor<2xf16>', 'f16', 'f16', [1, 2]), [h(Math.E), h(Math.E ** 2)]);
});

test('math.erf matches known values', () => {
  const got = runUnary('math.erf %x : tensor<4xf32>', 'f32', 'f32', [0, 0.5, 1, 3]) as number[];
  [0, 0.5204998778, 0.8427007929, 0.9999779095].forEach((e, k) => assert.ok(Math.abs(got[k] - e) < 1e-7, `${got[k]} vs ${e}`));
});

test('math.round / roundeven ties', () => {
  assert.equal(runUnary('math.round %x : tensor<4xf32>', 'f32', 'f32', [0.5, 1.5, 2.5, -2.5]), [1, 2, 3, -3]);
  assert.equal(runUnary('math.roundeven %x : tensor<4xf32>', 'f32', 'f32', [0.5, 1.5, 2.5, -2.5]), [0, 2, 2, -2]);
});

test('math binary: atan2, copysign, powf; fma', () => {
  assert.equal(runBinary('math.atan2 %x, %y : tensor<2xf32>', 'f32', 'f32', [1, -1], [2, 2]), [fr(Math.atan2(1, 2)), fr(Math.atan2(-1, 2))]);
  assert.equal(runBinary('math.copysign %x, %y : tensor<2xf32>', 'f32', 'f32', [3, -3], [-0, 1]), [-3, 3]);
  assert.equal(runBinary('math.powf %x, %y : tensor<2xf32>', 'f32', 'f32', [2, 9], [10, 0.5]), [1024, 3]);
  assert.equal(runBinary('math.fma %x, %y, %y : tensor<2xf32>', 'f32', 'f32', [2, 3], [5, 0.5]), [15, 2]);
});

test('math integer ops: absi, ctlz, cttz, ctpop (i32, i8, i64)', () => {
  assert.equal(runUnary('math.absi %x : tensor<3xi32>', 'i32', 'i32', [-5, 7, -2147483648]), [5, 7, -2147483648]);
  assert.equal(runUnary('math.ctlz %x : tensor<3xi32>', 'i32', 'i32', [1, 0, -1]), [31, 32, 0]);
  assert.equal(runUnary('math.ctlz %x : tensor<2xi8>', 'i8', 'i8', [1, 0]), [7, 8]);
  assert.equal(runUnary('math.cttz %x : tensor<3xi32>', 'i32', 'i32', [8, 0, -2147483648]), [3, 32, 31]);
  assert.equal(runUnary('math.ctpop %x : tensor<3xi32>', 'i32', 'i32', [7, 0, -1]), [3, 0, 32]);
  assert.equal(runUnary('math.ctpop %x : tensor<2xi64>', 'i64', 'i64', [-1n, 5n]), [64n, 2n]);
  assert.equal(runUnary('math.ctlz %x : tensor<2xi64>', 'i64', 'i64', [1n, 0n]), [63n, 64n]);
});

test('math classification: isnan, isinf, isfinite, isnormal', () => {
  const xs = [NaN, Infinity, 1, 1e-40];
  assert.equal(runUnary('math.isnan %x : tensor<4xf32>', 'f32', 'i1', xs), [1, 0, 0, 0]);
  assert.equal(runUnary('math.isinf %x : tensor<4xf32>', 'f32', 'i1', xs), [0, 1, 0, 0]);
  assert.equal(runUnary('math.isfinite %x : tensor<4xf32>', 'f32', 'i1', xs), [0, 0, 1, 1]);
  assert.equal(runUnary('math.isnormal %x : tensor<4xf32>', 'f32', 'i1', xs), [0, 0, 1, 0]);
});

test('math.ipowi and math.fpowi', () => {
  assert.equal(runBinary('math.ipowi %x, %y : tensor<2xi32>', 'i32', 'i32', [3, 2], [4, 31]), [81, -2147483648]);
  const text = `module {
  tt.func @k(%a: !tt.ptr<f32>, %b: !tt.ptr<i32>, %o: !tt.ptr<f32>) {${loadLines('x', 'a', 'f32', 2)}${loadLines('y', 'b', 'i32', 2)}
    %z = math.fpowi %x, %y : tensor<2xf32>, tensor<2xi32>${storeLines('z', 'o', 'f32', 2)}
    tt.return
  }
}`;
  const { mem } = run(text, (m) => [m.alloc('f32', 2).fill([2, 0.5]), m.alloc('i32', 2).fill([3, -2]), m.alloc('f32', 2)]);
  assert.equal(mem.buffers[2].toNumbers(), [8, 4]);
});

test.run();
