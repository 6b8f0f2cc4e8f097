/**
 * The NVPTX target's entry point: brings a module of any level to ttg IR with shared memory
 * allocated (running the passes it still needs), lowers it to the nvptx dialect, and prints
 * PTX with launch metadata.
 */
import { IntegerAttr } from '../../ir/attributes.js';
import { DiagnosticError } from '../../ir/diagnostics.js';
import type { Operation } from '../../ir/ir.js';
import { runPipeline } from '../../passes/manager.js';
import { NAMED_PIPELINES } from '../../passes/registry.js';
import type { Arch } from './emitter.js';
import { lowerToNvptx, type KernelInfo } from './lower.js';
import { printPtx } from './ptx-printer.js';

export type { Arch } from './emitter.js';
export type { KernelInfo, KernelParam } from './lower.js';
export { lowerToNvptx } from './lower.js';
export { printPtx } from './ptx-printer.js';

/** The architectures `--arch` accepts. */
export const ARCHES: readonly Arch[] = ['sm_80', 'sm_90a'];

/** Options of `compileToPtx`. */
export interface PtxOptions {
  arch: Arch;
  /** Warps per program when the module is still tt-level (default 4). */
  numWarps?: number;
  /** Compute each kernel's residency hint, `ctas_per_sm` in the metadata (default true). */
  residencyHint?: boolean;
}

/** The passes a module still needs before lowering: the whole default pipeline for tt IR, the tail for ttg IR. */
export function preparationPipeline(module: Operation, numWarps: number): string | null {
  if (!(module.getAttr('ttg.num-warps') instanceof IntegerAttr))
    return NAMED_PIPELINES.default.replace('convert-to-gpu', `convert-to-gpu{num-warps=${numWarps}}`);
  if (module.getAttr('ttg.shared') instanceof IntegerAttr) return null;
  return 'vectorize,alloc-shared,insert-barriers';
}

/** Runs `pipeline` on `module`, turning a failure into its diagnostic. */
function runOrThrow(module: Operation, pipeline: string): void {
  const r = runPipeline(module, pipeline, { reproducerDir: null });
  if (!r.ok) throw new DiagnosticError(r.diagnostics[r.diagnostics.length - 1]);
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
  const prep = preparationPipeline(module, opts.numWarps ?? 4);
  if (prep) runOrThrow(module, prep);
  const { module: nvptx, kernels } = lowerToNvptx(module, { arch: opts.arch, residencyHint: opts.residencyHint });
  return { ptx: printPtx(nvptx, opts.arch), kernels, nvptx };
}

/** Launch metadata of the first kernel (and all kernels under `kernels` when there are several), as JSON text. */
export function metadataJson(kernels: readonly KernelInfo[], arch: Arch): string {
  const one = (k: KernelInfo) => ({
    name: k.name,
    arch,
    num_warps: k.numWarps,
    threads_per_block: k.numWarps * k.threadsPerWarp,
    shared_bytes: k.sharedBytes,
    ...(k.ctasPerSM ? { ctas_per_sm: k.ctasPerSM } : {}),
    params: k.params.map((p) => ({ name: p.name, kind: p.kind, type: p.type, ...(p.divisibility ? { divisibility: p.divisibility } : {}) })),
  });
  const first = one(kernels[0]);
  return JSON.stringify(kernels.length > 1 ? { ...first, kernels: kernels.map(one) } : first, null, 2) + '\n';
}
