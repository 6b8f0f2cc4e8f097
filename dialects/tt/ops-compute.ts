/**
 * The tt dialect's compute and debugging ops: dot, dot_scaled, reduce/scan/map_elementwise with
 * their combine regions, extern and inline-asm elementwise ops, histogram, gather, print and
 * assert (TritonOps.td, Triton 3.6).
 */
import { AnyType, BoolAttr, DenseI32ArrayAttr, I32Attr, StrAttr, UnitAttrC, typeIs } from '../../ir/constraints.js';
import { IntegerAttr } from '../../ir/attributes.js';
import type { Operation } from '../../ir/ir.js';
import { FloatType, RankedTensorType, ShapedType, type Type, elementTypeOf, i } from '../../ir/types.js';
import {
  Defaults, InputPrecision, ScaleDotElemType, TTBoolLike, TTFloatOrI8Tensor, TTFloatTensor, TTFpIntTensor, TTIntTensor,
  TTTensor, TTType,
} from './enums.js';
import { i1SameShape, inferFrom } from './util.js';
import { defineTTOp } from './util.js';
import type { OpDef } from '../../ir/op-def.js';
import { Elementwise, HasParent, Pure, RecursiveMemoryEffects, ReturnLike, SameOperandsAndResultEncoding, SameOperandsAndResultShape, SameOperandsEncoding, SameOperandsShape, SingleBlock, Terminator } from '../../ir/traits.js';

function axisOf(op: Operation): number {
  const a = op.getAttr('axis');
  return a instanceof IntegerAttr ? a.num : 0;
}

// ---- dot ----------------------------------------------------------------------------------

function verifyDotShapes(a: Type, b: Type, c: Type): string | void {
  if (!(a instanceof RankedTensorType) || !(b instanceof RankedTensorType) || !(c instanceof RankedTensorType)) return;
  const r = a.rank;
  if (r !== 2 && r !== 3) return `expected operands of rank 2 or 3 (batched), got rank ${r}`;
  if (b.rank !== r || c.rank !== r) return 'expected all operands to have the same rank';
  if (r === 3 && (b.shape[0] !== a.shape[0] || c.shape[0] !== a.shape[0])) return 'expected the batch dimensions of all operands to match';
  const [m, k] = a.shape.slice(r - 2);
  const [k2, n] = b.shape.slice(r - 2);
  if (k !== k2) return `expected the reduction dimension of a (${k}) to equal that of b (${k2})`;
  const [cm, cn] = c.shape.slice(r - 2);
  if (cm !== m || cn !== n) return `expected the accumulator shape ${c.shape.join('x')} to be ${[...a.shape.slice(0, r - 2), m, n].join('x')}`;
}

function verifyDot(op: Operation): string | void {
  const [a, b, c] = op.operandValues().map((v) => v.type);
  if (op.result(0).type !== c) return `result type '${op.result(0).type}' must match the accumulator type '${c}'`;
  const m = verifyDotShapes(a, b, c);
  if (m) return m;
  if (elementTypeOf(a) !== elementTypeOf(b) && !(isFp8(elementTypeOf(a)) && isFp8(elementTypeOf(b))))
    return `expected the element types of a and b to match, got '${elementTypeOf(a)}' and '${elementTypeOf(b)}'`;
}

function isFp8(t: Type): boolean {
  return t instanceof FloatType && t.width === 8;
}

function verifyDotScaled(op: Operation): string | void {
  const spec = op.spec!;
  const c = spec.operandGroup(op, 'c')[0].type;
  if (op.result(0).type !== c) return `result type '${op.result(0).type}' must match the accumulator type '${c}'`;
  const a = spec.operandGroup(op, 'a')[0].type;
  const b = spec.operandGroup(op, 'b')[0].type;
  if (!(a instanceof RankedTensorType) || !(b instanceof RankedTensorType) || !(c instanceof RankedTensorType)) return;
  if (a.rank !== c.rank || b.rank !== c.rank) return 'expected all operands to have the same rank';
  const r = c.rank;
  // fp4 (e2m1) operands are packed two per i8, along K unless `*_k_pack` is false (then along M / N).
  const packedMN = (elem: string, kPack: string) =>
    ScaleDotElemType.nameOf(op.getAttr(elem)!) === 'e2m1' && op.getAttr(kPack) === Defaults.falseAttr() ? 2 : 1;
  const m = a.shape[r - 2] * packedMN('a_elem_type', 'lhs_k_pack');
  const n = b.shape[r - 1] * packedMN('b_elem_type', 'rhs_k_pack');
  if (m !== c.shape[r - 2] || n !== c.shape[r - 1]) return `expected the accumulator shape ${c.shape.join('x')} to be ${m}x${n} (M x N of the operands)`;
}

// ---- reduce / scan ------------------------------------------------------------------------

/** Checks the combine region: one block taking 2N scalars, terminated by `terminator` returning N. */
function verifyCombineRegion(op: Operation, elts: Type[], terminator: string): string | void {
  const region = op.regions[0];
  if (!region || region.blocks.length !== 1) return 'expected the combine region to have exactly one block';
  const block = region.blocks[0];
  const n = elts.length;
  if (block.args.length !== 2 * n) return `nested block must take ${2 * n} arguments (2 per operand), but takes ${block.args.length}`;
  for (let k = 0; k < 2 * n; k++) {
    const want = elts[k % n];
    if (block.args[k].type !== want) return `combine region argument #${k} has type '${block.args[k].type}', but expected '${want}'`;
  }
  // A wrong terminator is reported by its own HasParent check (MLIR runs region verifiers after nested ops).
  const term = block.last;
  if (!term || term.name !== terminator) return;
  if (term.numOperands !== n) return `combine region must return ${n} values, but '${terminator}' has ${term.numOperands}`;
  for (let k = 0; k < n; k++)
    if (term.operand(k).type !== elts[k]) return `combine region returns '${term.operand(k).type}' at #${k}, but expected '${elts[k]}'`;
}

function inputsOf(op: Operation): RankedTensorType[] | string {
  if (!op.numOperands) return 'must have at least 1 operand';
  if (op.numOperands !== op.numResults) return 'must have the same number of inputs as outputs';
  const ts = op.operandValues().map((v) => v.type);
  if (!ts.every((t): t is RankedTensorType => t instanceof RankedTensorType)) return 'operands must be ranked tensors';
  const axis = axisOf(op);
  if (axis < 0 || axis >= ts[0].rank) return `${op.name === 'tt.scan' ? 'scan' : 'reduction'} axis must be < inputs rank`;
  return ts;
}

function verifyReduce(op: Operation): string | void {
  const ins = inputsOf(op);
  if (typeof ins === 'string') return ins;
  const axis = axisOf(op);
  for (let k = 0; k < ins.length; k++) {
    const t = ins[k];
    const res = op.result(k).type;
    if (t.rank === 1) {
      if (res !== t.elementType) return `result #${k} must be the scalar '${t.elementType}', got '${res}'`;
      continue;
    }
    const shape = t.shape.filter((_, d) => d !== axis);
    if (!(res instanceof RankedTensorType) || res.elementType !== t.elementType || res.shape.join('x') !== shape.join('x'))
      return `result #${k} must be a tensor of shape ${shape.join('x')} and element type '${t.elementType}', got '${res}'`;
  }
  return verifyCombineRegion(op, ins.map((t) => t.elementType), 'tt.reduce.return');
}

function verifyScan(op: Operation): string | void {
  const ins = inputsOf(op);
  if (typeof ins === 'string') return ins;
  for (let k = 0; k < ins.length; k++)
    if (op.result(k).type !== ins[k]) return `result #${k} type '${op.result(k).type}' must match operand type '${ins[k]}'`;
  return verifyCombineRegion(op, ins.map((t) => t.elementType), 'tt.scan.return');
}

function verifyMapElementwise(op: Operation): string | void {
  const pack = axisOrAttr(op, 'pack');
  if (pack < 1) return 'pack must be at least 1';
  const region = op.regions[0];
  if (!region || region.empty) return;
  const block = region.blocks[0];
  if (block.args.length !== op.numOperands * pack)
    return `region must take ${op.numOperands * pack} arguments (${pack} per operand), but takes ${block.args.length}`;
  for (let k = 0; k < block.args.length; k++) {
    const want = elementTypeOf(op.operand(Math.floor(k / pack)).type);
    if (block.args[k].type !== want) return `region argument #${k} has type '${block.args[k].type}', but expected '${want}'`;
  }
}

function axisOrAttr(op: Operation, name: string): number {
  const a = op.getAttr(name);
  return a instanceof IntegerAttr ? a.num : 0;
}

// ---- elementwise / misc -------------------------------------------------------------------

/** ODS `Elementwise`: all tensor operands and results share one shape. */
function verifyElementwiseShapes(op: Operation): string | void {
  const shaped = [...op.operandValues(), ...op.results].map((v) => v.type).filter((t): t is ShapedType => t instanceof ShapedType);
  if (!shaped.length) return;
  const s0 = shaped[0].shape.join('x');
  if (shaped.some((t) => t.shape.join('x') !== s0)) return 'requires all tensor operands and results to have the same shape';
  const hasScalar = [...op.operandValues(), ...op.results].some((v) => !(v.type instanceof ShapedType));
  if (hasScalar && op.numResults && op.result(0).type instanceof ShapedType) return 'requires all operands and results to be tensors when any is';
}

function verifyGather(op: Operation): string | void {
  const [src, idx] = op.operandValues().map((v) => v.type) as RankedTensorType[];
  const res = op.result(0).type as RankedTensorType;
  const axis = axisOf(op);
  if (idx.shape.join('x') !== res.shape.join('x')) return 'indices and output shapes must match';
  if (idx.encoding !== res.encoding) return 'indices and output encodings must match';
  if (src.elementType !== res.elementType) return 'input and output element types must match';
  if (src.rank !== idx.rank) return 'input and indices ranks must match';
  if (axis < 0 || axis >= src.rank) return 'gather dimension must be less than the input rank';
  for (let d = 0; d < src.rank; d++) {
    if (d !== axis && idx.shape[d] !== src.shape[d]) return `indices dimension ${d} must match the corresponding input dimension`;
  }
}

function verifyHistogram(op: Operation): string | void {
  const src = op.operand(0).type as RankedTensorType;
  const res = op.result(0).type as RankedTensorType;
  if (src.rank !== 1 || res.rank !== 1) return 'expected 1-D source and result tensors';
}

function verifyPrint(op: Operation): string | void {
  const signed = op.getAttr('isSigned');
  if (signed && 'values' in signed && (signed as { values: readonly number[] }).values.length !== op.numOperands)
    return `isSigned must have one entry per argument (${op.numOperands}), got ${(signed as { values: readonly number[] }).values.length}`;
}

const I1OrI1Tensor = typeIs('1-bit signless integer or tensor of 1-bit signless integer values', (t) => elementTypeOf(t) === i(1));

// ---- table --------------------------------------------------------------------------------

/** `tt.dot`: d = a * b + c (matrix multiply-accumulate). */
export const DotOp = defineTTOp({
  name: 'tt.dot',
  summary: 'd = a * b + c (matrix multiply-accumulate)',
  operands: [{ name: 'a', type: TTFpIntTensor }, { name: 'b', type: TTFpIntTensor }, { name: 'c', type: TTFpIntTensor }],
  results: [{ name: 'd', type: TTFpIntTensor }],
  attrs: [
    { name: 'inputPrecision', kind: InputPrecision, default: InputPrecision.byName('ieee') },
    { name: 'maxNumImpreciseAcc', kind: I32Attr, default: Defaults.i32Zero() },
  ],
  traits: [Pure],
  format: '$a `,` $b `,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:` type($a) `*` type($b) `->` type($d)',
  inferTypes: { c: (env) => env.result('d') },
  verify: verifyDot,
});
/** `tt.dot_scaled`: d = scale(a, a_scale) * scale(b, b_scale) + c (microscaling formats). */
export const DotScaledOp = defineTTOp({
  name: 'tt.dot_scaled',
  summary: 'd = scale(a, a_scale) * scale(b, b_scale) + c (microscaling formats)',
  operands: [
    { name: 'a', type: TTFloatOrI8Tensor },
    { name: 'b', type: TTFloatOrI8Tensor },
    { name: 'c', type: TTFloatTensor },
    { name: 'a_scale', kind: 'optional', type: TTFloatOrI8Tensor },
    { name: 'b_scale', kind: 'optional', type: TTFloatOrI8Tensor },
  ],
  results: [{ name: 'd', type: TTFloatTensor }],
  attrs: [
    { name: 'a_elem_type', kind: ScaleDotElemType },
    { name: 'b_elem_type', kind: ScaleDotElemType },
    { name: 'fastMath', kind: BoolAttr },
    { name: 'lhs_k_pack', kind: BoolAttr, default: Defaults.trueAttr() },
    { name: 'rhs_k_pack', kind: BoolAttr, default: Defaults.trueAttr() },
  ],
  traits: [Pure],
  format:
    '$a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c `lhs` `=` $a_elem_type `rhs` `=` $b_elem_type attr-dict ' +
    '`:` type($a) (`,` type($a_scale)^)? `*` type($b) (`,` type($b_scale)^)? `->` type($d)',
  inferTypes: { c: (env) => env.result('d') },
  verify: verifyDotScaled,
});
/** `tt.reduce`: reduces tensors along an axis with a combine region. */
export const ReduceOp = defineTTOp({
  name: 'tt.reduce',
  summary: 'reduces tensors along an axis with a combine region',
  operands: [{ name: 'srcs', kind: 'variadic', type: TTTensor }],
  results: [{ name: 'result', kind: 'variadic', type: TTType }],
  attrs: [{ name: 'axis', kind: I32Attr }],
  regions: [{ name: 'combineOp', blocks: 1 }],
  traits: [Pure, SameOperandsShape, SameOperandsEncoding, SingleBlock],
  verify: verifyReduce,
});
/** `tt.reduce.return`: terminates the combine region of tt.reduce. */
export const ReduceReturnOp = defineTTOp({
  name: 'tt.reduce.return',
  summary: 'terminates the combine region of tt.reduce',
  operands: [{ name: 'result', kind: 'variadic', type: AnyType }],
  traits: [HasParent('tt.reduce'), Pure, Terminator, ReturnLike],
  format: '$result attr-dict `:` type($result)',
});
/** `tt.scan`: associative scan along an axis with a combine region. */
export const ScanOp = defineTTOp({
  name: 'tt.scan',
  summary: 'associative scan along an axis with a combine region',
  operands: [{ name: 'srcs', kind: 'variadic', type: TTTensor }],
  results: [{ name: 'result', kind: 'variadic', type: TTTensor }],
  attrs: [{ name: 'axis', kind: I32Attr }, { name: 'reverse', kind: BoolAttr }],
  regions: [{ name: 'combineOp', blocks: 1 }],
  traits: [Pure, SameOperandsAndResultEncoding, SameOperandsAndResultShape, SingleBlock],
  verify: verifyScan,
});
/** `tt.scan.return`: terminates the combine region of tt.scan. */
export const ScanReturnOp = defineTTOp({
  name: 'tt.scan.return',
  summary: 'terminates the combine region of tt.scan',
  operands: [{ name: 'result', kind: 'variadic', type: AnyType }],
  traits: [HasParent('tt.scan'), Pure, Terminator, ReturnLike],
  format: '$result attr-dict `:` type($result)',
});
/** `tt.map_elementwise`: maps a scalar region over tensors, `pack` elements at a time. */
export const MapElementwiseOp = defineTTOp({
  name: 'tt.map_elementwise',
  summary: 'maps a scalar region over tensors, `pack` elements at a time',
  operands: [{ name: 'srcs', kind: 'variadic', type: TTTensor }],
  results: [{ name: 'result', kind: 'variadic', type: TTTensor }],
  attrs: [{ name: 'pack', kind: I32Attr }],
  regions: [{ name: 'scalarOp' }],
  traits: [SameOperandsAndResultEncoding, SameOperandsAndResultShape, RecursiveMemoryEffects],
  verify: verifyMapElementwise,
});
/** `tt.map_elementwise.return`: terminates the region of tt.map_elementwise. */
export const MapElementwiseReturnOp = defineTTOp({
  name: 'tt.map_elementwise.return',
  summary: 'terminates the region of tt.map_elementwise',
  operands: [{ name: 'result', kind: 'variadic', type: AnyType }],
  traits: [HasParent('tt.map_elementwise'), Pure, Terminator, ReturnLike],
  format: 'attr-dict ($result^ `:` type($result))?',
});
/** `tt.extern_elementwise`: calls an external (libdevice-style) function elementwise. */
export const ExternElementwiseOp = defineTTOp({
  name: 'tt.extern_elementwise',
  summary: 'calls an external (libdevice-style) function elementwise',
  operands: [{ name: 'srcs', kind: 'variadic', type: TTType }],
  results: [{ name: 'result', type: TTType }],
  attrs: [
    { name: 'libname', kind: StrAttr },
    { name: 'libpath', kind: StrAttr },
    { name: 'symbol', kind: StrAttr },
    { name: 'pure', kind: BoolAttr },
  ],
  traits: [Elementwise, SameOperandsAndResultEncoding],
  // no memory effects when `pure` is set, as Triton's op (libdevice calls are)
  pureWhen: (op) => {
    const pure = op.getAttr('pure');
    return pure instanceof IntegerAttr && pure.value !== 0n;
  },
  format: 'operands attr-dict `:` functional-type(operands, $result)',
  verify: verifyElementwiseShapes,
});
/** `tt.elementwise_inline_asm`: inline assembly applied to packed groups of elements. */
export const ElementwiseInlineAsmOp = defineTTOp({
  name: 'tt.elementwise_inline_asm',
  summary: 'inline assembly applied to packed groups of elements',
  operands: [{ name: 'args', kind: 'variadic', type: TTType }],
  results: [{ name: 'result', kind: 'variadic', type: TTType }],
  attrs: [
    { name: 'asm_string', kind: StrAttr },
    { name: 'constraints', kind: StrAttr },
    { name: 'pure', kind: BoolAttr },
    { name: 'packed_element', kind: I32Attr },
  ],
  traits: [Elementwise, SameOperandsAndResultEncoding],
  // Triton's op has no memory effects when `pure` is set (the verifier checked it is a bool)
  pureWhen: (op) => {
    const pure = op.getAttr('pure');
    return pure instanceof IntegerAttr && pure.value !== 0n;
  },
  format: '$asm_string attr-dict ($args^ `:` type($args))? `->` type($result)',
  verify: (op) => {
    if (axisOrAttr(op, 'packed_element') < 1) return 'packed_element must be at least 1';
    return verifyElementwiseShapes(op);
  },
});
/** `tt.histogram`: a histogram of integer values (bins of width 1 starting at 0). */
export const HistogramOp = defineTTOp({
  name: 'tt.histogram',
  summary: 'a histogram of integer values (bins of width 1 starting at 0)',
  operands: [{ name: 'src', type: TTIntTensor }, { name: 'mask', kind: 'optional', type: TTBoolLike }],
  results: [{ name: 'result', type: TTIntTensor }],
  traits: [Pure],
  format: '$src (`,` $mask^)? attr-dict `:` type($src) `->` type($result)',
  inferTypes: { mask: inferFrom('src', i1SameShape) },
  verify: verifyHistogram,
});
/** `tt.gather`: gathers elements of a tensor along an axis. */
export const GatherOp = defineTTOp({
  name: 'tt.gather',
  summary: 'gathers elements of a tensor along an axis',
  operands: [{ name: 'src', type: TTTensor }, { name: 'indices', type: TTIntTensor }],
  results: [{ name: 'result', type: TTTensor }],
  attrs: [{ name: 'axis', kind: I32Attr }, { name: 'efficient_layout', kind: UnitAttrC, optional: true }],
  traits: [Pure],
  format: '$src `[` $indices `]` attr-dict `:` functional-type(operands, results)',
  verify: verifyGather,
});
/**
 * The digits `tt.print` pads an index of a dimension of `size` to (Triton's GPU lines: `idx ( 5)`
 * for a dimension of 16); the NVPTX target and the CPU interpreter print the same lines.
 */
export const printIndexDigits = (size: number): number => (size > 1 ? Math.ceil(Math.log10(size)) : 0);

/** `tt.print`: device-side print. */
export const PrintOp = defineTTOp({
  name: 'tt.print',
  summary: 'device-side print',
  operands: [{ name: 'args', kind: 'variadic', type: TTType }],
  attrs: [
    { name: 'prefix', kind: StrAttr },
    { name: 'hex', kind: BoolAttr },
    { name: 'isSigned', kind: DenseI32ArrayAttr },
  ],
  traits: [],
  format: '$prefix attr-dict (`:` $args^ `:` type($args))?',
  verify: verifyPrint,
});
/** `tt.assert`: device-side assert. */
export const AssertOp = defineTTOp({
  name: 'tt.assert',
  summary: 'device-side assert',
  operands: [{ name: 'condition', type: I1OrI1Tensor }],
  attrs: [{ name: 'message', kind: StrAttr }],
  traits: [],
  format: '$condition `,` $message attr-dict `:` type($condition)',
});

/** Dot, reduction, scan, elementwise-extension, gather and debugging ops of the tt dialect. */
export const ttComputeOps: OpDef[] = [
  DotOp,
  DotScaledOp,
  ReduceOp,
  ReduceReturnOp,
  ScanOp,
  ScanReturnOp,
  MapElementwiseOp,
  MapElementwiseReturnOp,
  ExternElementwiseOp,
  ElementwiseInlineAsmOp,
  HistogramOp,
  GatherOp,
  PrintOp,
  AssertOp,
];
