/**
 * Triton-C parser entry point: preprocessed text in, `Program` AST out (see ast.ts).
 * Syntax errors are `DiagnosticError`s with C-style messages (`expected ';' after declaration`)
 * located in the original source when the preprocessor's source map is given.
 *
 * The grammar is split over parse-expr.ts (types, attributes, expressions; the operator
 * precedence decisions are documented there) and parse-stmt.ts (declarations, statements,
 * functions); lexer.ts has the tokens.
 */
import { MismatchedTokenException, type IRecognitionException } from 'chevrotain';
import type { DiagnosticError } from '../../ir/diagnostics.js';
import type { Program } from './ast.js';
import { tokenizeTritonC } from './lexer.js';
import { lastCharOf, TcSyntaxError, toDiagnosticError, tokenOffset, type DiagContext, type Locator } from './parse-diag.js';
import { TcParser } from './parse-stmt.js';

export type { Locator, OriginalLocation } from './parse-diag.js';

/** Extra options of `parseTritonC`. */
export interface ParseOptions {
  /** The original text of a file named by `locate`, so diagnostics can show its source line. */
  sourceText?: (file: string) => string | undefined;
}

let parser: TcParser | null = null;

/**
 * Parses preprocessed Triton-C. `fileName` names the text in diagnostics when `locate` is not
 * given; `locate` (the preprocessor's source map) maps offsets back to original locations.
 * Throws a `DiagnosticError` on the first syntax error.
 */
export function parseTritonC(text: string, fileName: string, locate?: Locator, options: ParseOptions = {}): Program {
  const { tokens, error } = tokenizeTritonC(text);
  const ctx: DiagContext = { fileName, text, tokens, locate, sourceText: options.sourceText };
  if (error) throw toDiagnosticError(ctx, error.message, error.offset);
  parser ??= new TcParser();
  parser.input = tokens;
  parser.exprNesting = 0;
  parser.stmtNesting = 0;
  let program: Program;
  try {
    program = parser.translationUnit();
  } catch (e) {
    if (e instanceof TcSyntaxError) throw toDiagnosticError(ctx, e.message, e.offset, e.notes);
    throw e;
  }
  if (parser.errors.length) throw recognitionError(ctx, parser.errors[0]);
  return program;
}

/** Converts chevrotain's first recognition error: a missing `;` is reported after the previous token. */
function recognitionError(ctx: DiagContext, e: IRecognitionException): DiagnosticError {
  const tok = e.token;
  if (e instanceof MismatchedTokenException && e.message.startsWith("expected ';'")) {
    const prev = previousToken(ctx, tok, e.previousToken);
    if (prev) return toDiagnosticError(ctx, e.message, lastCharOf(prev), [], true);
  }
  return toDiagnosticError(ctx, e.message, tokenOffset(tok));
}

function previousToken(ctx: DiagContext, tok: { startOffset: number }, fallback: DiagContext['tokens'][number] | undefined) {
  if (Number.isNaN(tok.startOffset)) return ctx.tokens[ctx.tokens.length - 1];
  const i = ctx.tokens.findIndex((t) => t.startOffset === tok.startOffset);
  return i > 0 ? ctx.tokens[i - 1] : fallback;
}
