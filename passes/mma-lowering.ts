/**
 * `mma-lowering`: puts `tt.dot` on tensor cores (our take on Triton's AccelerateMatmul). A dot
 * with f16 or bf16 operands and an f32 accumulator whose shape fits `mma.sync.m16n8k16` tiles
 * gets an accumulator in `#ttg.nvidia_mma<{versionMajor = 2, ..., instrShape = [16, 8]}>`, and
 * each operand travels global -> shared -> registers: `ttg.local_alloc` of the loaded tile (its
 * shared encoding unswizzled until pad-shared picks one) and `ttg.local_load` into
 * `#ttg.dot_op<{opIdx, parent = #mma, kWidth = 2}>`, which the target reads with `ldmatrix`.
 * Every other dot (f32 without tf32, integers, shapes that do not fit) stays on the FMA path
 * with a remark saying why; its operands still travel through shared memory (local_alloc, then
 * local_load into their blocked `#ttg.dot_op`), as Triton's FMA path does, so they can be pipelined.
 * An mma operand that is a `tt.trans` of a tile is stored untransposed and read through a
 * `ttg.memdesc_trans` view (support/trans-in-shared.ts), so its load can be pipelined too.
 *
 * The accumulator of a dot in an `scf.for` is carried in the mma layout across iterations: the
 * conversions around the loop-carried value move out of the loop.
 */
import { IntegerAttr, type Attribute } from '../ir/attributes.js';
import type { Operation, Value } from '../ir/ir.js';
import type { Rewriter } from '../ir/rewriter.js';
import { FloatType, RankedTensorType } from '../ir/types.js';
import { DOT_OP, NVIDIA_MMA, SWIZZLED_SHARED, isDistributed, isLayout } from '../dialects/ttg/layout-attrs.js';
import { layoutOrder } from '../dialects/ttg/layout-lib.js';
import { StructAttr } from '../dialects/ttg/struct-attr.js';
import { MemDescType } from '../dialects/ttg/types.js';
import { SharedMemorySpaceAttr } from '../dialects/ttg/layout-attrs.js';
import { hoistLoopCarriedConversions } from './support/mma-loop-carried.js';
import { transposeInShared } from './support/trans-in-shared.js';
import type { PassContext, PassDecl } from './pass.js';

/** mma.sync m16n8k16: what one warp computes per instruction. */
const INSTR = { m: 16, n: 8, k: 16 };

/** Warps along M and N for an MxN accumulator (Triton's warpsPerTileV2): double the dimension with more tiles left per warp. */
export function mmaWarpsPerCTA(shape: readonly number[], numWarps: number): [number, number] {
  const ret: [number, number] = [1, 1];
  while (ret[0] * ret[1] < numWarps) {
    if (shape[0] / (INSTR.m * ret[0]) >= shape[1] / (INSTR.n * ret[1]) && ret[0] < shape[0] / INSTR.m) ret[0] *= 2;
    else ret[1] *= 2;
  }
  return ret;
}

/** Why `dot` cannot go to tensor cores, or null when it can. */
function whyNotMma(dot: Operation): string | null {
  const [a, b, c] = [0, 1, 2].map((k) => dot.operand(k).type);
  if (!(a instanceof RankedTensorType) || !(b instanceof RankedTensorType) || !(c instanceof RankedTensorType)) return 'operands are not tensors';
  if (c.rank !== 2) return `a rank-${c.rank} dot is not supported on tensor cores yet`;
  if (!isDistributed(c.encoding)) return 'operands have no layout; run convert-to-gpu first';
  const elt = a.elementType;
  if (!(elt instanceof FloatType) || (elt.kind !== 'f16' && elt.kind !== 'bf16') || b.elementType !== elt)
    return `operands are '${a.elementType}' and '${b.elementType}'; mma.sync m16n8k16 takes f16 or bf16 pairs`;
  if (!(c.elementType instanceof FloatType) || c.elementType.kind !== 'f32') return `the accumulator is '${c.elementType}'; f32 is supported`;
  const [M, N] = c.shape;
  const K = a.shape[1];
  if (M % INSTR.m || N % INSTR.n || K % INSTR.k) return `shape ${M}x${N}x${K} does not fit mma.sync tiles of ${INSTR.m}x${INSTR.n}x${INSTR.k}`;
  return null;
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
 * tile -> ttg.local_alloc tile; ttg.local_load -> #dot_op<{opIdx, parent = #mma, kWidth = 2}>.
 * A transposed tile is stored untransposed and read through a transposed view (trans-in-shared.ts).
 */
function throughShared(rw: Rewriter, dot: Operation, opIdx: number, mma: StructAttr, ctx: PassContext): Value {
  const loaded = stash(rw, dot, beforeConversion(dot.operand(opIdx)), StructAttr.get(DOT_OP, { opIdx, parent: mma, kWidth: 2 }));
  // local_alloc (tt.trans %x) -> memdesc_trans (local_alloc %x)
  if (transposeInShared(loaded.definingOp!.operand(0).definingOp!, rw)) ctx.bump('operands-transposed-in-shared');
  return loaded;
}

/** tt.dot %a, %b, %c (blocked) -> convert_layout(tt.dot local_load(local_alloc %a), local_load(local_alloc %b), convert_layout %c to #mma) */
function toMma(rw: Rewriter, dot: Operation, numWarps: number, ctx: PassContext): void {
  const c = dot.operand(2);
  const ct = c.type as RankedTensorType;
  const warps = mmaWarpsPerCTA(ct.shape, numWarps);
  const mma = StructAttr.get(NVIDIA_MMA, { versionMajor: 2, versionMinor: 0, warpsPerCTA: warps, instrShape: [INSTR.m, INSTR.n] });
  const accType = RankedTensorType.get(ct.shape, ct.elementType, mma);
  const a = throughShared(rw, dot, 0, mma, ctx);
  const b = throughShared(rw, dot, 1, mma, ctx);
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
  const warpsAttr = module.getAttr('ttg.num-warps');
  const numWarps = warpsAttr instanceof IntegerAttr ? Number(warpsAttr.value) : 4;
  const dots: Operation[] = [];
  module.walk((op) => {
    if (op.name === 'tt.dot') dots.push(op);
  }, 'pre');
  const rw = ctx.rewriter();
  for (const dot of dots) {
    const why = whyNotMma(dot);
    if (why) {
      ctx.remark(dot, `'tt.dot' op stays on the FMA path: ${why}`);
      ctx.bump('dots-on-fma');
      ctx.bump('fma-operands-through-shared', fmaOperandsThroughShared(rw, dot));
      continue;
    }
    toMma(rw, dot, numWarps, ctx);
    ctx.bump('dots-on-mma');
  }
  ctx.bump('loop-carried-accumulators', hoistLoopCarriedConversions(module, rw));

}

/** The `mma-lowering` pass: tt.dot on f16/bf16 to mma.sync layouts, operands through shared memory. */
export const mmaLowering: PassDecl = {
  name: 'mma-lowering',
  summary: 'Put f16/bf16 tt.dot on tensor cores: #ttg.nvidia_mma accumulators, operands through shared memory into #ttg.dot_op',
  anchor: 'module',
  statistics: {
    'dots-on-mma': 'number of tt.dot rewritten to mma layouts',
    'dots-on-fma': 'number of tt.dot left on the FMA path',
    'loop-carried-accumulators': 'number of scf.for accumulators carried in the mma layout',
    'fma-operands-through-shared': 'number of FMA-path operands moved through shared memory instead of a layout conversion',
    'operands-transposed-in-shared': 'number of tt.trans operands stored untransposed and read through ttg.memdesc_trans',
  },
  run,
};
