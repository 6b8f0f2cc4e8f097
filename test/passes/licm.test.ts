/**
 * Unit tests of the `licm` pass: exact output, the statistic, and the lit
 * test run in-process (parse each `// -----` case, run the pass, FileCheck the print).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { licm } from '../../passes/licm.js';
import { litCheck, runPass } from '../helpers/pass-harness.js';

registerAllDialects();


test('hoists invariant chains before the loop and counts them', () => {
  const { out, stats } = runPass(
    licm,
    `func.func private @use(index)
func.func @f(%arg0: index, %arg1: index) {
  scf.for %arg2 = %arg0 to %arg1 step %arg1 {
    %0 = arith.addi %arg0, %arg1 : index
    %1 = arith.muli %0, %0 : index
    %2 = arith.addi %arg2, %1 : index
    func.call @use(%2) : (index) -> ()
  }
  return
}`,
  );
  assert.is(
    out,
    `module {
  func.func private @use(index)
  func.func @f(%arg0: index, %arg1: index) {
    %0 = arith.addi %arg0, %arg1 : index
    %1 = arith.muli %0, %0 : index
    scf.for %arg2 = %arg0 to %arg1 step %arg1 {
      %2 = arith.addi %arg2, %1 : index
      call @use(%2) : (index) -> ()
    }
    return
  }
}
`,
  );
  assert.is(stats.get('num-hoisted'), 2);
});

test('leaves loads, stores and ops on the induction variable alone', () => {
  const src = `tt.func @f(%arg0: !tt.ptr<i32>, %arg1: i32) {
  scf.for %arg2 = %arg1 to %arg1 step %arg1 : i32 {
    %0 = tt.load %arg0 : !tt.ptr<i32>
    %1 = arith.addi %arg2, %arg2 : i32
    tt.store %arg0, %1 : !tt.ptr<i32>
  }
  tt.return
}`;
  const { out, stats } = runPass(licm, src);
  assert.is(stats.get('num-hoisted') ?? 0, 0);
  assert.match(out, /scf\.for %arg2 = %arg1 to %arg1 step %arg1  : i32 \{\n\s+%0 = tt\.load %arg0 : !tt\.ptr<i32>\n\s+%1 = arith\.addi %arg2, %arg2/);
});

test('lit/passes/licm.tir', () => litCheck(licm));

test.run();
