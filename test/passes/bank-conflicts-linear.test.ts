/**
 * Unit tests of the bank model's shortcuts on XOR-linear tiles (passes/support/bank-conflicts.ts,
 * `accessCost`): over every candidate encoding pad-shared tries, for vector accesses (transposes,
 * batched tiles, dot operands with a blocked parent, subslice origins, 1-, 2- and 4-byte elements)
 * and ldmatrix (A and B operands, x4 and x2, batched, tf32, subslices along K, views through
 * memdesc_trans), the cost equals the one from placing every element of every instruction
 * (`warpAccesses`) and counting words per bank with Maps, as the model is defined.
 * Also: `sharedOffsetBases` describes every offset of the tiles `isXorLinear` accepts.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import type { Attribute } from '../../ir/attributes.js';
import { BLOCKED, DOT_OP, NVIDIA_MMA, SWIZZLED_SHARED, blocked } from '../../dialects/ttg/layout-attrs.js';
import { StructAttr } from '../../dialects/ttg/struct-attr.js';
import { isXorLinear, offsetFromBases, sharedOffset, sharedOffsetBases } from '../../dialects/ttg/shared-layout.js';
import { accessCost, idealWavefronts, ldmatrixAccess, phasesOf, vectorAccess, warpAccesses, type AccessCost, type TileAccess, type WarpAccess } from '../../passes/support/bank-conflicts.js';
import { inAllocCoordinates } from '../../passes/support/shared-accesses.js';
import { paddingCandidates, swizzleCandidates } from '../../passes/pad-shared.js';

registerAllDialects();

const shared = (vec: number, perPhase: number, maxPhase: number, order: number[]) => StructAttr.get(SWIZZLED_SHARED, { vec, perPhase, maxPhase, order });

/** Wavefronts as the model defines them: per phase, a Map from bank to the Set of its distinct words. */
function referenceWavefronts(access: WarpAccess): number {
  const perPhase = 32 / phasesOf(access.width);
  let total = 0;
  for (let p = 0; p * perPhase < access.addrs.length; p++) {
    const words = new Map<number, Set<number>>();
    for (const addr of access.addrs.slice(p * perPhase, (p + 1) * perPhase)) {
      for (let w = Math.floor(addr / 4); w <= Math.floor((addr + Math.max(1, access.width) - 1) / 4); w++) {
        if (!words.has(w % 32)) words.set(w % 32, new Set());
        words.get(w % 32)!.add(w);
      }
    }
    total += Math.max(1, ...[...words.values()].map((s) => s.size));
  }
  return total;
}

/** The cost from every instruction's addresses. */
function referenceCost(access: TileAccess, enc: Attribute | null): AccessCost | string {
  const insts = warpAccesses(access, enc);
  if (typeof insts === 'string') return insts;
  return {
    instructions: insts.length,
    wavefronts: insts.reduce((s, a) => s + referenceWavefronts(a), 0),
    ideal: insts.reduce((s, a) => s + idealWavefronts(a), 0),
  };
}

/** Every encoding pad-shared tries on a tile, the unswizzled row-major tile (null) and a few odd swizzles. */
function encodings(order: number[], tileShape: number[], elemBytes: number): (Attribute | null)[] {
  const base = shared(1, 1, 1, order);
  const odd = [shared(4, 2, 3, order), shared(2, 3, 4, order), shared(3, 1, 2, order)];
  return [null, ...swizzleCandidates(base, tileShape, elemBytes), ...paddingCandidates(base, tileShape, elemBytes), ...odd];
}

const cases: { name: string; access: TileAccess; order: number[] }[] = [];
const tile = (tileShape: number[], offsets: number[], elemBytes: number) => ({ tileShape, offsets, elemBytes });
for (const elemBytes of [1, 2, 4]) {
  cases.push({ name: `rows ${elemBytes}B`, order: [1, 0], access: vectorAccess('st.shared', blocked([1, 4], [8, 4], [4, 1], [1, 0]), [32, 32], tile([32, 32], [0, 0], elemBytes)) });
  cases.push({ name: `cols ${elemBytes}B`, order: [1, 0], access: vectorAccess('ld.shared', blocked([4, 1], [4, 8], [1, 4], [0, 1]), [32, 32], tile([32, 32], [0, 0], elemBytes)) });
  cases.push({ name: `cp.async ${elemBytes}B`, order: [1, 0], access: vectorAccess('cp.async', blocked([1, 8], [8, 4], [4, 1], [1, 0]), [64, 32], tile([64, 32], [0, 0], elemBytes), 4) });
  cases.push({ name: `subslice ${elemBytes}B`, order: [1, 0], access: vectorAccess('ld.shared', blocked([1, 2], [16, 2], [2, 2], [1, 0]), [32, 8], tile([32, 32], [0, 16], elemBytes)) });
  cases.push({ name: `unaligned subslice ${elemBytes}B`, order: [1, 0], access: vectorAccess('ld.shared', blocked([1, 2], [16, 2], [2, 2], [1, 0]), [32, 8], tile([64, 32], [8, 4], elemBytes)) });
  cases.push({ name: `2x2 per thread ${elemBytes}B`, order: [1, 0], access: vectorAccess('st.shared', blocked([2, 2], [8, 4], [4, 1], [1, 0]), [64, 8], tile([64, 8], [0, 0], elemBytes)) });
  cases.push({ name: `column-major ${elemBytes}B`, order: [0, 1], access: vectorAccess('st.shared', blocked([4, 1], [8, 4], [1, 4], [0, 1]), [64, 16], tile([64, 16], [0, 0], elemBytes)) });
}
// dot operands with a blocked parent: every register of a row, broadcast over lanes
const parent = blocked([4, 4], [2, 16], [4, 1], [1, 0]);
const dotOp = (opIdx: number) => StructAttr.get(DOT_OP, { opIdx, parent });
cases.push({ name: 'fma A', order: [1, 0], access: vectorAccess('ld.shared', dotOp(0), [64, 16], tile([64, 16], [0, 0], 4)) });
cases.push({ name: 'fma B', order: [1, 0], access: vectorAccess('ld.shared', dotOp(1), [16, 64], tile([16, 64], [0, 0], 4)) });
// a batch of matrices, and broadcast registers (a store skips them)
cases.push({ name: 'batched', order: [1, 0, 2], access: vectorAccess('cp.async', StructAttr.get(BLOCKED, { sizePerThread: [1, 8, 1], threadsPerWarp: [8, 4, 1], warpsPerCTA: [2, 1, 2], order: [1, 0, 2] }), [32, 16, 4], tile([32, 16, 4], [0, 0, 0], 2), 4) });
cases.push({ name: 'broadcast store', order: [1, 0], access: vectorAccess('st.shared', blocked([1, 4], [8, 4], [4, 1], [1, 0]), [8, 16], tile([8, 16], [0, 0], 2)) });

// ldmatrix of mma v2 operands: f16 (kWidth 2) and tf32 (kWidth 1), rank 2 and batched
const mma = (warps: number[], instrShape: number[]) => StructAttr.get(NVIDIA_MMA, { versionMajor: 2, versionMinor: 0, warpsPerCTA: warps, instrShape });
const mmaOp = (opIdx: number, parentMma: Attribute, kWidth: number) => StructAttr.get(DOT_OP, { opIdx, parent: parentMma, kWidth });
const mma2 = mma([2, 2], [16, 8]);
for (const [elemBytes, kWidth] of [[2, 2], [4, 1]]) {
  cases.push({ name: `ldmatrix A ${elemBytes}B`, order: [1, 0], access: ldmatrixAccess(mmaOp(0, mma2, kWidth), [64, 32], tile([64, 32], [0, 0], elemBytes)) });
  cases.push({ name: `ldmatrix B ${elemBytes}B`, order: [1, 0], access: ldmatrixAccess(mmaOp(1, mma2, kWidth), [32, 64], tile([32, 64], [0, 0], elemBytes)) });
  cases.push({ name: `ldmatrix A K-slice ${elemBytes}B`, order: [1, 0], access: ldmatrixAccess(mmaOp(0, mma2, kWidth), [64, 16], tile([64, 64], [0, 16], elemBytes)) });
  cases.push({ name: `ldmatrix B x2 ${elemBytes}B`, order: [1, 0], access: ldmatrixAccess(mmaOp(1, mma([1, 4], [16, 8]), kWidth), [32, 32], tile([32, 32], [0, 0], elemBytes)) });
  cases.push({ name: `ldmatrix B column-major ${elemBytes}B`, order: [0, 1], access: ldmatrixAccess(mmaOp(1, mma2, kWidth), [32, 64], tile([32, 64], [0, 0], elemBytes)) });
}
const mma3 = mma([4, 1, 1], [1, 16, 8]);
cases.push({ name: 'ldmatrix batched A', order: [2, 1, 0], access: ldmatrixAccess(mmaOp(0, mma3, 2), [4, 64, 16], tile([4, 64, 16], [0, 0, 0], 2)) });
cases.push({ name: 'ldmatrix batched B', order: [2, 1, 0], access: ldmatrixAccess(mmaOp(1, mma3, 2), [4, 16, 32], tile([4, 16, 32], [0, 0, 0], 2)) });
cases.push({ name: 'ldmatrix batched A, transposed view', order: [1, 0, 2], access: inAllocCoordinates(ldmatrixAccess(mmaOp(0, mma3, 2), [4, 64, 16], tile([64, 16, 4], [0, 0, 0], 2)), [2, 0, 1]) });

test('vector and ldmatrix accesses: the shortcuts cost every encoding as placing every element does', () => {
  let compared = 0;
  for (const c of cases) {
    for (const enc of encodings(c.order, c.access.tileShape as number[], c.access.elemBytes)) {
      assert.equal(accessCost(c.access, enc), referenceCost(c.access, enc), `${c.name} under ${enc}`);
      compared++;
    }
  }
  assert.ok(compared > 1000);
});

test('isXorLinear: sharedOffsetBases give every offset of the tile', () => {
  const shapes = [[32, 32], [64, 16], [8, 128], [16, 8, 4]];
  for (const shape of shapes) {
    const order = shape.length === 3 ? [1, 0, 2] : [1, 0];
    for (const enc of encodings(order, shape, 2)) {
      if (!isXorLinear(enc, shape)) continue;
      const bases = sharedOffsetBases(enc, shape)!;
      const n = shape.reduce((p, k) => p * k, 1);
      for (let i = 0; i < n; i++) {
        const coords: number[] = [];
        let rest = i;
        for (let d = shape.length - 1; d >= 0; d--) {
          coords[d] = rest % shape[d];
          rest = Math.floor(rest / shape[d]);
        }
        if (offsetFromBases(bases, coords) !== sharedOffset(enc, shape, coords)) assert.unreachable(`${enc} at ${coords}`);
      }
    }
  }
  assert.not.ok(isXorLinear(shared(4, 2, 3, [1, 0]), [32, 32]));
  assert.not.ok(isXorLinear(shared(4, 2, 4, [1, 0]), [32, 24]));
});

test('a rank-3 access with one element per thread places every lane (no register bases)', () => {
  // a 1x4x32 f32 tile, one element per thread: warp 0's lane l reads (0, 0, l), 4 bytes apart
  const access = vectorAccess('ld.shared', blocked([1, 1, 1], [1, 1, 32], [1, 4, 1], [2, 1, 0]), [1, 4, 32], tile([1, 4, 32], [0, 0, 0], 4));
  assert.ok(access.kind === 'vector' && access.register.length === 0, 'no register bases');
  const insts = warpAccesses(access, null) as WarpAccess[];
  assert.equal(insts, [{ addrs: Array.from({ length: 32 }, (_, l) => 4 * l), width: 4 }]);
  assert.equal(accessCost(access, null), { instructions: 1, wavefronts: 1, ideal: 1 });
});

test.run();
