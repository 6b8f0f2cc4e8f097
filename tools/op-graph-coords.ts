/**
 * Horizontal coordinates of the layered placement of `--view-op-graph`: every item of a row is
 * pulled towards the mean position of its neighbours in the rows above and below, keeping the
 * row's order, the room between items and the picture's width (that of its widest row). Each
 * row is solved exactly as a weighted isotonic regression (pool-adjacent-violators), sweeping
 * down and up a few times. Arrow segments between dummies pull hardest, and a last pass lines up
 * each long arrow's dummies wherever there is room, so long arrows run straight.
 */
import type { LayeredGraph } from './op-graph-layers.js';

/** Room between neighbouring items of a row. */
export interface SpacingOptions {
  /** Between two boxes. */
  nodeSep: number;
  /** Between an arrow passing through a row and anything beside it. */
  dummySep: number;
}

/** Down-and-up sweeps pulling towards one side, then sweeps pulling towards both. */
const ONE_SIDED_SWEEPS = 6;
const BALANCE_SWEEPS = 3;

/**
 * Centers of every item of `g` (`width[v]`: its width, 0 for dummies), and the width of the
 * picture: the widest row's minimal width. Every item lies within [0, width].
 */
export function assignX(g: LayeredGraph, width: number[], o: SpacingOptions): { x: number[]; width: number } {
  const gap = (a: number, b: number): number => (width[a] + width[b]) / 2 + (a < g.real && b < g.real ? o.nodeSep : o.dummySep);
  const offsets = g.rows.map((row) => {
    const off = [0];
    for (let k = 1; k < row.length; k++) off.push(off[k - 1] + gap(row[k - 1], row[k]));
    return off;
  });
  const span = (r: number): number => {
    const row = g.rows[r];
    return row.length ? offsets[r][row.length - 1] + (width[row[0]] + width[row[row.length - 1]]) / 2 : 0;
  };
  const total = Math.max(0, ...g.rows.map((_, r) => span(r)));
  const x: number[] = new Array(g.rowOf.length).fill(0);
  g.rows.forEach((row, r) => {
    const left = (total - span(r)) / 2 + (row.length ? width[row[0]] / 2 : 0);
    row.forEach((v, k) => (x[v] = left + offsets[r][k]));
  });
  const pull = (a: number, b: number): number => (a >= g.real && b >= g.real ? 8 : a >= g.real || b >= g.real ? 2 : 1);
  const place = (r: number, up: boolean, down: boolean): void => {
    const row = g.rows[r];
    if (!row.length) return;
    const target: number[] = [];
    const weight: number[] = [];
    for (const v of row) {
      let w = 0;
      let s = 0;
      for (const u of [...(up ? g.up[v] : []), ...(down ? g.down[v] : [])]) {
        const p = pull(u, v);
        w += p;
        s += p * x[u];
      }
      target.push(w ? s / w : x[v]);
      weight.push(w || 0.01);
    }
    const lo = width[row[0]] / 2;
    const hi = total - width[row[row.length - 1]] / 2 - offsets[r][row.length - 1];
    const y = isotonic(target.map((t, k) => t - offsets[r][k]), weight);
    row.forEach((v, k) => (x[v] = Math.min(hi, Math.max(lo, y[k])) + offsets[r][k]));
  };
  const n = g.rows.length;
  for (let s = 0; s < ONE_SIDED_SWEEPS; s++) {
    for (let r = 1; r < n; r++) place(r, true, false);
    for (let r = n - 2; r >= 0; r--) place(r, false, true);
  }
  for (let s = 0; s < BALANCE_SWEEPS; s++) for (let r = 0; r < n; r++) place(r, true, true);
  straighten(g, x, gap, total);
  return { x, width: total };
}

/** Passes of `straighten`. */
const STRAIGHTEN_PASSES = 3;

/**
 * Moves the dummies of each long arrow to one x (the median of theirs, else the x of one of
 * them) wherever their row neighbours leave room, so long arrows run straight down rather than
 * wander a few pixels from row to row.
 */
function straighten(g: LayeredGraph, x: number[], gap: (a: number, b: number) => number, total: number): void {
  const pos: number[] = new Array(g.rowOf.length).fill(0);
  g.rows.forEach((row) => row.forEach((v, k) => (pos[v] = k)));
  const room = (d: number): [number, number] => {
    const row = g.rows[g.rowOf[d]];
    const k = pos[d];
    return [k > 0 ? x[row[k - 1]] + gap(row[k - 1], d) : 0, k + 1 < row.length ? x[row[k + 1]] - gap(d, row[k + 1]) : total];
  };
  for (let pass = 0; pass < STRAIGHTEN_PASSES; pass++) {
    for (const chain of g.chains) {
      const dummies = chain.slice(1, -1);
      if (dummies.length < 2) continue;
      const xs = dummies.map((d) => x[d]).sort((a, b) => a - b);
      const candidates = [xs[Math.floor(xs.length / 2)], ...xs];
      // The candidate most dummies can take; each that can moves there.
      let best = candidates[0];
      let fits = -1;
      for (const c of candidates) {
        const n = dummies.filter((d) => {
          const [lo, hi] = room(d);
          return lo <= c && c <= hi;
        }).length;
        if (n > fits) [best, fits] = [c, n];
      }
      for (const d of dummies) {
        const [lo, hi] = room(d);
        if (lo <= best && best <= hi) x[d] = best;
      }
    }
  }
}

/**
 * The non-decreasing sequence nearest to `t` in the `w`-weighted least-squares sense
 * (pool-adjacent-violators).
 */
export function isotonic(t: number[], w: number[]): number[] {
  const blocks: { sum: number; weight: number; count: number }[] = [];
  t.forEach((v, k) => {
    blocks.push({ sum: v * w[k], weight: w[k], count: 1 });
    while (blocks.length > 1) {
      const b = blocks[blocks.length - 1];
      const a = blocks[blocks.length - 2];
      if (a.sum / a.weight <= b.sum / b.weight) break;
      blocks.pop();
      a.sum += b.sum;
      a.weight += b.weight;
      a.count += b.count;
    }
  });
  const out: number[] = [];
  for (const b of blocks) for (let k = 0; k < b.count; k++) out.push(b.sum / b.weight);
  return out;
}
