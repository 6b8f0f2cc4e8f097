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
 * A batched (rank-3) dot takes the same path on a rank-3 mma layout as Triton makes it: every warp
 * along the batch (`warpsPerCTA = [numWarps, 1, 1]`) and `instrShape = [1, 16, 8]`. On a `cuda:90`
 * target (Hopper), a dot that fits warp-group instructions becomes `ttng.warp_group_dot` instead,
 * on `#ttg.nvmma_shared` operands with a version-3 accumulator
 * (support/wgmma-lowering.ts); one that does not keeps mma.sync with a remark saying why.
 *
 * The accumulator of a dot in an `scf.for` is carried in the mma layout across iterations: the
 * conversions (and, for Triton-C's batch-last accumulators, the transpositions) around the
 * loop-carried value move out of the loop.
 */
import type { Attribute } from '../ir/attributes.js';
import type { Operation, Value } from '../ir/ir.js';
import type { Rewriter } from '../ir/rewriter.js';
import { FloatType, RankedTensorType } from '../ir/types.js';
import { DOT_OP, NVIDIA_MMA, SWIZZLED_SHARED, isDistributed, isLayout } from '../dialects/ttg/layout-attrs.js';
import { layoutOrder } from '../dialects/ttg/layout-lib.js';
import { StructAttr } from '../dialects/ttg/struct-attr.js';
import { MemDescType } from '../dialects/ttg/types.js';
import { SharedMemorySpaceAttr } from '../dialects/ttg/layout-attrs.js';
import type { View } from '../ir/op-def.js';
import * as tt from '../dialects/tt/index.js';
import * as ttg from '../dialects/ttg/index.js';
import { hoistLoopCarriedConversions } from './support/mma-loop-carried.js';
import { transposeInShared } from './support/trans-in-shared.js';
import type { PassContext, PassDecl } from './pass.js';
import { targetOf } from '../dialects/ttg/target.js';
import { isInt8, planWgmma, toWarpGroupDot } from './support/wgmma-lowering.js';

type DotView = View<typeof tt.DotOp.decl>;
type ConvertView = View<typeof ttg.ConvertLayoutOp.decl>;
type LocalLoadView = View<typeof ttg.LocalLoadOp.decl>;

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
/** mma.sync m16n8k32 on i8 pairs into an i32 accumulator (four bytes along K per register). */
const INSTR_I8: Instr = { m: 16, n: 8, k: 32, kWidth: 4 };

/** Warps along M and N for an MxN accumulator (Triton's warpsPerTileV2): double the dimension with more tiles left per warp. */
export function mmaWarpsPerCTA(shape: readonly number[], numWarps: number): [number, number] {
  const ret: [number, number] = [1, 1];
  while (ret[0] * ret[1] < numWarps) {
    if (shape[0] / (INSTR.m * ret[0]) >= shape[1] / (INSTR.n * ret[1]) && ret[0] < shape[0] / INSTR.m) ret[0] *= 2;
    else ret[1] *= 2;
  }
  return ret;
}

/** Whether a `tt.dot` other than `dot` is reached from it in its block, following `next` (users or producers). */
function reachesDot(dot: DotView, next: (op: Operation) => (Operation | null)[]): boolean {
  const block = dot.op.parent;
  const seen = new Set<Operation>([dot.op]);
  const stack = [dot.op];
  while (stack.length) {
    for (const op of next(stack.pop()!)) {
      if (!op || op.parent !== block || seen.has(op) || seen.size > 4096) continue;
      if (tt.DotOp.is(op)) return true;
      seen.add(op);
      stack.push(op);
    }
  }
  return false;
}

/**
 * Whether another `tt.dot` is upstream or downstream of `dot` in its block (attention's two
 * dots): Triton's chained-dot test, which puts all warps along M so each row stays in one warp.
 * Downstream and upstream are searched separately: siblings (a dot sharing an operand) do not count.
 */
function isChained(dot: DotView): boolean {
  return reachesDot(dot, (op) => op.results.flatMap((r) => r.users())) || reachesDot(dot, (op) => op.operandValues().map((v) => v.definingOp));
}

/** Whether `dot` is a rank-2 dot on tensors with distributed layouts (what either tensor-core path needs to look at it). */
function fitsTensorCores(dot: DotView): boolean {
  const ts = [dot.a.type, dot.b.type, dot.c.type];
  return ts.every((t) => t instanceof RankedTensorType && t.rank === 2) && isDistributed((dot.c.type as RankedTensorType).encoding);
}

/** The instruction `dot` goes to tensor cores with, or why it cannot. */
function mmaInstr(dot: DotView): Instr | string {
  const [a, b, c] = [dot.a.type, dot.b.type, dot.c.type];
  if (!(a instanceof RankedTensorType) || !(b instanceof RankedTensorType) || !(c instanceof RankedTensorType)) return 'operands are not tensors';
  if (c.rank !== 2 && c.rank !== 3) return `a rank-${c.rank} dot is not supported on tensor cores`;
  if (!isDistributed(c.encoding)) return 'operands have no layout; run convert-to-gpu first';
  const elt = a.elementType;
  const kind = elt instanceof FloatType && b.elementType === elt ? elt.kind : '';
  let instr = INSTR;
  if (kind === 'f32') {
    const precision = dot.inputPrecision;
    if (precision !== 'tf32') {
      return `f32 operands with inputPrecision = ${precision}; tensor cores take f32 only as tf32 when asked (inputPrecision = tf32)${
        precision === 'tf32x3' ? ', and tf32x3 (three tf32 products) is not supported yet' : ''
      }`;
    }
    instr = INSTR_TF32;
  } else if (isInt8(a) && isInt8(b)) {
    if (String(c.elementType) !== 'i32') return `the accumulator is '${c.elementType}'; i8 operands take an i32 one`;
    instr = INSTR_I8;
  } else if (kind !== 'f16' && kind !== 'bf16') {
    return `operands are '${a.elementType}' and '${b.elementType}'; mma.sync takes f16 or bf16 pairs (m16n8k16), i8 pairs (m16n8k32), or f32 pairs as tf32 (m16n8k8)`;
  }
  if (instr !== INSTR_I8 && (!(c.elementType instanceof FloatType) || c.elementType.kind !== 'f32')) return `the accumulator is '${c.elementType}'; f32 is supported`;
  const [M, N] = c.shape.slice(-2);
  const K = a.shape[a.rank - 1];
  if (M % instr.m || N % instr.n || K % instr.k) return `shape ${M}x${N}x${K} does not fit mma.sync tiles of ${instr.m}x${instr.n}x${instr.k}`;
  return instr;
}

/** The value before any `ttg.convert_layout`s (the loaded tile in the layout it was loaded in). */
function beforeConversion(v: Value): Value {
  for (let cvt = ttg.ConvertLayoutOp.match(v.definingOp); cvt; cvt = ttg.ConvertLayoutOp.match(v.definingOp)) v = cvt.src;
  return v;
}

/** tile -> ttg.local_alloc tile (unswizzled until pad-shared chooses, in the tile's order); ttg.local_load -> `operandLayout` */
function stash(rw: Rewriter, at: Operation, tile: Value, operandLayout: Attribute): LocalLoadView {
  const t = tile.type as RankedTensorType;
  const order = isDistributed(t.encoding) ? layoutOrder(t.encoding) : [1, 0];
  const shared = StructAttr.get(SWIZZLED_SHARED, { vec: 1, perPhase: 1, maxPhase: 1, order });
  const memType = MemDescType.get(t.shape, t.elementType, shared, SharedMemorySpaceAttr.get());
  const alloc = ttg.LocalAllocOp.build(rw.before(at), { src: tile }, { results: { result: memType } });
  const result = RankedTensorType.get(t.shape, t.elementType, operandLayout);
  return ttg.LocalLoadOp.build(rw.before(at), { src: alloc.result }, { results: { result } });
}

/**
 * tile -> ttg.local_alloc tile; ttg.local_load -> #dot_op<{opIdx, parent = #mma, kWidth}>.
 * A transposed tile is stored untransposed and read through a transposed view (trans-in-shared.ts).
 */
function throughShared(rw: Rewriter, dot: DotView, opIdx: 0 | 1, mma: StructAttr, kWidth: number, ctx: PassContext): Value {
  const operand = opIdx === 0 ? dot.a : dot.b;
  const loaded = stash(rw, dot.op, beforeConversion(operand), StructAttr.get(DOT_OP, { opIdx, parent: mma, kWidth }));
  // local_alloc (tt.trans %x) -> memdesc_trans (local_alloc %x)
  if (transposeInShared(loaded.src.definingOp!, rw)) ctx.bump('operands-transposed-in-shared');
  return loaded.result;
}

/**
 * The A operand of a chained dot, computed in registers from another dot's result (attention's
 * `p`), is converted to its `#dot_op` layout directly: with all warps along M the mma accumulator
 * already holds it, so the conversion is a register permutation.
 */
// tt.dot (convert %p : #blocked -> #dot_op<{parent = #blocked}>), ... -> tt.dot (convert %p -> #dot_op<{opIdx = 0, parent = #mma}>), ...
function inRegisters(rw: Rewriter, dot: DotView, mma: StructAttr, kWidth: number): Value {
  const src = beforeConversion(dot.a);
  const t = src.type as RankedTensorType;
  const result = t.withEncoding(StructAttr.get(DOT_OP, { opIdx: 0, parent: mma, kWidth }));
  return ttg.ConvertLayoutOp.build(rw.before(dot.op), { src }, { results: { result } }).result;
}

/**
 * Whether `v` is computed in registers rather than loaded (no tt.load feeds it directly or through
 * conversions): a chained dot then reads it from registers. A block loaded through a tensor
 * descriptor counts as computed: TMA leaves the registers that cp.async needs for addresses free,
 * and attention's Q read from registers ran 1-4% faster than from shared memory in the TMA form,
 * while in the pointer form it ran out of registers at head dim 64 (causal: 0.88-0.91x). H200,
 * 2026-11-27 (bench/gpu/RESULTS.md).
 */
function isComputed(v: Value): boolean {
  const def = beforeConversion(v).definingOp;
  return !!def && !tt.LoadOp.is(def) && !tt.TransOp.is(def) && !ttg.LocalLoadOp.is(def);
}

/** tt.dot %a, %b, %c (blocked) -> convert_layout(tt.dot local_load(local_alloc %a), local_load(local_alloc %b), convert_layout %c to #mma) */
function toMma(rw: Rewriter, dot: DotView, instr: Instr, numWarps: number, chained: boolean, ctx: PassContext): void {
  const c = dot.c;
  const ct = c.type as RankedTensorType;
  const [M, N] = ct.shape.slice(-2);
  const batched = ct.rank === 3;
  const warps = batched ? [numWarps, 1, 1] : !chained ? mmaWarpsPerCTA(ct.shape, numWarps) : M >= N ? [numWarps, 1] : [1, numWarps];
  const instrShape = batched ? [1, instr.m, instr.n] : [instr.m, instr.n];
  const mma = StructAttr.get(NVIDIA_MMA, { versionMajor: 2, versionMinor: 0, warpsPerCTA: warps, instrShape });
  const accType = RankedTensorType.get(ct.shape, ct.elementType, mma);
  const registerA = chained && warps[1] === 1 && isComputed(dot.a);
  if (registerA) ctx.bump('operands-in-registers');
  const a = registerA ? inRegisters(rw, dot, mma, instr.kWidth) : throughShared(rw, dot, 0, mma, instr.kWidth, ctx);
  const b = throughShared(rw, dot, 1, mma, instr.kWidth, ctx);
  const acc = ttg.ConvertLayoutOp.build(rw.before(dot.op), { src: c }, { results: { result: accType } }).result;
  // Every attribute of the old dot (inherent and discardable) carries over.
  const attributes = { ...(dot.op.properties ?? {}), ...(dot.op.attributes ?? {}) };
  const d = tt.DotOp.build(rw.before(dot.op), { a, b, c: acc }, { results: { d: accType }, attributes }).d;
  storesBeforeLoads(rw, d.definingOp!);
  const back = ttg.ConvertLayoutOp.build(rw.before(dot.op), { src: d }, { results: { result: dot.d.type } }).result;
  const oldOperands = [dot.a, dot.b];
  rw.replaceAllUsesWith(dot.d, back);
  rw.eraseOp(dot.op);
  for (const v of oldOperands) eraseDeadChain(rw, v);
}

/**
 * Both operand tiles are stored to shared memory before either is read back: the reads can then
 * follow one barrier together (and interleave with the dot's FMAs or mma.syncs in ptxas), instead
 * of the A tile's registers waiting across the barrier of B's store, and the two buffers do not
 * share an offset (which would need a barrier between A's read and B's store).
 */
// %la = local_load (local_alloc %a); %lb = local_load (local_alloc %b)  ->  %sa = local_alloc %a; %sb = local_alloc %b; local_load %sa; local_load %sb
function storesBeforeLoads(rw: Rewriter, dot: Operation): void {
  const { a, b } = tt.DotOp.view(dot);
  const la = ttg.LocalLoadOp.match(a.definingOp);
  const lb = ttg.LocalLoadOp.match(b.definingOp);
  if (!la || !lb || la.op.parent !== dot.parent || lb.op.parent !== dot.parent || !la.op.isBeforeInBlock(lb.op)) return;
  const between: Operation[] = [];
  for (let op = la.op.next; op && op !== lb.op; op = op.next) between.push(op);
  if (!between.length || !between.every((op) => ttg.LocalAllocOp.is(op) || ttg.MemdescTransOp.is(op))) return;
  if (between.some((op) => op.operandValues().includes(la.result))) return;
  for (const op of between) rw.moveOpBefore(op, la.op);
}

/** Erases the unused conversions and transpositions that computed `v` (the old operand path). */
function eraseDeadChain(rw: Rewriter, v: Value): void {
  for (let op = v.definingOp; op; ) {
    const step = ttg.ConvertLayoutOp.match(op) ?? tt.TransOp.match(op);
    if (!step || step.result.hasUses) return;
    op = step.src.definingOp;
    rw.eraseOp(step.op);
  }
}

/**
 * convert_layout %t -> #dot_op<{parent = #blocked}> -> local_load(local_alloc %t): FMA operands through
 * shared memory too. A batched operand transposed to batch first is stored as loaded and read through
 * a transposed view (trans-in-shared.ts), as on the mma path.
 */
function fmaOperandsThroughShared(rw: Rewriter, dot: DotView, ctx: PassContext): number {
  let n = 0;
  for (const opIdx of [0, 1] as const) {
    const operand = opIdx === 0 ? dot.a : dot.b;
    const cvt = ttg.ConvertLayoutOp.match(operand.definingOp);
    const want = operand.type as RankedTensorType;
    if (!cvt || !isLayout(want.encoding, DOT_OP) || (want.rank !== 2 && want.rank !== 3)) continue;
    const loaded = stash(rw, dot.op, beforeConversion(cvt.src), want.encoding!);
    dot.op.setOperand(opIdx, loaded.result);
    for (let c: ConvertView | null = cvt; c && !c.result.hasUses; ) {
      const next = ttg.ConvertLayoutOp.match(c.src.definingOp);
      rw.eraseOp(c.op);
      c = next;
    }
    // local_alloc (tt.trans %x) -> memdesc_trans (local_alloc %x), batched operands only
    if (want.rank === 3 && transposeInShared(loaded.src.definingOp!, rw)) ctx.bump('operands-transposed-in-shared');
    n++;
  }
  storesBeforeLoads(rw, dot.op);
  return n;
}

function run(module: Operation, ctx: PassContext): void {
  const target = targetOf(module);
  const numWarps = target.numWarps;
  const hopper = (target.capability ?? 0) >= 90;
  const dots: DotView[] = [];
  module.walk((op) => {
    const dot = tt.DotOp.match(op);
    if (dot) dots.push(dot);
  }, 'pre');
  const rw = ctx.rewriter();
  const chained = new Set(dots.filter(isChained).map((d) => d.op));
  for (const dot of dots) {
    // A chained dot's A operand computed in registers (attention's P) is read from registers.
    const isChainedDot = chained.has(dot.op);
    let notWgmma = '';
    if (hopper && fitsTensorCores(dot)) {
      const plan = planWgmma(dot, numWarps, isChainedDot, isChainedDot && isComputed(dot.a));
      if (typeof plan !== 'string') {
        for (const v of toWarpGroupDot(rw, dot, plan)) eraseDeadChain(rw, v);
        ctx.bump('dots-on-wgmma');
        if (isChainedDot) ctx.bump('dots-chained');
        if (!plan.shared[0]) ctx.bump('operands-in-registers');
        continue;
      }
      notWgmma = plan;
    } else if (hopper && (dot.c.type as RankedTensorType).rank === 3) {
      notWgmma = 'wgmma has no batched form (a rank-3 dot)';
    }
    const instr = mmaInstr(dot);
    if (typeof instr === 'string') {
      ctx.remark(dot.op, `'tt.dot' op stays on the FMA path: ${instr}${notWgmma ? ` (and not on wgmma: ${notWgmma})` : ''}`);
      ctx.bump('dots-on-fma');
      ctx.bump('fma-operands-through-shared', fmaOperandsThroughShared(rw, dot, ctx));
      continue;
    }
    if (notWgmma) ctx.remark(dot.op, `'tt.dot' op stays on mma.sync: ${notWgmma}`);
    toMma(rw, dot, instr, numWarps, isChainedDot, ctx);
    if (isChainedDot) ctx.bump('dots-chained');
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
    'dots-on-wgmma': 'number of tt.dot rewritten to ttng.warp_group_dot (Hopper, cuda:90)',
    'dots-on-mma-tf32': 'number of those with f32 operands taken as tf32 (kWidth 1, mma.sync m16n8k8)',
    'dots-on-fma': 'number of tt.dot left on the FMA path',
    'loop-carried-accumulators': 'number of scf.for accumulators carried in the mma layout',
    'fma-operands-through-shared': 'number of FMA-path operands moved through shared memory instead of a layout conversion',
    'dots-chained': 'number of mma dots chained to another dot (all warps along M or N, Triton\'s choice for attention)',
    'operands-in-registers': 'number of A operands of chained dots converted to #dot_op in registers instead of through shared memory',
    'operands-transposed-in-shared': 'number of tt.trans operands stored untransposed and read through ttg.memdesc_trans',
  },
  run,
};
