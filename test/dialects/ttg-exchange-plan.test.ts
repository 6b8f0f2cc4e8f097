/** planExchange (dialects/ttg/layout-scratch.ts): vectors and bank conflicts of conversion scratch. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { exchangeConflicts, planExchange, type ExchangePlan } from '../../dialects/ttg/layout-scratch.js';

// 64x64 fp32, flat = i*64 + j. #tr (the transpose of Triton's load layout) writes, #ld reads.
const tr = { regs: [64, 128, 8, 16, 32], lanes: [256, 512, 1024, 2048, 1] };
const ld = { regs: [1, 2, 512, 1024, 2048], lanes: [4, 8, 16, 32, 64] };
const identity = (bits: number): ExchangePlan => ({ bits, images: [...Array(bits).keys()].map((b) => 1 << b), storeVec: [], loadVec: [] });

test('the transpose exchange: 16-byte stores, word loads, no bank conflicts on either side', () => {
  const p = planExchange(tr, ld, 12, 4, 2);
  assert.equal(p.storeVec, [64, 8]);
  assert.equal(p.loadVec, []);
  assert.is(exchangeConflicts(p, tr, p.storeVec, 4), 1);
  assert.is(exchangeConflicts(p, ld, p.loadVec, 4), 1);
  // a bijection on the 4096 elements
  const seen = new Set<number>();
  for (let f = 0; f < 4096; f++) seen.add(p.images.reduce((acc, img, b) => ((f >>> b) & 1 ? acc ^ img : acc), 0));
  assert.is(seen.size, 4096);
});

test('the unswizzled row-major order (the former lowering, one word at a time) has 16-way and 4-way conflicts', () => {
  assert.is(exchangeConflicts(identity(12), tr, [], 4), 16);
  assert.is(exchangeConflicts(identity(12), ld, [], 4), 4);
});

test('shared register bases vectorize both sides; no vectors when asked for none', () => {
  const a = { regs: [1, 2, 64], lanes: [4, 8, 16, 32, 128] };
  const b = { regs: [1, 2, 128], lanes: [4, 8, 16, 32, 64] };
  const p = planExchange(a, b, 10, 4, 2);
  assert.equal(p.storeVec, [1, 2]);
  assert.equal(p.loadVec, [1, 2]);
  assert.is(exchangeConflicts(p, a, p.storeVec, 4), 1);
  assert.is(exchangeConflicts(p, b, p.loadVec, 4), 1);
  const none = planExchange(a, b, 10, 4, 0);
  assert.equal(none.storeVec, []);
  assert.equal(none.loadVec, []);
});

test('16-bit elements are swizzled too: the attention epilogue, f16 #mma [4, 1] -> blocked [1, 8]', () => {
  // 128x64 f16, flat = i*64 + j: the mma accumulator (pairs along N) written, the store layout read.
  const mma = { regs: [1, 512, 8, 16, 32, 4096], lanes: [2, 4, 64, 128, 256] };
  const blk = { regs: [1, 2, 4, 1024, 2048, 4096], lanes: [8, 16, 32, 64, 128] };
  const p = planExchange(mma, blk, 13, 2, 2);
  assert.equal(p.storeVec, [1, 4096]);
  assert.equal(p.loadVec, [1, 4096]);
  // Unswizzled, both sides had 4-way conflicts (measured with ncu on an H100: 4-way on the 8-byte stores).
  // The swizzle only XORs bank bits below each image's own (highest) bit: dropping them gives the plain order.
  const unswizzled = { ...p, images: p.images.map((img) => 2 ** Math.floor(Math.log2(img))) };
  assert.is(exchangeConflicts(unswizzled, mma, p.storeVec, 2), 4);
  assert.is(exchangeConflicts(unswizzled, blk, p.loadVec, 2), 4);
  assert.is(exchangeConflicts(p, mma, p.storeVec, 2), 1);
  assert.is(exchangeConflicts(p, blk, p.loadVec, 2), 2);
  const seen = new Set<number>();
  for (let f = 0; f < 8192; f++) seen.add(p.images.reduce((acc, img, b) => ((f >>> b) & 1 ? acc ^ img : acc), 0));
  assert.is(seen.size, 8192);
});

test('16-bit values packed in pairs: the same epilogue reads 16 bytes a lane (a tie goes to the reader) with no bank conflict', () => {
  const mma = { regs: [1, 512, 8, 16, 32, 4096], lanes: [2, 4, 64, 128, 256] };
  const blk = { regs: [1, 2, 4, 1024, 2048, 4096], lanes: [8, 16, 32, 64, 128] };
  const p = planExchange(mma, blk, 13, 2, 3);
  // both keep the common bases (a pair along N, and the register the two hold alike); the reader
  // widens with its column pair 2, a lane base of the mma layout: 8 halves = 4 words a load
  assert.equal(p.storeVec, [1, 4096]);
  assert.equal(p.loadVec, [1, 4096, 2]);
  assert.is(exchangeConflicts(p, mma, p.storeVec, 2), 1);
  assert.is(exchangeConflicts(p, blk, p.loadVec, 2), 1);
});

test.run();
