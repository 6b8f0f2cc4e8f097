/**
 * Op builders of the `pipeline` pass (passes/pipeline.ts): integer arithmetic, the multi-buffer
 * types, the async copy of one load into one buffer slot, the vector width of that copy, and the
 * rewrite of the convert-to-gpu operand form to the local_alloc/local_load form.
 */
import { IntegerAttr, UnitAttr } from '../../ir/attributes.js';
import type { Operation, Value, ValueMapping } from '../../ir/ir.js';
import { constantInt } from '../../ir/patterns.js';
import type { Rewriter } from '../../ir/rewriter.js';
import { RankedTensorType, i, type Type } from '../../ir/types.js';
import * as arith from '../../dialects/arith.js';
import type { CmpIPredicateName } from '../../dialects/arith.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';
import { SWIZZLED_SHARED, SharedMemorySpaceAttr } from '../../dialects/ttg/layout-attrs.js';
import { layoutOrder } from '../../dialects/ttg/layout-lib.js';
import { StructAttr } from '../../dialects/ttg/struct-attr.js';
import { MemDescType } from '../../dialects/ttg/types.js';
import type { AxisInfoAnalysis } from '../analysis/axis-info.js';
import { FREE_SLOT } from '../analysis/membar.js';
import { pointeeBits } from './coalesce-access.js';
import type { PipelinedLoad } from './pipeline-analysis.js';

/** Integer arithmetic at the rewriter's insertion point; constants go before `hoistBefore`, once each. */
export class IntEmitter {
  private readonly consts = new Map<string, Value>();

  /** Constants go before `hoistBefore` (the loop; moved to its replacement once that exists). */
  constructor(readonly rw: Rewriter, public hoistBefore: Operation) {}

  /** The constant `v` of type `t` (an integer or index type). */
  constant(v: number, t: Type): Value {
    const key = `${v}:${t.id}`;
    let c = this.consts.get(key) ?? this.existing(IntegerAttr.get(v, t));
    if (c) {
      this.consts.set(key, c);
      return c;
    }
    const ip = this.rw.insertionPoint;
    c = arith.ConstantOp.build(this.rw.before(this.hoistBefore), { value: IntegerAttr.get(v, t) }).result;
    this.rw.restoreInsertionPoint(ip);
    this.consts.set(key, c);
    return c;
  }

  /** An `arith.constant` holding `value` earlier in the loop's block, if any (reused, as cse would). */
  private existing(value: IntegerAttr): Value | undefined {
    for (let op = this.hoistBefore.prev; op; op = op.prev) {
      const c = arith.ConstantOp.match(op);
      if (c?.value === value) return c.result;
    }
    return undefined;
  }

  /** `op lhs, rhs` for a binary integer op (addi, muli, andi...). */
  binary(name: string, lhs: Value, rhs: Value): Value {
    return this.rw.create(`arith.${name}`, { operands: { lhs, rhs } }).result(0);
  }

  /** `arith.cmpi pred, lhs, rhs`. */
  cmp(pred: CmpIPredicateName, lhs: Value, rhs: Value): Value {
    return arith.CmpIOp.build(this.rw, { lhs, rhs, predicate: pred }).result;
  }

  /** `x + k * step` (just `x` for k = 0); `k * step` is folded when the step is a constant. */
  advance(x: Value, step: Value, k: number): Value {
    if (k === 0) return x;
    const c = constantInt(step);
    const by = c !== null ? this.constant(c * k, step.type) : this.binary('muli', step, this.constant(k, step.type));
    return this.binary('addi', x, by);
  }

  /** `idx + 1`, wrapped to 0 at `n` (`addi; cmpi sge; select`): the next buffer slot. */
  nextSlot(idx: Value, n: number): Value {
    return this.nextSlotWrapping(idx, n).slot;
  }

  /** The next buffer slot (see `nextSlot`) and whether it wrapped to 0. */
  nextSlotWrapping(idx: Value, n: number): { slot: Value; wrapped: Value } {
    const t = i(32);
    const inc = this.binary('addi', idx, this.constant(1, t));
    const wrapped = this.cmp('sge', inc, this.constant(n, t));
    const zero = this.constant(0, t);
    return { slot: this.select(wrapped, zero, inc), wrapped };
  }

  /** `arith.select %cond, %a, %b`. */
  select(cond: Value, a: Value, b: Value): Value {
    return arith.SelectOp.build(this.rw, { condition: cond, true_value: a, false_value: b }, { results: { result: a.type } }).result;
  }
}

/** The mutable `n x shape` multi-buffer for what `alloc` (a local_alloc with a source) stashes. */
export function bufferType(alloc: Operation, n: number): MemDescType {
  const t = ttg.LocalAllocOp.view(alloc).result.type as MemDescType;
  return MemDescType.get([n, ...t.shape], t.elementType, t.encoding, t.memorySpace ?? SharedMemorySpaceAttr.get(), true);
}

/** The type of one slot of `buf` (`ttg.memdesc_index` result). */
export function slotType(buf: Value): MemDescType {
  const t = buf.type as MemDescType;
  return MemDescType.get(t.shape.slice(1), t.elementType, t.encoding, t.memorySpace, true);
}

/** `ttg.memdesc_index %buf[%idx]`. */
export function slot(rw: Rewriter, buf: Value, idx: Value): Value {
  return ttg.MemdescIndexOp.build(rw, { src: buf, index: idx }, { results: { result: slotType(buf) } }).result;
}

/**
 * Issues the copy of `l`'s load, its operands looked up in `m`, into slot `idx` of `buf`, masked
 * by the load's mask and `pred`; returns the token of its commit group. `freeSlot` marks the copy
 * as refilling a slot no thread reads since the iteration's first barrier (`FREE_SLOT`).
 */
export function issueCopy(e: IntEmitter, l: PipelinedLoad, m: ValueMapping, buf: Value, idx: Value, pred: Value, contiguity: number, freeSlot = false): Value {
  const { rw } = e;
  const load = tt.LoadOp.view(l.load);
  const ptr = m.lookupOrDefault(load.ptr);
  const ptrType = ptr.type as RankedTensorType;
  const maskType = RankedTensorType.get(ptrType.shape, i(1), ptrType.encoding);
  const view = slot(rw, buf, idx);
  const splat = tt.SplatOp.build(rw, { src: pred }, { results: { result: maskType } }).result;
  const given = load.mask;
  const mask = given ? e.binary('andi', splat, m.lookupOrDefault(given)) : splat;
  const other = load.other;
  // The load's cache and eviction attributes carry over as they are (tt.load's view types them
  // as the union of both enums: tt's shared memAttrs() loses which is which).
  const attributes = { cache: load.op.getAttr('cache')!, evict: load.op.getAttr('evict')! };
  const copy = ttg.AsyncCopyGlobalToLocalOp.build(rw, { src: ptr, result: view, mask, other: other && m.lookupOrDefault(other), contiguity }, { attributes });
  if (freeSlot) copy.op.setAttr(FREE_SLOT, UnitAttr.get());
  return ttg.AsyncCommitGroupOp.build(rw, { inputTokens: [copy.token] }).asyncToken;
}

/** Bytes one thread moves per copy of load `op`, `contiguity` elements a copy (`copyContiguity`). */
export function copyBytes(op: Operation, contiguity: number): number {
  return contiguity * (pointeeBits(tt.LoadOp.view(op).ptr) / 8);
}

/**
 * Elements one thread may copy per cp.async: 16 bytes, capped by the pointer's alignment along its
 * fastest axis (axis info) and by the constancy of the load's mask there (a vector is masked whole).
 */
export function copyContiguity(op: Operation, axis: AxisInfoAnalysis): number {
  const load = tt.LoadOp.view(op);
  const ptr = load.ptr;
  const t = ptr.type as RankedTensorType;
  let d = t.rank - 1;
  try {
    d = layoutOrder(t.encoding!)[0] ?? d;
  } catch {
    // an unknown layout: use the last axis
  }
  let w = Math.max(1, Math.floor(128 / pointeeBits(ptr)));
  w = Math.min(w, axis.alignment(ptr, d));
  const mask = load.mask;
  if (mask) w = Math.min(w, axis.maskAlignment(mask, d));
  return Math.max(1, w);
}

/**
 * tt.load -> ttg.convert_layout (#dot_op) becomes tt.load -> ttg.local_alloc -> ttg.local_load,
 * through a plain `#ttg.swizzled_shared` buffer (pad-shared picks the real one); a load used in
 * registers (`inRegisters`) is read back into its own layout before its user.
 */
export function stashThroughShared(rw: Rewriter, l: PipelinedLoad): void {
  const loaded = tt.LoadOp.view(l.load).result;
  const src = loaded.type as RankedTensorType;
  let order = [...Array(src.rank).keys()].reverse();
  try {
    order = layoutOrder(src.encoding!);
  } catch {
    // keep row-major
  }
  const enc = StructAttr.get(SWIZZLED_SHARED, { vec: 1, perPhase: 1, maxPhase: 1, order });
  const mt = MemDescType.get(src.shape, src.elementType, enc, SharedMemorySpaceAttr.get(), false);
  if (l.inRegisters) {
    // %x = tt.load ..; f(%x) -> %s = ttg.local_alloc %x; %r = ttg.local_load %s; f(%r)
    const user = loaded.users()[0];
    const alloc = ttg.LocalAllocOp.build(rw.before(user), { src: loaded }, { results: { result: mt } });
    const ll = ttg.LocalLoadOp.build(rw, { src: alloc.result }, { results: { result: src } });
    loaded.replaceUsesWithIf(ll.result, (use) => use.owner === user);
    l.alloc = alloc.op;
    return;
  }
  const cvt = ttg.ConvertLayoutOp.view(l.convert!);
  // %d = ttg.convert_layout %x -> %s = ttg.local_alloc %x; %d = ttg.local_load %s
  const alloc = ttg.LocalAllocOp.build(rw.before(cvt.op), { src: loaded }, { results: { result: mt } });
  const ll = ttg.LocalLoadOp.build(rw, { src: alloc.result }, { results: { result: cvt.result.type } });
  rw.replaceOp(cvt.op, [ll.result]);
  l.alloc = alloc.op;
  l.convert = null;
}

/**
 * Once slot `view` has replaced a stashing local_alloc: every `ttg.memdesc_trans` of it becomes
 * mutable like the slot, and the local_loads through it wait on `wait` as the direct ones do
 * (a TMA slot passes null: its loads need no token).
 *   %t = ttg.memdesc_trans %slot : !ttg.memdesc<..> -> !ttg.memdesc<..>; ttg.local_load %t
 *     -> %t = ttg.memdesc_trans %slot : !ttg.memdesc<.., mutable> -> !ttg.memdesc<.., mutable>; ttg.local_load %t token %wait
 */
export function readViewsFromSlot(rw: Rewriter, view: Value, wait: Value | null): void {
  const mutable = (view.type as MemDescType).mutable;
  for (const u of view.users()) {
    const trans = ttg.MemdescTransOp.match(u);
    if (!trans) continue;
    const t = trans.result.type as MemDescType;
    trans.result.type = MemDescType.get(t.shape, t.elementType, t.encoding, t.memorySpace, mutable, t.allocShape);
    for (const user of trans.result.users()) {
      const load = ttg.LocalLoadOp.match(user);
      if (!wait || !load || load.token) continue;
      const waiting = ttg.LocalLoadOp.build(rw.before(user), { src: trans.result, token: wait }, { results: { result: load.result.type } });
      rw.replaceOp(user, [waiting.result]);
    }
    readViewsFromSlot(rw, trans.result, wait);
  }
}
