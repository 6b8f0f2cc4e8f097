/**
 * `tt.print`'s lines as the GPU prints them (targets/nvptx/device-debug.ts): the same layout,
 * `pid (x, y, z) idx (i, j)<prefix>[(operand n) ]<element>`, and the element through the same C
 * printf conversion (`%f`, `%i`/`%u`, `%lli`/`%llu`, hex of the type's bits), so that a run under
 * `triton-run` and one on the GPU can be compared line by line (the GPU's order aside).
 */
import { floatBits } from '../../ir/attributes.js';
import { FloatType, IntegerType, type Type } from '../../ir/types.js';
import { printIndexDigits } from '../../dialects/tt/index.js';
import { coordsOf } from './values.js';

/** C's `%f`: six decimals of the exact binary value, ties to even; `inf`, `-inf`, `nan`; `-0.000000`. */
export function cFixed(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  const a = Math.abs(x);
  if (a === Infinity) return `${sign}inf`;
  // every double this large is an integer; toFixed would switch to exponent form
  if (a >= 1e21) return `${sign}${BigInt(a)}.000000`;
  // a tie at the sixth decimal is a * 2e6 odd, which needs a * 128 an odd integer: toFixed rounds
  // it away from zero, C to even
  const k = a * 128;
  if (Number.isInteger(k) && k % 2 === 1 && a < 2 ** 40) {
    const down = Math.floor(a * 1e6);
    const n = down % 2 === 0 ? down : down + 1;
    const text = String(n).padStart(7, '0');
    return `${sign}${text.slice(0, -6)}.${text.slice(-6)}`;
  }
  return sign + a.toFixed(6);
}

/** `idx (i, j)` of element `k` of a row-major tensor of `shape`, each index padded as Triton pads it. */
export function indexText(k: number, shape: readonly number[]): string {
  return `idx (${coordsOf(k, shape).map((c, d) => String(c).padStart(printIndexDigits(shape[d]))).join(', ')})`;
}

/** An element of type `elt` as printf prints it: hex of its bits, or `%f`, or `%i`/`%u` by `signed`. */
export function elementText(v: number | bigint, elt: Type, hex: boolean, signed: boolean): string {
  const hexOf = (bits: bigint, width: number) => `0x${bits.toString(16).padStart(Math.max(1, Math.ceil(width / 4)), '0')}`;
  if (elt instanceof FloatType) {
    if (hex) return hexOf(floatBits(Number(v), elt.kind), elt.width);
    return cFixed(Number(v));
  }
  if (elt instanceof IntegerType) {
    const w = elt.width;
    const bits = BigInt.asUintN(w, BigInt(v));
    if (hex) return hexOf(bits, w);
    return (signed && w > 1 ? BigInt.asIntN(w, bits) : bits).toString();
  }
  return String(v);
}
