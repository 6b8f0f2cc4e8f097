/**
 * `--view-layout`'s shared-memory panels: for every shared buffer of a module (a `ttg.local_alloc`
 * in `#ttg.shared_memory` under `#ttg.swizzled_shared`, `#ttg.nvmma_shared` or
 * `#ttg.padded_shared`), the grid of its tile's elements, each cell showing the bank it lands in,
 * and the cost of every access to it: the warp instructions the NVPTX target issues for the
 * access's register layout and the wavefronts they take against the ideal (one per phase). The
 * lanes of the first phase of the first access are outlined, so a conflict shows as outlined cells
 * of one colour (the access shown is the one wasting the most wavefronts). A `#ttg.swizzled_shared` buffer also gets the encoding `pad-shared` would choose
 * for it, drawn beside it with its cost (before/after).
 *
 * Nothing about addresses or banks is computed here: offsets come from `sharedOffset`
 * (dialects/ttg/shared-layout.ts, what the target addresses), accesses and their costs from the
 * bank model pad-shared optimizes (passes/support/bank-conflicts.ts, shared-accesses.ts).
 */
import type { Attribute } from '../ir/attributes.js';
import type { Operation, Value } from '../ir/ir.js';
import { FunctionLike } from '../ir/traits.js';
import { MemDescType } from '../dialects/ttg/types.js';
import { SWIZZLED_SHARED, isLayout } from '../dialects/ttg/layout-attrs.js';
import type { StructAttr } from '../dialects/ttg/struct-attr.js';
import { PaddedSharedAttr } from '../dialects/ttg/padded-shared.js';
import { sharedOffset, sharedOffsetBases, unsupportedSharedEncoding } from '../dialects/ttg/shared-layout.js';
import { elementBytes } from '../passes/support/alloc-shared-scratch.js';
import { accessCost, BANK_BYTES, bufferCost, NUM_BANKS, phasesOf, warpAccesses, type AccessCost, type TileAccess } from '../passes/support/bank-conflicts.js';
import { bufferGroups, tileAccessOf, tileShapeOf, type ViewOrigin } from '../passes/support/shared-accesses.js';
import { chooseSwizzle } from '../passes/pad-shared.js';
import { escapeXml as esc } from './svg.js';

/** Most rows and columns of a tile drawn. */
export const MAX_SHARED_ROWS = 32;
export const MAX_SHARED_COLS = 64;

const CELL = 22;
const PAD = 16;
const LINE_H = 18;
const CHAR_W = 7.3;
const GAP = 40;

/** The bank element `coords` of a tile of `shape` under `enc` lands in (its first byte's). */
export function bankOf(enc: Attribute | null, shape: readonly number[], coords: readonly number[], elemBytes: number): number {
  return Math.floor((sharedOffset(enc, shape, coords) * elemBytes) / BANK_BYTES) % NUM_BANKS;
}

/** One access to a buffer: the op, and its tile access or why the model cannot follow it. */
export interface BufferAccess {
  op: Operation;
  access: TileAccess | string;
}

/** One shared buffer (or group of buffers sharing memdescs) and what reads and writes it. */
export interface SharedBuffer {
  alloc: Operation;
  enc: Attribute;
  tileShape: number[];
  elemBytes: number;
  accesses: BufferAccess[];
  /** Why the tile's elements have no addresses (a padded layout whose bases describe another tile), else null. */
  problem: string | null;
}

/** The shared buffers of `root` with a 2-D tile under an encoding the target places, in program order. */
export function sharedBuffers(root: Operation): SharedBuffer[] {
  const out: SharedBuffer[] = [];
  const funcs: Operation[] = [];
  root.walk((op) => (op.hasTrait(FunctionLike) ? (funcs.push(op), false) : true), 'pre');
  for (const fn of funcs.length ? funcs : [root]) {
    const memo = new Map<Value, ViewOrigin | string>();
    for (const g of bufferGroups(fn)) {
      const alloc = g.allocs[0];
      const type = alloc.result(0).type as MemDescType;
      const enc = type.encoding;
      if (!enc || unsupportedSharedEncoding(enc) !== null) continue;
      const tileShape = tileShapeOf(alloc);
      if (tileShape.length !== 2) continue;
      const accesses: BufferAccess[] = g.unknown.map((u) => ({ op: u.op, access: u.reason }));
      for (const op of g.accessOps) {
        const a = tileAccessOf(op, memo);
        if (a) accesses.push({ op, access: typeof a === 'string' ? a : a.access });
      }
      const problem = enc instanceof PaddedSharedAttr && !sharedOffsetBases(enc, tileShape) ? 'its offset bases do not place each element of the tile once' : null;
      out.push({ alloc, enc, tileShape, elemBytes: elementBytes(type.elementType), accesses: problem ? [] : accesses, problem });
    }
  }
  return out;
}

/** The cost of one access under `enc`, as a line of text. */
export function accessLine(a: BufferAccess, enc: Attribute): string {
  if (typeof a.access === 'string') return `${a.op.name}: not modeled (${a.access})`;
  const insts = warpAccesses(a.access, enc);
  const cost = accessCost(a.access, enc);
  if (typeof insts === 'string' || typeof cost === 'string') return `${a.op.name}: not issuable (${insts})`;
  const width = insts[0]?.width ?? 0;
  return `${a.op.name}: ${a.access.op} ${width}B x ${insts.length} per warp: ${cost.wavefronts} wavefronts (ideal ${cost.ideal})`;
}

/** The summed cost of the modeled accesses under `enc` (null when one cannot be issued). */
function totalCost(accesses: readonly BufferAccess[], enc: Attribute): AccessCost | null {
  return bufferCost(accesses.flatMap((a) => (typeof a.access === 'string' ? [] : [a.access])), enc);
}

/** The encoding pad-shared would give a swizzled buffer, when it would change it. */
export function padSharedChoice(b: SharedBuffer): { enc: Attribute; cost: AccessCost } | null {
  if (!isLayout(b.enc, SWIZZLED_SHARED)) return null;
  const modeled = b.accesses.map((a) => a.access);
  if (!modeled.length || modeled.some((a) => typeof a === 'string')) return null;
  const chosen = chooseSwizzle(b.enc as StructAttr, b.tileShape, b.elemBytes, modeled as TileAccess[]);
  return chosen && chosen.enc !== b.enc ? chosen : null;
}

/** The modeled access of `b` wasting the most wavefronts under `enc` (the first on a tie), or null. */
export function worstAccess(b: SharedBuffer, enc: Attribute): BufferAccess | null {
  let worst: BufferAccess | null = null;
  let excess = -1;
  for (const a of b.accesses) {
    if (typeof a.access === 'string') continue;
    const c = accessCost(a.access, enc);
    if (typeof c !== 'string' && c.wavefronts - c.ideal > excess) [worst, excess] = [a, c.wavefronts - c.ideal];
  }
  return worst;
}

/**
 * The tile elements that the lanes of the first phase of the first instruction of `access` touch,
 * as `row,col` keys (the outlined cells); empty when it cannot be issued.
 */
export function firstPhaseCells(b: SharedBuffer, enc: Attribute, access: TileAccess): Set<string> {
  const out = new Set<string>();
  const insts = warpAccesses(access, enc);
  if (typeof insts === 'string' || !insts.length) return out;
  const [rows, cols] = b.tileShape;
  const byOffset = new Map<number, string>();
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) byOffset.set(sharedOffset(enc, b.tileShape, [r, c]) * b.elemBytes, `${r},${c}`);
  const { addrs, width } = insts[0];
  for (const addr of addrs.slice(0, 32 / phasesOf(width))) {
    for (let byte = addr; byte < addr + width; byte += b.elemBytes) {
      const cell = byOffset.get(byte);
      if (cell) out.add(cell);
    }
  }
  return out;
}

/** Fill colour of bank `bank`: 32 hues, alternating lightness so neighbours differ. */
function bankColour(bank: number): string {
  return `hsl(${(bank * 360) / NUM_BANKS}, 65%, ${bank % 2 ? 80 : 68}%)`;
}

/** Rows of the tile needed to show its bank pattern: until it repeats, at most MAX_SHARED_ROWS. */
export function bankPeriodRows(enc: Attribute, shape: readonly number[], elemBytes: number, cols: number): number {
  const [rows] = shape;
  const banks = (r: number) => Array.from({ length: cols }, (_, c) => bankOf(enc, shape, [r, c], elemBytes)).join();
  for (let p = 1; p < Math.min(rows, MAX_SHARED_ROWS); p *= 2) {
    let repeats = true;
    for (let r = 0; r + p < rows && repeats; r++) repeats = banks(r) === banks(r + p);
    if (repeats) return p;
  }
  return Math.min(rows, MAX_SHARED_ROWS);
}

/** One grid of bank numbers at (x, y), with the first phase of `worst` outlined; returns its SVG and size. */
function bankGrid(b: SharedBuffer, enc: Attribute, worst: BufferAccess | null, x: number, y: number, heading: string[]): { svg: string; width: number; height: number } {
  const [rows, cols] = b.tileShape;
  const shownC = Math.min(cols, MAX_SHARED_COLS);
  const outlined = worst ? firstPhaseCells(b, enc, worst.access as TileAccess) : new Set<string>();
  if (worst) heading = [...heading, `outlined: the first phase of the first instruction of ${worst.op.name}`];
  // Enough rows for the bank pattern and the outlined cells (to a power of two), at most MAX_SHARED_ROWS.
  const lastOutlined = Math.max(0, ...[...outlined].map((k) => Number(k.split(',')[0])));
  const outlinedRows = 2 ** Math.ceil(Math.log2(lastOutlined + 1));
  const shownR = Math.min(rows, MAX_SHARED_ROWS, Math.max(bankPeriodRows(enc, b.tileShape, b.elemBytes, shownC), outlinedRows));
  const parts: string[] = [];
  heading.forEach((line, k) => parts.push(`<text class="${k ? 'info' : 'sub'}" x="${x}" y="${y + (k + 1) * LINE_H}">${esc(line)}</text>`));
  const notes: string[] = [];
  if (shownR < rows) notes.push(`${shownR === 1 ? 'row 0' : `rows 0-${shownR - 1}`} of ${rows}${shownR < MAX_SHARED_ROWS ? ' (the banks repeat after them)' : ''}`);
  if (shownC < cols) notes.push(`columns 0-${shownC - 1} of ${cols}`);
  if (notes.length) parts.push(`<text class="info" x="${x}" y="${y + (heading.length + 1) * LINE_H}">${esc(`showing ${notes.join(', ')}`)}</text>`);
  const gridY = y + (heading.length + (notes.length ? 1 : 0)) * LINE_H + 18;
  for (let c = 0; c < shownC; c += 8) parts.push(`<text class="idx" x="${x + c * CELL + CELL / 2}" y="${gridY - 4}">${c}</text>`);
  for (let r = 0; r < shownR; r++) {
    parts.push(`<text class="ridx" x="${x - 3}" y="${gridY + r * CELL + CELL / 2 + 4}">${r}</text>`);
    for (let c = 0; c < shownC; c++) {
      const bank = bankOf(enc, b.tileShape, [r, c], b.elemBytes);
      const mark = outlined.has(`${r},${c}`) ? ' class="phase"' : '';
      parts.push(
        `<g class="bank" data-rc="${r},${c}"><rect${mark} x="${x + c * CELL}" y="${gridY + r * CELL}" width="${CELL}" height="${CELL}" fill="${bankColour(bank)}"/>` +
          `<text x="${x + c * CELL + CELL / 2}" y="${gridY + r * CELL + 15}">${bank}</text></g>`,
      );
    }
  }
  const widest = Math.max(shownC * CELL, ...heading.map((l) => l.length * CHAR_W));
  return { svg: parts.join('\n'), width: widest, height: gridY - y + shownR * CELL };
}

/** The name of a buffer for its panel title: the alloc's result name, else its op name. */
function bufferName(alloc: Operation): string {
  const hint = alloc.result(0).nameHint;
  return hint ? `%${hint}` : alloc.name;
}

/** Every shared buffer of `root` as SVG panels starting at `top`; returns the SVG, width and height used. */
export function sharedPanels(root: Operation, top: number, firstIndex: number): { svg: string; width: number; height: number } {
  const parts: string[] = [];
  let y = top;
  let width = 0;
  sharedBuffers(root).forEach((b, k) => {
    const type = b.alloc.result(0).type as MemDescType;
    parts.push(`<g class="shared" id="s${firstIndex + k}" data-shape="${b.tileShape.join('x')}">`);
    parts.push(`<text class="title" x="${PAD}" y="${y + LINE_H}">${esc(`shared ${bufferName(b.alloc)}: ${String(type)}`)}</text>`);
    if (b.problem) {
      parts.push(`<text class="info" x="${PAD}" y="${y + 2 * LINE_H}">${esc(`not drawn: ${b.problem}`)}</text></g>`);
      width = Math.max(width, PAD + (`shared ${bufferName(b.alloc)}: ${String(type)}`.length + 2) * CHAR_W);
      y += 2 * LINE_H + 2 * PAD;
      return;
    }
    const lines = b.accesses.length ? b.accesses.map((a) => accessLine(a, b.enc)) : ['no access to this buffer is modeled'];
    lines.forEach((l, j) => parts.push(`<text class="info" x="${PAD}" y="${y + (j + 2) * LINE_H}">${esc(l)}</text>`));
    parts.push(
      `<text class="info" x="${PAD}" y="${y + (lines.length + 2) * LINE_H}">cell: the bank (of ${NUM_BANKS}, ${BANK_BYTES} bytes each) the element's first byte lands in; outlined: the elements one phase (the lanes served together) touches, for the access that wastes the most wavefronts as is</text>`,
    );
    const gridTop = y + (lines.length + 2) * LINE_H + 8;
    const cost = totalCost(b.accesses, b.enc);
    const worst = worstAccess(b, b.enc);
    const as = bankGrid(b, b.enc, worst, PAD + 24, gridTop, [`as is: ${String(b.enc)}`, cost ? `all accesses: ${cost.wavefronts} wavefronts (ideal ${cost.ideal})` : 'all accesses: not issuable']);
    parts.push(as.svg);
    let h = as.height;
    let w = PAD + 24 + as.width;
    const choice = padSharedChoice(b);
    if (choice) {
      const after = bankGrid(b, choice.enc, worst, w + GAP, gridTop, [`after pad-shared: ${String(choice.enc)}`, `all accesses: ${choice.cost.wavefronts} wavefronts (ideal ${choice.cost.ideal})`]);
      parts.push(after.svg);
      h = Math.max(h, after.height);
      w += GAP + after.width;
    } else if (isLayout(b.enc, SWIZZLED_SHARED) && b.accesses.length) {
      parts.push(`<text class="info" x="${PAD}" y="${gridTop + h + LINE_H}">pad-shared keeps this encoding</text>`);
      h += LINE_H;
    }
    parts.push('</g>');
    const titleW = PAD + (`shared ${bufferName(b.alloc)}: ${String(type)}`.length + 2) * CHAR_W;
    width = Math.max(width, w + PAD, titleW, ...lines.map((l) => PAD + l.length * CHAR_W + PAD));
    y = gridTop + h + 2 * PAD;
  });
  return { svg: parts.join('\n'), width, height: y - top };
}

/** CSS of the shared panels. */
export const SHARED_STYLE =
  '.sub{font-weight:bold}.bank rect{stroke:#fff;stroke-width:1}.bank rect.phase{stroke:#000;stroke-width:2.5}' +
  '.bank text{font-size:9px;text-anchor:middle}';
