/** The arith dialect: constants, integer/float arithmetic, comparisons, select and casts. */
import { DenseElementsAttr, FloatAttr, IntegerAttr } from '../../ir/attributes.js';
import type { DeclOf, OpDef, View } from '../../ir/op-def.js';
import type { Type } from '../../ir/types.js';
import * as arith from '../../dialects/arith.js';
import { family, impl, type OpEntry } from './op-impl.js';
import { fail } from './errors.js';
import { floatFromBits32, floatFromBitsNum, floatToBits, floatToBits32, rounderFor } from './floats.js';
import { fromFunction, floatBinary, floatUnary, intBinary, type IntFn } from './elementwise.js';
import { PtrData, type RtValue, allocData, asTensor, copyElt, eltClass, elementOf, shapeOfType, signedOf, tensor, unsignedOf } from './values.js';

const s = signedOf;
const u = unsignedOf;
const u64 = (v: bigint): bigint => BigInt.asUintN(64, v);

function nonZero(b: number | bigint): void {
  if (b === 0 || b === 0n) fail('integer division by zero');
}

/** Shift amounts >= the width give 0 (shli, shrui) or the sign fill (shrsi), as a wide shift would. */
const INT_OPS: [OpDef, IntFn][] = [
  [arith.AddIOp, { num: (a, b) => a + b, big: (a, b) => a + b }],
  [arith.SubIOp, { num: (a, b) => a - b, big: (a, b) => a - b }],
  [arith.MulIOp, { num: (a, b) => Math.imul(a, b), big: (a, b) => a * b }],
  [arith.DivSIOp, { num: (a, b, w) => (nonZero(b), Math.trunc(s(a, w) / s(b, w))), big: (a, b) => (nonZero(b), a / b) }],
  [arith.DivUIOp, { num: (a, b, w) => (nonZero(b), Math.trunc(u(a, w) / u(b, w))), big: (a, b) => (nonZero(b), u64(a) / u64(b)) }],
  [arith.RemSIOp, { num: (a, b, w) => (nonZero(b), s(a, w) % s(b, w)), big: (a, b) => (nonZero(b), a % b) }],
  [arith.RemUIOp, { num: (a, b, w) => (nonZero(b), u(a, w) % u(b, w)), big: (a, b) => (nonZero(b), u64(a) % u64(b)) }],
  [arith.CeilDivSIOp, { num: (a, b, w) => (nonZero(b), Math.ceil(s(a, w) / s(b, w))), big: (a, b) => (nonZero(b), ceilDiv(a, b)) }],
  [arith.CeilDivUIOp, { num: (a, b, w) => (nonZero(b), Math.ceil(u(a, w) / u(b, w))), big: (a, b) => (nonZero(b), ceilDiv(u64(a), u64(b))) }],
  [arith.FloorDivSIOp, { num: (a, b, w) => (nonZero(b), Math.floor(s(a, w) / s(b, w))), big: (a, b) => (nonZero(b), floorDiv(a, b)) }],
  [arith.AndIOp, { num: (a, b) => a & b, big: (a, b) => a & b }],
  [arith.OrIOp, { num: (a, b) => a | b, big: (a, b) => a | b }],
  [arith.XOrIOp, { num: (a, b) => a ^ b, big: (a, b) => a ^ b }],
  [arith.ShLIOp, { num: (a, b, w) => (u(b, w) >= w ? 0 : a << u(b, w)), big: (a, b) => (u64(b) >= 64n ? 0n : a << u64(b)) }],
  [arith.ShRSIOp, { num: (a, b, w) => s(a, w) >> Math.min(u(b, w), 31), big: (a, b) => a >> (u64(b) >= 64n ? 63n : u64(b)) }],
  [arith.ShRUIOp, { num: (a, b, w) => (u(b, w) >= w ? 0 : u(a, w) >>> u(b, w)), big: (a, b) => (u64(b) >= 64n ? 0n : u64(a) >> u64(b)) }],
  [arith.MaxSIOp, { num: (a, b, w) => (s(a, w) >= s(b, w) ? a : b), big: (a, b) => (a >= b ? a : b) }],
  [arith.MinSIOp, { num: (a, b, w) => (s(a, w) <= s(b, w) ? a : b), big: (a, b) => (a <= b ? a : b) }],
  [arith.MaxUIOp, { num: (a, b, w) => (u(a, w) >= u(b, w) ? a : b), big: (a, b) => (u64(a) >= u64(b) ? a : b) }],
  [arith.MinUIOp, { num: (a, b, w) => (u(a, w) <= u(b, w) ? a : b), big: (a, b) => (u64(a) <= u64(b) ? a : b) }],
];

function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a < 0n) === (b < 0n) ? q + 1n : q;
}
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

/** IEEE maxNum/minNum: a NaN operand is ignored. maximumf/minimumf propagate NaN; -0 < +0. */
const maxnum = (a: number, b: number): number => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b));
const minnum = (a: number, b: number): number => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b));

/** C fmod semantics (the sign of the dividend), as arith.remf. */
const fmod = (a: number, b: number): number => a % b;

const FLOAT_OPS: [OpDef, (a: number, b: number) => number][] = [
  [arith.AddFOp, (a, b) => a + b],
  [arith.SubFOp, (a, b) => a - b],
  [arith.MulFOp, (a, b) => a * b],
  [arith.DivFOp, (a, b) => a / b],
  [arith.RemFOp, fmod],
  [arith.MaximumFOp, Math.max],
  [arith.MinimumFOp, Math.min],
  [arith.MaxNumFOp, maxnum],
  [arith.MinNumFOp, minnum],
];

const ICMP: Record<string, { num: (a: number, b: number, w: number) => boolean; big: (a: bigint, b: bigint) => boolean }> = {
  eq: { num: (a, b) => a === b, big: (a, b) => a === b },
  ne: { num: (a, b) => a !== b, big: (a, b) => a !== b },
  slt: { num: (a, b, w) => s(a, w) < s(b, w), big: (a, b) => a < b },
  sle: { num: (a, b, w) => s(a, w) <= s(b, w), big: (a, b) => a <= b },
  sgt: { num: (a, b, w) => s(a, w) > s(b, w), big: (a, b) => a > b },
  sge: { num: (a, b, w) => s(a, w) >= s(b, w), big: (a, b) => a >= b },
  ult: { num: (a, b, w) => u(a, w) < u(b, w), big: (a, b) => u64(a) < u64(b) },
  ule: { num: (a, b, w) => u(a, w) <= u(b, w), big: (a, b) => u64(a) <= u64(b) },
  ugt: { num: (a, b, w) => u(a, w) > u(b, w), big: (a, b) => u64(a) > u64(b) },
  uge: { num: (a, b, w) => u(a, w) >= u(b, w), big: (a, b) => u64(a) >= u64(b) },
};

const uno = (a: number, b: number): boolean => Number.isNaN(a) || Number.isNaN(b);
const FCMP: Record<string, (a: number, b: number) => boolean> = {
  false: () => false,
  oeq: (a, b) => a === b,
  ogt: (a, b) => a > b,
  oge: (a, b) => a >= b,
  olt: (a, b) => a < b,
  ole: (a, b) => a <= b,
  one: (a, b) => !uno(a, b) && a !== b,
  ord: (a, b) => !uno(a, b),
  ueq: (a, b) => uno(a, b) || a === b,
  ugt: (a, b) => uno(a, b) || a > b,
  uge: (a, b) => uno(a, b) || a >= b,
  ult: (a, b) => uno(a, b) || a < b,
  ule: (a, b) => uno(a, b) || a <= b,
  une: (a, b) => uno(a, b) || a !== b,
  uno,
  true: () => true,
};

const cmpi = impl(arith.CmpIOp, (cmp, it) => {
  const pred = ICMP[cmp.predicate];
  const a = asTensor(it.get(cmp.lhs));
  const b = asTensor(it.get(cmp.rhs));
  const c = eltClass(a.elt);
  if (c.k === 'i64') {
    const x = a.data as BigInt64Array;
    const y = b.data as BigInt64Array;
    return [fromFunction(cmp.op, 0, (k) => (pred.big(x[k], y[k]) ? 1 : 0))];
  }
  if (c.k !== 'int') fail(`expected integer operands, got '${a.elt}'`);
  const x = a.data as Int32Array;
  const y = b.data as Int32Array;
  const out = new Int32Array(x.length);
  for (let k = 0; k < x.length; k++) out[k] = pred.num(x[k], y[k], c.width) ? 1 : 0;
  const t = cmp.result.type;
  return [tensor(shapeOfType(t), elementOf(t), out)];
});

const cmpf = impl(arith.CmpFOp, (cmp, it) => {
  const pred = FCMP[cmp.predicate];
  const x = asTensor(it.get(cmp.lhs)).data as Float64Array;
  const y = asTensor(it.get(cmp.rhs)).data as Float64Array;
  const out = new Int32Array(x.length);
  for (let k = 0; k < x.length; k++) out[k] = pred(x[k], y[k]) ? 1 : 0;
  const t = cmp.result.type;
  return [tensor(shapeOfType(t), elementOf(t), out)];
});

/** `arith.select` (on any element type, pointers too): a scalar condition picks a whole operand. */
const select = impl(arith.SelectOp, (sel, it) => {
  const c = asTensor(it.get(sel.condition)).data as Int32Array;
  const a = asTensor(it.get(sel.true_value));
  const b = asTensor(it.get(sel.false_value));
  if (c.length === 1 && a.data.length !== 1) return [c[0] ? a : b];
  const out = allocData(a.elt, a.data.length);
  for (let k = 0; k < out.length; k++) copyElt(out, k, c[k] ? a.data : b.data, k);
  return [tensor(a.shape, a.elt, out)];
});

/** `arith.constant`: integer, float and dense (splat or full) values. */
const constant = impl(arith.ConstantOp, (cst) => {
  const v = cst.value;
  if (v instanceof IntegerAttr) return [fromFunction(cst.op, 0, () => v.value)];
  if (v instanceof FloatAttr) return [fromFunction(cst.op, 0, () => v.value)];
  if (v instanceof DenseElementsAttr) {
    if (v.rawHex !== null) fail('dense constants in hex form are not supported');
    const c = eltClass(elementOf(cst.result.type));
    const rnd = c.k === 'float' ? rounderFor(c.kind) : null;
    return [fromFunction(cst.op, 0, (k) => (rnd ? rnd(Number(v.at(k))) : v.at(k)))];
  }
  return fail(`unsupported constant attribute '${v}'`);
});

/** Reads element k of an integer/float tensor as a number or (i64) bigint. */
function at(t: RtValue, k: number): number | bigint {
  const d = asTensor(t).data;
  if (d instanceof PtrData) return fail('pointer operand where a number was expected');
  return d[k];
}

/** The declaration shape every arith cast shares: operand `in`, result `out`. */
type CastDecl = DeclOf<'in', 'out'>;
type Cast = View<CastDecl>;

/** An elementwise conversion computing each result element from (value, the cast's types). */
function convert(def: OpDef<CastDecl>, fn: (v: number | bigint, cast: Cast) => number | bigint): OpEntry {
  return impl(def, (cast, it) => {
    const src = it.get(cast.in);
    return [fromFunction(cast.op, 0, (k) => fn(at(src, k), cast))];
  });
}

function srcWidth(cast: Cast): number {
  const c = eltClass(elementOf(cast.in.type));
  return c.k === 'int' ? c.width : 64;
}
function dstKind(cast: Cast): string {
  const c = eltClass(elementOf(cast.out.type));
  return c.k === 'float' ? c.kind : fail(`expected a float result, got '${cast.out.type}'`);
}
function dstWidth(cast: Cast): number {
  const c = eltClass(elementOf(cast.out.type));
  return c.k === 'int' ? c.width : 64;
}

/** Signed and unsigned value of an integer element of width w (bigint). */
const sBig = (v: number | bigint, w: number): bigint => (typeof v === 'bigint' ? v : BigInt(signedOf(v, w)));
const uBig = (v: number | bigint, w: number): bigint => (typeof v === 'bigint' ? u64(v) : BigInt(unsignedOf(v, w)));

/** fptosi/fptoui: truncate toward zero, saturating at the type's range (NaN gives 0), as GPUs do. */
function fpToInt(v: number, w: number, signed: boolean): bigint {
  if (Number.isNaN(v)) return 0n;
  const lo = signed ? -(2n ** BigInt(w - 1)) : 0n;
  const hi = signed ? 2n ** BigInt(w - 1) - 1n : 2n ** BigInt(w) - 1n;
  if (!Number.isFinite(v)) return v > 0 ? hi : lo;
  const t = BigInt(Math.trunc(v));
  return t < lo ? lo : t > hi ? hi : t;
}

/** Same-width bit reinterpretation of an element between integer and float types `fromType` and `toType`. */
export function bitcastElt(v: number | bigint, fromType: Type, toType: Type): number | bigint {
  const from = eltClass(elementOf(fromType));
  const to = eltClass(elementOf(toType));
  if (from.k === 'float' && to.k === 'float') {
    return floatFromBitsNum(floatToBits(v as number, from.kind), to.kind);
  }
  if (from.k === 'float') {
    if (from.kind === 'f64') return BigInt.asIntN(64, floatToBits(v as number, 'f64'));
    return floatToBits32(v as number, from.kind);
  }
  if (to.k === 'float') {
    if (to.kind === 'f64') return floatFromBitsNum(BigInt(v), 'f64');
    return floatFromBits32(Number(v), to.kind);
  }
  return v;
}

const CASTS: [OpDef<CastDecl>, (v: number | bigint, cast: Cast) => number | bigint][] = [
  [arith.ExtSIOp, (v, op) => sBig(v, srcWidth(op))],
  [arith.ExtUIOp, (v, op) => uBig(v, srcWidth(op))],
  [arith.TruncIOp, (v) => (typeof v === 'bigint' ? BigInt.asIntN(32, v) : v)],
  [arith.IndexCastOp, (v, op) => sBig(v, srcWidth(op))],
  [arith.IndexCastUIOp, (v, op) => uBig(v, srcWidth(op))],
  [arith.SIToFPOp, (v, op) => rounderFor(dstKind(op))(Number(sBig(v, srcWidth(op))))],
  [arith.UIToFPOp, (v, op) => rounderFor(dstKind(op))(Number(uBig(v, srcWidth(op))))],
  [arith.FPToSIOp, (v, op) => fpToInt(v as number, dstWidth(op), true)],
  [arith.FPToUIOp, (v, op) => fpToInt(v as number, dstWidth(op), false)],
  [arith.ExtFOp, (v, op) => rounderFor(dstKind(op))(v as number)],
  [arith.TruncFOp, (v, op) => rounderFor(dstKind(op))(v as number)],
  [arith.BitcastOp, (v, c) => bitcastElt(v, c.in.type, c.out.type)],
];

/** The arith op table. */
export const arithOps: OpEntry[] = [
  constant,
  cmpi,
  cmpf,
  select,
  [arith.NegFOp.name, floatUnary((a) => -a)],
  ...family(INT_OPS, intBinary),
  ...family(FLOAT_OPS, floatBinary),
  ...CASTS.map(([def, f]) => convert(def, f)),
];
