/** tt shape ops (make_range, splat, broadcast, expand_dims, reshape, trans, cat, join, split, gather) and scalar queries. */
import { DenseArrayAttr, IntegerAttr } from '../../ir/attributes.js';
import type { Operation } from '../../ir/ir.js';
import type { OpImpl } from './interpreter.js';
import { fail } from './errors.js';
import { type Data, type Tensor, allocData, asTensor, copyElt, elementOf, gather, numel, shapeOfType, stridesOf, tensor } from './values.js';

/** An i32 attribute's value. */
export function intAttr(op: Operation, name: string): number {
  const a = op.getAttr(name);
  if (!(a instanceof IntegerAttr)) return fail(`missing integer attribute '${name}'`);
  return a.num;
}

/** A dense i32 array attribute's values. */
export function arrayAttr(op: Operation, name: string): number[] {
  const a = op.getAttr(name);
  if (!(a instanceof DenseArrayAttr)) return fail(`missing array attribute '${name}'`);
  return [...a.values];
}

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

function resultShape(op: Operation, k = 0): number[] {
  return shapeOfType(op.result(k).type);
}

const makeRange: OpImpl = (op) => {
  const start = intAttr(op, 'start');
  const end = intAttr(op, 'end');
  const out = new Int32Array(end - start);
  for (let k = 0; k < out.length; k++) out[k] = start + k;
  return [tensor(resultShape(op), elementOf(op.result(0).type), out)];
};

const splat: OpImpl = (op, ins) => [gather(asTensor(ins[0]), resultShape(op), () => 0)];

const broadcast: OpImpl = (op, ins) => {
  const src = asTensor(ins[0]);
  const shape = resultShape(op);
  const st = stridesOf(src.shape);
  const strides = shape.map((d, k) => (src.shape[k] === 1 && d !== 1 ? 0 : st[k]));
  return [tensor(shape, src.elt, stridedCopy(src.data, src.elt, shape, strides))];
};

/** Same data, new shape (expand_dims, reshape, convert_layout-like views). */
const reshapeLike: OpImpl = (op, ins) => {
  const src = asTensor(ins[0]);
  return [tensor(resultShape(op), src.elt, src.data)];
};

const trans: OpImpl = (op, ins) => {
  const src = asTensor(ins[0]);
  const order = arrayAttr(op, 'order');
  const st = stridesOf(src.shape);
  const shape = order.map((d) => src.shape[d]);
  return [tensor(shape, src.elt, stridedCopy(src.data, src.elt, shape, order.map((d) => st[d])))];
};

const cat: OpImpl = (op, ins) => {
  const a = asTensor(ins[0]);
  const b = asTensor(ins[1]);
  const out = allocData(a.elt, a.data.length + b.data.length);
  for (let k = 0; k < a.data.length; k++) copyElt(out, k, a.data, k);
  for (let k = 0; k < b.data.length; k++) copyElt(out, a.data.length + k, b.data, k);
  return [tensor(resultShape(op), a.elt, out)];
};

const join: OpImpl = (op, ins) => {
  const a = asTensor(ins[0]);
  const b = asTensor(ins[1]);
  const n = a.data.length;
  const out = allocData(a.elt, 2 * n);
  for (let k = 0; k < n; k++) {
    copyElt(out, 2 * k, a.data, k);
    copyElt(out, 2 * k + 1, b.data, k);
  }
  return [tensor(resultShape(op), a.elt, out)];
};

const split: OpImpl = (op, ins) => {
  const src = asTensor(ins[0]);
  const shape = resultShape(op);
  return [gather(src, shape, (k) => 2 * k), gather(src, shape, (k) => 2 * k + 1)];
};

/** tt.gather: result[i] = src[i with the `axis` coordinate replaced by indices[i]]. */
const gatherOp: OpImpl = (op, ins) => {
  const src = asTensor(ins[0]);
  const ind = asTensor(ins[1]);
  const axis = intAttr(op, 'axis');
  const shape = resultShape(op);
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
};

/** tt.histogram: counts of each value in [0, bins) (values outside are ignored; masked-off lanes too). */
const histogram: OpImpl = (op, ins) => {
  const src = asTensor(ins[0]).data as Int32Array | BigInt64Array;
  const mask = ins[1] ? (asTensor(ins[1]).data as Int32Array) : null;
  const shape = resultShape(op);
  const out = allocData(elementOf(op.result(0).type), shape[0]);
  for (let k = 0; k < src.length; k++) {
    if (mask && !mask[mask.length === 1 ? 0 : k]) continue;
    const v = Number(src[k]);
    if (v < 0 || v >= shape[0]) continue;
    if (out instanceof BigInt64Array) out[v] += 1n;
    else (out as Int32Array)[v] += 1;
  }
  return [tensor(shape, elementOf(op.result(0).type), out)];
};

const programId: OpImpl = (op, _ins, it) => [tensor([], op.result(0).type, Int32Array.of(it.pid[intAttr(op, 'axis')]))];
const numPrograms: OpImpl = (op, _ins, it) => [tensor([], op.result(0).type, Int32Array.of(it.grid[intAttr(op, 'axis')]))];

/** The shape op table. */
export const shapeOps: Record<string, OpImpl> = {
  'tt.make_range': makeRange,
  'tt.splat': splat,
  'tt.unsplat': (op, ins) => [gather(asTensor(ins[0]), [], () => 0)],
  'tt.broadcast': broadcast,
  'tt.expand_dims': reshapeLike,
  'tt.reshape': reshapeLike,
  'tt.trans': trans,
  'tt.cat': cat,
  'tt.join': join,
  'tt.split': split,
  'tt.gather': gatherOp,
  'tt.histogram': histogram,
  'tt.get_program_id': programId,
  'tt.get_num_programs': numPrograms,
  'ttg.convert_layout': reshapeLike,
};
