/**
 * The shared-memory bank model of sm_80/sm_90 that `pad-shared` optimizes and
 * `test-print-bank-conflicts` reports: 32 banks of 4 bytes. A warp instruction moving w bytes per
 * lane is served in phases (w = 16: 4 phases of 8 lanes, one per matrix for ldmatrix; w = 8: 2 of
 * 16 lanes; w <= 4: 1 of 32 lanes). In a phase, lanes on the same 4-byte word share it
 * (broadcast); the phase takes as many wavefronts as the largest number of distinct words that
 * fall in one bank. The ideal instruction takes one wavefront per phase.
 *
 * Accesses are described independently of the shared encoding (`TileAccess`), and turned into
 * warp instructions for a given encoding with exactly the addressing of the NVPTX target
 * (`sharedOffset`, `sharedVectorElems` of dialects/ttg/shared-layout.ts): warp 0 is
 * representative, and every register group of `v` consecutive registers is one instruction
 * (writes skip the groups that hold only broadcast copies).
 */
import type { Attribute } from '../../ir/attributes.js';
import type { StructAttr } from '../../dialects/ttg/struct-attr.js';
import { toLinearLayout, type LinearLayout } from '../../dialects/ttg/layout-lib.js';
import { dimName } from '../../dialects/ttg/layout-linear.js';
import { PaddedSharedAttr } from '../../dialects/ttg/padded-shared.js';
import { isXorLinear, offsetFromBases, padIndex, sharedOffsetBases, sharedOffsetOf, sharedVectorElems, swizzleOf } from '../../dialects/ttg/shared-layout.js';

/** Banks of shared memory. */
export const NUM_BANKS = 32;
/** Bytes of one bank word. */
export const BANK_BYTES = 4;

/** One warp-wide shared-memory instruction: the byte address each lane starts at, and bytes per lane. */
export interface WarpAccess {
  addrs: readonly number[];
  width: number;
}

/** The number of phases a warp access of `width` bytes per lane is served in. */
export function phasesOf(width: number): number {
  if (width >= 16) return 4;
  return width === 8 ? 2 : 1;
}

/** The fewest wavefronts a warp instruction can take: one per phase its lanes fill. */
export function idealWavefronts(access: WarpAccess): number {
  return Math.ceil(access.addrs.length / (32 / phasesOf(access.width)));
}

/**
 * Wavefronts of one warp instruction: per phase, the most distinct words in any one bank, summed.
 * (Addresses are never negative.)
 */
export function wavefronts(access: WarpAccess): number {
  const { addrs } = access;
  const perPhase = 32 / phasesOf(access.width);
  const bytes = Math.max(1, access.width);
  // the distinct words of each bank seen so far in the phase: bankWords[NUM_BANKS * k + bank], k < perBank[bank]
  const perBank = new Int32Array(NUM_BANKS);
  const bankWords: number[] = [];
  let total = 0;
  for (let start = 0; start < addrs.length; start += perPhase) {
    perBank.fill(0);
    let most = 1;
    for (let l = start; l < Math.min(start + perPhase, addrs.length); l++) {
      const last = Math.floor((addrs[l] + bytes - 1) / BANK_BYTES);
      for (let w = Math.floor(addrs[l] / BANK_BYTES); w <= last; w++) {
        const bank = w % NUM_BANKS;
        let k = 0;
        while (k < perBank[bank] && bankWords[NUM_BANKS * k + bank] !== w) k++;
        if (k < perBank[bank]) continue;
        bankWords[NUM_BANKS * k + bank] = w;
        most = Math.max(most, ++perBank[bank]);
      }
    }
    total += most;
  }
  return total;
}

/**
 * How one op moves a tensor to or from a shared tile, independent of the tile's encoding.
 * `tileShape` is the encoded tile (an alloc's trailing dims), `offsets` where the accessed view
 * starts in it. `vector`: each thread moves its registers in vectors (`register`/`lane`/`warp`:
 * dim-ordered coordinate bases of the tensor's linear layout; `maxVec` caps the vector, e.g. a
 * cp.async's contiguity). `ldmatrix`: one ldmatrix per entry of `origins`, the origins of its
 * (up to four) 8x8 matrices; `matrixDims` are the operand's two matrix dims (the last two of the
 * operand, in the tile's coordinates): each matrix row lies along the one of them that is
 * contiguous in the tile, its 8 rows step the other. A rank-3 tile is a batch of matrices: the
 * batch dim is neither, and its coordinate is part of every origin.
 */
export type TileAccess =
  | {
      kind: 'vector';
      op: 'ld.shared' | 'st.shared' | 'cp.async';
      tileShape: readonly number[];
      offsets: readonly number[];
      elemBytes: number;
      register: readonly number[][];
      lane: readonly number[][];
      warp: readonly number[][];
      maxVec: number;
    }
  | {
      kind: 'ldmatrix';
      op: 'ldmatrix';
      tileShape: readonly number[];
      offsets: readonly number[];
      elemBytes: number;
      origins: readonly number[][][];
      matrixDims: readonly number[];
    };

const plus = (a: readonly number[], b: readonly number[]): number[] => a.map((x, d) => x + b[d]);

/** The bases of input dim `name` of `ll`, reordered to coordinates dim0..dim{rank-1} (as the target does). */
export function basesByDim(ll: LinearLayout, name: string, rank: number): number[][] {
  const idx = Array.from({ length: rank }, (_, d) => ll.outs.findIndex((o) => o.name === dimName(d)));
  return ll.bases(name).map((b) => idx.map((k) => (k < 0 ? 0 : b[k])));
}

/** A `vector` access of a tensor of `shape` in distributed `layout` (throws when the layout library cannot map it). */
export function vectorAccess(
  op: 'ld.shared' | 'st.shared' | 'cp.async',
  layout: Attribute,
  shape: readonly number[],
  tile: { tileShape: readonly number[]; offsets: readonly number[]; elemBytes: number },
  maxVec = Infinity,
): TileAccess {
  const ll = toLinearLayout(layout, shape);
  const rank = shape.length;
  const [register, lane, warp] = ['register', 'lane', 'warp'].map((n) => basesByDim(ll, n, rank));
  return { kind: 'vector', op, ...tile, register, lane, warp, maxVec };
}

/**
 * An `ldmatrix` access loading `shape` into a dot operand layout (mma v2 parent: 16-bit elements,
 * kWidth 2, or tf32, kWidth 1), grouped as the target groups them. A matrix is 8 rows of 16 bytes,
 * w = 16 / elemBytes elements along K (8 halves or 4 floats). Warp 0's matrices are those holding
 * a register of lane 0 (in register order). An ldmatrix.x4 starts at such a matrix (K a multiple
 * of 2w; the other dim a multiple of 16 for A, 8 for B) and loads matrix q at origin +
 * (q % 2) step0 + floor(q / 2) step1, where step0 is 8 along M (A) or w along K (B), and step1 is
 * w along K (A) or, for B, the distance to the warp's next column block along N. Matrices no x4
 * takes are loaded in pairs (x2, step0 only). A rank-3 (batched) operand's matrix dims are its
 * last two; each batch index of warp 0's registers is read the same way (as the target reads it).
 */
export function ldmatrixAccess(layout: Attribute, shape: readonly number[], tile: { tileShape: readonly number[]; offsets: readonly number[]; elemBytes: number }): TileAccess {
  const ll = toLinearLayout(layout, shape);
  const rank = shape.length;
  const isA = (layout as StructAttr).int('opIdx') === 0;
  const z = rank - 2;
  const [kd, nd] = isA ? [z + 1, z] : [z, z + 1];
  const w = 16 / tile.elemBytes;
  const along = (d: number, v: number): number[] => Array.from({ length: rank }, (_, j) => (j === d ? v : 0));
  const blocks = new Map<string, number[]>();
  for (const c of spanOf(basesByDim(ll, 'register', rank), rank)) {
    const b = [...c];
    b[nd] = c[nd] & ~7;
    b[kd] = c[kd] - (c[kd] % w);
    if (!blocks.has(b.join())) blocks.set(b.join(), b);
  }
  const step0 = isA ? along(nd, 8) : along(kd, w);
  let step1: number[] | null = along(kd, w);
  if (!isA) {
    // this warp's next 8-wide column block of the same matrix (batch index 0)
    const next = [...blocks.values()].filter((b) => b.every((x, d) => d === nd || x === 0) && b[nd] >= 8).map((b) => b[nd]);
    step1 = next.length ? along(nd, Math.min(...next)) : null;
  }
  const starts = [...blocks.values()].filter((b) => b[kd] % (2 * w) === 0 && b[nd] % (isA ? 16 : 8) === 0);
  const taken = new Set<string>();
  const origins: number[][][] = [];
  const zero = along(0, 0);
  for (const x of [4, 2]) {
    if (x === 4 && !step1) continue;
    for (const o of starts) {
      const mats = [zero, step0, step1 ?? zero, plus(step0, step1 ?? zero)].slice(0, x).map((s) => plus(o, s));
      if (mats.some((m) => !blocks.has(m.join()) || taken.has(m.join()))) continue;
      mats.forEach((m) => taken.add(m.join()));
      origins.push(mats);
    }
  }
  return { kind: 'ldmatrix', op: 'ldmatrix', ...tile, origins, matrixDims: [z, z + 1] };
}

/** Every XOR combination of `bases` (coordinates of `rank` dims), index k holding the bases of k's set bits. */
function spanOf(bases: readonly (readonly number[])[], rank = 2): number[][] {
  const out: number[][] = [bases.length ? bases[0].map(() => 0) : new Array<number>(rank).fill(0)];
  for (let k = 1; k < 1 << bases.length; k++) {
    const bit = 31 - Math.clz32(k);
    out.push(out[k ^ (1 << bit)].map((c, d) => c ^ bases[bit][d]));
  }
  return out;
}

/**
 * The warp instructions `access` issues on a tile under shared encoding `enc`, or a reason why
 * the target could not issue them (ldmatrix rows that are not 16 contiguous bytes).
 */
export function warpAccesses(access: TileAccess, enc: Attribute | null): WarpAccess[] | string {
  const { tileShape, offsets, elemBytes } = access;
  const offsetOf = sharedOffsetOf(enc, tileShape);
  const addr = (c: readonly number[]) => offsetOf(plus(c, offsets)) * elemBytes;
  if (access.kind === 'ldmatrix') {
    // Rows of 16 bytes along the matrix dim contiguous in the tile; the 8 rows step the other.
    const [contig] = swizzleOf(enc, tileShape.length).order;
    if (!access.matrixDims.includes(contig)) return `ldmatrix reads a tile contiguous along dim ${contig}, not one of its matrix dims`;
    const rows = access.matrixDims.find((d) => d !== contig)!;
    const out: WarpAccess[] = [];
    for (const matrices of access.origins) {
      const addrs: number[] = [];
      for (let l = 0; l < 8 * matrices.length; l++) {
        const c = [...matrices[l >> 3]];
        c[rows] += l & 7;
        const a = addr(c);
        if (a % 16) return `ldmatrix row at (${c.join(', ')}) is not 16-byte aligned`;
        for (let j = 1; j * elemBytes < 16; j++) {
          const next = [...c];
          next[contig] += j;
          if (addr(next) !== a + j * elemBytes) return `ldmatrix row at (${c.join(', ')}) is not 16 contiguous bytes`;
        }
        addrs.push(a);
      }
      out.push({ addrs, width: 16 });
    }
    return out;
  }
  const v = Math.min(access.maxVec, sharedVectorElems(enc, tileShape, elemBytes, access));
  // coordinates of the tile's rank, also where a thread holds one element or a warp one lane's (no bases)
  const regs = spanOf(access.register, tileShape.length);
  const lanes = spanOf(access.lane, tileShape.length);
  // Writes skip registers that only repeat another's element (the target stores first copies only).
  const dupMask = access.op === 'ld.shared' ? 0 : access.register.reduce((m, b, k) => (b.every((x) => x === 0) ? m | (1 << k) : m), 0);
  const out: WarpAccess[] = [];
  for (let r = 0; r < regs.length; r += v) {
    if (r & dupMask) continue;
    out.push({ addrs: lanes.map((l) => addr(regs[r].map((x, d) => x ^ l[d]))), width: v * elemBytes });
  }
  return out;
}

/** Totals of some accesses under one encoding: instructions, wavefronts and the ideal (phases). */
export interface AccessCost {
  instructions: number;
  wavefronts: number;
  ideal: number;
}

/** The cost of `access` under `enc`, or the reason the target could not issue it. */
export function accessCost(access: TileAccess, enc: Attribute | null): AccessCost | string {
  const linear = access.kind === 'vector' ? linearVectorCost(access, enc) : linearLdmatrixCost(access, enc);
  if (linear) return linear;
  const insts = warpAccesses(access, enc);
  if (typeof insts === 'string') return insts;
  return {
    instructions: insts.length,
    wavefronts: insts.reduce((s, a) => s + wavefronts(a), 0),
    ideal: insts.reduce((s, a) => s + idealWavefronts(a), 0),
  };
}

/** The summed cost of every access of one buffer under `enc`; null when some access cannot be issued. */
export function bufferCost(accesses: readonly TileAccess[], enc: Attribute | null): AccessCost | null {
  const total: AccessCost = { instructions: 0, wavefronts: 0, ideal: 0 };
  for (const a of accesses) {
    const c = accessCost(a, enc);
    if (typeof c === 'string') return null;
    total.instructions += c.instructions;
    total.wavefronts += c.wavefronts;
    total.ideal += c.ideal;
  }
  return total;
}

/**
 * `accessCost` of a `vector` access without placing every element, where the tile's offsets come
 * from its offset bases and the access's origin shares no bit with the coordinates its registers
 * and lanes add. On a tile whose offsets are linear over GF(2) (`isXorLinear`), the lane addresses
 * of the instruction at register r are `C ^ a` for lane l, with `a` the lane's own part
 * (`A(lane l)`) and `C` the register's and the origin's (`A(register r) ^ A(origin)`, times the
 * element bytes, a power of two). When each lane's vector stays within an aligned block of Q >= 4
 * bytes and C is a multiple of Q, XOR by C moves every word w the instruction touches to w ^ C/4,
 * a one-to-one map that keeps words of one bank in one bank: the instruction takes as many
 * wavefronts as the lanes' own parts, computed once. Other instructions, and every instruction on
 * a padded tile (whose element index is linear, then padded), are costed from their addresses.
 * Null where the shortcut does not apply (the caller places every element, as `warpAccesses` does).
 */
function linearVectorCost(access: TileAccess & { kind: 'vector' }, enc: Attribute | null): AccessCost | null {
  const { tileShape, offsets, elemBytes } = access;
  const rank = tileShape.length;
  const padded = enc instanceof PaddedSharedAttr ? enc.pairs : null;
  // (spanOf's coordinates of no bases have rank 2: keep warpAccesses' reading of those)
  if ((padded ? !sharedOffsetBases(enc, tileShape) : !isXorLinear(enc, tileShape)) || (elemBytes & (elemBytes - 1)) !== 0) return null;
  if (rank !== 2 && (!access.register.length || !access.lane.length)) return null;
  for (let d = 0; d < rank; d++) {
    let bits = 0;
    for (const b of access.register) bits |= b[d];
    for (const b of access.lane) bits |= b[d];
    if (offsets[d] < 0 || (bits & offsets[d]) !== 0 || (bits | offsets[d]) >= tileShape[d]) return null;
  }
  const bases = sharedOffsetBases(enc, tileShape)!;
  const v = Math.min(access.maxVec, sharedVectorElems(enc, tileShape, elemBytes, access));
  const width = v * elemBytes;
  const origin = offsetFromBases(bases, offsets);
  const laneOffsets = spanOfOffsets(access.lane.map((b) => offsetFromBases(bases, b)));
  const regOffsets = spanOfOffsets(access.register.map((b) => offsetFromBases(bases, b)));
  const dupMask = access.op === 'ld.shared' ? 0 : access.register.reduce((m, b, k) => (b.every((x) => x === 0) ? m | (1 << k) : m), 0);
  const cost: AccessCost = { instructions: 0, wavefronts: 0, ideal: 0 };
  const count = (inst: WarpAccess, wavefrontsOfInst: number) => {
    cost.instructions++;
    cost.wavefronts += wavefrontsOfInst;
    cost.ideal += idealWavefronts(inst);
  };
  if (padded) {
    for (let r = 0; r < regOffsets.length; r += v) {
      if (r & dupMask) continue;
      const inst: WarpAccess = { addrs: laneOffsets.map((o) => padIndex(padded, o ^ regOffsets[r] ^ origin) * elemBytes), width };
      count(inst, wavefronts(inst));
    }
    return cost;
  }
  let block = BANK_BYTES;
  while (block < width) block *= 2;
  const own = laneOffsets.map((o) => o * elemBytes);
  if (own.some((a) => (a % block) + Math.max(1, width) > block)) return null;
  const lanes: WarpAccess = { addrs: own, width };
  const ownWavefronts = wavefronts(lanes);
  for (let r = 0; r < regOffsets.length; r += v) {
    if (r & dupMask) continue;
    const c = (regOffsets[r] ^ origin) * elemBytes;
    count(lanes, c % block === 0 ? ownWavefronts : wavefronts({ addrs: own.map((a) => a ^ c), width }));
  }
  return cost;
}

/**
 * `accessCost` of an `ldmatrix` access from the tile's offset bases, where they give every offset
 * (`isXorLinear`) of the rows it reads: every matrix origin is a multiple of 8 along the rows dim
 * and of a row's elements (w) along the contiguous one, and shares no bit with the access's origin
 * or the rows and elements it adds. Row i of a matrix at o then starts at `A(o) ^ A(origin) ^
 * A(i along rows)`, and its elements j < w lie at `A(j along contig)` more, which are j for every
 * row or for none. Null where that does not hold, or where some row is not 16 contiguous,
 * aligned bytes (the caller then places every element, as `warpAccesses` does, and gives the
 * reason).
 */
function linearLdmatrixCost(access: TileAccess & { kind: 'ldmatrix' }, enc: Attribute | null): AccessCost | null {
  const { tileShape, offsets, elemBytes, matrixDims } = access;
  const rank = tileShape.length;
  const w = 16 / elemBytes;
  const [contig] = swizzleOf(enc, rank).order;
  if (!isXorLinear(enc, tileShape) || !Number.isInteger(w) || (w & (w - 1)) !== 0 || !matrixDims.includes(contig)) return null;
  const rows = matrixDims.find((d) => d !== contig)!;
  const along = (d: number, v: number): number[] => Array.from({ length: rank }, (_, k) => (k === d ? v : 0));
  for (let d = 0; d < rank; d++) {
    let bits = d === rows ? 7 : d === contig ? w - 1 : 0;
    for (const matrices of access.origins) {
      for (const o of matrices) {
        if ((d === rows && o[d] & 7) || (d === contig && o[d] & (w - 1))) return null;
        bits |= o[d];
      }
    }
    if (offsets[d] < 0 || (bits & offsets[d]) !== 0 || (bits | offsets[d]) >= tileShape[d]) return null;
  }
  const bases = sharedOffsetBases(enc, tileShape)!;
  for (let j = 1; j < w; j++) if (offsetFromBases(bases, along(contig, j)) !== j) return null;
  const origin = offsetFromBases(bases, offsets);
  const rowOffsets = Array.from({ length: 8 }, (_, i) => offsetFromBases(bases, along(rows, i)));
  const cost: AccessCost = { instructions: 0, wavefronts: 0, ideal: 0 };
  for (const matrices of access.origins) {
    const starts = matrices.map((o) => offsetFromBases(bases, o) ^ origin);
    const addrs: number[] = [];
    for (let l = 0; l < 8 * matrices.length; l++) addrs.push((starts[l >> 3] ^ rowOffsets[l & 7]) * elemBytes);
    if (addrs.some((a) => a % 16)) return null;
    const inst: WarpAccess = { addrs, width: 16 };
    cost.instructions++;
    cost.wavefronts += wavefronts(inst);
    cost.ideal += idealWavefronts(inst);
  }
  return cost;
}

/** Every XOR combination of `offsets`, index k holding the XOR of those of k's set bits (as `spanOf`). */
function spanOfOffsets(offsets: readonly number[]): number[] {
  const out = [0];
  for (let k = 1; k < 1 << offsets.length; k++) out.push(out[k ^ (1 << (31 - Math.clz32(k)))] ^ offsets[31 - Math.clz32(k)]);
  return out;
}
