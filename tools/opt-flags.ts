/**
 * `triton-opt`'s command line: flags declared for yargs, upstream spellings accepted as aliases
 * (`-split-input-file`, `-pass-pipeline=...`, `--mlir-print-ir-after-all`, `--mlir-timing`), and
 * the pass pipeline assembled from `--pipeline=`, `--pass-pipeline=` and per-pass flags (`--cse`)
 * in command-line order.
 */
import yargs from 'yargs';
import { allPasses } from '../passes/registry.js';
import type { PassSelection } from '../passes/manager.js';
import { UserError } from './input-chunks.js';

/** Everything `triton-opt` was asked to do. */
export interface OptOptions {
  input: string;
  output?: string;
  printOpGeneric: boolean;
  printDebuginfo: boolean;
  allowUnregisteredDialect: boolean;
  splitInputFile: boolean;
  verifyDiagnostics: boolean;
  verifyEach: boolean;
  pipeline: string;
  printBefore: PassSelection;
  printAfter: PassSelection;
  printAfterChange: boolean;
  printAfterFailure: boolean;
  printTreeDir?: string;
  timing: boolean;
  passStatistics: boolean;
  listPasses: boolean;
  /** `--list-ops`: '' for every dialect, else the dialect to list; undefined when not asked. */
  listOps?: string;
  dumpPassPipeline: boolean;
  viewOpGraph?: string;
  /** `--view-op-graph-depth`, `-func`, `-max-label` (tools/op-graph.ts's OpGraphOptions). */
  viewOpGraphDepth?: number;
  viewOpGraphFunc?: string;
  viewOpGraphMaxLabel?: number;
  viewLayout?: string;
  debugPatterns: boolean;
  debug: boolean;
  runReproducer: boolean;
  crashReproducer?: string;
}

/** mlir-opt spellings and their names here. */
const ALIASES: Record<string, string> = {
  'mlir-print-ir-after-all': 'print-ir-after-all',
  'mlir-print-ir-before-all': 'print-ir-before-all',
  'mlir-print-ir-after': 'print-ir-after',
  'mlir-print-ir-before': 'print-ir-before',
  'mlir-print-ir-after-change': 'print-ir-after-change',
  'mlir-print-ir-after-failure': 'print-ir-after-failure',
  'mlir-print-ir-tree-dir': 'print-ir-tree-dir',
  'mlir-timing': 'timing',
  'mlir-pass-statistics': 'pass-statistics',
  'mlir-print-debuginfo': 'print-debuginfo',
  'mlir-print-op-generic': 'print-op-generic',
  'mlir-pass-pipeline-crash-reproducer': 'crash-reproducer',
};

/** Rewrites upstream spellings to ours: single-dash long flags, `--mlir-*` aliases, `-verify-diagnostics=only-expected`. */
export function normalizeArgs(args: string[]): string[] {
  return args.map((a) => {
    let s = /^-[a-z][a-z0-9]*-[\w-]/.test(a) || /^-(pass-pipeline|split-input-file|verify-diagnostics|allow-unregistered-dialect)/.test(a) ? '-' + a : a;
    const m = /^--([\w-]+)(=.*)?$/.exec(s);
    if (m && ALIASES[m[1]]) s = `--${ALIASES[m[1]]}${m[2] ?? ''}`;
    if (s === '--verify-diagnostics=only-expected') s = '--verify-diagnostics';
    return s;
  });
}

/** The pipeline text from `--pipeline`, `--pass-pipeline` and pass flags, in command-line order. */
export function pipelineFromArgs(args: string[]): string {
  const passNames = new Set(allPasses().map((p) => p.name));
  const parts: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    const m = /^--(pipeline|pass-pipeline)(?:=(.*))?$/.exec(a);
    if (m) {
      const value = m[2] ?? args[++k];
      if (value === undefined) throw new UserError(`--${m[1]} needs a pipeline`);
      parts.push(value);
      continue;
    }
    const flag = /^--([\w-]+)$/.exec(a)?.[1];
    if (flag && passNames.has(flag)) parts.push(flag);
  }
  return parts.filter((p) => p.trim()).join(',');
}

function selection(all: boolean, names: string[] | undefined): PassSelection {
  if (all) return 'all';
  const list = (names ?? []).flatMap((n) => n.split(',')).map((n) => n.trim()).filter(Boolean);
  return list.length ? new Set(list) : null;
}

/** A whole-number flag value of at least `min`, or undefined when the flag is absent. */
function count(value: number | undefined, flag: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < min) throw new UserError(`--${flag} expects a whole number of at least ${min}`);
  return value;
}

/** Parses `triton-opt`'s arguments (already without `node` and the script). */
export function parseOptArgs(raw: string[]): OptOptions {
  const args = normalizeArgs(raw);
  let y = yargs(args)
    .scriptName('triton-opt')
    .usage('$0 [file|-] [options]\n\nParses, verifies, transforms and prints Triton IR in MLIR syntax.')
    .option('o', { type: 'string', describe: 'output file (default: stdout)', requiresArg: true })
    .option('print-op-generic', { type: 'boolean', default: false, describe: 'print every op in generic form' })
    .option('print-debuginfo', { type: 'boolean', default: false, describe: 'print locations (loc(...))' })
    .option('allow-unregistered-dialect', { type: 'boolean', default: false, describe: 'accept ops, types and attributes of unknown dialects' })
    .option('split-input-file', { type: 'boolean', default: false, describe: "process each '// -----' chunk separately" })
    .option('verify-diagnostics', { type: 'boolean', default: false, describe: "check diagnostics against '// expected-error {{...}}' annotations" })
    .option('verify-each', { type: 'boolean', default: true, describe: 'verify the IR after parsing and after each pass (--no-verify-each to skip)' })
    .option('pipeline', { type: 'string', describe: "passes to run, e.g. 'canonicalize,cse,licm'", requiresArg: true })
    .option('pass-pipeline', { type: 'string', describe: "MLIR spelling: 'builtin.module(cse,tt.func(licm))'", requiresArg: true })
    .option('print-ir-before', { type: 'string', array: true, describe: 'print the IR before these passes' })
    .option('print-ir-after', { type: 'string', array: true, describe: 'print the IR after these passes' })
    .option('print-ir-before-all', { type: 'boolean', default: false, describe: 'print the IR before every pass' })
    .option('print-ir-after-all', { type: 'boolean', default: false, describe: 'print the IR after every pass' })
    .option('print-ir-after-change', { type: 'boolean', default: false, describe: 'print the IR after passes that changed it' })
    .option('print-ir-after-failure', { type: 'boolean', default: false, describe: 'print the IR after a failing pass' })
    .option('print-ir-tree-dir', { type: 'string', describe: 'write the IR after each pass to DIR/NN_pass.tir', requiresArg: true })
    .option('timing', { type: 'boolean', default: false, describe: 'print a per-pass wall time table' })
    .option('pass-statistics', { type: 'boolean', default: false, describe: 'print per-pass counters' })
    .option('list-passes', { type: 'boolean', default: false, describe: 'list passes with their summaries and options' })
    .option('list-ops', { type: 'string', describe: 'list ops with their summaries (--list-ops=DIALECT: one dialect)' })
    .option('dump-pass-pipeline', { type: 'boolean', default: false, describe: 'print the pipeline that will run' })
    .option('view-op-graph', { type: 'string', describe: 'draw the data-flow graph of each function as SVG to FILE', requiresArg: true })
    .option('view-op-graph-depth', { type: 'number', describe: 'draw regions down to depth N, collapse deeper ones into their op box (0: collapse every loop body; default: the deepest whose picture fits 4000 px)', requiresArg: true })
    .option('view-op-graph-func', { type: 'string', describe: 'draw only the function NAME', requiresArg: true })
    .option('view-op-graph-max-label', { type: 'number', describe: 'cut op names and types longer than N characters (default 32)', requiresArg: true })
    .option('view-layout', { type: 'string', describe: 'draw the warp/lane/register owner of each element of each tensor layout, and the bank of each element of each shared buffer, as SVG to FILE', requiresArg: true })
    .option('debug-patterns', { type: 'boolean', default: false, describe: 'log each successful pattern application' })
    .option('debug', { type: 'boolean', default: false, describe: 'show JavaScript stacks for internal errors' })
    .option('run-reproducer', { type: 'boolean', default: false, describe: 'run the pipeline recorded in the input reproducer' })
    .option('crash-reproducer', { type: 'string', describe: 'write the reproducer of a failing pass to FILE', requiresArg: true });
  for (const p of allPasses()) y = y.option(p.name, { type: 'boolean', describe: `run pass: ${p.summary}` });
  const argv = y
    .strictOptions()
    .version('0.1.0')
    .help()
    .wrap(Math.min(120, process.stdout.columns ?? 100))
    .fail((msg, err) => {
      throw new UserError(err?.message ?? msg);
    })
    .parseSync();
  const inputs = argv._.map(String);
  if (inputs.length > 1) throw new UserError(`expected at most one input file, got ${inputs.length}`);
  return {
    input: inputs[0] ?? '-',
    output: argv.o,
    printOpGeneric: argv['print-op-generic'],
    printDebuginfo: argv['print-debuginfo'],
    allowUnregisteredDialect: argv['allow-unregistered-dialect'],
    splitInputFile: argv['split-input-file'],
    verifyDiagnostics: argv['verify-diagnostics'],
    verifyEach: argv['verify-each'],
    pipeline: pipelineFromArgs(args),
    printBefore: selection(argv['print-ir-before-all'], argv['print-ir-before']),
    printAfter: selection(argv['print-ir-after-all'], argv['print-ir-after']),
    printAfterChange: argv['print-ir-after-change'],
    printAfterFailure: argv['print-ir-after-failure'],
    printTreeDir: argv['print-ir-tree-dir'],
    timing: argv.timing,
    passStatistics: argv['pass-statistics'],
    listPasses: argv['list-passes'],
    listOps: argv['list-ops'],
    dumpPassPipeline: argv['dump-pass-pipeline'],
    viewOpGraph: argv['view-op-graph'],
    viewOpGraphDepth: count(argv['view-op-graph-depth'], 'view-op-graph-depth', 0),
    viewOpGraphFunc: argv['view-op-graph-func'],
    viewOpGraphMaxLabel: count(argv['view-op-graph-max-label'], 'view-op-graph-max-label', 8),
    viewLayout: argv['view-layout'],
    debugPatterns: argv['debug-patterns'],
    debug: argv.debug,
    runReproducer: argv['run-reproducer'],
    crashReproducer: argv['crash-reproducer'],
  };
}
