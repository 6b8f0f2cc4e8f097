/**
 * What PTX needs to know about an architecture: the name `.target` prints, the PTX ISA version,
 * and the compute capability whose limits (`dialects/ttg/target.ts`) bound the kernel. The
 * hardware limits are not repeated here: they come from the target object.
 */
import { archLimits, makeTarget, targetOf, type ArchLimits, type GpuTarget } from '../../dialects/ttg/target.js';
import type { Operation } from '../../ir/ir.js';
import type { Arch } from './emitter.js';

/** One architecture PTX is printed for. */
export interface PtxArch {
  /** What `.target` says: `sm_80`, `sm_90a`. */
  readonly name: Arch;
  /** Its compute capability (the `ttg.target` it runs: cuda:80, cuda:90). */
  readonly capability: number;
  /** The PTX ISA version printed in `.version`. */
  readonly ptxVersion: string;
}

/** The architectures `--arch` accepts, by name. */
export const PTX_ARCHES: Readonly<Record<Arch, PtxArch>> = {
  sm_80: { name: 'sm_80', capability: 80, ptxVersion: '8.0' },
  sm_90a: { name: 'sm_90a', capability: 90, ptxVersion: '8.0' },
};

/**
 * The PTX ISA version of a module that writes tensor maps on the device (`tensormap.replace` needs
 * 8.3). 8.7 (CUDA 12.8): before 8.6, ptxas took a replaced `global_stride` in units of 16 bytes
 * (Triton shifts the stride right by 4 there); from 8.6 on it is in bytes, as the PTX ISA says.
 */
export const TENSORMAP_PTX_VERSION = '8.7';

/** The names `--arch` accepts, in order. */
export const ARCHES: readonly Arch[] = Object.keys(PTX_ARCHES) as Arch[];

/** The architecture named `name` (`sm_80`, `sm_90a`), or null. */
export function parseArch(name: string): PtxArch | null {
  return (PTX_ARCHES as Record<string, PtxArch>)[name] ?? null;
}

/** The PTX architecture for a target: the one of its compute capability (null for a target that is not CUDA). */
export function ptxArchOf(target: GpuTarget): PtxArch | null {
  return ARCHES.map((a) => PTX_ARCHES[a]).find((a) => a.capability === target.capability) ?? null;
}

/** The target object of `arch` with a launch shape (the CLI builds it once from `--arch` and `--num-warps`). */
export function targetFor(arch: Arch, numWarps?: number): GpuTarget {
  return makeTarget({ arch, numWarps });
}

/** The hardware limits of `arch` (those of its compute capability). */
export function limitsOf(arch: Arch): ArchLimits {
  const limits = archLimits(PTX_ARCHES[arch].capability);
  if (!limits) throw new Error(`internal error: no limits for ${arch}`);
  return limits;
}

/**
 * Why `module` (ttg level, its target from `targetOf`) cannot be printed for `arch`: a module
 * converted for a newer GPU than `arch` may use what `arch` lacks. Null when it can.
 */
export function archMismatch(module: Operation, arch: PtxArch): string | null {
  const target = targetOf(module);
  if (target.capability === null) return `is compiled for ${target.name} (ttg.target), not for an NVIDIA GPU`;
  return target.capability > arch.capability ? `is compiled for ${target.name} (ttg.target), which ${arch.name} cannot run` : null;
}
