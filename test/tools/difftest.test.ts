/**
 * The differential tester (tools/difftest): 30 seeded generated kernels agree in the CPU
 * interpreter before and after the layout passes and the default pipeline (1, 2, 4, 8 warps);
 * the generator covers its features and only emits valid IR; and the tester does catch a
 * miscompiled module, a tampered output and an out-of-tolerance difference.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { parseText } from '../../ir/parser.js';
import { verifyDiagnostic } from '../../ir/verifier.js';
import { registerAllPasses } from '../../passes/all.js';
import { generateKernel } from '../../tools/difftest/generate.js';
import { compareBuffers, defaultPipeline, REASSOC_TOLERANCE, runCampaign, testKernel } from '../../tools/difftest/run.js';

registerAllDialects();
registerAllPasses();

test('30 generated kernels: no mismatch, no pass or interpreter failure', () => {
  const lines: string[] = [];
  const { summary } = runCampaign(30, 17, (l) => lines.push(l), 30);
  assert.is(summary.generated, 30);
  assert.is(summary.valid, 30, lines.join('\n'));
  assert.is(summary.compared, 30 * 8, lines.join('\n'));
  assert.is(summary.mismatches, 0, lines.join('\n'));
  assert.is(summary.passFailures, 0, lines.join('\n'));
  assert.is(summary.interpFailures, 0, lines.join('\n'));
});

test('the generator: valid IR, deterministic by seed, and every feature within 300 seeds', () => {
  const seen = new Set<string>();
  let shapes1d = 0;
  for (let s = 0; s < 300; s++) {
    const k = generateKernel(s);
    const d = verifyDiagnostic(parseText(k.text, {}, `seed${s}`).module);
    assert.is(d, null, `seed ${s}: ${d?.format()}`);
    for (const f of k.features) seen.add(f);
    if (k.grid[1] === 1 && !/get_program_id y/.test(k.text)) shapes1d++;
  }
  assert.is(generateKernel(5).text, generateKernel(5).text);
  assert.equal([...seen].sort(), ['cast', 'dot', 'loop', 'reduce', 'reduce-i32', 'trans']);
  assert.ok(shapes1d > 30 && shapes1d < 270, `${shapes1d} 1-D kernels of 300`);
});

test('a miscompiled module is a mismatch: a store erased, an addf computing x + x', () => {
  const pipelines: [string, string][] = [['default-w4', defaultPipeline(4)]];
  const dropStore = testKernel(3, {
    pipelines,
    corrupt: (m) => {
      let first = true;
      m.walk((op) => void (op.name === 'tt.store' && first && ((first = false), op.erase())));
    },
  });
  assert.is(dropStore.status, 'finding');
  assert.is(dropStore.findings[0].kind, 'mismatch');
  // The first kernel that adds two different values.
  let seed = 0;
  while (!/arith\.addf (%v\d+), (?!\1,)%v\d+ : tensor/.test(generateKernel(seed).text)) seed++;
  const doubled = testKernel(seed, {
    pipelines,
    corrupt: (m) => m.walk((op) => void (op.name === 'arith.addf' && op.setOperand(1, op.operands[0].value))),
  });
  assert.is(doubled.status, 'finding', `seed ${seed}`);
  assert.is(doubled.findings[0].kind, 'mismatch');
});

test('a tampered output is a mismatch; the tolerance applies only to reductions and dots', () => {
  const o = testKernel(3, { pipelines: [['default-w2', defaultPipeline(2)]], tamper: (outs) => void (outs[0][0] += 1) });
  assert.is(o.findings[0]?.kind, 'mismatch');
  assert.match(o.findings[0].message, /element 0/);
  assert.is(compareBuffers([1, 2, NaN], [1, 2, NaN], false), null);
  assert.ok(compareBuffers([1, 2], [1, 2 + 1e-7], false));
  assert.is(compareBuffers([100, 2], [100, 2 + REASSOC_TOLERANCE * 50], true), null);
  assert.ok(compareBuffers([100, 2], [100, 2 + REASSOC_TOLERANCE * 200], true));
  assert.ok(compareBuffers([1], [-7], true));
});

test.run();
