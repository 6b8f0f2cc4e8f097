/**
 * Every real Triton dump in `examples/ttir/*.ttir` runs through the `default` pipeline, one pass
 * at a time; after each pass the IR verifies and the CPU interpreter computes exactly the same
 * outputs as the original kernel on fresh seeded random inputs.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { verify } from '../../ir/verifier.js';
import { registerAllPasses } from '../../passes/all.js';
import { runPipeline } from '../../passes/manager.js';
import { parsePipeline } from '../../passes/pipeline-text.js';
import { loadExample, runExample, ttirExamples } from '../helpers/example-kernels.js';

registerAllDialects();
registerAllPasses();

const steps = parsePipeline('default').map((e) => e.pass.name);
const seed = Date.now() % 100000;

test('the default pipeline has passes', () => {
  assert.ok(steps.length >= 3, steps.join(','));
});

for (const file of ttirExamples()) {
  test(`${file}: each pass of the default pipeline keeps the kernel's outputs (seed ${seed})`, () => {
    const reference = runExample(file, loadExample(file), seed);
    const module = loadExample(file);
    for (const pass of steps) {
      const r = runPipeline(module, pass);
      assert.ok(r.ok, `${pass}: ${r.diagnostics.map((d) => d.format()).join('\n')}`);
      verify(module);
      assert.equal(runExample(file, module, seed), reference, `outputs changed after '${pass}' (seed ${seed})`);
    }
  });
}

test.run();
