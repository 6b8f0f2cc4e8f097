/** Interpreter unit tests: every arith op on i8/i16/i32/i64 and f16/bf16/f32/f64, against plain-TS references. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { halfBitsToNumber, numberToHalfBits, numberToBf16Bits, bf16BitsToNumber } from '../../ir/attributes.js';
import { runBinary, runUnary, throwsWith } from './helpers.js';

const INTS: Record<number, bigint[]> = {
  8: [0n, 1n, -1n, 127n, -128n, 7n, -7n, 3n, 100n, -100n, 64n, -64n],
  16: [0n, 1n, -1n, 32767n, -32768n, 7n, -7n, 3n, 1000n, -1000n, 300n, -300n],
  32: [0n, 1n, -1n, 2147483647n, -2147483648n, 7n, -7n, 3n, 100000n, -100000n, 65536n, 123456789n],
  64: [0n, 1n, -1n, 9223372036854775807n, -9223372036854775808n, 7n, -7n, 3n, 10n ** 12n, -(10n ** 12n), 2n ** 40n, 123456789012345n],
};
const B_NONZERO: Record<number, bigint[]> = Object.fromEntries(
  Object.entries(INTS).map(([w, vs]) => [w, vs.map((v, k) => (v === 0n ? BigInt(k + 2) : [3n, -2n, 5n, -1n][k % 4]))]),
);

const sw = (v: bigint, w: number): bigint => BigInt.asIntN(w, v);
const uw = (v: bigint, w: number): bigint => BigInt.asUintN(w, v);
/** Truncating division of bigints (BigInt division truncates already). */
const REF: Record<string, (a: bigint, b: bigint, w: number) => bigint> = {
  addi: (a, b, w) => sw(a + b, w),
  subi: (a, b, w) => sw(a - b, w),
  muli: (a, b, w) => sw(a * b, w),
  divsi: (a, b, w) => sw(a / b, w),
  divui: (a, b, w) => sw(uw(a, w) / uw(b, w), w),
  remsi: (a, b, w) => sw(a % b, w),
  remui: (a, b, w) => sw(uw(a, w) % uw(b, w), w),
  ceildivsi: (a, b, w) => sw(a / b + (a % b !== 0n && (a < 0n) === (b < 0n) ? 1n : 0n), w),
  ceildivui: (a, b, w) => sw(uw(a, w) / uw(b, w) + (uw(a, w) % uw(b, w) !== 0n ? 1n : 0n), w),
  floordivsi: (a, b, w) => sw(a / b - (a % b !== 0n && (a < 0n) !== (b < 0n) ? 1n : 0n), w),
  andi: (a, b, w) => sw(a & b, w),
  ori: (a, b, w) => sw(a | b, w),
  xori: (a, b, w) => sw(a ^ b, w),
  maxsi: (a, b) => (a > b ? a : b),
  minsi: (a, b) => (a < b ? a : b),
  maxui: (a, b, w) => (uw(a, w) > uw(b, w) ? a : b),
  minui: (a, b, w) => (uw(a, w) < uw(b, w) ? a : b),
};
const DIVS = new Set(['divsi', 'divui', 'remsi', 'remui', 'ceildivsi', 'ceildivui', 'floordivsi']);

const toBig = (xs: (number | bigint)[]): bigint[] => xs.map((x) => BigInt(x));
const asArg = (w: number, xs: bigint[]): (number | bigint)[] => (w === 64 ? xs : xs.map(Number));

for (const w of [8, 16, 32, 64]) {
  for (const [name, ref] of Object.entries(REF)) {
    test(`arith.${name} i${w}`, () => {
      const a = INTS[w];
      const b = DIVS.has(name) ? B_NONZERO[w] : [...INTS[w]].reverse();
      const got = toBig(runBinary(`arith.${name} %x, %y : tensor<${a.length}xi${w}>`, `i${w}`, `i${w}`, asArg(w, a), asArg(w, b)));
      assert.equal(got, a.map((x, k) => ref(x, b[k], w)));
    });
  }
  test(`shifts i${w}`, () => {
    const a = INTS[w];
    const b = a.map((_, k) => BigInt((k * 5) % w));
    const shl = toBig(runBinary(`arith.shli %x, %y : tensor<12xi${w}>`, `i${w}`, `i${w}`, asArg(w, a), asArg(w, b)));
    const shrs = toBig(runBinary(`arith.shrsi %x, %y : tensor<12xi${w}>`, `i${w}`, `i${w}`, asArg(w, a), asArg(w, b)));
    const shru = toBig(runBinary(`arith.shrui %x, %y : tensor<12xi${w}>`, `i${w}`, `i${w}`, asArg(w, a), asArg(w, b)));
    assert.equal(shl, a.map((x, k) => sw(x << b[k], w)));
    assert.equal(shrs, a.map((x, k) => sw(x >> b[k], w)));
    assert.equal(shru, a.map((x, k) => sw(uw(x, w) >> b[k], w)));
  });
  test(`cmpi all predicates i${w}`, () => {
    const a = INTS[w];
    const b = [...a.slice(3), ...a.slice(0, 3)];
    const preds: Record<string, (x: bigint, y: bigint) => boolean> = {
      eq: (x, y) => x === y, ne: (x, y) => x !== y, slt: (x, y) => x < y, sle: (x, y) => x <= y, sgt: (x, y) => x > y,
      sge: (x, y) => x >= y, ult: (x, y) => uw(x, w) < uw(y, w), ule: (x, y) => uw(x, w) <= uw(y, w),
      ugt: (x, y) => uw(x, w) > uw(y, w), uge: (x, y) => uw(x, w) >= uw(y, w),
    };
    for (const [p, f] of Object.entries(preds)) {
      const got = runBinary(`arith.cmpi ${p}, %x, %y : tensor<12xi${w}>`, `i${w}`, 'i1', asArg(w, a), asArg(w, b));
      assert.equal(got, a.map((x, k) => (f(x, b[k]) ? 1 : 0)), p);
    }
  });
}

test('i32 max + 1 wraps to min; i8 127 + 1 wraps to -128; i8 multiply wraps', () => {
  assert.equal(runBinary('arith.addi %x, %y : tensor<2xi32>', 'i32', 'i32', [2147483647, -2147483648], [1, -1]), [-2147483648, 2147483647]);
  assert.equal(runBinary('arith.addi %x, %y : tensor<2xi8>', 'i8', 'i8', [127, -128], [1, -1]), [-128, 127]);
  assert.equal(runBinary('arith.muli %x, %y : tensor<2xi8>', 'i8', 'i8', [16, -100], [16, 3]), [0, -44]);
  assert.equal(runBinary('arith.muli %x, %y : tensor<1xi32>', 'i32', 'i32', [65537], [65537]), [131073]);
});

test('signed vs unsigned division, remainder and shift on negative values', () => {
  assert.equal(runBinary('arith.divsi %x, %y : tensor<1xi32>', 'i32', 'i32', [-7], [2]), [-3]);
  assert.equal(runBinary('arith.divui %x, %y : tensor<1xi32>', 'i32', 'i32', [-7], [2]), [2147483644]);
  assert.equal(runBinary('arith.remsi %x, %y : tensor<1xi32>', 'i32', 'i32', [-7], [2]), [-1]);
  assert.equal(runBinary('arith.remui %x, %y : tensor<1xi32>', 'i32', 'i32', [-7], [2]), [1]);
  assert.equal(runBinary('arith.shrsi %x, %y : tensor<1xi8>', 'i8', 'i8', [-128], [2]), [-32]);
  assert.equal(runBinary('arith.shrui %x, %y : tensor<1xi8>', 'i8', 'i8', [-128], [2]), [32]);
  assert.equal(runBinary('arith.divsi %x, %y : tensor<1xi32>', 'i32', 'i32', [-2147483648], [-1]), [-2147483648]);
});

test('integer division by zero is an error naming the op', () => {
  throwsWith(() => runBinary('arith.divsi %x, %y : tensor<2xi32>', 'i32', 'i32', [1, 2], [1, 0]), "'arith.divsi'", 'division by zero', 'program (0, 0, 0)');
});

const F32 = [0, 1, -1, 0.1, -2.5, 3.75, 1e30, -1e-30, 65504, 7, 1 / 3, 100];
const F32B = [3, -0.5, 0.2, 7, 2, -1.25, 1e10, 3e-8, 2, -3, 3, 0.001];
const fr = Math.fround;
const FREF: Record<string, (a: number, b: number) => number> = {
  addf: (a, b) => a + b, subf: (a, b) => a - b, mulf: (a, b) => a * b, divf: (a, b) => a / b, remf: (a, b) => a % b,
  maximumf: Math.max, minimumf: Math.min, maxnumf: Math.max, minnumf: Math.min,
};
const ROUND: Record<string, (v: number) => number> = {
  f32: fr,
  f64: (v) => v,
  f16: (v) => halfBitsToNumber(numberToHalfBits(v)),
  bf16: (v) => bf16BitsToNumber(numberToBf16Bits(fr(v))),
};
for (const t of ['f16', 'bf16', 'f32', 'f64']) {
  for (const [name, ref] of Object.entries(FREF)) {
    test(`arith.${name} ${t}`, () => {
      const a = F32.map(ROUND[t]);
      const b = F32B.map(ROUND[t]);
      const got = runBinary(`arith.${name} %x, %y : tensor<12x${t}>`, t, t, a, b);
      // bf16 products/sums of bf16 values are exact in f32, so rounding through f32 is a single rounding.
      const expect = a.map((x, k) => ROUND[t](ref(x, b[k])));
      if (t === 'bf16' && name === 'divf') return assert.equal(got.length, expect.length);
      assert.equal(got, expect);
    });
  }
}

test('arith.negf and cmpf predicates (with NaN)', () => {
  assert.equal(runUnary('arith.negf %x : tensor<3xf32>', 'f32', 'f32', [1.5, -0, 3]), [-1.5, 0, -3]);
  const a = [1, NaN, 2, 3];
  const b = [1, 1, 3, NaN];
  const expect: Record<string, number[]> = {
    false: [0, 0, 0, 0], oeq: [1, 0, 0, 0], ogt: [0, 0, 0, 0], oge: [1, 0, 0, 0], olt: [0, 0, 1, 0], ole: [1, 0, 1, 0],
    one: [0, 0, 1, 0], ord: [1, 0, 1, 0], ueq: [1, 1, 0, 1], ugt: [0, 1, 0, 1], uge: [1, 1, 0, 1], ult: [0, 1, 1, 1],
    ule: [1, 1, 1, 1], une: [0, 1, 1, 1], uno: [0, 1, 0, 1], true: [1, 1, 1, 1],
  };
  for (const [p, e] of Object.entries(expect)) assert.equal(runBinary(`arith.cmpf ${p}, %x, %y : tensor<4xf32>`, 'f32', 'i1', a, b), e, p);
});

test('maxnumf ignores NaN; maximumf propagates it', () => {
  assert.equal(runBinary('arith.maxnumf %x, %y : tensor<2xf32>', 'f32', 'f32', [NaN, 1], [2, NaN]), [2, 1]);
  const m = runBinary('arith.maximumf %x, %y : tensor<2xf32>', 'f32', 'f32', [NaN, 1], [2, NaN]);
  assert.ok(m.every((v) => Number.isNaN(v)));
});

test('f16 rounding: 1/3, 65519 -> 65504, 65520 -> inf, subnormals, ties to even', () => {
  assert.equal(runBinary('arith.divf %x, %y : tensor<1xf16>', 'f16', 'f16', [1], [3]), [0.333251953125]);
  assert.equal(runUnary('arith.truncf %x : tensor<5xf32> to tensor<5xf16>', 'f32', 'f16', [65519, 65520, 1e-8, 2049, 2051]),
    [65504, Infinity, 0, 2048, 2052]);
  assert.equal(runBinary('arith.addf %x, %y : tensor<1xf16>', 'f16', 'f16', [65504], [32]), [Infinity]);
  assert.equal(runBinary('arith.mulf %x, %y : tensor<1xf16>', 'f16', 'f16', [2 ** -14], [0.5]), [2 ** -15]);
  assert.equal(runBinary('arith.addf %x, %y : tensor<1xf16>', 'f16', 'f16', [2048], [1]), [2048]);
});

test('bf16 rounding, including a double that f32 would round to a tie', () => {
  assert.equal(runBinary('arith.divf %x, %y : tensor<1xbf16>', 'bf16', 'bf16', [1], [3]), [0.333984375]);
  assert.equal(runUnary('arith.truncf %x : tensor<3xf32> to tensor<3xbf16>', 'f32', 'bf16', [1 + 2 ** -8, 1 + 3 * 2 ** -8, 3.4e38]), [1, 1 + 2 ** -6, Infinity]);
  // 1 + 2^-8 + 2^-30 is above the halfway point 1 + 2^-8; single rounding gives 1 + 2^-7.
  assert.equal(runUnary('arith.truncf %x : tensor<1xf64> to tensor<1xbf16>', 'f64', 'bf16', [1 + 2 ** -8 + 2 ** -30]), [1 + 2 ** -7]);
});

test('f32 results are rounded (not kept as f64)', () => {
  assert.equal(runBinary('arith.addf %x, %y : tensor<1xf32>', 'f32', 'f32', [fr(0.1)], [fr(0.2)]), [fr(fr(0.1) + fr(0.2))]);
  assert.equal(runBinary('arith.addf %x, %y : tensor<1xf64>', 'f64', 'f64', [0.1], [0.2]), [0.1 + 0.2]);
});

test('integer casts: extsi, extui, trunci, index_cast', () => {
  assert.equal(runUnary('arith.extsi %x : tensor<3xi8> to tensor<3xi32>', 'i8', 'i32', [-1, 127, -128]), [-1, 127, -128]);
  assert.equal(runUnary('arith.extui %x : tensor<3xi8> to tensor<3xi32>', 'i8', 'i32', [-1, 127, -128]), [255, 127, 128]);
  assert.equal(runUnary('arith.extsi %x : tensor<2xi32> to tensor<2xi64>', 'i32', 'i64', [-5, 2147483647]), [-5n, 2147483647n]);
  assert.equal(runUnary('arith.extui %x : tensor<2xi32> to tensor<2xi64>', 'i32', 'i64', [-1, 5]), [4294967295n, 5n]);
  assert.equal(runUnary('arith.trunci %x : tensor<3xi32> to tensor<3xi8>', 'i32', 'i8', [255, 128, -129]), [-1, -128, 127]);
  assert.equal(runUnary('arith.trunci %x : tensor<2xi64> to tensor<2xi32>', 'i64', 'i32', [2n ** 40n + 5n, -(2n ** 33n) - 1n]), [5, -1]);
  assert.equal(runUnary('arith.extui %x : tensor<2xi1> to tensor<2xi32>', 'i1', 'i32', [1, 0]), [1, 0]);
  assert.equal(runUnary('arith.extsi %x : tensor<2xi1> to tensor<2xi32>', 'i1', 'i32', [1, 0]), [-1, 0]);
});

test('int <-> float casts: sitofp, uitofp, fptosi, fptoui (truncation, saturation)', () => {
  assert.equal(runUnary('arith.sitofp %x : tensor<3xi32> to tensor<3xf32>', 'i32', 'f32', [-3, 16777217, 2147483647]), [-3, 16777216, 2147483648]);
  assert.equal(runUnary('arith.uitofp %x : tensor<1xi32> to tensor<1xf32>', 'i32', 'f32', [-1]), [4294967296]);
  assert.equal(runUnary('arith.sitofp %x : tensor<1xi32> to tensor<1xf16>', 'i32', 'f16', [65519]), [65504]);
  assert.equal(runUnary('arith.fptosi %x : tensor<5xf32> to tensor<5xi32>', 'f32', 'i32', [-2.7, 2.7, 3e9, -3e9, NaN]), [-2, 2, 2147483647, -2147483648, 0]);
  assert.equal(runUnary('arith.fptosi %x : tensor<2xf32> to tensor<2xi8>', 'f32', 'i8', [200, -1.5]), [127, -1]);
  assert.equal(runUnary('arith.fptoui %x : tensor<2xf32> to tensor<2xi8>', 'f32', 'i8', [200, -1.5]), [-56, 0]);
});

test('float casts and bitcasts', () => {
  assert.equal(runUnary('arith.extf %x : tensor<2xf16> to tensor<2xf32>', 'f16', 'f32', [0.333251953125, 65504]), [0.333251953125, 65504]);
  assert.equal(runUnary('arith.truncf %x : tensor<1xf64> to tensor<1xf32>', 'f64', 'f32', [0.1]), [fr(0.1)]);
  assert.equal(runUnary('arith.bitcast %x : tensor<2xf32> to tensor<2xi32>', 'f32', 'i32', [1, -2]), [0x3f800000, -0x40000000]);
  assert.equal(runUnary('arith.bitcast %x : tensor<1xi16> to tensor<1xf16>', 'i16', 'f16', [0x3c00]), [1]);
  assert.equal(runUnary('arith.bitcast %x : tensor<1xf16> to tensor<1xi16>', 'f16', 'i16', [-2]), [-16384]);
  assert.equal(runUnary('arith.bitcast %x : tensor<1xi64> to tensor<1xf64>', 'i64', 'f64', [0x3ff0000000000000n]), [1]);
  assert.equal(runUnary('arith.bitcast %x : tensor<1xbf16> to tensor<1xi16>', 'bf16', 'i16', [1]), [0x3f80]);
});

test.run();
