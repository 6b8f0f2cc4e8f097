/**
 * The NVPTX target's entry point: brings a module of any level to ttg IR with shared memory
 * allocated (running the passes it still needs), lowers it to the nvptx dialect, and prints
 * PTX with launch metadata.
 */
import { IntegerAttr } from '../../ir/attributes.js';
import { Diagnostic, DiagnosticError } from '../../ir/diagnostics.js';
import { verifyDiagnostic } from '../../ir/verifier.js';
import type { Operation } from '../../ir/ir.js';
import { hasTarget, type GpuTarget } from '../../dialects/ttg/target.js';
import { registerAllPasses } from '../../passes/all.js';
import { runPipeline } from '../../passes/manager.js';
import { timed, type PhaseTimer } from '../../passes/timing.js';
import { ptxArchOf } from './arch.js';
import type { Arch } from './emitter.js';
import { lowerToNvptx, type KernelInfo } from './lower.js';
import { printPtx } from './ptx-printer.js';

export type { Arch } from './emitter.js';
export type { KernelInfo, KernelParam } from './lower.js';
export { lowerToNvptx } from './lower.js';
export { printPtx } from './ptx-printer.js';

export { ARCHES, PTX_ARCHES, parseArch, ptxArchOf, targetFor, type PtxArch } from './arch.js';

/** Options of `compileToPtx`. */
export interface PtxOptions {
  /**
   * What to compile for (`targetFor('sm_90a', 8)`): a tt-level module runs the default pipeline
   * with it; a ttg-level module keeps its own launch shape and is printed for this architecture.
   */
  target: GpuTarget;
  /** Compute each kernel's residency hint, `ctas_per_sm` in the metadata (default true). */
  residencyHint?: boolean;
  /** Times the compile's phases (the pipeline and each of its passes, lowering, printing) for `--mlir-timing`. */
  timer?: PhaseTimer;
}

/** The passes a module still needs before lowering: the whole default pipeline for tt IR, the tail for ttg IR. */
export function preparationPipeline(module: Operation, target: GpuTarget): string | null {
  if (!hasTarget(module)) return `default{arch=${target.name} num-warps=${target.numWarps}}`;
  if (module.getAttr('ttg.shared') instanceof IntegerAttr) return null;
  return 'vectorize,alloc-shared,insert-barriers';
}

/**
 * Runs `pipeline` on `module`, turning a failure into its diagnostic. The module is verified once,
 * after the whole pipeline, not after each pass (as `triton-opt` does): that was a fifth of a
 * large kernel's compile. Invalid IR is a compiler bug, and `triton-opt --pipeline=...` on the
 * same input names the pass that made it.
 */
function runOrThrow(module: Operation, pipeline: string, timer: PhaseTimer | undefined): void {
  registerAllPasses(); // the pipeline's passes (idempotent), as lowerToNvptx registers cse and dce
  const r = timed(timer, `'${pipeline}' Pipeline`, () => runPipeline(module, pipeline, { reproducerDir: null, verifyEach: false, timer }));
  if (!r.ok) throw new DiagnosticError(r.diagnostics[r.diagnostics.length - 1]);
  const invalid = timed(timer, 'Verifier', () => verifyDiagnostic(module));
  if (!invalid) return;
  throw new DiagnosticError(
    new Diagnostic('error', `internal error: the pipeline '${pipeline}' produced invalid IR: ${invalid.message} (triton-opt --pipeline='${pipeline}' names the pass)`, invalid.pos, invalid.fallbackLoc),
  );
}

/** What `compileToPtx` returns. */
export interface PtxResult {
  ptx: string;
  kernels: KernelInfo[];
  /** The nvptx-dialect module the PTX was printed from. */
  nvptx: Operation;
}

/** Compiles a verified module (tt or ttg level) to PTX. The module is transformed in place. */
export function compileToPtx(module: Operation, opts: PtxOptions): PtxResult {
  const arch = ptxArchOf(opts.target)?.name;
  if (!arch) throw new Error(`internal error: compileToPtx given the target ${opts.target.name}, which is not CUDA`);
  const prep = preparationPipeline(module, opts.target);
  if (prep) runOrThrow(module, prep, opts.timer);
  const { module: nvptx, kernels } = timed(opts.timer, 'NVPTX lowering', () => lowerToNvptx(module, { arch, residencyHint: opts.residencyHint }));
  return { ptx: timed(opts.timer, 'PTX printer', () => printPtx(nvptx, arch)), kernels, nvptx };
}

/** Launch metadata of the first kernel (and all kernels under `kernels` when there are several), as JSON text. */
export function metadataJson(kernels: readonly KernelInfo[], arch: Arch): string {
  const one = (k: KernelInfo): Record<string, unknown> => ({
    name: k.name,
    arch,
    num_warps: k.numWarps,
    threads_per_block: k.numWarps * k.threadsPerWarp,
    shared_bytes: k.sharedBytes,
    ...(k.ctasPerSM ? { ctas_per_sm: k.ctasPerSM } : {}),
    // a versioned kernel: a launch where some listed parameter is not a multiple of divisor may run
    // `otherwise` (the same PTX module's kernel of the original copy alone) instead
    ...(k.versions
      ? {
          versions: {
            divisor: k.versions.divisor,
            params: k.versions.params.map((i) => k.params[i].name),
            otherwise: { name: k.versions.otherwise.name, shared_bytes: k.versions.otherwise.sharedBytes, ...(k.versions.otherwise.ctasPerSM ? { ctas_per_sm: k.versions.otherwise.ctasPerSM } : {}) },
          },
        }
      : {}),
    params: k.params.map((p) => ({
      name: p.name,
      kind: p.kind,
      type: p.type,
      ...(p.divisibility ? { divisibility: p.divisibility } : {}),
      // a tensor descriptor: the tensor map's block, box (outermost dim first) and swizzle
      ...(p.tma ? { block: p.tma.block, box: p.tma.box, swizzle_bytes: p.tma.swizzleBytes } : {}),
      // a hidden tensor map: the parameters the launcher builds it from
      ...(p.from ? { from: p.from } : {}),
      // the global scratch: the bytes the launcher allocates per program of the grid
      ...(p.bytesPerProgram ? { bytes_per_program: p.bytesPerProgram } : {}),
    })),
  });
  const first = one(kernels[0]);
  return JSON.stringify(kernels.length > 1 ? { ...first, kernels: kernels.map(one) } : first, null, 2) + '\n';
}
