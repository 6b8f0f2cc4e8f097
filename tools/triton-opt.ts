#!/usr/bin/env -S node --max-semi-space-size=16
/**
 * `triton-opt`: parses, verifies, transforms (pass pipelines) and prints Triton IR, with
 * mlir-opt's flags for debugging pipelines.
 */
import { registerAllDialects } from '../dialects/index.js';
import { defaultContext } from '../ir/context.js';
import { Diagnostic, DiagnosticError, type SourceFile } from '../ir/diagnostics.js';
import type { Operation } from '../ir/ir.js';
import { parseSourceFile, type ParsedFile } from '../ir/parser.js';
import { printModuleParts, printOpInScope, type PrintOptions } from '../ir/printer.js';
import { verifyDiagnostic } from '../ir/verifier.js';
import { PassManager } from '../passes/manager.js';
import { clockMs } from '../passes/timing.js';
import { parsePipeline, pipelineText, type PipelineEntry } from '../passes/pipeline-text.js';
import { allPasses } from '../passes/registry.js';
import { readInput, runTool, splitInput, UserError } from './input-chunks.js';
import { listOps } from './list-ops.js';
import { simpleOptArgs } from './opt-args-simple.js';
import type { OptOptions } from './opt-flags.js';
import { writeOpGraphSvg } from './op-graph.js';
import { writeLayoutSvg } from './view-layout.js';
import { checkDiagnostics } from './verify-diagnostics.js';
import { checkOutputPath, writeOutput } from './output-file.js';
import { verifyRoundtrip } from './verify-roundtrip.js';

registerAllDialects();

/** Result of processing one chunk: printed text (in consecutive parts) or the diagnostics it raised. */
interface ChunkResult {
  text: string[] | null;
  diagnostics: Diagnostic[];
}

/** The pipeline recorded in a reproducer's `{-# external_resources: { mlir_reproducer: ... } #-}`. */
function reproducerPipeline(resources: string | null): string {
  const m = resources && /mlir_reproducer\s*:\s*\{[\s\S]*?pipeline\s*:\s*"([^"]*)"/.exec(resources);
  if (!m) throw new UserError('--run-reproducer: the input has no mlir_reproducer pipeline in a {-# external_resources #-} section');
  return m[1];
}

/**
 * The op to process: the module, or under `--no-implicit-module` the input's single top-level op
 * as it is (an error when the input has several, or a module pass must run on another op).
 */
function rootOf(parsed: ParsedFile, src: SourceFile, o: OptOptions, pipeline: PipelineEntry[]): Operation {
  if (!o.noImplicitModule || !parsed.implicitModule) return parsed.module;
  const body = parsed.module.region(0).blocks[0];
  const count = body ? body.ops.length : 0;
  if (count !== 1) throw new DiagnosticError(new Diagnostic('error', `source must contain a single top-level operation, found: ${count}`, { source: src, offset: 0 }));
  const root = body.first!;
  root.remove();
  const modulePass = pipeline.find((e) => e.pass.anchor === 'module' && !e.nest);
  if (modulePass) throw new DiagnosticError(new Diagnostic('error', `can't run '${modulePass.pass.name}' (a 'builtin.module' pass) on a '${root.name}' op`, root.srcPos));
  return root;
}

/** The printing flags of the command line. */
function printOptionsOf(o: OptOptions, parsed: ParsedFile): PrintOptions {
  return {
    generic: o.printOpGeneric,
    debugInfo: o.printDebuginfo,
    aliasNames: parsed.aliasNames,
    localScope: o.printLocalScope,
    elideElementsAttrsIfLarger: o.elideElementsAttrsIfLarger,
    valueUsers: o.printValueUsers,
    skipRegions: o.printSkipRegions,
  };
}

/** `--mlir-print-op-on-diagnostic`: errors reported on an op get a note showing the op (generic form). */
function withOp(d: Diagnostic): Diagnostic {
  const op = d.operation as Operation | null;
  if (d.severity !== 'error' || !op) return d;
  return d.attachNote(`see current operation: ${printOpInScope(op, { generic: true })}`, op.srcPos);
}

function processChunk(src: SourceFile, o: OptOptions, entries: PipelineEntry[], reports: PassManager[]): ChunkResult {
  const r = processChunkOf(src, o, entries, reports);
  return o.printOpOnDiagnostic ? { ...r, diagnostics: r.diagnostics.map(withOp) } : r;
}

function processChunkOf(src: SourceFile, o: OptOptions, entries: PipelineEntry[], reports: PassManager[]): ChunkResult {
  try {
    const t0 = clockMs();
    const parsed = parseSourceFile(src, { allowUnregisteredDialect: o.allowUnregisteredDialect });
    const pipeline = o.runReproducer ? parsePipeline(reproducerPipeline(parsed.resources)) : entries;
    const root = rootOf(parsed, src, o, pipeline);
    const d = o.verifyEach ? verifyDiagnostic(root, { allowUnregistered: o.allowUnregisteredDialect }) : null;
    // (the `Parser` row counts the verification after parsing, as mlir-opt's does)
    const parseMs = clockMs() - t0;
    if (d) return { text: null, diagnostics: [d] };
    if (o.verifyRoundtrip) {
      const problem = verifyRoundtrip(root, o.allowUnregisteredDialect);
      if (problem) return { text: null, diagnostics: [problem] };
    }
    const printOptions = printOptionsOf(o, parsed);
    const pm = new PassManager(pipeline, {
      verifyEach: o.verifyEach,
      printBefore: o.printBefore,
      printAfter: o.printAfter,
      printAfterChange: o.printAfterChange,
      printAfterFailure: o.printAfterFailure,
      printTreeDir: o.printTreeDir,
      timing: o.timing,
      statistics: o.passStatistics,
      debugPatterns: o.debugPatterns,
      debugOnly: o.debugOnly,
      timingDisplay: o.timingDisplay,
      debug: o.debug,
      reproducerFile: o.crashReproducer,
      // Reproducers are rebuilt from the source on a failure; no copy of the module per pass.
      reparseInput: () => parseSourceFile(src, { allowUnregisteredDialect: o.allowUnregisteredDialect }).module,
      print: printOptions,
    });
    pm.addParseTime(parseMs);
    reports.push(pm);
    const r = pm.run(root);
    if (!r.ok) return { text: null, diagnostics: r.diagnostics };
    if (o.viewOpGraph) writeOpGraphSvg(root, o.viewOpGraph, { depth: o.viewOpGraphDepth, func: o.viewOpGraphFunc, maxLabel: o.viewOpGraphMaxLabel });
    if (o.viewLayout) writeLayoutSvg(root, o.viewLayout);
    const resources = o.runReproducer ? null : parsed.resources;
    const t1 = clockMs();
    const text = printModuleParts(root, { ...printOptions, resources });
    pm.addOutputTime(clockMs() - t1);
    return { text, diagnostics: r.diagnostics };
  } catch (e) {
    if (e instanceof DiagnosticError) return { text: null, diagnostics: [e.diagnostic] };
    throw e;
  }
}

function listPasses(): string {
  let out = 'Available passes:\n';
  for (const p of allPasses()) {
    const also = p.aliases?.length ? ` (also --${p.aliases.join(', --')})` : '';
    out += `  --${p.name}  -  ${p.summary}${also}\n`;
    for (const [k, d] of Object.entries(p.options ?? {})) out += `      ${k}=<${d.type}> (default ${String(d.default)})  -  ${d.description}\n`;
  }
  return out;
}

/** `--show-dialects`, as mlir-opt prints it. */
function showDialects(): string {
  return `Available Dialects: ${[...defaultContext.dialects.keys()].sort().join(',')}\n`;
}

/** Every file the command line asks to write, with the flag that names it. */
function outputPaths(o: OptOptions): [string, string][] {
  const out: [string, string | undefined][] = [
    ['-o', o.output],
    ['--view-op-graph', o.viewOpGraph],
    ['--view-layout', o.viewLayout],
    ['--crash-reproducer', o.crashReproducer],
  ];
  return out.filter((e): e is [string, string] => e[1] !== undefined);
}

function run(o: OptOptions): number {
  if (o.showDialects) {
    process.stdout.write(showDialects());
    return 0;
  }
  if (o.listPasses) {
    process.stdout.write(listPasses());
    return 0;
  }
  if (o.listOps !== undefined) {
    process.stdout.write(listOps([...defaultContext.dialects.values()], o.listOps || undefined));
    return 0;
  }
  let entries: PipelineEntry[];
  try {
    entries = parsePipeline(o.pipeline);
  } catch (e) {
    if (!(e instanceof DiagnosticError)) throw e;
    process.stderr.write(e.diagnostic.format() + '\n');
    return 1;
  }
  if (o.dumpPassPipeline) process.stderr.write(pipelineText(entries) + '\n');
  for (const [flag, path] of outputPaths(o)) checkOutputPath(flag, path, [o.input], o.force);
  const text = readInput(o.input);
  const chunks = splitInput(o.input === '-' ? '<stdin>' : o.input, text, o.splitInputFile);
  const outputs: string[][] = [];
  const reports: PassManager[] = [];
  let failed = false;
  for (const src of chunks) {
    const r = processChunk(src, o, entries, reports);
    if (o.verifyDiagnostics) {
      const problems = checkDiagnostics(src, r.diagnostics);
      for (const p of problems) process.stderr.write(p + '\n');
      if (problems.length) failed = true;
    } else {
      for (const d of r.diagnostics) process.stderr.write(d.format() + '\n');
      if (r.diagnostics.some((d) => d.severity === 'error')) failed = true;
    }
    if (r.text !== null) outputs.push(r.text);
  }
  // The chunks' texts, separated by the split marker, written part by part (never joined: a large
  // module's text is not held twice). Writing counts in the last chunk's `Output` time.
  const parts = outputs.flatMap((text, k) => (k ? [o.outputSplitMarker + '\n', ...text] : text));
  const t0 = clockMs();
  if (!failed || o.verifyDiagnostics) writeOutput(o.output, parts);
  reports.at(-1)?.addOutputTime(clockMs() - t0);
  for (const pm of reports) {
    const report = pm.report();
    if (report) process.stderr.write(report);
  }
  return failed ? 1 : 0;
}

/**
 * `triton-opt FILE -o OUT` runs at once; any other command line first loads yargs and the passes
 * (loaded on demand: they are most of the start-up of a plain parse and print).
 */
function main(): void | Promise<void> {
  const args = process.argv.slice(2);
  const simple = simpleOptArgs(args);
  if (simple) {
    process.exitCode = run(simple);
    return;
  }
  return Promise.all([import('./opt-flags.js'), import('../passes/all.js')]).then(([flags, passes]) => {
    passes.registerAllPasses();
    process.exitCode = run(flags.parseOptArgs(args));
  });
}

runTool('triton-opt', main, process.argv.includes('--debug'));
