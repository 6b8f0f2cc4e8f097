/**
 * `tt.extern_elementwise` calls of libdevice in the interpreter: each `__nv_*` function the NVPTX
 * target computes (targets/nvptx/libdevice.ts) by its mathematical definition, in double and
 * rounded to the result type (the `fast_*` approximations too: the interpreter is the reference,
 * not a model of the GPU's approximate instructions). 64-bit integer functions are not here.
 */
import * as tt from '../../dialects/tt/index.js';
import { impl, type OpEntry } from './op-impl.js';
import { fromFunction } from './elementwise.js';
import { erf, rounderFor, roundAway } from './floats.js';
import { roundHalfEven } from '../../ir/float-rounding.js';
import { asTensor, eltClass, elementOf } from './values.js';
import { fail } from './errors.js';

type Fn = (xs: number[]) => number;

const u32 = (v: number): number => v >>> 0;
const popc = (v: number): number => {
  let x = u32(v);
  let n = 0;
  for (; x; x >>>= 1) n += x & 1;
  return n;
};
const brev = (v: number): number => {
  let x = u32(v);
  let r = 0;
  for (let b = 0; b < 32; b++, x >>>= 1) r = (r << 1) | (x & 1);
  return r | 0;
};
const ffs = (v: number): number => (v === 0 ? 0 : 32 - Math.clz32(v & -v));
const signbit = (v: number): number => (v < 0 || Object.is(v, -0) ? 1 : 0);
/** A float's integer conversion by `round` (NaN 0, saturating at the i32 range as PTX's cvt). */
const toInt = (round: (v: number) => number, lo: number, hi: number): Fn => ([x]) => (Number.isNaN(x) ? 0 : Math.min(hi, Math.max(lo, round(x))));
const ROUNDINGS: Record<string, (v: number) => number> = { rn: roundHalfEven, rz: Math.trunc, rd: Math.floor, ru: Math.ceil };

const FUNCTIONS = new Map<string, Fn>([
  ...(['f', ''] as const).flatMap((s): [string, Fn][] => [
    [`__nv_sqrt${s}`, ([x]) => Math.sqrt(x)], [`__nv_fma${s}`, ([a, b, c]) => a * b + c], [`__nv_fabs${s}`, ([x]) => Math.abs(x)],
    [`__nv_fmin${s}`, ([a, b]) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b))],
    [`__nv_fmax${s}`, ([a, b]) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b))],
    [`__nv_copysign${s}`, ([x, y]) => (signbit(y) ? -Math.abs(x) : Math.abs(x))],
    [`__nv_floor${s}`, ([x]) => Math.floor(x)], [`__nv_ceil${s}`, ([x]) => Math.ceil(x)], [`__nv_trunc${s}`, ([x]) => Math.trunc(x)],
    [`__nv_rint${s}`, ([x]) => roundHalfEven(x)], [`__nv_nearbyint${s}`, ([x]) => roundHalfEven(x)], [`__nv_round${s}`, ([x]) => roundAway(x)],
  ]),
  ['__nv_fadd_rn', ([a, b]) => a + b], ['__nv_fsub_rn', ([a, b]) => a - b], ['__nv_fmul_rn', ([a, b]) => a * b],
  ['__nv_fdiv_rn', ([a, b]) => a / b], ['__nv_frcp_rn', ([x]) => 1 / x], ['__nv_fsqrt_rn', ([x]) => Math.sqrt(x)], ['__nv_fmaf_rn', ([a, b, c]) => a * b + c],
  ['__nv_dadd_rn', ([a, b]) => a + b], ['__nv_dsub_rn', ([a, b]) => a - b], ['__nv_dmul_rn', ([a, b]) => a * b],
  ['__nv_ddiv_rn', ([a, b]) => a / b], ['__nv_drcp_rn', ([x]) => 1 / x], ['__nv_dsqrt_rn', ([x]) => Math.sqrt(x)],
  ['__nv_rsqrtf', ([x]) => 1 / Math.sqrt(x)], ['__nv_saturatef', ([x]) => (Number.isNaN(x) ? 0 : Math.min(1, Math.max(0, x)))],
  ['__nv_isnanf', ([x]) => +Number.isNaN(x)], ['__nv_isnand', ([x]) => +Number.isNaN(x)],
  ['__nv_isinff', ([x]) => +(Math.abs(x) === Infinity)], ['__nv_isinfd', ([x]) => +(Math.abs(x) === Infinity)],
  ['__nv_finitef', ([x]) => +Number.isFinite(x)], ['__nv_isfinited', ([x]) => +Number.isFinite(x)],
  ['__nv_signbitf', ([x]) => signbit(x)], ['__nv_signbitd', ([x]) => signbit(x)],
  ['__nv_expf', ([x]) => Math.exp(x)], ['__nv_tanhf', ([x]) => Math.tanh(x)], ['__nv_erff', ([x]) => erf(x)], ['__nv_logf', ([x]) => Math.log(x)], ['__nv_log1pf', ([x]) => Math.log1p(x)], ['__nv_expm1f', ([x]) => Math.expm1(x)], ['__nv_fast_expf', ([x]) => Math.exp(x)], ['__nv_fast_exp10f', ([x]) => 10 ** x], ['__nv_exp2f', ([x]) => 2 ** x],
  ['__nv_fast_logf', ([x]) => Math.log(x)], ['__nv_fast_log2f', ([x]) => Math.log2(x)], ['__nv_fast_log10f', ([x]) => Math.log10(x)],
  ['__nv_fast_sinf', ([x]) => Math.sin(x)], ['__nv_fast_cosf', ([x]) => Math.cos(x)], ['__nv_fast_tanf', ([x]) => Math.tan(x)],
  ['__nv_fast_powf', ([x, y]) => x ** y], ['__nv_fast_fdividef', ([a, b]) => a / b],
  ['__nv_abs', ([x]) => Math.abs(x) | 0], ['__nv_min', ([a, b]) => Math.min(a, b)], ['__nv_max', ([a, b]) => Math.max(a, b)],
  ['__nv_umin', ([a, b]) => Math.min(u32(a), u32(b)) | 0], ['__nv_umax', ([a, b]) => Math.max(u32(a), u32(b)) | 0],
  ['__nv_mulhi', ([a, b]) => Number((BigInt(a) * BigInt(b)) >> 32n)], ['__nv_umulhi', ([a, b]) => Number((BigInt(u32(a)) * BigInt(u32(b))) >> 32n) | 0],
  ['__nv_popc', ([x]) => popc(x)], ['__nv_clz', ([x]) => Math.clz32(x)], ['__nv_brev', ([x]) => brev(x)], ['__nv_ffs', ([x]) => ffs(x)],
  ...Object.entries(ROUNDINGS).flatMap(([r, round]): [string, Fn][] => [
    [`__nv_float2int_${r}`, toInt(round, -(2 ** 31), 2 ** 31 - 1)], [`__nv_double2int_${r}`, toInt(round, -(2 ** 31), 2 ** 31 - 1)],
    [`__nv_float2uint_${r}`, (xs) => toInt(round, 0, 2 ** 32 - 1)(xs) | 0],
    [`__nv_int2float_${r}`, ([x]) => x], [`__nv_uint2float_${r}`, ([x]) => u32(x)],
  ]),
]);

/** Every libdevice symbol the interpreter computes. */
export const LIBDEVICE_SYMBOLS: ReadonlySet<string> = new Set(FUNCTIONS.keys());

// tt.extern_elementwise {symbol = "__nv_rintf"} %x -> rint(x), rounded to the result type
const externElementwise = impl(tt.ExternElementwiseOp, (call, it) => {
  const fn = FUNCTIONS.get(call.symbol) ?? fail(`no implementation for 'tt.extern_elementwise' of '${call.symbol}' (it computes the libdevice functions the NVPTX target has)`);
  const srcs = call.srcs.map((v) => asTensor(it.get(v)).data);
  const c = eltClass(elementOf(call.result.type));
  if (c.k !== 'float' && c.k !== 'int') fail(`'${call.symbol}' with a result of type '${elementOf(call.result.type)}'`);
  const round = c.k === 'float' ? rounderFor(c.kind) : null;
  return [fromFunction(call.op, 0, (k) => {
    const v = fn(srcs.map((d) => Number((d as ArrayLike<number | bigint>)[d.length === 1 ? 0 : k])));
    return round ? round(v) : v;
  })];
});

/** The interpreter's table entries of libdevice calls. */
export const libdeviceOps: OpEntry[] = [externElementwise];
