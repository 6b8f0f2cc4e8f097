/**
 * The upstream MLIR `math` dialect (MLIR 19 syntax): elementwise transcendental and bit-counting
 * ops on scalars, vectors and tensors. Float ops carry `#arith.fastmath<...>` flags, written
 * `math.exp %x fastmath<fast> : f32` in the custom form.
 */
import { BoolLike, FloatLike, SignlessIntegerLike, boolLike } from '../ir/constraints.js';
import type { DialectDecl } from '../ir/op-spec.js';
import { FASTMATH_NONE, fastmathConstraint } from './arith-attrs.js';
import { defineOp, type DeclOf } from '../ir/op-def.js';
import { Elementwise, Pure, SameOperandsAndResultShape, SameOperandsAndResultType } from '../ir/traits.js';

/** The `fastmath` property every float op has, defaulting to `#arith.fastmath<none>`. */
const fastmathAttr = { name: 'fastmath', kind: fastmathConstraint, default: FASTMATH_NONE } as const;
/** The optional `fastmath<...>` clause of the float op formats. */
const FM = '(`fastmath` `` $fastmath^)?';
const ELEMENTWISE = [Pure, Elementwise, SameOperandsAndResultType];

/** `math.<name> %x [fastmath<..>] : T` on floats. */
function floatUnary(name: string, summary: string): DeclOf<'operand', 'result', 'fastmath'> {
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
function floatBinary(name: string, summary: string): DeclOf<'lhs' | 'rhs', 'result', 'fastmath'> {
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
function intUnary(name: string, summary: string): DeclOf<'operand', 'result'> {
  return {
    name: `math.${name}`,
    summary,
    operands: [{ name: 'operand', type: SignlessIntegerLike }],
    results: [{ name: 'result', type: SignlessIntegerLike }],
    attrs: [],
    traits: ELEMENTWISE,
    format: '$operand attr-dict `:` type($result)',
  };
}

/**
 * `math.isnan %x [fastmath<..>] : T` -> i1-like. These classification ops (and `erfc`) come
 * from MLIR releases after 19; mlir-opt 19 does not know them.
 */
function classification(name: string, summary: string): DeclOf<'operand', 'result', 'fastmath'> {
  return {
    name: `math.${name}`,
    summary,
    operands: [{ name: 'operand', type: FloatLike }],
    results: [{ name: 'result', type: BoolLike }],
    attrs: [fastmathAttr],
    traits: [Pure, Elementwise],
    format: `$operand ${FM} attr-dict \`:\` type($operand)`,
    inferTypes: { result: (env) => env.operand('operand')?.map(boolLike) },
    verify(op) {
      if (op.result(0).type !== boolLike(op.operand(0).type))
        return 'failed to verify that result type has i1 element type and same shape as operands';
    },
  };
}

/** `math.absf`: floating point absolute-value operation. */
export const AbsfOp = defineOp(floatUnary('absf', 'floating point absolute-value operation'));
/** `math.acos`: arccosine of the specified value. */
export const AcosOp = defineOp(floatUnary('acos', 'arccosine of the specified value'));
/** `math.acosh`: hyperbolic arc cosine of the specified value. */
export const AcoshOp = defineOp(floatUnary('acosh', 'hyperbolic arc cosine of the specified value'));
/** `math.asin`: arcsine of the specified value. */
export const AsinOp = defineOp(floatUnary('asin', 'arcsine of the specified value'));
/** `math.asinh`: hyperbolic arcsine of the specified value. */
export const AsinhOp = defineOp(floatUnary('asinh', 'hyperbolic arcsine of the specified value'));
/** `math.atan`: arctangent of the specified value. */
export const AtanOp = defineOp(floatUnary('atan', 'arctangent of the specified value'));
/** `math.atanh`: hyperbolic arctangent of the specified value. */
export const AtanhOp = defineOp(floatUnary('atanh', 'hyperbolic arctangent of the specified value'));
/** `math.cbrt`: cube root of the specified value. */
export const CbrtOp = defineOp(floatUnary('cbrt', 'cube root of the specified value'));
/** `math.ceil`: ceiling of the specified value. */
export const CeilOp = defineOp(floatUnary('ceil', 'ceiling of the specified value'));
/** `math.cos`: cosine of the specified value. */
export const CosOp = defineOp(floatUnary('cos', 'cosine of the specified value'));
/** `math.cosh`: hyperbolic cosine of the specified value. */
export const CoshOp = defineOp(floatUnary('cosh', 'hyperbolic cosine of the specified value'));
/** `math.erf`: error function of the specified value. */
export const ErfOp = defineOp(floatUnary('erf', 'error function of the specified value'));
/** `math.erfc`: complementary error function of the specified value (newer than MLIR 19). */
export const ErfcOp = defineOp(floatUnary('erfc', 'complementary error function of the specified value (newer than MLIR 19)'));
/** `math.exp`: base-e exponential of the specified value. */
export const ExpOp = defineOp(floatUnary('exp', 'base-e exponential of the specified value'));
/** `math.exp2`: base-2 exponential of the specified value. */
export const Exp2Op = defineOp(floatUnary('exp2', 'base-2 exponential of the specified value'));
/** `math.expm1`: base-e exponential of the specified value minus 1. */
export const Expm1Op = defineOp(floatUnary('expm1', 'base-e exponential of the specified value minus 1'));
/** `math.floor`: floor of the specified value. */
export const FloorOp = defineOp(floatUnary('floor', 'floor of the specified value'));
/** `math.log`: base-e logarithm of the specified value. */
export const LogOp = defineOp(floatUnary('log', 'base-e logarithm of the specified value'));
/** `math.log10`: base-10 logarithm of the specified value. */
export const Log10Op = defineOp(floatUnary('log10', 'base-10 logarithm of the specified value'));
/** `math.log1p`: natural logarithm of one plus the given value. */
export const Log1pOp = defineOp(floatUnary('log1p', 'natural logarithm of one plus the given value'));
/** `math.log2`: base-2 logarithm of the specified value. */
export const Log2Op = defineOp(floatUnary('log2', 'base-2 logarithm of the specified value'));
/** `math.round`: round to nearest, ties away from zero. */
export const RoundOp = defineOp(floatUnary('round', 'round to nearest, ties away from zero'));
/** `math.roundeven`: round to nearest, ties to even. */
export const RoundevenOp = defineOp(floatUnary('roundeven', 'round to nearest, ties to even'));
/** `math.rsqrt`: reciprocal of sqrt (1 / sqrt of the specified value). */
export const RsqrtOp = defineOp(floatUnary('rsqrt', 'reciprocal of sqrt (1 / sqrt of the specified value)'));
/** `math.sin`: sine of the specified value. */
export const SinOp = defineOp(floatUnary('sin', 'sine of the specified value'));
/** `math.sinh`: hyperbolic sine of the specified value. */
export const SinhOp = defineOp(floatUnary('sinh', 'hyperbolic sine of the specified value'));
/** `math.sqrt`: sqrt of the specified value. */
export const SqrtOp = defineOp(floatUnary('sqrt', 'sqrt of the specified value'));
/** `math.tan`: tangent of the specified value. */
export const TanOp = defineOp(floatUnary('tan', 'tangent of the specified value'));
/** `math.tanh`: hyperbolic tangent of the specified value. */
export const TanhOp = defineOp(floatUnary('tanh', 'hyperbolic tangent of the specified value'));
/** `math.trunc`: trunc of the specified value. */
export const TruncOp = defineOp(floatUnary('trunc', 'trunc of the specified value'));

/** `math.atan2`: 2-argument arctangent of the given values. */
export const Atan2Op = defineOp(floatBinary('atan2', '2-argument arctangent of the given values'));
/** `math.copysign`: copysign: magnitude of lhs with the sign of rhs. */
export const CopysignOp = defineOp(floatBinary('copysign', 'copysign: magnitude of lhs with the sign of rhs'));
/** `math.powf`: floating point raised to the power of. */
export const PowfOp = defineOp(floatBinary('powf', 'floating point raised to the power of'));

/** `math.absi`: integer absolute-value operation. */
export const AbsiOp = defineOp(intUnary('absi', 'integer absolute-value operation'));
/** `math.ctlz`: counts the leading zeros of an integer value. */
export const CtlzOp = defineOp(intUnary('ctlz', 'counts the leading zeros of an integer value'));
/** `math.ctpop`: counts the number of set bits of an integer value. */
export const CtpopOp = defineOp(intUnary('ctpop', 'counts the number of set bits of an integer value'));
/** `math.cttz`: counts the trailing zeros of an integer value. */
export const CttzOp = defineOp(intUnary('cttz', 'counts the trailing zeros of an integer value'));

/** `math.isfinite`: returns true if the operand classifies as finite. */
export const IsfiniteOp = defineOp(classification('isfinite', 'returns true if the operand classifies as finite'));
/** `math.isinf`: returns true if the operand classifies as infinite. */
export const IsinfOp = defineOp(classification('isinf', 'returns true if the operand classifies as infinite'));
/** `math.isnan`: returns true if the operand classifies as NaN. */
export const IsnanOp = defineOp(classification('isnan', 'returns true if the operand classifies as NaN'));
/** `math.isnormal`: returns true if the operand classifies as normal. */
export const IsnormalOp = defineOp(classification('isnormal', 'returns true if the operand classifies as normal'));

/** `math.fma`: floating point fused multiply-add operation. */
export const FmaOp = defineOp({
  name: 'math.fma',
  summary: 'floating point fused multiply-add operation',
  operands: [{ name: 'a', type: FloatLike }, { name: 'b', type: FloatLike }, { name: 'c', type: FloatLike }],
  results: [{ name: 'result', type: FloatLike }],
  attrs: [fastmathAttr],
  traits: ELEMENTWISE,
  format: `$a \`,\` $b \`,\` $c ${FM} attr-dict \`:\` type($result)`,
});
/** `math.fpowi`: floating point raised to a signed integer power. */
export const FpowiOp = defineOp({
  name: 'math.fpowi',
  summary: 'floating point raised to a signed integer power',
  operands: [{ name: 'lhs', type: FloatLike }, { name: 'rhs', type: SignlessIntegerLike }],
  results: [{ name: 'result', type: FloatLike }],
  attrs: [fastmathAttr],
  traits: [Pure, Elementwise, SameOperandsAndResultShape],
  format: `$lhs \`,\` $rhs ${FM} attr-dict \`:\` type($lhs) \`,\` type($rhs)`,
  inferTypes: { result: (env) => env.operand('lhs') },
  verify(op) {
    if (op.result(0).type !== op.operand(0).type)
      return "failed to verify that all of {lhs, result} have same type";
  },
});
/** `math.ipowi`: signed integer raised to the power of operation. */
export const IpowiOp = defineOp({
  name: 'math.ipowi',
  summary: 'signed integer raised to the power of operation',
  operands: [{ name: 'lhs', type: SignlessIntegerLike }, { name: 'rhs', type: SignlessIntegerLike }],
  results: [{ name: 'result', type: SignlessIntegerLike }],
  traits: ELEMENTWISE,
  format: '$lhs `,` $rhs attr-dict `:` type($result)',
});

/** The math dialect table. */
export const mathDialect: DialectDecl = {
  name: 'math',
  summary: 'elementwise mathematical functions (upstream MLIR)',
  ops: [
    AbsfOp,
    AcosOp,
    AcoshOp,
    AsinOp,
    AsinhOp,
    AtanOp,
    AtanhOp,
    CbrtOp,
    CeilOp,
    CosOp,
    CoshOp,
    ErfOp,
    ErfcOp,
    ExpOp,
    Exp2Op,
    Expm1Op,
    FloorOp,
    LogOp,
    Log10Op,
    Log1pOp,
    Log2Op,
    RoundOp,
    RoundevenOp,
    RsqrtOp,
    SinOp,
    SinhOp,
    SqrtOp,
    TanOp,
    TanhOp,
    TruncOp,
    Atan2Op,
    CopysignOp,
    PowfOp,
    AbsiOp,
    CtlzOp,
    CtpopOp,
    CttzOp,
    IsfiniteOp,
    IsinfOp,
    IsnanOp,
    IsnormalOp,
    FmaOp,
    FpowiOp,
    IpowiOp,
  ],
};
