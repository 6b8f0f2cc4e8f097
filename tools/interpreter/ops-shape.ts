/** tt shape ops (make_range, splat, broadcast, expand_dims, reshape, trans, cat, join, split, gather) and scalar queries. */
import type { Value } from '../../ir/ir.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';
import type { Interpreter } from './interpreter.js';
import { impl, type OpEntry } from './op-impl.js';
import { fail } from './errors.js';
import { type Data, type Tensor, allocData, asTensor, copyElt, elementOf, gather, numel, shapeOfType, stridesOf, tensor } from './values.js';

/**
 * Copies a strided view of `data` into a fresh row-major array of `shape`: element at multi-index
 * `idx` is `data[offset + sum(idx[d] * strides[d])]` (stride 0 broadcasts).
 */
export function stridedCopy(data: Data, elt: Tensor['elt'], shape: readonly number[], strides: readonly number[], offset = 0): Data {
  const n = numel(shape);
  const out = allocData(elt, n);
  const rank = shape.length;
  const idx = new Array<number>(rank).fill(0);
  let src = offset;
  for (let k = 0; k < n; k++) {
    copyElt(out, k, data, src);
    for (let d = rank - 1; d >= 0; d--) {
      idx[d]++;
      src += strides[d];
      if (idx[d] < shape[d]) break;
      src -= strides[d] * shape[d];
      idx[d] = 0;
    }
  }
  return out;
}

/** Writes row-major `src` into a strided view of `data` (the inverse of `stridedCopy`). */
export function stridedWrite(data: Data, shape: readonly number[], strides: readonly number[], offset: number, src: Data): void {
  const n = numel(shape);
  const rank = shape.length;
  const idx = new Array<number>(rank).fill(0);
  let dst = offset;
  for (let k = 0; k < n; k++) {
    copyElt(data, dst, src, k);
    for (let d = rank - 1; d >= 0; d--) {
      idx[d]++;
      dst += strides[d];
      if (idx[d] < shape[d]) break;
      dst -= strides[d] * shape[d];
      idx[d] = 0;
    }
  }
}

/** The value of `v` as a tensor. */
function tensorOf(it: Interpreter, v: Value): Tensor {
  return asTensor(it.get(v));
}

const makeRange = impl(tt.MakeRangeOp, (range) => {
  const { start, end } = range;
  const out = new Int32Array(end - start);
  for (let k = 0; k < out.length; k++) out[k] = start + k;
  const t = range.result.type;
  return [tensor(shapeOfType(t), elementOf(t), out)];
});

const splat = impl(tt.SplatOp, (op, it) => [gather(tensorOf(it, op.src), shapeOfType(op.result.type), () => 0)]);

const unsplat = impl(tt.UnsplatOp, (op, it) => [gather(tensorOf(it, op.src), [], () => 0)]);

const broadcast = impl(tt.BroadcastOp, (op, it) => {
  const src = tensorOf(it, op.src);
  const shape = shapeOfType(op.result.type);
  const st = stridesOf(src.shape);
  const strides = shape.map((d, k) => (src.shape[k] === 1 && d !== 1 ? 0 : st[k]));
  return [tensor(shape, src.elt, stridedCopy(src.data, src.elt, shape, strides))];
});

/** Same data, new shape: expand_dims, reshape and convert_layout (layouts are annotations here). */
function reshapeLike(it: Interpreter, src: Value, result: Value): Tensor[] {
  const t = tensorOf(it, src);
  return [tensor(shapeOfType(result.type), t.elt, t.data)];
}

const trans = impl(tt.TransOp, (op, it) => {
  const src = tensorOf(it, op.src);
  const order = op.order;
  const st = stridesOf(src.shape);
  const shape = order.map((d) => src.shape[d]);
  return [tensor(shape, src.elt, stridedCopy(src.data, src.elt, shape, order.map((d) => st[d])))];
});

const cat = impl(tt.CatOp, (op, it) => {
  const a = tensorOf(it, op.lhs);
  const b = tensorOf(it, op.rhs);
  const out = allocData(a.elt, a.data.length + b.data.length);
  for (let k = 0; k < a.data.length; k++) copyElt(out, k, a.data, k);
  for (let k = 0; k < b.data.length; k++) copyElt(out, a.data.length + k, b.data, k);
  return [tensor(shapeOfType(op.result.type), a.elt, out)];
});

const join = impl(tt.JoinOp, (op, it) => {
  const a = tensorOf(it, op.lhs);
  const b = tensorOf(it, op.rhs);
  const n = a.data.length;
  const out = allocData(a.elt, 2 * n);
  for (let k = 0; k < n; k++) {
    copyElt(out, 2 * k, a.data, k);
    copyElt(out, 2 * k + 1, b.data, k);
  }
  return [tensor(shapeOfType(op.result.type), a.elt, out)];
});

const split = impl(tt.SplitOp, (op, it) => {
  const src = tensorOf(it, op.src);
  const shape = shapeOfType(op.outLHS.type);
  return [gather(src, shape, (k) => 2 * k), gather(src, shape, (k) => 2 * k + 1)];
});

/** tt.gather: result[i] = src[i with the `axis` coordinate replaced by indices[i]]. */
const gatherOp = impl(tt.GatherOp, (op, it) => {
  const src = tensorOf(it, op.src);
  const ind = tensorOf(it, op.indices);
  const axis = op.axis;
  const shape = shapeOfType(op.result.type);
  const outStrides = stridesOf(shape);
  const srcStrides = stridesOf(src.shape);
  const idxData = ind.data as Int32Array | BigInt64Array;
  return [gather(src, shape, (k) => {
    let rem = k;
    let pos = 0;
    for (let d = 0; d < shape.length; d++) {
      const c = Math.floor(rem / outStrides[d]);
      rem -= c * outStrides[d];
      const coord = d === axis ? Number(idxData[k]) : c;
      if (coord < 0 || coord >= src.shape[d]) fail(`index ${coord} out of range [0, ${src.shape[d]}) along axis ${axis}`);
      pos += coord * srcStrides[d];
    }
    return pos;
  })];
});

/** tt.histogram: counts of each value in [0, bins) (values outside are ignored; masked-off lanes too). */
const histogram = impl(tt.HistogramOp, (op, it) => {
  const src = tensorOf(it, op.src).data as Int32Array | BigInt64Array;
  const mask = op.mask ? (tensorOf(it, op.mask).data as Int32Array) : null;
  const t = op.result.type;
  const shape = shapeOfType(t);
  const out = allocData(elementOf(t), shape[0]);
  for (let k = 0; k < src.length; k++) {
    if (mask && !mask[mask.length === 1 ? 0 : k]) continue;
    const v = Number(src[k]);
    if (v < 0 || v >= shape[0]) continue;
    if (out instanceof BigInt64Array) out[v] += 1n;
    else (out as Int32Array)[v] += 1;
  }
  return [tensor(shape, elementOf(t), out)];
});

/** The grid dimension an axis names. */
const AXIS = { x: 0, y: 1, z: 2 } as const;

const programId = impl(tt.GetProgramIdOp, (op, it) => [tensor([], op.result.type, Int32Array.of(it.pid[AXIS[op.axis]]))]);
const numPrograms = impl(tt.GetNumProgramsOp, (op, it) => [tensor([], op.result.type, Int32Array.of(it.grid[AXIS[op.axis]]))]);

/** The shape op table. */
export const shapeOps: OpEntry[] = [
  makeRange,
  splat,
  unsplat,
  broadcast,
  impl(tt.ExpandDimsOp, (op, it) => reshapeLike(it, op.src, op.result)),
  impl(tt.ReshapeOp, (op, it) => reshapeLike(it, op.src, op.result)),
  trans,
  cat,
  join,
  split,
  gatherOp,
  histogram,
  programId,
  numPrograms,
  impl(ttg.ConvertLayoutOp, (op, it) => reshapeLike(it, op.src, op.result)),
];
