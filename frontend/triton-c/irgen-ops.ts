/**
 * Triton-C operators to IR: arithmetic, bitwise, comparison and logical binary operators with C's
 * implicit conversions and NumPy broadcasting, pointer arithmetic (`tt.addptr`), unary operators,
 * and min/max.
 */
import * as arith from '../../dialects/arith.js';
import * as tt from '../../dialects/tt/index.js';
import type { BinaryOp } from './ast.js';
import type { Gen, TV } from './irgen-ctx.js';
import {
  checkBroadcast, commonScalar, foldBinary, ctype, fmtType, irType, isFloatScalar, isIntScalar, isUnsigned, withShape, type CType,
} from './sema.js';

type CmpF = Parameters<typeof arith.CmpFPredicate.byName>[0];
const COMPARE: Record<string, [arith.CmpIPredicateName, arith.CmpIPredicateName, CmpF]> = {
  // op: [signed cmpi, unsigned cmpi, cmpf]
  '<': ['slt', 'ult', 'olt'],
  '<=': ['sle', 'ule', 'ole'],
  '>': ['sgt', 'ugt', 'ogt'],
  '>=': ['sge', 'uge', 'oge'],
  '==': ['eq', 'eq', 'oeq'],
  '!=': ['ne', 'ne', 'une'],
};

type IntOp = typeof arith.AddIOp;
const INT_OPS: Record<string, [IntOp, IntOp]> = {
  // op: [signed, unsigned]
  '+': [arith.AddIOp, arith.AddIOp],
  '-': [arith.SubIOp, arith.SubIOp],
  '*': [arith.MulIOp, arith.MulIOp],
  '/': [arith.DivSIOp, arith.DivUIOp],
  '%': [arith.RemSIOp, arith.RemUIOp],
  '<<': [arith.ShLIOp, arith.ShLIOp],
  '>>': [arith.ShRSIOp, arith.ShRUIOp],
  '&': [arith.AndIOp, arith.AndIOp],
  '|': [arith.OrIOp, arith.OrIOp],
  '^': [arith.XOrIOp, arith.XOrIOp],
};

const FLOAT_OPS: Record<string, typeof arith.AddFOp> = { '+': arith.AddFOp, '-': arith.SubFOp, '*': arith.MulFOp, '/': arith.DivFOp, '%': arith.RemFOp };

function invalid(g: Gen, op: string, a: TV, b: TV, pos: number): never {
  return g.diag.error(`invalid operands to binary '${op}' ('${fmtType(a.t)}' and '${fmtType(b.t)}')`, pos);
}

/** Brings two operands to their common element type and broadcast shape. */
export function unify(g: Gen, op: string, a: TV, b: TV, pos: number, scalar?: CType['scalar']): [TV, TV] {
  const shape = checkBroadcast(a.t.shape, b.t.shape, op, pos, g.diag);
  const s = scalar ?? commonScalar(a.t.scalar, b.t.scalar, a.lit, b.lit);
  const lit = a.lit && b.lit;
  const ca = g.broadcast(g.convert(a, s, pos), shape, pos);
  const cb = g.broadcast(g.convert(b, s, pos), shape, pos);
  return [{ ...ca, lit }, { ...cb, lit }];
}

/** `a op b` for every binary operator except `@`. */
export function binary(g: Gen, op: BinaryOp, a: TV, b: TV, pos: number): TV {
  if (a.t.ptr || b.t.ptr) return pointerBinary(g, op, a, b, pos);
  if (a.t.scalar === 'void' || b.t.scalar === 'void') invalid(g, op, a, b, pos);
  if (op === '&&' || op === '||') return logical(g, op, a, b, pos);
  if (op in COMPARE) return compare(g, op, a, b, pos);
  const [x, y] = unify(g, op, a, b, pos, op === '<<' || op === '>>' ? a.t.scalar === 'bool' ? 'int32' : a.t.scalar : undefined);
  const s = x.t.scalar;
  const lit = x.lit;
  const folded = lit ? foldLiterals(g, op, x, y, pos) : null;
  if (folded) return folded;
  if (isFloatScalar(s)) {
    const def = FLOAT_OPS[op];
    if (!def) invalid(g, op, a, b, pos);
    return { v: g.val(def, { lhs: x.v, rhs: y.v }, pos), t: x.t, lit };
  }
  // Arithmetic on bools happens in int32, as in C.
  if (s === 'bool' && !['&', '|', '^'].includes(op)) return binary(g, op, g.convert(x, 'int32', pos), g.convert(y, 'int32', pos), pos);
  const defs = INT_OPS[op];
  if (!defs) invalid(g, op, a, b, pos);
  return { v: g.val(defs[isUnsigned(s) ? 1 : 0], { lhs: x.v, rhs: y.v }, pos), t: x.t, lit };
}

/** Folds arithmetic on two literal constants (`TK * 1`), as Triton folds constexprs. */
function foldLiterals(g: Gen, op: string, x: TV, y: TV, pos: number): TV | null {
  const a = g.constValue(x.v);
  const b = g.constValue(y.v);
  if (a === null || b === null || x.t.shape.length) return null;
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    if (x.t.scalar === 'bool') return null;
    const r = foldBinary(op, a, b);
    return r === null ? null : { ...g.constOf(x.t, r, pos), lit: true };
  }
  const fa = Number(a);
  const fb = Number(b);
  const r = op === '+' ? fa + fb : op === '-' ? fa - fb : op === '*' ? fa * fb : op === '/' ? fa / fb : null;
  return r === null ? null : { ...g.constOf(x.t, r, pos), lit: true };
}

function compare(g: Gen, op: string, a: TV, b: TV, pos: number): TV {
  const [x, y] = unify(g, op, a, b, pos);
  const s = x.t.scalar;
  const [si, ui, fl] = COMPARE[op];
  const t = withShape(ctype('bool'), x.t.shape);
  if (isFloatScalar(s)) return { v: g.val(arith.CmpFOp, { lhs: x.v, rhs: y.v, predicate: fl }, pos, irType(t)), t };
  return { v: g.val(arith.CmpIOp, { lhs: x.v, rhs: y.v, predicate: isUnsigned(s) ? ui : si }, pos, irType(t)), t };
}

function logical(g: Gen, op: '&&' | '||', a: TV, b: TV, pos: number): TV {
  const [x, y] = unify(g, op, g.toBool(a, pos), g.toBool(b, pos), pos, 'bool');
  return { v: g.val(op === '&&' ? arith.AndIOp : arith.OrIOp, { lhs: x.v, rhs: y.v }, pos), t: x.t };
}

/** Pointer arithmetic: `p + n`, `n + p`, `p - n` become `tt.addptr` (splatting scalar pointers to the tile shape). */
function pointerBinary(g: Gen, op: BinaryOp, a: TV, b: TV, pos: number): TV {
  const aPtr = a.t.ptr > 0;
  const bPtr = b.t.ptr > 0;
  if (aPtr && bPtr) invalid(g, op, a, b, pos);
  const [ptr, off] = aPtr ? [a, b] : [b, a];
  if (!(op === '+' || (op === '-' && aPtr)) || !isIntScalar(off.t.scalar) || off.t.ptr) invalid(g, op, a, b, pos);
  const shape = checkBroadcast(a.t.shape, b.t.shape, op, pos, g.diag);
  let o = off.t.scalar === 'bool' ? g.convert(off, 'int32', pos) : off;
  if (op === '-') o = negate(g, o, pos);
  const p = g.broadcast(ptr, shape, pos);
  o = g.broadcast(o, shape, pos);
  const t = withShape(ptr.t, shape);
  return { v: g.val(tt.AddptrOp, { ptr: p.v, offset: o.v }, pos, irType(t)), t };
}

function negate(g: Gen, x: TV, pos: number): TV {
  const c = g.constValue(x.v);
  if (c !== null) return { ...g.constOf(x.t, typeof c === 'number' ? -c : -c, pos), lit: x.lit };
  if (isFloatScalar(x.t.scalar)) return { v: g.val(arith.NegFOp, { operand: x.v }, pos), t: x.t };
  const zero = g.constOf(x.t, 0, pos);
  return { v: g.val(arith.SubIOp, { lhs: zero.v, rhs: x.v }, pos), t: x.t };
}

/** Unary `-`, `+`, `!`, `~`. */
export function unary(g: Gen, op: '-' | '+' | '!' | '~', x: TV, pos: number): TV {
  if (x.t.ptr || x.t.scalar === 'void') g.diag.error(`invalid argument type '${fmtType(x.t)}' to unary '${op}'`, pos);
  if (op === '+') return x;
  if (op === '-') return negate(g, x.t.scalar === 'bool' ? g.convert(x, 'int32', pos) : x, pos);
  if (op === '!' && x.t.scalar === 'bool') {
    // Negating a bool flips its bit (`arith.xori x, true`); a constant folds.
    const c = g.constValue(x.v);
    if (c !== null) return { ...g.constOf(x.t, Number(c) ? 0 : 1, pos), lit: x.lit };
    const ones = g.constOf(x.t, 1, pos);
    return { v: g.val(arith.XOrIOp, { lhs: x.v, rhs: ones.v }, pos), t: x.t };
  }
  if (op === '!') {
    const zero = g.constOf(x.t, 0, pos);
    return compare(g, '==', x, { ...zero, lit: true }, pos);
  }
  if (!isIntScalar(x.t.scalar)) g.diag.error(`invalid argument type '${fmtType(x.t)}' to unary '~'`, pos);
  const ones = g.constOf(x.t, -1, pos);
  return { v: g.val(arith.XOrIOp, { lhs: x.v, rhs: ones.v }, pos), t: x.t, lit: x.lit };
}

/** `min(a, b)` / `max(a, b)`. */
export function minMax(g: Gen, which: 'min' | 'max', a: TV, b: TV, pos: number): TV {
  if (a.t.ptr || b.t.ptr) invalid(g, which, a, b, pos);
  const [x, y] = unify(g, which, a, b, pos);
  const s = x.t.scalar;
  const fields = { lhs: x.v, rhs: y.v };
  if (isFloatScalar(s)) return { v: g.val(which === 'min' ? arith.MinNumFOp : arith.MaxNumFOp, fields, pos), t: x.t, lit: x.lit };
  return { v: g.val(intMinMax(which, isUnsigned(s)), fields, pos), t: x.t, lit: x.lit };
}

/** The integer `min` / `max` op of a signedness. */
export function intMinMax(which: 'min' | 'max', unsigned: boolean): typeof arith.MinSIOp {
  if (which === 'min') return unsigned ? arith.MinUIOp : arith.MinSIOp;
  return unsigned ? arith.MaxUIOp : arith.MaxSIOp;
}
