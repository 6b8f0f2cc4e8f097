/**
 * Transposes a dot operand in shared memory rather than in registers (what Triton's
 * AccelerateMatmul does for `tl.trans` operands): a `ttg.local_alloc` of `tt.trans %x` that only
 * `ttg.local_load`s read becomes a `ttg.local_alloc` of `%x` itself, read through a
 * `ttg.memdesc_trans` view:
 *
 *   %t = tt.trans %x {order = [1, 0]}; %s = ttg.local_alloc %t : #shared<order = o>
 *     -> %s0 = ttg.local_alloc %x : #shared<order = layout order of %x>;
 *        %s = ttg.memdesc_trans %s0 {order = [1, 0]} : the transposed encoding
 *
 * The tile is then stored the way it was loaded (rows of the load's contiguous dim, so the
 * stores, or the pipeline's cp.async, stay 16 bytes wide), and the operand's ldmatrix reads the
 * view: `.trans` or not depending on which of its dims is contiguous in shared memory. The
 * tile's values and the loaded operand do not change: the view maps coordinate (i, j) of the
 * operand to (j, i) of the stored tile, which is where `tt.trans` put it.
 */
import { DenseArrayAttr } from '../../ir/attributes.js';
import type { Operation, Value } from '../../ir/ir.js';
import type { Rewriter } from '../../ir/rewriter.js';
import { RankedTensorType } from '../../ir/types.js';
import { SWIZZLED_SHARED, isDistributed, isLayout } from '../../dialects/ttg/layout-attrs.js';
import { layoutOrder } from '../../dialects/ttg/layout-lib.js';
import { transposedSharedEncoding } from '../../dialects/ttg/shared-layout.js';
import { StructAttr } from '../../dialects/ttg/struct-attr.js';
import { MemDescType } from '../../dialects/ttg/types.js';

/** The value before any `ttg.convert_layout`s (a tile in the layout it was produced in). */
function beforeConversion(v: Value): Value {
  while (v.definingOp?.name === 'ttg.convert_layout') v = v.definingOp.operand(0);
  return v;
}

/** The permutation of `tt.trans` op `trans` when the rewrite applies to it, else null. */
function transOrder(trans: Operation | null): number[] | null {
  if (trans?.name !== 'tt.trans') return null;
  const order = trans.getAttr('order');
  return order instanceof DenseArrayAttr && order.values.length === 2 ? order.values.map(Number) : null;
}

/**
 * Rewrites `alloc` (a `ttg.local_alloc` of a `tt.trans` result, read only by `ttg.local_load`s,
 * with a rank-2 swizzled_shared encoding) into a view of an alloc of the transposition's
 * source; returns whether it did.
 */
export function transposeInShared(alloc: Operation, rw: Rewriter): boolean {
  if (alloc.name !== 'ttg.local_alloc' || alloc.numOperands !== 1) return false;
  const trans = alloc.operand(0).definingOp;
  const order = transOrder(trans);
  const memType = alloc.result(0).type;
  if (!order || !(memType instanceof MemDescType) || !isLayout(memType.encoding, SWIZZLED_SHARED) || memType.rank !== 2) return false;
  if (!alloc.result(0).hasUses || !alloc.result(0).users().every((u) => u.name === 'ttg.local_load')) return false;
  const src = beforeConversion(trans!.operand(0));
  const srcType = src.type as RankedTensorType;
  const enc = memType.encoding as StructAttr;
  const storedOrder = isDistributed(srcType.encoding) ? layoutOrder(srcType.encoding) : [1, 0];
  const stored = StructAttr.get(SWIZZLED_SHARED, { ...enc.values, order: storedOrder });
  const viewEnc = transposedSharedEncoding(stored, order);
  if (!viewEnc) return false;
  // %s = ttg.local_alloc (tt.trans %x) -> %s0 = ttg.local_alloc %x; %s = ttg.memdesc_trans %s0
  const storedType = MemDescType.get(srcType.shape, srcType.elementType, stored, memType.memorySpace, memType.mutable);
  const newAlloc = rw.createBefore(alloc, 'ttg.local_alloc', { operands: { src }, attrs: alloc.attributes ?? {}, results: { result: storedType } });
  const viewType = MemDescType.get(memType.shape, memType.elementType, viewEnc, memType.memorySpace, memType.mutable);
  const view = rw.createBefore(alloc, 'ttg.memdesc_trans', {
    operands: { src: newAlloc.result(0) },
    attrs: { order: trans!.getAttr('order')! },
    results: { result: viewType },
  });
  rw.replaceAllUsesWith(alloc.result(0), view.result(0));
  rw.eraseOp(alloc);
  // The transposition (and conversions feeding only it) go when nothing else reads them.
  for (let dead: Operation | null = trans!; dead && !dead.result(0).hasUses && dead !== src.definingOp; ) {
    const next: Operation | null = dead.operand(0).definingOp;
    rw.eraseOp(dead);
    dead = next?.name === 'ttg.convert_layout' ? next : null;
  }
  return true;
}
