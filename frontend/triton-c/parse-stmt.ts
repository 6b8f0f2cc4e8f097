/**
 * Triton-C grammar, part 2: declarations (tile declarators `TYPE* pa[TM, TK] = ...`, several
 * declarators, attributes), statements, function definitions and the translation unit.
 */
import type { Attr, Declarator, Expr, FunctionDef, Param, Program, Stmt, TypeSpec } from './ast.js';
import { T, VoidKw, type IToken } from './lexer.js';
import { describeTopLevelJunk, TcSyntaxError, tokenOffset } from './parse-diag.js';
import { EXPR_ERR, startsExpression, startsSpecs, TcExprParser, type Pointers } from './parse-expr.js';

type Block = Extract<Stmt, { kind: 'block' }>;

/** The deepest statements may nest (blocks, if/else chains, loops), as a located error past it. */
export const MAX_STATEMENT_NESTING = 128;

/** One parsed declarator with the pointer levels written before its name. */
interface RawDeclarator {
  decl: Declarator;
  ptr: Pointers;
  nameTok: IToken;
}

/** Keywords that start a statement of their own. */
const STATEMENT_KEYWORDS = new Set([T.If, T.For, T.While, T.Do, T.Break, T.Continue, T.Return]);

/** Whether `t` can start a statement. */
function startsStatement(t: IToken): boolean {
  const k = t.tokenType;
  return k === T.LBrace || k === T.Semi || STATEMENT_KEYWORDS.has(k) || startsSpecs(t) || startsExpression(t);
}

/** The complete Triton-C parser; `translationUnit` is the entry point. */
export class TcParser extends TcExprParser {
  /** Statements open around the one being parsed (reset by each parse). */
  stmtNesting = 0;

  /** Parses `tokens` as a whole file: function definitions (stray `;` allowed). */
  translationUnit(tokens: IToken[]): Program {
    this.input = tokens;
    this.pos = 0;
    this.exprNesting = 0;
    this.stmtNesting = 0;
    const functions: FunctionDef[] = [];
    for (;;) {
      const t = this.LA(1);
      if (t.tokenType === T.Semi) this.next();
      else if (startsSpecs(t)) functions.push(this.functionDef());
      else if (t.tokenType === T.EOF) return { functions };
      else throw new TcSyntaxError(describeTopLevelJunk(t), tokenOffset(t));
    }
  }

  /** `pointers name attrs [shape] attrs (= init)?`. */
  private initDeclarator(): RawDeclarator {
    const ptr = this.pointers();
    const nameTok = this.consume(T.Identifier, 'expected identifier');
    const attrs: Attr[] = [];
    while (this.atAttributes()) attrs.push(...this.attributes());
    const shape = this.at(T.LBracket) ? this.shape() : null;
    while (this.atAttributes()) attrs.push(...this.attributes());
    let init: Expr | null = null;
    if (this.at(T.Assign)) {
      this.next();
      init = this.assignment();
    }
    return { decl: { name: nameTok.image, shape, init, attrs: [...ptr.attrs, ...attrs], pos: nameTok.startOffset }, ptr, nameTok };
  }

  /** `specs declarator, declarator, ... ;`. */
  protected declaration(): Stmt {
    const specs = this.declSpecs();
    const raws = this.commaList(() => this.initDeclarator());
    this.consume(T.Semi, "expected ';' after declaration");
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
  }

  /** `{ stmt* }`; at end of input: "expected '}'" with a note on the `{`. */
  protected block(): Block {
    const lb = this.consume(T.LBrace);
    const stmts: Stmt[] = [];
    while (startsStatement(this.LA(1))) stmts.push(this.statement());
    const la = this.LA(1);
    if (la.tokenType === T.EOF) this.failAt(la, "expected '}'", { message: "to match this '{'", tok: lb });
    if (la.tokenType !== T.RBrace) this.failAt(la, EXPR_ERR);
    this.next();
    return { kind: 'block', stmts, pos: lb.startOffset };
  }

  /** Any statement; nesting deeper than MAX_STATEMENT_NESTING is a located error, not a stack overflow. */
  protected statement(): Stmt {
    if (++this.stmtNesting > MAX_STATEMENT_NESTING) this.failAt(this.LA(1), `statements nested deeper than ${MAX_STATEMENT_NESTING} levels`);
    const s = this.statementBody();
    this.stmtNesting--;
    return s;
  }

  private statementBody(): Stmt {
    const t = this.LA(1);
    switch (t.tokenType) {
      case T.LBrace:
        return this.block();
      case T.If:
        return this.ifStmt();
      case T.For:
        return this.forStmt();
      case T.While:
        return this.whileStmt();
      case T.Do:
        return this.doStmt();
      case T.Break:
      case T.Continue:
      case T.Return:
        return this.jumpStmt();
      case T.Semi:
        this.next();
        return { kind: 'empty', pos: t.startOffset };
    }
    if (startsSpecs(t)) return this.declaration();
    if (startsExpression(t)) return this.exprStmt();
    this.failAt(t, EXPR_ERR);
  }

  /**
   * `expr ;`. A statement starting `X y` or `X* y =` / `X* y[` / `X* y;` / `X* y,` (X not a
   * type keyword) cannot be a useful expression: it is a declaration with an unknown type
   * (typically an undefined macro such as `TYPE`), reported as such.
   */
  private exprStmt(): Stmt {
    const a = this.LA(1);
    if (a.tokenType === T.Identifier && (this.LA(2).tokenType === T.Identifier || looksLikePointerDecl(this.LA(2), this.LA(3), this.LA(4)))) {
      this.failAt(a, `unknown type name '${a.image}'`);
    }
    const e = this.expression();
    this.consume(T.Semi, "expected ';' after expression");
    return { kind: 'expr', expr: e, pos: e.pos };
  }

  /** `( expr )` after `if` or `while`. */
  private parenCond(after: string): Expr {
    const lp = this.consume(T.LParen, `expected '(' after '${after}'`);
    const cond = this.expression();
    this.expectClose(T.RParen, lp);
    return cond;
  }

  /** `if (cond) stmt (else stmt)?`: `else` binds to the nearest `if`. */
  private ifStmt(): Stmt {
    const t = this.consume(T.If);
    const cond = this.parenCond('if');
    const then = this.statement();
    let els: Stmt | null = null;
    if (this.at(T.Else)) {
      this.next();
      els = this.statement();
    }
    return { kind: 'if', cond, then, else: els, pos: t.startOffset };
  }

  /** `while (cond) stmt`. */
  private whileStmt(): Stmt {
    const t = this.consume(T.While);
    const cond = this.parenCond('while');
    const body = this.statement();
    return { kind: 'while', cond, body, pos: t.startOffset };
  }

  /** `do stmt while (cond);`. */
  private doStmt(): Stmt {
    const t = this.consume(T.Do);
    const body = this.statement();
    this.consume(T.While, "expected 'while' in do/while loop");
    const cond = this.parenCond('while');
    this.consume(T.Semi, "expected ';' after do/while statement");
    return { kind: 'do', body, cond, pos: t.startOffset };
  }

  /** `for (init; cond; step) stmt`; init is a declaration, an expression or empty. */
  private forStmt(): Stmt {
    const t = this.consume(T.For);
    const lp = this.consume(T.LParen, "expected '(' after 'for'");
    let init: Stmt | null = null;
    if (startsSpecs(this.LA(1))) init = this.declaration();
    else if (this.at(T.Semi)) this.next();
    else if (startsExpression(this.LA(1))) {
      const e = this.expression();
      this.consume(T.Semi, "expected ';' in 'for' statement specifier");
      init = { kind: 'expr', expr: e, pos: e.pos };
    } else this.failAt(this.LA(1), EXPR_ERR);
    const cond = startsExpression(this.LA(1)) ? this.expression() : null;
    this.consume(T.Semi, "expected ';' in 'for' statement specifier");
    const step = startsExpression(this.LA(1)) ? this.expression() : null;
    this.expectClose(T.RParen, lp);
    const body = this.statement();
    return { kind: 'for', init, cond, step, body, pos: t.startOffset };
  }

  /** `break;`, `continue;`, `return expr?;`. */
  private jumpStmt(): Stmt {
    const t = this.next();
    if (t.tokenType === T.Break) {
      this.consume(T.Semi, "expected ';' after break statement");
      return { kind: 'break', pos: t.startOffset };
    }
    if (t.tokenType === T.Continue) {
      this.consume(T.Semi, "expected ';' after continue statement");
      return { kind: 'continue', pos: t.startOffset };
    }
    const value = startsExpression(this.LA(1)) ? this.expression() : null;
    this.consume(T.Semi, "expected ';' after return statement");
    return { kind: 'return', value, pos: t.startOffset };
  }

  /** `specs pointers name attrs`. */
  private param(): Param {
    const specs = this.declSpecs();
    const ptr = this.pointers();
    const la = this.LA(1);
    if (la.tokenType === T.Comma || la.tokenType === T.RParen) this.failAt(la, 'parameter name omitted');
    const name = this.consume(T.Identifier, 'expected identifier');
    const attrs: Attr[] = [];
    while (this.atAttributes()) attrs.push(...this.attributes());
    if (specs.globalTok) this.failAt(specs.globalTok, "'__global__' only applies to functions");
    if (this.at(T.LBracket)) this.failAt(this.LA(1), 'tile parameters are not supported; pass a pointer');
    const type: TypeSpec = { ...specs.type, pointers: ptr.count, qualifiers: [...specs.type.qualifiers, ...ptr.quals] };
    return { name: name.image, type, attrs: [...specs.attrs, ...ptr.attrs, ...attrs], pos: specs.type.pos };
  }

  /** `(void)`, `()` or `(param, param, ...)` (without the parentheses). */
  private paramList(): Param[] {
    // A parameter list cannot start with a plain identifier: it is a type name we do not know.
    const a = this.LA(1);
    if (a.tokenType === T.Identifier) this.failAt(a, `unknown type name '${a.image}'`);
    if (!startsSpecs(a)) return [];
    if (a.tokenType === VoidKw && this.LA(2).tokenType === T.RParen) {
      this.next();
      return [];
    }
    return this.commaList(() => this.param());
  }

  /** `__global__ void name(params) { ... }`. */
  private functionDef(): FunctionDef {
    const specs = this.declSpecs();
    const ptr = this.pointers();
    const name = this.consume(T.Identifier, "expected identifier or '('");
    const after = this.LA(1).tokenType;
    if (after === T.Assign || after === T.Semi || after === T.LBracket || after === T.Comma) {
      this.failAt(name, 'global variables are not supported in Triton-C');
    }
    const lp = this.consume(T.LParen, "expected '(' after function name");
    const params = this.paramList();
    this.expectClose(T.RParen, lp);
    const la = this.LA(1);
    if (la.tokenType === T.Semi) this.failAt(la, 'function declarations without a body are not supported');
    if (la.tokenType !== T.LBrace) this.failAt(la, 'expected function body after function declarator');
    const body = this.block();
    const returnType: TypeSpec = { ...specs.type, pointers: ptr.count, qualifiers: [...specs.type.qualifiers, ...ptr.quals] };
    return { kind: 'function', name: name.image, returnType, params, body, global: specs.globalTok !== null, pos: specs.type.pos };
  }
}

const DECL_FOLLOW = new Set([T.Assign, T.LBracket, T.Semi, T.Comma]);

/** `* name =`, `* name [`, `* name ;`, `* name ,` (after an identifier at statement start). */
function looksLikePointerDecl(star: IToken, name: IToken, next: IToken): boolean {
  return star.tokenType === T.Star && name.tokenType === T.Identifier && DECL_FOLLOW.has(next.tokenType);
}
