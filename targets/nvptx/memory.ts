/**
 * Global memory: `tt.load` and `tt.store` become (vector, guarded) `ld.global`/`st.global`,
 * `tt.atomic_rmw`/`tt.atomic_cas` become `atom.global`. A vector access moves `tt.vector_width`
 * consecutive elements of one thread (set by the vectorize pass) in one instruction of at most
 * 16 bytes; 16-bit elements (pairs) and bytes (quadruples) travel packed in 32-bit words. Stores and atomics are issued once
 * per element, by the thread and register holding its first copy.
 */
import { IntegerAttr } from '../../ir/attributes.js';
import type { Operation, Value } from '../../ir/ir.js';
import { FloatType, RankedTensorType, type Type } from '../../ir/types.js';
import * as tt from '../../dialects/tt/index.js';
import * as nvptx from '../../dialects/nvptx.js';
import { lowering, registerType, type Lowering, type LoweringContext } from './context.js';
import { F16, I1, I16, I32, bitsType, ptxType, targetError, widthOf } from './emitter.js';
import type { RegLayout } from './layout.js';
import { loadShared, ownerGuard, scratchBase, smemBytes, storeShared } from './tensor.js';

/** The elements of one group: registers `first .. first+width-1`, consecutive in memory. */
interface Group {
  first: number;
  width: number;
}

const isFloat = (t: Type): boolean => t instanceof FloatType;

/** Bits an element of register type `t` takes in memory (i1 is a byte). */
const memoryBits = (t: Type): number => (t === I1 ? 8 : widthOf(t));

/** Whether registers r..r+w-1 hold consecutive elements along one dim. */
function consecutive(l: RegLayout, r: number, w: number): boolean {
  const c0 = l.regCoords[r];
  for (let j = 1; j < w; j++) {
    const c = l.regCoords[r + j];
    const diff = c.map((x, d) => x - c0[d]);
    if (diff.filter((x) => x !== 0).length !== 1 || !diff.includes(j)) return false;
  }
  return true;
}

/**
 * Splits a thread's registers into vector groups of the requested width (halved where they are not
 * consecutive). Bytes travel in groups of 4, 8 or 16 (packed in 32-bit words) or one by one; i1
 * values one by one.
 */
function groups(op: Operation, l: RegLayout | null, t: Type): Group[] {
  if (!l) return [{ first: 0, width: 1 }];
  const eltBits = memoryBits(t);
  const attr = op.getAttr('tt.vector_width');
  let width = attr instanceof IntegerAttr ? Number(attr.value) : 1;
  width = Math.max(1, Math.min(width, 128 / Math.max(8, eltBits), l.numRegs));
  if (eltBits < 16 && (t === I1 || width < 4)) width = 1;
  while (width > 1 && !Array.from({ length: l.numRegs / width }, (_, g) => consecutive(l, g * width, width)).every(Boolean)) width /= 2;
  return Array.from({ length: l.numRegs / width }, (_, g) => ({ first: g * width, width }));
}

/** How a group of `n` elements of register type `t` travels: the PTX type suffix and the word types. */
export function packing(t: Type, n: number): { ptx: string; words: Type[]; perWord: number } {
  const bits = memoryBits(t);
  if (bits === 8 && t !== I1 && n >= 4) {
    const words = n / 4;
    return { ptx: `${words > 1 ? `v${words}.` : ''}b32`, words: new Array(words).fill(I32), perWord: 4 };
  }
  if (bits === 16 && n > 1) {
    const words = n / 2;
    return { ptx: `${words > 1 ? `v${words}.` : ''}b32`, words: new Array(words).fill(I32), perWord: 2 };
  }
  const word = t === I1 ? I16 : t;
  return { ptx: `${n > 1 ? `v${n}.` : ''}${t === I1 ? 'b8' : bitsType(t)}`, words: new Array(n).fill(word), perWord: 1 };
}

/** Packs element registers into the words of `packing` (pairs of 16-bit values or quadruples of bytes into b32; i1 as 0/1 bytes). */
export function pack(ctx: LoweringContext, values: Value[], perWord: number): Value[] {
  const e = ctx.e;
  if (perWord === 1) return values.map((v) => (v.type === I1 ? e.boolToByte(v) : v));
  // element j of a word in its j-th lowest bits (little-endian, as memory holds them)
  const out: Value[] = [];
  for (let k = 0; k < values.length; k += perWord) out.push(e.packParts(values.slice(k, k + perWord), I32));
  return out;
}

/** Unpacks words back into element registers of type `t`. */
export function unpack(ctx: LoweringContext, words: Value[], perWord: number, t: Type): Value[] {
  const e = ctx.e;
  if (perWord === 1) return words.map((w) => (t === I1 ? e.byteToBool(w) : w));
  return words.flatMap((w) => e.unpackParts(w, perWord, t));
}


/** `.cg`, `.L1::evict_first` and the like from a load's or store's cache and eviction properties (case names). */
function cacheSuffix(access: { readonly cache?: string; readonly evict?: string }): string {
  const { cache, evict } = access;
  if (cache && cache !== 'none') return `.${cache}`;
  // PTX takes no eviction priority together with a cache operator: the cache operator wins.
  if (evict === 'evict_first' || evict === 'evict_last') return `.L1::${evict}`;
  return '';
}

const tensorLayout = (ctx: LoweringContext, v: Value, op: Operation): RegLayout | null => (v.type instanceof RankedTensorType ? ctx.layoutOf(v, op) : null);



/** tt.load -> ld.global[.cache].vN.bW, guarded by the mask with `other` (or 0) where it is false. */
const lowerLoad = lowering(tt.LoadOp, (ctx, load) => {
  const { op, ptr, mask, other, result } = load;
  if (ptr.type instanceof tt.PointerType && ptr.type.pointee instanceof RankedTensorType)
    throw targetError(op, `cannot lower a load through a block pointer '${ptr.type}'; rewrite it to a tensor of pointers`);
  const t = registerType(result.type);
  const l = tensorLayout(ctx, result, op);
  const ptrs = ctx.get(ptr, op);
  const masks = mask ? ctx.get(mask, op) : null;
  const others = other ? ctx.get(other, op) : null;
  const suffix = cacheSuffix(load);
  const out: Value[] = new Array(l ? l.numRegs : 1);
  for (const g of groups(op, l, t)) {
    const p = packing(t, g.width);
    const at = (regs: Value[], j: number) => regs[regs.length === 1 ? 0 : g.first + j];
    const guard = masks ? at(masks, 0) : undefined;
    let fill: Value[] | undefined;
    if (guard) {
      fill = pack(ctx, Array.from({ length: g.width }, (_, j) => (others ? at(others, j) : ctx.e.imm(t, 0))), p.perWord);
    }
    const words = ctx.e.ld(`${load.isVolatile ? 'volatile.' : ''}global${suffix}.${p.ptx}`, at(ptrs, 0), p.words, guard, fill);
    unpack(ctx, words, p.perWord, t).forEach((v, j) => (out[g.first + j] = v));
  }
  ctx.set(result, out);
});

/** tt.store -> st.global[.cache].vN.bW for each first copy, guarded by the mask. */
const lowerStore = lowering(tt.StoreOp, (ctx, store) => {
  const { op, ptr, value, mask } = store;
  const t = registerType(value.type);
  const l = tensorLayout(ctx, value, op);
  const ptrs = ctx.get(ptr, op);
  const suffix = cacheSuffix(store);
  const vals = ctx.get(value, op);
  const masks = mask ? ctx.get(mask, op) : null;
  const owner = l ? ownerGuard(ctx, l) : ctx.firstThread();
  for (const g of groups(op, l, t)) {
    if (l && g.first & l.dupRegMask) continue;
    const p = packing(t, g.width);
    const at = (regs: Value[], j: number) => regs[regs.length === 1 ? 0 : g.first + j];
    const guard = ctx.e.andPred(masks ? at(masks, 0) : undefined, owner);
    const words = pack(ctx, Array.from({ length: g.width }, (_, j) => at(vals, j)), p.perWord);
    ctx.e.st(`global${suffix}.${p.ptx}`, at(ptrs, 0), words, guard);
  }
});

const RMW_PTX: Record<string, (t: Type) => string> = {
  and: (t) => `and.${bitsType(t)}`,
  or: (t) => `or.${bitsType(t)}`,
  xor: (t) => `xor.${bitsType(t)}`,
  add: (t) => `add.${ptxType(t, 'u')}`,
  fadd: (t) => (t === F16 ? 'add.noftz.f16' : `add.${ptxType(t)}`),
  max: (t) => `max.${ptxType(t, 's')}`,
  min: (t) => `min.${ptxType(t, 's')}`,
  umax: (t) => `max.${ptxType(t, 'u')}`,
  umin: (t) => `min.${ptxType(t, 'u')}`,
  exch: (t) => `exch.${bitsType(t)}`,
};

/** The fields atomic_rmw and atomic_cas share (their views). */
interface AtomicView {
  readonly op: Operation;
  readonly ptr: Value;
  readonly result: Value;
  readonly sem: string;
  readonly scope: string;
}

/** `.acq_rel.gpu` from an atomic's sem and scope. */
function atomicOrder({ sem, scope }: AtomicView): string {
  return `${sem}.${scope === 'cta' ? 'cta' : scope === 'sys' ? 'sys' : 'gpu'}`;
}

/** Shared by atomic_rmw and atomic_cas: one atom per first copy; a scalar atomic's result reaches every thread through shared memory. */
function lowerAtomic(ctx: LoweringContext, atomic: AtomicView, instr: string, operandRegs: Value[][], mask: Value | undefined): void {
  const { op, result } = atomic;
  const t = registerType(result.type);
  if (t === I1 || widthOf(t) < 16) throw targetError(op, `cannot lower an atomic on type '${t}'`);
  const l = tensorLayout(ctx, result, op);
  const ptrs = ctx.get(atomic.ptr, op);
  const masks = mask ? ctx.get(mask, op) : null;
  const owner = l ? ownerGuard(ctx, l) : ctx.firstThread();
  if (l && (l.dupRegMask || l.dupLaneMask || l.dupWarpMask) && result.hasUses)
    throw targetError(op, `cannot return atomic results through a layout that holds elements more than once, '${result.type}'`);
  const order = atomicOrder(atomic);
  const out: Value[] = [];
  const n = l ? l.numRegs : 1;
  for (let r = 0; r < n; r++) {
    if (l && r & l.dupRegMask) {
      out.push(out[0]);
      continue;
    }
    const at = (regs: Value[]) => regs[regs.length === 1 ? 0 : r];
    const guard = ctx.e.andPred(masks ? at(masks) : undefined, owner);
    const vals = operandRegs.map(at);
    out.push(nvptx.AtomOp.build(ctx.b, { addr: at(ptrs), guard, values: vals, ptx: `${order}.global.${instr}` }, { results: { dst: t } }).dst);
  }
  if (!l && result.hasUses) {
    // thread 0 did the atomic: pass its result to the others.
    const addr = scratchBase(ctx, op, smemBytes(t));
    storeShared(ctx, addr, out[0], ctx.firstThread());
    ctx.e.barrier();
    out[0] = loadShared(ctx, addr, t);
  }
  ctx.set(result, out);
}

/** tt.atomic_rmw fadd %p, %v -> atom.acq_rel.gpu.global.add.f32 */
const lowerAtomicRmw = lowering(tt.AtomicRmwOp, (ctx, rmw) => {
  const { op, val, mask, atomic_rmw_op: kind } = rmw;
  const t = registerType(val.type);
  if (t === I1 || (kind === 'fadd' && t !== F16 && widthOf(t) < 32)) throw targetError(op, `cannot lower atomic ${kind} on type '${t}'`);
  if (kind !== 'fadd' && kind !== 'exch' && isFloat(t)) throw targetError(op, `cannot lower atomic ${kind} on float type '${t}' (PTX has integer atom.${kind} only)`);
  lowerAtomic(ctx, rmw, RMW_PTX[kind](t), [ctx.get(val, op)], mask);
});

/** tt.atomic_cas %p, %cmp, %v -> atom.acq_rel.gpu.global.cas.b32 */
const lowerAtomicCas = lowering(tt.AtomicCasOp, (ctx, cas) => {
  const t = registerType(cas.result.type);
  lowerAtomic(ctx, cas, `cas.${bitsType(t)}`, [ctx.get(cas.cmp, cas.op), ctx.get(cas.val, cas.op)], undefined);
});

/** Global memory ops. */
export const MEMORY_RULES: readonly Lowering[] = [lowerLoad, lowerStore, lowerAtomicRmw, lowerAtomicCas];
