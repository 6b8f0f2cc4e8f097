/**
 * Differential testing of the passes: each generated kernel (generate.ts) runs in the CPU
 * interpreter as generated (the reference) and after pipelines of passes, on the same seeded
 * inputs, and every output buffer must agree (docs/fuzzing.md, "Differential testing").
 */
import type { Operation } from '../../ir/ir.js';
import { parseText } from '../../ir/parser.js';
import { verifyDiagnostic } from '../../ir/verifier.js';
import { runPipeline } from '../../passes/manager.js';
import { rng } from '../interpreter/cli.js';
import { interpret } from '../interpreter/interpreter.js';
import { Memory } from '../interpreter/memory.js';
import { generateKernel, type GeneratedKernel } from './generate.js';

/** The warp counts every kernel is compiled for. */
export const WARPS = [1, 2, 4, 8] as const;

/** The passes that choose and change layouts, as the default pipeline runs them (sm_90a). */
export const layoutPipeline = (warps: number): string =>
  `canonicalize,cse,convert-to-gpu{num-warps=${warps} target=cuda:90},coalesce{mask-aligned=true},mma-lowering,remove-layout-conversions,canonicalize,cse,licm`;

/** The whole default pipeline (software pipelining, shared memory, barriers included). */
export const defaultPipeline = (warps: number): string => `default{arch=sm_90a num-warps=${warps}}`;

/** Every pipeline a kernel is compiled with: a name and its text. */
export function pipelines(): [name: string, text: string][] {
  return WARPS.flatMap((w) => [[`layout-w${w}`, layoutPipeline(w)], [`default-w${w}`, defaultPipeline(w)]] as [string, string][]);
}

/** The sentinel output buffers start with, so that a store outside the mask shows. */
const SENTINEL = -7;

/** Runs `module` on fresh buffers from `seed`; returns each output buffer's contents. */
export function execute(module: Operation, k: GeneratedKernel, seed: number): number[][] {
  const random = rng(seed);
  const mem = new Memory();
  const outs: number[][] = [];
  const bufs = k.buffers.map((spec) => {
    const buf = mem.alloc(spec.elt, spec.size, spec.name);
    if (spec.role === 'out') buf.fill(() => SENTINEL);
    else if (spec.elt === 'i32') buf.fill(() => Math.floor(random() * 200) - 100);
    else buf.fill(() => random() * 4 - 2);
    return buf;
  });
  interpret(module, k.name, { grid: k.grid, args: [...bufs, ...k.scalars], memory: mem, maxOps: 5e6 });
  k.buffers.forEach((spec, n) => spec.role === 'out' && outs.push(bufs[n].toNumbers()));
  return outs;
}

/**
 * The relative tolerance for float outputs of kernels with a reduction or a dot: a pass may change
 * the order of a sum (f32, at most 256 terms of a reduction, 64 of a dot, times 3 loop trips), whose
 * rounding error is below n * 2^-24 of the sum of magnitudes, ~1e-5 of the buffer's scale here.
 */
export const REASSOC_TOLERANCE = 1e-4;

/** Whether `got` equals `want`: exactly (NaN equals NaN), or within the tolerance relative to the buffer's scale. */
export function compareBuffers(want: number[], got: number[], tolerant: boolean): string | null {
  if (want.length !== got.length) return `length ${got.length}, expected ${want.length}`;
  let scale = 1;
  if (tolerant) for (const v of want) if (Number.isFinite(v)) scale = Math.max(scale, Math.abs(v));
  for (let k = 0; k < want.length; k++) {
    const [a, b] = [want[k], got[k]];
    if (a === b || (Number.isNaN(a) && Number.isNaN(b))) continue;
    if (tolerant && Number.isFinite(a) && Number.isFinite(b) && Math.abs(a - b) <= REASSOC_TOLERANCE * scale) continue;
    return `element ${k}: ${b}, expected ${a}`;
  }
  return null;
}

/** The outcome of one kernel. */
export interface KernelOutcome {
  /** The kernel's seed. */
  seed: number;
  kernel: GeneratedKernel;
  /** `invalid`: the generated text did not parse or verify; `interp`: the reference run failed. */
  status: 'ok' | 'invalid' | 'interp' | 'finding';
  /** Pipelines compared. */
  compared: number;
  /** Comparisons that matched only within the tolerance (not bit for bit). */
  inexact: number;
  /** Per failing pipeline: what went wrong. */
  findings: { pipeline: string; kind: 'mismatch' | 'pass' | 'interp'; message: string }[];
  /** The reason of an `invalid` or `interp` status. */
  message?: string;
}

const parse = (text: string): Operation => {
  const m = parseText(text, {}, 'difftest.ttir').module;
  const d = verifyDiagnostic(m);
  if (d) throw new Error(d.format());
  return m;
};

/** Hooks and choices of `testKernel` (the hooks are for testing the tester: they must make it fail). */
export interface TestKernelOptions {
  /** The pipelines to compare (default: `pipelines()`). */
  pipelines?: [string, string][];
  /** Changes the compiled module before it runs (a deliberately miscompiling "pass"). */
  corrupt?: (module: Operation) => void;
  /** Changes the outputs of a compiled module before the comparison. */
  tamper?: (outs: number[][]) => void;
}

/** Generates the kernel of `seed` and runs it through every pipeline, comparing its outputs with the reference's. */
export function testKernel(seed: number, options: TestKernelOptions = {}): KernelOutcome {
  const kernel = generateKernel(seed);
  const out: KernelOutcome = { seed, kernel, status: 'ok', compared: 0, inexact: 0, findings: [] };
  let reference: number[][];
  try {
    reference = execute(parse(kernel.text), kernel, seed);
  } catch (e) {
    const message = (e as Error).message;
    out.status = /interpreter|InterpreterError/.test(String((e as Error).name) + message) ? 'interp' : 'invalid';
    out.message = message;
    return out;
  }
  const tolerant = kernel.features.has('reduce') || kernel.features.has('dot');
  for (const [name, text] of options.pipelines ?? pipelines()) {
    const module = parse(kernel.text);
    let ok = false;
    try {
      const r = runPipeline(module, text, { reproducerDir: null });
      if (!r.ok) throw new Error(r.diagnostics.map((d) => d.format()).join('\n'));
      const d = verifyDiagnostic(module);
      if (d) throw new Error(`invalid IR after the pipeline: ${d.format()}`);
      options.corrupt?.(module);
      ok = true;
    } catch (e) {
      out.findings.push({ pipeline: name, kind: 'pass', message: (e as Error).message });
    }
    if (!ok) continue;
    let got: number[][];
    try {
      got = execute(module, kernel, seed);
    } catch (e) {
      out.findings.push({ pipeline: name, kind: 'interp', message: (e as Error).message });
      continue;
    }
    options.tamper?.(got);
    out.compared++;
    for (let n = 0; n < reference.length; n++) {
      const exact = compareBuffers(reference[n], got[n], false);
      if (!exact) continue;
      const diff = tolerant && kernel.buffers.filter((b) => b.role === 'out')[n].elt !== 'i32' ? compareBuffers(reference[n], got[n], true) : exact;
      if (diff) {
        out.findings.push({ pipeline: name, kind: 'mismatch', message: `output ${n}: ${diff}` });
        break;
      }
      out.inexact++;
    }
  }
  if (out.findings.length) out.status = 'finding';
  return out;
}

/** Totals of a campaign. */
export interface Summary {
  generated: number;
  valid: number;
  /** Pipeline runs whose outputs were compared. */
  compared: number;
  /** Comparisons equal only within the tolerance. */
  inexact: number;
  mismatches: number;
  passFailures: number;
  /** Interpreter failures: of the reference run, or after a pipeline. */
  interpFailures: number;
  /** How many kernels used each feature (`dot`, `reduce`, `loop`, `trans`, `cast`). */
  features: Record<string, number>;
}

/** Runs `count` kernels from seeds `seed`, `seed + 1`, ...; `log` gets progress lines and each finding. */
export function runCampaign(count: number, seed: number, log: (line: string) => void, progressEvery = 100): { summary: Summary; outcomes: KernelOutcome[] } {
  const s: Summary = { generated: 0, valid: 0, compared: 0, inexact: 0, mismatches: 0, passFailures: 0, interpFailures: 0, features: {} };
  const bad: KernelOutcome[] = [];
  for (let k = 0; k < count; k++) {
    const o = testKernel(seed + k);
    s.generated++;
    for (const f of o.kernel.features) s.features[f] = (s.features[f] ?? 0) + 1;
    if (o.status !== 'invalid') s.valid++;
    if (o.status === 'invalid') log(`seed ${o.seed}: INVALID generated kernel: ${o.message}`);
    if (o.status === 'interp') s.interpFailures++, log(`seed ${o.seed}: reference run failed: ${o.message}`);
    s.compared += o.compared;
    s.inexact += o.inexact;
    for (const f of o.findings) {
      if (f.kind === 'mismatch') s.mismatches++;
      else if (f.kind === 'pass') s.passFailures++;
      else s.interpFailures++;
      log(`seed ${o.seed}: ${f.kind} after ${f.pipeline}: ${f.message.split('\n').slice(0, 6).join('\n  ')}`);
    }
    if (o.status !== 'ok') bad.push(o);
    if ((k + 1) % progressEvery === 0 || k + 1 === count) log(`[${k + 1}/${count}] ${summaryText(s)}`);
  }
  return { summary: s, outcomes: bad };
}

/** One line of totals. */
export function summaryText(s: Summary): string {
  return `generated ${s.generated}, valid ${s.valid}, compared ${s.compared} (${s.inexact} within tolerance, not bit-exact), mismatches ${s.mismatches}, pass failures ${s.passFailures}, interpreter failures ${s.interpFailures}; kernels with ${Object.entries(s.features).sort().map(([f, n]) => `${f} ${n}`).join(', ')}`;
}
