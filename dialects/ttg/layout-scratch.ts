/**
 * Shared-memory scratch of a `ttg.convert_layout` between two distributed layouts, following
 * Triton's `getRepShapeForCvt` / `getScratchConfigForCvt` (lib/Analysis/Utility.cpp, Allocation.cpp):
 * the conversion goes through a "rep" tile of max(min(shapePerCTA, tile)) per dim, padded along the
 * dst order's fastest dim by the wider of the in/out vector widths. A conversion needs no scratch
 * when every destination warp already holds its elements in the source (register or in-warp shuffles).
 */
import type { Attribute } from '../../ir/attributes.js';
import { StructAttr } from './struct-attr.js';
import { BLOCKED, DOT_OP, NVIDIA_MMA } from './layout-attrs.js';
import { ctaFields, dstOwnersWithinSrc, isSupportedLayout, layoutOrder, layoutsEquivalent, shapePerTile, toLinearLayout } from './layout-lib.js';

/** Triton's `ScratchConfig` for a layout conversion. */
export interface ScratchConfig {
  /** The tile moved through shared memory per round. */
  repShape: number[];
  /** `repShape` with padding against bank conflicts. */
  paddedRepShape: number[];
  /** Order in which the tile is laid out in shared memory (the dst's). */
  order: number[];
  /** Elements written per vector store. */
  inVec: number;
  /** Elements read per vector load. */
  outVec: number;
}

const isMmaOrDot = (a: Attribute): boolean => a instanceof StructAttr && (a.spec === NVIDIA_MMA || a.spec === DOT_OP);

/** Triton's `getShapePerCTA`: the tensor shape divided by the CTA split. */
export function shapePerCTA(layout: Attribute, shape: readonly number[]): number[] {
  const { splitNum } = ctaFields(layout as StructAttr);
  return shape.map((s, k) => Math.max(1, s / (splitNum[k] ?? 1)));
}

/**
 * Triton's `getUniqueContigPerThread`: per dim, how many elements a thread holds contiguously
 * (register bases 1, 2, 4 ... walked in the layout's order), capped by the shape.
 */
export function contigPerThread(layout: Attribute, shape: readonly number[]): number[] {
  const regs = toLinearLayout(layout, shape).bases('register');
  const contig = shape.map(() => 1);
  let k = 0;
  for (const d of layoutOrder(layout)) {
    while (k < regs.length && regs[k].every((x, j) => x === (j === d ? contig[d] : 0))) ((contig[d] *= 2), k++);
  }
  return contig.map((c, d) => Math.min(c, shape[d]));
}

/**
 * Whether converting `src` to `dst` on `shape` goes through shared memory: false when the layouts
 * are equivalent or every warp that holds an element under `dst` holds it under `src` already.
 */
export function cvtNeedsSharedMemory(src: Attribute, dst: Attribute, shape: readonly number[]): boolean {
  // Layouts the linear model does not cover yet (e.g. dot_op of a blocked parent): assume shared memory.
  if (!isSupportedLayout(src) || !isSupportedLayout(dst)) return src !== dst;
  if (layoutsEquivalent(src, dst, shape)) return false;
  return !dstOwnersWithinSrc(src, dst, shape, 'warp');
}

/** Triton's `getCvtOrder`: mma and dot operand layouts take the order of the other side. */
export function cvtOrder(src: Attribute, dst: Attribute): { inOrd: number[]; outOrd: number[] } {
  const inOrd = isMmaOrDot(src) ? layoutOrder(dst) : layoutOrder(src);
  const outOrd = isMmaOrDot(dst) ? layoutOrder(src) : layoutOrder(dst);
  return { inOrd, outOrd };
}

/** Triton's `getRepShapeForCvt`: per dim, the larger of the two layouts' tiles (each capped by the shape). */
export function repShapeForCvt(src: Attribute, dst: Attribute, shape: readonly number[]): number[] {
  const [sp, dp] = [shapePerCTA(src, shape), shapePerCTA(dst, shape)];
  const [st, dt] = [shapePerTile(src), shapePerTile(dst)];
  return shape.map((_, d) => Math.max(Math.min(sp[d], st[d]), Math.min(dp[d], dt[d])));
}

/** Triton's `getScratchConfigForCvt`, or null when the conversion needs no shared memory. */
export function scratchConfigForCvt(src: Attribute, dst: Attribute, shape: readonly number[]): ScratchConfig | null {
  if (!cvtNeedsSharedMemory(src, dst, shape)) return null;
  const repShape = repShapeForCvt(src, dst, shape);
  const rank = repShape.length;
  const { inOrd, outOrd } = cvtOrder(src, dst);
  const srcContig = contigPerThread(src, shape)[inOrd[0]];
  const dstContig = contigPerThread(dst, shape)[outOrd[0]];
  const inner = rank - 1;
  const inVec = outOrd[0] !== inner || inOrd[0] !== inner ? 1 : srcContig;
  let outVec = outOrd[0] !== inner ? 1 : dstContig;
  // Storing from mma and loading into blocked vectorizes the load even across a transposition.
  if (src instanceof StructAttr && src.spec === NVIDIA_MMA && dst instanceof StructAttr && dst.spec === BLOCKED) outVec = dstContig;
  const padded = [...repShape];
  const total = repShape.reduce((a, b) => a * b, 1);
  if (rank > 1 && total !== repShape[outOrd[0]]) padded[outOrd[0]] += Math.max(inVec, outVec);
  return { repShape, paddedRepShape: padded, order: outOrd, inVec, outVec };
}

/**
 * Bytes of shared-memory scratch a `ttg.convert_layout` from `src` to `dst` on `shape` needs,
 * elements `elementBytes` wide (Triton rounds sub-byte types up to 1 byte and uses 8 for pointers);
 * 0 when no shared memory is needed.
 */
export function conversionScratchBytes(src: Attribute, dst: Attribute, shape: readonly number[], elementBytes: number): number {
  // Unmodelled layouts: staging the whole tensor through shared memory is always enough.
  if (src !== dst && (!isSupportedLayout(src) || !isSupportedLayout(dst)))
    return shape.reduce((a, b) => a * b, 1) * Math.max(1, elementBytes);
  const cfg = scratchConfigForCvt(src, dst, shape);
  if (!cfg) return 0;
  return cfg.paddedRepShape.reduce((a, b) => a * b, 1) * Math.max(1, elementBytes);
}
