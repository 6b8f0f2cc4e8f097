/**
 * Two facts every float encoder of the project needs: rounding a real to an integer with ties to
 * even, and a positive double's binary exponent. One owner for the 16-bit encoders
 * (`attributes.ts`), the 8-bit formats (`minifloat.ts`) and the interpreter's rounders.
 */

/** Rounds to the nearest integer, ties to even. */
export function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** floor(log2(a)) exactly, for a finite a > 0 (`Math.log2` may be off by one near a power of two). */
export function binaryExponent(a: number): number {
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  return e;
}
