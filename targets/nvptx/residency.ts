/**
 * The launch's residency hint: how many CTAs of a kernel should share an SM.
 *
 * A kernel that reads its tile once, in short runs scattered over many rows (a transpose), is
 * limited by how DRAM serves those scattered rows. Once enough loads are in flight to cover
 * DRAM's latency, more resident CTAs only queue requests for other DRAM rows, and their loads
 * crowd the L1 lines that the in-flight requests hold. The hint asks for just enough CTAs per SM
 * to keep `IN_FLIGHT_BYTES_PER_SM` of such loads in flight. The launcher realizes it through the
 * shared memory carveout, which also hands the rest of the SM's unified storage to L1.
 *
 * Measured on an H200 (2026-11-21), the seeds' transpose at 10007x7001 with 64x64 tiles and
 * 8 warps: 6 resident CTAs (the driver's choice) 192 us, 5 CTAs 192 us, 3 CTAs 157 us; Triton's
 * kernel, at 4 CTAs, 173 us. At 16384x16384 the hint changes nothing (521 us either way).
 *
 * Runs whose starts are not 16-byte aligned are read one element per thread, a partial sector at
 * each end of each run; there the number of runs in flight counts, not their bytes: the hint keeps
 * at most `MISALIGNED_RUNS_PER_SM` of them in flight (when that asks for fewer CTAs than the bytes
 * do). Measured on an H200 (2026-11-28, `bench/gpu/transpose_mask.py` at 10007x7001, the kernel of
 * the original copy, time against Triton's): 32x32 tiles (32 runs per CTA) at 3 / 6 / 12 CTAs per
 * SM 0.91 / 1.20 / 1.00; 64x64 (64 runs, 4 or 8 warps) at 3 / 5 CTAs 1.22 / 1.04 (4 warps) and
 * 1.00 / 0.86 (8 warps). The 16-byte vector copies of the same tiles at 16384x16384 lose 15% at
 * 6 CTAs of 32x32: they keep the bytes rule.
 *
 * Kernels with a loop around their loads, or async copies, keep their depth through the
 * pipeline pass and get no hint; nor do kernels without shared memory, whose residency the
 * carveout cannot bound. Axis info knows contiguity within one dim only, so a tile whose rows
 * happen to be adjacent in memory counts as scattered too (bench/gpu/shared_padded.py, 128-byte
 * rows at a constant stride of 128 bytes, asks for 6 CTAs per SM).
 *
 * The other direction, `registerBudget`: a tensor-core kernel whose shared memory leaves room for
 * two CTAs per SM gets a register limit that lets two fit, when its accumulators take at most half
 * of it (ptxas, left alone, may use a few registers more and halve the kernel's residency).
 * Measured on an H200 (2026-11-21), the seeds' tf32 matmul at 4096^3 (128x128x32 tiles, 8 warps,
 * 64 KiB of shared memory): 138 registers, 1 CTA per SM, 946 us; at most 128 registers (no spills),
 * 2 CTAs per SM, 883 us.
 */
import type { Operation, Region } from '../../ir/ir.js';
import { RankedTensorType } from '../../ir/types.js';
import type { AxisInfoAnalysis } from '../../passes/analysis/axis-info.js';
import { pointeeBits, shapePerCTA, tensorPtrOf } from '../../passes/support/coalesce-access.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';
import * as ttng from '../../dialects/ttng.js';
import type { Arch } from './emitter.js';
import { limitsOf } from './arch.js';
import { isMmaDot } from './mma.js';
import { FunctionLike, LoopLike } from '../../ir/traits.js';
import { isVersions, perLaunch } from '../../passes/support/versioned-if.js';

/** Bytes of scattered loads per SM that keep DRAM busy: about its bandwidth per SM times a loaded access's latency. */
export const IN_FLIGHT_BYTES_PER_SM = 48 * 1024;

/** A load whose contiguous runs are shorter than this reads scattered rows. */
export const SCATTERED_RUN_BYTES = 512;

/** Scattered runs per SM in flight, at most, when their starts are not 16-byte aligned (measured: see the module doc). */
export const MISALIGNED_RUNS_PER_SM = 192;

/** The alignment, in bytes, of a run start that a thread can read in one vector (ld.global.v4.b32). */
const VECTOR_BYTES = 16;

/** Why a kernel gets the hint it gets (for tests and remarks). */
export interface ResidencyHint {
  /** CTAs per SM to ask the launcher for. */
  ctasPerSM: number;
  /** Bytes of scattered loads one CTA issues. */
  scatteredLoadBytes: number;
  /** Scattered runs one CTA reads whose starts are not 16-byte aligned (0: every run is). */
  misalignedRuns: number;
}

/** Whether `op` sits inside a loop of its function. */
function inLoop(op: Operation): boolean {
  for (let p = op.parentOp; p && !p.hasTrait(FunctionLike); p = p.parentOp) if (p.hasTrait(LoopLike)) return true;
  return false;
}

/** How one CTA's `load` reads memory when its runs are scattered (else null): its bytes, its runs, and whether their starts are 16-byte aligned. */
function scatteredRead(load: Operation, axis: AxisInfoAnalysis): { bytes: number; runs: number; aligned: boolean } | null {
  const ptr = tensorPtrOf(load);
  if (!ptr) return null;
  const shape = shapePerCTA(ptr.type as RankedTensorType);
  if (shape.length < 2) return null;
  const contiguity = axis.lookup(ptr).contiguity;
  let dim = 0;
  contiguity.forEach((c, d) => void (c > contiguity[dim] && (dim = d)));
  const elemBytes = Math.ceil(pointeeBits(ptr) / 8);
  const numel = shape.reduce((a, b) => a * b, 1);
  const runElems = Math.min(contiguity[dim], shape[dim]);
  if (runElems * elemBytes >= SCATTERED_RUN_BYTES || runElems >= numel) return null;
  return { bytes: numel * elemBytes, runs: Math.ceil(numel / runElems), aligned: axis.divisibility(ptr, dim) >= VECTOR_BYTES };
}

/** The CTAs per SM the hardware allows by warps and shared memory (registers are ptxas's to decide). */
export function maxResidentCtas(arch: Arch, numWarps: number, sharedBytes: number): number {
  const lim = limitsOf(arch);
  return Math.min(lim.maxCTAsPerSM, Math.floor(lim.maxWarpsPerSM / numWarps), Math.floor(lim.sharedBytesPerSM / (sharedBytes + lim.reservedSharedBytesPerCTA)));
}

/** Whether registers can lower the CTAs per SM that shared memory and warps allow (at 255 registers a thread they would). */
export function registersCanLimitResidency(arch: Arch, numWarps: number, sharedBytes: number): boolean {
  const lim = limitsOf(arch);
  return maxResidentCtas(arch, numWarps, sharedBytes) * numWarps * 32 * lim.maxRegistersPerThread > lim.registersPerSM;
}

/** Bytes of scattered loads one CTA issues in `region` (one copy of a versioned kernel), or null when one of its ops makes the kernel ineligible. */
function scatteredLoadBytes(region: Region, axis: AxisInfoAnalysis): number | null {
  return perLaunch(region, (op) => {
    if (ttg.AsyncCopyGlobalToLocalOp.is(op)) return null;
    if (!tt.LoadOp.is(op)) return 0;
    return inLoop(op) ? null : scatteredRead(op, axis)?.bytes ?? null;
  });
}

/**
 * Scattered runs with unaligned starts that one CTA reads in `region`. Of a versioned if's two
 * copies, the first (the specialized copy) counts: the original copy is a kernel of its own
 * (`<name>__unaligned`, whose `region` is that copy), and a launch that takes this kernel's
 * aligned copy must not get the fewer CTAs the unaligned one wants.
 */
function misalignedRuns(region: Region, axis: AxisInfoAnalysis): number {
  let runs = 0;
  for (const block of region.blocks) {
    for (const op of block) {
      const read = tt.LoadOp.is(op) ? scatteredRead(op, axis) : null;
      if (read && !read.aligned) runs += read.runs;
      const regions = isVersions(op) ? op.regions.slice(0, 1) : op.regions;
      for (const r of regions) runs += misalignedRuns(r, axis);
    }
  }
  return runs;
}

/**
 * The residency hint of kernel `fn` (a ttg-level `tt.func`), or null when it should run with as
 * many CTAs per SM as fit: it has no shared memory, a loop or async copy feeds its loads, one of
 * its loads is not scattered, or the hint would not bound anything. The hint is the smaller of
 * the CTAs that keep `IN_FLIGHT_BYTES_PER_SM` of scattered loads in flight and, where runs start
 * unaligned, those that keep `MISALIGNED_RUNS_PER_SM` runs in flight. Of the two copies of a body
 * that version-alignment makes (an `scf.if` marked `tir.versions`), the larger counts its bytes
 * (only one runs), and the specialized one its unaligned runs (`misalignedRuns`). `body`
 * (default: the function's) is the code the kernel runs, e.g. the original copy alone.
 */
export function residencyHint(fn: Operation, axis: AxisInfoAnalysis, arch: Arch, numWarps: number, sharedBytes: number, body: Region = fn.regions[0]): ResidencyHint | null {
  if (sharedBytes <= 0) return null;
  const bytes = scatteredLoadBytes(body, axis);
  if (bytes === null || bytes === 0) return null;
  const runs = misalignedRuns(body, axis);
  const byBytes = Math.ceil(IN_FLIGHT_BYTES_PER_SM / bytes);
  const byRuns = runs > 0 ? Math.ceil(MISALIGNED_RUNS_PER_SM / runs) : Infinity;
  const ctasPerSM = Math.max(1, Math.min(byBytes, byRuns));
  if (ctasPerSM >= maxResidentCtas(arch, numWarps, sharedBytes)) return null;
  return { ctasPerSM, scatteredLoadBytes: bytes, misalignedRuns: runs };
}

/** Accumulator registers per thread of the tensor-core dots in `body` (0 when it has none); of a versioned if's two copies, the larger. */
function mmaAccumulatorRegisters(body: Region, threads: number): number {
  const regs = perLaunch(body, (op) => {
    const dot = tt.DotOp.match(op);
    const wgmma = ttng.WarpGroupDotOp.match(op);
    if (!wgmma && (!dot || !isMmaDot(dot))) return 0;
    const t = (wgmma ?? dot)!.d.type as RankedTensorType;
    return Math.ceil(t.shape.reduce((a, b) => a * b, 1) / threads); // one 32-bit register per (f32) element
  });
  return regs ?? 0;
}

/**
 * The register limit (`.maxnreg`) that lets two CTAs of tensor-core kernel `fn` share an SM, or
 * null: no mma dot, shared memory or warps already hold it to one CTA, or its accumulators need
 * more than half of that limit.
 */
export function registerBudget(fn: Operation, arch: Arch, numWarps: number, sharedBytes: number, body: Region = fn.regions[0]): number | null {
  const threads = numWarps * 32;
  const acc = mmaAccumulatorRegisters(body, threads);
  if (acc === 0 || maxResidentCtas(arch, numWarps, sharedBytes) < 2) return null;
  const lim = limitsOf(arch);
  const budget = Math.floor(lim.registersPerSM / (2 * threads) / 8) * 8;
  if (budget >= lim.maxRegistersPerThread || 2 * acc > budget) return null;
  return budget;
}
