/**
 * The range of integer literals each builtin integer type accepts, as MLIR's parser checks it.
 */
import { IntegerType, type Type } from './types.js';

/** Bounds by type (types are uniqued, so keyed by identity). */
const BOUNDS = new Map<Type, readonly [bigint, bigint]>();

/**
 * The smallest and largest literal `t` accepts: signless types accept both the signed and the
 * unsigned range (`-1 : i1` is true, `255 : i8` is -1), signed and unsigned types their own, i0
 * only 0. Index and other types count as 64-bit signless.
 */
export function intLiteralBounds(t: Type): readonly [bigint, bigint] {
  let bounds = BOUNDS.get(t);
  if (bounds) return bounds;
  const width = t instanceof IntegerType ? t.width : 64;
  const unsigned = t instanceof IntegerType && t.signedness === 'unsigned';
  const signed = t instanceof IntegerType && t.signedness === 'signed';
  const lo = unsigned || width === 0 ? 0n : -(1n << BigInt(width - 1));
  const hi = width === 0 ? 0n : signed ? (1n << BigInt(width - 1)) - 1n : (1n << BigInt(width)) - 1n;
  BOUNDS.set(t, (bounds = [lo, hi]));
  return bounds;
}
