/**
 * ttg / ttng ops with layouts treated as annotations: shared memory (`!ttg.memdesc`) is a strided
 * view of a per-allocation store; async copies complete immediately, so tokens and waits are no-ops.
 */
import type { Operation } from '../../ir/ir.js';
import { RankedTensorType } from '../../ir/types.js';
import { MemDescType } from '../../dialects/ttg/types.js';
import type { OpImpl } from './interpreter.js';
import { fail } from './errors.js';
import { dotProduct } from './ops-compute.js';
import { group, loadLanes } from './ops-memory.js';
import { arrayAttr, stridedCopy, stridedWrite } from './ops-shape.js';
import { type MemDescValue, type RtValue, type Tensor, allocData, asTensor, numel, shapeOfType, stridesOf, tensor, zeros } from './values.js';

const TOKEN: RtValue = { kind: 'token' };

function memdesc(v: RtValue | undefined): MemDescValue {
  if (!v || v.kind !== 'memdesc') return fail(`expected a shared-memory descriptor, got ${v?.kind ?? 'nothing'}`);
  return v;
}

function memdescType(op: Operation, k = 0): MemDescType {
  const t = op.result(k).type;
  return t instanceof MemDescType ? t : fail(`expected a memdesc result, got '${t}'`);
}

/** Reads a memdesc view into a row-major tensor. */
export function readView(m: MemDescValue): Tensor {
  return tensor(m.shape, m.elt, stridedCopy(m.store, m.elt, m.shape, m.strides, m.offset));
}

function writeView(m: MemDescValue, src: Tensor): void {
  if (numel(m.shape) !== src.data.length) fail(`shape mismatch writing ${src.data.length} elements into a ${m.shape.join('x')} buffer`);
  stridedWrite(m.store, m.shape, m.strides, m.offset, src.data);
}

const localAlloc: OpImpl = (op, ins) => {
  const t = memdescType(op);
  const shape = [...t.shape];
  const m: MemDescValue = { kind: 'memdesc', elt: t.elementType, store: allocData(t.elementType, numel(shape)), shape, strides: stridesOf(shape), offset: 0 };
  if (ins[0]) writeView(m, asTensor(ins[0]));
  return [m];
};

const memdescIndex: OpImpl = (op, ins) => {
  const m = memdesc(ins[0]);
  const i = Number((asTensor(ins[1]).data as Int32Array)[0]);
  if (i < 0 || i >= m.shape[0]) fail(`index ${i} out of range [0, ${m.shape[0]})`);
  return [{ ...m, shape: m.shape.slice(1), strides: m.strides.slice(1), offset: m.offset + i * m.strides[0] }];
};

const memdescSubslice: OpImpl = (op, ins) => {
  const m = memdesc(ins[0]);
  const offs = arrayAttr(op, 'offsets');
  const shape = [...memdescType(op).shape];
  offs.forEach((o, d) => {
    if (o < 0 || o + shape[d] > m.shape[d]) fail(`subslice [${o}, ${o + shape[d]}) out of range along dim ${d} (size ${m.shape[d]})`);
  });
  return [{ ...m, shape, offset: m.offset + offs.reduce((a, o, d) => a + o * m.strides[d], 0) }];
};

const memdescTrans: OpImpl = (op, ins) => {
  const m = memdesc(ins[0]);
  const order = arrayAttr(op, 'order');
  return [{ ...m, shape: order.map((d) => m.shape[d]), strides: order.map((d) => m.strides[d]) }];
};

const memdescReshape: OpImpl = (op, ins) => {
  const m = memdesc(ins[0]);
  const contiguous = stridesOf(m.shape).every((s, d) => m.shape[d] === 1 || s === m.strides[d]);
  if (!contiguous) fail('reshape of a non-contiguous shared-memory view is not supported');
  const shape = [...memdescType(op).shape];
  return [{ ...m, shape, strides: stridesOf(shape) }];
};

const localLoad: OpImpl = (op, ins) => {
  const t = readView(memdesc(ins[0]));
  return [tensor(shapeOfType(op.result(0).type), t.elt, t.data)];
};

const localStore: OpImpl = (_op, ins) => {
  writeView(memdesc(ins[1]), asTensor(ins[0]));
  return [];
};

const asyncCopy: OpImpl = (op, ins, it) => {
  const ptr = asTensor(ins[0]);
  const dst = memdesc(ins[1]);
  const loaded = loadLanes(it, ptr, group(op, ins, 'mask')[0], group(op, ins, 'other')[0], RankedTensorType.get(ptr.shape, dst.elt));
  writeView(dst, loaded);
  return [TOKEN];
};

/** A dot operand: a tensor, or a shared-memory view read into one. */
function operandTensor(v: RtValue): Tensor {
  return v.kind === 'memdesc' ? readView(v) : asTensor(v);
}

const warpGroupDot: OpImpl = (op, ins) => {
  const useC = group(op, ins, 'useC')[0];
  let c = asTensor(ins[2]);
  if (useC && !(asTensor(useC).data as Int32Array)[0]) c = zeros(c.shape, c.elt);
  const out = dotProduct(operandTensor(ins[0]), operandTensor(ins[1]), c, c.elt);
  return [out];
};

/** The ttg / ttng op table. */
export const ttgOps: Record<string, OpImpl> = {
  'ttg.local_alloc': localAlloc,
  'ttg.local_dealloc': () => [],
  'ttg.memdesc_index': memdescIndex,
  'ttg.memdesc_subslice': memdescSubslice,
  'ttg.memdesc_trans': memdescTrans,
  'ttg.memdesc_reshape': memdescReshape,
  'ttg.local_load': localLoad,
  'ttg.local_store': localStore,
  'ttg.async_copy_global_to_local': asyncCopy,
  'ttg.async_commit_group': () => [TOKEN],
  'ttg.async_wait': () => [TOKEN],
  'ttng.warp_group_dot': warpGroupDot,
  'ttng.warp_group_dot_wait': (_op, ins) => ins,
  'ttng.fence_async_shared': () => [],
  // Programs run one at a time, each as a single thread of control: a barrier has nothing to wait for.
  'gpu.barrier': () => [],
};
