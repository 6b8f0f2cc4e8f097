/**
 * The model of `--view-op-graph` shared by the graph builder (`op-graph.ts`), the placements
 * (`op-graph-place.ts` for a flat function, `op-graph-dagre.ts` for one with region clusters,
 * `op-graph-pack.ts` for the functions side by side) and the SVG writer: boxes, clusters, arrows
 * and the routes the placements give the arrows.
 */

/** What a node of the picture is: an op box, a block-argument box, a region cluster or a function cluster. */
export type NodeKind = 'op' | 'arg' | 'region' | 'func';

/** One box or cluster of the picture, before and after placement (`x`, `y`: its center). */
export interface GNode {
  id: string;
  kind: NodeKind;
  /** Extra CSS classes (`has-regions`, `terminator`, `constant`, `collapsed`, `external`). */
  classes: string[];
  lines: string[];
  title: string;
  opName?: string;
  /** The id of the enclosing cluster (a region or function). */
  parent?: string;
  width: number;
  height: number;
  x?: number;
  y?: number;
}

/** One arrow: a use, a control-flow successor, or a layout-only (invisible) constraint. */
export interface GEdge {
  id: string;
  kind: 'use' | 'succ' | 'layout';
  from: string;
  to: string;
  title: string;
}

/** A point of the picture, in pixels. */
export interface Point {
  x: number;
  y: number;
}

/**
 * The route of one arrow, from its source box to its target box. `spline`: dagre's points, drawn
 * as straight segments joined by quadratic curves; `bend`: vertical runs joined by S-curves whose
 * tangents are vertical (the layered placement's routes, which stay inside the gaps between rows).
 */
export interface Route {
  points: Point[];
  shape: 'spline' | 'bend';
}

/** What a placement gives back: the size it takes and the route of every drawn arrow (not `layout` edges). */
export interface Placement {
  width: number;
  height: number;
  routes: Map<string, Route>;
}

/** Height reserved at the top of a cluster for its label. */
export const CLUSTER_LABEL_H = 20;

/** Space between a cluster's border and what it holds. */
export const CLUSTER_PAD = 12;

/** Whether a node is a cluster (a region or a function) rather than a box. */
export function isCluster(n: GNode): boolean {
  return n.kind === 'region' || n.kind === 'func';
}

/** Moves a placed node and the routes of a placement by (dx, dy). */
export function translate(nodes: GNode[], routes: Iterable<Route>, dx: number, dy: number): void {
  for (const n of nodes) {
    n.x = (n.x ?? 0) + dx;
    n.y = (n.y ?? 0) + dy;
  }
  for (const r of routes) for (const p of r.points) (p.x += dx), (p.y += dy);
}
