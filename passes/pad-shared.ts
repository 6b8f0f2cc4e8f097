/**
 * `pad-shared`: for every shared buffer (`ttg.local_alloc` in `#ttg.shared_memory` with a
 * `#ttg.swizzled_shared` encoding of rank 2, or of rank 3: a batch of matrices, swizzled over the
 * two fastest dims of its order like a rank-2 tile, the slowest outermost), chooses the swizzle
 * or padding under which the accesses to it take the fewest shared-memory wavefronts, and
 * records it in the encoding of the alloc and of every memdesc derived from it (views,
 * loop-carried values).
 *
 * The accesses are every st.shared, ld.shared, cp.async and ldmatrix the NVPTX target issues for
 * the buffer (support/shared-accesses.ts), costed by the bank model of support/bank-conflicts.ts
 * as total wavefronts, so a swizzle that splits 16-byte vectors pays for its extra instructions.
 * Candidates keep the buffer's order: unswizzled, and every vec (at most 32 bytes, dividing the
 * row: a group wider than the 16-byte accesses still moves whole rows of 8 f32 to other banks, as
 * tf32 operands read across 4 rows need), perPhase in {1, 2, 4, 8} and maxPhase in {2, .., 16} (at most the row's vectors). Ties
 * go to Triton's mma-operand swizzle when ldmatrix reads the buffer, then to the smallest
 * swizzle (maxPhase, then vec, then perPhase). Padding is the other kind of candidate:
 * `#ttg.padded_shared<[row:+P]>`, P elements (1 to 16 bytes) after each row of the tile in its
 * order. It costs memory, so it wins only with strictly fewer wavefronts than every swizzle: for
 * rows written in 16-byte vectors and read by columns, where a swizzle that keeps the vectors
 * leaves rows on one bank. Buffers of other encodings (nvmma_shared), and buffers nothing reads
 * or writes, are left alone. An access through a `ttg.memdesc_trans` view
 * is costed in the alloc's coordinates (the stores of the loaded rows and the ldmatrix of the
 * transposed operand choose one swizzle together), and the view gets the chosen encoding
 * transposed. A buffer with an access the model cannot follow (a reshaped view, a memdesc passed
 * to an unknown op, an operand layout it does not cost) keeps its encoding, with a remark at that
 * access: choosing one is an optimization, and the target lowers any swizzle.
 */
import type { Operation, Value } from '../ir/ir.js';
import { MemDescType } from '../dialects/ttg/types.js';
import { SWIZZLED_SHARED, isLayout } from '../dialects/ttg/layout-attrs.js';
import { StructAttr } from '../dialects/ttg/struct-attr.js';
import { orderedBases, PaddedSharedAttr } from '../dialects/ttg/padded-shared.js';
import { elementBytes } from './support/alloc-shared-scratch.js';
import { bufferCost, type AccessCost, type TileAccess } from './support/bank-conflicts.js';
import { bufferGroups, encodingRank, tileAccessOf, tileShapeOf, viewEncoding, viewOrigin, type BufferGroup, type ViewOrigin } from './support/shared-accesses.js';
import type { Attribute } from '../ir/attributes.js';
import type { PassContext, PassDecl } from './pass.js';

const isPow2 = (n: number): boolean => Number.isInteger(n) && n >= 1 && (n & (n - 1)) === 0;

/** `enc` with another swizzle (order and CTA fields kept). */
function withSwizzle(enc: StructAttr, vec: number, perPhase: number, maxPhase: number): StructAttr {
  return StructAttr.get(SWIZZLED_SHARED, { ...enc.values, vec, perPhase, maxPhase });
}

/** The candidate encodings of a tile, smallest swizzle first. */
export function swizzleCandidates(enc: StructAttr, tileShape: readonly number[], elemBytes: number): StructAttr[] {
  const [contig] = enc.ints('order');
  const cols = tileShape[contig];
  const out = [withSwizzle(enc, 1, 1, 1)];
  for (const maxPhase of [2, 4, 8, 16]) {
    for (const vec of [1, 2, 4, 8, 16]) {
      if (vec * elemBytes > 32 || cols % vec || !isPow2(cols / vec) || maxPhase > cols / vec) continue;
      for (const perPhase of [1, 2, 4, 8]) out.push(withSwizzle(enc, vec, perPhase, maxPhase));
    }
  }
  return out;
}

/** Triton's swizzle for an mma operand tile: 16-byte vectors, phases spread over 128-byte rows. */
export function tritonMmaSwizzle(enc: StructAttr, tileShape: readonly number[], elemBytes: number): StructAttr {
  const rowBytes = tileShape[enc.ints('order')[0]] * elemBytes;
  const perPhase = Math.max(1, Math.floor(128 / rowBytes));
  return withSwizzle(enc, Math.max(1, Math.floor(16 / elemBytes)), perPhase, Math.max(1, Math.floor(8 / perPhase)));
}

/** The padded candidates of a tile: 1 to 16 bytes of padding after each row, in the tile's order. */
export function paddingCandidates(enc: StructAttr, tileShape: readonly number[], elemBytes: number): PaddedSharedAttr[] {
  const order = enc.ints('order');
  if (tileShape.length !== 2 || order.length !== 2) return [];
  const row = tileShape[order[0]];
  const offset = orderedBases(order, tileShape);
  return [1, 2, 4, 8, 16].filter((p) => p * elemBytes <= 16).map((p) => PaddedSharedAttr.get([{ interval: row, padding: p }], offset));
}

/** The cheapest candidate, swizzle or padding, for `accesses` and its cost (null when no candidate can serve them). */
export function chooseSwizzle(enc: StructAttr, tileShape: readonly number[], elemBytes: number, accesses: readonly TileAccess[]): { enc: Attribute; cost: AccessCost } | null {
  const distinct = distinctAccesses(accesses);
  let best: { enc: Attribute; cost: AccessCost } | null = null;
  for (const cand of swizzleCandidates(enc, tileShape, elemBytes)) {
    const cost = countedCost(distinct, cand);
    if (cost && (!best || cost.wavefronts < best.cost.wavefronts)) best = { enc: cand, cost };
  }
  if (best && accesses.some((a) => a.kind === 'ldmatrix')) {
    const triton = tritonMmaSwizzle(enc, tileShape, elemBytes);
    const cost = countedCost(distinct, triton);
    if (cost && cost.wavefronts === best.cost.wavefronts) best = { enc: triton, cost };
  }
  // Padding costs memory: it must beat every swizzle.
  for (const cand of paddingCandidates(enc, tileShape, elemBytes)) {
    const cost = countedCost(distinct, cand);
    if (cost && (!best || cost.wavefronts < best.cost.wavefronts)) best = { enc: cand, cost };
  }
  return best;
}

/** `accesses` with equal ones counted once (a pipelined buffer's prologue copies and loop copy move the same tile the same way). */
function distinctAccesses(accesses: readonly TileAccess[]): { access: TileAccess; count: number }[] {
  const byKey = new Map<string, { access: TileAccess; count: number }>();
  for (const access of accesses) {
    const key = JSON.stringify(access);
    const seen = byKey.get(key);
    if (seen) seen.count++;
    else byKey.set(key, { access, count: 1 });
  }
  return [...byKey.values()];
}

/** `bufferCost` of the accesses `distinct` counts, each costed once. */
function countedCost(distinct: readonly { access: TileAccess; count: number }[], enc: Attribute): AccessCost | null {
  const total: AccessCost = { instructions: 0, wavefronts: 0, ideal: 0 };
  for (const { access, count } of distinct) {
    const c = bufferCost([access], enc);
    if (!c) return null;
    total.instructions += count * c.instructions;
    total.wavefronts += count * c.wavefronts;
    total.ideal += count * c.ideal;
  }
  return total;
}

/**
 * The encoding value `v` of a group must have when its allocs have `enc` (`enc` itself, or
 * transposed for a `ttg.memdesc_trans` view), or why it cannot be given.
 */
function encodingOfValue(v: Value, enc: Attribute, memo: Map<Value, ViewOrigin | string>): Attribute | null | string {
  const origin = viewOrigin(v, memo);
  return typeof origin === 'string' ? origin : viewEncoding(origin, enc);
}

/** The one swizzled encoding of a group's allocs (null: not this pass's to change, with a remark when it is a mix). */
function groupEncoding(g: BufferGroup, ctx: PassContext, memo: Map<Value, ViewOrigin | string>): StructAttr | null {
  const types = g.allocs.map((a) => a.result(0).type as MemDescType);
  const enc = types[0].encoding;
  const rank = encodingRank(g.allocs[0]);
  if (!isLayout(enc, SWIZZLED_SHARED) || (rank !== 2 && rank !== 3) || types[0].allocShape.length < rank) return null;
  const key = (t: MemDescType) => `${t.encoding?.id}:${t.elementType.id}:${t.allocShape.join('x')}`;
  const odd = g.allocs.find((_, k) => key(types[k]) !== key(types[0]));
  if (odd) {
    ctx.remark(odd, 'pad-shared keeps this buffer\'s encoding: it shares memdescs with a buffer of another encoding, type or shape, and one swizzle cannot serve both');
    return null;
  }
  // (a view the model cannot follow is reported at its access)
  const view = g.values.find((v) => {
    const want = encodingOfValue(v, enc as StructAttr, memo);
    return typeof want !== 'string' && v.type instanceof MemDescType && v.type.encoding !== want;
  });
  if (view) {
    ctx.remark(view.definingOp ?? g.allocs[0], 'pad-shared keeps this buffer\'s encoding: this view of it has another encoding, which it cannot rewrite');
    return null;
  }
  return enc as StructAttr;
}

function run(func: Operation, ctx: PassContext): void {
  const memo = new Map<Value, ViewOrigin | string>();
  const chosenFor = new Map<string, ReturnType<typeof chooseSwizzle>>();
  for (const g of bufferGroups(func)) {
    const enc = groupEncoding(g, ctx, memo);
    if (!enc) continue;
    // A buffer with an access the model cannot follow keeps the encoding it has (choosing one is
    // an optimization; the target lowers any swizzle), with a remark saying which access and why.
    if (g.unknown.length) {
      ctx.remark(g.unknown[0].op, `pad-shared keeps this buffer's encoding: ${g.unknown[0].reason}`);
      ctx.bump('buffers-kept');
      continue;
    }
    const accesses: TileAccess[] = [];
    let unmodeled: [Operation, string] | null = null;
    for (const op of g.accessOps) {
      const a = tileAccessOf(op, memo);
      if (typeof a === 'string') {
        unmodeled = [op, a];
        break;
      }
      if (a) accesses.push(a.access);
    }
    if (unmodeled) {
      ctx.remark(unmodeled[0], `pad-shared keeps this buffer's encoding: it cannot model this shared access (${unmodeled[1]})`);
      ctx.bump('buffers-kept');
      continue;
    }
    // A buffer nothing reads or writes keeps its encoding.
    if (!accesses.length) continue;
    const alloc = g.allocs[0];
    const elemBytes = elementBytes((alloc.result(0).type as MemDescType).elementType);
    const tileShape = tileShapeOf(alloc);
    // (a kernel's versions, version-alignment's copies of the loop, choose for equal buffers)
    const key = `${enc.id}:${tileShape.join('x')}:${elemBytes}:${JSON.stringify(accesses)}`;
    if (!chosenFor.has(key)) chosenFor.set(key, chooseSwizzle(enc, tileShape, elemBytes, accesses));
    const chosen = chosenFor.get(key)!;
    ctx.bump('buffers-visited');
    if (!chosen) continue;
    ctx.bump('wavefronts-before', bufferCost(accesses, enc)?.wavefronts ?? 0);
    ctx.bump('wavefronts-after', chosen.cost.wavefronts);
    if (chosen.enc === enc) continue;
    ctx.bump('buffers-changed');
    // !ttg.memdesc<..., #shared> -> !ttg.memdesc<..., #shared_new> on the alloc and every view of it
    // (a transposed view gets #shared_new transposed)
    const retyped = g.values.map((v) => encodingOfValue(v, chosen.enc, memo));
    g.values.forEach((v, k) => {
      const t = v.type as MemDescType;
      const e = retyped[k];
      if (typeof e === 'string' || !e) return ctx.fail(v.definingOp ?? g.allocs[0], `cannot give this view the chosen encoding: ${e ?? 'no transposed encoding'}`);
      v.type = MemDescType.get(t.shape, t.elementType, e, t.memorySpace, t.mutable, t.allocShape);
    });
  }
}

/** The `pad-shared` pass. */
export const padShared: PassDecl = {
  name: 'pad-shared',
  summary: 'Choose the swizzle (or row padding) of every shared buffer that makes its accesses take the fewest bank wavefronts',
  anchor: 'function',
  statistics: {
    'buffers-visited': 'number of swizzled shared buffers (or groups of buffers sharing memdescs) examined',
    'buffers-changed': 'number of buffers given a new encoding',
    'buffers-kept': 'number of buffers left with their encoding because an access to them is not modeled (see the remark)',
    'wavefronts-before': 'shared-memory wavefronts of all accesses under the encodings found',
    'wavefronts-after': 'shared-memory wavefronts of all accesses under the encodings chosen',
  },
  run,
};
