/**
 * Warp-group dots in a pipelined loop (Triton's MMAv3 pipelining): each `ttng.warp_group_dot`
 * of the loop body becomes asynchronous and is followed by a `ttng.warp_group_dot_wait`.
 *
 * A dot that only accumulates across iterations (its result goes only to the yield, and the
 * carried value only to its accumulator) waits with `pendings = 1`: its wgmma group stays in
 * flight while the next iterations' copies are issued and the next group is queued, and a
 * `pendings = 0` wait after the loop retires the last one. The group still in flight reads the
 * previous slot, so such a loop needs one buffer slot more than the copies ahead (the pipeline
 * asks `inFlightDots` first). Any other dot waits with `pendings = 0` right away.
 */
import type { Block, Operation, Value } from '../../ir/ir.js';
import { BlockArgument } from '../../ir/ir.js';
import type { Rewriter } from '../../ir/rewriter.js';
import { boolAttr } from '../../ir/attributes.js';
import * as scf from '../../dialects/scf.js';
import * as ttng from '../../dialects/ttng.js';

/** Whether warp_group_dot `op` (in loop body `body`) only accumulates through one iter arg. */
function accumulatesOnly(op: Operation, body: Block): boolean {
  const dot = ttng.WarpGroupDotOp.view(op);
  const yieldOp = body.terminator;
  if (!yieldOp || !dot.d.hasOneUse || dot.d.users()[0] !== yieldOp) return false;
  const k = yieldOp.operandValues().indexOf(dot.d);
  const c: Value = dot.c;
  return c instanceof BlockArgument && c.owner === body && c.index === k + 1 && c.hasOneUse;
}

/** The warp_group_dots directly in `body` that may stay in flight across iterations. */
export function inFlightDots(body: Block): Operation[] {
  return body.ops.filter((op) => ttng.WarpGroupDotOp.is(op) && accumulatesOnly(op, body));
}

/**
 * Makes every warp_group_dot directly in `loop`'s body asynchronous, with its wait (see the file
 * comment); returns how many stay in flight across iterations.
 */
// %d = ttng.warp_group_dot %a, %b, %c -> %d = ttng.warp_group_dot %a, %b, %c {isAsync = true}; %w:3 = ttng.warp_group_dot_wait %d, %a, %b {pendings}
export function overlapWarpGroupDots(loop: Operation, rw: Rewriter): number {
  const body = scf.ForOp.view(loop).region.blocks[0];
  const inFlight = new Set(inFlightDots(body));
  for (const op of body.ops.filter((o) => ttng.WarpGroupDotOp.is(o))) {
    const dot = ttng.WarpGroupDotOp.view(op);
    rw.modifyInPlace(op, () => op.setAttr('isAsync', boolAttr(true)));
    const inputs = [dot.d, dot.a, dot.b];
    const pendings = inFlight.has(op) ? 1 : 0;
    const wait = ttng.WarpGroupDotWaitOp.build(rw.setInsertionPointAfter(op), { inputs, pendings }, { results: { outputs: inputs.map((v) => v.type) } });
    const done = wait.outputs[0];
    dot.d.replaceUsesWithIf(done, (use) => use.owner !== wait.op);
    if (!pendings) continue;
    // scf.for ... yield %w#0 -> scf.for; %r = ttng.warp_group_dot_wait %for#k {pendings = 0}
    const k = body.terminator!.operandValues().indexOf(done);
    const result = loop.result(k);
    if (!result.hasUses) continue;
    const last = ttng.WarpGroupDotWaitOp.build(rw.setInsertionPointAfter(loop), { inputs: [result], pendings: 0 }, { results: { outputs: [result.type] } });
    result.replaceUsesWithIf(last.outputs[0], (use) => use.owner !== last.op);
  }
  return inFlight.size;
}
