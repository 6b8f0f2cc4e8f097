/** The math dialect: float functions (computed in double, rounded to the element type) and integer bit ops. */
import type { OpDef } from '../../ir/op-def.js';
import * as math from '../../dialects/math.js';
import { family, impl, type OpEntry } from './op-impl.js';
import { erf, roundAway } from './floats.js';
import { roundHalfEven } from '../../ir/float-rounding.js';
import { floatBinary, floatPredicate, floatRounder, floatTernary, floatUnary, fromFunction, intUnary } from './elementwise.js';
import { asTensor, eltClass, elementOf, signedOf, unsignedOf } from './values.js';
import { fail } from './errors.js';

const FLOAT_UNARY: [OpDef, (a: number) => number][] = [
  [math.AbsfOp, Math.abs], [math.AcosOp, Math.acos], [math.AcoshOp, Math.acosh], [math.AsinOp, Math.asin],
  [math.AsinhOp, Math.asinh], [math.AtanOp, Math.atan], [math.AtanhOp, Math.atanh], [math.CbrtOp, Math.cbrt],
  [math.CeilOp, Math.ceil], [math.CosOp, Math.cos], [math.CoshOp, Math.cosh], [math.ErfOp, erf],
  [math.ErfcOp, (a) => 1 - erf(a)], [math.ExpOp, Math.exp], [math.Exp2Op, (a) => 2 ** a], [math.Expm1Op, Math.expm1],
  [math.FloorOp, Math.floor], [math.LogOp, Math.log], [math.Log10Op, Math.log10], [math.Log1pOp, Math.log1p],
  [math.Log2Op, Math.log2], [math.RoundOp, roundAway], [math.RoundevenOp, roundHalfEven], [math.RsqrtOp, (a) => 1 / Math.sqrt(a)],
  [math.SinOp, Math.sin], [math.SinhOp, Math.sinh], [math.SqrtOp, Math.sqrt], [math.TanOp, Math.tan], [math.TanhOp, Math.tanh],
  [math.TruncOp, Math.trunc],
];

const FLOAT_BINARY: [OpDef, (a: number, b: number) => number][] = [
  [math.Atan2Op, Math.atan2],
  [math.CopysignOp, (a, b) => (Object.is(b, -0) || b < 0 ? -Math.abs(a) : Math.abs(a))],
  [math.PowfOp, Math.pow],
];

/** Leading zeros of a w-bit value. */
function ctlz(v: number, w: number): number {
  const x = unsignedOf(v, w);
  return x === 0 ? w : Math.clz32(x) - (32 - w);
}
function cttz(v: number, w: number): number {
  const x = unsignedOf(v, w);
  if (x === 0) return w;
  return 31 - Math.clz32(x & -x);
}
function popcount(v: number, w: number): number {
  let x = unsignedOf(v, w);
  let n = 0;
  while (x) {
    n += x & 1;
    x = Math.floor(x / 2);
  }
  return n;
}
const bigBits = (v: bigint): string => BigInt.asUintN(64, v).toString(2).padStart(64, '0');

/** math.ipowi: integer power with wrap-around; negative exponents give 0 except for bases 1 and -1. */
const ipowi = impl(math.IpowiOp, (pow, it) => {
  const t = elementOf(pow.result.type);
  const c = eltClass(t);
  const w = c.k === 'int' ? c.width : 64;
  const a = asTensor(it.get(pow.lhs)).data as Int32Array | BigInt64Array;
  const b = asTensor(it.get(pow.rhs)).data as Int32Array | BigInt64Array;
  return [fromFunction(pow.op, 0, (k) => {
    const base = BigInt(c.k === 'int' ? signedOf(a[k] as number, w) : (a[k] as bigint));
    const e = BigInt(c.k === 'int' ? signedOf(b[k] as number, w) : (b[k] as bigint));
    if (e < 0n) return base === 1n ? 1n : base === -1n ? (e % 2n === 0n ? 1n : -1n) : base === 0n ? fail('0 to a negative power') : 0n;
    let r = 1n;
    for (let j = 0n; j < e; j++) r = BigInt.asIntN(w, r * base);
    return r;
  })];
});

/** math.fpowi: float base, integer exponent. */
const fpowi = impl(math.FpowiOp, (pow, it) => {
  const a = asTensor(it.get(pow.lhs)).data as Float64Array;
  const b = asTensor(it.get(pow.rhs)).data as Int32Array | BigInt64Array;
  const rnd = floatRounder(elementOf(pow.result.type));
  return [fromFunction(pow.op, 0, (k) => rnd(Math.pow(a[k], Number(b[k]))))];
});

const MIN_NORMAL: Record<string, number> = { f16: 2 ** -14, bf16: 2 ** -126, f32: 2 ** -126, tf32: 2 ** -126, f64: 2 ** -1022 };

/** math.isnormal: finite, non-zero and not subnormal in the operand's format. */
const isnormal = impl(math.IsnormalOp, (test, it) => {
  const c = eltClass(elementOf(test.operand.type));
  const min = c.k === 'float' ? MIN_NORMAL[c.kind] : fail('expected a float operand');
  return floatPredicate((a) => Number.isFinite(a) && Math.abs(a) >= min)(test.op, it);
});

/** The math op table. */
export const mathOps: OpEntry[] = [
  [math.FmaOp.name, floatTernary((a, b, c) => a * b + c)],
  fpowi,
  ipowi,
  [math.AbsiOp.name, intUnary((a, w) => Math.abs(signedOf(a, w)), (a) => (a < 0n ? -a : a))],
  [math.CtlzOp.name, intUnary(ctlz, (a) => BigInt(bigBits(a).indexOf('1') < 0 ? 64 : bigBits(a).indexOf('1')))],
  [math.CttzOp.name, intUnary(cttz, (a) => BigInt(bigBits(a).lastIndexOf('1') < 0 ? 64 : 63 - bigBits(a).lastIndexOf('1')))],
  [math.CtpopOp.name, intUnary(popcount, (a) => BigInt([...bigBits(a)].filter((ch) => ch === '1').length))],
  [math.IsfiniteOp.name, floatPredicate(Number.isFinite)],
  [math.IsinfOp.name, floatPredicate((a) => a === Infinity || a === -Infinity)],
  [math.IsnanOp.name, floatPredicate(Number.isNaN)],
  isnormal,
  ...family(FLOAT_UNARY, floatUnary),
  ...family(FLOAT_BINARY, floatBinary),
];
