/**
 * Tensor descriptors in the CPU interpreter: Triton's host-side descriptor kernels (bench/gpu/kernels:
 * tma_copy, matmul_tma, attention_tma, and matmul_desc and attention_desc with descriptors made in the kernel) run on the TTIR as Triton wrote it and after the `default`
 * pipeline for sm_90a, where their loads and stores are TMA copies, mbarriers and a software pipeline.
 * The outputs must be the same, and match an independent float64 computation; blocks past the
 * tensor's edge read zeros and are not written.
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
import { rng } from '../../tools/interpreter/cli.js';
import { interpret, type ArgValue } from '../../tools/interpreter/interpreter.js';
import { type Buffer, Memory } from '../../tools/interpreter/memory.js';

registerAllDialects();
registerAllPasses();

const KERNELS = new URL('../../bench/gpu/kernels/', import.meta.url);
const load = (stem: string): Operation => parseText(readFileSync(new URL(`${stem}.ttir`, KERNELS), 'utf8'), {}, `${stem}.ttir`).module;

/** `stem` after the default pipeline (sm_90a, `warps` warps). */
function compiled(stem: string, warps: number): Operation {
  const m = load(stem);
  const r = runPipeline(m, `default{arch=sm_90a num-warps=${warps}}`);
  assert.ok(r.ok, `${stem}: ${r.diagnostics.map((d) => d.format()).join('\n')}`);
  verify(m);
  return m;
}

/** The arguments Triton passes for a host descriptor over a row-major `rows` x `cols` buffer. */
const desc = (b: Buffer, rows: number, cols: number): ArgValue[] => [b, rows, cols, BigInt(cols), 1n];

/** Whether the compiled module uses TMA (so that the test checks that path). */
function usesTma(m: Operation): boolean {
  let found = false;
  m.walk((op) => void (op.name === 'ttng.async_tma_copy_global_to_local' && (found = true)));
  return found;
}

/**
 * Each of `c`'s elements at `points` within fp16 rounding of an independent float64 product of
 * row-major `a` (M x K) and `b` (K x N, or N x K when `bStoredNK`).
 */
function checkProduct({ a, b }: { a: number[]; b: number[] }, c: number[], [M, N, K]: number[], points: number[][], bStoredNK = false): void {
  for (const [i, j] of points) {
    assert.ok(i < M && j < N, `point ${i}, ${j} outside ${M} x ${N}`);
    let s = 0;
    for (let k = 0; k < K; k++) s += a[i * K + k] * (bStoredNK ? b[j * K + k] : b[k * N + j]);
    assert.ok(Math.abs(c[i * N + j] - s) <= 2e-3 * Math.abs(s) + 1e-2, `c[${i}, ${j}] = ${c[i * N + j]}, float64 ${s}`);
  }
}

test('tma_copy: Y = 2X + 1 through descriptors, partial edge blocks, before and after the pipeline', () => {
  const [M, N] = [70, 40]; // f32 32x32 blocks: the right and bottom blocks are partial
  const run = (module: Operation) => {
    const random = rng(3);
    const mem = new Memory();
    const x = mem.alloc('f32', M * N, 'x').fill(() => random() * 4 - 2);
    const y = mem.alloc('f32', M * N, 'y').fill(() => -7);
    interpret(module, 'tma_copy_kernel', { grid: [Math.ceil(M / 32), Math.ceil(N / 32), 1], args: [...desc(x, M, N), ...desc(y, M, N)], memory: mem });
    return { x: x.toNumbers(), y: y.toNumbers() };
  };
  const before = run(load('tma_copy.f32'));
  const after = run(compiled('tma_copy.f32', 4));
  before.x.forEach((v, k) => assert.is(before.y[k], Math.fround(2 * v + 1), `element ${k}`));
  assert.equal(after.y, before.y);
});

test('matmul_tma: the pipelined TMA matmul computes what the TTIR does, with a K tail', () => {
  const [M, N, K] = [136, 264, 80]; // 128x256x64 blocks: partial along M, N and K
  const after = compiled('matmul_tma.f16', 8);
  assert.ok(usesTma(after), 'the pipeline should copy the loads by TMA');
  const run = (module: Operation) => {
    const random = rng(5);
    const mem = new Memory();
    const a = mem.alloc('f16', M * K, 'a').fill(() => random() * 2 - 1);
    const b = mem.alloc('f16', K * N, 'b').fill(() => random() * 2 - 1);
    const c = mem.alloc('f16', M * N, 'c').fill(() => -7);
    const args = [...desc(a, M, K), ...desc(b, K, N), ...desc(c, M, N), M, N, K];
    interpret(module, 'matmul_tma_kernel', { grid: [Math.ceil(M / 128) * Math.ceil(N / 256), 1, 1], args, memory: mem });
    return { a: a.toNumbers(), b: b.toNumbers(), c: c.toNumbers() };
  };
  const before = run(load('matmul_tma.f16'));
  const got = run(after);
  assert.equal(got.c, before.c);
  checkProduct(before, got.c, [M, N, K], [[0, 0], [M - 1, N - 1], [77, 200], [135, 0]]);
});

test('matmul_desc: descriptors made in the kernel compute what the TTIR does, as launcher-built maps and as maps written on the device', () => {
  // Triton's TTIR of a kernel calling tl.make_tensor_descriptor on its parameters: by default the
  // descriptors become hidden tensor-map parameters; with host-tensor-maps=false they are tensor
  // maps written into global scratch and read back by ttng.reinterpret_tensor_descriptor.
  const [M, N, K] = [144, 272, 80]; // 128x256x64 blocks: partial along M, N and K
  const count = (m: Operation, name: string): number => {
    let n = 0;
    m.walk((op) => void (op.name === name && n++));
    return n;
  };
  const hosted = compiled('matmul_desc.f16', 8);
  const written = load('matmul_desc.f16');
  const r = runPipeline(written, 'default{arch=sm_90a num-warps=8 host-tensor-maps=false}');
  assert.ok(r.ok, r.diagnostics.map((d) => d.format()).join('\n'));
  verify(written);
  assert.ok(usesTma(hosted) && usesTma(written), 'both should copy the loads by TMA');
  assert.is(count(hosted, 'ttng.tensormap_create'), 0, 'launcher-built maps: nothing written on the device');
  assert.is(hosted.region(0).entry!.first!.region(0).entry!.args.length, 9, 'three hidden tensor-map parameters');
  assert.is(count(written, 'ttng.tensormap_create'), 3, 'one tensor map written per descriptor');
  const run = (module: Operation) => {
    const random = rng(9);
    const mem = new Memory();
    const a = mem.alloc('f16', M * K, 'a').fill(() => random() * 2 - 1);
    const b = mem.alloc('f16', K * N, 'b').fill(() => random() * 2 - 1);
    const c = mem.alloc('f16', M * N, 'c').fill(() => -7);
    interpret(module, 'matmul_desc_kernel', { grid: [Math.ceil(M / 128) * Math.ceil(N / 256), 1, 1], args: [a, b, c, M, N, K], memory: mem });
    return { a: a.toNumbers(), b: b.toNumbers(), c: c.toNumbers() };
  };
  const before = run(load('matmul_desc.f16'));
  assert.equal(run(hosted).c, before.c);
  assert.equal(run(written).c, before.c);
  checkProduct(before, before.c, [M, N, K], [[0, 0], [M - 1, N - 1], [77, 200], [143, 0], [130, 260]]);
});

test("matmul (pointers): pointer-to-tma's copies compute what the TTIR does, wrapped rows and columns included", () => {
  // Triton's tutorial matmul (128x256x64 blocks, rows % M and columns % N): at 144 x 272 the edge
  // programs' blocks wrap; the TMA copies read zeros there instead of the wrapped rows, which only
  // reach products the store masks out.
  const [M, N, K] = [144, 272, 80];
  const after = compiled('matmul.d16', 8);
  assert.ok(usesTma(after), 'the pipeline should copy the pointer loads by TMA');
  let versioned = false;
  after.walk((op) => void (op.name === 'scf.if' && op.getAttr('tir.versions') && (versioned = true)));
  assert.not.ok(versioned, 'no copy of the loop is needed: the wrapped rows are masked out at the store');
  const run = (module: Operation) => {
    const random = rng(7);
    const mem = new Memory();
    const a = mem.alloc('f16', M * K, 'a').fill(() => random() * 2 - 1);
    const b = mem.alloc('f16', K * N, 'b').fill(() => random() * 2 - 1);
    const c = mem.alloc('f16', M * N, 'c').fill(() => -7);
    interpret(module, 'matmul_kernel', { grid: [Math.ceil(M / 128) * Math.ceil(N / 256), 1, 1], args: [a, b, c, M, N, K, K, N, N], memory: mem });
    return { a: a.toNumbers(), b: b.toNumbers(), c: c.toNumbers() };
  };
  const before = run(load('matmul.d16'));
  const got = run(after);
  assert.equal(got.c, before.c);
  checkProduct(before, got.c, [M, N, K], [[0, 0], [M - 1, N - 1], [130, 260], [143, 0]]);
});

test('matmul with B stored N x K (pointers): the N x K boxes copied by TMA and transposed compute what the TTIR does', () => {
  // The kernel of lit/passes/pointer-to-tma.tir's `b_stored_n_by_k` case (64x64x32 blocks, rows % M,
  // columns % N, K masked; B's K contiguous, as Triton's fp8 matmul passes it), whose f16 tiles the
  // interpreter computes (it has no fp8). At 80 x 100 x 40 the edge programs wrap along M and N.
  const chunk = readFileSync(new URL('../../lit/passes/pointer-to-tma.tir', import.meta.url), 'utf8').split('// -----').find((c) => c.includes('@b_stored_n_by_k('))!;
  const parse = () => parseText(chunk, {}, 'pointer-to-tma.tir').module;
  const after = parse();
  const r = runPipeline(after, 'default{arch=sm_90a num-warps=4}');
  assert.ok(r.ok, r.diagnostics.map((d) => d.format()).join('\n'));
  verify(after);
  let copies = 0;
  after.walk((op) => void (op.name === 'ttng.async_tma_copy_global_to_local' && copies++));
  assert.ok(copies >= 2, `both operands should be TMA copies, found ${copies} copy ops`);
  const [M, N, K] = [80, 100, 40];
  const run = (module: Operation) => {
    const random = rng(11);
    const mem = new Memory();
    const a = mem.alloc('f16', M * K, 'a').fill(() => random() * 2 - 1);
    const b = mem.alloc('f16', N * K, 'b').fill(() => random() * 2 - 1);
    const c = mem.alloc('f32', M * N, 'c').fill(() => -7);
    interpret(module, 'b_stored_n_by_k', { grid: [Math.ceil(M / 64), Math.ceil(N / 64), 1], args: [a, b, c, M, N, K, K, K], memory: mem });
    return { a: a.toNumbers(), b: b.toNumbers(), c: c.toNumbers() };
  };
  const before = run(parse());
  const got = run(after);
  assert.equal(got.c, before.c);
  checkProduct(before, got.c, [M, N, K], [[0, 0], [M - 1, N - 1], [70, 90]], true);
});

test('attention_tma: the TMA attention computes what the TTIR does', () => {
  const [H, nCtx, d] = [1, 256, 64];
  const after = compiled('attention_tma.d64.causal', 4);
  assert.ok(usesTma(after), 'the pipeline should copy K and V by TMA');
  const run = (module: Operation) => {
    const random = rng(9);
    const mem = new Memory();
    const rows = H * nCtx;
    const [q, k, v] = ['q', 'k', 'v'].map((name) => mem.alloc('f16', rows * d, name).fill(() => random() * 2 - 1));
    const m = mem.alloc('f32', rows, 'm');
    const o = mem.alloc('f16', rows * d, 'o').fill(() => -7);
    const args = [0.125, m, H, ...desc(q, rows, d), ...desc(k, rows, d), ...desc(v, rows, d), ...desc(o, rows, d), nCtx];
    interpret(module, 'attn_fwd_tma', { grid: [nCtx / 128, H, 1], args, memory: mem });
    return [o.toNumbers(), m.toNumbers()];
  };
  assert.equal(run(after), run(load('attention_tma.d64.causal')));
});

test('attention_desc: descriptors made over the (Z * H * N_CTX, 64) view become launcher-built maps of a product of parameters', () => {
  const [Z, H, nCtx, d] = [2, 1, 256, 64];
  const after = compiled('attention_desc.d64.causal', 4);
  assert.ok(usesTma(after), 'the pipeline should copy K and V by TMA');
  let made = 0;
  after.walk((op) => void ((op.name === 'tt.make_tensor_descriptor' || op.name === 'ttng.tensormap_create') && made++));
  assert.is(made, 0, 'no descriptor is made on the device');
  const fn = after.region(0).entry!.first!;
  const hidden = String(fn.getAttr('arg_attrs'));
  assert.ok(hidden.includes('shape = [{params = [2 : i32, 3 : i32, 8 : i32], times = 1 : i64}, {params = [], times = 64 : i64}]'), `rows Z * H * N_CTX, 64 columns: ${hidden}`);
  const run = (module: Operation) => {
    const random = rng(11);
    const mem = new Memory();
    const rows = Z * H * nCtx;
    const [q, k, v] = ['q', 'k', 'v'].map((name) => mem.alloc('f16', rows * d, name).fill(() => random() * 2 - 1));
    const m = mem.alloc('f32', rows, 'm');
    const o = mem.alloc('f16', rows * d, 'o').fill(() => -7);
    interpret(module, 'attn_fwd_desc', { grid: [nCtx / 128, Z * H, 1], args: [0.125, m, Z, H, q, k, v, o, nCtx], memory: mem });
    return [o.toNumbers(), m.toNumbers()];
  };
  const before = run(load('attention_desc.d64.causal'));
  assert.ok(before[0].every((x) => x !== -7), 'every output row is written');
  assert.equal(run(after), before);
});

test('tma_reduce: reductions through descriptors (f32 add, signed i32 max) compute what the TTIR does, partial edge blocks included', () => {
  const [M, N, R] = [100, 72, 3]; // 64 x 64 blocks: the right and bottom blocks are partial; R programs per block
  for (const [stem, elt] of [['tma_reduce.add_f32', 'f32'], ['tma_reduce.max_i32', 'i32']] as const) {
    const after = compiled(stem, 4);
    let reduces = 0;
    after.walk((op) => void (op.name === 'ttng.async_tma_reduce' && reduces++));
    assert.is(reduces, 1, `${stem}: one TMA reduction`);
    const run = (module: Operation) => {
      const random = rng(13);
      const mem = new Memory();
      const value = () => (elt === 'f32' ? random() * 4 - 2 : Math.floor(random() * 2000) - 1000);
      const x = mem.alloc(elt, M * N, 'x').fill(value);
      const y = mem.alloc(elt, M * N, 'y').fill(value);
      const y0 = y.toNumbers();
      interpret(module, 'tma_reduce_kernel', { grid: [Math.ceil(M / 64), Math.ceil(N / 64), R], args: [...desc(x, M, N), ...desc(y, M, N)], memory: mem });
      return { x: x.toNumbers(), y0, y: y.toNumbers() };
    };
    const before = run(load(stem));
    assert.equal(run(after).y, before.y, `${stem}: the same after the pipeline`);
    before.x.forEach((v, k) => {
      const want = elt === 'f32' ? before.y0[k] + R * v : Math.max(before.y0[k], v);
      assert.ok(Math.abs(before.y[k] - want) <= 1e-5 * Math.abs(want) + 1e-5, `${stem} element ${k}: ${before.y[k]}, want ${want}`);
    });
  }
});

test.run();
