/** The math dialect: float functions (computed in double, rounded to the element type) and integer bit ops. */
import type { OpImpl } from './interpreter.js';
import { erf, roundAway, roundHalfEven } from './floats.js';
import { floatBinary, floatPredicate, floatRounder, floatTernary, floatUnary, fromFunction, intUnary } from './elementwise.js';
import { asTensor, eltClass, elementOf, signedOf, unsignedOf } from './values.js';
import { fail } from './errors.js';

const FLOAT_UNARY: Record<string, (a: number) => number> = {
  absf: Math.abs, acos: Math.acos, acosh: Math.acosh, asin: Math.asin, asinh: Math.asinh, atan: Math.atan,
  atanh: Math.atanh, cbrt: Math.cbrt, ceil: Math.ceil, cos: Math.cos, cosh: Math.cosh, erf,
  erfc: (a) => 1 - erf(a), exp: Math.exp, exp2: (a) => 2 ** a, expm1: Math.expm1, floor: Math.floor,
  log: Math.log, log10: Math.log10, log1p: Math.log1p, log2: Math.log2, round: roundAway, roundeven: roundHalfEven,
  rsqrt: (a) => 1 / Math.sqrt(a), sin: Math.sin, sinh: Math.sinh, sqrt: Math.sqrt, tan: Math.tan, tanh: Math.tanh,
  trunc: Math.trunc,
};

const FLOAT_BINARY: Record<string, (a: number, b: number) => number> = {
  atan2: Math.atan2,
  copysign: (a, b) => (Object.is(b, -0) || b < 0 ? -Math.abs(a) : Math.abs(a)),
  powf: Math.pow,
};

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
const ipowi: OpImpl = (op, ins) => {
  const t = elementOf(op.result(0).type);
  const c = eltClass(t);
  const w = c.k === 'int' ? c.width : 64;
  const a = asTensor(ins[0]).data as Int32Array | BigInt64Array;
  const b = asTensor(ins[1]).data as Int32Array | BigInt64Array;
  return [fromFunction(op, 0, (k) => {
    const base = BigInt(c.k === 'int' ? signedOf(a[k] as number, w) : (a[k] as bigint));
    const e = BigInt(c.k === 'int' ? signedOf(b[k] as number, w) : (b[k] as bigint));
    if (e < 0n) return base === 1n ? 1n : base === -1n ? (e % 2n === 0n ? 1n : -1n) : base === 0n ? fail('0 to a negative power') : 0n;
    let r = 1n;
    for (let j = 0n; j < e; j++) r = BigInt.asIntN(w, r * base);
    return r;
  })];
};

/** math.fpowi: float base, integer exponent. */
const fpowi: OpImpl = (op, ins) => {
  const a = asTensor(ins[0]).data as Float64Array;
  const b = asTensor(ins[1]).data as Int32Array | BigInt64Array;
  const rnd = floatRounder(elementOf(op.result(0).type));
  return [fromFunction(op, 0, (k) => rnd(Math.pow(a[k], Number(b[k]))))];
};

const MIN_NORMAL: Record<string, number> = { f16: 2 ** -14, bf16: 2 ** -126, f32: 2 ** -126, tf32: 2 ** -126, f64: 2 ** -1022 };

/** math.isnormal: finite, non-zero and not subnormal in the operand's format. */
const isnormal: OpImpl = (op, ins) => {
  const c = eltClass(elementOf(op.operand(0).type));
  const min = c.k === 'float' ? MIN_NORMAL[c.kind] : fail('expected a float operand');
  return floatPredicate((a) => Number.isFinite(a) && Math.abs(a) >= min)(op, ins, undefined as never);
};

/** The math op table. */
export const mathOps: Record<string, OpImpl> = {
  'math.fma': floatTernary((a, b, c) => a * b + c),
  'math.fpowi': fpowi,
  'math.ipowi': ipowi,
  'math.absi': intUnary((a, w) => Math.abs(signedOf(a, w)), (a) => (a < 0n ? -a : a)),
  'math.ctlz': intUnary(ctlz, (a) => BigInt(bigBits(a).indexOf('1') < 0 ? 64 : bigBits(a).indexOf('1'))),
  'math.cttz': intUnary(cttz, (a) => BigInt(bigBits(a).lastIndexOf('1') < 0 ? 64 : 63 - bigBits(a).lastIndexOf('1'))),
  'math.ctpop': intUnary(popcount, (a) => BigInt([...bigBits(a)].filter((ch) => ch === '1').length)),
  'math.isfinite': floatPredicate(Number.isFinite),
  'math.isinf': floatPredicate((a) => a === Infinity || a === -Infinity),
  'math.isnan': floatPredicate(Number.isNaN),
  'math.isnormal': isnormal,
};
for (const [name, f] of Object.entries(FLOAT_UNARY)) mathOps[`math.${name}`] = floatUnary(f);
for (const [name, f] of Object.entries(FLOAT_BINARY)) mathOps[`math.${name}`] = floatBinary(f);
