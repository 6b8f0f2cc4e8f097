/**
 * `mma-lowering`: puts `tt.dot` on tensor cores (our take on Triton's AccelerateMatmul). A dot
 * with f16 or bf16 operands and an f32 accumulator whose shape fits `mma.sync.m16n8k16` tiles
 * gets an accumulator in `#ttg.nvidia_mma<{versionMajor = 2, ..., instrShape = [16, 8]}>`, and
 * each operand travels global -> shared -> registers: `ttg.local_alloc` of the loaded tile (its
 * shared encoding unswizzled until pad-shared picks one) and `ttg.local_load` into
 * `#ttg.dot_op<{opIdx, parent = #mma, kWidth = 2}>`, which the target reads with `ldmatrix`.
 * An f32 dot that asks for tf32 (`inputPrecision = tf32`) takes the same path with
 * `kWidth = 1` operands (Triton's choice for 32-bit operands) for `mma.sync.m16n8k8` tf32.
 * Every other dot (f32 with ieee or tf32x3 precision, integers, shapes that do not fit) stays on the FMA path
 * with a remark saying why; its operands still travel through shared memory (local_alloc, then
 * local_load into their blocked `#ttg.dot_op`), as Triton's FMA path does, so they can be pipelined.
 * An mma operand that is a `tt.trans` of a tile is stored untransposed and read through a
 * `ttg.memdesc_trans` view (support/trans-in-shared.ts), so its load can be pipelined too.
 *
 * The accumulator of a dot in an `scf.for` is carried in the mma layout across iterations: the
 * conversions around the loop-carried value move out of the loop.
 */
import type { Attribute } from '../ir/attributes.js';
import type { Operation, Value } from '../ir/ir.js';
import type { Rewriter } from '../ir/rewriter.js';
import { FloatType, RankedTensorType } from '../ir/types.js';
import { DOT_OP, NVIDIA_MMA, SWIZZLED_SHARED, isDistributed, isLayout } from '../dialects/ttg/layout-attrs.js';
import { layoutOrder } from '../dialects/ttg/layout-lib.js';
import { StructAttr } from '../dialects/ttg/struct-attr.js';
import { MemDescType } from '../dialects/ttg/types.js';
import { InputPrecision } from '../dialects/tt/enums.js';
import { SharedMemorySpaceAttr } from '../dialects/ttg/layout-attrs.js';
import { hoistLoopCarriedConversions } from './support/mma-loop-carried.js';
import { transposeInShared } from './support/trans-in-shared.js';
import type { PassContext, PassDecl } from './pass.js';
import { targetOf } from '../dialects/ttg/target.js';

/** An mma.sync instruction: what one warp computes per instruction, and the operands' kWidth. */
interface Instr {
  m: number;
  n: number;
  k: number;
  kWidth: number;
}

/** mma.sync m16n8k16 on f16/bf16 pairs. */
const INSTR: Instr = { m: 16, n: 8, k: 16, kWidth: 2 };
/** mma.sync m16n8k8 on tf32 pairs (f32 operands rounded to tf32). */
const INSTR_TF32: Instr = { m: 16, n: 8, k: 8, kWidth: 1 };

/** Warps along M and N for an MxN accumulator (Triton's warpsPerTileV2): double the dimension with more tiles left per warp. */
export function mmaWarpsPerCTA(shape: readonly number[], numWarps: number): [number, number] {
  const ret: [number, number] = [1, 1];
  while (ret[0] * ret[1] < numWarps) {
    if (shape[0] / (INSTR.m * ret[0]) >= shape[1] / (INSTR.n * ret[1]) && ret[0] < shape[0] / INSTR.m) ret[0] *= 2;
    else ret[1] *= 2;
  }
  return ret;
}

/** The instruction `dot` goes to tensor cores with, or why it cannot. */
function mmaInstr(dot: Operation): Instr | string {
  const [a, b, c] = [0, 1, 2].map((k) => dot.operand(k).type);
  if (!(a instanceof RankedTensorType) || !(b instanceof RankedTensorType) || !(c instanceof RankedTensorType)) return 'operands are not tensors';
  if (c.rank !== 2) return `a rank-${c.rank} dot is not supported on tensor cores yet`;
  if (!isDistributed(c.encoding)) return 'operands have no layout; run convert-to-gpu first';
  const elt = a.elementType;
  const kind = elt instanceof FloatType && b.elementType === elt ? elt.kind : '';
  let instr = INSTR;
  if (kind === 'f32') {
    const p = dot.getAttr('inputPrecision');
    const precision = p ? InputPrecision.nameOf(p) : 'ieee';
    if (precision !== 'tf32') {
      return `f32 operands with inputPrecision = ${precision}; tensor cores take f32 only as tf32 when asked (inputPrecision = tf32)${
        precision === 'tf32x3' ? ', and tf32x3 (three tf32 products) is not supported yet' : ''
      }`;
    }
    instr = INSTR_TF32;
  } else if (kind !== 'f16' && kind !== 'bf16') {
    return `operands are '${a.elementType}' and '${b.elementType}'; mma.sync takes f16 or bf16 pairs (m16n8k16), or f32 pairs as tf32 (m16n8k8)`;
  }
  if (!(c.elementType instanceof FloatType) || c.elementType.kind !== 'f32') return `the accumulator is '${c.elementType}'; f32 is supported`;
  const [M, N] = c.shape;
  const K = a.shape[1];
  if (M % instr.m || N % instr.n || K % instr.k) return `shape ${M}x${N}x${K} does not fit mma.sync tiles of ${instr.m}x${instr.n}x${instr.k}`;
  return instr;
}

/** The value before any `ttg.convert_layout`s (the loaded tile in the layout it was loaded in). */
function beforeConversion(v: Value): Value {
  while (v.definingOp?.name === 'ttg.convert_layout') v = v.definingOp.operand(0);
  return v;
}

/** tile -> ttg.local_alloc tile (unswizzled until pad-shared chooses, in the tile's order); ttg.local_load -> `operandLayout` */
function stash(rw: Rewriter, dot: Operation, tile: Value, operandLayout: Attribute): Value {
  const t = tile.type as RankedTensorType;
  const order = isDistributed(t.encoding) ? layoutOrder(t.encoding) : [1, 0];
  const shared = StructAttr.get(SWIZZLED_SHARED, { vec: 1, perPhase: 1, maxPhase: 1, order });
  const memType = MemDescType.get(t.shape, t.elementType, shared, SharedMemorySpaceAttr.get());
  const alloc = rw.createBefore(dot, 'ttg.local_alloc', { operands: { src: tile }, results: { result: memType } });
  const result = RankedTensorType.get(t.shape, t.elementType, operandLayout);
  return rw.createBefore(dot, 'ttg.local_load', { operands: { src: alloc.result(0) }, results: { result } }).result(0);
}

/**
 * tile -> ttg.local_alloc tile; ttg.local_load -> #dot_op<{opIdx, parent = #mma, kWidth}>.
 * A transposed tile is stored untransposed and read through a transposed view (trans-in-shared.ts).
 */
function throughShared(rw: Rewriter, dot: Operation, opIdx: number, mma: StructAttr, kWidth: number, ctx: PassContext): Value {
  const loaded = stash(rw, dot, beforeConversion(dot.operand(opIdx)), StructAttr.get(DOT_OP, { opIdx, parent: mma, kWidth }));
  // local_alloc (tt.trans %x) -> memdesc_trans (local_alloc %x)
  if (transposeInShared(loaded.definingOp!.operand(0).definingOp!, rw)) ctx.bump('operands-transposed-in-shared');
  return loaded;
}

/** tt.dot %a, %b, %c (blocked) -> convert_layout(tt.dot local_load(local_alloc %a), local_load(local_alloc %b), convert_layout %c to #mma) */
function toMma(rw: Rewriter, dot: Operation, instr: Instr, numWarps: number, ctx: PassContext): void {
  const c = dot.operand(2);
  const ct = c.type as RankedTensorType;
  const warps = mmaWarpsPerCTA(ct.shape, numWarps);
  const mma = StructAttr.get(NVIDIA_MMA, { versionMajor: 2, versionMinor: 0, warpsPerCTA: warps, instrShape: [instr.m, instr.n] });
  const accType = RankedTensorType.get(ct.shape, ct.elementType, mma);
  const a = throughShared(rw, dot, 0, mma, instr.kWidth, ctx);
  const b = throughShared(rw, dot, 1, mma, instr.kWidth, ctx);
  const acc = rw.createBefore(dot, 'ttg.convert_layout', { operands: { src: c }, results: { result: accType } }).result(0);
  const attrs = { ...(dot.properties ?? {}), ...(dot.attributes ?? {}) };
  const d = rw.createBefore(dot, 'tt.dot', { operands: { a, b, c: acc }, attrs, results: { d: accType } }).result(0);
  const back = rw.createBefore(dot, 'ttg.convert_layout', { operands: { src: d }, results: { result: dot.result(0).type } }).result(0);
  const oldOperands = [dot.operand(0), dot.operand(1)];
  rw.replaceAllUsesWith(dot.result(0), back);
  rw.eraseOp(dot);
  for (const v of oldOperands) eraseDeadChain(rw, v);
}

/** Erases the unused conversions and transpositions that computed `v` (the old operand path). */
function eraseDeadChain(rw: Rewriter, v: Value): void {
  for (let op = v.definingOp; op && (op.name === 'ttg.convert_layout' || op.name === 'tt.trans') && !op.result(0).hasUses; ) {
    const next: Operation | null = op.operand(0).definingOp;
    rw.eraseOp(op);
    op = next;
  }
}

/** convert_layout %t -> #dot_op<{parent = #blocked}> -> local_load(local_alloc %t): FMA operands through shared memory too. */
function fmaOperandsThroughShared(rw: Rewriter, dot: Operation): number {
  let n = 0;
  for (const opIdx of [0, 1]) {
    const cvt = dot.operand(opIdx).definingOp;
    const want = dot.operand(opIdx).type as RankedTensorType;
    if (!cvt || cvt.name !== 'ttg.convert_layout' || !isLayout(want.encoding, DOT_OP) || want.rank !== 2) continue;
    dot.setOperand(opIdx, stash(rw, dot, beforeConversion(cvt.operand(0)), want.encoding!));
    for (let c: Operation | null = cvt; c?.name === 'ttg.convert_layout' && !c.result(0).hasUses; ) {
      const next: Operation | null = c.operand(0).definingOp;
      rw.eraseOp(c);
      c = next;
    }
    n++;
  }
  return n;
}

function run(module: Operation, ctx: PassContext): void {
  const numWarps = targetOf(module).numWarps;
  const dots: Operation[] = [];
  module.walk((op) => {
    if (op.name === 'tt.dot') dots.push(op);
  }, 'pre');
  const rw = ctx.rewriter();
  for (const dot of dots) {
    const instr = mmaInstr(dot);
    if (typeof instr === 'string') {
      ctx.remark(dot, `'tt.dot' op stays on the FMA path: ${instr}`);
      ctx.bump('dots-on-fma');
      ctx.bump('fma-operands-through-shared', fmaOperandsThroughShared(rw, dot));
      continue;
    }
    toMma(rw, dot, instr, numWarps, ctx);
    ctx.bump('dots-on-mma');
    if (instr === INSTR_TF32) ctx.bump('dots-on-mma-tf32');
  }
  ctx.bump('loop-carried-accumulators', hoistLoopCarriedConversions(module, rw));

}

/** The `mma-lowering` pass: tt.dot on f16/bf16 (and f32 as tf32 when asked) to mma.sync layouts, operands through shared memory. */
export const mmaLowering: PassDecl = {
  name: 'mma-lowering',
  aliases: ['tritongpu-accelerate-matmul'],
  summary: 'Put f16/bf16 tt.dot (and f32 with inputPrecision = tf32) on tensor cores: #ttg.nvidia_mma accumulators, operands through shared memory into #ttg.dot_op',
  anchor: 'module',
  statistics: {
    'dots-on-mma': 'number of tt.dot rewritten to mma layouts',
    'dots-on-mma-tf32': 'number of those with f32 operands taken as tf32 (kWidth 1, mma.sync m16n8k8)',
    'dots-on-fma': 'number of tt.dot left on the FMA path',
    'loop-carried-accumulators': 'number of scf.for accumulators carried in the mma layout',
    'fma-operands-through-shared': 'number of FMA-path operands moved through shared memory instead of a layout conversion',
    'operands-transposed-in-shared': 'number of tt.trans operands stored untransposed and read through ttg.memdesc_trans',
  },
  run,
};
