/**
 * Reading a loop's pointer load as a box of a tensor, the question `pointer-to-tma` asks before
 * turning it into a TMA copy. The load's 2-d pointers must be, at iteration k of its `scf.for`,
 *
 *   ptr[i][j] = base + Σ c_s * S_s + row(i) * S + col(j) + k * advance     mask = the dims' bounds, other = 0
 *
 * (the memory's columns, stride 1, may be the load's dim 0: a K x N operand stored N x K). Each
 * scalar term `c_s * S_s` (a per-program offset such as attention's `off_z * stride_z + off_h *
 * stride_h`) is a dim of its own, a box of length 1 at coordinate c_s; a scalar term along S or 1
 * moves the row or column dim's start. Each of the load's dims is one of
 *   - `(o + arange(0, n)) % D`: a wrapped block (Triton's tutorial `offs_am % M`), unmasked, not
 *     advancing. Its box starts at o; it is exact only where o >= 0 and o + n <= D, which the pass
 *     tests at run time unless no store observes the difference (unobserved-wrap.ts);
 *   - `arange(0, n)` advanced by the loop and masked by `arange(0, n) < D - k * step` (the K dim
 *     of a matmul: `offs_k < K - k * BLOCK_K`): its box starts at k * step, and the mask is the
 *     tensor's bound D, beyond which a TMA copy reads zeros, as the masked load does;
 *   - `[o +] arange(0, n)`, unmasked (attention's K and V rows): an unbounded dim. An unmasked load
 *     reads memory at every address it forms, so the tensor map gives the dim the largest extent
 *     and the copy reads the same addresses; its start (o, the scalar terms along it, and the
 *     loop's advance) must be provably non-negative, since TMA reads zeros below 0.
 * `base` is a pointer parameter, the strides, bounds and extents integer parameters, so the
 * launcher can build the tensor map (dialects/tt/tensormap-arg.ts).
 */
import { DenseElementsAttr, FloatAttr, IntegerAttr } from '../../ir/attributes.js';
import { BlockArgument, type Operation, type Value } from '../../ir/ir.js';
import { FloatType, IntegerType, RankedTensorType } from '../../ir/types.js';
import { constantInt, constantOf } from '../../ir/patterns.js';
import { reversedProgramIdAxis } from './program-order.js';
import * as arith from '../../dialects/arith.js';
import * as scf from '../../dialects/scf.js';
import * as tt from '../../dialects/tt/index.js';
import { TMA_MAX_RANK } from '../../dialects/ttg/target.js';

/** One of the load's two dims in the box: where it starts (scalars before the loop, plus the loop's advance) and the tensor's extent. */
export interface BoxDim {
  /** Scalars (i32, computed before the loop) whose sum is the block's first index before the loop advances it (none: 0). */
  readonly origin: readonly Value[];
  /** Elements the loop moves this dim's box by per iteration (0: it does not move). */
  readonly advance: number;
  /**
   * For a masked dim the loop advances: the value its mask subtracts from the extent, `k * step` or the
   * induction variable (a value of the loop's body), which is the box's start at that iteration.
   */
  readonly start: Value | null;
  /** The tensor's extent along this dim, an integer parameter; null: unbounded (the load is unmasked along it). */
  readonly extent: BlockArgument | null;
  /** The block's length along this dim. */
  readonly length: number;
  /** Whether the index wraps (`% D`): exact only where origin >= 0 and origin + length <= D. */
  readonly wraps: boolean;
  /** For a wrapping dim: the index before `% D` (`o + arange(0, n)`). */
  readonly unwrapped: Value | null;
}

/** A dim the pointers move along only by a scalar: a box of length 1 at `coordinate` (i32, computed before the loop), `stride` elements apart. */
export interface ScalarDim {
  readonly stride: BlockArgument;
  readonly coordinate: readonly Value[];
}

/**
 * A pointer load read as a box: the base pointer parameter, the stride parameter of the memory's
 * rows, the load's two dims, and the dims outside the load (outermost first). The memory's columns
 * (stride 1) are the load's dim 1, or its dim 0 when `transposed` (a K x N operand stored N x K:
 * the copy reads the N x K box and transposes it). `positive` are the parameters the box's
 * coordinates divide by, which must be > 0 for them to be non-negative (the launcher checks).
 */
export interface PointerBox {
  readonly load: Operation;
  readonly base: BlockArgument;
  readonly rowStride: BlockArgument;
  readonly dims: readonly [BoxDim, BoxDim];
  readonly scalarDims: readonly ScalarDim[];
  readonly transposed: boolean;
  readonly positive: readonly BlockArgument[];
}

/** A `tt.func` parameter (an argument of the function's entry block), or null. */
function parameter(v: Value): BlockArgument | null {
  return v instanceof BlockArgument && v.owner.parentOp?.name === 'tt.func' && v.owner.parent?.blocks[0] === v.owner ? v : null;
}

/** `v` without sign extensions. */
function unextended(v: Value): Value {
  for (let ext = arith.ExtSIOp.match(v.definingOp); ext; ext = arith.ExtSIOp.match(v.definingOp)) v = ext.in;
  return v;
}

/** The scalar a `tt.splat` spreads, or null. */
const splatOf = (v: Value): Value | null => tt.SplatOp.match(v.definingOp)?.src ?? null;

/** The integer every element of a constant tensor (or a scalar constant) holds, or null. */
function splatInt(v: Value): number | null {
  const c = constantOf(v);
  if (c instanceof DenseElementsAttr && c.isSplat && c.type.elementType instanceof IntegerType) return Number(c.at(0));
  return constantInt(v);
}

/** Whether `v` is a constant zero (integer or float, scalar or splat). */
function isZero(v: Value): boolean {
  const c = constantOf(v);
  if (c instanceof DenseElementsAttr) return c.isSplat && Number(c.at(0)) === 0;
  return (c instanceof IntegerAttr || c instanceof FloatAttr) && Number(c.value) === 0;
}

/** `arange(0, n)` -> n, or null. */
function rangeLength(v: Value): number | null {
  const r = tt.MakeRangeOp.match(v.definingOp);
  return r && r.start === 0 ? r.end : null;
}

/** The operands of a commutative binary op `def` with `test` true of one: [that one, the other], or null. */
function either<T>(def: Operation, test: (v: Value) => T | null): [T, Value] | null {
  const [x, y] = def.operandValues();
  const a = test(x);
  if (a !== null) return [a, y];
  const b = test(y);
  return b !== null ? [b, x] : null;
}

/** An integer parameter, possibly sign-extended, or a splat of one: the parameter, or null. */
const strideParameter = (v: Value): BlockArgument | null => parameter(unextended(splatOf(v) ?? v));

/** A 1-d index `(o + arange(0, n)) % D`, `o + arange(0, n)` or `arange(0, n)`. */
interface Index {
  origin: Value | null;
  length: number;
  wrap: BlockArgument | null;
  unwrapped: Value | null;
}

function readIndex(v: Value): Index | null {
  let wrap: BlockArgument | null = null;
  const rem = arith.RemSIOp.match(v.definingOp);
  if (rem) {
    const d = splatOf(rem.rhs);
    wrap = d ? parameter(d) : null;
    if (!wrap) return null;
    v = rem.lhs;
  }
  const unwrapped = wrap ? v : null;
  const n = rangeLength(v);
  if (n !== null) return { origin: null, length: n, wrap, unwrapped };
  const add = arith.AddIOp.match(v.definingOp);
  if (!add) return null;
  const parts = either(add.op, rangeLength);
  const origin = parts && splatOf(parts[1]);
  return parts && origin ? { origin, length: parts[0], wrap, unwrapped } : null;
}

/** The offsets of a pointer expression, as terms: `index * stride` along one of the load's dims, or a uniform `value * stride`. */
interface Terms {
  base: BlockArgument | null;
  /** Per load dim: the index and its stride (null: 1); two terms along one dim make the read fail. */
  indexed: ({ index: Index; stride: BlockArgument | null } | null)[];
  /** Uniform terms: a scalar i32 value and its stride (null: 1). */
  uniform: { value: Value; stride: BlockArgument | null }[];
}

/** Adds the terms of a uniform scalar offset `v` to `terms` (false: not a sum of value * stride). */
function readUniform(v: Value, stride: BlockArgument | null, terms: Terms): boolean {
  v = unextended(v);
  const add = arith.AddIOp.match(v.definingOp);
  if (add) return readUniform(add.lhs, stride, terms) && readUniform(add.rhs, stride, terms);
  const mul = stride ? null : arith.MulIOp.match(v.definingOp);
  const scaled = mul && either(mul.op, strideParameter);
  if (scaled) return readUniform(scaled[1], scaled[0], terms);
  if (!(v.type instanceof IntegerType) || v.type.width !== 32) return false;
  terms.uniform.push({ value: v, stride });
  return true;
}

/** Adds the terms of an offset tensor `v` of the load's rank (or a broadcastable `Rx1` / `1xC`) to `terms`. */
function readOffsets(v: Value, terms: Terms): boolean {
  v = unextended(v);
  if (!(v.type instanceof RankedTensorType)) return readUniform(v, null, terms);
  const def = v.definingOp;
  const bc = tt.BroadcastOp.match(def);
  if (bc) return readOffsets(bc.src, terms);
  const splat = splatOf(v);
  if (splat) return readUniform(splat, null, terms);
  const add = arith.AddIOp.match(def);
  if (add) return readOffsets(add.lhs, terms) && readOffsets(add.rhs, terms);
  let stride: BlockArgument | null = null;
  let expanded = v;
  const mul = arith.MulIOp.match(def);
  if (mul) {
    const parts = either(mul.op, strideParameter);
    if (!parts) return false;
    const uniform = splatOf(parts[1]);
    if (uniform) return readUniform(uniform, parts[0], terms);
    [stride, expanded] = [parts[0], unextended(parts[1])];
  }
  const ex = tt.ExpandDimsOp.match(expanded.definingOp);
  if (!ex || (v.type as RankedTensorType).rank !== 2) return false;
  const dim = 1 - ex.axis;
  const index = readIndex(ex.src);
  if (!index || terms.indexed[dim]) return false;
  terms.indexed[dim] = { index, stride };
  return true;
}

/** Reads the pointer expression `v` (a tensor of pointers, or a scalar one splat into it) into `terms`. */
function readPointers(v: Value, terms: Terms): boolean {
  const p = parameter(v);
  if (p) {
    if (terms.base) return false;
    terms.base = p;
    return true;
  }
  const def = v.definingOp;
  const inner = tt.SplatOp.match(def)?.src ?? tt.BroadcastOp.match(def)?.src;
  if (inner) return readPointers(inner, terms);
  const add = tt.AddptrOp.match(def);
  return !!add && readPointers(add.ptr, terms) && readOffsets(add.offset, terms);
}

/**
 * A mask term `broadcast(expand_dims(index) < splat(bound))` along dim `dim` of a 2-d tensor: the
 * 1-d index and the scalar bound, or null. (The unwrapped-store test of unobserved-wrap.ts reads
 * store masks with it too.)
 */
export function boundTerm(v: Value, dim: number): { index: Value; bound: Value } | null {
  const cmp = arith.CmpIOp.match((tt.BroadcastOp.match(v.definingOp)?.src ?? v).definingOp);
  if (!cmp || cmp.predicate !== 'slt') return null;
  const ex = tt.ExpandDimsOp.match(cmp.lhs.definingOp);
  const bound = splatOf(cmp.rhs);
  return ex && ex.axis === 1 - dim && bound ? { index: ex.src, bound } : null;
}

/** The bound D of a load mask `broadcast(arange(0, n)[..] < splat(D - t))` along dim `dim`, with `t`; or null. */
function readBound(v: Value, dim: number): { extent: Value; minus: Value | null } | null {
  const term = boundTerm(v, dim);
  if (!term || rangeLength(term.index) === null) return null;
  const sub = arith.SubIOp.match(term.bound.definingOp);
  return sub ? { extent: sub.lhs, minus: sub.rhs } : { extent: term.bound, minus: null };
}

/** Whether `t` is the box's start at iteration k of `loop` for a dim advancing by `advance` (lower bound 0): `iv * advance` or, with step `advance`, `iv`. */
function isIterationStart(t: Value, loop: Operation, advance: number): boolean {
  const f = scf.ForOp.view(loop);
  const iv = loop.regions[0].blocks[0].args[0];
  if (constantInt(f.lowerBound) !== 0) return false;
  if (t === iv) return constantInt(f.step) === advance;
  const mul = arith.MulIOp.match(t.definingOp);
  return !!mul && constantInt(f.step) === 1 && !!either(mul.op, (x) => (x === iv ? x : null)) && [mul.lhs, mul.rhs].some((x) => constantInt(x) === advance);
}

/**
 * Whether the i32 scalar `v` is never negative: program ids and their counts, non-negative
 * constants, and sums, products, remainders and quotients of such. A quotient by a parameter
 * needs that parameter > 0, which is added to `positive` for the launcher to check. (A sum that
 * overflows is as wrong in the pointers the load forms as in the coordinate.)
 */
export function nonNegative(v: Value, positive: Set<BlockArgument>): boolean {
  const c = constantInt(v);
  if (c !== null) return c >= 0;
  const def = v.definingOp;
  if (!def) return false;
  if (tt.GetProgramIdOp.is(def) || tt.GetNumProgramsOp.is(def) || reversedProgramIdAxis(v)) return true;
  if (arith.AddIOp.is(def) || arith.MulIOp.is(def)) return def.operandValues().every((x) => nonNegative(x, positive));
  const rem = arith.RemSIOp.match(def);
  if (rem) return nonNegative(rem.lhs, positive);
  const div = arith.DivSIOp.match(def);
  if (!div || !nonNegative(div.lhs, positive)) return false;
  const d = constantInt(div.rhs);
  if (d !== null) return d > 0;
  const p = parameter(div.rhs);
  if (p) positive.add(p);
  return !!p;
}

/**
 * `load` (a `tt.load` in the body of `loop`) read as a box, or why it is not one (a sentence for a
 * remark). Element type, alignment and target are the caller's questions.
 */
export function readPointerBox(load: Operation, loop: Operation): PointerBox | string {
  const ld = tt.LoadOp.view(load);
  const body = loop.regions[0].blocks[0];
  const t = ld.ptr.type;
  if (!(t instanceof RankedTensorType) || t.rank !== 2) return 'its pointers are not a 2-d tensor';
  if (ld.other && !isZero(ld.other)) return 'its masked-off elements are not zeros';
  const arg = ld.ptr;
  if (!(arg instanceof BlockArgument) || arg.owner !== body || arg.index === 0) return 'its pointers are not carried by its loop';
  const k = arg.index - 1;
  const init = loop.operand(3 + k);
  const next = tt.AddptrOp.match(body.terminator!.operand(k).definingOp);
  if (!next || next.ptr !== arg) return 'its loop does not advance its pointers by one offset';
  // the copy drops the carried pointers: nothing else may read them
  if (arg.users().some((u) => u !== load && u !== next.op) || next.result.users().some((u) => u !== body.terminator)) {
    return 'its pointers have other uses in the loop';
  }
  const terms: Terms = { base: null, indexed: [null, null], uniform: [] };
  if (!readPointers(init, terms) || !terms.base) return 'its first pointers are not a parameter plus sums of index * stride';
  const [a, b] = terms.indexed;
  if (!a || !b) return 'its offsets are not index * stride along rows plus index along columns';
  // one dim contiguous (no stride), the other a stride parameter apart: the memory's columns and rows
  const transposed = !a.stride && !!b.stride;
  const rowStride = transposed ? b.stride : a.stride;
  if (!rowStride || (transposed ? a.stride : b.stride)) return 'its rows are not a stride parameter apart with contiguous columns';
  const [memRows, memCols] = transposed ? [1, 0] : [0, 1];
  // the advance: a constant number of the memory's columns, or q of its rows (splat(S * q))
  const step = next.offset;
  const cols = splatInt(step);
  const perRows = splatOf(step);
  const rowMul = perRows ? arith.MulIOp.match(perRows.definingOp) : null;
  const rowsBy = rowMul ? either(rowMul.op, (x) => (x === rowStride ? x : null)) : null;
  const rows = rowsBy ? constantInt(rowsBy[1]) : null;
  if (cols === null && rows === null) return 'its loop advances its pointers by something other than whole rows or columns';
  const advance: [number, number] = [0, 0];
  if (cols !== null) advance[memCols] = cols;
  else advance[memRows] = rows!;
  // uniform terms: along the columns or rows they move that dim's start, along another stride they are a dim of their own
  const along: [Value[], Value[]] = [[], []];
  const scalarDims: { stride: BlockArgument; coordinate: Value[] }[] = [];
  for (const u of terms.uniform) {
    if (u.stride === null) along[memCols].push(u.value);
    else if (u.stride === rowStride) along[memRows].push(u.value);
    else {
      const dim = scalarDims.find((s) => s.stride === u.stride);
      if (dim) dim.coordinate.push(u.value);
      else scalarDims.push({ stride: u.stride, coordinate: [u.value] });
    }
  }
  const masks: (ReturnType<typeof readBound>)[] = [null, null];
  if (ld.mask) {
    const and = arith.AndIOp.match(ld.mask.definingOp);
    for (const m of and ? [and.lhs, and.rhs] : [ld.mask]) {
      const d = readBound(m, 0) ? 0 : readBound(m, 1) ? 1 : -1;
      if (d < 0 || masks[d]) return 'its mask is not a bound per dim (`arange(0, n) < D - k * step`)';
      masks[d] = readBound(m, d);
    }
  }
  const positive = new Set<BlockArgument>();
  const dims: BoxDim[] = [];
  for (const [d, term] of [a, b].entries()) {
    const { index } = term;
    const mask = masks[d];
    if (index.wrap) {
      if (mask || advance[d]) return `its dim ${d} both wraps and is masked or advanced`;
      if (along[d].length) return `its dim ${d} wraps and is offset by a scalar`;
      if (index.origin && loop.regions[0].isAncestorOfValue(index.origin)) return `its dim ${d} starts at a value computed in the loop`;
      dims.push({ origin: index.origin ? [index.origin] : [], advance: 0, start: null, extent: index.wrap, length: index.length, wraps: true, unwrapped: index.unwrapped });
      continue;
    }
    if (!mask) {
      // unmasked: every address is read, so the dim is unbounded; TMA reads zeros below 0
      const origin = [...(index.origin ? [index.origin] : []), ...along[d]];
      if (!origin.every((o) => nonNegative(o, positive))) return `its dim ${d} is unmasked and may start below 0`;
      if (advance[d] && !((constantInt(scf.ForOp.view(loop).step) ?? 0) > 0)) return `its dim ${d} advances in a loop whose step is not a positive constant`;
      dims.push({ origin, advance: advance[d], start: null, extent: null, length: index.length, wraps: false, unwrapped: null });
      continue;
    }
    if (index.origin || along[d].length) return `its dim ${d} is masked but does not start at 0`;
    const extent = parameter(mask.extent);
    if (!extent) return `its dim ${d} is masked by a bound that is not a parameter`;
    if (mask.minus ? !isIterationStart(mask.minus, loop, advance[d]) : advance[d] !== 0) return `its dim ${d} mask does not follow the loop's advance`;
    dims.push({ origin: [], advance: advance[d], start: advance[d] ? mask.minus : null, extent, length: index.length, wraps: false, unwrapped: null });
  }
  if (!scalarDims.every((s) => s.coordinate.every((c) => nonNegative(c, positive)))) return 'its pointers are offset by a scalar that may be negative';
  if (scalarDims.length + 2 > TMA_MAX_RANK) return `its pointers are offset along more than ${TMA_MAX_RANK} dims (a TMA copy has at most ${TMA_MAX_RANK})`;
  return { load, base: terms.base, rowStride, dims: [dims[0], dims[1]], scalarDims, transposed, positive: [...positive] };
}

/** Whether `load`'s result feeds a `tt.dot` operand (directly or through layout conversions). */
export function feedsDot(load: Operation): boolean {
  const seen = new Set<Value>();
  const work = [load.result(0)];
  while (work.length) {
    const v = work.pop()!;
    if (seen.has(v)) continue;
    seen.add(v);
    for (const u of v.users()) {
      if (tt.DotOp.is(u) && (u.operand(0) === v || u.operand(1) === v)) return true;
      if (u.name === 'ttg.convert_layout') work.push(u.result(0));
    }
  }
  return false;
}

/** The element bits of a box's load where TMA copies it into a tensor-core operand tile (8- and 16-bit floats, i8), else null. */
export function tmaElementBits(load: Operation): number | null {
  const t = load.result(0).type;
  const e = t instanceof RankedTensorType ? t.elementType : null;
  if (e instanceof IntegerType && e.width === 8) return 8;
  return e instanceof FloatType && (e.width === 16 || e.width === 8) ? e.width : null;
}
