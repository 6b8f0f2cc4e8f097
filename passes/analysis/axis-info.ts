/**
 * Axis-info analysis (after Triton's AxisInfoAnalysis): contiguity, divisibility and constancy
 * per dimension of every integer and pointer value, used by coalescing and vectorization.
 *
 * It is an optimistic sparse forward analysis solved by chaotic iteration: values start at the
 * "not reached" bottom, each sweep walks every function in program order and joins (meets) the
 * facts an op's transfer function gives into its results' states, until a sweep changes nothing.
 * Loop-carried values are the join of their initial value and of what the loop yields, so
 * `p = addptr p, 32` in a loop keeps the gcd of the initial divisibility and the step's bytes.
 * Ops without a rule, block arguments of unknown region ops and of non-entry blocks are
 * pessimistic (contiguity = divisibility = constancy = 1).
 *
 * Function arguments take the `tt.contiguity` / `tt.divisibility` / `tt.constancy` argument
 * attributes (what `__multipleof(N)` produces); a function called in the module also meets the
 * facts of its call sites' operands (as Triton's ModuleAxisInfoAnalysis). The same attributes on
 * an op override the facts of its result.
 *
 * Query it through `getAxisInfo(ctx.analyses, op)` (cached per module under `AXIS_INFO`).
 */
import { DenseArrayAttr, DenseElementsAttr, IntegerAttr, SymbolRefAttr, type Attribute } from '../../ir/attributes.js';
import { argAttrsOf, symbolNameOf } from '../../ir/function-syntax.js';
import type { Block, Operation, Value } from '../../ir/ir.js';
import { elementTypeOf, IndexType, IntegerType, RankedTensorType, type Type } from '../../ir/types.js';
import { PointerType } from '../../dialects/tt/types.js';
import type { AnalysisCache } from '../pass.js';
import { AxisInfo, gcd, join, withHints } from './axis-info-lattice.js';
import { AXIS_RULES, pointeeBytes } from './axis-info-rules.js';
import { FunctionLike } from '../../ir/traits.js';
import type { View } from '../../ir/op-def.js';
import * as func from '../../dialects/func.js';
import * as scf from '../../dialects/scf.js';
import * as tt from '../../dialects/tt/index.js';

export { AxisInfo } from './axis-info-lattice.js';

/** The analysis name in the `AnalysisCache` (for `ctx.preserve(AXIS_INFO)`). */
export const AXIS_INFO = 'axis-info';

/** Sweeps after which the solver gives up (every value then reads as pessimistic). */
const MAX_SWEEPS = 1000;

const CALLS: ReadonlySet<string> = new Set([tt.CallOp.name, func.CallOp.name]);
/** Region ops whose results are the join of what their regions' `scf.yield`s yield (scf.index_switch has no definition yet). */
const YIELDING: ReadonlySet<string> = new Set([scf.IfOp.name, scf.ExecuteRegionOp.name, 'scf.index_switch']);
const HINTS = ['contiguity', 'divisibility', 'constancy'] as const;
const HINT_ATTRS = HINTS.map((h) => `tt.${h}`);

/** Number of axis-info dimensions of a value of type `t` (1 for scalars; a pointer to a tensor has the tensor's rank). */
export function rankOf(t: Type): number {
  if (t instanceof RankedTensorType) return t.rank;
  if (t instanceof PointerType && t.pointee instanceof RankedTensorType) return t.pointee.rank;
  return 1;
}

/** The dimension vector of a hint attribute (`16 : i32`, `dense<[1, 16]>`, `array<i32: 1, 16>`), if it is one. */
function hintVector(a: Attribute | undefined): number[] | undefined {
  if (a instanceof IntegerAttr) return [a.num];
  if (a instanceof DenseElementsAttr && a.rawHex === null) return Array.from({ length: a.type.numElements }, (_, k) => Number(a.at(k)));
  if (a instanceof DenseArrayAttr) return a.values.map(Number);
  return undefined;
}

/**
 * Triton's order from contiguity: dimensions sorted by decreasing contiguity, ties keeping the
 * last dimension first (`[1, 128]` gives `[1, 0]`). Coalescing uses it as the layout order.
 */
export function orderFromContiguity(contiguity: readonly number[]): number[] {
  const dims = contiguity.map((_, d) => d).reverse();
  return dims.sort((x, y) => contiguity[y] - contiguity[x]);
}

/** The solved axis info of every value in a module (or in one function). */
export class AxisInfoAnalysis {
  private readonly states = new Map<Value, AxisInfo>();
  /** Changes so far: `changedAt` a value's state last changed, `visitedAt` an op without regions was last visited. */
  private changes = 0;
  private readonly changedAt = new Map<Value, number>();
  private readonly visitedAt = new Map<Operation, number>();
  private readonly callSites = new Map<Operation, Operation[]>();
  private readonly functions: Operation[] = [];
  private changed = false;
  /** Sweeps the solver needed (the last one changed nothing). */
  sweeps = 0;
  /** False when the solver hit its sweep cap; every value then reads as pessimistic. */
  converged = true;

  constructor(readonly root: Operation) {
    if (root.hasTrait(FunctionLike)) this.functions.push(root);
    else root.walk((op) => void (op.hasTrait(FunctionLike) && this.functions.push(op)), 'pre');
    this.collectCallSites();
    this.solve();
  }

  /** The facts about `v`: pessimistic when unknown (unreached code, values outside the root). */
  lookup(v: Value): AxisInfo {
    const s = this.converged ? this.states.get(v) : undefined;
    return s ?? AxisInfo.pessimistic(rankOf(v.type));
  }

  /** Whether the solver reached `v`. */
  has(v: Value): boolean {
    return this.converged && this.states.has(v);
  }

  /** Contiguity of `v` along `dim` (1 for unknown dims). */
  contiguity(v: Value, dim = 0): number {
    return this.lookup(v).contiguity[dim] ?? 1;
  }

  /** Divisibility of `v` along `dim` (in bytes for pointers). */
  divisibility(v: Value, dim = 0): number {
    return this.lookup(v).divisibility[dim] ?? 1;
  }

  /** Constancy of `v` along `dim`. */
  constancy(v: Value, dim = 0): number {
    return this.lookup(v).constancy[dim] ?? 1;
  }

  /**
   * How many consecutive elements along `dim` one vector access may cover (Triton's getAlignment):
   * min(contiguity, divisibility in elements). For pointers the byte divisibility is divided by
   * the pointee size.
   */
  alignment(v: Value, dim: number): number {
    const info = this.lookup(v);
    const isPtr = elementTypeOf(v.type) instanceof PointerType;
    const div = info.divisibility[dim] ?? 1;
    const maxMultiple = isPtr ? Math.max(1, Math.floor(div / pointeeBytes(v.type))) : div;
    return Math.max(1, Math.min(maxMultiple, info.contiguity[dim] ?? 1));
  }

  /** How many consecutive mask elements along `dim` are equal (Triton's getMaskAlignment). */
  maskAlignment(mask: Value, dim: number): number {
    return Math.max(1, this.constancy(mask, dim));
  }

  /** The layout order coalescing should use for `v` (see `orderFromContiguity`). */
  order(v: Value): number[] {
    return orderFromContiguity(this.lookup(v).contiguity);
  }

  // ---- solver ------------------------------------------------------------------------------

  private collectCallSites(): void {
    const byName = new Map<string, Operation>();
    for (const f of this.functions) {
      const n = symbolNameOf(f);
      if (n !== undefined) byName.set(n, f);
    }
    for (const f of this.functions) {
      f.walk((op) => {
        if (!CALLS.has(op.name)) return;
        const callee = op.getAttr('callee');
        const target = callee instanceof SymbolRefAttr && !callee.nested.length ? byName.get(callee.root) : undefined;
        if (!target) return;
        const list = this.callSites.get(target) ?? [];
        list.push(op);
        this.callSites.set(target, list);
      });
    }
  }

  private solve(): void {
    do {
      this.changed = false;
      if (++this.sweeps > MAX_SWEEPS) {
        this.converged = false;
        return;
      }
      for (const f of this.functions) this.visitFunction(f);
      if (!this.functions.length) this.visitRegionsPessimistically(this.root);
    } while (this.changed);
  }

  /** Joins `info` into the state of `v` (undefined: nothing new). */
  private update(v: Value, info: AxisInfo | undefined): void {
    if (!info) return;
    const old = this.states.get(v);
    const next = join(old, info)!;
    if (old && old.equals(next)) return;
    this.states.set(v, next);
    this.changedAt.set(v, ++this.changes);
    this.changed = true;
  }

  private state(v: Value): AxisInfo | undefined {
    return this.states.get(v);
  }

  private visitFunction(f: Operation): void {
    const entry = f.regions[0]?.entry;
    if (!entry) return;
    entry.args.forEach((arg, k) => this.update(arg, this.argumentInfo(f, k, arg)));
    for (const b of f.regions[0].blocks) this.visitBlock(b, b !== entry);
  }

  /** Facts of argument `k` of function `f`: its call sites' operands (if called) met with its hint attributes. */
  private argumentInfo(f: Operation, k: number, arg: Value): AxisInfo | undefined {
    const calls = this.callSites.get(f);
    const attrs = new Map(argAttrsOf(f, k));
    const hints = Object.fromEntries(HINTS.map((h) => [h, hintVector(attrs.get(`tt.${h}`))]));
    if (!calls?.length) return withHints(AxisInfo.pessimistic(rankOf(arg.type)), hints);
    let info: AxisInfo | undefined;
    // Argument k of the callee is operand k of a call (tt.call and func.call pass all their operands).
    for (const c of calls) if (k < c.numOperands) info = join(info, this.state(c.operands[k].value));
    if (!info) return undefined;
    const meet = (v: readonly number[], h: number[] | undefined) => (h && h.length === v.length ? v.map((x, d) => gcd(x, h[d])) : v);
    return new AxisInfo(meet(info.contiguity, hints.contiguity), meet(info.divisibility, hints.divisibility), meet(info.constancy, hints.constancy), info.constantValue);
  }

  /** Visits the ops of a block; the arguments of non-entry (CFG) blocks are pessimistic. */
  private visitBlock(b: Block, pessimisticArgs: boolean): void {
    if (pessimisticArgs) for (const a of b.args) this.update(a, AxisInfo.pessimistic(rankOf(a.type)));
    for (const op of b.ops) this.visitOp(op);
  }

  private visitRegionsPessimistically(op: Operation): void {
    for (const r of op.regions) for (const b of r.blocks) this.visitBlock(b, true);
  }

  private visitOp(op: Operation): void {
    // Nested functions are visited on their own.
    if (op.hasTrait(FunctionLike)) return this.setResultsPessimistic(op);
    const forOp = scf.ForOp.match(op);
    if (forOp) return this.visitFor(forOp);
    if (scf.WhileOp.match(op)) return this.visitWhile(op);
    if (YIELDING.has(op.name)) return this.visitYielding(op);
    if (op.regions.length) {
      this.visitRegionsPessimistically(op);
      return this.setResultsPessimistic(op);
    }
    this.visitSimple(op);
  }

  private setResultsPessimistic(op: Operation): void {
    for (const r of op.results) this.update(r, this.hinted(op, AxisInfo.pessimistic(rankOf(r.type))));
  }

  /** `info` with the op's own `tt.*` hint attributes applied. */
  private hinted(op: Operation, info: AxisInfo): AxisInfo {
    const [contiguity, divisibility, constancy] = HINT_ATTRS.map((name) => op.getAttr(name));
    if (!contiguity && !divisibility && !constancy) return info;
    return withHints(info, { contiguity: hintVector(contiguity), divisibility: hintVector(divisibility), constancy: hintVector(constancy) });
  }

  /**
   * An op without regions: its rule on known operands, else pessimistic. Its results depend only
   * on its operands' states, so a visit after none of them changed is skipped (it would change
   * nothing): a sweep costs what changed since the last one.
   */
  private visitSimple(op: Operation): void {
    const last = this.visitedAt.get(op);
    this.visitedAt.set(op, this.changes);
    if (last !== undefined && op.operands.every((o) => (this.changedAt.get(o.value) ?? 0) <= last)) return;
    const rule = op.numResults === 1 ? AXIS_RULES.get(op.name) : undefined;
    if (!rule) return this.setResultsPessimistic(op);
    const ins: AxisInfo[] = [];
    for (const o of op.operands) {
      const s = this.state(o.value);
      if (!s) return; // not reached yet: a later sweep will come back
      ins.push(s);
    }
    const res = op.result(0);
    const rank = rankOf(res.type);
    let info = rule(op, ins);
    if (!info || info.rank !== rank) info = AxisInfo.pessimistic(rank);
    this.update(res, this.hinted(op, info));
  }

  /** What the `scf.yield` ending `region`'s entry block yields, if it ends in one. */
  private yielded(op: Operation, region: number): Value[] | undefined {
    return scf.YieldOp.match(op.regions[region]?.entry?.terminator)?.results;
  }

  /** scf.for: the induction variable is divisible by gcd(lb, step); iter args and results join init and yield. */
  private visitFor(forOp: View<typeof scf.ForOp.decl>): void {
    const op = forOp.op;
    const body = op.regions[0]?.entry;
    if (!body) return this.setResultsPessimistic(op);
    const lb = this.state(forOp.lowerBound);
    const step = this.state(forOp.step);
    const iv = body.args[0];
    if (iv && lb && step) this.update(iv, new AxisInfo([1], [gcd(lb.divisibility[0], step.divisibility[0])], [1]));
    const inits = forOp.initArgs;
    const yields = this.yielded(op, 0) ?? [];
    inits.forEach((init, k) => {
      const carried = join(this.state(init), yields[k] && this.state(yields[k]));
      if (body.args[k + 1]) this.update(body.args[k + 1], carried);
      if (op.results[k]) this.update(op.results[k], carried && this.hinted(op, carried));
    });
    for (const b of op.regions[0].blocks) this.visitBlock(b, b !== body);
  }

  /** scf.while: before args join inits and the after region's yield; after args and results are the condition's args. */
  private visitWhile(op: Operation): void {
    const before = op.regions[0]?.entry;
    const after = op.regions[1]?.entry;
    if (!before || !after) return this.setResultsPessimistic(op);
    const yields = this.yielded(op, 1) ?? [];
    op.operandValues().forEach((init, k) => {
      if (before.args[k]) this.update(before.args[k], join(this.state(init), yields[k] && this.state(yields[k])));
    });
    for (const b of op.regions[0].blocks) this.visitBlock(b, b !== before);
    const forwarded = scf.ConditionOp.match(before.terminator)?.args ?? [];
    forwarded.forEach((v, k) => {
      const s = this.state(v);
      if (after.args[k]) this.update(after.args[k], s);
      if (op.results[k]) this.update(op.results[k], s && this.hinted(op, s));
    });
    for (const b of op.regions[1].blocks) this.visitBlock(b, b !== after);
  }

  /** scf.if and friends: results join what every region yields. */
  private visitYielding(op: Operation): void {
    for (const r of op.regions) for (const b of r.blocks) this.visitBlock(b, b !== r.entry);
    op.results.forEach((res, k) => {
      let info: AxisInfo | undefined;
      let complete = true;
      for (let r = 0; r < op.regions.length; r++) {
        const ys = this.yielded(op, r);
        const s = ys?.[k] && this.state(ys[k]);
        if (!s) complete = false;
        info = join(info, s);
      }
      // Results stay unreached until every branch is known (a later sweep completes them).
      if (complete && info) this.update(res, this.hinted(op, info));
    });
  }
}

/** The axis info of the module (or function) around `op`, cached in `analyses`. */
export function getAxisInfo(analyses: AnalysisCache, op: Operation): AxisInfoAnalysis {
  let root = op;
  while (root.parentOp) root = root.parentOp;
  return analyses.get(AXIS_INFO, root, (r) => new AxisInfoAnalysis(r));
}

/** Whether axis info describes values of type `t` (integers, indices, pointers, and tensors of them). */
export function hasAxisInfo(t: Type): boolean {
  const e = elementTypeOf(t);
  return e instanceof PointerType || e instanceof IntegerType || e instanceof IndexType;
}
