/** The arith dialect: constants, integer/float arithmetic, comparisons, select and casts. */
import { DenseElementsAttr, FloatAttr, IntegerAttr } from '../../ir/attributes.js';
import type { Operation } from '../../ir/ir.js';
import { CmpFPredicate, CmpIPredicate } from '../../dialects/arith.js';
import type { OpImpl } from './interpreter.js';
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
const INT_OPS: Record<string, IntFn> = {
  addi: { num: (a, b) => a + b, big: (a, b) => a + b },
  subi: { num: (a, b) => a - b, big: (a, b) => a - b },
  muli: { num: (a, b) => Math.imul(a, b), big: (a, b) => a * b },
  divsi: { num: (a, b, w) => (nonZero(b), Math.trunc(s(a, w) / s(b, w))), big: (a, b) => (nonZero(b), a / b) },
  divui: { num: (a, b, w) => (nonZero(b), Math.trunc(u(a, w) / u(b, w))), big: (a, b) => (nonZero(b), u64(a) / u64(b)) },
  remsi: { num: (a, b, w) => (nonZero(b), s(a, w) % s(b, w)), big: (a, b) => (nonZero(b), a % b) },
  remui: { num: (a, b, w) => (nonZero(b), u(a, w) % u(b, w)), big: (a, b) => (nonZero(b), u64(a) % u64(b)) },
  ceildivsi: { num: (a, b, w) => (nonZero(b), Math.ceil(s(a, w) / s(b, w))), big: (a, b) => (nonZero(b), ceilDiv(a, b)) },
  ceildivui: { num: (a, b, w) => (nonZero(b), Math.ceil(u(a, w) / u(b, w))), big: (a, b) => (nonZero(b), ceilDiv(u64(a), u64(b))) },
  floordivsi: { num: (a, b, w) => (nonZero(b), Math.floor(s(a, w) / s(b, w))), big: (a, b) => (nonZero(b), floorDiv(a, b)) },
  andi: { num: (a, b) => a & b, big: (a, b) => a & b },
  ori: { num: (a, b) => a | b, big: (a, b) => a | b },
  xori: { num: (a, b) => a ^ b, big: (a, b) => a ^ b },
  shli: { num: (a, b, w) => (u(b, w) >= w ? 0 : a << u(b, w)), big: (a, b) => (u64(b) >= 64n ? 0n : a << u64(b)) },
  shrsi: { num: (a, b, w) => s(a, w) >> Math.min(u(b, w), 31), big: (a, b) => a >> (u64(b) >= 64n ? 63n : u64(b)) },
  shrui: { num: (a, b, w) => (u(b, w) >= w ? 0 : u(a, w) >>> u(b, w)), big: (a, b) => (u64(b) >= 64n ? 0n : u64(a) >> u64(b)) },
  maxsi: { num: (a, b, w) => (s(a, w) >= s(b, w) ? a : b), big: (a, b) => (a >= b ? a : b) },
  minsi: { num: (a, b, w) => (s(a, w) <= s(b, w) ? a : b), big: (a, b) => (a <= b ? a : b) },
  maxui: { num: (a, b, w) => (u(a, w) >= u(b, w) ? a : b), big: (a, b) => (u64(a) >= u64(b) ? a : b) },
  minui: { num: (a, b, w) => (u(a, w) <= u(b, w) ? a : b), big: (a, b) => (u64(a) <= u64(b) ? a : b) },
};

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

const FLOAT_OPS: Record<string, (a: number, b: number) => number> = {
  addf: (a, b) => a + b,
  subf: (a, b) => a - b,
  mulf: (a, b) => a * b,
  divf: (a, b) => a / b,
  remf: fmod,
  maximumf: Math.max,
  minimumf: Math.min,
  maxnumf: maxnum,
  minnumf: minnum,
};

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

const cmpi: OpImpl = (op, ins) => {
  const pred = ICMP[CmpIPredicate.nameOf(op.getAttr('predicate')!)];
  const a = asTensor(ins[0]);
  const b = asTensor(ins[1]);
  const c = eltClass(a.elt);
  if (c.k === 'i64') {
    const x = a.data as BigInt64Array;
    const y = b.data as BigInt64Array;
    return [fromFunction(op, 0, (k) => (pred.big(x[k], y[k]) ? 1 : 0))];
  }
  if (c.k !== 'int') fail(`expected integer operands, got '${a.elt}'`);
  const x = a.data as Int32Array;
  const y = b.data as Int32Array;
  const out = new Int32Array(x.length);
  for (let k = 0; k < x.length; k++) out[k] = pred.num(x[k], y[k], c.width) ? 1 : 0;
  return [tensor(shapeOfType(op.result(0).type), elementOf(op.result(0).type), out)];
};

const cmpf: OpImpl = (op, ins) => {
  const pred = FCMP[CmpFPredicate.nameOf(op.getAttr('predicate')!)];
  const x = asTensor(ins[0]).data as Float64Array;
  const y = asTensor(ins[1]).data as Float64Array;
  const out = new Int32Array(x.length);
  for (let k = 0; k < x.length; k++) out[k] = pred(x[k], y[k]) ? 1 : 0;
  return [tensor(shapeOfType(op.result(0).type), elementOf(op.result(0).type), out)];
};

/** `arith.select` (and any select on pointers): a scalar condition picks a whole operand. */
export const select: OpImpl = (op, ins) => {
  const c = asTensor(ins[0]).data as Int32Array;
  const a = asTensor(ins[1]);
  const b = asTensor(ins[2]);
  if (c.length === 1 && a.data.length !== 1) return [c[0] ? a : b];
  const out = allocData(a.elt, a.data.length);
  for (let k = 0; k < out.length; k++) copyElt(out, k, c[k] ? a.data : b.data, k);
  return [tensor(a.shape, a.elt, out)];
};

/** `arith.constant`: integer, float and dense (splat or full) values. */
const constant: OpImpl = (op) => {
  const v = op.getAttr('value');
  if (v instanceof IntegerAttr) return [fromFunction(op, 0, () => v.value)];
  if (v instanceof FloatAttr) return [fromFunction(op, 0, () => v.value)];
  if (v instanceof DenseElementsAttr) {
    if (v.rawHex !== null) fail('dense constants in hex form are not supported');
    const c = eltClass(elementOf(op.result(0).type));
    const rnd = c.k === 'float' ? rounderFor(c.kind) : null;
    return [fromFunction(op, 0, (k) => (rnd ? rnd(Number(v.at(k))) : v.at(k)))];
  }
  return fail(`unsupported constant attribute '${v}'`);
};

/** Reads element k of an integer/float tensor as a number or (i64) bigint. */
function at(t: RtValue, k: number): number | bigint {
  const d = asTensor(t).data;
  if (d instanceof PtrData) return fail('pointer operand where a number was expected');
  return d[k];
}

/** An elementwise conversion computing each result element from (value, source width/kind). */
function convert(fn: (v: number | bigint, op: Operation) => number | bigint): OpImpl {
  return (op, ins) => [fromFunction(op, 0, (k) => fn(at(ins[0], k), op))];
}

function srcWidth(op: Operation): number {
  const c = eltClass(elementOf(op.operand(0).type));
  return c.k === 'int' ? c.width : 64;
}
function dstKind(op: Operation): string {
  const c = eltClass(elementOf(op.result(0).type));
  return c.k === 'float' ? c.kind : fail(`expected a float result, got '${op.result(0).type}'`);
}
function dstWidth(op: Operation): number {
  const c = eltClass(elementOf(op.result(0).type));
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

/** Same-width bit reinterpretation between integers and floats. */
function bitcastElt(v: number | bigint, op: Operation): number | bigint {
  const from = eltClass(elementOf(op.operand(0).type));
  const to = eltClass(elementOf(op.result(0).type));
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

const CASTS: Record<string, (v: number | bigint, op: Operation) => number | bigint> = {
  extsi: (v, op) => sBig(v, srcWidth(op)),
  extui: (v, op) => uBig(v, srcWidth(op)),
  trunci: (v) => (typeof v === 'bigint' ? BigInt.asIntN(32, v) : v),
  index_cast: (v, op) => sBig(v, srcWidth(op)),
  index_castui: (v, op) => uBig(v, srcWidth(op)),
  sitofp: (v, op) => rounderFor(dstKind(op))(Number(sBig(v, srcWidth(op)))),
  uitofp: (v, op) => rounderFor(dstKind(op))(Number(uBig(v, srcWidth(op)))),
  fptosi: (v, op) => fpToInt(v as number, dstWidth(op), true),
  fptoui: (v, op) => fpToInt(v as number, dstWidth(op), false),
  extf: (v, op) => rounderFor(dstKind(op))(v as number),
  truncf: (v, op) => rounderFor(dstKind(op))(v as number),
  bitcast: bitcastElt,
};

/** The arith op table. */
export const arithOps: Record<string, OpImpl> = {
  'arith.constant': constant,
  'arith.cmpi': cmpi,
  'arith.cmpf': cmpf,
  'arith.select': select,
  'arith.negf': floatUnary((a) => -a),
};
for (const [name, f] of Object.entries(INT_OPS)) arithOps[`arith.${name}`] = intBinary(f);
for (const [name, f] of Object.entries(FLOAT_OPS)) arithOps[`arith.${name}`] = floatBinary(f);
for (const [name, f] of Object.entries(CASTS)) arithOps[`arith.${name}`] = convert(f);

export { bitcastElt };
