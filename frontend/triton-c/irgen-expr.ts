/**
 * Triton-C expressions to IR: the dispatcher over expression kinds, literals, variables,
 * assignments (to variables: a new SSA value; through pointers: a store), `++`/`--`,
 * conditionals (a masked load for `c ? *p : v`, else `arith.select`), casts and bitcasts.
 */
import * as tt from '../../dialects/tt/index.js';
import type { AssignOp, BinaryOp, Expr } from './ast.js';
import { genCall } from './irgen-calls.js';
import type { Gen, TV } from './irgen-ctx.js';
import { genLogical } from './irgen-logical.js';
import { binary, unary } from './irgen-ops.js';
import { genDot, genLoad, genRange, genSelect, genStore, genSubscript, genTrans, maskedPointers } from './irgen-tile.js';
import { checkAssignShape, ctype, fmtType, irType, isIntScalar, scalarWidth, tileDim, withShape, type CType } from './sema.js';

/** Generates an expression's value. */
export function genExpr(g: Gen, e: Expr): TV {
  switch (e.kind) {
    case 'ident': {
      if (e.name === 'newaxis') g.diag.error(`'newaxis' is only valid in a subscript`, e.pos);
      const s = g.lookup(e.name, e.pos);
      return { v: s.v, t: s.t };
    }
    case 'int': return genInt(g, e);
    case 'float': {
      const t = ctype(e.suffix.toLowerCase() === 'f' ? 'float' : 'double');
      return { ...g.constOf(t, e.value, e.pos), lit: true };
    }
    case 'range': return genRange(g, e);
    case 'binary': {
      // Diagnostics and locations point at the operator, when the parser recorded it.
      const at = e.opPos ?? e.pos;
      if (e.op === '@') return genDot(g, genExpr(g, e.lhs), genExpr(g, e.rhs), null, at);
      if (e.op === '&&' || e.op === '||') return genLogical(g, { ...e, op: e.op });
      return binary(g, e.op, genExpr(g, e.lhs), genExpr(g, e.rhs), at);
    }
    case 'unary':
      if (e.op === 'transpose') return genTrans(g, genExpr(g, e.operand), e.pos);
      if (e.op === 'deref') return genLoad(g, genExpr(g, e.operand), null, null, e.pos);
      if (e.op === 'addr') return g.diag.error(`taking the address of a value ('&') is not supported in Triton-C`, e.pos);
      return unary(g, e.op, genExpr(g, e.operand), e.pos);
    case 'masked-deref': {
      const p = genExpr(g, e.ptr);
      const m = maskedPointers(g, genExpr(g, e.mask), p, e.mask.pos);
      return genLoad(g, m.ptr, m.mask, null, e.pos);
    }
    case 'incdec': return genIncDec(g, e);
    case 'assign': return genAssign(g, e);
    case 'conditional': return genConditional(g, e);
    case 'call': return genCall(g, e);
    case 'subscript': return genSubscript(g, genExpr(g, e.base), e.items, e.pos);
    case 'cast': return genCast(g, e);
    case 'bitcast': return genBitcast(g, e);
    case 'comma': {
      let last: TV | null = null;
      for (const x of e.exprs) last = genExpr(g, x);
      return last!;
    }
  }
}

function genInt(g: Gen, e: Extract<Expr, { kind: 'int' }>): TV {
  const suf = e.suffix.toLowerCase();
  const wide = suf.includes('l') || e.value > 2147483647n;
  const uns = suf.includes('u');
  const t = ctype(uns ? (wide ? 'uint64' : 'uint32') : wide ? 'int64' : 'int32');
  if (e.value >= 2n ** 64n) g.diag.error(`integer literal is too large`, e.pos);
  return { ...g.constOf(t, e.value, e.pos), lit: true };
}

const COMPOUND: Record<string, BinaryOp> = {
  '+=': '+', '-=': '-', '*=': '*', '/=': '/', '%=': '%', '<<=': '<<', '>>=': '>>', '&=': '&', '|=': '|', '^=': '^',
};

/** Writes `value` to an assignable target: a variable (new SSA value) or `*p` / `*?(m) p` (a store). */
export function store(g: Gen, target: Expr, value: TV, pos: number): TV {
  if (target.kind === 'ident') {
    const slot = g.lookup(target.name, target.pos);
    const v = g.assignConvert(value, slot.t, `'${target.name}'`, pos);
    slot.v = v.v;
    return { v: v.v, t: slot.t };
  }
  if (target.kind === 'unary' && target.op === 'deref') return genStore(g, genExpr(g, target.operand), null, value, pos);
  if (target.kind === 'masked-deref') {
    const p = genExpr(g, target.ptr);
    const m = maskedPointers(g, genExpr(g, target.mask), p, target.mask.pos);
    return genStore(g, m.ptr, m.mask, value, pos);
  }
  return g.diag.error('expression is not assignable', target.pos);
}

function genAssign(g: Gen, e: Extract<Expr, { kind: 'assign' }>): TV {
  const name = e.target.kind === 'ident' ? e.target.name : g.curName;
  return g.named(name, () => {
    if (e.op === '=') return store(g, e.target, genExpr(g, e.value), e.pos);
    const cur = genExpr(g, e.target);
    return store(g, e.target, compound(g, e.op, cur, e.value, e.pos), e.pos);
  });
}

/** `cur op= value`; `c += a @ b` accumulates in the `tt.dot` itself when `c` has the dot's type. */
function compound(g: Gen, op: AssignOp, cur: TV, value: Expr, pos: number): TV {
  if (op === '+=' && value.kind === 'binary' && value.op === '@') {
    const a = genExpr(g, value.lhs);
    const b = genExpr(g, value.rhs);
    let fused = false;
    const d = genDot(g, a, b, (t) => {
      fused = t.scalar === cur.t.scalar && !cur.t.ptr && cur.t.shape.join() === t.shape.join();
      return fused ? cur : null;
    }, value.pos);
    if (fused) return d;
    return binary(g, '+', cur, d, pos);
  }
  return binary(g, COMPOUND[op], cur, genExpr(g, value), pos);
}

function genIncDec(g: Gen, e: Extract<Expr, { kind: 'incdec' }>): TV {
  const name = e.target.kind === 'ident' ? e.target.name : g.curName;
  return g.named(name, () => {
    const cur = genExpr(g, e.target);
    const one = { ...g.constOf(ctype('int32'), 1, e.pos), lit: true };
    const next = binary(g, e.op === '++' ? '+' : '-', cur, one, e.pos);
    const stored = store(g, e.target, next, e.pos);
    return e.prefix ? stored : cur;
  });
}

function genConditional(g: Gen, e: Extract<Expr, { kind: 'conditional' }>): TV {
  const th = e.then;
  if ((th.kind === 'unary' && th.op === 'deref') || th.kind === 'masked-deref') {
    const p = genExpr(g, th.kind === 'masked-deref' ? th.ptr : th.operand);
    let { mask, ptr } = maskedPointers(g, genExpr(g, e.cond), p, e.cond.pos);
    if (th.kind === 'masked-deref') {
      const inner = maskedPointers(g, genExpr(g, th.mask), ptr, th.mask.pos);
      mask = binary(g, '&&', g.broadcast(mask, inner.ptr.t.shape, e.pos), inner.mask, e.pos);
      ptr = inner.ptr;
    }
    return genLoad(g, ptr, mask, genExpr(g, e.else), e.pos);
  }
  return genSelect(g, genExpr(g, e.cond), genExpr(g, e.then), genExpr(g, e.else), e.pos);
}

function castTarget(g: Gen, e: Extract<Expr, { kind: 'cast' }>, x: TV): CType {
  const shape = e.shape ? e.shape.map((d) => tileDim(d, g.diag)) : x.t.shape;
  return { scalar: e.type.scalar, ptr: e.type.pointers, shape };
}

function genCast(g: Gen, e: Extract<Expr, { kind: 'cast' }>): TV {
  const x = genExpr(g, e.operand);
  const to = castTarget(g, e, x);
  const elemT = withShape(to, x.t.shape);
  let r: TV;
  if (to.ptr && x.t.ptr) {
    r = x.t.ptr === to.ptr && x.t.scalar === to.scalar ? x : { v: g.val(tt.BitcastOp, { src: x.v }, e.pos, irType(elemT)), t: elemT };
  } else if (to.ptr || x.t.ptr) {
    const int = to.ptr ? x : { t: elemT };
    if (!isIntScalar(int.t.scalar) || scalarWidth(int.t.scalar) !== 64)
      g.diag.error(`cannot cast '${fmtType(x.t)}' to '${fmtType(to)}': pointers convert only to and from 64-bit integers`, e.pos);
    const v = to.ptr ? g.val(tt.IntToPtrOp, { src: x.v }, e.pos, irType(elemT)) : g.val(tt.PtrToIntOp, { src: x.v }, e.pos, irType(elemT));
    r = { v, t: elemT };
  } else {
    if (to.scalar === 'void') g.diag.error(`cannot cast to 'void'`, e.pos);
    r = g.convert(x, to.scalar, e.pos);
  }
  return g.assignConvert(r, to, 'a cast', e.pos);
}

/**
 * `bitcast<T>(x)` / `bitcast<T[shape]>(x)`: reinterprets the bits of each element; a written
 * shape must be the operand's shape or one it broadcasts to (a scalar operand is splat first).
 */
function genBitcast(g: Gen, e: Extract<Expr, { kind: 'bitcast' }>): TV {
  let x = genExpr(g, e.operand);
  if (e.shape) {
    const shape = e.shape.map((d) => tileDim(d, g.diag));
    checkAssignShape(x.t.shape, shape, 'a bitcast', e.pos, g.diag);
    x = g.broadcast(x, shape, e.pos);
  }
  const to: CType = { scalar: e.type.scalar, ptr: e.type.pointers, shape: x.t.shape };
  const wf = x.t.ptr ? 64 : scalarWidth(x.t.scalar);
  const wt = to.ptr ? 64 : scalarWidth(to.scalar);
  if (wf !== wt || !!x.t.ptr !== !!to.ptr)
    g.diag.error(`cannot bitcast '${fmtType(x.t)}' to '${fmtType(to)}': the types differ in width or kind`, e.pos);
  if (irType(to) === x.v.type) return { v: x.v, t: to };
  return { v: g.val(tt.BitcastOp, { src: x.v }, e.pos, irType(to)), t: to };
}
