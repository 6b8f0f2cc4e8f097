/**
 * Carries a loop's accumulator in the layout its loop body computes in: when an `scf.for`
 * iteration argument is only converted to layout L on entry and its yielded value is converted
 * from L on exit, the loop carries the L value and the two conversions leave the loop (one
 * before it, one after it). The same holds for a pointer the loop advances by a uniform offset
 * and only uses in another layout. mma-lowering uses it so the mma accumulator stays in
 * registers across iterations and the loads need no conversion per iteration.
 */
import type { Operation, Value } from '../../ir/ir.js';
import type { Rewriter } from '../../ir/rewriter.js';
import { DenseElementsAttr } from '../../ir/attributes.js';
import { elementTypeOf, RankedTensorType, type Type } from '../../ir/types.js';

/** `v` in layout type `t`: a splat constant or `tt.splat` is re-created in `t`, anything else converted before `at`. */
function inLayout(v: Value, t: Type, at: Operation, rw: Rewriter): Value {
  const def = v.definingOp;
  const value = def?.name === 'arith.constant' ? def.getAttr('value') : undefined;
  if (value instanceof DenseElementsAttr && value.isSplat && t instanceof RankedTensorType) {
    // %c = arith.constant dense<x> : L1; convert %c to L2 -> arith.constant dense<x> : L2
    const attr = DenseElementsAttr.get(t, [value.at(0)]);
    return rw.createBefore(at, 'arith.constant', { attrs: { value: attr }, results: { result: t } }).result(0);
  }
  if (def?.name === 'tt.splat') return rw.createBefore(at, 'tt.splat', { operands: { src: def.operand(0) }, results: { result: t } }).result(0);
  return rw.createBefore(at, 'ttg.convert_layout', { operands: { src: v }, results: { result: t } }).result(0);
}

/** The layout iteration argument `arg` is converted to on entry, when that is its only use besides `step`. */
function entryLayout(arg: Value, step: Operation | null): Operation | null {
  const users = arg.users().filter((u) => u !== step);
  return users.length === 1 && users[0].name === 'ttg.convert_layout' ? users[0] : null;
}

/**
 * Rewrites iteration argument `j` of `loop` when the loop only needs it in another layout;
 * returns whether it did. Two shapes qualify: the yielded value is converted from that layout
 * (an accumulator), or it is `tt.addptr %arg, %uniform` (a pointer advanced by a splat).
 */
function hoistOne(loop: Operation, j: number, rw: Rewriter): boolean {
  const body = loop.region(0).blocks[0];
  const arg = body.args[j + 1];
  const yieldOp = body.terminator!;
  const yielded = yieldOp.operand(j).definingOp;
  const step = yielded?.name === 'tt.addptr' && yielded.operand(0) === arg && yielded.result(0).hasOneUse ? yielded : null;
  const entry = entryLayout(arg, step);
  if (!entry || !yielded) return false;
  const inner = entry.result(0).type;
  const outer = arg.type;
  if (step) {
    const off = step.operand(1).definingOp;
    if (!off || (off.name !== 'tt.splat' && off.name !== 'arith.constant')) return false;
  } else if (yielded.name !== 'ttg.convert_layout' || yielded.operand(0).type !== inner || yielded.result(0).type !== outer) return false;
  const initIndex = 3 + j;
  // scf.for iter_args(%acc = %init) { %x = convert %acc; ...; yield convert %y } -> iter_args(%acc = convert %init) { ...; yield %y }
  loop.setOperand(initIndex, inLayout(loop.operand(initIndex), inner, loop, rw));
  arg.type = inner;
  rw.replaceAllUsesWith(entry.result(0), arg);
  rw.eraseOp(entry);
  if (step) {
    // %p2 = tt.addptr %p, %splat -> the same in the loop's layout
    step.setOperand(1, inLayout(step.operand(1), RankedTensorType.get((inner as RankedTensorType).shape, elementTypeOf(step.operand(1).type), (inner as RankedTensorType).encoding), step, rw));
    step.result(0).type = inner;
  } else {
    yieldOp.setOperand(j, yielded.operand(0));
    if (!yielded.result(0).hasUses) rw.eraseOp(yielded);
  }
  const result = loop.result(j);
  result.type = inner;
  if (!result.hasUses) return true;
  rw.setInsertionPointAfter(loop);
  rw.loc = loop.loc;
  const back = rw.create('ttg.convert_layout', { operands: { src: result }, results: { result: outer } });
  result.replaceUsesWithIf(back.result(0), (use) => use.owner !== back);
  return true;
}

/** Moves layout conversions of loop-carried values out of every `scf.for` in `root`; returns how many values moved. */
export function hoistLoopCarriedConversions(root: Operation, rw: Rewriter): number {
  const loops: Operation[] = [];
  root.walk((op) => {
    if (op.name === 'scf.for') loops.push(op);
  }, 'post');
  let n = 0;
  for (const loop of loops) for (let j = 0; j < loop.results.length; j++) while (hoistOne(loop, j, rw)) n++;
  return n;
}
