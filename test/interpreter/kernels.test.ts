/**
 * The real Triton dumps in examples/ttir run on random inputs against plain-TS references
 * (ttir and the sm80/sm90 ttgir), and give identical outputs before and after canonicalize,cse.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllPasses } from '../../passes/all.js';
import { halfBitsToNumber, numberToHalfBits } from '../../ir/attributes.js';
import type { Operation } from '../../ir/ir.js';
import { runPipeline } from '../../passes/manager.js';
import { interpret } from '../../tools/interpreter/interpreter.js';
import { Memory } from '../../tools/interpreter/memory.js';
import { rng } from '../../tools/interpreter/cli.js';
import { parse } from './helpers.js';

registerAllPasses();

const dir = new URL('../../examples/ttir/', import.meta.url);
const load = (name: string): Operation => parse(readFileSync(new URL(name, dir), 'utf8'), name);
const h = (v: number): number => halfBitsToNumber(numberToHalfBits(v));
const timings: string[] = [];
let currentFile = '';

/** Runs a kernel and records its runtime. */
function timed(label: string, module: Operation, kernel: string, grid: number[], args: Parameters<typeof interpret>[2]['args'], mem: Memory): void {
  const r = interpret(module, kernel, { grid, args, memory: mem });
  timings.push(`${currentFile} ${label}: ${r.ms.toFixed(1)} ms, ${r.opsExecuted} ops`);
}

/** add_kernel on n elements: returns the output. */
function runAdd(module: Operation, n: number, seed = 1): { out: number[]; x: number[]; y: number[] } {
  const random = rng(seed);
  const mem = new Memory();
  const x = mem.alloc('f32', n, 'x').fill(() => random() * 2 - 1);
  const y = mem.alloc('f32', n, 'y').fill(() => random() * 2 - 1);
  const o = mem.alloc('f32', n, 'out');
  timed(`add n=${n}`, module, 'add_kernel', [Math.ceil(n / 1024), 1, 1], [x, y, o, n], mem);
  return { out: o.toNumbers(), x: x.toNumbers(), y: y.toNumbers() };
}

for (const file of ['add_kernel.ttir', 'add_kernel.sm80.ttgir']) {
  test(`${file}: matches x + y (n = 3000, masked tail)`, () => {
    currentFile = file;
    const { out, x, y } = runAdd(load(file), 3000);
    assert.equal(out, x.map((v, k) => Math.fround(v + y[k])));
  });
}

/** softmax_kernel over rows x cols with strides; returns out and the reference. */
function runSoftmax(module: Operation, rows: number, cols: number, programs: number): { out: number[]; ref: number[] } {
  const random = rng(7);
  const stride = 1024 + 16;
  const mem = new Memory();
  const out = mem.alloc('f32', rows * stride, 'out');
  const inp = mem.alloc('f32', rows * stride, 'in').fill(() => random() * 10 - 5);
  timed(`softmax ${rows}x${cols} on ${programs} programs`, module, 'softmax_kernel', [programs, 1, 1], [out, inp, stride, stride, rows, cols], mem);
  const x = inp.toNumbers();
  const ref = new Array<number>(rows * stride).fill(0);
  for (let r = 0; r < rows; r++) {
    const row = x.slice(r * stride, r * stride + cols);
    const m = Math.max(...row);
    const e = row.map((v) => Math.exp(v - m));
    const s = e.reduce((a, b) => a + b, 0);
    e.forEach((v, c) => (ref[r * stride + c] = v / s));
  }
  return { out: out.toNumbers(), ref };
}

for (const file of ['softmax_kernel.ttir', 'softmax_kernel.sm80.ttgir']) {
  test(`${file}: matches a plain softmax (7 rows x 1000 cols, 3 programs)`, () => {
    currentFile = file;
    const { out, ref } = runSoftmax(load(file), 7, 1000, 3);
    out.forEach((v, k) => assert.ok(Math.abs(v - ref[k]) <= 1e-6 * Math.max(1e-3, Math.abs(ref[k])) + 1e-9, `element ${k}: ${v} vs ${ref[k]}`));
  });
}

/** matmul_kernel (blocks 128x256x64, f16 in, f32 accumulate, f16 out) for M x N x K. */
function runMatmul(module: Operation, M: number, N: number, K: number): { out: number[]; ref: number[] } {
  const random = rng(3);
  const mem = new Memory();
  const a = mem.alloc('f16', M * K, 'a').fill(() => random() * 2 - 1);
  const b = mem.alloc('f16', K * N, 'b').fill(() => random() * 2 - 1);
  const c = mem.alloc('f16', M * N, 'c');
  const grid = Math.ceil(M / 128) * Math.ceil(N / 256);
  timed(`matmul ${M}x${N}x${K} (${grid} programs)`, module, 'matmul_kernel', [grid, 1, 1], [a, b, c, M, N, K, K, N, N], mem);
  const A = a.toNumbers();
  const B = b.toNumbers();
  const ref = new Array<number>(M * N);
  for (let i = 0; i < M; i++)
    for (let j = 0; j < N; j++) {
      let s = 0;
      for (let k = 0; k < K; k++) s = Math.fround(s + A[i * K + k] * B[k * N + j]);
      ref[i * N + j] = h(s);
    }
  return { out: c.toNumbers(), ref };
}

for (const file of ['matmul_kernel.ttir', 'matmul_kernel.sm80.ttgir', 'matmul_kernel.sm90.ttgir']) {
  test(`${file}: 128x256x128 equals the f32-accumulated reference exactly`, () => {
    currentFile = file;
    const { out, ref } = runMatmul(load(file), 128, 256, 128);
    assert.equal(out, ref);
  });
}

test('matmul_kernel.ttir: 160x256x96 (masked K tail, wrapped rows, masked store, 2 programs)', () => {
  currentFile = 'matmul_kernel.ttir';
  const { out, ref } = runMatmul(load('matmul_kernel.ttir'), 160, 256, 96);
  assert.equal(out, ref);
});

test('add / softmax / matmul give identical outputs before and after canonicalize,cse', () => {
  for (const file of ['add_kernel.ttir', 'softmax_kernel.ttir', 'matmul_kernel.ttir', 'matmul_kernel.sm80.ttgir']) {
    currentFile = `${file} (canonicalize,cse check)`;
    const before = load(file);
    const after = load(file);
    runPipeline(after, 'canonicalize,cse');
    if (file.startsWith('add')) assert.equal(runAdd(after, 2500, 5).out, runAdd(before, 2500, 5).out, file);
    else if (file.startsWith('softmax')) assert.equal(runSoftmax(after, 3, 700, 2).out, runSoftmax(before, 3, 700, 2).out, file);
    else assert.equal(runMatmul(after, 128, 256, 64).out, runMatmul(before, 128, 256, 64).out, file);
  }
});

test('timings', () => {
  console.log(`\n  interpreter runtimes:\n    ${timings.join('\n    ')}`);
});

test.run();
