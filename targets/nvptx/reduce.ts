/**
 * `tt.reduce` and `tt.scan` on registers, the way Triton does them: first within a thread,
 * then across the lanes of a warp with shuffles, then across warps through the scratch shared
 * memory alloc-shared gave the op. The combiner region is lowered inline at every step.
 */
import type { Block, Operation, Value } from '../../ir/ir.js';
import { RankedTensorType, type Type } from '../../ir/types.js';
import * as tt from '../../dialects/tt/index.js';
import { lowering, registerType, type Lowering, type LoweringContext } from './context.js';
import { I1, I16, I32, I64, internalError, widthOf } from './emitter.js';
import { loadShared, scratchBase, smemBytes, storeShared } from './tensor.js';

/** A shuffle of any register type: narrow values widen to 32 bits, 64-bit values go in two halves. */
export function shuffle(ctx: LoweringContext, v: Value, mode: string, lane: number | Value, clamp: number): Value {
  const e = ctx.e;
  const t = v.type;
  if (t === I1) return e.setp('ne', 'b', e.shfl(mode, e.selp(v, e.imm(I32, 1), e.imm(I32, 0)), lane, clamp), e.imm(I32, 0));
  const w = widthOf(t);
  if (w === 32) {
    if (t === I32) return e.shfl(mode, v, lane, clamp);
    return e.op('mov', 'b32', [e.shfl(mode, e.op('mov', 'b32', [v], I32), lane, clamp)], t);
  }
  if (w === 16) {
    const wide = e.op('cvt', 'u32.u16', [t === I16 ? v : e.op('mov', 'b16', [v], I16)], I32);
    const back = e.op('cvt', 'u16.u32', [e.shfl(mode, wide, lane, clamp)], I16);
    return t === I16 ? back : e.op('mov', 'b16', [back], t);
  }
  if (w === 64) {
    const moved = e.unpack('b64', v, [I32, I32]).map((h) => e.shfl(mode, h, lane, clamp));
    const joined = e.pack('b64', moved, I64);
    return t === I64 ? joined : e.op('mov', 'b64', [joined], t);
  }
  // Caught by the lowering driver, which reports it as an internal error at the op being lowered.
  throw new Error(`cannot shuffle '${t}'`);
}


/** Applies combiner region `block` of `op` to two tuples of registers (one per operand). */
export function combiner(ctx: LoweringContext, op: Operation, block: Block): (a: Value[], b: Value[]) => Value[] {
  return (a, b) => ctx.inlineRegion(block, [...a, ...b].map((v) => [v]), op).map((r) => r[0]);
}

/** Bits of `id` at the positions where `bases` move along `axis`, packed from bit 0 (the warp's index along the axis). */
function indexAlong(ctx: LoweringContext, id: Value, bases: readonly number[][], axis: number): Value {
  const e = ctx.e;
  let acc: Value | null = null;
  let out = 0;
  bases.forEach((b, k) => {
    if (b[axis] === 0) return;
    const bit = e.and(e.shrU(id, k), e.imm(I32, 1));
    const term = e.shl(bit, out++);
    acc = acc ? e.or(acc, term) : term;
  });
  return acc ?? e.imm(I32, 0);
}

const keyWithout = (c: readonly number[], axis: number): string => c.map((x, d) => (d === axis ? 0 : x)).join(',');
const keyOfResult = (c: readonly number[], axis: number): string => [...c.slice(0, axis), 0, ...c.slice(axis)].join(',');

/** tt.reduce: thread, warp (butterfly shuffles), then block (scratch) levels. */
const lowerReduce = lowering(tt.ReduceOp, (ctx, reduce) => {
  const { op, axis, srcs, result: results } = reduce;
  const l = ctx.layoutOf(srcs[0], op);
  const regs = srcs.map((v) => ctx.get(v, op));
  const combine = combiner(ctx, op, reduce.combineOp.entry!);

  // 1. within a thread: fold the registers that differ only along the axis.
  const groups = new Map<string, number[]>();
  for (let r = 0; r < l.numRegs; r++) {
    if (r & l.dupRegMask) continue;
    const key = keyWithout(l.regCoords[r], axis);
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(r);
  }
  const acc = new Map<string, Value[]>();
  for (const [key, rs] of groups) {
    rs.sort((a, b) => l.regCoords[a][axis] - l.regCoords[b][axis]);
    let v = regs.map((x) => x[rs[0]]);
    for (const r of rs.slice(1)) v = combine(v, regs.map((x) => x[r]));
    acc.set(key, v);
  }

  // 2. across lanes: butterfly over each lane bit that moves along the axis.
  l.laneBases.forEach((b, k) => {
    if (b[axis] === 0) return;
    for (const [key, v] of acc) acc.set(key, combine(v, v.map((x) => shuffle(ctx, x, 'bfly', 1 << k, 0x1f))));
  });

  const outLayouts = results.map((res) => (res.type instanceof RankedTensorType ? ctx.layoutOf(res, op) : null));
  const outRegs = (k: number) => (outLayouts[k] ? outLayouts[k]!.numRegs : 1);
  const warpsAlong = l.warpBases.filter((b) => b[axis] !== 0).length;

  if (warpsAlong === 0) {
    results.forEach((res, j) => {
      const ol = outLayouts[j];
      const out: Value[] = [];
      for (let r = 0; r < outRegs(j); r++) {
        const key = ol ? keyOfResult(ol.regCoords[r], axis) : keyWithout(l.regCoords[0], axis);
        const v = acc.get(key);
        if (!v) throw internalError(op, `result register ${r} has no source group ${key}`);
        out.push(v[j]);
      }
      ctx.set(res, out);
    });
    return;
  }

  // 3. across warps: one partial per warp along the axis and non-axis element, through scratch.
  const e = ctx.e;
  const W = 1 << warpsAlong;
  const offAxis = l.shape.reduce((p, n, d) => (d === axis ? p : p * n), 1);
  const types: Type[] = srcs.map((v) => registerType(v.type));
  const sizes = types.map((t) => W * offAxis * smemBytes(t));
  const base = scratchBase(ctx, op, sizes.reduce((a, b) => a + b, 0));
  const starts = sizes.map((_, j) => sizes.slice(0, j).reduce((a, b) => a + b, 0));
  const laneAxisMask = l.laneBases.reduce((m, b, k) => (b[axis] !== 0 ? m | (1 << k) : m), 0);
  const writer = ctx.hoist(`reduce-writer:${l.key}:${axis}`, () => {
    const bits = e.or(e.and(ctx.laneId(), e.imm(I32, laneAxisMask | l.dupLaneMask)), e.shl(e.and(ctx.warpId(), e.imm(I32, l.dupWarpMask)), Math.log2(ctx.threadsPerWarp)));
    return e.setp('eq', 'b', bits, e.imm(I32, 0));
  });
  const warpIdx = ctx.hoist(`reduce-warp:${l.key}:${axis}`, () => indexAlong(ctx, ctx.warpId(), l.warpBases, axis));
  for (const [key, v] of acc) {
    const r = groups.get(key)![0];
    const slot = e.add(e.mulImm(warpIdx, offAxis), ctx.rowMajorIndex(l, r, axis));
    v.forEach((x, j) => storeShared(ctx, e.add(base, e.addImm(e.mulImm(slot, smemBytes(types[j])), starts[j])), x, writer));
  }
  e.barrier();
  const outs: Value[][] = results.map(() => []);
  for (let r = 0; r < outRegs(0); r++) {
    const idx = outLayouts[0] ? ctx.rowMajorIndex(outLayouts[0], r) : e.imm(I32, 0);
    let v: Value[] | null = null;
    for (let w = 0; w < W; w++) {
      const slot = e.addImm(idx, w * offAxis);
      const part = types.map((t, j) => loadShared(ctx, e.add(base, e.addImm(e.mulImm(slot, smemBytes(t)), starts[j])), t));
      v = v ? combine(v, part) : part;
    }
    v!.forEach((x, j) => outs[j].push(x));
  }
  results.forEach((res, j) => ctx.set(res, outs[j]));
});

/** Reductions. */
export const REDUCE_RULES: readonly Lowering[] = [lowerReduce];
