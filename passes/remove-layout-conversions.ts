/**
 * `remove-layout-conversions` (a small version of Triton's RemoveLayoutConversions pass): removes
 * `ttg.convert_layout` ops by folding chains of converts and by rematerializing the cheap,
 * layout-agnostic computation that feeds a convert directly in the convert's target layout.
 *
 * For each convert `%r = ttg.convert_layout %v : T0 -> T`, the backward slice of `%v` is planned
 * first (all or nothing, depth- and size-capped): values of type T are used as they are; a convert
 * feeding the slice is looked through (its source is rematerialized, or converted once, directly
 * to the needed type); elementwise ops (arith/math/tt.addptr ...), tt.splat, splat dense
 * constants, 1-D tt.make_range, tt.broadcast, tt.expand_dims and tt.trans (blocked) are recreated in
 * the needed layout (operand layouts: the same for elementwise/broadcast, `#ttg.slice<{dim = axis,
 * parent = L}>` for expand_dims, the inverse transposition for trans), which may be any register
 * layout but an mma operand's. Anything else (block arguments, loads, dots, reductions, loop
 * results) stops the plan, and the convert stays. Before all of it, layouts are propagated forward
 * from loads and dots (support/layout-propagation.ts).
 * Before that, a `tt.scan` of converted operands is moved to their source layout (converting its
 * results instead), and so is a `tt.trans` of a converted blocked operand (its result takes the
 * source layout transposed, as Triton infers it), so the converts around them fold away.
 * A convert read only by a narrowing cast (`arith.truncf`, `arith.trunci`) moves after the cast:
 * the exchange then carries the narrow values (an f32 mma accumulator goes to the store layout
 * as f16, half the shared-memory traffic, as Triton's epilogue does).
 * Originals are kept while other ops use them; ops left dead are erased afterwards.
 */
import { Builder } from '../ir/builder.js';
import type { Operation, Value } from '../ir/ir.js';
import { eraseDeadOps } from '../ir/patterns.js';
import { RankedTensorType, bitWidth, type Type } from '../ir/types.js';
import { DenseElementsAttr } from '../ir/attributes.js';
import { BLOCKED, DOT_OP, isDistributed, isLayout, slice } from '../dialects/ttg/layout-attrs.js';
import { isElementwise, propagateLayouts } from './support/layout-propagation.js';
import { carryInUseLayouts } from './support/region-carried.js';
import { targetOf } from '../dialects/ttg/target.js';
import type { StructAttr } from '../dialects/ttg/struct-attr.js';
import { inversePerm, transLayout } from './support/convert-to-gpu-layouts.js';
import type { PassContext, PassDecl } from './pass.js';
import type { View } from '../ir/op-def.js';
import * as arith from '../dialects/arith.js';
import * as tt from '../dialects/tt/index.js';
import * as ttg from '../dialects/ttg/index.js';

type ConvertView = View<typeof ttg.ConvertLayoutOp.decl>;
type TransView = View<typeof tt.TransOp.decl>;

/** How deep a backward slice may go before a rematerialization is given up. */
const MAX_DEPTH = 16;
/** How many ops one convert may rematerialize at most. */
const MAX_OPS = 64;

/** Whether `t` is a register tensor in a blocked layout. */
const isBlockedTensor = (t: Type): t is RankedTensorType => t instanceof RankedTensorType && isLayout(t.encoding, BLOCKED);

/** Whether ops can be recreated with result type `t` (a register layout other than an mma operand's). */
function rematTarget(t: Type): t is RankedTensorType {
  return t instanceof RankedTensorType && isDistributed(t.encoding) && !isLayout(t.encoding, DOT_OP);
}

/** The operand types `def` needs so that its result gets type `t`, or null when it cannot be recreated so. */
function operandTypesFor(def: Operation, t: RankedTensorType): Type[] | null {
  const enc = t.encoding;
  const constant = arith.ConstantOp.match(def);
  if (constant) return constant.value instanceof DenseElementsAttr && constant.value.isSplat ? [] : null;
  if (tt.MakeRangeOp.match(def)) return t.rank === 1 ? [] : null;
  const splat = tt.SplatOp.match(def);
  if (splat) return splat.src.type instanceof RankedTensorType ? null : [splat.src.type];
  const broadcast = tt.BroadcastOp.match(def);
  if (broadcast) return [(broadcast.src.type as RankedTensorType).withEncoding(enc)];
  const expand = tt.ExpandDimsOp.match(def);
  if (expand) return [(expand.src.type as RankedTensorType).withEncoding(slice(expand.axis, enc!))];
  const trans = tt.TransOp.match(def);
  if (trans) return isBlockedTensor(t) ? [(trans.src.type as RankedTensorType).withEncoding(transLayout(enc as StructAttr, inversePerm(trans.order)))] : null;
  // tt.histogram reads its operands in any layout and writes its bins in any: only its result type
  // changes (never duplicated: it is one pass over shared memory)
  if (tt.HistogramOp.is(def)) return def.result(0).hasOneUse ? def.operandTypes() : null;
  // tt.gather: the indices take the result's layout, the source keeps its own (not duplicated either)
  const gather = tt.GatherOp.match(def);
  if (gather) return def.result(0).hasOneUse ? [gather.src.type, (gather.indices.type as RankedTensorType).withEncoding(enc)] : null;
  if (!isElementwise(def) || def.numResults !== 1) return null;
  // Tensor operands take the layout; a scalar operand (arith.select's condition) stays as it is.
  return def.operandTypes().map((o) => (o instanceof RankedTensorType ? o.withEncoding(enc) : o));
}

/** Whether `v` is defined before `at` on every path to it (in `at`'s block or a block around it). */
function dominates(v: Value, at: Operation): boolean {
  const def = v.definingOp;
  const block = v.parentBlock;
  let op: Operation | null = at;
  while (op && op.parent !== block) op = op.parentOp;
  if (!op) return false;
  return !def || (def !== op && def.isBeforeInBlock(op));
}

/** Plans and builds the rematerialization of values in other layouts, memoized per (value, type). */
class Rematerializer {
  private readonly plans = new Map<Value, Map<Type, boolean>>();
  private readonly built = new Map<Value, Map<Type, Value>>();
  private readonly b = new Builder();
  /** Ops planned for the current root (capped by MAX_OPS). */
  private planned = 0;
  /** Ops created so far. */
  created = 0;

  /** Whether `v` can be obtained with type `t` without a convert of any value that is not itself a convert. */
  canRemat(v: Value, t: Type, depth = 0): boolean {
    if (v.type === t) return true;
    const memo = this.plans.get(v)?.get(t);
    if (memo !== undefined) return memo;
    const ok = this.plan(v, t, depth);
    if (!this.plans.has(v)) this.plans.set(v, new Map());
    this.plans.get(v)!.set(t, ok);
    return ok;
  }

  private plan(v: Value, t: Type, depth: number): boolean {
    const def = v.definingOp;
    if (!def) return false;
    if (ttg.ConvertLayoutOp.match(def)) return true;
    if (depth >= MAX_DEPTH || !rematTarget(t) || ++this.planned > MAX_OPS) return false;
    const types = operandTypesFor(def, t);
    if (!types) return false;
    return def.operandValues().every((o, k) => !(o.type instanceof RankedTensorType) || this.canRemat(o, types[k], depth + 1));
  }

  /** Starts planning for a new root convert. */
  resetBudget(): void {
    this.planned = 0;
  }

  /**
   * `v` with type `t` (after `canRemat(v, t)`), for a use at `at`: reuses a copy built earlier where it
   * dominates `at`, rematerializes, or converts a convert's source.
   */
  build(v: Value, t: Type, at: Operation): Value {
    if (v.type === t) return v;
    const done = this.built.get(v)?.get(t);
    if (done && dominates(done, at)) return done;
    const def = v.definingOp!;
    const cvt = ttg.ConvertLayoutOp.match(def);
    const r = cvt ? this.buildThroughConvert(cvt, t, at) : this.buildOp(def, t, at);
    if (!this.built.has(v)) this.built.set(v, new Map());
    this.built.get(v)!.set(t, r);
    return r;
  }

  // convert(convert(x : A) : B) : C  ->  convert(x : A) : C, or x when A == C, or x rematerialized in C
  private buildThroughConvert(cvt: ConvertView, t: Type, at: Operation): Value {
    const src = cvt.src;
    if (this.canRemat(src, t)) return this.build(src, t, at);
    this.b.setInsertionPointAfter(cvt.op);
    this.created++;
    return ttg.ConvertLayoutOp.build(this.b, { src }, { results: { result: t }, loc: cvt.op.loc }).result;
  }

  // %r = op(%a, ...) : L0 ; convert %r : L0 -> L  ->  %r' = op(%a', ...) : L, with %a' = %a in the operand layout op needs
  // The copy goes right after the original when that is in the block of its use (`before`), else
  // just before the use: a chain feeding one loop is not kept alive across the loops before it
  // (licm then hoists what is invariant to just before its loop).
  private buildOp(def: Operation, t: Type, before: Operation): Value {
    const types = operandTypesFor(def, t as RankedTensorType)!;
    const op = def.clone();
    op.result(0).type = t;
    const constant = arith.ConstantOp.match(def);
    if (constant) {
      const value = constant.value as DenseElementsAttr;
      op.setAttr('value', value.withType(t as RankedTensorType));
    }
    if (def.parent === before.parent) this.b.setInsertionPointAfter(def);
    else this.b.setInsertionPoint(before);
    this.b.insert(op);
    this.created++;
    def.operandValues().forEach((o, k) => {
      if (o.type instanceof RankedTensorType) op.setOperand(k, this.build(o, types[k], op));
    });
    return op.result(0);
  }

}

/**
 * Scans keep their operand's layout: a scan of converted values is done in the source layout
 * and its results converted instead, so the converts can then fold with those after the scan.
 */
// %c = convert %x : L -> L1 ; %y = tt.scan(%c) : L1  ->  %y' = tt.scan(%x) : L ; %y = convert %y' : L -> L1
function hoistConvertsOverScans(fn: Operation, b: Builder): number {
  const scans: Operation[] = [];
  fn.walk((op) => void (tt.ScanOp.is(op) && scans.push(op)), 'pre');
  let moved = 0;
  for (const scan of scans) {
    const cvts = tt.ScanOp.view(scan).srcs.map((v) => ttg.ConvertLayoutOp.match(v.definingOp));
    if (!cvts.every((c) => c !== null)) continue;
    const srcs = cvts.map((c) => c!.src);
    const enc = (srcs[0].type as RankedTensorType).encoding;
    if (!isLayout(enc, BLOCKED) || !srcs.every((v) => (v.type as RankedTensorType).encoding === enc)) continue;
    const copy = scan.clone();
    srcs.forEach((v, k) => copy.setOperand(k, v));
    copy.results.forEach((r) => (r.type = (r.type as RankedTensorType).withEncoding(enc)));
    b.setInsertionPoint(scan);
    b.insert(copy);
    const back = copy.results.map((r, k) => ttg.ConvertLayoutOp.build(b, { src: r }, { results: { result: scan.result(k).type }, loc: scan.loc }).result);
    scan.replaceAllUsesWith(back);
    scan.erase();
    eraseDeadOps(cvts.map((c) => c!.op));
    moved++;
  }
  return moved;
}

/**
 * A transposition keeps its operand's layout (transposed): a trans of a converted blocked value is
 * done on the source and its result converted instead, so the transposed tile is exchanged once.
 */
// %c = convert %x : A -> B ; %t = tt.trans %c : B -> B^T  ->  %t' = tt.trans %x : A -> A^T ; %t = convert %t' : A^T -> B^T
function hoistConvertsOverTranses(fn: Operation, b: Builder): number {
  const transes: TransView[] = [];
  fn.walk((op) => {
    const trans = tt.TransOp.match(op);
    if (trans) transes.push(trans);
  }, 'pre');
  let moved = 0;
  for (const trans of transes) {
    const cvt = ttg.ConvertLayoutOp.match(trans.src.definingOp);
    if (!cvt) continue;
    const src = cvt.src;
    const enc = (src.type as RankedTensorType).encoding;
    if (!isLayout(enc, BLOCKED)) continue;
    const copy = tt.TransOp.view(trans.op.clone());
    copy.op.setOperand(0, src);
    const resT = trans.result.type as RankedTensorType;
    copy.result.type = resT.withEncoding(transLayout(enc as StructAttr, [...trans.order]));
    b.setInsertionPoint(trans.op);
    b.insert(copy.op);
    const back = ttg.ConvertLayoutOp.build(b, { src: copy.result }, { results: { result: resT }, loc: trans.op.loc }).result;
    trans.op.replaceAllUsesWith([back]);
    trans.op.erase();
    eraseDeadOps([cvt.op]);
    moved++;
  }
  return moved;
}

/** Bits of `t`'s elements. */
const elementBits = (t: Type): number => bitWidth((t as RankedTensorType).elementType);

/** A conversion exchanges narrower values after a narrowing cast. */
// %c = convert %x : A -> B ; %y = arith.truncf %c : B  ->  %y' = arith.truncf %x : A ; %y = convert %y' : A -> B
function sinkConvertsPastNarrowing(fn: Operation, b: Builder, onRewrite?: (what: string, op: Operation) => void): number {
  const casts: Operation[] = [];
  fn.walk((op) => void ((arith.TruncFOp.is(op) || arith.TruncIOp.is(op)) && casts.push(op)), 'pre');
  let moved = 0;
  for (const cast of casts) {
    const cvt = ttg.ConvertLayoutOp.match(cast.operand(0).definingOp);
    if (!cvt || !cvt.result.hasOneUse || !(cast.result(0).type instanceof RankedTensorType)) continue;
    if (elementBits(cast.result(0).type) >= elementBits(cvt.src.type)) continue;
    const srcType = cvt.src.type as RankedTensorType;
    const resT = cast.result(0).type as RankedTensorType;
    const copy = cast.clone();
    copy.setOperand(0, cvt.src);
    copy.result(0).type = resT.withEncoding(srcType.encoding);
    b.setInsertionPoint(cast);
    b.insert(copy);
    const back = ttg.ConvertLayoutOp.build(b, { src: copy.result(0) }, { results: { result: resT }, loc: cvt.op.loc }).result;
    onRewrite?.('sink-convert-past-narrowing', cast);
    cast.replaceAllUsesWith([back]);
    cast.erase();
    cvt.op.erase();
    moved++;
  }
  return moved;
}

function run(fn: Operation, ctx: PassContext): void {
  const target = targetOf(fn);
  const forward = propagateLayouts(fn, target.numWarps * target.threadsPerWarp, {
    onRewrite: (what, op) => ctx.onPatternApplied?.(what, op),
    remark: (op, message) => ctx.remark(op, message),
  });
  ctx.bump('values-relaid', forward.relaid);
  ctx.bump('converts-inserted', forward.convertsInserted);
  ctx.bump('converts-folded', forward.convertsFolded);
  ctx.bump('scans-relaid', hoistConvertsOverScans(fn, new Builder()));
  ctx.bump('transes-relaid', hoistConvertsOverTranses(fn, new Builder()));
  // Values carried by scf.while / scf.if take the layout their uses in the region need; the
  // conversions this inserts before and after the region are then rematerialized or folded below.
  ctx.bump('carried-relaid', carryInUseLayouts(fn, {
    canRecompute: (v, t) => new Rematerializer().canRemat(v, t),
    onRewrite: (what, op) => ctx.onPatternApplied?.(what, op),
  }));
  const converts: ConvertView[] = [];
  fn.walk((op) => {
    const cvt = ttg.ConvertLayoutOp.match(op);
    if (cvt) converts.push(cvt);
  }, 'pre');
  const remat = new Rematerializer();
  const candidates: Operation[] = [];
  for (const cvt of converts) {
    if (!cvt.op.parent) continue;
    const src = cvt.src;
    const t = cvt.result.type;
    remat.resetBudget();
    if (!remat.canRemat(src, t)) continue;
    cvt.result.replaceAllUsesWith(remat.build(src, t, cvt.op));
    if (src.definingOp) candidates.push(src.definingOp);
    ctx.onPatternApplied?.('rematerialize', cvt.op);
    cvt.op.erase();
    ctx.bump('converts-removed');
  }
  ctx.bump('ops-rematerialized', remat.created);
  ctx.bump('ops-erased', eraseDeadOps(candidates));
  // Last: rematerialization would move the cast back before the conversion.
  ctx.bump('converts-narrowed', sinkConvertsPastNarrowing(fn, new Builder(), (what, op) => ctx.onPatternApplied?.(what, op)));
}

/** The `remove-layout-conversions` pass (a small version of Triton's tritongpu-remove-layout-conversions). */
export const removeLayoutConversions: PassDecl = {
  name: 'remove-layout-conversions',
  aliases: ['tritongpu-remove-layout-conversions'],
  summary: 'Fold ttg.convert_layout chains and rematerialize cheap producers in the converted layout',
  anchor: 'function',
  statistics: {
    'values-relaid': 'number of values given the layout propagated from an anchor (load, dot, atomic)',
    'converts-inserted': 'number of ttg.convert_layout ops inserted where a use needs another layout',
    'converts-folded': 'number of ttg.convert_layout ops that became no-ops after the propagation',
    'converts-removed': 'number of ttg.convert_layout ops replaced',
    'ops-rematerialized': 'number of ops (and folded converts) created in a new layout',
    'ops-erased': 'number of ops erased after they became dead',
    'scans-relaid': 'number of tt.scan ops moved to the layout of their converted operands',
    'transes-relaid': 'number of tt.trans ops moved to the (transposed) layout of their converted operands',
    'carried-relaid': 'number of sets of values carried by scf.while / scf.if moved to the layout their uses need',
    'converts-narrowed': 'number of ttg.convert_layout ops moved after the narrowing cast that reads them',
  },
  run,
};
