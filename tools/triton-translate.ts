#!/usr/bin/env -S node --max-semi-space-size=16
/**
 * `triton-translate`: translations into and out of Triton IR. In: `--from-c` (Triton-C with `-D`
 * definitions and autotuning lists: `--list-variants`, `--variant N`, `--all-variants DIR`). Out:
 * the IR (default), `--to-mlir` (upstream MLIR generic syntax for builtin/func/arith/math/scf/cf,
 * for `mlir-opt`), `--to-ptx` (PTX for sm_80 or sm_90a, from tt IR or ttg IR, with
 * `--emit-metadata` for the launcher, `--emit-ttgir` for the ttg IR the PTX comes from and
 * `--via-llvm` for LLVM's PTX through llc-14), `--to-nvptx-ir` (the nvptx dialect before printing)
 * and `--to-llvm` (LLVM IR verified by LLVM, `docs/llvm.md`).
 */
import { compileTritonC, type FrontendOptions } from '../frontend/triton-c/index.js';
import { describeVariant, parseDefines, variants, type ParsedDefines } from '../frontend/triton-c/autotune.js';
import { registerAllDialects } from '../dialects/index.js';
import { registerAllPasses } from '../passes/all.js';
import { Diagnostic, DiagnosticError, SourceFile } from '../ir/diagnostics.js';
import type { Operation } from '../ir/ir.js';
import { parseSourceFile } from '../ir/parser.js';
import { printModule } from '../ir/printer.js';
import { opError, verifyDiagnostic } from '../ir/verifier.js';
import { readInput, runTool, UserError } from './input-chunks.js';
import { PhaseTimer, timed } from '../passes/timing.js';
import { checkOutputPath, writeOutput } from './output-file.js';
import { ARCHES, compileToPtx, metadataJson, targetFor, type Arch, type PtxResult } from '../targets/nvptx/index.js';
import type { GpuTarget } from '../dialects/ttg/target.js';
import { compileSpace, isVariantWorker, serveVariants, type Translate } from './variants.js';
import { simpleTranslateArgs, type TranslateArgv } from './translate-options.js';
import { LLC_CPU, LlcUnavailable, LlvmUnavailable, isNvptxModule, ptxViaLlvm, translateToLlvm } from '../targets/llvm/index.js';

registerAllDialects();
registerAllPasses();

/** Options of the target translations. */
interface TargetArgs {
  arch?: string;
  'num-warps'?: number;
  'emit-metadata'?: string;
  'emit-ttgir'?: string;
  'residency-hint'?: boolean;
  'via-llvm'?: boolean;
  'emit-bitcode'?: string;
  o?: string;
  _?: (string | number)[];
}

/** Runs an LLVM step, turning a missing llvm-bindings or llc into the user's error. */
function withLlvm(args: TargetArgs, step: () => string): string {
  if (archOf(args) !== LLC_CPU) throw new UserError(`--to-llvm and --via-llvm compile for ${LLC_CPU} (LLVM 14's NVPTX backend stops at sm_86), not --arch=${args.arch}`);
  try {
    return step();
  } catch (e) {
    if (e instanceof LlvmUnavailable || e instanceof LlcUnavailable) throw new UserError(e.message);
    throw e;
  }
}

/** The input's name as LLVM records it. */
const inputName = (args: TargetArgs): string => String(args._?.[0] ?? '<stdin>');

/** Runs the NVPTX target on `module` with the command line's options, writing metadata when asked. */
function compileForTarget(module: Operation, args: TargetArgs, timer?: PhaseTimer): PtxResult {
  const arch = archOf(args);
  const r = compileToPtx(module, { target: targetOf(args, arch), residencyHint: args['residency-hint'] !== false, timer });
  if (args['emit-metadata']) writeOutput(args['emit-metadata'], metadataJson(r.kernels, arch));
  if (args['emit-ttgir']) writeOutput(args['emit-ttgir'], printModule(module));
  return r;
}

/** A translation from a verified module to text. */
interface Translation {
  flag: string;
  summary: string;
  /** The translation of `module`; `timer` (`--mlir-timing`) times its phases. */
  run(module: Operation, args: TargetArgs, timer?: PhaseTimer): string;
}

/** The checked `--arch` value. */
function archOf(args: TargetArgs): Arch {
  const a = args.arch ?? 'sm_80';
  if (!(ARCHES as readonly string[]).includes(a)) throw new UserError(`--arch=${a} is not supported; choose one of ${ARCHES.join(', ')}`);
  return a as Arch;
}

/** The target the command line describes, built once (`--arch`, `--num-warps`); the target object checks the values. */
function targetOf(args: TargetArgs, arch: Arch): GpuTarget {
  try {
    return targetFor(arch, args['num-warps']);
  } catch (e) {
    throw new UserError(`--num-warps=${args['num-warps']}: ${(e as Error).message}`);
  }
}

const UPSTREAM = new Set(['builtin', 'func', 'arith', 'math', 'scf', 'cf']);

/** Every translation this tool offers, one entry per output format. */
const TRANSLATIONS: Translation[] = [
  {
    flag: 'to-mlir',
    summary: 'upstream MLIR generic syntax (builtin, func, arith, math, scf, cf only), readable by mlir-opt',
    run(module, _args, timer) {
      module.walk((op) => {
        if (!UPSTREAM.has(op.dialect)) throw new DiagnosticError(opError(op, `is not in an upstream MLIR dialect; --to-mlir accepts ${[...UPSTREAM].join(', ')}`));
      }, 'pre');
      return timed(timer, 'Printer', () => printModule(module, { generic: true }));
    },
  },
  {
    flag: 'to-ptx',
    summary: 'PTX for --arch (sm_80 or sm_90a), after running the default pipeline on tt-level input',
    run: (module, args, timer) => {
      const r = compileForTarget(module, args, timer);
      return args['via-llvm'] ? timed(timer, 'LLVM (llc)', () => withLlvm(args, () => ptxViaLlvm(r.nvptx, inputName(args)))) : r.ptx;
    },
  },
  {
    flag: 'to-llvm',
    summary: 'LLVM IR (NVVM IR for nvptx64-nvidia-cuda, sm_80) of tt/ttg input or of the nvptx dialect (--to-nvptx-ir), verified by LLVM; needs the optional llvm-bindings (npm run setup:llvm)',
    run(module, args, timer) {
      const nvptx = isNvptxModule(module) ? module : compileForTarget(module, args, timer).nvptx;
      const text = timed(timer, 'LLVM IR', () =>
        withLlvm(args, () => translateToLlvm(nvptx, { arch: LLC_CPU, sourceName: inputName(args), bitcodePath: args['emit-bitcode'] })),
      );
      return args['emit-bitcode'] && !args.o ? '' : text;
    },
  },
  {
    flag: 'to-nvptx-ir',
    summary: 'the nvptx dialect the PTX is printed from (for debugging the target)',
    run: (module, args, timer) => {
      const nvptx = compileForTarget(module, args, timer).nvptx;
      return timed(timer, 'Printer', () => printModule(nvptx));
    },
  },
];

/** Runs the translation named `flag` (for the variant compiler, `tools/variants.ts`). */
const translateByFlag: Translate = (module, flag, args) => TRANSLATIONS.find((t) => t.flag === flag)!.run(module, args as TargetArgs);

/** Splits `-D` definitions (a list split by the shell, `-DTM=[32, 64]`, is rejoined) from the other arguments. */
function splitDefines(argv: string[]): { defines: string[]; rest: string[] } {
  const defines: string[] = [];
  const rest: string[] = [];
  for (let k = 0; k < argv.length; k++) {
    if (!argv[k].startsWith('-D')) {
      rest.push(argv[k]);
      continue;
    }
    defines.push(argv[k]);
    let depth = bracketDepth(argv[k]);
    while (depth > 0 && k + 1 < argv.length) {
      defines.push(argv[++k]);
      depth += bracketDepth(argv[k]);
    }
  }
  return { defines, rest };
}

function bracketDepth(s: string): number {
  let d = 0;
  for (const c of s) d += c === '[' ? 1 : c === ']' ? -1 : 0;
  return d;
}

/** `--from-c`: one variant to stdout/-o, all variants to a folder, or the list of variants. */
function fromC(
  source: SourceFile,
  parsed: ParsedDefines,
  argv: TargetArgs & { o?: string; variant?: number; 'all-variants'?: string; 'list-variants'?: boolean; 'allow-tf32'?: boolean },
  translation: Translation | undefined,
  timer: PhaseTimer | undefined,
): Promise<void> | void {
  const all = variants(parsed);
  const options: FrontendOptions = { allowTf32: argv['allow-tf32'] };
  if (argv['list-variants']) {
    all.forEach((v, k) => process.stdout.write(`${k}: ${describeVariant(parsed, v) || '(no -D lists)'}\n`));
    return;
  }
  if (argv['all-variants']) {
    if (timer) throw new UserError('--mlir-timing times one compile; pick a variant with --variant=N');
    const workerUrl = import.meta.url.endsWith('.ts') ? null : import.meta.url; // workers run the bundle
    return compileSpace({ dir: argv['all-variants'], source, parsed, flag: translation?.flag ?? null, args: { ...argv }, options, workerUrl, translate: translateByFlag });
  }
  if (all.length > 1 && argv.variant === undefined)
    throw new UserError(`the -D lists define ${all.length} variants; pick one with --variant=N (see --list-variants) or compile all with --all-variants=DIR`);
  const k = argv.variant ?? 0;
  if (!Number.isInteger(k) || k < 0 || k >= all.length) throw new UserError(`--variant=${k} is out of range: there are ${all.length} variants (0..${all.length - 1})`);
  const module = timed(timer, 'Triton-C frontend', () => compileTritonC(source.text, source.name, all[k], options));
  const d = timed(timer, 'Verifier', () => verifyDiagnostic(module));
  if (d) throw new DiagnosticError(d);
  const text = translation ? translation.run(module, argv, timer) : timed(timer, 'Printer', () => printModule(module));
  timed(timer, 'Output', () => writeOutput(argv.o, text));
}

/** Checks every file the command line asks to write (`-o`, `--emit-metadata`, `--emit-ttgir`) before any work. */
function checkOutputs(argv: TargetArgs & { o?: string; force?: boolean }, inputs: readonly string[]): void {
  const paths: [string, string | undefined][] = [['-o', argv.o], ['--emit-metadata', argv['emit-metadata']], ['--emit-ttgir', argv['emit-ttgir']]];
  for (const [flag, path] of paths) if (path !== undefined) checkOutputPath(flag, path, inputs, argv.force === true);
}

/** The command line read: without yargs when it is a common one, else by yargs (loaded then). */
function readArgs(rest: string[]): TranslateArgv | Promise<TranslateArgv> {
  const flags = TRANSLATIONS.map((t) => t.flag);
  return simpleTranslateArgs(rest, flags) ?? import('./translate-flags.js').then((m) => m.parseTranslateArgs(rest, TRANSLATIONS));
}

function main(): Promise<void> | void {
  const { defines, rest } = splitDefines(process.argv.slice(2));
  const argv = readArgs(rest);
  return argv instanceof Promise ? argv.then((a) => translate(a, defines)) : translate(argv, defines);
}

/** Runs the command line `argv` (with its -D definitions); with `--mlir-timing`, reports the phases' times on stderr at the end. */
function translate(argv: TranslateArgv, defines: string[]): Promise<void> | void {
  const timer = argv['mlir-timing'] ? new PhaseTimer() : undefined;
  const done = translateTimed(argv, defines, timer);
  if (!timer) return done;
  const report = () => void process.stderr.write(timer.report());
  if (done instanceof Promise) return done.finally(report);
  report();
}

/** `translate`'s work, each phase timed in `timer` when there is one. */
function translateTimed(argv: TranslateArgv, defines: string[], timer: PhaseTimer | undefined): Promise<void> | void {
  if (argv['list-translations']) {
    for (const t of TRANSLATIONS) process.stdout.write(`--${t.flag}\t${t.summary}\n`);
    return;
  }
  const chosen = TRANSLATIONS.filter((t) => argv[t.flag]);
  if (argv['via-llvm'] && !argv['to-ptx']) throw new UserError('--via-llvm goes with --to-ptx');
  if (argv['emit-bitcode'] && !argv['to-llvm']) throw new UserError('--emit-bitcode goes with --to-llvm');
  if (argv['from-c']) {
    const inputs = argv._.map(String);
    if (inputs.length !== 1) throw new UserError('--from-c needs exactly one input file');
    checkOutputs(argv, inputs);
    const source = new SourceFile(inputs[0], readInput(inputs[0]));
    try {
      if (chosen.length > 1) throw new UserError(`choose at most one translation with --from-c`);
      return fromC(source, parseDefines(defines), argv, chosen[0], timer);
    } catch (e) {
      if (!(e instanceof DiagnosticError)) throw e;
      process.stderr.write(e.diagnostic.format() + '\n');
      process.exitCode = 1;
    }
    return;
  }
  if (defines.length) throw new UserError('-D definitions need --from-c');
  if (argv['allow-tf32']) throw new UserError('--allow-tf32 needs --from-c (tt IR says its precision on each tt.dot)');
  if (chosen.length !== 1)
    throw new UserError(`choose exactly one translation (${TRANSLATIONS.map((t) => '--' + t.flag).join(', ')}); see --list-translations`);
  const inputs = argv._.map(String);
  if (inputs.length > 1) throw new UserError(`expected at most one input file, got ${inputs.length}`);
  const input = inputs[0] ?? '-';
  checkOutputs(argv, [input]);
  const source = new SourceFile(input === '-' ? '<stdin>' : input, readInput(input));
  const allow = argv['allow-unregistered-dialect'];
  const diag = (d: Diagnostic) => {
    process.stderr.write(d.format() + '\n');
    process.exitCode = 1;
  };
  try {
    const parsed = timed(timer, 'Parser', () => parseSourceFile(source, { allowUnregisteredDialect: allow }));
    const d = timed(timer, 'Verifier', () => verifyDiagnostic(parsed.module, { allowUnregistered: allow }));
    if (d) return diag(d);
    const text = chosen[0].run(parsed.module, argv, timer);
    timed(timer, 'Output', () => writeOutput(argv.o, text));
  } catch (e) {
    if (e instanceof DiagnosticError) return diag(e.diagnostic);
    throw e;
  }
}

if (isVariantWorker()) serveVariants(translateByFlag);
else runTool('triton-translate', main, process.argv.includes('--debug'));
