/**
 * Transfer functions of the axis-info analysis for ops without regions: given the facts about
 * the operands, the facts about the (single) result. They follow Triton's AxisInfo visitors
 * (lib/Analysis/AxisInfo.cpp); `null` means "no rule" (the result is then pessimistic).
 * Constant values are computed in the result's integer width (Triton uses zero-extended int64).
 */
import { IntegerAttr, normalizeInt } from '../../ir/attributes.js';
import type { Operation } from '../../ir/ir.js';
import { bitWidth, elementTypeOf, IndexType, IntegerType, RankedTensorType, shapeOf, type Type } from '../../ir/types.js';
import { PointerType } from '../../dialects/tt/types.js';
import { AxisInfo, divisibilityAt, divisibilityOfEither, gcd, highestPowOf2Divisor, isPowerOf2, multiplyDivisor } from './axis-info-lattice.js';
import { constantRule } from './axis-info-constants.js';
import * as arith from '../../dialects/arith.js';
import * as builtin from '../../dialects/builtin.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';

/** A transfer function: operand facts (all known) to result facts, or null when nothing is known. */
export type AxisRule = (op: Operation, ins: readonly AxisInfo[]) => AxisInfo | null;

/** Ops whose result has the facts of their first operand (casts, layout conversions). */
const CASTS = [
  arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp, arith.IndexCastOp, arith.IndexCastUIOp,
  tt.BitcastOp, ttg.ConvertLayoutOp, builtin.UnrealizedConversionCastOp,
];

/** The constant `v` normalized to the integer width of `t`'s elements (64-bit for pointers). */
export function normalizeTo(v: bigint, t: Type): bigint {
  const e = elementTypeOf(t);
  if (e instanceof IntegerType || e instanceof IndexType) return normalizeInt(v, e);
  return BigInt.asIntN(64, v);
}

/** Size in bytes of the pointee of a pointer (or tensor of pointers), at least 1. */
export function pointeeBytes(t: Type): number {
  const p = elementTypeOf(t);
  if (!(p instanceof PointerType)) return 1;
  return Math.max(1, Math.floor(bitWidth(elementTypeOf(p.pointee)) / 8));
}

/** Whether `info` is a full run of consecutive values along `d` (contiguity = dimension size). */
function contiguousDim(info: AxisInfo, shape: readonly number[], d: number): boolean {
  return info.contiguity[d] === shape[d];
}

/** Whether `info` is the same value all along `d` (constancy = dimension size). */
function constantDim(info: AxisInfo, shape: readonly number[], d: number): boolean {
  return info.constancy[d] === shape[d];
}

/** Per-dimension callbacks of a binary integer op, as in Triton's BinaryOpVisitorImpl. */
interface BinaryRule {
  contiguity?(l: AxisInfo, r: AxisInfo, d: number, shape: readonly number[] | null): number;
  /** `runs`: the result's contiguity along `d` (already computed). */
  divisibility?(l: AxisInfo, r: AxisInfo, d: number, shape: readonly number[] | null, runs: number): number;
  constancy?(l: AxisInfo, r: AxisInfo, d: number, shape: readonly number[] | null): number;
  constant?(l: bigint, r: bigint, t: Type): bigint | null;
  /** A constant result known from one side only (x % 1 = 0). */
  partialConstant?(l: AxisInfo, r: AxisInfo): bigint | null;
}

/** Builds the rule of a binary op: a known constant result is all-constant, else per-dimension callbacks. */
function binary(rule: BinaryRule): AxisRule {
  return (op, [l, r]) => {
    const t = op.result(0).type;
    const shape = t instanceof RankedTensorType ? t.shape : null;
    let cv: bigint | null = null;
    if (l.constantValue !== null && r.constantValue !== null && rule.constant) cv = rule.constant(l.constantValue, r.constantValue, t);
    if (cv === null && rule.partialConstant) cv = rule.partialConstant(l, r);
    if (cv !== null) cv = normalizeTo(cv, t);
    const contiguity: number[] = [];
    const divisibility: number[] = [];
    const constancy: number[] = [];
    for (let d = 0; d < l.rank; d++) {
      if (cv !== null) {
        contiguity.push(1);
        constancy.push(Math.max(l.constancy[d], r.constancy[d]));
        divisibility.push(highestPowOf2Divisor(cv));
        continue;
      }
      const runs = rule.contiguity?.(l, r, d, shape) ?? 1;
      contiguity.push(runs);
      divisibility.push(rule.divisibility?.(l, r, d, shape, runs) ?? 1);
      constancy.push(rule.constancy?.(l, r, d, shape) ?? 1);
    }
    return new AxisInfo(contiguity, divisibility, constancy, cv);
  };
}

const gcdConstancy = (l: AxisInfo, r: AxisInfo, d: number) => gcd(l.constancy[d], r.constancy[d]);
const isConst = (i: AxisInfo, v: bigint) => i.constantValue === v;

/** Unsigned view of `v` in the width of `t`. */
function unsignedIn(v: bigint, t: Type): bigint {
  const w = bitWidth(elementTypeOf(t)) || 64;
  return BigInt.asUintN(w, v);
}

/** addi / subi / addptr: runs survive adding a constant; divisibility is the gcd (addptr scales the offset by the element size). */
function addSub(kind: 'add' | 'sub' | 'ptr'): AxisRule {
  return (op, ins) => {
    const scale = kind === 'ptr' ? pointeeBytes(tt.AddptrOp.view(op).ptr.type) : 1;
    return binary({
      contiguity: (l, r, d) =>
        kind === 'sub' ? gcd(l.contiguity[d], r.constancy[d]) : Math.max(gcd(l.constancy[d], r.contiguity[d]), gcd(l.contiguity[d], r.constancy[d])),
      // Measured at the result's run starts. Triton takes the operands' divisibility as is, which
      // overstates it when runs shrink: [0..127] + [0..127] = [0, 2, 4, 6, ...] is not 2^30-aligned.
      divisibility: (l, r, d, _s, runs) => gcd(divisibilityAt(l, d, runs), multiplyDivisor(divisibilityAt(r, d, runs), scale)),
      constancy: gcdConstancy,
      constant: (a, b) => (kind === 'sub' ? a - b : a + b * BigInt(scale)),
    })(op, ins);
  };
}

/** muli: x * 1 keeps runs; divisibilities multiply (a run start 2^n is not a divisor of the rest of its run). */
const mul = binary({
  contiguity: (l, r, d) => Math.max(isConst(r, 1n) ? l.contiguity[d] : 1, isConst(l, 1n) ? r.contiguity[d] : 1),
  divisibility: (l, r, d) => {
    const ld = l.contiguity[d] > 1 && !isConst(r, 1n) ? 1 : l.divisibility[d];
    const rd = r.contiguity[d] > 1 && !isConst(l, 1n) ? 1 : r.divisibility[d];
    return multiplyDivisor(ld, rd);
  },
  constancy: gcdConstancy,
  constant: (a, b) => a * b,
});

/** divsi / divui: a run divided by a constant power-of-two-aligned value is constant in blocks. */
function div(unsigned: boolean): AxisRule {
  return binary({
    contiguity: (l, r, d) => (isConst(r, 1n) ? l.contiguity[d] : 1),
    constancy: (l, r, d, shape) => {
      if (!shape) return 1;
      let c = gcd(l.constancy[d], r.constancy[d]);
      if (contiguousDim(l, shape, d) && constantDim(r, shape, d)) c = Math.max(c, gcd(l.contiguity[d], l.divisibility[d], r.divisibility[d]));
      return c;
    },
    divisibility: (l, r, d) => {
      if (isConst(l, 0n) || isConst(r, 1n)) return l.divisibility[d];
      const rv = r.constantValue;
      if (rv !== null && isPowerOf2(rv) && l.contiguity[d] === 1) return Math.max(1, Math.floor(l.divisibility[d] / Number(rv < 0n ? -rv : rv)));
      return 1;
    },
    constant: (a, b, t) => {
      if (b === 0n) return null;
      return unsigned ? unsignedIn(a, t) / unsignedIn(b, t) : a / b;
    },
  });
}

/** remsi / remui: a full run modulo a constant gives runs of gcd(contiguity, divisibilities). */
function rem(unsigned: boolean): AxisRule {
  return binary({
    contiguity: (l, r, d, shape) => {
      if (!shape || !(contiguousDim(l, shape, d) && constantDim(r, shape, d))) return 1;
      return gcd(l.contiguity[d], l.divisibility[d], r.divisibility[d]);
    },
    divisibility: (l, r, d) => (r.constancy[d] > 1 ? gcd(l.divisibility[d], r.divisibility[d]) : 1),
    constancy: (l, r, d, shape) => {
      if (!shape) return 1;
      return isConst(r, 1n) ? shape[d] : gcd(l.constancy[d], r.constancy[d]);
    },
    constant: (a, b, t) => {
      if (b === 0n) return null;
      return unsigned ? unsignedIn(a, t) % unsignedIn(b, t) : a % b;
    },
    partialConstant: (_l, r) => (isConst(r, 1n) ? 0n : null),
  });
}

/** andi / ori / xori: only constancy (and constants) survive. */
function logical(f: (a: bigint, b: bigint) => bigint): AxisRule {
  return binary({ constancy: gcdConstancy, constant: f });
}

/** The shift amount when it is a usable constant (0 <= s < 63). */
function shiftOf(r: AxisInfo): number | null {
  const s = r.constantValue;
  return s !== null && s >= 0n && s < 63n ? Number(s) : null;
}

/** shli: divisibility grows by 2^shift (runs broken unless shifting by 0). */
const shl = binary({
  contiguity: (l, r, d) => (isConst(r, 0n) ? l.contiguity[d] : 1),
  divisibility: (l, r, d) => {
    const s = shiftOf(r) ?? 0;
    const ld = l.contiguity[d] > 1 && s ? 1 : l.divisibility[d];
    return multiplyDivisor(ld, 2 ** s);
  },
  constancy: gcdConstancy,
  constant: (a, b) => (b < 0n || b >= 64n ? null : a << b),
});

/** shrui / shrsi: divisibility shrinks by 2^shift. */
function shr(unsigned: boolean): AxisRule {
  return binary({
    contiguity: (l, r, d) => (isConst(r, 0n) ? l.contiguity[d] : 1),
    divisibility: (l, r, d) => {
      const s = shiftOf(r);
      if (s === null) return 1;
      const ld = l.contiguity[d] > 1 && s ? 1 : l.divisibility[d];
      return Math.max(1, Math.floor(ld / 2 ** s));
    },
    constancy: gcdConstancy,
    constant: (a, b, t) => (b < 0n || b >= 64n ? null : (unsigned ? unsignedIn(a, t) : a) >> b),
  });
}

/** maxsi / maxui / minsi / minui: either operand, elementwise. */
function maxMin(pick: (a: bigint, b: bigint, t: Type) => bigint): AxisRule {
  return (op, [l, r]) => {
    const t = op.result(0).type;
    if (l.constantValue !== null && r.constantValue !== null) {
      const p = AxisInfo.pessimistic(l.rank);
      return new AxisInfo(p.contiguity, p.divisibility, p.constancy, pick(l.constantValue, r.constantValue, t));
    }
    return eitherOf(l, r, null);
  };
}

/** Facts holding for a value that is elementwise either `l` or `r` (optionally chosen by a mask `cond`). */
function eitherOf(l: AxisInfo, r: AxisInfo, cond: AxisInfo | null): AxisInfo {
  const contiguity: number[] = [];
  const divisibility: number[] = [];
  const constancy: number[] = [];
  for (let d = 0; d < l.rank; d++) {
    const c = cond ? cond.constancy[d] : 0;
    const runs = gcd(l.contiguity[d], r.contiguity[d], c);
    constancy.push(gcd(l.constancy[d], r.constancy[d], c));
    contiguity.push(runs);
    divisibility.push(divisibilityOfEither(l, r, d, runs));
  }
  const cv = l.constantValue !== null && l.constantValue === r.constantValue ? l.constantValue : null;
  return new AxisInfo(contiguity, divisibility, constancy, cv);
}

/** arith.select: a known condition picks a side; an i1 condition picks a whole side; a mask mixes them in blocks of its constancy. */
const select: AxisRule = (op, [c, l, r]) => {
  if (c.constantValue !== null) return c.constantValue === 0n ? r : l;
  const scalarCond = !(arith.SelectOp.view(op).condition.type instanceof RankedTensorType);
  return eitherOf(l, r, scalarCond ? null : c);
};

/** Evaluates a cmpi predicate on two constants of type `t`. */
function compare(pred: string, a: bigint, b: bigint, t: Type): boolean {
  const ua = unsignedIn(a, t);
  const ub = unsignedIn(b, t);
  const table: Record<string, boolean> = {
    eq: a === b, ne: a !== b, slt: a < b, sle: a <= b, sgt: a > b, sge: a >= b, ult: ua < ub, ule: ua <= ub, ugt: ua > ub, uge: ua >= ub,
  };
  return table[pred];
}

/** arith.cmpi: blocks where both sides are constant compare constant; a constant against an aligned run too. */
const cmp: AxisRule = (op, [l, r]) => {
  const cmpi = arith.CmpIOp.view(op);
  const pred: string | undefined = cmpi.predicate;
  const t = cmpi.lhs.type;
  const shape = shapeOf(t);
  const cv = pred && l.constantValue !== null && r.constantValue !== null ? (compare(pred, l.constantValue, r.constantValue, t) ? 1n : 0n) : null;
  const constancy: number[] = [];
  for (let d = 0; d < l.rank; d++) {
    if (!(t instanceof RankedTensorType)) {
      constancy.push(1);
      continue;
    }
    if (cv !== null) {
      constancy.push(l.constancy[d]);
      continue;
    }
    let c = gcd(l.constancy[d], r.constancy[d]);
    const gtOrLe = pred === 'sgt' || pred === 'ugt' || pred === 'sle' || pred === 'ule';
    const ltOrGe = pred === 'slt' || pred === 'ult' || pred === 'sge' || pred === 'uge';
    if (gtOrLe && constantDim(l, shape, d)) c = Math.max(c, gcd(r.contiguity[d], l.divisibility[d], r.divisibility[d]));
    else if (ltOrGe && constantDim(r, shape, d)) c = Math.max(c, gcd(l.contiguity[d], l.divisibility[d], r.divisibility[d]));
    constancy.push(c);
  }
  const ones = new Array<number>(l.rank).fill(1);
  return new AxisInfo(ones, ones, constancy, cv);
};

/** tt.make_range: one run of end - start values starting at `start`. */
const makeRange: AxisRule = (op) => {
  const s = op.getAttr('start');
  const e = op.getAttr('end');
  if (!(s instanceof IntegerAttr && e instanceof IntegerAttr)) return null;
  // Triton computes highestPowOf2Divisor<int32_t>(start): 0 gives 2^30.
  return new AxisInfo([e.num - s.num], [highestPowOf2Divisor(s.value, 2 ** 30)], [1]);
};

/** tt.splat: one value everywhere. */
const splat: AxisRule = (op, [x]) => {
  const shape = shapeOf(op.result(0).type);
  return new AxisInfo(shape.map(() => 1), shape.map(() => x.divisibility[0]), [...shape], x.constantValue);
};

/** tt.trans: result dimension d is operand dimension order[d]; every fact moves with its dimension. */
const trans: AxisRule = (op, [x]) => {
  const order = tt.TransOp.view(op).order;
  if (x.rank !== order.length) return null;
  const permute = (v: readonly number[]) => order.map((d) => v[d]);
  return new AxisInfo(permute(x.contiguity), permute(x.divisibility), permute(x.constancy), x.constantValue);
};

/** tt.expand_dims: a new size-1 dimension whose divisibility is what holds for every element. */
const expandDims: AxisRule = (op, [x]) => {
  const a = op.getAttr('axis');
  if (!(a instanceof IntegerAttr)) return null;
  let div: number;
  if (x.constantValue !== null) div = highestPowOf2Divisor(x.constantValue);
  else div = x.rank ? gcd(...x.divisibility.map((v, d) => (x.contiguity[d] > 1 ? 1 : v))) : 1;
  const ins = <T>(v: readonly T[], n: T) => [...v.slice(0, a.num), n, ...v.slice(a.num)];
  return new AxisInfo(ins(x.contiguity, 1), ins(x.divisibility, div), ins(x.constancy, 1), x.constantValue);
};

/** tt.broadcast: size-1 dimensions become constant along their new size. */
const broadcast: AxisRule = (op, [x]) => {
  const bcast = tt.BroadcastOp.view(op);
  const from = shapeOf(bcast.src.type);
  const to = shapeOf(bcast.result.type);
  if (from.length !== to.length || x.rank !== to.length) return null;
  return new AxisInfo(
    to.map((_, d) => (from[d] === 1 ? 1 : x.contiguity[d])),
    [...x.divisibility],
    to.map((n, d) => (from[d] === 1 ? n : x.constancy[d])),
    x.constantValue,
  );
};

/** tt.load: equal pointers (under an equal mask) load equal values. */
const load: AxisRule = (op, [ptr, mask]) => {
  const hasMask = op.numOperands > 1 && mask !== undefined;
  const ones = new Array<number>(ptr.rank).fill(1);
  const constancy = ptr.constancy.map((c, d) => gcd(c, hasMask ? (mask.constancy[d] ?? 1) : 0));
  return new AxisInfo(ones, ones, constancy);
};

const sMax = (a: bigint, b: bigint) => (a > b ? a : b);
const sMin = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * Casts keep their operand's facts; a constant is converted (zero-extended by extui / index_castui).
 * An unrealized_conversion_cast of no operand or several knows nothing (pessimistic).
 */
const castRule: AxisRule = (op, ins) => {
  if (ins.length !== 1) return null;
  const x = ins[0];
  if (x.constantValue === null) return x;
  const zext = arith.ExtUIOp.is(op) || arith.IndexCastUIOp.is(op);
  // Every cast's source is its first (only) operand.
  const v = zext ? unsignedIn(x.constantValue, op.operands[0].value.type) : x.constantValue;
  return withConstant(x, normalizeTo(v, op.result(0).type));
};

/** `x` with another constant value (and the divisibility that goes with it). */
function withConstant(x: AxisInfo, cv: bigint): AxisInfo {
  if (cv === x.constantValue) return x;
  return new AxisInfo(x.contiguity, x.divisibility.map(() => highestPowOf2Divisor(cv)), x.constancy, cv);
}

/** The transfer function of every op with a rule, by op name. */
export const AXIS_RULES: ReadonlyMap<string, AxisRule> = new Map<string, AxisRule>([
  ...CASTS.map((d): [string, AxisRule] => [d.name, castRule]),
  [arith.ConstantOp.name, constantRule],
  [tt.MakeRangeOp.name, makeRange],
  [arith.AddIOp.name, addSub('add')],
  [arith.SubIOp.name, addSub('sub')],
  [tt.AddptrOp.name, addSub('ptr')],
  [arith.MulIOp.name, mul],
  [arith.DivSIOp.name, div(false)],
  [arith.DivUIOp.name, div(true)],
  [arith.RemSIOp.name, rem(false)],
  [arith.RemUIOp.name, rem(true)],
  [arith.AndIOp.name, logical((a, b) => a & b)],
  [arith.OrIOp.name, logical((a, b) => a | b)],
  [arith.XOrIOp.name, logical((a, b) => a ^ b)],
  [arith.ShLIOp.name, shl],
  [arith.ShRUIOp.name, shr(true)],
  [arith.ShRSIOp.name, shr(false)],
  [arith.MaxSIOp.name, maxMin(sMax)],
  [arith.MinSIOp.name, maxMin(sMin)],
  [arith.MaxUIOp.name, maxMin((a, b, t) => (unsignedIn(a, t) > unsignedIn(b, t) ? a : b))],
  [arith.MinUIOp.name, maxMin((a, b, t) => (unsignedIn(a, t) < unsignedIn(b, t) ? a : b))],
  [arith.CmpIOp.name, cmp],
  [arith.SelectOp.name, select],
  [tt.SplatOp.name, splat],
  [tt.ExpandDimsOp.name, expandDims],
  [tt.BroadcastOp.name, broadcast],
  [tt.TransOp.name, trans],
  [tt.LoadOp.name, load],
]);

