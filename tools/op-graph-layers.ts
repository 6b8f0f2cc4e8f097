/**
 * Rows of the layered placement of `--view-op-graph` (`op-graph-place.ts`): ranks that are wider
 * than the picture may be are wrapped into several rows (sub-ranks), trading width for height,
 * and every arrow that spans more than one row gets a dummy item in each row it crosses, so the
 * ordering and the coordinates see only arrows between neighbouring rows.
 */

/** One box to put into a row: its width and how many drawn arrows end and start at it. */
export interface RankNode {
  width: number;
  ins: number;
  outs: number;
}

/** How wide a row may be and how much room its items need between them. */
export interface WrapOptions {
  /** The widest a row may be, in pixels (a row holding one box wider than this is that box's width). */
  maxWidth: number;
  /** Room between two boxes. */
  nodeSep: number;
  /** Room an arrow passing through a row takes (its line and the gap beside it). */
  dummySep: number;
}

/**
 * Splits every rank (node indices, top to bottom) that is wider than `o.maxWidth` into rows;
 * `passing[r]` counts the arrows that cross rank `r` without starting or ending in it. A rank's
 * nodes keep their order; those more used than using (constants, splats: more arrows out than in)
 * go to its lower rows, nearer their users, and those with more arrows in than out to its upper
 * rows, so few arrows cross the rank's other rows. Each row's width, counting the arrows that
 * will cross it, stays within `o.maxWidth`. Returns the rows, top to bottom.
 */
export function wrapRanks(ranks: number[][], nodes: RankNode[], passing: number[], o: WrapOptions): number[][] {
  const rows: number[][] = [];
  ranks.forEach((rank, r) => {
    const total = rank.reduce((s, v) => s + nodes[v].width, 0) + Math.max(0, rank.length - 1) * o.nodeSep + passing[r] * o.dummySep;
    if (total <= o.maxWidth || rank.length < 2) return void rows.push([...rank]);
    rows.push(...wrapRank(rank, nodes, passing[r], o));
  });
  return rows;
}

/** Fills rows from the top, in-heavy nodes first, until the next node would not fit. */
function wrapRank(rank: number[], nodes: RankNode[], passing: number, o: WrapOptions): number[][] {
  const pos = new Map(rank.map((v, k) => [v, k]));
  const lean = (v: number): number => nodes[v].ins - nodes[v].outs;
  const queue = [...rank].sort((a, b) => lean(b) - lean(a) || pos.get(a)! - pos.get(b)!);
  const out: number[][] = [];
  // Arrows into nodes not placed yet cross every row above them; arrows out of placed ones cross every row below.
  let insLeft = rank.reduce((s, v) => s + nodes[v].ins, 0);
  let outsAbove = 0;
  let k = 0;
  while (k < queue.length) {
    const row: number[] = [];
    let width = 0;
    for (; k < queue.length; k++) {
      const n = nodes[queue[k]];
      const boxes = width + (row.length ? o.nodeSep : 0) + n.width;
      const crossing = (passing + outsAbove + insLeft - n.ins) * o.dummySep;
      if (row.length && boxes + crossing > o.maxWidth) break;
      row.push(queue[k]);
      width = boxes;
      insLeft -= n.ins;
    }
    for (const v of row) outsAbove += nodes[v].outs;
    out.push(row.sort((a, b) => pos.get(a)! - pos.get(b)!));
  }
  return out;
}

/** Rows with dummies: real nodes are items `0 .. real-1`, dummies follow. */
export interface LayeredGraph {
  /** Items of each row, top to bottom, in their left-to-right order. */
  rows: number[][];
  /** The row of each item. */
  rowOf: number[];
  /** How many items are real nodes (the rest are dummies). */
  real: number;
  /** For each item, its neighbours in the row above (one entry per arrow segment). */
  up: number[][];
  /** For each item, its neighbours in the row below. */
  down: number[][];
  /** For each arrow given to `addDummies`, its items from the upper end to the lower. */
  chains: number[][];
}

/**
 * Builds the layered graph over `rows` (of real nodes `0 .. real-1`): each arrow `[from, to]`,
 * `from`'s row above `to`'s, becomes a chain with one dummy per row strictly between them.
 */
export function addDummies(rows: number[][], real: number, arrows: [number, number][]): LayeredGraph {
  const rowOf: number[] = new Array(real).fill(-1);
  rows.forEach((row, r) => row.forEach((v) => (rowOf[v] = r)));
  const g: LayeredGraph = { rows: rows.map((r) => [...r]), rowOf, real, up: [], down: [], chains: [] };
  for (let v = 0; v < real; v++) g.up.push([]), g.down.push([]);
  for (const [from, to] of arrows) {
    if (rowOf[from] >= rowOf[to]) throw new Error(`op-graph: arrow ${from}->${to} does not go down`);
    const chain = [from];
    for (let r = rowOf[from] + 1; r < rowOf[to]; r++) {
      const d = g.rowOf.length;
      g.rowOf.push(r);
      g.up.push([]);
      g.down.push([]);
      g.rows[r].push(d);
      chain.push(d);
    }
    chain.push(to);
    for (let k = 0; k + 1 < chain.length; k++) {
      g.down[chain[k]].push(chain[k + 1]);
      g.up[chain[k + 1]].push(chain[k]);
    }
    g.chains.push(chain);
  }
  return g;
}
