/**
 * Rematerialization for `remove-layout-conversions`: the backward slice of a converted value is
 * recreated directly in the conversion's target layout when every op of it can be (elementwise
 * ops, splat, splat constants, 1-D make_range, broadcast, expand_dims, trans of blocked layouts,
 * histogram, gather, small loads), or reaches a conversion, whose source is then converted once.
 */
import { Builder } from '../../ir/builder.js';
import type { Block, Operation, Value } from '../../ir/ir.js';
import { RankedTensorType, type Type } from '../../ir/types.js';
import { DenseElementsAttr } from '../../ir/attributes.js';
import { BLOCKED, DOT_OP, isDistributed, isLayout, slice } from '../../dialects/ttg/layout-attrs.js';
import { isElementwise } from './layout-propagation.js';
import type { StructAttr } from '../../dialects/ttg/struct-attr.js';
import { inversePerm, transLayout } from './convert-to-gpu-layouts.js';
import type { View } from '../../ir/op-def.js';
import * as arith from '../../dialects/arith.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';

type ConvertView = View<typeof ttg.ConvertLayoutOp.decl>;

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
export function operandTypesFor(def: Operation, t: RankedTensorType): Type[] | null {
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

/**
 * Plans and builds the rematerialization of values in other layouts, memoized per (value, type).
 * A load over fewer elements than the CTA has threads (Triton's cheap load: its lines are shared)
 * may be redone in another layout when it sits in the block of the conversion being removed (its
 * copy then goes right after it: no store comes between them).
 */
export class Rematerializer {
  private readonly plans = new Map<Value, Map<Type, boolean>>();
  private readonly built = new Map<Value, Map<Type, Value>>();
  private readonly b = new Builder();
  /** Ops planned for the current root (capped by MAX_OPS). */
  private planned = 0;
  /** Ops created so far. */
  created = 0;
  /** The block of the conversion being removed (where a cheap load may be redone). */
  private rootBlock: Block | null = null;

  /** `threads`: the CTA's threads (0: no load is redone). */
  constructor(private readonly threads = 0) {}

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
    const types = this.operandTypes(def, t);
    if (!types) return false;
    return def.operandValues().every((o, k) => !(o.type instanceof RankedTensorType) || this.canRemat(o, types[k], depth + 1));
  }

  /** The operand types `def` needs to give `t`: an op `operandTypesFor` knows, or a cheap load. */
  private operandTypes(def: Operation, t: RankedTensorType): Type[] | null {
    return operandTypesFor(def, t) ?? this.cheapLoadTypes(def, t);
  }

  /** The operand types a cheap load in the root's block needs to load in `t`, else null. */
  private cheapLoadTypes(def: Operation, t: RankedTensorType): Type[] | null {
    const load = tt.LoadOp.match(def);
    if (!load || load.isVolatile || def.parent !== this.rootBlock || !this.rootBlock) return null;
    if (!(load.ptr.type instanceof RankedTensorType) || load.ptr.type.numElements >= this.threads) return null;
    return def.operandTypes().map((o) => (o instanceof RankedTensorType ? o.withEncoding(t.encoding) : o));
  }

  /** Starts planning for a new root convert in `block`. */
  resetBudget(block: Block | null = null): void {
    this.planned = 0;
    this.rootBlock = block;
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
    const types = this.operandTypes(def, t as RankedTensorType)!;
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
