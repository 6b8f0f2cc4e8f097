/**
 * How a tensor descriptor's block moves through TMA: the box its tensor map describes and where each
 * box of the block starts. One owner for both ends of a descriptor: the pass that writes a tensor map
 * on the device (`tma-lowering`, `ttng.tensormap_create`), the launcher's metadata for a host-side
 * one, and the copies the nvptx target issues through either.
 */
import { bitWidth } from '../../ir/types.js';
import { TensorDescType } from '../tt/types.js';
import { nvmmaOf } from './shared-layout.js';
import { TMA_MAX_BOX_DIM } from './target.js';

/** How a descriptor's block moves: the box the tensor map describes and where each box of the block starts. */
export interface TmaGeometry {
  /** The box, outermost dim first (as the block's shape; any dims before the last two are 1). */
  box: number[];
  /** The swizzle of the box rows in shared memory, in bytes (0: none). */
  swizzleBytes: number;
  /** The block coordinates where each box starts (the block's rank). */
  origins: number[][];
}

/**
 * The TMA geometry of a descriptor of type `t`, or why it has none: its block needs to be 2-d
 * (or have 1s before its last two dims, which land in a 2-d tile), a non-transposed
 * `#ttg.nvmma_shared` layout (tma-lowering gives it one), and rows of a multiple of 16 bytes.
 * One box is at most 256 rows and, with a swizzle, one swizzle row wide (128/64/32 bytes), so a
 * block wider or taller than that moves as several boxes.
 */
export function tmaGeometry(t: TensorDescType): TmaGeometry | string {
  const block = t.blockType;
  const nvmma = nvmmaOf(block.encoding);
  if (t.tileShape.length !== 2 || !nvmma || nvmma.transposed) return `a TMA copy needs a 2-d block (or 1s before its last two dims) in a non-transposed #ttg.nvmma_shared layout; '${t}' has none (run tma-lowering)`;
  const bytes = bitWidth(block.elementType) / 8;
  const [rows, cols] = t.tileShape;
  // the dims before the last two are 1 (a box of length 1 at the block's coordinate there)
  const lead = block.rank - 2;
  const inner = nvmma.swizzleBytes ? Math.min(cols, nvmma.swizzleBytes / bytes) : cols;
  if ((inner * bytes) % 16 || inner > TMA_MAX_BOX_DIM) return `a TMA box row must be a multiple of 16 bytes and at most ${TMA_MAX_BOX_DIM} elements; '${t}' gives ${inner * bytes} bytes`;
  const box = [...new Array<number>(lead).fill(1), Math.min(rows, TMA_MAX_BOX_DIM), inner];
  const origins: number[][] = [];
  for (let c = 0; c < cols; c += inner) for (let r = 0; r < rows; r += TMA_MAX_BOX_DIM) origins.push([...new Array<number>(lead).fill(0), r, c]);
  return { box, swizzleBytes: nvmma.swizzleBytes, origins };
}
