/**
 * f32 functions computed to about libdevice's accuracy (2 ulp), for `math.erf` and the libdevice
 * calls `__nv_expf`, `__nv_tanhf`, `__nv_erff`, `__nv_logf`, `__nv_log1pf` and `__nv_expm1f`:
 * argument reduction in exact steps, the MUFU
 * `ex2.approx` where an exponential is needed, and polynomials fitted in relative error (least
 * squares on Chebyshev nodes, f32 coefficients, simulated in f32 arithmetic before use).
 */
import type { Value } from '../../ir/ir.js';
import { F32, I1, I32, type PtxEmitter } from './emitter.js';

/** log2(e) and ln(2), for the exponentials and logarithms of the target. */
export const LOG2E = 1.4426950408889634;
export const LN2 = 0.6931471805599453;

/** ln 2 in two parts: the high one (15 significant bits) times any |j| <= 2^8 is exact. */
const LN2_HI = 0.693145751953125;
const LN2_LO = 1.428606765330187e-6;

/**
 * e^x in f32 to about 2 ulp (libdevice's __nv_expf bound): x = j ln2 + f with j = rint(x log2 e)
 * and f reduced in two exact steps (|f| <= ln2 / 2), e^f = ex2.approx(f log2 e) (MUFU, about 2 ulp),
 * then times 2^j as two exact powers of two (so that subnormal results and overflow come out right).
 */
export function accurateExp(e: PtxEmitter, x: Value): Value {
  const clamped = e.op('min', 'f32', [e.op('max', 'f32', [x, e.imm(F32, -104)], F32), e.imm(F32, 89)], F32);
  const { p, j } = expReduced(e, clamped);
  const half = e.op('shr', 's32', [j, e.imm(I32, 1)], I32);
  const scaled = e.op('mul', 'rn.f32', [e.op('mul', 'rn.f32', [p, powerOfTwo(e, half)], F32), powerOfTwo(e, e.sub(j, half))], F32);
  // NaN stays NaN (the clamp took it to a bound)
  return keepNaN(e, x, scaled);
}

/** `r`, or `x` itself where `x` is NaN. */
const keepNaN = (e: PtxEmitter, x: Value, r: Value): Value => e.selp(e.setp('nan', 'f', x, x), x, r);

/** x = j ln2 + f with j = rint(x log2 e) (as an f32) and f = x - j ln2 in two exact steps (|f| <= ln2 / 2). */
function reduceByLn2(e: PtxEmitter, x: Value): { jf: Value; f: Value } {
  const jf = e.op('cvt', 'rni.f32.f32', [e.op('mul', 'rn.f32', [x, e.imm(F32, LOG2E)], F32)], F32);
  const f = e.op('fma', 'rn.f32', [jf, e.imm(F32, -LN2_LO), e.op('fma', 'rn.f32', [jf, e.imm(F32, -LN2_HI), x], F32)], F32);
  return { jf, f };
}

/** exponent ln2 + l, ln2 in two parts (exponent an i32). */
function plusExponentLn2(e: PtxEmitter, exponent: Value, l: Value): Value {
  const ef = e.op('cvt', 'rn.f32.s32', [exponent], F32);
  return e.op('fma', 'rn.f32', [ef, e.imm(F32, LN2_HI), e.op('fma', 'rn.f32', [ef, e.imm(F32, LN2_LO), l], F32)], F32);
}

/** e^x for x known to lie in [-87, 88] (no NaN): the same reduction, one scaling. */
function boundedExp(e: PtxEmitter, x: Value): Value {
  const { p, j } = expReduced(e, x);
  return e.op('mul', 'rn.f32', [p, powerOfTwo(e, j)], F32);
}

/** x = j ln2 + f: e^f (from ex2.approx) and j (i32). */
function expReduced(e: PtxEmitter, x: Value): { p: Value; j: Value } {
  const { jf, f } = reduceByLn2(e, x);
  const p = e.op('ex2', 'approx.ftz.f32', [e.op('mul', 'rn.f32', [f, e.imm(F32, LOG2E)], F32)], F32);
  return { p, j: e.op('cvt', 'rzi.s32.f32', [jf], I32) };
}

/** 2^(k + plus) as an f32 (k an i32, k + plus in [-126, 127]). */
const powerOfTwo = (e: PtxEmitter, k: Value, plus = 0): Value => e.fromBits(e.shl(e.addImm(k, 127 + plus), 23), F32);

/** tanh(x) in f32: an odd polynomial below |x| = 0.55 (a least-squares fit, 0.8 ulp), 1 - 2 / (e^2|x| + 1) above. */
export function accurateTanh(e: PtxEmitter, x: Value): Value {
  const c = (v: number): Value => e.imm(F32, v);
  const s = e.op('mul', 'rn.f32', [x, x], F32);
  const poly = horner(e, TANH_SMALL, s);
  const small = e.op('fma', 'rn.f32', [e.op('mul', 'rn.f32', [s, x], F32), poly, x], F32);
  const a = e.op('min', 'f32', [e.op('abs', 'f32', [x], F32), c(9)], F32);
  const big = boundedExp(e, e.op('add', 'rn.f32', [a, a], F32));
  const q = e.op('div', 'rn.f32', [c(2), e.op('add', 'rn.f32', [big, c(1)], F32)], F32);
  const large = e.op('copysign', 'f32', [x, e.op('sub', 'rn.f32', [c(1), q], F32)], F32);
  const r = e.selp(e.setp('lt', 'f', e.op('abs', 'f32', [x], F32), c(0.55)), small, large);
  return keepNaN(e, x, r);
}

/** (tanh(x) - x) / x^3 as a polynomial in x^2 on [0, 0.55^2] (least squares in relative error, f32 coefficients). */
const TANH_SMALL = [-0.3333333134651184, 0.13333292305469513, -0.05395946651697159, 0.021781671792268753, -0.008410617709159851, 0.0023921895772218704];

/** 2 / sqrt(pi) in f32. */
const TWO_OVER_SQRT_PI = 1.1283791670955126;
/** (erf(x) / x - 2 / sqrt(pi)) / x^2 as a polynomial in x^2 on [0, 1] (1.8 ulp simulated). */
const ERF_SMALL = [-0.37612786889076233, 0.1128484308719635, -0.026896025985479355, 0.005257498938590288, -0.0008555965032428503, 9.514021076029167e-05];
/** log(erfc(x)) as a polynomial in u = (x - 2.46) / 1.46 on [1, 3.92]. */
const ERFC_LOG = [-7.594217777252197, -7.7047438621521, -2.009181499481201, -0.034891337156295776, 0.010230565443634987, -0.0029180271085351706, 0.0007806138601154089, -0.0001881503703771159, 3.921868119505234e-05, -5.104923275212059e-06, -2.1030950847489294e-06, 1.2745980484396568e-06];

/** Horner's rule with fma in f32. */
function horner(e: PtxEmitter, coefficients: readonly number[], t: Value): Value {
  let p = e.imm(F32, coefficients[coefficients.length - 1]);
  for (let k = coefficients.length - 2; k >= 0; k--) p = e.op('fma', 'rn.f32', [p, t, e.imm(F32, coefficients[k])], F32);
  return p;
}

/**
 * erf(x) in f32: x 2/sqrt(pi) + x^3 Q(x^2) below |x| = 1; above, 1 - e^(P(|x|)) with P fitted to
 * log(erfc), the sign of x put back; from 3.92 on it rounds to 1.
 */
export function accurateErf(e: PtxEmitter, x: Value): Value {
  const c = (v: number): Value => e.imm(F32, v);
  const s = e.op('mul', 'rn.f32', [x, x], F32);
  const small = e.op('fma', 'rn.f32', [e.op('mul', 'rn.f32', [x, s], F32), horner(e, ERF_SMALL, s), e.op('mul', 'rn.f32', [x, c(TWO_OVER_SQRT_PI)], F32)], F32);
  const a = e.op('min', 'f32', [e.op('abs', 'f32', [x], F32), c(3.92)], F32);
  const u = e.op('fma', 'rn.f32', [a, c(1 / 1.46), c(-2.46 / 1.46)], F32);
  // log(erfc) is in [-17.1, -1.85] on [1, 3.92]
  const erfc = boundedExp(e, horner(e, ERFC_LOG, u));
  const large = e.op('copysign', 'f32', [x, e.op('sub', 'rn.f32', [c(1), erfc], F32)], F32);
  const r = e.selp(e.setp('lt', 'f', e.op('abs', 'f32', [x], F32), c(1)), small, large);
  return keepNaN(e, x, r);
}

/** (log1p(f) - f + f^2 / 2) / f^3 as a polynomial in f on [sqrt(1/2) - 1, sqrt(2) - 1] (logf: 1.1 ulp simulated). */
const LOG1P_REST = [0.3333335518836975, -0.2500085234642029, 0.19999825954437256, -0.16621370613574982, 0.14227114617824554, -0.13202103972434998, 0.1262032836675644, -0.07362869381904602];

/** log1p(f) for f in [sqrt(1/2) - 1, sqrt(2) - 1]: f - f^2/2 + f^3 P(f). */
function log1pNear0(e: PtxEmitter, f: Value): Value {
  const half = e.op('fma', 'rn.f32', [e.op('mul', 'rn.f32', [f, e.imm(F32, -0.5)], F32), f, f], F32);
  const cube = e.op('mul', 'rn.f32', [e.op('mul', 'rn.f32', [f, f], F32), f], F32);
  return e.op('fma', 'rn.f32', [cube, horner(e, LOG1P_REST, f), half], F32);
}

/**
 * ln(x) in f32: x = m 2^e with m in [sqrt(1/2), sqrt(2)) (subnormals scaled by 2^23 first), then
 * e ln2 (in two parts) + log1p(m - 1), the latter f - f^2/2 + f^3 P(f); 0 gives -inf, negatives NaN,
 * inf and NaN themselves.
 */
export function accurateLog(e: PtxEmitter, x: Value): Value {
  const { f, exponent } = splitForLog(e, x);
  const r = plusExponentLn2(e, exponent, log1pNear0(e, f));
  return e.selp(ordinaryForLog(e, x), r, specialOfLog(e, x));
}

/** x = (1 + f) 2^exponent with 1 + f in [sqrt(1/2), sqrt(2)) (a subnormal x scaled by 2^23 first). */
function splitForLog(e: PtxEmitter, x: Value): { f: Value; exponent: Value } {
  const c = (v: number): Value => e.imm(F32, v);
  const tiny = e.setp('lt', 'f', x, c(2 ** -126));
  const scaled = e.selp(tiny, e.op('mul', 'rn.f32', [x, c(2 ** 23)], F32), x);
  const bits = e.bits(scaled);
  const biased = e.sub(e.sub(e.shrU(bits, 23), e.imm(I32, 127)), e.selp(tiny, e.imm(I32, 23), e.imm(I32, 0)));
  const m1 = e.fromBits(e.or(e.and(bits, e.imm(I32, 0x7fffff)), e.imm(I32, 0x3f800000)), F32);
  const big = e.setp('gt', 'f', m1, c(Math.SQRT2));
  const m = e.selp(big, e.op('mul', 'rn.f32', [m1, c(0.5)], F32), m1);
  return { f: e.op('sub', 'rn.f32', [m, c(1)], F32), exponent: e.add(biased, e.selp(big, e.imm(I32, 1), e.imm(I32, 0))) };
}

/** Whether ln(x) is an ordinary value (0 < x < inf). */
const ordinaryForLog = (e: PtxEmitter, x: Value): Value =>
  e.op('and', 'pred', [e.setp('gt', 'f', x, e.imm(F32, 0)), e.setp('lt', 'f', x, e.imm(F32, Infinity))], I1);

/** ln(x) outside the ordinary range: 0 -> -inf, negative -> NaN, inf and NaN -> themselves. */
const specialOfLog = (e: PtxEmitter, x: Value): Value =>
  e.selp(e.setp('eq', 'f', x, e.imm(F32, 0)), e.imm(F32, -Infinity), e.selp(e.setp('lt', 'f', x, e.imm(F32, 0)), e.imm(F32, NaN), x));

/**
 * log1p(x) in f32 with one polynomial: where x is in [sqrt(1/2) - 1, sqrt(2) - 1] the fitted
 * log1p(x) itself; elsewhere u = 1 + x rounded is split as ln's argument is (u = m 2^e) and the
 * rounding's correction (x - (u - 1)) / u is added. Outside the ordinary range (u <= 0,
 * infinities, NaN) it is ln(u)'s special value.
 */
export function accurateLog1p(e: PtxEmitter, x: Value): Value {
  const c = (v: number): Value => e.imm(F32, v);
  const u = e.op('add', 'rn.f32', [x, c(1)], F32);
  const near = e.op('and', 'pred', [e.setp('ge', 'f', x, c(Math.SQRT1_2 - 1)), e.setp('le', 'f', x, c(Math.SQRT2 - 1))], I1);
  const split = splitForLog(e, u);
  const f = e.selp(near, x, split.f);
  const exp = e.selp(near, e.imm(I32, 0), split.exponent);
  const correction = e.selp(near, c(0), e.op('div', 'rn.f32', [e.op('sub', 'rn.f32', [x, e.op('sub', 'rn.f32', [u, c(1)], F32)], F32), u], F32));
  const r = plusExponentLn2(e, exp, e.op('add', 'rn.f32', [log1pNear0(e, f), correction], F32));
  return e.selp(e.op('or', 'pred', [near, ordinaryForLog(e, u)], I1), r, specialOfLog(e, u));
}

/** (expm1(f) - f - f^2/2) / f^3 as a polynomial in f on [-ln2/2, ln2/2] (1.0 ulp simulated). */
const EXPM1_REST = [0.1666666567325592, 0.04166647791862488, 0.008333500474691391, 0.0013933562440797687, 0.00019778874411713332];

/**
 * e^x - 1 in f32 with one reduction: x = j ln2 + f (|f| <= ln2 / 2, j = rint(x log2 e)), then
 * 2 (2^(j-1) expm1(f) + (2^(j-1) - 1/2)) with expm1(f) = f + f^2/2 + f^3 P(f): exact where it
 * matters (small j), and 2^(j-1) representable for every j of a finite result. Past 88.72 it is
 * inf, below -86 it rounds to -1; -0 and NaN stay.
 */
export function accurateExpm1(e: PtxEmitter, x: Value): Value {
  const c = (v: number): Value => e.imm(F32, v);
  const clamped = e.op('min', 'f32', [e.op('max', 'f32', [x, c(-86)], F32), c(88.72)], F32);
  const { jf, f } = reduceByLn2(e, clamped);
  const half = e.op('fma', 'rn.f32', [e.op('mul', 'rn.f32', [f, c(0.5)], F32), f, f], F32);
  const em = e.op('fma', 'rn.f32', [e.op('mul', 'rn.f32', [e.op('mul', 'rn.f32', [f, f], F32), f], F32), horner(e, EXPM1_REST, f), half], F32);
  const pow2h = powerOfTwo(e, e.op('cvt', 'rzi.s32.f32', [jf], I32), -1);
  const halfResult = e.op('fma', 'rn.f32', [pow2h, em, e.op('sub', 'rn.f32', [pow2h, c(0.5)], F32)], F32);
  const r = e.op('add', 'rn.f32', [halfResult, halfResult], F32);
  const big = e.selp(e.setp('gt', 'f', x, c(88.7228394)), c(Infinity), r);
  // -0 and NaN stay themselves
  return e.selp(e.op('or', 'pred', [e.setp('eq', 'f', x, c(0)), e.setp('nan', 'f', x, x)], I1), x, big);
}
