/**
 * ttg / ttng ops with layouts treated as annotations: shared memory (`!ttg.memdesc`) is a strided
 * view of a per-allocation store; async copies (cp.async and TMA) complete immediately, so tokens,
 * waits and mbarriers are no-ops.
 */
import type { Value } from '../../ir/ir.js';
import { IntegerType, RankedTensorType, bitWidth } from '../../ir/types.js';
import { PointerType } from '../../dialects/tt/types.js';
import * as gpu from '../../dialects/gpu.js';
import * as ttg from '../../dialects/ttg/index.js';
import * as ttng from '../../dialects/ttng.js';
import { MemDescType } from '../../dialects/ttg/types.js';
import type { Interpreter } from './interpreter.js';
import { impl, type OpEntry } from './op-impl.js';
import { fail } from './errors.js';
import { dotProduct } from './ops-compute.js';
import { descriptor, indices, loadLanes, optional, readBlock, reduceBlock, writeBlock } from './ops-memory.js';
import { DescriptorReduceKind } from '../../dialects/tt/enums.js';
import { stridedCopy, stridedWrite } from './ops-shape.js';
import { type DescValue, type MemDescValue, PtrData, type RtValue, type Tensor, allocData, asTensor, numel, readElt, scalarNumber, shapeOfType, stridesOf, tensor, zeros } from './values.js';

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

/** The tensor maps written by ttng.tensormap_create in each run, by the global scratch buffer holding them. */
const tensorMaps = new WeakMap<Interpreter, Map<number, DescValue>>();

/** ttg.global_scratch_alloc: a fresh buffer of its bytes (programs run one at a time; each gets its own). */
const globalScratchAlloc = impl(ttg.GlobalScratchAllocOp, (alloc, it) => {
  const b = it.memory.alloc(IntegerType.get(8), alloc.nbytes, 'global_scratch');
  return [tensor([], alloc.result.type, new PtrData(Int32Array.of(b.id), Float64Array.of(0)))];
});

/** ttng.tensormap_create: records the descriptor its fields describe (dims and byte strides innermost first) under its scratch buffer. */
const tensormapCreate = impl(ttng.TensormapCreateOp, (create, it) => {
  const at = readElt(asTensor(it.get(create.desc_ptr)).data, 0);
  const base = readElt(asTensor(it.get(create.global_address)).data, 0);
  if (typeof at !== 'object' || typeof base !== 'object') return fail('ttng.tensormap_create through a value that is not a pointer');
  const elt = (create.global_address.type as PointerType).pointee;
  const bytes = bitWidth(elt) / 8;
  const dims = create.global_dim.map((v) => scalarNumber(it.get(v))).reverse();
  const strides = [...create.global_stride.map((v) => scalarNumber(it.get(v)) / bytes).reverse(), 1];
  if (!strides.every(Number.isInteger)) return fail(`ttng.tensormap_create with byte strides that are not multiples of the ${bytes}-byte element`);
  let maps = tensorMaps.get(it);
  if (!maps) tensorMaps.set(it, (maps = new Map()));
  maps.set(at.buf, { kind: 'desc', buf: base.buf, base: base.off, elt, shape: dims, strides });
  return [];
});

/** ttng.reinterpret_tensor_descriptor: the descriptor tensormap_create wrote at the pointer. */
const reinterpretDescriptor = impl(ttng.ReinterpretTensorDescOp, (cast, it) => {
  const at = readElt(asTensor(it.get(cast.rawDesc)).data, 0);
  const desc = typeof at === 'object' ? tensorMaps.get(it)?.get(at.buf) : undefined;
  return desc ? [desc] : fail('ttng.reinterpret_tensor_descriptor of memory no ttng.tensormap_create wrote');
});

/** ttng.async_tma_reduce: the tile's elements inside the tensor reduced into it, at once. */
const tmaReduce = impl(ttng.AsyncTmaReduceOp, (red, it) => {
  reduceBlock(it, descriptor(it, red.desc), indices(it, red.coord), readView(memdesc(it, red.src)), DescriptorReduceKind.nameOf(red.op.getAttr('kind')!));
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
  tmaReduce,
  [ttng.AsyncTmaStoreWaitOp.name, none],
  [ttng.InitBarrierOp.name, none],
  [ttng.InvalBarrierOp.name, none],
  [ttng.BarrierExpectOp.name, none],
  [ttng.WaitBarrierOp.name, none],
  // tensor maps written on the device: the fence has nothing to order
  globalScratchAlloc,
  tensormapCreate,
  [ttng.TensormapFenceproxyAcquireOp.name, none],
  reinterpretDescriptor,
  // Programs run one at a time, each as a single thread of control: a barrier has nothing to wait for.
  [gpu.BarrierOp.name, none],
];
