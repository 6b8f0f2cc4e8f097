/**
 * Shared-memory tiles: `ttg.local_alloc`, `ttg.memdesc_index`, `ttg.local_store`,
 * `ttg.local_load` (vector `ld.shared`, or `ldmatrix` into tensor-core operand layouts) and the
 * asynchronous copies (`ttg.async_copy_global_to_local` as `cp.async`, commit groups, waits).
 *
 * A memdesc value is one register: its tile's shared-window address. Elements sit where
 * dialects/ttg/shared-layout.ts says (the swizzle pad-shared chose); since that map is linear
 * over GF(2), an element's offset is the XOR of a per-thread part (hoisted into the prologue)
 * and a per-register constant, an addition where their bits are disjoint. Under a padded layout
 * both parts are element indices, padded each on its own (the thread's in the prologue) and
 * added: their bits are disjoint, so the padding of the sum is the sum of the paddings.
 */
import { constantOf } from '../../ir/patterns.js';
import { splatFloat, splatInt } from '../../dialects/arith-canonicalize.js';
import type { Operation, Value } from '../../ir/ir.js';
import type { View } from '../../ir/op-def.js';
import { RankedTensorType } from '../../ir/types.js';
import { isLayout, DOT_OP, NVIDIA_MMA } from '../../dialects/ttg/layout-attrs.js';
import type { StructAttr } from '../../dialects/ttg/struct-attr.js';
import { MemDescType } from '../../dialects/ttg/types.js';
import { offsetFromBases, padIndex, paddingOf, sharedAllocElems, sharedOffsetBases, sharedVectorElems, swizzleOf, transposedSharedEncoding } from '../../dialects/ttg/shared-layout.js';
import type { PaddingInterval } from '../../dialects/ttg/padded-shared.js';
import * as ttg from '../../dialects/ttg/index.js';
import * as nvptx from '../../dialects/nvptx.js';
import { lowering, registerType, type Lowering, type LoweringContext } from './context.js';
import { F16, BF16, F32, I32, targetError, type PtxEmitter } from './emitter.js';
import { coordIndex, registersByCoords, type RegLayout } from './layout.js';
import { pack, packing, unpack } from './memory.js';
import { ownerGuard, scratchBase, smemBytes } from './tensor.js';

/** A memdesc's tile: its type, element bytes, offset bases and padding (in bytes; none unless padded_shared). */
interface Tile {
  type: MemDescType;
  bytes: number;
  bases: number[][];
  pads: PaddingInterval[];
}

/** The tile of memdesc value `v`, or a located error when the target cannot place its elements. */
function tileOf(v: Value, op: Operation): Tile {
  const t = v.type as MemDescType;
  const bases = sharedOffsetBases(t.encoding, t.shape);
  if (!bases) throw targetError(op, `cannot address shared tile '${t}': every dim must be a power of two, and a padded layout's offset bases must place each element once`);
  const bytes = smemBytes(t.elementType);
  const pads = paddingOf(t.encoding).map((p) => ({ interval: p.interval * bytes, padding: p.padding * bytes }));
  return { type: t, bytes, bases, pads };
}

/**
 * Per-thread byte offsets: the runtime part (lane and warp bits; padded when the tile is), the
 * mask of (unpadded) bits it may set, and, for a padded tile, the unpadded part and the padding.
 */
interface ThreadOffset {
  value: Value;
  mask: number;
  unpadded: Value;
  pads: PaddingInterval[];
}

/** `v + sum over pads of (v / interval) * padding`, at run time (byte offsets; powers of two). */
function padRuntime(e: PtxEmitter, v: Value, pads: readonly PaddingInterval[]): Value {
  return pads.reduce((acc, p) => e.add(acc, e.shl(e.shrU(v, Math.log2(p.interval)), Math.log2(p.padding))), v);
}

/** The byte offset this thread's lane and warp ids add, for coordinate bases `laneBases`/`warpBases` (hoisted). */
function threadOffset(ctx: LoweringContext, key: string, tile: Tile, laneBases: readonly number[][], warpBases: readonly number[][]): ThreadOffset {
  const laneOffs = laneBases.map((c) => offsetFromBases(tile.bases, c) * tile.bytes);
  const warpOffs = warpBases.map((c) => offsetFromBases(tile.bases, c) * tile.bytes);
  const mask = [...laneOffs, ...warpOffs].reduce((m, o) => m | o, 0);
  const hoistKey = `soff:${key}:${tile.type.encoding?.id ?? 0}:${tile.type.shape.join('x')}:${tile.bytes}`;
  const unpadded = ctx.hoist(hoistKey, () => {
    // XOR of the offsets of the set lane and warp bits.
    const xorAll = (terms: Value[]) => (terms.length ? [terms.reduce((a, b) => ctx.e.xor(a, b))] : []);
    const parts = [...xorAll(ctx.idTerms(ctx.laneId(), laneOffs)), ...xorAll(ctx.idTerms(ctx.warpId(), warpOffs))];
    return parts.length ? parts.reduce((a, b) => ctx.e.xor(a, b)) : ctx.e.imm(I32, 0);
  });
  const value = tile.pads.length ? ctx.hoist(`${hoistKey}:padded`, () => padRuntime(ctx.e, unpadded, tile.pads)) : unpadded;
  return { value, mask, unpadded, pads: tile.pads };
}

/**
 * `base + (thread ^ constant)`, adding where the constant's bits are clear of the thread part's.
 * Under padding: `base + pad(thread) + pad(constant)` when their bits are disjoint, else the
 * XOR padded at run time.
 */
function elementAddress(e: PtxEmitter, base: Value, thread: ThreadOffset, constant: number): Value {
  if (thread.pads.length) {
    if (constant & thread.mask) return e.add(base, padRuntime(e, e.xor(thread.unpadded, e.imm(I32, constant)), thread.pads));
    const padded = padIndex(thread.pads, constant);
    return padded === 0 ? e.add(base, thread.value) : e.addImm(e.add(base, thread.value), padded);
  }
  if (constant === 0) return e.add(base, thread.value);
  if ((constant & thread.mask) === 0) return e.addImm(e.add(base, thread.value), constant);
  return e.add(base, e.xor(thread.value, e.imm(I32, constant)));
}

/** The register bases of `l` (what bit k of the register index adds to each coordinate). */
const registerBases = (l: RegLayout): number[][] => Array.from({ length: Math.log2(l.numRegs) }, (_, k) => [...l.regCoords[1 << k]]);

/** How `l` moves to or from `tile`: vector width, the thread part, and each register's constant byte offset. */
function plan(ctx: LoweringContext, l: RegLayout, tile: Tile) {
  const vec = sharedVectorElems(tile.type.encoding, tile.type.shape, tile.bytes, { register: registerBases(l), lane: l.laneBases as number[][], warp: l.warpBases as number[][] });
  const thread = threadOffset(ctx, l.key, tile, l.laneBases, l.warpBases);
  const constant = (r: number) => offsetFromBases(tile.bases, l.regCoords[r]) * tile.bytes;
  return { vec: Math.min(vec, l.numRegs), thread, constant };
}

/** Stores the registers of tensor `src` into the tile at `base` (first copies only). */
function storeTile(ctx: LoweringContext, op: Operation, src: Value, base: Value, tile: Tile): void {
  const l = ctx.layoutOf(src, op);
  const regs = ctx.get(src, op);
  const t = registerType(src.type);
  const { vec, thread, constant } = plan(ctx, l, tile);
  const guard = ownerGuard(ctx, l);
  const p = packing(t, vec);
  for (let r = 0; r < l.numRegs; r += vec) {
    if (r & l.dupRegMask) continue;
    const words = pack(ctx, regs.slice(r, r + vec), p.perWord);
    ctx.e.st(`shared.${p.ptx}`, elementAddress(ctx.e, base, thread, constant(r)), words, guard);
  }
}

/** Loads a distributed tensor of type `type` from the tile at `base`. */
function loadTile(ctx: LoweringContext, op: Operation, type: RankedTensorType, base: Value, tile: Tile): Value[] {
  const l = ctx.layoutOf(type, op);
  const t = registerType(type);
  const { vec, thread, constant } = plan(ctx, l, tile);
  const p = packing(t, vec);
  const out: Value[] = new Array(l.numRegs);
  for (let r = 0; r < l.numRegs; r += vec) {
    const words = ctx.e.ld(`shared.${p.ptx}`, elementAddress(ctx.e, base, thread, constant(r)), p.words);
    unpack(ctx, words, p.perWord, t).forEach((v, j) => (out[r + j] = v));
  }
  return out;
}

/**
 * Whether lane bases of `l` are an mma.sync operand fragment's: lane bits 0-1 step K by `kStep`
 * and 2 * `kStep` (2 for 16-bit operands, whose registers hold K pairs; 1 for tf32), bits 2-4
 * step the other dim by 1, 2, 4.
 */
function isMmaFragment(l: RegLayout, kd: number, nd: number, kStep: number): boolean {
  const want = [[kd, kStep], [kd, 2 * kStep], [nd, 1], [nd, 2], [nd, 4]];
  return l.laneBases.length === 5 && want.every(([d, v], k) => l.laneBases[k].every((x, j) => x === (j === d ? v : 0)));
}

/** Whether 16 bytes of consecutive elements along the bases `rowBases` stay one aligned 16-byte row of `tile`'s layout. */
function rowsOf16Bytes(tile: Tile, rowBases: number[][]): boolean {
  return sharedVectorElems(tile.type.encoding, tile.type.shape, tile.bytes, { register: rowBases, lane: [], warp: [] }) >= 16 / tile.bytes;
}

/**
 * ttg.local_load -> ldmatrix.x4 (or .x2) into an mma v2 `#ttg.dot_op`. An 8x8 b16 matrix is 8 rows
 * of 16 bytes: 8 K values of a 16-bit operand, 4 of a tf32 one (`w` = 8 or 4 elements per row);
 * lane l gives row l%8 of matrix l/8 and receives word (l/4, l%4) of each matrix. A loads one
 * 16 x 2w block (M 0-7/8-15 by K 0-w/w-2w) per x4; B loads K 0-w/w-2w of two of this thread's
 * 8-wide column blocks (x2 for a lone one). 16-bit tiles contiguous along the non-K dim use
 * `.trans`; tf32 tiles must be contiguous along K (a transposing ldmatrix would split the words).
 * A batched (rank-3) operand is read the same way for each batch index, its rows along the
 * contiguous matrix dim (a tile contiguous along the batch dim is not). Null when the layout is
 * not the fragment's or the tile cannot be read this way.
 */
function loadMatrices(ctx: LoweringContext, op: Operation, type: RankedTensorType, base: Value, tile: Tile): Value[] | null {
  const enc = type.encoding as StructAttr;
  const opIdx = enc.int('opIdx');
  const elt = type.elementType;
  const half = (elt === F16 || elt === BF16) && tile.bytes === 2;
  const tf32 = elt === F32 && tile.bytes === 4 && enc.int('kWidth') === 1;
  const rank = type.shape.length;
  if ((!half && !tf32) || (rank !== 2 && rank !== 3)) return null;
  // ldmatrix rows are 16-byte aligned: padding must come in whole 16-byte rows.
  if (tile.pads.some((p) => p.interval % 16 || p.padding % 16)) return null;
  const w = 16 / tile.bytes;
  // The matrix dims (after a batch dim when rank 3).
  const z = rank - 2;
  const kd = opIdx === 0 ? z + 1 : z;
  const nd = opIdx === 0 ? z : z + 1;
  const l = ctx.layoutOf(type, op);
  if (!isMmaFragment(l, kd, nd, half ? 2 : 1)) return null;
  const vec = (d: number, v: number) => Array.from({ length: rank }, (_, j) => (j === d ? v : 0));
  const contiguous = swizzleOf(tile.type.encoding, rank).order[0];
  if (contiguous !== kd && contiguous !== nd) return null;
  const trans = contiguous === nd;
  if (tf32 && (trans || !rowsOf16Bytes(tile, [vec(kd, 1), vec(kd, 2)]))) return null;
  if (rank === 3 && !rowsOf16Bytes(tile, [1, 2, 4].slice(0, Math.log2(w)).map((v) => vec(contiguous, v)))) return null;
  const at = registersByCoords(l);
  const add = (a: number[], b: number[]) => a.map((x, j) => x + b[j]);
  const isZero = (a: number[]) => a.every((x) => x === 0);
  const zero = vec(0, 0);
  // Matrix q of a block sits at (q%2, q/2) steps: A along (M by 8, K by w), B along (K by w, N).
  const step0 = opIdx === 0 ? vec(nd, 8) : vec(kd, w);
  let step1 = opIdx === 0 ? vec(kd, w) : vec(nd, 8);
  const rowStep = (v: number) => vec(trans ? kd : nd, v);
  const out: Value[] = new Array(l.numRegs);
  const e = ctx.e;
  // B pairs two 8-wide column blocks per ldmatrix.x4: this thread's next block along N.
  if (opIdx === 1) {
    const next = l.regCoords.filter((c) => c.every((x, j) => j === nd || x === 0) && c[nd] >= 8 && c[nd] % 8 === 0).map((c) => c[nd]);
    step1 = next.length ? vec(nd, Math.min(...next)) : zero;
  }
  const origins = [...at.values()]
    .map((r) => [l.regCoords[r], r] as const)
    .filter(([c]) => c[kd] % (2 * w) === 0 && c[nd] % (opIdx === 0 ? 16 : 8) === 0);
  for (const x of [4, 2]) {
    if (x === 4 && isZero(step1)) continue;
    const laneBases = [rowStep(1), rowStep(2), rowStep(4), step0, x === 4 ? step1 : zero];
    const thread = threadOffset(ctx, `ldm${x}:${opIdx}:${trans}:${step1}:${l.key}`, tile, laneBases, l.warpBases);
    for (const [origin, r0] of origins) {
      if (out[r0]) continue;
      const mats = Array.from({ length: x }, (_, q) => add(add(origin, q & 1 ? step0 : zero), q & 2 ? step1 : zero));
      // The registers of each matrix's word: a K pair of halves, or one tf32 value.
      const regs = mats.map((m) => (half ? [at.get(coordIndex(l.shape, m)), at.get(coordIndex(l.shape, add(m, vec(kd, 1))))] : [at.get(coordIndex(l.shape, m))]));
      if (regs.some((rs) => rs.some((r) => r === undefined || out[r]))) continue;
      const addr = elementAddress(e, base, thread, offsetFromBases(tile.bases, origin) * tile.bytes);
      const ptx = `sync.aligned.m8n8.x${x}${trans ? '.trans' : ''}.shared.b16`;
      const words = nvptx.LdmatrixOp.build(e.b, { addr, ptx }, { results: { dst: new Array(x).fill(half ? I32 : elt) } }).dst;
      words.forEach((word, q) => {
        const values = half ? e.unpack('b32', word, [elt, elt]) : [word];
        values.forEach((v, j) => (out[regs[q][j]!] = v));
      });
    }
  }
  for (let r = 0; r < l.numRegs; r++) if (!out[r]) throw targetError(op, `register ${r} of '${type}' is not covered by ldmatrix blocks`);
  return out;
}

/** The tile address `local_alloc` placed at its allocation offset. */
const lowerLocalAlloc = lowering(ttg.LocalAllocOp, (ctx, alloc) => {
  const { op, src, result } = alloc;
  const t = result.type as MemDescType;
  const bytes = sharedAllocElems(t.encoding, t.allocShape) * smemBytes(t.elementType);
  const base = scratchBase(ctx, op, bytes);
  ctx.set(result, [base]);
  // ttg.local_alloc %t -> st.shared of every element at its swizzled offset
  if (src) storeTile(ctx, op, src, base, tileOf(result, op));
});

/** ttg.memdesc_index %buf[%i] -> base + i * (bytes of one sub-tile). */
const lowerMemdescIndex = lowering(ttg.MemdescIndexOp, (ctx, { op, src, index, result }) => {
  const t = result.type as MemDescType;
  const stride = sharedAllocElems(t.encoding, t.shape) * smemBytes(t.elementType);
  const base = ctx.scalar(src, op);
  const idx = ctx.scalar(index, op);
  ctx.set(result, [ctx.e.add(base, ctx.e.mulImm(idx, stride))]);
});

/**
 * ttg.memdesc_trans %m -> %m's address: a view with no code. Its encoding is %m's transposed
 * (the verifier checks it), so every coordinate of the view addresses the element of %m it names,
 * and a local_load from it picks ldmatrix `.trans` by the view's contiguous dim.
 */
const lowerMemdescTrans = lowering(ttg.MemdescTransOp, (ctx, trans) => {
  const { op, src, result } = trans;
  const srcType = src.type as MemDescType;
  const want = trans.order ? transposedSharedEncoding(srcType.encoding, [...trans.order]) : null;
  if (!want || (result.type as MemDescType).encoding !== want) {
    throw targetError(op, `cannot lower a transposed view of '${srcType}' unless its result has the transposed swizzled_shared encoding`);
  }
  ctx.set(result, [ctx.scalar(src, op)]);
});

/** ttg.local_store %t, %m -> st.shared.vN per vector of registers. */
const lowerLocalStore = lowering(ttg.LocalStoreOp, (ctx, { op, src, dst }) => {
  storeTile(ctx, op, src, ctx.scalar(dst, op), tileOf(dst, op));
});

/** ttg.local_load %m -> ldmatrix for mma operands, else ld.shared.vN per vector of registers. */
const lowerLocalLoad = lowering(ttg.LocalLoadOp, (ctx, { op, src, result }) => {
  const type = result.type as RankedTensorType;
  const base = ctx.scalar(src, op);
  const tile = tileOf(src, op);
  const enc = type.encoding;
  const mma = isLayout(enc, DOT_OP) && isLayout((enc as StructAttr).attr('parent'), NVIDIA_MMA);
  const regs = (mma ? loadMatrices(ctx, op, type, base, tile) : null) ?? loadTile(ctx, op, type, base, tile);
  ctx.set(result, regs);
});

/** Whether `v` is a constant zero (a splat or scalar 0 / +0.0). */
function isZeroConstant(v: Value): boolean {
  const a = constantOf(v);
  return splatInt(a) === 0n || Object.is(splatFloat(a), 0);
}

/** The typed view of a `ttg.async_copy_global_to_local`. */
type AsyncCopyView = View<(typeof ttg.AsyncCopyGlobalToLocalOp)['decl']>;

/** ttg.async_copy_global_to_local %ptrs, %m [mask %k other 0] -> cp.async per vector, zero-filling masked-off ones. */
const lowerAsyncCopy = lowering(ttg.AsyncCopyGlobalToLocalOp, (ctx, copy) => {
  const { op, src: ptrs, result: dst, mask, other } = copy;
  const tile = tileOf(dst, op);
  const base = ctx.scalar(dst, op);
  if (other && !isZeroConstant(other)) throw targetError(op, "cp.async fills masked-off elements with zeros; 'other' must be a zero constant");
  const l = ctx.layoutOf(ptrs, op);
  const srcRegs = ctx.get(ptrs, op);
  const masks = mask ? ctx.get(mask, op) : null;
  const { vec: shVec, thread, constant } = plan(ctx, l, tile);
  let vec = Math.max(1, Math.min(shVec, copy.contiguity ?? 1));
  while (vec > 1 && vec * tile.bytes > 16) vec /= 2;
  const e = ctx.e;
  if (vec * tile.bytes < 4) return syncCopy(ctx, copy, l, tile, base, thread, constant, vec);
  const size = vec * tile.bytes;
  const kind = size === 16 ? 'cg' : 'ca';
  for (let r = 0; r < l.numRegs; r += vec) {
    if (r & l.dupRegMask) continue;
    const srcBytes = masks ? e.selp(masks[r], e.imm(I32, size), e.imm(I32, 0)) : e.imm(I32, size);
    nvptx.CpAsyncOp.build(e.b, { dst: elementAddress(e, base, thread, constant(r)), src: srcRegs[r], srcBytes, ptx: `${kind}.shared.global`, size });
  }
  ctx.set(copy.token, [e.imm(I32, 0)]);
});

/** Copies too narrow for cp.async (under 4 bytes) as guarded ld.global + st.shared, element by element (each value dies at once). */
function syncCopy(ctx: LoweringContext, copy: AsyncCopyView, l: RegLayout, tile: Tile, base: Value, thread: ThreadOffset, constant: (r: number) => number, vec: number): void {
  const e = ctx.e;
  const { op, mask } = copy;
  const masks = mask ? ctx.get(mask, op) : null;
  const srcRegs = ctx.get(copy.src, op);
  const t = registerType((copy.result.type as MemDescType).elementType);
  for (let r = 0; r < l.numRegs; r += vec) {
    if (r & l.dupRegMask) continue;
    const guard = masks ? masks[r] : undefined;
    const [v] = e.ld(`global.b${tile.bytes * 8}`, srcRegs[r], [t], guard, guard ? [e.imm(t, 0)] : undefined);
    e.st(`shared.b${tile.bytes * 8}`, elementAddress(e, base, thread, constant(r)), [v]);
  }
  ctx.set(copy.token, [e.imm(I32, 0)]);
}

/** ttg.async_commit_group -> cp.async.commit_group */
const lowerAsyncCommitGroup = lowering(ttg.AsyncCommitGroupOp, (ctx, group) => {
  nvptx.CpAsyncGroupOp.build(ctx.e.b, { ptx: 'commit_group' });
  ctx.set(group.asyncToken, [ctx.e.imm(I32, 0)]);
});

/** ttg.async_wait {num = N} -> cp.async.wait_group N */
const lowerAsyncWait = lowering(ttg.AsyncWaitOp, (ctx, wait) => {
  nvptx.CpAsyncGroupOp.build(ctx.e.b, { ptx: `wait_group ${wait.num}` });
  ctx.set(wait.retToken, [ctx.e.imm(I32, 0)]);
});

/** Shared-memory tiles and asynchronous copies. */
export const SHARED_RULES: readonly Lowering[] = [
  lowerLocalAlloc,
  lowering(ttg.LocalDeallocOp, () => {}),
  lowerMemdescIndex,
  lowerMemdescTrans,
  lowerLocalStore,
  lowerLocalLoad,
  lowerAsyncCopy,
  lowerAsyncCommitGroup,
  lowerAsyncWait,
];
