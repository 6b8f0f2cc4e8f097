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

/** The only `ttg.convert_layout` among the users of `v` other than `skip`, when those are all its users; else null. */
function soleConversion(v: Value, skip: readonly Operation[]): Operation | null | undefined {
  const users = v.users().filter((u) => !skip.includes(u));
  if (!users.length) return undefined;
  return users.length === 1 && users[0].name === 'ttg.convert_layout' ? users[0] : null;
}

/** What to do with iteration argument `j`: the layout the loop wants it in and the ops involved. */
interface Plan {
  inner: Type;
  /** A conversion of the argument (or of the advanced pointer) to `inner`, replaced by the value itself. */
  entry: Operation | null;
  /** `tt.addptr %arg, %uniform` yielded for a pointer, else null. */
  step: Operation | null;
}

/**
 * The plan for iteration argument `j` of `loop`, or null. Two shapes qualify: an accumulator whose
 * yielded value is converted from layout L and which is only converted to L on entry (or only
 * stored to shared memory, which takes any layout); and a pointer advanced by a uniform offset that
 * is only used converted to L (before or after the advance).
 */
function planFor(loop: Operation, j: number): Plan | null {
  const body = loop.region(0).blocks[0];
  const arg = body.args[j + 1];
  const yielded = body.terminator!.operand(j).definingOp;
  if (!yielded) return null;
  if (yielded.name === 'ttg.convert_layout' && yielded.result(0).type === arg.type) {
    const inner = yielded.operand(0).type;
    const entry = soleConversion(arg, []);
    if (entry && entry.result(0).type === inner) return { inner, entry, step: null };
    if (entry === null && arg.users().every((u) => u.name === 'ttg.local_alloc')) return { inner, entry: null, step: null };
    return null;
  }
  if (yielded.name !== 'tt.addptr' || yielded.operand(0) !== arg) return null;
  const off = yielded.operand(1).definingOp;
  if (!off || (off.name !== 'tt.splat' && off.name !== 'arith.constant')) return null;
  const yieldOp = body.terminator!;
  const before = soleConversion(arg, [yielded]);
  const after = soleConversion(yielded.result(0), [yieldOp]);
  if (before && after === undefined) return { inner: before.result(0).type, entry: before, step: yielded };
  if (after && before === undefined) return { inner: after.result(0).type, entry: after, step: yielded };
  return null;
}

/** Rewrites iteration argument `j` of `loop` when the loop only needs it in another layout; returns whether it did. */
function hoistOne(loop: Operation, j: number, rw: Rewriter): boolean {
  const plan = planFor(loop, j);
  if (!plan || plan.inner === loop.region(0).blocks[0].args[j + 1].type) return false;
  const { inner, entry, step } = plan;
  const body = loop.region(0).blocks[0];
  const arg = body.args[j + 1];
  const yieldOp = body.terminator!;
  const outer = arg.type;
  const initIndex = 3 + j;
  // scf.for iter_args(%acc = %init) { %x = convert %acc; ...; yield convert %y } -> iter_args(%acc = convert %init) { ...; yield %y }
  loop.setOperand(initIndex, inLayout(loop.operand(initIndex), inner, loop, rw));
  arg.type = inner;
  if (step) {
    // %p2 = tt.addptr %p, %splat -> the same in the loop's layout
    const t = inner as RankedTensorType;
    step.setOperand(1, inLayout(step.operand(1), RankedTensorType.get(t.shape, elementTypeOf(step.operand(1).type), t.encoding), step, rw));
    step.result(0).type = inner;
  } else {
    const yielded = yieldOp.operand(j).definingOp!;
    yieldOp.setOperand(j, yielded.operand(0));
    if (!yielded.result(0).hasUses) rw.eraseOp(yielded);
  }
  if (entry) {
    rw.replaceAllUsesWith(entry.result(0), entry.operand(0));
    rw.eraseOp(entry);
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
