/**
 * Folds and canonicalization patterns of the tt dialect's shape ops and `tt.addptr`, as Triton's
 * canonicalizers do them: splats of constants become dense constants, broadcasts and
 * expand_dims of splats become splats, chains of broadcasts collapse, zero offsets vanish.
 */
import { type Attribute, DenseElementsAttr, FloatAttr, IntegerAttr } from '../../ir/attributes.js';
import type { OpDecl } from '../../ir/op-spec.js';
import type { RewritePattern } from '../../ir/patterns.js';
import { RankedTensorType, type Type } from '../../ir/types.js';
import { splatInt } from '../arith-canonicalize.js';

type Fold = NonNullable<OpDecl['fold']>;

/** A splat dense constant of type `t` holding the value of scalar or splat constant `c`, or null. */
function splatOf(t: Type, c: Attribute | null): Attribute | null {
  if (!(t instanceof RankedTensorType)) return null;
  if (c instanceof IntegerAttr) return DenseElementsAttr.get(t, [c.value]);
  if (c instanceof FloatAttr) return DenseElementsAttr.get(t, [c.value], null, c.nanBits === null ? null : new Map([[0, c.nanBits]]));
  if (c instanceof DenseElementsAttr && c.isSplat) return c.withType(t);
  return null;
}

/** splat c -> dense<c> (an `arith.constant` of the result type) */
export const splatFold: Fold = (op, [c]) => {
  const r = splatOf(op.result(0).type, c);
  return r ? [r] : null;
};

/** broadcast x : T -> T -> x ; broadcast dense<c> -> dense<c> of the result type */
export const broadcastFold: Fold = (op, [c]) => {
  if (op.operand(0).type === op.result(0).type) return [op.operand(0)];
  const r = splatOf(op.result(0).type, c);
  return r ? [r] : null;
};

/** expand_dims dense<c> -> dense<c> of the result type */
export const expandDimsFold: Fold = (op, [c]) => {
  const r = splatOf(op.result(0).type, c);
  return r ? [r] : null;
};

/** addptr p, 0 -> p (scalar or splat zero offset) */
export const addPtrFold: Fold = (op, [, offset]) => {
  if (splatInt(offset) !== 0n || op.operand(0).type !== op.result(0).type) return null;
  return [op.operand(0)];
};

/** A pattern: `root (splat x) -> splat x` with root's result type. */
function ofSplatToSplat(root: string): RewritePattern {
  return {
    name: `${root}-of-splat`,
    root,
    rewrite(op, rw) {
      const src = op.operand(0).definingOp;
      if (src?.name !== 'tt.splat') return;
      rw.replaceOpWithNewOp(op, 'tt.splat', { operands: { src: src.operand(0) }, results: { result: op.result(0).type } });
    },
  };
}

/** broadcast (splat x) -> splat x */
export const broadcastOfSplat = ofSplatToSplat('tt.broadcast');

/** expand_dims (splat x) -> splat x */
export const expandDimsOfSplat = ofSplatToSplat('tt.expand_dims');

/** broadcast (broadcast x) -> broadcast x */
export const broadcastOfBroadcast: RewritePattern = {
  name: 'tt.broadcast-of-broadcast',
  root: 'tt.broadcast',
  rewrite(op, rw) {
    const src = op.operand(0).definingOp;
    if (src?.name !== 'tt.broadcast') return;
    rw.replaceOpWithNewOp(op, 'tt.broadcast', { operands: { src: src.operand(0) }, results: { result: op.result(0).type } });
  },
};
