/**
 * The fuzz targets: what one input goes through, in-process, with the same entry points the
 * CLI tools use (`triton-opt`'s parse, verify, print and pass manager; `triton-translate`'s
 * `compileToPtx` and `compileTritonC`). Each returns the input's `Outcome`; nothing here writes
 * files (reproducers of the pass manager are turned off).
 */
import { registerAllDialects } from '../../dialects/index.js';
import { DiagnosticError, SourceFile } from '../../ir/diagnostics.js';
import type { Operation } from '../../ir/ir.js';
import { parseSourceFile } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { verifyDiagnostic } from '../../ir/verifier.js';
import { compileTritonC } from '../../frontend/triton-c/index.js';
import { registerAllPasses } from '../../passes/all.js';
import { runPipeline } from '../../passes/manager.js';
import { compileToPtx, targetFor, type Arch } from '../../targets/nvptx/index.js';
import { classifyDiagnostic, classifyError, type Outcome } from './outcome.js';

/** The names of the fuzz targets. */
export type TargetName = 'parser' | 'passes' | 'ptx' | 'frontend';

/** Every target, in the order a campaign without `--target` runs them. */
export const TARGET_NAMES: readonly TargetName[] = ['parser', 'passes', 'ptx', 'frontend'];

/** The file name diagnostics give the input. */
export const INPUT_NAME = 'fuzz-input';

/** The architectures the `passes` and `ptx` targets compile for (each input, both). */
const ARCHES: readonly Arch[] = ['sm_90a', 'sm_80'];

/** A fuzz target: its input language and how one input is run. */
export interface FuzzTarget {
  name: TargetName;
  /** The reproducer's file extension. */
  extension: 'tir' | 'tc';
  /** Whether a corpus file is input for this target (by its path). */
  accepts(path: string): boolean;
  /** Runs one input; never throws (every exception is classified). */
  run(text: string): Outcome;
}

let registered = false;

/** Loads every dialect and pass once (what the CLIs do at start-up). */
function registerOnce(): void {
  if (registered) return;
  registerAllDialects();
  registerAllPasses();
  registered = true;
}

const SUCCESS: Outcome = { class: 'success', message: '' };

/** A thrown failure carrying an outcome (a diagnostic that is not an exception, or a bug found by a check). */
class OutcomeError extends Error {
  constructor(readonly outcome: Outcome) {
    super(outcome.message);
  }
}

/** Runs `body`, classifying whatever it throws. */
function guarded(body: () => void): Outcome {
  registerOnce();
  try {
    body();
    return SUCCESS;
  } catch (e) {
    if (e instanceof OutcomeError) return e.outcome;
    return classifyError(e);
  }
}

/** Parses and verifies IR text as `triton-opt` does; a rejection is thrown as its outcome. */
function parseAndVerify(text: string): Operation {
  const parsed = parseSourceFile(new SourceFile(INPUT_NAME, text));
  const d = verifyDiagnostic(parsed.module);
  if (d) throw new OutcomeError(classifyDiagnostic(d));
  return parsed.module;
}

/** Runs a pipeline with the pass manager (no reproducer files); a failure is thrown as its outcome. */
function runPipelineOrThrow(module: Operation, pipeline: string): void {
  const r = runPipeline(module, pipeline, { reproducerDir: null, log: () => {} });
  if (!r.ok) throw new OutcomeError(classifyDiagnostic(r.diagnostics[r.diagnostics.length - 1]));
}

const IR_FILE = /\.(tir|ttir|ttgir|mlir)$/;

/** `parser`: parse, verify, print, and re-parse the printed text (a round trip that fails is a bug). */
const parserTarget: FuzzTarget = {
  name: 'parser',
  extension: 'tir',
  accepts: (path) => IR_FILE.test(path),
  run: (text) =>
    guarded(() => {
      const printed = printModule(parseAndVerify(text));
      try {
        parseAndVerify(printed);
      } catch (e) {
        const o = e instanceof OutcomeError ? e.outcome : classifyError(e);
        throw new OutcomeError({ class: 'internal', message: `round trip: the printed IR does not parse back: ${o.message}\nthe printed IR:\n${printed}` });
      }
    }),
};

/** `passes`: parse, verify, then `default{arch=A num-warps=4}` for sm_90a and for sm_80 (a fresh parse each). */
const passesTarget: FuzzTarget = {
  name: 'passes',
  extension: 'tir',
  accepts: (path) => IR_FILE.test(path),
  run: (text) =>
    guarded(() => {
      for (const arch of ARCHES) runPipelineOrThrow(parseAndVerify(text), `default{arch=${arch} num-warps=4}`);
    }),
};

/** `ptx`: parse, verify, `compileToPtx` for sm_90a and for sm_80 with 4 warps (as `triton-translate --to-ptx`). */
const ptxTarget: FuzzTarget = {
  name: 'ptx',
  extension: 'tir',
  accepts: (path) => IR_FILE.test(path),
  run: (text) =>
    guarded(() => {
      for (const arch of ARCHES) compileToPtx(parseAndVerify(text), { target: targetFor(arch, 4), residencyHint: true });
    }),
};

/** Definitions used where an input's RUN/FUZZ lines give none (what the seed kernels need). */
const DEFAULT_DEFINES: Record<string, string> = { TYPE: 'float', TM: '64', TN: '64', TK: '16', BLOCK: '1024' };

/**
 * The `-D` definitions of a Triton-C input, read from its own `// RUN:` or `// FUZZ:` lines (so a
 * reproducer carries them), over `DEFAULT_DEFINES`. A list (`-DTM=[32, 64]`) gives its first value.
 */
export function definesOf(text: string): Record<string, string> {
  const defines = { ...DEFAULT_DEFINES };
  for (const line of text.split('\n')) {
    if (!/^\s*\/\/\s*(RUN|FUZZ):/.test(line)) continue;
    for (const m of line.matchAll(/-D([A-Za-z_]\w*)(?:=(\[[^\]]*\]|'[^']*'|"[^"]*"|\S+))?/g)) {
      let value = (m[2] ?? '1').replace(/^['"]|['"]$/g, '');
      if (value.startsWith('[')) value = value.slice(1, -1).split(',')[0].trim();
      defines[m[1]] = value;
    }
  }
  return defines;
}

/** `frontend`: Triton-C through the preprocessor, parser, semantic checks and IR generation, verify, then `default` for sm_80. */
const frontendTarget: FuzzTarget = {
  name: 'frontend',
  extension: 'tc',
  accepts: (path) => path.endsWith('.tc'),
  run: (text) =>
    guarded(() => {
      const module = compileTritonC(text, INPUT_NAME, definesOf(text));
      const d = verifyDiagnostic(module);
      if (d) throw new DiagnosticError(d);
      runPipelineOrThrow(module, 'default{arch=sm_80 num-warps=4}');
    }),
};

/** The targets by name. */
export const TARGETS: Readonly<Record<TargetName, FuzzTarget>> = {
  parser: parserTarget,
  passes: passesTarget,
  ptx: ptxTarget,
  frontend: frontendTarget,
};

/** Whether `name` is a target's name. */
export function isTargetName(name: string): name is TargetName {
  return (TARGET_NAMES as readonly string[]).includes(name);
}
