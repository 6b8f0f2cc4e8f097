/**
 * Unit tests of the shared-memory bank model (passes/support/bank-conflicts.ts) and of
 * pad-shared's choice, on hand-computed cases: raw warp accesses, ldmatrix on a 64x64 f16 tile
 * (unswizzled: 8-way per phase; Triton's swizzle: conflict-free), and an f32 32x32 tile written
 * by rows and read by columns (the transpose).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import type { Attribute } from '../../ir/attributes.js';
import { DOT_OP, NVIDIA_MMA, SWIZZLED_SHARED, blocked } from '../../dialects/ttg/layout-attrs.js';
import { StructAttr } from '../../dialects/ttg/struct-attr.js';
import {
  accessCost, bufferCost, idealWavefronts, ldmatrixAccess, phasesOf, vectorAccess, warpAccesses, wavefronts, type WarpAccess,
} from '../../passes/support/bank-conflicts.js';
import { chooseSwizzle, tritonMmaSwizzle } from '../../passes/pad-shared.js';

registerAllDialects();

const lanes = (f: (l: number) => number): number[] => Array.from({ length: 32 }, (_, l) => f(l));
const shared = (vec: number, perPhase: number, maxPhase: number, order = [1, 0]) => StructAttr.get(SWIZZLED_SHARED, { vec, perPhase, maxPhase, order });
const mma = (w: number[]) => StructAttr.get(NVIDIA_MMA, { versionMajor: 2, versionMinor: 0, warpsPerCTA: w, instrShape: [16, 8] });
const dot = (opIdx: number, parent: Attribute) => StructAttr.get(DOT_OP, { opIdx, parent, kWidth: 2 });
const UNSWIZZLED = shared(1, 1, 1);

test('phases: 16-byte accesses in 4 phases of 8 lanes, 8-byte in 2 of 16, narrower in 1', () => {
  assert.equal([16, 8, 4, 2, 1].map(phasesOf), [4, 2, 1, 1, 1]);
});

test('wavefronts of raw warp accesses', () => {
  const w = (addrs: number[], width: number): number => wavefronts({ addrs, width });
  // 32 consecutive words: one per bank.
  assert.is(w(lanes((l) => 4 * l), 4), 1);
  // Every lane on one word: a broadcast, no conflict.
  assert.is(w(lanes(() => 64), 4), 1);
  // Two bytes per lane, two lanes per word: still 32 banks at most once.
  assert.is(w(lanes((l) => 2 * l), 2), 1);
  // A 128-byte stride puts all 32 lanes on bank 0, 32 distinct words.
  assert.is(w(lanes((l) => 128 * l), 4), 32);
  // Stride 8 bytes: words 0, 2, .., 62 -> banks 0, 2, .., 30, two words each.
  assert.is(w(lanes((l) => 8 * l), 4), 2);
  // 16 bytes per lane, consecutive: each phase of 8 lanes covers 128 bytes, conflict-free.
  const v16: WarpAccess = { addrs: lanes((l) => 16 * l), width: 16 };
  assert.is(wavefronts(v16), 4);
  assert.is(idealWavefronts(v16), 4);
  // 16 bytes per lane, 64-byte stride: a phase covers banks 0-3 and 16-19 four times each.
  assert.is(w(lanes((l) => 64 * l), 16), 16);
  // 8 bytes per lane, consecutive: 2 phases of 16 lanes, each 128 bytes.
  assert.is(w(lanes((l) => 8 * l), 8), 2);
});

// A 64x64 f16 A operand, 4 warps along M: warp 0 holds rows 0-15 and all 64 K, four 16x16
// sub-tiles, one ldmatrix.x4 each. Row i of matrix q is 16 bytes at (8 (q%2) + i, k0 + 8 (q/2)).
const A64 = ldmatrixAccess(dot(0, mma([4, 1])), [64, 64], { tileShape: [64, 64], offsets: [0, 0], elemBytes: 2 });

test('ldmatrix: the matrices warp 0 loads', () => {
  assert.is(A64.kind, 'ldmatrix');
  if (A64.kind !== 'ldmatrix') return;
  assert.equal(A64.origins.length, 4);
  assert.equal(A64.origins[0], [[0, 0], [8, 0], [0, 8], [8, 8]]);
  assert.equal(new Set(A64.origins.map((m) => m[0].join())), new Set(['0,0', '0,16', '0,32', '0,48']));
});

test('ldmatrix on an unswizzled row-major 64x64 f16 tile: 8-way conflict in every phase', () => {
  const insts = warpAccesses(A64, UNSWIZZLED) as WarpAccess[];
  // Matrix 0 of the first ldmatrix: rows 0-7 at column 0, a 128-byte row stride.
  assert.equal(insts[0].addrs.slice(0, 8), [0, 128, 256, 384, 512, 640, 768, 896]);
  // Every row of a matrix falls on the same 4 banks: 8 distinct words per bank, 8 wavefronts per phase.
  assert.is(wavefronts(insts[0]), 4 * 8);
  assert.equal(accessCost(A64, UNSWIZZLED), { instructions: 4, wavefronts: 128, ideal: 16 });
});

test('ldmatrix on the same tile swizzled vec=8, perPhase=1, maxPhase=8: conflict-free', () => {
  const sw = shared(8, 1, 8);
  const insts = warpAccesses(A64, sw) as WarpAccess[];
  // Row r's first 16-byte chunk moves to chunk r: 8 rows cover all 32 banks once.
  assert.equal(insts[0].addrs.slice(0, 8), [0, 128 + 16, 256 + 32, 384 + 48, 512 + 64, 640 + 80, 768 + 96, 896 + 112]);
  assert.equal(accessCost(A64, sw), { instructions: 4, wavefronts: 16, ideal: 16 });
  // It is also Triton's choice for a 128-byte row, and pad-shared's.
  assert.is(tritonMmaSwizzle(UNSWIZZLED, [64, 64], 2), sw);
  assert.is(chooseSwizzle(UNSWIZZLED, [64, 64], 2, [A64])?.enc, sw);
});

test('ldmatrix needs 16 contiguous bytes per row: a vec=4 swizzle cannot serve it', () => {
  assert.type(accessCost(A64, shared(4, 1, 8)), 'string');
  assert.is(bufferCost([A64], shared(4, 1, 8)), null);
});

test('ldmatrix.trans: a B operand stored N-contiguous reads rows along K', () => {
  // 64(K)x64(N) B operand, 4 warps along N: warp 0 holds N 0-7 and 32-39; one ldmatrix.x4 pairs
  // them (K 0-7, 8-15 of each), 4 in all along K.
  const B = ldmatrixAccess(dot(1, mma([1, 4])), [64, 64], { tileShape: [64, 64], offsets: [0, 0], elemBytes: 2 });
  if (B.kind !== 'ldmatrix') return assert.unreachable();
  assert.equal(B.origins.map((m) => m.length), [4, 4, 4, 4]);
  assert.equal(B.origins[0], [[0, 0], [8, 0], [0, 32], [8, 32]]);
  // Order [1, 0]: N is contiguous, rows run along K with a 128-byte stride: 8-way again.
  assert.equal(accessCost(B, UNSWIZZLED), { instructions: 4, wavefronts: 128, ideal: 16 });
  assert.equal(accessCost(B, shared(8, 1, 8)), { instructions: 4, wavefronts: 16, ideal: 16 });
});

test('ldmatrix.x2: a B operand with one 8-wide column block per warp', () => {
  // 32(K)x32(N), 4 warps along N: warp 0 holds N 0-7 only, so K 0-15 and 16-31 are x2 loads.
  const B = ldmatrixAccess(dot(1, mma([1, 4])), [32, 32], { tileShape: [32, 32], offsets: [0, 0], elemBytes: 2 });
  if (B.kind !== 'ldmatrix') return assert.unreachable();
  assert.equal(B.origins, [[[0, 0], [8, 0]], [[16, 0], [24, 0]]]);
  // Rows 64 bytes apart: 8 rows on 2 bank groups of 4 words each, 4 wavefronts a phase.
  assert.equal(accessCost(B, UNSWIZZLED), { instructions: 2, wavefronts: 16, ideal: 4 });
});

// The transpose: f32 32x32, written by rows (4 f32 per thread along dim1), read by columns (4 per
// thread along dim0), 4 warps.
const tile32 = { tileShape: [32, 32], offsets: [0, 0], elemBytes: 4 };
const byRows = vectorAccess('st.shared', blocked([1, 4], [8, 4], [4, 1], [1, 0]), [32, 32], tile32);
const byCols = vectorAccess('ld.shared', blocked([4, 1], [4, 8], [1, 4], [0, 1]), [32, 32], tile32);

test('f32 32x32 written by rows: 16-byte stores, two rows per phase on the same banks', () => {
  const insts = warpAccesses(byRows, UNSWIZZLED) as WarpAccess[];
  // 8 registers per thread, 2 vectors of 4; lanes 0-3 on row 0 (bytes 0-63), lanes 4-7 on row 1 (128-191).
  assert.equal(insts.map((i) => i.width), [16, 16]);
  assert.equal(insts[0].addrs.slice(0, 8), [0, 16, 32, 48, 128, 144, 160, 176]);
  assert.equal(accessCost(byRows, UNSWIZZLED), { instructions: 2, wavefronts: 16, ideal: 8 });
});

test('f32 32x32 read by columns: one element per lane, rows 0, 4, 8, 12 on the same banks', () => {
  const insts = warpAccesses(byCols, UNSWIZZLED) as WarpAccess[];
  assert.is(insts.length, 8);
  assert.equal(insts[0].addrs.slice(0, 5), [0, 4 * 128, 8 * 128, 12 * 128, 4]);
  assert.equal(accessCost(byCols, UNSWIZZLED), { instructions: 8, wavefronts: 32, ideal: 8 });
});

test('the transpose swizzle: vec=4, perPhase=2, maxPhase=8 (or vec=8, perPhase=4, maxPhase=4) frees the column reads, keeps 16-byte stores', () => {
  const sw = shared(4, 2, 8);
  // Rows 0, 4, 8, 12 get phases 0, 2, 4, 6: columns 0-7 (chunks 0-1) move to chunks 0-1, 2-3, 4-5, 6-7.
  assert.equal(accessCost(byCols, sw), { instructions: 8, wavefronts: 8, ideal: 8 });
  // Rows 0 and 1 share phase 0: the stores stay 2-way, as under every swizzle of this family.
  assert.equal(accessCost(byRows, sw), { instructions: 2, wavefronts: 16, ideal: 8 });
  // 32-byte groups (vec=8) with perPhase=4, maxPhase=4 do as well: rows 0, 4, 8, 12 get phases
  // 0, 1, 2, 3, so columns 0-7 (one group) move to groups 0, 1, 2, 3. Ties go to the smaller maxPhase.
  const wide = shared(8, 4, 4);
  assert.equal(accessCost(byCols, wide), { instructions: 8, wavefronts: 8, ideal: 8 });
  assert.equal(accessCost(byRows, wide), { instructions: 2, wavefronts: 16, ideal: 8 });
  const best = chooseSwizzle(UNSWIZZLED, [32, 32], 4, [byRows, byCols]);
  assert.is(best?.enc, wide);
  assert.equal(best?.cost, { instructions: 10, wavefronts: 24, ideal: 16 });
});

test('a swizzle that splits vectors pays for the extra instructions', () => {
  // vec=1, maxPhase=8: row 1 moves column 0 to column 1, so stores fall to one f32 per lane: 8
  // instructions, each with rows 0-7 x columns {0, 4, 8, 12} + r on 16 banks, two words each.
  assert.equal(accessCost(byRows, shared(1, 1, 8)), { instructions: 8, wavefronts: 16, ideal: 8 });
});

test.run();
