/**
 * The elementwise table: for each arith, math and tt elementwise op, the PTX instructions that
 * compute one element. Entries see register values (one element each) and return one register.
 * f16 and bf16 arithmetic runs in f32 and rounds once (exact for +, -, *, since f32 holds the
 * product of two 11-bit significands); transcendental functions use PTX's approximate
 * instructions the way Triton's libdevice-free paths do. An op with no entry is an error.
 */
import { IntegerAttr } from '../../ir/attributes.js';
import type { Operation, Value } from '../../ir/ir.js';
import { FloatType, IntegerType, elementTypeOf, type Type } from '../../ir/types.js';
import * as arith from '../../dialects/arith.js';
import * as math from '../../dialects/math.js';
import * as tt from '../../dialects/tt/index.js';
import { PropagateNan } from '../../dialects/tt/enums.js';
import { extfFromFp8, fpToFp, fpToFpPair, isFp8, truncfToFp8 } from './fp8.js';
import { externElementwise } from './libdevice.js';
import { LN2, LOG2E, accurateErf } from './accurate-math.js';
import { BF16, F16, F32, I1, I32, I64, PtxEmitter, bitsType, fromF32, isWideFloat, ptxType, targetError, toF32, widthOf } from './emitter.js';

/** Computes one element of `op`'s result (of element type `to`) from one element of each operand. */
export type ElementRule = (e: PtxEmitter, args: Value[], to: Type, op: Operation) => Value;

/**
 * Computes two neighbouring elements at once (registers r and r+1, r even) where the hardware
 * has a paired instruction, or returns null to leave them to the op's `ElementRule`.
 */
export type ElementPairRule = (e: PtxEmitter, first: Value[], second: Value[], to: Type, op: Operation) => [Value, Value] | null;


const isInt = (t: Type): boolean => t instanceof IntegerType;

/** Rejects integer types PTX arithmetic does not have registers for (i8 and other odd widths). */
function checkInt(op: Operation, t: Type): void {
  const w = widthOf(t);
  if (w !== 1 && w !== 16 && w !== 32 && w !== 64) throw targetError(op, `cannot compute on type '${t}' (the nvptx target has 16-, 32- and 64-bit integer arithmetic)`);
}

/** A float rule computed in f32 (or f64) for narrow floats. */
function floatOp(body: (e: PtxEmitter, xs: Value[], t: Type, op: Operation) => Value): ElementRule {
  return (e, args, to, op) => {
    const t = args[0].type;
    if (!(t instanceof FloatType) || !(isWideFloat(t) || t === F16 || t === BF16))
      throw targetError(op, `cannot compute on type '${elementTypeOf(op.operand(0).type)}' (the nvptx target computes f16, bf16, f32 and f64)`);
    if (isWideFloat(t)) return body(e, args, t, op);
    return fromF32(e, body(e, args.map((a) => toF32(e, a)), F32, op), to);
  };
}

/** A float rule that only exists for f32 (approximate transcendental instructions). */
function f32Only(name: string, body: (e: PtxEmitter, x: Value[]) => Value): ElementRule {
  return floatOp((e, xs, t, op) => {
    if (t !== F32) throw targetError(op, `cannot compute ${name} on type '${t}': the nvptx target has it for f16, bf16 and f32 only`);
    return body(e, xs);
  });
}

/** An integer rule `opcode.{kind}{width}`. */
function intOp(opcode: string, kind: 's' | 'u' | 'b', prefix = ''): ElementRule {
  return (e, [a, b], _to, op) => {
    checkInt(op, a.type);
    if (a.type === I1) return e.op(opcode === 'add' || opcode === 'sub' ? 'xor' : opcode, 'pred', [a, b], I1);
    return e.op(opcode, `${prefix}${ptxType(a.type, kind)}`, [a, b], a.type);
  };
}

/** An integer rule that has no 1-bit form (division, shifts, min/max). */
function intOnly(opcode: string, kind: 's' | 'u' | 'b', prefix = ''): ElementRule {
  return (e, args, _to, op) => {
    const t = args[0].type;
    checkInt(op, t);
    if (t === I1) throw targetError(op, `cannot compute on type 'i1'`);
    return e.op(opcode, `${prefix}${ptxType(t, kind)}`, args, t);
  };
}

/** A shift: PTX takes the shift amount as a 32-bit register whatever the shifted type. */
function shift(opcode: string, kind: 's' | 'u' | 'b'): ElementRule {
  const rule = intOnly(opcode, kind);
  return (e, [a, b], to, op) => rule(e, [a, e.intCast(b, I32, 'u')], to, op);
}

/** A bit-preserving cast (`mov.bN`). */
const bitcast: ElementRule = (e, [x], to) => (x.type === to ? x : e.op('mov', bitsType(to), [x], to));

/** A float rule `opcode[.mod].type` computed in f32/f64. */
const floatPlain = (opcode: string, mod = ''): ElementRule =>
  floatOp((e, xs, t) => e.op(opcode, `${mod}${ptxType(t)}`, xs, t));

/** `i1` as 0/1 (or 0/-1 when `signed`) in an integer of `to`. */
const boolToInt = (e: PtxEmitter, p: Value, to: Type, signed: boolean): Value => e.selp(p, e.imm(to, signed ? -1 : 1), e.imm(to, 0));

/** setp on predicates: compare them as 32-bit integers (true is -1 for signed predicates, 1 for unsigned). */
const predAsInt = (e: PtxEmitter, v: Value, signed: boolean): Value => (v.type === I1 ? boolToInt(e, v, I32, signed) : v);

const CMPI: Record<string, [string, 's' | 'u' | 'b']> = {
  eq: ['eq', 'b'], ne: ['ne', 'b'], slt: ['lt', 's'], sle: ['le', 's'], sgt: ['gt', 's'], sge: ['ge', 's'],
  ult: ['lt', 'u'], ule: ['le', 'u'], ugt: ['gt', 'u'], uge: ['ge', 'u'],
};
const CMPF: Record<string, string> = {
  oeq: 'eq', one: 'ne', olt: 'lt', ole: 'le', ogt: 'gt', oge: 'ge', ueq: 'equ', une: 'neu', ult: 'ltu', ule: 'leu',
  ugt: 'gtu', uge: 'geu', ord: 'num', uno: 'nan',
};

/** Converts one value between any two register types with MLIR cast semantics (integers signed or not as asked). */
export function convert(e: PtxEmitter, x: Value, to: Type, signed: boolean, op: Operation): Value {
  const from = x.type;
  if (from === to) return x;
  if (from === I1) {
    if (isInt(to)) return boolToInt(e, x, to, signed);
    // sitofp of i1 true is -1.0, uitofp 1.0.
    return e.op('cvt', `rn.${ptxType(to)}.${signed ? 's' : 'u'}32`, [boolToInt(e, x, I32, signed)], to);
  }
  if (to === I1) {
    // trunci keeps the low bit; float to i1 (fptosi/fptoui) tests for a nonzero value.
    if (isInt(from)) return e.setp('ne', 'b', e.and(x, e.imm(from, 1)), e.imm(from, 0));
    return e.setp('neu', 'f', x, e.imm(from, 0));
  }
  const k = signed ? 's' : 'u';
  if (isInt(from) && isInt(to)) return e.op('cvt', `${ptxType(to, k)}.${ptxType(from, k)}`, [x], to);
  if (from === BF16 || to === BF16) {
    // sm_80 converts bf16 only to/from f32: go through it.
    if (from === BF16) return convert(e, toF32(e, x), to, signed, op);
    return fromF32(e, convert(e, x, F32, signed, op), BF16);
  }
  if (isInt(from)) return e.op('cvt', `rn.${ptxType(to)}.${ptxType(from, k)}`, [x], to);
  if (isInt(to)) return e.op('cvt', `rzi.${ptxType(to, k)}.${ptxType(from)}`, [x], to);
  const narrowing = widthOf(to) < widthOf(from);
  return e.op('cvt', `${narrowing ? 'rn.' : ''}${ptxType(to)}.${ptxType(from)}`, [x], to);
}

const cast = (signed: boolean): ElementRule => (e, [x], to, op) => convert(e, x, to, signed, op);

/** extf / truncf: `convert`, with fp8 (bytes in registers) widened or rounded by its own rules. */
const floatCast: ElementRule = (e, [x], to, op) => {
  const from = elementTypeOf(op.operand(0).type);
  const dst = elementTypeOf(op.result(0).type);
  if (isFp8(from)) return extfFromFp8(e, x, from, dst, op);
  if (isFp8(dst)) return truncfToFp8(e, x, from, dst, op);
  return convert(e, x, to, true, op);
};

/** max/min that return NaN when either operand is NaN (`max.NaN.f32`; a NaN test and select for f64). */
function nanPropagating(e: PtxEmitter, opcode: 'max' | 'min', [a, b]: Value[], t: Type): Value {
  if (t === F32) return e.op(opcode, 'NaN.f32', [a, b], t);
  const m = e.op(opcode, ptxType(t), [a, b], t);
  const either = e.setp('nan', 'f', a, b);
  return e.selp(either, e.op('add', `rn.${ptxType(t)}`, [a, b], t), m);
}

/** Every elementwise op the nvptx target computes, by op name (keyed by the op definitions' names). */
export const ELEMENTWISE: Record<string, ElementRule> = {
  // ---- integers ----
  [arith.AddIOp.name]: intOp('add', 's'),
  [arith.SubIOp.name]: intOp('sub', 's'),
  [arith.MulIOp.name]: (e, [a, b], to, op) => (a.type === I1 ? e.op('and', 'pred', [a, b], I1) : intOnly('mul', 's', 'lo.')(e, [a, b], to, op)),
  [arith.DivSIOp.name]: intOnly('div', 's'),
  [arith.DivUIOp.name]: intOnly('div', 'u'),
  [arith.RemSIOp.name]: intOnly('rem', 's'),
  [arith.RemUIOp.name]: intOnly('rem', 'u'),
  [arith.AndIOp.name]: (e, [a, b], _to, op) => (checkInt(op, a.type), e.op('and', ptxType(a.type, 'b'), [a, b], a.type)),
  [arith.OrIOp.name]: (e, [a, b], _to, op) => (checkInt(op, a.type), e.op('or', ptxType(a.type, 'b'), [a, b], a.type)),
  [arith.XOrIOp.name]: (e, [a, b], _to, op) => (checkInt(op, a.type), e.op('xor', ptxType(a.type, 'b'), [a, b], a.type)),
  [arith.ShLIOp.name]: shift('shl', 'b'),
  [arith.ShRSIOp.name]: shift('shr', 's'),
  [arith.ShRUIOp.name]: shift('shr', 'u'),
  [arith.MinSIOp.name]: intOnly('min', 's'),
  [arith.MaxSIOp.name]: intOnly('max', 's'),
  [arith.MinUIOp.name]: intOnly('min', 'u'),
  [arith.MaxUIOp.name]: intOnly('max', 'u'),
  [tt.MulhiuiOp.name]: intOnly('mul', 'u', 'hi.'),
  [arith.CmpIOp.name]: (e, [a, b], _to, op) => {
    const pred = arith.CmpIPredicate.nameOf(op.getAttr('predicate') as IntegerAttr);
    const [cmp, kind] = CMPI[pred];
    if (a.type === I1 && (cmp === 'eq' || cmp === 'ne')) return e.op('xor', 'pred', [a, cmp === 'eq' ? e.op('not', 'pred', [b], I1) : b], I1);
    checkInt(op, a.type);
    return e.setp(cmp, kind, predAsInt(e, a, kind === 's'), predAsInt(e, b, kind === 's'));
  },
  [arith.SelectOp.name]: (e, [c, a, b]) => e.selp(c, a, b),
  [math.AbsiOp.name]: (e, [a], _to, op) => (checkInt(op, a.type), e.op('abs', ptxType(a.type, 's'), [a], a.type)),
  [math.CtpopOp.name]: (e, [a], _to, op) => {
    checkInt(op, a.type);
    const wide = widthOf(a.type) < 32 ? e.intCast(a, I32, 'u') : a;
    return e.intCast(e.op('popc', bitsType(wide.type), [wide], I32), a.type, 'u');
  },
  [math.CtlzOp.name]: (e, [a], _to, op) => {
    checkInt(op, a.type);
    const w = widthOf(a.type);
    const wide = w < 32 ? e.intCast(a, I32, 'u') : a;
    const n = e.op('clz', bitsType(wide.type), [wide], I32);
    return e.intCast(w < 32 ? e.addImm(n, w - 32) : n, a.type, 'u');
  },

  // ---- floats ----
  // No rounding modifier, as Triton emits them (its enable_fp_fusion, on by default): ptxas may
  // contract a mul with a dependent add or sub into one fma (attention's `qk * scale - m`).
  [arith.AddFOp.name]: floatPlain('add', ''),
  [arith.SubFOp.name]: floatPlain('sub', ''),
  [arith.MulFOp.name]: floatPlain('mul', ''),
  // Triton's lowering: f32 `/` is div.full.f32 (2 ulp); tt.precise_divf is the IEEE division.
  [arith.DivFOp.name]: floatOp((e, [a, b], t) => e.op('div', t === F32 ? 'full.f32' : `rn.${ptxType(t)}`, [a, b], t)),
  [tt.PreciseDivfOp.name]: floatPlain('div', 'rn.'),
  [arith.RemFOp.name]: floatOp((e, [a, b], t) => {
    // a - trunc(a / b) * b, as fmodf does (exact when the quotient fits the significand).
    const q = e.op('cvt', `rzi.${ptxType(t)}.${ptxType(t)}`, [e.op('div', `rn.${ptxType(t)}`, [a, b], t)], t);
    return e.op('fma', `rn.${ptxType(t)}`, [e.op('neg', ptxType(t), [q], t), b, a], t);
  }),
  [arith.NegFOp.name]: floatPlain('neg'),
  [math.AbsfOp.name]: floatPlain('abs'),
  [arith.MaxNumFOp.name]: floatPlain('max'),
  [arith.MinNumFOp.name]: floatPlain('min'),
  [arith.MaximumFOp.name]: floatOp((e, xs, t) => nanPropagating(e, 'max', xs, t)),
  [arith.MinimumFOp.name]: floatOp((e, xs, t) => nanPropagating(e, 'min', xs, t)),
  [math.FmaOp.name]: floatPlain('fma', 'rn.'),
  // PTX copysign d, a, b: the sign of a, the magnitude of b (MLIR's is magnitude first).
  [math.CopysignOp.name]: floatOp((e, [mag, sign], t) => e.op('copysign', ptxType(t), [sign, mag], t)),
  [arith.CmpFOp.name]: (e, [a, b], _to, op) => {
    const pred = arith.CmpFPredicate.nameOf(op.getAttr('predicate') as IntegerAttr);
    if (pred === 'false' || pred === 'true') return e.imm(I1, pred === 'true' ? 1 : 0);
    const [x, y] = a.type === F16 || a.type === BF16 ? [toF32(e, a), toF32(e, b)] : [a, b];
    return e.setp(CMPF[pred], 'f', x, y);
  },
  [math.SqrtOp.name]: floatOp((e, [x], t) => e.op('sqrt', t === F32 ? 'approx.f32' : `rn.${ptxType(t)}`, [x], t)),
  [tt.PreciseSqrtOp.name]: floatPlain('sqrt', 'rn.'),
  [math.RsqrtOp.name]: floatOp((e, [x], t) => e.op('rsqrt', t === F32 ? 'approx.f32' : 'approx.f64', [x], t)),
  [math.ExpOp.name]: f32Only('exp', (e, [x]) => e.op('ex2', 'approx.f32', [e.op('mul', 'rn.f32', [x, e.imm(F32, LOG2E)], F32)], F32)),
  // Triton's math.exp2 is libdevice's __nv_exp2f: ex2.approx.ftz.f32 (a denormal result flushes to 0),
  // one MUFU.EX2; without .ftz ptxas wraps each one in a denormal range check and two multiplies.
  [math.Exp2Op.name]: f32Only('exp2', (e, [x]) => e.op('ex2', 'approx.ftz.f32', [x], F32)),
  [math.LogOp.name]: f32Only('log', (e, [x]) => e.op('mul', 'rn.f32', [e.op('lg2', 'approx.f32', [x], F32), e.imm(F32, LN2)], F32)),
  [math.Log2Op.name]: f32Only('log2', (e, [x]) => e.op('lg2', 'approx.f32', [x], F32)),
  [math.SinOp.name]: f32Only('sin', (e, [x]) => e.op('sin', 'approx.f32', [x], F32)),
  [math.CosOp.name]: f32Only('cos', (e, [x]) => e.op('cos', 'approx.f32', [x], F32)),
  // as Triton's (libdevice's __nv_erff), to about 2 ulp
  [math.ErfOp.name]: f32Only('erf', (e, [x]) => accurateErf(e, x)),
  [math.FloorOp.name]: floatOp((e, [x], t) => e.op('cvt', `rmi.${ptxType(t)}.${ptxType(t)}`, [x], t)),
  [math.CeilOp.name]: floatOp((e, [x], t) => e.op('cvt', `rpi.${ptxType(t)}.${ptxType(t)}`, [x], t)),
  [math.TruncOp.name]: floatOp((e, [x], t) => e.op('cvt', `rzi.${ptxType(t)}.${ptxType(t)}`, [x], t)),
  [tt.ClampfOp.name]: floatOp((e, [x, lo, hi], t, op) => {
    const nan = PropagateNan.nameOf(op.getAttr('propagateNan')!) === 'all';
    const max = nan ? nanPropagating(e, 'max', [x, lo], t) : e.op('max', ptxType(t), [x, lo], t);
    return nan ? nanPropagating(e, 'min', [max, hi], t) : e.op('min', ptxType(t), [max, hi], t);
  }),

  // ---- conversions ----
  [arith.ExtFOp.name]: floatCast,
  [arith.TruncFOp.name]: floatCast,
  [tt.FpToFpOp.name]: fpToFp,
  [tt.ExternElementwiseOp.name]: externElementwise,
  [arith.ExtSIOp.name]: cast(true),
  [arith.ExtUIOp.name]: cast(false),
  [arith.TruncIOp.name]: cast(false),
  [arith.SIToFPOp.name]: cast(true),
  [arith.UIToFPOp.name]: cast(false),
  [arith.FPToSIOp.name]: cast(true),
  [arith.FPToUIOp.name]: cast(false),
  [arith.IndexCastOp.name]: cast(true),
  [arith.IndexCastUIOp.name]: cast(false),
  [arith.BitcastOp.name]: bitcast,
  [tt.BitcastOp.name]: bitcast,
  [tt.IntToPtrOp.name]: (e, [x]) => e.intCast(x, I64, 'u'),
  [tt.PtrToIntOp.name]: (e, [x], to) => e.intCast(x, to, 'u'),
};

/** The ops with a paired form (`ElementPairRule`), by op name. */
export const ELEMENT_PAIRS: Record<string, ElementPairRule> = {
  [tt.FpToFpOp.name]: fpToFpPair,
};
