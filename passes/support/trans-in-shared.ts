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
import type { Operation, Value } from '../../ir/ir.js';
import type { Rewriter } from '../../ir/rewriter.js';
import { RankedTensorType } from '../../ir/types.js';
import { SWIZZLED_SHARED, isDistributed, isLayout } from '../../dialects/ttg/layout-attrs.js';
import { layoutOrder } from '../../dialects/ttg/layout-lib.js';
import { transposedSharedEncoding } from '../../dialects/ttg/shared-layout.js';
import { StructAttr } from '../../dialects/ttg/struct-attr.js';
import { MemDescType } from '../../dialects/ttg/types.js';
import type { View } from '../../ir/op-def.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';

type TransView = View<typeof tt.TransOp.decl>;
type ConvertView = View<typeof ttg.ConvertLayoutOp.decl>;

/** The value before any `ttg.convert_layout`s (a tile in the layout it was produced in). */
function beforeConversion(v: Value): Value {
  for (let cvt = ttg.ConvertLayoutOp.match(v.definingOp); cvt; cvt = ttg.ConvertLayoutOp.match(v.definingOp)) v = cvt.src;
  return v;
}

/**
 * Rewrites `alloc` (a `ttg.local_alloc` of a `tt.trans` result, read only by `ttg.local_load`s,
 * with a rank-2 swizzled_shared encoding, or rank 3: a batched operand transposed to batch
 * first) into a view of an alloc of the transposition's source; returns whether it did.
 */
export function transposeInShared(op: Operation, rw: Rewriter): boolean {
  const alloc = ttg.LocalAllocOp.match(op);
  if (!alloc?.src) return false;
  const trans = tt.TransOp.match(alloc.src.definingOp);
  const memType = alloc.result.type;
  if (!trans || (trans.order.length !== 2 && trans.order.length !== 3)) return false;
  if (!(memType instanceof MemDescType) || !isLayout(memType.encoding, SWIZZLED_SHARED) || memType.rank !== trans.order.length) return false;
  if (!alloc.result.hasUses || !alloc.result.users().every((u) => ttg.LocalLoadOp.is(u))) return false;
  const order = [...trans.order];
  const src = beforeConversion(trans.src);
  const srcType = src.type as RankedTensorType;
  const enc = memType.encoding as StructAttr;
  const storedOrder = isDistributed(srcType.encoding) ? layoutOrder(srcType.encoding) : [...Array(srcType.rank).keys()].reverse();
  const stored = StructAttr.get(SWIZZLED_SHARED, { ...enc.values, order: storedOrder });
  const viewEnc = transposedSharedEncoding(stored, order);
  if (!viewEnc) return false;
  // %s = ttg.local_alloc (tt.trans %x) -> %s0 = ttg.local_alloc %x; %s = ttg.memdesc_trans %s0
  const storedType = MemDescType.get(srcType.shape, srcType.elementType, stored, memType.memorySpace, memType.mutable);
  const newAlloc = ttg.LocalAllocOp.build(rw.before(alloc.op), { src }, { results: { result: storedType }, attributes: alloc.op.attributes ?? {} });
  const viewType = MemDescType.get(memType.shape, memType.elementType, viewEnc, memType.memorySpace, memType.mutable);
  const view = ttg.MemdescTransOp.build(rw.before(alloc.op), { src: newAlloc.result, order: trans.order }, { results: { result: viewType } });
  rw.replaceAllUsesWith(alloc.result, view.result);
  rw.eraseOp(alloc.op);
  // The transposition (and conversions feeding only it) go when nothing else reads them.
  for (let dead: TransView | ConvertView | null = trans; dead && !dead.result.hasUses && dead.op !== src.definingOp; ) {
    const next = ttg.ConvertLayoutOp.match(dead.src.definingOp);
    rw.eraseOp(dead.op);
    dead = next;
  }
  return true;
}
