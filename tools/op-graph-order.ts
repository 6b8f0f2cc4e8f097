/**
 * The left-to-right order of the items of each row of the layered placement of
 * `--view-op-graph`: barycentric sweeps, down and up, keeping the order with the fewest arrow
 * crossings, then swaps of neighbouring items while they remove crossings.
 */
import type { LayeredGraph } from './op-graph-layers.js';

/** Most down-and-up sweeps; the sweeps also stop after a few that find nothing better. */
const MAX_SWEEPS = 24;
/** Sweeps without improvement after which the search stops. */
const PATIENCE = 4;
/** Passes of neighbour swaps. */
const SWAP_PASSES = 4;

/** Orders `g.rows` in place to cut arrow crossings; the first order is the rows' own. */
export function orderRows(g: LayeredGraph): void {
  const pos: number[] = new Array(g.rowOf.length).fill(0);
  const index = (): void => g.rows.forEach((row) => row.forEach((v, k) => (pos[v] = k)));
  index();
  // Start by placing each item under its upper neighbours.
  sweep(g, pos, 'down');
  let best = g.rows.map((r) => [...r]);
  let bestCrossings = crossings(g, pos);
  let stale = 0;
  for (let k = 0; k < MAX_SWEEPS && bestCrossings > 0 && stale < PATIENCE; k++) {
    sweep(g, pos, k % 2 === 0 ? 'up' : 'down');
    const c = crossings(g, pos);
    if (c < bestCrossings) {
      best = g.rows.map((r) => [...r]);
      bestCrossings = c;
      stale = 0;
    } else stale++;
  }
  g.rows = best;
  index();
  for (let k = 0; k < SWAP_PASSES && swapNeighbours(g, pos); k++);
}

/** One barycentric sweep: each row sorted by the mean relative position of its neighbours in the row before. */
function sweep(g: LayeredGraph, pos: number[], dir: 'down' | 'up'): void {
  const n = g.rows.length;
  const rel = (v: number): number => pos[v] / Math.max(1, g.rows[g.rowOf[v]].length - 1);
  for (let step = 1; step < n; step++) {
    const r = dir === 'down' ? step : n - 1 - step;
    const row = g.rows[r];
    const key = new Map<number, number>();
    for (const v of row) {
      const nb = dir === 'down' ? g.up[v] : g.down[v];
      key.set(v, nb.length ? nb.reduce((s, u) => s + rel(u), 0) / nb.length : rel(v));
    }
    row.sort((a, b) => key.get(a)! - key.get(b)! || pos[a] - pos[b]);
    row.forEach((v, k) => (pos[v] = k));
  }
}

/** Arrow crossings between every pair of neighbouring rows. */
function crossings(g: LayeredGraph, pos: number[]): number {
  let total = 0;
  for (let r = 0; r + 1 < g.rows.length; r++) {
    const pairs: [number, number][] = [];
    for (const v of g.rows[r]) for (const w of g.down[v]) pairs.push([pos[v], pos[w]]);
    pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    // Inversions of the lower ends, counted with a Fenwick tree.
    const size = g.rows[r + 1].length;
    const tree = new Array(size + 1).fill(0);
    let seen = 0;
    for (const [, w] of pairs) {
      let notAbove = 0;
      for (let i = w + 1; i > 0; i -= i & -i) notAbove += tree[i];
      total += seen - notAbove;
      for (let i = w + 1; i <= size; i += i & -i) tree[i]++;
      seen++;
    }
  }
  return total;
}

/** Crossings between the arrows of `u` and of `v` (u left of v) to the neighbour lists given. */
function pairCrossings(nu: number[], nv: number[], pos: number[]): number {
  let c = 0;
  for (const a of nu) for (const b of nv) if (pos[a] > pos[b]) c++;
  return c;
}

/** Swaps neighbouring items of a row wherever that removes crossings; whether any swap was made. */
function swapNeighbours(g: LayeredGraph, pos: number[]): boolean {
  let changed = false;
  for (const row of g.rows) {
    for (let k = 0; k + 1 < row.length; k++) {
      const u = row[k];
      const v = row[k + 1];
      const now = pairCrossings(g.up[u], g.up[v], pos) + pairCrossings(g.down[u], g.down[v], pos);
      const swapped = pairCrossings(g.up[v], g.up[u], pos) + pairCrossings(g.down[v], g.down[u], pos);
      if (swapped >= now) continue;
      row[k] = v;
      row[k + 1] = u;
      pos[u] = k + 1;
      pos[v] = k;
      changed = true;
    }
  }
  return changed;
}
