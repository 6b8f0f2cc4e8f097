/**
 * The placement of a whole `--view-op-graph` picture: each function is placed on its own (the
 * layered placement of `op-graph-place.ts` when it is flat, dagre's compound one when regions
 * are drawn as clusters inside it), then the functions are packed in order into shelves no
 * wider than the picture may be.
 */
import { dagrePlace } from './op-graph-dagre.js';
import { CLUSTER_PAD, isCluster, translate, type GEdge, type GNode, type Placement, type Route } from './op-graph-model.js';
import { placeLayered } from './op-graph-place.js';

/** Margin around the picture. */
export const MARGIN = 12;
/** Room between two functions. */
const FUNC_GAP = 16;

/** What the whole picture's placement needs besides the graph. */
export interface PackOptions {
  /** The widest the picture should be, margins included (a wider function widens it). */
  maxWidth: number;
}

/**
 * Places every node of `nodes` (function clusters at the top, everything else inside one) and
 * routes every drawn arrow of `edges`; returns the picture's size, margins included.
 */
export function placeGraph(nodes: Map<string, GNode>, edges: GEdge[], o: PackOptions): Placement {
  const top = (n: GNode): string => {
    let id = n.id;
    for (let p = n.parent; p; p = nodes.get(p)?.parent) id = p;
    return id;
  };
  const groups = new Map<string, { members: GNode[]; edges: GEdge[] }>();
  for (const n of nodes.values()) if (!n.parent) groups.set(n.id, { members: [], edges: [] });
  for (const n of nodes.values()) if (n.parent) groups.get(top(n))!.members.push(n);
  for (const e of edges) groups.get(top(nodes.get(e.from)!))!.edges.push(e);

  const inner = o.maxWidth - 2 * MARGIN;
  const placed = [...groups].map(([id, grp]) => {
    const fn = nodes.get(id)!;
    const p = grp.members.some(isCluster) ? dagrePlace([fn, ...grp.members], grp.edges) : placeLayered(fn, grp.members, grp.edges, { maxWidth: inner - 2 * CLUSTER_PAD });
    return { nodes: [fn, ...grp.members], p };
  });

  // Shelves: functions left to right, a new shelf when the next would pass the width.
  const shelfWidth = Math.max(inner, ...placed.map((f) => f.p.width));
  const routes = new Map<string, Route>();
  let x = 0;
  let y = 0;
  let shelfH = 0;
  let width = 0;
  for (const f of placed) {
    if (x > 0 && x + f.p.width > shelfWidth) {
      x = 0;
      y += shelfH + FUNC_GAP;
      shelfH = 0;
    }
    translate(f.nodes, f.p.routes.values(), MARGIN + x, MARGIN + y);
    for (const [id, r] of f.p.routes) routes.set(id, r);
    width = Math.max(width, x + f.p.width);
    shelfH = Math.max(shelfH, f.p.height);
    x += f.p.width + FUNC_GAP;
  }
  return { width: width + 2 * MARGIN, height: y + shelfH + 2 * MARGIN, routes };
}
