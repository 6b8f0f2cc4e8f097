/**
 * Tests for tools/view-layout.ts and tools/view-layout-shared.ts (`--view-layout`): banks of known
 * elements computed by hand from each shared encoding's formula, the accesses and their
 * wavefronts, the before/after of pad-shared, one repetition of a distributed layout, and the
 * size of the matmul pictures.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { blocked, NVMMA_SHARED, SWIZZLED_SHARED } from '../../dialects/ttg/layout-attrs.js';
import { ownersOf } from '../../dialects/ttg/layout-lib.js';
import { PaddedSharedAttr } from '../../dialects/ttg/padded-shared.js';
import { StructAttr } from '../../dialects/ttg/struct-attr.js';
import { parseText } from '../../ir/parser.js';
import { layoutSvg, repeatPeriod, runLength } from '../../tools/view-layout.js';
import { accessLine, bankOf, firstPhaseCells, padSharedChoice, sharedBuffers, worstAccess } from '../../tools/view-layout-shared.js';
import type { TileAccess } from '../../passes/support/bank-conflicts.js';

registerAllDialects();

const example = (name: string) => parseText(readFileSync(new URL(`../../examples/ttir/${name}`, import.meta.url), 'utf8'), {}, name).module;

test('bankOf: swizzled_shared, from phase = row % maxPhase and column group ^ phase', () => {
  // The matmul's A tile: 128x64 f16, vec 8, perPhase 1, maxPhase 8; bank = (offset * 2 / 4) % 32.
  const sw = StructAttr.get(SWIZZLED_SHARED, { vec: 8, perPhase: 1, maxPhase: 8, order: [1, 0] });
  const shape = [128, 64];
  assert.is(bankOf(sw, shape, [0, 0], 2), 0);
  assert.is(bankOf(sw, shape, [1, 0], 2), 4); // group 0 ^ 1 = 1: offset 64 + 8 = 72, byte 144
  assert.is(bankOf(sw, shape, [3, 17], 2), 4); // group 2 ^ 3 = 1: offset 192 + 9 = 201, byte 402, word 100
  assert.is(bankOf(sw, shape, [5, 40], 2), 0); // group 5 ^ 5 = 0: offset 320, word 160
  assert.is(bankOf(sw, shape, [9, 63], 2), 27); // phase 1, group 7 ^ 1 = 6: offset 576 + 55 = 631, byte 1262, word 315 = 9 * 32 + 27
});

test('bankOf: nvmma_shared 128B, the 16-byte chunk XORed with the row within 8 rows of 128 bytes', () => {
  const nv = StructAttr.get(NVMMA_SHARED, { swizzlingByteWidth: 128, transposed: false, elementBitWidth: 16 });
  const shape = [64, 64];
  assert.is(bankOf(nv, shape, [1, 0], 2), 4); // linear 64, row phase 1: 64 ^ 8 = 72
  assert.is(bankOf(nv, shape, [2, 9], 2), 12); // linear 137, phase 2: 137 ^ 16 = 153, byte 306, word 76
  assert.is(bankOf(nv, shape, [8, 0], 2), 0); // phase 8 % 8 = 0: linear 512, word 256
});

test('bankOf: padded_shared, one element of padding after each 32-element row', () => {
  const pad = PaddedSharedAttr.get([{ interval: 32, padding: 1 }], [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]);
  const shape = [32, 32];
  // offset = 32 r + c + r, f32: bank = (r + c) % 32.
  assert.is(bankOf(pad, shape, [3, 5], 4), 8);
  assert.is(bankOf(pad, shape, [31, 1], 4), 0);
  assert.is(bankOf(pad, shape, [0, 31], 4), 31);
});

const TRANSPOSE = `
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @transpose(%x: tensor<32x32xf32, #row>) -> tensor<32x32xf32, #col> {
    %a = ttg.local_alloc %x : (tensor<32x32xf32, #row>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    %y = ttg.local_load %a : !ttg.memdesc<32x32xf32, #shared, #smem> -> tensor<32x32xf32, #col>
    tt.return %y : tensor<32x32xf32, #col>
  }
}`;

test('a transposing buffer: wavefronts per access, the outlined phase, and pad-shared\'s choice', () => {
  const [b] = sharedBuffers(parseText(TRANSPOSE).module);
  assert.equal(b.tileShape, [32, 32]);
  assert.is(b.elemBytes, 4);
  // Rows stored in 16-byte vectors: conflict-free. Columns read 4 bytes at a time: rows 0, 4, .., 28
  // of columns 0..3 in one instruction, 8 words in each of 4 banks.
  assert.equal(b.accesses.map((a) => accessLine(a, b.enc)), [
    'ttg.local_alloc: st.shared 16B x 2 per warp: 8 wavefronts (ideal 8)',
    'ttg.local_load: ld.shared 4B x 8 per warp: 64 wavefronts (ideal 8)',
  ]);
  const worst = worstAccess(b, b.enc)!;
  assert.is(worst.op.name, 'ttg.local_load');
  const cells = firstPhaseCells(b, b.enc, worst.access as TileAccess);
  const want = new Set<string>();
  for (let r = 0; r < 32; r += 4) for (let c = 0; c < 4; c++) want.add(`${r},${c}`);
  assert.equal([...cells].sort(), [...want].sort());
  assert.equal(new Set([...cells].map((k) => bankOf(b.enc, b.tileShape, k.split(',').map(Number), 4))), new Set([0, 1, 2, 3]));
  const choice = padSharedChoice(b)!;
  assert.ok(choice, 'pad-shared changes this buffer');
  assert.is(choice.cost.wavefronts, 16);
  // Under the chosen swizzle the same phase touches 32 distinct banks.
  const after = firstPhaseCells(b, choice.enc, worst.access as TileAccess);
  assert.is(new Set([...after].map((k) => bankOf(choice.enc, b.tileShape, k.split(',').map(Number), 4))).size, 32);
  const svg = layoutSvg(parseText(TRANSPOSE).module);
  assert.is((svg.match(/<g class="shared"/g) ?? []).length, 1);
  // As is: 32 rows (to show the outlined rows 0..28) of 32; after: the pattern repeats every 32 rows.
  assert.is((svg.match(/<g class="bank"/g) ?? []).length, 2 * 32 * 32);
  assert.is((svg.match(/<rect class="phase"/g) ?? []).length, 2 * 32);
  assert.ok(svg.includes('after pad-shared: #ttg.swizzled_shared&lt;{vec = 4, perPhase = 4, maxPhase = 8, order = [1, 0]}&gt;'));
});

test('Triton\'s matmul buffers: pad-shared keeps the swizzle; Hopper nvmma buffers are costed too', () => {
  const sm80 = sharedBuffers(example('matmul_kernel.sm80.ttgir'));
  assert.is(sm80.length, 2);
  for (const b of sm80) assert.is(padSharedChoice(b), null);
  assert.ok(sm80[0].accesses.some((a) => accessLine(a, sm80[0].enc) === 'ttg.local_load: ldmatrix 16B x 16 per warp: 64 wavefronts (ideal 64)'));
  const sm90 = sharedBuffers(example('matmul_kernel.sm90.ttgir'));
  assert.equal(sm90.map((b) => b.tileShape), [[128, 64], [64, 256]]);
  const lines = sm90[0].accesses.map((a) => accessLine(a, sm90[0].enc));
  assert.ok(lines.includes('ttg.async_copy_global_to_local: cp.async 16B x 4 per warp: 16 wavefronts (ideal 16)'), lines.join('\n'));
  assert.ok(lines.some((l) => l.startsWith('ttng.warp_group_dot: not modeled')), lines.join('\n'));
});

test('a distributed layout is drawn as one repetition, one box per run of a thread\'s registers', () => {
  // blocked [1, 4] x [8, 4] x [2, 2] covers 16x32; a 64x64 tensor repeats it 4x2 times.
  const L = blocked([1, 4], [8, 4], [2, 2], [1, 0]);
  const owners = ownersOf(L, [64, 64]);
  assert.equal(repeatPeriod(owners, 64, 64), { rows: 16, cols: 32 });
  assert.is(runLength(owners, 0, 64), 4);
  assert.is(runLength(owners, 0, 3), 3);
  assert.is(runLength(owners, 2, 64), 2);
  // [1, 8] along rows of 32 lanes: 8 rows of 256 repeat down a 128x256 tile.
  const B = blocked([1, 8], [1, 32], [8, 1], [1, 0]);
  assert.equal(repeatPeriod(ownersOf(B, [128, 256]), 128, 256), { rows: 8, cols: 256 });
});

test('a padded buffer whose bases describe another tile is named, not drawn (no internal error)', () => {
  const m = parseText(`
#shared = #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 64]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bad_bases() {
    %s = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %t = ttg.local_load %s : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #blocked>
    tt.return
  }
}`).module;
  const [b] = sharedBuffers(m);
  assert.is(b.problem, 'its offset bases do not place each element of the tile once');
  const svg = layoutSvg(m);
  assert.ok(svg.includes('not drawn: its offset bases do not place each element of the tile once'));
  assert.not.ok(svg.includes('class="bank"'));
});

test('the matmul pictures are small: under 1 MB (6.8 MB and 4.1 MB before one repetition and runs)', () => {
  for (const name of ['matmul_kernel.sm80.ttgir', 'matmul_kernel.sm90.ttgir']) {
    const bytes = Buffer.byteLength(layoutSvg(example(name)));
    assert.ok(bytes < 1_000_000, `${name}: ${bytes} bytes`);
  }
});

test.run();
