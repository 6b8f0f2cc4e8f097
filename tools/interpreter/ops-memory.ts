/**
 * Global-memory ops: addptr, load, store, atomics, pointer/int casts. Masked-off lanes never
 * touch memory; any other out-of-bounds or mistyped access is an error naming the lane.
 */
import type { Value } from '../../ir/ir.js';
import { FloatType, IntegerType, type Type } from '../../ir/types.js';
import { PointerType, TensorDescType } from '../../dialects/tt/types.js';
import * as tt from '../../dialects/tt/index.js';
import { DescriptorReduceKind } from '../../dialects/tt/enums.js';
import type { Interpreter } from './interpreter.js';
import { impl, type OpEntry } from './op-impl.js';
import { fail } from './errors.js';
import type { Buffer } from './memory.js';
import { rounderFor } from './floats.js';
import { type DescValue, PtrData, type RtValue, type Tensor, allocData, asTensor, coordsOf, elementOf, readElt, scalarNumber, shapeOfType, tensor, unsignedOf, wrapInt } from './values.js';

/** The runtime value of an optional operand (undefined when it is absent). */
export function optional(it: Interpreter, v: Value | undefined): RtValue | undefined {
  return v && it.get(v);
}

/** Multi-index text of flat lane `k` in `shape` (`[3, 7]`, or `scalar`). */
export function laneText(k: number, shape: readonly number[]): string {
  if (shape.length === 0) return 'scalar';
  return `[${coordsOf(k, shape).join(', ')}]`;
}

/** Resolves lane `k` of a pointer tensor to a checked (buffer, element index). */
function resolve(it: Interpreter, ptr: Tensor, k: number, what: string): [Buffer, number] {
  const p = ptr.data as PtrData;
  const id = p.buf[k];
  const off = p.off[k];
  const b = it.memory.buffers[id];
  const lane = laneText(k, ptr.shape);
  if (!b) fail(`${what} through an invalid pointer (buffer id ${id}) at lane ${lane}`);
  const pointee = (ptr.elt as PointerType).pointee;
  if (pointee !== b.elt) fail(`${what} of '${pointee}' from buffer #${b.id} '${b.name}' which holds '${b.elt}' elements (lane ${lane})`);
  if (!Number.isInteger(off) || off < 0 || off >= b.length) {
    fail(`out-of-bounds ${what}: lane ${lane} accesses element ${off} of buffer #${b.id} '${b.name}' (${b.length} x ${b.elt}; valid 0..${b.length - 1})`);
  }
  return [b, off];
}

/** Whether lane k is enabled by an optional i1 mask (scalar masks apply to every lane). */
function enabled(mask: Int32Array | null, k: number): boolean {
  return mask === null || mask[mask.length === 1 ? 0 : k] !== 0;
}

function maskOf(v: RtValue | undefined): Int32Array | null {
  return v ? (asTensor(v).data as Int32Array) : null;
}

/** Loads lanes through pointers (used by tt.load and ttg.async_copy_global_to_local). */
export function loadLanes(it: Interpreter, ptr: Tensor, mask: RtValue | undefined, other: RtValue | undefined, resultType: Type): Tensor {
  if (!(ptr.data instanceof PtrData)) return fail('block pointers (tt.make_tensor_ptr) are not supported by the interpreter');
  const elt = elementOf(resultType);
  const n = ptr.data.length;
  const out = allocData(elt, n);
  const m = maskOf(mask);
  const o = other ? asTensor(other).data : null;
  for (let k = 0; k < n; k++) {
    if (!enabled(m, k)) {
      if (o) (out as Float64Array)[k] = (o as Float64Array)[o.length === 1 ? 0 : k];
      continue;
    }
    const [b, off] = resolve(it, ptr, k, 'load');
    (out as Float64Array)[k] = b.get(off) as number;
  }
  return tensor(shapeOfType(resultType), elt, out);
}

const load = impl(tt.LoadOp, (load, it) => {
  const ptr = asTensor(it.get(load.ptr));
  return [loadLanes(it, ptr, optional(it, load.mask), optional(it, load.other), load.result.type)];
});

const store = impl(tt.StoreOp, (store, it) => {
  const ptr = asTensor(it.get(store.ptr));
  if (!(ptr.data instanceof PtrData)) return fail('block pointers (tt.make_tensor_ptr) are not supported by the interpreter');
  const val = asTensor(it.get(store.value)).data;
  const m = maskOf(optional(it, store.mask));
  for (let k = 0; k < ptr.data.length; k++) {
    if (!enabled(m, k)) continue;
    const [b, off] = resolve(it, ptr, k, 'store');
    b.set(off, (val as Float64Array)[val.length === 1 ? 0 : k]);
  }
  return [];
});

/** The tensor descriptor `v` holds. */
export function descriptor(it: Interpreter, v: Value): DescValue {
  const d = it.get(v);
  if (d.kind !== 'desc') return fail(`expected a tensor descriptor, got ${d.kind}`);
  return d;
}

/**
 * Calls `visit(k, element)` for each element k (row-major) of the block of `shape` at `coords`
 * in the descriptor's tensor: `element` is its index in the buffer, or null outside the tensor.
 */
function forEachBlockElement(it: Interpreter, d: DescValue, coords: readonly number[], shape: readonly number[], visit: (k: number, element: number | null) => void): void {
  // a block of fewer dims than the tensor (a 2-d tile of a [1, 1, 64, 64] box) has 1s before them
  const blockShape = coords.length > shape.length ? [...new Array<number>(coords.length - shape.length).fill(1), ...shape] : shape;
  const b = it.memory.buffers[d.buf];
  if (!b) fail(`descriptor of an invalid buffer (id ${d.buf})`);
  const n = blockShape.reduce((a, x) => a * x, 1);
  const idx = new Array<number>(blockShape.length).fill(0);
  for (let k = 0; k < n; k++) {
    let rem = k;
    for (let j = blockShape.length - 1; j >= 0; j--) {
      idx[j] = rem % blockShape[j];
      rem = Math.floor(rem / blockShape[j]);
    }
    let off = d.base;
    let inside = true;
    for (let j = 0; j < idx.length; j++) {
      const x = coords[j] + idx[j];
      if (x < 0 || x >= d.shape[j]) inside = false;
      off += x * d.strides[j];
    }
    if (inside && (off < 0 || off >= b.length)) {
      fail(`descriptor block element ${laneText(k, blockShape)} at ${idx.map((x, j) => coords[j] + x).join(', ')} is inside the tensor (${d.shape.join('x')}) but element ${off} of buffer #${b.id} '${b.name}' (${b.length} elements): the descriptor's shape or strides do not fit its buffer`);
    }
    visit(k, inside ? off : null);
  }
}

/** The block of `blockType`'s shape at `coords` (zeros outside the tensor), as a tensor of type `blockType`. */
export function readBlock(it: Interpreter, d: DescValue, coords: readonly number[], blockType: Type): Tensor {
  const shape = shapeOfType(blockType);
  const elt = elementOf(blockType);
  const out = allocData(elt, shape.reduce((a, x) => a * x, 1));
  const b = it.memory.buffers[d.buf];
  forEachBlockElement(it, d, coords, shape, (k, e) => {
    if (e !== null) (out as Float64Array)[k] = b.get(e) as number;
  });
  return tensor(shape, elt, out);
}

/** Writes the elements of `block` that fall inside the descriptor's tensor, at `coords`. */
export function writeBlock(it: Interpreter, d: DescValue, coords: readonly number[], block: Tensor): void {
  const b = it.memory.buffers[d.buf];
  forEachBlockElement(it, d, coords, block.shape, (k, e) => {
    if (e !== null) b.set(e, (block.data as Float64Array)[k]);
  });
}

/** `old` combined with `v` by reduction `kind` (DescriptorReduceKind's names) in element type `elt`, as TMA reduces. */
function reduceElement(kind: string, old: number | bigint, v: number | bigint, elt: Type): number | bigint {
  if (elt instanceof FloatType) {
    const round = rounderFor(elt.kind);
    const [a, b] = [old as number, v as number];
    if (kind === 'add') return round(a + b);
    if (kind === 'min') return Math.min(a, b);
    if (kind === 'max') return Math.max(a, b);
    return fail(`descriptor reduce '${kind}' of float elements`);
  }
  const width = elt instanceof IntegerType ? elt.width : 32;
  const unsigned = elt instanceof IntegerType && elt.signedness === 'unsigned';
  if (typeof old === 'bigint' || typeof v === 'bigint') {
    const [a, b] = [BigInt(old), BigInt(v)];
    const key = (x: bigint): bigint => (unsigned ? BigInt.asUintN(64, x) : x);
    const ops: Record<string, () => bigint> = {
      add: () => a + b, min: () => (key(a) < key(b) ? a : b), max: () => (key(a) > key(b) ? a : b),
      and: () => a & b, or: () => a | b, xor: () => a ^ b,
    };
    return ops[kind] ? BigInt.asIntN(64, ops[kind]()) : fail(`descriptor reduce '${kind}' of 64-bit elements`);
  }
  const [a, b] = [old as number, v as number];
  const [ua, ub] = [unsignedOf(a, width), unsignedOf(b, width)];
  const ops: Record<string, () => number> = {
    add: () => a + b, min: () => (unsigned ? Math.min(ua, ub) : Math.min(a, b)), max: () => (unsigned ? Math.max(ua, ub) : Math.max(a, b)),
    and: () => a & b, or: () => a | b, xor: () => a ^ b,
    // PTX's wrapping increment and decrement on unsigned values
    inc: () => (ua >= ub ? 0 : ua + 1), dec: () => (ua === 0 || ua > ub ? ub : ua - 1),
  };
  return wrapInt(ops[kind](), width);
}

/** Reduces the elements of `block` that fall inside the descriptor's tensor into it with `kind`, at `coords`. */
export function reduceBlock(it: Interpreter, d: DescValue, coords: readonly number[], block: Tensor, kind: string): void {
  const b = it.memory.buffers[d.buf];
  forEachBlockElement(it, d, coords, block.shape, (k, e) => {
    if (e !== null) b.set(e, reduceElement(kind, b.get(e), readElt(block.data, k) as number | bigint, d.elt));
  });
}

const descriptorReduce = impl(tt.DescriptorReduceOp, (red, it) => {
  reduceBlock(it, descriptor(it, red.desc), indices(it, red.indices), asTensor(it.get(red.src)), DescriptorReduceKind.nameOf(red.op.getAttr('kind')!));
  return [];
});

/** The integer values of index operands. */
export const indices = (it: Interpreter, vs: readonly Value[]): number[] => vs.map((v) => Number((asTensor(it.get(v)).data as Int32Array)[0]));

const descriptorLoad = impl(tt.DescriptorLoadOp, (load, it) => [readBlock(it, descriptor(it, load.desc), indices(it, load.indices), load.result.type)]);

/** tt.make_tensor_descriptor %p, [shape], [strides]: the tensor of that shape and element strides at %p. */
const makeDescriptor = impl(tt.MakeTensorDescriptorOp, (make, it) => {
  const rank = (make.result.type as TensorDescType).blockType.rank;
  const base = readElt(asTensor(it.get(make.base)).data, 0);
  if (typeof base !== 'object') return fail('tt.make_tensor_descriptor of a value that is not a pointer');
  const ints = make.rest.map((v) => scalarNumber(it.get(v)));
  const desc: DescValue = { kind: 'desc', buf: base.buf, base: base.off, elt: (make.base.type as PointerType).pointee, shape: ints.slice(0, rank), strides: ints.slice(rank) };
  return [desc];
});

const descriptorStore = impl(tt.DescriptorStoreOp, (store, it) => {
  writeBlock(it, descriptor(it, store.desc), indices(it, store.indices), asTensor(it.get(store.src)));
  return [];
});

const addptr = impl(tt.AddptrOp, (op, it) => {
  const p = asTensor(it.get(op.ptr));
  const pd = p.data as PtrData;
  const offs = asTensor(it.get(op.offset)).data as Int32Array | BigInt64Array;
  const n = pd.length;
  const out = new PtrData(new Int32Array(n), new Float64Array(n));
  for (let k = 0; k < n; k++) {
    out.buf[k] = pd.buf[k];
    out.off[k] = pd.off[k] + Number(offs[k]);
  }
  return [tensor(p.shape, p.elt, out)];
});

/** Size in bytes of an element type (pointers are 8 bytes). */
export function byteSize(t: Type): number {
  if (t instanceof PointerType) return 8;
  if (t instanceof FloatType) return Math.ceil(t.width / 8);
  if (t instanceof IntegerType) return Math.max(1, Math.ceil(t.width / 8));
  return fail(`no byte size for '${t}'`);
}

/** Pointers as integers: (buffer id + 1) * 2^40 + byte offset. */
const ADDRESS_SPACE = 2 ** 40;

const ptrToInt = impl(tt.PtrToIntOp, (op, it) => {
  const p = asTensor(it.get(op.src));
  const pd = p.data as PtrData;
  const size = byteSize((p.elt as PointerType).pointee);
  const out = new BigInt64Array(pd.length);
  for (let k = 0; k < pd.length; k++) out[k] = BigInt((pd.buf[k] + 1) * ADDRESS_SPACE + pd.off[k] * size);
  return [tensor(p.shape, elementOf(op.result.type), out)];
});

const intToPtr = impl(tt.IntToPtrOp, (op, it) => {
  const d = asTensor(it.get(op.src)).data as BigInt64Array;
  const elt = elementOf(op.result.type) as PointerType;
  const size = byteSize(elt.pointee);
  const out = new PtrData(new Int32Array(d.length), new Float64Array(d.length));
  for (let k = 0; k < d.length; k++) {
    const a = Number(d[k]);
    out.buf[k] = Math.floor(a / ADDRESS_SPACE) - 1;
    out.off[k] = (a % ADDRESS_SPACE) / size;
  }
  return [tensor(shapeOfType(op.result.type), elt, out)];
});

type Rmw = (old: number | bigint, v: number | bigint, elt: Type) => number | bigint;
const width = (t: Type): number => (t instanceof IntegerType ? t.width : 64);
const uns = (v: number | bigint, t: Type): number | bigint => (typeof v === 'bigint' ? BigInt.asUintN(64, v) : unsignedOf(v, width(t)));
const wrapTo = (v: number | bigint, t: Type): number | bigint =>
  typeof v === 'bigint' ? BigInt.asIntN(64, v) : t instanceof IntegerType ? (width(t) === 32 ? v | 0 : ((v << (32 - width(t))) >> (32 - width(t)))) : v;

const RMW: Record<string, Rmw> = {
  and: (a, b, t) => wrapTo((a as number) & (b as number), t),
  or: (a, b, t) => wrapTo((a as number) | (b as number), t),
  xor: (a, b, t) => wrapTo((a as number) ^ (b as number), t),
  add: (a, b, t) => (t instanceof FloatType ? rounderFor(t.kind)((a as number) + (b as number)) : wrapTo((a as number) + (b as number), t)),
  fadd: (a, b, t) => rounderFor((t as FloatType).kind)((a as number) + (b as number)),
  max: (a, b) => (a >= b ? a : b),
  min: (a, b) => (a <= b ? a : b),
  umax: (a, b, t) => (uns(a, t) >= uns(b, t) ? a : b),
  umin: (a, b, t) => (uns(a, t) <= uns(b, t) ? a : b),
  exch: (_a, b) => b,
};

const atomicRmw = impl(tt.AtomicRmwOp, (op, it) => {
  const kind = op.atomic_rmw_op;
  const f = RMW[kind] ?? fail(`unsupported atomic op '${kind}'`);
  const ptr = asTensor(it.get(op.ptr));
  const val = asTensor(it.get(op.val)).data;
  const m = maskOf(optional(it, op.mask));
  const elt = elementOf(op.result.type);
  const out = allocData(elt, ptr.data.length);
  for (let k = 0; k < ptr.data.length; k++) {
    if (!enabled(m, k)) continue;
    const [b, off] = resolve(it, ptr, k, 'atomic_rmw');
    const old = b.get(off);
    const v = (val as Float64Array)[k] as number | bigint;
    // bigint/number mixing is avoided: both come from the same element representation.
    b.set(off, kind === 'and' || kind === 'or' || kind === 'xor' ? bitwise(kind, old, v, elt) : f(old, v, elt));
    (out as Float64Array)[k] = old as number;
  }
  return [tensor(shapeOfType(op.result.type), elt, out)];
});

function bitwise(kind: string, a: number | bigint, b: number | bigint, t: Type): number | bigint {
  if (typeof a === 'bigint') {
    const y = b as bigint;
    return BigInt.asIntN(64, kind === 'and' ? a & y : kind === 'or' ? a | y : a ^ y);
  }
  return RMW[kind](a, b, t);
}

const atomicCas = impl(tt.AtomicCasOp, (op, it) => {
  const ptr = asTensor(it.get(op.ptr));
  const cmp = asTensor(it.get(op.cmp)).data;
  const val = asTensor(it.get(op.val)).data;
  const elt = elementOf(op.result.type);
  const out = allocData(elt, ptr.data.length);
  for (let k = 0; k < ptr.data.length; k++) {
    const [b, off] = resolve(it, ptr, k, 'atomic_cas');
    const old = b.get(off);
    if (old === (cmp as Float64Array)[k]) b.set(off, (val as Float64Array)[k]);
    (out as Float64Array)[k] = old as number;
  }
  return [tensor(shapeOfType(op.result.type), elt, out)];
});

/** The global-memory op table. */
export const memoryOps: OpEntry[] = [addptr, load, store, makeDescriptor, descriptorLoad, descriptorStore, descriptorReduce, atomicRmw, atomicCas, ptrToInt, intToPtr];
