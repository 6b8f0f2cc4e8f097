/**
 * Values carried by `scf.while` and `scf.if` in the layout their uses need, a step of
 * `remove-layout-conversions` (the `scf.for` counterpart is mma-lowering's
 * support/mma-loop-carried.ts, on the same model).
 *
 * A *web* is a set of tensor values that must share one layout because control flow passes them
 * on: an `scf.while`'s before-region arguments with its inits and the `scf.yield` operands of its
 * after region; its after-region arguments and results with the `scf.condition` operands; an
 * `scf.if`'s results with its two `scf.yield`s' operands. A value flowing in that is itself carried
 * (an argument yielded as it is) joins the web, and so does an elementwise op's result that flows
 * in when one of its operands is carried (a pointer the loop advances: `tt.addptr %p, %step`).
 *
 * A web in layout E needs conversions, each weighted by 16 per loop around it: one for each use
 * converting it to another layout, one for each other use (not a store to shared memory) when E
 * is not the layout that use was built for, and one for each value flowing in whose layout (before
 * its conversions) is not E and which cannot be recomputed in E (a constant, a splat, a cheap
 * chain: `canRecompute`). Each candidate L (what the web's conversions convert to, what the values
 * flowing in were converted from) is priced so, against the web's current layout.
 * The cheapest L, when cheaper than the current layout, wins: the web's values change type in place, and the
 * conversions are inserted (the backward rematerialization that follows folds and recomputes
 * them). A conversion done every iteration thus becomes one before the loop and one after it.
 */
import { Builder } from '../../ir/builder.js';
import type { Operation, Value } from '../../ir/ir.js';
import { LoopLike } from '../../ir/traits.js';
import { RankedTensorType, type Type } from '../../ir/types.js';
import { DOT_OP, isDistributed, isLayout } from '../../dialects/ttg/layout-attrs.js';
import type { Attribute } from '../../ir/attributes.js';
import * as scf from '../../dialects/scf.js';
import * as ttg from '../../dialects/ttg/index.js';
import { DisjointSets } from './disjoint-sets.js';
import { isElementwise } from './layout-propagation.js';

/** How the pass helps: whether `v` can be recomputed with type `t` instead of converted, and its log. */
export interface RegionCarriedHooks {
  canRecompute(v: Value, t: Type): boolean;
  onRewrite?(what: string, op: Operation): void;
}

/** The cost of a conversion: this many times more per loop around it. */
const LOOP_WEIGHT = 16;
/** Webs relaid out at most (each relayout recomputes the webs). */
const MAX_ROUNDS = 64;

/** The register layout of a tensor type (not an mma operand's), or null. */
function layoutOfType(t: Type): Attribute | null {
  return t instanceof RankedTensorType && isDistributed(t.encoding) && !isLayout(t.encoding, DOT_OP) ? t.encoding! : null;
}

/** A place where a value flows into a web: operand `index` of `op`. */
interface Site {
  op: Operation;
  index: number;
}

/** One web: its carried values, where values flow in, and the elementwise ops inside it. */
interface Web {
  values: Value[];
  sites: Site[];
  /** Elementwise ops whose results are carried values (their other tensor operands flow in too). */
  through: Operation[];
}

/** The webs of `fn`. */
function findWebs(fn: Operation): Web[] {
  const sets = new DisjointSets<Value>();
  const add = (v: Value): boolean => {
    if (!layoutOfType(v.type)) return false;
    sets.add(v);
    return true;
  };
  // Every flow: (site, the carried value it flows into).
  const flows: [Site, Value][] = [];
  fn.walk((op) => {
    if (scf.WhileOp.is(op)) {
      const before = op.region(0).entry!;
      const after = op.region(1).entry!;
      before.args.forEach((a, k) => {
        if (!add(a)) return;
        flows.push([{ op, index: k }, a]);
        const y = after.terminator;
        if (y && scf.YieldOp.is(y)) flows.push([{ op: y, index: k }, a]);
      });
      const cond = before.terminator;
      after.args.forEach((a, k) => {
        if (!add(a) || !add(op.result(k))) return;
        sets.union(a, op.result(k));
        if (cond && scf.ConditionOp.is(cond)) flows.push([{ op: cond, index: k + 1 }, a]);
      });
    } else if (scf.IfOp.is(op) && op.numResults && op.region(1).blocks.length) {
      op.results.forEach((r, k) => {
        if (!add(r)) return;
        for (const region of op.regions) {
          const y = region.entry!.terminator;
          if (y && scf.YieldOp.is(y)) flows.push([{ op: y, index: k }, r]);
        }
      });
    }
  }, 'pre');
  if (!flows.length) return [];
  // A carried value flowing in joins the web; so does an elementwise result of a carried operand.
  const through = new Set<Operation>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const [site, target] of flows) {
      const v = site.op.operand(site.index);
      if (sets.has(v)) {
        if (sets.find(v) !== sets.find(target)) {
          sets.union(v, target);
          changed = true;
        }
        continue;
      }
      const def = v.definingOp;
      if (!def || def.numResults !== 1 || !isElementwise(def) || !layoutOfType(v.type)) continue;
      const carried = def.operandValues().filter((o) => sets.has(o));
      if (!carried.length) continue;
      add(v);
      sets.union(v, target);
      for (const o of carried) sets.union(o, v);
      through.add(def);
      changed = true;
    }
  }
  const webs = new Map<Value, Web>();
  const webOf = (v: Value): Web => {
    const r = sets.find(v);
    let w = webs.get(r);
    if (!w) webs.set(r, (w = { values: [], sites: [], through: [] }));
    return w;
  };
  for (const v of sets.members()) webOf(v).values.push(v);
  for (const [site, target] of flows) if (!sets.has(site.op.operand(site.index))) webOf(target).sites.push(site);
  for (const op of through) {
    const w = webOf(op.result(0));
    w.through.push(op);
    op.operandValues().forEach((o, index) => {
      if (!sets.has(o) && o.type instanceof RankedTensorType) w.sites.push({ op, index });
    });
  }
  return [...webs.values()];
}

/** The weight of a conversion at `op`: LOOP_WEIGHT per loop around it. */
function weight(op: Operation): number {
  let w = 1;
  for (let p = op.parentOp; p; p = p.parentOp) if (p.hasTrait(LoopLike)) w *= LOOP_WEIGHT;
  return w;
}

/** The value before any `ttg.convert_layout`s. */
function beforeConversion(v: Value): Value {
  for (let cvt = ttg.ConvertLayoutOp.match(v.definingOp); cvt; cvt = ttg.ConvertLayoutOp.match(v.definingOp)) v = cvt.src;
  return v;
}

/**
 * The conversions (weighted) that `web` needs when its values are in layout `enc`: a use
 * converting to another layout, or needing the type it has now (any op but a conversion or a store
 * to shared memory), costs one; so does a value flowing in that is (before its conversions) in
 * another layout and cannot be recomputed in `enc`.
 */
function cost(web: Web, enc: Attribute, hooks: RegionCarriedHooks): number {
  const inWeb = new Set<Operation>(web.through);
  let total = 0;
  for (const v of web.values) {
    for (const use of v.uses()) {
      const user = use.owner;
      if (inWeb.has(user) || isFlowSite(user, use.index)) continue;
      const cvt = ttg.ConvertLayoutOp.match(user);
      if (cvt) {
        if (layoutOfType(cvt.result.type) !== enc) total += weight(user);
      } else if (!ttg.LocalAllocOp.is(user) && !ttg.LocalStoreOp.is(user) && layoutOfType(v.type) !== enc) {
        total += weight(user);
      }
    }
  }
  for (const { op, index } of web.sites) {
    const x = op.operand(index);
    const want = (x.type as RankedTensorType).withEncoding(enc);
    const src = beforeConversion(x);
    if (src.type !== want && !hooks.canRecompute(src, want)) total += weight(op);
  }
  return total;
}

/** Whether operand `index` of `op` passes a value on to a carried value (a site of some web). */
function isFlowSite(op: Operation, index: number): boolean {
  if (scf.WhileOp.is(op)) return true;
  if (scf.ConditionOp.is(op)) return index >= 1;
  if (!scf.YieldOp.is(op)) return false;
  const parent = op.parentOp;
  if (scf.IfOp.is(parent)) return true;
  return !!parent && scf.WhileOp.is(parent) && op.parent === parent.region(1).entry;
}

/** The layouts worth trying for `web`: what its conversions convert to, and what values flowing in were converted from. */
function candidates(web: Web, current: Attribute): Attribute[] {
  const out = new Set<Attribute>();
  for (const v of web.values) for (const user of v.users()) {
    const cvt = ttg.ConvertLayoutOp.match(user);
    const enc = cvt && layoutOfType(cvt.result.type);
    if (enc) out.add(enc);
  }
  for (const { op, index } of web.sites) {
    const enc = layoutOfType(beforeConversion(op.operand(index)).type);
    if (enc) out.add(enc);
  }
  out.delete(current);
  return [...out];
}

/** Moves `web` to layout `enc`: its values change type, conversions go where uses and inflows need them. */
function relayout(web: Web, enc: Attribute, hooks: RegionCarriedHooks): void {
  const b = new Builder();
  const inWeb = new Set<Operation>(web.through);
  const old = new Map<Value, Type>();
  // Uses outside the web, recorded before the values change.
  const uses: { op: Operation; index: number; value: Value }[] = [];
  for (const v of web.values) {
    for (const use of v.uses()) {
      if (inWeb.has(use.owner) || isFlowSite(use.owner, use.index)) continue;
      uses.push({ op: use.owner, index: use.index, value: v });
    }
  }
  for (const v of web.values) {
    old.set(v, v.type);
    v.type = (v.type as RankedTensorType).withEncoding(enc);
  }
  for (const { op, index, value } of uses) {
    const cvt = ttg.ConvertLayoutOp.match(op);
    if (cvt) {
      // %x = convert %v : T -> L (now L -> L)  ->  %v
      if (cvt.result.type === value.type) {
        cvt.result.replaceAllUsesWith(value);
        op.erase();
        hooks.onRewrite?.('carry-fold-convert', value.definingOp ?? value.parentBlock!.parentOp!);
      }
      continue;
    }
    if (ttg.LocalAllocOp.is(op) || ttg.LocalStoreOp.is(op)) continue;
    // use(%v : T)  ->  use(convert %v : L -> T)
    b.setInsertionPoint(op);
    const back = ttg.ConvertLayoutOp.build(b, { src: value }, { results: { result: old.get(value)! }, loc: op.loc });
    op.setOperand(index, back.result);
  }
  for (const { op, index } of web.sites) {
    const x = op.operand(index);
    const want = (x.type as RankedTensorType).withEncoding(enc);
    if (x.type === want) continue;
    const cvt = ttg.ConvertLayoutOp.match(x.definingOp);
    if (cvt && cvt.src.type === want) {
      // yield (convert %x : L -> T)  ->  yield %x
      op.setOperand(index, cvt.src);
      if (!cvt.result.hasUses) cvt.op.erase();
      continue;
    }
    // yield %x : T  ->  yield (convert %x : T -> L), recomputed in L by the rematerialization where cheap
    b.setInsertionPoint(op);
    op.setOperand(index, ttg.ConvertLayoutOp.build(b, { src: x }, { results: { result: want }, loc: op.loc }).result);
  }
  for (const op of web.through) hooks.onRewrite?.('carry-through', op);
}

/**
 * Gives the values carried by `scf.while` and `scf.if` in `fn` the layout their uses need, where
 * that removes conversions (weighted by loop depth); returns how many webs moved.
 */
export function carryInUseLayouts(fn: Operation, hooks: RegionCarriedHooks): number {
  let moved = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let best: { web: Web; enc: Attribute; gain: number } | null = null;
    for (const web of findWebs(fn)) {
      const encs = new Set(web.values.map((v) => layoutOfType(v.type)));
      if (encs.size !== 1) continue;
      const current = [...encs][0]!;
      const now = cost(web, current, hooks);
      for (const enc of candidates(web, current)) {
        const gain = cost(web, enc, hooks) - now;
        if (gain < 0 && (!best || gain < best.gain)) best = { web, enc, gain };
      }
    }
    if (!best) break;
    relayout(best.web, best.enc, hooks);
    const at = best.web.values[0];
    hooks.onRewrite?.('carry-in-use-layout', at.definingOp ?? at.parentBlock!.parentOp!);
    moved++;
  }
  return moved;
}
