/**
 * Triton-C grammar, part 1: type specifiers, attributes, type names and expressions
 * (chevrotain EmbeddedActionsParser; the AST is built in ACTIONs). Statements and the top
 * level are in parse-stmt.ts, which extends this class.
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
 */
import { EmbeddedActionsParser, tokenMatcher, type IToken, type ParserMethod, type TokenType } from 'chevrotain';
import type { Attr, BinaryOp, Expr, SubscriptItem, TypeSpec } from './ast.js';
import { LazyLookaheadStrategy } from './lazy-lookahead.js';
import { ALL_TOKENS, C, T } from './lexer.js';
import { MESSAGES, TcSyntaxError, tokenOffset } from './parse-diag.js';
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

/** Expressions and types of Triton-C (see the file comment for precedence). */
export class TcExprParser extends EmbeddedActionsParser {
  /** Cast expressions open around the one being parsed (reset by each parse). */
  exprNesting = 0;

  /**
   * `validate` runs chevrotain's grammar checks (ambiguities, left recursion) as the parser is
   * built; they cost ~60 ms of every Triton-C compile, so the compiler skips them and a test
   * (test/frontend/grammar.test.ts) builds the parser with them. Lookahead functions are built
   * on first use (lazy-lookahead.ts).
   */
  constructor(options: { validate?: boolean } = {}) {
    super(ALL_TOKENS, {
      recoveryEnabled: false,
      maxLookahead: 3,
      lookaheadStrategy: new LazyLookaheadStrategy({ maxLookahead: 3 }),
      errorMessageProvider: MESSAGES,
      skipValidations: !options.validate,
    });
  }

  /** Throws a syntax error at `tok` (EOF: end of input), with an optional note. */
  protected failAt(tok: IToken, message: string, note?: { message: string; tok: IToken }): never {
    const notes = note ? [{ message: note.message, offset: tokenOffset(note.tok) }] : [];
    throw new TcSyntaxError(message, tokenOffset(tok), notes);
  }

  /** Consumes a closing token, or fails with "expected ')'" and a "to match this '('" note. */
  protected expectClose(idx: number, tt: TokenType, open: IToken): IToken {
    if (!this.RECORDING_PHASE && !tokenMatcher(this.LA(1), tt)) {
      this.failAt(this.LA(1), `expected ${tt.LABEL}`, { message: `to match this ${open.tokenType.LABEL}`, tok: open });
    }
    return this.consume(idx, tt);
  }

  /** `__multipleof(8)`, `__readonly`, ... or `__attribute__((multipleof(8), noalias))`. */
  protected attributes = this.RULE('attributes', (): Attr[] => {
    const out: Attr[] = [];
    this.or(0, [
      {
        ALT: () => {
          const kw = this.consume(0, C.AttrKw);
          const arg = this.subrule(0, this.attrArg, { ARGS: [kw] });
          this.ACTION(() => out.push(this.makeAttr(kw, kw.image.slice(2), arg)));
        },
      },
      {
        ALT: () => {
          this.consume(1, T.Attribute);
          const lp1 = this.consume(2, T.LParen, { ERR_MSG: "expected '(' after '__attribute__'" });
          const lp2 = this.consume(3, T.LParen, { ERR_MSG: "expected '(' after '__attribute__('" });
          this.many(0, () => {
            const name = this.consume(4, T.Identifier, { ERR_MSG: 'expected attribute name' });
            const arg = this.subrule(1, this.attrArg, { ARGS: [name] });
            this.ACTION(() => out.push(this.makeAttr(name, name.image, arg)));
            this.option(0, () => this.consume(5, T.Comma));
          });
          this.expectClose(6, T.RParen, lp2);
          this.expectClose(7, T.RParen, lp1);
        },
      },
    ]);
    return out;
  });

  /** The optional `(N)` argument of an attribute; N must be an integer constant. */
  private attrArg = this.RULE('attrArg', (kw?: IToken): { value: number; tok: IToken } | null => {
    let out: { value: number; tok: IToken } | null = null;
    this.option(0, () => {
      const lp = this.consume(0, T.LParen);
      const name = this.RECORDING_PHASE || !kw ? '' : kw.image;
      const n = this.consume(1, T.Int, { ERR_MSG: `'${name}' attribute requires an integer constant` });
      this.expectClose(2, T.RParen, lp);
      this.ACTION(() => {
        const d = decodeInt(n.image);
        if (!d.ok) this.failAt(n, d.message);
        out = { value: Number(d.value.value), tok: n };
      });
    });
    return out;
  });

  private makeAttr(tok: IToken, name: string, arg: { value: number; tok: IToken } | null): Attr {
    const kind = ATTR_NAMES[name];
    if (!kind) this.failAt(tok, `unknown attribute '${tok.image}'`);
    if (ATTR_WITH_ARG.has(kind) && !arg) this.failAt(tok, `'${tok.image}' attribute takes one argument`);
    if (!ATTR_WITH_ARG.has(kind) && arg) this.failAt(arg.tok, `'${tok.image}' attribute takes no arguments`);
    if (arg && arg.value <= 0) this.failAt(arg.tok, `'${tok.image}' attribute requires a positive integer`);
    return { name: kind, arg: arg ? arg.value : null, pos: tok.startOffset };
  }

  /** Type keywords, qualifiers, `__global__` and attributes, in any order. */
  protected declSpecs = this.RULE('declSpecs', (): Specs => {
    const words: IToken[] = [];
    const quals: string[] = [];
    const attrs: Attr[] = [];
    let globalTok: IToken | null = null;
    let first: IToken | null = null;
    this.atLeastOne(0, {
      ERR_MSG: 'expected type specifier',
      DEF: () => {
        this.or(0, [
          { ALT: () => { const t = this.consume(0, C.TypeKw); this.ACTION(() => { words.push(t); first ??= t; }); } },
          { ALT: () => { const t = this.consume(1, C.Qualifier); this.ACTION(() => { quals.push(normQualifier(t.image)); first ??= t; }); } },
          { ALT: () => { const t = this.consume(2, T.Global); this.ACTION(() => { globalTok = t; first ??= t; }); } },
          { ALT: () => { const a = this.subrule(0, this.attributes); this.ACTION(() => attrs.push(...a)); } },
        ]);
      },
    });
    return this.ACTION(() => {
      const next = this.LA(1);
      if (!words.length && next.tokenType === T.Identifier) this.failAt(next, `unknown type name '${next.image}'`);
      if (!words.length) this.failAt(next, 'expected type specifier');
      const scalar = scalarFromKeywords(words.map((w) => w.image));
      if (!scalar.ok) this.failAt(words[0], scalar.message);
      const pos = (first ?? words[0]).startOffset;
      return { type: { scalar: scalar.value, pointers: 0, qualifiers: quals, pos }, globalTok, attrs };
    });
  });

  /** `* const * __restrict__ ...`: pointer levels with their qualifiers and attributes. */
  protected pointers = this.RULE('pointers', (): Pointers => {
    const out: Pointers = { count: 0, quals: [], attrs: [] };
    this.many(0, () => {
      this.consume(0, T.Star);
      this.ACTION(() => out.count++);
      this.many(1, () => {
        this.or(0, [
          { ALT: () => { const q = this.consume(1, C.Qualifier); this.ACTION(() => out.quals.push(normQualifier(q.image))); } },
          { ALT: () => { const a = this.subrule(0, this.attributes); this.ACTION(() => out.attrs.push(...a)); } },
        ]);
      });
    });
    return out;
  });

  /** A tile shape `[TM, TN]` (dimensions are conditional expressions, as in Triton). */
  protected shape = this.RULE('shape', (): Expr[] => {
    const dims: Expr[] = [];
    const lb = this.consume(0, T.LBracket);
    const d0 = this.subrule(0, this.conditional);
    this.ACTION(() => dims.push(d0));
    this.many(0, () => {
      this.consume(1, T.Comma);
      const d = this.subrule(1, this.conditional);
      this.ACTION(() => dims.push(d));
    });
    this.expectClose(2, T.RBracket, lb);
    return dims;
  });

  /** A type name, as in casts: `float`, `int*`, `float[TN]`. */
  protected typeName = this.RULE('typeName', (): { type: TypeSpec; shape: Expr[] | null } => {
    const specs = this.subrule(0, this.declSpecs);
    const ptr = this.subrule(1, this.pointers);
    const shape = this.option(0, () => this.subrule(2, this.shape));
    return this.ACTION(() => {
      const type = { ...specs.type, pointers: ptr.count, qualifiers: [...specs.type.qualifiers, ...ptr.quals] };
      return { type, shape: shape ?? null };
    });
  });

  /** A full expression: assignments joined by C's comma operator (`i++, j++`). */
  protected expression = this.RULE('expression', (): Expr => {
    const first = this.subrule(0, this.assignment);
    const exprs: Expr[] = [first];
    this.many(0, () => {
      this.consume(0, T.Comma);
      const e = this.subrule(1, this.assignment);
      this.ACTION(() => exprs.push(e));
    });
    return this.ACTION((): Expr => (exprs.length === 1 ? first : { kind: 'comma', exprs, pos: first.pos }));
  });

  /** `lhs op= rhs`, right-associative; the target is checked by semantic analysis. */
  protected assignment = this.RULE('assignment', (): Expr => {
    const lhs = this.subrule(0, this.conditional);
    let out = lhs;
    this.option(0, () => {
      const op = this.consume(0, C.AssignOp);
      const rhs = this.subrule(1, this.assignment);
      this.ACTION(() => {
        out = { kind: 'assign', op: op.image as Extract<Expr, { kind: 'assign' }>['op'], target: lhs, value: rhs, pos: lhs.pos, opPos: op.startOffset };
      });
    });
    return out;
  });

  /** `cond ? a : b`. */
  protected conditional = this.RULE('conditional', (): Expr => {
    const cond = this.subrule(0, this.logicalOr);
    let out = cond;
    this.option(0, () => {
      const q = this.consume(0, T.Question);
      const then = this.subrule(1, this.expression);
      this.expectClose(1, T.Colon, q);
      const els = this.subrule(2, this.conditional);
      this.ACTION(() => {
        out = { kind: 'conditional', cond, then, else: els, pos: cond.pos, opPos: q.startOffset };
      });
    });
    return out;
  });

  private binaryRule(name: string, next: () => ParserMethod<[], Expr>, op: TokenType): ParserMethod<[], Expr> {
    return this.RULE(name, (): Expr => {
      let lhs = this.subrule(0, next());
      this.many(0, () => {
        const t = this.consume(0, op);
        const rhs = this.subrule(1, next());
        this.ACTION(() => {
          const l = lhs;
          lhs = t.tokenType === T.Ellipsis
            ? { kind: 'range', lo: l, hi: rhs, pos: l.pos, opPos: t.startOffset }
            : { kind: 'binary', op: t.image as BinaryOp, lhs: l, rhs, pos: l.pos, opPos: t.startOffset };
        });
      });
      return lhs;
    });
  }

  protected logicalOr = this.binaryRule('logicalOr', () => this.logicalAnd, T.OrOr);
  protected logicalAnd = this.binaryRule('logicalAnd', () => this.bitOr, T.AndAnd);
  protected bitOr = this.binaryRule('bitOr', () => this.bitXor, T.Pipe);
  protected bitXor = this.binaryRule('bitXor', () => this.bitAnd, T.Caret);
  protected bitAnd = this.binaryRule('bitAnd', () => this.equality, T.Amp);
  protected equality = this.binaryRule('equality', () => this.relational, C.EqualityOp);
  protected relational = this.binaryRule('relational', () => this.shift, C.RelationalOp);
  protected shift = this.binaryRule('shift', () => this.additive, C.ShiftOp);
  protected additive = this.binaryRule('additive', () => this.multiplicative, C.AdditiveOp);
  protected multiplicative = this.binaryRule('multiplicative', () => this.matmul, C.MultiplicativeOp);
  /** `a @ b`: tighter than `*`, looser than `...` (original Triton's ParseMatmulExpr). */
  protected matmul = this.binaryRule('matmul', () => this.range, T.At);
  /** `lo ... hi`: operands are cast expressions (original Triton's ParseRangeExpr). */
  protected range = this.binaryRule('range', () => this.cast, T.Ellipsis);

  /**
   * A cast expression, counted: every way an expression nests (parentheses, casts, prefix
   * operators, subscripts) passes here, so nesting past MAX_EXPR_NESTING is a located error rather
   * than a stack overflow (a parenthesis costs every precedence level's frames).
   */
  protected cast = this.RULE('cast', (): Expr => {
    this.ACTION(() => {
      if (++this.exprNesting > MAX_EXPR_NESTING) this.failAt(this.LA(1), `expression nested deeper than ${MAX_EXPR_NESTING} levels (parentheses, casts, prefix operators)`);
    });
    const e = this.subrule(0, this.castBody);
    this.ACTION(() => this.exprNesting--);
    return e;
  });

  /** `(type) x`, `(float[TN]) x`, or a unary expression. */
  private castBody = this.RULE('castBody', (): Expr => this.or(0, {
    ERR_MSG: EXPR_ERR,
    DEF: [
      {
        ALT: () => {
          const lp = this.consume(0, T.LParen);
          const tn = this.subrule(0, this.typeName);
          this.expectClose(1, T.RParen, lp);
          const operand = this.subrule(1, this.cast);
          return this.ACTION((): Expr => ({ kind: 'cast', type: tn.type, shape: tn.shape, operand, pos: lp.startOffset }));
        },
      },
      { ALT: () => this.subrule(2, this.unary) },
    ],
  }));

  /** Prefix operators: `++x`, `-x`, `!x`, `~x`, `&x`, `^x` (transpose), `*p`, `*?(mask) p`. */
  protected unary = this.RULE('unary', (): Expr => this.or(0, {
    ERR_MSG: EXPR_ERR,
    DEF: [
      {
        ALT: () => {
          const t = this.consume(0, C.IncDec);
          const target = this.subrule(0, this.unary);
          return this.ACTION((): Expr => ({ kind: 'incdec', op: t.image as '++' | '--', prefix: true, target, pos: t.startOffset }));
        },
      },
      {
        ALT: () => {
          const t = this.consume(1, C.UnaryOp);
          const operand = this.subrule(1, this.cast);
          return this.ACTION((): Expr => {
            const op = t.image === '&' ? 'addr' : (t.image as '-' | '+' | '!' | '~');
            return { kind: 'unary', op, operand, pos: t.startOffset };
          });
        },
      },
      {
        ALT: () => {
          const t = this.consume(2, T.Caret);
          const operand = this.subrule(2, this.cast);
          return this.ACTION((): Expr => ({ kind: 'unary', op: 'transpose', operand, pos: t.startOffset }));
        },
      },
      {
        ALT: () => {
          const star = this.consume(3, T.Star);
          this.consume(4, T.Question);
          const lp = this.consume(5, T.LParen, { ERR_MSG: "expected '(' after '*?'" });
          const mask = this.subrule(3, this.expression);
          this.expectClose(6, T.RParen, lp);
          const ptr = this.subrule(4, this.cast);
          return this.ACTION((): Expr => ({ kind: 'masked-deref', mask, ptr, pos: star.startOffset }));
        },
      },
      {
        ALT: () => {
          const star = this.consume(7, T.Star);
          const operand = this.subrule(5, this.cast);
          return this.ACTION((): Expr => ({ kind: 'unary', op: 'deref', operand, pos: star.startOffset }));
        },
      },
      { ALT: () => this.subrule(6, this.postfix) },
    ],
  }));

  /** Subscripts `x[:, newaxis]`, calls `f(a, b)`, `x++`, `x--`. */
  protected postfix = this.RULE('postfix', (): Expr => {
    let base = this.subrule(0, this.primary);
    this.many(0, () => {
      this.or(0, [
        {
          ALT: () => {
            const items = this.subrule(1, this.subscript);
            this.ACTION(() => { base = { kind: 'subscript', base, items, pos: base.pos }; });
          },
        },
        {
          ALT: () => {
            const lp = this.consume(0, T.LParen);
            const args: Expr[] = [];
            this.option(0, () => {
              const a0 = this.subrule(2, this.assignment);
              this.ACTION(() => args.push(a0));
              this.many(1, () => {
                this.consume(1, T.Comma);
                const a = this.subrule(3, this.assignment);
                this.ACTION(() => args.push(a));
              });
            });
            this.expectClose(2, T.RParen, lp);
            this.ACTION(() => {
              if (base.kind !== 'ident') this.failAt(lp, 'called object is not a function');
              base = { kind: 'call', callee: base.name, args, pos: base.pos };
            });
          },
        },
        {
          ALT: () => {
            const t = this.consume(3, C.IncDec);
            this.ACTION(() => { base = { kind: 'incdec', op: t.image as '++' | '--', prefix: false, target: base, pos: base.pos }; });
          },
        },
      ]);
    });
    return base;
  });

  /** `[item, item, ...]`. */
  private subscript = this.RULE('subscript', (): SubscriptItem[] => {
    const items: SubscriptItem[] = [];
    const lb = this.consume(0, T.LBracket);
    const i0 = this.subrule(0, this.subscriptItem);
    this.ACTION(() => items.push(i0));
    this.many(0, () => {
      this.consume(1, T.Comma);
      const i = this.subrule(1, this.subscriptItem);
      this.ACTION(() => items.push(i));
    });
    this.expectClose(2, T.RBracket, lb);
    return items;
  });

  private endsItem(k: number): boolean {
    const t = this.LA(k).tokenType;
    return t === T.Comma || t === T.RBracket;
  }

  /** `:`, `newaxis`, a reduction (`+`, `max`, `min` alone in its slot) or an index expression. */
  private subscriptItem = this.RULE('subscriptItem', (): SubscriptItem => this.or(0, {
    ERR_MSG: EXPR_ERR,
    IGNORE_AMBIGUITIES: true,
    DEF: [
      { ALT: () => { const t = this.consume(0, T.Colon); return this.ACTION((): SubscriptItem => ({ kind: 'all', pos: t.startOffset })); } },
      { ALT: () => { const t = this.consume(1, T.Newaxis); return this.ACTION((): SubscriptItem => ({ kind: 'newaxis', pos: t.startOffset })); } },
      {
        GATE: () => this.endsItem(2),
        ALT: () => { const t = this.consume(2, T.Plus); return this.ACTION((): SubscriptItem => ({ kind: 'reduce', op: '+', pos: t.startOffset })); },
      },
      {
        GATE: () => (this.LA(1).image === 'max' || this.LA(1).image === 'min') && this.endsItem(2),
        ALT: () => {
          const t = this.consume(3, T.Identifier);
          return this.ACTION((): SubscriptItem => ({ kind: 'reduce', op: t.image as 'max' | 'min', pos: t.startOffset }));
        },
      },
      {
        ALT: () => {
          const e = this.subrule(0, this.conditional);
          return this.ACTION((): SubscriptItem => {
            if (e.kind === 'unary' && e.op === 'transpose' && e.operand.kind === 'int') {
              throw new TcSyntaxError('axis permutations in subscripts (x[^1, ^0]) are not supported; use the prefix ^x', e.pos);
            }
            return { kind: 'index', expr: e, pos: e.pos };
          });
        },
      },
    ],
  }));

  /** Names, literals, `( expr )` and `bitcast<T>(expr)`. */
  protected primary = this.RULE('primary', (): Expr => this.or(0, {
    ERR_MSG: EXPR_ERR,
    DEF: [
      { ALT: () => { const t = this.consume(0, T.Identifier); return this.ACTION((): Expr => ({ kind: 'ident', name: t.image, pos: t.startOffset })); } },
      {
        ALT: () => {
          const t = this.consume(1, T.Int);
          return this.ACTION((): Expr => {
            const d = decodeInt(t.image);
            if (!d.ok) this.failAt(t, d.message);
            return { kind: 'int', value: d.value.value, suffix: d.value.suffix, pos: t.startOffset };
          });
        },
      },
      {
        ALT: () => {
          const t = this.consume(2, T.Float);
          return this.ACTION((): Expr => {
            const d = decodeFloat(t.image);
            if (!d.ok) this.failAt(t, d.message);
            return { kind: 'float', value: d.value.value, suffix: d.value.suffix, pos: t.startOffset };
          });
        },
      },
      {
        ALT: () => {
          const t = this.consume(3, T.Char);
          return this.ACTION((): Expr => {
            const d = decodeChar(t.image);
            if (!d.ok) this.failAt(t, d.message);
            return { kind: 'int', value: d.value, suffix: '', pos: t.startOffset };
          });
        },
      },
      {
        ALT: () => {
          const lp = this.consume(4, T.LParen);
          const e = this.subrule(0, this.expression);
          this.expectClose(5, T.RParen, lp);
          return e;
        },
      },
      {
        ALT: () => {
          const kw = this.consume(6, T.Bitcast);
          const lt = this.consume(7, T.Lt, { ERR_MSG: "expected '<' after 'bitcast'" });
          const tn = this.subrule(1, this.typeName);
          this.expectClose(8, T.Gt, lt);
          const lp = this.consume(9, T.LParen, { ERR_MSG: "expected '(' after 'bitcast<...>'" });
          const operand = this.subrule(2, this.expression);
          this.expectClose(10, T.RParen, lp);
          return this.ACTION((): Expr => ({ kind: 'bitcast', type: tn.type, shape: tn.shape, operand, pos: kw.startOffset }));
        },
      },
    ],
  }));
}
