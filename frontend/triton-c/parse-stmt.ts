/**
 * Triton-C grammar, part 2: declarations (tile declarators `TYPE* pa[TM, TK] = ...`, several
 * declarators, attributes), statements, function definitions and the translation unit.
 */
import type { IToken } from 'chevrotain';
import type { Attr, Declarator, Expr, FunctionDef, Param, Program, Stmt, TypeSpec } from './ast.js';
import { T, VoidKw } from './lexer.js';
import { EXPR_ERR, TcExprParser, type Pointers } from './parse-expr.js';

type Block = Extract<Stmt, { kind: 'block' }>;

/** The deepest statements may nest (blocks, if/else chains, loops), as a located error past it. */
export const MAX_STATEMENT_NESTING = 128;

/** One parsed declarator with the pointer levels written before its name. */
interface RawDeclarator {
  decl: Declarator;
  ptr: Pointers;
  nameTok: IToken;
}

/** The complete Triton-C parser; `translationUnit` is the entry rule. */
export class TcParser extends TcExprParser {
  /** `validate`: run chevrotain's grammar checks while building (see `TcExprParser`). */
  constructor(options: { validate?: boolean } = {}) {
    super(options);
    this.performSelfAnalysis();
  }

  /** `pointers name attrs [shape] attrs (= init)?`. */
  private initDeclarator = this.RULE('initDeclarator', (): RawDeclarator => {
    const ptr = this.subrule(0, this.pointers);
    const nameTok = this.consume(0, T.Identifier, { ERR_MSG: 'expected identifier' });
    const attrs: Attr[] = [];
    this.many(0, () => { const a = this.subrule(1, this.attributes); this.ACTION(() => attrs.push(...a)); });
    const shape = this.option(0, () => this.subrule(2, this.shape));
    this.many(1, () => { const a = this.subrule(3, this.attributes); this.ACTION(() => attrs.push(...a)); });
    const init = this.option(1, () => {
      this.consume(1, T.Assign);
      return this.subrule(4, this.assignment);
    });
    return this.ACTION(() => ({
      decl: { name: nameTok.image, shape: shape ?? null, init: init ?? null, attrs: [...ptr.attrs, ...attrs], pos: nameTok.startOffset },
      ptr,
      nameTok,
    }));
  });

  /** `specs declarator, declarator, ... ;`. */
  protected declaration = this.RULE('declaration', (): Stmt => {
    const specs = this.subrule(0, this.declSpecs);
    const raws: RawDeclarator[] = [];
    const d0 = this.subrule(1, this.initDeclarator);
    this.ACTION(() => raws.push(d0));
    this.many(0, () => {
      this.consume(0, T.Comma);
      const d = this.subrule(2, this.initDeclarator);
      this.ACTION(() => raws.push(d));
    });
    this.consume(1, T.Semi, { ERR_MSG: "expected ';' after declaration" });
    return this.ACTION((): Stmt => {
      if (specs.globalTok) this.failAt(specs.globalTok, "'__global__' only applies to functions");
      const first = raws[0].ptr;
      for (const r of raws) {
        if (r.ptr.count !== first.count) {
          this.failAt(r.nameTok, 'declarators with different pointer levels in one declaration are not supported');
        }
      }
      const type: TypeSpec = { ...specs.type, pointers: first.count, qualifiers: [...specs.type.qualifiers, ...first.quals] };
      const declarators = raws.map((r) => ({ ...r.decl, attrs: [...specs.attrs, ...r.decl.attrs] }));
      return { kind: 'decl', type, declarators, pos: specs.type.pos };
    });
  });

  /** `{ stmt* }`; at end of input: "expected '}'" with a note on the `{`. */
  protected block = this.RULE('block', (): Block => {
    const lb = this.consume(0, T.LBrace);
    const stmts: Stmt[] = [];
    this.many(0, () => { const s = this.subrule(0, this.statement); this.ACTION(() => stmts.push(s)); });
    this.ACTION(() => {
      const la = this.LA(1);
      if (la.tokenType === T.RBrace) return;
      if (la.tokenType.name === 'EOF') this.failAt(la, "expected '}'", { message: "to match this '{'", tok: lb });
      this.failAt(la, EXPR_ERR);
    });
    this.consume(1, T.RBrace);
    return this.ACTION((): Block => ({ kind: 'block', stmts, pos: lb.startOffset }));
  });

  /** Statements open around the one being parsed (reset by each parse). */
  stmtNesting = 0;

  /** Any statement; nesting deeper than MAX_STATEMENT_NESTING is a located error, not a stack overflow. */
  protected statement = this.RULE('statement', (): Stmt => {
    this.ACTION(() => {
      if (++this.stmtNesting > MAX_STATEMENT_NESTING) this.failAt(this.LA(1), `statements nested deeper than ${MAX_STATEMENT_NESTING} levels`);
    });
    const s = this.subrule(0, this.statementBody);
    this.ACTION(() => this.stmtNesting--);
    return s;
  });

  private statementBody = this.RULE('statementBody', (): Stmt => this.or(0, {
    ERR_MSG: EXPR_ERR,
    DEF: [
      { ALT: () => this.subrule(0, this.block) },
      { ALT: () => this.subrule(1, this.ifStmt) },
      { ALT: () => this.subrule(2, this.forStmt) },
      { ALT: () => this.subrule(3, this.whileStmt) },
      { ALT: () => this.subrule(4, this.doStmt) },
      { ALT: () => this.subrule(5, this.jumpStmt) },
      { ALT: () => { const t = this.consume(0, T.Semi); return this.ACTION((): Stmt => ({ kind: 'empty', pos: t.startOffset })); } },
      { ALT: () => this.subrule(6, this.declaration) },
      { ALT: () => this.subrule(7, this.exprStmt) },
    ],
  }));

  /**
   * `expr ;`. A statement starting `X y` or `X* y =` / `X* y[` / `X* y;` / `X* y,` (X not a
   * type keyword) cannot be a useful expression: it is a declaration with an unknown type
   * (typically an undefined macro such as `TYPE`), reported as such.
   */
  private exprStmt = this.RULE('exprStmt', (): Stmt => {
    this.ACTION(() => {
      const a = this.LA(1);
      if (a.tokenType !== T.Identifier) return;
      if (this.LA(2).tokenType === T.Identifier || looksLikePointerDecl(this.LA(2), this.LA(3), this.LA(4))) {
        this.failAt(a, `unknown type name '${a.image}'`);
      }
    });
    const e = this.subrule(0, this.expression);
    this.consume(0, T.Semi, { ERR_MSG: "expected ';' after expression" });
    return this.ACTION((): Stmt => ({ kind: 'expr', expr: e, pos: e.pos }));
  });

  private parenCond(idx: number, after: string): Expr {
    const lp = this.consume(idx, T.LParen, { ERR_MSG: `expected '(' after '${after}'` });
    const cond = this.subrule(idx, this.expression);
    this.expectClose(idx + 1, T.RParen, lp);
    return cond;
  }

  /** `if (cond) stmt (else stmt)?`: `else` binds to the nearest `if`. */
  private ifStmt = this.RULE('ifStmt', (): Stmt => {
    const t = this.consume(0, T.If);
    const cond = this.parenCond(1, 'if');
    const then = this.subrule(10, this.statement);
    const els = this.option(0, () => {
      this.consume(3, T.Else);
      return this.subrule(11, this.statement);
    });
    return this.ACTION((): Stmt => ({ kind: 'if', cond, then, else: els ?? null, pos: t.startOffset }));
  });

  /** `while (cond) stmt`. */
  private whileStmt = this.RULE('whileStmt', (): Stmt => {
    const t = this.consume(0, T.While);
    const cond = this.parenCond(1, 'while');
    const body = this.subrule(10, this.statement);
    return this.ACTION((): Stmt => ({ kind: 'while', cond, body, pos: t.startOffset }));
  });

  /** `do stmt while (cond);`. */
  private doStmt = this.RULE('doStmt', (): Stmt => {
    const t = this.consume(0, T.Do);
    const body = this.subrule(10, this.statement);
    this.consume(5, T.While, { ERR_MSG: "expected 'while' in do/while loop" });
    const cond = this.parenCond(1, 'while');
    this.consume(6, T.Semi, { ERR_MSG: "expected ';' after do/while statement" });
    return this.ACTION((): Stmt => ({ kind: 'do', body, cond, pos: t.startOffset }));
  });

  /** `for (init; cond; step) stmt`; init is a declaration, an expression or empty. */
  private forStmt = this.RULE('forStmt', (): Stmt => {
    const t = this.consume(0, T.For);
    const lp = this.consume(1, T.LParen, { ERR_MSG: "expected '(' after 'for'" });
    const init = this.or(0, {
      ERR_MSG: EXPR_ERR,
      DEF: [
        { ALT: () => this.subrule(0, this.declaration) },
        { ALT: () => { this.consume(2, T.Semi); return null; } },
        {
          ALT: () => {
            const e = this.subrule(1, this.expression);
            this.consume(3, T.Semi, { ERR_MSG: "expected ';' in 'for' statement specifier" });
            return this.ACTION((): Stmt => ({ kind: 'expr', expr: e, pos: e.pos }));
          },
        },
      ],
    });
    const cond = this.option(0, () => this.subrule(2, this.expression));
    this.consume(4, T.Semi, { ERR_MSG: "expected ';' in 'for' statement specifier" });
    const step = this.option(1, () => this.subrule(3, this.expression));
    this.expectClose(5, T.RParen, lp);
    const body = this.subrule(10, this.statement);
    return this.ACTION((): Stmt => ({ kind: 'for', init: init ?? null, cond: cond ?? null, step: step ?? null, body, pos: t.startOffset }));
  });

  /** `break;`, `continue;`, `return expr?;`. */
  private jumpStmt = this.RULE('jumpStmt', (): Stmt => this.or(0, [
    {
      ALT: () => {
        const t = this.consume(0, T.Break);
        this.consume(1, T.Semi, { ERR_MSG: "expected ';' after break statement" });
        return this.ACTION((): Stmt => ({ kind: 'break', pos: t.startOffset }));
      },
    },
    {
      ALT: () => {
        const t = this.consume(2, T.Continue);
        this.consume(3, T.Semi, { ERR_MSG: "expected ';' after continue statement" });
        return this.ACTION((): Stmt => ({ kind: 'continue', pos: t.startOffset }));
      },
    },
    {
      ALT: () => {
        const t = this.consume(4, T.Return);
        const value = this.option(0, () => this.subrule(0, this.expression));
        this.consume(5, T.Semi, { ERR_MSG: "expected ';' after return statement" });
        return this.ACTION((): Stmt => ({ kind: 'return', value: value ?? null, pos: t.startOffset }));
      },
    },
  ]));

  /** `specs pointers name attrs`. */
  private param = this.RULE('param', (): Param => {
    const specs = this.subrule(0, this.declSpecs);
    const ptr = this.subrule(1, this.pointers);
    this.ACTION(() => {
      const la = this.LA(1);
      if (la.tokenType === T.Comma || la.tokenType === T.RParen) this.failAt(la, 'parameter name omitted');
    });
    const name = this.consume(0, T.Identifier, { ERR_MSG: 'expected identifier' });
    const attrs: Attr[] = [];
    this.many(0, () => { const a = this.subrule(2, this.attributes); this.ACTION(() => attrs.push(...a)); });
    return this.ACTION((): Param => {
      if (specs.globalTok) this.failAt(specs.globalTok, "'__global__' only applies to functions");
      if (this.LA(1).tokenType === T.LBracket) this.failAt(this.LA(1), 'tile parameters are not supported; pass a pointer');
      const type: TypeSpec = { ...specs.type, pointers: ptr.count, qualifiers: [...specs.type.qualifiers, ...ptr.quals] };
      return { name: name.image, type, attrs: [...specs.attrs, ...ptr.attrs, ...attrs], pos: specs.type.pos };
    });
  });

  /** `(void)`, `()` or `(param, param, ...)`. */
  private paramList = this.RULE('paramList', (): Param[] => {
    const params: Param[] = [];
    // A parameter list cannot start with a plain identifier: it is a type name we do not know.
    this.ACTION(() => {
      const a = this.LA(1);
      if (a.tokenType === T.Identifier) this.failAt(a, `unknown type name '${a.image}'`);
    });
    // One token of lookahead, so that `f(int)` reaches `param` and its "parameter name omitted".
    this.option(0, {
      MAX_LOOKAHEAD: 1,
      DEF: () => {
        this.or(0, {
          MAX_LOOKAHEAD: 1,
          IGNORE_AMBIGUITIES: true,
          DEF: [
            { GATE: () => this.LA(2).tokenType === T.RParen, ALT: () => { this.consume(0, VoidKw); } },
            {
              ALT: () => {
                const p0 = this.subrule(0, this.param);
                this.ACTION(() => params.push(p0));
                this.many(0, () => {
                  this.consume(1, T.Comma);
                  const p = this.subrule(1, this.param);
                  this.ACTION(() => params.push(p));
                });
              },
            },
          ],
        });
      },
    });
    return params;
  });

  /** `__global__ void name(params) { ... }`. */
  private functionDef = this.RULE('functionDef', (): FunctionDef => {
    const specs = this.subrule(0, this.declSpecs);
    const ptr = this.subrule(1, this.pointers);
    const name = this.consume(0, T.Identifier, { ERR_MSG: "expected identifier or '('" });
    this.ACTION(() => {
      const la = this.LA(1).tokenType;
      if (la === T.Assign || la === T.Semi || la === T.LBracket || la === T.Comma) {
        this.failAt(name, 'global variables are not supported in Triton-C');
      }
    });
    const lp = this.consume(1, T.LParen, { ERR_MSG: "expected '(' after function name" });
    const params = this.subrule(2, this.paramList);
    this.expectClose(2, T.RParen, lp);
    this.ACTION(() => {
      const la = this.LA(1);
      if (la.tokenType === T.Semi) this.failAt(la, 'function declarations without a body are not supported');
      if (la.tokenType !== T.LBrace) this.failAt(la, 'expected function body after function declarator');
    });
    const body = this.subrule(3, this.block);
    return this.ACTION((): FunctionDef => {
      const returnType: TypeSpec = { ...specs.type, pointers: ptr.count, qualifiers: [...specs.type.qualifiers, ...ptr.quals] };
      return { kind: 'function', name: name.image, returnType, params, body, global: specs.globalTok !== null, pos: specs.type.pos };
    });
  });

  /** The whole file: function definitions (stray `;` allowed). */
  translationUnit = this.RULE('translationUnit', (): Program => {
    const functions: FunctionDef[] = [];
    this.many(0, () => {
      this.or(0, [
        { ALT: () => { this.consume(0, T.Semi); } },
        { ALT: () => { const f = this.subrule(0, this.functionDef); this.ACTION(() => functions.push(f)); } },
      ]);
    });
    return { functions };
  });
}

const DECL_FOLLOW = new Set(['Assign', 'LBracket', 'Semi', 'Comma']);

/** `* name =`, `* name [`, `* name ;`, `* name ,` (after an identifier at statement start). */
function looksLikePointerDecl(star: IToken, name: IToken, next: IToken): boolean {
  return star.tokenType === T.Star && name.tokenType === T.Identifier && DECL_FOLLOW.has(next.tokenType.name);
}
