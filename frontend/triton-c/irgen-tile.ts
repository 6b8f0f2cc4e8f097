/**
 * Tile operations of Triton-C to tt ops: ranges (`tt.make_range`), loads and stores through
 * (masked) pointer tiles, `@` (`tt.dot`), `^` (`tt.trans`), and subscripts with `newaxis`
 * (`tt.expand_dims`), `:` and reductions (`tt.reduce` with a combiner region).
 */
import type { Value } from '../../ir/ir.js';
import * as arith from '../../dialects/arith.js';
import * as tt from '../../dialects/tt/index.js';
import type { Expr, SubscriptItem } from './ast.js';
import type { Gen, TV } from './irgen-ctx.js';
import { binary, intMinMax, unify } from './irgen-ops.js';
import {
  broadcastShapes, broadcastsTo, checkBroadcast, checkDotShapes, checkMaskShape, commonScalar, ctype, dotAccumulator, elementOf, fmtShape, fmtType, irElement, irType,
  isFloatScalar, isUnsigned, rangeBounds, withShape, type CType,
} from './sema.js';

/** `lo ... hi`: a `tt.make_range` of int32. */
export function genRange(g: Gen, e: Extract<Expr, { kind: 'range' }>): TV {
  const [lo, hi] = rangeBounds(e, g.diag);
  const t = ctype('int32', 0, [hi - lo]);
  return { v: g.val(tt.MakeRangeOp, { start: lo, end: hi }, e.pos, irType(t)), t };
}

function pointee(g: Gen, p: TV, pos: number): CType {
  if (!p.t.ptr) g.diag.error(`cannot dereference a value of non-pointer type '${fmtType(p.t)}'`, pos);
  return { scalar: p.t.scalar, ptr: p.t.ptr - 1, shape: p.t.shape };
}

/** Converts a mask to bool and broadcasts it to the pointer shape. */
export function genMask(g: Gen, m: TV, shape: readonly number[], pos: number): TV {
  const b = g.toBool(m, pos);
  checkMaskShape(b.t.shape, shape, pos, g.diag);
  return g.broadcast(b, shape, pos);
}

/**
 * The mask and the pointers of `*?(mask) p` broadcast to their common shape, as the original
 * Triton-C's rules did: a scalar pointer under a tile mask loads / stores a tile (every lane at
 * that address), a scalar (or smaller) mask covers a tile of pointers. The mask becomes bool.
 */
export function maskedPointers(g: Gen, m: TV, p: TV, pos: number): { mask: TV; ptr: TV } {
  const b = g.toBool(m, pos);
  const shape = broadcastShapes(b.t.shape, p.t.shape);
  if (!shape) g.diag.error(`incompatible shapes: mask of shape ${fmtShape(b.t.shape)} for pointers of shape ${fmtShape(p.t.shape)}`, pos);
  return { mask: g.broadcast(b, shape, pos), ptr: g.broadcast(p, shape, pos) };
}

/** `mask` and-ed with the active mask of a tile `&&` / `||` (when it broadcasts to `shape`). */
export function withActiveMask(g: Gen, mask: TV | null, shape: readonly number[], pos: number): TV | null {
  const active = g.activeMask;
  if (!active || !broadcastsTo(active.t.shape, shape)) return mask;
  const m = g.broadcast(active, shape, pos);
  return mask ? binary(g, '&', mask, m, pos) : m;
}

/** `*p`, `*?(mask) p` or `cond ? *p : other`: a `tt.load` (masked loads default `other` to 0). */
export function genLoad(g: Gen, p: TV, givenMask: TV | null, other: TV | null, pos: number): TV {
  const t = pointee(g, p, pos);
  const mask = withActiveMask(g, givenMask, p.t.shape, pos);
  if (t.scalar === 'void' && !t.ptr) g.diag.error(`cannot dereference a 'void*'`, pos);
  let o: Value | undefined;
  if (mask) o = g.assignConvert(other ?? { ...g.constOf(t, 0, pos), lit: true }, t, 'the loaded value', pos).v;
  return { v: g.val(tt.LoadOp, { ptr: p.v, mask: mask?.v, other: o }, pos, irType(t)), t };
}

/** `*p = v` / `*?(mask) p = v`: a `tt.store` of `v` converted to the pointee type. */
export function genStore(g: Gen, p: TV, givenMask: TV | null, value: TV, pos: number): TV {
  const t = pointee(g, p, pos);
  const v = g.assignConvert(value, t, 'memory through pointers', pos);
  const mask = withActiveMask(g, givenMask, p.t.shape, pos);
  g.op(tt.StoreOp, { ptr: p.v, value: v.v, mask: mask?.v }, pos);
  return v;
}

/**
 * `a @ b`: a `tt.dot`; `acc` may supply the accumulator (for `c += a @ b`) given the dot's type,
 * else it is 0. Batched 3-D tiles (batch last in Triton-C: M x K x B @ K x N x B) become Triton's
 * 3-D `tt.dot` (batch first) between `tt.trans`es: operands and accumulator to B x M x K,
 * B x K x N, B x M x N, and the result back to M x N x B.
 */
export function genDot(g: Gen, a: TV, b: TV, acc: ((t: CType) => TV | null) | null, pos: number): TV {
  const shape = checkDotShapes(a.t, b.t, pos, g.diag);
  const s = commonScalar(a.t.scalar, b.t.scalar);
  if (s === 'bool') g.diag.error(`operands of '@' must be numeric tiles, got '${fmtType(a.t)}' and '${fmtType(b.t)}'`, pos);
  const batched = shape.length === 3;
  const toBatchFirst = (x: TV) => (batched ? permute(g, x, [2, 0, 1], pos) : x);
  const x = toBatchFirst(g.convert(a, s, pos));
  const y = toBatchFirst(g.convert(b, s, pos));
  const t = ctype(dotAccumulator(s), 0, shape);
  const given = acc?.(t);
  const c = given ? toBatchFirst(given) : g.constOf(withShape(t, batched ? [shape[2], shape[0], shape[1]] : shape), 0, pos);
  // f32 operands keep full precision (Triton-C's `@`) unless tf32 is allowed; for narrower types
  // Triton prints tf32, which changes nothing.
  const inputPrecision = s === 'float' && !g.allowTf32 ? 'ieee' : 'tf32';
  const d = g.val(tt.DotOp, { a: x.v, b: y.v, c: c.v, inputPrecision }, pos, irType(c.t));
  return batched ? permute(g, { v: d, t: c.t }, [1, 2, 0], pos) : { v: d, t };
}

/** A `tt.trans` of `x` with `order` (result dimension i is source dimension order[i]). */
function permute(g: Gen, x: TV, order: number[], pos: number): TV {
  const t = withShape(x.t, order.map((d) => x.t.shape[d]));
  return { v: g.val(tt.TransOp, { src: x.v, order }, pos, irType(t)), t };
}

/** `^x`: a `tt.trans` reversing the dimensions. */
export function genTrans(g: Gen, x: TV, pos: number): TV {
  const r = x.t.shape.length;
  if (r < 2) g.diag.error(`cannot transpose a value of type '${fmtType(x.t)}': '^' needs a tile of rank 2 or more`, pos);
  const order = [...Array(r).keys()].reverse();
  const t = withShape(x.t, order.map((d) => x.t.shape[d]));
  return { v: g.val(tt.TransOp, { src: x.v, order }, pos, irType(t)), t };
}

/** `x[...]`: `newaxis` inserts a dimension, `:` keeps one, `+` / `max` / `min` reduce one. */
export function genSubscript(g: Gen, x: TV, items: readonly SubscriptItem[], pos: number): TV {
  const kept = items.filter((it) => it.kind !== 'newaxis');
  const reduction = items.find((it) => it.kind === 'reduce');
  if (reduction && x.t.shape.length === 0) g.diag.error(`cannot reduce a scalar of type '${fmtType(x.t)}'`, pos);
  for (const it of items)
    if (it.kind === 'index') g.diag.error(`tiles cannot be indexed by an expression; use ':', 'newaxis' or a reduction ('+', 'max', 'min')`, it.pos);
  if (kept.length !== x.t.shape.length)
    g.diag.error(`subscript has ${kept.length} ${kept.length === 1 ? 'dimension' : 'dimensions'} but the tile has shape ${fmtShape(x.t.shape)}`, pos);
  let cur = x;
  let d = 0;
  for (const it of items) {
    if (it.kind === 'all') {
      d++;
    } else if (it.kind === 'newaxis') {
      cur = expandDims(g, cur, d, it.pos);
      d++;
    } else if (it.kind === 'reduce') {
      cur = reduce(g, cur, d, it.op, it.pos);
    }
  }
  return cur;
}

function expandDims(g: Gen, x: TV, axis: number, pos: number): TV {
  const shape = [...x.t.shape];
  shape.splice(axis, 0, 1);
  const t = withShape(x.t, shape);
  if (!x.t.shape.length) return g.broadcast(x, shape, pos);
  return { v: g.val(tt.ExpandDimsOp, { src: x.v, axis }, pos, irType(t)), t };
}

/** Builds the combiner `lhs op rhs` of a reduction of `s` elements. */
function combine(g: Gen, s: CType['scalar'], op: '+' | 'max' | 'min', lhs: Value, rhs: Value, pos: number): Value {
  if (isFloatScalar(s)) return g.val(op === '+' ? arith.AddFOp : op === 'max' ? arith.MaxNumFOp : arith.MinNumFOp, { lhs, rhs }, pos);
  return g.val(op === '+' ? arith.AddIOp : intMinMax(op, isUnsigned(s)), { lhs, rhs }, pos);
}

/** A `tt.reduce` of `x` along `axis` with an addf/addi/maxnumf/maxsi... combiner. */
export function reduce(g: Gen, x: TV, axis: number, op: '+' | 'max' | 'min', pos: number): TV {
  if (x.t.ptr) g.diag.error(`cannot reduce a tile of pointers '${fmtType(x.t)}'`, pos);
  const src = op === '+' && x.t.scalar === 'bool' ? g.convert(x, 'int32', pos) : x;
  const shape = src.t.shape.filter((_, k) => k !== axis);
  const t = withShape(src.t, shape);
  const red = g.op(tt.ReduceOp, { srcs: [src.v], axis }, pos, { results: { result: [irType(t)] } });
  const elt = irElement(elementOf(src.t));
  const block = g.b.createBlock(red.combineOp, [elt, elt]);
  block.args.forEach((a) => (a.loc = g.diag.loc(pos, g.curName)));
  g.inBlock(block, () => {
    const r = combine(g, src.t.scalar, op, block.args[0], block.args[1], pos);
    g.op(tt.ReduceReturnOp, { result: [r] }, pos);
  });
  g.b.setInsertionPointAfter(red.op);
  return { v: red.op.result(0), t };
}

/** `c ? a : b` on values (not loads): an `arith.select` after conversions and broadcasting. */
export function genSelect(g: Gen, cond: TV, a: TV, b: TV, pos: number): TV {
  const c = g.toBool(cond, pos);
  let x: TV;
  let y: TV;
  if (a.t.ptr || b.t.ptr) {
    if (a.t.ptr !== b.t.ptr || a.t.scalar !== b.t.scalar)
      g.diag.error(`incompatible operand types '${fmtType(a.t)}' and '${fmtType(b.t)}' in conditional expression`, pos);
    const shape = unifyShapes(g, [a.t.shape, b.t.shape, c.t.shape], pos);
    x = g.broadcast(a, shape, pos);
    y = g.broadcast(b, shape, pos);
  } else {
    [x, y] = unify(g, '?:', a, b, pos);
  }
  const shape = unifyShapes(g, [x.t.shape, c.t.shape], pos);
  x = g.broadcast(x, shape, pos);
  y = g.broadcast(y, shape, pos);
  const cc = g.broadcast(c, shape, pos);
  return { v: g.val(arith.SelectOp, { condition: cc.v, true_value: x.v, false_value: y.v }, pos, irType(x.t)), t: x.t };
}

function unifyShapes(g: Gen, shapes: (readonly number[])[], pos: number): number[] {
  return shapes.reduce<number[]>((acc, s) => checkBroadcast(acc, s, '?:', pos, g.diag), []);
}
