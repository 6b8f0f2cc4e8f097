/**
 * Forward layout propagation, the first half of `remove-layout-conversions` (Triton's
 * LayoutPropagation). The layouts of anchor values flow forward to every value computed from them,
 * so that a kernel computes in the layouts its expensive ops chose instead of converting back to
 * the default one after each of them.
 *
 * Anchors (their layout is kept): results of `tt.load` and atomics over at least as many elements
 * as the CTA has threads (a smaller load is cheap to redo in any layout), and `tt.dot` results; an
 * mma accumulator only when something downstream converts back to an mma or mma-operand layout
 * (attention's `p`, a loop-carried accumulator), as Triton does, so a plain matmul keeps its epilogue.
 *
 * Through: elementwise ops, `tt.broadcast`, `tt.expand_dims` (of a slice of the layout),
 * `tt.reduce` (to a slice), `tt.scan`, `tt.trans` (blocked layouts), `ttg.convert_layout` to a
 * register layout (the conversion then folds), and the results and loop-carried values of
 * `scf.for`, `scf.if` and `scf.while`. A value reached by several layouts takes the mma one, or the
 * blocked one for values loads define (Triton's rule; a value gets one layout, never a copy per use).
 *
 * Rewrite: every value reached takes its layout in place; then every use whose op needs another
 * type (an op not reached, an operand that came from elsewhere, a loop's initial value; not a
 * `ttg.local_alloc` / `ttg.local_store`, which store any register layout) gets a
 * `ttg.convert_layout`, which the backward rematerialization that follows removes when its
 * producers are cheap.
 */
import { Builder } from '../../ir/builder.js';
import type { Operation, Value } from '../../ir/ir.js';
import { isSideEffectFree } from '../../ir/patterns.js';
import { Elementwise } from '../../ir/traits.js';
import { RankedTensorType, type Type } from '../../ir/types.js';
import { BLOCKED, DOT_OP, NVIDIA_MMA, SLICE, isDistributed, isLayout, slice } from '../../dialects/ttg/layout-attrs.js';
import type { StructAttr } from '../../dialects/ttg/struct-attr.js';
import * as scf from '../../dialects/scf.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';
import * as ttng from '../../dialects/ttng.js';
import { inversePerm, isSplittable, joinLayout, splitResultLayout, transLayout } from './convert-to-gpu-layouts.js';

/** What a propagation did, for the pass statistics. */
export interface PropagationStats {
  /** Values whose layout changed. */
  relaid: number;
  /** Conversions inserted where a use needs another layout. */
  convertsInserted: number;
  /** Conversions that became no-ops and were erased. */
  convertsFolded: number;
}

/** The distributed register layout of `v`, or null. */
function layoutOf(v: Value): StructAttr | null {
  const t = v.type;
  return t instanceof RankedTensorType && isDistributed(t.encoding) && !isLayout(t.encoding, DOT_OP) ? (t.encoding as StructAttr) : null;
}

/** Whether `op` is a side-effect-free elementwise op over tensors of one shape (scalar operands allowed). */
export function isElementwise(op: Operation): boolean {
  if (!op.hasTrait(Elementwise) || op.regions.length || !op.numResults || !isSideEffectFree(op)) return false;
  const rt = op.result(0).type;
  if (!(rt instanceof RankedTensorType)) return false;
  return op.operandTypes().every((t) => !(t instanceof RankedTensorType) || (t.rank === rt.rank && t.shape.every((d, k) => d === rt.shape[k])));
}

/** The layout `op`'s results take when its tensor operand `k` has layout `enc`, or null when `op` does not carry it through. */
function resultLayout(op: Operation, enc: StructAttr, k: number): StructAttr | null {
  if (isElementwise(op) || tt.BroadcastOp.is(op) || tt.ScanOp.is(op)) return enc;
  // a gather's result has its indices' layout; its source may have any
  if (tt.GatherOp.is(op)) return k === 1 ? enc : null;
  const expand = tt.ExpandDimsOp.match(op);
  if (expand) return isLayout(enc, SLICE) && enc.int('dim') === expand.axis ? (enc.attr('parent') as StructAttr) : null;
  const reduce = tt.ReduceOp.match(op);
  if (reduce) return reduce.result[0].type instanceof RankedTensorType ? slice(reduce.axis, enc) : null;
  const trans = tt.TransOp.match(op);
  if (trans) return isLayout(enc, BLOCKED) ? transLayout(enc, [...trans.order]) : null;
  const cvt = ttg.ConvertLayoutOp.match(op);
  if (cvt) return layoutOf(cvt.result) ? enc : null;
  // tt.join adds the pair as the fastest dim in registers; tt.split takes it back off
  if (tt.JoinOp.is(op)) return isLayout(enc, BLOCKED) ? joinLayout(enc) : null;
  if (tt.SplitOp.is(op)) return isSplittable(enc) ? splitResultLayout(enc) : null;
  return null;
}

/** The layout the tensor operands of `op` (not a conversion) need for `op`'s (new) result layout `res`. */
function operandLayout(op: Operation, res: StructAttr): StructAttr | null {
  const expand = tt.ExpandDimsOp.match(op);
  if (expand) return slice(expand.axis, res);
  if (tt.ReduceOp.is(op)) return res.attr('parent') as StructAttr;
  const trans = tt.TransOp.match(op);
  if (trans) return transLayout(res, inversePerm(trans.order));
  if (tt.JoinOp.is(op)) return isSplittable(res) ? splitResultLayout(res) : null;
  if (tt.SplitOp.is(op)) return isLayout(res, BLOCKED) ? joinLayout(res) : null;
  return res;
}

/** The parent op's values a `scf.yield` / `scf.condition` operand flows to, by operand index. */
function flowTargets(op: Operation, k: number): Value[] {
  const parent = op.parentOp;
  if (!parent) return [];
  if (scf.YieldOp.is(op)) {
    if (scf.ForOp.is(parent)) return [parent.result(k), parent.region(0).entry!.args[1 + k]];
    if (scf.IfOp.is(parent)) return [parent.result(k)];
    if (scf.WhileOp.is(parent)) return [parent.region(0).entry!.args[k]];
    return [];
  }
  if (scf.ConditionOp.is(op) && scf.WhileOp.is(parent) && k >= 1) return [parent.result(k - 1), parent.region(1).entry!.args[k - 1]];
  return [];
}

/** The values an operand `k` of `op` flows into (loop-carried values, region results), or null for ordinary ops. */
function regionFlow(op: Operation, k: number): Value[] | null {
  const fr = scf.ForOp.match(op);
  if (fr) return k >= 3 ? [fr.op.region(0).entry!.args[k - 2], op.result(k - 3)] : [];
  if (scf.WhileOp.is(op)) return [op.region(0).entry!.args[k]];
  if (scf.YieldOp.is(op) || scf.ConditionOp.is(op)) return flowTargets(op, k);
  return null;
}

/** Whether a load, store or atomic over `ptr` is worth keeping in its layout (Triton's isExpensiveLoadOrStore). */
function isExpensiveAccess(ptr: Value, threads: number): boolean {
  const t = ptr.type;
  return t instanceof RankedTensorType && t.numElements >= threads;
}

/**
 * Whether something downstream of `v` (through uses, and around loops through `scf.yield`) converts
 * to an mma or mma-operand layout.
 */
function feedsMmaConversion(v: Value): boolean {
  const seen = new Set<Value>([v]);
  const stack = [v];
  const visit = (w: Value): void => {
    if (seen.has(w) || seen.size > 4096) return;
    seen.add(w);
    stack.push(w);
  };
  while (stack.length) {
    for (const use of stack.pop()!.uses()) {
      const user = use.owner;
      const cvt = ttg.ConvertLayoutOp.match(user);
      if (cvt) {
        const enc = (cvt.result.type as RankedTensorType).encoding;
        if (isLayout(enc, NVIDIA_MMA)) return true;
        if (isLayout(enc, DOT_OP) && isLayout(enc.attr('parent'), NVIDIA_MMA)) return true;
      }
      if (scf.YieldOp.is(user) && scf.ForOp.is(user.parentOp)) visit(user.parentOp!.region(0).entry!.args[1 + use.index]);
      user.results.forEach(visit);
    }
  }
  return false;
}

/** The anchor values of `fn` (their layouts stay and seed the propagation). */
function anchors(fn: Operation, threads: number): Value[] {
  const out: Value[] = [];
  fn.walk((op) => {
    const load = tt.LoadOp.match(op);
    if (load) {
      if (isExpensiveAccess(load.ptr, threads) && layoutOf(load.result)) out.push(load.result);
      return;
    }
    const atomic = tt.AtomicRmwOp.match(op) ?? tt.AtomicCasOp.match(op);
    if (atomic) {
      if (isExpensiveAccess(atomic.ptr, threads) && layoutOf(atomic.result)) out.push(atomic.result);
      return;
    }
    const dot = tt.DotOp.match(op) ?? ttng.WarpGroupDotOp.match(op);
    if (!dot || !layoutOf(dot.d)) return;
    if (isLayout((dot.d.type as RankedTensorType).encoding, NVIDIA_MMA) && !feedsMmaConversion(dot.d)) return;
    out.push(dot.d);
  }, 'pre');
  return out;
}

/** How the propagation reports what it does (the pass's `--debug-patterns` log and remarks). */
export interface PropagationHooks {
  /** A rewrite named `what` changed `op` (a relayout, an inserted or folded conversion). */
  onRewrite?(what: string, op: Operation): void;
  /** `op`'s result was reached by layouts the rule cannot rank; `message` says which it took. */
  remark?(op: Operation, message: string): void;
}

/** Runs the propagation over `fn`, whose CTA has `threads` threads; rewrites in place. */
export function propagateLayouts(fn: Operation, threads: number, hooks: PropagationHooks = {}): PropagationStats {
  const stats: PropagationStats = { relaid: 0, convertsInserted: 0, convertsFolded: 0 };
  const seeds = anchors(fn, threads);
  const anchored = new Set(seeds);
  const layouts = new Map<Value, StructAttr[]>();
  const queue: Value[] = [];
  const offer = (v: Value, enc: StructAttr): void => {
    if (anchored.has(v) || !layoutOf(v)) return;
    const list = layouts.get(v) ?? (layouts.set(v, []).get(v) as StructAttr[]);
    if (list.includes(enc)) return;
    list.push(enc);
    queue.push(v);
  };
  for (const v of seeds) {
    layouts.set(v, [layoutOf(v)!]);
    queue.push(v);
  }
  // A value's layouts flow to its users' results, one new (value, layout) pair at a time.
  const done = new Map<Value, number>();
  while (queue.length) {
    const v = queue.pop()!;
    const encs = layouts.get(v)!;
    const from = done.get(v) ?? 0;
    if (from >= encs.length) continue;
    done.set(v, encs.length);
    for (const use of v.uses()) {
      const user = use.owner;
      for (const enc of encs.slice(from)) {
        const flow = regionFlow(user, use.index);
        if (flow) {
          for (const w of flow) offer(w, enc);
          continue;
        }
        const res = resultLayout(user, enc, use.index);
        if (!res) continue;
        for (const r of user.results) offer(r, res);
      }
    }
  }

  // One layout per value: mma where it reached, else blocked for values loads define, else the first.
  const chosen = new Map<Value, StructAttr>();
  for (const [v, encs] of layouts) {
    if (anchored.has(v)) continue;
    const isLoad = tt.LoadOp.is(v.definingOp);
    const ranked = encs.find((e) => (isLoad ? isLayout(e, BLOCKED) : isLayout(e, NVIDIA_MMA)));
    const pick = ranked ?? encs[0];
    if (!ranked && encs.length > 1 && v.definingOp) {
      hooks.remark?.(v.definingOp, `result reached by ${encs.length} layouts with no preference between them; it takes the first, ${pick} (conversions go to the others)`);
    }
    chosen.set(v, pick);
  }
  // A loop's results take the layouts of its loop-carried values.
  fn.walk((op) => {
    const fr = scf.ForOp.match(op);
    if (!fr) return;
    fr.results.forEach((r, k) => {
      const arg = op.region(0).entry!.args[1 + k];
      const enc = chosen.get(arg);
      if (enc) chosen.set(r, enc);
      else chosen.delete(r);
    });
  });

  // Relayout in place, remembering each changed value's old type.
  const oldType = new Map<Value, Type>();
  const rewritten = new Set<Operation>();
  for (const [v, enc] of chosen) {
    const t = v.type as RankedTensorType;
    if (t.encoding === enc) continue;
    oldType.set(v, t);
    v.type = t.withEncoding(enc);
    if (v.definingOp) rewritten.add(v.definingOp);
    hooks.onRewrite?.('propagate-layout', v.definingOp ?? v.parentBlock!.parentOp!);
    stats.relaid++;
  }
  if (!oldType.size) return stats;

  // Uses that need another type get a conversion.
  const ops: Operation[] = [];
  fn.walk((op) => void ops.push(op), 'pre');
  const b = new Builder();
  for (const op of ops) {
    op.operands.forEach((o, k) => {
      const want = wantedType(op, k, rewritten, oldType);
      if (!want || o.value.type === want) return;
      b.setInsertionPoint(op);
      const cvt = ttg.ConvertLayoutOp.build(b, { src: o.value }, { results: { result: want }, loc: op.loc });
      op.setOperand(k, cvt.result);
      hooks.onRewrite?.('convert-for-use', op);
      stats.convertsInserted++;
    });
  }
  // Conversions whose two sides now agree fold away.
  for (const op of ops) {
    const cvt = ttg.ConvertLayoutOp.match(op);
    if (!cvt || !op.parent || cvt.src.type !== cvt.result.type) continue;
    hooks.onRewrite?.('fold-noop-convert', op);
    cvt.result.replaceAllUsesWith(cvt.src);
    op.erase();
    stats.convertsFolded++;
  }
  return stats;
}

/** The type operand `k` of `op` must have after the relayout, or null when any type will do. */
function wantedType(op: Operation, k: number, rewritten: ReadonlySet<Operation>, oldType: ReadonlyMap<Value, Type>): Type | null {
  const v = op.operand(k);
  // A conversion, or a store to shared memory, takes its source in any register layout (a convert
  // before a local_alloc would be a second round trip through shared memory).
  if (!(v.type instanceof RankedTensorType) || ttg.ConvertLayoutOp.is(op) || ttg.LocalAllocOp.is(op) || ttg.LocalStoreOp.is(op)) return null;
  const flow = regionFlow(op, k);
  if (flow) return flow.length ? flow[0].type : null;
  // A reduction to scalars takes any layout, as long as its operands share one.
  const reduce = tt.ReduceOp.match(op);
  if (reduce && !(reduce.result[0].type instanceof RankedTensorType)) return k ? v.type.withEncoding(layoutOf(op.operand(0))) : null;
  // A histogram counts its values in any layout; its mask must share theirs.
  if (tt.HistogramOp.is(op)) return k ? v.type.withEncoding(layoutOf(op.operand(0))) : null;
  // A gather reads its source in any layout; its indices have its result's.
  if (tt.GatherOp.is(op)) return k === 0 ? null : v.type.withEncoding(layoutOf(op.result(0)));
  if (rewritten.has(op)) {
    const res = layoutOf(op.result(0));
    const enc = res && operandLayout(op, res);
    if (enc) return v.type.withEncoding(enc);
  }
  return oldType.get(v) ?? null;
}
