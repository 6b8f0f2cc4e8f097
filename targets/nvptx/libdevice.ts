/**
 * `tt.extern_elementwise` calls of libdevice (`tl.extra.cuda.libdevice`): a table from each
 * `__nv_*` symbol the target computes to the PTX of one element. It holds the functions that are
 * one instruction or an exact sequence (IEEE-rounded arithmetic, rounding to integral values,
 * classification, min/max, bit counts, conversions), the `fast_*` approximations, defined by
 * libdevice as the approximate instructions, and `__nv_expf` / `__nv_tanhf` / `__nv_erff` to about libdevice's
 * accuracy (`accurate-math.ts`), and `__nv_logf`, `__nv_log1pf`, `__nv_expm1f`. A symbol with no entry (`__nv_powf`, `__nv_sinf`, ...) is a located error.
 */
import type { Value } from '../../ir/ir.js';
import { type Type } from '../../ir/types.js';
import * as tt from '../../dialects/tt/index.js';
import { F32, F64, I32, I64, PtxEmitter, bitsType, ptxType, targetError } from './emitter.js';
import type { ElementRule } from './elementwise.js';
import { LN2, LOG2E, accurateErf, accurateExp, accurateExpm1, accurateLog, accurateLog1p, accurateTanh } from './accurate-math.js';

/** One libdevice function: its operand types (by PTX suffix) and the PTX of one element. */
interface Entry {
  readonly args: readonly Type[];
  readonly result: Type;
  readonly emit: (e: PtxEmitter, xs: Value[]) => Value;
}

const LOG2_10 = 3.321928094887362;
const LOG10_2 = 0.30102999566398120;

const entry = (args: readonly Type[], result: Type, emit: (e: PtxEmitter, xs: Value[]) => Value): Entry => ({ args, result, emit });
/** `opcode.suffix` of the operands, of the first operand's type. */
const plain = (t: Type, arity: number, opcode: string, mod = ''): Entry =>
  entry(new Array(arity).fill(t), t, (e, xs) => e.op(opcode, `${mod}${ptxType(t)}`, xs, t));
/** A predicate as libdevice's int result (1 or 0). */
const asInt = (e: PtxEmitter, p: Value): Value => e.selp(p, e.imm(I32, 1), e.imm(I32, 0));

/** round(x): to the nearest integral value, halfway cases away from zero (exact: trunc, then a step where the rest is at least one half). */
function roundHalfAway(e: PtxEmitter, x: Value, t: Type): Value {
  const s = ptxType(t);
  const whole = e.op('cvt', `rzi.${s}.${s}`, [x], t);
  const rest = e.op('abs', s, [e.op('sub', `rn.${s}`, [x, whole], t)], t);
  const away = e.op('copysign', s, [x, e.imm(t, 1)], t);
  return e.selp(e.setp('ge', 'f', rest, e.imm(t, 0.5)), e.op('add', `rn.${s}`, [whole, away], t), whole);
}

/** ffs(x): the 1-based index of the lowest set bit, 0 for 0. */
function findFirstSet(e: PtxEmitter, x: Value, t: Type): Value {
  const below = e.op('xor', bitsType(t), [x, e.op('sub', ptxType(t, 's'), [x, e.imm(t, 1)], t)], t);
  const count = e.op('popc', bitsType(t), [below], I32);
  return e.selp(e.setp('eq', 'b', x, e.imm(t, 0)), e.imm(I32, 0), count);
}

/** libdevice's rounding suffixes and PTX's modifiers for them: to a float, and to an integral value. */
const ROUNDINGS = ['rn', 'rz', 'rd', 'ru'] as const;
const FLOAT_ROUNDING = { rn: 'rn', rz: 'rz', rd: 'rm', ru: 'rp' } as const;
const INTEGRAL_ROUNDING = { rn: 'rni', rz: 'rzi', rd: 'rmi', ru: 'rpi' } as const;

/** Conversions `cvt.<rnd>.<to>.<from>` for float2int_rn and the like. */
const convert = (from: Type, to: Type, rnd: string, kind: 's' | 'u' = 's'): Entry =>
  entry([from], to, (e, [x]) => e.op('cvt', `${rnd}.${ptxType(to, kind)}.${ptxType(from, kind)}`, [x], to));

/** Every libdevice function the target computes, by symbol. */
export const LIBDEVICE: ReadonlyMap<string, Entry> = new Map<string, Entry>([
  // IEEE arithmetic with an explicit rounding
  ...ROUNDINGS.flatMap((r): [string, Entry][] => {
    const mode = FLOAT_ROUNDING[r];
    return [
      [`__nv_fadd_${r}`, plain(F32, 2, 'add', `${mode}.`)], [`__nv_dadd_${r}`, plain(F64, 2, 'add', `${mode}.`)],
      [`__nv_fsub_${r}`, plain(F32, 2, 'sub', `${mode}.`)], [`__nv_dsub_${r}`, plain(F64, 2, 'sub', `${mode}.`)],
      [`__nv_fmul_${r}`, plain(F32, 2, 'mul', `${mode}.`)], [`__nv_dmul_${r}`, plain(F64, 2, 'mul', `${mode}.`)],
      [`__nv_fdiv_${r}`, plain(F32, 2, 'div', `${mode}.`)], [`__nv_ddiv_${r}`, plain(F64, 2, 'div', `${mode}.`)],
      [`__nv_frcp_${r}`, plain(F32, 1, 'rcp', `${mode}.`)], [`__nv_drcp_${r}`, plain(F64, 1, 'rcp', `${mode}.`)],
      [`__nv_fsqrt_${r}`, plain(F32, 1, 'sqrt', `${mode}.`)], [`__nv_dsqrt_${r}`, plain(F64, 1, 'sqrt', `${mode}.`)],
      [`__nv_fmaf_${r}`, plain(F32, 3, 'fma', `${mode}.`)], [`__nv_fma_${r}`, plain(F64, 3, 'fma', `${mode}.`)],
    ];
  }),
  ['__nv_sqrtf', plain(F32, 1, 'sqrt', 'rn.')], ['__nv_sqrt', plain(F64, 1, 'sqrt', 'rn.')],
  ['__nv_fmaf', plain(F32, 3, 'fma', 'rn.')], ['__nv_fma', plain(F64, 3, 'fma', 'rn.')],
  ['__nv_rsqrtf', plain(F32, 1, 'rsqrt', 'approx.')],
  ['__nv_fabsf', plain(F32, 1, 'abs')], ['__nv_fabs', plain(F64, 1, 'abs')],
  ['__nv_fminf', plain(F32, 2, 'min')], ['__nv_fmin', plain(F64, 2, 'min')],
  ['__nv_fmaxf', plain(F32, 2, 'max')], ['__nv_fmax', plain(F64, 2, 'max')],
  // copysign(x, y): |x| with y's sign (PTX's copysign takes the sign first)
  ['__nv_copysignf', entry([F32, F32], F32, (e, [x, y]) => e.op('copysign', 'f32', [y, x], F32))],
  ['__nv_copysign', entry([F64, F64], F64, (e, [x, y]) => e.op('copysign', 'f64', [y, x], F64))],
  ['__nv_saturatef', entry([F32], F32, (e, [x]) => e.op('cvt', 'sat.f32.f32', [x], F32))],
  // rounding to integral values
  ['__nv_floorf', plain(F32, 1, 'cvt', 'rmi.f32.')], ['__nv_floor', plain(F64, 1, 'cvt', 'rmi.f64.')],
  ['__nv_ceilf', plain(F32, 1, 'cvt', 'rpi.f32.')], ['__nv_ceil', plain(F64, 1, 'cvt', 'rpi.f64.')],
  ['__nv_truncf', plain(F32, 1, 'cvt', 'rzi.f32.')], ['__nv_trunc', plain(F64, 1, 'cvt', 'rzi.f64.')],
  ['__nv_rintf', plain(F32, 1, 'cvt', 'rni.f32.')], ['__nv_rint', plain(F64, 1, 'cvt', 'rni.f64.')],
  ['__nv_nearbyintf', plain(F32, 1, 'cvt', 'rni.f32.')], ['__nv_nearbyint', plain(F64, 1, 'cvt', 'rni.f64.')],
  ['__nv_roundf', entry([F32], F32, (e, [x]) => roundHalfAway(e, x, F32))],
  ['__nv_round', entry([F64], F64, (e, [x]) => roundHalfAway(e, x, F64))],
  // classification (int results)
  ['__nv_isnanf', entry([F32], I32, (e, [x]) => asInt(e, e.setp('nan', 'f', x, x)))],
  ['__nv_isnand', entry([F64], I32, (e, [x]) => asInt(e, e.setp('nan', 'f', x, x)))],
  ['__nv_isinff', entry([F32], I32, (e, [x]) => asInt(e, e.setp('eq', 'f', e.op('abs', 'f32', [x], F32), e.imm(F32, Infinity))))],
  ['__nv_isinfd', entry([F64], I32, (e, [x]) => asInt(e, e.setp('eq', 'f', e.op('abs', 'f64', [x], F64), e.imm(F64, Infinity))))],
  ['__nv_finitef', entry([F32], I32, (e, [x]) => asInt(e, e.setp('lt', 'f', e.op('abs', 'f32', [x], F32), e.imm(F32, Infinity))))],
  ['__nv_isfinited', entry([F64], I32, (e, [x]) => asInt(e, e.setp('lt', 'f', e.op('abs', 'f64', [x], F64), e.imm(F64, Infinity))))],
  ['__nv_signbitf', entry([F32], I32, (e, [x]) => e.shrU(e.bits(x), 31))],
  ['__nv_signbitd', entry([F64], I32, (e, [x]) => e.intCast(e.shrU(e.bits(x), 63), I32, 'u'))],
  // the fast approximations (libdevice's __nv_fast_*: the approximate instructions)
  ['__nv_fast_expf', entry([F32], F32, (e, [x]) => e.op('ex2', 'approx.ftz.f32', [e.op('mul', 'rn.f32', [x, e.imm(F32, LOG2E)], F32)], F32))],
  ['__nv_fast_exp10f', entry([F32], F32, (e, [x]) => e.op('ex2', 'approx.ftz.f32', [e.op('mul', 'rn.f32', [x, e.imm(F32, LOG2_10)], F32)], F32))],
  ['__nv_exp2f', entry([F32], F32, (e, [x]) => e.op('ex2', 'approx.ftz.f32', [x], F32))],
  // accurate (about 2 ulp, measured in bench/gpu/RESULTS.md)
  ['__nv_expf', entry([F32], F32, (e, [x]) => accurateExp(e, x))],
  ['__nv_tanhf', entry([F32], F32, (e, [x]) => accurateTanh(e, x))],
  ['__nv_erff', entry([F32], F32, (e, [x]) => accurateErf(e, x))],
  ['__nv_logf', entry([F32], F32, (e, [x]) => accurateLog(e, x))],
  ['__nv_log1pf', entry([F32], F32, (e, [x]) => accurateLog1p(e, x))],
  ['__nv_expm1f', entry([F32], F32, (e, [x]) => accurateExpm1(e, x))],
  ['__nv_fast_logf', entry([F32], F32, (e, [x]) => e.op('mul', 'rn.f32', [e.op('lg2', 'approx.ftz.f32', [x], F32), e.imm(F32, LN2)], F32))],
  ['__nv_fast_log2f', entry([F32], F32, (e, [x]) => e.op('lg2', 'approx.ftz.f32', [x], F32))],
  ['__nv_fast_log10f', entry([F32], F32, (e, [x]) => e.op('mul', 'rn.f32', [e.op('lg2', 'approx.ftz.f32', [x], F32), e.imm(F32, LOG10_2)], F32))],
  ['__nv_fast_sinf', entry([F32], F32, (e, [x]) => e.op('sin', 'approx.ftz.f32', [x], F32))],
  ['__nv_fast_cosf', entry([F32], F32, (e, [x]) => e.op('cos', 'approx.ftz.f32', [x], F32))],
  ['__nv_fast_tanf', entry([F32], F32, (e, [x]) => e.op('div', 'approx.ftz.f32', [e.op('sin', 'approx.ftz.f32', [x], F32), e.op('cos', 'approx.ftz.f32', [x], F32)], F32))],
  ['__nv_fast_powf', entry([F32, F32], F32, (e, [x, y]) => e.op('ex2', 'approx.ftz.f32', [e.op('mul', 'rn.f32', [y, e.op('lg2', 'approx.ftz.f32', [x], F32)], F32)], F32))],
  ['__nv_fast_fdividef', plain(F32, 2, 'div', 'approx.ftz.')],
  // integers
  ['__nv_abs', entry([I32], I32, (e, [x]) => e.op('abs', 's32', [x], I32))], ['__nv_llabs', entry([I64], I64, (e, [x]) => e.op('abs', 's64', [x], I64))],
  ['__nv_min', entry([I32, I32], I32, (e, xs) => e.op('min', 's32', xs, I32))], ['__nv_max', entry([I32, I32], I32, (e, xs) => e.op('max', 's32', xs, I32))],
  ['__nv_umin', entry([I32, I32], I32, (e, xs) => e.op('min', 'u32', xs, I32))], ['__nv_umax', entry([I32, I32], I32, (e, xs) => e.op('max', 'u32', xs, I32))],
  ['__nv_llmin', entry([I64, I64], I64, (e, xs) => e.op('min', 's64', xs, I64))], ['__nv_llmax', entry([I64, I64], I64, (e, xs) => e.op('max', 's64', xs, I64))],
  ['__nv_mulhi', entry([I32, I32], I32, (e, xs) => e.op('mul', 'hi.s32', xs, I32))], ['__nv_umulhi', entry([I32, I32], I32, (e, xs) => e.op('mul', 'hi.u32', xs, I32))],
  ['__nv_mul64hi', entry([I64, I64], I64, (e, xs) => e.op('mul', 'hi.s64', xs, I64))], ['__nv_umul64hi', entry([I64, I64], I64, (e, xs) => e.op('mul', 'hi.u64', xs, I64))],
  ['__nv_popc', entry([I32], I32, (e, [x]) => e.op('popc', 'b32', [x], I32))], ['__nv_popcll', entry([I64], I32, (e, [x]) => e.op('popc', 'b64', [x], I32))],
  ['__nv_clz', entry([I32], I32, (e, [x]) => e.op('clz', 'b32', [x], I32))], ['__nv_clzll', entry([I64], I32, (e, [x]) => e.op('clz', 'b64', [x], I32))],
  ['__nv_brev', entry([I32], I32, (e, [x]) => e.op('brev', 'b32', [x], I32))], ['__nv_brevll', entry([I64], I64, (e, [x]) => e.op('brev', 'b64', [x], I64))],
  ['__nv_ffs', entry([I32], I32, (e, [x]) => findFirstSet(e, x, I32))], ['__nv_ffsll', entry([I64], I32, (e, [x]) => findFirstSet(e, x, I64))],
  ['__nv_byte_perm', entry([I32, I32, I32], I32, (e, xs) => e.op('prmt', 'b32', xs, I32))],
  // conversions
  ...ROUNDINGS.flatMap((r): [string, Entry][] => {
    const mode = INTEGRAL_ROUNDING[r];
    const fmode = FLOAT_ROUNDING[r];
    return [
      [`__nv_float2int_${r}`, convert(F32, I32, mode)], [`__nv_float2uint_${r}`, convert(F32, I32, mode, 'u')],
      [`__nv_float2ll_${r}`, convert(F32, I64, mode)], [`__nv_float2ull_${r}`, convert(F32, I64, mode, 'u')],
      [`__nv_double2int_${r}`, convert(F64, I32, mode)], [`__nv_double2ll_${r}`, convert(F64, I64, mode)],
      [`__nv_int2float_${r}`, convert(I32, F32, fmode)], [`__nv_uint2float_${r}`, convert(I32, F32, fmode, 'u')],
      [`__nv_ll2float_${r}`, convert(I64, F32, fmode)], [`__nv_ll2double_${r}`, convert(I64, F64, fmode)],
      [`__nv_double2float_${r}`, convert(F64, F32, fmode)],
    ];
  }),
  ['__nv_llrintf', convert(F32, I64, 'rni')], ['__nv_llrint', convert(F64, I64, 'rni')],
  ['__nv_float_as_int', entry([F32], I32, (e, [x]) => e.bits(x))], ['__nv_int_as_float', entry([I32], F32, (e, [x]) => e.fromBits(x, F32))],
  ['__nv_double_as_longlong', entry([F64], I64, (e, [x]) => e.bits(x))], ['__nv_longlong_as_double', entry([I64], F64, (e, [x]) => e.fromBits(x, F64))],
]);

/** `tt.extern_elementwise`: the libdevice entry of its symbol, checked against its operand and result types. */
export const externElementwise: ElementRule = (e, args, to, op) => {
  const call = tt.ExternElementwiseOp.view(op);
  const symbol = call.symbol;
  const fn = LIBDEVICE.get(symbol);
  if (!fn) throw targetError(op, `calls '${symbol}', which the nvptx target does not compute (it has the exact and fast_* libdevice functions: ${[...LIBDEVICE.keys()].filter((k) => !/_r[nzdu]$/.test(k)).slice(0, 12).join(', ')}, ...; see docs/design.md)`);
  const types = args.map((a) => a.type);
  if (types.length !== fn.args.length || types.some((t, k) => t !== fn.args[k]) || to !== fn.result) {
    throw targetError(op, `calls '${symbol}' with (${types.join(', ')}) -> ${to}; libdevice's takes (${fn.args.join(', ')}) -> ${fn.result}`);
  }
  return fn.emit(e, args);
};
