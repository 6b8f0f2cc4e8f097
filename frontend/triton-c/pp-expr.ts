/**
 * Evaluation of `#if` / `#elif` integer constant expressions, after `defined` has been
 * replaced and macros expanded. Arithmetic is done in 64 bits (intmax_t / uintmax_t) with
 * C's usual arithmetic conversions; remaining identifiers are 0. `&&`, `||` and `?:` only
 * evaluate (and only report division by zero in) the operands that C evaluates.
 */
import type { PPToken } from './pp-lex.js';
import { MAX_EXPR_NESTING } from './parse-expr.js';

/** Reports an error at a token (or, with null, at the end of the expression) and aborts. */
export type ExprError = (message: string, at: PPToken | null) => never;

interface Val {
  v: bigint;
  u: boolean;
}

const BINARY_PREC: Record<string, number> = {
  '*': 10, '/': 10, '%': 10,
  '+': 9, '-': 9,
  '<<': 8, '>>': 8,
  '<': 7, '>': 7, '<=': 7, '>=': 7,
  '==': 6, '!=': 6,
  '&': 5, '^': 4, '|': 3, '&&': 2, '||': 1,
};

const wrap = (v: bigint, u: boolean): Val => ({ v: u ? BigInt.asUintN(64, v) : BigInt.asIntN(64, v), u });

/** Value of an integer literal (pp-number) or null when it is not one. */
export function parseIntLiteral(text: string): Val | null {
  const m = /^(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)([uU](?:ll|LL|[lL])?|(?:ll|LL|[lL])[uU]?)?$/.exec(text);
  if (!m) return null;
  const body = m[1];
  const v = /^0[0-7]+$/.test(body) ? BigInt('0o' + body.slice(1)) : BigInt(body);
  const u = /[uU]/.test(m[2] ?? '') || v > 0x7fffffffffffffffn;
  return wrap(v, u);
}

const ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, '0': 0, a: 7, b: 8, f: 12, v: 11, '\\': 92, "'": 39, '"': 34, '?': 63 };

function charValue(text: string): bigint | null {
  const body = text.slice(1, -1);
  if (body.length === 1) return BigInt(body.charCodeAt(0));
  if (body[0] !== '\\') return null;
  if (/^\\x[0-9a-fA-F]+$/.test(body)) return BigInt('0x' + body.slice(2));
  if (/^\\[0-7]{1,3}$/.test(body)) return BigInt('0o' + body.slice(1));
  const e = ESCAPES[body.slice(1)];
  return e === undefined ? null : BigInt(e);
}

/** Evaluates the expression; returns whether it is non-zero. */
export function evaluateCondition(tokens: PPToken[], error: ExprError): boolean {
  let i = 0;
  const peek = (): PPToken | null => tokens[i] ?? null;
  const isOp = (t: PPToken | null, op: string): boolean => t !== null && t.kind === 'punct' && t.text === op;
  // Parentheses, prefix operators and `?:` arms recurse: past the language's expression nesting
  // limit they are a located error, not a stack overflow.
  let nesting = 0;
  const nested = <T>(at: PPToken | null, parse: () => T): T => {
    if (++nesting > MAX_EXPR_NESTING) error(`expression nested deeper than ${MAX_EXPR_NESTING} levels (parentheses, prefix operators, '?:')`, at);
    const v = parse();
    nesting--;
    return v;
  };

  const primary = (live: boolean): Val => {
    const t = peek();
    if (t === null) return error('expected value in expression', null);
    i++;
    if (t.kind === 'punct') {
      switch (t.text) {
        case '(': {
          const v = nested(t, () => conditional(live));
          if (!isOp(peek(), ')')) return error("missing ')' in expression", peek());
          i++;
          return v;
        }
        case '-': { const a = nested(t, () => primary(live)); return wrap(-a.v, a.u); }
        case '+': return nested(t, () => primary(live));
        case '~': { const a = nested(t, () => primary(live)); return wrap(~a.v, a.u); }
        case '!': { const a = nested(t, () => primary(live)); return { v: a.v === 0n ? 1n : 0n, u: false }; }
        default: return error(t.text === ')' ? 'expected value in expression' : `token '${t.text}' is not valid in preprocessor expressions`, t);
      }
    }
    if (t.kind === 'ident') return { v: 0n, u: false };
    if (t.kind === 'number') {
      const v = parseIntLiteral(t.text);
      if (v) return v;
      if (/^(\d|\.\d)/.test(t.text) && /[.eEpP]/.test(t.text) && !/^0[xX][0-9a-fA-F]+$/.test(t.text)) {
        return error('floating point literal in preprocessor expression', t);
      }
      return error(`invalid integer constant '${t.text}' in preprocessor expression`, t);
    }
    if (t.kind === 'char') {
      const v = charValue(t.text);
      if (v === null) return error(`invalid character constant ${t.text} in preprocessor expression`, t);
      return { v, u: false };
    }
    return error(`token '${t.text}' is not valid in preprocessor expressions`, t);
  };

  const apply = (op: string, a: Val, b: Val, at: PPToken, live: boolean): Val => {
    if (op === '&&') return { v: a.v !== 0n && b.v !== 0n ? 1n : 0n, u: false };
    if (op === '||') return { v: a.v !== 0n || b.v !== 0n ? 1n : 0n, u: false };
    if (op === '<<' || op === '>>') {
      const n = b.v < 0n ? 0n : b.v > 64n ? 64n : b.v;
      return wrap(op === '<<' ? a.v << n : a.v >> n, a.u);
    }
    const u = a.u || b.u;
    const x = u ? BigInt.asUintN(64, a.v) : a.v;
    const y = u ? BigInt.asUintN(64, b.v) : b.v;
    const bool = (c: boolean): Val => ({ v: c ? 1n : 0n, u: false });
    switch (op) {
      case '*': return wrap(x * y, u);
      case '/':
      case '%':
        if (y === 0n) return live ? error('division by zero in preprocessor expression', at) : { v: 0n, u };
        return wrap(op === '/' ? x / y : x % y, u);
      case '+': return wrap(x + y, u);
      case '-': return wrap(x - y, u);
      case '<': return bool(x < y);
      case '>': return bool(x > y);
      case '<=': return bool(x <= y);
      case '>=': return bool(x >= y);
      case '==': return bool(x === y);
      case '!=': return bool(x !== y);
      case '&': return wrap(x & y, u);
      case '^': return wrap(x ^ y, u);
      default: return wrap(x | y, u);
    }
  };

  const binary = (minPrec: number, live: boolean): Val => {
    let lhs = primary(live);
    for (;;) {
      const t = peek();
      const prec = t && t.kind === 'punct' ? BINARY_PREC[t.text] : undefined;
      if (t === null || prec === undefined || prec < minPrec) return lhs;
      i++;
      const rhsLive = live && !(t.text === '&&' && lhs.v === 0n) && !(t.text === '||' && lhs.v !== 0n);
      const rhs = binary(prec + 1, rhsLive);
      lhs = apply(t.text, lhs, rhs, t, live);
    }
  };

  const conditional = (live: boolean): Val => {
    const cond = binary(1, live);
    if (!isOp(peek(), '?')) return cond;
    i++;
    const a = nested(peek(), () => conditional(live && cond.v !== 0n));
    if (!isOp(peek(), ':')) return error("expected ':' in conditional expression", peek());
    i++;
    const b = nested(peek(), () => conditional(live && cond.v === 0n));
    const u = a.u || b.u;
    return wrap(cond.v !== 0n ? a.v : b.v, u);
  };

  const v = conditional(true);
  const rest = peek();
  if (rest !== null) {
    if (rest.kind === 'punct' && rest.text === ')') return error("unexpected ')' in expression", rest);
    return error(`token '${rest.text}' is not valid here in preprocessor expression`, rest);
  }
  return v.v !== 0n;
}
