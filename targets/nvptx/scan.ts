/**
 * `tt.scan` (inclusive prefix along an axis) on registers. Along the axis a thread holds runs
 * of consecutive elements ("chunks", one per repetition of the layout's tile). Each chunk is
 * scanned in the thread, then across the warp's lanes (Hillis-Steele with `shfl.up`), then
 * across warps through scratch shared memory; the total of every chunk carries into the next.
 * Prefixes from other lanes, warps and chunks are joined with selects, since the combiner has
 * no known identity.
 *
 * A reverse scan (`reverse = true`: from the end, each element joined after the ones behind it, as
 * Triton's flip-scan-flip defines it) runs the same steps mirrored: registers from the highest
 * coordinate down, `shfl.down` from higher lanes, the first lane's total, later warps and later
 * chunks first.
 */
import type { Value } from '../../ir/ir.js';
import type { Type } from '../../ir/types.js';
import * as tt from '../../dialects/tt/index.js';
import { scanChunks } from '../../passes/support/alloc-shared-scratch.js';
import { lowering, registerType, type Lowering } from './context.js';
import { I1, I32, targetError } from './emitter.js';
import { combiner, shuffle } from './reduce.js';
import { loadShared, scratchBase, smemBytes, storeShared } from './tensor.js';

/** A tuple of registers (one per scanned operand) that may be absent: `has` is known (boolean) or a predicate. */
interface Partial {
  has: Value | boolean;
  v: Value[];
}

/** The lane bits moving along `axis`: consecutive lane-id bits with increasing powers of two, else null. */
function laneRun(bases: readonly number[][], axis: number): { first: number; count: number } | null {
  const ks = bases.flatMap((b, k) => (b[axis] !== 0 ? [k] : []));
  if (!ks.length) return { first: 0, count: 0 };
  for (let j = 0; j < ks.length; j++) {
    const b = bases[ks[j]];
    if (ks[j] !== ks[0] + j || b[axis] !== bases[ks[0]][axis] << j || b.some((x, d) => d !== axis && x !== 0)) return null;
  }
  return { first: ks[0], count: ks.length };
}

/** tt.scan -> in-thread, lane (shfl.up; reverse: shfl.down) and warp (one scratch round) prefixes, for every chunk. */
const lowerScan = lowering(tt.ScanOp, (ctx, scan) => {
  const e = ctx.e;
  const { op, axis, srcs } = scan;
  const rev = scan.reverse;
  const l = ctx.layoutOf(srcs[0], op);
  const regs = srcs.map((v) => ctx.get(v, op));
  const types: Type[] = srcs.map((v) => registerType(v.type));
  const combine = combiner(ctx, op, scan.combineOp.entry!);
  const lanes = laneRun(l.laneBases, axis);
  const warps = laneRun(l.warpBases, axis);
  if (!lanes || !warps || l.dupRegMask || l.dupLaneMask || l.dupWarpMask) throw targetError(op, `cannot scan the layout of '${srcs[0].type}' along axis ${axis}`);
  const threadAxis = [...l.laneBases, ...l.warpBases].reduce((m, b) => m | b[axis], 0);
  const lowest = threadAxis & -threadAxis;
  for (const c of l.regCoords) if (c[axis] & threadAxis) throw targetError(op, `cannot scan the layout of '${srcs[0].type}': registers and threads interleave along the axis`);

  /** `a` then `b`, where either may be absent. */
  const join = (a: Partial, b: Partial): Partial => {
    if (a.has === false) return b;
    if (b.has === false) return a;
    const both = combine(a.v, b.v);
    if (a.has === true && b.has === true) return { has: true, v: both };
    const v = both.map((x, j) => {
      const ifA = a.has === true ? x : e.selp(a.has as Value, x, b.v[j]);
      return b.has === true ? ifA : e.selp(b.has as Value, ifA, a.v[j]);
    });
    const has = a.has === true || b.has === true ? true : e.op('or', 'pred', [a.has as Value, b.has as Value], I1);
    return { has, v };
  };
  /** `x` where it is present, else `y` (both present). */
  const choose = (p: Value | boolean, x: Value[], y: Value[]): Value[] => (p === true ? x : p === false ? y : x.map((v, j) => e.selp(p, v, y[j])));

  const L = 1 << lanes.count;
  const laneIdx = lanes.count ? e.and(e.shrU(ctx.laneId(), lanes.first), e.imm(I32, L - 1)) : null;
  const W = 1 << warps.count;
  const warpIdx = warps.count ? e.and(e.shrU(ctx.warpId(), warps.first), e.imm(I32, W - 1)) : null;
  const chunksPerGroup = scanChunks(l.type, axis);
  const offAxis = l.shape.reduce((p, n, d) => (d === axis ? p : p * n), 1);
  const bytesEach = types.map((t) => chunksPerGroup * W * offAxis * smemBytes(t));
  const base = W > 1 ? scratchBase(ctx, op, bytesEach.reduce((a, b) => a + b, 0)) : null;
  const starts = bytesEach.map((_, j) => bytesEach.slice(0, j).reduce((a, b) => a + b, 0));
  const slotAddr = (slot: Value, j: number) => e.add(base!, e.addImm(e.mulImm(slot, smemBytes(types[j])), starts[j]));
  // The lane whose inclusive prefix is the warp's total: the last of the run (reverse: the first).
  const laneBits = (L - 1) << lanes.first;
  const totalLane = lanes.count ? (rev ? e.and(ctx.laneId(), e.imm(I32, ~laneBits)) : e.or(ctx.laneId(), e.imm(I32, laneBits))) : null;
  const isTotalLane = lanes.count ? e.setp('eq', 'u', laneIdx!, e.imm(I32, rev ? 0 : L - 1)) : undefined;
  /** Lanes `s` steps behind in scan order (reverse: ahead in lane order), and whether they exist. */
  const fromBehind = (x: Value, s: number): Value => (rev ? shuffle(ctx, x, 'down', s << lanes.first, 0x1f) : shuffle(ctx, x, 'up', s << lanes.first, 0));
  const hasBehind = (s: number): Value => (rev ? e.setp('lt', 'u', laneIdx!, e.imm(I32, L - s)) : e.setp('ge', 'u', laneIdx!, e.imm(I32, s)));
  /** Ascending, or descending for a reverse scan. */
  const inScanOrder = (a: number, b: number): number => (rev ? b - a : a - b);

  // Group registers by their non-axis coordinates, then by chunk (axis bits above the threads).
  const groups = new Map<string, Map<number, number[]>>();
  l.regCoords.forEach((c, r) => {
    const key = c.map((x, d) => (d === axis ? 0 : x)).join(',');
    const chunk = threadAxis ? c[axis] & ~(lowest - 1) : 0;
    const g = groups.get(key) ?? groups.set(key, new Map()).get(key)!;
    (g.get(chunk) ?? g.set(chunk, []).get(chunk)!).push(r);
  });

  /** Per chunk of one group: the thread's inclusive prefixes, the earlier lanes' prefix and the warp's total. */
  interface ChunkState {
    rs: number[];
    inner: Value[][];
    laneExcl: Partial;
    warpTotal: Value[];
  }
  const states: { rs0: number; chunks: ChunkState[] }[] = [];
  for (const chunks of groups.values()) {
    const list: ChunkState[] = [];
    for (const chunk of [...chunks.keys()].sort(inScanOrder)) {
      const rs = chunks.get(chunk)!.sort((a, b) => inScanOrder(l.regCoords[a][axis], l.regCoords[b][axis]));
      const inner: Value[][] = [];
      for (const r of rs) inner.push(inner.length ? combine(inner[inner.length - 1], regs.map((x) => x[r])) : regs.map((x) => x[r]));
      let incl = inner[inner.length - 1];
      for (let s = 1; s < L; s <<= 1) {
        const from = incl.map((x) => fromBehind(x, s));
        incl = choose(hasBehind(s), combine(from, incl), incl);
      }
      const laneExcl: Partial = lanes.count ? { has: hasBehind(1), v: incl.map((x) => fromBehind(x, 1)) } : { has: false, v: incl };
      const warpTotal = lanes.count ? incl.map((x) => shuffle(ctx, x, 'idx', totalLane!, 0x1f)) : incl;
      list.push({ rs, inner, laneExcl, warpTotal });
    }
    states.push({ rs0: [...chunks.values()][0][0], chunks: list });
  }

  // One scratch round: every warp's last lane publishes each chunk's warp total.
  const slot = (flat: Value, chunk: number, w: Value | number) => e.add(flat, typeof w === 'number' ? e.imm(I32, (chunk * W + w) * offAxis) : e.addImm(e.mulImm(w, offAxis), chunk * W * offAxis));
  const flats = states.map((g) => (W > 1 ? ctx.rowMajorIndex(l, g.rs0, axis) : null));
  if (W > 1) {
    for (const [gi, g] of states.entries()) {
      const flat = flats[gi]!;
      g.chunks.forEach((c, k) => c.warpTotal.forEach((x, j) => storeShared(ctx, slotAddr(slot(flat, k, warpIdx!), j), x, isTotalLane)));
    }
    e.barrier();
  }

  const out: Value[][] = srcs.map(() => new Array(l.numRegs));
  for (const [gi, g] of states.entries()) {
    const flat = flats[gi];
    let carry: Partial = { has: false, v: [] };
    g.chunks.forEach((c, k) => {
      let warpPrefix: Partial = { has: false, v: [] };
      let chunkTotal = c.warpTotal;
      if (W > 1) {
        const parts = Array.from({ length: W }, (_, w) => types.map((t, j) => loadShared(ctx, slotAddr(slot(flat!, k, w), j), t)));
        // the warps in scan order: the ones before this warp's make its prefix, all of them the chunk's total
        const order = Array.from({ length: W }, (_, w) => (rev ? W - 1 - w : w));
        for (const [n, w] of order.entries()) {
          const before = rev ? e.setp('gt', 'u', e.imm(I32, w), warpIdx!) : e.setp('lt', 'u', e.imm(I32, w), warpIdx!);
          const next = join(warpPrefix, { has: true, v: parts[w] });
          warpPrefix = { has: n === 0 ? before : e.op('or', 'pred', [warpPrefix.has as Value, before], I1), v: n === 0 ? parts[w] : choose(before, next.v, warpPrefix.v) };
        }
        chunkTotal = order.slice(1).reduce((a, w) => combine(a, parts[w]), parts[order[0]]);
      }
      const prefix = join(join(carry, warpPrefix), c.laneExcl);
      c.inner.forEach((v, i) => {
        const withPrefix = prefix.has === false ? v : choose(prefix.has, combine(prefix.v, v), v);
        withPrefix.forEach((x, j) => (out[j][c.rs[i]] = x));
      });
      carry = join(carry, { has: true, v: chunkTotal });
    });
  }
  scan.result.forEach((res, j) => ctx.set(res, out[j]));
});

/** Scans. */
export const SCAN_RULES: readonly Lowering[] = [lowerScan];
