/**
 * The arith dialect: integer and float arithmetic, comparisons, select, casts and constants,
 * with MLIR 19's syntax (`arith.addi %a, %b overflow<nsw> : i32`, `arith.cmpi slt, %a, %b : i32`).
 */
import {
  Attribute, DenseElementsAttr, FloatAttr, IntegerAttr, TypeAttr,
} from '../ir/attributes.js';
import {
  AnyType, BoolLike, FloatLike, SignlessIntegerLike, SignlessIntegerOrIndexLike, TypedAttr, attrIs, boolLike, intEnum,
  typeIs,
} from '../ir/constraints.js';
import type { Operation } from '../ir/ir.js';
import type { DialectDecl, OpDecl } from '../ir/op-spec.js';
import {
  FloatType, IndexType, IntegerType, type Type, VectorType, bitWidth, elementTypeOf, shapeOf,
} from '../ir/types.js';
import { DenseComplexElementsAttr, DenseResourceAttr, DenseStringElementsAttr } from '../ir/builtin-attrs.js';
import {
  FASTMATH_NONE, OVERFLOW_NONE, arithAttrParsers, fastmathConstraint, overflowConstraint,
} from './arith-attrs.js';
import {
  castFolds, cmpfFold, cmpiFold, constantsToTheRight, firstFold, floatFolds, intIdentities, intPatterns, negfFold, selectFold, selectI1ToLogic, splatInt, intConstant,
} from './arith-canonicalize.js';
import { defineOp, type DeclOf } from '../ir/op-def.js';
import { AddUIExtendedOp, MulSIExtendedOp, MulUIExtendedOp, RoundingMode } from './arith-extended.js';
export { AddUIExtendedOp, MulSIExtendedOp, MulUIExtendedOp, RoundingMode };
import { Commutative, ConstantLike, Elementwise, Pure, SameOperandsAndResultShape, SameOperandsAndResultType, SameTypeOperands } from '../ir/traits.js';

/** `arith.cmpi` predicates, by their i64 value. */
export const CmpIPredicate = intEnum('cmpi predicate', 64, ['eq', 'ne', 'slt', 'sle', 'sgt', 'sge', 'ult', 'ule', 'ugt', 'uge']);
/** The name of an `arith.cmpi` predicate (`slt`). */
export type CmpIPredicateName = Parameters<typeof CmpIPredicate.byName>[0];
/** `arith.cmpf` predicates, by their i64 value. */
export const CmpFPredicate = intEnum('cmpf predicate', 64, [
  'false', 'oeq', 'ogt', 'oge', 'olt', 'ole', 'one', 'ord', 'ueq', 'ugt', 'uge', 'ult', 'ule', 'une', 'uno', 'true',
]);

const fastmath = { name: 'fastmath', kind: fastmathConstraint, default: FASTMATH_NONE } as const;
const overflow = { name: 'overflowFlags', kind: overflowConstraint, default: OVERFLOW_NONE } as const;

type Fold = OpDecl['fold'];

/** Folds a binary integer op on constant scalar or splat operands. */
function intFold(f: (a: bigint, b: bigint, width: number) => bigint | null): Fold {
  return (op, [a, b]) => {
    const x = splatInt(a);
    const y = splatInt(b);
    if (x === null || y === null) return null;
    const t = op.result(0).type;
    const r = f(x, y, bitWidth(elementTypeOf(t)));
    return r === null ? null : [intConstant(t, r)];
  };
}

const unsigned = (v: bigint, w: number) => BigInt.asUintN(w, v);

/** A binary integer op (`arith.addi`); `commutative` adds the trait and its canonicalization. */
function binaryInt(name: string, summary: string, withOverflow: boolean, fold?: Fold, commutative = false): DeclOf<'lhs' | 'rhs', 'result', 'overflowFlags'> {
  const folds = [fold, intIdentities[name]].filter((f): f is NonNullable<Fold> => f !== undefined);
  const patterns = intPatterns(name, commutative);
  return {
    name: `arith.${name}`,
    summary,
    operands: [{ name: 'lhs', type: SignlessIntegerOrIndexLike }, { name: 'rhs', type: SignlessIntegerOrIndexLike }],
    results: [{ name: 'result', type: SignlessIntegerOrIndexLike }],
    attrs: withOverflow ? [overflow] : [],
    traits: commutative ? [Pure, SameOperandsAndResultType, Elementwise, Commutative] : [Pure, SameOperandsAndResultType, Elementwise],
    format: withOverflow
      ? '$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)'
      : '$lhs `,` $rhs attr-dict `:` type($result)',
    fold: folds.length ? firstFold(...folds) : undefined,
    canonicalize: patterns.length ? patterns : undefined,
  };
}

/** Float ops MLIR marks Commutative (their constants are moved to the right). */
const COMMUTATIVE_FLOAT = new Set(['addf', 'mulf', 'maximumf', 'minimumf', 'maxnumf', 'minnumf']);

/** A binary float op with fastmath flags (`arith.addf`). */
function binaryFloat(name: string, summary: string): DeclOf<'lhs' | 'rhs', 'result', 'fastmath'> {
  return {
    name: `arith.${name}`,
    summary,
    operands: [{ name: 'lhs', type: FloatLike }, { name: 'rhs', type: FloatLike }],
    results: [{ name: 'result', type: FloatLike }],
    attrs: [fastmath],
    traits: [Pure, SameOperandsAndResultType, Elementwise],
    format: '$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)',
    fold: floatFolds[name],
    canonicalize: COMMUTATIVE_FLOAT.has(name) ? [constantsToTheRight(`arith.${name}`)] : undefined,
  };
}

/** A cast (`arith.extf`): `check` says why an operand and result type are incompatible. */
function cast(name: string, summary: string, from: typeof FloatLike, to: typeof FloatLike, check: (a: Type, b: Type) => string | void): DeclOf<'in', 'out'> {
  return {
    name: `arith.${name}`,
    summary,
    operands: [{ name: 'in', type: from }],
    results: [{ name: 'out', type: to }],
    attrs: [],
    traits: [Pure, SameOperandsAndResultShape, Elementwise],
    format: '$in attr-dict `:` type($in) `to` type($out)',
    fold: castFolds[name],
    verify: (op) =>
      check(elementTypeOf(op.operand(0).type), elementTypeOf(op.result(0).type))
        ? `operand type '${op.operand(0).type}' and result type '${op.result(0).type}' are cast incompatible`
        : undefined,
  };
}

const wider = (a: Type, b: Type) => (bitWidth(b) > bitWidth(a) ? undefined : 'result type must be wider than operand type');
const narrower = (a: Type, b: Type) => (bitWidth(b) < bitWidth(a) ? undefined : 'result type must be narrower than operand type');
const anyCast = () => undefined;
const sameWidth = (a: Type, b: Type) => (bitWidth(a) === bitWidth(b) ? undefined : 'operand and result types must have the same bit width');
const IndexLike = typeIs('signless-integer-like or index', (t) => SignlessIntegerOrIndexLike.check(t));

/** Suggested names of constants, as MLIR prints them: `%c42_i32`, `%c0`, `%true`, `%cst`. */
function constantNames(op: Operation): (string | null)[] {
  const v = op.getAttr('value');
  if (v instanceof IntegerAttr) {
    const t = v.type;
    if (t instanceof IntegerType && t.width === 1) return [v.value ? 'true' : 'false'];
    if (t instanceof IndexType) return [`c${v.value}`];
    return [`c${v.value}_${t}`];
  }
  return ['cst'];
}

/** Elements attributes besides `dense<...>` of numbers: resources, complex and string elements. */
function isOtherElementsAttr(a: Attribute | undefined): a is DenseResourceAttr | DenseComplexElementsAttr | DenseStringElementsAttr {
  return a instanceof DenseResourceAttr || a instanceof DenseComplexElementsAttr || a instanceof DenseStringElementsAttr;
}

function verifyConstant(op: Operation): string | void {
  const v = op.getAttr('value');
  const t = op.result(0).type;
  if (v instanceof IntegerAttr || v instanceof FloatAttr || v instanceof DenseElementsAttr || isOtherElementsAttr(v)) {
    if (v.type !== t) return 'failed to verify that all of {value, result} have same type';
    const splat = v instanceof DenseElementsAttr ? v.isSplat : v instanceof DenseComplexElementsAttr || v instanceof DenseStringElementsAttr ? v.values.length === 1 : false;
    // (MLIR's message, spelling included.)
    if (t instanceof VectorType && t.isScalable && !splat)
      return "intializing scalable vectors with elements attribute is not supported unless it's a vector splat";
  } else return 'value must be an integer, float, or elements attribute';
}

function verifyCompare(op: Operation): string | void {
  const expect = boolLike(op.operand(0).type);
  if (op.result(0).type !== expect) return `result #0 must be ${expect} for operands of type '${op.operand(0).type}', but got '${op.result(0).type}'`;
}

function verifySelect(op: Operation): string | void {
  const c = op.operand(0).type;
  const r = op.result(0).type;
  if (c instanceof IntegerType) return;
  if (shapeOf(c).join('x') !== shapeOf(r).join('x')) return 'failed to verify that condition is signless i1 or has matching shape';
}

/**
 * `arith.select`: select operation. Picks `true_value` or `false_value` by `condition`, elementwise
 * for tensors: `arith.select %c, %a, %b : type` (the condition type is printed only when it is a tensor or vector).
 */
export const SelectOp = defineOp({
  name: 'arith.select',
  summary: 'select operation',
  operands: [{ name: 'condition', type: BoolLike }, { name: 'true_value', type: AnyType }, { name: 'false_value', type: AnyType }],
  results: [{ name: 'result', type: AnyType }],
  traits: [Pure, Elementwise],
  syntax: {
    parse(p) {
      const refs = [p.parseOperandRef()];
      p.parsePunct(',');
      refs.push(p.parseOperandRef());
      p.parsePunct(',');
      refs.push(p.parseOperandRef());
      p.parseOptionalAttrDict();
      const pos = p.pos();
      p.parsePunct(':');
      let cond: Type = IntegerType.get(1);
      let t = p.parseType();
      if (p.parseOptionalPunct(',')) {
        cond = t;
        t = p.parseType();
      }
      p.state.operands.push(...p.resolveOperands(refs, [cond, t, t], pos));
      p.state.resultTypes.push(t);
    },
    print(p, op) {
      p.write(' ');
      p.printOperands(op.operandValues());
      p.printOptionalAttrDict(p.attrsToPrint(op, new Set()));
      p.write(' : ');
      const c = op.operand(0).type;
      if (!(c instanceof IntegerType)) {
        p.printType(c);
        p.write(', ');
      }
      p.printType(op.result(0).type);
    },
  },
  verify(op) {
    if (op.operand(1).type !== op.result(0).type || op.operand(2).type !== op.result(0).type)
      return 'requires the same type for the true value, false value and result';
    return verifySelect(op);
  },
  fold: selectFold,
  canonicalize: [selectI1ToLogic],
});

/** `arith.constant`: an integer, float or dense elements constant. */
export const ConstantOp = defineOp({
  name: 'arith.constant',
  summary: 'an integer, float or dense elements constant',
  results: [{ name: 'result', type: AnyType }],
  attrs: [{ name: 'value', kind: { ...TypedAttr, parse: (p) => p.parseAttribute(), print: (p, a) => p.printAttribute(a) } }],
  traits: [Pure, ConstantLike],
  format: 'attr-dict $value',
  inferTypes: { result: (env) => typeOfTyped(env.attr('value')) },
  resultNames: constantNames,
  verify: verifyConstant,
  fold: (op) => [op.getAttr('value')!],
});
/** `arith.addi`: integer addition operation. */
export const AddIOp = defineOp(binaryInt('addi', 'integer addition operation', true, intFold((a, b) => a + b), true));
/** `arith.subi`: integer subtraction operation. */
export const SubIOp = defineOp(binaryInt('subi', 'integer subtraction operation', true, intFold((a, b) => a - b)));
/** `arith.muli`: integer multiplication operation. */
export const MulIOp = defineOp(binaryInt('muli', 'integer multiplication operation', true, intFold((a, b) => a * b), true));
/** `arith.divsi`: signed integer division operation. */
export const DivSIOp = defineOp(binaryInt('divsi', 'signed integer division operation', false, intFold((a, b) => (b === 0n ? null : a / b))));
/** `arith.divui`: unsigned integer division operation. */
export const DivUIOp = defineOp(binaryInt('divui', 'unsigned integer division operation', false, intFold((a, b, w) => (b === 0n ? null : unsigned(a, w) / unsigned(b, w)))));
/** `arith.ceildivsi`: signed ceil integer division operation. */
export const CeilDivSIOp = defineOp(binaryInt('ceildivsi', 'signed ceil integer division operation', false));
/** `arith.ceildivui`: unsigned ceil integer division operation. */
export const CeilDivUIOp = defineOp(binaryInt('ceildivui', 'unsigned ceil integer division operation', false));
/** `arith.floordivsi`: signed floor integer division operation. */
export const FloorDivSIOp = defineOp(binaryInt('floordivsi', 'signed floor integer division operation', false));
/** `arith.remsi`: signed integer division remainder operation. */
export const RemSIOp = defineOp(binaryInt('remsi', 'signed integer division remainder operation', false, intFold((a, b) => (b === 0n ? null : a % b))));
/** `arith.remui`: unsigned integer division remainder operation. */
export const RemUIOp = defineOp(binaryInt('remui', 'unsigned integer division remainder operation', false, intFold((a, b, w) => (b === 0n ? null : unsigned(a, w) % unsigned(b, w)))));
/** `arith.andi`: integer binary and. */
export const AndIOp = defineOp(binaryInt('andi', 'integer binary and', false, intFold((a, b) => a & b), true));
/** `arith.ori`: integer binary or. */
export const OrIOp = defineOp(binaryInt('ori', 'integer binary or', false, intFold((a, b) => a | b), true));
/** `arith.xori`: integer binary xor. */
export const XOrIOp = defineOp(binaryInt('xori', 'integer binary xor', false, intFold((a, b) => a ^ b), true));
/** `arith.shli`: integer left-shift. */
export const ShLIOp = defineOp(binaryInt('shli', 'integer left-shift', true, intFold((a, b, w) => (b < 0n || b >= BigInt(w) ? null : a << b))));
/** `arith.shrsi`: signed integer right-shift. */
export const ShRSIOp = defineOp(binaryInt('shrsi', 'signed integer right-shift', false, intFold((a, b, w) => (b < 0n || b >= BigInt(w) ? null : a >> b))));
/** `arith.shrui`: unsigned integer right-shift. */
export const ShRUIOp = defineOp(binaryInt('shrui', 'unsigned integer right-shift', false, intFold((a, b, w) => (b < 0n || b >= BigInt(w) ? null : unsigned(a, w) >> b))));
/** `arith.maxsi`: signed integer maximum operation. */
export const MaxSIOp = defineOp(binaryInt('maxsi', 'signed integer maximum operation', false, intFold((a, b) => (a > b ? a : b)), true));
/** `arith.maxui`: unsigned integer maximum operation. */
export const MaxUIOp = defineOp(binaryInt('maxui', 'unsigned integer maximum operation', false, intFold((a, b, w) => (unsigned(a, w) > unsigned(b, w) ? a : b)), true));
/** `arith.minsi`: signed integer minimum operation. */
export const MinSIOp = defineOp(binaryInt('minsi', 'signed integer minimum operation', false, intFold((a, b) => (a < b ? a : b)), true));
/** `arith.minui`: unsigned integer minimum operation. */
export const MinUIOp = defineOp(binaryInt('minui', 'unsigned integer minimum operation', false, intFold((a, b, w) => (unsigned(a, w) < unsigned(b, w) ? a : b)), true));
/** `arith.addf`: floating point addition operation. */
export const AddFOp = defineOp(binaryFloat('addf', 'floating point addition operation'));
/** `arith.subf`: floating point subtraction operation. */
export const SubFOp = defineOp(binaryFloat('subf', 'floating point subtraction operation'));
/** `arith.mulf`: floating point multiplication operation. */
export const MulFOp = defineOp(binaryFloat('mulf', 'floating point multiplication operation'));
/** `arith.divf`: floating point division operation. */
export const DivFOp = defineOp(binaryFloat('divf', 'floating point division operation'));
/** `arith.remf`: floating point division remainder operation. */
export const RemFOp = defineOp(binaryFloat('remf', 'floating point division remainder operation'));
/** `arith.maximumf`: floating-point maximum operation (NaN if either operand is NaN). */
export const MaximumFOp = defineOp(binaryFloat('maximumf', 'floating-point maximum operation (NaN if either operand is NaN)'));
/** `arith.minimumf`: floating-point minimum operation (NaN if either operand is NaN). */
export const MinimumFOp = defineOp(binaryFloat('minimumf', 'floating-point minimum operation (NaN if either operand is NaN)'));
/** `arith.maxnumf`: floating-point maximum operation (the non-NaN operand if one is NaN). */
export const MaxNumFOp = defineOp(binaryFloat('maxnumf', 'floating-point maximum operation (the non-NaN operand if one is NaN)'));
/** `arith.minnumf`: floating-point minimum operation (the non-NaN operand if one is NaN). */
export const MinNumFOp = defineOp(binaryFloat('minnumf', 'floating-point minimum operation (the non-NaN operand if one is NaN)'));
/** `arith.negf`: floating point negation. */
export const NegFOp = defineOp({
  name: 'arith.negf',
  summary: 'floating point negation',
  operands: [{ name: 'operand', type: FloatLike }],
  results: [{ name: 'result', type: FloatLike }],
  attrs: [fastmath],
  traits: [Pure, SameOperandsAndResultType, Elementwise],
  format: '$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)',
  fold: negfFold,
});
/** `arith.cmpi`: integer comparison operation. */
export const CmpIOp = defineOp({
  name: 'arith.cmpi',
  summary: 'integer comparison operation',
  operands: [{ name: 'lhs', type: SignlessIntegerOrIndexLike }, { name: 'rhs', type: SignlessIntegerOrIndexLike }],
  results: [{ name: 'result', type: BoolLike }],
  attrs: [{ name: 'predicate', kind: CmpIPredicate }],
  traits: [Pure, SameTypeOperands, Elementwise],
  format: '$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)',
  inferTypes: { result: (env) => env.operand('lhs')?.map(boolLike), rhs: (env) => env.operand('lhs') },
  verify: verifyCompare,
  fold: cmpiFold,
});
/** `arith.cmpf`: floating-point comparison operation. */
export const CmpFOp = defineOp({
  name: 'arith.cmpf',
  summary: 'floating-point comparison operation',
  operands: [{ name: 'lhs', type: FloatLike }, { name: 'rhs', type: FloatLike }],
  results: [{ name: 'result', type: BoolLike }],
  attrs: [{ name: 'predicate', kind: CmpFPredicate }, fastmath],
  traits: [Pure, SameTypeOperands, Elementwise],
  format: '$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs)',
  inferTypes: { result: (env) => env.operand('lhs')?.map(boolLike), rhs: (env) => env.operand('lhs') },
  verify: verifyCompare,
  fold: cmpfFold,
});
/** `arith.extsi`: integer sign extension operation. */
export const ExtSIOp = defineOp(cast('extsi', 'integer sign extension operation', SignlessIntegerLike, SignlessIntegerLike, wider));
/** `arith.extui`: integer zero extension operation. */
export const ExtUIOp = defineOp(cast('extui', 'integer zero extension operation', SignlessIntegerLike, SignlessIntegerLike, wider));
/** `arith.trunci`: integer truncation operation. */
export const TruncIOp = defineOp(cast('trunci', 'integer truncation operation', SignlessIntegerLike, SignlessIntegerLike, narrower));
const optionalFastmath = { name: 'fastmath', kind: fastmathConstraint, optional: true } as const;
/** `arith.extf`: cast from floating-point to wider floating-point, with optional fastmath flags. */
// Typed as the other casts (`DeclOf<'in', 'out'>`) so that the tables over all casts keep one type; the optional
// attributes are reached by name.
export const ExtFOp = defineOp({
  ...cast('extf', 'cast from floating-point to wider floating-point', FloatLike, FloatLike, wider),
  attrs: [optionalFastmath],
  format: '$in (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)',
} as unknown as DeclOf<'in', 'out'>);
/** `arith.truncf`: cast from floating-point to narrower floating-point (`%h = arith.truncf %f to_nearest_even : f32 to f16`). */
export const TruncFOp = defineOp({
  ...cast('truncf', 'cast from floating-point to narrower floating-point', FloatLike, FloatLike, narrower),
  attrs: [{ name: 'roundingmode', kind: RoundingMode, optional: true }, optionalFastmath],
  format: '$in ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)',
} as unknown as DeclOf<'in', 'out'>);
/** `arith.sitofp`: cast from integer type to floating-point. */
export const SIToFPOp = defineOp(cast('sitofp', 'cast from integer type to floating-point', SignlessIntegerLike, FloatLike, anyCast));
/** `arith.uitofp`: cast from unsigned integer type to floating-point. */
export const UIToFPOp = defineOp(cast('uitofp', 'cast from unsigned integer type to floating-point', SignlessIntegerLike, FloatLike, anyCast));
/** `arith.fptosi`: cast from floating-point type to integer type. */
export const FPToSIOp = defineOp(cast('fptosi', 'cast from floating-point type to integer type', FloatLike, SignlessIntegerLike, anyCast));
/** `arith.fptoui`: cast from floating-point type to unsigned integer type. */
export const FPToUIOp = defineOp(cast('fptoui', 'cast from floating-point type to unsigned integer type', FloatLike, SignlessIntegerLike, anyCast));
/** `arith.index_cast`: cast between index and integer types. */
export const IndexCastOp = defineOp(cast('index_cast', 'cast between index and integer types', IndexLike, IndexLike, anyCast));
/** `arith.index_castui`: unsigned cast between index and integer types. */
export const IndexCastUIOp = defineOp(cast('index_castui', 'unsigned cast between index and integer types', IndexLike, IndexLike, anyCast));
/** `arith.bitcast`: bitcast between values of equal bit width. */
export const BitcastOp = defineOp(cast('bitcast', 'bitcast between values of equal bit width', typeIs('signless-integer-or-float-like', (t) => SignlessIntegerLike.check(t) || FloatLike.check(t)),
typeIs('signless-integer-or-float-like', (t) => SignlessIntegerLike.check(t) || FloatLike.check(t)), sameWidth));

/** The arith dialect table. */
export const arithDialect: DialectDecl = {
  name: 'arith',
  summary: 'integer and floating-point arithmetic, comparisons, select and casts (upstream MLIR)',
  attrs: arithAttrParsers,
  ops: [
    ConstantOp,
    AddIOp,
    SubIOp,
    MulIOp,
    DivSIOp,
    DivUIOp,
    CeilDivSIOp,
    CeilDivUIOp,
    FloorDivSIOp,
    RemSIOp,
    RemUIOp,
    AndIOp,
    OrIOp,
    XOrIOp,
    ShLIOp,
    ShRSIOp,
    ShRUIOp,
    MaxSIOp,
    MaxUIOp,
    MinSIOp,
    MinUIOp,
    AddUIExtendedOp,
    MulSIExtendedOp,
    MulUIExtendedOp,
    AddFOp,
    SubFOp,
    MulFOp,
    DivFOp,
    RemFOp,
    MaximumFOp,
    MinimumFOp,
    MaxNumFOp,
    MinNumFOp,
    NegFOp,
    CmpIOp,
    CmpFOp,
    SelectOp,
    ExtSIOp,
    ExtUIOp,
    TruncIOp,
    ExtFOp,
    TruncFOp,
    SIToFPOp,
    UIToFPOp,
    FPToSIOp,
    FPToUIOp,
    IndexCastOp,
    IndexCastUIOp,
    BitcastOp,
  ],
};

function typeOfTyped(a: Attribute | undefined): Type[] | undefined {
if (a instanceof IntegerAttr || a instanceof FloatAttr) return [a.type];
if (a instanceof DenseElementsAttr || isOtherElementsAttr(a)) return [a.type];
if (a instanceof TypeAttr) return [a.value];
return undefined;
}

export { FloatType, attrIs };
