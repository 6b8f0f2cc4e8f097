/**
 * The spare slot of a pipelined loop's buffers. Without it, the copies at the end of iteration i
 * refill the slot that iteration i read (or, with a warp-group dot in flight, the one iteration
 * i-1's dot read), so they wait for a second barrier in the loop: other warps may still read that
 * slot. With one slot more, they refill the slot of an iteration that every thread left before the
 * barrier at the top of iteration i (after its `ttg.async_wait`), and that barrier suffices: the
 * copies are marked `tir.free_slot` for insert-barriers (analysis/membar.ts, `FREE_SLOT`).
 *
 * The slot costs shared memory, so it is taken only where the CTA still fits and shared memory
 * still lets as many CTAs share an SM as before, or at least two (the target's limits; counted: the
 * buffers and the allocations live during the loop).
 * Measured on an H200 (2026-11-27, tools/gpu/ab.py, time without the slot ÷ time with it):
 * sm_80 attention 1.005-1.035x, matmul 1.004-1.008x, tensor-core matmul_tc 0.992-1.011x, bmm f32
 * with 16-byte copies 1.075x; but bmm with narrow copies (element loads, 4-byte cp.async)
 * 0.937-0.979x and the FMA matmul_tc f32.TN 0.77x (ptxas took 168 registers instead of 91), so
 * `auto` asks for a tensor-core dot and 16-byte copies. With a warp-group dot in flight (sm_90a):
 * attention, whose loop computes two dots, 0.999-1.012x; the matmul, one accumulating dot,
 * 0.959-0.977x (there the barrier keeps the two warp groups in step), so `auto` takes the slot
 * in such loops only where they compute more than one dot. A CTA that shared memory already holds
 * alone on its SM has nothing to hide its barrier waits behind: there `auto` takes the slot
 * whatever feeds the dot (the sm_80 odd matmul, element loads into 128x64 and 64x256 tiles:
 * 1.188-1.199x; the narrow-copy bmm that lost above runs several CTAs per SM).
 */
import type { Operation } from '../../ir/ir.js';
import { hasTarget, targetOf } from '../../dialects/ttg/target.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';
import * as ttng from '../../dialects/ttng.js';
import { isLayout, NVIDIA_MMA } from '../../dialects/ttg/layout-attrs.js';
import { RankedTensorType } from '../../ir/types.js';
import { MemDescType } from '../../dialects/ttg/types.js';
import { memdescBytes } from '../analysis/membar.js';
import { bufferType } from './pipeline-emit.js';
import type { LoopPlan } from './pipeline-analysis.js';

/** When a pipelined loop gets a spare slot: `auto` (the file comment's rule), `always` or `never`. */
export type SparePolicy = 'auto' | 'always' | 'never';

/** The policies `software-pipeline{spare-slot=...}` accepts. */
export const SPARE_POLICIES: readonly SparePolicy[] = ['auto', 'always', 'never'];

/**
 * Bytes of shared memory live while `plan`'s loop runs besides its loads' buffers: allocations in
 * the loop, and those before it that the loop reads (directly or through a view). Allocations the
 * loop never sees (another loop's buffers) may share its memory, as alloc-shared lets them.
 */
function otherSharedBytes(fn: Operation, plan: LoopPlan): number {
  const own = new Set(plan.loads.map((l) => l.alloc));
  const loop = plan.loop;
  const usedIn = (op: Operation): boolean =>
    op.result(0).users().some((u) => loop.isAncestorOf(u) || (u.numResults > 0 && u.result(0).users().some((v) => loop.isAncestorOf(v))));
  let bytes = 0;
  fn.walk((op) => {
    if (!ttg.LocalAllocOp.is(op) || own.has(op)) return;
    const t = op.result(0).type;
    if (t instanceof MemDescType && (loop.isAncestorOf(op) || usedIn(op))) bytes += memdescBytes(t);
  }, 'pre');
  return bytes;
}

/** The dots (`tt.dot`, warp-group dots) directly in the body of `plan`'s loop. */
function dotsIn(plan: LoopPlan): number {
  return plan.body.ops.filter((op) => tt.DotOp.is(op) || ttng.WarpGroupDotOp.is(op)).length;
}

/** Whether the body of `plan`'s loop computes a dot on tensor cores (an mma-encoded `tt.dot`, or a warp-group dot). */
function tensorCoreLoop(plan: LoopPlan): boolean {
  return plan.body.ops.some((op) => ttng.WarpGroupDotOp.is(op) || (tt.DotOp.is(op) && isLayout((op.result(0).type as RankedTensorType).encoding, NVIDIA_MMA)));
}

/**
 * Whether `plan`'s buffers, `slots` slots each, take one slot more (see the file comment): the
 * policy allows it; `auto` also asks for a tensor-core dot and copies of 16 bytes a thread
 * (`copyBytes`, one entry per load) unless shared memory holds the CTA alone on its SM; every
 * load is a cp.async copy (TMA copies order on mbarriers); and the CTA's shared memory with it
 * still fits the target.
 */
export function takesSpareSlot(fn: Operation, plan: LoopPlan, slots: number, inFlight: boolean, policy: SparePolicy, copyBytes: readonly number[]): boolean {
  if (policy === 'never' || (policy === 'auto' && inFlight && dotsIn(plan) < 2)) return false;
  if (plan.loads.some((l) => l.tma) || !hasTarget(fn)) return false;
  const target = targetOf(fn);
  const lim = target.limits;
  if (!lim) return false;
  const perSlot = plan.loads.reduce((a, l) => a + (l.alloc ? memdescBytes(bufferType(l.alloc, 1)) : 0), 0);
  const others = otherSharedBytes(fn, plan);
  const without = others + perSlot * slots;
  const withSpare = without + perSlot;
  if (withSpare > lim.maxSharedBytesPerCTA) return false;
  const byWarps = Math.min(lim.maxCTAsPerSM, Math.floor(lim.maxWarpsPerSM / target.numWarps));
  const ctas = (bytes: number): number => Math.min(byWarps, Math.floor(lim.sharedBytesPerSM / (bytes + lim.reservedSharedBytesPerCTA)));
  // Alone on its SM, a CTA's barrier waits are exposed: the slot pays whatever feeds the dot.
  const alone = ctas(without) === 1;
  if (policy === 'auto' && !alone && (!tensorCoreLoop(plan) || copyBytes.some((b) => b < 16))) return false;
  // Two CTAs per SM already overlap one CTA's barrier waits with the other's work: down to two is allowed.
  return ctas(withSpare) >= Math.min(ctas(without), 2);
}
