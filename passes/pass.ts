/**
 * The pass API. A pass is one file exporting a `PassDecl`: a kebab-case name, a one-line
 * summary, typed options with defaults, an anchor (the module, or each function), and `run`.
 */
import { Diagnostic, DiagnosticError } from '../ir/diagnostics.js';
import type { Operation } from '../ir/ir.js';
import { applyPatternsGreedily, type GreedyOptions, type GreedyResult, type RewritePattern } from '../ir/patterns.js';
import { Rewriter } from '../ir/rewriter.js';
import { locText } from '../ir/verifier.js';

/** The value types a pass option may have. */
export type OptionValue = number | boolean | string | string[];

/** One typed option of a pass (`convert-to-gpu{num-warps=8}`). */
export interface PassOptionDecl {
  type: 'int' | 'bool' | 'string' | 'string-list';
  default: OptionValue;
  description: string;
}

/** Option values of one pass run, by option name. */
export type PassOptions = Record<string, OptionValue>;

/** A pass: declared once, registered with one line in `passes/all.ts`. */
export interface PassDecl {
  name: string;
  /** Other names the pass answers to: the upstream spellings (`tritongpu-coalesce`). */
  aliases?: string[];
  summary: string;
  options?: Record<string, PassOptionDecl>;
  /** `module`: `run` gets the module once; `function`: `run` gets each function-like op (tt.func, func.func). */
  anchor: 'module' | 'function';
  /** Counter names and what they count, reported by `--pass-statistics`. */
  statistics?: Record<string, string>;
  run(target: Operation, ctx: PassContext): void;
}

/** What a running pass may use: its options, statistics, analyses, a rewriter, and failure reporting. */
export class PassContext {
  readonly statistics = new Map<string, number>();
  /** Analyses the pass declares it kept valid; null means "all" (nothing changed them). */
  preserved: Set<string> | null = new Set();
  /** Set by the pass manager for `--debug-patterns`. */
  onPatternApplied?: (pattern: string, op: Operation) => void;

  constructor(
    readonly pass: PassDecl,
    readonly options: PassOptions,
    readonly analyses: AnalysisCache,
  ) {}

  /** Adds `by` to the counter `name`. */
  bump(name: string, by = 1): void {
    this.statistics.set(name, (this.statistics.get(name) ?? 0) + by);
  }

  /** A rewriter whose created/erased/modified counts feed the pass statistics. */
  rewriter(): Rewriter {
    const rw = new Rewriter();
    this.rewriters.push(rw);
    return rw;
  }
  /** @internal */
  readonly rewriters: Rewriter[] = [];

  /** Runs patterns greedily on `root`, counting applications, folds and erased ops. */
  applyPatterns(root: Operation, patterns: readonly RewritePattern[], options: GreedyOptions = {}): GreedyResult {
    const r = applyPatternsGreedily(root, patterns, { ...options, onApplied: this.onPatternApplied });
    this.bump('patterns-applied', r.applied);
    this.bump('ops-folded', r.folded);
    this.bump('ops-erased', r.erased);
    return r;
  }

  /** Declares that the pass kept `names` valid (or everything, with no argument). */
  preserve(...names: string[]): void {
    if (!names.length) this.preserved = null;
    else for (const n of names) this.preserved?.add(n);
  }

  /** Remarks (informational diagnostics at ops) the pass emitted, e.g. by test passes printing analyses. */
  readonly remarks: Diagnostic[] = [];

  /** Emits a remark at `op` (printed on stderr; checked by `--verify-diagnostics` with `expected-remark`). */
  remark(op: Operation, message: string): void {
    this.remarks.push(new Diagnostic('remark', message, op.srcPos, op.srcPos ? null : locText(op.loc)));
  }

  /** Stops the pass with an error located at `op`. */
  fail(op: Operation, message: string): never {
    throw new DiagnosticError(new Diagnostic('error', `'${op.name}' op ${message}`, op.srcPos, op.srcPos ? null : locText(op.loc)));
  }
}

/** Analyses (axis info, liveness, ...) computed on demand and cached per op until a pass invalidates them. */
export class AnalysisCache {
  private readonly cache = new Map<string, Map<Operation, unknown>>();

  /** The analysis `name` of `op`, computing it with `compute` when not cached. */
  get<T>(name: string, op: Operation, compute: (op: Operation) => T): T {
    let perOp = this.cache.get(name);
    if (!perOp) this.cache.set(name, (perOp = new Map()));
    if (perOp.has(op)) return perOp.get(op) as T;
    const v = compute(op);
    perOp.set(op, v);
    return v;
  }

  /** Whether `name` is cached for `op`. */
  has(name: string, op: Operation): boolean {
    return this.cache.get(name)?.has(op) ?? false;
  }

  /** Drops every analysis not in `preserved` (null: keep all). */
  invalidate(preserved: Set<string> | null): void {
    if (preserved === null) return;
    for (const name of [...this.cache.keys()]) if (!preserved.has(name)) this.cache.delete(name);
  }
}
