/**
 * Canonicalization patterns of the scf dialect, as MLIR's scf canonicalizers do them: an `scf.if`
 * on a constant condition becomes its taken branch, `scf.for` loops that never run become their
 * init values, and loop-carried values that never change stop being carried. Beyond MLIR's: an
 * `scf.if` that only computes a few scalars with pure, cheap ops runs both branches and selects
 * (speculation), so the flags Triton-C's `break` and `continue` create leave no branches behind.
 */
import { IntegerAttr } from '../ir/attributes.js';
import { FloatType, IndexType, IntegerType, RankedTensorType, type Type } from '../ir/types.js';
import { PointerType } from './tt/types.js';
import type { Operation, Value } from '../ir/ir.js';
import { constantOf, isSideEffectFree, type RewritePattern } from '../ir/patterns.js';
import { Terminator } from '../ir/traits.js';
import type { Rewriter } from '../ir/rewriter.js';

/** The `scf.yield` ending the single block of `op`'s region `k`, or null. */
function yieldOf(op: Operation, k: number): Operation | null {
  const last = op.regions[k]?.blocks[0]?.last;
  return last?.name === 'scf.yield' ? last : null;
}

/** scf.if %true { A; yield a } else { B; yield b } -> A, uses of the results become a (and B, b for %false) */
export const ifConstantCondition: RewritePattern = {
  name: 'scf.if-constant-condition',
  root: 'scf.if',
  rewrite(op, rw) {
    const cond = constantOf(op.operand(0));
    if (!(cond instanceof IntegerAttr)) return;
    const block = op.regions[cond.value ? 0 : 1].blocks[0];
    if (!block) {
      // if %false { ... } (no else, no results) -> nothing
      if (op.numResults === 0) rw.eraseOp(op);
      return;
    }
    const y = yieldOf(op, cond.value ? 0 : 1);
    const values = y ? y.operandValues() : [];
    if (values.length !== op.numResults) return;
    if (y) rw.eraseOp(y);
    rw.inlineBlockBefore(block, op);
    rw.replaceOp(op, values);
  },
};

/** Whether `t` is one scalar register: an integer, index, float or `!tt.ptr` (not a tensor, memory descriptor...). */
function isScalar(t: Type): boolean {
  return t instanceof IntegerType || t instanceof IndexType || t instanceof FloatType || (t instanceof PointerType && !(t.pointee instanceof RankedTensorType));
}

/** Integer divisions and remainders: pure, but a division by zero must not run where the program did not divide. */
const DIVISIONS = new Set(['arith.divsi', 'arith.divui', 'arith.remsi', 'arith.remui', 'arith.ceildivsi', 'arith.ceildivui', 'arith.floordivsi']);

/** How many ops (both branches together) an `scf.if` may hold and still be speculated. */
const MAX_SPECULATED_OPS = 8;

/**
 * The ops of `op`'s two branches (terminators left out) when every one is cheap to run whatever
 * the condition: side-effect free, no regions, scalar operands and results, not an integer
 * division; else null.
 */
function speculatableOps(op: Operation): Operation[] | null {
  const ops: Operation[] = [];
  for (const region of op.regions) {
    const block = region.blocks[0];
    if (!block) return null;
    for (const inner of block) {
      if (inner.hasTrait(Terminator)) continue;
      if (inner.regions.length || !isSideEffectFree(inner) || DIVISIONS.has(inner.name)) return null;
      if (!inner.operandTypes().every(isScalar) || !inner.resultTypes().every(isScalar)) return null;
      ops.push(inner);
    }
  }
  return ops.length <= MAX_SPECULATED_OPS ? ops : null;
}

/**
 * scf.if %c -> (T) { A; yield %a } else { B; yield %b } -> A; B; arith.select %c, %a, %b : T
 * (only scalar results; both branches only pure, cheap scalar ops: run both and pick)
 */
export const ifToSelect: RewritePattern = {
  name: 'scf.if-to-select',
  root: 'scf.if',
  rewrite(op, rw) {
    if (op.numResults === 0 || !op.resultTypes().every(isScalar)) return;
    const thenYield = yieldOf(op, 0);
    const elseYield = yieldOf(op, 1);
    if (!thenYield || !elseYield || !speculatableOps(op)) return;
    const cond = op.operand(0);
    const a = thenYield.operandValues();
    const b = elseYield.operandValues();
    rw.eraseOp(thenYield);
    rw.eraseOp(elseYield);
    rw.inlineBlockBefore(op.regions[0].blocks[0], op);
    rw.inlineBlockBefore(op.regions[1].blocks[0], op);
    const values = op.results.map((r, k) =>
      a[k] === b[k] ? a[k] : rw.createBefore(op, 'arith.select', { operands: { condition: cond, true_value: a[k], false_value: b[k] }, results: { result: r.type } }).result(0),
    );
    rw.replaceOp(op, values);
  },
};

/** The constant integer value of `v`, when it is a scalar constant. */
function intConstant(v: Value): bigint | null {
  const c = constantOf(v);
  return c instanceof IntegerAttr ? c.value : null;
}

/** scf.for %i = %c5 to %c5 step %s iter_args(%a = %x) -> %x (constant bounds with lb >= ub: the body never runs) */
export const forZeroTrips: RewritePattern = {
  name: 'scf.for-zero-trips',
  root: 'scf.for',
  benefit: 2,
  rewrite(op, rw) {
    const lb = intConstant(op.operand(0));
    const ub = intConstant(op.operand(1));
    if (lb === null || ub === null || lb < ub) return;
    rw.replaceOp(op, op.operandValues().slice(3));
  },
};

/** Whether iter_arg `k` of `loop` never changes (yields itself or its init) or is dead (unused result and argument). */
function isInvariantIterArg(loop: Operation, y: Operation, k: number): boolean {
  const arg = loop.regions[0].blocks[0].args[k + 1];
  const init = loop.operand(3 + k);
  const yielded = y.operand(k);
  if (yielded === arg || yielded === init) return true;
  return !arg.hasUses && !loop.result(k).hasUses;
}

/**
 * scf.for ... iter_args(%a = %x, %b = %y) { ...%a...; yield %a, %v } -> scf.for ... iter_args(%b = %y) { ...%x...; yield %v }
 * (an iter_arg yielded unchanged, or set to its own init, is always its init; a dead one is dropped)
 */
export const forInvariantIterArgs: RewritePattern = {
  name: 'scf.for-invariant-iter-args',
  root: 'scf.for',
  rewrite(op, rw) {
    const y = yieldOf(op, 0);
    if (!y || y.numOperands !== op.numResults) return;
    const drop = op.results.map((_, k) => isInvariantIterArg(op, y, k));
    if (!drop.some(Boolean)) return;
    rebuildLoop(op, y, drop, rw);
  },
};

/** Drops the iter_args of `loop` that never change or are dead (as `forInvariantIterArgs`); returns the loop now in its place. */
export function dropInvariantIterArgs(loop: Operation, rw: Rewriter): Operation {
  const y = yieldOf(loop, 0);
  if (!y || y.numOperands !== loop.numResults) return loop;
  const drop = loop.results.map((_, k) => isInvariantIterArg(loop, y, k));
  return drop.some(Boolean) ? rebuildLoop(loop, y, drop, rw) : loop;
}

/** Replaces `loop` by a copy without the iter_args marked in `drop`; their uses get the init values. Returns the copy. */
function rebuildLoop(loop: Operation, y: Operation, drop: boolean[], rw: Rewriter): Operation {
  const body = loop.regions[0].blocks[0];
  const inits = loop.operandValues().slice(3);
  const kept = inits.map((_, k) => k).filter((k) => !drop[k]);
  const next = rw.createBefore(loop, 'scf.for', {
    operands: { lowerBound: loop.operand(0), upperBound: loop.operand(1), step: loop.operand(2), initArgs: kept.map((k) => inits[k]) },
    results: { results: kept.map((k) => loop.result(k).type) },
    regions: 1,
  });
  if (loop.attributes) next.attributes = { ...loop.attributes };
  rw.modifyInPlace(y, () => {
    for (let k = drop.length - 1; k >= 0; k--) if (drop[k]) y.eraseOperand(k);
  });
  for (let k = drop.length - 1; k >= 0; k--) {
    if (!drop[k]) continue;
    rw.replaceAllUsesWith(body.args[k + 1], inits[k]);
    body.eraseArgument(k + 1);
  }
  rw.inlineRegion(loop.regions[0], next.regions[0]);
  rw.replaceOp(loop, inits.map((init, k) => (drop[k] ? init : next.result(kept.indexOf(k)))));
  return next;
}
