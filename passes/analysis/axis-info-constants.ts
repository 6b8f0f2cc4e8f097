/**
 * Axis info of `arith.constant`: integer scalars, splat integer tensors (as Triton), and also
 * non-splat integer tensors (Triton gives up on those), whose runs are measured on the values.
 */
import { DenseElementsAttr, IntegerAttr } from '../../ir/attributes.js';
import type { Operation } from '../../ir/ir.js';
import { IndexType, IntegerType } from '../../ir/types.js';
import { AxisInfo, gcd, highestPowOf2Divisor } from './axis-info-lattice.js';

/** Non-splat constants larger than this are not inspected (pessimistic). */
const MAX_INSPECTED = 1 << 16;

/** The facts of an `arith.constant` result, or null for float / opaque constants. */
export function constantRule(op: Operation): AxisInfo | null {
  const a = op.getAttr('value');
  if (a instanceof IntegerAttr) return new AxisInfo([1], [highestPowOf2Divisor(a.value)], [1], a.value);
  if (!(a instanceof DenseElementsAttr) || a.rawHex !== null) return null;
  const elt = a.type.elementType;
  if (!(elt instanceof IntegerType || elt instanceof IndexType)) return null;
  const shape = a.type.shape;
  if (a.isSplat) {
    const v = a.values[0] as bigint;
    return new AxisInfo(shape.map(() => 1), shape.map(() => highestPowOf2Divisor(v)), [...shape], v);
  }
  const n = a.type.numElements;
  if (n <= 0 || n > MAX_INSPECTED || a.values.length !== n) return null;
  return denseInfo(a.values as readonly bigint[], shape);
}

/** Row-major strides of `shape`. */
function stridesOf(shape: readonly number[]): number[] {
  const s = new Array<number>(shape.length).fill(1);
  for (let d = shape.length - 2; d >= 0; d--) s[d] = s[d + 1] * shape[d + 1];
  return s;
}

/** The largest divisor `c` of `size` such that no index in `bad` (positions along the dim) is off a multiple of `c`. */
function longestRun(size: number, bad: ReadonlySet<number>): number {
  for (let c = size; c > 1; c--) {
    if (size % c !== 0) continue;
    let ok = true;
    for (const k of bad) if (k % c !== 0) ok = false;
    if (ok) return c;
  }
  return 1;
}

/** Measures contiguity, divisibility and constancy of explicit values of the given shape. */
export function denseInfo(values: readonly bigint[], shape: readonly number[]): AxisInfo {
  const strides = stridesOf(shape);
  const contiguity: number[] = [];
  const divisibility: number[] = [];
  const constancy: number[] = [];
  for (let d = 0; d < shape.length; d++) {
    const st = strides[d];
    // Index along d of flat element e: floor(e / stride) % size.
    const along = (e: number) => Math.floor(e / st) % shape[d];
    const notNext = new Set<number>();
    const notSame = new Set<number>();
    values.forEach((v, e) => {
      const k = along(e);
      if (k === 0) return;
      const prev = values[e - st];
      if (v !== prev + 1n) notNext.add(k);
      if (v !== prev) notSame.add(k);
    });
    const contig = longestRun(shape[d], notNext);
    contiguity.push(contig);
    constancy.push(longestRun(shape[d], notSame));
    divisibility.push(gcd(...values.filter((_, e) => along(e) % contig === 0).map((v) => highestPowOf2Divisor(v))));
  }
  return new AxisInfo(contiguity, divisibility, constancy);
}
