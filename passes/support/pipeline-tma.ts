/**
 * The TMA side of the `software-pipeline` pass: the descriptor loads of a pipelined loop are copied
 * by TMA into their slots, each slot with one mbarrier that all of a stage's copies complete on.
 * A stage arms its slot's mbarrier with the bytes of its copies and issues them; an iteration waits
 * on its read slot's mbarrier with the phase that slot is in, which flips each time the read slot
 * wraps to 0. (One mbarrier per group of loads read by the same op, Triton's grouping, measured
 * slower on attention: bench/gpu/RESULTS.md, 2026-11-27.)
 */
import type { Value, ValueMapping } from '../../ir/ir.js';
import { i } from '../../ir/types.js';
import * as ttg from '../../dialects/ttg/index.js';
import * as ttng from '../../dialects/ttng.js';
import type { PipelinedLoad } from './pipeline-analysis.js';
import { type IntEmitter, barrierBufferType, issueTmaCopies, slot } from './pipeline-emit.js';

/**
 * The mbarriers of `slots` slots, each initialized with one arrival (the thread that arms it).
 * ttg.local_alloc : () -> !ttg.memdesc<Sx1xi64>; ttng.init_barrier (each slot)
 */
export function allocBarriers(e: IntEmitter, slots: number): Value {
  const barriers = ttg.LocalAllocOp.build(e.rw, {}, { results: { result: barrierBufferType(slots) } }).result;
  for (let s = 0; s < slots; s++) ttng.InitBarrierOp.build(e.rw, { alloc: slot(e.rw, barriers, e.constant(s, i(32))), count: 1 });
  return barriers;
}

/** Issues one stage's TMA copies of `loads` (their buffers `bufs`, operands looked up in `m`) into slot `idx`, on that slot's mbarrier. */
export function issueTmaStage(e: IntEmitter, loads: readonly PipelinedLoad[], bufs: readonly Value[], barriers: Value, m: ValueMapping, idx: Value, pred: Value): void {
  issueTmaCopies(e, loads, bufs, m, idx, slot(e.rw, barriers, idx), pred);
}

/**
 * The read slot's phase (flipped from `phaseArg` when the read slot `wrapped` to 0) and the wait on
 * its mbarrier: this iteration's TMA copies have landed. Returns the phase (the loop carries it).
 * ttng.wait_barrier %bar[%read], %phase
 */
export function waitForSlot(e: IntEmitter, barriers: Value, idx: Value, phaseArg: Value, wrapped: Value): Value {
  const phase = e.select(wrapped, e.binary('xori', phaseArg, e.constant(1, i(32))), phaseArg);
  ttng.WaitBarrierOp.build(e.rw, { alloc: slot(e.rw, barriers, idx), phase, deps: [] });
  return phase;
}

/** After the loop: each slot's mbarrier invalidated (its memory may be reused), then the buffer freed. */
export function releaseBarriers(e: IntEmitter, barriers: Value, slots: number): void {
  for (let s = 0; s < slots; s++) ttng.InvalBarrierOp.build(e.rw, { alloc: slot(e.rw, barriers, e.constant(s, i(32))) });
  ttg.LocalDeallocOp.build(e.rw, { src: barriers });
}
