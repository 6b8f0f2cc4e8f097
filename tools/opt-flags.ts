/**
 * `triton-opt`'s command line: flags declared for yargs, upstream spellings accepted as aliases
 * (`-split-input-file`, `-pass-pipeline=...`, `-p`, `--mlir-print-ir-after-all`, `--mlir-timing`),
 * and the pass pipeline assembled from `--pipeline=`, `--pass-pipeline=` and per-pass flags
 * (`--cse`, `--convert-to-gpu=num-warps=8`) in command-line order (tools/opt-pass-flags.ts).
 */
import yargs, { type Options } from 'yargs';
import { allPasses } from '../passes/registry.js';
import type { PassSelection } from '../passes/manager.js';
import { UserError } from './input-chunks.js';
import { parseStrictly } from './yargs-strict.js';
import { checkFlags, passNamesOf, readPassFlags } from './opt-pass-flags.js';

/** mlir-opt's marker between `--split-input-file` chunks, in the input and in the output. */
export const DEFAULT_SPLIT_MARKER = '// -----';

/** Everything `triton-opt` was asked to do. */
export interface OptOptions {
  input: string;
  output?: string;
  /** `--force`: `-o` may name the input file. */
  force: boolean;
  printOpGeneric: boolean;
  printDebuginfo: boolean;
  /** `--mlir-print-local-scope`: no alias definitions; attributes and types printed where used. */
  printLocalScope: boolean;
  /** `--mlir-elide-elementsattrs-if-larger=N`: non-splat dense attributes of more than N elements print elided. */
  elideElementsAttrsIfLarger?: number;
  /** `--mlir-print-value-users`: each op's results end with a `// users: ...` comment. */
  printValueUsers: boolean;
  /** `--mlir-print-skip-regions`: regions print as `{...}`. */
  printSkipRegions: boolean;
  /** `--mlir-print-ir-module-scope`: IR dumps show the whole module (they always do here). */
  printIrModuleScope: boolean;
  allowUnregisteredDialect: boolean;
  /** `--split-input-file[=MARKER]`: the marker between chunks, or null when not splitting. */
  splitInputFile: string | null;
  /** `--output-split-marker=MARKER`: what separates the chunks' outputs. */
  outputSplitMarker: string;
  /** `--no-implicit-module`: the input's single top-level op is processed as it is. */
  noImplicitModule: boolean;
  showDialects: boolean;
  /** `--verify-roundtrip`: the parsed input must print and parse back to the same IR. */
  verifyRoundtrip: boolean;
  /** `--mlir-print-op-on-diagnostic`: errors on an op get a note with the op in generic form. */
  printOpOnDiagnostic: boolean;
  verifyDiagnostics: boolean;
  verifyEach: boolean;
  pipeline: string;
  printBefore: PassSelection;
  printAfter: PassSelection;
  printAfterChange: boolean;
  printAfterFailure: boolean;
  printTreeDir?: string;
  timing: boolean;
  /** `--mlir-timing-display`: the timing report as a flat list or as a tree of pipelines. */
  timingDisplay: 'list' | 'tree';
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
  /** `--debug-only=PASSES`: the pattern log (as `--debug-patterns`) of these passes only. */
  debugOnly: PassSelection;
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

/** Rewrites upstream spellings to ours: single-dash long flags, `-p`, `--mlir-*` aliases, `-verify-diagnostics=only-expected`. */
export function normalizeArgs(args: string[]): string[] {
  return args.map((a) => {
    // mlir-opt's long options take one dash or two (`-cse`, `-split-input-file`); one-letter ones (`-o`, `-p`, `-h`) one.
    let s = /^-[A-Za-z][\w.-]+(=|$)/.test(a) ? '-' + a : a;
    if (s === '-p') s = '--pass-pipeline';
    else if (s.startsWith('-p=')) s = '--pass-pipeline' + s.slice(2);
    const m = /^--([\w-]+)(=[\s\S]*)?$/.exec(s);
    if (m && ALIASES[m[1]]) s = `--${ALIASES[m[1]]}${m[2] ?? ''}`;
    if (s === '--verify-diagnostics=only-expected') s = '--verify-diagnostics';
    return s;
  });
}

/**
 * The passes a `--print-ir-after=a,b`-style flag names (given once or repeated: a string or a
 * list; not a yargs array, which would take the input file after it too).
 */
function selection(flag: string, all: boolean, names: unknown): PassSelection {
  if (all) return 'all';
  const given = names === undefined ? [] : Array.isArray(names) ? names.map(String) : [String(names)];
  const list = given.flatMap((n) => n.split(',')).map((n) => n.trim()).filter(Boolean);
  return list.length ? new Set(passNamesOf(flag, list)) : null;
}

/** `--split-input-file=MARKER` (a value only with `=`, as in mlir-opt): taken out before yargs. */
function takeSplitMarker(args: string[]): { marker: string | null; rest: string[] } {
  let marker: string | null = null;
  const rest: string[] = [];
  for (const a of args) {
    const m = /^--split-input-file=([\s\S]*)$/.exec(a);
    if (!m) rest.push(a);
    else if (!m[1].trim()) throw new UserError('--split-input-file=: the marker is empty');
    else marker = m[1];
  }
  return { marker, rest };
}

/** triton-opt's own options, for yargs and for the unknown-flag check. */
const OPTIONS: Record<string, Options> = {
  o: { type: 'string', describe: "output file (default: stdout; '-': stdout)", requiresArg: true },
  force: { type: 'boolean', default: false, describe: 'let -o overwrite the input file' },
  'print-op-generic': { type: 'boolean', default: false, describe: 'print every op in generic form' },
  'print-debuginfo': { type: 'boolean', default: false, describe: 'print locations (loc(...))' },
  'mlir-print-local-scope': { type: 'boolean', default: false, describe: 'print attributes and types where used, without alias definitions' },
  'mlir-elide-elementsattrs-if-larger': { type: 'number', describe: 'print non-splat dense attributes of more than N elements as dense_resource<__elided__>', requiresArg: true },
  'mlir-print-value-users': { type: 'boolean', default: false, describe: 'end each op with a comment listing the users of its results' },
  'mlir-print-skip-regions': { type: 'boolean', default: false, describe: 'print regions as {...}' },
  'mlir-print-ir-module-scope': { type: 'boolean', default: false, describe: 'IR dumps show the whole module (always the case here)' },
  'allow-unregistered-dialect': { type: 'boolean', default: false, describe: 'accept ops, types and attributes of unknown dialects' },
  'split-input-file': { type: 'boolean', default: false, describe: "process each '// -----' chunk separately (--split-input-file=MARKER: another marker)" },
  'output-split-marker': { type: 'string', describe: "what separates the chunks' outputs (default '// -----')", requiresArg: true },
  'implicit-module': { type: 'boolean', default: true, describe: "put the input's top-level ops in a module (--no-implicit-module: process the single top-level op as it is)" },
  'show-dialects': { type: 'boolean', default: false, describe: 'list the registered dialects and exit' },
  'verify-roundtrip': { type: 'boolean', default: false, describe: 'check that the parsed input prints and parses back to the same IR' },
  'mlir-print-op-on-diagnostic': { type: 'boolean', default: false, describe: 'attach the op, in generic form, to errors reported on it' },
  'verify-diagnostics': { type: 'boolean', default: false, describe: "check diagnostics against '// expected-error {{...}}' annotations" },
  'verify-each': { type: 'boolean', default: true, describe: 'verify the IR after parsing and after each pass (--no-verify-each to skip)' },
  pipeline: { type: 'string', describe: "passes to run, e.g. 'canonicalize,cse,licm'", requiresArg: true },
  'pass-pipeline': { type: 'string', alias: 'p', describe: "MLIR spelling: 'builtin.module(cse,tt.func(licm))'", requiresArg: true },
  'print-ir-before': { type: 'string', requiresArg: true, describe: 'print the IR before these passes' },
  'print-ir-after': { type: 'string', requiresArg: true, describe: 'print the IR after these passes' },
  'print-ir-before-all': { type: 'boolean', default: false, describe: 'print the IR before every pass' },
  'print-ir-after-all': { type: 'boolean', default: false, describe: 'print the IR after every pass' },
  'print-ir-after-change': { type: 'boolean', default: false, describe: 'print the IR after passes that changed it' },
  'print-ir-after-failure': { type: 'boolean', default: false, describe: 'print the IR after a failing pass' },
  'print-ir-tree-dir': { type: 'string', describe: 'write the IR after each pass to DIR/NN_pass.tir', requiresArg: true },
  timing: { type: 'boolean', default: false, describe: 'print a per-pass wall time table' },
  'mlir-timing-display': { type: 'string', choices: ['list', 'tree'], default: 'list', describe: 'the timing report as a list or as a tree of pipelines' },
  'pass-statistics': { type: 'boolean', default: false, describe: 'print per-pass counters' },
  'list-passes': { type: 'boolean', default: false, describe: 'list passes with their summaries and options' },
  'list-ops': { type: 'string', describe: 'list ops with their summaries (--list-ops=DIALECT: one dialect)' },
  'dump-pass-pipeline': { type: 'boolean', default: false, describe: 'print the pipeline that will run' },
  'view-op-graph': { type: 'string', describe: 'draw the data-flow graph of each function as SVG to FILE', requiresArg: true },
  'view-op-graph-depth': { type: 'number', describe: 'draw regions down to depth N, collapse deeper ones into their op box (0: collapse every loop body; default: the deepest whose picture fits 4000 px)', requiresArg: true },
  'view-op-graph-func': { type: 'string', describe: 'draw only the function NAME', requiresArg: true },
  'view-op-graph-max-label': { type: 'number', describe: 'cut op names and types longer than N characters (default 32)', requiresArg: true },
  'view-layout': { type: 'string', describe: 'draw the warp/lane/register owner of each element of each tensor layout, and the bank of each element of each shared buffer, as SVG to FILE', requiresArg: true },
  'debug-patterns': { type: 'boolean', default: false, describe: 'log each successful pattern application' },
  'debug-only': { type: 'string', requiresArg: true, describe: 'log the pattern applications of these passes only' },
  debug: { type: 'boolean', default: false, describe: 'show JavaScript stacks for internal errors' },
  'run-reproducer': { type: 'boolean', default: false, describe: 'run the pipeline recorded in the input reproducer' },
  'crash-reproducer': { type: 'string', describe: 'write the reproducer of a failing pass to FILE', requiresArg: true },
};

/** Every spelling `checkFlags` accepts, and those whose value may follow as the next argument. */
function knownFlags(): { known: Set<string>; takesValue: Set<string> } {
  const known = new Set(['help', 'h', 'version']);
  const takesValue = new Set<string>();
  for (const [name, o] of Object.entries(OPTIONS)) {
    known.add(name);
    if (o.alias) known.add(String(o.alias));
    if (o.type === 'boolean') known.add('no-' + name);
    else if (o.requiresArg) {
      takesValue.add(name);
      if (o.alias) takesValue.add(String(o.alias));
    }
  }
  return { known, takesValue };
}

/** The help line of a pass flag: its summary and the Triton spellings it answers to. */
function passHelp(p: { summary: string; aliases?: string[] }): string {
  const also = p.aliases?.length ? ` (also --${p.aliases.join(', --')})` : '';
  return `run pass: ${p.summary}${also}`;
}

/** A whole-number flag value of at least `min`, or undefined when the flag is absent. */
function count(value: number | undefined, flag: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < min) throw new UserError(`--${flag} expects a whole number of at least ${min}`);
  return value;
}

/** Parses `triton-opt`'s arguments (already without `node` and the script). */
export function parseOptArgs(raw: string[]): OptOptions {
  const normalized = normalizeArgs(raw);
  const { pipeline, rest: withoutPasses } = readPassFlags(normalized);
  const { marker, rest: args } = takeSplitMarker(withoutPasses);
  const { known, takesValue } = knownFlags();
  checkFlags(args, known, takesValue);
  let y = yargs(args)
    .scriptName('triton-opt')
    .usage('$0 [file|-] [options]\n\nParses, verifies, transforms and prints Triton IR in MLIR syntax.')
    .options(OPTIONS);
  for (const p of allPasses()) y = y.option(p.name, { type: 'boolean', describe: passHelp(p) });
  const argv = parseStrictly(y);
  const inputs = argv._.map(String);
  if (inputs.length > 1) throw new UserError(`expected at most one input file, got ${inputs.length}`);
  const elide = argv['mlir-elide-elementsattrs-if-larger'] as number | undefined;
  if (elide !== undefined && !(Number.isInteger(elide) && elide >= 0))
    throw new UserError(`--mlir-elide-elementsattrs-if-larger: expected a non-negative integer, got '${elide}'`);
  const debugOnly = selection('debug-only', false, argv['debug-only']);
  return {
    input: inputs[0] ?? '-',
    output: argv.o as string | undefined,
    force: argv.force as boolean,
    printOpGeneric: argv['print-op-generic'] as boolean,
    printDebuginfo: argv['print-debuginfo'] as boolean,
    printLocalScope: argv['mlir-print-local-scope'] as boolean,
    elideElementsAttrsIfLarger: elide,
    printValueUsers: argv['mlir-print-value-users'] as boolean,
    printSkipRegions: argv['mlir-print-skip-regions'] as boolean,
    printIrModuleScope: argv['mlir-print-ir-module-scope'] as boolean,
    allowUnregisteredDialect: argv['allow-unregistered-dialect'] as boolean,
    splitInputFile: marker ?? (argv['split-input-file'] ? DEFAULT_SPLIT_MARKER : null),
    outputSplitMarker: (argv['output-split-marker'] as string | undefined) ?? DEFAULT_SPLIT_MARKER,
    noImplicitModule: !argv['implicit-module'],
    showDialects: argv['show-dialects'] as boolean,
    verifyRoundtrip: argv['verify-roundtrip'] as boolean,
    printOpOnDiagnostic: argv['mlir-print-op-on-diagnostic'] as boolean,
    verifyDiagnostics: argv['verify-diagnostics'] as boolean,
    verifyEach: argv['verify-each'] as boolean,
    pipeline,
    printBefore: selection('print-ir-before', argv['print-ir-before-all'] as boolean, argv['print-ir-before']),
    printAfter: selection('print-ir-after', argv['print-ir-after-all'] as boolean, argv['print-ir-after']),
    printAfterChange: argv['print-ir-after-change'] as boolean,
    printAfterFailure: argv['print-ir-after-failure'] as boolean,
    printTreeDir: argv['print-ir-tree-dir'] as string | undefined,
    timing: argv.timing as boolean,
    timingDisplay: argv['mlir-timing-display'] as 'list' | 'tree',
    passStatistics: argv['pass-statistics'] as boolean,
    listPasses: argv['list-passes'] as boolean,
    listOps: argv['list-ops'] as string | undefined,
    dumpPassPipeline: argv['dump-pass-pipeline'] as boolean,
    viewOpGraph: argv['view-op-graph'] as string | undefined,
    viewOpGraphDepth: count(argv['view-op-graph-depth'] as number | undefined, 'view-op-graph-depth', 0),
    viewOpGraphFunc: argv['view-op-graph-func'] as string | undefined,
    viewOpGraphMaxLabel: count(argv['view-op-graph-max-label'] as number | undefined, 'view-op-graph-max-label', 8),
    viewLayout: argv['view-layout'] as string | undefined,
    debugPatterns: argv['debug-patterns'] as boolean,
    debugOnly,
    debug: argv.debug as boolean,
    runReproducer: argv['run-reproducer'] as boolean,
    crashReproducer: argv['crash-reproducer'] as string | undefined,
  };
}
