/**
 * `tt.histogram` (Triton's `tl.histogram`): counts in shared memory. The CTA zeroes its scratch
 * bins, every thread adds 1 to the bin of each element it holds (first copies only, where the
 * mask is on and the value is a bin: 0 <= v < bins, others are not counted) with `atom.shared.add`,
 * and each thread reads the bins its result registers hold. Barriers separate the phases and
 * fence the scratch from the ops before and after.
 */
import type { Value } from '../../ir/ir.js';
import { RankedTensorType } from '../../ir/types.js';
import * as tt from '../../dialects/tt/index.js';
import * as nvptx from '../../dialects/nvptx.js';
import { lowering, registerType, type Lowering } from './context.js';
import { I32, I64, targetError, widthOf } from './emitter.js';
import { loadShared, ownerGuard, scratchBase, storeShared } from './tensor.js';

/** tt.histogram %x, %mask : tensor<NxT> -> tensor<BxI>: zero B shared bins, atom.shared.add per element, read back */
const lowerHistogram = lowering(tt.HistogramOp, (ctx, h) => {
  const { op, src, mask, result } = h;
  const e = ctx.e;
  const rt = result.type as RankedTensorType;
  const bins = rt.shape[0];
  const count = registerType(rt);
  if (count !== I32 && count !== I64) throw targetError(op, `counts in '${rt.elementType}'; the nvptx target counts in i32 or i64`);
  const bytes = widthOf(count) / 8;
  const base = scratchBase(ctx, op, bins * bytes);
  const binAddress = (index: Value) => e.add(base, e.mulImm(index, bytes));
  const threads = ctx.numWarps * ctx.threadsPerWarp;
  // earlier readers of this scratch are done before it is zeroed
  e.barrier();
  for (let first = 0; first < bins; first += threads) {
    const index = e.addImm(ctx.tid(), first);
    const inside = first + threads > bins ? e.setp('lt', 'u', index, e.imm(I32, bins)) : undefined;
    storeShared(ctx, binAddress(index), e.imm(count, 0), inside);
  }
  e.barrier();
  const l = ctx.layoutOf(src, op);
  const values = ctx.get(src, op);
  const masks = mask ? ctx.get(mask, op) : null;
  const owner = ownerGuard(ctx, l);
  for (let r = 0; r < l.numRegs; r++) {
    if (r & l.dupRegMask) continue;
    const v = values[r].type === I32 ? values[r] : e.intCast(values[r], I32, 's');
    // unsigned: a negative value is a large one, outside the bins
    const isBin = e.setp('lt', 'u', v, e.imm(I32, bins));
    const guard = e.andPred(e.andPred(owner, masks ? masks[masks.length === 1 ? 0 : r] : undefined), isBin);
    nvptx.AtomOp.build(ctx.b, { addr: binAddress(v), guard, values: [e.imm(count, 1)], ptx: `shared.add.u${widthOf(count)}` }, { results: { dst: count } });
  }
  e.barrier();
  const out = ctx.layoutOf(result, op);
  ctx.set(result, out.regCoords.map((_, r) => loadShared(ctx, binAddress(ctx.coord(out, r, 0)), count)));
  // the bins are read before anything else writes this scratch
  e.barrier();
});

/** tt.histogram. */
export const HISTOGRAM_RULES: readonly Lowering[] = [lowerHistogram];
