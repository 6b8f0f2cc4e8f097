/**
 * ttg / ttng ops with layouts treated as annotations: shared memory (`!ttg.memdesc`) is a strided
 * view of a per-allocation store; async copies (cp.async and TMA) complete immediately, so tokens,
 * waits and mbarriers are no-ops.
 */
import type { Value } from '../../ir/ir.js';
import { RankedTensorType } from '../../ir/types.js';
import * as gpu from '../../dialects/gpu.js';
import * as ttg from '../../dialects/ttg/index.js';
import * as ttng from '../../dialects/ttng.js';
import { MemDescType } from '../../dialects/ttg/types.js';
import type { Interpreter } from './interpreter.js';
import { impl, type OpEntry } from './op-impl.js';
import { fail } from './errors.js';
import { dotProduct } from './ops-compute.js';
import { descriptor, indices, loadLanes, optional, readBlock, writeBlock } from './ops-memory.js';
import { stridedCopy, stridedWrite } from './ops-shape.js';
import { type MemDescValue, type RtValue, type Tensor, allocData, asTensor, numel, shapeOfType, stridesOf, tensor, zeros } from './values.js';

const TOKEN: RtValue = { kind: 'token' };

/** The shared-memory descriptor `v` holds. */
function memdesc(it: Interpreter, v: Value): MemDescValue {
  const m = it.get(v);
  if (m.kind !== 'memdesc') return fail(`expected a shared-memory descriptor, got ${m.kind}`);
  return m;
}

/** The memdesc type of a result. */
function memdescType(result: Value): MemDescType {
  const t = result.type;
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

const localAlloc = impl(ttg.LocalAllocOp, (alloc, it) => {
  const t = memdescType(alloc.result);
  const shape = [...t.shape];
  const m: MemDescValue = { kind: 'memdesc', elt: t.elementType, store: allocData(t.elementType, numel(shape)), shape, strides: stridesOf(shape), offset: 0 };
  if (alloc.src) writeView(m, asTensor(it.get(alloc.src)));
  return [m];
});

const memdescIndex = impl(ttg.MemdescIndexOp, (op, it) => {
  const m = memdesc(it, op.src);
  const i = Number((asTensor(it.get(op.index)).data as Int32Array)[0]);
  if (i < 0 || i >= m.shape[0]) fail(`index ${i} out of range [0, ${m.shape[0]})`);
  return [{ ...m, shape: m.shape.slice(1), strides: m.strides.slice(1), offset: m.offset + i * m.strides[0] }];
});

const memdescSubslice = impl(ttg.MemdescSubsliceOp, (op, it) => {
  const m = memdesc(it, op.src);
  const offs = op.offsets;
  const shape = [...memdescType(op.result).shape];
  offs.forEach((o, d) => {
    if (o < 0 || o + shape[d] > m.shape[d]) fail(`subslice [${o}, ${o + shape[d]}) out of range along dim ${d} (size ${m.shape[d]})`);
  });
  return [{ ...m, shape, offset: m.offset + offs.reduce((a, o, d) => a + o * m.strides[d], 0) }];
});

const memdescTrans = impl(ttg.MemdescTransOp, (op, it) => {
  const m = memdesc(it, op.src);
  const order = op.order;
  return [{ ...m, shape: order.map((d) => m.shape[d]), strides: order.map((d) => m.strides[d]) }];
});

const memdescReshape = impl(ttg.MemdescReshapeOp, (op, it) => {
  const m = memdesc(it, op.src);
  const contiguous = stridesOf(m.shape).every((s, d) => m.shape[d] === 1 || s === m.strides[d]);
  if (!contiguous) fail('reshape of a non-contiguous shared-memory view is not supported');
  const shape = [...memdescType(op.result).shape];
  return [{ ...m, shape, strides: stridesOf(shape) }];
});

const localLoad = impl(ttg.LocalLoadOp, (op, it) => {
  const t = readView(memdesc(it, op.src));
  return [tensor(shapeOfType(op.result.type), t.elt, t.data)];
});

const localStore = impl(ttg.LocalStoreOp, (op, it) => {
  writeView(memdesc(it, op.dst), asTensor(it.get(op.src)));
  return [];
});

const asyncCopy = impl(ttg.AsyncCopyGlobalToLocalOp, (copy, it) => {
  const ptr = asTensor(it.get(copy.src));
  const dst = memdesc(it, copy.result);
  const loaded = loadLanes(it, ptr, optional(it, copy.mask), optional(it, copy.other), RankedTensorType.get(ptr.shape, dst.elt));
  writeView(dst, loaded);
  return [TOKEN];
});

/** A dot operand: a tensor, or a shared-memory view read into one. */
function operandTensor(v: RtValue): Tensor {
  return v.kind === 'memdesc' ? readView(v) : asTensor(v);
}

const warpGroupDot = impl(ttng.WarpGroupDotOp, (dot, it) => {
  const useC = optional(it, dot.useC);
  let c = asTensor(it.get(dot.c));
  if (useC && !(asTensor(useC).data as Int32Array)[0]) c = zeros(c.shape, c.elt);
  const out = dotProduct(operandTensor(it.get(dot.a)), operandTensor(it.get(dot.b)), c, c.elt);
  return [out];
});

/** ttng.async_tma_copy_global_to_local: the block (zeros outside the tensor) into the tile, at once, when its predicate holds. */
const tmaLoad = impl(ttng.AsyncTmaCopyGlobalToLocalOp, (copy, it) => {
  if (!(asTensor(it.get(copy.pred)).data as Int32Array)[0]) return [];
  const dst = memdesc(it, copy.result);
  writeView(dst, readBlock(it, descriptor(it, copy.desc), indices(it, copy.coord), RankedTensorType.get([...dst.shape], dst.elt)));
  return [];
});

/** ttng.async_tma_copy_local_to_global: the tile's elements inside the tensor, at once. */
const tmaStore = impl(ttng.AsyncTmaCopyLocalToGlobalOp, (copy, it) => {
  writeBlock(it, descriptor(it, copy.desc), indices(it, copy.coord), readView(memdesc(it, copy.src)));
  return [];
});

const none = (): RtValue[] => [];
const token = (): RtValue[] => [TOKEN];

/** The ttg / ttng op table. */
export const ttgOps: OpEntry[] = [
  localAlloc,
  [ttg.LocalDeallocOp.name, none],
  memdescIndex,
  memdescSubslice,
  memdescTrans,
  memdescReshape,
  localLoad,
  localStore,
  asyncCopy,
  [ttg.AsyncCommitGroupOp.name, token],
  [ttg.AsyncWaitOp.name, token],
  warpGroupDot,
  impl(ttng.WarpGroupDotWaitOp, (wait, it) => wait.inputs.map((v) => it.get(v))),
  [ttng.FenceAsyncSharedOp.name, none],
  // TMA copies complete at once: the mbarriers that track them have nothing to count.
  tmaLoad,
  tmaStore,
  [ttng.AsyncTmaStoreWaitOp.name, none],
  [ttng.InitBarrierOp.name, none],
  [ttng.InvalBarrierOp.name, none],
  [ttng.BarrierExpectOp.name, none],
  [ttng.WaitBarrierOp.name, none],
  // Programs run one at a time, each as a single thread of control: a barrier has nothing to wait for.
  [gpu.BarrierOp.name, none],
];
