/**
 * `tt.gather` (Triton's `tl.gather`): through shared memory. The CTA stores its source tensor
 * row-major in the op's scratch (first copies only); each thread then reads, for every result
 * register, the source element at that register's coordinates with the one along `axis` replaced
 * by the register's index. Barriers fence the scratch from the ops before and after. An index
 * outside the source is undefined, as in Triton (the interpreter reports it).
 */
import type { Value } from '../../ir/ir.js';
import { RankedTensorType } from '../../ir/types.js';
import * as tt from '../../dialects/tt/index.js';
import { lowering, registerType, type Lowering } from './context.js';
import { I32 } from './emitter.js';
import { stridesOf } from './layout.js';
import { loadShared, ownerGuard, scratchBase, smemBytes, storeShared } from './tensor.js';

/** tt.gather %src[%idx] {axis} -> st.shared of %src row-major, then ld.shared at (coords, axis := idx) */
const lowerGather = lowering(tt.GatherOp, (ctx, g) => {
  const { op, src, indices, result, axis } = g;
  const e = ctx.e;
  const srcType = src.type as RankedTensorType;
  const bytes = smemBytes(srcType.elementType);
  const numel = srcType.shape.reduce((a, b) => a * b, 1);
  const base = scratchBase(ctx, op, numel * bytes);
  const at = (flat: Value) => e.add(base, e.mulImm(flat, bytes));
  // earlier readers of this scratch are done before it is written
  e.barrier();
  const ls = ctx.layoutOf(src, op);
  const values = ctx.get(src, op);
  const owner = ownerGuard(ctx, ls);
  for (let r = 0; r < ls.numRegs; r++) {
    if (r & ls.dupRegMask) continue;
    storeShared(ctx, at(ctx.rowMajorIndex(ls, r)), values[r], owner);
  }
  e.barrier();
  const lr = ctx.layoutOf(result, op);
  const index = ctx.get(indices, op);
  const strides = stridesOf(srcType.shape);
  const t = registerType(srcType);
  const out = lr.regCoords.map((_, r) => {
    let flat: Value | null = null;
    for (let d = 0; d < strides.length; d++) {
      const i = index[r];
      const coord = d === axis ? (i.type === I32 ? i : e.intCast(i, I32, 's')) : ctx.coord(lr, r, d);
      const term = e.mulImm(coord, strides[d]);
      flat = flat ? e.add(flat, term) : term;
    }
    return loadShared(ctx, at(flat!), t);
  });
  // every read is done before anything else writes this scratch
  e.barrier();
  ctx.set(result, out);
});

/** tt.gather. */
export const GATHER_RULES: readonly Lowering[] = [lowerGather];
