/**
 * The GPU target as the passes see it: one object for the architecture, the launch shape (warps,
 * threads per warp, CTAs) and the hardware limits. It lives on the module as Triton keeps it
 * (`ttg.target = "cuda:90"`, `ttg.num-warps`, `ttg.threads-per-warp`, `ttg.num-ctas`), is written
 * there by `convert-to-gpu` (`writeTarget`) and read back by every pass and the target through
 * `targetOf`. The hardware limits of each architecture live here and nowhere else.
 */
import { IntegerAttr, StringAttr, type Attribute } from '../../ir/attributes.js';
import type { Operation } from '../../ir/ir.js';
import { i, IntegerType } from '../../ir/types.js';

/** Per-SM and per-CTA limits of one architecture (CUDA C Programming Guide, "Compute Capabilities"). */
export interface ArchLimits {
  /** Shared memory of one SM, in bytes (the unified L1/shared storage's shared part at its largest). */
  readonly sharedBytesPerSM: number;
  /** The most dynamic shared memory one CTA may use, in bytes (opt-in maximum). */
  readonly maxSharedBytesPerCTA: number;
  /** Shared memory the driver reserves for each resident CTA, in bytes. */
  readonly reservedSharedBytesPerCTA: number;
  /** 32-bit registers of one SM. */
  readonly registersPerSM: number;
  /** The most registers one thread may use. */
  readonly maxRegistersPerThread: number;
  /** Resident warps per SM. */
  readonly maxWarpsPerSM: number;
  /** Resident CTAs per SM. */
  readonly maxCTAsPerSM: number;
  /** Whether it has the Tensor Memory Accelerator (tiles copied through tensor maps, `cp.async.bulk.tensor`) and mbarriers with transaction counts. */
  readonly tma: boolean;
}

/** The alignment, in bytes, TMA requires of a tensor's base address and strides (PTX ISA, tensor maps). */
export const TMA_ALIGN_BYTES = 16;

/** The most elements a TMA box has along one dim (PTX ISA, tensor maps: `boxDim` at most 256). */
export const TMA_MAX_BOX_DIM = 256;

/** The bytes of one TMA tensor map (a CUtensorMap; PTX's `.b1024` tensormap object). */
export const TENSOR_MAP_BYTES = 128;

/** The most dims a TMA tensor map (and a copy through it) has (PTX ISA, `cp.async.bulk.tensor.{1-5}d`). */
export const TMA_MAX_RANK = 5;

/** The architectures we compile for, by compute capability. */
const ARCH_LIMITS: Readonly<Record<number, ArchLimits>> = {
  80: {
    sharedBytesPerSM: 164 * 1024,
    maxSharedBytesPerCTA: 163 * 1024,
    reservedSharedBytesPerCTA: 1024,
    registersPerSM: 65536,
    maxRegistersPerThread: 255,
    maxWarpsPerSM: 64,
    maxCTAsPerSM: 32,
    tma: false,
  },
  90: {
    sharedBytesPerSM: 228 * 1024,
    maxSharedBytesPerCTA: 227 * 1024,
    reservedSharedBytesPerCTA: 1024,
    registersPerSM: 65536,
    maxRegistersPerThread: 255,
    maxWarpsPerSM: 64,
    maxCTAsPerSM: 32,
    tma: true,
  },
};

/** The limits of compute capability `capability`, or null for one not listed here. */
export function archLimits(capability: number): ArchLimits | null {
  return ARCH_LIMITS[capability] ?? null;
}

/** The compute capabilities with limits here, ascending (80, 90). */
export const KNOWN_CAPABILITIES: readonly number[] = Object.keys(ARCH_LIMITS).map(Number).sort((a, b) => a - b);

/** The most shared memory a CTA has on any architecture here (bytes): what any tile in shared memory must fit. */
export const MAX_SHARED_BYTES_PER_CTA = Math.max(...Object.values(ARCH_LIMITS).map((l) => l.maxSharedBytesPerCTA));

/** Everything a pass may ask about the GPU a module is compiled for. */
export interface GpuTarget {
  /** The value of `ttg.target`: `cuda:90` (or another backend's, e.g. `hip:gfx942`, kept as written). */
  readonly name: string;
  /** The CUDA compute capability: 80 for sm_80, 90 for sm_90a; null for a target that is not CUDA. */
  readonly capability: number | null;
  /** Warps per CTA (`ttg.num-warps`). */
  readonly numWarps: number;
  /** Threads per warp (`ttg.threads-per-warp`): 32 on NVIDIA GPUs. */
  readonly threadsPerWarp: number;
  /** CTAs per cluster (`ttg.num-ctas`). */
  readonly numCTAs: number;
  /** The hardware limits of the architecture (null for a target that is not CUDA). */
  readonly limits: ArchLimits | null;
}

/** What a launch shape defaults to where a module does not say (Triton's defaults). */
export const TARGET_DEFAULTS = { capability: 80, numWarps: 4, threadsPerWarp: 32, numCTAs: 1 } as const;

/** The value of `ttg.target` for a capability: `cuda:90`. */
export function targetName(capability: number): string {
  return `cuda:${capability}`;
}

/**
 * The compute capability an architecture name denotes: `sm_90a`, `sm_90`, `cuda:90` and `90` give
 * 90. Null for anything else, or for a capability without limits here.
 */
export function parseCapability(name: string): number | null {
  const m = /^(?:sm_|cuda:)?(\d+)a?$/.exec(name.trim());
  if (!m) return null;
  const cc = Number(m[1]);
  return archLimits(cc) ? cc : null;
}

/** Why a launch shape is not valid (a message for the user), or null. */
export function checkLaunchShape(shape: { numWarps: number; threadsPerWarp: number; numCTAs: number }): string | null {
  const pow2 = (n: number) => Number.isInteger(n) && n >= 1 && (n & (n - 1)) === 0;
  if (!pow2(shape.numWarps) || shape.numWarps > 32) return `the number of warps must be a power of 2 from 1 to 32, got ${shape.numWarps}`;
  if (!pow2(shape.threadsPerWarp)) return `threads per warp must be a power of 2, got ${shape.threadsPerWarp}`;
  if (!pow2(shape.numCTAs)) return `the number of CTAs must be a power of 2, got ${shape.numCTAs}`;
  return null;
}

/** Whether `name` is another backend's target (`hip:gfx942`): layouts are made for it, nothing more. */
function isOtherBackend(name: string): boolean {
  return /^hip:\w+$/.test(name);
}

/**
 * Builds a target; `arch` is any spelling `parseCapability` reads, or another backend's target
 * name (`hip:gfx942`). Throws a message for bad values.
 */
export function makeTarget(init: { arch?: string; numWarps?: number; threadsPerWarp?: number; numCTAs?: number }): GpuTarget {
  const other = init.arch !== undefined && isOtherBackend(init.arch);
  const capability = init.arch === undefined ? TARGET_DEFAULTS.capability : parseCapability(init.arch);
  if (capability === null && !other)
    throw new Error(`unknown architecture '${init.arch}'; known: ${KNOWN_CAPABILITIES.map((c) => `sm_${c}${c >= 90 ? 'a' : ''}`).join(', ')}`);
  const shape = {
    numWarps: init.numWarps ?? TARGET_DEFAULTS.numWarps,
    threadsPerWarp: init.threadsPerWarp ?? TARGET_DEFAULTS.threadsPerWarp,
    numCTAs: init.numCTAs ?? TARGET_DEFAULTS.numCTAs,
  };
  const bad = checkLaunchShape(shape);
  if (bad) throw new Error(bad);
  const name = capability === null ? init.arch! : targetName(capability);
  return Object.freeze({ name, capability, ...shape, limits: capability === null ? null : archLimits(capability) });
}

/** The module `op` is in (or `op` itself). */
function moduleOf(op: Operation): Operation | null {
  return op.name === 'builtin.module' ? op : op.parentOfType('builtin.module');
}

function moduleInt(module: Operation | null, name: string): number | undefined {
  const a = module?.getAttr(name);
  return a instanceof IntegerAttr ? a.num : undefined;
}

/** The most threads a CTA may have (CUDA's limit on every architecture we target). */
export const MAX_THREADS_PER_CTA = 1024;

/** The module attributes that say what the target is, and the values each may take. */
const TARGET_ATTRS: Readonly<Record<string, { max: number; what: string }>> = {
  'ttg.num-warps': { max: MAX_THREADS_PER_CTA / 32, what: 'warps per CTA' },
  'ttg.threads-per-warp': { max: 64, what: 'threads per warp' },
  'ttg.num-ctas': { max: 16, what: 'CTAs per cluster' },
};

/**
 * The ttg dialect's check of its discardable attributes (the verifier runs it on every op that
 * has one): the target attributes are i32 powers of two within their limits, on a module, and
 * `ttg.target` / `ttg.shared` have their types. Nothing downstream then reads a malformed target.
 */
export function verifyTargetAttribute(op: Operation, name: string, value: Attribute): string | void {
  const spec = TARGET_ATTRS[name];
  if (spec) {
    if (!(value instanceof IntegerAttr) || !(value.type instanceof IntegerType) || value.type.width !== 32)
      return `'${name}' must be an i32 integer (the number of ${spec.what}), not ${value}`;
    const n = value.num;
    if (!(n >= 1 && n <= spec.max && (n & (n - 1)) === 0)) return `'${name}' = ${value.value} must be a power of two from 1 to ${spec.max}`;
    if (name === 'ttg.threads-per-warp' && n < 32) return `'${name}' = ${n}: a warp has 32 threads on NVIDIA GPUs (64 on AMD)`;
    return;
  }
  if (name === 'ttg.target' && !(value instanceof StringAttr)) return `'ttg.target' must be a string such as "cuda:90", not ${value}`;
  if (name === 'ttg.shared' && !(value instanceof IntegerAttr && value.num >= 0)) return `'ttg.shared' must be a non-negative integer (bytes of shared memory), not ${value}`;
}

/** Whether the module around `op` has been given a target (`convert-to-gpu` ran: it has `ttg.num-warps`). */
export function hasTarget(op: Operation): boolean {
  return moduleInt(moduleOf(op), 'ttg.num-warps') !== undefined;
}

/**
 * The target of the module around `op`, from its `ttg.*` attributes; what a module does not say
 * reads as `TARGET_DEFAULTS` (an unknown `ttg.target` as cuda:80). The one reader of those
 * attributes: passes and the nvptx target ask here.
 */
export function targetOf(op: Operation): GpuTarget {
  const module = moduleOf(op);
  const attr = module?.getAttr('ttg.target');
  const written = attr instanceof StringAttr ? attr.value : '';
  const capability = isOtherBackend(written) ? null : parseCapability(written) ?? TARGET_DEFAULTS.capability;
  return Object.freeze({
    name: capability === null ? written : targetName(capability),
    capability,
    numWarps: moduleInt(module, 'ttg.num-warps') ?? TARGET_DEFAULTS.numWarps,
    threadsPerWarp: moduleInt(module, 'ttg.threads-per-warp') ?? TARGET_DEFAULTS.threadsPerWarp,
    numCTAs: moduleInt(module, 'ttg.num-ctas') ?? TARGET_DEFAULTS.numCTAs,
    limits: capability === null ? null : archLimits(capability),
  });
}

/** Records `target` on `module` as Triton does (`ttg.target = "cuda:90"`, `ttg.num-warps = 8 : i32`, ...). */
export function writeTarget(module: Operation, target: GpuTarget): void {
  module.setAttr('ttg.num-ctas', IntegerAttr.get(target.numCTAs, i(32)));
  module.setAttr('ttg.num-warps', IntegerAttr.get(target.numWarps, i(32)));
  module.setAttr('ttg.target', StringAttr.get(target.name));
  module.setAttr('ttg.threads-per-warp', IntegerAttr.get(target.threadsPerWarp, i(32)));
}
