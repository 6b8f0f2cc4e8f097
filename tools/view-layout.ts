/**
 * `--view-layout`: draws, for every distinct (distributed layout, shape) pair used by a tensor in a
 * module, the grid of the tensor's elements coloured by owning warp, with the lane number in each
 * cell and the register index small below it, as one standalone SVG.
 */
import { writeFileSync } from 'node:fs';
import type { Attribute } from '../ir/attributes.js';
import type { Operation, Value } from '../ir/ir.js';
import { RankedTensorType } from '../ir/types.js';
import { isSupportedLayout, numThreadsPerWarp, numWarps, ownersOf, totalElemsPerThread, type Owner } from '../dialects/ttg/layout-lib.js';
import { escapeXml as esc } from './svg.js';

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

function ownerText(o: Owner): string {
  return `${o.block ? `block ${o.block} ` : ''}warp ${o.warp} lane ${o.lane} reg ${o.register}`;
}

/** One panel: title, info line, column/row labels and the cells. Returns its SVG and size. */
function panel(use: LayoutUse, top: number, index: number): { svg: string; width: number; height: number } {
  const { layout, shape } = use;
  const owners = ownersOf(layout, shape);
  const warps = numWarps(layout);
  const { rows, cols, note } = gridOf(shape);
  const shownR = Math.min(rows, MAX_CELLS);
  const shownC = Math.min(cols, MAX_CELLS);
  const notes = [note];
  if (shownR < rows || shownC < cols) notes.push(`showing the first ${shownR}x${shownC} elements`);
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
    for (let c = 0; c < shownC; c++) {
      const idx = r * cols + c;
      const os = owners[idx];
      const o = os[0];
      const x = gridX + c * CELL;
      const y = gridY + r * CELL;
      const where = shape.length === 1 ? `[${idx}]` : `[${[...shape.slice(0, -2).map(() => 0), r, c].join(', ')}]`;
      const more = os.length > 4 ? `; +${os.length - 4} more` : '';
      const tip = `${where}: ${os.slice(0, 4).map(ownerText).join('; ')}${more}`;
      parts.push(
        `<g class="cell"><title>${esc(tip)}</title>` +
          `<rect x="${num(x)}" y="${num(y)}" width="${CELL}" height="${CELL}" fill="${cellColour(o.warp, o.lane, warps)}"/>` +
          `<text class="lane" x="${num(x + CELL / 2)}" y="${num(y + 14)}">${o.lane}</text>` +
          `<text class="reg" x="${num(x + CELL / 2)}" y="${num(y + 25)}">r${o.register}</text>` +
          (os.length > 1 ? `<text class="copies" x="${num(x + CELL - 2)}" y="${num(y + 8)}">×${os.length}</text>` : '') +
          '</g>',
      );
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
  parts.push(`<text class="info" x="${gridX}" y="${num(keyY)}">cell: lane number; r = register index; ×n = held by n threads/registers (first shown, hover for all)</text>`);
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

/** Renders every layout used in `root` as SVG text (a short note when there is none). */
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
  if (!uses.length) {
    panels.push(`<text class="info" x="${PAD}" y="${PAD + LINE_H}">no tensor in this module has a distributed ttg layout</text>`);
    top += 2 * LINE_H;
  }
  const w = Math.ceil(width);
  const h = Math.ceil(top);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`,
    `<style>${STYLE}</style>`,
    `<rect x="0" y="0" width="${w}" height="${h}" fill="#ffffff"/>`,
    ...panels,
    '</svg>',
  ].join('\n') + '\n';
}

/** Writes `layoutSvg(module)` to `path` (for `triton-opt --view-layout=FILE.svg`). */
export function writeLayoutSvg(module: Operation, path: string): void {
  writeFileSync(path, layoutSvg(module));
}
