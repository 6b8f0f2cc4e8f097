import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllPasses } from '../../passes/all.js';
import type { Operation } from '../../ir/ir.js';
import { verify } from '../../ir/verifier.js';
import { runPipeline } from '../../passes/manager.js';
import { AnalysisCache, PassContext } from '../../passes/pass.js';
import { removeLayoutConversions } from '../../passes/remove-layout-conversions.js';
import { loadExample, runExample, ttirExamples } from '../helpers/example-kernels.js';
import { litCheck, runPass } from '../helpers/pass-harness.js';
import { FunctionLike } from '../../ir/traits.js';

registerAllPasses();

const PRE = 'canonicalize,cse,convert-to-gpu,coalesce';

function countConverts(module: Operation): number {
  let n = 0;
  module.walk((op) => void (op.name === 'ttg.convert_layout' && n++));
  return n;
}

function removeConverts(module: Operation): void {
  const ctx = new PassContext(removeLayoutConversions, {}, new AnalysisCache());
  for (const op of module.regions[0].blocks[0].ops) if (op.hasTrait(FunctionLike)) removeLayoutConversions.run(op, ctx);
  verify(module);
}

test('lit file', () => litCheck(removeLayoutConversions));

test('examples compute the same with fewer converts', () => {
  const expected: Record<string, [number, number]> = {
    'add_kernel.ttir': [9, 0],
    'matmul_kernel.ttir': [32, 5],
    'softmax_kernel.ttir': [7, 0],
  };
  for (const file of ttirExamples()) {
    const ref = loadExample(file);
    runPipeline(ref, PRE);
    const m = loadExample(file);
    runPipeline(m, PRE);
    const before = countConverts(m);
    removeConverts(m);
    assert.equal([before, countConverts(m)], expected[file], file);
    for (const seed of [1, 7]) assert.equal(runExample(file, m, seed), runExample(file, ref, seed), `${file} seed ${seed}`);
  }
});

test('matmul needs far less shared scratch', () => {
  const m = loadExample('matmul_kernel.ttir');
  runPipeline(m, PRE);
  removeConverts(m);
  runPipeline(m, 'alloc-shared');
  assert.is(String(m.getAttr('ttg.shared')), '16384 : i32');
});

test('statistics count removed converts', () => {
  const text = `#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%n: i32) -> tensor<128xi32, #blocked1> {
    %s = tt.splat %n : i32 -> tensor<128xi32, #blocked>
    %a = arith.addi %s, %s : tensor<128xi32, #blocked>
    %0 = ttg.convert_layout %a : tensor<128xi32, #blocked> -> tensor<128xi32, #blocked1>
    tt.return %0 : tensor<128xi32, #blocked1>
  }
}
`;
  const { out, stats } = runPass(removeLayoutConversions, text);
  assert.not.match(out, 'ttg.convert_layout');
  assert.equal([stats.get('converts-removed'), stats.get('ops-rematerialized'), stats.get('ops-erased')], [1, 2, 2]);
});

test.run();
