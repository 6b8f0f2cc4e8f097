/**
 * Reading the scalars of MLIR literals once their type is known: integers checked against the
 * type's range, hex floats with their NaN payload, and the elements of `dense<...>` literals
 * (nested lists checked against the shape). Used by `ParserBase` and `dense-extra.ts`.
 */
import { FloatAttr, IntegerAttr, floatFromBits, type DenseValue } from './attributes.js';
import type { SourcePos } from './diagnostics.js';
import { T, type TokenType } from './lexer.js';
import type { ParserBase } from './parser-base.js';
import { FloatType, IntegerType, type ShapedType, type Type } from './types.js';
import { intLiteralBounds } from './int-literal-range.js';

/** Reports an integer literal out of `t`'s range at `pos` (a position, or an offset in `p`'s source). */
export function checkIntFits(p: ParserBase, v: bigint, t: Type, pos: SourcePos | number): void {
  const [lo, hi] = intLiteralBounds(t);
  if (v < lo || v > hi) p.error(`integer constant out of range for attribute`, typeof pos === 'number' ? { source: p.source, offset: pos } : pos);
}

/** A float attribute of `t` from its bit pattern (a NaN keeps its payload). */
export function hexFloat(bits: bigint, t: FloatType): FloatAttr {
  const v = floatFromBits(bits, t.kind);
  return FloatAttr.get(v, t, Number.isNaN(v) ? bits : null);
}

/** One scalar of a dense literal as read, before the element type is known. */
export interface RawElement {
  /** A string element (`dense<["a", "b"]>`). */
  str?: string;
  /** A complex element: `(re, im)`. */
  complex?: [unknown, unknown];
  text?: string;
  neg?: boolean;
  kind?: TokenType;
  bool?: boolean;
  pos?: SourcePos;
}

/**
 * The elements of a dense literal in row-major order, checked against the type's shape (one value is a
 * splat); `leaf` reads one scalar (by default a number of the element type).
 */
export function flattenDense<V = DenseValue>(
  p: ParserBase, lit: unknown, type: ShapedType, pos: SourcePos,
  leaf: (e: RawElement) => V = (e) => elementValue(p, e, type.elementType) as V,
): V[] {
  const out: V[] = [];
  const shape = type.shape;
  const mismatch = (): never =>
    p.error(`inferred shape of elements literal ([${literalShape(lit).join(', ')}]) does not match type ([${shape.join(', ')}])`, pos);
  const visit = (node: unknown, dim: number): void => {
    if (Array.isArray(node)) {
      if (dim >= shape.length || node.length !== shape[dim]) mismatch();
      for (const c of node) visit(c, dim + 1);
      return;
    }
    if (dim !== 0 && dim !== shape.length) mismatch();
    out.push(leaf(node as RawElement));
  };
  visit(lit, 0);
  if (out.length !== 1 && out.length !== type.numElements) mismatch();
  return out;
}

/** The shape of a nested list literal (`[[1, 2], [3, 4]]` is [2, 2]). */
function literalShape(lit: unknown): number[] {
  const out: number[] = [];
  for (let n = lit; Array.isArray(n); n = n[0]) out.push(n.length);
  return out;
}

/** The value of one scalar of a dense literal in element type `elt` (an error when it does not fit). */
export function elementValue(p: ParserBase, e: RawElement, elt: Type): DenseValue {
  if (e.str !== undefined || e.complex) p.error(`expected ${elt} literal, found ${e.str !== undefined ? 'string' : 'complex value'}`, e.pos);
  if (e.bool !== undefined) {
    if (!(elt instanceof IntegerType && elt.width === 1)) p.error(`expected ${elt} literal, found boolean`, e.pos);
    return e.bool ? 1n : 0n;
  }
  if (elt instanceof FloatType) {
    if (e.kind === T.HexInt) return (hexFloat(BigInt(e.text!), elt)).value;
    const v = Number(e.text);
    return FloatAttr.get(e.neg ? -v : v, elt).value;
  }
  if (e.kind === T.Float) p.error(`expected integer elements, but parsed floating-point`, e.pos);
  const v = e.neg ? -BigInt(e.text!) : BigInt(e.text!);
  checkIntFits(p, v, elt, e.pos!);
  return IntegerAttr.get(v, elt).value;
}
