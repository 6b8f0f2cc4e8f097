/**
 * Elementwise building blocks shared by the arith, math and tt op tables: integer ops wrap to
 * their width, float ops round to their element type after every operation.
 */
import type { Operation } from '../../ir/ir.js';
import type { Interpreter } from './interpreter.js';
import type { OpImpl } from './op-impl.js';
import { fail } from './errors.js';
import { rounderFor } from './floats.js';
import { type RtValue, type Tensor, allocData, asTensor, eltClass, elementOf, shapeOfType, tensor, wrapInt } from './values.js';

/** Integer op on numbers (widths <= 32; the result is wrapped afterwards) and on bigints (i64; wrapped afterwards). */
export interface IntFn {
  num: (a: number, b: number, width: number) => number;
  big: (a: bigint, b: bigint) => bigint;
}

/** Operand `k` of an elementwise op as a tensor (the ops of a family share one implementation, so operands are read in order). */
export function nth(op: Operation, it: Interpreter, k: number): Tensor {
  return asTensor(it.get(op.operands[k].value));
}

/** The result tensor type pieces of op result `k`. */
function resultShape(op: Operation, k = 0): { shape: number[]; elt: ReturnType<typeof elementOf> } {
  const t = op.result(k).type;
  return { shape: shapeOfType(t), elt: elementOf(t) };
}

/** An integer binary op (same shapes), wrapping results to the element width. */
export function intBinary(f: IntFn): OpImpl {
  return (op, it) => {
    const a = nth(op, it, 0);
    const b = nth(op, it, 1);
    const { shape, elt } = resultShape(op);
    const c = eltClass(elt);
    const n = a.data.length;
    if (c.k === 'i64') {
      const x = a.data as BigInt64Array;
      const y = b.data as BigInt64Array;
      const out = new BigInt64Array(n);
      for (let k = 0; k < n; k++) out[k] = BigInt.asIntN(64, f.big(x[k], y[k]));
      return [tensor(shape, elt, out)];
    }
    if (c.k !== 'int') fail(`expected integer operands, got '${elt}'`);
    const w = c.width;
    const x = a.data as Int32Array;
    const y = b.data as Int32Array;
    const out = new Int32Array(n);
    for (let k = 0; k < n; k++) out[k] = wrapInt(f.num(x[k], y[k], w), w);
    return [tensor(shape, elt, out)];
  };
}

/** A float binary op computed in double precision, then rounded to the element type. */
export function floatBinary(fn: (a: number, b: number) => number): OpImpl {
  return (op, it) => {
    const a = nth(op, it, 0).data as Float64Array;
    const b = nth(op, it, 1).data as Float64Array;
    const { shape, elt } = resultShape(op);
    const rnd = floatRounder(elt);
    const out = new Float64Array(a.length);
    for (let k = 0; k < a.length; k++) out[k] = rnd(fn(a[k], b[k]));
    return [tensor(shape, elt, out)];
  };
}

/** A float ternary op (fma, clamp), rounded once. */
export function floatTernary(fn: (a: number, b: number, c: number) => number): OpImpl {
  return (op, it) => {
    const a = nth(op, it, 0).data as Float64Array;
    const b = nth(op, it, 1).data as Float64Array;
    const c = nth(op, it, 2).data as Float64Array;
    const { shape, elt } = resultShape(op);
    const rnd = floatRounder(elt);
    const out = new Float64Array(a.length);
    for (let k = 0; k < a.length; k++) out[k] = rnd(fn(a[k], b[k], c[k]));
    return [tensor(shape, elt, out)];
  };
}

/** A float unary op computed in double precision, then rounded. */
export function floatUnary(fn: (a: number) => number): OpImpl {
  return (op, it) => {
    const a = nth(op, it, 0).data as Float64Array;
    const { shape, elt } = resultShape(op);
    const rnd = floatRounder(elt);
    const out = new Float64Array(a.length);
    for (let k = 0; k < a.length; k++) out[k] = rnd(fn(a[k]));
    return [tensor(shape, elt, out)];
  };
}

/** A float predicate producing i1 (0/1). */
export function floatPredicate(fn: (a: number) => boolean): OpImpl {
  return (op, it) => {
    const a = nth(op, it, 0).data as Float64Array;
    const { shape, elt } = resultShape(op);
    const out = new Int32Array(a.length);
    for (let k = 0; k < a.length; k++) out[k] = fn(a[k]) ? 1 : 0;
    return [tensor(shape, elt, out)];
  };
}

/** An integer unary op (on the stored value and width; bigint for i64). */
export function intUnary(num: (a: number, w: number) => number, big: (a: bigint) => bigint): OpImpl {
  return (op, it) => {
    const a = nth(op, it, 0);
    const { shape, elt } = resultShape(op);
    const c = eltClass(elt);
    if (c.k === 'i64') {
      const x = a.data as BigInt64Array;
      return [tensor(shape, elt, x.map((v) => BigInt.asIntN(64, big(v))))];
    }
    if (c.k !== 'int') fail(`expected an integer operand, got '${elt}'`);
    const x = a.data as Int32Array;
    const out = new Int32Array(x.length);
    for (let k = 0; k < x.length; k++) out[k] = wrapInt(num(x[k], c.width), c.width);
    return [tensor(shape, elt, out)];
  };
}

/** The rounding function of a float element type. */
export function floatRounder(elt: ReturnType<typeof elementOf>): (v: number) => number {
  const c = eltClass(elt);
  if (c.k !== 'float') fail(`expected a float type, got '${elt}'`);
  return rounderFor(c.kind);
}

/** A tensor of the op's result type whose elements come from `fn(k)` (numbers for ints/floats; bigint for i64). */
export function fromFunction(op: Operation, k: number, fn: (k: number) => number | bigint): Tensor {
  const { shape, elt } = resultShape(op, k);
  const n = shape.reduce((a, b) => a * b, 1);
  const data = allocData(elt, n);
  const c = eltClass(elt);
  for (let j = 0; j < n; j++) {
    const v = fn(j);
    if (c.k === 'int') (data as Int32Array)[j] = wrapInt(typeof v === 'bigint' ? Number(BigInt.asIntN(32, v)) : v, c.width);
    else if (c.k === 'i64') (data as BigInt64Array)[j] = BigInt.asIntN(64, BigInt(v));
    else (data as Float64Array)[j] = v as number;
  }
  return tensor(shape, elt, data);
}

/** The i-th value as a bigint (any integer representation). */
export function bigAt(t: RtValue, k: number): bigint {
  const d = asTensor(t).data;
  return d instanceof BigInt64Array ? d[k] : BigInt((d as Int32Array)[k]);
}
