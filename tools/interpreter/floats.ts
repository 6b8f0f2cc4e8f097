/**
 * Float rounding and bit-casting helpers for the interpreter: every float value is kept as a JS
 * double that is exactly representable in its element type (fp8/f16/bf16/f32/f64), rounded to
 * nearest even after each operation.
 */
import { miniFloatBits, miniFloatFormat, miniFloatValue, roundToMiniFloat } from '../../ir/minifloat.js';
import { binaryExponent, roundHalfEven } from '../../ir/float-rounding.js';
import { halfBitsToNumber, numberToHalfBits, bf16BitsToNumber, numberToBf16Bits } from '../../ir/attributes.js';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);

/** Rounds `v` to half precision (round to nearest even, overflow to infinity). */
export function roundF16(v: number): number {
  return halfBitsToNumber(numberToHalfBits(v));
}

/**
 * Rounds a double to bfloat16 with a single rounding (numberToBf16Bits goes through f32 first,
 * which double-rounds doubles that are not f32 values; this rounds the double directly).
 */
export function roundBf16(v: number): number {
  if (!Number.isFinite(v) || v === 0) return v;
  const a = Math.abs(v);
  const ulp = 2 ** Math.max(binaryExponent(a) - 7, -133);
  const r = roundHalfEven(a / ulp) * ulp;
  const out = r >= 2 ** 128 - 2 ** 119 ? Infinity : r;
  return v < 0 ? -out : out;
}

/** Rounds to tf32 (10 explicit mantissa bits, f32 range). */
export function roundTf32(v: number): number {
  const x = Math.fround(v);
  if (!Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  const ulp = 2 ** Math.max(binaryExponent(a) - 10, -149);
  const r = Math.fround(roundHalfEven(a / ulp) * ulp);
  return x < 0 ? -r : r;
}

const identity = (v: number): number => v;

/** The rounding function of a float kind; throws for kinds the interpreter does not model. */
export function rounderFor(kind: string): (v: number) => number {
  switch (kind) {
    case 'f64':
      return identity;
    case 'f32':
      return Math.fround;
    case 'tf32':
      return roundTf32;
    case 'f16':
      return roundF16;
    case 'bf16':
      return roundBf16;
    default: {
      const mini = miniFloatFormat(kind);
      if (mini) return (v) => roundToMiniFloat(mini, v);
      throw new Error(`interpreter: float type '${kind}' is not supported`);
    }
  }
}

/** Rounds toward zero to a float kind (used by `tt.fp_to_fp` with `rounding = rtz`). */
export function roundTowardZero(v: number, kind: string): number {
  const r = rounderFor(kind)(v);
  if (Number.isNaN(v) || Math.abs(r) <= Math.abs(v)) return r;
  // The nearest value was above |v|: step one ulp toward zero in the target format.
  return floatFromBitsNum(floatToBits(r, kind) - 1n, kind);
}

/** Bit pattern of a float value of kind `kind` (as an unsigned bigint). */
export function floatToBits(v: number, kind: string): bigint {
  switch (kind) {
    case 'f16':
      return BigInt(numberToHalfBits(v));
    case 'bf16':
      return BigInt(numberToBf16Bits(v));
    case 'f64':
      f64[0] = v;
      return BigInt.asUintN(64, i64[0]);
    default:
      if (miniFloatFormat(kind)) return BigInt(floatToBits32(v, kind));
      f32[0] = v;
      return BigInt(u32[0]);
  }
}

/** The float value of a bit pattern of kind `kind`. */
export function floatFromBitsNum(bits: bigint, kind: string): number {
  switch (kind) {
    case 'f16':
      return halfBitsToNumber(Number(BigInt.asUintN(16, bits)));
    case 'bf16':
      return bf16BitsToNumber(Number(BigInt.asUintN(16, bits)));
    case 'f64':
      i64[0] = BigInt.asIntN(64, bits);
      return f64[0];
    default:
      if (miniFloatFormat(kind)) return floatFromBits32(Number(BigInt.asUintN(8, bits)), kind);
      u32[0] = Number(BigInt.asUintN(32, bits));
      return f32[0];
  }
}

/** Bits of a float with width <= 32, as a number (fast path for f16/bf16/f32 bitcasts). */
export function floatToBits32(v: number, kind: string): number {
  if (kind === 'f16') return numberToHalfBits(v);
  if (kind === 'bf16') return numberToBf16Bits(v);
  const mini = miniFloatFormat(kind);
  if (mini) return miniFloatBits(mini, v);
  f32[0] = v;
  return u32[0];
}

/** Float value of bits with width <= 32. */
export function floatFromBits32(bits: number, kind: string): number {
  if (kind === 'f16') return halfBitsToNumber(bits & 0xffff);
  if (kind === 'bf16') return bf16BitsToNumber(bits & 0xffff);
  const mini = miniFloatFormat(kind);
  if (mini) return miniFloatValue(mini, bits);
  u32[0] = bits >>> 0;
  return f32[0];
}

/** The error function, to about 1e-15 relative accuracy (series near 0, continued fraction in the tails). */
export function erf(x: number): number {
  if (Number.isNaN(x)) return x;
  const a = Math.abs(x);
  if (a > 6) return Math.sign(x);
  if (a < 2.5) {
    // erf(x) = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1))
    let term = a;
    let sum = a;
    for (let n = 1; n < 100; n++) {
      term *= (-a * a) / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    return Math.sign(x) * (2 / Math.sqrt(Math.PI)) * sum;
  }
  return Math.sign(x) * (1 - erfcTail(a));
}

/** erfc(a) for a >= 2.5 by Lentz's continued fraction. */
function erfcTail(a: number): number {
  // erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))))
  let f = a;
  let c = a;
  let d = 0;
  for (let n = 1; n < 200; n++) {
    const an = n / 2;
    d = a + an * d;
    d = d === 0 ? 1e-300 : 1 / d;
    c = a + an / c;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-a * a) / Math.sqrt(Math.PI) / f;
}

/** Rounds to the nearest integer, ties away from zero (math.round). */
export function roundAway(x: number): number {
  return Math.sign(x) * Math.round(Math.abs(x));
}
