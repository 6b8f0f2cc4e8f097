/**
 * Unit tests of the axis-info analysis: the lattice helpers, constant measurement, the query
 * API, the lit files run in-process as `--test-print-axis-info --verify-diagnostics` would, and
 * the analysis on every example kernel (it must terminate and never throw).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import type { Operation, Value } from '../../ir/ir.js';
import { parseSourceFile, parseText } from '../../ir/parser.js';
import { denseInfo } from '../../passes/analysis/axis-info-constants.js';
import {
  AxisInfo, divisibilityAt, divisibilityOfEither, gcd, highestPowOf2Divisor, join, MAX_DIVISOR, multiplyDivisor, withHints,
} from '../../passes/analysis/axis-info-lattice.js';
import { AXIS_INFO, AxisInfoAnalysis, getAxisInfo, orderFromContiguity, rankOf } from '../../passes/analysis/axis-info.js';
import { AnalysisCache, PassContext } from '../../passes/pass.js';
import { testPrintAxisInfo } from '../../passes/test-print-axis-info.js';
import { splitInput } from '../../tools/input-chunks.js';
import { checkDiagnostics } from '../../tools/verify-diagnostics.js';

registerAllDialects();

const info = (c: number[], d: number[], k: number[], cv: bigint | null = null) => new AxisInfo(c, d, k, cv);

test('gcd, highestPowOf2Divisor and multiplyDivisor', () => {
  assert.is(gcd(12, 18), 6);
  assert.is(gcd(0, 7), 7);
  assert.is(gcd(16, 8, 12), 4);
  assert.is(highestPowOf2Divisor(0n), MAX_DIVISOR);
  assert.is(highestPowOf2Divisor(0n, 2 ** 30), 2 ** 30);
  assert.is(highestPowOf2Divisor(48n), 16);
  assert.is(highestPowOf2Divisor(-12n), 4);
  assert.is(highestPowOf2Divisor(1n << 63n), MAX_DIVISOR);
  assert.is(multiplyDivisor(16, 4), 64);
  assert.is(multiplyDivisor(2 ** 40, 2 ** 30), MAX_DIVISOR);
});

test('join: gcd per dimension, constants kept only when equal, bottom is the identity', () => {
  const a = info([128], [16], [1]);
  const b = info([64], [256], [1]);
  assert.is(join(undefined, a), a);
  assert.is(join(a, undefined), a);
  // Contiguities differ: divisibility measured at runs of 64 (16 still divides them).
  assert.is(join(a, b)!.toString(), 'contiguity = [64], divisibility = [16], constancy = [1], constant_value = <none>');
  const c4 = info([1], [4], [8], 4n);
  assert.is(join(c4, c4)!.constantValue, 4n);
  const c8 = info([1], [8], [8], 8n);
  assert.is(join(c4, c8)!.toString(), 'contiguity = [1], divisibility = [4], constancy = [8], constant_value = <none>');
  assert.is(join(info([1], [1], [1]), info([1, 1], [1, 1], [1, 1]))!.rank, 2);
});

test('divisibility at shorter runs (Triton example: [[0, 1], [4, 5]] or [16, 17, 18, 19])', () => {
  const lhs = info([2], [4], [1]);
  const rhs = info([4], [16], [1]);
  assert.is(divisibilityOfEither(lhs, rhs, 0), 2);
  assert.is(divisibilityAt(rhs, 0, 4), 16);
  assert.is(divisibilityAt(rhs, 0, 8), 16);
  assert.is(divisibilityAt(rhs, 0, 2), 2);
  assert.is(divisibilityAt(rhs, 0, 1), 1);
  assert.is(divisibilityAt(info([1], [16], [4]), 0, 1), 16);
});

test('withHints replaces dimensions of matching rank; toString is the remark format', () => {
  const base = AxisInfo.pessimistic(2);
  assert.is(withHints(base, { divisibility: [16, 16] }).toString(), 'contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1], constant_value = <none>');
  assert.ok(withHints(base, { divisibility: [16] }).equals(base));
  assert.is(info([1], [MAX_DIVISOR], [1], 0n).toString(), 'contiguity = [1], divisibility = [4611686018427387904], constancy = [1], constant_value = 0');
});

test('denseInfo measures runs, blocks and divisibility of explicit values', () => {
  assert.is(denseInfo([16n, 17n, 18n, 19n, 8n, 9n, 10n, 11n], [8]).toString(), 'contiguity = [4], divisibility = [8], constancy = [1], constant_value = <none>');
  assert.is(denseInfo([4n, 4n, 8n, 8n, 0n, 0n, 12n, 12n], [8]).toString(), 'contiguity = [1], divisibility = [4], constancy = [2], constant_value = <none>');
  assert.is(denseInfo([0n, 1n, 32n, 33n, 64n, 65n], [3, 2]).toString(), 'contiguity = [1, 2], divisibility = [1, 32], constancy = [1, 1], constant_value = <none>');
  assert.is(denseInfo([0n, 1n, 2n, 0n, 1n, 2n], [6]).contiguity[0], 3);
});

test('orderFromContiguity: decreasing contiguity, ties keep the last dimension first', () => {
  assert.equal(orderFromContiguity([1, 128]), [1, 0]);
  assert.equal(orderFromContiguity([128, 1]), [0, 1]);
  assert.equal(orderFromContiguity([1, 1]), [1, 0]);
  assert.equal(orderFromContiguity([4, 1, 4]), [2, 0, 1]);
});

/** The first op named `name` in `root`. */
function find(root: Operation, name: string, nth = 0): Operation {
  const all: Operation[] = [];
  root.walk((op) => void (op.name === name && all.push(op)), 'pre');
  assert.ok(all[nth], `no ${name} #${nth}`);
  return all[nth];
}

const VECADD = `tt.func @k(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
  %c = arith.constant 256 : i32
  %pid = tt.get_program_id x : i32
  %o = arith.muli %pid, %c : i32
  %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %s = tt.splat %o : i32 -> tensor<256xi32>
  %offs = arith.addi %s, %r : tensor<256xi32>
  %ns = tt.splat %n : i32 -> tensor<256xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<256xi32>
  %p = tt.splat %x : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>>
  %q = tt.addptr %p, %offs : tensor<256x!tt.ptr<f16>>, tensor<256xi32>
  %v = tt.load %q, %mask : tensor<256x!tt.ptr<f16>>
  tt.return
}`;

test('query API: lookup, alignment in elements, mask alignment, order; cached per module', () => {
  const { module } = parseText(VECADD);
  const cache = new AnalysisCache();
  const fn = find(module, 'tt.func');
  const a = getAxisInfo(cache, fn);
  assert.is(getAxisInfo(cache, find(module, 'tt.load')), a, 'one analysis per module');
  assert.ok(cache.has(AXIS_INFO, module));
  const q = find(module, 'tt.addptr').result(0);
  assert.is(a.lookup(q).toString(), 'contiguity = [256], divisibility = [16], constancy = [1], constant_value = <none>');
  assert.is(a.alignment(q, 0), 8, '16 bytes of f16 = 8 elements');
  const mask = find(module, 'arith.cmpi').result(0);
  assert.is(a.maskAlignment(mask, 0), 16);
  assert.equal(a.order(q), [0]);
  assert.is(a.contiguity(q), 256);
  assert.is(a.divisibility(q), 16);
  assert.is(a.constancy(find(module, 'tt.splat').result(0)), 256);
  assert.ok(a.converged);
  // Values the analysis never saw read as pessimistic.
  const { module: other } = parseText(VECADD);
  const foreign: Value = find(other, 'tt.addptr').result(0);
  assert.not.ok(a.has(foreign));
  assert.is(a.lookup(foreign).toString(), 'contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>');
});

test('rankOf: scalars 1, tensors their rank, pointers to tensors the tensor rank', () => {
  const { module } = parseText(`tt.func @f(%a: !tt.ptr<tensor<64x16xi32>>, %b: tensor<4x4x4xi32>, %c: i64) { tt.return }`);
  const args = find(module, 'tt.func').regions[0].entry!.args;
  assert.equal(args.map((v) => rankOf(v.type)), [2, 3, 1]);
});

test('loop-carried values need more than one sweep and reach the fixed point', () => {
  const { module } = parseText(`tt.func @f(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c24 = arith.constant 24 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c64) -> (i32) : i32 {
    %y = arith.addi %x, %c24 : i32
    scf.yield %y : i32
  }
  tt.return
}`);
  const a = new AxisInfoAnalysis(module);
  assert.ok(a.sweeps >= 3, `sweeps: ${a.sweeps}`);
  assert.is(a.divisibility(find(module, 'scf.for').result(0)), 8);
  assert.is(a.divisibility(find(module, 'arith.addi').result(0)), 8);
});

/** Runs a lit file as `--split-input-file --test-print-axis-info --verify-diagnostics` does; returns the problems. */
function verifyLit(name: string, text: string): string[] {
  const problems: string[] = [];
  for (const src of splitInput(name, text, '// -----')) {
    const { module } = parseSourceFile(src);
    const ctx = new PassContext(testPrintAxisInfo, {}, new AnalysisCache());
    testPrintAxisInfo.run(module, ctx);
    problems.push(...checkDiagnostics(src, ctx.remarks));
  }
  return problems;
}

for (const file of ['test-print-axis-info.tir', 'axis-info-loops.tir']) {
  const text = readFileSync(new URL(`../../lit/passes/${file}`, import.meta.url), 'utf8');
  test(`lit/passes/${file}`, () => {
    assert.equal(verifyLit(file, text), []);
  });
  test(`lit/passes/${file} fails on a wrong expectation`, () => {
    const broken = text.replace('divisibility = [16]', 'divisibility = [32]');
    assert.is.not(broken, text);
    assert.ok(verifyLit(file, broken).length > 0);
  });
}

const EXAMPLES = new URL('../../examples/ttir/', import.meta.url);
for (const file of readdirSync(EXAMPLES).filter((f) => f.endsWith('.ttir') || f.endsWith('.ttgir'))) {
  test(`examples/ttir/${file}: terminates, never throws, describes every value`, () => {
    const { module } = parseText(readFileSync(new URL(file, EXAMPLES), 'utf8'));
    const a = new AxisInfoAnalysis(module);
    assert.ok(a.converged && a.sweeps < 20, `sweeps: ${a.sweeps}`);
    module.walk((op) => {
      for (const r of op.results) assert.is(a.lookup(r).rank, rankOf(r.type));
    });
    const ctx = new PassContext(testPrintAxisInfo, {}, new AnalysisCache());
    testPrintAxisInfo.run(module, ctx);
    assert.ok(ctx.remarks.length > 0);
  });
}

test('examples: add_kernel pointers are 16-byte aligned runs of 1024', () => {
  const { module } = parseText(readFileSync(new URL('add_kernel.ttir', EXAMPLES), 'utf8'));
  const a = new AxisInfoAnalysis(module);
  for (let k = 0; k < 3; k++) {
    const p = find(module, 'tt.addptr', k).result(0);
    assert.is(a.lookup(p).toString(), 'contiguity = [1024], divisibility = [16], constancy = [1], constant_value = <none>');
    assert.is(a.alignment(p, 0), 4);
  }
});

test.run();
