/**
 * `vectorize`: records on every global access through a tensor of pointers (tt.load, tt.store,
 * tt.atomic_rmw, tt.atomic_cas) how many elements one thread moves per memory instruction, as
 * the discardable attribute `tt.vector_width = N : i32` (see `VECTOR_WIDTH_ATTR`).
 *
 * Along the fastest axis `d` of the access layout (its order[0]) the width is the least of
 * (Triton's getVectorSize plus the mask limit of its load/store lowering):
 *  - 128 bits / element bits (one 16-byte vector),
 *  - the contiguity of the pointer along `d`,
 *  - the divisibility of the address along `d`, in elements (bytes / element bytes),
 *  - the constancy of the mask along `d` (a vector is masked as a whole),
 *  - the consecutive elements a thread holds along `d` in the layout (sizePerThread for blocked).
 * Atomics are not vectorized beyond what their lowering packs: tt.atomic_rmw on 16-bit floats
 * takes pairs (at most 2), other atomic_rmw and every atomic_cas take 1.
 * Accesses whose pointer tensor has no layout (not converted to TritonGPU yet) are left alone.
 */
import { IntegerAttr } from '../ir/attributes.js';
import type { Operation } from '../ir/ir.js';
import { elementTypeOf, FloatType, i, RankedTensorType } from '../ir/types.js';
import { PointerType } from '../dialects/tt/types.js';
import { isDistributed } from '../dialects/ttg/layout-attrs.js';
import { layoutOrder, toLinearLayout } from '../dialects/ttg/layout-lib.js';
import { dimName } from '../dialects/ttg/layout-linear.js';
import { getAxisInfo, type AxisInfoAnalysis } from './analysis/axis-info.js';
import { maskOf, pointeeBits, tensorPtrOf } from './support/coalesce-access.js';
import * as tt from '../dialects/tt/index.js';
import type { PassContext, PassDecl } from './pass.js';

/** The discardable attribute `vectorize` sets: elements per vector memory instruction of one thread (i32). */
export const VECTOR_WIDTH_ATTR = 'tt.vector_width';

/**
 * Consecutive elements along `dim` one thread holds in `layout` (Triton's contigPerThread): the
 * leading register bases of its linear layout that step 1, 2, 4, ... along `dim` only.
 */
export function contigPerThread(layout: StructAttrLike, shape: readonly number[], dim: number): number {
  let ll;
  try {
    ll = toLinearLayout(layout, shape);
  } catch {
    return 1;
  }
  const outs = ll.outNames();
  const at = outs.indexOf(dimName(dim));
  if (at < 0) return 1;
  let n = 1;
  for (const basis of ll.bases('register')) {
    const ok = basis.every((x, k) => (k === at ? x === n : x === 0));
    if (!ok) break;
    n *= 2;
  }
  return Math.min(n, shape[dim] ?? 1);
}

type StructAttrLike = Parameters<typeof toLinearLayout>[0];


/** The most elements an atomic's lowering packs into one instruction (Infinity for loads and stores). */
function atomicCap(op: Operation, bits: number): number {
  if (tt.AtomicCasOp.match(op)) return 1;
  const rmw = tt.AtomicRmwOp.match(op);
  if (!rmw) return Infinity;
  const p = elementTypeOf(rmw.ptr.type);
  const e = p instanceof PointerType ? elementTypeOf(p.pointee) : p;
  return e instanceof FloatType && bits === 16 ? 2 : 1;
}

/** The vector width of the access `op` (its pointer a tensor with a distributed layout), else undefined. */
export function vectorWidth(op: Operation, axis: AxisInfoAnalysis): number | undefined {
  const ptr = tensorPtrOf(op);
  const t = ptr?.type;
  if (!ptr || !(t instanceof RankedTensorType) || !isDistributed(t.encoding)) return undefined;
  const d = layoutOrder(t.encoding)[0] ?? t.rank - 1;
  const bits = pointeeBits(ptr);
  let width = Math.max(1, Math.floor(128 / bits));
  width = Math.min(width, axis.alignment(ptr, d), contigPerThread(t.encoding, t.shape, d), atomicCap(op, bits));
  const mask = maskOf(op);
  if (mask && mask.type instanceof RankedTensorType) width = Math.min(width, axis.maskAlignment(mask, d));
  return Math.max(1, width);
}

function run(module: Operation, ctx: PassContext): void {
  const axis = getAxisInfo(ctx.analyses, module);
  const widths: [Operation, number][] = [];
  module.walk((op) => {
    const w = vectorWidth(op, axis);
    if (w !== undefined) widths.push([op, w]);
  }, 'pre');
  for (const [op, w] of widths) {
    const attr = IntegerAttr.get(w, i(32));
    if (op.getAttr(VECTOR_WIDTH_ATTR) === attr) continue;
    op.setAttr(VECTOR_WIDTH_ATTR, attr);
    ctx.bump('accesses-annotated');
    if (w > 1) ctx.bump('accesses-vectorized');
  }
  // Only discardable attributes changed: every analysis stays valid.
  ctx.preserve();
}

/** The `vectorize` pass: sets `tt.vector_width` on global accesses from axis info and their layouts. */
export const vectorize: PassDecl = {
  name: 'vectorize',
  summary: 'Record the vector width of every global load, store and atomic (tt.vector_width)',
  anchor: 'module',
  statistics: {
    'accesses-annotated': 'number of accesses whose tt.vector_width was set or changed',
    'accesses-vectorized': 'number of those whose width is more than one element',
  },
  run,
};
