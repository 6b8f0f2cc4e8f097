/**
 * Which thread holds which element: a distributed tensor's linear layout split into the part
 * each register adds (known at compile time) and the part the lane and warp ids add (computed
 * once per kernel from `%tid.x`). A register's element is the XOR of the two; where their bits
 * are disjoint (every blocked layout) the lowering adds instead, so ptxas folds constant parts
 * into address offsets.
 */
import type { Operation } from '../../ir/ir.js';
import { RankedTensorType } from '../../ir/types.js';
import { toLinearLayout, type LinearLayout } from '../../dialects/ttg/layout-lib.js';
import { dimName } from '../../dialects/ttg/layout-linear.js';
import { isDistributed } from '../../dialects/ttg/layout-attrs.js';
import { targetError } from './emitter.js';

/** A distributed tensor type's per-thread view. */
export interface RegLayout {
  readonly type: RankedTensorType;
  readonly shape: readonly number[];
  readonly ll: LinearLayout;
  /** Registers each thread holds. */
  readonly numRegs: number;
  /** `regCoords[r][d]`: what register r adds to coordinate d. */
  readonly regCoords: readonly number[][];
  /** `laneBases[k][d]` / `warpBases[k][d]`: what bit k of the lane / warp id adds to coordinate d. */
  readonly laneBases: readonly number[][];
  readonly warpBases: readonly number[][];
  /** Register ids whose bits select only broadcast (duplicate) copies: a set bit here marks a duplicate. */
  readonly dupRegMask: number;
  readonly dupLaneMask: number;
  readonly dupWarpMask: number;
  /** A stable key for caching per-layout values. */
  readonly key: string;
}

/** Reorders a basis from the layout's output order to dim0..dim{rank-1}. */
function byDim(ll: LinearLayout, rank: number): (b: readonly number[]) => number[] {
  const idx = Array.from({ length: rank }, (_, d) => ll.outs.findIndex((o) => o.name === dimName(d)));
  return (b) => idx.map((k) => (k < 0 ? 0 : b[k]));
}

const zeroMask = (bases: readonly number[][]): number => bases.reduce((m, b, k) => (b.every((x) => x === 0) ? m | (1 << k) : m), 0);

const cache = new WeakMap<RankedTensorType, RegLayout>();

/** The per-thread view of `type`; `op` is blamed when the type has no distributed layout. */
export function regLayout(type: RankedTensorType, op: Operation): RegLayout {
  const hit = cache.get(type);
  if (hit) return hit;
  const enc = type.encoding;
  if (!isDistributed(enc)) throw targetError(op, `cannot lower a tensor without a distributed layout, '${type}'; run convert-to-gpu first`);
  let ll: LinearLayout;
  try {
    ll = toLinearLayout(enc, type.shape);
  } catch (err) {
    throw targetError(op, `cannot lower the layout of '${type}': ${(err as Error).message}`);
  }
  const fix = byDim(ll, type.shape.length);
  const regBases = ll.bases('register').map(fix);
  const numRegs = 1 << regBases.length;
  const regCoords: number[][] = [new Array(type.shape.length).fill(0)];
  for (let r = 1; r < numRegs; r++) {
    const bit = 31 - Math.clz32(r);
    const prev = regCoords[r ^ (1 << bit)];
    regCoords.push(prev.map((c, d) => c ^ regBases[bit][d]));
  }
  const laneBases = ll.bases('lane').map(fix);
  const warpBases = ll.bases('warp').map(fix);
  const info: RegLayout = {
    type,
    shape: type.shape,
    ll,
    numRegs,
    regCoords,
    laneBases,
    warpBases,
    dupRegMask: zeroMask(regBases),
    dupLaneMask: zeroMask(laneBases),
    dupWarpMask: zeroMask(warpBases),
    key: `${type.shape.join('x')}|${laneBases.map((b) => b.join(',')).join(';')}|${warpBases.map((b) => b.join(',')).join(';')}`,
  };
  cache.set(type, info);
  return info;
}

/** Whether register parts and thread parts of coordinate `d` never share a bit (then `+` equals XOR). */
export function disjointBits(l: RegLayout, d: number): boolean {
  let reg = 0;
  for (const c of l.regCoords) reg |= c[d];
  let thread = 0;
  for (const b of [...l.laneBases, ...l.warpBases]) {
    if (thread & b[d]) return false;
    thread |= b[d];
  }
  return (reg & thread) === 0;
}

/** Row-major strides of `shape`. */
export function stridesOf(shape: readonly number[]): number[] {
  const out = new Array<number>(shape.length);
  let s = 1;
  for (let k = shape.length - 1; k >= 0; k--) ((out[k] = s), (s *= shape[k]));
  return out;
}

/** The row-major index of coordinates `c` in `shape`, dims in `drop` read as 0; -1 when `c` lies outside `shape`. */
export function coordIndex(shape: readonly number[], c: readonly number[], drop: readonly number[] = []): number {
  let index = 0;
  for (let d = 0; d < shape.length; d++) {
    const x = drop.length && drop.includes(d) ? 0 : c[d];
    if (!(x >= 0 && x < shape[d])) return -1;
    index = index * shape[d] + x;
  }
  return index;
}

/**
 * A map from a register's coordinates, as their `coordIndex` in `l.shape` (with dims in `drop`
 * zeroed), to the first register holding them.
 */
export function registersByCoords(l: RegLayout, drop: readonly number[] = []): Map<number, number> {
  const out = new Map<number, number>();
  l.regCoords.forEach((c, r) => {
    const key = coordIndex(l.shape, c, drop);
    if (!out.has(key)) out.set(key, r);
  });
  return out;
}

/**
 * Triton's deduplication of constant runs: for a value whose elements are equal within aligned runs
 * of `constancy[d]` along each dim d (axis info), the register each register may copy (the first
 * register of its run; itself where it starts one). Null when no register repeats another.
 */
export function constantRunSources(l: RegLayout, constancy: readonly number[]): Int32Array | null {
  // A thread's element is (lane/warp part) XOR (register part), so rounding a coordinate down to a
  // run boundary only rounds its register part: registers whose rounded parts agree share a run.
  const runs = l.shape.map((_, d) => powerOfTwoDividing(constancy[d] ?? 1));
  if (runs.every((run) => run === 1)) return null;
  const first = new Map<string, number>();
  const out = new Int32Array(l.numRegs);
  let repeats = false;
  l.regCoords.forEach((c, r) => {
    const key = c.map((x, d) => x & ~(runs[d] - 1)).join(',');
    const src = first.get(key);
    out[r] = src ?? r;
    if (src === undefined) first.set(key, r);
    else repeats = true;
  });
  return repeats ? out : null;
}

/**
 * The largest power of two dividing run length `n`, capped at 2^30 (aligned runs of it lie inside
 * the aligned runs of `n`; 1 for anything else).
 */
function powerOfTwoDividing(n: number): number {
  if (!Number.isSafeInteger(n) || n < 2) return 1;
  let p = 1;
  while (p < 2 ** 30 && n % (p * 2) === 0) p *= 2;
  return p;
}
