/**
 * Where a shared-memory tile's elements live: the element offset of each coordinate under a
 * shared encoding. This is the one definition that the passes (pad-shared's bank-conflict
 * model, alloc-shared's sizes) and the NVPTX target (addresses of ld/st.shared, ldmatrix,
 * cp.async) agree on.
 *
 * `#ttg.swizzled_shared<{vec, perPhase, maxPhase, order}>` (Triton's semantics), for the two
 * fastest dims `order[0]` (columns, contiguous) and `order[1]` (rows):
 *   phase  = (row / perPhase) % maxPhase
 *   column = (((col / vec) ^ phase) % (cols / vec)) * vec + col % vec
 * and the tile is otherwise stored in `order` (row-major when order = [1, 0]). With power-of-two
 * dims the map is linear over GF(2): an offset is the XOR of what each set coordinate bit adds
 * (`sharedOffsetBases`), which the target splits into a per-thread and a per-register part.
 *
 * `#ttg.padded_shared<[I:+P, ..] {offset = ..}>` (padded-shared.ts): the `offset` bases place
 * each bit of an element index, so the index is linear too (each coordinate bit moves one index
 * bit), and the offset is the index with P elements added after every I (`padIndex`). The
 * target adds a per-thread and a per-register part, each padded on its own: their index bits are
 * disjoint, and padding is additive over disjoint bits.
 *
 * `#ttg.nvmma_shared<{swizzlingByteWidth = S, transposed, elementBitWidth}>` (the layout wgmma and
 * TMA read, `nvmmaOffset`): the contiguous dim (the last, or the first of the two matrix dims when
 * transposed) is cut into column blocks of S bytes; each block stores its rows of S bytes one after
 * another, the blocks follow each other, and leading (buffer) dims stack whole tiles. The hardware's
 * swizzle then XORs the 16-byte chunk index (byte address bits 4..) with the row bits above 128
 * bytes (bits 7..), log2(S/16) of them: exactly what `cp.async`/`st.shared` must write for wgmma to
 * read, given 1024-byte aligned buffers (alloc-shared's rule for this encoding).
 */
import type { Attribute } from '../../ir/attributes.js';
import { isLayout, NVMMA_SHARED, SWIZZLED_SHARED } from './layout-attrs.js';
import { StructAttr } from './struct-attr.js';
import { PaddedSharedAttr, type PaddingInterval } from './padded-shared.js';

/** The fields of a swizzled shared encoding, with the order as given. */
export interface Swizzle {
  vec: number;
  perPhase: number;
  maxPhase: number;
  order: readonly number[];
}

/**
 * The swizzle parameters of `enc`: a padded layout's are its (rank) dims in the order its offset
 * bases first move them, unswizzled; anything else is an unswizzled row-major tile of `rank`.
 */
export function swizzleOf(enc: Attribute | null, rank: number): Swizzle {
  const nvmma = nvmmaOf(enc);
  if (nvmma) {
    // Only the order is exact: the swizzle is nvmmaOffset's (these are its within-block equivalents).
    const order = Array.from({ length: rank }, (_, k) => rank - 1 - k);
    if (nvmma.transposed && rank >= 2) [order[0], order[1]] = [order[1], order[0]];
    const chunks = Math.max(1, nvmma.swizzleBytes / 16);
    return { vec: Math.max(1, 128 / nvmma.elementBits), perPhase: Math.max(1, 128 / Math.max(16, nvmma.swizzleBytes)), maxPhase: chunks, order };
  }
  if (isLayout(enc, SWIZZLED_SHARED)) {
    const s = enc as StructAttr;
    return { vec: s.int('vec'), perPhase: s.int('perPhase'), maxPhase: s.int('maxPhase'), order: s.ints('order') };
  }
  if (enc instanceof PaddedSharedAttr) {
    const order: number[] = [];
    for (const b of enc.offset) {
      const d = b.findIndex((x) => x !== 0);
      if (!order.includes(d)) order.push(d);
    }
    for (let d = enc.rank - 1; d >= 0; d--) if (!order.includes(d)) order.push(d);
    return { vec: 1, perPhase: 1, maxPhase: 1, order };
  }
  return { vec: 1, perPhase: 1, maxPhase: 1, order: Array.from({ length: rank }, (_, k) => rank - 1 - k) };
}

/**
 * The encoding of `ttg.memdesc_trans {order}` of a tile under `enc` (Triton's inferred result
 * encoding): dim k of the view is dim `order[k]` of the source, so the view's fastest dims are
 * the source's renamed (`order'[j] = k` where `order[k] = order_src[j]`), the CTA fields are
 * permuted likewise (left as they are for a single CTA) and the swizzle fields stay. Every view coordinate then has the offset of the source coordinate it names. Null when
 * `enc` is not a swizzled_shared encoding of `order`'s rank or `order` is not a permutation.
 */
export function transposedSharedEncoding(enc: Attribute | null, order: readonly number[]): StructAttr | PaddedSharedAttr | null {
  const rank = order.length;
  if ([...order].sort((a, b) => a - b).some((d, k) => d !== k)) return null;
  // A padded view: view dim k is source dim order[k] in every basis; the padding stays.
  if (enc instanceof PaddedSharedAttr) {
    if (enc.rank !== rank) return null;
    const view = (bases: readonly (readonly number[])[]) => bases.map((b) => order.map((d) => b[d]));
    return PaddedSharedAttr.get(enc.pairs, view(enc.offset), view(enc.block));
  }
  // An nvmma view swaps the two matrix dims: the contiguous one changes sides.
  if (isLayout(enc, NVMMA_SHARED)) {
    if (rank < 2 || order.slice(0, rank - 2).some((d, k) => d !== k)) return null;
    const swapped = order[rank - 2] === rank - 1;
    return swapped ? StructAttr.get(NVMMA_SHARED, { ...enc.values, transposed: !enc.bool('transposed') }) : enc;
  }
  if (!isLayout(enc, SWIZZLED_SHARED)) return null;
  const s = enc as StructAttr;
  if (s.ints('order').length !== rank) return null;
  const viewDimOf = new Array<number>(rank);
  order.forEach((srcDim, k) => (viewDimOf[srcDim] = k));
  const renamed = (dims: readonly number[]) => dims.map((d) => viewDimOf[d]);
  const permuted = (perDim: readonly number[]) => order.map((d) => perDim[d]);
  const order2 = renamed(s.ints('order'));
  // One CTA: the CTA order means nothing and keeps its default (as Triton prints such views).
  const oneCta = [...s.ints('CTAsPerCGA'), ...s.ints('CTASplitNum')].every((n) => n === 1);
  if (oneCta) return StructAttr.get(SWIZZLED_SHARED, { ...s.values, order: order2 });
  return StructAttr.get(SWIZZLED_SHARED, {
    ...s.values,
    order: order2,
    CTAOrder: renamed(s.ints('CTAOrder')),
    CTAsPerCGA: permuted(s.ints('CTAsPerCGA')),
    CTASplitNum: permuted(s.ints('CTASplitNum')),
  });
}

/** The element offset of `coords` in a tile of `shape` stored with swizzle `sw`. */
export function swizzledOffset(sw: Swizzle, shape: readonly number[], coords: readonly number[]): number {
  const { order } = sw;
  let col = coords[order[0]];
  if (order.length >= 2) {
    const cols = shape[order[0]];
    const vec = Math.min(sw.vec, cols);
    const phase = Math.floor(coords[order[1]] / sw.perPhase) % sw.maxPhase;
    const groups = Math.max(1, Math.floor(cols / vec));
    col = ((Math.floor(col / vec) ^ phase) % groups) * vec + (col % vec);
  }
  let offset = 0;
  let stride = 1;
  for (let k = 0; k < order.length; k++) {
    const d = order[k];
    offset += (k === 0 ? col : coords[d]) * stride;
    stride *= shape[d];
  }
  return offset;
}

/** The fields of an `#ttg.nvmma_shared` encoding. */
export interface Nvmma {
  /** Swizzle width in bytes: 32, 64 or 128 (0: none). */
  swizzleBytes: number;
  /** Whether the first of the two matrix dims is the contiguous one. */
  transposed: boolean;
  elementBits: number;
}

/** The fields of `enc` if it is an `#ttg.nvmma_shared` encoding, else null. */
export function nvmmaOf(enc: Attribute | null): Nvmma | null {
  if (!isLayout(enc, NVMMA_SHARED)) return null;
  const s = enc as StructAttr;
  return { swizzleBytes: s.int('swizzlingByteWidth'), transposed: s.bool('transposed'), elementBits: s.int('elementBitWidth') };
}

/**
 * Where a tile of `shape` under `nvmma` is cut: its contiguous and strided matrix dims and the
 * elements per swizzle row (the column-block width, at most the contiguous extent).
 */
export function nvmmaGeometry(nvmma: Nvmma, shape: readonly number[]): { contig: number; strided: number; rowElems: number } {
  const rank = shape.length;
  const contig = nvmma.transposed ? rank - 2 : rank - 1;
  const strided = nvmma.transposed ? rank - 1 : rank - 2;
  const bytes = Math.max(1, nvmma.elementBits / 8);
  const rowElems = Math.min(shape[contig], nvmma.swizzleBytes ? nvmma.swizzleBytes / bytes : shape[contig]);
  return { contig, strided, rowElems };
}

/**
 * The element offset of `coords` in a tile of `shape` under `nvmma` before the hardware swizzle:
 * column block, then row, then column within the block; leading dims stack whole tiles. wgmma's
 * descriptors address these (the swizzle is applied by the hardware on the address).
 */
export function nvmmaLinearOffset(nvmma: Nvmma, shape: readonly number[], coords: readonly number[]): number {
  const { contig, strided, rowElems } = nvmmaGeometry(nvmma, shape);
  const rows = shape[strided];
  const c = coords[contig];
  let offset = Math.floor(c / rowElems) * rows * rowElems + coords[strided] * rowElems + (c % rowElems);
  let tile = shape[contig] * rows;
  for (let d = shape.length - 3; d >= 0; d--) {
    offset += coords[d] * tile;
    tile *= shape[d];
  }
  return offset;
}

/** The element offset of `coords` under `nvmma`: the linear offset with the 16-byte chunk index XORed by the 128-byte row bits. */
export function nvmmaOffset(nvmma: Nvmma, shape: readonly number[], coords: readonly number[]): number {
  const linear = nvmmaLinearOffset(nvmma, shape, coords);
  const bytes = Math.max(1, nvmma.elementBits / 8);
  const chunks = nvmma.swizzleBytes / 16;
  if (chunks < 2) return linear;
  const phase = Math.floor((linear * bytes) / 128) % chunks;
  return linear ^ ((phase * 16) / bytes);
}

/** The element offset of `coords` in a tile of `shape` under shared encoding `enc`. */
export function sharedOffset(enc: Attribute | null, shape: readonly number[], coords: readonly number[]): number {
  return sharedOffsetOf(enc, shape)(coords);
}

/**
 * `sharedOffset` of a tile of `shape` under `enc` as a function of the coordinates, with the
 * encoding read once: for callers that place many elements of one tile (the bank model).
 */
export function sharedOffsetOf(enc: Attribute | null, shape: readonly number[]): (coords: readonly number[]) => number {
  const nvmma = nvmmaOf(enc);
  if (nvmma) return (coords) => nvmmaOffset(nvmma, shape, coords);
  if (enc instanceof PaddedSharedAttr) {
    const bases = paddedIndexBases(enc, shape);
    if (!bases) {
      return () => {
        throw new Error(`internal error: ${enc} does not place every element of a ${shape.join('x')} tile`);
      };
    }
    return (coords) => padIndex(enc.pairs, xorOffset(bases, coords));
  }
  const sw = swizzleOf(enc, shape.length);
  return (coords) => swizzledOffset(sw, shape, coords);
}

/** Where index `i` sits after `pairs`' padding: P after every I (elements, or bytes when the pairs are in bytes). */
export function padIndex(pairs: readonly PaddingInterval[], i: number): number {
  let out = i;
  for (const { interval, padding } of pairs) out += Math.floor(i / interval) * padding;
  return out;
}

/** The padding pairs of `enc` (none for other encodings). */
export function paddingOf(enc: Attribute | null): readonly PaddingInterval[] {
  return enc instanceof PaddedSharedAttr ? enc.pairs : [];
}

/** `paddedIndexBases` per (uniqued) layout and tile shape: the bank model asks for them per element. */
const paddedBasesCache = new WeakMap<PaddedSharedAttr, Map<string, number[][] | null>>();

/**
 * `bases[d][b]`: the element index bit (a power of two) that bit b of coordinate d sets under a
 * padded layout, or null when its offset bases do not place each element of `shape` exactly once.
 */
function paddedIndexBases(enc: PaddedSharedAttr, shape: readonly number[]): number[][] | null {
  let byShape = paddedBasesCache.get(enc);
  if (!byShape) paddedBasesCache.set(enc, (byShape = new Map()));
  const key = shape.join('x');
  if (!byShape.has(key)) byShape.set(key, computePaddedIndexBases(enc, shape));
  return byShape.get(key)!;
}

/** What `paddedIndexBases` caches. */
function computePaddedIndexBases(enc: PaddedSharedAttr, shape: readonly number[]): number[][] | null {
  if (enc.rank !== shape.length || shape.some((n) => n < 1 || (n & (n - 1)) !== 0)) return null;
  const bases = shape.map((n) => new Array<number>(Math.log2(n)).fill(0));
  if (enc.offset.length !== bases.reduce((k, b) => k + b.length, 0)) return null;
  for (let k = 0; k < enc.offset.length; k++) {
    const d = enc.offset[k].findIndex((x) => x !== 0);
    const bit = Math.log2(enc.offset[k][d]);
    if (bit >= bases[d].length || bases[d][bit] !== 0) return null;
    bases[d][bit] = 2 ** k;
  }
  return bases;
}

/**
 * `bases[d][k]`: the offset contributed by bit k of coordinate d, so that the offset of any
 * coordinate is the XOR of the bases of its set bits (for a padded layout: its element index,
 * before `padIndex`). Null when a dim is not a power of two (the map is then not linear and the
 * caller computes offsets directly), or a padded layout does not place each element once.
 */
export function sharedOffsetBases(enc: Attribute | null, shape: readonly number[]): number[][] | null {
  if (enc instanceof PaddedSharedAttr) return paddedIndexBases(enc, shape);
  if (enc === null) return computeSharedOffsetBases(enc, shape);
  let byShape = offsetBasesCache.get(enc);
  if (!byShape) offsetBasesCache.set(enc, (byShape = new Map()));
  const key = shape.join('x');
  if (!byShape.has(key)) byShape.set(key, computeSharedOffsetBases(enc, shape));
  return byShape.get(key)!;
}

/** `sharedOffsetBases` per (uniqued) swizzled or nvmma encoding and tile shape: pad-shared asks for them per candidate and access. */
const offsetBasesCache = new WeakMap<Attribute, Map<string, number[][] | null>>();

/** What `sharedOffsetBases` caches for encodings other than padded ones. */
function computeSharedOffsetBases(enc: Attribute | null, shape: readonly number[]): number[][] | null {
  if (shape.some((n) => n < 1 || (n & (n - 1)) !== 0)) return null;
  const zero = shape.map(() => 0);
  return shape.map((n, d) => {
    const bases: number[] = [];
    for (let bit = 1; bit < n; bit <<= 1) {
      const c = [...zero];
      c[d] = bit;
      bases.push(sharedOffset(enc, shape, c));
    }
    return bases;
  });
}

/**
 * Whether every offset of a tile of `shape` under `enc` is the XOR of its coordinate bits'
 * `sharedOffsetBases`: a swizzled (or absent) encoding whose vec, perPhase and maxPhase are powers
 * of two and whose order names each dim once, on a tile whose dims are powers of two. Division and
 * remainder by a power of two are then shifts and masks, and the swizzled column and the dims
 * land on disjoint bits. (Padded and nvmma tiles are placed otherwise.)
 */
export function isXorLinear(enc: Attribute | null, shape: readonly number[]): boolean {
  if (enc !== null && !isLayout(enc, SWIZZLED_SHARED)) return false;
  const pow2 = (n: number) => Number.isInteger(n) && n >= 1 && (n & (n - 1)) === 0;
  const { vec, perPhase, maxPhase, order } = swizzleOf(enc, shape.length);
  const dims = [...order].sort((a, b) => a - b);
  return pow2(vec) && pow2(perPhase) && pow2(maxPhase) && shape.every(pow2) && dims.length === shape.length && dims.every((d, k) => d === k);
}

/** Elements a buffer of `shape` occupies under `enc` (padding included). */
export function sharedAllocElems(enc: Attribute | null, shape: readonly number[]): number {
  const n = shape.reduce((p, k) => p * k, 1);
  // A padded layout pads each buffer of its rank; leading dims (pipeline buffers) repeat it.
  if (!(enc instanceof PaddedSharedAttr) || n === 0) return n;
  const tile = shape.slice(shape.length - enc.rank).reduce((p, k) => p * k, 1);
  const padding = enc.pairs.reduce((sum, { interval, padding: pad }) => sum + Math.floor(tile / interval) * pad, 0);
  return (n / tile) * (tile + padding);
}

/** Why the target and the shared-memory model cannot place elements under `enc`, or null when they can (swizzled_shared, padded_shared). */
export function unsupportedSharedEncoding(enc: Attribute | null): string | null {
  if (enc === null || isLayout(enc, SWIZZLED_SHARED) || enc instanceof PaddedSharedAttr) return null;
  const nvmma = nvmmaOf(enc);
  if (nvmma && nvmma.swizzleBytes >= 32 && !(enc as StructAttr).bool('fp4Padded')) return null;
  if (nvmma) return `the shared encoding ${enc} is not supported here (#ttg.nvmma_shared needs a swizzle of 32, 64 or 128 bytes and no fp4 padding)`;
  return `the shared encoding ${enc} is not supported here (only #ttg.swizzled_shared, #ttg.nvmma_shared and #ttg.padded_shared are)`;
}

/** The XOR of `bases[d][k]` over the set bits k of each coordinate `coords[d]`. */
function xorOffset(bases: readonly (readonly number[])[], coords: readonly number[]): number {
  let off = 0;
  coords.forEach((c, d) => {
    for (let k = 0; k < bases[d].length; k++) if (c & (1 << k)) off ^= bases[d][k];
  });
  return off;
}

/**
 * Elements per `ld.shared`/`st.shared` vector when a tensor of `shape` in distributed layout
 * `layout` moves to or from a shared tile of `memShape` under `enc`: 2^j for the largest j such
 * that the first j register bases land on shared offsets 1, 2, .. 2^(j-1) and every lane and
 * warp basis keeps the low j bits clear, capped at 16 bytes (and under padding at the smallest
 * interval and padding, so no vector is split or misaligned). The target emits exactly these
 * vectors and pad-shared's bank-conflict model counts exactly these accesses.
 */
export function sharedVectorElems(
  enc: Attribute | null,
  memShape: readonly number[],
  elemBytes: number,
  layout: { register: readonly number[][]; lane: readonly number[][]; warp: readonly number[][] },
): number {
  const bases = sharedOffsetBases(enc, memShape);
  if (!bases) return 1;
  const offsets = (xs: readonly number[][]) => xs.map((c) => xorOffset(bases, c));
  const reg = offsets(layout.register);
  const thread = [...offsets(layout.lane), ...offsets(layout.warp)];
  const maxElems = Math.max(1, Math.floor(16 / elemBytes));
  let j = 0;
  // Padding must neither split a vector nor misalign one: at most the smallest interval and padding.
  const pads = paddingOf(enc);
  const padCap = pads.reduce((m, p) => Math.min(m, p.interval, p.padding), maxElems);
  while ((1 << (j + 1)) <= padCap && j < reg.length && reg[j] === 1 << j) j++;
  while (j > 0 && thread.some((o) => (o & ((1 << j) - 1)) !== 0)) j--;
  return 1 << j;
}

/** The element offset of `coords` from precomputed `sharedOffsetBases`. */
export function offsetFromBases(bases: readonly (readonly number[])[], coords: readonly number[]): number {
  return xorOffset(bases, coords);
}
