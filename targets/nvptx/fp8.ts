/**
 * fp8 in registers. An fp8 element lives as its byte (register type i8, a 16-bit register with the
 * byte in its low half), so loads, stores, layout changes and loop-carried values move it as
 * bits. Conversions use sm_89+'s paired `cvt`: `cvt.rn.f16x2.e4m3x2` widens (exactly) and
 * `cvt.rn.satfinite.e4m3x2.f32` / `.f16x2` rounds to nearest even and saturates, as Triton's
 * conversions do on Hopper. Arithmetic on fp8 values is an error at the op: convert first.
 */
import type { Operation, Value } from '../../ir/ir.js';
import { FloatType, elementTypeOf, type Type } from '../../ir/types.js';
import { maxFinite, miniFloatBits, miniFloatFormat, nanBits } from '../../ir/minifloat.js';
import * as arith from '../../dialects/arith.js';
import * as scf from '../../dialects/scf.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';
import { BF16, F16, F32, F64, I16, I32, I8, PtxEmitter, ptxType, targetError, toF32, widthOf } from './emitter.js';
import type { ElementPairRule, ElementRule } from './elementwise.js';

/** PTX's pair type of each fp8 format the hardware converts. */
const PTX_PAIR: Record<string, string> = { f8E4M3FN: 'e4m3x2', f8E5M2: 'e5m2x2' };

/** Whether `t` is an 8-bit float type. */
export const isFp8 = (t: Type): t is FloatType => t instanceof FloatType && t.width === 8;

/**
 * Ops that only move or convert fp8 values (bits in, the same bits or a conversion out): every
 * other op with fp8 operands or results in registers is rejected at the op.
 */
export const FP8_REGISTER_OPS: ReadonlySet<string> = new Set([
  tt.LoadOp, tt.StoreOp, tt.FpToFpOp, tt.BitcastOp, tt.SplatOp, tt.BroadcastOp, tt.ExpandDimsOp, tt.ReshapeOp,
  tt.TransOp, tt.JoinOp, tt.SplitOp, tt.GatherOp, arith.ExtFOp, arith.TruncFOp, arith.BitcastOp, arith.SelectOp,
  arith.ConstantOp, ttg.ConvertLayoutOp, ttg.LocalAllocOp, ttg.LocalLoadOp, ttg.LocalStoreOp, scf.ForOp, scf.YieldOp,
  scf.IfOp, scf.WhileOp, scf.ConditionOp,
].map((d) => d.name));

/** The PTX pair name of an fp8 type, or a located error for formats the hardware does not convert. */
function pairOf(e: PtxEmitter, op: Operation, t: FloatType): string {
  const pair = PTX_PAIR[t.kind];
  if (!pair) throw targetError(op, `cannot convert '${t}' values: the nvptx target converts f8E4M3FN and f8E5M2 (PTX's e4m3 and e5m2)`);
  if (e.arch === 'sm_80') throw targetError(op, 'fp8 conversions need sm_89 or newer (PTX `cvt` on e4m3x2 / e5m2x2); the target is sm_80');
  return pair;
}

/** An fp8 byte widened to f16 (exact): the pair's low half. */
function fp8ToF16(e: PtxEmitter, x: Value, pair: string): Value {
  const halves = e.op('cvt', `rn.f16x2.${pair}`, [x], I32);
  return e.unpack('b32', halves, [F16, F16])[0];
}

/** f16 or f32 `x` rounded to nearest even into an fp8 byte, saturating (NaN stays NaN). */
function toFp8Saturating(e: PtxEmitter, x: Value, pair: string): Value {
  if (x.type === F16) return e.op('cvt', `rn.satfinite.${pair}.f16x2`, [e.pack('b32', [x, e.imm(F16, 0)], I32)], I8);
  // the pair's low byte is the second operand's
  return e.op('cvt', `rn.satfinite.${pair}.f32`, [e.imm(F32, 0), x], I8);
}

/** An fp8 value widened to float type `to` (exact). */
function widen(e: PtxEmitter, x: Value, from: FloatType, to: Type, op: Operation): Value {
  const half = fp8ToF16(e, x, pairOf(e, op, from));
  if (isFp8(to)) return toFp8Saturating(e, half, pairOf(e, op, to));
  const wide = fromHalf(e, half, to);
  if (!wide) throw targetError(op, `cannot convert '${from}' to '${to}'`);
  return wide;
}

/** A non-fp8 float `x` (of element type `from`) as an f16 or f32 register that an fp8 `cvt` reads with one rounding. */
function narrowSource(e: PtxEmitter, x: Value, from: Type, op: Operation): Value {
  if (from === F16 || from === F32) return x;
  if (from === BF16) return toF32(e, x);
  throw targetError(op, `cannot convert '${from}' to fp8 on the nvptx target (f16, bf16 and f32 convert with one rounding)`);
}

/**
 * `tt.fp_to_fp`: fp8 <-> f16/bf16/f32 as above; between the other float types a `cvt` with the
 * op's rounding (`rz` for rtz).
 */
export const fpToFp: ElementRule = (e, [x], to, op) => {
  const cvt = tt.FpToFpOp.view(op);
  const from = elementTypeOf(cvt.src.type);
  const dst = elementTypeOf(cvt.result.type);
  if (isFp8(from)) return widen(e, x, from, dst, op);
  if (isFp8(dst)) {
    if (cvt.rounding === 'rtz') throw targetError(op, `cannot round toward zero into '${dst}': fp8 conversions round to nearest even (rtne)`);
    return toFp8Saturating(e, narrowSource(e, x, from, op), pairOf(e, op, dst));
  }
  if (!(from instanceof FloatType) || !(dst instanceof FloatType)) throw targetError(op, 'converts floats only');
  if (from === dst) return x;
  if (widthOf(dst) > widthOf(from) || (from === BF16 && dst === F16) || (from === F16 && dst === BF16)) {
    // upcasts are exact; between f16 and bf16 through f32, rounded once by the mode below
    const single = toF32(e, x);
    if (dst === F32) return single;
    if (dst === F64) return e.op('cvt', 'f64.f32', [single], F64);
    return e.op('cvt', `${cvt.rounding === 'rtz' ? 'rz' : 'rn'}.${ptxType(dst)}.f32`, [single], dst);
  }
  return e.op('cvt', `${cvt.rounding === 'rtz' ? 'rz' : 'rn'}.${ptxType(dst)}.${ptxType(from)}`, [x], to);
};

/** f16 `half` (an fp8 value) widened exactly to float type `to` (f16, bf16, f32, f64), else null. */
function fromHalf(e: PtxEmitter, half: Value, to: Type): Value | null {
  if (to === F16) return half;
  // exact: an fp8 significand fits bf16's
  if (to === BF16) return e.op('cvt', 'rn.bf16.f16', [half], BF16);
  const single = e.op('cvt', 'f32.f16', [half], F32);
  if (to === F32) return single;
  return to === F64 ? e.op('cvt', 'f64.f32', [single], F64) : null;
}

/**
 * `tt.fp_to_fp` on two neighbouring registers at once, as the hardware converts pairs: fp8 bytes
 * that sit in one 16-bit half (of a loaded word) widen with one `cvt.rn.f16x2.e4m3x2`; two f16/bf16/f32
 * values round into one 16-bit pair, whose bytes a store packs back with a free move. Null where
 * the pair form does not apply (the per-element rule then handles, or rejects, each register).
 */
export const fpToFpPair: ElementPairRule = (e, [x], [y], _to, op) => {
  if (e.arch === 'sm_80') return null;
  const cvt = tt.FpToFpOp.view(op);
  const from = elementTypeOf(cvt.src.type);
  const dst = elementTypeOf(cvt.result.type);
  if (isFp8(from)) {
    const pair = PTX_PAIR[from.kind];
    const half = pair && !isFp8(dst) ? e.halfOfBytes(x, y) : null;
    if (!half) return null;
    const [lo, hi] = e.unpack('b32', e.op('cvt', `rn.f16x2.${pair}`, [half], I32), [F16, F16]);
    const a = fromHalf(e, lo, dst);
    const b = fromHalf(e, hi, dst);
    return a && b ? [a, b] : null;
  }
  const pair = isFp8(dst) ? PTX_PAIR[dst.kind] : undefined;
  if (!pair || cvt.rounding === 'rtz' || !(from === F16 || from === BF16 || from === F32)) return null;
  // the pair's high byte is the first operand's (hi, lo)
  const both = from === F16
    ? e.op('cvt', `rn.satfinite.${pair}.f16x2`, [e.pack('b32', [x, y], I32)], I16)
    : e.op('cvt', `rn.satfinite.${pair}.f32`, [toF32(e, y), toF32(e, x)], I16);
  return e.bytesOfHalf(both);
};

/** `arith.extf` from fp8: exact, as `tt.fp_to_fp`. */
export function extfFromFp8(e: PtxEmitter, x: Value, from: FloatType, to: Type, op: Operation): Value {
  return widen(e, x, from, to, op);
}

/**
 * `arith.truncf` into fp8 with MLIR's (APFloat's) rounding: to nearest even, and past the range to
 * infinity (f8E5M2) or NaN (f8E4M3FN), not saturating: the saturated conversion, replaced where
 * |x| rounds above the largest finite value.
 */
export function truncfToFp8(e: PtxEmitter, x: Value, from: Type, to: FloatType, op: Operation): Value {
  const fmt = miniFloatFormat(to.kind)!;
  const src = narrowSource(e, x, from, op);
  const sat = toFp8Saturating(e, src, pairOf(e, op, to));
  const wide = toF32(e, src);
  // The first value that rounds past the largest finite one: the midpoint above it, itself included
  // when a tie rounds up (the largest finite value's significand is odd).
  const max = maxFinite(fmt);
  const ulp = 2 ** (Math.floor(Math.log2(max)) - fmt.mantBits);
  const tieRoundsUp = (miniFloatBits(fmt, max) & 1) === 1;
  const over = e.setp(tieRoundsUp ? 'ge' : 'gt', 'f', e.op('abs', 'f32', [wide], F32), e.imm(F32, max + ulp / 2));
  let overflow: Value = e.imm(I8, nanBits(fmt));
  if (fmt.specials === 'ieee') {
    const inf = miniFloatBits(fmt, Infinity);
    overflow = e.selp(e.setp('lt', 'f', wide, e.imm(F32, 0)), e.imm(I8, inf | 0x80), e.imm(I8, inf));
  }
  return e.selp(over, overflow, sat);
}

