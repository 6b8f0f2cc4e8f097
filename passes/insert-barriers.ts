/**
 * `insert-barriers`: inserts `gpu.barrier` where threads of a CTA could race on shared memory
 * (our take on Triton's Membar pass). A forward data-flow walk over each function tracks the
 * shared-memory reads and writes pending since the last barrier (passes/analysis/membar.ts) and
 * puts a barrier before an op that
 *   - reads what a pending write may have written (RAW),
 *   - writes what a pending read may still read (WAR) or a pending write wrote (WAW).
 * Two reads never need one. A barrier (existing or inserted) clears the pending sets.
 *
 * Accesses: `ttg.local_alloc` with a source writes its buffer, `ttg.local_store` and
 * `ttg.async_copy_global_to_local` write their destination, `ttg.local_load` reads its source;
 * `ttg.local_dealloc`, alloc without source and memdesc views touch nothing. TMA and mbarriers
 * (passes/analysis/membar.ts): a TMA load's tile write must not race with pending accesses but
 * leaves nothing pending (its readers wait on its mbarrier); a TMA store reads its tile; mbarrier
 * init/inval write the barrier, expect and wait read it.
 * Scratch (as Triton): an op with `allocation.offset` other than `local_alloc`, or a
 * `ttg.convert_layout` whose conversion goes through shared memory, first writes its scratch
 * (checked against pending accesses), then synchronizes internally (clearing everything pending)
 * and finally reads the scratch, which stays pending. A convert_layout's internal barrier is this
 * pass's too: it marks the op with `ttg.scratch_sync` and the target emits the bar.sync only where
 * it is set (reductions and scans still synchronize on their own).
 * `ttg.async_wait` only waits for the calling thread's own copies, so it does not order other
 * threads' accesses: as Triton 3.x does, a barrier is put right after it unless one follows already.
 * A copy the pipeliner marks `tir.free_slot` (its buffers have a spare slot) refills a slot last
 * read before a barrier of the same iteration: after such a barrier it does not wait for the
 * reads of its own buffer's other slots (membar.ts, `FREE_SLOT`).
 *
 * Control flow: `scf.if` merges the pending sets of both branches; `scf.for` and `scf.while` run
 * their bodies to a fixed point over the back edge (pending accesses at the end of an iteration
 * reach the start of the next), and the state after the loop includes the zero-trip path.
 * Regions of other ops are walked in order; multi-block regions are approximated by merging all
 * block exits into every block entry until stable. Calls are not looked into.
 */
import type { Block, Operation, Region } from '../ir/ir.js';
import type { Rewriter } from '../ir/rewriter.js';
import { UnitAttr } from '../ir/attributes.js';
import { SCRATCH_SYNC } from '../dialects/ttg/layout-scratch.js';
import { BufferIds, FREE_SLOT, MembarState, effectsOf } from './analysis/membar.js';
import * as gpu from '../dialects/gpu.js';
import * as scf from '../dialects/scf.js';
import * as ttg from '../dialects/ttg/index.js';
import type { PassContext, PassDecl } from './pass.js';

/** Per-run context: buffer ids, the rewriter, the statistics sink, and the barriers the analysis-only walks modelled. */
interface Walk {
  ids: BufferIds;
  rw: Rewriter;
  ctx: PassContext;
  modelled: number;
}

/** Inserts a barrier before `op` when `insert` (the analysis-only walks just count it). */
function barrierBefore(op: Operation, w: Walk, insert: boolean): void {
  if (!insert) {
    w.modelled++;
    return;
  }
  // ttg.local_load %a -> gpu.barrier; ttg.local_load %a
  gpu.BarrierOp.build(w.rw.before(op), {});
  w.ctx.bump('num-barriers');
}

/** Applies `op`'s own shared-memory effects to `state`, inserting a barrier first on a race. */
function applyEffects(op: Operation, state: MembarState, w: Walk, insert: boolean): void {
  const fx = effectsOf(op, w.ids);
  const writes = [...fx.writes, ...fx.asyncWrites, ...(fx.scratch ? [fx.scratch] : [])];
  const freeSlot = state.syncedThisIteration && ttg.AsyncCopyGlobalToLocalOp.is(op) && op.getAttr(FREE_SLOT) !== undefined;
  if (state.conflicts(fx.reads, writes, freeSlot)) {
    barrierBefore(op, w, insert);
    state.sync();
  }
  if (fx.scratch) {
    // The op's internal barrier orders everything before its final scratch read.
    if (insert && ttg.ConvertLayoutOp.is(op)) op.setAttr(SCRATCH_SYNC, UnitAttr.get());
    state.sync();
    state.add(fx.scratch, false);
    return;
  }
  for (const r of fx.reads) state.add(r, false);
  for (const x of fx.writes) state.add(x, true);
}

/** Walks `op` (and its regions) from `state`, updating it in place. */
function visitOp(op: Operation, state: MembarState, w: Walk, insert: boolean): void {
  switch (op.name) {
    case gpu.BarrierOp.name:
      return state.sync();
    case scf.IfOp.name:
      return visitIf(op, state, w, insert);
    case scf.ForOp.name:
      return visitLoop(op, op.regions[0], null, state, w, insert);
    case scf.WhileOp.name:
      return visitLoop(op, op.regions[0], op.regions[1], state, w, insert);
  }
  applyEffects(op, state, w, insert);
  for (const r of op.regions) {
    const out = visitRegion(r, state, w, insert);
    state.sync();
    state.join(out);
  }
  if (!ttg.AsyncWaitOp.is(op)) return;
  // ttg.async_wait -> ttg.async_wait; gpu.barrier (other threads' copies are not covered by our wait)
  if (insert && !gpu.BarrierOp.is(op.next)) {
    w.rw.setInsertionPointAfter(op);
    w.rw.loc = op.loc;
    gpu.BarrierOp.build(w.rw, {});
    w.ctx.bump('num-barriers');
  }
  state.sync();
}

/** `scf.if`: both branches start from `state`; afterwards either may have run. */
function visitIf(op: Operation, state: MembarState, w: Walk, insert: boolean): void {
  const thenOut = visitRegion(op.regions[0], state.clone(), w, insert);
  const elseOut = op.regions[1]?.blocks.length ? visitRegion(op.regions[1], state.clone(), w, insert) : state.clone();
  state.sync();
  state.join(thenOut).join(elseOut);
}

/**
 * A loop: `body` (scf.for) or `before` then `after` (scf.while), iterated to a fixed point of the
 * pending set at the loop head, then walked once more inserting barriers. Where accesses pending
 * from before the loop would put barriers in it that a synchronized entry would not need (a tile
 * stored just before the loop and read in it), one barrier goes before the loop instead: it runs
 * once, not every iteration.
 */
function visitLoop(loop: Operation, body: Region, after: Region | null, state: MembarState, w: Walk, insert: boolean): void {
  const iterate = (entry: MembarState, ins: boolean): { exit: MembarState; back: MembarState } => {
    const first = visitRegion(body, entry.iterationStart(), w, ins);
    if (!after) return { exit: first, back: first };
    return { exit: first, back: visitRegion(after, first.clone(), w, ins) };
  };
  // The loop-head state at the fixed point from `start`, and the barriers one iteration from it needs.
  const fixedPoint = (start: MembarState): { entry: MembarState; barriers: number } => {
    let entry = start.clone();
    for (;;) {
      const before = w.modelled;
      // Accumulate, so the walk terminates (the pending sets only grow).
      const next = entry.clone().join(iterate(entry, false).back);
      if (next.equals(entry)) return { entry, barriers: w.modelled - before };
      entry = next;
    }
  };
  let { entry, barriers } = fixedPoint(state);
  const synced = state.clone();
  synced.sync();
  if (insert && barriers && !synced.equals(state)) {
    const clean = fixedPoint(synced);
    // scf.for %i ... { <barrier: a tile stored before the loop> ... } -> gpu.barrier; scf.for %i ... { ... }
    if (clean.barriers < barriers) {
      barrierBefore(loop, w, true);
      state.sync();
      entry = clean.entry;
    }
  }
  const { exit } = iterate(entry, insert);
  // scf.for may run zero times; scf.while leaves from its `before` region.
  if (after) state.sync();
  state.join(exit);
}

/** Walks the ops of `block` from `state` (updated in place and returned). */
function visitBlock(block: Block, state: MembarState, w: Walk, insert: boolean): MembarState {
  for (let op = block.first; op; op = op.next) visitOp(op, state, w, insert);
  return state;
}

/** Walks `region` from `state` (not modified); returns the pending set at its exits. */
function visitRegion(region: Region, state: MembarState, w: Walk, insert: boolean): MembarState {
  if (region.blocks.length === 0) return state.clone();
  if (region.blocks.length === 1) return visitBlock(region.blocks[0], state.clone(), w, insert);
  // Unstructured control flow: every block may follow every other (a safe over-approximation).
  let entry = state.clone();
  for (;;) {
    const next = entry.clone();
    for (const b of region.blocks) next.join(visitBlock(b, entry.clone(), w, false));
    if (next.equals(entry)) break;
    entry = next;
  }
  const out = entry.clone();
  for (const b of region.blocks) out.join(visitBlock(b, entry.clone(), w, insert));
  return out;
}

/** Inserts the barriers one function needs. */
function run(fn: Operation, ctx: PassContext): void {
  const w: Walk = { ids: new BufferIds(), rw: ctx.rewriter(), ctx, modelled: 0 };
  for (const r of fn.regions) visitRegion(r, new MembarState(), w, true);
}

/** The `insert-barriers` pass. */
export const insertBarriers: PassDecl = {
  name: 'insert-barriers',
  summary: 'Insert gpu.barrier between racing shared-memory accesses (Triton Membar)',
  anchor: 'function',
  statistics: { 'num-barriers': 'number of gpu.barrier ops inserted' },
  run,
};
