/**
 * Folds and canonicalization patterns of the arith dialect, as MLIR's arith folders do them:
 * float constant folding (rounded to the result type), comparisons and selects of constants,
 * algebraic identities, casts of constants, constant reassociation and constants-to-the-right.
 * Splat dense constants count as constants everywhere.
 */
import { type Attribute, DenseElementsAttr, FloatAttr, IntegerAttr } from '../ir/attributes.js';
import type { Operation, Value } from '../ir/ir.js';
import type { FoldResult, OpDecl } from '../ir/op-spec.js';
import { constantOf, type RewritePattern } from '../ir/patterns.js';
import {
  FloatType, RankedTensorType, type Type, VectorType, bitWidth, elementTypeOf,
} from '../ir/types.js';

/** An op's fold hook. */
export type Fold = NonNullable<OpDecl['fold']>;

// ---- constant helpers ----------------------------------------------------------------------

/** The integer held by a scalar or splat constant, or null. */
export function splatInt(a: Attribute | null | undefined): bigint | null {
  if (a instanceof IntegerAttr) return a.value;
  if (a instanceof DenseElementsAttr && a.isSplat && typeof a.values[0] === 'bigint') return a.values[0];
  return null;
}

/** The float held by a scalar or splat constant, or null. */
export function splatFloat(a: Attribute | null | undefined): number | null {
  if (a instanceof FloatAttr) return a.value;
  if (a instanceof DenseElementsAttr && a.isSplat && typeof a.values[0] === 'number') return a.values[0];
  return null;
}

/** An integer constant of type `t` (a splat for tensors and vectors). */
export function intConstant(t: Type, v: bigint): Attribute {
  if (t instanceof RankedTensorType || t instanceof VectorType) return DenseElementsAttr.get(t, [IntegerAttr.get(v, t.elementType).value]);
  return IntegerAttr.get(v, t);
}

/** Float kinds whose rounding `FloatAttr.get` implements exactly; others are not folded. */
const ROUNDED_KINDS = new Set(['f16', 'bf16', 'f32', 'f64']);

/** A float constant of type `t` rounded to its element type (a splat for shaped types), or null when the kind is not foldable. */
export function floatConstant(t: Type, v: number): Attribute | null {
  const elt = elementTypeOf(t);
  if (!(elt instanceof FloatType) || !ROUNDED_KINDS.has(elt.kind)) return null;
  const rounded = FloatAttr.get(v, elt);
  if (t instanceof RankedTensorType || t instanceof VectorType) return DenseElementsAttr.get(t, [rounded.value]);
  return rounded;
}

/** The bit width of the element type of `t` (index: 64). */
const widthOf = (t: Type) => bitWidth(elementTypeOf(t));

/** Runs folds in order; the first that gives a result wins. */
export function firstFold(...folds: Fold[]): Fold {
  return (op, operands) => {
    for (const f of folds) {
      const r = f(op, operands);
      if (r) return r;
    }
    return null;
  };
}

// ---- integer identities --------------------------------------------------------------------

/** What an identity rule returns: an existing value, an integer for a constant of the result type, or null. */
type IdentityResult = Value | bigint | null;

/** Folds a binary integer op by an identity on its operands (`x`, `y`) and their constant values (`a`, `b`). */
function intIdentity(f: (x: Value, y: Value, a: bigint | null, b: bigint | null, width: number) => IdentityResult): Fold {
  return (op, [ca, cb]) => {
    const r = f(op.operand(0), op.operand(1), splatInt(ca), splatInt(cb), widthOf(op.result(0).type));
    if (r === null) return null;
    return [typeof r === 'bigint' ? intConstant(op.result(0).type, r) : r];
  };
}

const allOnes = (v: bigint | null, w: number) => v !== null && BigInt.asUintN(w, v) === (1n << BigInt(w)) - 1n;

/** Identity folds of the binary integer ops, by op name (without `arith.`). */
export const intIdentities: Record<string, Fold> = {
  // addi x, 0 -> x ; addi 0, x -> x
  addi: intIdentity((x, y, a, b) => (b === 0n ? x : a === 0n ? y : null)),
  // subi x, 0 -> x ; subi x, x -> 0
  subi: intIdentity((x, y, _a, b) => (b === 0n ? x : x === y ? 0n : null)),
  // muli x, 1 -> x ; muli x, 0 -> 0 (either side)
  muli: intIdentity((x, y, a, b) => (b === 1n ? x : a === 1n ? y : a === 0n || b === 0n ? 0n : null)),
  // divsi x, 1 -> x
  divsi: intIdentity((x, _y, _a, b) => (b === 1n ? x : null)),
  // divui x, 1 -> x
  divui: intIdentity((x, _y, _a, b) => (b === 1n ? x : null)),
  // remsi x, 1 -> 0
  remsi: intIdentity((_x, _y, _a, b) => (b === 1n ? 0n : null)),
  // remui x, 1 -> 0
  remui: intIdentity((_x, _y, _a, b) => (b === 1n ? 0n : null)),
  // andi x, x -> x ; andi x, 0 -> 0 ; andi x, -1 -> x
  andi: intIdentity((x, y, a, b, w) => (x === y ? x : a === 0n || b === 0n ? 0n : allOnes(b, w) ? x : allOnes(a, w) ? y : null)),
  // ori x, x -> x ; ori x, 0 -> x ; ori x, -1 -> -1
  ori: intIdentity((x, y, a, b, w) => (x === y ? x : b === 0n ? x : a === 0n ? y : allOnes(a, w) || allOnes(b, w) ? -1n : null)),
  // xori x, x -> 0 ; xori x, 0 -> x
  xori: intIdentity((x, y, a, b) => (x === y ? 0n : b === 0n ? x : a === 0n ? y : null)),
  // shli x, 0 -> x
  shli: intIdentity((x, _y, _a, b) => (b === 0n ? x : null)),
  // shrsi x, 0 -> x
  shrsi: intIdentity((x, _y, _a, b) => (b === 0n ? x : null)),
  // shrui x, 0 -> x
  shrui: intIdentity((x, _y, _a, b) => (b === 0n ? x : null)),
  // maxsi x, x -> x (and the other min/max ops)
  maxsi: intIdentity((x, y) => (x === y ? x : null)),
  maxui: intIdentity((x, y) => (x === y ? x : null)),
  minsi: intIdentity((x, y) => (x === y ? x : null)),
  minui: intIdentity((x, y) => (x === y ? x : null)),
};

// ---- floats --------------------------------------------------------------------------------

/** Folds a binary float op on constant scalar or splat operands, rounding to the result type. */
function floatConstantFold(f: (a: number, b: number) => number): Fold {
  return (op, [ca, cb]) => {
    const a = splatFloat(ca);
    const b = splatFloat(cb);
    if (a === null || b === null) return null;
    const r = floatConstant(op.result(0).type, f(a, b));
    return r ? [r] : null;
  };
}

/** Folds a binary float op whose constant rhs (or lhs) is its identity element. */
function floatIdentity(isRightIdentity: (b: number) => boolean, isLeftIdentity?: (a: number) => boolean): Fold {
  return (op, [ca, cb]) => {
    const b = splatFloat(cb);
    if (b !== null && isRightIdentity(b)) return [op.operand(0)];
    const a = splatFloat(ca);
    if (a !== null && isLeftIdentity?.(a)) return [op.operand(1)];
    return null;
  };
}

const nanAware = (pick: (a: number, b: number) => number) => (a: number, b: number) =>
  Number.isNaN(a) ? b : Number.isNaN(b) ? a : pick(a, b);

/** Folds of the binary float ops, by op name (without `arith.`). */
export const floatFolds: Record<string, Fold> = {
  // addf c1, c2 -> c1+c2 ; addf x, -0.0 -> x
  addf: firstFold(floatConstantFold((a, b) => a + b), floatIdentity((b) => Object.is(b, -0), (a) => Object.is(a, -0))),
  // subf c1, c2 -> c1-c2 ; subf x, +0.0 -> x
  subf: firstFold(floatConstantFold((a, b) => a - b), floatIdentity((b) => Object.is(b, 0))),
  // mulf c1, c2 -> c1*c2 ; mulf x, 1.0 -> x
  mulf: firstFold(floatConstantFold((a, b) => a * b), floatIdentity((b) => b === 1, (a) => a === 1)),
  // divf c1, c2 -> c1/c2 ; divf x, 1.0 -> x
  divf: firstFold(floatConstantFold((a, b) => a / b), floatIdentity((b) => b === 1)),
  // remf c1, c2 -> fmod(c1, c2)
  remf: floatConstantFold((a, b) => a % b),
  // maximumf c1, c2 -> max (NaN-propagating)
  maximumf: floatConstantFold((a, b) => Math.max(a, b)),
  // minimumf c1, c2 -> min (NaN-propagating)
  minimumf: floatConstantFold((a, b) => Math.min(a, b)),
  // maxnumf c1, c2 -> max (NaN-ignoring)
  maxnumf: floatConstantFold(nanAware(Math.max)),
  // minnumf c1, c2 -> min (NaN-ignoring)
  minnumf: floatConstantFold(nanAware(Math.min)),
};

/** negf c -> -c */
export const negfFold: Fold = (op, [c]) => {
  const a = splatFloat(c);
  if (a === null) return null;
  const r = floatConstant(op.result(0).type, -a);
  return r ? [r] : null;
};

// ---- comparisons and select ----------------------------------------------------------------

const CMPI_NAMES = ['eq', 'ne', 'slt', 'sle', 'sgt', 'sge', 'ult', 'ule', 'ugt', 'uge'];
const CMPF_NAMES = ['false', 'oeq', 'ogt', 'oge', 'olt', 'ole', 'one', 'ord', 'ueq', 'ugt', 'uge', 'ult', 'ule', 'une', 'uno', 'true'];

const predicateName = (op: Operation, names: string[]) => names[(op.getAttr('predicate') as IntegerAttr).num] ?? '';

function compareInts(pred: string, a: bigint, b: bigint, w: number): boolean {
  const [sa, sb] = [BigInt.asIntN(w, a), BigInt.asIntN(w, b)];
  const [ua, ub] = [BigInt.asUintN(w, a), BigInt.asUintN(w, b)];
  switch (pred) {
    case 'eq': return ua === ub;
    case 'ne': return ua !== ub;
    case 'slt': return sa < sb;
    case 'sle': return sa <= sb;
    case 'sgt': return sa > sb;
    case 'sge': return sa >= sb;
    case 'ult': return ua < ub;
    case 'ule': return ua <= ub;
    case 'ugt': return ua > ub;
    default: return ua >= ub;
  }
}

/** cmpi pred, c1, c2 -> true/false ; cmpi eq|sle|sge|ule|uge, x, x -> true ; cmpi ne|slt|sgt|ult|ugt, x, x -> false */
export const cmpiFold: Fold = (op, [ca, cb]) => {
  const pred = predicateName(op, CMPI_NAMES);
  const t = op.result(0).type;
  if (op.operand(0) === op.operand(1)) return [intConstant(t, ['eq', 'sle', 'sge', 'ule', 'uge'].includes(pred) ? 1n : 0n)];
  const a = splatInt(ca);
  const b = splatInt(cb);
  if (a === null || b === null) return null;
  return [intConstant(t, compareInts(pred, a, b, widthOf(op.operand(0).type)) ? 1n : 0n)];
};

function compareFloats(pred: string, a: number, b: number): boolean {
  const unordered = Number.isNaN(a) || Number.isNaN(b);
  switch (pred) {
    case 'false': return false;
    case 'true': return true;
    case 'oeq': return a === b;
    case 'ogt': return a > b;
    case 'oge': return a >= b;
    case 'olt': return a < b;
    case 'ole': return a <= b;
    case 'one': return !unordered && a !== b;
    case 'ord': return !unordered;
    case 'ueq': return unordered || a === b;
    case 'ugt': return unordered || a > b;
    case 'uge': return unordered || a >= b;
    case 'ult': return unordered || a < b;
    case 'ule': return unordered || a <= b;
    case 'une': return a !== b;
    default: return unordered; // uno
  }
}

/** cmpf pred, c1, c2 -> true/false (IEEE ordered/unordered semantics) ; cmpf false|true, x, y -> false|true */
export const cmpfFold: Fold = (op, [ca, cb]) => {
  const pred = predicateName(op, CMPF_NAMES);
  const t = op.result(0).type;
  if (pred === 'false' || pred === 'true') return [intConstant(t, pred === 'true' ? 1n : 0n)];
  const a = splatFloat(ca);
  const b = splatFloat(cb);
  if (a === null || b === null) return null;
  return [intConstant(t, compareFloats(pred, a, b) ? 1n : 0n)];
};

/** select true, a, b -> a ; select false, a, b -> b ; select c, a, a -> a ; select c, true, false -> c (i1) */
export const selectFold: Fold = (op, [cc, ca, cb]) => {
  const [c, a, b] = op.operandValues();
  if (a === b) return [a];
  const cond = splatInt(cc);
  if (cond !== null) return [cond ? a : b];
  if (c.type === op.result(0).type && splatInt(ca) === 1n && splatInt(cb) === 0n) return [c];
  return null;
};

/** Whether `v` is the i1 (or splat i1) constant `bit`. */
function isBoolConstant(v: Value, bit: 0 | 1): boolean {
  const c = splatInt(constantOf(v));
  return c !== null && (bit ? (c & 1n) === 1n : c === 0n) && widthOf(v.type) === 1;
}

/**
 * An i1 select with a constant side is a logical op:
 * select %c, true, %x -> ori %c, %x ; select %c, %x, false -> andi %c, %x ;
 * select %c, false, %x -> andi (xori %c, true), %x ; select %c, %x, true -> ori (xori %c, true), %x
 * (both sides constant: the fold does it).
 */
export const selectI1ToLogic: RewritePattern = {
  name: 'arith.select-i1-to-logic',
  root: 'arith.select',
  rewrite(op, rw) {
    const [c, a, b] = op.operandValues();
    const t = op.result(0).type;
    if (c.type !== t || widthOf(t) !== 1 || (constantOf(a) && constantOf(b))) return;
    const not = (): Value => {
      const one = rw.createBefore(op, 'arith.constant', { attrs: { value: intConstant(t, 1n) } }).result(0);
      return rw.createBefore(op, 'arith.xori', { operands: { lhs: c, rhs: one } }).result(0);
    };
    let cond: Value;
    let other: Value;
    let name: string;
    if (isBoolConstant(a, 1)) [cond, other, name] = [c, b, 'arith.ori'];
    else if (isBoolConstant(b, 0)) [cond, other, name] = [c, a, 'arith.andi'];
    else if (isBoolConstant(a, 0)) [cond, other, name] = [not(), b, 'arith.andi'];
    else if (isBoolConstant(b, 1)) [cond, other, name] = [not(), a, 'arith.ori'];
    else return;
    rw.replaceOpWithNewOp(op, name, { operands: { lhs: cond, rhs: other } });
  },
};

// ---- casts ---------------------------------------------------------------------------------

/** Folds a cast of a constant: `f` maps the operand's constant (with the operand and result types) to the result constant. */
function castFold(f: (c: Attribute, from: Type, to: Type) => Attribute | null): Fold {
  return (op, [c]) => {
    if (!c) return null;
    const r = f(c, op.operand(0).type, op.result(0).type);
    return r ? [r] : null;
  };
}

/** An integer cast: the operand's integer (read signed or unsigned at its width) becomes an integer of the result type. */
function intCast(signed: boolean): Fold {
  return castFold((c, from, to) => {
    const v = splatInt(c);
    if (v === null) return null;
    const w = widthOf(from);
    return intConstant(to, signed ? BigInt.asIntN(w, v) : BigInt.asUintN(w, v));
  });
}

/** An integer-to-float cast (signed or unsigned), rounded to the result type. */
function intToFloat(signed: boolean): Fold {
  return castFold((c, from, to) => {
    const v = splatInt(c);
    if (v === null) return null;
    const w = widthOf(from);
    return floatConstant(to, Number(signed ? BigInt.asIntN(w, v) : BigInt.asUintN(w, v)));
  });
}

/** A float-to-float cast, rounded to the result type. */
const floatToFloat: Fold = castFold((c, _from, to) => {
  const v = splatFloat(c);
  return v === null ? null : floatConstant(to, v);
});

/** Folds of the cast ops, by op name (without `arith.`). */
export const castFolds: Record<string, Fold> = {
  // extsi c -> sign-extended c
  extsi: intCast(true),
  // extui c -> zero-extended c
  extui: intCast(false),
  // trunci c -> truncated c
  trunci: intCast(true),
  // index_cast c -> c (sign-extended or truncated)
  index_cast: intCast(true),
  // index_castui c -> c (zero-extended or truncated)
  index_castui: intCast(false),
  // sitofp c -> float(c)
  sitofp: intToFloat(true),
  // uitofp c -> float(unsigned c)
  uitofp: intToFloat(false),
  // extf c -> c at the wider type
  extf: floatToFloat,
  // truncf c -> c rounded to the narrower type (to nearest even: another rounding mode is not folded)
  truncf: (op, operands) => {
    const mode = op.getAttr('roundingmode');
    return mode instanceof IntegerAttr && mode.value !== 0n ? null : floatToFloat(op, operands);
  },
};

// ---- patterns ------------------------------------------------------------------------------

/** For a commutative op `name`: `op c, x -> op x, c` (constants go to the right). */
export function constantsToTheRight(name: string): RewritePattern {
  return {
    name: `${name}-constant-to-rhs`,
    root: name,
    rewrite(op, rw) {
      const [lhs, rhs] = [op.operand(0), op.operand(1)];
      if (!constantOf(lhs) || constantOf(rhs)) return;
      rw.modifyInPlace(op, () => {
        op.setOperand(0, rhs);
        op.setOperand(1, lhs);
      });
    },
  };
}

/** addi (addi x, c1), c2 -> addi x, c1+c2 */
export const reassociateAddConstants: RewritePattern = {
  name: 'arith.addi-reassociate-constants',
  root: 'arith.addi',
  rewrite(op, rw) {
    const c2 = splatInt(constantOf(op.operand(1)));
    const inner = op.operand(0).definingOp;
    if (c2 === null || inner?.name !== 'arith.addi') return;
    const c1 = splatInt(constantOf(inner.operand(1)));
    if (c1 === null) return;
    const t = op.result(0).type;
    const sum = rw.createBefore(op, 'arith.constant', { attrs: { value: intConstant(t, c1 + c2) } }).result(0);
    rw.replaceOpWithNewOp(op, 'arith.addi', { operands: { lhs: inner.operand(0), rhs: sum } });
  },
};

/** The canonicalization patterns of a binary integer op. */
export function intPatterns(name: string, commutative: boolean): RewritePattern[] {
  const out: RewritePattern[] = [];
  if (commutative) out.push(constantsToTheRight(`arith.${name}`));
  if (name === 'addi') out.push(reassociateAddConstants);
  return out;
}

export type { FoldResult };
