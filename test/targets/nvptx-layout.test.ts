/**
 * The target's per-thread view of a layout (`regLayout`) against the ttg layout library's own
 * owner table (`elementsOf`): for every warp, lane and register, the element the target will
 * compute (register part XOR lane and warp parts) must be the one the layout assigns.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { parseSourceFile } from '../../ir/parser.js';
import { SourceFile } from '../../ir/diagnostics.js';
import { RankedTensorType } from '../../ir/types.js';
import { elementsOf, linearIndex } from '../../dialects/ttg/layout-lib.js';
import { constantRunSources, regLayout } from '../../targets/nvptx/layout.js';
import type { Operation } from '../../ir/ir.js';

registerAllDialects();

/** A tensor type parsed from text (with the layout alias defined in `aliases`). */
function tensorType(aliases: string, type: string): { t: RankedTensorType; op: Operation } {
  const text = `${aliases}\nmodule attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {\n  func.func @f(%x: ${type}) {\n    return\n  }\n}\n`;
  const m = parseSourceFile(new SourceFile('t.tir', text)).module;
  const fn = m.region(0).entry!.first!;
  return { t: fn.region(0).entry!.args[0].type as RankedTensorType, op: fn };
}

const CASES: [string, string][] = [
  ['#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>', 'tensor<1024xf32, #b>'],
  ['#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>', 'tensor<256xf32, #b>'],
  ['#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>', 'tensor<64x32xf32, #b>'],
  ['#b = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>', 'tensor<16x64xf16, #b>'],
  ['#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>', 'tensor<64xf32, #ttg.slice<{dim = 1, parent = #b}>>'],
  ['#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>', 'tensor<128xf32, #ttg.slice<{dim = 0, parent = #b}>>'],
];

for (const [aliases, type] of CASES) {
  test(`regLayout matches elementsOf: ${type}`, () => {
    const { t, op } = tensorType(aliases, type);
    const l = regLayout(t, op);
    const xorAll = (bases: readonly number[][], id: number) =>
      bases.reduce((acc, b, k) => ((id >> k) & 1 ? acc.map((c, d) => c ^ b[d]) : acc), new Array(t.shape.length).fill(0));
    for (let warp = 0; warp < 4; warp++) {
      for (let lane = 0; lane < 32; lane++) {
        const want = elementsOf(t.encoding!, t.shape, warp, lane);
        const thread = xorAll(l.laneBases, lane).map((c, d) => c ^ xorAll(l.warpBases, warp)[d]);
        const got = l.regCoords.map((rc) => linearIndex(rc.map((c, d) => c ^ thread[d]), t.shape));
        assert.equal(got, want, `warp ${warp} lane ${lane}`);
      }
    }
  });
}

test('regLayout marks broadcast lanes of a small tensor as duplicates', () => {
  const { t, op } = tensorType(CASES[0][0], 'tensor<64xf32, #b>');
  const l = regLayout(t, op);
  // 64 elements over 4 registers x 32 lanes x 4 warps: 8 copies of each, so 3 duplicate bits in all.
  const bits = (m: number) => m.toString(2).replace(/0/g, '').length;
  assert.is(bits(l.dupRegMask) + bits(l.dupLaneMask) + bits(l.dupWarpMask), 3);
  assert.is(l.numRegs, 4);
});

/** Coordinates of row-major index `i` in `shape`. */
const coordsOf = (i: number, shape: readonly number[]): number[] => {
  const out = new Array<number>(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) ((out[d] = i % shape[d]), (i = Math.floor(i / shape[d])));
  return out;
};

for (const [aliases, type] of CASES) {
  test(`constantRunSources copies only within an aligned run: ${type}`, () => {
    const { t, op } = tensorType(aliases, type);
    const l = regLayout(t, op);
    const rank = t.shape.length;
    const constancies = rank === 1 ? [[2], [4], [6], [12], [64], [1]] : [[2, 1], [1, 4], [6, 8], [16, 16], [1, 1]];
    for (const constancy of constancies) {
      const copy = constantRunSources(l, constancy);
      if (constancy.every((c) => c === 1)) assert.is(copy, null);
      if (!copy) continue;
      for (let warp = 0; warp < 4; warp++) {
        for (let lane = 0; lane < 32; lane++) {
          // the owner table, independent of the register view: register r holds elements[r]
          const elements = elementsOf(t.encoding!, t.shape, warp, lane).map((i) => coordsOf(i, t.shape));
          elements.forEach((e, r) => {
            assert.ok(copy[r] <= r, `register ${r} copies a later register`);
            const src = elements[copy[r]];
            // same aligned run of `constancy` along every dim: every element of it is equal
            const sameRun = e.every((x, d) => Math.floor(x / constancy[d]) === Math.floor(src[d] / constancy[d]));
            assert.ok(sameRun, `constancy [${constancy}] warp ${warp} lane ${lane}: register ${r} (${e}) copies ${copy[r]} (${src})`);
          });
        }
      }
    }
  });
}

test('constantRunSources: one compare per 4 registers of sizePerThread 4 when runs are 4 long', () => {
  const { t, op } = tensorType(CASES[0][0], CASES[0][1]);
  const copy = constantRunSources(regLayout(t, op), [4])!;
  // registers 0-3 are one run, the next repetition (4-7) another
  assert.equal([...copy], [0, 0, 0, 0, 4, 4, 4, 4]);
  // runs of 6 contain aligned runs of 2 only
  assert.equal([...constantRunSources(regLayout(t, op), [6])!], [0, 0, 2, 2, 4, 4, 6, 6]);
});

test.run();
