/**
 * The placement of `--view-op-graph` for a function drawn with its regions as clusters: dagre's
 * compound layout (`@dagrejs/dagre`), which keeps every region's ops inside its cluster. Flat
 * functions (every loop body collapsed, or none) use the layered placement of `op-graph-place.ts`,
 * which is more compact and wraps ranks that are too wide.
 */
import dagre from '@dagrejs/dagre';
import { CLUSTER_LABEL_H, isCluster, translate, type GEdge, type GNode, type Placement, type Route } from './op-graph-model.js';

/**
 * Places one function cluster and everything inside it (`nodes`, the cluster first or anywhere)
 * with dagre; `edges` join nodes of `nodes`. Fills in every node's center and size; the function
 * cluster's top-left corner ends at (0, 0) and the placement's size is the cluster's.
 */
export function dagrePlace(nodes: GNode[], edges: GEdge[]): Placement {
  const g = new dagre.graphlib.Graph({ compound: true, multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 16, ranksep: 50, edgesep: 6, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set(nodes.map((n) => n.id));
  for (const n of nodes) {
    g.setNode(n.id, isCluster(n) ? { width: n.width, height: n.height, paddingTop: CLUSTER_LABEL_H } : { width: n.width, height: n.height });
  }
  for (const n of nodes) if (n.parent && ids.has(n.parent)) g.setParent(n.id, n.parent);
  for (const e of edges) g.setEdge(e.from, e.to, { weight: e.kind === 'use' ? 2 : 1, minlen: 1 }, e.id);
  // A cluster with no children is a plain node to dagre, of its label's size.
  dagre.layout(g);
  for (const n of nodes) {
    const l = g.node(n.id) as { x: number; y: number; width: number; height: number };
    n.x = l.x;
    n.y = l.y;
    n.width = l.width;
    n.height = l.height;
  }
  const routes = new Map<string, Route>();
  for (const e of edges) {
    if (e.kind === 'layout') continue;
    const l = g.edge(e.from, e.to, e.id) as { points?: { x: number; y: number }[] };
    routes.set(e.id, { points: (l.points ?? []).map((p) => ({ x: p.x, y: p.y })), shape: 'spline' });
  }
  // The outermost cluster frames the rest: move its top-left corner to the origin.
  const outer = nodes.find((n) => !n.parent || !ids.has(n.parent))!;
  const left = (outer.x ?? 0) - outer.width / 2;
  const top = (outer.y ?? 0) - outer.height / 2;
  translate(nodes, routes.values(), -left, -top);
  return { width: outer.width, height: outer.height, routes };
}
