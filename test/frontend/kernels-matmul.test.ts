/**
 * The seed tutorials' matmul kernels (examples/triton-c/matmul*.tc: plain, pre-fetching,
 * rematerialized epilogue, the four fused-transposition variants, the grouped kernel with a
 * masked store) compiled, verified and run in the interpreter in fp32 and f16 (f32 accumulation)
 * on fresh random inputs against a float64 reference of the exactly rounded inputs.
 * Reproduce a failure with the TC_KERNEL_SEED the failure message prints.
 */
import { test } from 'uvu';
import { parseDefines } from '../../frontend/triton-c/autotune.js';
import { BASE_SEED, timings, withSeed } from '../helpers/tc-kernels.js';
import { type Layout, checkMatmul, fusedTransOptions } from '../helpers/tc-matmul.js';

/** Tile options per TYPE (f16 with TK a multiple of 16 as for tensor cores, fp32 with rectangular tiles). */
const TILES: Record<string, Record<string, string>> = {
  float: { TYPE: 'float', TM: '32', TN: '64', TK: '8' },
  half: { TYPE: 'half', TM: '32', TN: '32', TK: '16' },
};

for (const file of ['matmul.tc', 'matmul-prefetch.tc', 'matmul-remat.tc']) {
  for (const type of ['float', 'half']) {
    test(`${file} TYPE=${type}: C = A x B, M=64 N=128 K=64, padded leading dimensions`, () => {
      withSeed(`${file} ${type}`, (random) => checkMatmul({ file, defines: TILES[type], M: 64, N: 128, K: 64 }, random));
    });
  }
}

test('matmul.tc with the header options -DTYPE=half -DTM=128 -DTN=128 -DTK=32 (M=N=128, K=64, one program)', () => {
  withSeed('matmul.tc 128', (random) =>
    checkMatmul({ file: 'matmul.tc', defines: { TYPE: 'half', TM: '128', TN: '128', TK: '32' }, M: 128, N: 128, K: 64 }, random));
});

test('matmul-prefetch.tc / matmul-remat.tc with a single K tile (the prefetch check is false at once)', () => {
  withSeed('prefetch K=TK', (random) => {
    for (const file of ['matmul-prefetch.tc', 'matmul-remat.tc']) checkMatmul({ file, defines: TILES.float, M: 32, N: 64, K: 8 }, random);
  });
});

test('matmul.tc / matmul-prefetch.tc / matmul-remat.tc with K = 0 store zeros (the reduction loop runs no iteration)', () => {
  withSeed('K=0', (random) => {
    for (const file of ['matmul.tc', 'matmul-prefetch.tc', 'matmul-remat.tc']) checkMatmul({ file, defines: TILES.half, M: 32, N: 64, K: 0 }, random);
  });
});

for (const type of ['float', 'half']) {
  for (const [a, b] of [['N', 'N'], ['T', 'N'], ['N', 'T'], ['T', 'T']] as [Layout, Layout][]) {
    test(`matmul-fused-trans.tc TYPE=${type}, A ${a === 'T' ? 'transposed' : 'not transposed'}, B ${b === 'T' ? 'transposed' : 'not transposed'} (M=64 N=96 K=48)`, () => {
      withSeed(`fused-trans ${type} ${a}${b}`, (random) => {
        const parsed = parseDefines([`-DTYPE=${type} -DTM=32 -DTN=32 -DTK=${type === 'half' ? 16 : 8} ${fusedTransOptions(a, b)}`]);
        checkMatmul({ file: 'matmul-fused-trans.tc', defines: parsed.fixed, M: 64, N: 96, K: 48, a, b }, random);
      });
    });
  }
}

for (const type of ['float', 'half']) {
  test(`matmul-grouped.tc TYPE=${type}: grouped program order, masked store, M/N not multiples of the tile`, () => {
    withSeed(`grouped ${type}`, (random) => {
      // grid_m = 10 > MAX_GROUP_SIZE (two groups, the second one partial), grid_n = 3
      checkMatmul({ file: 'matmul-grouped.tc', defines: { TYPE: type, MB: '16', NB: '16', KB: '16' }, M: 150, N: 40, K: 32, grid: 'grouped' }, random);
      // multiples of the tile, one group
      checkMatmul({ file: 'matmul-grouped.tc', defines: { TYPE: type, MB: '32', NB: '32', KB: '16' }, M: 64, N: 96, K: 32, grid: 'grouped' }, random);
    });
  });
}

test('timings', () => {
  console.log(`\n  base seed ${BASE_SEED}; interpreter runtimes:\n    ${timings.join('\n    ')}`);
});

test.run();
