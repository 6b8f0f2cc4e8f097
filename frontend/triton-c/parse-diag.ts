/**
 * Syntax-error plumbing of the Triton-C parser: the internal `TcSyntaxError` and its
 * conversion to a located `Diagnostic`, through the preprocessor's source map when given.
 */
import type { IToken } from './lexer.js';
import { Diagnostic, DiagnosticError, SourceFile, type SourcePos } from '../../ir/diagnostics.js';

/** Where an offset of the preprocessed text came from (the preprocessor's source map). */
export interface OriginalLocation {
  file: string;
  line: number;
  col: number;
  /** Macro expansion chain, innermost first (as the preprocessor's `SourceMap.locate` gives it). */
  expansion: string[];
  /** The original file and offset, when the map has them (the preprocessor's `Located` does). */
  source?: SourceFile;
  offset?: number;
  /** Where the token was spelled inside a macro definition, if it was. */
  spelling?: SourcePos | null;
}

/** Maps a preprocessed-text offset to its original location. */
export type Locator = (offset: number) => OriginalLocation;

/** Offset meaning "just after the last token" (end of input). */
export const AT_END = -1;

/**
 * A syntax error (offset into the preprocessed text). With `after`, `offset` is the last
 * character of a token and the error points just past it (a missing `;`).
 */
export class TcSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    readonly notes: { message: string; offset: number }[] = [],
    readonly after = false,
  ) {
    super(message);
  }
}

/** The message for a token where a function definition should start. */
export function describeTopLevelJunk(t: IToken): string {
  if (t.image === '}') return "extraneous closing brace ('}')";
  if (t.tokenType.name === 'Identifier') return `unknown type name '${t.image}'`;
  return 'expected function definition';
}

/** Offset of a token for a diagnostic; EOF maps to `AT_END`. */
export function tokenOffset(t: IToken): number {
  return Number.isNaN(t.startOffset) || t.tokenType.name === 'EOF' ? AT_END : t.startOffset;
}

/** Offset just after a token. */
export function afterToken(t: IToken | undefined): number {
  if (!t || Number.isNaN(t.startOffset)) return AT_END;
  return t.startOffset + t.image.length;
}

/** Offset of the last character of a token (for "expected ';' after ..."); EOF: `AT_END`. */
export function lastCharOf(t: IToken | undefined): number {
  if (!t || Number.isNaN(t.startOffset)) return AT_END;
  return t.startOffset + Math.max(0, t.image.length - 1);
}

/** What `toDiagnosticError` needs to place a message. */
export interface DiagContext {
  fileName: string;
  text: string;
  tokens: IToken[];
  locate?: Locator;
  sourceText?: (file: string) => string | undefined;
}

/**
 * Builds the located `DiagnosticError` for a syntax error at `offset` (possibly `AT_END`).
 * With `after`, `offset` is the last character of a token and the error points just past it
 * (in the original source too, unless that token came from a macro expansion).
 */
export function toDiagnosticError(
  ctx: DiagContext,
  message: string,
  offset: number,
  notes: { message: string; offset: number }[] = [],
  after = false,
): DiagnosticError {
  const cache = new Map<string, SourceFile>();
  const first = after ? placeAfter(ctx, offset, cache) : place(ctx, resolve(ctx, offset), cache);
  const d = new Diagnostic('error', message + first.suffix, first.pos);
  if (first.macroNote) d.attachNote(first.macroNote.message, first.macroNote.pos);
  for (const n of notes) {
    const p = place(ctx, resolve(ctx, n.offset), cache);
    d.attachNote(n.message + p.suffix, p.pos);
  }
  return new DiagnosticError(d);
}

function resolve(ctx: DiagContext, offset: number): number {
  if (offset !== AT_END) return offset;
  const last = ctx.tokens[ctx.tokens.length - 1];
  return last ? afterToken(last) : ctx.text.length;
}

interface Placed {
  pos: SourcePos;
  /** ` (in expansion of macro X)` when the position comes from a macro expansion. */
  suffix: string;
  /** `expanded from macro 'X'` at the macro's definition, when known. */
  macroNote?: { message: string; pos: SourcePos };
}

function place(ctx: DiagContext, offset: number, cache: Map<string, SourceFile>): Placed {
  if (!ctx.locate) {
    let src = cache.get('');
    if (!src) cache.set('', (src = new SourceFile(ctx.fileName, ctx.text)));
    return { pos: { source: src, offset }, suffix: '' };
  }
  const loc = ctx.locate(offset);
  const chain = loc.expansion;
  const suffix = chain.length ? ` (${chain.map((m) => `in expansion of macro ${m}`).join(', ')})` : '';
  const macroNote = chain.length && loc.spelling ? { message: `expanded from macro '${chain[0]}'`, pos: loc.spelling } : undefined;
  if (loc.source && loc.offset !== undefined) return { pos: { source: loc.source, offset: loc.offset }, suffix, macroNote };
  const original = ctx.sourceText?.(loc.file);
  if (original !== undefined) {
    let src = cache.get(loc.file);
    if (!src) cache.set(loc.file, (src = new SourceFile(loc.file, original)));
    return { pos: { source: src, offset: offsetOf(original, loc.line, loc.col) }, suffix, macroNote };
  }
  // No original text: show the preprocessed line, labelled with the original line and column.
  const pp = new SourceFile(ctx.fileName, ctx.text);
  const lineText = pp.lineText(Math.min(offset, ctx.text.length));
  const src = new SourceFile(loc.file, lineText, loc.line - 1);
  return { pos: { source: src, offset: Math.max(0, loc.col - 1) }, suffix, macroNote };
}

function placeAfter(ctx: DiagContext, last: number, cache: Map<string, SourceFile>): Placed {
  if (!ctx.locate) return place(ctx, last + 1, cache);
  const p = place(ctx, last, cache);
  if (p.suffix) return p;
  return { ...p, pos: { source: p.pos.source, offset: p.pos.offset + 1 } };
}

function offsetOf(text: string, line: number, col: number): number {
  let off = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', off);
    if (nl < 0) return text.length;
    off = nl + 1;
  }
  return Math.min(off + col - 1, text.length);
}
