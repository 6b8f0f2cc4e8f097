/**
 * The TMA side of the `software-pipeline` pass: the descriptor loads of a pipelined loop are copied
 * by TMA into their slots, each slot with one mbarrier that all of a stage's copies complete on.
 * A stage arms its slot's mbarrier with the bytes of its copies and issues them; an iteration waits
 * on its read slot's mbarrier with the phase that slot is in, which flips each time the read slot
 * wraps to 0. (One mbarrier per group of loads read by the same op, Triton's grouping, measured
 * slower on attention: bench/gpu/RESULTS.md, 2026-11-27.)
 */
import type { Value, ValueMapping } from '../../ir/ir.js';
import { RankedTensorType, bitWidth, i, type Type } from '../../ir/types.js';
import { SWIZZLED_SHARED, SharedMemorySpaceAttr } from '../../dialects/ttg/layout-attrs.js';
import { StructAttr } from '../../dialects/ttg/struct-attr.js';
import { MemDescType } from '../../dialects/ttg/types.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';
import * as ttng from '../../dialects/ttng.js';
import type { PipelinedLoad } from './pipeline-analysis.js';
import { type IntEmitter, slot } from './pipeline-emit.js';

/** The descriptor loads of a pipelined loop, their multi-slot buffers and the slots' mbarriers. */
export interface TmaLoads {
  loads: PipelinedLoad[];
  bufs: Value[];
  barriers: Value;
}

/** The mutable `n x 1 x i64` buffer of one mbarrier per slot (Triton's form; tma-lowering's single copies use n = 1). */
export function barrierBufferType(n: number): MemDescType {
  const enc = StructAttr.get(SWIZZLED_SHARED, { vec: 1, perPhase: 1, maxPhase: 1, order: [0] });
  return MemDescType.get([n, 1], i(64), enc, SharedMemorySpaceAttr.get(), true);
}

/** Bytes of a block of `t`'s shape and elements: what a TMA copy of it makes its mbarrier expect. */
export function blockBytes(t: { shape: readonly number[]; elementType: Type }): number {
  return (t.shape.reduce((a, b) => a * b, 1) * bitWidth(t.elementType)) / 8;
}

/**
 * The mbarriers of `slots` slots, each initialized with one arrival (the thread that arms it).
 * ttg.local_alloc : () -> !ttg.memdesc<Sx1xi64>; ttng.init_barrier (each slot)
 */
export function allocBarriers(e: IntEmitter, slots: number): Value {
  const barriers = ttg.LocalAllocOp.build(e.rw, {}, { results: { result: barrierBufferType(slots) } }).result;
  for (let s = 0; s < slots; s++) ttng.InitBarrierOp.build(e.rw, { alloc: slot(e.rw, barriers, e.constant(s, i(32))), count: 1 });
  return barriers;
}

/**
 * Issues one stage's TMA copies into slot `idx`: `ttng.barrier_expect` of all their bytes on the
 * slot's mbarrier, then one `ttng.async_tma_copy_global_to_local` per descriptor load (its
 * coordinates looked up in `m`) into its buffer's slot, all predicated by `pred`.
 */
export function issueTmaStage(e: IntEmitter, tma: TmaLoads, m: ValueMapping, idx: Value, pred: Value): void {
  const { rw } = e;
  const bar = slot(rw, tma.barriers, idx);
  const views = tma.loads.map((l) => tt.DescriptorLoadOp.view(l.load));
  ttng.BarrierExpectOp.build(rw, { alloc: bar, pred, size: views.reduce((n, load) => n + blockBytes(load.result.type as RankedTensorType), 0) });
  views.forEach((load, n) => {
    const view = slot(rw, tma.bufs[n], idx);
    const coord = load.indices.map((v) => m.lookupOrDefault(v));
    const attributes = { cache: load.op.getAttr('cache')!, evict: load.op.getAttr('evict')! };
    ttng.AsyncTmaCopyGlobalToLocalOp.build(rw, { desc: load.desc, coord, barrier: bar, result: view, pred }, { attributes });
  });
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
