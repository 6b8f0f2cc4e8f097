/**
 * How a kernel's work depends on its program ids, for `heavy-programs-first`, and the reversed
 * program id that pass builds, for the analyses that must still know it is in [0, num_programs).
 *
 * The slope of a value along an axis is d(value) / d(tt.get_program_id axis) where the value is
 * affine in that id with a known slope: 0 for a value that does not depend on it, null where the
 * dependence is unknown (a loop-carried value, a product of two ids, a region's result...).
 * A loop's work along the axis is the slope of its trip count, `(ub - lb) / step`.
 */
import type { Operation, Value } from '../../ir/ir.js';
import { BlockArgument } from '../../ir/ir.js';
import { constantInt } from '../../ir/patterns.js';
import * as arith from '../../dialects/arith.js';
import * as scf from '../../dialects/scf.js';
import * as tt from '../../dialects/tt/index.js';

/** A grid axis, as `tt.get_program_id` names it. */
export type GridAxis = 'x' | 'y' | 'z';

/** The grid axes in order. */
export const GRID_AXES: readonly GridAxis[] = ['x', 'y', 'z'];

/** Ops whose result has the slope of their (only) integer operand, up to overflow. */
const SLOPE_PRESERVING = new Set(['arith.extsi', 'arith.extui', 'arith.trunci', 'arith.index_cast', 'arith.index_castui', 'tt.splat']);

/** The slope along `axis` of the values of `fn` (see the file comment), found in one walk in program order. */
export function programIdSlopes(fn: Operation, axis: GridAxis): (v: Value) => number | null {
  const slopes = new Map<Value, number | null>();
  const of = (v: Value): number | null => {
    const s = slopes.get(v);
    if (s !== undefined) return s;
    // a function argument is the same in every program; other block arguments were set by their op
    return v instanceof BlockArgument && v.owner.parentOp === fn ? 0 : null;
  };
  fn.walk((op) => {
    if (op === fn) return;
    if (scf.ForOp.is(op)) {
      // the induction variable runs lb, lb + step, ...: independent of the id when both are
      const loop = scf.ForOp.view(op);
      const body = op.regions[0].blocks[0];
      slopes.set(body.args[0], of(loop.lowerBound) === 0 && of(loop.step) === 0 ? 0 : null);
      for (const a of body.args.slice(1)) slopes.set(a, null);
    } else {
      for (const r of op.regions) for (const b of r.blocks) for (const a of b.args) slopes.set(a, null);
    }
    const s = op.regions.length ? null : slopeOf(op, axis, of);
    for (const r of op.results) slopes.set(r, s);
  }, 'pre');
  return of;
}

/** The slope of `op`'s results (an op without regions), from its operands' slopes. */
function slopeOf(op: Operation, axis: GridAxis, of: (v: Value) => number | null): number | null {
  const pid = tt.GetProgramIdOp.match(op);
  if (pid) return pid.axis === axis ? 1 : 0;
  const operands = op.operandValues();
  const slopes = operands.map(of);
  if (slopes.every((s) => s === 0)) return 0;
  if (slopes.some((s) => s === null)) return null;
  if (SLOPE_PRESERVING.has(op.name)) return slopes[0];
  const [a, b] = slopes as number[];
  if (arith.AddIOp.is(op)) return a + b;
  if (arith.SubIOp.is(op)) return a - b;
  if (arith.MulIOp.is(op)) {
    const [ca, cb] = operands.map(constantInt);
    if (cb !== null) return a * cb;
    if (ca !== null) return b * ca;
    return null;
  }
  // a quotient by a positive constant is monotone in the id; its slope is the average one
  if (arith.DivSIOp.is(op) || arith.DivUIOp.is(op)) {
    const d = constantInt(operands[1]);
    return d !== null && d > 0 ? a / d : null;
  }
  return null;
}

/** How the work of the loops of a kernel changes along an axis. */
export interface WorkTrend {
  /** grows / shrinks: some loop's trip count grows (shrinks) with the id and none does the other; unknown: some loop's or branch's dependence is not affine. */
  trend: 'grows' | 'shrinks' | 'flat' | 'mixed' | 'unknown';
  /** The first loop whose trip count grows, shrinks or is unknown (for a remark), or null. */
  loop: Operation | null;
}

/** The trend of the work of `fn`'s loops along `axis` (each `scf.for`'s trip count; branches on the id make it unknown). */
export function workTrend(fn: Operation, axis: GridAxis): WorkTrend {
  const of = programIdSlopes(fn, axis);
  let grows: Operation | null = null;
  let shrinks: Operation | null = null;
  let unknown: Operation | null = null;
  fn.walk((op) => {
    if (unknown) return;
    if (scf.ForOp.is(op)) {
      const loop = scf.ForOp.view(op);
      const [lb, ub, step] = [of(loop.lowerBound), of(loop.upperBound), of(loop.step)];
      if (lb === null || ub === null || step !== 0) unknown = op;
      else if (ub - lb > 0) grows ??= op;
      else if (ub - lb < 0) shrinks ??= op;
      return;
    }
    // a branch or a while loop whose control depends on the id does unknown work per program
    if (scf.IfOp.is(op) || scf.WhileOp.is(op) || op.name === 'scf.index_switch') {
      if (op.operandValues().some((v) => of(v) !== 0)) unknown = op;
    }
  }, 'pre');
  if (unknown) return { trend: 'unknown', loop: unknown };
  if (grows && shrinks) return { trend: 'mixed', loop: grows };
  if (grows) return { trend: 'grows', loop: grows };
  if (shrinks) return { trend: 'shrinks', loop: shrinks };
  return { trend: 'flat', loop: null };
}

/** The axis of `v` when it is `(tt.get_num_programs a - 1) - tt.get_program_id a` (a program id, reversed), or null. */
export function reversedProgramIdAxis(v: Value): GridAxis | null {
  const sub = arith.SubIOp.match(v.definingOp);
  if (!sub) return null;
  const pid = tt.GetProgramIdOp.match(sub.rhs.definingOp);
  const last = arith.SubIOp.match(sub.lhs.definingOp);
  if (!pid || !last || constantInt(last.rhs) !== 1) return null;
  const n = tt.GetNumProgramsOp.match(last.lhs.definingOp);
  return n && n.axis === pid.axis ? (pid.axis as GridAxis) : null;
}
