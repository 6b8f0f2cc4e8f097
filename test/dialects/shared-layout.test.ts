/**
 * dialects/ttg/shared-layout.ts: where a shared tile's elements live, for swizzled and padded
 * encodings. Expected offsets are worked out by hand from the encodings' definitions.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { orderedBases, PaddedSharedAttr } from '../../dialects/ttg/padded-shared.js';
import { SWIZZLED_SHARED } from '../../dialects/ttg/layout-attrs.js';
import { StructAttr } from '../../dialects/ttg/struct-attr.js';
import {
  padIndex,
  sharedAllocElems,
  sharedOffset,
  sharedOffsetBases,
  sharedVectorElems,
  swizzleOf,
  transposedSharedEncoding,
  unsupportedSharedEncoding,
} from '../../dialects/ttg/shared-layout.js';

registerAllDialects();

/** `#ttg.padded_shared<[I:+P, ..] {order, shape}>`. */
const padded = (pairs: [number, number][], order: number[], shape: number[]) =>
  PaddedSharedAttr.get(pairs.map(([interval, padding]) => ({ interval, padding })), orderedBases(order, shape));

test('padIndex adds P elements after every I', () => {
  assert.is(padIndex([{ interval: 32, padding: 1 }], 31), 31);
  assert.is(padIndex([{ interval: 32, padding: 1 }], 32), 33);
  assert.is(padIndex([{ interval: 32, padding: 1 }], 100), 103);
  // two pairs add up: 8 after every 64, 4 after every 256
  assert.is(padIndex([{ interval: 64, padding: 8 }, { interval: 256, padding: 4 }], 300), 300 + 4 * 8 + 4);
});

test('a row-major padded tile: (r, c) at 33r + c; column-major: (r, c) at 65c + r', () => {
  const rows = padded([[32, 1]], [1, 0], [64, 32]);
  assert.is(sharedOffset(rows, [64, 32], [0, 31]), 31);
  assert.is(sharedOffset(rows, [64, 32], [1, 0]), 33);
  assert.is(sharedOffset(rows, [64, 32], [63, 31]), 63 * 33 + 31);
  const cols = padded([[64, 1]], [0, 1], [64, 32]);
  assert.is(sharedOffset(cols, [64, 32], [5, 2]), 2 * 65 + 5);
  assert.is(sharedAllocElems(rows, [64, 32]), 64 * 33);
  // pipeline buffers: the leading dim repeats the padded tile
  assert.is(sharedAllocElems(rows, [3, 64, 32]), 3 * 64 * 33);
});

test('a padded tile: index bases (before padding), order, and encodings the target accepts', () => {
  const enc = padded([[32, 1]], [1, 0], [64, 32]);
  assert.equal(sharedOffsetBases(enc, [64, 32]), [[32, 64, 128, 256, 512, 1024], [1, 2, 4, 8, 16]]);
  assert.equal(swizzleOf(enc, 2).order, [1, 0]);
  assert.is(unsupportedSharedEncoding(enc), null);
  // bases that do not cover the tile: not addressable
  assert.is(sharedOffsetBases(enc, [128, 32]), null);
});

test('a transposed view of a padded tile names the same elements', () => {
  const enc = padded([[32, 4]], [1, 0], [64, 32]);
  const view = transposedSharedEncoding(enc, [1, 0]);
  assert.ok(view instanceof PaddedSharedAttr);
  for (const [r, c] of [[0, 0], [1, 0], [7, 31], [63, 5]]) assert.is(sharedOffset(view, [32, 64], [c, r]), sharedOffset(enc, [64, 32], [r, c]));
});

test('vectors never cross or misalign padding: at most the smallest interval and padding', () => {
  // 4 consecutive f32 per thread along the row, lanes 4 elements apart
  const layout = { register: [[0, 1], [0, 2]], lane: [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp: [] };
  const swizzled = StructAttr.get(SWIZZLED_SHARED, { vec: 1, perPhase: 1, maxPhase: 1, order: [1, 0], CTAsPerCGA: [1, 1], CTASplitNum: [1, 1], CTAOrder: [1, 0] });
  assert.is(sharedVectorElems(swizzled, [64, 32], 4, layout), 4);
  assert.is(sharedVectorElems(padded([[32, 4]], [1, 0], [64, 32]), [64, 32], 4, layout), 4);
  assert.is(sharedVectorElems(padded([[32, 2]], [1, 0], [64, 32]), [64, 32], 4, layout), 2);
  assert.is(sharedVectorElems(padded([[32, 1]], [1, 0], [64, 32]), [64, 32], 4, layout), 1);
  assert.is(sharedVectorElems(padded([[2, 4]], [1, 0], [64, 32]), [64, 32], 4, layout), 2);
});

test.run();
