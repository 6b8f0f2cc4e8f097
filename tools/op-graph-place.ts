/**
 * The compact placement of `--view-op-graph` for a flat function (no region drawn as a cluster):
 * a layered drawing of its own, more compact than dagre's for Triton kernels.
 *
 * 1. Arrows that go back in IR order (branches to an earlier block) are turned round for placement.
 * 2. Ranks from the sinks up (longest path to the function's end): a box sits right above its
 *    first user, so the many constants, `make_range`s and `splat`s of a kernel sit next to the
 *    ops that use them rather than all on the first rank.
 * 3. Ranks wider than the budget are wrapped into several rows (`op-graph-layers.ts`).
 * 4. Rows are ordered to cut crossings (`op-graph-order.ts`) and given coordinates
 *    (`op-graph-coords.ts`); arrows are routed through the gaps between rows, entering and
 *    leaving their boxes at ports spread along the top and bottom sides.
 */
import { assignX } from './op-graph-coords.js';
import { addDummies, wrapRanks, type RankNode } from './op-graph-layers.js';
import { CLUSTER_LABEL_H, CLUSTER_PAD, type GEdge, type GNode, type Placement, type Point, type Route } from './op-graph-model.js';
import { orderRows } from './op-graph-order.js';
import { routeChains } from './op-graph-routes.js';

/** Room between two boxes of a row. */
const NODE_SEP = 16;
/** Room an arrow passing through a row takes. */
const DUMMY_SEP = 8;

/** What the layered placement needs besides the graph. */
export interface LayeredOptions {
  /** The widest the function's contents may be (the cluster adds its padding around them). */
  maxWidth: number;
}

/**
 * Places the boxes of one flat function: `members` are its boxes (op and argument boxes whose
 * parent is `fn`), `edges` the arrows and layout constraints between them. Fills in the center
 * of every box and the size and center of `fn`, whose top-left corner is at (0, 0); returns
 * the placement's size (the cluster's) and a route per drawn arrow.
 */
export function placeLayered(fn: GNode, members: GNode[], edges: GEdge[], o: LayeredOptions): Placement {
  const n = members.length;
  const index = new Map(members.map((m, k) => [m.id, k]));
  const links = edges.map((e) => ({ e, from: index.get(e.from)!, to: index.get(e.to)! }));
  const loops = links.filter((l) => l.from === l.to);
  const others = links.filter((l) => l.from !== l.to);
  // Boxes come in IR order, so definitions precede uses: arrows that go back in that order (a
  // branch to an earlier block) turn round, which leaves no cycle. Values from outside come first.
  const order = members.map((m, k) => (m.classes.includes('external') ? k - n : k));
  const reversed = others.map((l) => order[l.from] > order[l.to]);
  const oriented = others.map((l, k): [number, number] => (reversed[k] ? [l.to, l.from] : [l.from, l.to]));
  const rank = ranksFromSinks(n, oriented);
  const drawn = others.map((l, k) => ({ ...l, k })).filter((l) => l.e.kind !== 'layout');
  const arrows = drawn.map((l) => oriented[l.k]);

  const ranks: number[][] = Array.from({ length: Math.max(-1, ...rank) + 1 }, () => []);
  members.forEach((_, v) => ranks[rank[v]].push(v));
  const rankNodes: RankNode[] = members.map((m) => ({ width: m.width, ins: 0, outs: 0 }));
  const passing: number[] = ranks.map(() => 0);
  for (const [a, b] of arrows) {
    rankNodes[a].outs++;
    rankNodes[b].ins++;
    for (let r = rank[a] + 1; r < rank[b]; r++) passing[r]++;
  }
  const rows = wrapRanks(ranks, rankNodes, passing, { maxWidth: o.maxWidth, nodeSep: NODE_SEP, dummySep: DUMMY_SEP });
  const g = addDummies(rows, n, arrows);
  orderRows(g);
  const widths = g.rowOf.map((_, v) => (v < n ? members[v].width : 0));
  const { x, width } = assignX(g, widths, { nodeSep: NODE_SEP, dummySep: DUMMY_SEP });

  // Rows from the top, each as tall as its tallest box (boxes centered in it), gaps as their tracks need.
  const left = CLUSTER_PAD;
  const top = CLUSTER_PAD + CLUSTER_LABEL_H;
  const routed = routeChains(g, x, members, top);
  members.forEach((m, v) => {
    m.x = left + x[v];
    m.y = (routed.rowTop[g.rowOf[v]] + routed.rowBottom[g.rowOf[v]]) / 2;
  });
  const routes = new Map<string, Route>();
  drawn.forEach((l, k) => {
    const pts = routed.points[k].map((p) => ({ x: p.x + left, y: p.y }));
    routes.set(l.e.id, { points: reversed[l.k] ? pts.reverse() : pts, shape: 'bend' });
  });
  for (const l of loops) if (l.e.kind !== 'layout') routes.set(l.e.id, { points: selfLoop(members[l.from]), shape: 'bend' });

  const bottom = g.rows.length ? routed.rowBottom[g.rows.length - 1] : top;
  fn.width = Math.max(fn.width, width + 2 * CLUSTER_PAD);
  fn.height = bottom + CLUSTER_PAD;
  fn.x = fn.width / 2;
  fn.y = fn.height / 2;
  return { width: fn.width, height: fn.height, routes };
}

/**
 * The rank of each node of an acyclic graph: its longest path to a sink counted from the
 * bottom, so every node sits one rank above its nearest-ranked user. Nodes with no arrow at all
 * go to the first rank.
 */
function ranksFromSinks(n: number, arrows: [number, number][]): number[] {
  const out: number[][] = Array.from({ length: n }, () => []);
  const indeg = new Array(n).fill(0);
  const linked = new Array(n).fill(false);
  for (const [a, b] of arrows) {
    out[a].push(b);
    indeg[b]++;
    linked[a] = linked[b] = true;
  }
  const topo: number[] = [];
  for (let v = 0; v < n; v++) if (!indeg[v]) topo.push(v);
  for (let k = 0; k < topo.length; k++) for (const w of out[topo[k]]) if (--indeg[w] === 0) topo.push(w);
  const height = new Array(n).fill(0);
  for (let k = topo.length - 1; k >= 0; k--) {
    const v = topo[k];
    for (const w of out[v]) height[v] = Math.max(height[v], height[w] + 1);
  }
  const tallest = Math.max(0, ...height);
  return height.map((h, v) => (linked[v] ? tallest - h : 0));
}

/** A small loop on the right side of a box, for an arrow from a box to itself. */
function selfLoop(n: GNode): Point[] {
  const r = n.x! + n.width / 2;
  const y = n.y!;
  return [{ x: r, y: y - 4 }, { x: r + 14, y: y - 4 }, { x: r + 14, y: y + 4 }, { x: r, y: y + 4 }];
}
