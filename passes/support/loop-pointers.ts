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

/** The scalar a uniform tensor `v` splats (`tt.splat %s`), or null. */
function splatSource(v: Value): Value | null {
  const def = v.definingOp;
  return def?.name === 'tt.splat' ? def.operand(0) : null;
}

/** Moves the pure op defining `v` (in `loop`'s body, operands defined outside it) before `loop`; false if it cannot. */
function hoistInvariant(v: Value, loop: Operation): boolean {
  const def = v.definingOp;
  if (!def || !def.hasTrait(Pure) || def.regions.length) return false;
  if (def.operands.some((o) => loop.region(0).isAncestorOfValue(o.value))) return false;
  def.moveBefore(loop);
  return true;
}

/** Rewrites the qualifying pointer arguments of `loop` that `wanted` accepts; returns how many. */
export function rematerializeLoopPointers(loop: Operation, rw: Rewriter, wanted: (ptr: Value) => boolean = () => true): number {
  if (splatInt(constantOf(loop.operand(0))) !== 0n || splatInt(constantOf(loop.operand(2))) !== 1n) return 0;
  const body = loop.region(0).blocks[0];
  const yieldOp = body.terminator!;
  const iv = body.args[0];
  let n = 0;
  for (let j = 0; j < loop.results.length; j++) {
    const arg = body.args[j + 1];
    const t = arg.type;
    if (!(t instanceof RankedTensorType) || loop.result(j).hasUses || !wanted(arg)) continue;
    const init = loop.operand(3 + j).definingOp;
    const step = yieldOp.operand(j).definingOp;
    if (init?.name !== 'tt.addptr' || step?.name !== 'tt.addptr' || step.operand(0) !== arg || step.parent !== body) continue;
    const base = splatSource(init.operand(0));
    const d = splatSource(step.operand(1));
    const dConst = splatInt(constantOf(step.operand(1)));
    if (!base || (!d && dConst === null) || !step.result(0).hasOneUse) continue;
    if (d && d.parentBlock === body && !hoistInvariant(d, loop)) continue;
    // %p = iter_arg; %q = tt.addptr %p, splat %d; yield %q -> %p_i = tt.addptr(splat(tt.addptr %base, i * %d), %off)
    rw.setInsertionPointToStart(body);
    rw.loc = step.loc;
    const i64 = i(64);
    const wide = (v: Value) => (v.type === i64 ? v : rw.create('arith.extsi', { operands: { in: v }, results: { out: i64 } }).result(0));
    const stride = d ? wide(d) : rw.create('arith.constant', { attrs: { value: IntegerAttr.get(dConst!, i64) }, results: { result: i64 } }).result(0);
    const delta = rw.create('arith.muli', { operands: { lhs: wide(iv), rhs: stride }, results: { result: i64 } }).result(0);
    // The iteration's advance goes into the scalar base, so each element costs one multiply-add.
    const movedBase = rw.create('tt.addptr', { operands: { ptr: base, offset: delta }, results: { result: base.type } }).result(0);
    const splatBase = rw.create('tt.splat', { operands: { src: movedBase }, results: { result: t } }).result(0);
    const p = rw.create('tt.addptr', { operands: { ptr: splatBase, offset: init.operand(1) }, results: { result: t } }).result(0);
    arg.replaceUsesWithIf(p, (use) => use.owner !== step);
    yieldOp.setOperand(j, arg);
    rw.eraseOp(step);
    n++;
  }
  return n;
}
