/**
 * Shared-memory scratch sizes of single ops (Triton's `defaultAllocationAnalysisScratchSizeFn`),
 * for the ops this toolkit knows:
 *  - `ttg.convert_layout`: `conversionScratchBytes` (0 when `cvtNeedsSharedMemory` says no), except
 *    that conversions Triton does with warp shuffles (lanes exchange elements) get the whole tensor,
 *    since the nvptx target stages every cross-thread conversion in shared memory;
 *  - `tt.reduce`: 0 when the reduced axis stays within one warp (W = warps holding distinct data
 *    along the axis is 1); otherwise Triton's `getScratchRepShape`: the tensor shape with the axis
 *    replaced by W, times the summed element bytes of all operands (each partial of every warp
 *    along the axis, for every non-axis position);
 *  - `tt.scan`: 0 when W = 1; otherwise chunks x W x (elements off the axis) x summed element
 *    bytes: one partial per axis warp, non-axis position and chunk (a repetition of the lane and
 *    warp tile along the axis), so the nvptx lowering exchanges every chunk in one round;
 *  - `tt.atomic_rmw` / `tt.atomic_cas` with a used scalar result: one element (at least 1 byte),
 *    broadcast to all threads through shared memory. Tensor results need none unless the layout
 *    broadcasts (not modelled here: 0).
 * Element bytes round sub-byte types up to 1; pointers count 8.
 */
import type { Operation } from '../../ir/ir.js';
import { RankedTensorType, bitWidth, type Type } from '../../ir/types.js';
import { IntegerAttr } from '../../ir/attributes.js';
import { PointerType } from '../../dialects/tt/types.js';
import { conversionScratchBytes } from '../../dialects/ttg/layout-scratch.js';
import { toLinearLayout } from '../../dialects/ttg/layout-lib.js';
import { dimName, standardDims } from '../../dialects/ttg/layout-linear.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';
import * as ttng from '../../dialects/ttng.js';
import { TENSOR_MAP_BYTES } from '../../dialects/ttg/target.js';

/** Bytes one element of `t` takes in shared memory (sub-byte types round up to 1, pointers 8). */
export function elementBytes(t: Type): number {
  if (t instanceof PointerType) return 8;
  return Math.max(1, Math.ceil(bitWidth(t) / 8));
}

/** How many warps hold distinct data along `axis` of a tensor type (1 when not a laid-out tensor). */
export function warpsAlongAxis(t: RankedTensorType, axis: number): number {
  if (!t.encoding) return 1;
  const bases = toLinearLayout(t.encoding, t.shape).bases('warp');
  return 2 ** bases.filter((b) => b[axis] !== 0).length;
}

const axisOf = (op: Operation): number => Number((op.getAttr('axis') as IntegerAttr).value);

function tensorOperands(op: Operation): RankedTensorType[] {
  return op.operandTypes().filter((t): t is RankedTensorType => t instanceof RankedTensorType);
}

/**
 * How many chunks (repetitions of the lane and warp tile along `axis`) a thread of `t`'s layout
 * holds: register bases along the axis above the lowest lane or warp basis there.
 */
export function scanChunks(t: RankedTensorType, axis: number): number {
  if (!t.encoding) return 1;
  const ll = toLinearLayout(t.encoding, t.shape);
  const k = ll.outs.findIndex((o) => o.name === dimName(axis));
  if (k < 0) return 1;
  const thread = [...ll.bases('lane'), ...ll.bases('warp')].reduce((m, b) => m | b[k], 0);
  if (!thread) return 1;
  const lowest = thread & -thread;
  return 2 ** ll.bases('register').filter((b) => b[k] >= lowest).length;
}

function reduceLikeScratch(op: Operation): number {
  const srcs = tensorOperands(op);
  if (!srcs.length) return 0;
  const axis = axisOf(op);
  const w = warpsAlongAxis(srcs[0], axis);
  if (w <= 1) return 0;
  const bytes = srcs.reduce((s, t) => s + elementBytes(t.elementType), 0);
  const offAxis = srcs[0].shape.reduce((p, d, k) => (k === axis ? p : p * d), 1);
  // reduce: the shape with axis := W; scan: one partial per axis warp, non-axis position and chunk.
  const chunks = tt.ScanOp.is(op) ? scanChunks(srcs[0], axis) : 1;
  return chunks * w * offAxis * bytes;
}

/** Whether every lane and warp holds the same elements (by row-major index) in both layouts: a conversion within registers. */
export function sameThreadsHoldSameElements(a: RankedTensorType, b: RankedTensorType): boolean {
  try {
    const [la, lb] = [toLinearLayout(a.encoding!, a.shape), toLinearLayout(b.encoding!, b.shape)];
    // Row-major element indices, so shapes of the same size but different rank (reshape, expand_dims) compare too.
    const [da, db] = [standardDims(a.shape.length), standardDims(b.shape.length)];
    const same = (n: string) => String(la.flatContributions(n, da)) === String(lb.flatContributions(n, db));
    return same('lane') && same('warp');
  } catch {
    return true;
  }
}

/** Bytes of scratch shared memory `op` needs while it runs (0: none). */
export function scratchBytes(op: Operation): number {
  switch (op.name) {
    case ttg.ConvertLayoutOp.name: {
      const cvt = ttg.ConvertLayoutOp.view(op);
      const [src, dst] = [cvt.src.type, cvt.result.type];
      if (!(src instanceof RankedTensorType) || !(dst instanceof RankedTensorType) || !src.encoding || !dst.encoding) return 0;
      const bytes = conversionScratchBytes(src.encoding, dst.encoding, src.shape, elementBytes(src.elementType));
      if (bytes || sameThreadsHoldSameElements(src, dst)) return bytes;
      // Triton moves these within a warp with shuffles; the nvptx target stages them in shared memory.
      return src.shape.reduce((a, b) => a * b, 1) * elementBytes(src.elementType);
    }
    case tt.ReduceOp.name:
      return reduceLikeScratch(op);
    case tt.ScanOp.name:
      return reduceLikeScratch(op);
    // the whole source, read back at gathered positions
    case tt.GatherOp.name: {
      const t = op.operand(0).type;
      return t instanceof RankedTensorType ? t.shape.reduce((a, b) => a * b, 1) * elementBytes(t.elementType) : 0;
    }
    // the bins, counted in shared memory
    case tt.HistogramOp.name: {
      const t = op.result(0).type;
      return t instanceof RankedTensorType ? t.shape[0] * elementBytes(t.elementType) : 0;
    }
    // the tensor map thread 0 writes before warp 0 copies it to global memory
    case ttng.TensormapCreateOp.name:
      return TENSOR_MAP_BYTES;
    case tt.AtomicRmwOp.name:
    case tt.AtomicCasOp.name: {
      const r = op.result(0);
      if (!r.hasUses || r.type instanceof RankedTensorType) return 0;
      return elementBytes(r.type);
    }
    default:
      return 0;
  }
}
