/**
 * The TritonNvidiaGPU (`ttng`) dialect: Hopper warp-group MMA, async fences, mbarriers and
 * TMA copies, with Triton 3.6's assembly formats.
 */
import { AnyTensor, BoolAttr, I1, I32, I32Attr, I64, anyOf, typeIs } from '../ir/constraints.js';
import { IntegerAttr, boolAttr } from '../ir/attributes.js';
import type { DialectDecl } from '../ir/op-spec.js';
import { i, type RankedTensorType, type Type } from '../ir/types.js';
import { TensorDescType } from './tt/types.js';
import { CacheModifier, DescriptorReduceKind, EvictionPolicy, InputPrecision, TTPtr } from './tt/enums.js';
import { TMA_MAX_RANK } from './ttg/target.js';
import { Pure } from '../ir/traits.js';
import type { Operation } from '../ir/ir.js';
import { MemDesc, MemDescType } from './ttg/index.js';
import { defineOp, type OpDef } from '../ir/op-def.js';


const TensorOrMemDesc = anyOf(AnyTensor, typeIs('memory descriptor', (t) => t instanceof MemDescType));
const TensorDesc = typeIs('tensor descriptor type', (t) => t instanceof TensorDescType);
const i1 = () => [i(1) as Type];
const i32 = () => [i(32) as Type];

/** `ttng.init_barrier`: Initialize a barrier in the given shared memory allocation.. */
export const InitBarrierOp = defineOp({
  name: 'ttng.init_barrier',
  summary: 'Initialize a barrier in the given shared memory allocation.',
  operands: [{ name: 'alloc', type: MemDesc }],
  attrs: [{ name: 'count', kind: I32Attr }],
  format: '$alloc `,` $count attr-dict `:` qualified(type($alloc))',
});
/** `ttng.inval_barrier`: Invalidate a barrier allocation.. */
export const InvalBarrierOp = defineOp({
  name: 'ttng.inval_barrier',
  summary: 'Invalidate a barrier allocation.',
  operands: [{ name: 'alloc', type: MemDesc }],
  format: '$alloc attr-dict `:` qualified(type($alloc))',
});
/** `ttng.barrier_expect`: Signal a barrier of an expected number of bytes to be copied.. */
export const BarrierExpectOp = defineOp({
  name: 'ttng.barrier_expect',
  summary: 'Signal a barrier of an expected number of bytes to be copied.',
  operands: [{ name: 'alloc', type: MemDesc }, { name: 'pred', type: I1 }],
  attrs: [{ name: 'size', kind: I32Attr }],
  format: '$alloc `,` $size attr-dict `,` $pred `:` qualified(type($alloc))',
  inferTypes: { pred: i1 },
});
/** `ttng.wait_barrier`: wait until the mbarrier phase completes.. */
export const WaitBarrierOp = defineOp({
  name: 'ttng.wait_barrier',
  summary: 'wait until the mbarrier phase completes.',
  operands: [
    { name: 'alloc', type: MemDesc },
    { name: 'phase', type: I32 },
    { name: 'pred', kind: 'optional', type: I1 },
    { name: 'deps', kind: 'variadic', type: MemDesc },
  ],
  format: '$alloc `,` $phase (`,` $pred^)? (`deps` $deps^)? attr-dict `:` qualified(type($alloc)) (`,` type($deps)^)?',
  inferTypes: { phase: i32, pred: i1 },
});
/** `ttng.arrive_barrier`: perform the arrive operation on an mbarrier. */
export const ArriveBarrierOp = defineOp({
  name: 'ttng.arrive_barrier',
  summary: 'perform the arrive operation on an mbarrier',
  operands: [{ name: 'alloc', type: MemDesc }, { name: 'pred', kind: 'optional', type: I1 }],
  attrs: [{ name: 'count', kind: I32Attr }],
  format: '$alloc `,` $count (`,` $pred^)? attr-dict `:` qualified(type($alloc))',
  inferTypes: { pred: i1 },
  verify(op) {
    const c = op.getAttr('count');
    if (c instanceof IntegerAttr && c.num < 1) return 'count must be greater than or equal to 1';
  },
});

const mbarrierOps: OpDef[] = [
  InitBarrierOp,
  InvalBarrierOp,
  BarrierExpectOp,
  WaitBarrierOp,
  ArriveBarrierOp,
];

/** `ttng.async_tma_copy_global_to_local`: copy data based on descriptor from global memory to local memory asynchronously. */
export const AsyncTmaCopyGlobalToLocalOp = defineOp({
  name: 'ttng.async_tma_copy_global_to_local',
  summary: 'copy data based on descriptor from global memory to local memory asynchronously',
  operands: [
    { name: 'desc', type: TensorDesc },
    { name: 'coord', kind: 'variadic', type: I32 },
    { name: 'barrier', type: MemDesc },
    { name: 'result', type: MemDesc },
    { name: 'pred', type: I1 },
  ],
  attrs: [
    { name: 'cache', kind: CacheModifier, default: CacheModifier.byName('none') },
    { name: 'evict', kind: EvictionPolicy, default: EvictionPolicy.byName('evict_normal') },
    { name: 'isVolatile', kind: BoolAttr, default: boolAttr(false) },
  ],
  format:
    '$desc `[` $coord `]` $result `,` $barrier `,` $pred oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) attr-dict `:` qualified(type($desc)) `,` qualified(type($barrier)) `->` qualified(type($result))',
  inferTypes: { coord: i32, pred: i1 },
});
/** `ttng.async_tma_copy_local_to_global`: copy data based on descriptor from local memory to global memory asynchronously. */
export const AsyncTmaCopyLocalToGlobalOp = defineOp({
  name: 'ttng.async_tma_copy_local_to_global',
  summary: 'copy data based on descriptor from local memory to global memory asynchronously',
  operands: [
    { name: 'desc', type: TensorDesc },
    { name: 'coord', kind: 'variadic', type: I32 },
    { name: 'src', type: MemDesc },
  ],
  format: '$desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,` qualified(type($src))',
  inferTypes: { coord: i32 },
});
/** `ttng.async_tma_reduce`: reduces a tile of local memory into global memory through a descriptor, asynchronously (`cp.reduce.async.bulk.tensor`). */
export const AsyncTmaReduceOp = defineOp({
  name: 'ttng.async_tma_reduce',
  summary: 'reduce a tile of local memory into global memory through a descriptor asynchronously',
  operands: [
    { name: 'desc', type: TensorDesc },
    { name: 'coord', kind: 'variadic', type: I32 },
    { name: 'src', type: MemDesc },
  ],
  attrs: [{ name: 'kind', kind: DescriptorReduceKind }],
  format: '$kind `,` $desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,` qualified(type($src))',
  inferTypes: { coord: i32 },
});
/** `ttng.async_tma_store_wait`: wait until all the inputs are read.. */
export const AsyncTmaStoreWaitOp = defineOp({
  name: 'ttng.async_tma_store_wait',
  summary: 'wait until all the inputs are read.',
  attrs: [{ name: 'pendings', kind: I32Attr }],
  format: 'attr-dict',
});

const tmaOps: OpDef[] = [
  AsyncTmaCopyGlobalToLocalOp,
  AsyncTmaCopyLocalToGlobalOp,
  AsyncTmaReduceOp,
  AsyncTmaStoreWaitOp,
];

/** `ttng.fence_async_shared`: fence proxy async. */
export const FenceAsyncSharedOp = defineOp({
  name: 'ttng.fence_async_shared',
  summary: 'fence proxy async',
  attrs: [{ name: 'bCluster', kind: BoolAttr }],
  format: 'attr-dict',
});
/** `ttng.cluster_arrive`: cluster arrive. */
export const ClusterArriveOp = defineOp({
  name: 'ttng.cluster_arrive',
  summary: 'cluster arrive',
  attrs: [{ name: 'relaxed', kind: BoolAttr }],
  format: 'attr-dict',
});
/** `ttng.cluster_wait`: cluster wait. */
export const ClusterWaitOp = defineOp({
  name: 'ttng.cluster_wait',
  summary: 'cluster wait',
  format: 'attr-dict',
});
/** `ttng.warp_group_dot`: warp group dot. */
export const WarpGroupDotOp = defineOp({
  name: 'ttng.warp_group_dot',
  summary: 'warp group dot',
  operands: [
    { name: 'a', type: TensorOrMemDesc },
    { name: 'b', type: MemDesc },
    { name: 'c', type: AnyTensor },
    { name: 'useC', kind: 'optional', type: I1 },
  ],
  results: [{ name: 'd', type: AnyTensor }],
  attrs: [
    { name: 'inputPrecision', kind: InputPrecision, default: InputPrecision.byName('ieee') },
    { name: 'maxNumImpreciseAcc', kind: I32Attr, default: IntegerAttr.get(0, i(32)) },
    { name: 'isAsync', kind: BoolAttr, default: boolAttr(false) },
  ],
  format: '$a `,` $b `,` $c (`,` $useC^)? attr-dict `:` type($a) `*` qualified(type($b)) `->` type($d)',
  inferTypes: { c: (env) => env.result('d'), useC: i1 },
  verify(op) {
    if (op.operand(2).type !== op.result(0).type) return "result's type must match the accumulator's type";
    const d = op.result(0).type as RankedTensorType;
    if (d.rank !== 2 && d.rank !== 3) return 'the accumulator must have rank 2 or 3';
  },
});
/** `ttng.warp_group_dot_wait`: warp group dot wait. */
export const WarpGroupDotWaitOp = defineOp({
  name: 'ttng.warp_group_dot_wait',
  summary: 'warp group dot wait',
  operands: [{ name: 'inputs', kind: 'variadic', type: TensorOrMemDesc }],
  results: [{ name: 'outputs', kind: 'variadic', type: TensorOrMemDesc }],
  attrs: [{ name: 'pendings', kind: I32Attr }],
  format: '$inputs attr-dict `:` type($inputs)',
  inferTypes: { outputs: (env) => env.operand('inputs') },
  verify(op) {
    if (op.numOperands !== op.numResults) return 'expects the same number of inputs and outputs';
    for (let k = 0; k < op.numOperands; k++)
      if (op.operand(k).type !== op.result(k).type) return `output #${k} must have the type of input #${k}`;
  },
});

/**
 * The largest value each `ttng.tensormap_create` field attribute takes (PTX ISA, `tensormap.replace`):
 * the element type (0-15), the interleave (none, 16 or 32 bytes), the swizzle (none, 32, 64 or 128
 * bytes) and the fill of out-of-bounds elements (zeros or NaNs).
 */
const TENSORMAP_FIELD_MAX: ReadonlyArray<[string, number]> = [['elem_type', 15], ['interleave_layout', 2], ['swizzle_mode', 3], ['fill_mode', 1]];

/** Operand-group checks of `ttng.tensormap_create`: a rank of 1 to 5, one global stride fewer than dims, attributes in range. */
function verifyTensormapCreate(op: Operation): string | void {
  const view = TensormapCreateOp.view(op);
  const rank = view.box_dim.length;
  if (rank < 1 || rank > TMA_MAX_RANK) return `a tensor map has 1 to ${TMA_MAX_RANK} dims; got ${rank} box dims`;
  if (view.global_dim.length !== rank || view.element_stride.length !== rank) return `expects ${rank} global dims and element strides (one per box dim), got ${view.global_dim.length} and ${view.element_stride.length}`;
  if (view.global_stride.length !== rank - 1) return `expects ${rank - 1} global strides (every dim but the innermost), got ${view.global_stride.length}`;
  for (const [name, max] of TENSORMAP_FIELD_MAX) {
    const v = Number((op.getAttr(name) as IntegerAttr).value);
    if (v < 0 || v > max) return `attribute '${name}' must be between 0 and ${max}, got ${v}`;
  }
}

/**
 * `ttng.tensormap_create`: writes a TMA tensor map (128 bytes at `desc_ptr`, global memory) on the
 * device: the tensor at `global_address`, its dims and byte strides innermost first, the box each
 * copy moves and the encoding fields. Reads and writes global memory.
 */
export const TensormapCreateOp = defineOp({
  name: 'ttng.tensormap_create',
  summary: 'writes a TMA tensor map into global memory on the device',
  operands: [
    { name: 'desc_ptr', type: TTPtr },
    { name: 'global_address', type: TTPtr },
    { name: 'box_dim', kind: 'variadic', type: I32 },
    { name: 'global_dim', kind: 'variadic', type: I32 },
    { name: 'global_stride', kind: 'variadic', type: I64 },
    { name: 'element_stride', kind: 'variadic', type: I32 },
  ],
  attrs: [
    { name: 'elem_type', kind: I32Attr },
    { name: 'interleave_layout', kind: I32Attr },
    { name: 'swizzle_mode', kind: I32Attr },
    { name: 'fill_mode', kind: I32Attr },
  ],
  format: '$desc_ptr `,` $global_address `,` `[` $box_dim `]` `,` `[` $global_dim `]` `,` `[` $global_stride `]` `,` `[` $element_stride `]` attr-dict `:` functional-type(operands, results)',
  verify: (op) => verifyTensormapCreate(op),
});
/** `ttng.tensormap_fenceproxy_acquire`: makes a tensor map written on the device visible to the TMA unit (the tensormap proxy) before copies read it. */
export const TensormapFenceproxyAcquireOp = defineOp({
  name: 'ttng.tensormap_fenceproxy_acquire',
  summary: 'acquire fence on a tensor map written on the device',
  operands: [{ name: 'desc_ptr', type: TTPtr }],
  format: '$desc_ptr attr-dict `:` qualified(type($desc_ptr))',
});
/** `ttng.reinterpret_tensor_descriptor`: the tensor map at a pointer as a tensor descriptor. */
export const ReinterpretTensorDescOp = defineOp({
  name: 'ttng.reinterpret_tensor_descriptor',
  summary: 'reinterprets a pointer to a tensor map as a tensor descriptor',
  operands: [{ name: 'rawDesc', type: TTPtr }],
  results: [{ name: 'result', type: TensorDesc }],
  traits: [Pure],
  format: '$rawDesc attr-dict `:` qualified(type($rawDesc)) `to` qualified(type($result))',
});

/** Ops that write tensor maps on the device. */
const tensormapOps: OpDef[] = [TensormapCreateOp, TensormapFenceproxyAcquireOp, ReinterpretTensorDescOp];

/** The TritonNvidiaGPU op table. */
export const ttngOps: OpDef[] = [
  FenceAsyncSharedOp,
  ClusterArriveOp,
  ClusterWaitOp,
  WarpGroupDotOp,
  WarpGroupDotWaitOp,
  ...mbarrierOps,
  ...tmaOps,
  ...tensormapOps,
];

/** The TritonNvidiaGPU dialect table. */
export const ttngDialect: DialectDecl = {
  name: 'ttng',
  summary: 'TritonNvidiaGPU: Hopper/Blackwell-specific ops',
  ops: ttngOps,
};
