/**
 * `coalesce` (after Triton's Coalesce pass): gives every global access through a tensor of
 * pointers (tt.load, tt.store, tt.atomic_rmw, tt.atomic_cas) a blocked layout made for coalesced
 * memory access, and converts its operands to it (and its result back) with `ttg.convert_layout`.
 *
 * The layout's order is the pointer's order by decreasing contiguity (axis info), and each thread
 * holds one vector along the fastest axis: sizePerThread[order[0]] = min(contiguity, alignment in
 * elements, 128 bits / element bits). A load takes the largest such vector among the accesses of
 * the same shape and order it is connected to (def-use slice), and every access is capped at
 * numel / (warps * threads) elements per thread (and, with `mask-aligned`, at the alignment of
 * its mask). Layouts are all chosen before anything changes.
 * A rank-3 load feeding a batched dot's operand (through `tt.trans` and layout conversions: the
 * load dim that becomes the dot's first) puts that batch dim slowest in the order (`batchSlowest`),
 * unless it is the contiguous one: a warp then reads rows of one matrix of the batch, and the
 * shared tile the operand is stashed in (stored in the load's order) keeps each matrix whole, its
 * rows swizzled like a rank-2 operand's (pad-shared).
 * A block moved through a tensor descriptor (`tt.descriptor_load`'s result, `tt.descriptor_store`'s
 * value) lands in or comes from shared memory a row at a time (TMA), so its layout is the one that
 * moves 16-byte vectors along the contiguous last dim (`descriptorLayout`): the tile is read and
 * written with vector shared-memory accesses instead of one element at a time.
 * Accesses whose layout already is the chosen one are left alone.
 */
import { Builder } from '../ir/builder.js';
import type { Operation, Value } from '../ir/ir.js';
import { RankedTensorType, bitWidth, type Type } from '../ir/types.js';
import * as tt from '../dialects/tt/index.js';
import * as ttg from '../dialects/ttg/index.js';
import { isSharedLayout } from '../dialects/ttg/layout-attrs.js';
import type { StructAttr } from '../dialects/ttg/struct-attr.js';
import { getAxisInfo, orderFromContiguity, type AxisInfoAnalysis } from './analysis/axis-info.js';
import { gpuConfigOf, maskOf, pointeeBits, shapePerCTA, SliceComponents, tensorPtrOf } from './support/coalesce-access.js';
import { blockedForShape } from './support/convert-to-gpu-layouts.js';
import type { PassContext, PassDecl } from './pass.js';

const sameOrder = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((x, k) => x === b[k]);
const sameShape = sameOrder;

/**
 * Elements one vector access of `ptr` can cover along `dim` (Triton's getNumElementsPerThread):
 * min(divisibility in elements, contiguity capped by the CTA's extent, 128 bits / element bits).
 */
export function vectorElems(ptr: Value, dim: number, axis: AxisInfoAnalysis): number {
  const t = ptr.type as RankedTensorType;
  const bits = pointeeBits(ptr);
  const bytes = Math.max(1, Math.floor(bits / 8));
  const maxMultiple = Math.max(1, Math.floor(axis.divisibility(ptr, dim) / bytes));
  const maxContig = Math.min(axis.contiguity(ptr, dim), shapePerCTA(t)[dim]);
  return Math.max(1, Math.min(maxMultiple, maxContig, Math.floor(128 / bits) || 1));
}

/** Whether the value `op` loads reaches a `tt.dot` operand (through layout conversions only). */
function feedsDot(op: Operation): boolean {
  const load = tt.LoadOp.match(op);
  if (!load) return false;
  const work: Value[] = [load.result];
  while (work.length) {
    for (const user of work.pop()!.users()) {
      if (tt.DotOp.is(user)) return true;
      const cvt = ttg.ConvertLayoutOp.match(user);
      if (cvt) work.push(cvt.result);
    }
  }
  return false;
}

/**
 * The dim of the rank-3 value `op` loads that becomes the batch dim (the first) of a `tt.dot`
 * operand, following `ttg.convert_layout` and `tt.trans` (null: it feeds no rank-3 dot operand).
 */
export function dotBatchDim(op: Operation): number | null {
  const load = tt.LoadOp.match(op);
  if (!load || !(load.result.type instanceof RankedTensorType) || load.result.type.rank !== 3) return null;
  // dims[k]: the loaded dim that dim k of the value is
  const work: [Value, number[]][] = [[load.result, [0, 1, 2]]];
  const seen = new Set<Value>();
  while (work.length) {
    const [v, dims] = work.pop()!;
    if (seen.has(v)) continue;
    seen.add(v);
    for (const user of v.users()) {
      const dot = tt.DotOp.match(user);
      if (dot && (dot.a === v || dot.b === v)) return dims[0];
      const cvt = ttg.ConvertLayoutOp.match(user);
      if (cvt) work.push([cvt.result, dims]);
      const trans = tt.TransOp.match(user);
      // result dim k is source dim order[k]
      if (trans && trans.order.length === 3) work.push([trans.result, trans.order.map((d) => dims[d])]);
    }
  }
  return null;
}

/**
 * The order of `op`'s coalesced layout: its pointer's dims by decreasing contiguity, with the
 * batch dim of a batched dot operand moved last (`batchSlowest`) unless it is the contiguous one.
 */
export function accessOrder(op: Operation, axis: AxisInfoAnalysis): number[] {
  const order = orderFromContiguity(axis.lookup(tensorPtrOf(op)!).contiguity);
  const batch = dotBatchDim(op);
  return batch === null || order[0] === batch ? order : batchSlowest(order, batch);
}

/** `order` with `batch` moved to the end (the slowest dim). */
export function batchSlowest(order: readonly number[], batch: number): number[] {
  return [...order.filter((d) => d !== batch), batch];
}

/** The coalesced blocked layout Triton's Coalesce pass would choose for the access `op` (whose pointer is a tensor). */
export function coalescedLayout(op: Operation, axis: AxisInfoAnalysis, peers: readonly Operation[] = [op], maskAligned = false): StructAttr {
  const ptr = tensorPtrOf(op)!;
  const t = ptr.type as RankedTensorType;
  const order = accessOrder(op, axis);
  let perThread = vectorElems(ptr, order[0], axis);
  for (const peer of peers) {
    const p = tensorPtrOf(peer);
    if (peer === op || !p || !sameShape((p.type as RankedTensorType).shape, t.shape)) continue;
    if (!sameOrder(accessOrder(peer, axis), order)) continue;
    perThread = Math.max(perThread, vectorElems(p, order[0], axis));
  }
  const cfg = gpuConfigOf(op);
  const numElems = shapePerCTA(t).reduce((a, b) => a * b, 1);
  perThread = Math.min(perThread, Math.max(1, Math.floor(numElems / (cfg.numWarps * cfg.threadsPerWarp))));
  // Writes stay within one 128-bit vector per thread (wider would leave gaps at the warp level).
  if (!tt.LoadOp.is(op)) perThread = Math.min(perThread, vectorElems(ptr, order[0], axis));
  // With `mask-aligned`: a masked access moves one vector per constant run of its mask; wider
  // chunks per thread would be moved element by element with gaps between lanes, so keep to the
  // mask's alignment. Triton does not, and then needs layout conversions it cannot always remove
  // (e.g. around loop-carried sums).
  // Loads of dot operands are exempt: they go through shared memory, stored in whole chunks.
  const mask = maskAligned && !feedsDot(op) ? maskOf(op) : undefined;
  if (mask && mask.type instanceof RankedTensorType) perThread = Math.min(perThread, Math.max(1, axis.maskAlignment(mask, order[0])));
  const sizePerThread = new Array<number>(t.rank).fill(1);
  sizePerThread[order[0]] = perThread;
  return blockedForShape(t.shape, sizePerThread, order, cfg);
}

/** The block tensor a descriptor access moves (a load's result, a store's value), else null. */
function descriptorBlock(op: Operation): RankedTensorType | null {
  const t = tt.DescriptorLoadOp.match(op)?.result.type ?? tt.DescriptorStoreOp.match(op)?.src.type;
  return t instanceof RankedTensorType ? t : null;
}

/** The blocked layout of a descriptor access: 16-byte vectors along the last (contiguous) dim, capped at the elements per thread. */
export function descriptorLayout(op: Operation, t: RankedTensorType): StructAttr {
  const cfg = gpuConfigOf(op);
  const order = [...t.shape.keys()].reverse();
  const bits = bitWidth(t.elementType) || 32;
  const numElems = t.shape.reduce((a, b) => a * b, 1);
  const perThread = Math.max(1, Math.min(Math.floor(128 / bits) || 1, t.shape[t.rank - 1], Math.floor(numElems / (cfg.numWarps * cfg.threadsPerWarp))));
  const sizePerThread = new Array<number>(t.rank).fill(1);
  sizePerThread[t.rank - 1] = perThread;
  return blockedForShape(t.shape, sizePerThread, order, cfg);
}

/** `t` with the layout `layout` when it is a tensor in registers (shared-memory tensors keep theirs). */
function retyped(t: Type, layout: StructAttr): Type {
  if (!(t instanceof RankedTensorType) || isSharedLayout(t.encoding)) return t;
  return t.withEncoding(layout);
}

// %r = tt.load %p, %m : tensor<..., #blocked>
//   -> %p1 = ttg.convert_layout %p ; %m1 = ttg.convert_layout %m ; %r1 = tt.load %p1, %m1 : #new ; %r = ttg.convert_layout %r1 : #new -> #blocked
function coalesceOp(op: Operation, layout: StructAttr, b: Builder): number {
  let converts = 0;
  b.setInsertionPoint(op);
  op.operands.forEach((o, k) => {
    const want = retyped(o.value.type, layout);
    if (want === o.value.type) return;
    op.setOperand(k, ttg.ConvertLayoutOp.build(b, { src: o.value }, { results: { result: want }, loc: op.loc }).result);
    converts++;
  });
  b.setInsertionPointAfter(op);
  for (const r of op.results) {
    const old = r.type;
    const want = retyped(old, layout);
    if (want === old) continue;
    r.type = want;
    const back = ttg.ConvertLayoutOp.build(b, { src: r }, { results: { result: old }, loc: op.loc });
    r.replaceUsesWithIf(back.result, (u) => u.owner !== back.op);
    converts++;
  }
  return converts;
}

/** Whether the access `op` already has `layout` on every register tensor it touches. */
function hasLayout(op: Operation, layout: StructAttr): boolean {
  const types = [...op.operandTypes(), ...op.resultTypes()];
  return types.every((t) => retyped(t, layout) === t);
}

function run(module: Operation, ctx: PassContext): void {
  const axis = getAxisInfo(ctx.analyses, module);
  const accesses: Operation[] = [];
  module.walk((op) => void (tensorPtrOf(op) && accesses.push(op)), 'pre');
  const slices = new SliceComponents(module);
  const byComponent = new Map<Operation, Operation[]>();
  for (const op of accesses) {
    const key = slices.find(op);
    byComponent.set(key, [...(byComponent.get(key) ?? []), op]);
  }
  // Choose every layout first, from the axis info of the unchanged module.
  const maskAligned = ctx.options['mask-aligned'] === true;
  const chosen = accesses.map((op) => [op, coalescedLayout(op, axis, byComponent.get(slices.find(op)) ?? [op], maskAligned)] as const);
  module.walk((op) => {
    const block = descriptorBlock(op);
    if (block && block.rank >= 1) chosen.push([op, descriptorLayout(op, block)] as const);
  }, 'pre');
  const b = new Builder();
  for (const [op, layout] of chosen) {
    if (hasLayout(op, layout)) continue;
    ctx.bump('accesses-coalesced');
    ctx.bump('converts-inserted', coalesceOp(op, layout, b));
  }
}

/** The `coalesce` pass (Triton's tritongpu-coalesce). */
export const coalesce: PassDecl = {
  name: 'coalesce',
  aliases: ['tritongpu-coalesce'],
  summary: 'Give global loads, stores and atomics a blocked layout that coalesces their memory accesses',
  anchor: 'module',
  options: {
    'mask-aligned': { type: 'bool', default: false, description: "cap each thread's elements at the mask's alignment (Triton does not)" },
  },
  statistics: {
    'accesses-coalesced': 'number of accesses given a new layout',
    'converts-inserted': 'number of ttg.convert_layout ops inserted',
  },
  run,
};
