/**
 * Structured lowering of `break`, `continue` and early `return`: an AST-to-AST rewrite, run
 * before IR generation, after which a function body has no jump statements (except, possibly,
 * one `return` as its last statement) and IR generation only ever sees structured control flow.
 *
 * Each jump sets a flag, a `bool` variable the C program cannot name (`break`, `continue` and
 * `return` are keywords): `break;` becomes `break = 1;`, `continue;` `continue = 1;`, and
 * `return e;` `return.value = e; return = 1;`. Every statement after one that may set a flag is
 * guarded by `if (!(flag | ...)) { ... }`, so nothing after a jump runs. A loop whose body may
 * break or return gets `!(break | return) && cond` as its condition (a `while`, so the
 * condition is not evaluated once a flag is set: see short-circuit `&&`), and its step is guarded
 * too; each iteration declares its own `continue` flag. The flags are ordinary variables to IR
 * generation: `scf.if` yields them, `scf.while` carries them.
 *
 * A function without jumps, or whose only `return` is its last statement, is left as it is.
 */
import type { Expr, FunctionDef, Pos, Stmt, TypeSpec } from './ast.js';
import type { DiagContext } from './sema-diag.js';
import { ctype, fmtType } from './sema.js';

/** The flag set by `break` in the innermost loop. */
export const BREAK_FLAG = 'break';
/** The flag set by `continue` in the innermost loop. */
export const CONTINUE_FLAG = 'continue';
/** The flag set by `return` anywhere in the function. */
export const RETURN_FLAG = 'return';
/** The variable holding the value of an early `return` in a non-void function. */
export const RETURN_VALUE = 'return.value';

/** Which flags a statement may set and leave set when it completes. */
interface Escapes {
  brk: boolean;
  cont: boolean;
  ret: boolean;
}

const NONE: Escapes = { brk: false, cont: false, ret: false };

function union(a: Escapes, b: Escapes): Escapes {
  return { brk: a.brk || b.brk, cont: a.cont || b.cont, ret: a.ret || b.ret };
}

/** The jumps that may leave `s` (a `break` / `continue` inside a nested loop stays there). */
function escapes(s: Stmt | null): Escapes {
  if (!s) return NONE;
  switch (s.kind) {
    case 'break': return { ...NONE, brk: true };
    case 'continue': return { ...NONE, cont: true };
    case 'return': return { ...NONE, ret: true };
    case 'block': return s.stmts.reduce((acc, x) => union(acc, escapes(x)), NONE);
    case 'if': return union(escapes(s.then), escapes(s.else));
    case 'for': case 'while': case 'do': return { ...NONE, ret: escapes(s.body).ret };
    default: return NONE;
  }
}

/** Whether `s` holds a `break`, `continue` or `return` anywhere (nested loops included). */
function containsJump(s: Stmt | null): boolean {
  if (!s) return false;
  switch (s.kind) {
    case 'break': case 'continue': case 'return': return true;
    case 'block': return s.stmts.some(containsJump);
    case 'if': return containsJump(s.then) || containsJump(s.else);
    case 'for': case 'while': case 'do': return containsJump(s.body);
    default: return false;
  }
}

/** Whether every path through `s` ends in a `return` (so a non-void function returns a value). */
export function alwaysReturns(s: Stmt | null): boolean {
  if (!s) return false;
  if (s.kind === 'return') return true;
  if (s.kind === 'block') return s.stmts.some(alwaysReturns);
  if (s.kind === 'if') return alwaysReturns(s.then) && alwaysReturns(s.else);
  return false;
}

// ---- AST builders -----------------------------------------------------------------------

const ident = (name: string, pos: Pos): Expr => ({ kind: 'ident', name, pos });
const one = (pos: Pos): Expr => ({ kind: 'int', value: 1n, suffix: '', pos });
const zero = (pos: Pos): Expr => ({ kind: 'int', value: 0n, suffix: '', pos });
const setFlag = (name: string, pos: Pos): Stmt => ({ kind: 'expr', expr: { kind: 'assign', op: '=', target: ident(name, pos), value: one(pos), pos }, pos });
const boolType = (pos: Pos): TypeSpec => ({ scalar: 'bool', pointers: 0, qualifiers: [], pos });

/** `bool name = 0;` */
function declareFlag(name: string, pos: Pos): Stmt {
  return { kind: 'decl', type: boolType(pos), declarators: [{ name, shape: null, init: zero(pos), attrs: [], pos }], pos };
}

/** `!(a | b | ...)` over the flags `e` names, or null when it names none. */
function noneSet(e: Escapes, pos: Pos): Expr | null {
  const names = [e.brk && BREAK_FLAG, e.cont && CONTINUE_FLAG, e.ret && RETURN_FLAG].filter((n): n is string => !!n);
  if (!names.length) return null;
  const either = names.map((n) => ident(n, pos)).reduce((a, b) => ({ kind: 'binary', op: '|', lhs: a, rhs: b, pos }));
  return { kind: 'unary', op: '!', operand: either, pos };
}

// ---- the rewrite --------------------------------------------------------------------------

/** What the rewrite knows of the enclosing function and loop. */
interface Context {
  diag: DiagContext;
  fn: FunctionDef;
  /** Whether the function's early returns go through the `return` flag. */
  flagReturns: boolean;
  inLoop: boolean;
}

/**
 * Rewrites `f`'s body without jump statements (see the file comment); `break` / `continue`
 * outside a loop and misused `return`s are located errors. Returns `f` itself when it needs no
 * rewrite (at most one `return`, as its last statement).
 */
export function lowerJumps(f: FunctionDef, diag: DiagContext): FunctionDef {
  const stmts = f.body.stmts;
  const lastIsReturn = stmts.length > 0 && stmts[stmts.length - 1].kind === 'return';
  const before = lastIsReturn ? stmts.slice(0, -1) : stmts;
  if (!before.some(containsJump)) return f;
  const flagReturns = before.some((s) => escapes(s).ret);
  const cx: Context = { diag, fn: f, flagReturns, inLoop: false };
  const pos = f.body.pos;
  const nonVoid = f.returnType.scalar !== 'void' || f.returnType.pointers > 0;
  const out: Stmt[] = [];
  if (flagReturns) {
    out.push(declareFlag(RETURN_FLAG, pos));
    if (nonVoid) out.push(returnValueDecl(f.returnType, pos));
  }
  out.push(...lowerList(cx, stmts));
  if (flagReturns && nonVoid) {
    if (!alwaysReturns(f.body)) diag.error(`non-void function '${f.name}' must end with a 'return' statement`, f.pos);
    out.push({ kind: 'return', value: ident(RETURN_VALUE, pos), pos });
  }
  return { ...f, body: { ...f.body, stmts: out } };
}

/** Whether a loop body holds a jump out of (or on to the next iteration of) this loop. */
function bodyJumps(body: Stmt): boolean {
  const e = escapes(body);
  return e.brk || e.cont || e.ret;
}

/** `T return.value = 0;` (`(T*)0l` for pointers). */
function returnValueDecl(r: TypeSpec, pos: Pos): Stmt {
  const type: TypeSpec = { ...r, qualifiers: [] };
  const init: Expr = r.pointers
    ? { kind: 'cast', type, shape: null, operand: { kind: 'int', value: 0n, suffix: 'l', pos }, pos }
    : zero(pos);
  return { kind: 'decl', type, declarators: [{ name: RETURN_VALUE, shape: null, init, attrs: [], pos }], pos };
}

/** The checks of a `return` against the function's result type. */
function checkReturn(cx: Context, s: Extract<Stmt, { kind: 'return' }>): void {
  const f = cx.fn;
  const r = f.returnType;
  const isVoid = r.scalar === 'void' && !r.pointers;
  if (isVoid && s.value) cx.diag.error(`void function '${f.name}' should not return a value`, s.pos);
  if (!isVoid && !s.value) cx.diag.error(`non-void function '${f.name}' must return a value of type '${fmtType(ctype(r.scalar, r.pointers))}'`, s.pos);
}

/** Lowers a statement list: everything after a statement that may jump runs only if it did not. */
function lowerList(cx: Context, stmts: readonly Stmt[]): Stmt[] {
  const out: Stmt[] = [];
  for (let k = 0; k < stmts.length; k++) {
    const s = stmts[k];
    out.push(...lowerStmt(cx, s));
    const guard = noneSet(escapes(s), s.pos);
    const rest = stmts.slice(k + 1);
    if (!guard || !rest.length) continue;
    const restPos = rest[0].pos;
    out.push({ kind: 'if', cond: guard, then: { kind: 'block', stmts: lowerList(cx, rest), pos: restPos }, else: null, pos: restPos });
    break;
  }
  return out;
}

/** Lowers one statement to the statements that replace it. */
function lowerStmt(cx: Context, s: Stmt): Stmt[] {
  switch (s.kind) {
    case 'break':
      if (!cx.inLoop) cx.diag.error(`'break' statement not in loop statement`, s.pos);
      return [setFlag(BREAK_FLAG, s.pos)];
    case 'continue':
      if (!cx.inLoop) cx.diag.error(`'continue' statement not in loop statement`, s.pos);
      return [setFlag(CONTINUE_FLAG, s.pos)];
    case 'return': return lowerReturn(cx, s);
    case 'block': return [{ ...s, stmts: lowerList(cx, s.stmts) }];
    case 'if': {
      const then = asOne(lowerStmt(cx, s.then), s.then.pos);
      const els = s.else ? asOne(lowerStmt(cx, s.else), s.else.pos) : null;
      return [{ ...s, then, else: els }];
    }
    case 'for': case 'while': case 'do': return [lowerLoop(cx, s)];
    default: return [s];
  }
}

/** Several statements as one (a block when there are several). */
function asOne(stmts: Stmt[], pos: Pos): Stmt {
  return stmts.length === 1 ? stmts[0] : { kind: 'block', stmts, pos };
}

function lowerReturn(cx: Context, s: Extract<Stmt, { kind: 'return' }>): Stmt[] {
  checkReturn(cx, s);
  if (!cx.flagReturns) return [s];
  const out: Stmt[] = [];
  if (s.value) {
    const assign: Expr = { kind: 'assign', op: '=', target: ident(RETURN_VALUE, s.pos), value: s.value, pos: s.pos, opPos: s.pos };
    out.push({ kind: 'expr', expr: assign, pos: s.pos });
  }
  out.push(setFlag(RETURN_FLAG, s.pos));
  return out;
}

type Loop = Extract<Stmt, { kind: 'for' | 'while' | 'do' }>;

/**
 * A loop whose body may jump: `{ init; bool break = 0; while (!(break | return) && cond)
 * { bool continue = 0; body; if (!(break | return)) step; } }` (`do` keeps its shape; `for`
 * without `break` or `return` stays a `for`, so a counted loop stays `scf.for`).
 */
function lowerLoop(cx: Context, s: Loop): Stmt {
  const inner: Context = { ...cx, inLoop: true };
  if (!bodyJumps(s.body)) return { ...s, body: asOne(lowerStmt(inner, s.body), s.body.pos) } as Loop;
  const pos = s.pos;
  const e = escapes(s.body);
  const body: Stmt[] = [];
  if (e.cont) body.push(declareFlag(CONTINUE_FLAG, pos));
  body.push(...lowerList(inner, [s.body]));
  const exits: Escapes = { brk: e.brk, cont: false, ret: e.ret };
  if (!exits.brk && !exits.ret) {
    // Only `continue`: the loop keeps its form (its step runs after a `continue`, as in C).
    return { ...s, body: { kind: 'block', stmts: body, pos: s.body.pos } } as Loop;
  }
  const stop = noneSet(exits, pos)!;
  const guarded = (c: Expr | null): Expr => (c ? { kind: 'binary', op: '&&', lhs: stop, rhs: c, pos: c.pos, opPos: c.pos } : stop);
  const out: Stmt[] = [];
  if (e.brk) out.push(declareFlag(BREAK_FLAG, pos));
  if (s.kind === 'do') {
    out.push({ ...s, body: { kind: 'block', stmts: body, pos: s.body.pos }, cond: guarded(s.cond) });
    return { kind: 'block', stmts: out, pos };
  }
  if (s.kind === 'for' && s.step) {
    const step = s.step;
    body.push({ kind: 'if', cond: stop, then: { kind: 'expr', expr: step, pos: step.pos }, else: null, pos: step.pos });
  }
  const cond = guarded(s.cond);
  const loopBody: Stmt = { kind: 'block', stmts: body, pos: s.body.pos };
  if (s.kind === 'for') {
    // The init's declarations stay visible to the loop only: one block around both.
    if (s.init) out.unshift(s.init);
    out.push({ kind: 'while', cond, body: loopBody, pos });
  } else {
    out.push({ ...s, cond, body: loopBody });
  }
  return { kind: 'block', stmts: out, pos };
}
