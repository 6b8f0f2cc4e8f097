/**
 * Triton-C loops to scf: a counted `for` (`for (int k = K; k > 0; k -= TK)`) becomes `scf.for`
 * over its trip count (the C variable rebuilt from the induction variable), carrying every
 * outer variable the body assigns as iter_args; every other loop becomes `scf.while`.
 */
import { NameLoc } from '../../ir/attributes.js';
import { Block, type Value } from '../../ir/ir.js';
import * as scf from '../../dialects/scf.js';
import type { Expr, Stmt } from './ast.js';
import { genExpr } from './irgen-expr.js';
import type { Gen, TV } from './irgen-ctx.js';
import { binary } from './irgen-ops.js';
import { carriedSlots, fillRegion, genStmt, scalarCondition } from './irgen-stmt.js';
import { assignedOuterVars, ctype, foldInt, identsOf, irType, isIntScalar, type CType } from './sema.js';

type ForStmt = Extract<Stmt, { kind: 'for' }>;
type DeclStmt = Extract<Stmt, { kind: 'decl' }>;

/** A recognized counted loop: `for (T i = init; i CMP bound; i += / -= amount)`. */
interface Counted {
  decl: DeclStmt;
  name: string;
  up: boolean;
  inclusive: boolean;
  bound: Expr;
  amount: Expr;
}

const FLIP: Record<string, string> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=' };

function stepOf(step: Expr | null, name: string): { up: boolean; amount: Expr } | null {
  if (!step) return null;
  const isVar = (e: Expr) => e.kind === 'ident' && e.name === name;
  if (step.kind === 'incdec' && isVar(step.target)) return { up: step.op === '++', amount: { kind: 'int', value: 1n, suffix: '', pos: step.pos } };
  if (step.kind !== 'assign' || !isVar(step.target)) return null;
  if (step.op === '+=' || step.op === '-=') return { up: step.op === '+=', amount: step.value };
  const v = step.value;
  if (step.op === '=' && v.kind === 'binary' && (v.op === '+' || v.op === '-') && isVar(v.lhs)) return { up: v.op === '+', amount: v.rhs };
  return null;
}

function countedLoop(s: ForStmt): Counted | null {
  const init = s.init;
  if (!init || init.kind !== 'decl' || init.declarators.length !== 1) return null;
  const d = init.declarators[0];
  if (!d.init || d.shape || init.type.pointers || !isIntScalar(init.type.scalar) || init.type.scalar === 'bool') return null;
  const c = s.cond;
  if (!c || c.kind !== 'binary' || !(c.op in FLIP)) return null;
  let op: string = c.op;
  let bound = c.rhs;
  if (!(c.lhs.kind === 'ident' && c.lhs.name === d.name)) {
    if (!(c.rhs.kind === 'ident' && c.rhs.name === d.name)) return null;
    op = FLIP[op];
    bound = c.lhs;
  }
  const st = stepOf(s.step, d.name);
  if (!st) return null;
  if (st.up !== (op === '<' || op === '<=')) return null;
  const k = foldInt(st.amount);
  if (k !== null && k <= 0n) return null;
  // The bound and step are evaluated once: they must not change in the loop, nor may the variable.
  const assigned = new Set(assignedOuterVars([s.body]));
  const read = identsOf(st.amount, identsOf(bound));
  if (assigned.has(d.name) || identsOf(bound).has(d.name) || [...read].some((n) => assigned.has(n))) return null;
  return { decl: init, name: d.name, up: st.up, inclusive: op === '<=' || op === '>=', bound, amount: st.amount };
}

/** `a op b` on scalars of the loop variable's type, folding constants and identities. */
function fold(g: Gen, op: '+' | '-' | '*' | '/', a: TV, b: TV, pos: number): TV {
  const x = g.constValue(a.v);
  const y = g.constValue(b.v);
  if (x !== null && y !== null && typeof x === 'bigint' && typeof y === 'bigint' && (op !== '/' || y !== 0n)) {
    const r = op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : x / y;
    return g.constOf(a.t, r, pos);
  }
  if (y === 0n && (op === '+' || op === '-')) return a;
  if (y === 1n && (op === '*' || op === '/')) return a;
  if (x === 0n && op === '+') return b;
  if (x === 1n && op === '*') return b;
  return binary(g, op, a, b, pos);
}

/** Generates a `for` statement. */
export function genFor(g: Gen, s: ForStmt): void {
  const c = countedLoop(s);
  if (!c) return genWhile(g, s.init, s.cond, s.body, s.step, false, s.pos);
  g.push();
  const d = c.decl.declarators[0];
  const vt: CType = ctype(c.decl.type.scalar);
  const pos = s.pos;
  const init = g.named(c.name, () => g.assignConvert(genExpr(g, d.init!), vt, `'${c.name}'`, d.init!.pos));
  const bound = g.assignConvert(genExpr(g, c.bound), vt, 'the loop bound', c.bound.pos);
  const step = g.assignConvert(genExpr(g, c.amount), vt, 'the loop step', c.amount.pos);
  const direct = c.up && !c.inclusive;
  let lb = init;
  let ub = bound;
  let st = step;
  if (!direct) {
    let diff = c.up ? fold(g, '-', bound, init, pos) : fold(g, '-', init, bound, pos);
    const one = g.constOf(vt, 1, pos);
    if (c.inclusive) diff = fold(g, '+', diff, one, pos);
    ub = fold(g, '/', fold(g, '+', diff, fold(g, '-', step, one, pos), pos), step, pos);
    lb = g.constOf(vt, 0, pos);
    st = one;
  }
  const slots = carriedSlots(g, [s.body]);
  const types = slots.map((x) => irType(x.t));
  const loop = g.op(scf.ForOp, { lowerBound: lb.v, upperBound: ub.v, step: st.v, initArgs: slots.map((x) => x.v) }, pos, {
    results: { results: types },
  });
  const locs = [c.name, ...slots.map((x) => x.name)].map((n) => NameLoc.get(n, g.diag.loc(pos)));
  const block = loop.region.addBlock(new Block([irType(vt), ...types], locs));
  slots.forEach((x, k) => (x.v = block.args[k + 1]));
  fillRegion(g, block, slots, pos, () => {
    const iv: TV = { v: block.args[0], t: vt };
    const v = direct ? iv : g.named(c.name, () => fold(g, c.up ? '+' : '-', init, fold(g, '*', iv, step, pos), pos));
    g.declare(c.name, vt, v.v, d.pos);
    genStmt(g, s.body);
  });
  const results = loop.results;
  slots.forEach((x, k) => (x.v = results[k]));
  g.pop();
}

/**
 * Generates a general loop as `scf.while`: `pre` runs once first; the before region evaluates
 * `cond` (after the body, for `do`), the after region runs the body then `step`.
 */
export function genWhile(g: Gen, pre: Stmt | null, cond: Expr | null, body: Stmt, step: Expr | null, isDo: boolean, pos: number): void {
  g.push();
  if (pre) genStmt(g, pre);
  const slots = carriedSlots(g, [cond, body, step]);
  const types = slots.map((x) => irType(x.t));
  const locs = slots.map((x) => NameLoc.get(x.name, g.diag.loc(pos)));
  const loop = g.op(scf.WhileOp, { inits: slots.map((x) => x.v) }, pos, { results: { results: types } });
  const before = loop.before.addBlock(new Block(types, locs));
  const after = loop.after.addBlock(new Block(types, locs));
  slots.forEach((x, k) => (x.v = before.args[k]));
  g.inBlock(before, () => {
    g.push();
    if (isDo) genStmt(g, body);
    const c: Value = cond
      ? scalarCondition(g, genExpr(g, cond), isDo ? 'do' : 'while', cond.pos).v
      : g.constOf(ctype('bool'), 1, pos).v;
    g.pop();
    g.op(scf.ConditionOp, { condition: c, args: slots.map((x) => x.v) }, pos);
  });
  slots.forEach((x, k) => (x.v = after.args[k]));
  fillRegion(g, after, slots, pos, () => {
    if (!isDo) genStmt(g, body);
    if (step) g.named(null, () => genExpr(g, step));
  });
  const results = loop.results;
  slots.forEach((x, k) => (x.v = results[k]));
  g.pop();
}
