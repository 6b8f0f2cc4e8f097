/**
 * Shared-memory scratch of a `ttg.convert_layout` between two distributed layouts.
 *
 * `conversionScratchBytes` follows Triton 3.4+ (`getNumScratchElemsSwizzledCvt` in
 * lib/Analysis/Allocation.cpp, `optimalSwizzlingLdSt` / `buildReps` in lib/Tools/GenericSwizzling.cpp):
 * the data goes through a swizzled tile that covers the whole tensor, except that "segment" bases
 * held in registers by both layouts become repetitions moved one after another through the same
 * tile. What differs from Triton 3.6: only the ld.shared/st.shared path is modelled (3.6 also tries
 * ldmatrix/stmatrix tiles through `optimalSwizzling(src, dst, srcTiles, dstTiles)`, which can pick
 * a different vbasis and thus a different rep count for 16-bit and 8-bit types), the bank and
 * swizzle bases themselves are not built (they do not change the size), and `cvtNeedsSharedMemory`
 * is the warp-ownership test below rather than Triton's `cvtNeedsWarpShuffle` analysis.
 *
 * The legacy (Triton <= 3.3) rule, `getRepShapeForCvt` / `getScratchConfigForCvt`: a "rep" tile of
 * max(min(shapePerCTA, tile)) per dim, padded along the dst order's fastest dim by the wider of the
 * in/out vector widths, remains available as `scratchConfigForCvt`. A conversion needs no scratch
 * when every destination warp already holds its elements in the source (register or in-warp shuffles).
 */
import type { Attribute } from '../../ir/attributes.js';
import { StructAttr } from './struct-attr.js';
import { BLOCKED, DOT_OP, NVIDIA_MMA } from './layout-attrs.js';
import { ctaFields, dstOwnersWithinSrc, isSupportedLayout, layoutOrder, layoutsEquivalent, shapePerTile, toLinearLayout } from './layout-lib.js';
import type { LinearLayout } from './layout-linear.js';

/** Triton's `ScratchConfig` for a layout conversion. */
export interface ScratchConfig {
  /** The tile moved through shared memory per round. */
  repShape: number[];
  /** `repShape` with padding against bank conflicts. */
  paddedRepShape: number[];
  /** Order in which the tile is laid out in shared memory (the dst's). */
  order: number[];
  /** Elements written per vector store. */
  inVec: number;
  /** Elements read per vector load. */
  outVec: number;
}

const isMmaOrDot = (a: Attribute): boolean => a instanceof StructAttr && (a.spec === NVIDIA_MMA || a.spec === DOT_OP);

/** Triton's `getShapePerCTA`: the tensor shape divided by the CTA split. */
export function shapePerCTA(layout: Attribute, shape: readonly number[]): number[] {
  const { splitNum } = ctaFields(layout as StructAttr);
  return shape.map((s, k) => Math.max(1, s / (splitNum[k] ?? 1)));
}

/**
 * Triton's `getUniqueContigPerThread`: per dim, how many elements a thread holds contiguously
 * (register bases 1, 2, 4 ... walked in the layout's order), capped by the shape.
 */
export function contigPerThread(layout: Attribute, shape: readonly number[]): number[] {
  const regs = toLinearLayout(layout, shape).bases('register');
  const contig = shape.map(() => 1);
  let k = 0;
  for (const d of layoutOrder(layout)) {
    while (k < regs.length && regs[k].every((x, j) => x === (j === d ? contig[d] : 0))) ((contig[d] *= 2), k++);
  }
  return contig.map((c, d) => Math.min(c, shape[d]));
}

/**
 * Whether converting `src` to `dst` on `shape` goes through shared memory: false when the layouts
 * are equivalent or every warp that holds an element under `dst` holds it under `src` already.
 */
export function cvtNeedsSharedMemory(src: Attribute, dst: Attribute, shape: readonly number[]): boolean {
  // Layouts the linear model does not cover yet (e.g. dot_op of a blocked parent): assume shared memory.
  if (!isSupportedLayout(src) || !isSupportedLayout(dst)) return src !== dst;
  if (layoutsEquivalent(src, dst, shape)) return false;
  return !dstOwnersWithinSrc(src, dst, shape, 'warp');
}

/** Triton's `getCvtOrder`: mma and dot operand layouts take the order of the other side. */
export function cvtOrder(src: Attribute, dst: Attribute): { inOrd: number[]; outOrd: number[] } {
  const inOrd = isMmaOrDot(src) ? layoutOrder(dst) : layoutOrder(src);
  const outOrd = isMmaOrDot(dst) ? layoutOrder(src) : layoutOrder(dst);
  return { inOrd, outOrd };
}

/** Triton's `getRepShapeForCvt`: per dim, the larger of the two layouts' tiles (each capped by the shape). */
export function repShapeForCvt(src: Attribute, dst: Attribute, shape: readonly number[]): number[] {
  const [sp, dp] = [shapePerCTA(src, shape), shapePerCTA(dst, shape)];
  const [st, dt] = [shapePerTile(src), shapePerTile(dst)];
  return shape.map((_, d) => Math.max(Math.min(sp[d], st[d]), Math.min(dp[d], dt[d])));
}

/** Triton's `getScratchConfigForCvt`, or null when the conversion needs no shared memory. */
export function scratchConfigForCvt(src: Attribute, dst: Attribute, shape: readonly number[]): ScratchConfig | null {
  if (!cvtNeedsSharedMemory(src, dst, shape)) return null;
  const repShape = repShapeForCvt(src, dst, shape);
  const rank = repShape.length;
  const { inOrd, outOrd } = cvtOrder(src, dst);
  const srcContig = contigPerThread(src, shape)[inOrd[0]];
  const dstContig = contigPerThread(dst, shape)[outOrd[0]];
  const inner = rank - 1;
  const inVec = outOrd[0] !== inner || inOrd[0] !== inner ? 1 : srcContig;
  let outVec = outOrd[0] !== inner ? 1 : dstContig;
  // Storing from mma and loading into blocked vectorizes the load even across a transposition.
  if (src instanceof StructAttr && src.spec === NVIDIA_MMA && dst instanceof StructAttr && dst.spec === BLOCKED) outVec = dstContig;
  const padded = [...repShape];
  const total = repShape.reduce((a, b) => a * b, 1);
  if (rank > 1 && total !== repShape[outOrd[0]]) padded[outOrd[0]] += Math.max(inVec, outVec);
  return { repShape, paddedRepShape: padded, order: outOrd, inVec, outVec };
}

// ---- Triton 3.4+ swizzled conversion scratch (lib/Tools/GenericSwizzling.cpp) -------------

const ilog2 = (n: number): number => (n < 1 ? 0 : 31 - Math.clz32(n));

/**
 * The bases of `inDim` as indices into the flattened tensor, Triton's `flattenOuts` convention:
 * the first out dim (dim0) is the most minor.
 */
function flatBases(ll: LinearLayout, inDim: string): number[] {
  const strides: number[] = [];
  let s = 1;
  for (const o of ll.outs) (strides.push(s), (s *= o.size));
  return ll.bases(inDim).map((b) => b.reduce((acc, x, k) => acc + x * strides[k], 0));
}

/** Row-reduced echelon form over GF(2), pivots at the lowest set bit (what f2reduce computes), non-zero rows only. */
function rref(vectors: readonly number[], dim: number): number[] {
  const rows = [...vectors];
  const out: number[] = [];
  for (let c = 0; c < dim; c++) {
    const k = rows.findIndex((r) => (r >>> c) & 1);
    if (k < 0) continue;
    const piv = rows.splice(k, 1)[0];
    for (let j = 0; j < rows.length; j++) if ((rows[j] >>> c) & 1) rows[j] ^= piv;
    for (let j = 0; j < out.length; j++) if ((out[j] >>> c) & 1) out[j] ^= piv;
    out.push(piv);
  }
  return out;
}

/** Triton's `nullspaceBasis`. */
function nullspaceBasis(vectors: readonly number[], dim: number): number[] {
  const mat = rref(vectors, dim);
  const pivots = new Set(mat.map((r) => 31 - Math.clz32(r & -r)));
  const basis: number[] = [];
  for (let free = 0; free < dim; free++) {
    if (pivots.has(free)) continue;
    let vec = 1 << free;
    for (const r of mat) if ((r >>> free) & 1) vec ^= 1 << (31 - Math.clz32(r & -r));
    basis.push(vec);
  }
  return basis;
}

const isPow2 = (x: number): boolean => x > 0 && (x & (x - 1)) === 0;

/** Triton's `intersectionBasis` (power-of-two bases keep b1's order). */
export function intersectionBasis(b1: readonly number[], b2: readonly number[], dim: number): number[] {
  if (b1.every(isPow2) && b2.every(isPow2)) {
    const set2 = new Set(b2);
    return b1.filter((b) => b !== 0 && set2.has(b));
  }
  return nullspaceBasis([...nullspaceBasis(b1, dim), ...nullspaceBasis(b2, dim)], dim);
}

/** `SmallVector` `a >= b` (lexicographic). */
function lexGe(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] > b[i];
  return a.length >= b.length;
}

/** Triton's `getVbasis`: the bases vectorised in every shared-memory access. */
function getVbasis(regSrc0: readonly number[], regDst0: readonly number[], laneSrc: readonly number[], laneDst: readonly number[], dim: number, bitwidth: number): number[] {
  let regSrc = [...regSrc0];
  let regDst = [...regDst0];
  let vbasis = intersectionBasis(regSrc, regDst, dim);
  const maxVecBases = ilog2(Math.floor(128 / bitwidth));
  if (vbasis.length > maxVecBases) vbasis.length = maxVecBases;
  const basesPerBank = bitwidth > 32 ? 0 : ilog2(Math.floor(32 / bitwidth));
  const laneSrcSet = new Set(laneSrc);
  const laneDstSet = new Set(laneDst);
  const intersectAfterBank0 = (regs: readonly number[], vb: readonly number[], otherLane: Set<number>): number[] => {
    const vec: number[] = [];
    const maxVecLog2 = ilog2(Math.floor(128 / Math.max(bitwidth, 32)));
    for (const r of regs) {
      if (vb.includes(r)) continue;
      if (otherLane.has(r)) vec.push(r);
      if (vec.length === maxVecLog2) break;
    }
    return vec;
  };
  let vecSrc = true;
  if ((1 << vbasis.length) * bitwidth < 32) {
    const isPrefix = (prefix: readonly number[], regs: readonly number[]) => prefix.every((p, i) => regs[i] === p);
    let srcPrefix = isPrefix(vbasis, regSrc);
    let dstPrefix = isPrefix(vbasis, regDst);
    const movePrefixToFront = (regs: readonly number[]) => [...vbasis, ...regs.filter((r) => !vbasis.includes(r))];
    if (vbasis.length && !srcPrefix && !dstPrefix) {
      regSrc = movePrefixToFront(regSrc);
      regDst = movePrefixToFront(regDst);
      srcPrefix = dstPrefix = true;
    }
    const fillVbasis = (regs: readonly number[], vb: readonly number[]) => {
      const ret = [...vb];
      for (let i = vb.length; i < basesPerBank && i < regs.length; i++) ret.push(regs[i]);
      return ret;
    };
    if (srcPrefix && dstPrefix) {
      const vs = intersectAfterBank0(regSrc, fillVbasis(regSrc, vbasis), laneDstSet);
      const vd = intersectAfterBank0(regDst, fillVbasis(regDst, vbasis), laneSrcSet);
      srcPrefix = lexGe(vs, vd);
      dstPrefix = !srcPrefix;
    }
    vecSrc = srcPrefix;
    vbasis = fillVbasis(vecSrc ? regSrc : regDst, vbasis);
  }
  vbasis.push(...(vecSrc ? intersectAfterBank0(regSrc, vbasis, laneDstSet) : intersectAfterBank0(regDst, vbasis, laneSrcSet)));
  return vbasis;
}

/** Triton's `computeSegment`: the shared-memory bases past the first bank row. */
function computeSegment(bankSrc: readonly number[], bankDst: readonly number[], dim: number, lenSegment: number): number[] {
  const setSrc = new Set(bankSrc.filter((b) => b !== 0));
  const setDst = new Set(bankDst.filter((b) => b !== 0));
  let segment: number[] = [];
  for (let b = 0; b < dim; b++) if (!setSrc.has(1 << b) && !setDst.has(1 << b)) segment.push(1 << b);
  if (segment.length >= lenSegment) return segment.slice(0, Math.max(0, lenSegment));
  let A = [...setSrc].filter((v) => !setDst.has(v));
  let B = [...setDst].filter((v) => !setSrc.has(v));
  if (A.length > B.length) [A, B] = [B, A];
  A.sort((x, y) => x - y);
  B.sort((x, y) => x - y);
  const logBankConflicts = Math.min(Math.max(0, lenSegment - A.length - segment.length), A.length);
  for (let i = logBankConflicts; i < A.length; i++) segment.push(A[i] ^ B[i]);
  segment.push(...A.slice(0, logBankConflicts), ...B.slice(0, logBankConflicts));
  if (segment.length > lenSegment) segment = segment.slice(0, lenSegment);
  return segment;
}

/** The pieces of Triton's `optimalSwizzlingLdSt` smem layout that decide its size. */
export interface SwizzledScratch {
  /** log2 of the tensor elements the smem layout covers (all of them). */
  dim: number;
  /** Vectorised bases. */
  vbasis: number[];
  /** Segment bases (before the reps are split off). */
  segment: number[];
  /** Segment bases held in registers by both layouts: moved in successive rounds through one tile. */
  reps: number[];
}

/**
 * Triton's `optimalSwizzlingLdSt` + `buildReps` on the layouts of `src` and `dst` (register
 * broadcasting removed), as far as the number of rounds is concerned.
 */
export function swizzledScratch(src: Attribute, dst: Attribute, shape: readonly number[], bitwidth: number): SwizzledScratch {
  const s = toLinearLayout(src, shape);
  const d = toLinearLayout(dst, shape);
  // actionRemoveBroadcastedRegs: drop the zero register bases.
  const regSrc = flatBases(s, 'register').filter((b) => b !== 0);
  const regDst = flatBases(d, 'register').filter((b) => b !== 0);
  const laneSrc = flatBases(s, 'lane');
  const laneDst = flatBases(d, 'lane');
  const dim = ilog2(s.outs.reduce((a, o) => a * o.size, 1));
  const vbasis = getVbasis(regSrc, regDst, laneSrc, laneDst, dim, bitwidth);
  const vectorSize = (regs: readonly number[]) => {
    let i = 0;
    while (i < vbasis.length && i < regs.length && regs[i] === vbasis[i]) i++;
    return i;
  };
  const tile = (lanes: readonly number[], regs: readonly number[]) => {
    let t = [...lanes];
    const vs = vectorSize(regs);
    if ((1 << vs) * bitwidth > 32) t = t.slice(0, Math.max(0, t.length - ilog2(((1 << vs) * bitwidth) / 32)));
    return t.filter((b) => !vbasis.includes(b));
  };
  const tileSrc = tile(laneSrc, regSrc);
  const tileDst = tile(laneDst, regDst);
  const lenB = Math.min(ilog2(Math.floor(1024 / ((1 << vbasis.length) * bitwidth))), dim - vbasis.length);
  const lenS = dim - lenB - vbasis.length;
  const segment = computeSegment([...vbasis, ...tileSrc], [...vbasis, ...tileDst], dim, lenS);
  const srcRegs = new Set(regSrc);
  const dstRegs = new Set(regDst);
  const reps = [...new Set(segment)].filter((b) => srcRegs.has(b) && dstRegs.has(b));
  return { dim, vbasis, segment, reps };
}

/**
 * Triton's `getNumScratchElemsSwizzledCvt` (3.4+, ld/st path): the conversion goes through a
 * swizzled shared-memory tile covering the whole tensor, except that segment bases held in
 * registers by both layouts become "reps", moved one after another through the same tile.
 */
export function numScratchElemsSwizzledCvt(src: Attribute, dst: Attribute, shape: readonly number[], bitwidth: number): number {
  const { dim, reps } = swizzledScratch(src, dst, shape, bitwidth);
  return 2 ** (dim - reps.length);
}

/**
 * Bytes of shared-memory scratch a `ttg.convert_layout` from `src` to `dst` on `shape` needs,
 * elements `elementBytes` wide (Triton rounds sub-byte types up to 1 byte and uses 8 for pointers);
 * 0 when no shared memory is needed. Triton 3.4+'s rule (`getNumScratchElemsSwizzledCvt` x bytes);
 * the pre-3.4 padded rep-shape rule is `scratchConfigForCvt`.
 */
export function conversionScratchBytes(src: Attribute, dst: Attribute, shape: readonly number[], elementBytes: number): number {
  // Unmodelled layouts: staging the whole tensor through shared memory is always enough.
  if (src !== dst && (!isSupportedLayout(src) || !isSupportedLayout(dst)))
    return shape.reduce((a, b) => a * b, 1) * Math.max(1, elementBytes);
  if (!cvtNeedsSharedMemory(src, dst, shape)) return 0;
  const bytes = Math.max(1, elementBytes);
  return numScratchElemsSwizzledCvt(src, dst, shape, bytes * 8) * bytes;
}

// ---- The element order of a conversion's scratch (what the NVPTX target writes and reads) ----

/**
 * Unit attribute insert-barriers puts on an op that goes through shared-memory scratch when its
 * writes must be separated from its reads by a barrier (always, today): the target emits that
 * bar.sync (and one between rounds) only where it is set, so every barrier comes from the pass.
 */
export const SCRATCH_SYNC = 'ttg.scratch_sync';

/** One side of a conversion through scratch: flat (row-major) index contributions within a round. */
export interface ExchangeSide {
  /** What each register bit adds to the flat index (0 for broadcast copies, or a round bit). */
  regs: readonly number[];
  /** What each lane bit adds to the flat index (0 for broadcast lanes). */
  lanes: readonly number[];
}

/**
 * Where every element of one round goes in a conversion's scratch, and the vectors moved.
 * The element with flat index f (within the round) lives at scratch element
 * `XOR of images[b] over the set bits b of f`: a bit permutation (the vector bases lowest) plus an
 * XOR swizzle of the bank bits, so the size is that of the unswizzled tile and no padding is added.
 */
export interface ExchangePlan {
  /** log2 of the elements one round holds. */
  bits: number;
  /** Scratch element offset of each flat-index bit 2^b, b < bits. */
  images: number[];
  /** Flat bases of one store vector (component c is the XOR of the bases of c's set bits), lowest first. */
  storeVec: number[];
  /** Flat bases of one load vector. */
  loadVec: number[];
}

const isBit = (x: number, bits: number): boolean => x > 0 && x < 2 ** bits && (x & (x - 1)) === 0;

/** Reduces `v` by a GF(2) basis kept with distinct leading bits; 0 means `v` is in its span. */
function reduceBy(basis: readonly number[], v: number): number {
  for (const b of basis) if ((v ^ b) < v) v ^= b;
  return v;
}

/** Adds `v` to `basis` (kept sorted high to low by leading bit) when independent; returns whether it was. */
function addToBasis(basis: number[], v: number): boolean {
  const r = reduceBy(basis, v);
  if (!r) return false;
  basis.push(r);
  basis.sort((a, b) => b - a);
  return true;
}

/**
 * Plans the scratch order of a layout conversion so that both sides hit distinct shared-memory
 * banks (our own construction, in the spirit of Triton 3.4+'s GenericSwizzling):
 *
 * 1. Vectors: bases held in registers by both sides are moved as vectors by both (up to 16 bytes,
 *    `maxVecBits` bases: 4 registers, or 8 16-bit values in 4 words). Then one side (the writer
 *    unless the reader gains more, or as much with 16-bit values) widens its vectors with
 *    its register bases that are lane bases of the other side, as a transposition needs: those
 *    elements are then read one per lane, four neighbouring lanes from one 16-byte chunk.
 * 2. Order: the vector bases take the lowest scratch bits, the other flat bits follow in order.
 * 3. Swizzle (1, 2 and 4-byte elements; a bank is 4 bytes): a warp's access is served 128 bytes at
 *    a time (32 lanes of up to a word, 16 of 8 bytes, 8 of 16 bytes); those lanes must land in
 *    distinct banks unless they share a word, i.e. their images must be independent in the bank
 *    bits above the vector. A lane whose image is not gets a bit of the bank range XORed in by one
 *    of its scratch bits above the 32 banks (each such bit is given one XOR term, the first time a
 *    lane needs it). XOR swizzling keeps the scratch
 *    size: no padding is added, so alloc-shared's `conversionScratchBytes` still applies.
 *
 * A 64x64 fp32 transposition from Triton's load layout (`sizePerThread = [1, 4]`, `threadsPerWarp =
 * [2, 16]`) to its transpose gets 16-byte stores and 4-byte loads with no bank conflict; the
 * unswizzled row-major order had 16-way conflicts on the stores.
 */
export function planExchange(src: ExchangeSide, dst: ExchangeSide, bits: number, elementBytes: number, maxVecBits: number): ExchangePlan {
  const cap = Math.max(0, Math.min(maxVecBits, ilog2(Math.floor(16 / Math.max(1, elementBytes)))));
  const regBits = (s: ExchangeSide) => s.regs.filter((x) => isBit(x, bits));
  const common = regBits(src).filter((x) => dst.regs.includes(x)).slice(0, cap);
  const widen = (s: ExchangeSide, other: ExchangeSide) => regBits(s).filter((x) => !common.includes(x) && other.lanes.includes(x)).slice(0, cap - common.length);
  const wSrc = widen(src, dst);
  const wDst = widen(dst, src);
  // ties go to the writer, but with 16-bit values to the reader: its 16-byte loads return the
  // 32-bit words a vector store to global memory takes (packed pairs, nothing to repack)
  const byWriter = wSrc.length > wDst.length || (wSrc.length === wDst.length && elementBytes !== 2);
  const storeVec = byWriter ? [...common, ...wSrc] : common;
  const loadVec = byWriter ? common : [...common, ...wDst];
  const low = storeVec.length >= loadVec.length ? storeVec : loadVec;
  // 2. A bit permutation: flat bit b goes to scratch bit perm[b].
  const perm = new Array<number>(bits);
  low.forEach((x, k) => (perm[ilog2(x)] = k));
  let next = low.length;
  for (let b = 0; b < bits; b++) if (perm[b] === undefined) perm[b] = next++;
  const permute = (f: number): number => {
    let out = 0;
    for (let b = 0; b < bits; b++) if ((f >>> b) & 1) out |= 1 << perm[b];
    return out;
  };
  // 3. The swizzle: xorOf[j] is XORed into the bank bits when scratch bit j (above them) is set.
  // In element units a bank is 2^sub elements (4 bytes), so the bank bits are [sub, sub + 5).
  const sub = elementBytes === 1 ? 2 : elementBytes === 2 ? 1 : 0;
  const top = sub + 5;
  const xorOf = new Array<number>(bits).fill(0);
  const swizzle = (y: number): number => {
    let z = y;
    for (let j = top; j < bits; j++) if ((y >>> j) & 1) z ^= xorOf[j];
    return z;
  };
  if (elementBytes <= 4 && bits > top) {
    const fixed = new Set<number>();
    const sides: [ExchangeSide, number][] = [
      [src, storeVec.length],
      [dst, loadVec.length],
    ];
    for (const [side, vec] of sides) {
      // A warp's access is served 128 bytes at a time: 32 lanes of at most a word, fewer of wider vectors.
      const vecBytes = elementBytes << vec;
      const served = 5 - Math.max(0, ilog2(vecBytes) - 2);
      const bankMask = ((31 << sub) & ~((1 << vec) - 1)) >>> 0;
      const span: number[] = [];
      for (const x of side.lanes.slice(0, served)) {
        if (!x) continue; // a broadcast lane reads the same word
        const y = permute(x);
        // Lanes apart only within one word share it (no conflict).
        if (swizzle(y) < 1 << sub) continue;
        let proj = swizzle(y) & bankMask;
        if (!addToBasis(span, proj)) {
          const free = [...Array(bits).keys()].find((j) => j >= top && ((y >>> j) & 1) && !fixed.has(j));
          const fix =
            free === undefined
              ? undefined
              : [...Array(5).keys()].map((k) => 1 << (k + sub)).find((e) => e >= 1 << low.length && (e & bankMask) && reduceBy(span, proj ^ e));
          if (free !== undefined && fix !== undefined) {
            xorOf[free] = fix;
            proj ^= fix;
            addToBasis(span, proj);
          }
        }
        for (let j = top; j < bits; j++) if ((y >>> j) & 1) fixed.add(j);
      }
    }
  }
  const images = [...Array(bits).keys()].map((b) => swizzle(permute(1 << b)));
  return { bits, images, storeVec, loadVec };
}

/**
 * The worst bank conflict of one side of a plan (for tests and docs): over every access of a warp
 * and every group of lanes served together (128 bytes), the most distinct words one bank holds
 * (1: conflict-free, 32: fully serialized). `vec` is the side's vector (flat bases).
 */
export function exchangeConflicts(plan: ExchangePlan, side: ExchangeSide, vec: readonly number[], elementBytes: number): number {
  const at = (f: number) => plan.images.reduce((acc, img, b) => ((f >>> b) & 1 ? acc ^ img : acc), 0);
  const vecBytes = elementBytes << vec.length;
  const perPhase = Math.max(1, Math.min(32, 128 / vecBytes));
  const regs = side.regs.filter((x) => x && !vec.includes(x) && x < 2 ** plan.bits);
  let worst = 1;
  for (let r = 0; r < 1 << regs.length; r++) {
    const rf = regs.reduce((acc, x, k) => ((r >>> k) & 1 ? acc ^ x : acc), 0);
    for (let p = 0; p < 32; p += perPhase) {
      const banks = new Map<number, Set<number>>();
      for (let lane = p; lane < p + perPhase; lane++) {
        const f = side.lanes.reduce((acc, x, k) => ((lane >>> k) & 1 ? acc ^ x : acc), rf);
        const byte = at(f) * elementBytes;
        for (let w = 0; w < Math.max(1, vecBytes / 4); w++) {
          const word = Math.floor(byte / 4) + w;
          const bank = word % 32;
          if (!banks.has(bank)) banks.set(bank, new Set());
          banks.get(bank)!.add(word);
        }
      }
      for (const words of banks.values()) worst = Math.max(worst, words.size);
    }
  }
  return worst;
}
