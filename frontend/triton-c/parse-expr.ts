/**
 * Triton-C grammar, part 1: the token cursor, type specifiers, attributes, type names and
 * expressions, by recursive descent. Statements and the top level are in parse-stmt.ts, which
 * extends this class.
 *
 * Operator precedence, loosest to tightest, exactly as original Triton's parser
 * (triton lib/lang/parser.cc, 2019-2020: ParseCastExpr < ParseRangeExpr < ParseMatmulExpr <
 * ParseMultiplicativeExpr < ParseAdditiveExpr ...):
 *
 *   ,  <  assignment (= += ...; right-assoc)  <  ?:  <  ||  <  &&  <  |  <  ^  <  &  <  == !=
 *   <  < > <= >=  <  << >>  <  + -  <  * / %  <  @  <  ...  <  casts / unary / postfix
 *
 * So the range operator binds TIGHTER than every binary operator (its operands are cast
 * expressions): `pm * TM + 0 ... TM` is `(pm * TM) + (0 ... TM)`, `0 ... TM * 2` is
 * `(0 ... TM) * 2`, and `a * b @ c` is `a * (b @ c)`. Unary operators (`-`, `^`, `*`, `*?(m)`)
 * take a cast expression, so `^a @ b` is `(^a) @ b` and `-1 ... 4` is `(-1) ... 4`.
 * The mask of `*?(mask) p` is a full expression (the later parser's `ParseExpr`).
 *
 * Choices look at most two tokens ahead. Where two alternatives start with the same token (`(`
 * of a cast or of a parenthesized expression; `*` of `*?(m) p` or of `*p`; `+` of a reduction
 * slot or of a unary plus, and with it every prefix operator in a subscript), the second token
 * decides, and a second token that fits neither is "expected expression" at the first.
 */
import type { Attr, BinaryOp, Expr, SubscriptItem, TypeSpec } from './ast.js';
import { C, EOF_TOKEN, isA, T, type IToken, type TokenType } from './lexer.js';
import { lastCharOf, TcSyntaxError, tokenOffset } from './parse-diag.js';
import { decodeChar, decodeFloat, decodeInt, scalarFromKeywords } from './parse-specs.js';

/** Message when an expression was expected. */
export const EXPR_ERR = 'expected expression';

/** Declaration specifiers as parsed: the type, `__global__`, attributes. */
export interface Specs {
  type: TypeSpec;
  /** The `__global__` keyword, when written. */
  globalTok: IToken | null;
  attrs: Attr[];
}

/** `*` levels after the specifiers, with their qualifiers and attributes. */
export interface Pointers {
  count: number;
  quals: string[];
  attrs: Attr[];
}

const ATTR_NAMES: Record<string, Attr['name']> = {
  multipleof: 'multipleof', aligned: 'aligned', readonly: 'readonly', writeonly: 'writeonly', noalias: 'noalias', retune: 'retune',
};
const ATTR_WITH_ARG = new Set<Attr['name']>(['multipleof', 'aligned']);

function normQualifier(q: string): string {
  return q === '__restrict__' || q === '__restrict' ? 'restrict' : q;
}

/** The deepest an expression may nest (parentheses, casts, prefix operators; see `cast`). */
export const MAX_EXPR_NESTING = 32;

/** Whether `t` starts declaration specifiers (a type keyword, qualifier, `__global__` or attribute). */
export function startsSpecs(t: IToken): boolean {
  const k = t.tokenType;
  return isA(t, C.TypeKw) || isA(t, C.Qualifier) || k === T.Global || isA(t, C.AttrKw) || k === T.Attribute;
}

/** Whether `t` can start an expression. */
export function startsExpression(t: IToken): boolean {
  const k = t.tokenType;
  return (
    k === T.Identifier || k === T.Int || k === T.Float || k === T.Char || k === T.LParen || k === T.Bitcast ||
    isA(t, C.IncDec) || isA(t, C.UnaryOp) || k === T.Caret || k === T.Star
  );
}

/** One level of binary operators: which tokens, and the level its operands are parsed at. */
interface BinaryLevel {
  op: TokenType;
  next: number;
}

/**
 * Binary levels, loosest first; level k's operands are level k + 1, and the last level's are cast
 * expressions.
 */
const BINARY_LEVELS: BinaryLevel[] = [
  T.OrOr, T.AndAnd, T.Pipe, T.Caret, T.Amp, C.EqualityOp, C.RelationalOp, C.ShiftOp, C.AdditiveOp,
  C.MultiplicativeOp,
  /* `a @ b`: tighter than `*`, looser than `...` (original Triton's ParseMatmulExpr). */ T.At,
  /* `lo ... hi`: operands are cast expressions (original Triton's ParseRangeExpr). */ T.Ellipsis,
].map((op, k) => ({ op, next: k + 1 }));

/** Expressions and types of Triton-C (see the file comment for precedence). */
export class TcExprParser {
  /** The tokens being parsed. */
  input: IToken[] = [];
  /** The index of the next token. */
  protected pos = 0;
  /** Cast expressions open around the one being parsed (reset by each parse). */
  exprNesting = 0;

  /** The token `k` ahead (1: the next one); `EOF_TOKEN` past the end. */
  protected LA(k: number): IToken {
    return this.input[this.pos + k - 1] ?? EOF_TOKEN;
  }

  /** Whether the next token is of kind (or category) `type`. */
  protected at(type: TokenType): boolean {
    return isA(this.LA(1), type);
  }

  /** Consumes the next token. */
  protected next(): IToken {
    const t = this.LA(1);
    this.pos++;
    return t;
  }

  /** Throws a syntax error at `tok` (EOF: end of input), with an optional note. */
  protected failAt(tok: IToken, message: string, note?: { message: string; tok: IToken }): never {
    const notes = note ? [{ message: note.message, offset: tokenOffset(note.tok) }] : [];
    throw new TcSyntaxError(message, tokenOffset(tok), notes);
  }

  /**
   * Consumes a token of kind `type`, or fails with `message` (default `expected 'x'`) at the next
   * token; a missing `;` is reported just after the token before it, as C compilers do.
   */
  protected consume(type: TokenType, message = `expected ${type.label}`): IToken {
    if (this.at(type)) return this.next();
    const prev = this.input[this.pos - 1];
    if (message.startsWith("expected ';'") && prev) throw new TcSyntaxError(message, lastCharOf(prev), [], true);
    this.failAt(this.LA(1), message);
  }

  /** Consumes a closing token, or fails with "expected ')'" and a "to match this '('" note. */
  protected expectClose(type: TokenType, open: IToken): IToken {
    if (!this.at(type)) this.failAt(this.LA(1), `expected ${type.label}`, { message: `to match this ${open.tokenType.label}`, tok: open });
    return this.next();
  }

  /** `__multipleof(8)`, `__readonly`, ... or `__attribute__((multipleof(8), noalias))`. */
  protected attributes(): Attr[] {
    const out: Attr[] = [];
    if (this.at(C.AttrKw)) {
      const kw = this.next();
      out.push(this.makeAttr(kw, kw.image.slice(2), this.attrArg(kw)));
      return out;
    }
    this.consume(T.Attribute);
    const lp1 = this.consume(T.LParen, "expected '(' after '__attribute__'");
    const lp2 = this.consume(T.LParen, "expected '(' after '__attribute__('");
    while (this.at(T.Identifier)) {
      const name = this.next();
      out.push(this.makeAttr(name, name.image, this.attrArg(name)));
      if (this.at(T.Comma)) this.next();
    }
    this.expectClose(T.RParen, lp2);
    this.expectClose(T.RParen, lp1);
    return out;
  }

  /** Whether the next token starts attributes. */
  protected atAttributes(): boolean {
    return this.at(C.AttrKw) || this.at(T.Attribute);
  }

  /** The optional `(N)` argument of an attribute; N must be an integer constant. */
  private attrArg(kw: IToken): { value: number; tok: IToken } | null {
    if (!this.at(T.LParen)) return null;
    const lp = this.next();
    const n = this.consume(T.Int, `'${kw.image}' attribute requires an integer constant`);
    this.expectClose(T.RParen, lp);
    const d = decodeInt(n.image);
    if (!d.ok) this.failAt(n, d.message);
    return { value: Number(d.value.value), tok: n };
  }

  private makeAttr(tok: IToken, name: string, arg: { value: number; tok: IToken } | null): Attr {
    const kind = ATTR_NAMES[name];
    if (!kind) this.failAt(tok, `unknown attribute '${tok.image}'`);
    if (ATTR_WITH_ARG.has(kind) && !arg) this.failAt(tok, `'${tok.image}' attribute takes one argument`);
    if (!ATTR_WITH_ARG.has(kind) && arg) this.failAt(arg.tok, `'${tok.image}' attribute takes no arguments`);
    if (arg && arg.value <= 0) this.failAt(arg.tok, `'${tok.image}' attribute requires a positive integer`);
    return { name: kind, arg: arg ? arg.value : null, pos: tok.startOffset };
  }

  /** Type keywords, qualifiers, `__global__` and attributes, in any order (at least one). */
  protected declSpecs(): Specs {
    const words: IToken[] = [];
    const quals: string[] = [];
    const attrs: Attr[] = [];
    let globalTok: IToken | null = null;
    let first: IToken | null = null;
    if (!startsSpecs(this.LA(1))) this.failAt(this.LA(1), 'expected type specifier');
    while (startsSpecs(this.LA(1))) {
      const t = this.LA(1);
      if (this.atAttributes()) {
        attrs.push(...this.attributes());
        continue;
      }
      this.next();
      first ??= t;
      if (isA(t, C.TypeKw)) words.push(t);
      else if (isA(t, C.Qualifier)) quals.push(normQualifier(t.image));
      else globalTok = t;
    }
    const next = this.LA(1);
    if (!words.length && next.tokenType === T.Identifier) this.failAt(next, `unknown type name '${next.image}'`);
    if (!words.length) this.failAt(next, 'expected type specifier');
    const scalar = scalarFromKeywords(words.map((w) => w.image));
    if (!scalar.ok) this.failAt(words[0], scalar.message);
    const pos = (first ?? words[0]).startOffset;
    return { type: { scalar: scalar.value, pointers: 0, qualifiers: quals, pos }, globalTok, attrs };
  }

  /** `* const * __restrict__ ...`: pointer levels with their qualifiers and attributes. */
  protected pointers(): Pointers {
    const out: Pointers = { count: 0, quals: [], attrs: [] };
    while (this.at(T.Star)) {
      this.next();
      out.count++;
      for (;;) {
        if (this.at(C.Qualifier)) out.quals.push(normQualifier(this.next().image));
        else if (this.atAttributes()) out.attrs.push(...this.attributes());
        else break;
      }
    }
    return out;
  }

  /** `item (, item)*`: one item or more, separated by commas. */
  protected commaList<I>(item: () => I): I[] {
    const items = [item()];
    while (this.at(T.Comma)) {
      this.next();
      items.push(item());
    }
    return items;
  }

  /** A tile shape `[TM, TN]` (dimensions are conditional expressions, as in Triton). */
  protected shape(): Expr[] {
    const lb = this.consume(T.LBracket);
    const dims = this.commaList(() => this.conditional());
    this.expectClose(T.RBracket, lb);
    return dims;
  }

  /** A type name, as in casts: `float`, `int*`, `float[TN]`. */
  protected typeName(): { type: TypeSpec; shape: Expr[] | null } {
    const specs = this.declSpecs();
    const ptr = this.pointers();
    const shape = this.at(T.LBracket) ? this.shape() : null;
    const type = { ...specs.type, pointers: ptr.count, qualifiers: [...specs.type.qualifiers, ...ptr.quals] };
    return { type, shape };
  }

  /** A full expression: assignments joined by C's comma operator (`i++, j++`). */
  protected expression(): Expr {
    const first = this.assignment();
    if (!this.at(T.Comma)) return first;
    const exprs: Expr[] = [first];
    while (this.at(T.Comma)) {
      this.next();
      exprs.push(this.assignment());
    }
    return { kind: 'comma', exprs, pos: first.pos };
  }

  /** `lhs op= rhs`, right-associative; the target is checked by semantic analysis. */
  protected assignment(): Expr {
    const lhs = this.conditional();
    if (!this.at(C.AssignOp)) return lhs;
    const op = this.next();
    const rhs = this.assignment();
    return { kind: 'assign', op: op.image as Extract<Expr, { kind: 'assign' }>['op'], target: lhs, value: rhs, pos: lhs.pos, opPos: op.startOffset };
  }

  /** `cond ? a : b`. */
  protected conditional(): Expr {
    const cond = this.binary(0);
    if (!this.at(T.Question)) return cond;
    const q = this.next();
    const then = this.expression();
    this.expectClose(T.Colon, q);
    const els = this.conditional();
    return { kind: 'conditional', cond, then, else: els, pos: cond.pos, opPos: q.startOffset };
  }

  /** Binary operators of `BINARY_LEVELS[level]` and tighter, left-associative. */
  private binary(level: number): Expr {
    if (level === BINARY_LEVELS.length) return this.cast();
    const { op, next } = BINARY_LEVELS[level];
    let lhs = this.binary(next);
    while (this.at(op)) {
      const t = this.next();
      const rhs = this.binary(next);
      const l = lhs;
      lhs = t.tokenType === T.Ellipsis
        ? { kind: 'range', lo: l, hi: rhs, pos: l.pos, opPos: t.startOffset }
        : { kind: 'binary', op: t.image as BinaryOp, lhs: l, rhs, pos: l.pos, opPos: t.startOffset };
    }
    return lhs;
  }

  /**
   * A cast expression, counted: every way an expression nests (parentheses, casts, prefix
   * operators, subscripts) passes here, so nesting past MAX_EXPR_NESTING is a located error rather
   * than a stack overflow (a parenthesis costs every precedence level's frames).
   */
  protected cast(): Expr {
    if (++this.exprNesting > MAX_EXPR_NESTING) this.failAt(this.LA(1), `expression nested deeper than ${MAX_EXPR_NESTING} levels (parentheses, casts, prefix operators)`);
    const e = this.castBody();
    this.exprNesting--;
    return e;
  }

  /** `(type) x`, `(float[TN]) x`, or a unary expression. */
  private castBody(): Expr {
    if (this.at(T.LParen) && startsSpecs(this.LA(2))) {
      const lp = this.next();
      const tn = this.typeName();
      this.expectClose(T.RParen, lp);
      const operand = this.cast();
      return { kind: 'cast', type: tn.type, shape: tn.shape, operand, pos: lp.startOffset };
    }
    if (this.at(T.LParen) && !startsExpression(this.LA(2))) this.failAt(this.LA(1), EXPR_ERR);
    return this.unary();
  }

  /** Prefix operators: `++x`, `-x`, `!x`, `~x`, `&x`, `^x` (transpose), `*p`, `*?(mask) p`. */
  protected unary(): Expr {
    const t = this.LA(1);
    if (isA(t, C.IncDec)) {
      this.next();
      const target = this.unary();
      return { kind: 'incdec', op: t.image as '++' | '--', prefix: true, target, pos: t.startOffset };
    }
    if (isA(t, C.UnaryOp)) {
      this.next();
      const operand = this.cast();
      const op = t.image === '&' ? 'addr' : (t.image as '-' | '+' | '!' | '~');
      return { kind: 'unary', op, operand, pos: t.startOffset };
    }
    if (t.tokenType === T.Caret) {
      this.next();
      const operand = this.cast();
      return { kind: 'unary', op: 'transpose', operand, pos: t.startOffset };
    }
    if (t.tokenType === T.Star && this.LA(2).tokenType === T.Question) {
      this.next();
      this.next();
      const lp = this.consume(T.LParen, "expected '(' after '*?'");
      const mask = this.expression();
      this.expectClose(T.RParen, lp);
      const ptr = this.cast();
      return { kind: 'masked-deref', mask, ptr, pos: t.startOffset };
    }
    if (t.tokenType === T.Star) {
      if (!startsExpression(this.LA(2))) this.failAt(t, EXPR_ERR);
      this.next();
      const operand = this.cast();
      return { kind: 'unary', op: 'deref', operand, pos: t.startOffset };
    }
    return this.postfix();
  }

  /** Subscripts `x[:, newaxis]`, calls `f(a, b)`, `x++`, `x--`. */
  protected postfix(): Expr {
    let base = this.primary();
    for (;;) {
      if (this.at(T.LBracket)) {
        base = { kind: 'subscript', base, items: this.subscript(), pos: base.pos };
      } else if (this.at(T.LParen)) {
        const lp = this.next();
        const args = startsExpression(this.LA(1)) ? this.commaList(() => this.assignment()) : [];
        this.expectClose(T.RParen, lp);
        if (base.kind !== 'ident') this.failAt(lp, 'called object is not a function');
        base = { kind: 'call', callee: base.name, args, pos: base.pos };
      } else if (this.at(C.IncDec)) {
        const t = this.next();
        base = { kind: 'incdec', op: t.image as '++' | '--', prefix: false, target: base, pos: base.pos };
      } else {
        return base;
      }
    }
  }

  /** `[item, item, ...]`. */
  private subscript(): SubscriptItem[] {
    const lb = this.consume(T.LBracket);
    const items = this.commaList(() => this.subscriptItem());
    this.expectClose(T.RBracket, lb);
    return items;
  }

  private endsItem(k: number): boolean {
    const t = this.LA(k).tokenType;
    return t === T.Comma || t === T.RBracket;
  }

  /** `:`, `newaxis`, a reduction (`+`, `max`, `min` alone in its slot) or an index expression. */
  private subscriptItem(): SubscriptItem {
    const t = this.LA(1);
    if (t.tokenType === T.Colon || t.tokenType === T.Newaxis) {
      this.next();
      return t.tokenType === T.Colon ? { kind: 'all', pos: t.startOffset } : { kind: 'newaxis', pos: t.startOffset };
    }
    if (t.tokenType === T.Plus && this.endsItem(2)) {
      this.next();
      return { kind: 'reduce', op: '+', pos: t.startOffset };
    }
    if (t.tokenType === T.Identifier && (t.image === 'max' || t.image === 'min') && this.endsItem(2)) {
      this.next();
      return { kind: 'reduce', op: t.image, pos: t.startOffset };
    }
    // A prefix operator (`+` above all) must be followed by its operand here.
    if (!startsExpression(t) || (isA(t, C.UnaryOp) && !startsExpression(this.LA(2)))) this.failAt(t, EXPR_ERR);
    const e = this.conditional();
    if (e.kind === 'unary' && e.op === 'transpose' && e.operand.kind === 'int') {
      throw new TcSyntaxError('axis permutations in subscripts (x[^1, ^0]) are not supported; use the prefix ^x', e.pos);
    }
    return { kind: 'index', expr: e, pos: e.pos };
  }

  /** Names, literals, `( expr )` and `bitcast<T>(expr)`. */
  protected primary(): Expr {
    const t = this.LA(1);
    switch (t.tokenType) {
      case T.Identifier:
        this.next();
        return { kind: 'ident', name: t.image, pos: t.startOffset };
      case T.Int: {
        this.next();
        const d = decodeInt(t.image);
        if (!d.ok) this.failAt(t, d.message);
        return { kind: 'int', value: d.value.value, suffix: d.value.suffix, pos: t.startOffset };
      }
      case T.Float: {
        this.next();
        const d = decodeFloat(t.image);
        if (!d.ok) this.failAt(t, d.message);
        return { kind: 'float', value: d.value.value, suffix: d.value.suffix, pos: t.startOffset };
      }
      case T.Char: {
        this.next();
        const d = decodeChar(t.image);
        if (!d.ok) this.failAt(t, d.message);
        return { kind: 'int', value: d.value, suffix: '', pos: t.startOffset };
      }
      case T.LParen: {
        this.next();
        const e = this.expression();
        this.expectClose(T.RParen, t);
        return e;
      }
      case T.Bitcast: {
        this.next();
        const lt = this.consume(T.Lt, "expected '<' after 'bitcast'");
        const tn = this.typeName();
        this.expectClose(T.Gt, lt);
        const lp = this.consume(T.LParen, "expected '(' after 'bitcast<...>'");
        const operand = this.expression();
        this.expectClose(T.RParen, lp);
        return { kind: 'bitcast', type: tn.type, shape: tn.shape, operand, pos: t.startOffset };
      }
      default:
        this.failAt(t, EXPR_ERR);
    }
  }
}
