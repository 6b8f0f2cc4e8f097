/**
 * Unit tests of the bank model (passes/support/bank-conflicts.ts, shared-accesses.ts) and
 * pad-shared's choice on rank-3 (batched) shared tiles, the operands of a batched dot on a rank-3
 * `#ttg.nvidia_mma` (instrShape [1, 16, 8], warps along the batch): ldmatrix reads each matrix of
 * the batch like a rank-2 operand (rows along the matrix dim contiguous in the tile, 8 rows down
 * the other), the swizzle acts on the two fastest dims of the order, and a view through
 * `ttg.memdesc_trans` costs the same addresses in the alloc's coordinates. Hand-computed cases.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { DOT_OP, NVIDIA_MMA, SWIZZLED_SHARED, blocked } from '../../dialects/ttg/layout-attrs.js';
import { StructAttr } from '../../dialects/ttg/struct-attr.js';
import { accessCost, ldmatrixAccess, vectorAccess, warpAccesses, wavefronts, type WarpAccess } from '../../passes/support/bank-conflicts.js';
import { inAllocCoordinates } from '../../passes/support/shared-accesses.js';
import { chooseSwizzle, tritonMmaSwizzle } from '../../passes/pad-shared.js';

registerAllDialects();

const shared = (vec: number, perPhase: number, maxPhase: number, order: number[]) => StructAttr.get(SWIZZLED_SHARED, { vec, perPhase, maxPhase, order });
const MMA3 = StructAttr.get(NVIDIA_MMA, { versionMajor: 2, versionMinor: 0, warpsPerCTA: [4, 1, 1], instrShape: [1, 16, 8] });
const dot = (opIdx: number) => StructAttr.get(DOT_OP, { opIdx, parent: MMA3, kWidth: 2 });
/** A batch-first tile (order [2, 1, 0]: the last dim contiguous, the batch outermost). */
const BATCH_FIRST = shared(1, 1, 1, [2, 1, 0]);
const tile = (tileShape: number[]) => ({ tileShape, offsets: tileShape.map(() => 0), elemBytes: 2 });

// A: 4 matrices of 64(M) x 16(K) f16, one per warp. Warp 0 holds matrix 0, M 0-63, all of K: four
// 16x16 blocks, one ldmatrix.x4 each; rows are 32 bytes (16 halves) of K.
const A = ldmatrixAccess(dot(0), [4, 64, 16], tile([4, 64, 16]));

test('rank-3 ldmatrix: warp 0 reads the blocks of its own matrix of the batch', () => {
  if (A.kind !== 'ldmatrix') return assert.unreachable();
  assert.equal(A.matrixDims, [1, 2]);
  assert.equal(A.origins, [0, 16, 32, 48].map((m) => [[0, m, 0], [0, m + 8, 0], [0, m, 8], [0, m + 8, 8]]));
});

test('rank-3 ldmatrix unswizzled: 32-byte rows, rows r and r + 4 of a phase on the same banks', () => {
  const insts = warpAccesses(A, BATCH_FIRST) as WarpAccess[];
  assert.equal(insts[0].addrs.slice(0, 8), [0, 32, 64, 96, 128, 160, 192, 224]);
  assert.is(wavefronts(insts[0]), 4 * 2);
  assert.equal(accessCost(A, BATCH_FIRST), { instructions: 4, wavefronts: 32, ideal: 16 });
});

test("rank-3 ldmatrix under Triton's swizzle for 32-byte rows (vec 8, perPhase 4, maxPhase 2): conflict-free, and pad-shared's choice", () => {
  const sw = shared(8, 4, 2, [2, 1, 0]);
  assert.is(tritonMmaSwizzle(BATCH_FIRST, [4, 64, 16], 2), sw);
  const insts = warpAccesses(A, sw) as WarpAccess[];
  // Rows 4-7 have phase 1: their first 16-byte chunk moves to the second.
  assert.equal(insts[0].addrs.slice(0, 8), [0, 32, 64, 96, 128 + 16, 160 + 16, 192 + 16, 224 + 16]);
  assert.equal(accessCost(A, sw), { instructions: 4, wavefronts: 16, ideal: 16 });
  assert.is(chooseSwizzle(BATCH_FIRST, [4, 64, 16], 2, [A])?.enc, sw);
});

test('rank-3 ldmatrix through memdesc_trans: the batch-last tile [M, K, Z] with order [1, 0, 2] has the same addresses', () => {
  // view dim k is alloc dim dims[k]: view (Z, M, K) = alloc dims (2, 0, 1)
  const stored = ldmatrixAccess(dot(0), [4, 64, 16], tile([64, 16, 4]));
  const inAlloc = inAllocCoordinates(stored, [2, 0, 1]);
  if (inAlloc.kind !== 'ldmatrix') return assert.unreachable();
  assert.equal(inAlloc.matrixDims, [0, 1]);
  assert.equal(inAlloc.origins[0], [[0, 0, 0], [8, 0, 0], [0, 8, 0], [8, 8, 0]]);
  // [M, K, Z] in order [1, 0, 2] places (m, k, z) at k + 16 m + 1024 z, as [Z, M, K] in order [2, 1, 0] does.
  for (const [sw, batchFirst] of [
    [shared(1, 1, 1, [1, 0, 2]), BATCH_FIRST],
    [shared(8, 4, 2, [1, 0, 2]), shared(8, 4, 2, [2, 1, 0])],
  ]) {
    assert.equal(warpAccesses(inAlloc, sw), warpAccesses(A, batchFirst));
  }
  assert.is(chooseSwizzle(shared(1, 1, 1, [1, 0, 2]), [64, 16, 4], 2, [inAlloc])?.enc, shared(8, 4, 2, [1, 0, 2]));
});

test('rank-3 ldmatrix.trans: a B operand contiguous along N reads rows down K, 64-byte rows 4-way unswizzled', () => {
  // 4 matrices of 16(K) x 32(N): warp 0 holds all of N in matrix 0, four 8-wide column blocks,
  // paired (0-7 with 8-15, 16-23 with 24-31) into two ldmatrix.x4 (K 0-7 and 8-15 of each).
  const B = ldmatrixAccess(dot(1), [4, 16, 32], tile([4, 16, 32]));
  if (B.kind !== 'ldmatrix') return assert.unreachable();
  assert.equal(B.origins, [0, 16].map((n) => [[0, 0, n], [0, 8, n], [0, 0, n + 8], [0, 8, n + 8]]));
  const insts = warpAccesses(B, BATCH_FIRST) as WarpAccess[];
  assert.equal(insts[0].addrs.slice(0, 8), [0, 64, 128, 192, 256, 320, 384, 448]);
  assert.equal(accessCost(B, BATCH_FIRST), { instructions: 2, wavefronts: 32, ideal: 8 });
  // Triton's swizzle for 64-byte rows: vec 8, perPhase 2, maxPhase 4.
  const sw = shared(8, 2, 4, [2, 1, 0]);
  assert.equal(accessCost(B, sw), { instructions: 2, wavefronts: 8, ideal: 8 });
  assert.is(chooseSwizzle(BATCH_FIRST, [4, 16, 32], 2, [B])?.enc, sw);
});

test('more matrices than warps: warp 0 reads matrices 0 and 4, each at its own batch offset', () => {
  const A8 = ldmatrixAccess(dot(0), [8, 32, 16], tile([8, 32, 16]));
  if (A8.kind !== 'ldmatrix') return assert.unreachable();
  assert.equal(A8.origins.map((m) => m[0]), [[0, 0, 0], [0, 16, 0], [4, 0, 0], [4, 16, 0]]);
  const insts = warpAccesses(A8, BATCH_FIRST) as WarpAccess[];
  // Matrix 4 starts 4 * 32 * 16 halves (4096 bytes) in.
  assert.equal(insts[2].addrs[0], 4096);
  assert.equal(accessCost(A8, BATCH_FIRST), { instructions: 4, wavefronts: 32, ideal: 16 });
});

test('a batched tile contiguous along its batch dim cannot be read with ldmatrix', () => {
  assert.type(warpAccesses(A, shared(1, 1, 1, [0, 2, 1])), 'string');
  assert.type(accessCost(A, shared(1, 1, 1, [0, 2, 1])), 'string');
});

test('rank-3 row stores: 16-byte vectors of one matrix per warp, conflict-free under the chosen swizzle', () => {
  // [M, K, Z] = [64, 16, 4] stored from the coalesced load layout (8 halves per thread along K,
  // 2 lanes per row, 16 rows per warp, batch slowest).
  const st = vectorAccess('st.shared', blocked([1, 8, 1], [16, 2, 1], [4, 1, 1], [1, 0, 2]), [64, 16, 4], tile([64, 16, 4]));
  assert.equal(accessCost(st, shared(1, 1, 1, [1, 0, 2])), { instructions: 4, wavefronts: 16, ideal: 16 });
  assert.equal(accessCost(st, shared(8, 4, 2, [1, 0, 2])), { instructions: 4, wavefronts: 16, ideal: 16 });
});

test.run();
