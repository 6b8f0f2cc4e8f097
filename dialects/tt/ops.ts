/**
 * The tt dialect's function, SPMD, shape, pointer-arithmetic, cast and elementwise math ops
 * (TritonOps.td, Triton 3.6). Memory ops live in `ops-memory.ts`, dot/reduce/debug ops in
 * `ops-compute.ts`.
 */
import {
  AnyType, DictArrayAttr, FlatSymbolRefAttr, I32, I32Attr,
  UnitAttrC, DenseI32ArrayAttr,
} from '../../ir/constraints.js';
import { IntegerAttr, DenseArrayAttr, StringAttr } from '../../ir/attributes.js';
import { FUNCTION_ATTRS, functionSyntax, functionTypeOf } from '../../ir/function-syntax.js';
import { verifyArgumentHints } from './hints.js';
import { verifyTensormapArgs } from './tensormap-arg.js';
import type { Operation } from '../../ir/ir.js';
import { FloatType, RankedTensorType, bitWidth, elementTypeOf, i } from '../../ir/types.js';
import { verifyCallLike, verifyFunctionLike, verifyReturnLike } from '../func.js';
import {
  ProgramDim, PropagateNan, RoundingMode, TTFloatLike, TTI64Like, TTIntLike, TTIntTensor, TTPtrLike, TTTensor, TTType,
} from './enums.js';
import { PointerType } from './types.js';
import { inferFrom, unitKeyword } from './util.js';
import { defineTTOp } from './util.js';
import {
  addPtrFold, broadcastFold, broadcastOfBroadcast, broadcastOfSplat, expandDimsFold, expandDimsOfSplat, splatFold,
} from './canonicalize.js';
import type { OpDef } from '../../ir/op-def.js';
import { Elementwise, FunctionLike, HasParent, IsolatedFromAbove, Pure, ReturnLike, SameOperandsAndResultElementType, SameOperandsAndResultEncoding, SameOperandsAndResultShape, SameOperandsAndResultType, SameTypeOperands, SymbolDef, Terminator } from '../../ir/traits.js';

const cast = '$src attr-dict `:` type($src) `->` type($result)';

function intAttr(op: Operation, name: string): number {
  const a = op.getAttr(name);
  return a instanceof IntegerAttr ? a.num : 0;
}

function tensorsOf(op: Operation): { src: RankedTensorType; res: RankedTensorType } | null {
  const src = op.operand(0).type;
  const res = op.result(0).type;
  return src instanceof RankedTensorType && res instanceof RankedTensorType ? { src, res } : null;
}

// ---- verifiers -----------------------------------------------------------------------------

function verifyMakeRange(op: Operation): string | void {
  const start = intAttr(op, 'start');
  const end = intAttr(op, 'end');
  if (start >= end) return 'start must be less than end';
  const t = op.result(0).type as RankedTensorType;
  if (t.rank !== 1) return 'return type must be a 1D tensor';
  if (end - start !== t.shape[0])
    return `number of elements in returned tensor, ${t.shape[0]}, must match size of range [${start}, ${end}), which has ${end - start} elements`;
  if (t.elementType !== i(32)) return `returned tensor must have i32 elements, but has ${t.elementType}`;
}

function verifySplat(op: Operation): string | void {
  const res = op.result(0).type as RankedTensorType;
  if (op.operand(0).type !== res.elementType)
    return `operand type '${op.operand(0).type}' must match the result element type '${res.elementType}'`;
}

function verifyUnsplat(op: Operation): string | void {
  const src = op.operand(0).type as RankedTensorType;
  if (src.numElements !== 1) return `source tensor must have exactly one element`;
  if (op.result(0).type !== src.elementType) return `result type '${op.result(0).type}' must be the source element type '${src.elementType}'`;
}

function verifyBroadcast(op: Operation): string | void {
  const t = tensorsOf(op);
  if (!t) return;
  if (t.src.rank !== t.res.rank) return `source rank ${t.src.rank} must match result rank ${t.res.rank}`;
  for (let k = 0; k < t.src.rank; k++) {
    if (t.src.shape[k] !== 1 && t.src.shape[k] !== t.res.shape[k])
      return `Different dimensions at index ${k} between source and result.  Broadcast requires the source dimension to be 1.`;
  }
}

function verifyExpandDims(op: Operation): string | void {
  const t = tensorsOf(op);
  if (!t) return;
  const axis = intAttr(op, 'axis');
  if (axis < 0 || axis > t.src.rank) return `axis ${axis} is out of range for a source of rank ${t.src.rank}`;
  const want = [...t.src.shape];
  want.splice(axis, 0, 1);
  if (t.res.rank !== want.length || want.some((d, k) => d !== t.res.shape[k]))
    return `result shape must be ${want.join('x')} (source shape with 1 inserted at axis ${axis}), got ${t.res.shape.join('x')}`;
}

function verifyReshape(op: Operation): string | void {
  const t = tensorsOf(op);
  if (!t) return;
  if (t.src.numElements !== t.res.numElements) return 'number of src and dst elements of reshape must be the same';
}

function verifyTrans(op: Operation): string | void {
  const t = tensorsOf(op);
  if (!t) return;
  const order = op.getAttr('order');
  if (!(order instanceof DenseArrayAttr)) return;
  const o = order.values;
  if (o.length !== t.src.rank) return `order must have the same size as the rank of the operand and result`;
  const sorted = [...o].sort((a, b) => a - b);
  if (sorted.some((v, k) => v !== k)) return `order must be a permutation of [0, ..., rank - 1]`;
  if (t.res.rank !== t.src.rank || o.some((d, k) => t.src.shape[d] !== t.res.shape[k]))
    return `result shape ${t.res.shape.join('x')} must be the source shape permuted by the order`;
}

function verifyJoin(op: Operation): string | void {
  const src = op.operand(0).type as RankedTensorType;
  const res = op.result(0).type as RankedTensorType;
  const want = [...src.shape, 2];
  if (res.rank !== want.length || want.some((d, k) => d !== res.shape[k]))
    return `result shape must be ${want.join('x')} (the operand shape with a new minor dimension of 2)`;
  if (res.elementType !== src.elementType) return 'requires the same element type for all operands and results';
}

function verifySplit(op: Operation): string | void {
  const src = op.operand(0).type as RankedTensorType;
  if (!src.rank || src.shape[src.rank - 1] !== 2) return `source tensor's last dimension must have size 2, got ${src.shape.join('x')}`;
  const out = op.result(0).type as RankedTensorType;
  const want = src.shape.slice(0, -1);
  if (out.rank !== want.length || want.some((d, k) => d !== out.shape[k])) return `result shape must be ${want.join('x') || 'a scalar shape'}`;
  if (op.result(1).type !== out) return 'outLHS and outRHS types must match';
  if (out.elementType !== src.elementType) return 'requires the same element type for the operand and results';
}

function verifyAddPtr(op: Operation): string | void {
  if (op.operand(0).type !== op.result(0).type) return `result type '${op.result(0).type}' must match ptr type '${op.operand(0).type}'`;
}

function verifyBitcast(op: Operation): string | void {
  const src = elementTypeOf(op.operand(0).type);
  const dst = elementTypeOf(op.result(0).type);
  if ((src instanceof PointerType) !== (dst instanceof PointerType)) return 'Cannot bitcast pointer to non-pointer type';
  const sb = src instanceof PointerType ? 64 : bitWidth(src);
  const db = dst instanceof PointerType ? 64 : bitWidth(dst);
  if (sb !== db) return `Cannot bitcast data-type of size ${sb} to data-type of size ${db}`;
}

function verifyFpToFp(op: Operation): string | void {
  const src = elementTypeOf(op.operand(0).type);
  const dst = elementTypeOf(op.result(0).type);
  if (!(src instanceof FloatType) || !(dst instanceof FloatType)) return;
  if (dst.width < src.width && op.getAttr('rounding') === undefined) return 'Rounding mode is required for FP downcast';
}

// ---- table ---------------------------------------------------------------------------------

/** `tt.func`: a function containing a single SSACFG region. */
export const FuncOp = defineTTOp({
  name: 'tt.func',
  summary: 'a function containing a single SSACFG region',
  attrs: FUNCTION_ATTRS,
  regions: [{ name: 'body' }],
  traits: [IsolatedFromAbove, SymbolDef, FunctionLike, HasParent('builtin.module')],
  syntax: functionSyntax,
  verify: (op) => verifyFunctionLike(op) ?? verifyArgumentHints(op, functionTypeOf(op).inputs) ?? verifyTensormapArgs(op, functionTypeOf(op).inputs),
});
/** Whether `op` is a kernel: a `tt.func` that is not private or nested (the host launches it). */
export function isKernel(op: Operation): boolean {
  const visibility = op.getAttr('sym_visibility');
  return FuncOp.is(op) && !(visibility instanceof StringAttr && visibility.value !== 'public');
}
/** `tt.return`: returns from a tt.func. */
export const ReturnOp = defineTTOp({
  name: 'tt.return',
  summary: 'returns from a tt.func',
  operands: [{ name: 'srcs', kind: 'variadic', type: AnyType }],
  traits: [Pure, HasParent('tt.func'), ReturnLike, Terminator],
  format: 'attr-dict ($srcs^ `:` type($srcs))?',
  verify: (op) => verifyReturnLike(op, 'tt.func'),
});
/** `tt.call`: calls a tt.func by symbol. */
export const CallOp = defineTTOp({
  name: 'tt.call',
  summary: 'calls a tt.func by symbol',
  operands: [{ name: 'operands', kind: 'variadic', type: AnyType }],
  results: [{ name: 'results', kind: 'variadic', type: AnyType }],
  attrs: [
    { name: 'callee', kind: FlatSymbolRefAttr },
    { name: 'arg_attrs', kind: DictArrayAttr, optional: true },
    { name: 'res_attrs', kind: DictArrayAttr, optional: true },
  ],
  traits: [],
  format: '$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)',
  verify: (op) => verifyCallLike(op, ['tt.func']),
});
/** `tt.get_program_id`: the id of the current program along an axis. */
export const GetProgramIdOp = defineTTOp({
  name: 'tt.get_program_id',
  summary: 'the id of the current program along an axis',
  attrs: [{ name: 'axis', kind: ProgramDim }],
  results: [{ name: 'result', type: I32 }],
  traits: [Pure],
  format: '$axis attr-dict `:` type($result)',
});
/** `tt.get_num_programs`: the number of programs along an axis. */
export const GetNumProgramsOp = defineTTOp({
  name: 'tt.get_num_programs',
  summary: 'the number of programs along an axis',
  attrs: [{ name: 'axis', kind: ProgramDim }],
  results: [{ name: 'result', type: I32 }],
  traits: [Pure],
  format: '$axis attr-dict `:` type($result)',
});
/** `tt.make_range`: a 1-D i32 tensor of start, start + 1, ..., end - 1. */
export const MakeRangeOp = defineTTOp({
  name: 'tt.make_range',
  summary: 'a 1-D i32 tensor of start, start + 1, ..., end - 1',
  attrs: [{ name: 'start', kind: I32Attr }, { name: 'end', kind: I32Attr }],
  results: [{ name: 'result', type: TTIntTensor }],
  traits: [Pure],
  format: 'attr-dict `:` type($result)',
  verify: verifyMakeRange,
});
/** `tt.splat`: a tensor with every element equal to a scalar. */
export const SplatOp = defineTTOp({
  name: 'tt.splat',
  summary: 'a tensor with every element equal to a scalar',
  operands: [{ name: 'src', type: TTType }],
  results: [{ name: 'result', type: TTTensor }],
  traits: [Pure, SameOperandsAndResultElementType, SameOperandsAndResultEncoding],
  format: cast,
  verify: verifySplat,
  fold: splatFold,
});
/** `tt.unsplat`: the single element of a one-element tensor. */
export const UnsplatOp = defineTTOp({
  name: 'tt.unsplat',
  summary: 'the single element of a one-element tensor',
  operands: [{ name: 'src', type: TTTensor }],
  results: [{ name: 'result', type: TTType }],
  traits: [Pure],
  format: '$src attr-dict `:` type($src)',
  inferTypes: { result: inferFrom('src', (t) => elementTypeOf(t)) },
  verify: verifyUnsplat,
});
/** `tt.expand_dims`: inserts a dimension of size 1. */
export const ExpandDimsOp = defineTTOp({
  name: 'tt.expand_dims',
  summary: 'inserts a dimension of size 1',
  operands: [{ name: 'src', type: TTTensor }],
  results: [{ name: 'result', type: TTTensor }],
  attrs: [{ name: 'axis', kind: I32Attr }],
  traits: [Pure, SameOperandsAndResultElementType],
  format: cast,
  verify: verifyExpandDims,
  fold: expandDimsFold,
  canonicalize: [expandDimsOfSplat],
});
/** `tt.reshape`: reinterprets a tensor with another shape. */
export const ReshapeOp = defineTTOp({
  name: 'tt.reshape',
  summary: 'reinterprets a tensor with another shape',
  operands: [{ name: 'src', type: TTTensor }],
  results: [{ name: 'result', type: TTTensor }],
  attrs: [
    { name: 'allow_reorder', kind: UnitAttrC, optional: true },
    { name: 'efficient_layout', kind: UnitAttrC, optional: true },
  ],
  traits: [Pure, SameOperandsAndResultElementType],
  // Triton: `$src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)? attr-dict ...`.
  // The format engine prints a space for the (empty) unit attribute itself, so the keywords go through a directive.
  format: '$src custom<UnitKeyword>($allow_reorder) custom<UnitKeyword>($efficient_layout) attr-dict `:` type($src) `->` type($result)',
  directives: { UnitKeyword: unitKeyword },
  verify: verifyReshape,
});
/** `tt.broadcast`: broadcasts dimensions of size 1 to a larger size. */
export const BroadcastOp = defineTTOp({
  name: 'tt.broadcast',
  summary: 'broadcasts dimensions of size 1 to a larger size',
  operands: [{ name: 'src', type: TTTensor }],
  results: [{ name: 'result', type: TTTensor }],
  traits: [Pure, SameOperandsAndResultElementType, SameOperandsAndResultEncoding],
  format: cast,
  verify: verifyBroadcast,
  fold: broadcastFold,
  canonicalize: [broadcastOfSplat, broadcastOfBroadcast],
});
/** `tt.cat`: concatenates two tensors. */
export const CatOp = defineTTOp({
  name: 'tt.cat',
  summary: 'concatenates two tensors',
  operands: [{ name: 'lhs', type: TTTensor }, { name: 'rhs', type: TTTensor }],
  results: [{ name: 'result', type: TTTensor }],
  traits: [SameTypeOperands, SameOperandsAndResultElementType],
  format: '$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)',
});
/** `tt.join`: joins two tensors along a new minor dimension of size 2. */
export const JoinOp = defineTTOp({
  name: 'tt.join',
  summary: 'joins two tensors along a new minor dimension of size 2',
  operands: [{ name: 'lhs', type: TTTensor }, { name: 'rhs', type: TTTensor }],
  results: [{ name: 'result', type: TTTensor }],
  traits: [Pure, SameTypeOperands],
  format: '$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)',
  verify: verifyJoin,
});
/** `tt.split`: splits a tensor along its last dimension (of size 2). */
export const SplitOp = defineTTOp({
  name: 'tt.split',
  summary: 'splits a tensor along its last dimension (of size 2)',
  operands: [{ name: 'src', type: TTTensor }],
  results: [{ name: 'outLHS', type: TTTensor }, { name: 'outRHS', type: TTTensor }],
  traits: [Pure],
  format: '$src attr-dict `:` type($src) `->` type($outLHS)',
  inferTypes: { outRHS: (env) => env.result('outLHS') },
  verify: verifySplit,
});
/** `tt.trans`: permutes the dimensions of a tensor. */
export const TransOp = defineTTOp({
  name: 'tt.trans',
  summary: 'permutes the dimensions of a tensor',
  operands: [{ name: 'src', type: TTTensor }],
  results: [{ name: 'result', type: TTTensor }],
  attrs: [{ name: 'order', kind: DenseI32ArrayAttr }],
  traits: [Pure, SameOperandsAndResultElementType],
  format: cast,
  verify: verifyTrans,
});
/** `tt.addptr`: offsets pointers by a number of elements. */
export const AddptrOp = defineTTOp({
  name: 'tt.addptr',
  summary: 'offsets pointers by a number of elements',
  operands: [{ name: 'ptr', type: TTPtrLike }, { name: 'offset', type: TTIntLike }],
  results: [{ name: 'result', type: TTPtrLike }],
  traits: [Pure, Elementwise, SameOperandsAndResultShape, SameOperandsAndResultEncoding],
  format: '$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)',
  inferTypes: { ptr: (env) => env.result('result') },
  verify: verifyAddPtr,
  fold: addPtrFold,
});
/** `tt.int_to_ptr`: casts i64 to a pointer. */
export const IntToPtrOp = defineTTOp({
  name: 'tt.int_to_ptr',
  summary: 'casts i64 to a pointer',
  operands: [{ name: 'src', type: TTI64Like }],
  results: [{ name: 'result', type: TTPtrLike }],
  traits: [Elementwise, SameOperandsAndResultShape, SameOperandsAndResultEncoding, Pure],
  format: cast,
});
/** `tt.ptr_to_int`: casts a pointer to i64. */
export const PtrToIntOp = defineTTOp({
  name: 'tt.ptr_to_int',
  summary: 'casts a pointer to i64',
  operands: [{ name: 'src', type: TTPtrLike }],
  results: [{ name: 'result', type: TTI64Like }],
  traits: [Elementwise, SameOperandsAndResultShape, SameOperandsAndResultEncoding, Pure],
  format: cast,
});
/** `tt.bitcast`: reinterprets bits between types of the same width (pointers included). */
export const BitcastOp = defineTTOp({
  name: 'tt.bitcast',
  summary: 'reinterprets bits between types of the same width (pointers included)',
  operands: [{ name: 'src', type: TTType }],
  results: [{ name: 'result', type: TTType }],
  traits: [Elementwise, SameOperandsAndResultShape, SameOperandsAndResultEncoding, Pure],
  format: cast,
  verify: verifyBitcast,
});
/** `tt.fp_to_fp`: floating-point conversion for custom types (fp8) and rounding modes. */
export const FpToFpOp = defineTTOp({
  name: 'tt.fp_to_fp',
  summary: 'floating-point conversion for custom types (fp8) and rounding modes',
  operands: [{ name: 'src', type: TTFloatLike }],
  results: [{ name: 'result', type: TTFloatLike }],
  attrs: [{ name: 'rounding', kind: RoundingMode, optional: true }],
  traits: [Elementwise, SameOperandsAndResultShape, SameOperandsAndResultEncoding, Pure],
  format: '$src attr-dict (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)',
  verify: verifyFpToFp,
});
/** `tt.clampf`: clamps floats to [min, max]. */
export const ClampfOp = defineTTOp({
  name: 'tt.clampf',
  summary: 'clamps floats to [min, max]',
  operands: [{ name: 'x', type: TTFloatLike }, { name: 'min', type: TTFloatLike }, { name: 'max', type: TTFloatLike }],
  results: [{ name: 'result', type: TTFloatLike }],
  attrs: [{ name: 'propagateNan', kind: PropagateNan }],
  traits: [Elementwise, SameOperandsAndResultType, Pure],
  format: '$x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)',
});
/** `tt.precise_sqrt`: correctly rounded square root. */
export const PreciseSqrtOp = defineTTOp({
  name: 'tt.precise_sqrt',
  summary: 'correctly rounded square root',
  operands: [{ name: 'x', type: TTFloatLike }],
  results: [{ name: 'result', type: TTFloatLike }],
  traits: [Elementwise, SameOperandsAndResultType, Pure],
  format: '$x attr-dict `:` type($x)',
});
/** `tt.precise_divf`: correctly rounded division. */
export const PreciseDivfOp = defineTTOp({
  name: 'tt.precise_divf',
  summary: 'correctly rounded division',
  operands: [{ name: 'x', type: TTFloatLike }, { name: 'y', type: TTFloatLike }],
  results: [{ name: 'result', type: TTFloatLike }],
  traits: [Elementwise, SameOperandsAndResultType, Pure],
  format: '$x `,` $y attr-dict `:` type($x)',
});
/** `tt.mulhiui`: the high half of the double-width product of two unsigned integers. */
export const MulhiuiOp = defineTTOp({
  name: 'tt.mulhiui',
  summary: 'the high half of the double-width product of two unsigned integers',
  operands: [{ name: 'x', type: TTIntLike }, { name: 'y', type: TTIntLike }],
  results: [{ name: 'result', type: TTIntLike }],
  traits: [Elementwise, SameOperandsAndResultType, Pure],
  format: '$x `,` $y attr-dict `:` type($x)',
});

/** Function, SPMD, shape, pointer, cast and math ops of the tt dialect. */
export const ttCoreOps: OpDef[] = [
  FuncOp,
  ReturnOp,
  CallOp,
  GetProgramIdOp,
  GetNumProgramsOp,
  MakeRangeOp,
  SplatOp,
  UnsplatOp,
  ExpandDimsOp,
  ReshapeOp,
  BroadcastOp,
  CatOp,
  JoinOp,
  SplitOp,
  TransOp,
  AddptrOp,
  IntToPtrOp,
  PtrToIntOp,
  BitcastOp,
  FpToFpOp,
  ClampfOp,
  PreciseSqrtOp,
  PreciseDivfOp,
  MulhiuiOp,
];

