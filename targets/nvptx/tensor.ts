/**
 * Lowering of tensor construction and shape ops to registers: constants, `make_range`,
 * `splat`, `broadcast`, `expand_dims`, `reshape`, `addptr`, and `convert_layout` (a register
 * permutation where the threads already hold the right elements, else through shared memory).
 */
import { DenseArrayAttr, DenseElementsAttr, FloatAttr, IntegerAttr, StringAttr } from '../../ir/attributes.js';
import type { Operation, Value } from '../../ir/ir.js';
import { RankedTensorType, bitWidth, type Type } from '../../ir/types.js';
import { PointerType } from '../../dialects/tt/types.js';
import { standardDims } from '../../dialects/ttg/layout-linear.js';
import { planExchange, SCRATCH_SYNC, type ExchangePlan, type ExchangeSide } from '../../dialects/ttg/layout-scratch.js';
import { sameThreadsHoldSameElements, scratchBytes } from '../../passes/support/alloc-shared-scratch.js';
import { registerType, type LoweringContext, type LowerRule } from './context.js';
import { I1, I16, I32, bitsType, internalError, targetError } from './emitter.js';
import { registersByCoords, type RegLayout } from './layout.js';

/** The value of a splat or scalar constant attribute as an immediate register. */
function immediate(ctx: LoweringContext, attr: IntegerAttr | FloatAttr | DenseElementsAttr, t: Type, op: Operation): Value {
  const regT = registerType(t);
  if (attr instanceof DenseElementsAttr) {
    if (!attr.isSplat) throw targetError(op, `cannot lower a non-splat constant tensor of type '${attr.type}'`);
    return ctx.e.imm(regT, attr.at(0));
  }
  return ctx.e.imm(regT, attr instanceof FloatAttr ? attr.value : attr.value);
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

/** Copies registers of `src` to `dst` by `map`, or fails naming the layouts. */
function permute(ctx: LoweringContext, op: Operation, map: number[] | null): void {
  const src = op.operand(0);
  if (!map) throw targetError(op, `needs a layout conversion from '${src.type}' to '${op.result(0).type}'; run remove-layout-conversions or insert a ttg.convert_layout`);
  const regs = ctx.get(src, op);
  ctx.set(op.result(0), map.map((r) => regs[r]));
}

/** Bytes an element of `t` takes in memory (i1 as one byte, pointers 8). */
export function smemBytes(t: Type): number {
  if (t instanceof PointerType) return 8;
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

/** The predicate "this thread holds the first copy of its elements" for a layout with broadcast lanes or warps. */
export function ownerGuard(ctx: LoweringContext, l: RegLayout): Value | undefined {
  if (!l.dupLaneMask && !l.dupWarpMask) return undefined;
  return ctx.hoist(`owner:${l.key}`, () => {
    const e = ctx.e;
    const bits = e.or(e.and(ctx.laneId(), e.imm(I32, l.dupLaneMask)), e.shl(e.and(ctx.warpId(), e.imm(I32, l.dupWarpMask)), Math.log2(ctx.threadsPerWarp)));
    return e.setp('eq', 'b', bits, e.imm(I32, 0));
  });
}

/**
 * The conversion round of each register: the scratch holds `capacity` elements (a power of
 * two), so round k moves the elements with flat index in [k*capacity, (k+1)*capacity). That is
 * known at compile time when the lane and warp ids only touch flat-index bits below capacity.
 */
function roundsOf(l: RegLayout, capacity: number): number[] | null {
  const thread = [...flat(l, 'lane'), ...flat(l, 'warp')].reduce((m, x) => m | x, 0);
  if (thread >= capacity) return null;
  return flat(l, 'register').map((f) => Math.floor(f / capacity));
}

/** What each bit of `inDim` adds to the flat index (the values at 1, 2, 4, ...). */
const flatBits = (l: RegLayout, inDim: string): number[] => {
  const all = flat(l, inDim);
  return [...Array(Math.log2(all.length)).keys()].map((k) => all[1 << k]);
};

/** A layout's side of an exchange through `capacity` elements of scratch (flat contributions within a round). */
function exchangeSide(l: RegLayout, capacity: number): ExchangeSide {
  return { regs: flatBits(l, 'register').map((f) => (f < capacity ? f : 0)), lanes: flatBits(l, 'lane') };
}

/** The scratch element offset of flat index `f` (within a round) under `plan`. */
const scratchIndex = (plan: ExchangePlan, f: number): number => plan.images.reduce((acc, img, b) => ((f >>> b) & 1 ? acc ^ img : acc), 0);

/**
 * This thread's part of the scratch offset of `l`'s elements (hoisted): the XOR of the images of
 * its lane and warp bits, each run of bits whose images are consecutive powers of two one mask and shift.
 */
function threadScratchIndex(ctx: LoweringContext, l: RegLayout, plan: ExchangePlan): Value {
  return ctx.hoist(`xchg:${l.key}:${plan.images.join(',')}`, () => {
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
    addId(ctx.laneId(), flatBits(l, 'lane'));
    addId(ctx.warpId(), flatBits(l, 'warp'));
    return terms.length ? terms.reduce((a, b) => e.xor(a, b)) : e.imm(I32, 0);
  });
}

/**
 * Shared addresses of one side of an exchange: register r's element is at
 * `base + bytes * (thread ^ c)` with c = its constant scratch index; c's bits that the thread part
 * can have are XORed in (once per distinct value), the others added, so ptxas folds them into the
 * address as an immediate.
 */
function scratchAddresses(ctx: LoweringContext, l: RegLayout, plan: ExchangePlan, base: Value, bytes: number): (r: number) => Value {
  const e = ctx.e;
  const capacity = 2 ** plan.bits;
  const thread = threadScratchIndex(ctx, l, plan);
  const threadBits = [...flatBits(l, 'lane'), ...flatBits(l, 'warp')].reduce((m, f) => m | scratchIndex(plan, f), 0);
  const regFlat = flat(l, 'register');
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
const regBitOf = (l: RegLayout, f: number): number => flatBits(l, 'register').indexOf(f);

/**
 * A layout conversion through shared memory: every thread writes its elements, then reads the
 * ones it needs, in rounds that fit the scratch. The scratch order (`planExchange`) vectorizes
 * both sides where it can and swizzles the bank bits so that neither side has bank conflicts; the
 * bar.sync between the writes and the reads (and between rounds) is insert-barriers' decision,
 * recorded on the op as `ttg.scratch_sync`: without it the lowering emits none (and the kernel races).
 */
function convertThroughShared(ctx: LoweringContext, op: Operation, src: RegLayout, dst: RegLayout): void {
  const e = ctx.e;
  const elt = (op.operand(0).type as RankedTensorType).elementType;
  const bytes = smemBytes(elt);
  const numel = src.shape.reduce((a, b) => a * b, 1);
  const allocated = scratchBytes(op);
  if (allocated < bytes) throw targetError(op, `needs shared-memory scratch to convert '${op.operand(0).type}' to '${op.result(0).type}', but alloc-shared gave it none`);
  let capacity = 1 << Math.floor(Math.log2(Math.max(1, Math.floor(allocated / bytes))));
  capacity = Math.min(capacity, numel);
  const start = scratchAt(ctx, op, capacity * bytes);
  const base = e.addImm(ctx.smemBase(), start);
  const srcRounds = roundsOf(src, capacity);
  const dstRounds = roundsOf(dst, capacity);
  if (!srcRounds || !dstRounds)
    throw targetError(op, `cannot convert '${op.operand(0).type}' to '${op.result(0).type}' in ${numel / capacity} rounds through ${allocated} bytes of scratch`);
  const regs = ctx.get(op.operand(0), op);
  const regT = regs[0].type;
  // i1 goes through memory as bytes, one at a time; vectors must stay aligned to their width.
  const maxVecBits = regT === I1 || start % 16 ? 0 : 2;
  const plan = planExchange(exchangeSide(src, capacity), exchangeSide(dst, capacity), Math.log2(capacity), bytes, maxVecBits);
  const sync = op.getAttr(SCRATCH_SYNC) !== undefined;
  const guard = ownerGuard(ctx, src);
  const srcAt = scratchAddresses(ctx, src, plan, base, bytes);
  const dstAt = scratchAddresses(ctx, dst, plan, base, bytes);
  const srcVec = plan.storeVec.map((f) => 1 << regBitOf(src, f));
  const dstVec = plan.loadVec.map((f) => 1 << regBitOf(dst, f));
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
      else e.st(`shared.${suffix(1 << srcVec.length)}`, srcAt(r), members(r, srcVec).map((m) => regs[m]), guard);
    }
    if (sync) e.barrier();
    for (let r = 0; r < dst.numRegs; r++) {
      if (r & vecMask(dstVec) || dstRounds[r] !== k) continue;
      if (regT === I1) {
        out[r] = loadShared(ctx, dstAt(r), regT);
        continue;
      }
      const got = e.ld(`shared.${suffix(1 << dstVec.length)}`, dstAt(r), dstVec.length ? members(r, dstVec).map(() => regT) : [regT]);
      members(r, dstVec).forEach((m, c) => (out[m] = got[c]));
    }
  }
  ctx.set(op.result(0), out);
}

/**
 * Splits a 32-bit offset register built by `add.s32` chains into a variable part and a constant,
 * so addresses share one 64-bit base and differ by immediates (assuming, as Triton's pointer
 * analysis does, that the offset arithmetic does not overflow).
 */
function splitConstant(ctx: LoweringContext, v: Value): [Value | null, number] {
  const def = v.definingOp;
  if (v.type !== I32 || !def) return [v, 0];
  if (def.name === 'nvptx.imm') {
    const a = def.getAttr('value');
    return a instanceof IntegerAttr ? [null, Number(a.value)] : [v, 0];
  }
  const ptx = def.getAttr('ptx');
  if (def.name !== 'nvptx.add' || !(ptx instanceof StringAttr) || ptx.value !== 's32') return [v, 0];
  const [x, cx] = splitConstant(ctx, def.operand(0));
  const [y, cy] = splitConstant(ctx, def.operand(1));
  if (cx === 0 && cy === 0) return [v, 0];
  const sum = x && y ? ctx.e.add(x, y) : x ?? y;
  return [sum, cx + cy];
}

/** Tensor construction and shape ops, by op name. */
export const TENSOR_RULES: Record<string, LowerRule> = {
  // %c = arith.constant dense<1.0> : tensor<..> -> one nvptx.imm used for every register
  'arith.constant': (ctx, op) => {
    const attr = op.getAttr('value');
    const t = op.result(0).type;
    if (!(attr instanceof IntegerAttr || attr instanceof FloatAttr || attr instanceof DenseElementsAttr)) throw targetError(op, 'cannot lower this constant');
    const v = immediate(ctx, attr, t, op);
    ctx.set(op.result(0), ctx.expand(t, op).map(() => v));
  },
  // tt.make_range {start} -> start + this thread's coordinate of each register
  'tt.make_range': (ctx, op) => {
    const l = ctx.layoutOf(op.result(0), op);
    const start = Number((op.getAttr('start') as IntegerAttr).value);
    ctx.set(op.result(0), l.regCoords.map((_, r) => ctx.e.addImm(ctx.coord(l, r, 0), start)));
  },
  // tt.splat %s -> %s in every register
  'tt.splat': (ctx, op) => {
    const s = ctx.scalar(op.operand(0), op);
    ctx.set(op.result(0), ctx.expand(op.result(0).type, op).map(() => s));
  },
  // tt.broadcast %x -> each register reads the register of %x at its coordinates with size-1 dims zeroed
  'tt.broadcast': (ctx, op) => {
    const src = ctx.layoutOf(op.operand(0), op);
    const dst = ctx.layoutOf(op.result(0), op);
    const ones = src.shape.flatMap((n, d) => (n === 1 && dst.shape[d] !== 1 ? [d] : []));
    const zero = (b: readonly number[]) => b.map((x, d) => (ones.includes(d) ? 0 : x)).join(',');
    const sameThreads = (a: readonly number[][], b: readonly number[][]) => a.length === b.length && a.every((x, k) => zero(x) === zero(b[k]));
    if (!sameThreads(src.laneBases, dst.laneBases) || !sameThreads(src.warpBases, dst.warpBases)) return permute(ctx, op, null);
    const bySrc = registersByCoords(src, ones);
    const map = dst.regCoords.map((c) => bySrc.get(zero(c)) ?? -1);
    permute(ctx, op, map.includes(-1) ? null : map);
  },
  // tt.expand_dims / tt.reshape: the same row-major element in the same thread -> the same register
  'tt.expand_dims': (ctx, op) => permute(ctx, op, flatRegisterMap(ctx.layoutOf(op.operand(0), op), ctx.layoutOf(op.result(0), op))),
  'tt.reshape': (ctx, op) => permute(ctx, op, flatRegisterMap(ctx.layoutOf(op.operand(0), op), ctx.layoutOf(op.result(0), op))),
  // tt.trans %x {order} : L -> L^T: the same registers, the result's coordinates permuted (the
  // result layout is the transposed source layout, as convert-to-gpu and remove-layout-conversions give it)
  'tt.trans': (ctx, op) => {
    const src = ctx.layoutOf(op.operand(0), op);
    const dst = ctx.layoutOf(op.result(0), op);
    const order = op.getAttr('order');
    if (!(order instanceof DenseArrayAttr)) throw internalError(op, 'expected an order attribute');
    const perm = order.values.map(Number);
    const moved = (b: readonly number[]) => perm.map((d) => b[d]).join(',');
    const same = (a: readonly number[][], b: readonly number[][]) => a.length === b.length && a.every((x, k) => moved(x) === b[k].join(','));
    if (!same(src.laneBases, dst.laneBases) || !same(src.warpBases, dst.warpBases)) return permute(ctx, op, null);
    const bySrc = new Map(src.regCoords.map((c, r) => [moved(c), r] as const));
    // dst coordinate d is src coordinate perm[d]
    const map = dst.regCoords.map((c) => bySrc.get(c.join(',')) ?? -1);
    permute(ctx, op, map.includes(-1) ? null : map);
  },
  // ttg.convert_layout -> a register permutation, or a round trip through shared memory
  'ttg.convert_layout': (ctx, op) => {
    const src = ctx.layoutOf(op.operand(0), op);
    const dst = ctx.layoutOf(op.result(0), op);
    const map = flatRegisterMap(src, dst);
    if (map) return permute(ctx, op, map);
    convertThroughShared(ctx, op, src, dst);
  },
  // tt.addptr %p, %off -> %p + %off * sizeof(pointee); %off = %x + c -> (%p + %x * size) + c * size
  'tt.addptr': (ctx, op) => {
    const ptrT = op.operand(0).type;
    const pointee = (ptrT instanceof RankedTensorType ? ptrT.elementType : ptrT) as PointerType;
    if (!(pointee instanceof PointerType)) throw internalError(op, 'expected a pointer operand');
    const bytes = smemBytes(pointee.pointee);
    const ptrs = ctx.get(op.operand(0), op);
    const offs = ctx.get(op.operand(1), op);
    const n = Math.max(ptrs.length, offs.length);
    const out: Value[] = [];
    for (let k = 0; k < n; k++) {
      const ptr = ptrs[ptrs.length === 1 ? 0 : k];
      const [x, c] = splitConstant(ctx, offs[offs.length === 1 ? 0 : k]);
      const at = x ? ctx.e.addressOf(ptr, x, bytes) : ptr;
      out.push(c === 0 ? at : ctx.e.add(at, ctx.e.imm(at.type, c * bytes)));
    }
    ctx.set(op.result(0), out);
  },
};
