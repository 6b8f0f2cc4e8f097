/**
 * Tests for tools/op-graph.ts (`--view-op-graph`): renders real Triton dumps, checks the SVG is
 * well-formed XML with a small checker written here, and counts its nodes, edges and clusters
 * against the IR (one op box per op, one arrow per OpOperand, one cluster per non-function region).
 * The geometry is checked too: every picture of the examples and of every lit module fits
 * `FIT_PX`, no two boxes overlap, every arrow starts on its source box and ends on its target
 * box, and in flat pictures no arrow crosses another box.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import type { Operation } from '../../ir/ir.js';
import { parseSourceFile, parseText } from '../../ir/parser.js';
import { verify } from '../../ir/verifier.js';
import { splitInput } from '../../tools/input-chunks.js';
import { FIT_PX, opGraphSvg, writeOpGraphSvg, type OpGraphOptions } from '../../tools/op-graph.js';
import { isotonic } from '../../tools/op-graph-coords.js';
import { wrapRanks } from '../../tools/op-graph-layers.js';

registerAllDialects();

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const examples = join(root, 'examples/ttir');

// ---- a small XML well-formedness checker ----------------------------------------------------

/** A parsed XML element. */
interface XmlElement {
  name: string;
  attrs: Map<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;
const ENTITY = /^&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/;

/** Throws unless every `&` in `s` starts a known entity and `s` has no raw `<`. */
function checkChars(s: string, where: string): void {
  if (s.includes('<')) throw new Error(`raw '<' in ${where}: ${s.slice(0, 60)}`);
  for (let k = s.indexOf('&'); k >= 0; k = s.indexOf('&', k + 1)) {
    if (!ENTITY.test(s.slice(k))) throw new Error(`bad entity in ${where}: ${s.slice(k, k + 12)}`);
  }
}

/** Decodes the five predefined entities and character references. */
function decode(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g, (_m, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[e]!;
  });
}

/** Parses `xml`, throwing on any well-formedness error; returns the root element. */
function parseXml(xml: string): XmlElement {
  let pos = 0;
  if (xml.startsWith('<?xml')) {
    pos = xml.indexOf('?>');
    if (pos < 0) throw new Error('unterminated XML declaration');
    pos += 2;
  }
  const stack: XmlElement[] = [];
  let rootEl: XmlElement | null = null;
  while (pos < xml.length) {
    const lt = xml.indexOf('<', pos);
    const text = lt < 0 ? xml.slice(pos) : xml.slice(pos, lt);
    checkChars(text, 'text');
    if (stack.length) stack[stack.length - 1].text += decode(text);
    else if (text.trim()) throw new Error(`text outside the root element: ${text.trim().slice(0, 40)}`);
    if (lt < 0) break;
    pos = lt;
    if (xml.startsWith('<!--', pos)) {
      const end = xml.indexOf('-->', pos);
      if (end < 0) throw new Error('unterminated comment');
      pos = end + 3;
      continue;
    }
    if (xml.startsWith('</', pos)) {
      const m = NAME.exec(xml.slice(pos + 2));
      const top = stack.pop();
      if (!m || !top || top.name !== m[0]) throw new Error(`mismatched close tag </${m?.[0]}> for <${top?.name}>`);
      pos += 2 + m[0].length;
      while (/\s/.test(xml[pos])) pos++;
      if (xml[pos] !== '>') throw new Error(`bad close tag </${m[0]}`);
      pos++;
      continue;
    }
    const m = NAME.exec(xml.slice(pos + 1));
    if (!m) throw new Error(`bad tag at ${pos}: ${xml.slice(pos, pos + 20)}`);
    const el: XmlElement = { name: m[0], attrs: new Map(), children: [], text: '' };
    pos += 1 + m[0].length;
    for (;;) {
      const ws = /^\s*/.exec(xml.slice(pos))![0].length;
      pos += ws;
      if (xml.startsWith('/>', pos) || xml[pos] === '>') break;
      if (!ws) throw new Error(`missing space before attribute in <${el.name}>`);
      const a = /^([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*(["'])/.exec(xml.slice(pos));
      if (!a) throw new Error(`bad attribute in <${el.name}>: ${xml.slice(pos, pos + 30)}`);
      pos += a[0].length;
      const close = xml.indexOf(a[2], pos);
      if (close < 0) throw new Error(`unterminated attribute ${a[1]}`);
      const raw = xml.slice(pos, close);
      checkChars(raw, `attribute ${a[1]}`);
      if (el.attrs.has(a[1])) throw new Error(`duplicate attribute ${a[1]} in <${el.name}>`);
      el.attrs.set(a[1], decode(raw));
      pos = close + 1;
    }
    if (stack.length) stack[stack.length - 1].children.push(el);
    else if (rootEl) throw new Error('more than one root element');
    else rootEl = el;
    if (xml.startsWith('/>', pos)) pos += 2;
    else {
      pos++;
      stack.push(el);
    }
  }
  if (stack.length) throw new Error(`unclosed <${stack[stack.length - 1].name}>`);
  if (!rootEl) throw new Error('no root element');
  return rootEl;
}

/** Every element of the tree, pre-order. */
function allElements(e: XmlElement): XmlElement[] {
  return [e, ...e.children.flatMap(allElements)];
}

/** Elements whose class list contains `cls`. */
function withClass(els: XmlElement[], cls: string): XmlElement[] {
  return els.filter((e) => (e.attrs.get('class') ?? '').split(/\s+/).includes(cls));
}

// ---- expectations from the IR ----------------------------------------------------------------

/** Ops, operands, non-function regions and block arguments inside the functions of `m`. */
function irCounts(m: Operation): { ops: string[]; operands: number; regions: number; args: number } {
  const out = { ops: [] as string[], operands: 0, regions: 0, args: 0 };
  const fns: Operation[] = [];
  m.walk((op) => (op.name === 'tt.func' || op.name === 'func.func' ? (fns.push(op), false) : true), 'pre');
  for (const fn of fns) {
    for (const b of fn.regions[0].blocks) out.args += b.args.length;
    fn.walk((op) => {
      if (op === fn) return;
      out.ops.push(op.name);
      out.operands += op.numOperands;
      out.regions += op.regions.length;
      for (const r of op.regions) for (const b of r.blocks) out.args += b.args.length;
    });
  }
  return out;
}

const NUMERIC_ATTRS = ['x', 'y', 'width', 'height', 'rx', 'ry', 'refX', 'refY', 'markerWidth', 'markerHeight'];

/** Everything drawn: no region collapsed. */
const ALL: OpGraphOptions = { depth: 99 };

/** Renders `m` with every region drawn, parses the SVG and checks it against the IR; returns the parsed elements. */
function checkSvg(m: Operation, label: string, options: OpGraphOptions = ALL): XmlElement[] {
  const svg = opGraphSvg(m, options);
  const rootEl = parseXml(svg);
  assert.is(rootEl.name, 'svg', label);
  assert.is(rootEl.attrs.get('xmlns'), 'http://www.w3.org/2000/svg', label);
  const els = allElements(rootEl);
  const want = irCounts(m);
  const ops = withClass(els, 'op');
  assert.is(ops.length, want.ops.length, `${label}: op boxes`);
  assert.equal(ops.map((e) => e.attrs.get('data-op')).sort(), [...want.ops].sort(), `${label}: data-op names`);
  assert.is(withClass(els, 'edge').length, want.operands, `${label}: edges`);
  assert.is(withClass(els, 'region').length, want.regions, `${label}: region clusters`);
  assert.is(withClass(els, 'arg').length, want.args, `${label}: argument boxes`);
  for (const e of els) {
    for (const a of NUMERIC_ATTRS) {
      const v = e.attrs.get(a);
      if (v !== undefined) assert.ok(Number.isFinite(Number(v)), `${label}: <${e.name} ${a}="${v}">`);
    }
    for (const a of ['d', 'viewBox']) {
      const v = e.attrs.get(a);
      if (v === undefined) continue;
      for (const n of v.match(/-?[0-9.e+-]+/g) ?? []) assert.ok(Number.isFinite(Number(n)), `${label}: <${e.name} ${a}> has ${n}`);
      assert.not.match(v, /NaN|Infinity|undefined/, `${label}: <${e.name} ${a}>`);
    }
  }
  checkBoxes(rootEl, [...ops, ...withClass(els, 'arg')], label);
  return els;
}

/** Box of an op/arg group: its first rect. */
function rectOf(g: XmlElement): { x: number; y: number; w: number; h: number } {
  const r = g.children.find((c) => c.name === 'rect')!;
  return { x: Number(r.attrs.get('x')), y: Number(r.attrs.get('y')), w: Number(r.attrs.get('width')), h: Number(r.attrs.get('height')) };
}

/** Boxes lie inside the canvas, do not overlap each other, and are wide enough for their text. */
function checkBoxes(svg: XmlElement, boxes: XmlElement[], label: string): void {
  const W = Number(svg.attrs.get('width'));
  const H = Number(svg.attrs.get('height'));
  const rects = boxes.map(rectOf);
  rects.forEach((r, k) => {
    assert.ok(r.x >= 0 && r.y >= 0 && r.x + r.w <= W + 0.5 && r.y + r.h <= H + 0.5, `${label}: box ${k} outside the canvas`);
    const longest = Math.max(...boxes[k].children.filter((c) => c.name === 'text').map((t) => t.text.length));
    assert.ok(longest * 7 <= r.w, `${label}: box ${k} too narrow for its text`);
  });
  for (let a = 0; a < rects.length; a++) {
    for (let b = a + 1; b < rects.length; b++) {
      const p = rects[a];
      const q = rects[b];
      const overlap = p.x < q.x + q.w && q.x < p.x + p.w && p.y < q.y + q.h && q.y < p.y + p.h;
      assert.not.ok(overlap, `${label}: boxes ${boxes[a].attrs.get('id')} and ${boxes[b].attrs.get('id')} overlap`);
    }
  }
}

// ---- geometry --------------------------------------------------------------------------------

type Rect = { x: number; y: number; w: number; h: number };
type Pt = { x: number; y: number };

/** The coordinates of a path's `d` (end and control points, in order). */
function pathPoints(d: string): Pt[] {
  const n = (d.match(/-?[0-9.]+(?:e[-+]?[0-9]+)?/g) ?? []).map(Number);
  const pts: Pt[] = [];
  for (let k = 0; k + 1 < n.length; k += 2) pts.push({ x: n[k], y: n[k + 1] });
  return pts;
}

/** Whether `p` lies on the border of `r`, within `tol` pixels. */
function onBorder(p: Pt, r: Rect, tol = 1.5): boolean {
  const inOuter = p.x >= r.x - tol && p.x <= r.x + r.w + tol && p.y >= r.y - tol && p.y <= r.y + r.h + tol;
  const inInner = p.x > r.x + tol && p.x < r.x + r.w - tol && p.y > r.y + tol && p.y < r.y + r.h - tol;
  return inOuter && !inInner;
}

/** Whether the segment a-b passes through the inside of `r` shrunk by 1 px (Liang-Barsky clipping). */
function crosses(a: Pt, b: Pt, r: Rect): boolean {
  const [x0, y0, x1, y1] = [r.x + 1, r.y + 1, r.x + r.w - 1, r.y + r.h - 1];
  let t0 = 0;
  let t1 = 1;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  for (const [p, q] of [[-dx, a.x - x0], [dx, x1 - a.x], [-dy, a.y - y0], [dy, y1 - a.y]]) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return t1 - t0 > 1e-9;
}

/**
 * Every arrow starts on its source box and ends on its target box; with `noCrossing`, the
 * polygon through its points (which holds its curves) crosses no other box.
 */
function checkArrows(els: XmlElement[], label: string, noCrossing: boolean): void {
  const boxes = new Map([...withClass(els, 'op'), ...withClass(els, 'arg')].map((g) => [g.attrs.get('id')!, rectOf(g)]));
  const arrows = [...withClass(els, 'edge'), ...withClass(els, 'succ')];
  for (const e of arrows) {
    const from = e.attrs.get('data-from')!;
    const to = e.attrs.get('data-to')!;
    const pts = pathPoints(e.attrs.get('d')!);
    const what = `${label}: arrow ${e.attrs.get('id')} ${from}->${to}`;
    assert.ok(pts.length >= 2, `${what} has points`);
    assert.ok(onBorder(pts[0], boxes.get(from)!), `${what} starts at (${pts[0].x}, ${pts[0].y}), off its source box`);
    const end = pts[pts.length - 1];
    assert.ok(onBorder(end, boxes.get(to)!), `${what} ends at (${end.x}, ${end.y}), off its target box ${JSON.stringify(boxes.get(to))}`);
    if (!noCrossing) continue;
    for (const [id, r] of boxes) {
      if (id === from || id === to) continue;
      for (let k = 0; k + 1 < pts.length; k++) assert.not.ok(crosses(pts[k], pts[k + 1], r), `${what} crosses box ${id}`);
    }
  }
}

/** Parses a picture and checks it fits `FIT_PX`, its boxes and its arrows; returns its elements. */
function checkPicture(svg: string, label: string, noCrossing: boolean): XmlElement[] {
  const rootEl = parseXml(svg);
  const [w, h] = [Number(rootEl.attrs.get('width')), Number(rootEl.attrs.get('height'))];
  assert.ok(w <= FIT_PX && h <= FIT_PX, `${label}: ${w}x${h} px is over ${FIT_PX} px`);
  const els = allElements(rootEl);
  checkBoxes(rootEl, [...withClass(els, 'op'), ...withClass(els, 'arg')], label);
  checkArrows(els, label, noCrossing);
  return els;
}

function load(name: string): Operation {
  return parseText(readFileSync(join(examples, name), 'utf8'), {}, name).module;
}

// ---- tests -----------------------------------------------------------------------------------

test('the XML checker rejects malformed input', () => {
  assert.throws(() => parseXml('<a><b></a></b>'), /mismatched/);
  assert.throws(() => parseXml('<a x=1/>'), /bad attribute/);
  assert.throws(() => parseXml('<a>&foo;</a>'), /bad entity/);
  assert.throws(() => parseXml('<a x="<"/>'), /raw '<'/);
  assert.throws(() => parseXml('<a>'), /unclosed/);
  assert.throws(() => parseXml('<a/><b/>'), /more than one root/);
  assert.is(parseXml('<?xml version="1.0"?><a t="&lt;&amp;&quot;">x &gt; y</a>').attrs.get('t'), '<&"');
});

for (const name of ['add_kernel.ttir', 'matmul_kernel.ttir', 'softmax_kernel.sm80.ttgir', 'matmul_kernel.sm90.ttgir']) {
  test(`${name}: well-formed SVG with one box per op and one arrow per operand`, () => {
    checkSvg(load(name), name);
  });
}

test('add_kernel: labels show op names and result types, function cluster named by symbol', () => {
  const els = checkSvg(load('add_kernel.ttir'), 'add');
  const load_ = withClass(els, 'op').find((e) => e.attrs.get('data-op') === 'tt.load')!;
  const texts = load_.children.filter((c) => c.name === 'text').map((t) => t.text);
  assert.equal(texts, ['tt.load', 'tensor<1024xf32>']);
  const fn = withClass(els, 'func');
  assert.is(fn.length, 1);
  assert.match(fn[0].children.find((c) => c.name === 'text')!.text, '@add_kernel');
  assert.ok(els.some((e) => e.name === 'marker'), 'arrowhead marker');
});

test('ttgir: layouts print as aliases in boxes, in full in tooltips and the legend', () => {
  const els = checkSvg(load('add_kernel.sm80.ttgir'), 'add.ttgir');
  const load_ = withClass(els, 'op').find((e) => e.attrs.get('data-op') === 'tt.load')!;
  assert.equal(load_.children.filter((c) => c.name === 'text').map((t) => t.text)[1], 'tensor<1024xf32, #blocked>');
  assert.match(load_.children.find((c) => c.name === 'title')!.text, '#ttg.blocked<{sizePerThread');
  const legend = withClass(els, 'legend')[0];
  assert.ok(legend.children.some((t) => t.text.startsWith('#blocked = #ttg.blocked<{')));
});

test('regions become clusters labelled after their op; long types are cut with an ellipsis', () => {
  const els = checkSvg(load('matmul_kernel.sm90.ttgir'), 'matmul.sm90');
  const labels = withClass(els, 'region').map((g) => g.children.find((c) => c.name === 'text')!.text);
  assert.ok(labels.includes('scf.for body'), labels.join(', '));
  const cut = withClass(els, 'op').flatMap((g) => g.children.filter((c) => c.name === 'text' && c.text.endsWith('\u2026')));
  for (const t of cut) assert.ok(t.text.length <= 44);
});

const TWO_FUNCS = `
module {
  func.func @"a&b<c>\\"d"(%x: i32, %y: i32) -> i32 {
    %0 = arith.addi %x, %x : i32
    %1 = arith.cmpi slt, %0, %y : i32
    cf.cond_br %1, ^bb1(%0 : i32), ^bb1(%y : i32)
  ^bb1(%v: i32):
    return %v : i32
  }
  func.func @second(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %c = arith.cmpi slt, %i, %n : index
      scf.if %c {
        %z = arith.addi %i, %i : index
      }
    }
    return
  }
}`;

test('several functions, multi-block regions, nested clusters, escaped symbol names', () => {
  const m = parseText(TWO_FUNCS).module;
  const els = checkSvg(m, 'two funcs');
  const names = withClass(els, 'func').map((g) => g.children.find((c) => c.name === 'text')!.text);
  assert.equal(names, ['func.func @a&b<c>"d', 'func.func @second']);
  assert.is(withClass(els, 'region').length, 3); // scf.for body, scf.if then + (empty) else
  assert.ok(withClass(els, 'arg').some((g) => g.children.some((t) => t.text.startsWith('^bb1 %v'))));
  assert.is(withClass(els, 'succ').length, 2, 'one dashed arrow per successor of cf.cond_br');
});

test('a function op as the root draws just that function', () => {
  const m = parseText(TWO_FUNCS).module;
  const fn = m.regions[0].blocks[0].last!;
  const els = allElements(parseXml(opGraphSvg(fn, ALL)));
  assert.is(withClass(els, 'func').length, 1);
  assert.is(withClass(els, 'op').length, 9); // with the implicit scf.yield terminators
});

/** Texts of the `<text>` children of a group. */
const textsOf = (g: XmlElement): string[] => g.children.filter((c) => c.name === 'text').map((t) => t.text);

/** The ops nested in `op`'s regions and the distinct values defined outside `op` that it and they use. */
function insideOf(op: Operation): { ops: number; outside: number } {
  let ops = -1;
  const outside = new Set<unknown>();
  op.walk((inner) => {
    ops++;
    for (const o of inner.operands) if (!op.regions.some((r) => r.isAncestorOfValue(o.value))) outside.add(o.value);
  }, 'pre');
  return { ops, outside: outside.size };
}

test('default depth: the tt matmul fits the screen with its loop body collapsed into one box', () => {
  const m = load('matmul_kernel.ttir');
  const root = parseXml(opGraphSvg(m));
  assert.ok(Math.max(Number(root.attrs.get('width')), Number(root.attrs.get('height'))) <= FIT_PX, 'long side within FIT_PX');
  const els = allElements(root);
  assert.is(withClass(els, 'region').length, 0, 'no region cluster drawn');
  const boxes = withClass(els, 'collapsed');
  assert.is(boxes.length, 1, 'one collapsed box');
  assert.is(boxes[0].attrs.get('data-op'), 'scf.for');
  let loop: Operation | null = null;
  m.walk((op) => void (op.name === 'scf.for' && (loop = op)), 'pre');
  const want = insideOf(loop!);
  assert.ok(want.ops > 10, `the loop has ${want.ops} ops`);
  assert.ok(textsOf(boxes[0]).includes(`[${want.ops} ops collapsed]`), textsOf(boxes[0]).join(' | '));
  // One op box per op outside the loop; one arrow per distinct outside value the loop's ops use.
  let outsideOps = 0;
  m.walk((op) => (op.name === 'builtin.module' ? true : (outsideOps++, op.name !== 'scf.for')), 'pre');
  assert.is(withClass(els, 'op').length, outsideOps - 1);
  const id = boxes[0].attrs.get('id');
  const into = withClass(els, 'edge').filter((e) => e.attrs.get('data-to') === id);
  assert.is(into.length, want.outside, 'one arrow per distinct outside value the loop box uses');
  assert.ok(withClass(els, 'note').some((t) => t.text.includes('--view-op-graph-depth=1 draws them all')));
});

const NESTED = `
module {
  func.func @outer(%n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %c = arith.cmpi slt, %i, %n : index
      %v = scf.if %c -> (index) {
        %z = arith.addi %i, %acc : index
        scf.yield %z : index
      } else {
        scf.yield %n : index
      }
      scf.yield %v : index
    }
    return %r : index
  }
  func.func @other(%x: i32) -> i32 {
    return %x : i32
  }
}`;

test('--view-op-graph-depth: 0 collapses the loop, 1 draws the loop body and collapses the branch', () => {
  const m = parseText(NESTED).module;
  const d0 = allElements(parseXml(opGraphSvg(m, { depth: 0, func: 'outer' })));
  // c0, c1, scf.for (collapsed), return; args: %n.
  assert.equal(withClass(d0, 'op').map((g) => g.attrs.get('data-op')), ['arith.constant', 'arith.constant', 'scf.for', 'func.return']);
  assert.is(withClass(d0, 'region').length, 0);
  const loop = withClass(d0, 'collapsed')[0];
  assert.ok(textsOf(loop).includes('[6 ops collapsed]'), textsOf(loop).join(' | '));
  // Into the loop box, one arrow per distinct value: its operands %c0, %n, %c1 (%c0 again as the init, %n inside).
  assert.is(withClass(d0, 'edge').filter((e) => e.attrs.get('data-to') === loop.attrs.get('id')).length, 3);
  const d1 = allElements(parseXml(opGraphSvg(m, { depth: 1, func: 'outer' })));
  assert.equal(withClass(d1, 'region').map((g) => textsOf(g)[0]), ['scf.for body']);
  const branch = withClass(d1, 'collapsed');
  assert.equal(branch.map((g) => g.attrs.get('data-op')), ['scf.if']);
  assert.ok(textsOf(branch[0]).includes('[3 ops collapsed]'));
  // The branch uses %c (its operand), %i, %acc and %n from outside it: one arrow each.
  assert.is(withClass(d1, 'edge').filter((e) => e.attrs.get('data-to') === branch[0].attrs.get('id')).length, 4);
  const all = allElements(parseXml(opGraphSvg(m, { func: 'outer' })));
  assert.is(withClass(all, 'collapsed').length, 0, 'a small function is drawn whole by default');
  assert.is(withClass(all, 'region').length, 3);
});

test('--view-op-graph-func draws one function; an unknown name is an error listing the functions', () => {
  const m = parseText(NESTED).module;
  const els = allElements(parseXml(opGraphSvg(m, { func: 'other' })));
  assert.equal(withClass(els, 'func').map((g) => textsOf(g)[0]), ['func.func @other']);
  assert.equal(withClass(els, 'op').map((g) => g.attrs.get('data-op')), ['func.return']);
  assert.throws(() => opGraphSvg(m, { func: 'nope' }), /no function named 'nope' \(functions: outer, other\)/);
});

test('--view-op-graph-max-label cuts every label line to N characters, the tooltip keeps the full type', () => {
  const m = load('matmul_kernel.sm90.ttgir');
  const els = allElements(parseXml(opGraphSvg(m, { depth: 0, maxLabel: 16 })));
  const lines = [...withClass(els, 'op'), ...withClass(els, 'arg')].flatMap(textsOf).filter((t) => !t.endsWith('collapsed]'));
  assert.ok(lines.every((t) => t.length <= 16), lines.filter((t) => t.length > 16).join(' | '));
  const cut = withClass(els, 'op').find((g) => textsOf(g).some((t) => t.endsWith('\u2026')))!;
  const title = cut.children.find((c) => c.name === 'title')!.text;
  const line = textsOf(cut).find((t) => t.endsWith('\u2026'))!;
  assert.ok(title.includes(line.slice(0, -1)), `${line} is the start of something in ${title}`);
  assert.ok(title.length > 16);
});

test('writeOpGraphSvg writes the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'op-graph-'));
  try {
    const path = join(dir, 'g.svg');
    writeOpGraphSvg(load('add_kernel.ttir'), path);
    const text = readFileSync(path, 'utf8');
    assert.ok(text.startsWith('<?xml'));
    parseXml(text);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---- placement: every picture fits, boxes apart, arrows on their boxes ---------------------------

for (const name of readdirSync(examples).sort()) {
  test(`${name}: the default picture fits ${FIT_PX} px, no boxes overlap, every arrow joins its two boxes`, () => {
    const m = load(name);
    checkSvg(m, name); // everything drawn: counts, boxes apart
    const els = checkPicture(opGraphSvg(m), name, false);
    const flat = withClass(els, 'region').length === 0;
    if (flat) checkArrows(els, name, true);
    checkPicture(opGraphSvg(m, { depth: 0 }), `${name} at depth 0`, true);
  });
}

test('the matmul TTGIRs are drawn whole at depth 0, within 4000 px (they were 7300 px wide with dagre)', () => {
  for (const name of ['matmul_kernel.sm80.ttgir', 'matmul_kernel.sm90.ttgir']) {
    const m = load(name);
    const els = checkPicture(opGraphSvg(m), name, true);
    assert.is(withClass(els, 'collapsed').length, 1, `${name}: the loop is one box`);
    let outside = 0;
    m.walk((op) => (op.name === 'builtin.module' || op.name === 'tt.func' ? true : (outside++, op.name !== 'scf.for')), 'pre');
    assert.is(withClass(els, 'op').length, outside, `${name}: a box per op outside the loop`);
  }
});

/** A function whose `n` constants all feed one op (its return). */
function wideFunction(n: number): string {
  const ids = Array.from({ length: n }, (_, k) => `%c${k}`);
  const types = ids.map(() => 'i32').join(', ');
  const consts = ids.map((id, k) => `    ${id} = arith.constant ${k} : i32`).join('\n');
  return `module {\n  func.func @wide() -> (${types}) {\n${consts}\n    return ${ids.join(', ')} : ${types}\n  }\n}`;
}

test('a wide function (200 constants feeding one op) wraps its first rank into rows and fits', () => {
  const m = parseText(wideFunction(200)).module;
  const svg = opGraphSvg(m);
  const els = checkPicture(svg, 'wide', true);
  const consts = withClass(els, 'op').filter((g) => g.attrs.get('data-op') === 'arith.constant');
  assert.is(consts.length, 200);
  const rows = new Set(consts.map((g) => rectOf(g).y));
  assert.ok(rows.size >= 5, `the constants lie on ${rows.size} rows`);
  assert.is(withClass(els, 'edge').length, 200, 'one arrow per constant');
  const root = parseXml(svg);
  assert.ok(Number(root.attrs.get('width')) > 3000, 'the rows use the width they have');
});

const CFG_LOOP = `
module {
  func.func @loop(%n: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    cf.br ^bb1(%c0 : i32)
  ^bb1(%i: i32):
    %c = arith.cmpi slt, %i, %n : i32
    cf.cond_br %c, ^bb2, ^bb3
  ^bb2:
    %c1 = arith.constant 1 : i32
    %j = arith.addi %i, %c1 : i32
    cf.br ^bb1(%j : i32)
  ^bb3:
    return %i : i32
  }
  func.func @spin() {
    cf.br ^bb1
  ^bb1:
    cf.br ^bb1
  }
  func.func private @decl(i32) -> i32
}`;

test('a branch back to an earlier block turns round: the block argument stays above its users', () => {
  const els = checkPicture(opGraphSvg(parseText(CFG_LOOP).module), 'cfg loop', true);
  const box = (pred: (g: XmlElement) => boolean): XmlElement => [...withClass(els, 'op'), ...withClass(els, 'arg')].find(pred)!;
  const arg = box((g) => textsOf(g)[0] === '^bb1 %i');
  const cmpi = box((g) => g.attrs.get('data-op') === 'arith.cmpi');
  const addi = box((g) => g.attrs.get('data-op') === 'arith.addi');
  assert.ok(rectOf(arg).y < rectOf(cmpi).y && rectOf(arg).y < rectOf(addi).y, 'the argument above its users');
  const back = withClass(els, 'succ').filter((e) => e.attrs.get('data-to') === arg.attrs.get('id'));
  assert.is(back.length, 2, 'two branches to ^bb1');
  const ends = back.map((e) => pathPoints(e.attrs.get('d')!).at(-1)!.y);
  const r = rectOf(arg);
  assert.ok(ends.some((y) => Math.abs(y - (r.y + r.h)) < 1), 'the branch back enters the argument from below');
  assert.is(withClass(els, 'func').length, 3, 'a cluster per function, the declaration too');
});

test('a non-function root: values from outside are boxes above their users', () => {
  const m = parseText(NESTED).module;
  let loop: Operation | null = null;
  m.walk((op) => void (op.name === 'scf.for' && (loop = op)), 'pre');
  const els = checkPicture(opGraphSvg(loop!, { depth: 0 }), 'loop root', true);
  const outside = withClass(els, 'external');
  assert.ok(outside.length > 0);
  const top = Math.min(...withClass(els, 'op').map((g) => rectOf(g).y));
  for (const g of outside) assert.ok(rectOf(g).y < top, `${textsOf(g)[0]} above the ops`);
});

test('isotonic: the nearest non-decreasing sequence, weighted', () => {
  assert.equal(isotonic([1, 2, 3], [1, 1, 1]), [1, 2, 3]);
  assert.equal(isotonic([3, 1, 2], [1, 1, 1]), [2, 2, 2]);
  assert.equal(isotonic([4, 0], [3, 1]), [3, 3]);
  assert.equal(isotonic([0, 5, 1, 9], [1, 1, 1, 1]), [0, 3, 3, 9]);
});

test('wrapRanks: a rank too wide becomes rows within the width, in-heavy boxes above, more-used ones below', () => {
  const nodes = Array.from({ length: 10 }, (_, k) => ({ width: 100, ins: k === 7 ? 3 : 0, outs: 1 }));
  const rows = wrapRanks([[0], [1, 2, 3, 4, 5, 6, 7, 8, 9], [0]].map((r, k) => (k === 2 ? [] : r)), nodes, [0, 0, 0], { maxWidth: 350, nodeSep: 16, dummySep: 8 });
  assert.equal(rows[0], [0]);
  const wrapped = rows.slice(1, -1);
  assert.ok(wrapped.length >= 3, `${wrapped.length} rows`);
  assert.equal(wrapped.flat().sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.ok(wrapped[0].includes(7), 'the box with arrows in goes to the first row');
  // Each row's boxes and the arrows crossing it (out of the rows above, into the rows below) fit.
  wrapped.forEach((row, k) => {
    const crossing = wrapped.slice(0, k).flat().length + wrapped.slice(k + 1).flat().reduce((s, v) => s + nodes[v].ins, 0);
    assert.ok(row.length * 100 + (row.length - 1) * 16 + crossing * 8 <= 350, `row ${k}: ${row}`);
  });
  assert.equal(wrapRanks([[1, 2]], nodes, [0], { maxWidth: 1000, nodeSep: 16, dummySep: 8 }), [[1, 2]], 'a rank that fits stays one row');
});

/** Files under `dir` (recursively) whose names match `re`. */
function filesUnder(dir: string, re: RegExp): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? filesUnder(p, re) : re.test(f) ? [p] : [];
    });
}

test(`every lit and example module that parses and verifies fits ${FIT_PX} px by default, boxes apart, arrows on their boxes`, () => {
  const files = [...filesUnder(join(root, 'lit'), /\.(tir|ttir|ttgir|mlir)$/), ...filesUnder(join(root, 'examples'), /\.(tir|ttir|ttgir|mlir)$/)];
  let drawn = 0;
  let skipped = 0;
  for (const file of files) {
    splitInput(file, readFileSync(file, 'utf8'), '// -----').forEach((chunk, k) => {
      let m: Operation;
      try {
        // Inputs written to fail (expected-error, `not triton-opt`) neither parse nor verify: skip them.
        m = parseSourceFile(chunk, { allowUnregisteredDialect: true }).module;
        verify(m, { allowUnregistered: true });
      } catch {
        skipped++;
        return;
      }
      const label = `${file.slice(root.length + 1)} #${k}`;
      const els = checkPicture(opGraphSvg(m), label, false);
      if (withClass(els, 'region').length === 0) checkArrows(els, label, true);
      drawn++;
    });
  }
  assert.ok(drawn > 300, `${drawn} modules drawn, ${skipped} skipped`);
});

test.run();
