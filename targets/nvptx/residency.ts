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
import { perLaunch } from '../../passes/support/versioned-if.js';

/** Bytes of scattered loads per SM that keep DRAM busy: about its bandwidth per SM times a loaded access's latency. */
export const IN_FLIGHT_BYTES_PER_SM = 48 * 1024;

/** A load whose contiguous runs are shorter than this reads scattered rows. */
export const SCATTERED_RUN_BYTES = 512;

/** Why a kernel gets the hint it gets (for tests and remarks). */
export interface ResidencyHint {
  /** CTAs per SM to ask the launcher for. */
  ctasPerSM: number;
  /** Bytes of scattered loads one CTA issues. */
  scatteredLoadBytes: number;
}

/** Whether `op` sits inside a loop of its function. */
function inLoop(op: Operation): boolean {
  for (let p = op.parentOp; p && !p.hasTrait(FunctionLike); p = p.parentOp) if (p.hasTrait(LoopLike)) return true;
  return false;
}

/** Bytes one CTA reads with `load` when its runs are scattered, else null. */
function scatteredBytes(load: Operation, axis: AxisInfoAnalysis): number | null {
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
  return numel * elemBytes;
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
    return inLoop(op) ? null : scatteredBytes(op, axis);
  });
}

/**
 * The residency hint of kernel `fn` (a ttg-level `tt.func`), or null when it should run with as
 * many CTAs per SM as fit: it has no shared memory, a loop or async copy feeds its loads, one of
 * its loads is not scattered, or the hint would not bound anything. Of the two copies of a body
 * that version-alignment makes (an `scf.if` marked `tir.versions`), the larger counts: only one runs.
 * `body` (default: the function's) is the code the kernel runs, e.g. the original copy alone.
 */
export function residencyHint(fn: Operation, axis: AxisInfoAnalysis, arch: Arch, numWarps: number, sharedBytes: number, body: Region = fn.regions[0]): ResidencyHint | null {
  if (sharedBytes <= 0) return null;
  const bytes = scatteredLoadBytes(body, axis);
  if (bytes === null || bytes === 0) return null;
  const ctasPerSM = Math.max(1, Math.ceil(IN_FLIGHT_BYTES_PER_SM / bytes));
  if (ctasPerSM >= maxResidentCtas(arch, numWarps, sharedBytes)) return null;
  return { ctasPerSM, scatteredLoadBytes: bytes };
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
