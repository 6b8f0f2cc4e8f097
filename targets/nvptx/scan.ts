/**
 * `tt.scan` (inclusive prefix along an axis) on registers. Along the axis a thread holds runs
 * of consecutive elements ("chunks", one per repetition of the layout's tile). Each chunk is
 * scanned in the thread, then across the warp's lanes (Hillis-Steele with `shfl.up`), then
 * across warps through scratch shared memory; the total of every chunk carries into the next.
 * Prefixes from other lanes, warps and chunks are joined with selects, since the combiner has
 * no known identity.
 */
import { IntegerAttr } from '../../ir/attributes.js';
import type { Value } from '../../ir/ir.js';
import type { Type } from '../../ir/types.js';
import { registerType, type LowerRule } from './context.js';
import { I1, I32, targetError } from './emitter.js';
import { shuffle } from './reduce.js';
import { loadShared, scratchAt, smemBytes, storeShared } from './tensor.js';

/** A tuple of registers (one per scanned operand) that may be absent at run time. */
interface Partial {
  has: Value;
  v: Value[];
}

/** The lane bits moving along `axis`: consecutive lane-id bits with increasing powers of two, else null. */
function laneRun(bases: readonly number[][], axis: number): { first: number; count: number; unit: number } | null {
  const ks = bases.flatMap((b, k) => (b[axis] !== 0 ? [k] : []));
  if (!ks.length) return { first: 0, count: 0, unit: 1 };
  for (let j = 0; j < ks.length; j++) {
    const b = bases[ks[j]];
    if (ks[j] !== ks[0] + j || b[axis] !== bases[ks[0]][axis] << j || b.some((x, d) => d !== axis && x !== 0)) return null;
  }
  return { first: ks[0], count: ks.length, unit: bases[ks[0]][axis] };
}

/** tt.scan -> in-thread, lane (shfl.up) and warp (scratch) prefixes, chunk by chunk. */
const lowerScan: LowerRule = (ctx, op) => {
  const e = ctx.e;
  const axis = Number((op.getAttr('axis') as IntegerAttr).value);
  if (op.getAttr('reverse') instanceof IntegerAttr && Number((op.getAttr('reverse') as IntegerAttr).value) !== 0)
    throw targetError(op, 'reverse scans are not lowered by the nvptx target yet');
  const srcs = op.operandValues();
  const l = ctx.layoutOf(srcs[0], op);
  const regs = srcs.map((v) => ctx.get(v, op));
  const types: Type[] = srcs.map((v) => registerType(v.type));
  const block = op.region(0).entry!;
  const combine = (a: Value[], b: Value[]) => ctx.inlineRegion(block, [...a, ...b].map((v) => [v]), op).map((r) => r[0]);
  const lanes = laneRun(l.laneBases, axis);
  const warps = laneRun(l.warpBases, axis);
  if (!lanes || !warps || l.dupRegMask || l.dupLaneMask || l.dupWarpMask) throw targetError(op, `cannot scan the layout of '${srcs[0].type}' along axis ${axis}`);
  const threadAxis = [...l.laneBases, ...l.warpBases].reduce((m, b) => m | b[axis], 0);
  const lowest = threadAxis & -threadAxis;
  // Register bits along the axis must lie below the thread bits (inner run) or above them (chunks).
  for (const c of l.regCoords) if (c[axis] & threadAxis) throw targetError(op, `cannot scan the layout of '${srcs[0].type}': registers and threads interleave along the axis`);

  /** `a` then `b`, where either may be absent. */
  const join = (a: Partial, b: Partial): Partial => {
    const both = combine(a.v, b.v);
    const v = both.map((x, j) => e.selp(a.has, e.selp(b.has, x, a.v[j]), b.v[j]));
    return { has: e.op('or', 'pred', [a.has, b.has], I1), v };
  };
  const yes = e.imm(I1, 1);
  const no = e.imm(I1, 0);

  const laneIdx = lanes.count ? e.and(e.shrU(ctx.laneId(), lanes.first), e.imm(I32, (1 << lanes.count) - 1)) : null;
  const W = 1 << warps.count;
  const warpIdx = warps.count ? e.and(e.shrU(ctx.warpId(), warps.first), e.imm(I32, W - 1)) : null;
  const offAxis = l.shape.reduce((p, n, d) => (d === axis ? p : p * n), 1);
  const bytesEach = types.map((t) => W * offAxis * smemBytes(t));
  const base = W > 1 ? e.addImm(ctx.smemBase(), scratchAt(ctx, op, bytesEach.reduce((a, b) => a + b, 0))) : null;
  const starts = bytesEach.map((_, j) => bytesEach.slice(0, j).reduce((a, b) => a + b, 0));
  const slotAddr = (slot: Value, j: number) => e.add(base!, e.addImm(e.mulImm(slot, smemBytes(types[j])), starts[j]));

  // Group registers by their non-axis coordinates, then by chunk (axis bits above the threads).
  const groups = new Map<string, Map<number, number[]>>();
  l.regCoords.forEach((c, r) => {
    const key = c.map((x, d) => (d === axis ? 0 : x)).join(',');
    const chunk = threadAxis ? c[axis] & ~(lowest - 1) : 0;
    const g = groups.get(key) ?? groups.set(key, new Map()).get(key)!;
    (g.get(chunk) ?? g.set(chunk, []).get(chunk)!).push(r);
  });
  const out: Value[][] = srcs.map(() => new Array(l.numRegs));
  let first = true;
  for (const chunks of groups.values()) {
    let carry: Partial = { has: no, v: types.map((t) => e.imm(t, 0)) };
    for (const chunk of [...chunks.keys()].sort((a, b) => a - b)) {
      const rs = chunks.get(chunk)!.sort((a, b) => l.regCoords[a][axis] - l.regCoords[b][axis]);
      // 1. in the thread
      const inner: Value[][] = [];
      for (const r of rs) inner.push(inner.length ? combine(inner[inner.length - 1], regs.map((x) => x[r])) : regs.map((x) => x[r]));
      const total = inner[inner.length - 1];
      // 2. across lanes: inclusive Hillis-Steele on the chunk totals, then shift by one lane
      let incl = total;
      for (let s = 1; s < 1 << lanes.count; s <<= 1) {
        const from = incl.map((x) => shuffle(ctx, x, 'up', s << lanes.first, 0));
        const ok = e.setp('ge', 'u', laneIdx!, e.imm(I32, s));
        const both = combine(from, incl);
        incl = both.map((x, j) => e.selp(ok, x, incl[j]));
      }
      const laneExcl: Partial = lanes.count
        ? { has: e.setp('gt', 'u', laneIdx!, e.imm(I32, 0)), v: incl.map((x) => shuffle(ctx, x, 'up', 1 << lanes.first, 0)) }
        : { has: no, v: total };
      // 3. across warps: the last lane of each warp publishes its warp's total
      let warpPrefix: Partial = { has: no, v: total };
      let chunkTotal: Value[];
      const lastLane = e.or(ctx.laneId(), e.imm(I32, ((1 << lanes.count) - 1) << lanes.first));
      const warpTotal = lanes.count ? incl.map((x) => shuffle(ctx, x, 'idx', lastLane, 0x1f)) : incl;
      if (W > 1) {
        if (!first) e.barrier();
        const r0 = rs[0];
        let flat: Value = e.imm(I32, 0);
        let stride = 1;
        for (let d = l.shape.length - 1; d >= 0; d--) {
          if (d === axis) continue;
          flat = e.add(flat, e.mulImm(ctx.coord(l, r0, d), stride));
          stride *= l.shape[d];
        }
        const isLast = lanes.count ? e.setp('eq', 'u', laneIdx!, e.imm(I32, (1 << lanes.count) - 1)) : yes;
        warpTotal.forEach((x, j) => storeShared(ctx, slotAddr(e.add(e.mulImm(warpIdx!, offAxis), flat), j), x, isLast));
        e.barrier();
        const parts = Array.from({ length: W }, (_, w) => types.map((t, j) => loadShared(ctx, slotAddr(e.addImm(flat, w * offAxis), j), t)));
        for (let w = 0; w < W; w++) {
          const before = e.setp('lt', 'u', e.imm(I32, w), warpIdx!);
          const next = join(warpPrefix, { has: yes, v: parts[w] });
          warpPrefix = { has: e.op('or', 'pred', [warpPrefix.has, before], I1), v: next.v.map((x, j) => e.selp(before, x, warpPrefix.v[j])) };
        }
        chunkTotal = parts.slice(1).reduce((a, b) => combine(a, b), parts[0]);
        first = false;
      } else {
        chunkTotal = warpTotal;
      }
      // 4. this element = carry, then earlier warps, then earlier lanes, then the thread's own prefix
      const prefix = join(join(carry, warpPrefix), laneExcl);
      inner.forEach((v, i) => {
        const withPrefix = combine(prefix.v, v);
        withPrefix.forEach((x, j) => (out[j][rs[i]] = e.selp(prefix.has, x, v[j])));
      });
      carry = join(carry, { has: yes, v: chunkTotal });
    }
  }
  op.results.forEach((res, j) => ctx.set(res, out[j]));
};

/** Scans, by op name. */
export const SCAN_RULES: Record<string, LowerRule> = {
  'tt.scan': lowerScan,
};
