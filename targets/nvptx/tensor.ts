/**
 * Lowering of tensor construction and shape ops to registers: constants, `make_range`,
 * `splat`, `broadcast`, `expand_dims`, `reshape`, `addptr`, and `convert_layout` (a register
 * permutation where the threads already hold the right elements, else through shared memory).
 */
import { DenseElementsAttr, FloatAttr, IntegerAttr, StringAttr, floatBits, type DenseValue } from '../../ir/attributes.js';
import type { Operation, Value } from '../../ir/ir.js';
import { RankedTensorType, bitWidth, elementTypeOf, type Type } from '../../ir/types.js';
import * as arith from '../../dialects/arith.js';
import * as nvptx from '../../dialects/nvptx.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';
import { standardDims } from '../../dialects/ttg/layout-linear.js';
import { planExchange, SCRATCH_SYNC, type ExchangePlan, type ExchangeSide } from '../../dialects/ttg/layout-scratch.js';
import { sameThreadsHoldSameElements, scratchBytes } from '../../passes/support/alloc-shared-scratch.js';
import { lowering, registerType, type Lowering, type LoweringContext } from './context.js';
import { isFp8 } from './fp8.js';
import { I1, I16, I32, bitsType, internalError, plainOp, targetError } from './emitter.js';
import { coordIndex, registersByCoords, type RegLayout } from './layout.js';

/** The value of a splat or scalar constant attribute as an immediate register. */
function immediate(ctx: LoweringContext, attr: IntegerAttr | FloatAttr | DenseElementsAttr, t: Type, op: Operation): Value {
  const regT = registerType(t);
  const elt = elementTypeOf(t);
  // an fp8 constant is its byte
  const asRegister = (v: DenseValue): DenseValue => (isFp8(elt) ? floatBits(Number(v), elt.kind) : v);
  if (attr instanceof DenseElementsAttr) {
    if (!attr.isSplat) throw targetError(op, `cannot lower a non-splat constant tensor of type '${attr.type}'`);
    return ctx.e.imm(regT, asRegister(attr.at(0)));
  }
  return ctx.e.imm(regT, asRegister(attr.value));
}

/** Flat (row-major) contributions of each value of `inDim` to the element index. */
const flat = (l: RegLayout, inDim: string): number[] => l.ll.flatContributions(inDim, standardDims(l.shape.length));

/**
 * For each register of `dst`, the register of `src` holding the same element (same row-major
 * index), or null when lanes or warps hold different elements in the two layouts.
 */
function flatRegisterMap(src: RegLayout, dst: RegLayout): number[] | null {
  if (!sameThreadsHoldSameElements(src.type, dst.type)) return null;
  const byFlat = new Map<number, number>();
  flat(src, 'register').forEach((f, r) => byFlat.has(f) || byFlat.set(f, r));
  const out: number[] = [];
  for (const f of flat(dst, 'register')) {
    const r = byFlat.get(f);
    if (r === undefined) return null;
    out.push(r);
  }
  return out;
}

/** A shape op's view: one source tensor, one result (splat, broadcast, expand_dims, reshape, trans, convert_layout). */
interface UnaryView {
  readonly op: Operation;
  readonly src: Value;
  readonly result: Value;
}

/** Copies registers of `src` to `result` by `map`, or fails naming the layouts. */
function permute(ctx: LoweringContext, { op, src, result }: UnaryView, map: number[] | null): void {
  if (!map) throw targetError(op, `needs a layout conversion from '${src.type}' to '${result.type}'; run remove-layout-conversions or insert a ttg.convert_layout`);
  const regs = ctx.get(src, op);
  ctx.set(result, map.map((r) => regs[r]));
}

/** The same row-major element in the same thread -> the same register (expand_dims, reshape). */
function lowerFlatPermute(ctx: LoweringContext, v: UnaryView): void {
  permute(ctx, v, flatRegisterMap(ctx.layoutOf(v.src, v.op), ctx.layoutOf(v.result, v.op)));
}

/** Bytes an element of `t` takes in memory (i1 as one byte, pointers 8). */
export function smemBytes(t: Type): number {
  if (t instanceof tt.PointerType) return 8;
  return Math.max(1, bitWidth(t) / 8);
}

/** Stores `v` (a register of element type `t`) to shared address `addr`, predicated by `guard`. */
export function storeShared(ctx: LoweringContext, addr: Value, v: Value, guard?: Value): void {
  const e = ctx.e;
  if (v.type === I1) return e.st('shared.b8', addr, [e.boolToByte(v)], guard);
  e.st(`shared.${bitsType(v.type)}`, addr, [v], guard);
}

/** Loads a register of type `t` from shared address `addr`. */
export function loadShared(ctx: LoweringContext, addr: Value, t: Type): Value {
  const e = ctx.e;
  if (t === I1) return e.byteToBool(e.ld('shared.b8', addr, [I16])[0]);
  return e.ld(`shared.${bitsType(t)}`, addr, [t])[0];
}

/** The scratch offset alloc-shared gave `op`, checking that `bytes` fit in the module's shared memory. */
export function scratchAt(ctx: LoweringContext, op: Operation, bytes: number): number {
  const off = op.getAttr('allocation.offset');
  if (!(off instanceof IntegerAttr)) throw targetError(op, 'needs shared-memory scratch but has no allocation.offset; run alloc-shared first');
  const start = Number(off.value);
  if (start + bytes > ctx.sharedBytes)
    throw targetError(op, `needs ${bytes} bytes of shared-memory scratch at offset ${start}, but the module allocates ${ctx.sharedBytes} (ttg.shared)`);
  return start;
}

/** The shared-window address of `op`'s scratch (`scratchAt`), checked to hold `bytes`. */
export function scratchBase(ctx: LoweringContext, op: Operation, bytes: number): Value {
  return ctx.e.addImm(ctx.smemBase(), scratchAt(ctx, op, bytes));
}

/** The predicate "this thread holds the first copy of its elements" for a layout with broadcast lanes or warps. */
export function ownerGuard(ctx: LoweringContext, l: RegLayout): Value | undefined {
  if (!l.dupLaneMask && !l.dupWarpMask) return undefined;
  return ctx.hoist(`owner:${l.key}`, () => {
    const e = ctx.e;
    const bits = e.or(e.and(ctx.laneId(), e.imm(I32, l.dupLaneMask)), e.shl(e.and(ctx.warpId(), e.imm(I32, l.dupWarpMask)), Math.log2(ctx.threadsPerWarp)));
    return e.setp('eq', 'b', bits, e.imm(I32, 0));
  });
}

/** The element index an exchange through scratch orders elements by: `of` gives each value's contributions, `key` names the order. */
interface ExchangeIndex {
  of(l: RegLayout, inDim: string): number[];
  key: string;
}

/**
 * The index of an exchange through `capacity` elements of scratch (a power of two), which moves
 * in round k the elements whose index is in [k*capacity, (k+1)*capacity): the row-major flat index
 * when the lane and warp ids of both sides only touch its bits below capacity. Otherwise (warps
 * along a leading batch dim, say) the flat index with its bits reordered so that the highest bits
 * no thread of either side touches come on top, each round a fixed value of them (a bit
 * permutation is linear, so contributions still combine by XOR); null when too few such bits exist.
 */
function exchangeIndex(src: RegLayout, dst: RegLayout, capacity: number): ExchangeIndex | null {
  const thread = [src, dst].flatMap((l) => [...flat(l, 'lane'), ...flat(l, 'warp')]).reduce((m, x) => m | x, 0);
  if (thread < capacity) return { of: flat, key: '' };
  const n = Math.log2(src.shape.reduce((a, b) => a * b, 1));
  const low = Math.log2(capacity);
  const free = [...Array(n).keys()].filter((k) => !((thread >>> k) & 1));
  if (free.length < n - low) return null;
  const top = free.slice(free.length - (n - low));
  // Bit i of the exchange index is bit order[i] of the flat index.
  const order = [...[...Array(n).keys()].filter((k) => !top.includes(k)), ...top];
  const map = (f: number) => order.reduce((acc, old, i) => acc | (((f >>> old) & 1) << i), 0);
  return { of: (l, inDim) => flat(l, inDim).map(map), key: order.join(',') };
}

/**
 * The conversion round of each register (elements `ix` indexes in [k*capacity, (k+1)*capacity) move
 * in round k), or null when lane or warp ids touch the index's bits above capacity.
 */
function roundsOf(l: RegLayout, capacity: number, ix: ExchangeIndex): number[] | null {
  const thread = [...ix.of(l, 'lane'), ...ix.of(l, 'warp')].reduce((m, x) => m | x, 0);
  if (thread >= capacity) return null;
  return ix.of(l, 'register').map((f) => Math.floor(f / capacity));
}

/** What each bit of `inDim` adds to the exchange index (the values at 1, 2, 4, ...). */
const flatBits = (l: RegLayout, inDim: string, ix: ExchangeIndex): number[] => {
  const all = ix.of(l, inDim);
  return [...Array(Math.log2(all.length)).keys()].map((k) => all[1 << k]);
};

/** A layout's side of an exchange through `capacity` elements of scratch (index contributions within a round). */
function exchangeSide(l: RegLayout, capacity: number, ix: ExchangeIndex): ExchangeSide {
  return { regs: flatBits(l, 'register', ix).map((f) => (f < capacity ? f : 0)), lanes: flatBits(l, 'lane', ix) };
}

/** The scratch element offset of flat index `f` (within a round) under `plan`. */
const scratchIndex = (plan: ExchangePlan, f: number): number => plan.images.reduce((acc, img, b) => ((f >>> b) & 1 ? acc ^ img : acc), 0);

/**
 * This thread's part of the scratch offset of `l`'s elements (hoisted): the XOR of the images of
 * its lane and warp bits, each run of bits whose images are consecutive powers of two one mask and shift.
 */
function threadScratchIndex(ctx: LoweringContext, l: RegLayout, plan: ExchangePlan, ix: ExchangeIndex): Value {
  return ctx.hoist(`xchg:${l.key}:${plan.images.join(',')}:${ix.key}`, () => {
    const e = ctx.e;
    const terms: Value[] = [];
    const addId = (id: Value, bases: number[]) => {
      const img = bases.map((f) => scratchIndex(plan, f));
      for (let k = 0; k < img.length; ) {
        const m = img[k];
        if (!m) {
          k++;
          continue;
        }
        if (m & (m - 1)) {
          // a swizzled bit: ((id >> k) & 1) * image
          terms.push(e.mulImm(e.and(e.shrU(id, k), e.imm(I32, 1)), m));
          k++;
          continue;
        }
        let n = 1;
        while (k + n < img.length && img[k + n] === m << n) n++;
        const bitsOf = e.and(id, e.imm(I32, ((1 << n) - 1) << k));
        const to = Math.log2(m);
        terms.push(to >= k ? e.shl(bitsOf, to - k) : e.shrU(bitsOf, k - to));
        k += n;
      }
    };
    addId(ctx.laneId(), flatBits(l, 'lane', ix));
    addId(ctx.warpId(), flatBits(l, 'warp', ix));
    return terms.length ? terms.reduce((a, b) => e.xor(a, b)) : e.imm(I32, 0);
  });
}

/**
 * Shared addresses of one side of an exchange: register r's element is at
 * `base + bytes * (thread ^ c)` with c = its constant scratch index; c's bits that the thread part
 * can have are XORed in (once per distinct value), the others added, so ptxas folds them into the
 * address as an immediate.
 */
function scratchAddresses(ctx: LoweringContext, l: RegLayout, plan: ExchangePlan, ix: ExchangeIndex, base: Value, bytes: number): (r: number) => Value {
  const e = ctx.e;
  const capacity = 2 ** plan.bits;
  const thread = threadScratchIndex(ctx, l, plan, ix);
  const threadBits = [...flatBits(l, 'lane', ix), ...flatBits(l, 'warp', ix)].reduce((m, f) => m | scratchIndex(plan, f), 0);
  const regFlat = ix.of(l, 'register');
  const byXor = new Map<number, Value>();
  return (r) => {
    const f = regFlat[r] & (capacity - 1);
    const c = scratchIndex(plan, f);
    const x = c & threadBits;
    if (!byXor.has(x)) byXor.set(x, e.add(base, e.mulImm(x ? e.xor(thread, e.imm(I32, x)) : thread, bytes)));
    return e.addImm(byXor.get(x)!, (c & ~threadBits) * bytes);
  };
}

/** The register bit of `l` that adds flat index `f`. */
const regBitOf = (l: RegLayout, f: number, ix: ExchangeIndex): number => flatBits(l, 'register', ix).indexOf(f);

/** Elements per thread from which `scalarLoadedTile` exchanges a tile one element at a time. */
const SCALAR_EXCHANGE_MIN_REGS = 64;

/**
 * Whether `v` (through `tt.trans`) comes from a global load of one element per access, in a layout
 * holding at least SCALAR_EXCHANGE_MIN_REGS elements per thread. Such a tile is exchanged with scalar
 * stores: vector stores would pair registers of separate loads, and ptxas then keeps every load's
 * value and address live at once (the masked 128x128 transpose at an odd size: 167 registers and
 * 1 CTA per SM with vectors, 87 and 2 without, 1.15x faster on an H200; every other benchmark's
 * exchange vectorized stays as it was, see bench/gpu/RESULTS.md, 2026-11-27).
 */
function scalarLoadedTile(v: Value, l: RegLayout): boolean {
  if (l.numRegs < SCALAR_EXCHANGE_MIN_REGS) return false;
  let def = v.definingOp;
  while (def && tt.TransOp.is(def)) def = tt.TransOp.view(def).src.definingOp;
  if (!def || !tt.LoadOp.is(def)) return false;
  const width = def.getAttr('tt.vector_width');
  return !(width instanceof IntegerAttr) || Number(width.value) === 1;
}

/** 16-bit registers in memory order -> 32-bit words, the first of each pair in the low half (`mov.b32 %r, {%lo, %hi}`). */
function packPairs(e: LoweringContext['e'], halves: readonly Value[]): Value[] {
  const words: Value[] = [];
  for (let k = 0; k < halves.length; k += 2) words.push(e.pack('b32', [halves[k], halves[k + 1]], I32));
  return words;
}

/**
 * A layout conversion through shared memory: every thread writes its elements, then reads the
 * ones it needs, in rounds that fit the scratch. The scratch order (`planExchange`) vectorizes
 * both sides where it can and swizzles the bank bits so that neither side has bank conflicts; the
 * bar.sync between the writes and the reads (and between rounds) is insert-barriers' decision,
 * recorded on the op as `ttg.scratch_sync`: without it the lowering emits none (and the kernel races).
 */
function convertThroughShared(ctx: LoweringContext, cvt: UnaryView, src: RegLayout, dst: RegLayout): void {
  const { op, src: from, result } = cvt;
  const e = ctx.e;
  const elt = (from.type as RankedTensorType).elementType;
  const bytes = smemBytes(elt);
  const numel = src.shape.reduce((a, b) => a * b, 1);
  const allocated = scratchBytes(op);
  if (allocated < bytes) throw targetError(op, `needs shared-memory scratch to convert '${from.type}' to '${result.type}', but alloc-shared gave it none`);
  let capacity = 1 << Math.floor(Math.log2(Math.max(1, Math.floor(allocated / bytes))));
  capacity = Math.min(capacity, numel);
  const start = scratchAt(ctx, op, capacity * bytes);
  const base = e.addImm(ctx.smemBase(), start);
  const ix = exchangeIndex(src, dst, capacity);
  const srcRounds = ix && roundsOf(src, capacity, ix);
  const dstRounds = ix && roundsOf(dst, capacity, ix);
  if (!ix || !srcRounds || !dstRounds)
    throw targetError(op, `cannot convert '${from.type}' to '${result.type}' in ${numel / capacity} rounds through ${allocated} bytes of scratch`);
  const regs = ctx.get(from, op);
  const regT = regs[0].type;
  // i1 goes through memory as bytes, one at a time; vectors must stay aligned to their width; and
  // many elements straight from scalar loads go one at a time (`scalarLoadedTile`). A vector is
  // at most 4 registers, or 8 16-bit values packed in pairs into 4 32-bit words (16 bytes).
  const pairs = bytes === 2;
  const maxVecBits = regT === I1 || start % 16 || scalarLoadedTile(from, src) ? 0 : pairs ? 3 : 2;
  const plan = planExchange(exchangeSide(src, capacity, ix), exchangeSide(dst, capacity, ix), Math.log2(capacity), bytes, maxVecBits);
  const sync = op.getAttr(SCRATCH_SYNC) !== undefined;
  const guard = ownerGuard(ctx, src);
  const srcAt = scratchAddresses(ctx, src, plan, ix, base, bytes);
  const dstAt = scratchAddresses(ctx, dst, plan, ix, base, bytes);
  const srcVec = plan.storeVec.map((f) => 1 << regBitOf(src, f, ix));
  const dstVec = plan.loadVec.map((f) => 1 << regBitOf(dst, f, ix));
  const vecMask = (v: number[]) => v.reduce((m, b) => m | b, 0);
  const members = (r0: number, v: number[]) => [...Array(1 << v.length).keys()].map((c) => v.reduce((r, b, k) => ((c >>> k) & 1 ? r ^ b : r), r0));
  const suffix = (n: number) => (n > 1 ? `v${n}.` : '') + bitsType(regT);
  const out: Value[] = new Array(dst.numRegs);
  const rounds = numel / capacity;
  for (let k = 0; k < rounds; k++) {
    if (k > 0 && sync) e.barrier();
    for (let r = 0; r < src.numRegs; r++) {
      if (r & src.dupRegMask || r & vecMask(srcVec) || srcRounds[r] !== k) continue;
      if (regT === I1) storeShared(ctx, srcAt(r), regs[r], guard);
      else if (srcVec.length === 3) e.st('shared.v4.b32', srcAt(r), packPairs(e, members(r, srcVec).map((m) => regs[m])), guard);
      else e.st(`shared.${suffix(1 << srcVec.length)}`, srcAt(r), members(r, srcVec).map((m) => regs[m]), guard);
    }
    if (sync) e.barrier();
    for (let r = 0; r < dst.numRegs; r++) {
      if (r & vecMask(dstVec) || dstRounds[r] !== k) continue;
      if (regT === I1) {
        out[r] = loadShared(ctx, dstAt(r), regT);
        continue;
      }
      const got =
        dstVec.length === 3
          ? e.ld('shared.v4.b32', dstAt(r), [I32, I32, I32, I32]).flatMap((w) => e.unpack('b32', w, [regT, regT]))
          : e.ld(`shared.${suffix(1 << dstVec.length)}`, dstAt(r), dstVec.length ? members(r, dstVec).map(() => regT) : [regT]);
      members(r, dstVec).forEach((m, c) => (out[m] = got[c]));
    }
  }
  ctx.set(result, out);
}

/**
 * Splits a 32-bit offset register built by `add.s32` chains into a variable part and a constant,
 * so addresses share one 64-bit base and differ by immediates (assuming, as Triton's pointer
 * analysis does, that the offset arithmetic does not overflow).
 */
function splitConstant(ctx: LoweringContext, v: Value): [Value | null, number] {
  const def = v.definingOp;
  if (v.type !== I32 || !def) return [v, 0];
  const imm = nvptx.ImmOp.match(def);
  if (imm) return imm.value instanceof IntegerAttr ? [null, Number(imm.value.value)] : [v, 0];
  const ptx = def.getAttr('ptx');
  if (!ADD.is(def) || !(ptx instanceof StringAttr) || ptx.value !== 's32') return [v, 0];
  const [lhs, rhs] = def.operandValues();
  const [x, cx] = splitConstant(ctx, lhs);
  const [y, cy] = splitConstant(ctx, rhs);
  if (cx === 0 && cy === 0) return [v, 0];
  const sum = x && y ? ctx.e.add(x, y) : x ?? y;
  return [sum, cx + cy];
}

/** `nvptx.add`, whose `s32` chains splitConstant takes apart. */
const ADD = plainOp('add');

/** %c = arith.constant dense<1.0> : tensor<..> -> one nvptx.imm used for every register */
const lowerConstant = lowering(arith.ConstantOp, (ctx, cst) => {
  const { op, value: attr, result } = cst;
  if (!(attr instanceof IntegerAttr || attr instanceof FloatAttr || attr instanceof DenseElementsAttr)) throw targetError(op, 'cannot lower this constant');
  const v = immediate(ctx, attr, result.type, op);
  ctx.set(result, ctx.expand(result.type, op).map(() => v));
});

/** tt.make_range {start} -> start + this thread's coordinate of each register */
const lowerMakeRange = lowering(tt.MakeRangeOp, (ctx, range) => {
  const l = ctx.layoutOf(range.result, range.op);
  ctx.set(range.result, l.regCoords.map((_, r) => ctx.e.addImm(ctx.coord(l, r, 0), range.start)));
});

/** tt.splat %s -> %s in every register */
const lowerSplat = lowering(tt.SplatOp, (ctx, { op, src, result }) => {
  const s = ctx.scalar(src, op);
  ctx.set(result, ctx.expand(result.type, op).map(() => s));
});

/** tt.broadcast %x -> each register reads the register of %x at its coordinates with size-1 dims zeroed */
const lowerBroadcast = lowering(tt.BroadcastOp, (ctx, bc) => {
  const src = ctx.layoutOf(bc.src, bc.op);
  const dst = ctx.layoutOf(bc.result, bc.op);
  const ones = src.shape.flatMap((n, d) => (n === 1 && dst.shape[d] !== 1 ? [d] : []));
  const sameBase = (x: readonly number[], y: readonly number[]) => x.every((v, d) => ones.includes(d) || v === y[d]);
  const sameThreads = (a: readonly number[][], b: readonly number[][]) => a.length === b.length && a.every((x, k) => sameBase(x, b[k]));
  if (!sameThreads(src.laneBases, dst.laneBases) || !sameThreads(src.warpBases, dst.warpBases)) return permute(ctx, bc, null);
  const bySrc = registersByCoords(src, ones);
  // src.shape has size 1 in the broadcast dims, which coordIndex reads as 0
  const map = dst.regCoords.map((c) => bySrc.get(coordIndex(src.shape, c, ones)) ?? -1);
  permute(ctx, bc, map.includes(-1) ? null : map);
});

/**
 * tt.trans %x {order} : L -> L^T: the same registers, the result's coordinates permuted (the
 * result layout is the transposed source layout, as convert-to-gpu and remove-layout-conversions give it)
 */
const lowerTrans = lowering(tt.TransOp, (ctx, trans) => {
  const src = ctx.layoutOf(trans.src, trans.op);
  const dst = ctx.layoutOf(trans.result, trans.op);
  const perm = trans.order;
  if (!perm) throw internalError(trans.op, 'expected an order attribute');
  const moved = (b: readonly number[]) => perm.map((d) => b[d]).join(',');
  const same = (a: readonly number[][], b: readonly number[][]) => a.length === b.length && a.every((x, k) => moved(x) === b[k].join(','));
  if (!same(src.laneBases, dst.laneBases) || !same(src.warpBases, dst.warpBases)) return permute(ctx, trans, null);
  const bySrc = new Map(src.regCoords.map((c, r) => [moved(c), r] as const));
  // dst coordinate d is src coordinate perm[d]
  const map = dst.regCoords.map((c) => bySrc.get(c.join(',')) ?? -1);
  permute(ctx, trans, map.includes(-1) ? null : map);
});

/** ttg.convert_layout -> a register permutation, or a round trip through shared memory */
const lowerConvertLayout = lowering(ttg.ConvertLayoutOp, (ctx, cvt) => {
  const src = ctx.layoutOf(cvt.src, cvt.op);
  const dst = ctx.layoutOf(cvt.result, cvt.op);
  const map = flatRegisterMap(src, dst);
  if (map) return permute(ctx, cvt, map);
  convertThroughShared(ctx, cvt, src, dst);
});

/** tt.addptr %p, %off -> %p + %off * sizeof(pointee); %off = %x + c -> (%p + %x * size) + c * size */
const lowerAddptr = lowering(tt.AddptrOp, (ctx, { op, ptr, offset, result }) => {
  const ptrT = ptr.type;
  const pointee = (ptrT instanceof RankedTensorType ? ptrT.elementType : ptrT) as tt.PointerType;
  if (!(pointee instanceof tt.PointerType)) throw internalError(op, 'expected a pointer operand');
  const bytes = smemBytes(pointee.pointee);
  const ptrs = ctx.get(ptr, op);
  const offs = ctx.get(offset, op);
  const n = Math.max(ptrs.length, offs.length);
  const out: Value[] = [];
  for (let k = 0; k < n; k++) {
    const p = ptrs[ptrs.length === 1 ? 0 : k];
    const [x, c] = splitConstant(ctx, offs[offs.length === 1 ? 0 : k]);
    const at = x ? ctx.e.addressOf(p, x, bytes) : p;
    out.push(c === 0 ? at : ctx.e.add(at, ctx.e.imm(at.type, c * bytes)));
  }
  ctx.set(result, out);
});

/**
 * Whether `wide` (rank n + 1) holds, in every thread, the elements `narrow` (rank n) holds, each
 * with both values of its last dimension: lanes and warps add the same to the first n coordinates
 * and nothing to the last (Triton's join and split keep the new dimension in registers).
 */
function pairsInRegisters(narrow: RegLayout, wide: RegLayout): boolean {
  const n = narrow.shape.length;
  const same = (a: readonly number[][], b: readonly number[][]) =>
    a.length === b.length && a.every((x, k) => b[k][n] === 0 && x.every((v, d) => v === b[k][d]));
  return wide.shape[n] === 2 && same(narrow.laneBases, wide.laneBases) && same(narrow.warpBases, wide.warpBases);
}

/** Where a join or split cannot pair registers: the layouts it was given. */
function pairError(op: Operation, narrow: Value, wide: Value): never {
  throw targetError(op, `needs '${wide.type}' to hold both halves of each element of '${narrow.type}' in the same thread (the size-2 dimension in registers, the others as in the narrow layout); use such a layout or insert a ttg.convert_layout`);
}

/** tt.join %a, %b -> each result register (..., k) is the register of %a (k = 0) or %b (k = 1) at (...) */
const lowerJoin = lowering(tt.JoinOp, (ctx, join) => {
  const { op, lhs, rhs, result } = join;
  const src = ctx.layoutOf(lhs, op);
  const dst = ctx.layoutOf(result, op);
  if (!pairsInRegisters(src, dst)) pairError(op, lhs, result);
  const bySrc = registersByCoords(src);
  const halves = [ctx.get(lhs, op), ctx.get(rhs, op)];
  const n = src.shape.length;
  ctx.set(result, dst.regCoords.map((c) => {
    const r = bySrc.get(coordIndex(src.shape, c.slice(0, n)));
    if (r === undefined) pairError(op, lhs, result);
    return halves[c[n]][r];
  }));
});

/** tt.split %x -> %a, %b: register (...) of %a / %b is the register of %x at (..., 0) / (..., 1) */
const lowerSplit = lowering(tt.SplitOp, (ctx, split) => {
  const { op, src, outLHS: outLhs, outRHS: outRhs } = split;
  const wide = ctx.layoutOf(src, op);
  const narrow = ctx.layoutOf(outLhs, op);
  if (!pairsInRegisters(narrow, wide)) pairError(op, outLhs, src);
  const byWide = registersByCoords(wide);
  const regs = ctx.get(src, op);
  [outLhs, outRhs].forEach((out, k) => {
    ctx.set(out, narrow.regCoords.map((c) => {
      const r = byWide.get(coordIndex(wide.shape, [...c, k]));
      if (r === undefined) pairError(op, outLhs, src);
      return regs[r];
    }));
  });
});

/** tt.unsplat %t : tensor<1x1xT> -> T: register 0 (every thread holds the one element) */
const lowerUnsplat = lowering(tt.UnsplatOp, (ctx, { op, src, result }) => ctx.set(result, [ctx.get(src, op)[0]]));

/** Tensor construction and shape ops. */
export const TENSOR_RULES: readonly Lowering[] = [
  lowerConstant,
  lowerMakeRange,
  lowerSplat,
  lowerBroadcast,
  lowering(tt.ExpandDimsOp, lowerFlatPermute),
  lowering(tt.ReshapeOp, lowerFlatPermute),
  lowerTrans,
  lowerJoin,
  lowerSplit,
  lowerUnsplat,
  lowerConvertLayout,
  lowerAddptr,
];
