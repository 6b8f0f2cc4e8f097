/**
 * `&&` and `||` with C's short-circuit semantics. When the right operand cannot fail or change
 * anything (comparisons, arithmetic, pure built-ins: `isHarmless`), both sides are evaluated and
 * combined with `arith.andi` / `arith.ori`, which computes the same value. Otherwise:
 *
 * - scalar left operand: the right one is evaluated inside an `scf.if` on the left one (`&&`:
 *   in the then branch, `||`: in the else branch); the other branch yields the known result,
 *   and the `scf.if` yields every variable the right operand assigns;
 * - tile left operand: elementwise, as C on vectors would if each lane short-circuited: the
 *   right operand is evaluated with an active mask (`&&`: the left operand, `||`: its negation)
 *   that masks the loads, stores and atomics it makes (see `Gen.activeMask`).
 */
import { Block } from '../../ir/ir.js';
import * as scf from '../../dialects/scf.js';
import type { Expr } from './ast.js';
import { isPureBuiltin } from './irgen-calls.js';
import { genExpr } from './irgen-expr.js';
import type { Gen, TV } from './irgen-ctx.js';
import { binary, unary } from './irgen-ops.js';
import { carriedSlots } from './irgen-stmt.js';
import { broadcastsTo, ctype, foldInt, irType, withShape } from './sema.js';

type Logical = Extract<Expr, { kind: 'binary' }> & { op: '&&' | '||' };

/** Whether evaluating `e` can neither trap nor have an effect (so skipping it changes nothing). */
export function isHarmless(e: Expr): boolean {
  switch (e.kind) {
    case 'ident': case 'int': case 'float': return true;
    case 'range': return isHarmless(e.lo) && isHarmless(e.hi);
    case 'binary': {
      if (!isHarmless(e.lhs) || !isHarmless(e.rhs)) return false;
      if (e.op !== '/' && e.op !== '%') return true;
      // A division is harmless when its divisor is a non-zero constant (or a float literal).
      const d = foldInt(e.rhs);
      return (d !== null && d !== 0n) || e.rhs.kind === 'float';
    }
    case 'unary': return e.op !== 'deref' && isHarmless(e.operand);
    case 'conditional': return isHarmless(e.cond) && isHarmless(e.then) && isHarmless(e.else);
    case 'call': return isPureBuiltin(e.callee) && e.args.every(isHarmless);
    case 'subscript': return isHarmless(e.base) && e.items.every((it) => it.kind !== 'index' || isHarmless(it.expr));
    case 'cast': case 'bitcast': return isHarmless(e.operand);
    case 'comma': return e.exprs.every(isHarmless);
    default: return false; // loads, stores, assignments, ++/--, calls of functions
  }
}

/** Generates `a && b` / `a || b`. */
export function genLogical(g: Gen, e: Logical): TV {
  const at = e.opPos ?? e.pos;
  const lhs = genExpr(g, e.lhs);
  if (isHarmless(e.rhs) || lhs.t.ptr) return binary(g, e.op, lhs, genExpr(g, e.rhs), at);
  const cond = g.toBool(lhs, at);
  if (cond.t.shape.length) return maskedRhs(g, e, lhs, cond, at);
  return branchedRhs(g, e, cond, at);
}

/** Scalar left operand: the right one runs in an `scf.if` branch. */
function branchedRhs(g: Gen, e: Logical, cond: TV, at: number): TV {
  const slots = carriedSlots(g, [e.rhs]);
  const saved = slots.map((s) => s.v);
  // The result's shape is the right operand's: generate it first, in a block of its own.
  const evaluated = new Block();
  const r = g.inBlock(evaluated, () => {
    const b = g.toBool(genExpr(g, e.rhs), at);
    g.op(scf.YieldOp, { results: [b.v, ...slots.map((s) => s.v)] }, at);
    return b;
  });
  slots.forEach((s, k) => (s.v = saved[k]));
  const t = withShape(ctype('bool'), r.t.shape);
  const op = g.op(scf.IfOp, { condition: cond.v }, at, { results: { results: [irType(t), ...slots.map((s) => irType(s.t))] } });
  // `&&`: a false left side gives false; `||`: a true left side gives true.
  const known = new Block();
  g.inBlock(known, () => g.op(scf.YieldOp, { results: [g.constOf(t, e.op === '||' ? 1 : 0, at).v, ...saved] }, at));
  op.thenRegion.addBlock(e.op === '&&' ? evaluated : known);
  op.elseRegion.addBlock(e.op === '&&' ? known : evaluated);
  const results = op.results;
  slots.forEach((s, k) => (s.v = results[k + 1]));
  return { v: results[0], t };
}

/** Tile left operand: the right one runs with the lanes that decide it active. */
function maskedRhs(g: Gen, e: Logical, lhs: TV, cond: TV, at: number): TV {
  const lanes = e.op === '&&' ? cond : unary(g, '!', cond, at);
  const outer = g.activeMask;
  const active = outer && broadcastsTo(outer.t.shape, lanes.t.shape) ? binary(g, '&', g.broadcast(outer, lanes.t.shape, at), lanes, at) : lanes;
  g.activeMask = active;
  let rhs: TV;
  try {
    rhs = genExpr(g, e.rhs);
  } finally {
    g.activeMask = outer;
  }
  return binary(g, e.op, lhs, rhs, at);
}
