/**
 * Carries a loop's accumulator in the layout its loop body computes in: when an `scf.for`
 * iteration argument is only converted to layout L on entry and its yielded value is converted
 * from L on exit, the loop carries the L value and the two conversions leave the loop (one
 * before it, one after it). The same holds for a pointer the loop advances by a uniform offset
 * and only uses in another layout. mma-lowering uses it so the mma accumulator stays in
 * registers across iterations and the loads need no conversion per iteration.
 *
 * An accumulator the loop only reads through one `tt.trans` and yields through the inverse
 * `tt.trans` (Triton-C's batched `c += a @ b`, batch last around a batch-first dot) is carried
 * transposed first, so that its conversions can leave the loop too.
 */
import type { Operation, Value } from '../../ir/ir.js';
import type { Rewriter } from '../../ir/rewriter.js';
import { DenseElementsAttr } from '../../ir/attributes.js';
import { elementTypeOf, RankedTensorType, type Type } from '../../ir/types.js';
import type { View } from '../../ir/op-def.js';
import * as arith from '../../dialects/arith.js';
import * as scf from '../../dialects/scf.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';

type ForView = View<typeof scf.ForOp.decl>;
type ConvertView = View<typeof ttg.ConvertLayoutOp.decl>;
type AddptrView = View<typeof tt.AddptrOp.decl>;
type TransView = View<typeof tt.TransOp.decl>;

/** The value before any `ttg.convert_layout`s. */
function beforeConversion(v: Value): Value {
  for (let cvt = ttg.ConvertLayoutOp.match(v.definingOp); cvt; cvt = ttg.ConvertLayoutOp.match(v.definingOp)) v = cvt.src;
  return v;
}

/** `v` in layout type `t`: a splat constant or `tt.splat` is re-created in `t`, anything else converted before `at`. */
function inLayout(v: Value, t: Type, at: Operation, rw: Rewriter): Value {
  const value = arith.ConstantOp.match(v.definingOp)?.value;
  if (value instanceof DenseElementsAttr && value.isSplat && t instanceof RankedTensorType) {
    // %c = arith.constant dense<x> : L1; convert %c to L2 -> arith.constant dense<x> : L2
    const attr = value.withType(t);
    return arith.ConstantOp.build(rw.before(at), { value: attr }, { results: { result: t } }).result;
  }
  const splat = tt.SplatOp.match(v.definingOp);
  if (splat) return tt.SplatOp.build(rw.before(at), { src: splat.src }, { results: { result: t } }).result;
  return ttg.ConvertLayoutOp.build(rw.before(at), { src: v }, { results: { result: t } }).result;
}

/** The only `ttg.convert_layout` among the users of `v` other than `skip`, when those are all its users; else null. */
function soleConversion(v: Value, skip: readonly Operation[]): ConvertView | null | undefined {
  const users = v.users().filter((u) => !skip.includes(u));
  if (!users.length) return undefined;
  return users.length === 1 ? ttg.ConvertLayoutOp.match(users[0]) : null;
}

/** What to do with iteration argument `j`: the layout the loop wants it in and the ops involved. */
interface Plan {
  inner: Type;
  /** A conversion of the argument (or of the advanced pointer) to `inner`, replaced by the value itself. */
  entry: ConvertView | null;
  /** `tt.addptr %arg, %uniform` yielded for a pointer, else null. */
  step: AddptrView | null;
}

/**
 * The plan for iteration argument `j` of `loop`, or null. Two shapes qualify: an accumulator whose
 * yielded value is converted from layout L and which is only converted to L on entry (or only
 * stored to shared memory, which takes any layout); and a pointer advanced by a uniform offset that
 * is only used converted to L (before or after the advance).
 */
function planFor(loop: ForView, j: number): Plan | null {
  const body = loop.region.blocks[0];
  const arg = body.args[j + 1];
  const yieldOp = scf.YieldOp.view(body.terminator!);
  const yielded = yieldOp.results[j].definingOp;
  if (!yielded) return null;
  const cvt = ttg.ConvertLayoutOp.match(yielded);
  if (cvt && cvt.result.type === arg.type) {
    const inner = cvt.src.type;
    const entry = soleConversion(arg, []);
    if (entry && entry.result.type === inner) return { inner, entry, step: null };
    if (entry === null && arg.users().every((u) => ttg.LocalAllocOp.is(u))) return { inner, entry: null, step: null };
    return null;
  }
  const step = tt.AddptrOp.match(yielded);
  if (!step || step.ptr !== arg) return null;
  const off = step.offset.definingOp;
  if (!tt.SplatOp.is(off) && !arith.ConstantOp.is(off)) return null;
  const beforeStep = soleConversion(arg, [step.op]);
  const afterStep = soleConversion(step.result, [yieldOp.op]);
  if (beforeStep && afterStep === undefined) return { inner: beforeStep.result.type, entry: beforeStep, step };
  if (afterStep && beforeStep === undefined) return { inner: afterStep.result.type, entry: afterStep, step };
  return null;
}

/** Rewrites iteration argument `j` of `loop` when the loop only needs it in another layout; returns whether it did. */
function hoistOne(loop: ForView, j: number, rw: Rewriter): boolean {
  const plan = planFor(loop, j);
  const body = loop.region.blocks[0];
  const arg = body.args[j + 1];
  if (!plan || plan.inner === arg.type) return false;
  const { inner, entry, step } = plan;
  const yieldOp = body.terminator!;
  const outer = arg.type;
  // scf.for iter_args(%acc = %init) { %x = convert %acc; ...; yield convert %y } -> iter_args(%acc = convert %init) { ...; yield %y }
  const initIndex = loop.op.numOperands - loop.initArgs.length + j;
  loop.op.setOperand(initIndex, inLayout(loop.initArgs[j], inner, loop.op, rw));
  arg.type = inner;
  if (step) {
    // %p2 = tt.addptr %p, %splat -> the same in the loop's layout
    const t = inner as RankedTensorType;
    const offset = step.offset;
    step.op.setOperand(1, inLayout(offset, RankedTensorType.get(t.shape, elementTypeOf(offset.type), t.encoding), step.op, rw));
    step.result.type = inner;
  } else {
    const yielded = ttg.ConvertLayoutOp.view(scf.YieldOp.view(yieldOp).results[j].definingOp!);
    yieldOp.setOperand(j, yielded.src);
    if (!yielded.result.hasUses) rw.eraseOp(yielded.op);
  }
  if (entry) {
    rw.replaceAllUsesWith(entry.result, entry.src);
    rw.eraseOp(entry.op);
  }
  const result = loop.results[j];
  result.type = inner;
  if (!result.hasUses) return true;
  rw.setInsertionPointAfter(loop.op);
  rw.loc = loop.op.loc;
  const back = ttg.ConvertLayoutOp.build(rw, { src: result }, { results: { result: outer } });
  result.replaceUsesWithIf(back.result, (use) => use.owner !== back.op);
  return true;
}

/**
 * `init` transposed by `order` into type `inner`: a splat is re-created in `inner`, anything else is a
 * `tt.trans` to `transType` (the loop's own transposition's type) converted to `inner` if that differs.
 */
function transposedInit(init: Value, order: readonly number[], transType: Type, inner: Type, at: Operation, rw: Rewriter): Value {
  const splat = arith.ConstantOp.match(init.definingOp)?.value;
  if ((splat instanceof DenseElementsAttr && splat.isSplat) || tt.SplatOp.is(init.definingOp)) return inLayout(init, inner, at, rw);
  const t = tt.TransOp.build(rw.before(at), { src: init, order }, { results: { result: transType } }).result;
  return transType === inner ? t : inLayout(t, inner, at, rw);
}

/** The `tt.trans` `v` is, through single-use `ttg.convert_layout`s, or null. */
function transposeThroughConversions(v: Value): TransView | null {
  for (let cvt = ttg.ConvertLayoutOp.match(v.definingOp); cvt && v.users().length === 1; cvt = ttg.ConvertLayoutOp.match(v.definingOp)) v = cvt.src;
  return v.users().length === 1 ? tt.TransOp.match(v.definingOp) : null;
}

/** The first value of type `t` along the single-use `ttg.convert_layout`s from `v` (`v` included), or null. */
function conversionTo(v: Value, t: Type): Value | null {
  for (;;) {
    if (v.type === t) return v;
    const users = v.users();
    const cvt = users.length === 1 ? ttg.ConvertLayoutOp.match(users[0]) : null;
    if (!cvt) return null;
    v = cvt.result;
  }
}

/** Erases `op` and the conversions and transpositions feeding only it, while they have no uses. */
function eraseUnused(op: Operation | null, rw: Rewriter): void {
  while (op && !op.results.some((r) => r.hasUses) && (ttg.ConvertLayoutOp.is(op) || tt.TransOp.is(op))) {
    const src = op.operand(0).definingOp;
    rw.eraseOp(op);
    op = src;
  }
}

/**
 * Carries iteration argument `j` of `loop` transposed when its only use is a `tt.trans` and the
 * yielded value is, up to layout conversions, the inverse `tt.trans` of a value `%y`: the loop
 * carries `%y` as it was computed (before any conversion), and the transpositions and
 * conversions move before and after the loop. Returns whether it did.
 */
// scf.for iter_args(%acc = %init) { %t = tt.trans %acc {P}; ... %y ...; yield tt.trans %y {P^-1} } -> iter_args(%acc = tt.trans %init {P}) { ...; yield %y }; tt.trans %r {P^-1}
function hoistTransposed(loop: ForView, j: number, rw: Rewriter): boolean {
  const body = loop.region.blocks[0];
  const arg = body.args[j + 1];
  const yieldOp = body.terminator!;
  const exit = transposeThroughConversions(scf.YieldOp.view(yieldOp).results[j]);
  const users = arg.users();
  const entry = users.length === 1 ? tt.TransOp.match(users[0]) : null;
  if (!exit || !entry || !exit.order || !entry.order) return false;
  const p = [...entry.order];
  const q = [...exit.order];
  if (p.length !== q.length || q.some((d, i) => p[d] !== i)) return false;
  const outer = arg.type;
  const [exitFrom, exitTo] = [exit.src.type, exit.result.type];
  const computed = beforeConversion(exit.src);
  const inner = computed.type;
  const initIndex = loop.op.numOperands - loop.initArgs.length + j;
  loop.op.setOperand(initIndex, transposedInit(loop.initArgs[j], p, entry.result.type, inner, loop.op, rw));
  arg.type = inner;
  // In the loop: the conversion of the transposed argument to the computed layout is the argument itself.
  const same = conversionTo(entry.result, inner);
  if (same) {
    rw.replaceAllUsesWith(same, arg);
    eraseUnused(same.definingOp, rw);
  } else {
    const inside = ttg.ConvertLayoutOp.build(rw.before(entry.op), { src: arg }, { results: { result: entry.result.type } }).result;
    rw.replaceAllUsesWith(entry.result, inside);
    rw.eraseOp(entry.op);
  }
  const oldYielded = yieldOp.operand(j).definingOp;
  yieldOp.setOperand(j, computed);
  eraseUnused(oldYielded, rw);
  const result = loop.results[j];
  result.type = inner;
  if (!result.hasUses) return true;
  // After the loop: the same conversions and transposition as the yield had.
  rw.setInsertionPointAfter(loop.op);
  rw.loc = loop.op.loc;
  const convert = (v: Value, t: Type): Value => (v.type === t ? v : ttg.ConvertLayoutOp.build(rw, { src: v }, { results: { result: t } }).result);
  const first = convert(result, exitFrom);
  const back = convert(tt.TransOp.build(rw, { src: first, order: q }, { results: { result: exitTo } }).result, outer);
  result.replaceUsesWithIf(back, (use) => use.owner !== first.definingOp && use.owner !== back.definingOp);
  return true;
}

/** Moves layout conversions (and transpositions) of loop-carried values out of every `scf.for` in `root`; returns how many values moved. */
export function hoistLoopCarriedConversions(root: Operation, rw: Rewriter): number {
  const loops: ForView[] = [];
  root.walk((op) => {
    const loop = scf.ForOp.match(op);
    if (loop) loops.push(loop);
  }, 'post');
  let n = 0;
  for (const loop of loops) for (let j = 0; j < loop.results.length; j++) while (hoistTransposed(loop, j, rw) || hoistOne(loop, j, rw)) n++;
  return n;
}
