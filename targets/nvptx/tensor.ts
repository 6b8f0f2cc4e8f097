/**
 * Lowering of tensor construction and shape ops to registers: constants, `make_range`,
 * `splat`, `broadcast`, `expand_dims`, `reshape`, `addptr`, and `convert_layout` (a register
 * permutation where the threads already hold the right elements, else through shared memory).
 */
import { DenseElementsAttr, FloatAttr, IntegerAttr, StringAttr } from '../../ir/attributes.js';
import type { Operation, Value } from '../../ir/ir.js';
import { RankedTensorType, bitWidth, type Type } from '../../ir/types.js';
import { PointerType } from '../../dialects/tt/types.js';
import { standardDims } from '../../dialects/ttg/layout-linear.js';
import { sameThreadsHoldSameElements, scratchBytes } from '../../passes/support/alloc-shared-scratch.js';
import { registerType, type LoweringContext, type LowerRule } from './context.js';
import { I1, I16, I32, bitsType, internalError, targetError } from './emitter.js';
import { registersByCoords, stridesOf, type RegLayout } from './layout.js';

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

/** The register's row-major element index as a register value (thread part hoisted). */
function flatIndex(ctx: LoweringContext, l: RegLayout, r: number): Value {
  const strides = stridesOf(l.shape);
  const thread = ctx.hoist(`flat:${l.key}`, () => {
    let acc: Value | null = null;
    for (let d = 0; d < l.shape.length; d++) {
      const term = ctx.e.mulImm(ctx.threadCoord(l, d), strides[d]);
      acc = acc ? ctx.e.add(acc, term) : term;
    }
    return acc ?? ctx.e.imm(I32, 0);
  });
  const regPart = l.regCoords[r].reduce((s, c, d) => s + c * strides[d], 0);
  return ctx.e.addImm(thread, regPart);
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

/** A layout conversion through shared memory: every thread writes its elements, then reads the ones it needs, in rounds that fit the scratch. */
function convertThroughShared(ctx: LoweringContext, op: Operation, src: RegLayout, dst: RegLayout): void {
  const e = ctx.e;
  const elt = (op.operand(0).type as RankedTensorType).elementType;
  const bytes = smemBytes(elt);
  const numel = src.shape.reduce((a, b) => a * b, 1);
  const allocated = scratchBytes(op);
  if (allocated < bytes) throw targetError(op, `needs shared-memory scratch to convert '${op.operand(0).type}' to '${op.result(0).type}', but alloc-shared gave it none`);
  let capacity = 1 << Math.floor(Math.log2(Math.max(1, Math.floor(allocated / bytes))));
  capacity = Math.min(capacity, numel);
  const base = e.addImm(ctx.smemBase(), scratchAt(ctx, op, capacity * bytes));
  const srcRounds = roundsOf(src, capacity);
  const dstRounds = roundsOf(dst, capacity);
  if (!srcRounds || !dstRounds)
    throw targetError(op, `cannot convert '${op.operand(0).type}' to '${op.result(0).type}' in ${numel / capacity} rounds through ${allocated} bytes of scratch`);
  const regs = ctx.get(op.operand(0), op);
  const guard = ownerGuard(ctx, src);
  const at = (l: RegLayout, r: number, round: number) => e.add(base, e.mulImm(e.addImm(flatIndex(ctx, l, r), -round * capacity), bytes));
  const out: Value[] = new Array(dst.numRegs);
  const rounds = numel / capacity;
  for (let k = 0; k < rounds; k++) {
    if (k > 0) e.barrier();
    for (let r = 0; r < src.numRegs; r++) if (!(r & src.dupRegMask) && srcRounds[r] === k) storeShared(ctx, at(src, r, k), regs[r], guard);
    e.barrier();
    for (let r = 0; r < dst.numRegs; r++) if (dstRounds[r] === k) out[r] = loadShared(ctx, at(dst, r, k), regs[0].type);
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
