/**
 * Unit tests of the `cse` pass: exact output on small functions, the statistic, and the lit
 * test run in-process (parse each `// -----` case, run the pass, FileCheck the print).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { cse } from '../../passes/cse.js';
import { litCheck, runPass } from '../helpers/pass-harness.js';

registerAllDialects();


test('merges pure duplicates, commutative operands in either order', () => {
  const { out, stats } = runPass(
    cse,
    `func.func @f(%arg0: i32, %arg1: i32) -> (i32, i32, i32) {
  %0 = arith.addi %arg0, %arg1 : i32
  %1 = arith.addi %arg1, %arg0 : i32
  %2 = arith.subi %arg0, %arg1 : i32
  %3 = arith.subi %arg0, %arg1 : i32
  return %0, %1, %3 : i32, i32, i32
}`,
  );
  assert.is(
    out,
    `module {
  func.func @f(%arg0: i32, %arg1: i32) -> (i32, i32, i32) {
    %0 = arith.addi %arg0, %arg1 : i32
    %1 = arith.subi %arg0, %arg1 : i32
    return %0, %0, %1 : i32, i32, i32
  }
}
`,
  );
  assert.is(stats.get('num-cse'), 2);
});

test('never merges ops that write memory, nor reads across them', () => {
  const src = `tt.func @f(%arg0: !tt.ptr<f32>, %arg1: f32) -> (f32, f32) {
  %0 = tt.load %arg0 : !tt.ptr<f32>
  tt.store %arg0, %arg1 : !tt.ptr<f32>
  tt.store %arg0, %arg1 : !tt.ptr<f32>
  %1 = tt.load %arg0 : !tt.ptr<f32>
  tt.return %0, %1 : f32, f32
}`;
  const { out, stats } = runPass(cse, src);
  assert.match(out, /tt\.store %arg0, %arg1 : !tt\.ptr<f32>\n\s+tt\.store %arg0, %arg1 : !tt\.ptr<f32>\n\s+%1 = tt\.load %arg0/);
  assert.is(stats.get('num-cse') ?? 0, 0);
});

test('merges two equal reads with nothing that writes between them', () => {
  const src = `tt.func @f(%arg0: !tt.ptr<f32>) -> (f32, f32) {
  %0 = tt.load %arg0 : !tt.ptr<f32>
  %1 = tt.load %arg0 : !tt.ptr<f32>
  tt.return %0, %1 : f32, f32
}`;
  const { out, stats } = runPass(cse, src);
  assert.match(out, /tt\.return %0, %0 : f32, f32/);
  assert.is(stats.get('num-cse'), 1);
});

test('does not reuse a value defined in a nested region after it', () => {
  const src = `func.func @f(%arg0: i1, %arg1: i32) -> i32 {
  scf.if %arg0 {
    %1 = arith.muli %arg1, %arg1 : i32
  }
  %0 = arith.muli %arg1, %arg1 : i32
  return %0 : i32
}`;
  const { out, stats } = runPass(cse, src);
  assert.is(stats.get('num-cse') ?? 0, 0);
  assert.match(out, /scf\.if %arg0 \{\n\s+%1 = arith\.muli %arg1, %arg1 : i32\n\s+\}\n\s+%0 = arith\.muli/);
});

test('merges identical side-effect-free ops with regions', () => {
  const src = `func.func @f(%c: i1, %a: i32, %b: i32) -> (i32, i32) {
  %0 = scf.if %c -> (i32) {
    %s = arith.addi %a, %b : i32
    scf.yield %s : i32
  } else {
    scf.yield %a : i32
  }
  %1 = scf.if %c -> (i32) {
    %s = arith.addi %a, %b : i32
    scf.yield %s : i32
  } else {
    scf.yield %a : i32
  }
  %2 = scf.if %c -> (i32) {
    scf.yield %b : i32
  } else {
    scf.yield %a : i32
  }
  return %1, %2 : i32, i32
}`;
  const { out, stats } = runPass(cse, src);
  assert.is(stats.get('num-cse'), 1);
  assert.match(out, /return %0, %1 : i32, i32/);
});

test('ops with multi-block regions are not compared (never merged)', () => {
  const src = `func.func @f(%arg0: i32, %arg1: i32) -> (i32, i32) {
  %0 = scf.execute_region -> i32 {
    cf.br ^bb1
  ^bb1:
    scf.yield %arg0 : i32
  }
  %1 = scf.execute_region -> i32 {
    cf.br ^bb1
  ^bb1:
    scf.yield %arg1 : i32
  }
  return %0, %1 : i32, i32
}`;
  const { out, stats } = runPass(cse, src);
  assert.is(stats.get('num-cse') ?? 0, 0);
  assert.match(out, /return %0, %1 : i32, i32/);
});

test('lit/passes/cse.tir', () => litCheck(cse));

test.run();
