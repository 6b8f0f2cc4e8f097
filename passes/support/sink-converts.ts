/**
 * Conversions moved later, for `remove-layout-conversions`: past elementwise ops whose other
 * operands can be recreated in the conversion's source layout (a matmul epilogue's `acc * scale`
 * then runs in the accumulator's layout), and past narrowing casts (the exchange then carries the
 * narrow values: an f32 mma accumulator goes to the store layout as f16, half the shared-memory
 * traffic, as Triton's epilogue does).
 */
import type { Builder } from '../../ir/builder.js';
import type { Operation, Value } from '../../ir/ir.js';
import { RankedTensorType, bitWidth, type Type } from '../../ir/types.js';
import { isElementwise } from './layout-propagation.js';
import type { Rematerializer } from './rematerialize.js';
import * as arith from '../../dialects/arith.js';
import * as ttg from '../../dialects/ttg/index.js';

/** Bits of `t`'s elements. */
const elementBits = (t: Type): number => bitWidth((t as RankedTensorType).elementType);

/**
 * Recreates `user` (the one reader of conversion `cvt`) in the conversion's source layout: it reads
 * the source, its other tensor operands come from `operandFor(v, type, copy)` (for a use by the
 * copy), and its result is converted back to the old type; `user` and `cvt` are erased.
 */
function moveAfter(b: Builder, cvt: Operation, user: Operation, operandFor: (v: Value, t: RankedTensorType, copy: Operation) => Value): void {
  const view = ttg.ConvertLayoutOp.view(cvt);
  const enc = (view.src.type as RankedTensorType).encoding;
  const res = user.result(0).type as RankedTensorType;
  const copy = user.clone();
  b.setInsertionPoint(user);
  b.insert(copy);
  user.operandValues().forEach((v, k) => {
    if (v === view.result) copy.setOperand(k, view.src);
    else if (v.type instanceof RankedTensorType) copy.setOperand(k, operandFor(v, v.type.withEncoding(enc), copy));
  });
  copy.result(0).type = res.withEncoding(enc);
  b.setInsertionPointAfter(copy);
  const back = ttg.ConvertLayoutOp.build(b, { src: copy.result(0) }, { results: { result: res }, loc: cvt.loc }).result;
  user.replaceAllUsesWith([back]);
  user.erase();
  cvt.erase();
}

/** A conversion exchanges narrower values after a narrowing cast. */
// %c = convert %x : A -> B ; %y = arith.truncf %c : B  ->  %y' = arith.truncf %x : A ; %y = convert %y' : A -> B
export function sinkConvertsPastNarrowing(fn: Operation, b: Builder, onRewrite?: (what: string, op: Operation) => void): number {
  const casts: Operation[] = [];
  fn.walk((op) => void ((arith.TruncFOp.is(op) || arith.TruncIOp.is(op)) && casts.push(op)), 'pre');
  let moved = 0;
  for (const cast of casts) {
    const cvt = ttg.ConvertLayoutOp.match(cast.operand(0).definingOp);
    if (!cvt || !cvt.result.hasOneUse || !(cast.result(0).type instanceof RankedTensorType)) continue;
    if (elementBits(cast.result(0).type) >= elementBits(cvt.src.type)) continue;
    onRewrite?.('sink-convert-past-narrowing', cast);
    // a cast has no other operand
    moveAfter(b, cvt.op, cast, (v) => v);
    moved++;
  }
  return moved;
}

/**
 * A conversion read only by an elementwise op of its block moves after that op when the op's other
 * tensor operands can be recreated in the conversion's source layout and its result is no wider:
 * the op then computes in the source layout and its result is converted instead. The ops that fed
 * the moved ones are added to `orphans` (some may be dead now).
 */
// %c = convert %x : A -> B ; %y = op(%c, %s) : B  ->  %y' = op(%x, %s') : A ; %y = convert %y' : A -> B
export function sinkConvertsPastElementwise(fn: Operation, b: Builder, remat: Rematerializer, orphans: Operation[], onRewrite?: (what: string, op: Operation) => void): number {
  let moved = 0;
  for (let changed = true; changed; ) {
    changed = false;
    const converts: Operation[] = [];
    fn.walk((op) => void (ttg.ConvertLayoutOp.is(op) && converts.push(op)), 'pre');
    for (const op of converts) {
      if (!op.parent) continue;
      const cvt = ttg.ConvertLayoutOp.view(op);
      if (!cvt.result.hasOneUse) continue;
      const user = cvt.result.users()[0];
      if (user.parent !== op.parent || !isElementwise(user) || user.numResults !== 1 || arith.TruncFOp.is(user) || arith.TruncIOp.is(user)) continue;
      const res = user.result(0).type;
      if (!(res instanceof RankedTensorType) || elementBits(res) > elementBits(cvt.src.type)) continue;
      const enc = (cvt.src.type as RankedTensorType).encoding;
      const others = user.operandValues().filter((v) => v !== cvt.result && v.type instanceof RankedTensorType);
      remat.resetBudget(op.parent);
      if (!others.every((v) => remat.canRemat(v, (v.type as RankedTensorType).withEncoding(enc)))) continue;
      onRewrite?.('sink-convert-past-elementwise', user);
      for (const v of others) if (v.definingOp) orphans.push(v.definingOp);
      moveAfter(b, op, user, (v, t, copy) => remat.build(v, t, copy));
      moved++;
      changed = true;
    }
  }
  return moved;
}
