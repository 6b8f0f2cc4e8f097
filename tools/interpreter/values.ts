/**
 * Runtime values of the interpreter. Every SSA value of tensor or scalar type is a `Tensor`
 * (scalars have shape `[]`): integers of width <= 32 in an Int32Array (sign-normalized to their
 * width; i1 as 0/1), i64/index in a BigInt64Array, floats in a Float64Array holding values
 * already rounded to the element type, pointers as (buffer id, element offset) pairs.
 * Tensor data is never mutated after creation, so views may share it.
 */
import { FloatType, IndexType, IntegerType, RankedTensorType, type Type } from '../../ir/types.js';
import { PointerType } from '../../dialects/tt/types.js';

/** Pointer lanes: which buffer, and the offset in elements of the pointee type. */
export class PtrData {
  constructor(readonly buf: Int32Array, readonly off: Float64Array) {}
  get length(): number {
    return this.buf.length;
  }
}

/** Storage of a tensor's elements. */
export type Data = Int32Array | BigInt64Array | Float64Array | PtrData;

/** How the elements of a type are represented. */
export type EltClass =
  | { k: 'int'; width: number }
  | { k: 'i64' }
  | { k: 'float'; kind: string }
  | { k: 'ptr'; pointee: Type };

/** A tensor (or a scalar, with shape []). */
export interface Tensor {
  kind: 'tensor';
  shape: readonly number[];
  elt: Type;
  data: Data;
}

/** A shared-memory descriptor (`!ttg.memdesc`): a strided view into a mutable store. */
export interface MemDescValue {
  kind: 'memdesc';
  elt: Type;
  store: Data;
  shape: readonly number[];
  strides: readonly number[];
  offset: number;
}

/**
 * A tensor descriptor (`!tt.tensordesc`, as Triton passes a host-side TensorDescriptor): a tensor
 * of `shape` with element `strides` at element `base` of buffer `buf`, read and written in blocks;
 * block elements outside the tensor read as zeros and are not written.
 */
export interface DescValue {
  kind: 'desc';
  buf: number;
  base: number;
  elt: Type;
  shape: readonly number[];
  strides: readonly number[];
}

/** An async token (`!ttg.async.token`): carries nothing. */
export interface TokenValue {
  kind: 'token';
}

/** Any runtime value. */
export type RtValue = Tensor | MemDescValue | TokenValue | DescValue;

/** The element class of a (scalar or element) type. */
export function eltClass(t: Type): EltClass {
  if (t instanceof IntegerType) return t.width <= 32 ? { k: 'int', width: t.width } : t.width === 64 ? { k: 'i64' } : unsupported(t);
  if (t instanceof IndexType) return { k: 'i64' };
  if (t instanceof FloatType) return { k: 'float', kind: t.kind };
  if (t instanceof PointerType) return { k: 'ptr', pointee: t.pointee };
  return unsupported(t);
}

function unsupported(t: Type): never {
  throw new Error(`interpreter: element type '${t}' is not supported`);
}

/** The element type of a tensor type, or the type itself for scalars. */
export function elementOf(t: Type): Type {
  return t instanceof RankedTensorType ? t.elementType : t;
}

/** The shape of a tensor type ([] for scalars). */
export function shapeOfType(t: Type): number[] {
  return t instanceof RankedTensorType ? [...t.shape] : [];
}

/** Number of elements of a shape. */
export function numel(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

/** Row-major strides of a shape. */
export function stridesOf(shape: readonly number[]): number[] {
  const s = new Array<number>(shape.length);
  let acc = 1;
  for (let k = shape.length - 1; k >= 0; k--) {
    s[k] = acc;
    acc *= shape[k];
  }
  return s;
}

/** Allocates zeroed storage for `n` elements of type `elt`. */
export function allocData(elt: Type, n: number): Data {
  const c = eltClass(elt);
  if (c.k === 'int') return new Int32Array(n);
  if (c.k === 'i64') return new BigInt64Array(n);
  if (c.k === 'float') return new Float64Array(n);
  return new PtrData(new Int32Array(n), new Float64Array(n));
}

/** A tensor of `shape` and element type `elt` over `data`. */
export function tensor(shape: readonly number[], elt: Type, data: Data): Tensor {
  return { kind: 'tensor', shape, elt, data };
}

/** A fresh zero tensor of the given shape/element type. */
export function zeros(shape: readonly number[], elt: Type): Tensor {
  return tensor(shape, elt, allocData(elt, numel(shape)));
}

/** A zero-initialized tensor for a (tensor or scalar) type. */
export function zerosOfType(t: Type): Tensor {
  return zeros(shapeOfType(t), elementOf(t));
}

/** Copies element `from` of `src` into element `to` of `dst` (same representation). */
export function copyElt(dst: Data, to: number, src: Data, from: number): void {
  if (dst instanceof PtrData) {
    const s = src as PtrData;
    dst.buf[to] = s.buf[from];
    dst.off[to] = s.off[from];
    return;
  }
  (dst as Float64Array)[to] = (src as Float64Array)[from];
}

/** The coordinates of element `k` of a row-major tensor of `shape`. */
export function coordsOf(k: number, shape: readonly number[]): number[] {
  const out = new Array<number>(shape.length);
  let rem = k;
  for (let d = shape.length - 1; d >= 0; d--) {
    out[d] = rem % shape[d];
    rem = Math.floor(rem / shape[d]);
  }
  return out;
}

/** Builds a tensor whose element k is element `index(k)` of `src` (gathers; any shape). */
export function gather(src: Tensor, shape: readonly number[], index: (k: number) => number): Tensor {
  const n = numel(shape);
  const out = allocData(src.elt, n);
  for (let k = 0; k < n; k++) copyElt(out, k, src.data, index(k));
  return tensor(shape, src.elt, out);
}

/** Wraps an integer (a double holding an exact integer) to a signed width <= 32 (i1 to 0/1). */
export function wrapInt(v: number, width: number): number {
  if (width === 32) return v | 0;
  if (width === 1) return v & 1;
  const s = 32 - width;
  return ((v | 0) << s) >> s;
}

/** The signed value of a stored integer of width <= 32 (i1 true is -1). */
export function signedOf(v: number, width: number): number {
  return width === 1 ? -v : v;
}

/** The unsigned value of a stored integer of width <= 32. */
export function unsignedOf(v: number, width: number): number {
  if (width === 32) return v >>> 0;
  if (width === 1) return v;
  return v & ((1 << width) - 1);
}

/** Reads element k as a JS value: number (ints <= 32 bits, floats), bigint (i64) or a pointer. */
export function readElt(d: Data, k: number): number | bigint | { buf: number; off: number } {
  if (d instanceof PtrData) return { buf: d.buf[k], off: d.off[k] };
  return d[k];
}

/** A scalar (0-d) tensor of an integer type (<= 32 bits). */
export function intScalar(v: number, t: Type): Tensor {
  const c = eltClass(t);
  if (c.k === 'i64') return tensor([], t, BigInt64Array.of(BigInt(v)));
  if (c.k !== 'int') throw new Error(`interpreter: internal error: intScalar of '${t}'`);
  return tensor([], t, Int32Array.of(wrapInt(v, c.width)));
}

/** The first element of a scalar value as a number (ints, floats; i64 converted). */
export function scalarNumber(t: RtValue): number {
  if (t.kind !== 'tensor') throw new Error('interpreter: internal error: expected a scalar');
  const d = t.data;
  if (d instanceof PtrData) throw new Error('interpreter: internal error: expected a numeric scalar');
  return Number(d[0]);
}

/** Expects a tensor value (not a memdesc or token). */
export function asTensor(v: RtValue | undefined): Tensor {
  if (!v || v.kind !== 'tensor') throw new Error(`interpreter: internal error: expected a tensor value, got ${v?.kind ?? 'nothing'}`);
  return v;
}
