/**
 * The seed's auto-tuning space `-DTM=[32, 64, 128] -DTN=[32, 64, 128] -DTK=[8, 16]`: exactly 18
 * variants, each of which compiles, verifies and computes a correct fp32 matmul (M=N=128, K=32)
 * in the interpreter, with matmul-fused-trans.tc (the kernel the seed tunes, in each of its four
 * transposition variants) and matmul.tc (fp32 and f16).
 * Reproduce a failure with the TC_KERNEL_SEED the failure message prints.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseDefines, variantList, variants } from '../../frontend/triton-c/autotune.js';
import { BASE_SEED, timings, withSeed } from '../helpers/tc-kernels.js';
import { type Layout, checkMatmul, fusedTransOptions } from '../helpers/tc-matmul.js';

const TUNING = '-DTM=[32, 64, 128] -DTN=[32, 64, 128] -DTK=[8, 16]';
const LAYOUTS: [Layout, Layout][] = [['N', 'N'], ['T', 'N'], ['N', 'T'], ['T', 'T']];

test(`${TUNING} gives exactly 18 distinct variants, TM varying slowest`, () => {
  const list = variantList(parseDefines([TUNING]));
  assert.is(list.length, 18);
  assert.is(new Set(list.map((v) => v.description)).size, 18);
  const expected: string[] = [];
  for (const tm of [32, 64, 128]) for (const tn of [32, 64, 128]) for (const tk of [8, 16]) expected.push(`TM=${tm} TN=${tn} TK=${tk}`);
  assert.equal(list.map((v) => v.description), expected);
  assert.equal(list[0].defines, { TM: '32', TN: '32', TK: '8' });
});

for (const [a, b] of LAYOUTS) {
  test(`matmul-fused-trans.tc TYPE=float A:${a} B:${b}: all 18 variants compile, verify and are correct (M=N=128, K=32)`, () => {
    const all = variants(parseDefines([`-DTYPE=float ${fusedTransOptions(a, b)} ${TUNING}`]));
    assert.is(all.length, 18);
    for (const [k, v] of all.entries()) {
      withSeed(`autotune fused-trans ${a}${b} ${k}`, (random) => checkMatmul({ file: 'matmul-fused-trans.tc', defines: v, M: 128, N: 128, K: 32, a, b }, random));
    }
  });
}

for (const type of ['float', 'half']) {
  test(`matmul.tc TYPE=${type}: all 18 variants compile, verify and are correct (M=N=128, K=32)`, () => {
    const all = variants(parseDefines([`-DTYPE=${type} ${TUNING}`]));
    assert.is(all.length, 18);
    for (const [k, v] of all.entries()) {
      withSeed(`autotune matmul ${type} ${k}`, (random) => checkMatmul({ file: 'matmul.tc', defines: v, M: 128, N: 128, K: 32 }, random));
    }
  });
}

test('timings', () => {
  console.log(`\n  base seed ${BASE_SEED}; interpreter runtimes:\n    ${timings.join('\n    ')}`);
});

test.run();
