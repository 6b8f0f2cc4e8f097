/**
 * Unit tests of the `canonicalize` pass: exact output, statistics, options, idempotence, the
 * greedy driver's non-convergence error, and the lit test run in-process.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { UnitAttr } from '../../ir/attributes.js';
import { DiagnosticError } from '../../ir/diagnostics.js';
import type { Operation } from '../../ir/ir.js';
import { applyPatternsGreedily, type RewritePattern } from '../../ir/patterns.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { verify } from '../../ir/verifier.js';
import { canonicalize, collectCanonicalizationPatterns } from '../../passes/canonicalize.js';
import { AnalysisCache, PassContext, type PassOptions } from '../../passes/pass.js';
import { runFileCheck } from '../../tools/filecheck.js';

registerAllDialects();

/** Runs canonicalize on an already parsed module; returns the print and statistics. */
function runOn(module: Operation, options: PassOptions = {}): { out: string; stats: Map<string, number> } {
  const defaults = Object.fromEntries(Object.entries(canonicalize.options ?? {}).map(([k, d]) => [k, d.default]));
  const ctx = new PassContext(canonicalize, { ...defaults, ...options }, new AnalysisCache());
  canonicalize.run(module, ctx);
  verify(module);
  return { out: printModule(module), stats: ctx.statistics };
}

/** Parses and verifies `text`, runs canonicalize, and returns the print and statistics. */
function run(text: string, options: PassOptions = {}): { out: string; stats: Map<string, number> } {
  const { module } = parseText(text);
  verify(module);
  return runOn(module, options);
}

const LIT = readFileSync(new URL('../../lit/passes/canonicalize.tir', import.meta.url), 'utf8');
const CASES = LIT.split(/^\/\/ -----$/m);

test('folds constants and identities, inlines a constant scf.if, counts what it did', () => {
  const { out, stats } = run(`func.func @f(%arg0: i32, %arg1: i32) -> (i32, i32) {
  %c0_i32 = arith.constant 0 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %true = arith.constant true
  %0 = arith.addi %arg0, %c0_i32 : i32
  %1 = arith.muli %c2_i32, %c3_i32 : i32
  %2 = scf.if %true -> (i32) {
    %3 = arith.muli %c2_i32, %arg1 : i32
    scf.yield %3 : i32
  } else {
    scf.yield %arg1 : i32
  }
  return %0, %2 : i32, i32
}`);
  assert.fixture(out, `module {
  func.func @f(%arg0: i32, %arg1: i32) -> (i32, i32) {
    %c2_i32 = arith.constant 2 : i32
    %0 = arith.muli %arg1, %c2_i32 : i32
    return %arg0, %0 : i32, i32
  }
}
`);
  // Patterns: scf.if inlined, muli's constant moved right. Folded: addi x, 0. Erased: the unused
  // muli 2, 3 (dead before it is folded), then the constants 0, 3 and true.
  assert.equal(Object.fromEntries(stats), { 'patterns-applied': 2, 'ops-folded': 1, 'ops-erased': 4 });
});

test('casts of constants read the operand signed or unsigned at its width', () => {
  const { out } = run(`func.func @f() -> (i32, i32, f32, f32, i8) {
  %true = arith.constant true
  %m1 = arith.constant -1 : i8
  %0 = arith.extsi %true : i1 to i32
  %1 = arith.extui %true : i1 to i32
  %2 = arith.uitofp %m1 : i8 to f32
  %3 = arith.sitofp %m1 : i8 to f32
  %c = arith.constant 300 : index
  %4 = arith.index_castui %c : index to i8
  return %0, %1, %2, %3, %4 : i32, i32, f32, f32, i8
}`);
  assert.fixture(out, `module {
  func.func @f() -> (i32, i32, f32, f32, i8) {
    %c-1_i32 = arith.constant -1 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant 2.550000e+02 : f32
    %cst_0 = arith.constant -1.000000e+00 : f32
    %c44_i8 = arith.constant 44 : i8
    return %c-1_i32, %c1_i32, %cst, %cst_0, %c44_i8 : i32, i32, f32, f32, i8
  }
}
`);
});

test('scf.for: unused and invariant iter_args go, the loop with a store stays', () => {
  const { out } = run(`tt.func @f(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: f32, %arg4: !tt.ptr<f32>) -> f32 {
  %0:2 = scf.for %arg5 = %arg0 to %arg1 step %arg2 iter_args(%arg6 = %arg3, %arg7 = %arg3) -> (f32, f32)  : i32 {
    %1 = arith.addf %arg6, %arg6 : f32
    tt.store %arg4, %1 : !tt.ptr<f32>
    %2 = arith.mulf %arg3, %arg3 : f32
    scf.yield %arg6, %2 : f32, f32
  }
  tt.return %0#0 : f32
}`);
  assert.fixture(out, `module {
  tt.func @f(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: f32, %arg4: !tt.ptr<f32>) -> f32 {
    scf.for %arg5 = %arg0 to %arg1 step %arg2  : i32 {
      %0 = arith.addf %arg3, %arg3 : f32
      tt.store %arg4, %0 : !tt.ptr<f32>
    }
    tt.return %arg3 : f32
  }
}
`);
});

test('scf.for: an iter_arg feeding only its own next value stays (as in MLIR)', () => {
  const input = `module {
  func.func @f(%arg0: index, %arg1: index, %arg2: index, %arg3: f32) -> f32 {
    %0 = scf.for %arg4 = %arg0 to %arg1 step %arg2 iter_args(%arg5 = %arg3) -> (f32) {
      %1 = arith.mulf %arg5, %arg5 : f32
      scf.yield %1 : f32
    }
    return %0 : f32
  }
}
`;
  assert.fixture(run(input).out, input);
});

test('fold=false keeps foldable ops but still applies patterns', () => {
  const { out, stats } = run(`func.func @f(%arg0: i32) -> i32 {
  %c0_i32 = arith.constant 0 : i32
  %0 = arith.addi %c0_i32, %arg0 : i32
  return %0 : i32
}`, { fold: false });
  assert.fixture(out, `module {
  func.func @f(%arg0: i32) -> i32 {
    %c0_i32 = arith.constant 0 : i32
    %0 = arith.addi %arg0, %c0_i32 : i32
    return %0 : i32
  }
}
`);
  assert.is(stats.get('ops-folded'), 0);
  assert.is(stats.get('patterns-applied'), 1);
});

test('canonicalize is idempotent: a second run changes nothing and prints the same text', () => {
  for (const chunk of CASES) {
    const { module } = parseText(chunk);
    verify(module);
    const first = runOn(module).out;
    const again = runOn(module);
    assert.fixture(again.out, first);
    assert.equal(Object.fromEntries(again.stats), { 'patterns-applied': 0, 'ops-folded': 0, 'ops-erased': 0 });
    assert.fixture(run(first).out, first, 'reparsed output');
  }
});

test('patterns are collected from the dialect tables, each once', () => {
  const names = collectCanonicalizationPatterns().map((p) => p.name);
  assert.equal(names.length, new Set(names).size);
  for (const n of ['arith.addi-constant-to-rhs', 'arith.addi-reassociate-constants', 'arith.mulf-constant-to-rhs', 'scf.if-constant-condition',
    'scf.for-zero-trips', 'scf.for-invariant-iter-args', 'tt.broadcast-of-splat', 'tt.broadcast-of-broadcast', 'tt.expand_dims-of-splat'])
    assert.ok(names.includes(n), `missing pattern ${n}`);
});

/** Two patterns that undo each other by marking and unmarking an attribute of `arith.addi`. */
function cyclingPair(onRewrite: () => void): RewritePattern[] {
  return [
    { name: 'mark', root: 'arith.addi', rewrite(op, rw) { onRewrite(); if (!op.getAttr('mark')) rw.modifyInPlace(op, () => op.setAttr('mark', UnitAttr.get())); } },
    { name: 'unmark', root: 'arith.addi', rewrite(op, rw) { onRewrite(); if (op.getAttr('mark')) rw.modifyInPlace(op, () => void op.removeAttr('mark')); } },
  ];
}

const CYCLE_INPUT = `func.func @f(%arg0: i32, %arg1: i32) -> i32 {
  %0 = arith.addi %arg0, %arg1 : i32
  return %0 : i32
}`;

test('patterns that undo each other make the driver fail with "did not converge"', () => {
  const { module } = parseText(CYCLE_INPUT);
  let calls = 0;
  // Guard so a driver that loops forever inside one sweep fails this test instead of hanging it.
  const patterns = cyclingPair(() => {
    if (++calls > 100_000) throw new Error('driver did not stop: 100000 rewrites without a non-convergence error');
  });
  try {
    applyPatternsGreedily(module, patterns, { maxIterations: 5 });
    assert.unreachable('expected a non-convergence error');
  } catch (e) {
    if (!(e instanceof DiagnosticError)) throw e;
    assert.match(e.diagnostic.message, 'greedy pattern rewrite did not converge after 5 iterations');
  }
});

test('lit/passes/canonicalize.tir', () => {
  const out = CASES.map((chunk) => run(chunk).out).join('// -----\n');
  const r = runFileCheck(LIT, out, { checkFileName: 'canonicalize.tir' });
  assert.ok(r.ok, r.message + '\n--- output ---\n' + out);
});

test.run();
