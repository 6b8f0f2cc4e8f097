/**
 * `cse`: common subexpression elimination. Walks each function along the dominance tree with a
 * scoped table of side-effect-free ops, hashed by (name, operands, declared attributes, result types) and
 * compared in full (regions too) on a hash match, as MLIR's CSE does; an op equal to one already
 * in scope is replaced by it.
 *
 * Dominance is taken structurally: ops earlier in a block dominate later ones and everything
 * nested in them; the entry block of a region dominates its other blocks (so those see the
 * entry block's table, but not each other's). Regions of `IsolatedFromAbove` ops start empty.
 * Ops with memory effects (tt.store, atomics, calls, anything not Pure) never merge, except
 * `ttg.local_alloc`s of the same tensor into immutable buffers (support/staging.ts): one buffer serves
 * both (attention's Q, staged for each of its two loops), and ops that only read memory (a
 * non-volatile `tt.load`, `ttg.local_load`: `readOnlyWhen`), which merge with an equal read earlier
 * in the same block when no op that may write memory lies between them, as in MLIR's CSE.
 */
import type { Block, Operation, Region, Value } from '../ir/ir.js';
import { isSideEffectFree } from '../ir/patterns.js';
import type { Rewriter } from '../ir/rewriter.js';
import type { PassContext, PassDecl } from './pass.js';
import { isPrivateStaging } from './support/staging.js';
import { Commutative, IsolatedFromAbove, Pure, RecursiveMemoryEffects, SymbolDef, Terminator } from '../ir/traits.js';

/** Mixes `x` into the hash `h`, order-dependent (MurmurHash3's step). */
function mix(h: number, x: number): number {
  x = Math.imul(x, 0xcc9e2d51);
  x = Math.imul((x << 15) | (x >>> 17), 0x1b873593);
  h ^= x;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** A table of known ops, by hash, that inherits the entries of its enclosing scope. */
class Scope {
  private readonly known = new Map<number, Operation[]>();
  constructor(private readonly parent: Scope | null) {}
  lookup(hash: number, op: Operation, ids: Ids): Operation | undefined {
    for (let s: Scope | null = this; s; s = s.parent) {
      const bucket = s.known.get(hash);
      if (bucket) for (const twin of bucket) if (equivalent(op, twin, ids)) return twin;
    }
    return undefined;
  }
  insert(hash: number, op: Operation): void {
    const bucket = this.known.get(hash);
    if (bucket) bucket.push(op);
    else this.known.set(hash, [op]);
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
function regionKey(op: Operation, ids: Ids): string | null {
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

/** What CSE asks of an op's traits, read once per op kind. */
interface OpKind {
  /** Terminators and symbol definitions never merge. */
  never: boolean;
  pure: boolean;
  recursive: boolean;
  commutative: boolean;
}

/** Small integer ids for values and names, and the traits CSE asks about, per op kind. */
class Ids {
  private readonly values = new Map<Value, number>();
  private readonly names = new Map<string, number>();
  private readonly kinds = new Map<string, OpKind>();
  of(v: Value): number {
    let id = this.values.get(v);
    if (id === undefined) this.values.set(v, (id = this.values.size));
    return id;
  }
  name(s: string): number {
    let id = this.names.get(s);
    if (id === undefined) this.names.set(s, (id = this.names.size + 1));
    return id;
  }
  kind(op: Operation): OpKind {
    let k = this.kinds.get(op.name);
    if (!k) {
      k = {
        never: op.hasTrait(Terminator) || op.hasTrait(SymbolDef),
        pure: op.hasTrait(Pure),
        recursive: op.hasTrait(RecursiveMemoryEffects),
        commutative: op.hasTrait(Commutative),
      };
      this.kinds.set(op.name, k);
    }
    return k;
  }
}

/** Whether `op` may be merged with an equivalent op at all (side-effect free, as `isSideEffectFree` decides). */
function mergeable(op: Operation, ids: Ids): boolean {
  const kind = ids.kind(op);
  if (kind.never || op.numResults === 0 || op.successors.length) return false;
  if (kind.pure && op.regions.length === 0) return true;
  if ((kind.pure || kind.recursive || op.spec?.decl.pureWhen) && isSideEffectFree(op)) return true;
  return isPrivateStaging(op);
}

/**
 * The hash of what makes two ops equivalent: name, operands (in any order for a commutative op),
 * declared attributes in declaration order (a default counts as set), result types. Other
 * attributes and regions are compared only on a hash match (`equivalent`).
 */
function hashOf(op: Operation, ids: Ids): number {
  let h = ids.name(op.name);
  const operands = op.operands;
  if (ids.kind(op).commutative) {
    let sum = 0;
    for (let k = 0; k < operands.length; k++) sum = (sum + mix(0, ids.of(operands[k].value))) | 0;
    h = mix(h, sum);
  } else {
    for (let k = 0; k < operands.length; k++) h = mix(h, ids.of(operands[k].value));
  }
  const declared = op.spec?.decl.attrs;
  if (declared) {
    const props = op.properties;
    for (let k = 0; k < declared.length; k++) h = mix(h, (props?.[declared[k].name] ?? declared[k].default)?.id ?? 0);
  }
  const results = op.results;
  for (let k = 0; k < results.length; k++) h = mix(h, results[k].type.id);
  return mix(h, op.regions.length);
}

/** The ids of `op`'s operands, sorted for a commutative op. */
function operandIds(op: Operation, ids: Ids): number[] {
  const out = op.operands.map((o) => ids.of(o.value));
  return ids.kind(op).commutative ? out.sort((x, y) => x - y) : out;
}

/** Whether two ops of one kind have the same inherent attributes (a declared default counts as set) and discardable ones. */
function sameAttributes(a: Operation, b: Operation): boolean {
  const defaultOf = (name: string) => a.spec?.attrIndex.get(name)?.default;
  const pa = a.properties;
  const pb = b.properties;
  if (pa) for (const k in pa) if (pa[k] !== (pb?.[k] ?? defaultOf(k))) return false;
  if (pb) for (const k in pb) if (!pa?.[k] && pb[k] !== defaultOf(k)) return false;
  const da = a.attributes;
  const db = b.attributes;
  if (!da || !db) return !da === !db || Object.keys((da ?? db)!).length === 0;
  let n = 0;
  for (const k in da) {
    if (da[k] !== db[k]) return false;
    n++;
  }
  return n === Object.keys(db).length;
}

/** Whether `a` and `b` (of one hash) compute the same values: `a op b == a op' b'`, checked in full. */
function equivalent(a: Operation, b: Operation, ids: Ids): boolean {
  if (a.name !== b.name || a.numOperands !== b.numOperands || a.numResults !== b.numResults || a.regions.length !== b.regions.length) return false;
  for (let k = 0; k < a.numResults; k++) if (a.results[k].type !== b.results[k].type) return false;
  const x = operandIds(a, ids);
  const y = operandIds(b, ids);
  for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) return false;
  if (!sameAttributes(a, b)) return false;
  if (!a.regions.length) return true;
  const ra = regionKey(a, ids);
  return ra !== null && ra === regionKey(b, ids);
}

/** Walks blocks and regions in dominance order, replacing ops whose twin is in scope. */
class CseWalker {
  private readonly ids = new Ids();
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
    // Ops that only read memory (a non-volatile tt.load, ttg.local_load) merge with an equal one
    // earlier in the same block when nothing that may write memory lies between them (MLIR's CSE
    // of read-only ops): any other op with effects empties this table.
    let reads = new Scope(null);
    for (let op = b.first; op; ) {
      const next = op.next;
      if (op.spec?.decl.readOnlyWhen?.(op) && op.regions.length === 0) {
        // %1 = tt.load %p ; (no write) ; %2 = tt.load %p -> uses of %2 use %1
        this.mergeOrRecord(op, reads);
      } else {
        this.op(op, scope);
        if (!isSideEffectFree(op)) reads = new Scope(null);
      }
      op = next;
    }
  }

  /** Replaces `op` by its twin in `table`, or records it there. */
  private mergeOrRecord(op: Operation, table: Scope): void {
    const hash = hashOf(op, this.ids);
    const twin = table.lookup(hash, op, this.ids);
    if (!twin) return table.insert(hash, op);
    this.rw.replaceOp(op, twin.results);
    this.ctx.bump('num-cse');
  }

  private op(op: Operation, scope: Scope): void {
    // Nested regions first: their ops see the ops before `op`, and merging inside may make
    // two region-holding ops equal.
    const inner = op.hasTrait(IsolatedFromAbove) ? null : scope;
    for (const r of op.regions) this.region(r, inner);
    if (!mergeable(op, this.ids)) return;
    // %1 = arith.addi %a, %b ; %2 = arith.addi %b, %a -> uses of %2 use %1
    this.mergeOrRecord(op, scope);
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
