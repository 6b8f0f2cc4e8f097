/**
 * Arrows of the layered placement of `--view-op-graph` (`op-graph-place.ts`): each leaves its
 * source at a port on the bottom side, runs down through the rows it crosses (at its dummies'
 * x) and enters its target at a port on the top side. In the gap between two rows, a short jog
 * is an S-curve; a longer one runs on a horizontal track of its own, so no two arrows share a
 * horizontal stretch, and each gap is as tall as its tracks need.
 */
import type { LayeredGraph } from './op-graph-layers.js';
import type { Point } from './op-graph-model.js';

/** Widest spacing of the ports of a box side. */
const PORT_STEP = 20;
/** Closest spacing of two ports; arrows share ports beyond that. */
const MIN_PORT_STEP = 4;
/** Shortest gap between two rows. */
const MIN_GAP = 40;
/** Room above the first track and below the last. */
const TRACK_MARGIN = 14;
/** Room between two tracks. */
const TRACK_SEP = 6;
/** Jogs no wider than this are S-curves rather than tracks. */
const MAX_JOG = 24;
/** Room kept between two horizontal stretches on one track. */
const TRACK_CLEARANCE = 6;

/** A box's size, for the real items of the layered graph. */
export interface BoxSize {
  width: number;
  height: number;
}

/** Row geometry and arrow routes. */
export interface Routed {
  /** Top and bottom y of each row (its tallest box), from `top`. */
  rowTop: number[];
  rowBottom: number[];
  /** The bottom of the last row. */
  bottom: number;
  /** For each chain of `g`, its points from the upper end to the lower. */
  points: Point[][];
}

/**
 * Routes every chain of `g` given the items' centers `x` (box sizes `boxes` for real items),
 * placing the rows from `top` down; points are in the same coordinates as `x`.
 */
export function routeChains(g: LayeredGraph, x: number[], boxes: BoxSize[], top: number): Routed {
  const { out, into } = ports(g, x, boxes);
  // Segment ends in each gap: the lower end of chain k's segment leaving row r.
  const ends = (k: number, i: number): [number, number] => {
    const c = g.chains[k];
    const a = i === 0 ? out[k] : x[c[i]];
    const b = i + 1 === c.length - 1 ? into[k] : x[c[i + 1]];
    return [a, b];
  };
  const gaps = g.rows.map(() => [] as Stretch[]);
  g.chains.forEach((c, k) => {
    for (let i = 0; i + 1 < c.length; i++) {
      const [a, b] = ends(k, i);
      if (Math.abs(a - b) > MAX_JOG) gaps[g.rowOf[c[i]]].push({ k, a, b, to: c[c.length - 1], from: c[0] });
    }
  });
  const track = new Map<string, number>();
  const tracks = gaps.map((segs, r) => assignTracks(segs, (k, t) => track.set(`${k}/${r}`, t)));

  const rowTop: number[] = [];
  const rowBottom: number[] = [];
  let y = top;
  g.rows.forEach((row, r) => {
    const h = Math.max(0, ...row.filter((v) => v < g.real).map((v) => boxes[v].height));
    rowTop.push(y);
    rowBottom.push(y + h);
    y += h + Math.max(MIN_GAP, 2 * TRACK_MARGIN + Math.max(0, tracks[r] - 1) * TRACK_SEP);
  });
  const center = (v: number): number => (rowTop[g.rowOf[v]] + rowBottom[g.rowOf[v]]) / 2;
  const points = g.chains.map((c, k) => {
    const pts: Point[] = [];
    for (let i = 0; i + 1 < c.length; i++) {
      const r = g.rowOf[c[i]];
      const [a, b] = ends(k, i);
      const from = i === 0 ? center(c[0]) + boxes[c[0]].height / 2 : rowTop[r];
      pts.push({ x: a, y: from }, { x: a, y: rowBottom[r] });
      const t = track.get(`${k}/${r}`);
      if (t !== undefined) {
        const ty = rowBottom[r] + TRACK_MARGIN + t * TRACK_SEP;
        pts.push({ x: a, y: ty }, { x: b, y: ty });
      }
      pts.push({ x: b, y: rowTop[r + 1] });
    }
    const last = c[c.length - 1];
    pts.push({ x: into[k], y: center(last) - boxes[last].height / 2 });
    return pts.filter((p, i) => i === 0 || p.x !== pts[i - 1].x || p.y !== pts[i - 1].y);
  });
  return { rowTop, rowBottom, bottom: y, points };
}

/**
 * The x of the port of each chain on its source's bottom side (`out`) and its target's top side
 * (`into`): a box's arrows are spread along its side in the order of their other ends.
 */
function ports(g: LayeredGraph, x: number[], boxes: BoxSize[]): { out: number[]; into: number[] } {
  const out: number[] = new Array(g.chains.length).fill(0);
  const into: number[] = new Array(g.chains.length).fill(0);
  const leaving: number[][] = boxes.map(() => []);
  const entering: number[][] = boxes.map(() => []);
  g.chains.forEach((c, k) => {
    leaving[c[0]].push(k);
    entering[c[c.length - 1]].push(k);
  });
  const spread = (v: number, chains: number[], other: (k: number) => number, port: number[]): void => {
    chains.sort((p, q) => x[other(p)] - x[other(q)] || p - q);
    // As many ports as fit MIN_PORT_STEP apart, at most PORT_STEP apart; arrows share them when too many.
    const room = boxes[v].width - 12;
    const slots = Math.max(1, Math.min(chains.length, Math.floor(room / MIN_PORT_STEP) + 1));
    const step = slots > 1 ? Math.min(PORT_STEP, room / (slots - 1)) : 0;
    chains.forEach((k, i) => (port[k] = x[v] + (Math.floor((i * slots) / chains.length) - (slots - 1) / 2) * step));
  };
  boxes.forEach((_, v) => {
    spread(v, leaving[v], (k) => g.chains[k][1], out);
    spread(v, entering[v], (k) => g.chains[k][g.chains[k].length - 2], into);
  });
  return { out, into };
}

/** The horizontal stretch of chain `k` in one gap, from x `a` to x `b`; `from` and `to`: the chain's end boxes. */
interface Stretch {
  k: number;
  a: number;
  b: number;
  from: number;
  to: number;
}

/**
 * Gives each horizontal stretch of one gap a track (0: the top one). Stretches of arrows into
 * one box share a track (a bus: every line leaving it leads to that box), and so do those of
 * arrows out of one box (whichever end gathers more of the gap's stretches); each bus or lone
 * stretch goes below every earlier one it overlaps.
 * Buses going right are taken rightmost start first and those going left leftmost start first,
 * which spares the crossings that stacking them the other way round makes. Returns the number
 * of tracks.
 */
function assignTracks(segs: Stretch[], set: (k: number, track: number) => void): number {
  const count = (key: (s: Stretch) => number): Map<number, number> => {
    const m = new Map<number, number>();
    for (const s of segs) m.set(key(s), (m.get(key(s)) ?? 0) + 1);
    return m;
  };
  const into = count((s) => s.to);
  const outOf = count((s) => s.from);
  const buses = new Map<string, Stretch[]>();
  for (const s of segs) {
    const [i, o] = [into.get(s.to)!, outOf.get(s.from)!];
    const key = Math.max(i, o) < 2 ? `k${s.k}` : i >= o ? `t${s.to}` : `f${s.from}`;
    if (!buses.has(key)) buses.set(key, []);
    buses.get(key)!.push(s);
  }
  const spans = [...buses.values()].map((members) => {
    const a = members.reduce((t, s) => t + s.a, 0) / members.length;
    const b = members.reduce((t, s) => t + s.b, 0) / members.length;
    const lo = Math.min(...members.flatMap((s) => [s.a, s.b])) - TRACK_CLEARANCE;
    const hi = Math.max(...members.flatMap((s) => [s.a, s.b])) + TRACK_CLEARANCE;
    return { members, a, b, lo, hi, t: 0 };
  });
  const right = spans.filter((s) => s.b >= s.a).sort((p, q) => q.a - p.a);
  const left = spans.filter((s) => s.b < s.a).sort((p, q) => p.a - q.a);
  const placed: typeof spans = [];
  for (const s of [...right, ...left]) {
    for (const p of placed) if (p.lo < s.hi && s.lo < p.hi) s.t = Math.max(s.t, p.t + 1);
    placed.push(s);
    for (const m of s.members) set(m.k, s.t);
  }
  return Math.max(0, ...placed.map((p) => p.t + 1));
}
