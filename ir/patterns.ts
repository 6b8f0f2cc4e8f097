/**
 * Rewrite patterns and the greedy driver: a worklist of ops; for each, remove it when trivially
 * dead, fold it with its op's `fold`, else apply the best matching pattern. A pattern counts as
 * applied only when the rewriter recorded a change. The driver stops at a fixed point, or fails
 * loudly when the iteration cap is hit (patterns that undo each other).
 */
import { Attribute, DenseElementsAttr, FloatAttr, IntegerAttr } from './attributes.js';
import { Diagnostic, DiagnosticError } from './diagnostics.js';
import { Operation, type Region, type Value } from './ir.js';
import { defaultContext } from './context.js';
import type { OpSpec } from './op-spec.js';
import type { Type } from './types.js';
import { Rewriter } from './rewriter.js';
import { ConstantLike, Pure, RecursiveMemoryEffects, SymbolDef, Terminator } from './traits.js';

/** One rewrite: `before -> after`, for ops named `root` (or every op when `root` is null). */
export interface RewritePattern {
  /** Stable name, shown by `--debug-patterns`. */
  name: string;
  root: string | null;
  /** Higher runs first among patterns matching the same op. */
  benefit?: number;
  /** Rewrites `op` through `rw` when it matches; doing nothing means "did not match". */
  rewrite(op: Operation, rw: Rewriter): void;
}

/** Options of the greedy driver. */
export interface GreedyOptions {
  /** Full sweeps over the IR before giving up (default 10). */
  maxIterations?: number;
  fold?: boolean;
  /** Erase ops without uses and without side effects. */
  removeDeadOps?: boolean;
  /** Called after each successful application (for `--debug-patterns`): a pattern's name, `fold` or `dead-op-removal`. */
  onApplied?: (pattern: string, op: Operation) => void;
}

/** What the driver did. */
export interface GreedyResult {
  changed: boolean;
  iterations: number;
  applied: number;
  folded: number;
  erased: number;
}

/** The constant an SSA value is known to hold (the `value` of its `ConstantLike` defining op), or null. */
export function constantOf(v: Value): Attribute | null {
  const def = v.definingOp;
  if (!def || !def.hasTrait(ConstantLike)) return null;
  return def.getAttr('value') ?? null;
}

/** The integer an SSA value is known to hold (an integer `value` of its `ConstantLike` defining op), or null. */
export function constantInt(v: Value): number | null {
  const value = constantOf(v);
  return value instanceof IntegerAttr ? value.num : null;
}

/** Whether `op` can be erased: results unused, no side effects (Pure, or only pure ops nested). */
export function isTriviallyDead(op: Operation): boolean {
  for (const r of op.results) if (r.hasUses) return false;
  if (op.hasTrait(Terminator) || op.hasTrait(SymbolDef)) return false;
  // an unused read (MLIR's rule: ops whose effects are all reads are trivially dead)
  if (op.spec?.decl.readOnlyWhen?.(op)) return true;
  return isSideEffectFree(op);
}

/**
 * Erases each of `seeds` that is trivially dead, then the producers of its (and its nested ops')
 * operands that became dead, and so on; ops already erased (detached) are skipped. `erase`
 * removes one op (a Rewriter's eraseOp, to record the change). Returns the number of ops erased.
 */
export function eraseDeadOps(seeds: Iterable<Operation>, erase: (op: Operation) => void = (op) => op.erase()): number {
  const worklist = [...seeds];
  const erased = new Set<Operation>();
  let count = 0;
  while (worklist.length) {
    const op = worklist.pop()!;
    if (erased.has(op) || !op.parent || !isTriviallyDead(op)) continue;
    const producers: (Operation | null)[] = [];
    op.walk((inner) => {
      erased.add(inner);
      for (const o of inner.operands) producers.push(o.value.definingOp);
    });
    // %0 = arith.addi %a, %b (unused) -> (erased)
    erase(op);
    count++;
    for (const p of producers) if (p && !erased.has(p)) worklist.push(p);
  }
  return count;
}

/** Whether `op` (and what it contains) has no memory effects. */
export function isSideEffectFree(op: Operation): boolean {
  if (op.hasTrait(Pure) || op.spec?.decl.pureWhen?.(op)) return op.regions.length === 0 || op.regions.every(regionIsPure);
  if (!op.hasTrait(RecursiveMemoryEffects)) return false;
  return op.regions.every(regionIsPure);
}

function regionIsPure(r: Region): boolean {
  for (const b of r.blocks) for (const inner of b) if (!inner.hasTrait(Terminator) && !isSideEffectFree(inner)) return false;
  return true;
}

/** Whether a folded attribute can become an `arith.constant`. */
function isMaterializable(value: Attribute): value is IntegerAttr | FloatAttr | DenseElementsAttr {
  return value instanceof IntegerAttr || value instanceof FloatAttr || value instanceof DenseElementsAttr;
}

function constantType(value: Attribute): Type | null {
  return isMaterializable(value) ? value.type : null;
}

/** The declaration of `arith.constant`, looked up once. */
let constantSpec: OpSpec | undefined;

/**
 * Creates a constant op for a folded attribute, or returns null when the type has no constant form.
 * Built straight from its declaration (its one property, its one result of the value's type):
 * folding makes one per folded op, and the generic builder's operand and result inference showed
 * in `canonicalize` profiles.
 */
function materializeConstant(rw: Rewriter, value: Attribute, before: Operation): Value | null {
  if (!isMaterializable(value)) return null;
  const spec = (constantSpec ??= defaultContext.lookupOp('arith.constant'));
  if (!spec) return rw.createBefore(before, 'arith.constant', { attrs: { value } }).result(0); // (raises the unregistered-op error)
  // %r = arith.addi %c1, %c2 -> %c3 = arith.constant 3, before it, with its location
  const op = Operation.create({ name: spec.name, spec, resultTypes: [value.type], properties: { value } });
  return rw.before(before).insert(rw.locate(op)).result(0);
}

/** Runs of `applyPatternsGreedily` so far: each run marks the ops in its worklist with its own number. */
let greedyRuns = 0;
/** The worklist mark of an op the greedy driver erased. */
const ERASED = -1;

/** Applies `patterns` (plus folding and dead-op removal) to everything inside `root` until nothing changes. */
export function applyPatternsGreedily(root: Operation, patterns: readonly RewritePattern[], options: GreedyOptions = {}): GreedyResult {
  const maxIterations = options.maxIterations ?? 10;
  const byRoot = new Map<string | null, RewritePattern[]>();
  for (const p of patterns) {
    const list = byRoot.get(p.root) ?? [];
    list.push(p);
    byRoot.set(p.root, list);
  }
  for (const list of byRoot.values()) list.sort((a, b) => (b.benefit ?? 1) - (a.benefit ?? 1));
  const result: GreedyResult = { changed: false, iterations: 0, applied: 0, folded: 0, erased: 0 };
  // The patterns to try on an op of each name (its own, then those for any op), merged once per name.
  const generic = byRoot.get(null) ?? [];
  const merged = new Map<string, readonly RewritePattern[]>();
  const patternsFor = (name: string): readonly RewritePattern[] => {
    let list = merged.get(name);
    if (!list) merged.set(name, (list = [...(byRoot.get(name) ?? []), ...generic]));
    return list;
  };
  // An op is in the worklist while its mark is this run's; erased ops (nested ones keep their
  // parent block) are marked ERASED and never queued again.
  const mark = ++greedyRuns;
  const worklist: Operation[] = [];
  const push = (op: Operation) => {
    if (op.worklistMark === mark || op.worklistMark === ERASED || !op.parent) return;
    op.worklistMark = mark;
    worklist.push(op);
  };
  const rw = new Rewriter({
    onInserted: push,
    onModified: push,
    onErased: (op) => {
      op.worklistMark = ERASED;
      for (const o of op.operands) if (o.value.definingOp) push(o.value.definingOp);
    },
    onReplaced: (op) => {
      for (const r of op.results) for (let u = r.firstUse; u; u = u.nextUse) push(u.owner);
    },
  });
  for (let iter = 0; iter < maxIterations; iter++) {
    result.iterations = iter + 1;
    // Seed in reverse so ops are popped in program order (defs before uses).
    const all: Operation[] = [];
    for (const r of root.regions) r.walk((op) => void all.push(op), 'pre');
    for (let k = all.length - 1; k >= 0; k--) push(all[k]);
    let changedThisSweep = false;
    // Bound the work of one sweep: patterns that undo each other re-queue their op forever.
    let budget = 10 * all.length + 100;
    while (worklist.length) {
      if (--budget < 0) {
        for (const op of worklist) if (op.worklistMark === mark) op.worklistMark = 0;
        worklist.length = 0;
        changedThisSweep = true;
        break;
      }
      const op = worklist.pop()!;
      if (op.worklistMark === ERASED || !op.parent) continue;
      op.worklistMark = 0;
      rw.resetChanged();
      if (options.removeDeadOps !== false && isTriviallyDead(op)) {
        rw.eraseOp(op);
        result.erased++;
        options.onApplied?.('dead-op-removal', op);
      } else if (options.fold !== false && tryFold(op, rw)) {
        result.folded++;
        options.onApplied?.('fold', op);
      } else {
        for (const p of patternsFor(op.name)) {
          p.rewrite(op, rw);
          if (!rw.changed) continue;
          result.applied++;
          options.onApplied?.(p.name, op);
          break;
        }
      }
      if (rw.changed) changedThisSweep = result.changed = true;
    }
    if (!changedThisSweep) return result;
  }
  throw new DiagnosticError(
    new Diagnostic('error', `greedy pattern rewrite did not converge after ${maxIterations} iterations (patterns may undo each other; see --debug-patterns)`, root.srcPos),
  );
}

/** Folds `op` with its declaration's `fold`; replaces it with constants or existing values. */
function tryFold(op: Operation, rw: Rewriter): boolean {
  const fold = op.spec?.decl.fold;
  if (!fold || op.hasTrait(ConstantLike)) return false;
  const results = fold(op, op.operands.map((o) => constantOf(o.value)));
  if (!results || results.length !== op.numResults) return false;
  // Check every folded result before creating anything, so a refused fold leaves no trace.
  for (let k = 0; k < results.length; k++) {
    const r = results[k];
    if (r instanceof Attribute ? !isMaterializable(r) || constantType(r) !== op.result(k).type : r.type !== op.result(k).type) return false;
  }
  const values: Value[] = [];
  for (const r of results) values.push(r instanceof Attribute ? materializeConstant(rw, r, op)! : r);
  if (values.every((v, k) => v === op.result(k))) return false;
  rw.replaceOp(op, values);
  return true;
}
