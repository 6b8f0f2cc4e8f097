/**
 * Unit tests of the `dce` pass: exact output, the statistic, and the lit
 * test run in-process (parse each `// -----` case, run the pass, FileCheck the print).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { dce } from '../../passes/dce.js';
import { litCheck, runPass } from '../helpers/pass-harness.js';

registerAllDialects();


test('erases dead chains and counts every erased op', () => {
  const { out, stats } = runPass(
    dce,
    `func.func @f(%arg0: i32) -> i32 {
  %0 = arith.addi %arg0, %arg0 : i32
  %1 = arith.muli %0, %0 : i32
  %2 = arith.subi %1, %arg0 : i32
  %3 = arith.xori %arg0, %arg0 : i32
  return %3 : i32
}`,
  );
  assert.is(
    out,
    `module {
  func.func @f(%arg0: i32) -> i32 {
    %0 = arith.xori %arg0, %arg0 : i32
    return %0 : i32
  }
}
`,
  );
  assert.is(stats.get('num-dce'), 3);
});

test('a dead region op goes with the values used only inside it', () => {
  const { out, stats } = runPass(
    dce,
    `func.func @f(%arg0: i1, %arg1: i32) {
  %0 = arith.muli %arg1, %arg1 : i32
  %1 = scf.if %arg0 -> (i32) {
    scf.yield %0 : i32
  } else {
    scf.yield %arg1 : i32
  }
  return
}`,
  );
  assert.is(out, 'module {\n  func.func @f(%arg0: i1, %arg1: i32) {\n    return\n  }\n}\n');
  assert.is(stats.get('num-dce'), 2);
});

test('keeps side effects and unused block arguments', () => {
  const src = `tt.func @f(%arg0: !tt.ptr<f32>, %arg1: i32) {
  %0 = scf.for %arg2 = %arg1 to %arg1 step %arg1 iter_args(%arg3 = %arg1) -> (i32)  : i32 {
    %1 = tt.load %arg0 {isVolatile = true} : !tt.ptr<f32>
    scf.yield %arg3 : i32
  }
  tt.return
}`;
  const { out, stats } = runPass(dce, src);
  assert.is(stats.get('num-dce') ?? 0, 0);
  assert.match(out, /%0 = scf\.for %arg2 = %arg1 to %arg1 step %arg1 iter_args\(%arg3 = %arg1\) -> \(i32\)  : i32 \{\n\s+%1 = tt\.load %arg0 \{isVolatile = true\}/);
});

test('erases an unused load that only reads memory, then the loop left empty (MLIR: read-only ops are trivially dead)', () => {
  const src = `tt.func @f(%arg0: !tt.ptr<f32>, %arg1: i32) {
  %0 = scf.for %arg2 = %arg1 to %arg1 step %arg1 iter_args(%arg3 = %arg1) -> (i32)  : i32 {
    %1 = tt.load %arg0 : !tt.ptr<f32>
    scf.yield %arg3 : i32
  }
  tt.return
}`;
  const { out, stats } = runPass(dce, src);
  assert.is(stats.get('num-dce'), 2);
  assert.not.match(out, /tt\.load|scf\.for/);
});

test('lit/passes/dce.tir', () => litCheck(dce));

test.run();
