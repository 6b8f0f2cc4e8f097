/**
 * The ttg layout library: one place that answers, for `#ttg.blocked`, `#ttg.slice`,
 * `#ttg.nvidia_mma` (v2/v3), `#ttg.dot_op` (mma parent) and `#ttg.linear`, which block / warp /
 * lane / register holds each tensor element, how many elements a thread holds, and whether two
 * layouts own elements alike. Built on Triton's linear-layout conversions (LinearLayoutConversions.cpp
 * of Triton 3.x): blocked = register x lane x warp identities in `order`, repeated along registers
 * when the tensor is larger than the CTA tile and broadcast when it is smaller.
 */
import type { Attribute } from '../../ir/attributes.js';
import { StructAttr } from './struct-attr.js';
import { BLOCKED, DOT_OP, LINEAR, NVIDIA_MMA, SLICE, isDistributed, layoutRank } from './layout-attrs.js';
import { LinearLayout, dimName, identityStandardND, standardDims } from './layout-linear.js';

export { LinearLayout } from './layout-linear.js';

/** Who holds one copy of an element: CTA in the CGA, warp, lane and register index. */
export interface Owner {
  block: number;
  warp: number;
  lane: number;
  register: number;
}

const range = (n: number): number[] => Array.from({ length: n }, (_, k) => k);
const product = (xs: readonly number[]): number => xs.reduce((a, b) => a * b, 1);

/** Triton's `getMatrixOrder`: [rank-1, rank-2, ..., 0], first two swapped when column-major. */
export function matrixOrder(rank: number, rowMajor: boolean): number[] {
  const o = range(rank).reverse();
  if (!rowMajor && rank >= 2) [o[0], o[1]] = [o[1], o[0]];
  return o;
}

/** Triton's `getOrderForDotOperand(opIdx, rank, kContig)`. */
export function dotOperandOrder(opIdx: number, rank: number, kContig = true): number[] {
  return matrixOrder(rank, (opIdx === 1) !== kContig);
}

function asLayout(a: Attribute): StructAttr {
  if (!(a instanceof StructAttr) || !isDistributed(a)) throw new Error(`${a} is not a distributed ttg layout`);
  return a;
}

/** Whether `a` is a distributed layout this library can map (blocked, slice, mma v2/v3, dot_op of blocked, mma v2 or (A only) mma v3, linear). */
export function isSupportedLayout(a: Attribute | null | undefined): boolean {
  if (!(a instanceof StructAttr) || !isDistributed(a)) return false;
  if (a.spec === SLICE) return isSupportedLayout(a.attr('parent'));
  if (a.spec === NVIDIA_MMA) return a.int('versionMajor') === 2 || a.int('versionMajor') === 3;
  if (a.spec === DOT_OP) {
    const p = a.attr('parent');
    if (p instanceof StructAttr && p.spec === BLOCKED) return true;
    if (!(p instanceof StructAttr) || p.spec !== NVIDIA_MMA || a.int('kWidth') <= 0) return false;
    // Hopper's wgmma takes only its A operand from registers.
    return p.int('versionMajor') === 2 || (p.int('versionMajor') === 3 && a.int('opIdx') === 0);
  }
  return true;
}

/** Triton's `getOrder` of a distributed layout (fastest-varying dim first). */
export function layoutOrder(a: Attribute): number[] {
  const l = asLayout(a);
  const rank = layoutRank(l) ?? 0;
  switch (l.spec) {
    case BLOCKED:
      return [...l.ints('order')];
    case NVIDIA_MMA:
      return matrixOrder(rank, true);
    case DOT_OP:
      return dotOperandOrder(l.int('opIdx'), rank);
    case SLICE: {
      const dim = l.int('dim');
      return layoutOrder(l.attr('parent')!)
        .filter((d) => d !== dim)
        .map((d) => (d > dim ? d - 1 : d));
    }
    default:
      return registerOrder(toLinearLayout(l, new Array(rank).fill(1)), rank);
  }
}

/** CTAsPerCGA / CTASplitNum / CTAOrder of a layout (dot_op: the parent's, not split along K). */
export function ctaFields(a: StructAttr): { ctasPerCGA: number[]; splitNum: number[]; ctaOrder: number[] } {
  if (a.spec === DOT_OP) {
    const p = ctaFields(a.attr('parent') as StructAttr);
    const rank = p.splitNum.length;
    const k = a.int('opIdx') === 0 ? rank - 1 : rank - 2;
    p.splitNum[k] = 1;
    return p;
  }
  if (a.spec === SLICE) {
    const p = ctaFields(a.attr('parent') as StructAttr);
    const dim = a.int('dim');
    const cut = (xs: number[]) => xs.filter((_, k) => k !== dim);
    return { ctasPerCGA: cut(p.ctasPerCGA), splitNum: cut(p.splitNum), ctaOrder: p.ctaOrder.filter((d) => d !== dim).map((d) => (d > dim ? d - 1 : d)) };
  }
  if (a.spec === LINEAR) {
    const rank = layoutRank(a) ?? 0;
    return { ctasPerCGA: new Array(rank).fill(1), splitNum: new Array(rank).fill(1), ctaOrder: range(rank).reverse() };
  }
  return { ctasPerCGA: [...a.ints('CTAsPerCGA')], splitNum: [...a.ints('CTASplitNum')], ctaOrder: [...a.ints('CTAOrder')] };
}

/** Triton's `makeCgaLayout`: block id -> tensor offset of the CTA's piece. */
function cgaLayout(a: StructAttr): LinearLayout {
  const { ctasPerCGA, splitNum, ctaOrder } = ctaFields(a);
  let ret = LinearLayout.empty();
  for (const d of ctaOrder) {
    ret = ret.mul(LinearLayout.identity1D(splitNum[d], 'block', dimName(d))).mul(LinearLayout.zeros1D(ctasPerCGA[d] / splitNum[d], 'block', dimName(d)));
  }
  return ret.transposeOuts(standardDims(ctaOrder.length));
}

const named = (shape: readonly number[]): Map<string, number> => new Map(shape.map((s, k) => [dimName(k), s]));

/** Triton's `combineCtaCgaWithShape`: fits a one-CTA layout (and the CGA) to `shape`. */
function combineWithShape(cta: LinearLayout, a: StructAttr, shape: readonly number[]): LinearLayout {
  const cga = cgaLayout(a).ensureNotLarger(named(shape)).transposeOuts(cta.outNames());
  const ctaShape = new Map(cta.outNames().map((n) => [n, Math.max(1, (named(shape).get(n) ?? 1) / cga.outSize(n))]));
  const fitted = cta.ensureNotSmaller(ctaShape).ensureNotLarger(ctaShape);
  return fitted.mul(cga).transposeOuts(standardDims(shape.length));
}

/** Triton's `nvidiaMmaTile`: kWidth registers and 4 lanes along the inner dim, 8 lanes then m/8 registers along the outer, then n/(4 kWidth) registers. */
function nvidiaMmaTile(tileShape: readonly number[], kWidth: number, order: readonly number[], repOrder: readonly number[]): LinearLayout {
  const rank = repOrder.length;
  const [inner, outer] = order;
  const m = tileShape[outer];
  const n = tileShape[inner];
  if (m % 8 || n % (kWidth * 4)) throw new Error(`mma tile ${tileShape.join('x')} does not fit kWidth ${kWidth}`);
  return identityStandardND('register', new Array(rank).fill(1), repOrder)
    .mul(LinearLayout.identity1D(kWidth, 'register', dimName(inner)))
    .mul(LinearLayout.identity1D(4, 'lane', dimName(inner)))
    .mul(LinearLayout.identity1D(8, 'lane', dimName(outer)))
    .mul(LinearLayout.identity1D(m / 8, 'register', dimName(outer)))
    .mul(LinearLayout.identity1D(n / (kWidth * 4), 'register', dimName(inner)));
}

/** Warps of a dot operand: the mma's warps, broadcast along K (Triton's `broadcastedDotOperandLayout`). */
function broadcastedWarps(warps: readonly number[], order: readonly number[], kDim: number): LinearLayout {
  let ret = LinearLayout.empty();
  for (const d of order) {
    const f = d === kDim ? LinearLayout.zeros1D : LinearLayout.identity1D;
    ret = ret.mul(f(warps[d], 'warp', dimName(d)));
  }
  return ret;
}

function mmaLayout(l: StructAttr, shape: readonly number[]): LinearLayout {
  const rank = shape.length;
  const hopper = l.int('versionMajor') === 3;
  const instr = l.ints('instrShape');
  const tile = hopper ? [instr[0], instr[1]] : [...instr];
  const order = matrixOrder(rank, true);
  const cta = nvidiaMmaTile(tile, 2, order, order);
  const warps = identityStandardND('warp', l.ints('warpsPerCTA'), matrixOrder(rank, !hopper)).transposeOuts(cta.outNames());
  return combineWithShape(cta.mul(warps), l, shape);
}

/** Triton's `broadcastedDotOperandLayout`: identity along every dim of `order` but `kDim`, which is broadcast. */
function broadcastedDot(sizes: readonly number[], order: readonly number[], kDim: number, inDim: string): LinearLayout {
  let ret = LinearLayout.empty();
  for (const d of order) ret = ret.mul((d === kDim ? LinearLayout.zeros1D : LinearLayout.identity1D)(sizes[d], inDim, dimName(d)));
  return ret;
}

/**
 * Triton's `fmaDotToLinearLayout` (dot operand of a blocked parent, the FMA path): each thread holds
 * the parent's sizePerThread, widened to the whole K extent of the tensor; lanes and warps follow the
 * parent's, broadcast along K; registers, lanes and warps all walk the parent's order.
 */
function fmaDotLayout(l: StructAttr, shape: readonly number[]): LinearLayout {
  const blocked = l.attr('parent') as StructAttr;
  const rank = shape.length;
  const order = blocked.ints('order');
  const kDim = l.int('opIdx') === 0 ? rank - 1 : rank - 2;
  const threadSize = [...blocked.ints('sizePerThread')];
  threadSize[kDim] = shape[kDim];
  const repDims = order.map(dimName);
  const cta = identityStandardND('register', threadSize, order)
    .transposeOuts(repDims)
    .mul(broadcastedDot(blocked.ints('threadsPerWarp'), order, kDim, 'lane').transposeOuts(repDims))
    .mul(broadcastedDot(blocked.ints('warpsPerCTA'), order, kDim, 'warp').transposeOuts(repDims));
  return combineWithShape(cta, l, shape);
}

function dotLayout(l: StructAttr, shape: readonly number[]): LinearLayout {
  const mma = l.attr('parent') as StructAttr;
  if (mma instanceof StructAttr && mma.spec === BLOCKED) return fmaDotLayout(l, shape);
  if (!isSupportedLayout(l)) throw new Error(`dot operand ${l} is not supported (blocked parent, mma v2 parent with kWidth > 0, or mma v3 parent for opIdx 0, only)`);
  const rank = shape.length;
  const kWidth = l.int('kWidth');
  const isA = l.int('opIdx') === 0;
  const tile = new Array(rank).fill(1);
  tile[rank - 2] = isA ? 16 : kWidth * 8;
  tile[rank - 1] = isA ? kWidth * 8 : 8;
  const order = dotOperandOrder(l.int('opIdx'), rank);
  const cta = nvidiaMmaTile(tile, kWidth, order, order);
  const kDim = isA ? rank - 1 : rank - 2;
  // A Hopper A operand (wgmma's register fragment) has the warps of its v3 accumulator: M first.
  const hopper = mma.int('versionMajor') === 3;
  const warps = broadcastedWarps(mma.ints('warpsPerCTA'), matrixOrder(rank, !hopper), kDim).transposeOuts(cta.outNames());
  return combineWithShape(cta.mul(warps), l, shape);
}

function sliceLayout(l: StructAttr, shape: readonly number[]): LinearLayout {
  const dim = l.int('dim');
  const parentShape = [...shape.slice(0, dim), 1, ...shape.slice(dim)];
  const parent = toLinearLayout(l.attr('parent')!, parentShape);
  const cut = parent.removeOut(dimName(dim)).renameOuts((n) => {
    const k = Number(n.slice(3));
    return dimName(k > dim ? k - 1 : k);
  });
  return cut.withBases(
    'register',
    cut.bases('register').filter((b) => b.some((x) => x !== 0)),
  );
}

function linearLayout(l: StructAttr, shape: readonly number[]): LinearLayout {
  const rank = shape.length;
  const dims = standardDims(rank);
  const sizeOf = (k: number) => {
    const all = ['register', 'lane', 'warp', 'block'].flatMap((n) => l.ints2(n).map((b) => b[k]));
    return 1 << (32 - Math.clz32(all.reduce((a, b) => a | b, 0)));
  };
  let ll = new LinearLayout(
    ['register', 'lane', 'warp', 'block'].map((name) => ({ name, bases: l.ints2(name).map((b) => [...b]) })),
    dims.map((name, k) => ({ name, size: sizeOf(k) })),
  );
  const canonical = ll.outNames();
  ll = ll.transposeOuts(registerOrder(ll, rank).map(dimName));
  ll = ll.ensureNotSmaller(named(shape)).ensureNotLarger(named(shape), false);
  return ll.transposeOuts(canonical);
}

/** Triton's `orderPerDim(register)`: dims in the order register bases first move them, then the rest high to low. */
function registerOrder(ll: LinearLayout, rank: number): number[] {
  const seen: number[] = [];
  for (const b of ll.bases('register')) {
    const k = b.findIndex((x) => x !== 0);
    if (k >= 0 && !seen.includes(k)) seen.push(k);
  }
  for (const d of range(rank).reverse()) if (!seen.includes(d)) seen.push(d);
  return seen;
}

const cache = new Map<string, LinearLayout>();

/** The linear layout of `layout` on a tensor of `shape` (power-of-two dims), in-dims register/lane/warp/block. */
export function toLinearLayout(layout: Attribute, shape: readonly number[]): LinearLayout {
  const l = asLayout(layout);
  const rank = layoutRank(l);
  if (rank !== null && rank !== shape.length) throw new Error(`layout ${l} has rank ${rank} but the shape ${shape.join('x')} has rank ${shape.length}`);
  const key = `${l.id}:${shape.join('x')}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let ll: LinearLayout;
  switch (l.spec) {
    case BLOCKED: {
      const order = l.ints('order');
      const cta = identityStandardND('register', l.ints('sizePerThread'), order)
        .mul(identityStandardND('lane', l.ints('threadsPerWarp'), order))
        .mul(identityStandardND('warp', l.ints('warpsPerCTA'), order));
      ll = combineWithShape(cta, l, shape);
      break;
    }
    case NVIDIA_MMA:
      if (!isSupportedLayout(l)) throw new Error(`${l}: only nvidia_mma versions 2 and 3 are supported`);
      ll = mmaLayout(l, shape);
      break;
    case DOT_OP:
      ll = dotLayout(l, shape);
      break;
    case SLICE:
      ll = sliceLayout(l, shape);
      break;
    default:
      ll = linearLayout(l, shape);
  }
  for (const n of ['register', 'lane', 'warp', 'block']) if (!ll.ins.some((d) => d.name === n)) ll = ll.withBases(n, []);
  cache.set(key, ll);
  return ll;
}

// ---- ownership ---------------------------------------------------------------------------

/** Row-major linear index of element `coords` of a tensor of `shape`. */
export function linearIndex(coords: readonly number[], shape: readonly number[]): number {
  return coords.reduce((acc, c, k) => acc * shape[k] + c, 0);
}

/** Coordinates of row-major linear index `index` of a tensor of `shape`. */
export function coordsOf(index: number, shape: readonly number[]): number[] {
  const out = new Array<number>(shape.length);
  for (let k = shape.length - 1; k >= 0; k--) ((out[k] = index % shape[k]), (index = Math.floor(index / shape[k])));
  return out;
}

function contributions(layout: Attribute, shape: readonly number[]) {
  const ll = toLinearLayout(layout, shape);
  const dims = standardDims(shape.length);
  const c = (n: string) => ll.flatContributions(n, dims);
  return { reg: c('register'), lane: c('lane'), warp: c('warp'), block: c('block') };
}

/** For every element (row-major linear index), every (block, warp, lane, register) holding a copy. */
export function ownersOf(layout: Attribute, shape: readonly number[]): Owner[][] {
  const { reg, lane, warp, block } = contributions(layout, shape);
  const out: Owner[][] = Array.from({ length: product(shape) }, () => []);
  block.forEach((bv, b) =>
    warp.forEach((wv, w) =>
      lane.forEach((lv, l) =>
        reg.forEach((rv, r) => {
          out[bv ^ wv ^ lv ^ rv].push({ block: b, warp: w, lane: l, register: r });
        }),
      ),
    ),
  );
  return out;
}

/** The elements (row-major linear indices) held by one thread, indexed by register. */
export function elementsOf(layout: Attribute, shape: readonly number[], warp: number, lane: number, block = 0): number[] {
  const c = contributions(layout, shape);
  if (warp >= c.warp.length || lane >= c.lane.length || block >= c.block.length) throw new Error(`no thread (block ${block}, warp ${warp}, lane ${lane}) in ${layout}`);
  const base = c.block[block] ^ c.warp[warp] ^ c.lane[lane];
  return c.reg.map((r) => r ^ base);
}

/** Triton's `basesPerDim(inDim, skipBroadcast=false)`: a zero basis counts for the last dim moved. */
function basesPerDim(ll: LinearLayout, inDim: string, rank: number): number[] {
  const ret = new Array<number>(rank).fill(1);
  let last = 0;
  for (const b of ll.bases(inDim)) {
    const k = b.findIndex((x) => x !== 0);
    if (k >= 0) last = k;
    ret[last] *= 2;
  }
  return ret;
}

/** Triton's `getElemsPerThread`: registers per thread along each dim (duplicates included). */
export function elemsPerThread(layout: Attribute, shape: readonly number[]): number[] {
  return basesPerDim(toLinearLayout(layout, shape), 'register', shape.length);
}

/** Triton's `getTotalElemsPerThread`: the number of registers each thread uses for the tensor. */
export function totalElemsPerThread(layout: Attribute, shape: readonly number[]): number {
  return toLinearLayout(layout, shape).inSize('register');
}

const unitShape = (a: Attribute): number[] => new Array(layoutRank(a) ?? 0).fill(1);

/** Lanes along each dim (Triton's LinearEncoding `getThreadsPerWarp`; default shape: the layout's own tile). */
export function threadsPerWarp(layout: Attribute, shape: readonly number[] = shapePerTile(layout)): number[] {
  return basesPerDim(toLinearLayout(layout, shape), 'lane', shape.length);
}

/** Warps along each dim (Triton's LinearEncoding `getWarpsPerCTA`; default shape: the layout's own tile). */
export function warpsPerCTA(layout: Attribute, shape: readonly number[] = shapePerTile(layout)): number[] {
  return basesPerDim(toLinearLayout(layout, shape), 'warp', shape.length);
}

/** Threads in a warp the layout uses (the product of `threadsPerWarp`). */
export function numThreadsPerWarp(layout: Attribute): number {
  return toLinearLayout(layout, unitShape(layout)).inSize('lane');
}

/** Warps in a CTA the layout uses (the product of `warpsPerCTA`). */
export function numWarps(layout: Attribute): number {
  return toLinearLayout(layout, unitShape(layout)).inSize('warp');
}

/**
 * Triton's legacy `getShapePerCTATile`: the tensor piece one CTA covers before repeating.
 * blocked: sizePerThread x threadsPerWarp x warpsPerCTA; mma v2: [16 w0, 8 w1]; mma v3:
 * [16 w0, instrN w1]; slice: the parent's without `dim`; dot_op (mma): A [tile0, 16], B [16, tile1].
 */
export function shapePerTile(layout: Attribute): number[] {
  const l = asLayout(layout);
  switch (l.spec) {
    case BLOCKED: {
      const [s, t, w] = [l.ints('sizePerThread'), l.ints('threadsPerWarp'), l.ints('warpsPerCTA')];
      return s.map((x, k) => x * t[k] * w[k]);
    }
    case NVIDIA_MMA: {
      const w = l.ints('warpsPerCTA');
      const n = l.int('versionMajor') === 3 ? l.ints('instrShape')[1] : 8;
      return w.map((x, k) => (k === w.length - 2 ? 16 * x : k === w.length - 1 ? n * x : x));
    }
    case SLICE: {
      const dim = l.int('dim');
      return shapePerTile(l.attr('parent')!).filter((_, k) => k !== dim);
    }
    case DOT_OP: {
      const p = shapePerTile(l.attr('parent')!);
      const r = p.length;
      if (l.int('opIdx') === 0) p[r - 1] = 16;
      else p[r - 2] = 16;
      return p;
    }
    default: {
      const rank = layoutRank(l) ?? 0;
      const all = ['register', 'lane', 'warp'].flatMap((n) => l.ints2(n));
      return range(rank).map((k) => 1 << (32 - Math.clz32(all.reduce((a, b) => a | b[k], 0))));
    }
  }
}

// ---- equivalence ---------------------------------------------------------------------------
//
// Over GF(2) a thread's elements are a coset: the XOR of its lane/warp/block bases' contributions
// T(t) plus the span R of the register bases. Two layouts give every element the same owners iff
// every thread has the same elements: R_a = R_b and T_a(t) ^ T_b(t) in R_a for each thread basis.
// The dst-within-src test is the same with inclusion (R_dst in R_src); at the warp level the lanes
// join the registers. Both cost a few XORs per basis, not a walk over the elements.

/** A subspace of GF(2)^32 given by XOR-independent vectors (Gaussian elimination as they come). */
class XorSpan {
  private readonly basis: number[] = [];

  /** `v` reduced by the basis: 0 exactly when `v` is in the span. */
  private reduce(v: number): number {
    for (const b of this.basis) v = Math.min(v, (v ^ b) >>> 0);
    return v;
  }
  add(v: number): void {
    const r = this.reduce(v >>> 0);
    if (!r) return;
    this.basis.push(r);
    this.basis.sort((x, y) => y - x);
  }
  has(v: number): boolean {
    return this.reduce(v >>> 0) === 0;
  }
  /** Whether every vector of `other` is in this span. */
  contains(other: XorSpan): boolean {
    return other.basis.every((v) => this.has(v));
  }
}

/** A layout's per-thread part on `shape`: the span its registers (and, at the warp level, lanes) reach, and what each other id bit adds. */
function ownership(layout: Attribute, shape: readonly number[], level: 'thread' | 'warp'): { within: XorSpan; ids: number[][] } {
  const ll = toLinearLayout(layout, shape);
  const dims = standardDims(shape.length);
  const within = new XorSpan();
  const inner = level === 'thread' ? ['register'] : ['register', 'lane'];
  for (const n of inner) for (const v of ll.flatBases(n, dims)) within.add(v);
  const ids = (level === 'thread' ? ['lane', 'warp', 'block'] : ['warp', 'block']).map((n) => ll.flatBases(n, dims));
  return { within, ids };
}

/** Whether `a` and `b` give every element of `shape` the same set of owning threads (register numbering may differ). */
export function layoutsEquivalent(a: Attribute, b: Attribute, shape: readonly number[]): boolean {
  if (a === b) return true;
  const x = ownership(a, shape, 'thread');
  const y = ownership(b, shape, 'thread');
  if (x.ids.some((ids, k) => ids.length !== y.ids[k].length)) return false;
  if (!x.within.contains(y.within) || !y.within.contains(x.within)) return false;
  return x.ids.every((ids, k) => ids.every((v, i) => x.within.has(v ^ y.ids[k][i])));
}

/** Whether `a` and `b` have identical linear layouts on `shape` (same registers too: Triton's strict equality). */
export function sameLinearLayout(a: Attribute, b: Attribute, shape: readonly number[]): boolean {
  return a === b || toLinearLayout(a, shape).toString() === toLinearLayout(b, shape).toString();
}

/**
 * Whether every thread (or every warp, with `level` 'warp') that holds an element under `dst`
 * already holds it under `src`: then src -> dst needs no data from other threads (warps).
 */
export function dstOwnersWithinSrc(src: Attribute, dst: Attribute, shape: readonly number[], level: 'thread' | 'warp'): boolean {
  const s = ownership(src, shape, level);
  const d = ownership(dst, shape, level);
  if (s.ids.some((ids, k) => ids.length !== d.ids[k].length)) return false;
  if (!s.within.contains(d.within)) return false;
  return d.ids.every((ids, k) => ids.every((v, i) => s.within.has(v ^ s.ids[k][i])));
}
