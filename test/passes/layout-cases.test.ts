/**
 * The layout passes on the GPU benchmark kernels (bench/gpu/kernels: attention, layernorm (forward and backward), scan_reverse,
 * transpose_mask, join_split, inline_asm, histogram, gather, fp8_cast, matmul_w8, libdevice; Triton 3.6's TTIR).
 *
 * 1. After the `default` pipeline (sm_90a, the variant's warps) a kernel has no more
 *    `ttg.convert_layout` ops on the path one launch takes (one copy of a versioned kernel) than
 *    Triton's own TTGIR of the same variant
 *    (bench/gpu/triton_ttgir/<stem>.ttgir, counted from its text), and exactly the counts of the
 *    table below, so that any regression (or improvement) shows.
 * 2. The CPU interpreter computes the same outputs before any pass (the TTIR as it is) and after the
 *    pipeline, on the same seeded random inputs, for some variants of each kernel.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import type { Operation } from '../../ir/ir.js';
import { parseText } from '../../ir/parser.js';
import { verify } from '../../ir/verifier.js';
import { registerAllPasses } from '../../passes/all.js';
import { runPipeline } from '../../passes/manager.js';
import { perLaunch } from '../../passes/support/versioned-if.js';
import { rng } from '../../tools/interpreter/cli.js';
import { interpret } from '../../tools/interpreter/interpreter.js';
import { Memory } from '../../tools/interpreter/memory.js';
import { interpretLayernorm } from '../helpers/layernorm-run.js';

registerAllDialects();
registerAllPasses();

const KERNELS = new URL('../../bench/gpu/kernels/', import.meta.url);
const TRITON_TTGIR = new URL('../../bench/gpu/triton_ttgir/', import.meta.url);

/**
 * Variant -> [warps, our converts after `default{arch=sm_90a num-warps=W}`, Triton's (for reading;
 * the test counts Triton's from the .ttgir file)].
 */
const CONVERTS: Record<string, [number, number, number]> = {
  'attention.d64.full': [4, 3, 3],
  'attention.d64.causal': [4, 4, 4],
  'attention.d128.full': [8, 5, 5],
  'attention.d128.causal': [8, 7, 7],
  'layernorm.b1024': [4, 0, 1],
  'layernorm.b4096': [8, 0, 0],
  'layernorm.b1024w8.odd': [8, 0, 1],
  'layernorm.b1024w8.d16': [8, 0, 0],
  // the backward kernel (spin locks around the partial dw / db rows)
  'layernorm_bwd.b1024': [4, 0, 3],
  'layernorm_bwd.b4096': [8, 0, 0],
  // reverse scans (a suffix sum and a backward linear recurrence)
  'scan_reverse.b1024': [4, 0, 0],
  'scan_reverse.b4096': [4, 0, 0],
  'transpose_mask.t32w4.d16': [4, 1, 1],
  'transpose_mask.t32w4.odd': [4, 1, 1],
  'transpose_mask.t64w4.d16': [4, 1, 1],
  'transpose_mask.t64w4.odd': [4, 1, 1],
  'transpose_mask.t64w8.d16': [8, 1, 1],
  'transpose_mask.t64w8.odd': [8, 1, 1],
  'transpose_mask.t128w8.d16': [8, 1, 1],
  'transpose_mask.t128w8.odd': [8, 1, 1],
  // layouts flow through tl.join / tl.split and through pure inline asm, as in Triton
  'join_split.d16': [4, 2, 2],
  'inline_asm.d16': [4, 4, 4],
  // a histogram reads and writes any layout
  'histogram.d16': [4, 0, 0],
  // a gather's result has its indices' layout, its source any
  'gather.d16': [4, 0, 0],
  // fp8 conversions are elementwise; the weight-only fp8 matmul's epilogue scales and narrows in
  // the accumulator's layout (the 128-element scale loaded again there) and converts f16
  'fp8_cast.d16': [4, 1, 1],
  'matmul_w8.d16': [8, 1, 1],
  // the int8 matmul (i32 accumulator and output) on integer wgmma
  'matmul_i8.d16': [8, 1, 1],
  // 8-bit B tiles loaded N-major, turned K-major in registers before the shared store (as Triton does)
  'matmul_i8.kn.d16': [8, 1, 1],
  'matmul_fp8kn.d16': [8, 1, 1],
  // libdevice calls are elementwise
  'libdevice.d16': [4, 0, 0],
  'libdevice_math.d16': [4, 0, 0],
  // descriptors made in the kernel: the TMA matmul's layouts
  'matmul_desc.f16': [8, 0, 0],
  'grouped_matmul_desc.f16': [4, 0, 0],
  'matmul_persistent_desc.f16': [8, 0, 0],
  'tma_reduce.add_f32': [4, 0, 0],
};

const load = (stem: string): Operation => parseText(readFileSync(new URL(`${stem}.ttir`, KERNELS), 'utf8'), {}, `${stem}.ttir`).module;

const defaultPipeline = (warps: number): string => `default{arch=sm_90a num-warps=${warps}}`;

/** Runs `pipeline` on `module` in place; fails the test with the diagnostics when a pass fails. */
function compile(module: Operation, pipeline: string, what: string): Operation {
  const r = runPipeline(module, pipeline);
  assert.ok(r.ok, `${what}: ${r.diagnostics.map((d) => d.format()).join('\n')}`);
  verify(module);
  return module;
}

/** The `ttg.convert_layout` ops one launch runs through: of a versioned kernel's two copies, the one with more. */
function countConverts(module: Operation): number {
  return perLaunch(module.region(0), (op) => (op.name === 'ttg.convert_layout' ? 1 : 0))!;
}

test('no more ttg.convert_layout than Triton, and exactly the recorded counts', () => {
  const got: Record<string, number> = {};
  for (const [stem, [warps]] of Object.entries(CONVERTS)) {
    const ours = countConverts(compile(load(stem), defaultPipeline(warps), stem));
    const triton = (readFileSync(new URL(`${stem}.ttgir`, TRITON_TTGIR), 'utf8').match(/ttg\.convert_layout/g) ?? []).length;
    assert.equal(triton, CONVERTS[stem][2], `${stem}: Triton's count in the table is out of date`);
    assert.ok(ours <= triton, `${stem}: ${ours} converts, Triton has ${triton}`);
    got[stem] = ours;
  }
  assert.equal(got, Object.fromEntries(Object.entries(CONVERTS).map(([s, [, n]]) => [s, n])));
});

// ---- semantic preservation in the CPU interpreter ----

/** A kernel launch on fresh buffers: runs `module` and returns the output buffers' contents. */
type Runner = (module: Operation, seed: number) => number[][];

/** attn_fwd (Triton's fused-attention tutorial), Z x H heads of N_CTX x 64, fp16. */
function attention(z: number, h: number, nCtx: number): Runner {
  const d = 64;
  return (module, seed) => {
    const random = rng(seed);
    const mem = new Memory();
    const n = z * h * nCtx * d;
    const [q, k, v] = ['q', 'k', 'v'].map((name) => mem.alloc('f16', n, name).fill(() => random() * 2 - 1));
    const m = mem.alloc('f32', z * h * nCtx, 'm');
    const o = mem.alloc('f16', n, 'o');
    const args = [q, k, v, 0.5, m, o, h * nCtx * d, nCtx * d, d, h, nCtx];
    interpret(module, 'attn_fwd', { grid: [nCtx / 128, z * h, 1], args, memory: mem });
    return [o.toNumbers(), m.toNumbers()];
  };
}

/** _layer_norm_fwd_fused: `rows` rows of `cols` fp16 columns (row stride `cols`). */
function layernorm(rows: number, cols: number): Runner {
  return (module, seed) => interpretLayernorm(module, rows, cols, seed);
}

/**
 * _layer_norm_bwd_dx_fused: dx of `rows` rows of `cols` fp16 columns, dw / db summed into `groups`
 * partial rows under the spin locks (the interpreter runs the programs one after another, so every
 * lock is free when taken); also returns the locks and counts.
 */
function layernormBwd(rows: number, cols: number, groups: number): Runner {
  return (module, seed) => {
    const random = rng(seed);
    const mem = new Memory();
    const [x, dy] = ['x', 'dy'].map((name) => mem.alloc('f16', rows * cols, name).fill(() => random() * 4 - 2));
    const w = mem.alloc('f16', cols, 'w').fill(() => random() + 0.5);
    const mean = mem.alloc('f32', rows, 'mean').fill(() => random() - 0.5);
    const rstd = mem.alloc('f32', rows, 'rstd').fill(() => random() + 0.5);
    const dx = mem.alloc('f16', rows * cols, 'dx').fill(() => -7);
    const [dw, db] = ['dw', 'db'].map((name) => mem.alloc('f16', groups * cols, name).fill(() => -7));
    const lock = mem.alloc('i32', 2 * groups, 'lock').fill(() => 0);
    const args = [dx, dy, dw, db, x, w, mean, rstd, lock, cols, cols];
    interpret(module, '_layer_norm_bwd_dx_fused', { grid: [rows, 1, 1], args, memory: mem });
    return [dx.toNumbers(), dw.toNumbers(), db.toNumbers(), lock.toNumbers()];
  };
}

/** scan_reverse_kernel: suffix sums of b and h[j] = a[j] * h[j + 1] + b[j] along rows of `cols` (row stride `cols`). */
function scanReverse(rows: number, cols: number): Runner {
  return (module, seed) => {
    const random = rng(seed);
    const mem = new Memory();
    const a = mem.alloc('f32', rows * cols, 'a').fill(() => random() * 0.5 + 0.5);
    const b = mem.alloc('f32', rows * cols, 'b').fill(() => random() * 2 - 1);
    const [suffix, h] = ['suffix', 'h'].map((name) => mem.alloc('f32', rows * cols, name).fill(() => -7));
    interpret(module, 'scan_reverse_kernel', { grid: [rows, 1, 1], args: [a, b, suffix, h, cols, cols], memory: mem });
    return [suffix.toNumbers(), h.toNumbers()];
  };
}

/** transpose_mask_kernel: Y (N x M) = X^T for an M x N fp32 X, `tile` x `tile` tiles. */
function transposeMask(tile: number, m: number, n: number): Runner {
  return (module, seed) => {
    const random = rng(seed);
    const mem = new Memory();
    const x = mem.alloc('f32', m * n, 'x').fill(() => random() * 2 - 1);
    // Filled so that a store outside the mask shows.
    const y = mem.alloc('f32', n * m, 'y').fill(() => -7);
    interpret(module, 'transpose_mask_kernel', { grid: [Math.ceil(m / tile), Math.ceil(n / tile), 1], args: [x, y, m, n, n, m], memory: mem });
    return [y.toNumbers()];
  };
}

/** join_split_kernel: interleave x and y into `out` (n x 2), x - y into `diff`, the products of `pairs`' rows into `prod`. */
function joinSplit(n: number): Runner {
  return (module, seed) => {
    const random = rng(seed);
    const mem = new Memory();
    const [x, y] = ['x', 'y'].map((name) => mem.alloc('f32', n, name).fill(() => random() * 2 - 1));
    const pairs = mem.alloc('f32', 2 * n, 'pairs').fill(() => random() * 2 - 1);
    const out = mem.alloc('f32', 2 * n, 'out').fill(() => -7);
    const [diff, prod] = ['diff', 'prod'].map((name) => mem.alloc('f32', n, name).fill(() => -7));
    interpret(module, 'join_split_kernel', { grid: [Math.ceil(n / 1024), 1, 1], args: [x, y, pairs, out, diff, prod, n], memory: mem });
    return [out.toNumbers(), diff.toNumbers(), prod.toNumbers()];
  };
}

/** histogram_kernel: each block of 1024 values of x (some outside [0, 256), counted nowhere) into its row of 256 bins. */
function histogram(n: number): Runner {
  return (module, seed) => {
    const random = rng(seed);
    const mem = new Memory();
    const x = mem.alloc('i32', n, 'x').fill(() => Math.floor(random() * 300) - 20);
    const out = mem.alloc('i32', Math.ceil(n / 1024) * 256, 'out').fill(() => -7);
    interpret(module, 'histogram_kernel', { grid: [Math.ceil(n / 1024), 1, 1], args: [x, out, n], memory: mem });
    return [out.toNumbers()];
  };
}

/** gather_kernel: out[i, j] = x[i, idx[i, j]] over `rows` rows of 128 (16 rows a program). */
function gatherRows(rows: number): Runner {
  return (module, seed) => {
    const random = rng(seed);
    const mem = new Memory();
    const x = mem.alloc('f32', rows * 128, 'x').fill(() => random() * 2 - 1);
    const idx = mem.alloc('i32', rows * 128, 'idx').fill(() => Math.floor(random() * 128));
    const out = mem.alloc('f32', rows * 128, 'out').fill(() => -7);
    interpret(module, 'gather_kernel', { grid: [Math.ceil(rows / 16), 1, 1], args: [x, idx, out, rows], memory: mem });
    return [out.toNumbers()];
  };
}

/** fp8_cast_kernel: quantize x * scale to e4m3 and h to e5m2, dequantize e4m3 bytes to f32 and bf16. */
function fp8Cast(n: number): Runner {
  return (module, seed) => {
    const random = rng(seed);
    const mem = new Memory();
    const x = mem.alloc('f32', n, 'x').fill(() => (random() * 2 - 1) * 600);
    const h = mem.alloc('f16', n, 'h').fill(() => (random() * 2 - 1) * 70000);
    // every e4m3 byte but the NaNs 0x7F and 0xFF
    const b = mem.alloc('f8E4M3FN', n, 'b');
    (b.storage as Uint8Array).forEach((_, k, bytes) => {
      const byte = Math.floor(random() * 256);
      bytes[k] = (byte & 0x7f) === 0x7f ? 0 : byte;
    });
    const q4 = mem.alloc('f8E4M3FN', n, 'q4');
    const q5 = mem.alloc('f8E5M2', n, 'q5');
    const w = mem.alloc('f32', n, 'w').fill(() => -7);
    const d = mem.alloc('bf16', n, 'd').fill(() => -7);
    interpret(module, 'fp8_cast_kernel', { grid: [Math.ceil(n / 1024), 1, 1], args: [x, h, b, q4, q5, w, d, n, 0.5], memory: mem });
    return [w.toNumbers(), q4.toNumbers(), q5.toNumbers(), d.toNumbers()];
  };
}

/** matmul_w8_kernel: C = (A @ B) * scale, A f16 [M, K], B e4m3 [K, N], one program per 128 x 128 tile. */
function matmulW8(m: number, n: number, k: number): Runner {
  return (module, seed) => {
    const random = rng(seed);
    const mem = new Memory();
    const a = mem.alloc('f16', m * k, 'a').fill(() => random() * 2 - 1);
    const b = mem.alloc('f8E4M3FN', k * n, 'b').fill(() => (random() * 2 - 1) * 4);
    const s = mem.alloc('f32', n, 's').fill(() => random() + 0.5);
    const c = mem.alloc('f16', m * n, 'c').fill(() => -7);
    interpret(module, 'matmul_w8_kernel', { grid: [Math.ceil(m / 128) * Math.ceil(n / 128), 1, 1], args: [a, b, s, c, m, n, k, k, n, n], memory: mem });
    return [c.toNumbers()];
  };
}

/** libdevice_kernel: round / rint / trunc, div_rn, fast_expf * fast_logf and integer bit functions. */
function libdeviceCalls(n: number): Runner {
  return (module, seed) => {
    const random = rng(seed);
    const mem = new Memory();
    const x = mem.alloc('f32', n, 'x').fill((k) => (k % 4 === 0 ? Math.floor(random() * 80 - 40) + 0.5 : (random() * 2 - 1) * 40));
    const y = mem.alloc('f32', n, 'y').fill(() => random() * 2 + 2);
    const k = mem.alloc('i32', n, 'k').fill(() => Math.floor(random() * 2 ** 32) - 2 ** 31);
    const outs = ['rnd', 'quo', 'fast'].map((name) => mem.alloc('f32', n, name).fill(() => -7));
    const bits = mem.alloc('i32', n, 'bits').fill(() => -7);
    interpret(module, 'libdevice_kernel', { grid: [Math.ceil(n / 1024), 1, 1], args: [x, y, k, ...outs, bits, n], memory: mem });
    return [...outs.map((o) => o.toNumbers()), bits.toNumbers()];
  };
}

/** The passes that choose and change layouts, as the default pipeline runs them (arch sm_90a). */
const layoutPipeline = (warps: number): string =>
  `canonicalize,cse,convert-to-gpu{num-warps=${warps} target=cuda:90},coalesce{mask-aligned=true},mma-lowering,remove-layout-conversions,canonicalize,cse,licm`;

/**
 * Variants run in the interpreter, with sizes small enough to stay fast. The TTIR assumes what its
 * tt.divisibility attributes say: N_CTX a multiple of 128 (BLOCK_M), layernorm's N and stride
 * multiples of 16 for the .d16 variant, M, N, ldx and ldy multiples of 16 for transpose_mask's .d16.
 */
const RUNS: [stem: string, run: Runner][] = [
  // Two K/V blocks per program (BLOCK_N = 64).
  ['attention.d64.full', attention(1, 1, 128)],
  // start_m = 1 runs two off-diagonal blocks (stage 1) and the diagonal block (stage 2, masked).
  ['attention.d64.causal', attention(1, 1, 256)],
  // 2 batches of 3 heads: K and V copied by TMA at (off_z, off_h, start_n, 0) of 4-d tensor maps.
  ['attention.d64.causal', attention(2, 3, 128)],
  // 3 rows of 4096 columns: 4 iterations of BLOCK_SIZE 1024 per loop.
  ['layernorm.b1024w8.d16', layernorm(3, 4096)],
  // 300 rows into 256 groups: 44 groups add a second row into their partial row, the rest one
  ['layernorm_bwd.b1024', layernormBwd(300, 1000, 256)],
  ['scan_reverse.b1024', scanReverse(3, 1000)],
  // 2 x 2 tiles of 64, the last ones partly out of bounds in both dimensions.
  ['transpose_mask.t64w4.odd', transposeMask(64, 100, 70)],
  ['transpose_mask.t64w4.d16', transposeMask(64, 128, 64)],
  // two programs of 1024, n a multiple of 16 as the .d16 TTIR assumes
  ['join_split.d16', joinSplit(2048)],
  ['histogram.d16', histogram(2048)],
  ['gather.d16', gatherRows(32)],
  // two programs of 1024, n a multiple of 16
  ['fp8_cast.d16', fp8Cast(2048)],
  // one 128 x 128 tile, two K iterations (BLOCK_K 64): the pipelined fp8 loads and the scaled epilogue
  ['matmul_w8.d16', matmulW8(128, 128, 128)],
  ['libdevice.d16', libdeviceCalls(2048)],
];

const SEED = 1234;

for (const [stem, run] of RUNS) {
  const warps = CONVERTS[stem][0];
  // Exact equality: the layout passes change where values live, never what is computed. The
  // interpreter computes a tt.dot the same way whatever the operand layouts (#mma/#dot_op are
  // annotations to it), so even the fp16 attention, through mma-lowering, gives bit-identical O and M.
  test(`${stem} (run ${RUNS.findIndex((r) => r[1] === run)}): the same outputs before and after the layout passes, and after the default pipeline`, () => {
    const reference = run(load(stem), SEED);
    assert.ok(reference[0].some((v) => v !== 0 && v !== -7), `${stem}: the reference run wrote nothing`);
    assert.equal(run(compile(load(stem), layoutPipeline(warps), stem), SEED), reference, `${stem}: after ${layoutPipeline(warps)}`);
    assert.equal(run(compile(load(stem), defaultPipeline(warps), stem), SEED), reference, `${stem}: after the default pipeline`);
  });
}

test.run();
