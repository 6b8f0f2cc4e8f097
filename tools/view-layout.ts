/**
 * `--view-layout`: draws, for every distinct (distributed layout, shape) pair used by a tensor in a
 * module, the grid of the tensor's elements coloured by owning warp, with the lane number in each
 * cell and the register index small below it, as one standalone SVG; then every shared-memory
 * buffer (view-layout-shared.ts).
 *
 * A layout repeats: past its CTA tile, the same warps and lanes own the next elements with other
 * registers. Only one repetition is drawn (`repeatPeriod`: the smallest power-of-two block of
 * rows and columns whose owners (warp, lane) repeat over the whole tensor), with a note of how
 * many times it repeats and how the registers of the next repetition continue.
 */
import { writeFileSync } from 'node:fs';
import type { Attribute } from '../ir/attributes.js';
import type { Operation, Value } from '../ir/ir.js';
import { RankedTensorType } from '../ir/types.js';
import { isSupportedLayout, numThreadsPerWarp, numWarps, ownersOf, totalElemsPerThread, type Owner } from '../dialects/ttg/layout-lib.js';
import { escapeXml as esc } from './svg.js';
import { SHARED_STYLE, sharedPanels } from './view-layout-shared.js';

/** Most rows and columns of cells drawn per layout. */
export const MAX_CELLS = 64;

const CELL = 30;
const PAD = 16;
const LABEL_W = 34;
const CHAR_W = 7.3;
const TITLE_W = 8.2;
const LINE_H = 18;

/** One (layout, shape) pair of the module, in first-use order. */
export interface LayoutUse {
  layout: Attribute;
  shape: number[];
}

const isPow2 = (n: number): boolean => Number.isInteger(n) && n >= 1 && (n & (n - 1)) === 0;

/** Every distinct (distributed layout, shape) pair of the ranked tensors the module's values have. */
export function collectLayoutUses(root: Operation): LayoutUse[] {
  const seen = new Map<string, LayoutUse>();
  const add = (v: Value) => {
    const t = v.type;
    if (!(t instanceof RankedTensorType) || !t.encoding || !isSupportedLayout(t.encoding)) return;
    if (!t.shape.every(isPow2)) return;
    const key = `${t.encoding.id}:${t.shape.join('x')}`;
    if (!seen.has(key)) seen.set(key, { layout: t.encoding, shape: [...t.shape] });
  };
  root.walk((op) => {
    for (const r of op.regions) for (const b of r.blocks) b.args.forEach(add);
    op.results.forEach(add);
  }, 'pre');
  return [...seen.values()];
}

/** XML text escaping. */

const num = (x: number): string => String(Math.round(x * 10) / 10);

/** Fill colour of a cell: hue by warp, lightness alternating with the lane so thread boundaries show. */
export function cellColour(warp: number, lane: number, warps: number): string {
  const hue = Math.round((warp * 360) / Math.max(1, warps)) % 360;
  return `hsl(${hue}, 70%, ${lane % 2 ? 84 : 72}%)`;
}

/** The 2-D view drawn for a shape: rows x cols of the last two dims (1-D: rows of at most 64). */
function gridOf(shape: readonly number[]): { rows: number; cols: number; note: string } {
  if (shape.length === 0) return { rows: 1, cols: 1, note: '' };
  if (shape.length === 1) {
    const n = shape[0];
    if (n <= MAX_CELLS) return { rows: 1, cols: n, note: '' };
    return { rows: n / MAX_CELLS, cols: MAX_CELLS, note: `1-D, wrapped in rows of ${MAX_CELLS}` };
  }
  const lead = shape.slice(0, -2);
  const note = lead.length ? `showing [${lead.map(() => '0').join(', ')}, :, :]` : '';
  return { rows: shape[shape.length - 2], cols: shape[shape.length - 1], note };
}

/** The threads (block, warp, lane) holding element `idx`, as a key (registers left out). */
function threadsKey(owners: Owner[][], idx: number): string {
  return owners[idx].map((o) => `${o.block}.${o.warp}.${o.lane}`).join(' ');
}

/**
 * The smallest power-of-two rows `pr` and columns `pc` (dividing `rows`, `cols`) such that element
 * (r, c) of the grid is held by the same threads as (r mod pr, c mod pc): the block drawn.
 * `owners` is indexed by `r * cols + c`.
 */
export function repeatPeriod(owners: Owner[][], rows: number, cols: number): { rows: number; cols: number } {
  const repeats = (dr: number, dc: number): boolean => {
    for (let r = 0; r + dr < rows; r++) {
      for (let c = 0; c + dc < cols; c++) if (threadsKey(owners, (r + dr) * cols + c + dc) !== threadsKey(owners, r * cols + c)) return false;
    }
    return true;
  };
  let pr = 1;
  while (pr < rows && !repeats(pr, 0)) pr *= 2;
  let pc = 1;
  while (pc < cols && !repeats(0, pc)) pc *= 2;
  return { rows: pr, cols: pc };
}

/**
 * How many elements from `idx` on (at most `max`, along the row) one thread holds in consecutive
 * registers: the same threads own each, each copy's register one more than the last. Drawn as one box.
 */
export function runLength(owners: Owner[][], idx: number, max: number): number {
  const first = owners[idx];
  let n = 1;
  while (n < max) {
    const next = owners[idx + n];
    const same = next.length === first.length && next.every((o, k) => o.block === first[k].block && o.warp === first[k].warp && o.lane === first[k].lane && o.register === first[k].register + n);
    if (!same) break;
    n++;
  }
  return n;
}

function ownerText(o: Owner): string {
  return `${o.block ? `block ${o.block} ` : ''}warp ${o.warp} lane ${o.lane} reg ${o.register}`;
}

/** One panel: title, info line, column/row labels and the cells. Returns its SVG and size. */
function panel(use: LayoutUse, top: number, index: number): { svg: string; width: number; height: number } {
  const { layout, shape } = use;
  const owners = ownersOf(layout, shape);
  const warps = numWarps(layout);
  const { rows, cols, note } = gridOf(shape);
  const period = repeatPeriod(owners, rows, cols);
  const shownR = Math.min(period.rows, MAX_CELLS);
  const shownC = Math.min(period.cols, MAX_CELLS);
  const notes = [note];
  if (period.rows < rows || period.cols < cols) {
    const next = period.cols < cols ? owners[period.cols][0] : owners[period.rows * cols][0];
    notes.push(`one repetition of ${period.rows}x${period.cols}, repeated ${rows / period.rows}x${cols / period.cols} times (the next starts at register ${next.register})`);
  }
  if (shownR < period.rows || shownC < period.cols) notes.push(`showing its first ${shownR}x${shownC} elements`);
  const title = `${shape.join('x')}  ${String(layout)}`;
  const info =
    `warps ${warps} · threads/warp ${numThreadsPerWarp(layout)} · registers/thread ${totalElemsPerThread(layout, shape)}` +
    notes.filter(Boolean).map((n) => ` · ${n}`).join('');
  const gridX = PAD + LABEL_W;
  const gridY = top + 2 * LINE_H + 22;
  const parts: string[] = [];
  parts.push(`<g class="layout" id="l${index}" data-shape="${shape.join('x')}">`);
  parts.push(`<text class="title" x="${PAD}" y="${num(top + LINE_H)}">${esc(title)}</text>`);
  parts.push(`<text class="info" x="${PAD}" y="${num(top + 2 * LINE_H)}">${esc(info)}</text>`);
  const step = shownC > 16 ? 4 : 1;
  for (let c = 0; c < shownC; c += step) parts.push(`<text class="idx" x="${num(gridX + c * CELL + CELL / 2)}" y="${num(gridY - 5)}">${c}</text>`);
  for (let r = 0; r < shownR; r += shownR > 16 ? 4 : 1) {
    const label = shape.length === 1 && cols < shape[0] ? r * cols : r;
    parts.push(`<text class="ridx" x="${num(gridX - 4)}" y="${num(gridY + r * CELL + CELL / 2 + 4)}">${label}</text>`);
  }
  for (let r = 0; r < shownR; r++) {
    for (let c = 0; c < shownC; ) {
      const idx = r * cols + c;
      const os = owners[idx];
      const o = os[0];
      const run = runLength(owners, idx, shownC - c);
      const x = gridX + c * CELL;
      const y = gridY + r * CELL;
      const w = run * CELL;
      const lead = shape.slice(0, -2).map(() => 0);
      const where = shape.length === 1 ? `[${idx}${run > 1 ? `..${idx + run - 1}` : ''}]` : `[${[...lead, r, run > 1 ? `${c}..${c + run - 1}` : c].join(', ')}]`;
      const more = os.length > 4 ? `; +${os.length - 4} more` : '';
      const regs = run > 1 ? `r${o.register}-${o.register + run - 1}` : `r${o.register}`;
      const tip = `${where}: ${os.slice(0, 4).map(ownerText).join('; ')}${run > 1 ? ` (to reg ${o.register + run - 1})` : ''}${more}`;
      parts.push(
        `<g class="cell" data-run="${run}"><title>${esc(tip)}</title>` +
          `<rect x="${num(x)}" y="${num(y)}" width="${w}" height="${CELL}" fill="${cellColour(o.warp, o.lane, warps)}"/>` +
          `<text class="lane" x="${num(x + w / 2)}" y="${num(y + 14)}">${o.lane}</text>` +
          `<text class="reg" x="${num(x + w / 2)}" y="${num(y + 25)}">${regs}</text>` +
          (os.length > 1 ? `<text class="copies" x="${num(x + w - 2)}" y="${num(y + 8)}">×${os.length}</text>` : '') +
          '</g>',
      );
      c += run;
    }
  }
  parts.push(`<rect class="frame" x="${gridX}" y="${num(gridY)}" width="${shownC * CELL}" height="${shownR * CELL}"/>`);
  const legendY = gridY + shownR * CELL + 14;
  const swatches = Math.min(warps, 64);
  const perRow = Math.max(1, Math.floor(Math.max(shownC * CELL, 400) / 80));
  for (let w = 0; w < swatches; w++) {
    const lx = gridX + (w % perRow) * 80;
    const ly = legendY + Math.floor(w / perRow) * LINE_H;
    parts.push(
      `<g class="legend"><rect x="${lx}" y="${num(ly)}" width="12" height="12" fill="${cellColour(w, 0, warps)}"/>` +
        `<text x="${lx + 16}" y="${num(ly + 10)}">warp ${w}</text></g>`,
    );
  }
  const legendRows = Math.ceil(swatches / perRow);
  const keyY = legendY + legendRows * LINE_H + 10;
  parts.push(`<text class="info" x="${gridX}" y="${num(keyY)}">box: one thread's consecutive registers; number: lane; r = register index (r0-7: registers 0 to 7); ×n = held by n threads/registers (first shown, hover for all)</text>`);
  parts.push('</g>');
  const width = Math.max(gridX + shownC * CELL + PAD, PAD + Math.max(title.length * TITLE_W, info.length * CHAR_W) + PAD, gridX + perRow * 80, gridX + 640);
  return { svg: parts.join('\n'), width, height: keyY + LINE_H - top };
}

const STYLE =
  'text{font-family:monospace;font-size:12px;fill:#222}' +
  '.title{font-weight:bold;font-size:13px}.info{fill:#555}' +
  '.idx{font-size:9px;fill:#777;text-anchor:middle}.ridx{font-size:9px;fill:#777;text-anchor:end}' +
  '.cell rect{stroke:#ffffff;stroke-width:1}.lane{font-size:11px;text-anchor:middle;font-weight:bold}' +
  '.reg{font-size:8px;text-anchor:middle;fill:#444}.copies{font-size:7px;text-anchor:end;fill:#a00}' +
  '.frame{fill:none;stroke:#333;stroke-width:1}';

/** Renders every layout and shared buffer of `root` as SVG text (a short note when there is none). */
export function layoutSvg(root: Operation): string {
  const uses = collectLayoutUses(root);
  const panels: string[] = [];
  let top = PAD;
  let width = 400;
  uses.forEach((u, k) => {
    const p = panel(u, top, k);
    panels.push(p.svg);
    top += p.height + 2 * PAD;
    width = Math.max(width, p.width);
  });
  const shared = sharedPanels(root, top, 0);
  if (shared.height) {
    panels.push(shared.svg);
    top += shared.height;
    width = Math.max(width, shared.width);
  }
  if (!uses.length && !shared.height) {
    panels.push(`<text class="info" x="${PAD}" y="${PAD + LINE_H}">no tensor in this module has a distributed ttg layout, and no shared buffer a shared encoding</text>`);
    top += 2 * LINE_H;
  }
  const w = Math.ceil(width);
  const h = Math.ceil(top);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`,
    `<style>${STYLE}${SHARED_STYLE}</style>`,
    `<rect x="0" y="0" width="${w}" height="${h}" fill="#ffffff"/>`,
    ...panels,
    '</svg>',
  ].join('\n') + '\n';
}

/** Writes `layoutSvg(module)` to `path` (for `triton-opt --view-layout=FILE.svg`). */
export function writeLayoutSvg(module: Operation, path: string): void {
  writeFileSync(path, layoutSvg(module));
}
