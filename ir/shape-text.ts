/**
 * Shapes whose first dimension is 0 (`tensor<0xf32>`, `tensor<0x4xf32>`): the lexer reads `0xf32` and
 * `0x4` as hexadecimal integers, so the parser re-reads such a shape from the text.
 */
import { DYNAMIC } from './types.js';

const SHAPE = /(?:(?:\d+|\?)x)+/y;

/**
 * The dimensions of the shape prefix at `offset` in `text` and the offset where the element type
 * starts, or null when no `Nx` prefix starts there.
 */
export function shapePrefixAt(text: string, offset: number): { shape: number[]; eltStart: number } | null {
  SHAPE.lastIndex = offset;
  const m = SHAPE.exec(text);
  if (!m) return null;
  const shape = m[0].split('x').slice(0, -1).map((d) => (d === '?' ? DYNAMIC : Number(d)));
  return { shape, eltStart: offset + m[0].length };
}
