/**
 * The 8-bit float formats (MLIR's `f8E5M2`, `f8E4M3FN`, ...): their fields and how a double rounds
 * into them. One owner for these facts: constants (APFloat's rounding, overflow to infinity or
 * NaN), the interpreter and the nvptx target (the hardware's saturating conversion) all read them here.
 */
import { binaryExponent, roundHalfEven } from './float-rounding.js';

/**
 * How a format spells its special values: `ieee` has infinities and NaNs in the all-ones exponent;
 * `fn` has no infinities and one NaN mantissa (all ones) in the all-ones exponent; `fnuz` has no
 * infinities, no negative zero, and 0x80 is its only NaN.
 */
export type MiniFloatSpecials = 'ieee' | 'fn' | 'fnuz';

/** An 8-bit float format. */
export interface MiniFloatFormat {
  readonly kind: string;
  readonly expBits: number;
  readonly mantBits: number;
  readonly bias: number;
  readonly specials: MiniFloatSpecials;
}

const format = (kind: string, expBits: number, mantBits: number, bias: number, specials: MiniFloatSpecials): MiniFloatFormat =>
  Object.freeze({ kind, expBits, mantBits, bias, specials });

/** The 8-bit float formats by MLIR type name. */
export const MINIFLOATS: ReadonlyMap<string, MiniFloatFormat> = new Map([
  ['f8E5M2', format('f8E5M2', 5, 2, 15, 'ieee')],
  ['f8E4M3', format('f8E4M3', 4, 3, 7, 'ieee')],
  ['f8E3M4', format('f8E3M4', 3, 4, 3, 'ieee')],
  ['f8E4M3FN', format('f8E4M3FN', 4, 3, 7, 'fn')],
  ['f8E5M2FNUZ', format('f8E5M2FNUZ', 5, 2, 16, 'fnuz')],
  ['f8E4M3FNUZ', format('f8E4M3FNUZ', 4, 3, 8, 'fnuz')],
  ['f8E4M3B11FNUZ', format('f8E4M3B11FNUZ', 4, 3, 11, 'fnuz')],
]);

/** The format of an 8-bit float kind, or undefined for other kinds. */
export const miniFloatFormat = (kind: string): MiniFloatFormat | undefined => MINIFLOATS.get(kind);

/** The largest finite value of a format (448 for f8E4M3FN, 57344 for f8E5M2). */
export function maxFinite(f: MiniFloatFormat): number {
  const topExp = (1 << f.expBits) - 1;
  if (f.specials === 'ieee') return (2 - 2 ** -f.mantBits) * 2 ** (topExp - 1 - f.bias);
  if (f.specials === 'fn') return (2 - 2 ** (1 - f.mantBits)) * 2 ** (topExp - f.bias);
  return (2 - 2 ** -f.mantBits) * 2 ** (topExp - f.bias);
}

/** The quiet NaN a format's conversions produce (0x7F for f8E4M3FN, 0x7E for f8E5M2, 0x80 for the FNUZ ones). */
export function nanBits(f: MiniFloatFormat): number {
  if (f.specials === 'fnuz') return 0x80;
  if (f.specials === 'fn') return 0x7f;
  return (((1 << f.expBits) - 1) << f.mantBits) | (1 << (f.mantBits - 1));
}

/** How a conversion into a format rounds and what it does past the largest finite value. */
export interface MiniFloatRounding {
  /** Round toward zero instead of to nearest even. */
  readonly towardZero?: boolean;
  /**
   * Clamp to the largest finite value (PTX's `.satfinite`: infinities too) instead of overflowing to
   * infinity (`ieee`) or NaN (`fn`, `fnuz`), which is APFloat's rounding.
   */
  readonly saturate?: boolean;
}

/** The bits (0..255) of `v` in format `f`, rounded once from the exact double. */
export function miniFloatBits(f: MiniFloatFormat, v: number, rounding: MiniFloatRounding = {}): number {
  if (Number.isNaN(v)) return nanBits(f);
  const negative = v < 0 || Object.is(v, -0);
  const signBit = negative && f.specials !== 'fnuz' ? 0x80 : 0;
  const a = Math.abs(v);
  const max = maxFinite(f);
  const overflow = (): number => {
    if (f.specials === 'ieee') return signBit | (((1 << f.expBits) - 1) << f.mantBits);
    return nanBits(f);
  };
  // the largest finite value with v's sign
  const largest = (): number => (negative ? 0x80 : 0) | encode(f, max);
  if (a === Infinity) return rounding.saturate ? largest() : overflow();
  const minNormalExp = 1 - f.bias;
  const ulpExp = (a < 2 ** minNormalExp ? minNormalExp : binaryExponent(a)) - f.mantBits;
  const q = a / 2 ** ulpExp;
  const r = (rounding.towardZero ? Math.floor(q) : roundHalfEven(q)) * 2 ** ulpExp;
  if (r > max) {
    // Rounding toward zero never reaches infinity: a finite value past the range is the largest.
    if (rounding.saturate || rounding.towardZero) return largest();
    return overflow();
  }
  if (r === 0) return signBit;
  return (negative ? 0x80 : 0) | encode(f, r);
}

/** The bits of a positive value `r` exactly representable in `f` (no sign). */
function encode(f: MiniFloatFormat, r: number): number {
  const minNormalExp = 1 - f.bias;
  if (r < 2 ** minNormalExp) return r / 2 ** (minNormalExp - f.mantBits);
  const exp = binaryExponent(r);
  return ((exp + f.bias) << f.mantBits) | ((r / 2 ** exp - 1) * 2 ** f.mantBits);
}

/** The value of bits (0..255) in format `f`. */
export function miniFloatValue(f: MiniFloatFormat, bits: number): number {
  const b = bits & 0xff;
  if (f.specials === 'fnuz' && b === 0x80) return NaN;
  const sign = b & 0x80 ? -1 : 1;
  const exp = (b >> f.mantBits) & ((1 << f.expBits) - 1);
  const mant = b & ((1 << f.mantBits) - 1);
  const topExp = (1 << f.expBits) - 1;
  if (f.specials === 'ieee' && exp === topExp) return mant ? NaN : sign * Infinity;
  if (f.specials === 'fn' && exp === topExp && mant === (1 << f.mantBits) - 1) return NaN;
  if (exp === 0) return sign * mant * 2 ** (1 - f.bias - f.mantBits);
  return sign * (1 + mant / 2 ** f.mantBits) * 2 ** (exp - f.bias);
}

/** `v` rounded into format `f` and read back (NaN, infinities and the format's rules kept). */
export function roundToMiniFloat(f: MiniFloatFormat, v: number, rounding: MiniFloatRounding = {}): number {
  return miniFloatValue(f, miniFloatBits(f, v, rounding));
}
