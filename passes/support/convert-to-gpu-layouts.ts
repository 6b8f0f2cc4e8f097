/**
 * Layout arithmetic of `convert-to-gpu` (Triton's ConvertTritonToTritonGPU): the default
 * `#ttg.blocked` layout of a shape, and the layouts the special ops produce or need
 * (expand_dims, dot, join, split, trans, cat, descriptor gather/scatter indices).
 */
import type { Attribute } from '../../ir/attributes.js';
import { BLOCKED, DOT_OP, SLICE, isLayout } from '../../dialects/ttg/layout-attrs.js';
import { StructAttr } from '../../dialects/ttg/struct-attr.js';

/** The launch configuration the layouts are built for. */
export interface GpuConfig {
  numWarps: number;
  threadsPerWarp: number;
  numCTAs: number;
}

/** The fields of a `#ttg.blocked` layout (CTA fields included), as plain arrays. */
export interface BlockedFields {
  sizePerThread: number[];
  threadsPerWarp: number[];
  warpsPerCTA: number[];
  order: number[];
  CTAsPerCGA: number[];
  CTASplitNum: number[];
  CTAOrder: number[];
}

const product = (xs: readonly number[]): number => xs.reduce((a, b) => a * b, 1);
const clamp = (x: number, lo: number, hi: number): number => Math.min(Math.max(x, lo), hi);
const reversedIota = (n: number): number[] => Array.from({ length: n }, (_, k) => n - 1 - k);
const iota = (n: number): number[] => Array.from({ length: n }, (_, k) => k);

/**
 * Builds a blocked layout. With a single CTA the CTA fields are left at their defaults, as Triton
 * 3.6 (whose CGA layout is then trivial) prints none.
 */
export function makeBlocked(f: BlockedFields): StructAttr {
  const base = { sizePerThread: f.sizePerThread, threadsPerWarp: f.threadsPerWarp, warpsPerCTA: f.warpsPerCTA, order: f.order };
  if (product(f.CTAsPerCGA) === 1) return StructAttr.get(BLOCKED, base);
  return StructAttr.get(BLOCKED, { ...base, CTAsPerCGA: f.CTAsPerCGA, CTASplitNum: f.CTASplitNum, CTAOrder: f.CTAOrder });
}

/** The fields of a blocked layout as mutable copies. */
export function blockedFields(a: StructAttr): BlockedFields {
  const get = (k: string): number[] => [...a.ints(k)];
  return {
    sizePerThread: get('sizePerThread'),
    threadsPerWarp: get('threadsPerWarp'),
    warpsPerCTA: get('warpsPerCTA'),
    order: get('order'),
    CTAsPerCGA: get('CTAsPerCGA'),
    CTASplitNum: get('CTASplitNum'),
    CTAOrder: get('CTAOrder'),
  };
}

/**
 * Triton's shape-driven BlockedEncodingAttr builder: CTAs go to the slowest dimensions first;
 * lanes then warps go to the fastest dimension first (as many as it has elements for), and the
 * slowest dimension takes whatever lanes and warps remain.
 */
export function blockedForShape(shape: readonly number[], sizePerThread: readonly number[], order: readonly number[], cfg: GpuConfig): StructAttr {
  const rank = shape.length;
  const ctas = new Array<number>(rank).fill(1);
  let remainingCTAs = cfg.numCTAs;
  for (let d = rank - 1; d >= 0; d--) {
    const i = order[d];
    ctas[i] = clamp(remainingCTAs, 1, Math.max(1, Math.floor(shape[i] / sizePerThread[i])));
    remainingCTAs = Math.floor(remainingCTAs / ctas[i]);
  }
  const split = [...ctas];
  ctas[rank - 1] *= remainingCTAs;
  const shapePerCTA = shape.map((s, i) => Math.max(1, Math.floor(s / split[i])));

  const tpw = new Array<number>(rank).fill(1);
  const wpc = new Array<number>(rank).fill(1);
  let lanes = cfg.threadsPerWarp;
  let threads = cfg.numWarps * cfg.threadsPerWarp;
  let warps = cfg.numWarps;
  let prevLanes = 1;
  let prevWarps = 1;
  for (let d = 0; d < rank - 1; d++) {
    const i = order[d];
    const threadsPerCTA = clamp(threads, 1, Math.max(1, Math.floor(shapePerCTA[i] / sizePerThread[i])));
    tpw[i] = clamp(threadsPerCTA, 1, lanes);
    wpc[i] = clamp(Math.floor(threadsPerCTA / tpw[i]), 1, warps);
    warps = Math.floor(warps / wpc[i]);
    lanes = Math.floor(lanes / tpw[i]);
    threads = Math.floor(threads / threadsPerCTA);
    prevLanes *= tpw[i];
    prevWarps *= wpc[i];
  }
  tpw[order[rank - 1]] = Math.floor(cfg.threadsPerWarp / prevLanes);
  wpc[order[rank - 1]] = Math.floor(cfg.numWarps / prevWarps);
  return makeBlocked({
    sizePerThread: [...sizePerThread], threadsPerWarp: tpw, warpsPerCTA: wpc, order: [...order],
    CTAsPerCGA: ctas, CTASplitNum: split, CTAOrder: [...order],
  });
}

/** Triton's getDefaultBlockedEncoding: one element per thread, the last dimension fastest. */
export function defaultBlocked(shape: readonly number[], cfg: GpuConfig): StructAttr {
  return blockedForShape(shape, new Array<number>(shape.length).fill(1), reversedIota(shape.length), cfg);
}

/** `order` with a new dimension `axis` inserted as the slowest one (Triton's insertOrder for CTAOrder). */
function insertOrder(order: readonly number[], axis: number): number[] {
  return [axis, ...order.map((d) => (d >= axis ? d + 1 : d))];
}

function insertOne(xs: readonly number[], axis: number): number[] {
  const out = [...xs];
  out.splice(axis, 0, 1);
  return out;
}

/**
 * The result layout of `tt.expand_dims` whose source has the blocked layout `arg`: size 1 in the
 * new dimension everywhere, and (as Triton does) order [0, 1, ..., rank].
 */
export function expandDimsLayout(arg: StructAttr, axis: number): StructAttr {
  const f = blockedFields(arg);
  return makeBlocked({
    sizePerThread: insertOne(f.sizePerThread, axis),
    threadsPerWarp: insertOne(f.threadsPerWarp, axis),
    warpsPerCTA: insertOne(f.warpsPerCTA, axis),
    order: iota(f.order.length + 1),
    CTAsPerCGA: insertOne(f.CTAsPerCGA, axis),
    CTASplitNum: insertOne(f.CTASplitNum, axis),
    CTAOrder: insertOrder(f.CTAOrder, axis),
  });
}

/**
 * The blocked layout of a `tt.dot` result: 2x2 (or 4x4) elements per thread in the two last
 * dimensions once there are at least 4 (16) elements per thread, capped by the shape.
 */
export function dotResultLayout(shape: readonly number[], cfg: GpuConfig): StructAttr {
  const rank = shape.length;
  const spt = new Array<number>(rank).fill(1);
  const perThread = Math.floor(product(shape) / (cfg.numWarps * cfg.threadsPerWarp));
  const n = perThread >= 16 ? 4 : perThread >= 4 ? 2 : 1;
  spt[rank - 1] = Math.min(n, shape[rank - 1]);
  spt[rank - 2] = Math.min(n, shape[rank - 2]);
  return blockedForShape(shape, spt, reversedIota(rank), cfg);
}

/** `#ttg.dot_op<{opIdx, parent}>` (kWidth 0: the parent is not an mma layout). */
export function dotOperandLayout(opIdx: number, parent: Attribute): StructAttr {
  return StructAttr.get(DOT_OP, { opIdx, parent });
}

/** `#ttg.slice<{dim, parent}>`. */
export function sliceLayout(dim: number, parent: Attribute): StructAttr {
  return StructAttr.get(SLICE, { dim, parent });
}

const appendTo = (xs: readonly number[], v: number): number[] => [...xs, v];
const minorFirst = (order: readonly number[]): number[] => [order.length, ...order];

/** The result layout of `tt.join` on blocked operands: a new, fastest dimension of 2 elements per thread. */
export function joinLayout(src: StructAttr): StructAttr {
  const f = blockedFields(src);
  return makeBlocked({
    sizePerThread: appendTo(f.sizePerThread, 2),
    threadsPerWarp: appendTo(f.threadsPerWarp, 1),
    warpsPerCTA: appendTo(f.warpsPerCTA, 1),
    order: minorFirst(f.order),
    CTAsPerCGA: appendTo(f.CTAsPerCGA, 1),
    CTASplitNum: appendTo(f.CTASplitNum, 1),
    CTAOrder: minorFirst(f.CTAOrder),
  });
}

/**
 * Whether a blocked layout can feed `tt.split`: the last, fastest dimension is 2 elements in each
 * thread's registers (no lanes, warps or CTAs along it, or dropping it would leave a layout whose
 * threads do not add up).
 */
export function isSplittable(a: Attribute | null): boolean {
  if (!isLayout(a, BLOCKED)) return false;
  const f = blockedFields(a);
  const last = f.order.length - 1;
  return f.sizePerThread[last] === 2 && f.order[0] === last && f.threadsPerWarp[last] === 1 && f.warpsPerCTA[last] === 1 && f.CTAsPerCGA[last] === 1;
}

/** The result layout of `tt.split` whose source has the splittable blocked layout `src`: the last dimension dropped. */
export function splitResultLayout(src: StructAttr): StructAttr {
  const f = blockedFields(src);
  const rank = f.order.length;
  const drop = (xs: number[]): number[] => xs.slice(0, rank - 1);
  const dropOrder = (xs: number[]): number[] => xs.filter((d) => d !== rank - 1);
  return makeBlocked({
    sizePerThread: drop(f.sizePerThread), threadsPerWarp: drop(f.threadsPerWarp), warpsPerCTA: drop(f.warpsPerCTA),
    order: dropOrder(f.order), CTAsPerCGA: drop(f.CTAsPerCGA), CTASplitNum: drop(f.CTASplitNum), CTAOrder: dropOrder(f.CTAOrder),
  });
}

/** `perm`'s inverse permutation: `inversePerm(p)[p[k]] = k`. */
export function inversePerm(perm: readonly number[]): number[] {
  const inverse = new Array<number>(perm.length);
  perm.forEach((srcDim, resDim) => (inverse[srcDim] = resDim));
  return inverse;
}

/** The result layout of `tt.trans` with permutation `perm` on a blocked source: the fields permuted alike. */
export function transLayout(src: StructAttr, perm: readonly number[]): StructAttr {
  const f = blockedFields(src);
  const inverse = inversePerm(perm);
  const permute = (xs: number[]): number[] => perm.map((d) => xs[d]);
  const reorder = (order: number[]): number[] => order.map((d) => inverse[d]);
  return makeBlocked({
    sizePerThread: permute(f.sizePerThread), threadsPerWarp: permute(f.threadsPerWarp), warpsPerCTA: permute(f.warpsPerCTA),
    order: reorder(f.order), CTAsPerCGA: permute(f.CTAsPerCGA), CTASplitNum: permute(f.CTASplitNum), CTAOrder: reorder(f.CTAOrder),
  });
}

/** Elements each thread holds of a tensor of `shape` in the blocked layout `a`. */
export function elemsPerThread(shape: readonly number[], a: StructAttr): number {
  const f = blockedFields(a);
  let n = 1;
  for (let d = 0; d < shape.length; d++) {
    const perCTA = Math.max(1, Math.floor(shape[d] / f.CTASplitNum[d]));
    const tile = f.sizePerThread[d] * f.threadsPerWarp[d] * f.warpsPerCTA[d];
    n *= Math.ceil(perCTA / tile) * f.sizePerThread[d];
  }
  return n;
}

const nextPow2 = (n: number): number => (n <= 1 ? 1 : 2 ** Math.ceil(Math.log2(n)));

/**
 * The result layout of `tt.cat`: the default layout of the result, with enough elements per thread
 * in the fastest dimension to hold both operands' elements (rounded up to a power of 2).
 */
export function catLayout(resShape: readonly number[], lhs: { shape: readonly number[]; enc: StructAttr }, rhs: { shape: readonly number[]; enc: StructAttr }, cfg: GpuConfig): StructAttr {
  const ret = defaultBlocked(resShape, cfg);
  const f = blockedFields(ret);
  const want = nextPow2(elemsPerThread(lhs.shape, lhs.enc) + elemsPerThread(rhs.shape, rhs.enc));
  const have = elemsPerThread(resShape, ret);
  f.sizePerThread[f.order[0]] *= Math.max(1, Math.floor(want / have));
  return makeBlocked(f);
}

/**
 * The layout of the x offsets of `tt.descriptor_gather` / `tt.descriptor_scatter`: 4 consecutive
 * indices per thread (the TMA gather4 / scatter4 instructions need them together).
 */
export function gatherIndicesLayout(cfg: GpuConfig): StructAttr {
  const parent = makeBlocked({
    sizePerThread: [1, 4], threadsPerWarp: [cfg.threadsPerWarp, 1], warpsPerCTA: [1, cfg.numWarps], order: [1, 0],
    CTAsPerCGA: [1, cfg.numCTAs], CTASplitNum: [1, cfg.numCTAs], CTAOrder: [1, 0],
  });
  return sliceLayout(0, parent);
}
