/**
 * TMA and mbarriers on sm_90a: the Hopper ops of `ttng` that move tiles between a tensor and shared
 * memory through a tensor map, and the barriers that say when they have landed.
 *
 * A `!tt.tensordesc` kernel parameter is a 128-byte CUtensorMap passed by value; its register is
 * the map's generic address. The launcher encodes the map from the tensor, with the box and swizzle
 * that `tmaGeometry` gives (the launch metadata carries them): one box is at most 256 rows and, with
 * a swizzle, one swizzle row wide (128/64/32 bytes), so a block wider or taller than that moves as
 * several boxes, each a copy of its own into the tile at the box's offset.
 *
 * Who issues what: thread 0 initializes, arms (`arrive.expect_tx`) and invalidates mbarriers; the
 * copies of a block go round the warps, one elected lane each (box k from warp k mod numWarps),
 * so a 4-box block is issued by 4 warps at once; every thread waits on the mbarrier itself.
 */
import type { Operation, Value } from '../../ir/ir.js';
import { bitWidth } from '../../ir/types.js';
import { TensorDescType } from '../../dialects/tt/types.js';
import { MemDescType } from '../../dialects/ttg/types.js';
import { offsetFromBases, sharedOffsetBases } from '../../dialects/ttg/shared-layout.js';
import { tmaGeometry, type TmaGeometry } from '../../dialects/ttg/tma-geometry.js';
import * as nvptx from '../../dialects/nvptx.js';
import * as ttng from '../../dialects/ttng.js';
import { DescriptorReduceKind } from '../../dialects/tt/enums.js';
import { lowering, requireHopper, type Lowering, type LoweringContext } from './context.js';
import { I32, targetError } from './emitter.js';

/** The geometry of descriptor `desc` used by `op`, or a located error. */
function geometryAt(desc: Value, op: Operation): TmaGeometry {
  const g = tmaGeometry(desc.type as TensorDescType);
  if (typeof g === 'string') throw targetError(op, `cannot be lowered to the nvptx target: ${g}`);
  return g;
}

/**
 * Byte offsets in `tile` of each box origin, checking that every box is the dense, row-after-row
 * run of rows TMA writes (a swizzle only permutes the 16-byte pieces within a row).
 */
function boxOffsets(tile: MemDescType, g: TmaGeometry, op: Operation): number[] {
  const bases = sharedOffsetBases(tile.encoding, tile.shape);
  const bytes = bitWidth(tile.elementType) / 8;
  if (!bases) throw targetError(op, `cannot address shared tile '${tile}'`);
  const [boxRows, boxCols] = g.box.slice(-2);
  const rowBytes = boxCols * bytes;
  return g.origins.map((origin) => {
    const o = origin.slice(-2);
    const at = offsetFromBases(bases, o) * bytes;
    for (let r = 1; r < boxRows; r *= 2) {
      if (Math.floor((offsetFromBases(bases, [o[0] + r, o[1]]) * bytes - at) / rowBytes) !== r) throw targetError(op, `cannot be lowered to the nvptx target: tile '${tile}' does not hold a TMA box's rows one after another`);
    }
    return at;
  });
}

/** `pred && thread is lane 0 of warp w` (hoisted per warp), or just the latter without `pred`. */
function issuer(ctx: LoweringContext, w: number, pred: Value | null): Value {
  const e = ctx.e;
  const mine = ctx.hoist(`tma-issuer:${w}`, () => e.setp('eq', 'u', ctx.tid(), e.imm(I32, w * ctx.threadsPerWarp)));
  return pred ? e.op('and', 'pred', [mine, pred], mine.type) : mine;
}

/** The coordinates of the box at `origin` from block coordinates `coords`, innermost first (as TMA takes them). */
function boxCoords(ctx: LoweringContext, coords: Value[], origin: readonly number[]): Value[] {
  return coords.map((c, d) => (origin[d] ? ctx.e.addImm(c, origin[d]) : c)).reverse();
}

/** ttng.init_barrier %b, N -> @thread0 mbarrier.init.shared::cta.b64 [%b], N; fence.mbarrier_init (the TMA unit sees it) */
const lowerInitBarrier = lowering(ttng.InitBarrierOp, (ctx, { op, alloc, count }) => {
  nvptx.MbarrierOp.build(ctx.e.b, { ptx: 'init.shared::cta.b64', addr: ctx.scalar(alloc, op), guard: issuer(ctx, 0, null), count });
  nvptx.FenceOp.build(ctx.e.b, { ptx: 'mbarrier_init.release.cluster' });
});

/** ttng.inval_barrier %b -> @thread0 mbarrier.inval.shared::cta.b64 [%b] */
const lowerInvalBarrier = lowering(ttng.InvalBarrierOp, (ctx, { op, alloc }) => {
  nvptx.MbarrierOp.build(ctx.e.b, { ptx: 'inval.shared::cta.b64', addr: ctx.scalar(alloc, op), guard: issuer(ctx, 0, null) });
});

/** ttng.barrier_expect %b, N, %p -> @(p && thread0) mbarrier.arrive.expect_tx.shared::cta.b64 _, [%b], N */
const lowerBarrierExpect = lowering(ttng.BarrierExpectOp, (ctx, { op, alloc, pred, size }) => {
  nvptx.MbarrierOp.build(ctx.e.b, { ptx: 'arrive.expect_tx.shared::cta.b64', addr: ctx.scalar(alloc, op), guard: issuer(ctx, 0, ctx.scalar(pred, op)), count: size });
});

/** ttng.wait_barrier %b, %phase -> mbarrier.try_wait.parity loop (every thread) */
const lowerWaitBarrier = lowering(ttng.WaitBarrierOp, (ctx, { op, alloc, phase, pred }) => {
  if (pred) throw targetError(op, 'cannot be lowered to the nvptx target: a predicated mbarrier wait is not supported');
  nvptx.MbarrierWaitOp.build(ctx.e.b, { addr: ctx.scalar(alloc, op), phase: ctx.scalar(phase, op) });
});

/** One box of a copy: the tile address of the box, its tensor coordinates (innermost first) and its issuing thread's guard. */
interface Box {
  tile: Value;
  coords: Value[];
  guard: Value;
}

/** Emits `issue(box)` for each box a copy of `tileValue` (a tile of the descriptor `desc`'s block at `coord`) moves, box k issued by warp k mod W when `pred` holds. */
function forEachBox(ctx: LoweringContext, op: Operation, desc: Value, tileValue: Value, coord: readonly Value[], pred: Value | null, issue: (box: Box) => void): void {
  requireHopper(ctx, op, 'a TMA copy (cp.async.bulk.tensor)');
  const g = geometryAt(desc, op);
  const offsets = boxOffsets(tileValue.type as MemDescType, g, op);
  const tile = ctx.scalar(tileValue, op);
  const coords = coord.map((c) => ctx.scalar(c, op));
  g.origins.forEach((o, k) => {
    const guard = issuer(ctx, k % ctx.numWarps, pred);
    issue({ guard, tile: ctx.e.addImm(tile, offsets[k]), coords: boxCoords(ctx, coords, o) });
  });
}

/** ttng.async_tma_copy_global_to_local %d[%x, %y] %t, %b, %p -> one cp.async.bulk.tensor per box, round the warps */
const lowerTmaLoad = lowering(ttng.AsyncTmaCopyGlobalToLocalOp, (ctx, copy) => {
  const { op } = copy;
  const tmap = ctx.scalar(copy.desc, op);
  const bar = ctx.scalar(copy.barrier, op);
  forEachBox(ctx, op, copy.desc, copy.result, copy.coord, ctx.scalar(copy.pred, op), (box) => {
    nvptx.TmaLoadOp.build(ctx.e.b, { dst: box.tile, tmap, bar, guard: box.guard, coords: box.coords });
  });
});

/** ttng.async_tma_copy_local_to_global %d[%x, %y] %t -> one bulk-group cp.async.bulk.tensor per box, round the warps; commit */
const lowerTmaStore = lowering(ttng.AsyncTmaCopyLocalToGlobalOp, (ctx, copy) => {
  const { op } = copy;
  const tmap = ctx.scalar(copy.desc, op);
  forEachBox(ctx, op, copy.desc, copy.src, copy.coord, null, (box) => {
    nvptx.TmaStoreOp.build(ctx.e.b, { tmap, src: box.tile, guard: box.guard, coords: box.coords });
  });
  // every thread commits (an empty group for those that issued nothing)
  nvptx.BulkGroupOp.build(ctx.e.b, { ptx: 'commit_group' });
});

/** ttng.async_tma_reduce add, %d[%x, %y] %t -> one bulk-group cp.reduce.async.bulk.tensor .add per box, round the warps; commit */
const lowerTmaReduce = lowering(ttng.AsyncTmaReduceOp, (ctx, reduce) => {
  const { op } = reduce;
  const tmap = ctx.scalar(reduce.desc, op);
  const kind = DescriptorReduceKind.nameOf(op.getAttr('kind')!);
  forEachBox(ctx, op, reduce.desc, reduce.src, reduce.coord, null, (box) => {
    nvptx.TmaStoreOp.build(ctx.e.b, { tmap, src: box.tile, guard: box.guard, coords: box.coords, reduce: kind });
  });
  nvptx.BulkGroupOp.build(ctx.e.b, { ptx: 'commit_group' });
});

/** ttng.async_tma_store_wait {pendings = N} -> cp.async.bulk.wait_group.read N (every thread; its own groups) */
const lowerTmaStoreWait = lowering(ttng.AsyncTmaStoreWaitOp, (ctx, { pendings }) => {
  nvptx.BulkGroupOp.build(ctx.e.b, { ptx: `wait_group.read ${pendings}` });
});

/** TMA copies and mbarriers. */
export const TMA_RULES: readonly Lowering[] = [lowerInitBarrier, lowerInvalBarrier, lowerBarrierExpect, lowerWaitBarrier, lowerTmaLoad, lowerTmaStore, lowerTmaReduce, lowerTmaStoreWait];
