/**
 * The tt dialect's memory ops: load/store through pointers and block pointers, atomics,
 * block pointers (`make_tensor_ptr`, `advance`) and tensor descriptors (TritonOps.td, Triton 3.6).
 */
import { DenseI32ArrayAttr, I32, BoolAttr } from '../../ir/constraints.js';
import { IntegerAttr } from '../../ir/attributes.js';
import type { FormatParser, FormatPrinter, OperandRef } from '../../ir/format.js';
import type { Operation, Value } from '../../ir/ir.js';
import type { CustomSyntax } from '../../ir/op-spec.js';
import { FloatType, RankedTensorType, ShapedType, type Type, i, signless } from '../../ir/types.js';
import {
  CacheModifier, Defaults, DescriptorReduceKind, EvictionPolicy, MemSemantic, MemSyncScope, PaddingOption, RMWOp,
  TTBoolLike, TTPtr, TTPtrLike, TTPtrOrTensorPtr, TTTensor, TTTensorDesc, TTTensorPtr, TTType, isTensorPtr,
} from './enums.js';
import { PointerType, TensorDescType } from './types.js';
import { i1SameShape, inferFrom, pointeeOf, pointerSameShape } from './util.js';
import { defineTTOp } from './util.js';
import type { OpDef } from '../../ir/op-def.js';
import { Pure, SameOperandsAndResultEncoding, SameOperandsAndResultShape } from '../../ir/traits.js';

const I64 = i(64);
const I32T = i(32);
/** ODS infers operands of a buildable type (`Variadic<I32>`) without the format naming them; so do these rules. */
const i32s = (): Type[] => [I32T];
/** The cache and eviction attributes of loads and stores (literal names, so typed views and builders see them). */
const memAttrs = () => [
  { name: 'cache', kind: CacheModifier, default: Defaults.cache() },
  { name: 'evict', kind: EvictionPolicy, default: Defaults.evict() },
] as const;

// ---- verifiers -----------------------------------------------------------------------------

function verifyLoadStore(op: Operation, ptr: Value, value: Value, mask: Value | undefined, other?: Value): string | void {
  const want = pointeeOf(ptr.type);
  if (want !== value.type) return `${op.name === 'tt.load' ? 'result' : 'value'} type '${value.type}' must be the pointee type '${want}' of the pointer`;
  if (mask && mask.type !== i1SameShape(want))
    return `mask type '${mask.type}' must be i1 with the shape of the pointer, '${i1SameShape(want)}'`;
  if (other && other.type !== want) return `other type '${other.type}' must be the pointee type '${want}' of the pointer`;
  if (isTensorPtr(ptr.type) && (mask || other)) return 'mask and other are not supported with a block pointer; use boundaryCheck and padding';
}

function verifyLoad(op: Operation): string | void {
  const spec = op.spec!;
  const mask = spec.operandGroup(op, 'mask')[0];
  const other = spec.operandGroup(op, 'other')[0];
  if (other && !mask) return 'other requires a mask';
  return verifyLoadStore(op, op.operand(0), op.result(0), mask, other);
}

function verifyStore(op: Operation): string | void {
  const mask = op.spec!.operandGroup(op, 'mask')[0];
  return verifyLoadStore(op, op.operand(0), op.operand(1), mask);
}

function verifyAtomicRMW(op: Operation): string | void {
  const spec = op.spec!;
  const val = spec.operandGroup(op, 'val')[0];
  const ptr = spec.operandGroup(op, 'ptr')[0];
  const mask = spec.operandGroup(op, 'mask')[0];
  if (ptr.type !== pointerSameShape(val.type)) return `ptr type '${ptr.type}' must be a pointer to the value type '${val.type}'`;
  if (mask && mask.type !== i1SameShape(val.type)) return `mask type '${mask.type}' must be '${i1SameShape(val.type)}'`;
  if (op.result(0).type !== val.type) return `result type '${op.result(0).type}' must match the value type '${val.type}'`;
}

function verifyAtomicCAS(op: Operation): string | void {
  const [ptr, cmp, val] = op.operandValues();
  if (ptr.type !== pointerSameShape(cmp.type)) return `ptr type '${ptr.type}' must be a pointer to the cmp type '${cmp.type}'`;
  if (ptr.type !== pointerSameShape(val.type)) return `ptr type '${ptr.type}' must be a pointer to the value type '${val.type}'`;
  if (op.result(0).type !== val.type) return `result type '${op.result(0).type}' must match the value type '${val.type}'`;
}

function verifyAdvance(op: Operation): string | void {
  const ptr = op.operand(0).type as PointerType;
  if (op.result(0).type !== ptr) return `result type '${op.result(0).type}' must match ptr type '${ptr}'`;
  const rank = (ptr.pointee as RankedTensorType).rank;
  if (op.numOperands - 1 !== rank) return `expected ${rank} offsets (the rank of the block), got ${op.numOperands - 1}`;
}

function blockShapeOfDesc(t: Type): readonly number[] | null {
  return t instanceof TensorDescType ? t.blockType.shape : null;
}

function verifyDescriptorAccess(desc: Type, tensor: Type, numIndices: number): string | void {
  const block = blockShapeOfDesc(desc);
  if (!block || !(tensor instanceof ShapedType)) return;
  if (numIndices !== block.length) return `expected ${block.length} indices (the rank of the descriptor block), got ${numIndices}`;
  const n = block.reduce((a, b) => a * b, 1);
  if (tensor.numElements !== n) return `tensor type '${tensor}' must have as many elements as the descriptor block (${block.join('x')})`;
  const elt = (desc as TensorDescType).blockType.elementType;
  // Triton types a host descriptor of an int8 tensor si8 and the blocks it moves i8.
  if (signless(tensor.elementType) !== signless(elt)) return `tensor element type '${tensor.elementType}' must match the descriptor element type '${elt}'`;
}


// ---- same-size variadic groups (ODS SameVariadicOperandSize) -------------------------------

/**
 * Custom syntax for ops whose variadic groups have equal sizes (`SameVariadicOperandSize`):
 * `$base, [a...], [b...] ... attr-dict : types`. Declaring the groups separately would make the
 * format engine add `operandSegmentSizes`, which Triton's generic form does not have, so these ops
 * declare one `base` operand and one variadic `rest` group and split it here.
 */
function sameSizeListsSyntax(groupTypes: Type[], printTypes: (p: FormatPrinter, op: Operation) => void, parseTypes: (p: FormatParser) => { base: Type; result: Type }): CustomSyntax {
  return {
    parse(p) {
      const base = p.parseOperandRef();
      const lists: OperandRef[][] = [];
      for (let k = 0; k < groupTypes.length; k++) {
        p.parsePunct(',');
        p.parsePunct('[');
        lists.push(p.parseOperandRefList());
        p.parsePunct(']');
      }
      if (lists.some((l) => l.length !== lists[0].length)) p.error(`'${p.state.name}' expects the same number of values in each list`);
      p.parseOptionalAttrDict();
      p.parsePunct(':');
      const { base: baseType, result } = parseTypes(p);
      p.state.operands.push(p.resolveOperand(base, baseType));
      lists.forEach((l, k) => l.forEach((r) => p.state.operands.push(p.resolveOperand(r, groupTypes[k]))));
      p.state.resultTypes.push(result);
    },
    print(p, op) {
      p.write(' ');
      p.printOperand(op.operand(0));
      const n = (op.numOperands - 1) / groupTypes.length;
      for (let k = 0; k < groupTypes.length; k++) {
        p.write(', [');
        p.printOperands(op.operandValues().slice(1 + k * n, 1 + (k + 1) * n));
        p.write(']');
      }
      p.printOptionalAttrDict(p.attrsToPrint(op, new Set()));
      p.write(' : ');
      printTypes(p, op);
    },
  };
}

/** The equal-sized operand lists of `tt.make_tensor_ptr` (shape, strides, offsets) or `tt.make_tensor_descriptor` (shape, strides). */
export function operandLists(op: Operation): Value[][] {
  const groups = op.name === 'tt.make_tensor_ptr' ? 3 : 2;
  const rest = op.operandValues().slice(1);
  const n = rest.length / groups;
  return Array.from({ length: groups }, (_, k) => rest.slice(k * n, (k + 1) * n));
}

function verifySameSizeLists(op: Operation, groupTypes: Type[], names: string[]): string | void {
  const rest = op.numOperands - 1;
  if (rest % groupTypes.length !== 0) return `expects the same number of ${names.join(', ')} operands`;
  const n = rest / groupTypes.length;
  for (let k = 0; k < rest; k++) {
    const g = Math.floor(k / n);
    if (op.operand(1 + k).type !== groupTypes[g]) return `${names[g]} operands must be ${groupTypes[g]}, but got '${op.operand(1 + k).type}'`;
  }
  return undefined;
}

const tensorPtrGroups = [I64, I64, I32T];
const makeTensorPtrSyntax = sameSizeListsSyntax(
  tensorPtrGroups,
  (p, op) => p.printStrippedType(op.result(0).type),
  (p) => {
    const pos = p.pos();
    const parsed = p.peekToken()?.kind === 'BangId' ? p.parseType() : PointerType.parseBody(p);
    if (!isTensorPtr(parsed)) return p.error(`expected a pointer to a tensor, got '${parsed}'`, pos);
    const result: PointerType = parsed;
    const blk = result.pointee as RankedTensorType;
    return { base: PointerType.get(blk.elementType, result.addressSpace), result };
  },
);

function verifyMakeTensorPtr(op: Operation): string | void {
  const m = verifySameSizeLists(op, tensorPtrGroups, ['shape', 'strides', 'offsets']);
  if (m) return m;
  const res = op.result(0).type as PointerType;
  const blk = res.pointee as RankedTensorType;
  const base = op.operand(0).type;
  if (base !== PointerType.get(blk.elementType, res.addressSpace)) return `base type '${base}' must be a pointer to the block element type '${blk.elementType}'`;
  const n = (op.numOperands - 1) / 3;
  if (n !== blk.rank) return `expected ${blk.rank} shape, strides and offsets operands (the rank of the block), got ${n}`;
  const order = op.getAttr('order');
  if (order && 'values' in order && (order as { values: readonly number[] }).values.length !== blk.rank) return 'order must have one entry per block dimension';
}

const descGroups = [I32T, I64];
const makeTensorDescSyntax = sameSizeListsSyntax(
  descGroups,
  (p, op) => {
    p.printStrippedType(op.operand(0).type);
    p.write(', ');
    p.printStrippedType(op.result(0).type);
  },
  (p) => {
    const base = p.peekToken()?.kind === 'BangId' ? p.parseType() : PointerType.parseBody(p);
    p.parsePunct(',');
    const result = p.peekToken()?.kind === 'BangId' ? p.parseType() : TensorDescType.parseBody(p);
    return { base, result };
  },
);

function verifyMakeTensorDesc(op: Operation): string | void {
  const m = verifySameSizeLists(op, descGroups, ['shape', 'strides']);
  if (m) return m;
  const base = op.operand(0).type;
  const res = op.result(0).type;
  if (!(res instanceof TensorDescType) || !(base instanceof PointerType)) return;
  const n = (op.numOperands - 1) / 2;
  if (n !== res.blockType.rank) return `expected ${res.blockType.rank} shape and strides operands (the rank of the block), got ${n}`;
}

/** Floats reduce with add, min or max; the bitwise and wrapping kinds are for integers. */
function verifyReduceKind(op: Operation): string | void {
  const desc = op.operand(0).type;
  if (!(desc instanceof TensorDescType)) return;
  const kind = DescriptorReduceKind.nameOf(op.getAttr('kind')!);
  const elt = desc.blockType.elementType;
  if (elt instanceof FloatType && !['add', 'min', 'max'].includes(kind)) return `reduces '${elt}' elements with '${kind}'; floats reduce with add, min or max`;
}

// ---- table ---------------------------------------------------------------------------------

/** `tt.load`: loads through a tensor of pointers or a block pointer. */
export const LoadOp = defineTTOp({
  name: 'tt.load',
  summary: 'loads through a tensor of pointers or a block pointer',
  operands: [
    { name: 'ptr', type: TTPtrOrTensorPtr },
    { name: 'mask', kind: 'optional', type: TTBoolLike },
    { name: 'other', kind: 'optional', type: TTType },
  ],
  results: [{ name: 'result', type: TTType }],
  attrs: [
    { name: 'boundaryCheck', kind: DenseI32ArrayAttr, default: Defaults.boundaryCheck() },
    { name: 'padding', kind: PaddingOption, optional: true },
    ...memAttrs(),
    { name: 'isVolatile', kind: BoolAttr, default: Defaults.falseAttr() },
  ],
  traits: [],
  readOnlyWhen: (op) => {
    const volatile = op.getAttr('isVolatile');
    return !(volatile instanceof IntegerAttr && Number(volatile.value) !== 0);
  },
  format: '$ptr (`,` $mask^)? (`,` $other^)? oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) attr-dict `:` type($ptr)',
  inferTypes: {
    mask: inferFrom('ptr', (t) => { const e = pointeeOf(t); return e && i1SameShape(e); }),
    other: inferFrom('ptr', pointeeOf),
    result: inferFrom('ptr', pointeeOf),
  },
  verify: verifyLoad,
});
/** `tt.store`: stores through a tensor of pointers or a block pointer. */
export const StoreOp = defineTTOp({
  name: 'tt.store',
  summary: 'stores through a tensor of pointers or a block pointer',
  operands: [
    { name: 'ptr', type: TTPtrOrTensorPtr },
    { name: 'value', type: TTType },
    { name: 'mask', kind: 'optional', type: TTBoolLike },
  ],
  attrs: [{ name: 'boundaryCheck', kind: DenseI32ArrayAttr, default: Defaults.boundaryCheck() }, ...memAttrs()],
  traits: [],
  format: '$ptr `,` $value (`,` $mask^)? oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) attr-dict `:` type($ptr)',
  inferTypes: {
    value: inferFrom('ptr', pointeeOf),
    mask: inferFrom('ptr', (t) => { const e = pointeeOf(t); return e && i1SameShape(e); }),
  },
  verify: verifyStore,
});
/** `tt.atomic_rmw`: atomic read-modify-write; returns the old value. */
export const AtomicRmwOp = defineTTOp({
  name: 'tt.atomic_rmw',
  summary: 'atomic read-modify-write; returns the old value',
  operands: [
    { name: 'ptr', type: TTPtrLike },
    { name: 'val', type: TTType },
    { name: 'mask', kind: 'optional', type: TTBoolLike },
  ],
  results: [{ name: 'result', type: TTType }],
  attrs: [
    { name: 'atomic_rmw_op', kind: RMWOp },
    { name: 'sem', kind: MemSemantic },
    { name: 'scope', kind: MemSyncScope },
  ],
  traits: [SameOperandsAndResultShape, SameOperandsAndResultEncoding],
  format: '$atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:` functional-type(operands, $result)',
  verify: verifyAtomicRMW,
});
/** `tt.atomic_cas`: atomic compare-and-swap; returns the old value. */
export const AtomicCasOp = defineTTOp({
  name: 'tt.atomic_cas',
  summary: 'atomic compare-and-swap; returns the old value',
  operands: [{ name: 'ptr', type: TTPtrLike }, { name: 'cmp', type: TTType }, { name: 'val', type: TTType }],
  results: [{ name: 'result', type: TTType }],
  attrs: [{ name: 'sem', kind: MemSemantic }, { name: 'scope', kind: MemSyncScope }],
  traits: [SameOperandsAndResultShape, SameOperandsAndResultEncoding],
  format: '$sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:` functional-type(operands, $result)',
  verify: verifyAtomicCAS,
});
/** `tt.make_tensor_ptr`: a block pointer: parent tensor shape/strides, block offsets and order. */
export const MakeTensorPtrOp = defineTTOp({
  name: 'tt.make_tensor_ptr',
  summary: 'a block pointer: parent tensor shape/strides, block offsets and order',
  operands: [{ name: 'base', type: TTPtr }, { name: 'rest', kind: 'variadic' }],
  results: [{ name: 'result', type: TTTensorPtr }],
  attrs: [{ name: 'order', kind: DenseI32ArrayAttr }],
  traits: [Pure],
  syntax: makeTensorPtrSyntax,
  verify: verifyMakeTensorPtr,
});
/** `tt.advance`: advances a block pointer by offsets. */
export const AdvanceOp = defineTTOp({
  name: 'tt.advance',
  summary: 'advances a block pointer by offsets',
  operands: [{ name: 'ptr', type: TTTensorPtr }, { name: 'offsets', kind: 'variadic', type: I32 }],
  results: [{ name: 'result', type: TTTensorPtr }],
  traits: [Pure],
  format: '$ptr `,` `[` $offsets `]` attr-dict `:` type($result)',
  inferTypes: { ptr: (env) => env.result('result'), offsets: i32s },
  verify: verifyAdvance,
});
/** `tt.make_tensor_descriptor`: a tensor descriptor (TMA) from a base pointer, shape and strides. */
export const MakeTensorDescriptorOp = defineTTOp({
  name: 'tt.make_tensor_descriptor',
  summary: 'a tensor descriptor (TMA) from a base pointer, shape and strides',
  operands: [{ name: 'base', type: TTPtr }, { name: 'rest', kind: 'variadic' }],
  results: [{ name: 'result', type: TTTensorDesc }],
  attrs: [{ name: 'padding', kind: PaddingOption, default: PaddingOption.byName('zero') }],
  traits: [Pure],
  syntax: makeTensorDescSyntax,
  verify: verifyMakeTensorDesc,
});
/** `tt.descriptor_load`: loads a block through a tensor descriptor. */
export const DescriptorLoadOp = defineTTOp({
  name: 'tt.descriptor_load',
  summary: 'loads a block through a tensor descriptor',
  operands: [{ name: 'desc', type: TTTensorDesc }, { name: 'indices', kind: 'variadic', type: I32 }],
  results: [{ name: 'result', type: TTTensor }],
  attrs: memAttrs(),
  traits: [],
  readOnlyWhen: () => true,
  format: '$desc `[` $indices `]` oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) attr-dict `:` qualified(type($desc)) `->` type($result)',
  inferTypes: { indices: i32s },
  verify: (op) => verifyDescriptorAccess(op.operand(0).type, op.result(0).type, op.numOperands - 1),
});
/** `tt.descriptor_store`: stores a block through a tensor descriptor. */
export const DescriptorStoreOp = defineTTOp({
  name: 'tt.descriptor_store',
  summary: 'stores a block through a tensor descriptor',
  operands: [{ name: 'desc', type: TTTensorDesc }, { name: 'src', type: TTTensor }, { name: 'indices', kind: 'variadic', type: I32 }],
  traits: [],
  format: '$desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)',
  inferTypes: { indices: i32s },
  verify: (op) => verifyDescriptorAccess(op.operand(0).type, op.operand(1).type, op.numOperands - 2),
});
/** `tt.descriptor_reduce`: a reducing store through a tensor descriptor. */
export const DescriptorReduceOp = defineTTOp({
  name: 'tt.descriptor_reduce',
  summary: 'a reducing store through a tensor descriptor',
  operands: [{ name: 'desc', type: TTTensorDesc }, { name: 'src', type: TTTensor }, { name: 'indices', kind: 'variadic', type: I32 }],
  attrs: [{ name: 'kind', kind: DescriptorReduceKind }],
  traits: [],
  format: '$kind `,` $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)',
  inferTypes: { indices: i32s },
  verify: (op) => verifyDescriptorAccess(op.operand(0).type, op.operand(1).type, op.numOperands - 2) ?? verifyReduceKind(op),
});
/** `tt.descriptor_gather`: gathers rows through a tensor descriptor. */
export const DescriptorGatherOp = defineTTOp({
  name: 'tt.descriptor_gather',
  summary: 'gathers rows through a tensor descriptor',
  operands: [
    { name: 'desc', type: TTTensorDesc },
    { name: 'x_offsets', type: TTTensor },
    { name: 'y_offset', type: I32 },
  ],
  results: [{ name: 'result', type: TTTensor }],
  traits: [],
  format: '$desc `[` $x_offsets `,` $y_offset `]` attr-dict `:` functional-type(operands, results)',
  verify: (op) => {
    const x = op.operand(1).type as RankedTensorType;
    if (x.rank !== 1 || x.elementType !== I32T) return `x_offsets must be a 1-D tensor of i32, got '${x}'`;
  },
});
/** `tt.descriptor_scatter`: scatters rows through a tensor descriptor. */
export const DescriptorScatterOp = defineTTOp({
  name: 'tt.descriptor_scatter',
  summary: 'scatters rows through a tensor descriptor',
  operands: [
    { name: 'desc', type: TTTensorDesc },
    { name: 'x_offsets', type: TTTensor },
    { name: 'y_offset', type: I32 },
    { name: 'src', type: TTTensor },
  ],
  traits: [],
  format: '$desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` type(operands)',
  verify: (op) => {
    const x = op.operand(1).type as RankedTensorType;
    if (x.rank !== 1 || x.elementType !== I32T) return `x_offsets must be a 1-D tensor of i32, got '${x}'`;
  },
});

/** Load/store, atomic, block-pointer and tensor-descriptor ops of the tt dialect. */
export const ttMemoryOps: OpDef[] = [
  LoadOp,
  StoreOp,
  AtomicRmwOp,
  AtomicCasOp,
  MakeTensorPtrOp,
  AdvanceOp,
  MakeTensorDescriptorOp,
  DescriptorLoadOp,
  DescriptorStoreOp,
  DescriptorReduceOp,
  DescriptorGatherOp,
  DescriptorScatterOp,
];
