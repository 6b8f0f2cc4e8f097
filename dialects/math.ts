/**
 * The upstream MLIR `math` dialect (MLIR 19 syntax): elementwise transcendental and bit-counting
 * ops on scalars, vectors and tensors. Float ops carry `#arith.fastmath<...>` flags, written
 * `math.exp %x fastmath<fast> : f32` in the custom form.
 */
import { BoolLike, FloatLike, SignlessIntegerLike, boolLike } from '../ir/constraints.js';
import type { OpDecl, DialectDecl } from '../ir/op-spec.js';
import { FASTMATH_NONE, fastmathConstraint } from './arith-attrs.js';

/** The `fastmath` property every float op has, defaulting to `#arith.fastmath<none>`. */
const fastmathAttr = { name: 'fastmath', kind: fastmathConstraint, default: FASTMATH_NONE };
/** The optional `fastmath<...>` clause of the float op formats. */
const FM = '(`fastmath` `` $fastmath^)?';
const ELEMENTWISE = ['Pure', 'Elementwise', 'Scalarizable', 'Vectorizable', 'Tensorizable', 'SameOperandsAndResultType'];

/** `math.<name> %x [fastmath<..>] : T` on floats. */
function floatUnary(name: string, summary: string): OpDecl {
  return {
    name: `math.${name}`,
    summary,
    operands: [{ name: 'operand', type: FloatLike }],
    results: [{ name: 'result', type: FloatLike }],
    attrs: [fastmathAttr],
    traits: ELEMENTWISE,
    format: `$operand ${FM} attr-dict \`:\` type($result)`,
  };
}

/** `math.<name> %a, %b [fastmath<..>] : T` on floats. */
function floatBinary(name: string, summary: string): OpDecl {
  return {
    name: `math.${name}`,
    summary,
    operands: [{ name: 'lhs', type: FloatLike }, { name: 'rhs', type: FloatLike }],
    results: [{ name: 'result', type: FloatLike }],
    attrs: [fastmathAttr],
    traits: ELEMENTWISE,
    format: `$lhs \`,\` $rhs ${FM} attr-dict \`:\` type($result)`,
  };
}

/** `math.<name> %x : T` on signless integers. */
function intUnary(name: string, summary: string): OpDecl {
  return {
    name: `math.${name}`,
    summary,
    operands: [{ name: 'operand', type: SignlessIntegerLike }],
    results: [{ name: 'result', type: SignlessIntegerLike }],
    traits: ELEMENTWISE,
    format: '$operand attr-dict `:` type($result)',
  };
}

/**
 * `math.isnan %x [fastmath<..>] : T` -> i1-like. These classification ops (and `erfc`) come
 * from MLIR releases after 19; mlir-opt 19 does not know them.
 */
function classification(name: string, summary: string): OpDecl {
  return {
    name: `math.${name}`,
    summary,
    operands: [{ name: 'operand', type: FloatLike }],
    results: [{ name: 'result', type: BoolLike }],
    attrs: [fastmathAttr],
    traits: ['Pure', 'Elementwise', 'Scalarizable', 'Vectorizable', 'Tensorizable'],
    format: `$operand ${FM} attr-dict \`:\` type($operand)`,
    inferTypes: { result: (env) => env.operand('operand')?.map(boolLike) },
    verify(op) {
      if (op.result(0).type !== boolLike(op.operand(0).type))
        return 'failed to verify that result type has i1 element type and same shape as operands';
    },
  };
}

const FLOAT_UNARY: [string, string][] = [
  ['absf', 'floating point absolute-value operation'],
  ['acos', 'arccosine of the specified value'],
  ['acosh', 'hyperbolic arc cosine of the specified value'],
  ['asin', 'arcsine of the specified value'],
  ['asinh', 'hyperbolic arcsine of the specified value'],
  ['atan', 'arctangent of the specified value'],
  ['atanh', 'hyperbolic arctangent of the specified value'],
  ['cbrt', 'cube root of the specified value'],
  ['ceil', 'ceiling of the specified value'],
  ['cos', 'cosine of the specified value'],
  ['cosh', 'hyperbolic cosine of the specified value'],
  ['erf', 'error function of the specified value'],
  ['erfc', 'complementary error function of the specified value (newer than MLIR 19)'],
  ['exp', 'base-e exponential of the specified value'],
  ['exp2', 'base-2 exponential of the specified value'],
  ['expm1', 'base-e exponential of the specified value minus 1'],
  ['floor', 'floor of the specified value'],
  ['log', 'base-e logarithm of the specified value'],
  ['log10', 'base-10 logarithm of the specified value'],
  ['log1p', 'natural logarithm of one plus the given value'],
  ['log2', 'base-2 logarithm of the specified value'],
  ['round', 'round to nearest, ties away from zero'],
  ['roundeven', 'round to nearest, ties to even'],
  ['rsqrt', 'reciprocal of sqrt (1 / sqrt of the specified value)'],
  ['sin', 'sine of the specified value'],
  ['sinh', 'hyperbolic sine of the specified value'],
  ['sqrt', 'sqrt of the specified value'],
  ['tan', 'tangent of the specified value'],
  ['tanh', 'hyperbolic tangent of the specified value'],
  ['trunc', 'trunc of the specified value'],
];

const FLOAT_BINARY: [string, string][] = [
  ['atan2', '2-argument arctangent of the given values'],
  ['copysign', 'copysign: magnitude of lhs with the sign of rhs'],
  ['powf', 'floating point raised to the power of'],
];

const INT_UNARY: [string, string][] = [
  ['absi', 'integer absolute-value operation'],
  ['ctlz', 'counts the leading zeros of an integer value'],
  ['ctpop', 'counts the number of set bits of an integer value'],
  ['cttz', 'counts the trailing zeros of an integer value'],
];

const CLASSIFICATION: [string, string][] = [
  ['isfinite', 'returns true if the operand classifies as finite'],
  ['isinf', 'returns true if the operand classifies as infinite'],
  ['isnan', 'returns true if the operand classifies as NaN'],
  ['isnormal', 'returns true if the operand classifies as normal'],
];

/** Ops whose shape does not fit one of the families above. */
const SPECIAL_OPS: OpDecl[] = [
  {
    name: 'math.fma',
    summary: 'floating point fused multiply-add operation',
    operands: [{ name: 'a', type: FloatLike }, { name: 'b', type: FloatLike }, { name: 'c', type: FloatLike }],
    results: [{ name: 'result', type: FloatLike }],
    attrs: [fastmathAttr],
    traits: ELEMENTWISE,
    format: `$a \`,\` $b \`,\` $c ${FM} attr-dict \`:\` type($result)`,
  },
  {
    name: 'math.fpowi',
    summary: 'floating point raised to a signed integer power',
    operands: [{ name: 'lhs', type: FloatLike }, { name: 'rhs', type: SignlessIntegerLike }],
    results: [{ name: 'result', type: FloatLike }],
    attrs: [fastmathAttr],
    traits: ['Pure', 'Elementwise', 'Scalarizable', 'Vectorizable', 'Tensorizable', 'SameOperandsAndResultShape'],
    format: `$lhs \`,\` $rhs ${FM} attr-dict \`:\` type($lhs) \`,\` type($rhs)`,
    inferTypes: { result: (env) => env.operand('lhs') },
    verify(op) {
      if (op.result(0).type !== op.operand(0).type)
        return "failed to verify that all of {lhs, result} have same type";
    },
  },
  {
    name: 'math.ipowi',
    summary: 'signed integer raised to the power of operation',
    operands: [{ name: 'lhs', type: SignlessIntegerLike }, { name: 'rhs', type: SignlessIntegerLike }],
    results: [{ name: 'result', type: SignlessIntegerLike }],
    traits: ELEMENTWISE,
    format: '$lhs `,` $rhs attr-dict `:` type($result)',
  },
];

/** The math dialect table. */
export const mathDialect: DialectDecl = {
  name: 'math',
  summary: 'elementwise mathematical functions (upstream MLIR)',
  ops: [
    ...FLOAT_UNARY.map(([n, s]) => floatUnary(n, s)),
    ...FLOAT_BINARY.map(([n, s]) => floatBinary(n, s)),
    ...INT_UNARY.map(([n, s]) => intUnary(n, s)),
    ...CLASSIFICATION.map(([n, s]) => classification(n, s)),
    ...SPECIAL_OPS,
  ],
};
