/**
 * The pass manager: runs a pipeline on a module with mlir-opt's instrumentation (IR dumps
 * before/after passes, verification after each pass, timing, statistics, pattern tracing),
 * reports a failing pass with its name and op, and writes a reproducer for a compiler bug (an
 * internal error or invalid IR after a pass) or when asked (`--crash-reproducer=FILE`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Diagnostic, DiagnosticError } from '../ir/diagnostics.js';
import type { Operation } from '../ir/ir.js';
import { printModule, type PrintOptions } from '../ir/printer.js';
import { locText, verifyDiagnostic } from '../ir/verifier.js';
import { AnalysisCache, PassContext } from './pass.js';
import { parsePipeline, pipelineText, type PipelineEntry } from './pipeline-text.js';
import { FunctionLike } from '../ir/traits.js';
import { clockMs, REPORT_RULE, timingReport, type PhaseTimer, type TimingRow } from './timing.js';

/** The system's directory for temporary files; node:os is loaded only when a reproducer is written. */
function tmpdir(): string {
  return (createRequire(import.meta.url)('node:os') as typeof import('node:os')).tmpdir();
}

/** Which passes an IR-printing flag applies to: all, some by name, or none. */
export type PassSelection = 'all' | Set<string> | null;

/** Instrumentation and failure handling options (the `triton-opt` flags). */
export interface PassManagerOptions {
  verifyEach?: boolean;
  printBefore?: PassSelection;
  printAfter?: PassSelection;
  printAfterChange?: boolean;
  printAfterFailure?: boolean;
  printTreeDir?: string;
  timing?: boolean;
  statistics?: boolean;
  debugPatterns?: boolean;
  /** `--debug-only=PASSES`: the pattern log of these passes only. */
  debugOnly?: PassSelection;
  /** `--mlir-timing-display`: the timing report as a flat list (default) or nested under each op's pipeline. */
  timingDisplay?: 'list' | 'tree';
  /** Rethrow internal errors (keeps the JavaScript stack, for `--debug`). */
  debug?: boolean;
  /** Where reproducers go (default: the OS temporary folder); null disables them. */
  reproducerDir?: string | null;
  /** An exact file for the reproducer (`--crash-reproducer=FILE`), instead of a fresh name in `reproducerDir`. */
  reproducerFile?: string;
  /**
   * A fresh copy of the pipeline's input (the caller parses its source again). Given it, the
   * manager keeps no copy of the module before each pass: when a pass fails and a reproducer is
   * due, it rebuilds the IR before that pass by running the passes before it on a fresh input,
   * as MLIR does. Without it, the module is printed before every pass while reproducers are on.
   */
  reparseInput?: () => Operation;
  /** How IR dumps are printed. */
  print?: PrintOptions;
  /** Where dumps and reports are written (default: stderr). */
  log?: (text: string) => void;
  /** Records each pass's time in a tool's phase timer (`triton-translate --mlir-timing`), nested in its running phase. */
  timer?: PhaseTimer;
}

/** Outcome of running a pipeline. */
export interface PassRunResult {
  ok: boolean;
  /** Remarks the passes emitted, then the failure (if any). */
  diagnostics: Diagnostic[];
  reproducer: string | null;
}

interface PassRecord {
  name: string;
  /** The ops a function pass ran on (`tt.func`), for the timing tree; null for a module pass. */
  scope: string | null;
  ms: number;
  stats: Map<string, number>;
}

/** Runs pipelines on modules. */
export class PassManager {
  private readonly records: PassRecord[] = [];
  private readonly log: (text: string) => void;
  private parseMs = 0;
  private outputMs = 0;

  constructor(readonly entries: PipelineEntry[], readonly options: PassManagerOptions = {}) {
    this.log = options.log ?? ((t) => process.stderr.write(t));
  }

  /** Records time spent outside passes (parsing), for the timing report. */
  addParseTime(ms: number): void {
    this.parseMs += ms;
  }

  /** Records time spent printing and writing the result, the report's last row (`Output`, as mlir-opt's). */
  addOutputTime(ms: number): void {
    this.outputMs += ms;
  }

  private header(when: string, name: string): string {
    return `// -----// IR Dump ${when} ${name} //----- //\n`;
  }

  private print(module: Operation): string {
    return printModule(module, this.options.print ?? {});
  }

  private selected(sel: PassSelection | undefined, name: string): boolean {
    return sel === 'all' || (sel instanceof Set && sel.has(name));
  }

  private dumpTree(index: number, name: string, module: Operation): void {
    const dir = this.options.printTreeDir;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${String(index).padStart(2, '0')}_${name}.tir`), this.print(module));
  }

  /** Runs every entry on `module` in order; stops at the first failure. */
  run(module: Operation): PassRunResult {
    const o = this.options;
    const analyses = new AnalysisCache();
    const remarks: Diagnostic[] = [];
    this.dumpTree(0, 'input', module);
    for (let k = 0; k < this.entries.length; k++) {
      const entry = this.entries[k];
      const name = entry.pass.name;
      const reproducersOn = o.reproducerDir !== null || o.reproducerFile !== undefined;
      const needSnapshot = o.printAfterChange || (reproducersOn && !o.reparseInput);
      const before = needSnapshot ? printModule(module, { debugInfo: true }) : '';
      if (this.selected(o.printBefore, name)) this.log(this.header('Before', name) + this.print(module));
      const ctx = new PassContext(entry.pass, entry.options, analyses);
      if (o.debugPatterns || this.selected(o.debugOnly, name))
        ctx.onPatternApplied = (pattern, op) => this.log(`pattern '${pattern}' applied to '${op.name}'${where(op)} in pass '${name}'\n`);
      const t0 = clockMs();
      let current: Operation = module;
      // A compiler bug (an exception a pass did not turn into a diagnostic), as opposed to a located
      // error a pass reports on purpose about its input.
      let internal = false;
      const targets = targetsOf(module, entry);
      const failure = (() => {
        try {
          for (const target of targets) {
            current = target;
            entry.pass.run(target, ctx);
          }
          return null;
        } catch (e) {
          if (e instanceof DiagnosticError) return e.diagnostic.attachNote(`while running pass '${name}'`);
          if (o.debug) throw e;
          const msg = e instanceof Error ? e.message.replace(/^internal error: /, '') : String(e);
          internal = true;
          return new Diagnostic('error', `internal error in pass '${name}' on '${current.name}': ${msg}`, current.srcPos, current.srcPos ? null : locText(current.loc));
        }
      })();
      const ms = clockMs() - t0;
      const stats = new Map(ctx.statistics);
      for (const rw of ctx.rewriters) {
        for (const [key, v] of Object.entries(rw.counts)) if (v) stats.set(`ops-${key}`, (stats.get(`ops-${key}`) ?? 0) + v);
      }
      const scope = targets.length === 1 && targets[0] === module ? null : entry.nest ?? ([...new Set(targets.map((t) => t.name))].sort().join("' | '") || 'function');
      this.records.push({ name, scope, ms, stats });
      o.timer?.add(name, ms);
      remarks.push(...ctx.remarks);
      analyses.invalidate(ctx.preserved);
      const invalid = !failure && o.verifyEach !== false ? verifyDiagnostic(module) : null;
      const problem =
        failure ??
        (invalid ? new Diagnostic('error', `pass '${name}' produced invalid IR: ${invalid.message}`, invalid.pos, invalid.fallbackLoc) : null);
      if (problem) {
        if (o.printAfterFailure) this.log(this.header('After', `${name} Failed`) + this.print(module));
        // A reproducer when asked for one (--crash-reproducer=FILE), or for a compiler bug: an
        // internal error or invalid IR after a pass. A pass's located error about its input writes none.
        const bug = internal || !failure;
        const wanted = o.reproducerFile !== undefined || (bug && o.reproducerDir !== null);
        const snapshot = wanted ? (needSnapshot ? before : this.rebuildBefore(k)) : null;
        const reproducer = snapshot !== null ? this.writeReproducer(snapshot, k) : null;
        if (reproducer) problem.attachNote(`reproducer written to ${reproducer}; re-run it with: triton-opt ${reproducer} --run-reproducer`);
        return { ok: false, diagnostics: [...remarks, problem], reproducer };
      }
      const after = this.selected(o.printAfter, name) || o.printAfterChange ? this.print(module) : '';
      if (this.selected(o.printAfter, name)) this.log(this.header('After', name) + after);
      else if (o.printAfterChange && printModule(module, { debugInfo: true }) !== before) this.log(this.header('After', name) + after);
      this.dumpTree(k + 1, name, module);
    }
    return { ok: true, diagnostics: remarks, reproducer: null };
  }

  /** The IR before pass `k` rebuilt from a fresh input (`reparseInput`), or null when that fails. */
  private rebuildBefore(k: number): string | null {
    try {
      const module = this.options.reparseInput!();
      const prefix = new PassManager(this.entries.slice(0, k), { reproducerDir: null, verifyEach: this.options.verifyEach });
      return prefix.run(module).ok ? printModule(module, { debugInfo: true }) : null;
    } catch {
      return null;
    }
  }

  /** Writes the IR before the failing pass with the rest of the pipeline recorded in it. */
  private writeReproducer(before: string, failed: number): string | null {
    const dir = this.options.reproducerDir ?? tmpdir();
    const path = this.options.reproducerFile ?? join(dir, `triton-opt-reproducer-${process.pid}-${Date.now()}.tir`);
    const pipeline = pipelineText(this.entries.slice(failed));
    const body = before.replace(/\{-#[\s\S]*#-\}\s*$/, '');
    const resource = `{-#\n  external_resources: {\n    mlir_reproducer: {\n      pipeline: "${pipeline}",\n      disable_threading: true,\n      verify_each: true\n    }\n  }\n#-}\n`;
    try {
      if (!this.options.reproducerFile) mkdirSync(dir, { recursive: true });
      writeFileSync(path, body + resource);
      return path;
    } catch {
      return null;
    }
  }

  /** The timing rows as MLIR's tree: consecutive function passes nested under `'tt.func' Pipeline`. */
  private timingTree(): TimingRow[] {
    const rows: TimingRow[] = [];
    for (let k = 0; k < this.records.length; ) {
      const scope = this.records[k].scope;
      if (scope === null) {
        rows.push({ name: this.records[k].name, ms: this.records[k].ms, depth: 0 });
        k++;
        continue;
      }
      let end = k;
      while (end < this.records.length && this.records[end].scope === scope) end++;
      const group = this.records.slice(k, end);
      rows.push({ name: `'${scope}' Pipeline`, ms: group.reduce((a, r) => a + r.ms, 0), depth: 0 });
      for (const r of group) rows.push({ name: r.name, ms: r.ms, depth: 1 });
      k = end;
    }
    return rows;
  }

  /** The `--timing` and `--pass-statistics` reports (empty when neither is on). */
  report(): string {
    let out = '';
    if (this.options.statistics) {
      out += REPORT_RULE + '                         ... Pass statistics report ...\n' + REPORT_RULE;
      for (const r of this.records) {
        out += `'${r.name}'\n`;
        for (const [k, v] of [...r.stats].sort()) out += `  (${k}) ${v}\n`;
      }
    }
    if (this.options.timing) {
      const rows: TimingRow[] = this.parseMs ? [{ name: 'Parser', ms: this.parseMs, depth: 0 }] : [];
      if (this.options.timingDisplay === 'tree') rows.push(...this.timingTree());
      else for (const r of this.records) rows.push({ name: r.name, ms: r.ms, depth: 0 });
      if (this.outputMs) rows.push({ name: 'Output', ms: this.outputMs, depth: 0 });
      out += timingReport(rows);
    }
    return out;
  }
}

/** The ops a pass runs on: the module, or each function-like op (restricted to `nest` when given). */
function targetsOf(module: Operation, entry: PipelineEntry): Operation[] {
  if (entry.pass.anchor === 'module' && !entry.nest) return [module];
  const out: Operation[] = [];
  module.walk((op) => {
    if (entry.nest ? op.name === entry.nest : op.hasTrait(FunctionLike)) {
      out.push(op);
      return false;
    }
  }, 'pre');
  return out;
}

function where(op: Operation): string {
  const p = op.srcPos;
  if (p) {
    const { line, col } = p.source.position(p.offset);
    return ` at ${p.source.name}:${line}:${col}`;
  }
  const t = locText(op.loc);
  return t ? ` at ${t}` : '';
}

/** Parses `pipeline` and runs it on `module` with default instrumentation (for tests and tools). */
export function runPipeline(module: Operation, pipeline: string, options: PassManagerOptions = { reproducerDir: null }): PassRunResult {
  return new PassManager(parsePipeline(pipeline), options).run(module);
}
