/**
 * Hopper's warp-group tensor cores (sm_90a): `ttng.warp_group_dot` on two `#ttg.nvmma_shared`
 * tiles (or an A operand in registers, `#ttg.dot_op<{opIdx = 0, parent = #mma}>`) and an
 * accumulator in `#ttg.nvidia_mma` version 3 becomes
 *
 *   wgmma.fence.sync.aligned;
 *   wgmma.mma_async.sync.aligned.m64n<N>k<K>.f32.<t>.<t> {d...}, descA, descB, 1, 1, 1, tA, tB;  (per 64-row block and K step)
 *
 * with K = 16 for f16/bf16, 32 for fp8 (e4m3, e5m2) and 8 for tf32 (f32 tiles; fp8 and tf32 tiles
 * are both K-major, from shared memory: the instruction transposes only 16-bit tiles).
 *   wgmma.commit_group.sync.aligned;
 *   [wgmma.wait_group.sync.aligned 0;]  (unless the dot is asynchronous: its ttng.warp_group_dot_wait waits)
 *
 * A descriptor (PTX ISA, "matrix descriptor") holds the tile's shared address >> 4 (bits 0-13),
 * the leading and stride byte offsets >> 4 (bits 16-29, 32-45) and the swizzle mode (bits 62-63:
 * 1 = 128 bytes, 2 = 64, 3 = 32). For a K-major tile (K contiguous) the stride offset is 8 rows
 * of swizzle width and the leading one is unused; for an MN-major tile (16-bit types only, read
 * transposed) the leading offset steps from one swizzle-wide column block of M or N to the next
 * and the stride offset 8 rows of K. An instruction's start address is the tile's address plus
 * the unswizzled offset of its first element: the hardware swizzles the addresses it forms.
 *
 * Accumulator: register i of an m64nN instruction holds row 8 * (i / 2 % 2) + lane / 4 of the
 * warp's 16 rows and column 8 * (i / 4) + 2 * (lane % 4) + i % 2; which of our registers that is
 * comes from the layout (a layout that is not this fragment is a located error).
 */
import type { Operation, Value } from '../../ir/ir.js';
import { StringAttr, UnitAttr } from '../../ir/attributes.js';
import { BlockArgument } from '../../ir/ir.js';
import { isLayout, NVIDIA_MMA } from '../../dialects/ttg/layout-attrs.js';
import type { StructAttr } from '../../dialects/ttg/struct-attr.js';
import { MemDescType } from '../../dialects/ttg/types.js';
import { nvmmaGeometry, nvmmaLinearOffset, nvmmaOf, type Nvmma } from '../../dialects/ttg/shared-layout.js';
import { FloatType, IntegerType, RankedTensorType } from '../../ir/types.js';
import * as nvptx from '../../dialects/nvptx.js';
import * as scf from '../../dialects/scf.js';
import * as ttng from '../../dialects/ttng.js';
import { lowering, requireHopper, type Lowering, type LoweringContext } from './context.js';
import { BF16, F16, F32, I1, I32, I64, plainOp, targetError } from './emitter.js';
import { coordIndex, registersByCoords } from './layout.js';

/** How wgmma reads one operand tile. */
export interface OperandForm {
  nvmma: Nvmma;
  shape: readonly number[];
  /** Element bytes. */
  bytes: number;
  /** Descriptor swizzle mode: 1 (128 bytes), 2 (64), 3 (32). */
  mode: number;
  /** Leading and stride dimension byte offsets. */
  lbo: number;
  sbo: number;
  /** Whether the tile's M (A) or N (B) dim is the contiguous one: the instruction reads it transposed. */
  mnMajor: boolean;
}

const SWIZZLE_MODE: Record<number, number> = { 128: 1, 64: 2, 32: 3 };

/** The form of operand tile `t` (A: [M, K]; B: [K, N]), or why wgmma cannot read it. */
export function operandForm(t: MemDescType, which: 'a' | 'b'): OperandForm | string {
  const nvmma = nvmmaOf(t.encoding);
  if (!nvmma || t.rank !== 2) return `operand '${t}' is not a rank-2 tile in #ttg.nvmma_shared`;
  const mode = SWIZZLE_MODE[nvmma.swizzleBytes];
  if (!mode) return `operand '${t}' needs a swizzle of 32, 64 or 128 bytes`;
  const bytes = nvmma.elementBits / 8;
  const { contig, rowElems } = nvmmaGeometry(nvmma, t.shape);
  if (rowElems * bytes !== nvmma.swizzleBytes) return `operand '${t}' has rows narrower than its ${nvmma.swizzleBytes}-byte swizzle`;
  const kDim = which === 'a' ? 1 : 0;
  const mnMajor = contig !== kDim;
  if (mnMajor && bytes !== 2) return `operand '${t}' is stored ${which === 'a' ? 'M' : 'N'}-major; wgmma reads only 16-bit tiles transposed`;
  const sbo = 8 * nvmma.swizzleBytes;
  const lbo = mnMajor ? t.shape[kDim] * nvmma.swizzleBytes : 16;
  return { nvmma, shape: t.shape, bytes, mode, lbo, sbo, mnMajor };
}

/** The unswizzled byte offset of element `coords` of the tile. */
export function operandByteOffset(f: OperandForm, coords: readonly number[]): number {
  return nvmmaLinearOffset(f.nvmma, f.shape, coords) * f.bytes;
}

/** The descriptor's low word for shared address `addr`: address bits 4-17 and the leading offset. */
export function descriptorLo(f: OperandForm, addr: number): number {
  return (((addr & 0x3ffff) >>> 4) | ((f.lbo >>> 4) << 16)) >>> 0;
}

/** The descriptor's high word: the stride offset and the swizzle mode. */
export function descriptorHi(f: OperandForm): number {
  return ((f.sbo >>> 4) | (f.mode << 30)) >>> 0;
}

/** The wgmma name of operand type `elt` (f16, bf16, e4m3, e5m2; f32 read as tf32) and its instruction K, or null. */
function operandType(elt: unknown): { name: string; k: number } | null {
  if (elt === F32) return { name: 'tf32', k: 8 };
  if (elt === F16) return { name: 'f16', k: 16 };
  if (elt === BF16) return { name: 'bf16', k: 16 };
  if (elt instanceof FloatType && elt.kind === 'f8E4M3FN') return { name: 'e4m3', k: 32 };
  if (elt instanceof FloatType && elt.kind === 'f8E5M2') return { name: 'e5m2', k: 32 };
  if (elt instanceof IntegerType && elt.width === 8) return { name: 's8', k: 32 };
  return null;
}

/** Whether the accumulator `c` is a loop-carried value read by this dot alone (its registers may be overwritten in place). */
function carriedOnlyHere(c: Value): boolean {
  return c instanceof BlockArgument && c.hasOneUse && scf.ForOp.is(c.owner.parentOp);
}

/** The descriptors of one operand: a base word computed once per dot and a constant offset per instruction. */
function descriptorAt(ctx: LoweringContext, base: Value, f: OperandForm, coords: readonly number[]): Value {
  const e = ctx.e;
  const lo = e.addImm(base, operandByteOffset(f, coords) >>> 4);
  return e.pack('b64', [lo, e.imm(I32, descriptorHi(f))], I64);
}

/** The low descriptor word of operand `v` for this thread's warp group: (address + group offset) >> 4 with the leading offset. */
function baseWord(ctx: LoweringContext, op: Operation, v: Value, f: OperandForm, groupOffsets: readonly number[]): Value {
  const e = ctx.e;
  const terms = ctx.idTerms(ctx.warpId(), groupOffsets);
  let addr = ctx.scalar(v, op);
  for (const t of terms) addr = e.add(addr, t);
  const field = e.and(e.shrU(addr, 4), e.imm(I32, 0x3fff));
  return e.or(field, e.imm(I32, (f.lbo >>> 4) << 16));
}

/**
 * The A fragment words of an m64nNk16 instruction at (m0, k0) from registers in
 * `#ttg.dot_op<{opIdx = 0, parent = #mma v3}>`: per warp, a0..a3 pack elements (g, 2t..2t+1),
 * (g+8, ..), (g, 2t+8..), (g+8, 2t+8..) of its 16 rows (g = lane / 4, t = lane % 4), as mma.sync's.
 */
function registerFragment(ctx: LoweringContext, op: Operation, a: Value, accWarps: readonly (readonly number[])[], packConversions: boolean): (m0: number, k0: number) => Value[] {
  const la = ctx.layoutOf(a, op);
  const warpRows = la.warpBases.map((w) => w[0]);
  if (warpRows[0] !== 16 || warpRows[1] !== 32 || la.warpBases.some((w, k) => w[0] !== (accWarps[k]?.[0] ?? -1) || w[1] !== 0)) {
    throw targetError(op, `the A operand '${a.type}' does not give each warp the rows of its accumulator`);
  }
  const ma = registersByCoords(la);
  const regs = ctx.get(a, op);
  const e = ctx.e;
  const words = new Map<string, Value>();
  const word = (m: number, k: number): Value => {
    const key = `${m},${k}`;
    const hit = words.get(key);
    if (hit) return hit;
    const pair = [ma.get(coordIndex(la.shape, [m, k])), ma.get(coordIndex(la.shape, [m, k + 1]))];
    if (pair.some((r) => r === undefined)) throw targetError(op, `the A operand '${a.type}' holds no register for element (${m}, ${k}) of a wgmma fragment`);
    const halves = pair.map((r) => regs[r!]);
    const v = (packConversions && convertedPair(ctx, halves)) || e.pack('b32', halves, I32);
    words.set(key, v);
    return v;
  };
  return (m0, k0) => [[0, 0], [8, 0], [0, 8], [8, 8]].map(([dm, dk]) => word(m0 + dm, k0 + dk));
}

/**
 * `{lo, hi}` as one packed conversion when both halves are f32 values rounded to f16 (or bf16) one
 * at a time: `cvt.rn.f16x2.f32 %w, %hi_f32, %lo_f32` (the single conversions go if nothing else
 * reads them); null otherwise.
 */
/** `nvptx.cvt`, whose single f16/bf16 roundings `convertedPair` packs. */
const CVT = plainOp('cvt');

function convertedPair(ctx: LoweringContext, [lo, hi]: Value[]): Value | null {
  const src = (v: Value): { from: Value; ptx: string } | null => {
    const op = v.definingOp;
    const ptx = op?.getAttr('ptx');
    if (!op || !CVT.is(op) || !(ptx instanceof StringAttr) || !/^rn\.b?f16\.f32$/.test(ptx.value)) return null;
    return { from: op.operand(0), ptx: ptx.value };
  };
  const l = src(lo);
  const h = src(hi);
  if (!l || !h || l.ptx !== h.ptx) return null;
  return ctx.e.op('cvt', l.ptx.replace(/16\.f32$/, '16x2.f32'), [h.from, l.from], I32);
}

/**
 * ttng.warp_group_dot %a, %b, %c -> wgmma.fence; wgmma.mma_async per 64-row block and K step; wgmma.commit_group
 * Each instruction's operands are computed right before it, after the fence. With A in registers,
 * ptxas then adds a `warpgroup.arrive` before the later instructions (C7519). Where each warp group
 * issues one 64-row block (attention at head dim 128 on 8 warps), the A words are instead all packed
 * before the fence, f32 pairs by one `cvt.rn.f16x2.f32`, as Triton's PTX does: no arrive is
 * injected, and that attention runs 1.8-3.0% faster (4.4-5.8% in the TMA form; H200, 2026-11-27,
 * RESULTS.md "Copy addresses from one base"). Where a warp group issues two blocks (head dim 64 on
 * 4 warps), twice the words would be live at the fence, and that measured 1-5% slower, so they
 * stay after it.
 */
const lowerWarpGroupDot = lowering(ttng.WarpGroupDotOp, (ctx, dot) => {
  const { op, a, b, c } = dot;
  requireHopper(ctx, op, 'a warp-group dot (wgmma)');
  if (dot.useC) throw targetError(op, 'cannot lower a warp-group dot with a useC operand yet');
  const ct = c.type as RankedTensorType;
  const enc = ct.encoding;
  if (!isLayout(enc, NVIDIA_MMA) || (enc as StructAttr).int('versionMajor') !== 3) throw targetError(op, `the accumulator '${ct}' must be in a version-3 #ttg.nvidia_mma layout`);
  if (!(b.type instanceof MemDescType)) throw targetError(op, `the B operand '${b.type}' must be a shared-memory tile`);
  const bt = b.type;
  const at = a.type as MemDescType | RankedTensorType;
  const ta = operandType(at.elementType);
  const tb = operandType(bt.elementType);
  const eightBit = ta?.k === 32 && tb?.k === 32;
  // integers (s8 x s8, an s32 accumulator) pair only with integers
  const ints = ta?.name === 's8' && tb?.name === 's8';
  if (!ta || !tb || (!eightBit && bt.elementType !== at.elementType) || (ta.name === 's8') !== (tb.name === 's8')) {
    throw targetError(op, `cannot lower a warp-group dot on '${at.elementType}' and '${bt.elementType}'; f16 or bf16 pairs, fp8 (e4m3, e5m2) pairs, i8 pairs and f32 pairs (as tf32) are supported`);
  }
  if (ta.k !== 16 && !(at instanceof MemDescType)) throw targetError(op, `cannot lower ${ints ? 'an i8' : eightBit ? 'an fp8' : 'a tf32'} warp-group dot with its A operand in registers yet`);
  const instrK = ta.k;
  const accType = ints ? I32 : F32;
  if (ct.elementType !== accType) throw targetError(op, `cannot lower a warp-group dot with a '${ct.elementType}' accumulator; ${ints ? 'i32 (for i8 operands)' : 'f32'} is supported`);
  const fa = at instanceof MemDescType ? operandForm(at, 'a') : null;
  const fb = operandForm(bt, 'b');
  if (typeof fa === 'string') throw targetError(op, fa);
  if (typeof fb === 'string') throw targetError(op, fb);
  const [M, N] = ct.shape;
  const K = at.shape[1];
  const n = (enc as StructAttr).ints('instrShape')[1];
  if (K % instrK || M % 64 || N % n) throw targetError(op, `a ${M}x${N}x${K} product does not split into m64n${n}k${instrK} instructions`);
  const lc = ctx.layoutOf(c, op);
  const [w0, w1] = lc.warpBases;
  if (!w0 || !w1 || w0[0] !== 16 || w0[1] !== 0 || w1[0] !== 32 || w1[1] !== 0) throw targetError(op, `the accumulator '${ct}' does not give each warp group 64 consecutive rows`);
  const mc = registersByCoords(lc);
  const e = ctx.e;
  // What this thread's warp group adds: warp id bits 2.. move the group's rows (A) and columns (B).
  // A: descriptors from its tile, or the fragment words of its registers.
  const origins = lc.regCoords.filter((co, r) => co[0] % 64 === 0 && co[1] % n === 0 && mc.get(coordIndex(lc.shape, co)) === r);
  // A in registers, one 64-row block per warp group: every A word before the fence (see above).
  const wordsFirst = !fa && new Set(origins.map(([m0]) => m0)).size === 1;
  let aOperand: (m0: number, k0: number) => Value[];
  if (fa) {
    const groupA = lc.warpBases.map((w, k) => (k < 2 ? 0 : operandByteOffset(fa, [w[0], 0])));
    const loA = baseWord(ctx, op, a, fa, groupA);
    aOperand = (m0, k0) => [descriptorAt(ctx, loA, fa, [m0, k0])];
  } else {
    aOperand = registerFragment(ctx, op, a, lc.warpBases, wordsFirst);
  }
  const groupB = lc.warpBases.map((w, k) => (k < 2 ? 0 : operandByteOffset(fb, [0, w[1]])));
  const loB = baseWord(ctx, op, b, fb, groupB);
  const cRegs = ctx.get(c, op);
  const out = [...cRegs];
  if (wordsFirst) for (let k0 = 0; k0 < K; k0 += instrK) for (const [m0] of origins) aOperand(m0, k0);
  const ptx = `sync.aligned.m64n${n}k${instrK}.${ints ? 's32' : 'f32'}.${ta.name}.${tb.name}`;
  const scaleD = e.imm(I1, 1);
  const inPlace = carriedOnlyHere(c);
  nvptx.WgmmaSyncOp.build(e.b, { ptx: 'fence.sync.aligned' });
  for (let k0 = 0; k0 < K; k0 += instrK) {
    for (const [m0, n0] of origins) {
      const idx = Array.from({ length: n / 2 }, (_, i) => {
        const x = [m0 + 8 * ((i >> 1) & 1), n0 + 8 * (i >> 2) + (i & 1)];
        const r = mc.get(coordIndex(lc.shape, x));
        if (r === undefined) throw targetError(op, `accumulator '${ct}' holds no register for element (${x}) of a wgmma fragment`);
        return r;
      });
      const aWords = aOperand(m0, k0);
      const descB = descriptorAt(ctx, loB, fb, [k0, n0]);
      const acc = idx.map((r) => out[r]);
      const w = nvptx.WgmmaOp.build(e.b, { a: aWords, descB, scaleD, acc, ptx, transA: +(fa?.mnMajor ?? 0), transB: +fb.mnMajor }, { results: { dst: acc.map(() => accType) } });
      if (inPlace && k0 === 0) w.op.setAttr('in_place', UnitAttr.get());
      idx.forEach((r, j) => (out[r] = w.dst[j]));
    }
  }
  nvptx.WgmmaSyncOp.build(e.b, { ptx: 'commit_group.sync.aligned' });
  if (!dot.isAsync) nvptx.WgmmaSyncOp.build(e.b, { ptx: 'wait_group.sync.aligned 0' });
  // Registers that only duplicate an instruction's elements (broadcast copies) follow their first copy.
  lc.regCoords.forEach((co, r) => (out[r] = out[mc.get(coordIndex(lc.shape, co))!]));
  ctx.set(dot.d, out);
});

/** ttng.warp_group_dot_wait %d, ... {pendings = N} -> wgmma.wait_group.sync.aligned N (the values pass through) */
const lowerWarpGroupDotWait = lowering(ttng.WarpGroupDotWaitOp, (ctx, wait) => {
  requireHopper(ctx, wait.op, 'a warp-group dot wait (wgmma.wait_group)');
  nvptx.WgmmaSyncOp.build(ctx.e.b, { ptx: `wait_group.sync.aligned ${wait.pendings}` });
  wait.inputs.forEach((v, k) => ctx.set(wait.outputs[k], ctx.get(v, wait.op)));
});

/** ttng.fence_async_shared -> fence.proxy.async.shared::cta (threads' shared stores become visible to wgmma and TMA) */
const lowerFenceAsyncShared = lowering(ttng.FenceAsyncSharedOp, (ctx, fence) => {
  requireHopper(ctx, fence.op, 'an async-proxy fence (fence.proxy.async)');
  nvptx.FenceOp.build(ctx.e.b, { ptx: fence.bCluster ? 'proxy.async.shared::cluster' : 'proxy.async.shared::cta' });
});

/** Hopper warp-group MMA and its fences. */
export const WGMMA_RULES: readonly Lowering[] = [lowerWarpGroupDot, lowerWarpGroupDotWait, lowerFenceAsyncShared];
