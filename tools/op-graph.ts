/**
 * `--view-op-graph`: draws the data-flow graph of each function as a standalone SVG.
 *
 * One box per op (name and result types), one arrow per use (OpOperand), block arguments as
 * their own boxes, and regions as nested clusters. This file builds the graph (`GraphBuilder`)
 * and writes the SVG by hand (no DOM needed); `op-graph-pack.ts` places it: each flat function
 * by the layered placement of `op-graph-place.ts` (ranks wrapped into rows when too wide),
 * each function with region clusters by dagre (`op-graph-dagre.ts`), the functions packed in
 * shelves.
 *
 * `OpGraphOptions` keep big kernels readable: `depth` collapses every op whose regions lie
 * deeper than it into one box (a loop body becomes `scf.for` with a count of the ops it hides;
 * uses by hidden ops become one arrow per outside value), `func` draws one function, and
 * `maxLabel` cuts op names and types to that many characters (the full text stays in tooltips).
 * Without `depth`, the deepest one whose whole picture fits `FIT_PX` on its long side is drawn.
 */
import { writeFileSync } from 'node:fs';
import { StringAttr } from '../ir/attributes.js';
import type { Block, Operation, Region, Value } from '../ir/ir.js';
import { printModule } from '../ir/printer.js';
import { UserError } from './input-chunks.js';
import { isCluster, type GEdge, type GNode, type Point, type Route } from './op-graph-model.js';
import { placeGraph } from './op-graph-pack.js';
import { escapeXml as esc } from './svg.js';
import { ConstantLike, FunctionLike, Terminator } from '../ir/traits.js';

// ---- sizes and styling -------------------------------------------------------------------

const FONT_SIZE = 12;
/** Approximate advance of one character of 12px monospace (DejaVu Sans Mono is ~7.2px). */
const CHAR_W = 7.3;
const LINE_H = 16;
const PAD_X = 8;
const PAD_Y = 6;
/** Longest label line by default before it is cut with an ellipsis (the full text stays in the tooltip). */
export const DEFAULT_MAX_LABEL = 32;
/**
 * Without `depth`, the deepest region depth whose picture is at most this many pixels on its long
 * side (readable at 1:1 on a laptop screen) is drawn; depth 0 when none is.
 */
export const FIT_PX = 4000;
/** Most result-type lines shown in one op box. */
const MAX_TYPE_LINES = 4;

const STYLE = `
text { font-family: monospace; font-size: ${FONT_SIZE}px; fill: #1a1a1a; }
.op rect { fill: #e8f0fe; stroke: #5b7bb5; stroke-width: 1; }
.op.has-regions rect { fill: #fde9cf; stroke: #c07a1c; }
.op.terminator rect { fill: #eeeeee; stroke: #888888; }
.op.constant rect { fill: #f3f7e4; stroke: #8a9b4a; }
.op.collapsed rect { fill: #fbe3c4; stroke: #c07a1c; stroke-width: 2; stroke-dasharray: 6 2; }
.op text.name { font-weight: bold; }
.op text.type { fill: #444444; }
.arg rect { fill: #e6f4ea; stroke: #3c8c5a; stroke-width: 1; }
.region > rect { fill: #fbf6ee; fill-opacity: 0.55; stroke: #c07a1c; stroke-dasharray: 4 2; }
.func > rect { fill: #ffffff; stroke: #666666; stroke-width: 1.5; }
.region > text, .func > text { font-weight: bold; fill: #7a4a0c; }
.func > text { fill: #333333; }
path.edge { fill: none; stroke: #555555; stroke-width: 1; }
path.succ { fill: none; stroke: #b03030; stroke-width: 1.2; stroke-dasharray: 5 3; }
.legend text { fill: #333333; }
`;

/** What to draw: see the file comment. */
export interface OpGraphOptions {
  /** Regions nested deeper than this are collapsed into their op's box (0: every region; default: fit `FIT_PX`). */
  depth?: number;
  /** Draw only the function with this symbol name. */
  func?: string;
  /** Longest label line, in characters (default `DEFAULT_MAX_LABEL`, at least 8). */
  maxLabel?: number;
}

/** Whether `op` is a function (tt.func, func.func: any op with the FunctionLike trait). */
function isFunctionLike(op: Operation): boolean {
  return op.hasTrait(FunctionLike);
}

/** Cuts `s` to `max` characters with a trailing ellipsis. */
function clip(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max - 1) + '\u2026';
}

/** The ops inside `op`'s regions, at any depth. */
function countNested(op: Operation): number {
  let n = 0;
  op.walk(() => void n++, 'pre');
  return n - 1;
}

/** Box size for some lines of text. */
function boxSize(lines: string[]): { width: number; height: number } {
  const chars = Math.max(4, ...lines.map((l) => l.length));
  return { width: Math.ceil(chars * CHAR_W + 2 * PAD_X), height: lines.length * LINE_H + 2 * PAD_Y };
}

/**
 * Attribute aliases as the printer would choose them (`#blocked`, `#mma`), read from the alias
 * definitions at the top of the printed root, so box labels can use the short names.
 */
function collectAliases(root: Operation): [full: string, alias: string][] {
  let text: string;
  try {
    text = printModule(root);
  } catch {
    return [];
  }
  const out: [string, string][] = [];
  for (const line of text.split('\n')) {
    const m = /^([#!][\w.$-]+) = (.+)$/.exec(line);
    if (!m) break;
    out.push([m[2], m[1]]);
  }
  return out.sort((a, b) => b[0].length - a[0].length);
}

/** Builds nodes and edges for the functions under a root op. */
class GraphBuilder {
  readonly nodes = new Map<string, GNode>();
  readonly edges: GEdge[] = [];
  private readonly valueNode = new Map<Value, string>();
  private readonly opNode = new Map<Operation, string>();
  private readonly blockEntry = new Map<Block, string>();
  private readonly usedAliases = new Map<string, string>();
  /** Arrows already drawn into a collapsed box, by `from->to`, so each outside value gets one. */
  private readonly collapsedEdges = new Set<string>();
  /** The ids of collapsed boxes (ops whose regions are hidden). */
  private readonly collapsedOps = new Set<string>();
  private counter = 0;

  constructor(
    private readonly aliases: [string, string][],
    private readonly maxDepth: number,
    private readonly maxLabel: number,
  ) {}

  private clip(s: string): string {
    return clip(s, this.maxLabel);
  }

  /** Alias definitions that box labels referred to, for the legend. */
  legend(): [alias: string, full: string][] {
    return [...this.usedAliases].map(([full, alias]) => [alias, full]);
  }

  private fresh(prefix: string): string {
    return `${prefix}${this.counter++}`;
  }

  /** The type as the printer writes it with aliases; the full text goes to tooltips. */
  private shortType(v: Value): string {
    let s = String(v.type);
    for (const [full, alias] of this.aliases) {
      if (!s.includes(full)) continue;
      s = s.split(full).join(alias);
      this.usedAliases.set(full, alias);
    }
    return s;
  }

  private add(node: Omit<GNode, 'width' | 'height'>): GNode {
    const n: GNode = { ...node, ...boxSize(node.lines) };
    this.nodes.set(n.id, n);
    return n;
  }

  /** Adds one function as a top-level cluster. */
  addFunction(fn: Operation): void {
    const sym = symbolName(fn);
    const name = sym !== null ? `@${sym}` : fn.name;
    const type = fn.getAttr('function_type');
    const id = this.fresh('f');
    this.add({ id, kind: 'func', classes: [], lines: [this.clip(`${fn.name} ${name}`)], title: `${fn.name} ${name}${type ? ` : ${String(type)}` : ''}` });
    for (const r of fn.regions) this.addRegionContents(r, id, null, 0);
  }

  /** Adds a non-function root: its regions' contents go straight into one cluster. */
  addRoot(root: Operation): void {
    const id = this.fresh('f');
    this.add({ id, kind: 'func', classes: [], lines: [this.clip(root.name)], title: root.name });
    for (const r of root.regions) this.addRegionContents(r, id, null, 0);
  }

  /** Adds the blocks of `r`, whose ops are at region depth `depth` (a function body's: 0). */
  private addRegionContents(r: Region, parent: string, owner: Operation | null, depth: number): void {
    r.blocks.forEach((b, k) => {
      this.addBlockArgs(b, k, parent, owner);
      for (const op of b) this.addOp(op, parent, depth);
      const entry = b.args.length ? this.valueNode.get(b.args[0]) : b.first ? this.opNode.get(b.first) : undefined;
      if (entry) this.blockEntry.set(b, entry);
      this.sinkToTerminator(b);
    });
  }

  /** Keeps a block's terminator at the bottom: ops whose results nobody uses point at it. */
  private sinkToTerminator(b: Block): void {
    const term = b.last;
    if (!term || !term.hasTrait(Terminator)) return;
    const termId = this.opNode.get(term)!;
    for (const op of b) {
      if (op === term || op.results.some((r) => r.hasUses)) continue;
      this.layoutEdge(this.opNode.get(op)!, termId);
      for (const r of op.regions) for (const inner of r.blocks) if (inner.last) this.layoutEdge(this.opNode.get(inner.last)!, termId);
    }
  }

  private addBlockArgs(b: Block, blockIndex: number, parent: string, owner: Operation | null): void {
    for (const a of b.args) {
      const name = `%${a.nameHint ?? `arg${a.index}`}`;
      const prefix = blockIndex > 0 ? `^bb${blockIndex} ` : '';
      const full = `${prefix}${name}: ${String(a.type)}`;
      const id = this.fresh('a');
      this.add({ id, kind: 'arg', classes: [], lines: [this.clip(`${prefix}${name}`), this.clip(this.shortType(a))], title: full, parent });
      this.valueNode.set(a, id);
      if (owner) this.layoutEdge(this.opNode.get(owner)!, id);
    }
  }

  private addOp(op: Operation, parent: string, depth: number): void {
    const id = this.fresh('n');
    const classes: string[] = [];
    const collapse = op.regions.length > 0 && depth >= this.maxDepth;
    if (op.regions.length) classes.push(collapse ? 'collapsed' : 'has-regions');
    if (op.hasTrait(Terminator) || (op.parent?.last === op && op.numResults === 0 && /(return|yield)$/.test(op.name))) classes.push('terminator');
    if (op.hasTrait(ConstantLike) || (!op.spec && op.name.endsWith('.constant'))) classes.push('constant');
    const types = op.results.map((r) => this.shortType(r));
    const lines = [this.clip(op.name)];
    const shown = types.length > MAX_TYPE_LINES ? MAX_TYPE_LINES - 1 : types.length;
    for (let k = 0; k < shown; k++) lines.push(this.clip(types[k]));
    if (shown < types.length) lines.push(`\u2026 ${types.length - shown} more`);
    const hidden = collapse ? countNested(op) : 0;
    if (collapse) lines.push(`[${hidden} op${hidden === 1 ? '' : 's'} collapsed]`);
    const resultText = op.results.map((r) => `%${r.nameHint ?? r.index}: ${String(r.type)}`).join('\n');
    const title = (resultText ? `${op.name}\n${resultText}` : op.name) + (collapse ? `\n(regions collapsed: ${hidden} ops)` : '');
    this.add({ id, kind: 'op', classes, lines, title, opName: op.name, parent });
    this.opNode.set(op, id);
    op.results.forEach((r) => this.valueNode.set(r, id));
    if (collapse) return this.hideInside(op, id);
    op.regions.forEach((r, k) => this.addRegion(op, r, k, parent, depth + 1));
  }

  /** Maps every op and value inside `op`'s regions to its collapsed box `id`. */
  private hideInside(op: Operation, id: string): void {
    op.walk((inner) => {
      if (inner === op) return;
      this.opNode.set(inner, id);
      inner.results.forEach((r) => this.valueNode.set(r, id));
      for (const r of inner.regions) for (const b of r.blocks) b.args.forEach((a) => this.valueNode.set(a, id));
    }, 'pre');
    for (const r of op.regions) for (const b of r.blocks) b.args.forEach((a) => this.valueNode.set(a, id));
    this.collapsedOps.add(id);
  }

  private addRegion(op: Operation, r: Region, k: number, parent: string, depth: number): void {
    const id = this.fresh('r');
    const label = `${op.name} ${regionName(op, k)}${r.empty ? ' (empty)' : ''}`;
    this.add({ id, kind: 'region', classes: [], lines: [this.clip(label)], title: label, parent });
    this.addRegionContents(r, id, op, depth);
    const opId = this.opNode.get(op)!;
    if (r.empty) this.layoutEdge(opId, id);
    // Keep the region below its op: link the op to the region's ops fed only from outside.
    for (const b of r.blocks) {
      for (const inner of b) {
        if (inner.operands.every((o) => !r.isAncestorOfValue(o.value))) this.layoutEdge(opId, this.opNode.get(inner)!);
      }
    }
  }

  private layoutEdge(from: string, to: string): void {
    this.edges.push({ id: this.fresh('l'), kind: 'layout', from, to, title: '' });
  }

  /** Adds one arrow per operand, then layout edges keeping users of region results below the regions. */
  addEdges(roots: Operation[]): void {
    for (const root of roots) root.walk((op) => this.addUses(op), 'pre');
  }

  private addUses(op: Operation): void {
    const to = this.opNode.get(op);
    if (!to) return;
    const intoCollapsed = this.collapsedOps.has(to);
    for (const o of op.operands) {
      const v = o.value;
      const from: string = this.valueNode.get(v) ?? this.externalValue(v, to);
      if (intoCollapsed) {
        // A use inside a collapsed box: one arrow per outside value, none for values it defines.
        const key = `${from}->${to}`;
        if (from === to || this.collapsedEdges.has(key)) continue;
        this.collapsedEdges.add(key);
      }
      const name = v.nameHint ? `%${v.nameHint}` : v.definingOp ? `${v.definingOp.name} #${(v as { index?: number }).index ?? 0}` : 'arg';
      this.edges.push({ id: this.fresh('e'), kind: 'use', from, to, title: `${name} : ${String(v.type)} \u2192 ${op.name} operand #${o.index}` });
    }
    op.successors.forEach((s, k) => {
      const target = this.blockEntry.get(s);
      if (target) this.edges.push({ id: this.fresh('s'), kind: 'succ', from: to, to: target, title: `${op.name} successor #${k}` });
    });
    if (!op.regions.length || intoCollapsed) return;
    const sinks = op.regions.flatMap((r) => r.blocks.map((b) => b.last).filter((t): t is Operation => t !== null));
    for (const r of op.results) {
      for (const u of r.uses()) {
        if (op.isAncestorOf(u.owner)) continue;
        const user = this.opNode.get(u.owner);
        if (user) for (const s of sinks) this.layoutEdge(this.opNode.get(s)!, user);
      }
    }
  }

  /** A value defined outside everything drawn (only for non-isolated roots): an argument box. */
  private externalValue(v: Value, user: string): string {
    const id = this.fresh('a');
    const full = `%${v.nameHint ?? '?'}: ${String(v.type)} (defined outside)`;
    this.add({ id, kind: 'arg', classes: ['external'], lines: [this.clip(`%${v.nameHint ?? '?'} (outside)`), this.clip(this.shortType(v))], title: full, parent: this.nodes.get(user)?.parent });
    this.valueNode.set(v, id);
    return id;
  }
}

/** A readable name for region `k` of `op`: `body`, or the ODS region name (`thenRegion`, `before`). */
function regionName(op: Operation, k: number): string {
  const decls = op.spec?.regionDecls ?? [];
  if (op.regions.length === 1) return 'body';
  const d = decls.length === op.regions.length ? decls[k] : undefined;
  return d ? d.name : `region #${k}`;
}

// ---- SVG writing -------------------------------------------------------------------------

/** A coordinate, rounded, never NaN. */
function num(x: number | undefined): string {
  return Number.isFinite(x) ? String(Math.round((x as number) * 10) / 10) : '0';
}

/** A smooth path through dagre's route points (straight segments joined by quadratic curves). */
function splinePath(pts: Point[]): string {
  if (pts.length === 0) return 'M0 0';
  let d = `M${num(pts[0].x)} ${num(pts[0].y)}`;
  if (pts.length === 2) return d + ` L${num(pts[1].x)} ${num(pts[1].y)}`;
  for (let k = 1; k < pts.length - 1; k++) {
    const mid = { x: (pts[k].x + pts[k + 1].x) / 2, y: (pts[k].y + pts[k + 1].y) / 2 };
    const end = k === pts.length - 2 ? pts[k + 1] : mid;
    d += ` Q${num(pts[k].x)} ${num(pts[k].y)} ${num(end.x)} ${num(end.y)}`;
  }
  return d;
}

/** Corner radius of the layered placement's arrows. */
const CORNER = 4;

/**
 * A path through the layered placement's points: vertical and horizontal runs with rounded
 * corners, and S-curves (leaving and arriving vertically) where two points differ in x and y.
 */
function bendPath(pts: Point[]): string {
  if (pts.length === 0) return 'M0 0';
  let d = `M${num(pts[0].x)} ${num(pts[0].y)}`;
  const straight = (a: Point, b: Point): boolean => a.x === b.x || a.y === b.y;
  for (let k = 1; k < pts.length; k++) {
    const a = pts[k - 1];
    const b = pts[k];
    if (!straight(a, b)) {
      const mid = (a.y + b.y) / 2;
      d += ` C${num(a.x)} ${num(mid)} ${num(b.x)} ${num(mid)} ${num(b.x)} ${num(b.y)}`;
      continue;
    }
    const c = pts[k + 1];
    if (!c || !straight(b, c) || (a.x === b.x) === (b.x === c.x)) {
      d += ` L${num(b.x)} ${num(b.y)}`;
      continue;
    }
    // A corner: stop short of it and turn on a quarter curve.
    const r = Math.min(CORNER, Math.hypot(b.x - a.x, b.y - a.y) / 2, Math.hypot(c.x - b.x, c.y - b.y) / 2);
    const inx = Math.sign(b.x - a.x);
    const iny = Math.sign(b.y - a.y);
    const outx = Math.sign(c.x - b.x);
    const outy = Math.sign(c.y - b.y);
    d += ` L${num(b.x - inx * r)} ${num(b.y - iny * r)} Q${num(b.x)} ${num(b.y)} ${num(b.x + outx * r)} ${num(b.y + outy * r)}`;
  }
  return d;
}

/** The SVG path of a route. */
function routePath(r: Route | undefined): string {
  return !r ? 'M0 0' : r.shape === 'bend' ? bendPath(r.points) : splinePath(r.points);
}

function renderCluster(n: GNode): string {
  const x = (n.x ?? 0) - n.width / 2;
  const y = (n.y ?? 0) - n.height / 2;
  const cls = n.kind === 'func' ? 'func' : 'region';
  return (
    `<g class="${cls}" id="${n.id}"><title>${esc(n.title)}</title>` +
    `<rect x="${num(x)}" y="${num(y)}" width="${num(n.width)}" height="${num(n.height)}" rx="8" ry="8"/>` +
    `<text x="${num(x + 8)}" y="${num(y + 15)}">${esc(n.lines[0])}</text></g>`
  );
}

function renderBox(n: GNode): string {
  const x = (n.x ?? 0) - n.width / 2;
  const y = (n.y ?? 0) - n.height / 2;
  const cls = [n.kind, ...n.classes].join(' ');
  const data = n.opName !== undefined ? ` data-op="${esc(n.opName)}"` : '';
  const rx = n.kind === 'arg' ? 10 : 3;
  let s = `<g class="${cls}" id="${n.id}"${data}><title>${esc(n.title)}</title>`;
  s += `<rect x="${num(x)}" y="${num(y)}" width="${num(n.width)}" height="${num(n.height)}" rx="${rx}" ry="${rx}"/>`;
  n.lines.forEach((line, k) => {
    const tcls = k === 0 ? 'name' : 'type';
    s += `<text class="${tcls}" x="${num(x + PAD_X)}" y="${num(y + PAD_Y + (k + 1) * LINE_H - 4)}">${esc(line)}</text>`;
  });
  return s + '</g>';
}

/** Depth of a node in the cluster tree, so outer clusters are drawn first. */
function depth(b: GraphBuilder, n: GNode): number {
  let d = 0;
  for (let p = n.parent; p; p = b.nodes.get(p)?.parent) d++;
  return d;
}

/** The deepest region nesting under `roots` (ops directly in a function body: 0; in a loop body: 1). */
function regionDepth(roots: Operation[]): number {
  let deepest = 0;
  const visit = (op: Operation, depth: number): void => {
    if (op.regions.length) deepest = Math.max(deepest, depth + 1);
    for (const r of op.regions) for (const blk of r.blocks) for (const inner of blk) visit(inner, depth + 1);
  };
  for (const root of roots) for (const r of root.regions) for (const blk of r.blocks) for (const op of blk) visit(op, 0);
  return deepest;
}

/** The symbol name of a function op, or null. */
function symbolName(fn: Operation): string | null {
  const sym = fn.getAttr('sym_name');
  return sym instanceof StringAttr ? sym.value : null;
}

/**
 * Renders the data-flow graph of every function under `root` (or of `root` itself) as SVG text.
 * Throws a `UserError` when `options.func` names no function of `root`.
 */
export function opGraphSvg(root: Operation, options: OpGraphOptions = {}): string {
  const maxLabel = Math.max(8, options.maxLabel ?? DEFAULT_MAX_LABEL);
  let fns: Operation[] = [];
  if (isFunctionLike(root)) fns.push(root);
  else root.walk((op) => (isFunctionLike(op) ? (fns.push(op), false) : true), 'pre');
  if (options.func !== undefined) {
    const names = fns.map(symbolName).filter((n): n is string => n !== null);
    fns = fns.filter((fn) => symbolName(fn) === options.func);
    if (!fns.length) throw new UserError(`--view-op-graph-func: no function named '${options.func}' (functions: ${names.join(', ') || 'none'})`);
  }
  const aliases = collectAliases(root);
  const deepest = regionDepth(fns.length ? fns : [root]);
  const draw = (depth: number) => {
    const builder = new GraphBuilder(aliases, depth, maxLabel);
    if (fns.length) for (const fn of fns) builder.addFunction(fn);
    else builder.addRoot(root);
    builder.addEdges(fns.length ? fns : [root]);
    const placed = placeGraph(builder.nodes, builder.edges, { maxWidth: FIT_PX });
    const legend = builder.legend();
    const notes: string[] = [];
    if (depth < deepest) notes.push(`regions below depth ${depth} are collapsed (orange dashed boxes); --view-op-graph-depth=${deepest} draws them all`);
    const legendH = (legend.length ? (legend.length + 1) * LINE_H + 8 : 0) + notes.length * LINE_H;
    const legendW = Math.max(0, ...legend.map(([a, f]) => (a.length + f.length + 3) * CHAR_W + 24), ...notes.map((n) => n.length * CHAR_W + 24));
    const width = Math.ceil(Math.max(placed.width, legendW, 40));
    const height = Math.ceil(placed.height + legendH + 8);
    return { b: builder, depth, legend, notes, placed, width, height };
  };
  let drawn = draw(options.depth ?? deepest);
  while (options.depth === undefined && drawn.depth > 0 && Math.max(drawn.width, drawn.height) > FIT_PX) drawn = draw(drawn.depth - 1);
  const { b, legend, notes, width, height } = drawn;
  const { height: gh, routes } = drawn.placed;
  const legendTop = gh + 8;

  const parts: string[] = [];
  parts.push('<?xml version="1.0" encoding="UTF-8"?>');
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="monospace" font-size="${FONT_SIZE}">`);
  parts.push(`<style>${STYLE}</style>`);
  parts.push(
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">' +
      '<path d="M0 0 L10 5 L0 10 z" fill="#555555"/></marker></defs>',
  );
  parts.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`);
  const all = [...b.nodes.values()];
  const clusters = all.filter(isCluster).sort((p, q) => depth(b, p) - depth(b, q));
  for (const n of clusters) parts.push(renderCluster(n));
  for (const e of b.edges) {
    if (e.kind === 'layout') continue;
    parts.push(
      `<path class="${e.kind === 'use' ? 'edge' : 'succ'}" id="${e.id}" data-from="${e.from}" data-to="${e.to}" d="${routePath(routes.get(e.id))}" marker-end="url(#arrow)"><title>${esc(e.title)}</title></path>`,
    );
  }
  for (const n of all) if (n.kind === 'op' || n.kind === 'arg') parts.push(renderBox(n));
  if (legend.length) {
    parts.push(`<g class="legend"><text x="12" y="${num(legendTop + LINE_H)}" font-weight="bold">aliases:</text>`);
    legend.forEach(([alias, full], k) => {
      parts.push(`<text x="12" y="${num(legendTop + (k + 2) * LINE_H)}">${esc(`${alias} = ${full}`)}</text>`);
    });
    parts.push('</g>');
  }
  const notesTop = legendTop + (legend.length ? (legend.length + 1) * LINE_H + 8 : 0);
  notes.forEach((n, k) => parts.push(`<text class="note" x="12" y="${num(notesTop + (k + 1) * LINE_H)}">${esc(n)}</text>`));
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}

/** Writes `opGraphSvg(root, options)` to `path` (for `triton-opt --view-op-graph=FILE.svg`). */
export function writeOpGraphSvg(root: Operation, path: string, options: OpGraphOptions = {}): void {
  writeFileSync(path, opGraphSvg(root, options));
}
