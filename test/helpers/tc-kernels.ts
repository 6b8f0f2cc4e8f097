/**
 * Helpers for running the Triton-C example kernels (examples/triton-c/*.tc) in the CPU interpreter
 * against plain-TS float64 references: a seeded PRNG whose seed is printed on failure, exact f16
 * rounding written here (independent of the code under test), compile + verify, padded matrices
 * whose padding is NaN (so stray reads show up in the result), references and tolerant comparison.
 *
 * Seeds: every run draws a fresh base seed (or takes `TC_KERNEL_SEED=<n>` from the environment);
 * each test derives its own seed from the base seed and its name, so a failure reproduces with
 * `TC_KERNEL_SEED=<base> npx tsx test/frontend/kernels-<x>.test.ts`.
 */
import { readFileSync } from 'node:fs';
import * as assert from 'uvu/assert';
import { randomInt } from 'node:crypto';
import { compileTritonC, type FrontendOptions } from '../../frontend/triton-c/index.js';
import type { Operation } from '../../ir/ir.js';
import { verify } from '../../ir/verifier.js';
import { runPipeline } from '../../passes/manager.js';
import { parsePipeline, pipelineText } from '../../passes/pipeline-text.js';
import { type ArgValue, interpret } from '../../tools/interpreter/interpreter.js';
import type { Buffer, Memory } from '../../tools/interpreter/memory.js';

/** A source of uniform numbers in [0, 1). */
export type Random = () => number;

/** The base seed of this run: `TC_KERNEL_SEED` if set, else fresh. */
export const BASE_SEED: number = process.env.TC_KERNEL_SEED ? Number(process.env.TC_KERNEL_SEED) >>> 0 : randomInt(2 ** 31);

/** A small seeded PRNG (xorshift32 scrambled through a multiply); deterministic for a given seed. */
export function makeRandom(seed: number): Random {
  let s = (seed >>> 0) || 0x9e3779b9;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return (Math.imul(s, 0x2545f491) >>> 0) / 4294967296;
  };
}

/** FNV-1a hash of a string, to derive per-test seeds. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193) >>> 0;
  return h;
}

/** Runs `body` with a PRNG seeded from the base seed and `name`; a failure's message gets the seeds and how to rerun. */
export function withSeed(name: string, body: (random: Random) => void): void {
  const seed = (BASE_SEED ^ hash(name)) >>> 0;
  try {
    body(makeRandom(seed));
  } catch (e) {
    const note = `[${name}: base seed ${BASE_SEED}, test seed ${seed}; rerun with TC_KERNEL_SEED=${BASE_SEED}]`;
    if (e instanceof Error) {
      e.message = `${e.message}\n${note}`;
      throw e;
    }
    throw new Error(`${String(e)}\n${note}`);
  }
}

/** Rounds a double to IEEE half precision (round to nearest even, overflow to infinity, subnormals kept). */
export function roundHalf(v: number): number {
  if (!Number.isFinite(v) || v === 0) return v;
  const a = Math.abs(v);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  const ulp = 2 ** (Math.max(e, -14) - 10);
  const q = a / ulp;
  let r = Math.round(q);
  if (r - q === 0.5 && r % 2 !== 0) r--;
  const out = r * ulp >= 65520 ? Infinity : r * ulp;
  return v < 0 ? -out : out;
}

/** The exact value an element of type `elt` holds after storing `v`. */
export function roundTo(elt: 'f32' | 'f16', v: number): number {
  return elt === 'f16' ? roundHalf(v) : Math.fround(v);
}

/** Element type name of a Triton-C TYPE macro value. */
export function eltOf(type: string): 'f32' | 'f16' {
  if (type === 'float') return 'f32';
  if (type === 'half') return 'f16';
  throw new Error(`unsupported TYPE ${type}`);
}

/** Reads examples/triton-c/<file>. */
export function exampleSource(file: string): string {
  return readFileSync(new URL(`../../examples/triton-c/${file}`, import.meta.url), 'utf8');
}

/** Compiles examples/triton-c/<file> with `defines` (and frontend `options`) and verifies the module. */
export function compileExample(file: string, defines: Record<string, string>, options: FrontendOptions = {}): Operation {
  const module = compileTritonC(exampleSource(file), file, defines, options);
  verify(module);
  return module;
}

/** Runtimes of the interpreter launches, printed by each test file at the end. */
export const timings: string[] = [];

/** Runs `kernel` on `grid` and records the launch's runtime under `label`. */
export function launch(label: string, module: Operation, kernel: string, grid: number[], args: ArgValue[], memory: Memory): void {
  const r = interpret(module, kernel, { grid, args, memory });
  timings.push(`${label}: grid [${grid.join(', ')}], ${r.ms.toFixed(0)} ms, ${r.opsExecuted} ops`);
}

/**
 * Runs each pass of `pipeline` (e.g. `default{arch=sm_90a num-warps=4}`, passes registered) on
 * `module` in turn: each must succeed and leave a module that verifies and whose `outputs` equal
 * `reference` bit for bit; `after(pass)` may check more after each pass.
 */
export function checkEachPass(label: string, module: Operation, pipeline: string, reference: number[], outputs: (m: Operation, what: string) => number[], after?: (pass: string) => void): void {
  for (const entry of parsePipeline(pipeline)) {
    const name = entry.pass.name;
    const r = runPipeline(module, pipelineText([entry]));
    assert.ok(r.ok, `${label} ${name}: ${r.diagnostics.map((d) => d.format()).join('\n')}`);
    verify(module);
    assert.equal(outputs(module, `${label} ${name}`), reference, `${label}: outputs changed after '${name}'`);
    after?.(name);
  }
}

/** A rows x cols matrix in a buffer with leading dimension `ld` (elements), padding and `tail` extra elements NaN. */
export interface Matrix {
  buffer: Buffer;
  rows: number;
  cols: number;
  ld: number;
  /** The exact element values (rounded to the buffer's type), row-major rows x cols. */
  values: number[];
}

/** Allocates a padded matrix filled with uniform values in [-1, 1) (rounded to `elt`); all padding is NaN. */
export function randomMatrix(mem: Memory, elt: 'f32' | 'f16', rows: number, cols: number, ld: number, tail: number, random: Random, name: string): Matrix {
  const buffer = mem.alloc(elt, rows * ld + tail, name).fill(() => NaN);
  const values: number[] = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const v = roundTo(elt, random() * 2 - 1);
      values.push(v);
      buffer.set(r * ld + c, v);
    }
  for (let k = 0; k < values.length; k++) {
    const got = buffer.get(Math.floor(k / cols) * ld + (k % cols));
    if (got !== values[k]) throw new Error(`${name}: buffer holds ${got} after storing the ${elt} value ${values[k]}`);
  }
  return { buffer, rows, cols, ld, values };
}

/** Allocates an output matrix whose every element (padding included) is `sentinel`. */
export function outputMatrix(mem: Memory, elt: 'f32' | 'f16', rows: number, cols: number, ld: number, sentinel: number, name: string): Matrix {
  const buffer = mem.alloc(elt, rows * ld, name).fill(() => sentinel);
  return { buffer, rows, cols, ld, values: [] };
}

/** Element (r, c) of a matrix's logical values. */
export function at(m: Matrix, r: number, c: number): number {
  return m.values[r * m.cols + c];
}

/** float64 product of logical M x K and K x N operands given as element getters, with Σ|a·b| per entry (for tolerances). */
export function matmulRef(M: number, N: number, K: number, a: (i: number, k: number) => number, b: (k: number, j: number) => number): { ref: number[]; mag: number[] } {
  const ref = new Array<number>(M * N).fill(0);
  const mag = new Array<number>(M * N).fill(0);
  for (let i = 0; i < M; i++)
    for (let j = 0; j < N; j++) {
      let s = 0;
      let m = 0;
      for (let k = 0; k < K; k++) {
        const p = a(i, k) * b(k, j);
        s += p;
        m += Math.abs(p);
      }
      ref[i * N + j] = s;
      mag[i * N + j] = m;
    }
  return { ref, mag };
}

/**
 * Tolerance of one matmul entry: f32 accumulation of K exact products (each step within 2^-24
 * relative of the running magnitude) and, for f16 outputs, the final rounding to half
 * (2^-11 relative, 2^-25 absolute for subnormals); doubled as margin.
 */
export function matmulTolerance(elt: 'f32' | 'f16', K: number, ref: number, mag: number): number {
  const acc = K * 2 ** -24 * mag;
  const out = elt === 'f16' ? 2 ** -11 * Math.abs(ref) + 2 ** -25 : 2 ** -24 * Math.abs(ref);
  return 2 * (acc + out);
}

/**
 * Checks the output matrix: the rows x cols region against `ref` within `tol(k)`, and every
 * other element (padding) still equal to `sentinel`. Reports up to 5 mismatches.
 */
export function checkMatrix(label: string, out: Matrix, ref: number[], tol: (k: number) => number, sentinel: number): void {
  const bad: string[] = [];
  let count = 0;
  for (let k = 0; k < out.buffer.length; k++) {
    const r = Math.floor(k / out.ld);
    const c = k % out.ld;
    const got = Number(out.buffer.get(k));
    const inside = r < out.rows && c < out.cols;
    const want = inside ? ref[r * out.cols + c] : sentinel;
    const ok = inside ? Math.abs(got - want) <= tol(r * out.cols + c) : Object.is(got, want);
    if (ok) continue;
    count++;
    if (bad.length < 5) bad.push(`  (${r}, ${c})${inside ? '' : ' [padding]'}: got ${got}, expected ${want}${inside ? ` ± ${tol(r * out.cols + c).toExponential(2)}` : ''}`);
  }
  if (count > 0) throw new Error(`${label}: ${count} of ${out.buffer.length} elements wrong\n${bad.join('\n')}`);
}
