/**
 * The axis-info lattice (after Triton's AxisInfo): for an integer or pointer value, per dimension,
 *  - contiguity[d]:   the length of the aligned runs along d whose values increase by exactly 1
 *                     ([4, 5, 6, 7, 20, 21, 22, 23] has contiguity 4);
 *  - divisibility[d]: the largest power of two (capped at 2^62, or the `tt.divisibility` hint)
 *                     dividing the first element of every such run (for pointers: in bytes);
 *  - constancy[d]:    the length of the aligned runs along d whose values are all equal;
 * plus the value itself when every element is one known constant.
 *
 * Scalars have rank 1. A missing state (`undefined` in the solver) is the optimistic "not reached
 * yet" bottom; `join` is the meet of two facts (what holds for both), and `pessimistic(rank)`
 * (all ones, no constant) is what is known about an arbitrary value.
 */

/** The cap on divisibility: what a zero value (divisible by anything) gets, as Triton's kMaxDivisor. */
export const MAX_DIVISOR = 2 ** 62;

/** Facts about one value, per dimension. Immutable. */
export class AxisInfo {
  constructor(
    readonly contiguity: readonly number[],
    readonly divisibility: readonly number[],
    readonly constancy: readonly number[],
    /** The value of every element, when known (signed, in the value's bit width). */
    readonly constantValue: bigint | null = null,
  ) {}

  /** Number of dimensions (1 for scalars). */
  get rank(): number {
    return this.contiguity.length;
  }

  /** Nothing known: contiguity, divisibility and constancy 1 everywhere. */
  static pessimistic(rank: number): AxisInfo {
    const ones = new Array<number>(rank).fill(1);
    return new AxisInfo(ones, ones, ones);
  }

  /** Whether both hold exactly the same facts. */
  equals(o: AxisInfo): boolean {
    return (
      this.constantValue === o.constantValue &&
      sameDims(this.contiguity, o.contiguity) &&
      sameDims(this.divisibility, o.divisibility) &&
      sameDims(this.constancy, o.constancy)
    );
  }

  /** The remark text: `contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>`. */
  toString(): string {
    const dims = (v: readonly number[]) => `[${v.map((x) => BigInt(x).toString()).join(', ')}]`;
    const cv = this.constantValue === null ? '<none>' : this.constantValue.toString();
    return `contiguity = ${dims(this.contiguity)}, divisibility = ${dims(this.divisibility)}, constancy = ${dims(this.constancy)}, constant_value = ${cv}`;
  }
}

function sameDims(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, k) => x === b[k]);
}

/** Greatest common divisor of non-negative integers; 0 is the identity (gcd(0, x) = x). */
export function gcd(...xs: number[]): number {
  let g = 0;
  for (let x of xs) {
    x = Math.abs(x);
    let a = g;
    while (x) [a, x] = [x, a % x];
    g = a;
  }
  return g;
}

/** The largest power of two dividing `v` (MAX_DIVISOR for 0, capped at MAX_DIVISOR), like Triton's highestPowOf2Divisor. */
export function highestPowOf2Divisor(v: bigint | number, cap = MAX_DIVISOR): number {
  let x = typeof v === 'bigint' ? v : BigInt(Math.trunc(v));
  if (x < 0n) x = -x;
  if (x === 0n) return cap;
  const low = x & -x;
  return low >= BigInt(cap) ? cap : Number(low);
}

/** `a * b`, saturating at MAX_DIVISOR (multiplying two divisibilities). */
export function multiplyDivisor(a: number, b: number): number {
  if (b !== 0 && a > Math.floor(MAX_DIVISOR / b)) return MAX_DIVISOR;
  return a * b;
}

/** Whether `v` is a power of two (1, 2, 4, ...). */
export function isPowerOf2(v: bigint): boolean {
  const x = v < 0n ? -v : v;
  return x > 0n && (x & (x - 1n)) === 0n;
}

/**
 * Divisibility of `info` along `d` measured at the starts of runs of length `runs` (the result's
 * contiguity). Divisibility describes the first element of each of the value's own runs; when
 * `runs` does not cover whole runs, a run start of the result lies inside one of them, at an
 * offset that is a multiple of gcd(contiguity, runs) ([0, 1, 2, 3] read one by one: 1 is odd).
 */
export function divisibilityAt(info: AxisInfo, d: number, runs: number): number {
  const c = info.contiguity[d];
  const div = info.divisibility[d];
  if (c <= 1 || runs % c === 0) return div;
  return Math.min(div, highestPowOf2Divisor(gcd(c, runs)));
}

/**
 * Divisibility of a value that is either `a` or `b` along `d`, in runs of `runs` (by default the
 * gcd of their contiguities). Same as Triton's rule where contiguities agree: lhs [[0, 1], [4, 5]]
 * with rhs [16, 17, 18, 19] has runs of 2 starting at 18, which 4 does not divide.
 */
export function divisibilityOfEither(a: AxisInfo, b: AxisInfo, d: number, runs = gcd(a.contiguity[d], b.contiguity[d])): number {
  return gcd(divisibilityAt(a, d, runs), divisibilityAt(b, d, runs));
}

/** What holds for both `a` and `b` (the lattice meet; `undefined` is the not-yet-reached bottom). */
export function join(a: AxisInfo | undefined, b: AxisInfo | undefined): AxisInfo | undefined {
  if (!a) return b;
  if (!b) return a;
  if (a.rank !== b.rank) return AxisInfo.pessimistic(Math.max(a.rank, b.rank));
  const contiguity: number[] = [];
  const divisibility: number[] = [];
  const constancy: number[] = [];
  for (let d = 0; d < a.rank; d++) {
    contiguity.push(gcd(a.contiguity[d], b.contiguity[d]));
    divisibility.push(divisibilityOfEither(a, b, d));
    constancy.push(gcd(a.constancy[d], b.constancy[d]));
  }
  const cv = a.constantValue !== null && a.constantValue === b.constantValue ? a.constantValue : null;
  return new AxisInfo(contiguity, divisibility, constancy, cv);
}

/** `info` with the dimensions given by hints replaced (`tt.contiguity` / `tt.divisibility` / `tt.constancy`). */
export function withHints(
  info: AxisInfo,
  hints: { contiguity?: readonly number[]; divisibility?: readonly number[]; constancy?: readonly number[] },
): AxisInfo {
  const fit = (h: readonly number[] | undefined, v: readonly number[]) => (h && h.length === v.length ? h : v);
  return new AxisInfo(
    fit(hints.contiguity, info.contiguity),
    fit(hints.divisibility, info.divisibility),
    fit(hints.constancy, info.constancy),
    info.constantValue,
  );
}
