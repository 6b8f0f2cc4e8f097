/**
 * Triton-C statements to IR: declarations (a variable's first SSA value, with its declared tile
 * type), expression statements, blocks (scopes), and `if` as `scf.if` yielding every outer
 * variable either branch assigns. Loops are in irgen-loops.ts.
 */
import { Block } from '../../ir/ir.js';
import * as scf from '../../dialects/scf.js';
import type { Stmt } from './ast.js';
import { genExpr } from './irgen-expr.js';
import type { Gen, TV, VarSlot } from './irgen-ctx.js';
import { genFor, genWhile } from './irgen-loops.js';
import { assignedOuterVars, fmtType, irType, tileDim, type CType } from './sema.js';

/** Generates one statement at the insertion point. */
export function genStmt(g: Gen, s: Stmt): void {
  switch (s.kind) {
    case 'block':
      g.push();
      for (const x of s.stmts) genStmt(g, x);
      g.pop();
      return;
    case 'decl': return genDecl(g, s);
    case 'expr':
      g.named(null, () => genExpr(g, s.expr));
      return;
    case 'if': return genIf(g, s);
    case 'for': return genFor(g, s);
    case 'while': return genWhile(g, null, s.cond, s.body, null, false, s.pos);
    case 'do': return genWhile(g, null, s.cond, s.body, null, true, s.pos);
    // lower-jumps.ts rewrote every jump but a function's last `return` (which genBody generates).
    case 'break': case 'continue': case 'return': throw new Error(`internal error: '${s.kind}' left by the jump lowering`);
    case 'empty': return;
  }
}

function genDecl(g: Gen, s: Extract<Stmt, { kind: 'decl' }>): void {
  for (const d of s.declarators) {
    const shape = d.shape ? d.shape.map((e) => tileDim(e, g.diag)) : [];
    const t: CType = { scalar: s.type.scalar, ptr: s.type.pointers, shape };
    if (t.scalar === 'void' && !t.ptr) g.diag.error(`variable '${d.name}' has type 'void'`, d.pos);
    const init = d.init;
    let v: TV;
    if (init) {
      v = g.named(d.name, () => g.assignConvert(genExpr(g, init), t, `'${d.name}'`, init.pos));
    } else {
      if (t.ptr) g.diag.error(`pointer variable '${d.name}' must be initialized`, d.pos);
      v = g.named(d.name, () => g.constOf(t, 0, d.pos));
    }
    g.declare(d.name, t, v.v, d.pos);
  }
}

/** The slots of the outer variables a statement list assigns (the values a region must yield). */
export function carriedSlots(g: Gen, parts: Parameters<typeof assignedOuterVars>[0]): VarSlot[] {
  return assignedOuterVars(parts).map((n) => g.find(n)).filter((s): s is VarSlot => s !== null);
}

/** Checks that a control-flow condition is a scalar and converts it to bool. */
export function scalarCondition(g: Gen, c: TV, what: string, pos: number): TV {
  const b = g.toBool(c, pos);
  if (b.t.shape.length) g.diag.error(`the condition of '${what}' must be a scalar, got '${fmtType(c.t)}'`, pos);
  return b;
}

/** Generates `body` into `block` in its own scope, ending it with `scf.yield` of the slots' values. */
export function fillRegion(g: Gen, block: Block, slots: VarSlot[], pos: number, body: () => void): void {
  g.inBlock(block, () => {
    g.push();
    body();
    g.pop();
    g.op(scf.YieldOp, { results: slots.map((s) => s.v) }, pos);
  });
}

function genIf(g: Gen, s: Extract<Stmt, { kind: 'if' }>): void {
  const c = g.named(null, () => scalarCondition(g, genExpr(g, s.cond), 'if', s.cond.pos));
  const slots = carriedSlots(g, [s.then, s.else]);
  const op = g.op(scf.IfOp, { condition: c.v }, s.pos, { results: { results: slots.map((x) => irType(x.t)) } });
  const saved = slots.map((x) => x.v);
  const restore = () => slots.forEach((x, k) => (x.v = saved[k]));
  fillRegion(g, op.thenRegion.addBlock(new Block()), slots, s.pos, () => genStmt(g, s.then));
  restore();
  const els = s.else;
  if (els || slots.length) fillRegion(g, op.elseRegion.addBlock(new Block()), slots, s.pos, () => els && genStmt(g, els));
  restore();
  const results = op.results;
  slots.forEach((x, k) => (x.v = results[k]));
}
