/**
 * `tt.dot` on CUDA cores (Triton's FMA path): operands in `#ttg.dot_op` layouts whose parent is
 * the accumulator's blocked layout, so the thread holding C[m, n] holds row m of A and column n
 * of B for every k, and computes C[m, n] += A[m, k] * B[k, n] with `fma.rn.f32` (integers: the
 * operands sign-extended to the i32 or i64 accumulator's width, `mad.lo.s32`/`.s64`). A batched
 * (rank-3) dot has a leading batch dimension (C[z, m, n] += A[z, m, k] * B[z, k, n]) on a rank-3
 * blocked parent: each batch is an independent 2-D product, so the thread holding C[z, m, n]
 * must hold A's row (z, m) and B's column (z, n). An accumulator in `#ttg.nvidia_mma` (the
 * mma-lowering pass's choice) goes to tensor cores (mma.ts).
 */
import type { Value } from '../../ir/ir.js';
import { isLayout, BLOCKED, DOT_OP } from '../../dialects/ttg/layout-attrs.js';
import type { StructAttr } from '../../dialects/ttg/struct-attr.js';
import { FloatType, IntegerType, RankedTensorType } from '../../ir/types.js';
import * as tt from '../../dialects/tt/index.js';
import { lowering, type Lowering } from './context.js';
import { convert } from './elementwise.js';
import { F32, F64, fromF32, targetError, toF32 } from './emitter.js';
import { coordIndex, registersByCoords, type RegLayout } from './layout.js';
import { isMmaDot, lowerMmaDot } from './mma.js';

/** Whether the lanes and warps of operand `l` cover dims `keep` like the accumulator's and broadcast along dim `k`. */
function threadsMatch(l: RegLayout, c: RegLayout, keep: readonly number[], k: number): boolean {
  const same = (xs: readonly number[][], ys: readonly number[][]) => xs.length === ys.length && xs.every((b, i) => keep.every((d) => b[d] === ys[i][d]) && b[k] === 0);
  return same(l.laneBases, c.laneBases) && same(l.warpBases, c.warpBases);
}

/** tt.dot %a, %b, %c (FMA path) -> per accumulator register, K fused multiply-adds. */
const lowerDot = lowering(tt.DotOp, (ctx, dot) => {
  if (isMmaDot(dot)) return lowerMmaDot(ctx, dot);
  const { op, a, b, c } = dot;
  const ct = c.type as RankedTensorType;
  const enc = (v: Value) => (v.type as RankedTensorType).encoding;
  const rank = ct.shape.length;
  if (rank !== 2 && rank !== 3) throw targetError(op, `cannot lower a rank-${rank} tt.dot ('${ct}'); ranks 2 and 3 (batched) are supported`);
  if (!isLayout(enc(c), BLOCKED))
    throw targetError(op, `cannot lower tt.dot with accumulator layout '${enc(c)}' on CUDA cores; the tensor-core path (mma-lowering) handles #ttg.nvidia_mma`);
  for (const v of [a, b]) {
    const e = enc(v);
    if (!isLayout(e, DOT_OP) || (e as StructAttr).attr('parent') !== enc(c)) throw targetError(op, `operand '${v.type}' must have a #ttg.dot_op layout whose parent is the accumulator's`);
  }
  const outT = ct.elementType;
  const intWidth = outT instanceof IntegerType ? outT.width : 0;
  if (!(outT instanceof FloatType) && intWidth !== 32 && intWidth !== 64) {
    throw targetError(op, `cannot lower a tt.dot with a '${outT}' accumulator on CUDA cores; floats, i32 and i64 are supported`);
  }
  const e = ctx.e;
  const [la, lb, lc] = [a, b, c].map((v) => ctx.layoutOf(v, op));
  // Dims of A, B and C: batch (rank 3 only), then M x K, K x N, M x N.
  const z = rank - 2;
  const batch = rank === 3 ? [0] : [];
  if (!threadsMatch(la, lc, [...batch, z], z + 1) || !threadsMatch(lb, lc, [...batch, z + 1], z))
    throw targetError(op, 'operand layouts do not give each thread the rows and columns of its accumulator elements');
  const K = la.shape[z + 1];
  const aRegs = ctx.get(a, op);
  const bRegs = ctx.get(b, op);
  const cRegs = ctx.get(c, op);
  const aBy = registersByCoords(la);
  const bBy = registersByCoords(lb);
  const wide = intWidth ? outT : outT === F64 ? F64 : F32;
  // Triton's integer dots are signed: i8 operands sign-extend into an i32 accumulator.
  const widen = (v: Value) =>
    intWidth ? convert(e, v, outT, true, op) : wide === F64 ? (v.type === F64 ? v : e.op('cvt', 'f64.f32', [toF32(e, v)], F64)) : toF32(e, v);
  const step = intWidth ? `lo.s${intWidth}` : `rn.${wide === F64 ? 'f64' : 'f32'}`;
  const aWide = new Map<number, Value>();
  const bWide = new Map<number, Value>();
  const get = (cache: Map<number, Value>, regs: Value[], r: number) => cache.get(r) ?? (cache.set(r, widen(regs[r])), cache.get(r)!);
  const out = lc.regCoords.map((co, r) => {
    const [m, n] = co.slice(z);
    const batch = co.slice(0, z);
    let sum = widen(cRegs[r]);
    for (let k = 0; k < K; k++) {
      const ar = aBy.get(coordIndex(la.shape, [...batch, m, k]));
      const br = bBy.get(coordIndex(lb.shape, [...batch, k, n]));
      if (ar === undefined || br === undefined) throw targetError(op, `operand registers for C[${co.join(', ')}] at k = ${k} are missing from the dot_op layouts`);
      sum = e.op(intWidth ? 'mad' : 'fma', step, [get(aWide, aRegs, ar), get(bWide, bRegs, br), sum], wide);
    }
    return wide === outT ? sum : fromF32(e, sum, outT);
  });
  ctx.set(dot.d, out);
});

/** Matrix products. */
export const DOT_RULES: readonly Lowering[] = [lowerDot];

