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
import { regLayout } from '../../targets/nvptx/layout.js';
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

test.run();
