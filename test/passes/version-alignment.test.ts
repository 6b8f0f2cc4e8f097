/**
 * `version-alignment` on Triton 3.6's own TTIR of its tutorial matmul specialized for an odd shape
 * (`bench/gpu/kernels/matmul.odd.ttir`: no divisibility known of M, N, K or the strides): the CPU
 * interpreter computes the same C before the pass, after it and after the whole default pipeline,
 * for a launch whose sizes and strides are multiples of 4 (the specialized copy) and one whose are
 * not (the original copy). Which copy runs is checked by emptying the other one: C must then keep
 * the NaNs it was filled with.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import * as scf from '../../dialects/scf.js';
import type { Operation } from '../../ir/ir.js';
import { parseText } from '../../ir/parser.js';
import { verify } from '../../ir/verifier.js';
import { registerAllPasses } from '../../passes/all.js';
import { runPipeline } from '../../passes/manager.js';
import { rng } from '../../tools/interpreter/cli.js';
import { interpret } from '../../tools/interpreter/interpreter.js';
import { Memory } from '../../tools/interpreter/memory.js';

registerAllDialects();
registerAllPasses();

const FILE = new URL('../../bench/gpu/kernels/matmul.odd.ttir', import.meta.url);
const load = (): Operation => parseText(readFileSync(FILE, 'utf8'), {}, 'matmul.odd.ttir').module;

/** C = A (M x K) @ B (K x N) by the kernel on seeded random inputs, C filled with NaN first. */
function run(module: Operation, [M, N, K]: number[], seed: number): number[] {
  const random = rng(seed);
  const mem = new Memory();
  const a = mem.alloc('f16', M * K, 'a').fill(() => random() * 2 - 1);
  const b = mem.alloc('f16', K * N, 'b').fill(() => random() * 2 - 1);
  const c = mem.alloc('f16', M * N, 'c').fill(() => NaN);
  const grid = Math.ceil(M / 128) * Math.ceil(N / 256);
  interpret(module, 'matmul_kernel', { grid: [grid, 1, 1], args: [a, b, c, M, N, K, K, N, N], memory: mem });
  return c.toNumbers();
}

/** Asserts `got` equals `want` element by element (NaN equal to NaN), naming the first difference (uvu's diff of 30,000-element arrays takes minutes). */
function same(got: number[], want: number[], what: string): void {
  const k = got.findIndex((v, i) => !Object.is(v, want[i]));
  assert.ok(got.length === want.length && k < 0, `${what}: element ${k} is ${got[k]}, expected ${want[k]}`);
}

/** The module after `pipeline`, which must succeed and verify. */
function after(pipeline: string): Operation {
  const module = load();
  const r = runPipeline(module, pipeline);
  assert.ok(r.ok, r.diagnostics.map((d) => d.format()).join('\n'));
  verify(module);
  return module;
}

/** The kernel's top-level scf.if (the two copies). */
function versions(module: Operation): Operation {
  let found: Operation | null = null;
  module.walk((op) => {
    if (!found && scf.IfOp.is(op) && op.parent?.parentOp?.name === 'tt.func') found = op;
  });
  assert.ok(found, 'the kernel body is versioned');
  return found!;
}

/** Erases the ops of region `k` of `ifOp` (its terminator stays). */
function empty(ifOp: Operation, k: number): void {
  const block = ifOp.regions[k].blocks[0];
  for (const op of [...block.ops].reverse()) if (op !== block.terminator) op.erase();
}

// Multiples of 4 that are not multiples of 16 (the odd TTIR's specialization), and sizes that are not.
const ALIGNED = [136, 260, 76];
const UNALIGNED = [130, 263, 70];
const seed = Date.now() % 100000;

for (const [name, shape] of [['aligned sizes (the specialized copy)', ALIGNED], ['odd sizes (the original copy)', UNALIGNED]] as const) {
  test(`version-alignment keeps C on ${name}, after the pass and after the default pipeline (seed ${seed})`, () => {
    const reference = run(load(), shape, seed);
    assert.ok(reference.every((v) => !Number.isNaN(v)) && reference.some((v) => v !== 0), 'the reference writes all of C');
    same(run(after('version-alignment'), shape, seed), reference, 'after version-alignment');
    same(run(after('default{num-warps=8}'), shape, seed), reference, 'after the default pipeline');
  });
}

test('version-alignment: the aligned launch runs the specialized copy, the odd one the original', () => {
  const thenOnly = after('version-alignment');
  empty(versions(thenOnly), 1);
  const elseOnly = after('version-alignment');
  empty(versions(elseOnly), 0);
  const reference = run(load(), ALIGNED, seed);
  same(run(thenOnly, ALIGNED, seed), reference, 'the specialized copy alone, aligned sizes');
  assert.ok(run(elseOnly, ALIGNED, seed).every(Number.isNaN), 'the original copy does not run on aligned sizes');
  assert.ok(run(thenOnly, UNALIGNED, seed).every(Number.isNaN), 'the specialized copy does not run on odd sizes');
  same(run(elseOnly, UNALIGNED, seed), run(load(), UNALIGNED, seed), 'the original copy alone, odd sizes');
});

/** The parameters the versioned if's condition of `module` reads. */
function tested(module: Operation): string[] {
  const names = new Set<string>();
  const walkBack = (op: Operation | null): void => {
    if (!op) return;
    for (const v of op.operandValues()) {
      if (v.definingOp) walkBack(v.definingOp);
      else if (v.nameHint) names.add(v.nameHint);
    }
  };
  walkBack(versions(module).operand(0).definingOp);
  return [...names].sort();
}

test('version-alignment: the condition tests K, N and the strides the accesses depend on, not M', () => {
  // every access (the default): the C store's stride too
  assert.equal(tested(after('version-alignment')), ['K', 'N', 'stride_am', 'stride_bk', 'stride_cm']);
  // the dot's operand loads only
  assert.equal(tested(after('version-alignment{accesses=dot-operands}')), ['K', 'N', 'stride_am', 'stride_bk']);
});

test.run();
