/**
 * The residency hint (targets/nvptx/residency.ts): which kernels ask the launcher for fewer CTAs
 * per SM, and how many. Kernels come from Triton-C through the default pipeline, as
 * `triton-translate --from-c --to-ptx` compiles them.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { compileTritonC } from '../../frontend/triton-c/index.js';
import { exampleSource } from '../helpers/tc-kernels.js';
import type { Operation } from '../../ir/ir.js';
import { IntegerAttr } from '../../ir/attributes.js';
import { AxisInfoAnalysis } from '../../passes/analysis/axis-info.js';
import { compileToPtx, metadataJson, targetFor } from '../../targets/nvptx/index.js';
import { registerAllPasses } from '../../passes/all.js';
import { runPipeline } from '../../passes/manager.js';
import { isVersions } from '../../passes/support/versioned-if.js';
import { maxResidentCtas, registerBudget, registersCanLimitResidency, residencyHint } from '../../targets/nvptx/residency.js';

registerAllDialects();
registerAllPasses();

const TRANSPOSE = `
__global__ void transpose(float * X, float * Y, int M, int N, int ldx, int ldy) {
  int rm[TM] = get_program_id(0) * TM + 0 ... TM;
  int rn[TN] = get_program_id(1) * TN + 0 ... TN;
  float* px[TM, TN] = X + rm[:, newaxis] * ldx + rn[newaxis, :];
  float* py[TN, TM] = Y + rm[newaxis, :] + rn[:, newaxis] * ldy;
  bool checkx[TM, TN] = (rm[:, newaxis] < M) && (rn[newaxis, :] < N);
  bool checky[TN, TM] = (rm[newaxis, :] < M) && (rn[:, newaxis] < N);
  *?(checky)py = ^(*?(checkx)px);
}`;

/** The same tile transposition, a column of tiles per program in a loop. */
const TRANSPOSE_LOOP = `
__global__ void transpose_loop(float * X, float * Y, int M, int ldx, int ldy) {
  int rm[64] = 0 ... 64;
  int rn[64] = get_program_id(0) * 64 + 0 ... 64;
  float* px[64, 64] = X + rm[:, newaxis] * ldx + rn[newaxis, :];
  float* py[64, 64] = Y + rm[newaxis, :] + rn[:, newaxis] * ldy;
  for (int k = 0; k < M; k = k + 64) {
    *py = ^(*px);
    px = px + 64 * ldx;
    py = py + 64;
  }
}`;

/** A row-wise copy: contiguous 1-D loads. */
const COPY = `
__global__ void copy(float * X, float * Y, int n) {
  int r[1024] = get_program_id(0) * 1024 + 0 ... 1024;
  bool m[1024] = r < n;
  *?(m)(Y + r) = *?(m)(X + r);
}`;

/** The seeds' matmul (examples/triton-c/matmul.tc). */
const MATMUL = exampleSource('matmul.tc');

/** Compiles Triton-C to PTX (mutating the module to ttg level) and returns the module and its kernel info. */
function compile(src: string, defines: Record<string, string>, numWarps: number, residency = true, allowTf32 = false) {
  const module = compileTritonC(src, 'k.tc', defines, { allowTf32 });
  const r = compileToPtx(module, { target: targetFor('sm_90a', numWarps), residencyHint: residency });
  return { module, kernel: r.kernels[0], ptx: r.ptx };
}

/** The first tt.func of a module. */
function kernelOf(module: Operation): Operation {
  return [...module.region(0).entry!].find((op) => op.name === 'tt.func')!;
}

test('a 64x64 f32 transpose with 8 warps asks for 3 CTAs per SM', () => {
  const { module, kernel, ptx } = compile(TRANSPOSE, { TM: '64', TN: '64' }, 8);
  assert.is(kernel.sharedBytes, 16384);
  assert.is(kernel.ctasPerSM, 3);
  assert.match(ptx, '// residency hint: 3 CTAs per SM');
  assert.is(JSON.parse(metadataJson([kernel], 'sm_90a')).ctas_per_sm, 3);
  const hint = residencyHint(kernelOf(module), new AxisInfoAnalysis(module), 'sm_90a', 8, kernel.sharedBytes);
  assert.equal(hint, { ctasPerSM: 3, scatteredLoadBytes: 64 * 64 * 4, misalignedRuns: 0 });
});

test('the hint scales with the tile: 32x32 asks for 12, 16x32 for 24 (16 fit by warps: none)', () => {
  assert.is(compile(TRANSPOSE, { TM: '32', TN: '32' }, 4).kernel.ctasPerSM, 12);
  // 2 KiB per CTA -> 24 CTAs, but only 16 CTAs of 4 warps fit in an SM's 64 warps.
  assert.is(compile(TRANSPOSE, { TM: '16', TN: '32' }, 4).kernel.ctasPerSM, undefined);
});

test('the original copy (its own kernel) reads unaligned runs: at most 192 of them in flight per SM', () => {
  // int sizes and strides: version-alignment makes a copy for multiples of 4 (16-byte vectors);
  // the original copy, `transpose__unaligned`, reads each row a float at a time.
  const t32 = compile(TRANSPOSE, { TM: '32', TN: '32' }, 4).kernel;
  assert.is(t32.ctasPerSM, 12, 'the aligned copy: 48 KiB / 4 KiB');
  assert.is(t32.versions?.otherwise.name, 'transpose__unaligned');
  assert.is(t32.versions?.otherwise.ctasPerSM, 6, 'the original copy: 192 runs / 32 rows, fewer than 12 by bytes');
  // 64x64: 192 / 64 = 3 CTAs, as many as the bytes ask for
  const t64 = compile(TRANSPOSE, { TM: '64', TN: '64' }, 8).kernel;
  assert.is(t64.ctasPerSM, 3);
  assert.is(t64.versions?.otherwise.ctasPerSM, 3);
  // 16x32 (2 KiB, 16 rows): bytes ask for 24 CTAs (only 16 fit by warps: no hint), runs for 12
  const t16 = compile(TRANSPOSE, { TM: '16', TN: '32' }, 4).kernel;
  assert.is(t16.ctasPerSM, undefined);
  assert.is(t16.versions?.otherwise.ctasPerSM, 12);
});

test('rows of 512 bytes or more are not scattered: no hint', () => {
  assert.is(compile(TRANSPOSE, { TM: '128', TN: '128' }, 8).kernel.ctasPerSM, undefined);
  assert.is(compile(TRANSPOSE, { TM: '32', TN: '128' }, 4).kernel.ctasPerSM, undefined);
});

test('a loop around the loads, contiguous loads, or residencyHint = false: no hint', () => {
  const loop = compile(TRANSPOSE_LOOP, {}, 8);
  assert.ok(loop.kernel.sharedBytes > 0, 'the loop kernel exchanges through shared memory');
  assert.is(loop.kernel.ctasPerSM, undefined);
  assert.is(compile(COPY, {}, 4).kernel.ctasPerSM, undefined);
  const off = compile(TRANSPOSE, { TM: '64', TN: '64' }, 8, false);
  assert.is(off.kernel.ctasPerSM, undefined);
  assert.not.match(off.ptx, 'residency hint');
  assert.not.ok('ctas_per_sm' in JSON.parse(metadataJson([off.kernel], 'sm_90a')));
});

test('a kernel with two copies of its body (version-alignment) counts the loads of one copy, not both', () => {
  const module = compileTritonC(TRANSPOSE, 'k.tc', { TM: '64', TN: '64' });
  const r = runPipeline(module, 'version-alignment{accesses=all}', { reproducerDir: null });
  assert.ok(r.ok);
  let versioned = 0;
  module.walk((op) => void (isVersions(op) && versioned++));
  assert.is(versioned, 1, 'M, N, ldx and ldy divisible by 4 widen the loads: one versioned scf.if');
  const { kernels } = compileToPtx(module, { target: targetFor('sm_90a', 8) });
  // both copies read a 64x64 f32 tile: 16 KiB per CTA as unversioned (3 CTAs per SM); the sum would give 2
  assert.is(kernels[0].ctasPerSM, 3);
  const hint = residencyHint(kernelOf(module), new AxisInfoAnalysis(module), 'sm_90a', 8, kernels[0].sharedBytes);
  assert.equal(hint, { ctasPerSM: 3, scatteredLoadBytes: 64 * 64 * 4, misalignedRuns: 0 });
});

test('without shared memory the carveout cannot bound residency: no hint', () => {
  const { module } = compile(TRANSPOSE, { TM: '64', TN: '64' }, 8);
  assert.ok(module.getAttr('ttg.shared') instanceof IntegerAttr);
  assert.is(residencyHint(kernelOf(module), new AxisInfoAnalysis(module), 'sm_90a', 8, 0), null);
});

test('registersCanLimitResidency: only where the CTAs shared memory allows could need more than 65536 registers at 255', () => {
  assert.is(registersCanLimitResidency('sm_90a', 8, 147456), false); // 1 CTA x 256 threads x 255 = 65280
  assert.is(registersCanLimitResidency('sm_80', 8, 98304), false); // 164 KiB / 97 KiB: 1 CTA
  assert.is(registersCanLimitResidency('sm_90a', 8, 98304), true); // 2 CTAs x 256 x 255
  assert.is(registersCanLimitResidency('sm_90a', 4, 24576), true); // the seeds' bmm: 9 CTAs by shared memory
  assert.is(registersCanLimitResidency('sm_90a', 1, 0), true);
});

test('maxResidentCtas: bounded by warps, CTAs and shared memory (plus 1 KiB per CTA)', () => {
  assert.is(maxResidentCtas('sm_90a', 8, 16384), 8); // 64 warps / 8
  assert.is(maxResidentCtas('sm_90a', 1, 0), 32); // the CTA limit
  assert.is(maxResidentCtas('sm_90a', 8, 65536), 3); // 228 KiB / 65 KiB
  assert.is(maxResidentCtas('sm_80', 4, 65536), 2); // 164 KiB / 65 KiB
});

test('registerBudget: a 128x128 tensor-core tile on 8 warps with room for two CTAs gets 128 registers', () => {
  for (const [type, tf32] of [['half', false], ['float', true]] as const) {
    const { module, kernel, ptx } = compile(MATMUL, { TYPE: type, TM: '128', TN: '128', TK: '32' }, 8, true, tf32);
    assert.ok(maxResidentCtas('sm_90a', 8, kernel.sharedBytes) >= 2, `${type}: shared memory holds two CTAs`);
    assert.is(registerBudget(kernelOf(module), 'sm_90a', 8, kernel.sharedBytes), 128, type);
    assert.match(ptx, '.maxnreg 128\n');
  }
});

test('registerBudget: none without tensor cores, with 4 warps, or when accumulators need more than half', () => {
  // f32 without tf32 stays on FMA: no mma accumulator.
  const fma = compile(MATMUL, { TYPE: 'float', TM: '128', TN: '128', TK: '32' }, 8);
  assert.is(registerBudget(kernelOf(fma.module), 'sm_90a', 8, fma.kernel.sharedBytes), null);
  assert.match(fma.ptx, '.maxnreg 255\n');
  // 4 warps: two CTAs fit in 255 registers each already.
  const small = compile(MATMUL, { TYPE: 'half', TM: '64', TN: '64', TK: '32' }, 4);
  assert.is(registerBudget(kernelOf(small.module), 'sm_90a', 4, small.kernel.sharedBytes), null);
  // 128x256 on 8 warps: 128 accumulator registers per thread, all of a two-CTA budget.
  const big = compile(MATMUL, { TYPE: 'half', TM: '128', TN: '256', TK: '32' }, 8);
  assert.is(registerBudget(kernelOf(big.module), 'sm_90a', 8, big.kernel.sharedBytes), null);
  // Shared memory for one CTA only.
  assert.is(registerBudget(kernelOf(big.module), 'sm_90a', 8, 150 * 1024), null);
});

test.run();
