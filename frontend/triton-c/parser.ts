/**
 * Triton-C parser entry point: preprocessed text in, `Program` AST out (see ast.ts).
 * Syntax errors are `DiagnosticError`s with C-style messages (`expected ';' after declaration`)
 * located in the original source when the preprocessor's source map is given.
 *
 * The grammar is split over parse-expr.ts (types, attributes, expressions; the operator
 * precedence decisions are documented there) and parse-stmt.ts (declarations, statements,
 * functions); lexer.ts has the tokens.
 */
import type { Program } from './ast.js';
import { tokenizeTritonC } from './lexer.js';
import { TcSyntaxError, toDiagnosticError, type DiagContext, type Locator } from './parse-diag.js';
import { TcParser } from './parse-stmt.js';

export type { Locator, OriginalLocation } from './parse-diag.js';

/** Extra options of `parseTritonC`. */
export interface ParseOptions {
  /** The original text of a file named by `locate`, so diagnostics can show its source line. */
  sourceText?: (file: string) => string | undefined;
}

/**
 * Parses preprocessed Triton-C. `fileName` names the text in diagnostics when `locate` is not
 * given; `locate` (the preprocessor's source map) maps offsets back to original locations.
 * Throws a `DiagnosticError` on the first syntax error.
 */
export function parseTritonC(text: string, fileName: string, locate?: Locator, options: ParseOptions = {}): Program {
  const { tokens, error } = tokenizeTritonC(text);
  const ctx: DiagContext = { fileName, text, tokens, locate, sourceText: options.sourceText };
  if (error) throw toDiagnosticError(ctx, error.message, error.offset);
  try {
    return new TcParser().translationUnit(tokens);
  } catch (e) {
    if (e instanceof TcSyntaxError) throw toDiagnosticError(ctx, e.message, e.offset, e.notes, e.after);
    throw e;
  }
}
