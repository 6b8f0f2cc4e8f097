/**
 * Semantic checks of Triton-C that do not need IR: constant folding of tile sizes and range
 * bounds, tile-shape rules (broadcasting, `@`, masks, assignment) with their diagnostics, and the
 * analysis of which variables a statement assigns (the values control flow must carry).
 * The type rules themselves live in sema-types.ts.
 */
import type { Expr, Stmt } from './ast.js';
import type { DiagContext } from './sema-diag.js';
import { broadcastShapes, broadcastsTo, fmtShape, isPow2, type CType } from './sema-types.js';

export * from './sema-types.js';

/** Folds an integer constant expression (literals and arithmetic on them); null when not constant. */
export function foldInt(e: Expr): bigint | null {
  switch (e.kind) {
    case 'int':
      return e.value;
    case 'unary': {
      const v = e.op === '-' || e.op === '+' || e.op === '~' ? foldInt(e.operand) : null;
      if (v === null) return null;
      return e.op === '-' ? -v : e.op === '~' ? ~v : v;
    }
    case 'binary': {
      const a = foldInt(e.lhs);
      const b = a === null ? null : foldInt(e.rhs);
      if (a === null || b === null) return null;
      return foldBinary(e.op, a, b);
    }
    case 'conditional': {
      const c = foldInt(e.cond);
      return c === null ? null : foldInt(c !== 0n ? e.then : e.else);
    }
    default:
      return null;
  }
}

/** Folds integer binary operator `op` on constants (C semantics before wrapping); null when undefined. */
export function foldBinary(op: string, a: bigint, b: bigint): bigint | null {
  switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return b === 0n ? null : a / b;
    case '%': return b === 0n ? null : a % b;
    case '<<': return a << b;
    case '>>': return a >> b;
    case '&': return a & b;
    case '|': return a | b;
    case '^': return a ^ b;
    case '<': return a < b ? 1n : 0n;
    case '>': return a > b ? 1n : 0n;
    case '<=': return a <= b ? 1n : 0n;
    case '>=': return a >= b ? 1n : 0n;
    case '==': return a === b ? 1n : 0n;
    case '!=': return a !== b ? 1n : 0n;
    case '&&': return a && b ? 1n : 0n;
    case '||': return a || b ? 1n : 0n;
    default: return null;
  }
}

/** Evaluates a tile dimension: a constant power of two. */
export function tileDim(e: Expr, diag: DiagContext): number {
  const v = foldInt(e);
  if (v === null) diag.error('tile size must be an integer constant', e.pos);
  const n = Number(v);
  if (!isPow2(n)) diag.error(`tile size must be a power of two, got ${n}`, e.pos);
  return n;
}

/** Evaluates the bounds of `lo ... hi`: constants whose difference is a power of two. */
export function rangeBounds(e: Extract<Expr, { kind: 'range' }>, diag: DiagContext): [number, number] {
  const lo = foldInt(e.lo);
  if (lo === null) diag.error('range start must be an integer constant', e.lo.pos);
  const hi = foldInt(e.hi);
  if (hi === null) diag.error('range end must be an integer constant', e.hi.pos);
  const n = Number(hi - lo);
  if (!isPow2(n)) diag.error(`range length must be a power of two, got ${lo} ... ${hi} (length ${n})`, e.pos);
  if (lo < -(2n ** 31n) || hi > 2n ** 31n - 1n) diag.error('range bounds must fit in int32', e.pos);
  return [Number(lo), Number(hi)];
}

/** The broadcast shape of two operands of `op`, or an `incompatible shapes` error. */
export function checkBroadcast(a: readonly number[], b: readonly number[], op: string, pos: number, diag: DiagContext): number[] {
  const r = broadcastShapes(a, b);
  if (!r) diag.error(`incompatible shapes ${fmtShape(a)} and ${fmtShape(b)} for '${op}'`, pos);
  return r;
}

/** Checks that a value of type `from` may be assigned to (or initialize) `what` of shape `to`. */
export function checkAssignShape(from: readonly number[], to: readonly number[], what: string, pos: number, diag: DiagContext): void {
  if (broadcastsTo(from, to)) return;
  diag.error(`incompatible shapes: cannot assign a tile of shape ${fmtShape(from)} to ${what} of shape ${fmtShape(to)}`, pos);
}

/**
 * Checks the operands of `a @ b` and returns the result shape: 2-D tiles (M x K @ K x N gives
 * M x N), or 3-D tiles batched along their LAST dimension, as Triton-C writes them
 * (M x K x B @ K x N x B gives M x N x B).
 */
export function checkDotShapes(a: CType, b: CType, pos: number, diag: DiagContext): number[] {
  const rank = a.shape.length;
  if (rank !== b.shape.length || (rank !== 2 && rank !== 3))
    diag.error(`operands of '@' must be both 2-D tiles, or both 3-D tiles batched along their last dimension, got shapes ${fmtShape(a.shape)} and ${fmtShape(b.shape)}`, pos);
  if (a.ptr || b.ptr) diag.error(`operands of '@' must be numeric tiles, not pointers`, pos);
  const [m, k, batch] = a.shape;
  const [k2, n, batch2] = b.shape;
  if (k !== k2)
    diag.error(`incompatible shapes ${fmtShape(a.shape)} and ${fmtShape(b.shape)} for '@': inner dimensions ${k} and ${k2} differ`, pos);
  if (batch !== batch2)
    diag.error(`incompatible shapes ${fmtShape(a.shape)} and ${fmtShape(b.shape)} for '@': batch dimensions ${batch} and ${batch2} differ`, pos);
  return rank === 3 ? [m, n, batch] : [m, n];
}

/** Checks a load/store mask shape against the pointer tile shape. */
export function checkMaskShape(mask: readonly number[], ptr: readonly number[], pos: number, diag: DiagContext): void {
  if (broadcastsTo(mask, ptr)) return;
  diag.error(`incompatible shapes: mask of shape ${fmtShape(mask)} for pointers of shape ${fmtShape(ptr)}`, pos);
}

// ---- assigned variables ---------------------------------------------------------------------

/**
 * The names, declared outside `stmts`, that they assign (in first-assignment order): the values
 * an `scf.if` yields or a loop carries. Declarations inside shadow outer names.
 */
export function assignedOuterVars(stmts: readonly (Stmt | Expr | null)[]): string[] {
  const out: string[] = [];
  const scopes: Set<string>[] = [new Set()];
  const declared = (n: string) => scopes.some((s) => s.has(n));
  const note = (n: string) => {
    if (!declared(n) && !out.includes(n)) out.push(n);
  };
  const expr = (e: Expr | null): void => {
    if (!e) return;
    switch (e.kind) {
      case 'assign':
        if (e.target.kind === 'ident') note(e.target.name);
        else expr(e.target);
        return expr(e.value);
      case 'incdec':
        if (e.target.kind === 'ident') note(e.target.name);
        else expr(e.target);
        return;
      case 'range': expr(e.lo); return expr(e.hi);
      case 'binary': expr(e.lhs); return expr(e.rhs);
      case 'unary': return expr(e.operand);
      case 'masked-deref': expr(e.mask); return expr(e.ptr);
      case 'conditional': expr(e.cond); expr(e.then); return expr(e.else);
      case 'call': return e.args.forEach(expr);
      case 'subscript':
        expr(e.base);
        for (const it of e.items) if (it.kind === 'index') expr(it.expr);
        return;
      case 'cast': case 'bitcast': return expr(e.operand);
      case 'comma': return e.exprs.forEach(expr);
      default: return;
    }
  };
  const stmt = (s: Stmt | null): void => {
    if (!s) return;
    switch (s.kind) {
      case 'block':
        scopes.push(new Set());
        s.stmts.forEach(stmt);
        scopes.pop();
        return;
      case 'decl':
        for (const d of s.declarators) {
          expr(d.init);
          scopes[scopes.length - 1].add(d.name);
        }
        return;
      case 'expr': return expr(s.expr);
      case 'if':
        expr(s.cond);
        scoped(s.then);
        return scoped(s.else);
      case 'for':
        scopes.push(new Set());
        stmt(s.init);
        expr(s.cond);
        expr(s.step);
        scoped(s.body);
        scopes.pop();
        return;
      case 'while': expr(s.cond); return scoped(s.body);
      case 'do': scoped(s.body); return expr(s.cond);
      case 'return': return expr(s.value);
      default: return;
    }
  };
  const scoped = (s: Stmt | null): void => {
    scopes.push(new Set());
    stmt(s);
    scopes.pop();
  };
  for (const x of stmts) {
    if (!x) continue;
    if (isStmt(x)) stmt(x);
    else expr(x);
  }
  return out;
}

const STMT_KINDS = new Set(['block', 'decl', 'expr', 'if', 'for', 'while', 'do', 'break', 'continue', 'return', 'empty']);

function isStmt(x: Stmt | Expr): x is Stmt {
  return STMT_KINDS.has(x.kind);
}

/** The identifiers an expression reads. */
export function identsOf(e: Expr | null, out = new Set<string>()): Set<string> {
  if (!e) return out;
  const visit = (x: Expr): void => {
    switch (x.kind) {
      case 'ident': out.add(x.name); return;
      case 'range': visit(x.lo); return visit(x.hi);
      case 'binary': visit(x.lhs); return visit(x.rhs);
      case 'unary': return visit(x.operand);
      case 'masked-deref': visit(x.mask); return visit(x.ptr);
      case 'incdec': return visit(x.target);
      case 'assign': visit(x.target); return visit(x.value);
      case 'conditional': visit(x.cond); visit(x.then); return visit(x.else);
      case 'call': return x.args.forEach(visit);
      case 'subscript':
        visit(x.base);
        for (const it of x.items) if (it.kind === 'index') visit(it.expr);
        return;
      case 'cast': case 'bitcast': return visit(x.operand);
      case 'comma': return x.exprs.forEach(visit);
      default: return;
    }
  };
  visit(e);
  return out;
}
