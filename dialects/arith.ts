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
  FloatType, IndexType, IntegerType, type Type, bitWidth, elementTypeOf, shapeOf,
} from '../ir/types.js';
import {
  FASTMATH_NONE, OVERFLOW_NONE, arithAttrParsers, fastmathConstraint, overflowConstraint,
} from './arith-attrs.js';
import {
  castFolds, cmpfFold, cmpiFold, constantsToTheRight, firstFold, floatFolds, intIdentities, intPatterns, negfFold, selectFold, splatInt, intConstant,
} from './arith-canonicalize.js';

/** `arith.cmpi` predicates, by their i64 value. */
export const CmpIPredicate = intEnum('cmpi predicate', 64, ['eq', 'ne', 'slt', 'sle', 'sgt', 'sge', 'ult', 'ule', 'ugt', 'uge']);
/** `arith.cmpf` predicates, by their i64 value. */
export const CmpFPredicate = intEnum('cmpf predicate', 64, [
  'false', 'oeq', 'ogt', 'oge', 'olt', 'ole', 'one', 'ord', 'ueq', 'ugt', 'uge', 'ult', 'ule', 'une', 'uno', 'true',
]);

const fastmath = { name: 'fastmath', kind: fastmathConstraint, default: FASTMATH_NONE };
const overflow = { name: 'overflowFlags', kind: overflowConstraint, default: OVERFLOW_NONE };

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

function binaryInt(name: string, withOverflow: boolean, fold?: Fold, traits: string[] = []): OpDecl {
  const folds = [fold, intIdentities[name]].filter((f): f is NonNullable<Fold> => f !== undefined);
  const patterns = intPatterns(name, traits.includes('Commutative'));
  return {
    name: `arith.${name}`,
    operands: [{ name: 'lhs', type: SignlessIntegerOrIndexLike }, { name: 'rhs', type: SignlessIntegerOrIndexLike }],
    results: [{ name: 'result', type: SignlessIntegerOrIndexLike }],
    attrs: withOverflow ? [overflow] : [],
    traits: ['Pure', 'SameOperandsAndResultType', 'Elementwise', ...traits],
    format: withOverflow
      ? '$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)'
      : '$lhs `,` $rhs attr-dict `:` type($result)',
    fold: folds.length ? firstFold(...folds) : undefined,
    canonicalize: patterns.length ? patterns : undefined,
  };
}

/** Float ops MLIR marks Commutative (their constants are moved to the right). */
const COMMUTATIVE_FLOAT = new Set(['addf', 'mulf', 'maximumf', 'minimumf', 'maxnumf', 'minnumf']);

function binaryFloat(name: string): OpDecl {
  return {
    name: `arith.${name}`,
    operands: [{ name: 'lhs', type: FloatLike }, { name: 'rhs', type: FloatLike }],
    results: [{ name: 'result', type: FloatLike }],
    attrs: [fastmath],
    traits: ['Pure', 'SameOperandsAndResultType', 'Elementwise'],
    format: '$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)',
    fold: floatFolds[name],
    canonicalize: COMMUTATIVE_FLOAT.has(name) ? [constantsToTheRight(`arith.${name}`)] : undefined,
  };
}

function cast(name: string, from: typeof FloatLike, to: typeof FloatLike, check: (a: Type, b: Type) => string | void): OpDecl {
  return {
    name: `arith.${name}`,
    operands: [{ name: 'in', type: from }],
    results: [{ name: 'out', type: to }],
    traits: ['Pure', 'SameOperandsAndResultShape', 'Elementwise'],
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

function verifyConstant(op: Operation): string | void {
  const v = op.getAttr('value');
  const t = op.result(0).type;
  if (v instanceof IntegerAttr || v instanceof FloatAttr || v instanceof DenseElementsAttr) {
    if (v.type !== t) return 'failed to verify that all of {value, result} have same type';
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

/** `arith.select %c, %a, %b : type` (condition type printed only when it is a tensor or vector). */
const selectDecl: OpDecl = {
  name: 'arith.select',
  operands: [{ name: 'condition', type: BoolLike }, { name: 'true_value', type: AnyType }, { name: 'false_value', type: AnyType }],
  results: [{ name: 'result', type: AnyType }],
  traits: ['Pure', 'Elementwise'],
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
};

/** The arith dialect table. */
export const arithDialect: DialectDecl = {
  name: 'arith',
  attrs: arithAttrParsers,
  ops: [
    {
      name: 'arith.constant',
      summary: 'an integer, float or dense elements constant',
      results: [{ name: 'result', type: AnyType }],
      attrs: [{ name: 'value', kind: { ...TypedAttr, parse: (p) => p.parseAttribute(), print: (p, a) => p.printAttribute(a) } }],
      traits: ['Pure', 'ConstantLike'],
      format: 'attr-dict $value',
      inferTypes: { result: (env) => typeOfTyped(env.attr('value')) },
      resultNames: constantNames,
      verify: verifyConstant,
      fold: (op) => [op.getAttr('value')!],
    },
    binaryInt('addi', true, intFold((a, b) => a + b), ['Commutative']),
    binaryInt('subi', true, intFold((a, b) => a - b)),
    binaryInt('muli', true, intFold((a, b) => a * b), ['Commutative']),
    binaryInt('divsi', false, intFold((a, b) => (b === 0n ? null : a / b))),
    binaryInt('divui', false, intFold((a, b, w) => (b === 0n ? null : unsigned(a, w) / unsigned(b, w)))),
    binaryInt('ceildivsi', false),
    binaryInt('ceildivui', false),
    binaryInt('floordivsi', false),
    binaryInt('remsi', false, intFold((a, b) => (b === 0n ? null : a % b))),
    binaryInt('remui', false, intFold((a, b, w) => (b === 0n ? null : unsigned(a, w) % unsigned(b, w)))),
    binaryInt('andi', false, intFold((a, b) => a & b), ['Commutative']),
    binaryInt('ori', false, intFold((a, b) => a | b), ['Commutative']),
    binaryInt('xori', false, intFold((a, b) => a ^ b), ['Commutative']),
    binaryInt('shli', true, intFold((a, b, w) => (b < 0n || b >= BigInt(w) ? null : a << b))),
    binaryInt('shrsi', false, intFold((a, b, w) => (b < 0n || b >= BigInt(w) ? null : a >> b))),
    binaryInt('shrui', false, intFold((a, b, w) => (b < 0n || b >= BigInt(w) ? null : unsigned(a, w) >> b))),
    binaryInt('maxsi', false, intFold((a, b) => (a > b ? a : b)), ['Commutative']),
    binaryInt('maxui', false, intFold((a, b, w) => (unsigned(a, w) > unsigned(b, w) ? a : b)), ['Commutative']),
    binaryInt('minsi', false, intFold((a, b) => (a < b ? a : b)), ['Commutative']),
    binaryInt('minui', false, intFold((a, b, w) => (unsigned(a, w) < unsigned(b, w) ? a : b)), ['Commutative']),
    binaryFloat('addf'),
    binaryFloat('subf'),
    binaryFloat('mulf'),
    binaryFloat('divf'),
    binaryFloat('remf'),
    binaryFloat('maximumf'),
    binaryFloat('minimumf'),
    binaryFloat('maxnumf'),
    binaryFloat('minnumf'),
    {
      name: 'arith.negf',
      operands: [{ name: 'operand', type: FloatLike }],
      results: [{ name: 'result', type: FloatLike }],
      attrs: [fastmath],
      traits: ['Pure', 'SameOperandsAndResultType', 'Elementwise'],
      format: '$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)',
      fold: negfFold,
    },
    {
      name: 'arith.cmpi',
      operands: [{ name: 'lhs', type: SignlessIntegerOrIndexLike }, { name: 'rhs', type: SignlessIntegerOrIndexLike }],
      results: [{ name: 'result', type: BoolLike }],
      attrs: [{ name: 'predicate', kind: CmpIPredicate }],
      traits: ['Pure', 'SameTypeOperands', 'Elementwise'],
      format: '$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)',
      inferTypes: { result: (env) => env.operand('lhs')?.map(boolLike), rhs: (env) => env.operand('lhs') },
      verify: verifyCompare,
      fold: cmpiFold,
    },
    {
      name: 'arith.cmpf',
      operands: [{ name: 'lhs', type: FloatLike }, { name: 'rhs', type: FloatLike }],
      results: [{ name: 'result', type: BoolLike }],
      attrs: [{ name: 'predicate', kind: CmpFPredicate }, fastmath],
      traits: ['Pure', 'SameTypeOperands', 'Elementwise'],
      format: '$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs)',
      inferTypes: { result: (env) => env.operand('lhs')?.map(boolLike), rhs: (env) => env.operand('lhs') },
      verify: verifyCompare,
      fold: cmpfFold,
    },
    selectDecl,
    cast('extsi', SignlessIntegerLike, SignlessIntegerLike, wider),
    cast('extui', SignlessIntegerLike, SignlessIntegerLike, wider),
    cast('trunci', SignlessIntegerLike, SignlessIntegerLike, narrower),
    cast('extf', FloatLike, FloatLike, wider),
    cast('truncf', FloatLike, FloatLike, narrower),
    cast('sitofp', SignlessIntegerLike, FloatLike, anyCast),
    cast('uitofp', SignlessIntegerLike, FloatLike, anyCast),
    cast('fptosi', FloatLike, SignlessIntegerLike, anyCast),
    cast('fptoui', FloatLike, SignlessIntegerLike, anyCast),
    cast('index_cast', IndexLike, IndexLike, anyCast),
    cast('index_castui', IndexLike, IndexLike, anyCast),
    cast('bitcast', typeIs('signless-integer-or-float-like', (t) => SignlessIntegerLike.check(t) || FloatLike.check(t)),
      typeIs('signless-integer-or-float-like', (t) => SignlessIntegerLike.check(t) || FloatLike.check(t)), sameWidth),
  ],
};

function typeOfTyped(a: Attribute | undefined): Type[] | undefined {
  if (a instanceof IntegerAttr || a instanceof FloatAttr) return [a.type];
  if (a instanceof DenseElementsAttr) return [a.type];
  if (a instanceof TypeAttr) return [a.value];
  return undefined;
}

export { FloatType, attrIs };
