/**
 * TritonGPU ops (Triton 3.6 names and assembly formats): layout conversion, shared-memory
 * allocation / load / store / views, and the cp.async family.
 */
import {
  AnyTensor, AnyType, BoolAttr, DenseI32ArrayAttr, I32, I32Attr, UnitAttrC, boolLike, tensorOf, typeIs, I1,
} from '../../ir/constraints.js';
import { IntegerAttr, boolAttr } from '../../ir/attributes.js';
import type { CustomDirective } from '../../ir/op-spec.js';
import { DenseArrayAttr } from '../../ir/attributes.js';
import { RankedTensorType, i, type Type } from '../../ir/types.js';
import { PointerType, pointeeLike } from '../tt/types.js';
import { CacheModifier, EvictionPolicy } from '../tt/enums.js';
import { AsyncToken, AsyncTokenType, MemDesc, MemDescType } from './types.js';
import { transposedSharedEncoding } from './shared-layout.js';
import type { Operation } from '../../ir/ir.js';
import { defineOp, type OpDef } from '../../ir/op-def.js';
import { Pure, SameOperandsAndResultElementType, SameOperandsAndResultShape } from '../../ir/traits.js';


const PtrTensor = typeIs('ranked tensor of ptr values', (t) => t instanceof RankedTensorType && t.elementType instanceof PointerType);
const I1Tensor = tensorOf(I1);
const Ptr = typeIs('ptr', (t) => t instanceof PointerType);
const token = () => [AsyncTokenType.get() as Type];

/** `custom<Offsets>($offsets)`: a dense i32 array printed as `0, 32` between the brackets. */
const offsetsDirective: CustomDirective = {
  parse(p, args) {
    const vals: number[] = [];
    if (p.peekToken()?.kind === 'Integer' || p.peekToken()?.kind === 'Minus') {
      do vals.push(p.parseIntegerInRange(-2147483648, 2147483647, 'offset'));
      while (p.parseOptionalPunct(','));
    }
    p.setProperty(args[0].slice(1), DenseArrayAttr.get(i(32), vals));
  },
  print(p, op, args) {
    const a = op.getAttr(args[0].slice(1));
    if (a instanceof DenseArrayAttr) p.write(a.values.join(', '));
  },
};

function memdescOf(op: { operand(k: number): { type: Type }; result(k: number): { type: Type } }, which: 'operand' | 'result', k: number): MemDescType | null {
  const t = which === 'operand' ? op.operand(k).type : op.result(k).type;
  return t instanceof MemDescType ? t : null;
}

/**
 * `ttg.memdesc_trans {order}`: order permutes the source's dims, the result's shape is the
 * source's permuted (`result[k] = src[order[k]]`), and a swizzled_shared source gives the
 * transposed encoding (`transposedSharedEncoding`), so every element keeps its address.
 */
function verifyMemdescTrans(op: Operation): string | void {
  const src = memdescOf(op, 'operand', 0);
  const res = memdescOf(op, 'result', 0);
  const order = op.getAttr('order');
  if (!src || !res || !(order instanceof DenseArrayAttr)) return;
  const o = order.values.map(Number);
  if (o.length !== src.rank || [...o].sort((a, b) => a - b).some((d, k) => d !== k)) return `order [${o.join(', ')}] must be a permutation of the source's ${src.rank} dims`;
  if (res.rank !== src.rank || o.some((d, k) => src.shape[d] !== res.shape[k])) return `result shape ${res.shape.join('x')} must be the source shape ${src.shape.join('x')} permuted by the order`;
  if (src.mutable !== res.mutable) return 'the view must be mutable exactly when its source is';
  const want = transposedSharedEncoding(src.encoding, o);
  if (want && res.encoding !== want) return `result encoding must be the transposed source encoding ${want}`;
}

/** The TritonGPU op table. */
/** Local memory ops move whole tensors: the register tensor and the memory view must have one shape. */
function checkSameShape(src: readonly number[], dst: readonly number[]): string | void {
  if (src.length === dst.length && src.every((d, k) => d === dst[k])) return;
  return `source shape [${src.join(', ')}] must match destination shape [${dst.join(', ')}]`;
}

/** `ttg.convert_layout`: convert layout. */
export const ConvertLayoutOp = defineOp({
  name: 'ttg.convert_layout',
  summary: 'convert layout',
  operands: [{ name: 'src', type: AnyTensor }],
  results: [{ name: 'result', type: AnyTensor }],
  traits: [Pure, SameOperandsAndResultShape, SameOperandsAndResultElementType],
  format: '$src attr-dict `:` type($src) `->` type($result)',
});
/** `ttg.async_wait`: Ensure all specified async_copy_* operations are complete.. */
export const AsyncWaitOp = defineOp({
  name: 'ttg.async_wait',
  summary: 'Ensure all specified async_copy_* operations are complete.',
  operands: [{ name: 'asyncToken', kind: 'variadic', type: AsyncToken }],
  results: [{ name: 'retToken', type: AsyncToken }],
  attrs: [{ name: 'num', kind: I32Attr }],
  format: '($asyncToken^)? attr-dict',
  inferTypes: { asyncToken: token, retToken: token },
});
/** `ttg.async_commit_group`: Commit pending async copies into an async group that can be waited on. */
export const AsyncCommitGroupOp = defineOp({
  name: 'ttg.async_commit_group',
  summary: 'Commit pending async copies into an async group that can be waited on',
  operands: [{ name: 'inputTokens', kind: 'variadic', type: AsyncToken }],
  results: [{ name: 'asyncToken', type: AsyncToken }],
  format: '(`tokens` $inputTokens^)? attr-dict',
  inferTypes: { inputTokens: token, asyncToken: token },
});
/** `ttg.async_copy_global_to_local`: Copy data from global memory to local memory asynchronously. */
export const AsyncCopyGlobalToLocalOp = defineOp({
  name: 'ttg.async_copy_global_to_local',
  summary: 'Copy data from global memory to local memory asynchronously',
  operands: [
    { name: 'src', type: PtrTensor },
    { name: 'result', type: MemDesc },
    { name: 'mask', kind: 'optional', type: I1Tensor },
    { name: 'other', kind: 'optional', type: AnyType },
  ],
  results: [{ name: 'token', type: AsyncToken }],
  attrs: [
    { name: 'cache', kind: CacheModifier, default: CacheModifier.byName('none') },
    { name: 'evict', kind: EvictionPolicy, default: EvictionPolicy.byName('evict_normal') },
    { name: 'isVolatile', kind: BoolAttr, default: boolAttr(false) },
    { name: 'contiguity', kind: I32Attr, default: IntegerAttr.get(1, i(32)) },
  ],
  format:
    '$src `,` $result (`mask` $mask^)? (`other` $other^)? oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) attr-dict `:` type($src) `->` type($result)',
  inferTypes: {
    mask: (env) => env.operand('src')?.map((t) => boolLike(t)),
    other: (env) => env.operand('src')?.map((t) => pointeeLike(t) ?? t),
    token,
  },
  verify(op) {
    const src = op.operand(0).type as RankedTensorType;
    const dst = memdescOf(op, 'operand', 1);
    if (dst && !dst.mutable) return 'Cannot store into immutable memory';
    if (dst && src.shape.length !== dst.shape.length) return 'source and destination must have the same rank';
  },
});
/** `ttg.local_alloc`: allocate tensor. */
export const LocalAllocOp = defineOp({
  name: 'ttg.local_alloc',
  summary: 'allocate tensor',
  operands: [{ name: 'src', kind: 'optional', type: AnyTensor }],
  results: [{ name: 'result', type: MemDesc }],
  attrs: [{ name: 'alignment', kind: I32Attr, optional: true }],
  format: '($src^)? attr-dict `:` functional-type(operands, results)',
  verify(op) {
    const r = memdescOf(op, 'result', 0);
    if (!r) return;
    if (op.numOperands === 0 && !r.mutable) return 'should have mutable result when no source is given';
    if (op.numOperands === 0) return;
    const src = op.operand(0).type as RankedTensorType;
    if (src.elementType !== r.elementType) return 'result element type must match desc element type';
    return checkSameShape(src.shape, r.shape);
  },
});
/** `ttg.local_dealloc`: dealloc buffer. */
export const LocalDeallocOp = defineOp({
  name: 'ttg.local_dealloc',
  summary: 'dealloc buffer',
  operands: [{ name: 'src', type: MemDesc }],
  format: '$src attr-dict `:` qualified(type($src))',
});
/** `ttg.memdesc_index`: take a subview of the descriptor.. */
export const MemdescIndexOp = defineOp({
  name: 'ttg.memdesc_index',
  summary: 'take a subview of the descriptor.',
  operands: [{ name: 'src', type: MemDesc }, { name: 'index', type: I32 }],
  results: [{ name: 'result', type: MemDesc }],
  traits: [Pure],
  format: '$src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))',
  inferTypes: { index: () => [i(32)] },
  verify(op) {
    const s = memdescOf(op, 'operand', 0);
    const r = memdescOf(op, 'result', 0);
    if (!s || !r) return;
    if (r.rank !== s.rank - 1) return `result rank ${r.rank} must be the source rank ${s.rank} minus one`;
    if (r.shape.some((d, k) => d !== s.shape[k + 1])) return 'result shape must be the source shape without its first dimension';
    if (r.elementType !== s.elementType) return 'result element type must match the source element type';
  },
});
/** `ttg.memdesc_subslice`: take a subview of the descriptor.. */
export const MemdescSubsliceOp = defineOp({
  name: 'ttg.memdesc_subslice',
  summary: 'take a subview of the descriptor.',
  operands: [{ name: 'src', type: MemDesc }],
  results: [{ name: 'result', type: MemDesc }],
  attrs: [{ name: 'offsets', kind: DenseI32ArrayAttr }],
  traits: [Pure],
  directives: { Offsets: offsetsDirective },
  format: '$src `[` custom<Offsets>($offsets) `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))',
  verify(op) {
    const s = memdescOf(op, 'operand', 0);
    const offs = op.getAttr('offsets');
    if (s && offs instanceof DenseArrayAttr && offs.values.length !== s.rank) return `expected ${s.rank} offsets, got ${offs.values.length}`;
  },
});
/** `ttg.memdesc_trans`: transpose the descriptor. */
export const MemdescTransOp = defineOp({
  name: 'ttg.memdesc_trans',
  summary: 'transpose the descriptor',
  operands: [{ name: 'src', type: MemDesc }],
  results: [{ name: 'result', type: MemDesc }],
  attrs: [{ name: 'order', kind: DenseI32ArrayAttr }],
  traits: [Pure, SameOperandsAndResultElementType],
  format: '$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))',
  verify: verifyMemdescTrans,
});
/** `ttg.memdesc_reshape`: creates a descriptor for the new shape. */
export const MemdescReshapeOp = defineOp({
  name: 'ttg.memdesc_reshape',
  summary: 'creates a descriptor for the new shape',
  operands: [{ name: 'src', type: MemDesc }],
  results: [{ name: 'result', type: MemDesc }],
  traits: [Pure, SameOperandsAndResultElementType],
  format: '$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))',
});
/** `ttg.memdesc_reinterpret`: reinterpret a memory descriptor as a different type and shape. */
export const MemdescReinterpretOp = defineOp({
  name: 'ttg.memdesc_reinterpret',
  summary: 'reinterpret a memory descriptor as a different type and shape',
  operands: [{ name: 'src', type: MemDesc }],
  results: [{ name: 'result', type: MemDesc }],
  traits: [Pure],
  format: '$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))',
});
/** `ttg.local_load`: Load a buffer from local memory into a distributed tensor. */
export const LocalLoadOp = defineOp({
  name: 'ttg.local_load',
  summary: 'Load a buffer from local memory into a distributed tensor',
  operands: [{ name: 'src', type: MemDesc }, { name: 'token', kind: 'optional', type: AsyncToken }],
  results: [{ name: 'result', type: AnyTensor }],
  readOnlyWhen: () => true,
  format: '$src (`token` $token^)? attr-dict `:` qualified(type($src)) `->` type($result)',
  inferTypes: { token },
  verify(op) {
    const s = memdescOf(op, 'operand', 0);
    const r = op.result(0).type as RankedTensorType;
    if (s && s.elementType !== r.elementType) return 'result element type must match the source element type';
    if (s) return checkSameShape(s.shape, r.shape);
  },
});
/** `ttg.local_store`: Store a distributed tensor into a buffer in local memory. */
export const LocalStoreOp = defineOp({
  name: 'ttg.local_store',
  summary: 'Store a distributed tensor into a buffer in local memory',
  operands: [{ name: 'src', type: AnyTensor }, { name: 'dst', type: MemDesc }],
  format: '$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))',
  verify(op) {
    const d = memdescOf(op, 'operand', 1);
    if (d && !d.mutable) return 'Cannot store into immutable memory';
    if (d) return checkSameShape((op.operand(0).type as RankedTensorType).shape, d.shape);
  },
});
/** `ttg.fp4_to_fp`: Upcast fp4 (e2m1) to fp. */
export const Fp4ToFpOp = defineOp({
  name: 'ttg.fp4_to_fp',
  summary: 'Upcast fp4 (e2m1) to fp',
  operands: [{ name: 'src', type: tensorOf(typeIs('8-bit signless integer', (t) => t === i(8))) }],
  results: [{ name: 'result', type: AnyTensor }],
  attrs: [{ name: 'axis', kind: I32Attr }],
  traits: [Pure],
  format: '$src attr-dict `:` type($src) `->` type($result)',
});
/** `ttg.global_scratch_alloc`: allocate a global memory buffer. */
export const GlobalScratchAllocOp = defineOp({
  name: 'ttg.global_scratch_alloc',
  summary: 'allocate a global memory buffer',
  results: [{ name: 'result', type: Ptr }],
  attrs: [
    { name: 'nbytes', kind: I32Attr },
    { name: 'alignment', kind: I32Attr },
    { name: 'third_party_allocation', kind: UnitAttrC, optional: true },
  ],
  format: 'attr-dict `:` qualified(type($result))',
  verify(op) {
    const bytes = Number((op.getAttr('nbytes') as IntegerAttr).value);
    const align = Number((op.getAttr('alignment') as IntegerAttr).value);
    if (bytes <= 0) return `allocates ${bytes} bytes; a global scratch allocation has a positive size`;
    if (align <= 0 || (align & (align - 1)) !== 0) return `has alignment ${align}; it must be a power of two`;
  },
});

export const ttgOps: OpDef[] = [
  ConvertLayoutOp,
  AsyncWaitOp,
  AsyncCommitGroupOp,
  AsyncCopyGlobalToLocalOp,
  LocalAllocOp,
  LocalDeallocOp,
  MemdescIndexOp,
  MemdescSubsliceOp,
  MemdescTransOp,
  MemdescReshapeOp,
  MemdescReinterpretOp,
  LocalLoadOp,
  LocalStoreOp,
  Fp4ToFpOp,
  GlobalScratchAllocOp,
];
