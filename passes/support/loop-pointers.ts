/**
 * Rematerializes the pointers of a counted loop instead of carrying them: in
 * `scf.for %i = 0 to %n step 1 iter_args(%p = tt.addptr(tt.splat %base, %off))` whose pointer
 * advances by a uniform `%d` per iteration (`yield tt.addptr %p, splat %d`), iteration i's
 * pointers are `(%base + i * %d) + %off`. Computing them in the body from the loop-invariant 32-bit
 * offsets keeps one 32-bit register per element live across the loop instead of a 64-bit
 * pointer (Triton gets the same from LLVM). The step is a splat scalar or a splat constant; the
 * sum is formed in 64 bits, so no offset wraps.
 * Only pointers whose loop result is unused after the loop are rewritten.
 */
import { IntegerAttr } from '../../ir/attributes.js';
import { constantOf } from '../../ir/patterns.js';
import { splatInt } from '../../dialects/arith-canonicalize.js';
import type { Operation, Value } from '../../ir/ir.js';
import type { Rewriter } from '../../ir/rewriter.js';
import { i, RankedTensorType } from '../../ir/types.js';
import { Pure } from '../../ir/traits.js';
import type { View } from '../../ir/op-def.js';
import * as arith from '../../dialects/arith.js';
import * as scf from '../../dialects/scf.js';
import * as tt from '../../dialects/tt/index.js';

/** The scalar a uniform tensor `v` splats (`tt.splat %s`), or null. */
function splatSource(v: Value): Value | null {
  return tt.SplatOp.match(v.definingOp)?.src ?? null;
}

/** Moves the pure op defining `v` (in `loop`'s body, operands defined outside it) before `loop`; false if it cannot. */
function hoistInvariant(v: Value, loop: View<typeof scf.ForOp.decl>): boolean {
  const def = v.definingOp;
  if (!def || !def.hasTrait(Pure) || def.regions.length) return false;
  if (def.operands.some((o) => loop.region.isAncestorOfValue(o.value))) return false;
  def.moveBefore(loop.op);
  return true;
}

/** Rewrites the qualifying pointer arguments of `loop` that `wanted` accepts; returns how many. */
export function rematerializeLoopPointers(forOp: Operation, rw: Rewriter, wanted: (ptr: Value) => boolean = () => true): number {
  const loop = scf.ForOp.view(forOp);
  if (splatInt(constantOf(loop.lowerBound)) !== 0n || splatInt(constantOf(loop.step)) !== 1n) return 0;
  const body = loop.region.blocks[0];
  const yieldOp = scf.YieldOp.view(body.terminator!);
  const iv = body.args[0];
  let n = 0;
  for (let j = 0; j < forOp.results.length; j++) {
    const arg = body.args[j + 1];
    const t = arg.type;
    if (!(t instanceof RankedTensorType) || forOp.result(j).hasUses || !wanted(arg)) continue;
    const init = tt.AddptrOp.match(loop.initArgs[j].definingOp);
    const step = tt.AddptrOp.match(yieldOp.results[j].definingOp);
    if (!init || !step || step.ptr !== arg || step.op.parent !== body) continue;
    const base = splatSource(init.ptr);
    const d = splatSource(step.offset);
    const dConst = splatInt(constantOf(step.offset));
    if (!base || (!d && dConst === null) || !step.result.hasOneUse) continue;
    if (d && d.parentBlock === body && !hoistInvariant(d, loop)) continue;
    // %p = iter_arg; %q = tt.addptr %p, splat %d; yield %q -> %p_i = tt.addptr(splat(tt.addptr %base, i * %d), %off)
    rw.setInsertionPointToStart(body);
    rw.loc = step.op.loc;
    const i64 = i(64);
    const wide = (v: Value) => (v.type === i64 ? v : arith.ExtSIOp.build(rw, { in: v }, { results: { out: i64 } }).out);
    const stride = d ? wide(d) : arith.ConstantOp.build(rw, { value: IntegerAttr.get(dConst!, i64) }, { results: { result: i64 } }).result;
    // (arith.MulIOp.build would want overflowFlags: the factory-made arith declarations type every attribute as required)
    const delta = rw.create(arith.MulIOp.name, { operands: { lhs: wide(iv), rhs: stride }, results: { result: i64 } }).result(0);
    // The iteration's advance goes into the scalar base, so each element costs one multiply-add.
    const movedBase = tt.AddptrOp.build(rw, { ptr: base, offset: delta }, { results: { result: base.type } }).result;
    const splatBase = tt.SplatOp.build(rw, { src: movedBase }, { results: { result: t } }).result;
    const p = tt.AddptrOp.build(rw, { ptr: splatBase, offset: init.offset }, { results: { result: t } }).result;
    arg.replaceUsesWithIf(p, (use) => use.owner !== step.op);
    yieldOp.op.setOperand(j, arg);
    rw.eraseOp(step.op);
    n++;
  }
  return n;
}
