/**
 * Hopper's warp-group tensor cores for mma-lowering (Triton's MMAv3 choice in AccelerateMatmul).
 * On a `cuda:90` target, a `tt.dot` on f16 or bf16 pairs with an f32 accumulator becomes
 *
 *   %a_s = ttg.local_alloc %a : -> !ttg.memdesc<MxK, #ttg.nvmma_shared<...>>   (likewise %b)
 *   %d = ttng.warp_group_dot %a_s, %b_s, %c : ... -> tensor<MxN, #ttg.nvidia_mma<{versionMajor = 3,
 *          warpsPerCTA, instrShape = [16, n, 16]}>>
 *
 * when its tile fits warp-group instructions: warps a multiple of 4, each warp group owning
 * whole 64-row blocks of M and `n`-column blocks of N, K a multiple of 16. Each operand is stored
 * in the order it was loaded (a `tt.trans` operand through a `ttg.memdesc_trans` view), with the
 * widest swizzle (128, 64 or 32 bytes) its contiguous row fills, so the pipeline's `cp.async`
 * stays 16 bytes wide and wgmma reads K-major or MN-major tiles as they are. An A operand computed
 * in registers (a chained dot: attention's P) stays there, converted to
 * `#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>`; all warps then go along M.
 * An f32 dot that asks for tf32 (`inputPrecision = tf32`) goes there too, as m64nNk8 tf32
 * instructions, when both tiles are K-major (wgmma transposes only 16-bit tiles; fp8 likewise).
 * The accumulator layout follows Triton's `warpsPerTileV3` and instruction-shape rules.
 */
import type { Operation, Value } from '../../ir/ir.js';
import type { Rewriter } from '../../ir/rewriter.js';
import type { View } from '../../ir/op-def.js';
import { bitWidth, FloatType, IntegerType, RankedTensorType } from '../../ir/types.js';
import { gpuConfigOf } from './coalesce-access.js';
import { blockedForShape } from './convert-to-gpu-layouts.js';
import { DOT_OP, NVIDIA_MMA, NVMMA_SHARED, SharedMemorySpaceAttr, isDistributed } from '../../dialects/ttg/layout-attrs.js';
import { layoutOrder } from '../../dialects/ttg/layout-lib.js';
import { transposedSharedEncoding } from '../../dialects/ttg/shared-layout.js';
import { StructAttr } from '../../dialects/ttg/struct-attr.js';
import { MemDescType } from '../../dialects/ttg/types.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';
import * as ttng from '../../dialects/ttng.js';

type DotView = View<typeof tt.DotOp.decl>;

/** Rows one warp computes of a warp-group instruction, and the instruction's K for 16-bit operands (fp8: twice, tf32: half). */
const WARP_ROWS = 16;
const INSTR_K = 16;
/** The fp8 types wgmma takes (in any pairing). */
const FP8: ReadonlySet<string> = new Set(['f8E4M3FN', 'f8E5M2']);
/** The instruction N values of integer wgmma (`.s32.s8.s8`): fewer than the floating forms'. */
const INT8_N: ReadonlySet<number> = new Set([8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256]);

/** Whether `t` holds 8-bit integers (Triton's int8, taken as signed). */
export function isInt8(t: RankedTensorType): boolean {
  return t.elementType instanceof IntegerType && t.elementType.width === 8;
}

/** The value before any `ttg.convert_layout`s. */
function beforeConversion(v: Value): Value {
  for (let cvt = ttg.ConvertLayoutOp.match(v.definingOp); cvt; cvt = ttg.ConvertLayoutOp.match(v.definingOp)) v = cvt.src;
  return v;
}

/** Triton's instruction N for an MxN accumulator: the largest multiple of 8 up to 256 dividing N and no wider than N per warp column. */
export function wgmmaInstrN(shape: readonly number[], numWarps: number): number {
  const mWarps = Math.max(1, shape[0] / WARP_ROWS);
  const nWarps = Math.max(1, Math.floor(numWarps / mWarps));
  const maxN = Math.max(8, shape[1] / nWarps);
  for (let n = 256; n >= 8; n -= 8) if (shape[1] % n === 0 && n <= maxN) return n;
  return 8;
}

/** Triton's `warpsPerTileV3`: 4 warps along M, then double M while rows are left, else N; a chained dot puts all warps along M. */
export function wgmmaWarpsPerCTA(shape: readonly number[], numWarps: number, chained: boolean): [number, number] {
  if (chained) return [numWarps, 1];
  const ret: [number, number] = [4, 1];
  while (ret[0] * ret[1] < numWarps) {
    if (shape[0] > WARP_ROWS * ret[0]) ret[0] *= 2;
    else ret[1] *= 2;
  }
  return ret;
}

/**
 * The `#ttg.nvmma_shared` encoding of a tile stored in its own layout order: transposed when its
 * first dim is the contiguous one; the widest swizzle (128, 64, 32 bytes) its contiguous row
 * fills. Null when that row is under 32 bytes.
 */
export function nvmmaSharedFor(t: RankedTensorType): StructAttr | null {
  if (t.rank !== 2) return null;
  const contig = isDistributed(t.encoding) ? layoutOrder(t.encoding)[0] : 1;
  const bits = (t.elementType as FloatType).width;
  const rowBytes = (t.shape[contig] * bits) / 8;
  const swizzle = [128, 64, 32].find((s) => rowBytes >= s && rowBytes % s === 0);
  if (!swizzle) return null;
  return StructAttr.get(NVMMA_SHARED, { swizzlingByteWidth: swizzle, transposed: contig === 0, elementBitWidth: bits });
}

/** The tile an operand is stored from and, for a `tt.trans` operand, the transposition's order. */
function storedTile(operand: Value): { tile: Value; order: readonly number[] | null } {
  const v = beforeConversion(operand);
  const trans = tt.TransOp.match(v.definingOp);
  if (trans && trans.order.length === 2) return { tile: beforeConversion(trans.src), order: trans.order };
  return { tile: v, order: null };
}

/**
 * The plan of one Hopper dot: accumulator layout and each operand's stored encoding (A's null: it
 * stays in registers), and for an 8-bit tile loaded M- or N-major, the register layout it is
 * converted to first, with K contiguous, so that it is stored K-major (else null).
 */
export interface WgmmaPlan {
  mma: StructAttr;
  shared: [StructAttr | null, StructAttr];
  relayout: [StructAttr | null, StructAttr | null];
}

/**
 * A register layout of `t` with dim `kDim` contiguous, 16 bytes a thread along it (Triton turns an
 * 8-bit operand loaded MN-major around in registers the same way: 8-bit wgmma reads K-major tiles only).
 */
function kContiguousLayout(t: RankedTensorType, kDim: number, at: Operation): StructAttr {
  const per = Math.min(t.shape[kDim], 128 / bitWidth(t.elementType));
  return blockedForShape(t.shape, t.shape.map((_, d) => (d === kDim ? per : 1)), [kDim, 1 - kDim], gpuConfigOf(at));
}

/**
 * The plan for `dot` on warp-group tensor cores, or why it cannot go there (the caller then keeps
 * mma.sync). `registerA`: the A operand is computed in registers (attention's P) and is read from
 * them, in `#ttg.dot_op<{opIdx = 0, parent = #mma}>`; the warps then all go along M.
 */
export function planWgmma(dot: DotView, numWarps: number, chained: boolean, registerA = false): WgmmaPlan | string {
  const [a, b, c] = [dot.a.type, dot.b.type, dot.c.type] as RankedTensorType[];
  const kind = (t: RankedTensorType) => (t.elementType instanceof FloatType ? t.elementType.kind : '');
  const fp8 = FP8.has(kind(a)) && FP8.has(kind(b));
  const int8 = isInt8(a) && isInt8(b);
  const tf32 = kind(a) === 'f32' && kind(b) === 'f32' && dot.inputPrecision === 'tf32';
  if (!fp8 && !int8 && !tf32 && (kind(a) !== kind(b) || (kind(a) !== 'f16' && kind(a) !== 'bf16'))) {
    return `operands are '${a.elementType}' and '${b.elementType}'; wgmma is used for f16 or bf16 pairs, fp8 (e4m3, e5m2) pairs, i8 pairs and f32 pairs taken as tf32`;
  }
  if (int8 ? String(c.elementType) !== 'i32' : kind(c) !== 'f32') return `the accumulator is '${c.elementType}'; wgmma is used with ${int8 ? 'i32 for i8 operands' : 'f32'}`;
  if (numWarps % 4) return `${numWarps} warps do not form warp groups of 4`;
  // Only 16-bit tiles may be read transposed (MN-major) or from registers here.
  const kMajorOnly = fp8 ? 'fp8' : int8 ? 'i8' : tf32 ? 'tf32' : '';
  if (kMajorOnly && registerA) return `its ${kMajorOnly} A operand is computed in registers (wgmma reads register A operands of 16-bit types only here)`;
  const [M, N] = c.shape;
  const K = a.shape[1];
  const instrK = fp8 || int8 ? 2 * INSTR_K : tf32 ? INSTR_K / 2 : INSTR_K;
  if (K % instrK) return `K = ${K} is not a multiple of ${instrK}`;
  const n = wgmmaInstrN(c.shape, numWarps);
  if (int8 && !INT8_N.has(n)) return `integer wgmma has no instruction of N = ${n}`;
  let warps = wgmmaWarpsPerCTA(c.shape, numWarps, chained);
  if (chained && M % (WARP_ROWS * warps[0])) warps = wgmmaWarpsPerCTA(c.shape, numWarps, false);
  if (registerA && warps[1] !== 1) return `its A operand is in registers, which needs all ${numWarps} warps along M (${M} rows are too few)`;
  if (warps[0] % 4 || M % (WARP_ROWS * warps[0]) || N % (n * warps[1])) {
    return `a ${M}x${N} accumulator does not split into 64-row blocks per warp group with ${numWarps} warps (warpsPerCTA ${warps.join('x')}, n = ${n})`;
  }
  const shared: (StructAttr | null)[] = registerA ? [null] : [];
  const relayout: [StructAttr | null, StructAttr | null] = [null, null];
  for (const [opIdx, operand] of (registerA ? [[1, dot.b]] : [[0, dot.a], [1, dot.b]]) as [number, Value][]) {
    const { tile, order } = storedTile(operand);
    const tileType = tile.type as RankedTensorType;
    let enc = nvmmaSharedFor(tileType);
    if (!enc) return `operand '${tile.type}' has a contiguous row under 32 bytes, too narrow for a swizzled wgmma tile`;
    // fp8, i8 and tf32 tiles must be K-major: the contiguous dim of the stored tile, seen through the transposition, is K.
    const kDim = opIdx === 0 ? 1 : 0;
    const contig = enc.bool('transposed') ? 0 : 1;
    const viewContig = order ? order.indexOf(contig) : contig;
    if (kMajorOnly && viewContig !== kDim) {
      // An 8-bit tile loaded MN-major is turned around in registers first (tf32 keeps mma.sync: faster, see docs/hopper.md).
      const turned = kMajorOnly !== 'tf32' && !order ? kContiguousLayout(tileType, kDim, dot.op) : null;
      const turnedEnc = turned ? nvmmaSharedFor(tileType.withEncoding(turned)) : null;
      if (!turned || !turnedEnc) return `its ${kMajorOnly} ${opIdx === 0 ? 'A' : 'B'} operand is stored ${opIdx === 0 ? 'M' : 'N'}-major, and wgmma reads only 16-bit tiles transposed`;
      relayout[opIdx] = turned;
      enc = turnedEnc;
    }
    shared.push(enc);
  }
  const mma = StructAttr.get(NVIDIA_MMA, { versionMajor: 3, versionMinor: 0, warpsPerCTA: warps, instrShape: [WARP_ROWS, n, instrK] });
  return { mma, shared: shared as [StructAttr | null, StructAttr], relayout };
}

/**
 * operand -> ttg.local_alloc of its tile in `enc` (a tt.trans operand: of the transposed tile, read
 * through ttg.memdesc_trans; with `relayout`, of the tile converted to that register layout first).
 */
function stage(rw: Rewriter, at: Operation, operand: Value, enc: StructAttr, relayout: StructAttr | null): Value {
  const stored = storedTile(operand);
  const { order } = stored;
  let tile = stored.tile;
  // tile (MN-major) -> ttg.convert_layout tile to a K-contiguous layout, then stored K-major
  if (relayout) tile = ttg.ConvertLayoutOp.build(rw.before(at), { src: tile }, { results: { result: (tile.type as RankedTensorType).withEncoding(relayout) } }).result;
  const t = tile.type as RankedTensorType;
  const space = SharedMemorySpaceAttr.get();
  const alloc = ttg.LocalAllocOp.build(rw.before(at), { src: tile }, { results: { result: MemDescType.get(t.shape, t.elementType, enc, space) } }).result;
  if (!order) return alloc;
  // local_alloc (tt.trans %x) -> memdesc_trans (local_alloc %x)
  const view = transposedSharedEncoding(enc, order)!;
  const ot = operand.type as RankedTensorType;
  return ttg.MemdescTransOp.build(rw.before(at), { src: alloc, order }, { results: { result: MemDescType.get(ot.shape, ot.elementType, view, space) } }).result;
}

/** The A operand computed in registers, converted to wgmma's register fragment (a permutation of the accumulator layout's registers). */
// tt.dot (convert %p -> #dot_op<{parent = #blocked}>), ... -> ttng.warp_group_dot (convert %p -> #dot_op<{opIdx = 0, parent = #mma v3}>), ...
function inRegisters(rw: Rewriter, dot: DotView, mma: StructAttr): Value {
  const src = beforeConversion(dot.a);
  const t = src.type as RankedTensorType;
  const result = t.withEncoding(StructAttr.get(DOT_OP, { opIdx: 0, parent: mma, kWidth: 2 }));
  return ttg.ConvertLayoutOp.build(rw.before(dot.op), { src }, { results: { result } }).result;
}

/**
 * tt.dot %a, %b, %c -> convert_layout(ttng.warp_group_dot local_alloc(%a), local_alloc(%b), convert_layout %c to #mma v3).
 * Returns the operands the old dot used (for the caller to erase their dead chains).
 */
export function toWarpGroupDot(rw: Rewriter, dot: DotView, plan: WgmmaPlan): Value[] {
  const c = dot.c;
  const ct = c.type as RankedTensorType;
  const accType = RankedTensorType.get(ct.shape, ct.elementType, plan.mma);
  const a = plan.shared[0] ? stage(rw, dot.op, dot.a, plan.shared[0], plan.relayout[0]) : inRegisters(rw, dot, plan.mma);
  const b = stage(rw, dot.op, dot.b, plan.shared[1], plan.relayout[1]);
  const acc = ttg.ConvertLayoutOp.build(rw.before(dot.op), { src: c }, { results: { result: accType } }).result;
  const attributes = { ...(dot.op.properties ?? {}), ...(dot.op.attributes ?? {}) };
  const d = ttng.WarpGroupDotOp.build(rw.before(dot.op), { a, b, c: acc }, { results: { d: accType }, attributes }).d;
  const back = ttg.ConvertLayoutOp.build(rw.before(dot.op), { src: d }, { results: { result: dot.d.type } }).result;
  const old = [dot.a, dot.b];
  rw.replaceAllUsesWith(dot.d, back);
  rw.eraseOp(dot.op);
  return old;
}
