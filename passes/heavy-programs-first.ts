/**
 * `heavy-programs-first`: where a kernel's loops run longer in programs of higher id along a grid
 * axis (causal attention: program m attends to the m + 1 blocks of keys up to its own), the kernel
 * reads its id along that axis reversed, `num_programs - 1 - id`, so the longest programs start
 * first and the short ones fill the last wave, instead of the longest ones running alone at the end
 * (longest-processing-time-first scheduling; the GPU starts the programs of a grid in order of id,
 * x fastest).
 *
 * It is a permutation of which program does which work. Triton's programs run in no promised order
 * and share nothing but memory, so the results are the same, unless the programs can see each
 * other: a kernel with atomics, volatile loads, inline assembly or calls keeps its order.
 * The trip counts come from `passes/support/program-order.ts`: an axis is reversed only where some
 * loop's trip count grows with the id and none shrinks, with every loop bound, branch condition and
 * while loop's operand affine in the id (a remark says why an axis whose work grows keeps its order).
 *
 * Measured on an H200 (2026-11-28, bench/gpu/results/2026-11-28/s110-*, time before ÷ after): the
 * tutorial's causal attention 1.042 (d64) and 1.138 (d128) at N_CTX 16384, 1.02 at 4096, 1.00 at
 * 1024; non-causal attention has no such loop and is unchanged.
 */
import type { Operation } from '../ir/ir.js';
import { IntegerAttr } from '../ir/attributes.js';
import { i } from '../ir/types.js';
import * as arith from '../dialects/arith.js';
import * as tt from '../dialects/tt/index.js';
import { eraseDeadOps } from '../ir/patterns.js';
import { GRID_AXES, type GridAxis, reversedProgramIdAxis, workTrend } from './support/program-order.js';
import type { PassContext, PassDecl } from './pass.js';

/** The first op of `fn` through which programs can see each other or whose effect is unknown, or null. */
function sharedEffect(fn: Operation): Operation | null {
  let found: Operation | null = null;
  fn.walk((op) => {
    if (found) return false;
    const volatileLoad = tt.LoadOp.is(op) && tt.LoadOp.view(op).isVolatile;
    const opaque = tt.AtomicRmwOp.is(op) || tt.AtomicCasOp.is(op) || tt.CallOp.is(op) || op.name === 'tt.elementwise_inline_asm' || op.name.startsWith('ttng.');
    if (volatileLoad || opaque) found = op;
  }, 'pre');
  return found;
}

// tt.get_program_id a  ->  (tt.get_num_programs a - 1) - tt.get_program_id a, once at the entry;
// an id the kernel already reverses, (n - 1) - id, becomes the id itself
function reverse(fn: Operation, axis: GridAxis, ids: Operation[], ctx: PassContext): void {
  const rw = ctx.rewriter();
  const entry = fn.regions[0].blocks[0];
  rw.before(entry.first!);
  rw.loc = ids[0].loc;
  const id = tt.GetProgramIdOp.build(rw, { axis }).result;
  const count = tt.GetNumProgramsOp.build(rw, { axis }).result;
  const last = rw.create('arith.subi', { operands: { lhs: count, rhs: arith.ConstantOp.build(rw, { value: IntegerAttr.get(1, i(32)) }).result } }).result(0);
  const reversed = rw.create('arith.subi', { operands: { lhs: last, rhs: id } }).result(0);
  const dead: Operation[] = [reversed.definingOp!];
  for (const op of ids) {
    for (const user of op.result(0).users()) {
      if (user.results.length !== 1 || reversedProgramIdAxis(user.result(0)) !== axis) continue;
      rw.replaceAllUsesWith(user.result(0), id);
      dead.push(user);
    }
  }
  for (const op of ids) {
    rw.replaceAllUsesWith(op.result(0), reversed);
    dead.push(op);
  }
  eraseDeadOps(dead, (op) => rw.eraseOp(op));
}

function run(fn: Operation, ctx: PassContext): void {
  if (!tt.isKernel(fn) || fn.regions[0].blocks.length !== 1) return ctx.preserve();
  let blocker: Operation | null | undefined; // found when first needed
  for (const axis of GRID_AXES) {
    const ids: Operation[] = [];
    fn.walk((op) => void (tt.GetProgramIdOp.is(op) && tt.GetProgramIdOp.view(op).axis === axis && ids.push(op)));
    if (!ids.length) continue;
    const work = workTrend(fn, axis);
    if (work.trend !== 'grows') continue;
    blocker ??= sharedEffect(fn);
    if (blocker) {
      ctx.remark(work.loop!, `programs along ${axis} keep their order: this loop's trip count grows with program_id ${axis}, but '${blocker.name}' may let programs see each other`);
      continue;
    }
    reverse(fn, axis, ids, ctx);
    ctx.remark(work.loop!, `programs along ${axis} start in reverse order: this loop's trip count grows with program_id ${axis}, so the longest programs start first`);
    ctx.bump('axes-reversed');
  }
}

/** The `heavy-programs-first` pass (see the file comment). */
export const heavyProgramsFirst: PassDecl = {
  name: 'heavy-programs-first',
  summary: 'Reverse the program ids along a grid axis whose programs run longer loops at higher ids, so the longest programs start first',
  anchor: 'function',
  statistics: { 'axes-reversed': 'number of grid axes whose program ids were reversed' },
  run,
};
