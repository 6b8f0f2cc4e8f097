/**
 * Unit tests of the `inline` pass: exact output, the statistic, the round limit, and the lit
 * test run in-process (parse each `// -----` case, run the pass, FileCheck the print).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { parseText } from '../../ir/parser.js';
import { inline } from '../../passes/inline.js';
import { AnalysisCache, PassContext } from '../../passes/pass.js';
import { litCheck, runPass } from '../helpers/pass-harness.js';

registerAllDialects();


const CHAIN = `func.func @main(%arg0: i32) -> (i32, i32) {
  %0 = call @b(%arg0) : (i32) -> i32
  %1 = call @a(%0) : (i32) -> i32
  return %0, %1 : i32, i32
}
func.func private @a(%arg0: i32) -> i32 {
  %0 = arith.addi %arg0, %arg0 : i32
  return %0 : i32
}
func.func private @b(%arg0: i32) -> i32 {
  %0 = call @a(%arg0) : (i32) -> i32
  return %0 : i32
}`;

test('inlines calls and calls that come with inlined bodies', () => {
  const { out, stats } = runPass(inline, CHAIN);
  assert.is(
    out,
    `module {
  func.func @main(%arg0: i32) -> (i32, i32) {
    %0 = arith.addi %arg0, %arg0 : i32
    %1 = arith.addi %0, %0 : i32
    return %0, %1 : i32, i32
  }
  func.func private @a(%arg0: i32) -> i32 {
    %0 = arith.addi %arg0, %arg0 : i32
    return %0 : i32
  }
  func.func private @b(%arg0: i32) -> i32 {
    %0 = arith.addi %arg0, %arg0 : i32
    return %0 : i32
  }
}
`,
  );
  // Round 1: @b into @main (its body still calls @a), @a into @main, @a into @b; round 2: the copied call.
  assert.is(stats.get('num-inlined'), 4);
});

test('max-iterations bounds the rounds', () => {
  const { out, stats } = runPass(inline, CHAIN, { 'max-iterations': 1 });
  assert.is(stats.get('num-inlined'), 3);
  assert.match(out, /func\.func @main\(%arg0: i32\) -> \(i32, i32\) \{\n\s+%0 = call @a\(%arg0\) : \(i32\) -> i32\n\s+%1 = arith\.addi %0, %0/);
});

test('the inlined ops get call-site locations', () => {
  const { module } = parseText(`tt.func private @f(%arg0: i32) -> i32 {
  %0 = arith.muli %arg0, %arg0 : i32 loc("callee.py":3:4)
  tt.return %0 : i32
}
tt.func @g(%arg0: i32) -> i32 {
  %0 = tt.call @f(%arg0) : (i32) -> i32 loc("caller.py":7:1)
  tt.return %0 : i32
}`);
  inline.run(module, new PassContext(inline, { 'max-iterations': 4 }, new AnalysisCache()));
  const g = module.regions[0].blocks[0].ops[1];
  const mul = g.regions[0].blocks[0].first!;
  assert.is(mul.name, 'arith.muli');
  assert.is(mul.loc.toString(), 'loc(callsite("callee.py":3:4 at "caller.py":7:1))');
});

test('lit/passes/inline.tir', () => litCheck(inline));

test.run();
