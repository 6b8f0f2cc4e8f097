/**
 * Triton's enum attributes (TritonAttrDefs.td) and type constraints (TritonTypes.td).
 * Every enum is an ODS `I32EnumAttr`: stored as an `i32` integer attribute, written as a
 * keyword where an assembly format names it.
 */
import { IntegerAttr, boolAttr, DenseArrayAttr } from '../../ir/attributes.js';
import { intEnum, typeIs } from '../../ir/constraints.js';
import type { AsmParser, AsmPrinter } from '../../ir/asm.js';
import type { TypeConstraint } from '../../ir/op-spec.js';
import { FloatType, IntegerType, RankedTensorType, type Type, i } from '../../ir/types.js';
import { PointerType, TensorDescType } from './types.js';

// ---- enums ---------------------------------------------------------------------------------

/** `ProgramIDDim`: x = 0, y = 1, z = 2. */
export const ProgramDim = intEnum('ProgramIDDim', 32, ['x', 'y', 'z'], [0, 1, 2]);
/** `CacheModifier`: none = 1 ... cv = 7. */
export const CacheModifier = intEnum('CacheModifier', 32, ['none', 'ca', 'cg', 'wb', 'cs', 'wt', 'cv'], [1, 2, 3, 4, 5, 6, 7]);
/** `EvictionPolicy`: evict_normal = 1, evict_first = 2, evict_last = 3. */
export const EvictionPolicy = intEnum('EvictionPolicy', 32, ['evict_normal', 'evict_first', 'evict_last'], [1, 2, 3]);
/** `PaddingOption`: zero = 1, nan = 2. */
export const PaddingOption = intEnum('PaddingOption', 32, ['zero', 'nan'], [1, 2]);
/** `MemSemantic`: relaxed = 1, acquire = 2, release = 3, acq_rel = 4. */
export const MemSemantic = intEnum('MemSemantic', 32, ['relaxed', 'acquire', 'release', 'acq_rel'], [1, 2, 3, 4]);
/** `MemSyncScope`: gpu = 1, cta = 2, sys = 3. */
export const MemSyncScope = intEnum('MemSyncScope', 32, ['gpu', 'cta', 'sys'], [1, 2, 3]);
/** `RMWOp`: and = 1 ... exch = 10. */
export const RMWOp = intEnum(
  'RMWOp', 32, ['and', 'or', 'xor', 'add', 'fadd', 'max', 'min', 'umax', 'umin', 'exch'], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
);
/** `DescriptorReduceKind`: add = 1 ... xor = 8. */
export const DescriptorReduceKind = intEnum(
  'DescriptorReduceKind', 32, ['add', 'min', 'max', 'inc', 'dec', 'and', 'or', 'xor'], [1, 2, 3, 4, 5, 6, 7, 8],
);
/** `RoundingMode`: rtz = 0, rtne = 1. */
export const RoundingMode = intEnum('RoundingMode', 32, ['rtz', 'rtne'], [0, 1]);
/** `PropagateNan`: none = 0, all = 0xFFFF. */
export const PropagateNan = intEnum('PropagateNan', 32, ['none', 'all'], [0, 0xffff]);
/** `InputPrecision`: tf32 = 0, tf32x3 = 1, ieee = 2, bf16x3 = 3, bf16x6 = 4 (default ieee). */
export const InputPrecision = intEnum('InputPrecision', 32, ['tf32', 'tf32x3', 'ieee', 'bf16x3', 'bf16x6'], [0, 1, 2, 3, 4]);
/** `ScaleDotElemType`: e4m3 = 0 ... fp16 = 6. */
export const ScaleDotElemType = intEnum('ScaleDotElemType', 32, ['e4m3', 'e5m2', 'e2m3', 'e3m2', 'e2m1', 'bf16', 'fp16'], [0, 1, 2, 3, 4, 5, 6]);

/** Common default values (attributes are uniqued, so these compare with `===`). */
export const Defaults = {
  cache: (): IntegerAttr => CacheModifier.byName('none'),
  evict: (): IntegerAttr => EvictionPolicy.byName('evict_normal'),
  boundaryCheck: (): DenseArrayAttr => DenseArrayAttr.get(i(32), []),
  falseAttr: (): IntegerAttr => boolAttr(false),
  trueAttr: (): IntegerAttr => boolAttr(true),
  i32Zero: (): IntegerAttr => IntegerAttr.get(0, i(32)),
};

// ---- type constraints ----------------------------------------------------------------------

const isInt = (t: Type) => t instanceof IntegerType && t.signedness === 'signless' && [1, 8, 16, 32, 64].includes(t.width);
const isFloat = (t: Type) => t instanceof FloatType;
const isPtr = (t: Type) => t instanceof PointerType;
const tensorOfPred = (p: (t: Type) => boolean) => (t: Type) => t instanceof RankedTensorType && p(t.elementType);
const likePred = (p: (t: Type) => boolean) => (t: Type) => p(t) || tensorOfPred(p)(t);

/** Whether `t` is `!tt.ptr<tensor<...>>` (a block pointer). */
export function isTensorPtr(t: Type): t is PointerType {
  return t instanceof PointerType && t.pointee instanceof RankedTensorType;
}

/** `TT_Float`: any floating-point type. */
export const TTFloat = typeIs('floating-point', isFloat);
/** `TT_FloatLike`. */
export const TTFloatLike = typeIs('floating-point or ranked tensor of floating-point values', likePred(isFloat));
/** `TT_FloatTensor`. */
export const TTFloatTensor = typeIs('ranked tensor of floating-point values', tensorOfPred(isFloat));
/** `TT_IntLike`. */
export const TTIntLike = typeIs('integer or ranked tensor of integer values', likePred(isInt));
/** `TT_IntTensor`. */
export const TTIntTensor = typeIs('ranked tensor of integer values', tensorOfPred(isInt));
/** `TT_BoolLike`: i1 or a tensor of i1. */
export const TTBoolLike = typeIs('1-bit signless integer or ranked tensor of 1-bit signless integer values', likePred((t) => t === i(1)));
/** `TT_I32Like`. */
export const TTI32Like = typeIs('32-bit signless integer or ranked tensor of 32-bit signless integer values', likePred((t) => t === i(32)));
/** `TT_I64Like`. */
export const TTI64Like = typeIs('64-bit signless integer or ranked tensor of 64-bit signless integer values', likePred((t) => t === i(64)));
/** `TT_PtrLike`: a pointer or a tensor of pointers. */
export const TTPtrLike = typeIs('ptr or ranked tensor of ptr values', likePred(isPtr));
/** `TT_FpIntTensor`. */
export const TTFpIntTensor = typeIs('ranked tensor of floating-point or integer values', tensorOfPred((t) => isFloat(t) || isInt(t)));
/** `TT_Tensor`: a ranked tensor of floats, integers or pointers. */
export const TTTensor = typeIs('ranked tensor of floating-point, integer or ptr values', tensorOfPred((t) => isFloat(t) || isInt(t) || isPtr(t)));
/** `RankedTensorOf<[TT_Float, I8]>` (dot_scaled operands). */
export const TTFloatOrI8Tensor = typeIs('ranked tensor of floating-point or 8-bit signless integer values', tensorOfPred((t) => isFloat(t) || t === i(8)));
/** `TT_Type`: any value type Triton computes with. */
export const TTType = typeIs(
  'floating-point, integer, ptr, or ranked tensor of those',
  (t) => likePred((x) => isFloat(x) || isInt(x) || isPtr(x))(t),
);
/** `AnyTypeOf<[TT_PtrLike, TT_TensorPtr]>` (load/store pointer operand). */
export const TTPtrOrTensorPtr = typeIs('ptr, ranked tensor of ptr values, or ptr to tensor', likePred(isPtr));
/** `TT_Ptr`: a scalar pointer; `type(...)` prints it stripped (`<f16>`), as ODS does for this type class. */
export const TTPtr: TypeConstraint = {
  description: 'ptr',
  check: isPtr,
  stripped: { print: (p: AsmPrinter, t: Type) => p.printStrippedType(t), parse: (p: AsmParser) => PointerType.parseBody(p) },
};
/** `TT_TensorPtr`: a pointer to a tensor, printed stripped (`<tensor<8x8xf16>>`). */
export const TTTensorPtr: TypeConstraint = {
  description: 'ptr to ranked tensor',
  check: isTensorPtr,
  stripped: { print: (p: AsmPrinter, t: Type) => p.printStrippedType(t), parse: (p: AsmParser) => PointerType.parseBody(p) },
};
/** `TT_TensorDescType`, printed stripped (`<tensor<64x64xf16>>`) unless the format says `qualified`. */
export const TTTensorDesc: TypeConstraint = {
  description: 'tensor descriptor type',
  check: (t) => t instanceof TensorDescType,
  stripped: { print: (p: AsmPrinter, t: Type) => p.printStrippedType(t), parse: (p: AsmParser) => TensorDescType.parseBody(p) },
};
