/**
 * `cse`: common subexpression elimination. Walks each function along the dominance tree with a
 * scoped table of side-effect-free ops keyed by (name, operands, attributes, result types,
 * regions); an op equal to one already in scope is replaced by it.
 *
 * Dominance is taken structurally: ops earlier in a block dominate later ones and everything
 * nested in them; the entry block of a region dominates its other blocks (so those see the
 * entry block's table, but not each other's). Regions of `IsolatedFromAbove` ops start empty.
 * Ops with memory effects (tt.load, tt.store, atomics, calls, anything not Pure) never merge, except
 * `ttg.local_alloc`s of the same tensor into immutable buffers (support/staging.ts): one buffer serves
 * both (attention's Q, staged for each of its two loops).
 */
import type { Block, Operation, Region, Value } from '../ir/ir.js';
import { isSideEffectFree } from '../ir/patterns.js';
import type { Rewriter } from '../ir/rewriter.js';
import type { PassContext, PassDecl } from './pass.js';
import { isPrivateStaging } from './support/staging.js';
import { Commutative, IsolatedFromAbove, SymbolDef, Terminator } from '../ir/traits.js';

/** Small integer ids for values, so op keys are cheap strings. */
class ValueIds {
  private readonly ids = new Map<Value, number>();
  of(v: Value): number {
    let id = this.ids.get(v);
    if (id === undefined) this.ids.set(v, (id = this.ids.size));
    return id;
  }
}

/** A table of known ops that inherits the entries of its enclosing scope. */
class Scope {
  private readonly known = new Map<string, Operation>();
  constructor(private readonly parent: Scope | null) {}
  lookup(key: string): Operation | undefined {
    for (let s: Scope | null = this; s; s = s.parent) {
      const hit = s.known.get(key);
      if (hit) return hit;
    }
    return undefined;
  }
  insert(key: string, op: Operation): void {
    this.known.set(key, op);
  }
}

/** `name=id,...` for the op's inherent and discardable attributes (uniqued, so ids compare them). */
function attrKey(op: Operation): string {
  const parts: string[] = [];
  for (const [k, a] of op.inherentAttrs()) parts.push(`${k}=${a.id}`);
  const d = op.attributes;
  if (d) for (const k of Object.keys(d).sort()) parts.push(`!${k}=${d[k].id}`);
  return parts.join(',');
}

/**
 * A structural fingerprint of `op`'s regions: values defined inside get local numbers in order of
 * definition, values from outside keep their global id. Equal fingerprints mean equal regions.
 * Null when a region has several blocks or branches (not compared).
 */
function regionKey(op: Operation, ids: ValueIds): string | null {
  const local = new Map<Value, number>();
  const out: string[] = [];
  const ref = (v: Value) => (local.has(v) ? `L${local.get(v)}` : `G${ids.of(v)}`);
  const define = (v: Value) => (local.set(v, local.size), v.type.id);
  const visit = (r: Region): boolean => {
    if (r.blocks.length > 1) return false;
    const b = r.blocks[0];
    out.push(`{(${b ? b.args.map(define).join(',') : ''})`);
    for (let inner = b?.first ?? null; inner; inner = inner.next) {
      if (inner.successors.length) return false;
      out.push(`${inner.name}(${inner.operandValues().map(ref).join(',')})[${attrKey(inner)}]`);
      out.push(`->(${inner.results.map(define).join(',')})`);
      if (!inner.regions.every(visit)) return false;
    }
    out.push('}');
    return true;
  };
  return op.regions.every(visit) ? out.join(' ') : null;
}

/** The table key of `op`, or null when `op` must not be merged with anything. */
function keyOf(op: Operation, ids: ValueIds): string | null {
  if (op.numResults === 0 || op.successors.length || op.hasTrait(Terminator) || op.hasTrait(SymbolDef)) return null;
  if (!isSideEffectFree(op) && !isPrivateStaging(op)) return null;
  let operands = op.operandValues().map((v) => ids.of(v));
  // a op b == a op' b' for commutative ops once both operand lists are sorted.
  if (op.hasTrait(Commutative)) operands = [...operands].sort((x, y) => x - y);
  const types = op.results.map((r) => r.type.id).join(',');
  const regions = op.regions.length ? regionKey(op, ids) : '';
  if (regions === null) return null;
  return `${op.name}(${operands.join(',')})[${attrKey(op)}]->(${types})${regions}`;
}

/** Walks blocks and regions in dominance order, replacing ops whose twin is in scope. */
class CseWalker {
  private readonly ids = new ValueIds();
  constructor(private readonly rw: Rewriter, private readonly ctx: PassContext) {}

  region(r: Region, enclosing: Scope | null): void {
    const entry = r.blocks[0];
    if (!entry) return;
    const entryScope = new Scope(enclosing);
    this.block(entry, entryScope);
    // Each other block is dominated by the entry block only (as far as we know without a CFG).
    for (const b of r.blocks.slice(1)) this.block(b, new Scope(entryScope));
  }

  private block(b: Block, scope: Scope): void {
    for (let op = b.first; op; ) {
      const next = op.next;
      this.op(op, scope);
      op = next;
    }
  }

  private op(op: Operation, scope: Scope): void {
    // Nested regions first: their ops see the ops before `op`, and merging inside may make
    // two region-holding ops equal.
    const inner = op.hasTrait(IsolatedFromAbove) ? null : scope;
    for (const r of op.regions) this.region(r, inner);
    const key = keyOf(op, this.ids);
    if (key === null) return;
    const twin = scope.lookup(key);
    if (!twin) return scope.insert(key, op);
    // %1 = arith.addi %a, %b ; %2 = arith.addi %b, %a -> uses of %2 use %1
    this.rw.replaceOp(op, twin.results);
    this.ctx.bump('num-cse');
  }
}

/** The `cse` pass. */
export const cse: PassDecl = {
  name: 'cse',
  summary: 'Eliminate common sub-expressions',
  anchor: 'function',
  statistics: { 'num-cse': "number of operations CSE'd" },
  run(fn, ctx) {
    const walker = new CseWalker(ctx.rewriter(), ctx);
    for (const r of fn.regions) walker.region(r, null);
  },
};
