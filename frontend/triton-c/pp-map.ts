/**
 * The preprocessor's output side: `OutputWriter` turns tokens back into text (keeping the
 * input's line breaks and indentation where it can) and records, for each output token,
 * where it came from; `SourceMap` answers "which file/line/column and which macro chain
 * produced this character of the preprocessed text?".
 */
import { Diagnostic, DiagnosticError, type Severity, type SourceFile, type SourcePos, floorIndex } from '../../ir/diagnostics.js';
import { needsSpace, type PPToken } from './pp-lex.js';

/** Where a character of the preprocessed text came from. */
export interface Located {
  /** File name, 1-based line and column of the character (for macro expansions: of the outermost invocation). */
  file: string;
  line: number;
  col: number;
  /** Macros whose expansion produced the character, innermost first (empty when written directly). */
  expansion: string[];
  /** The original file and offset, ready for `new Diagnostic(..., { source, offset })`. */
  source: SourceFile;
  offset: number;
  /** Where the token was spelled when that is inside a macro definition (`#define` body or `-D`), else null. */
  spelling: SourcePos | null;
}

/** Maps offsets of the preprocessed text back to original files and macro expansions. */
export class SourceMap {
  constructor(
    private readonly starts: readonly number[],
    private readonly tokens: readonly PPToken[],
    private readonly mainSource: SourceFile,
  ) {}

  /** Original location of the character at `offset` of the output (whitespace maps to the next token; the end to the last token's end). */
  locate(offset: number): Located {
    const { source, offset: off, tok } = this.resolve(offset);
    const { line, col } = source.position(off);
    return {
      file: source.name, line, col,
      expansion: tok ? [...tok.chain] : [],
      source, offset: off,
      spelling: tok && tok.spell ? { source: tok.spell.source, offset: tok.spell.offset } : null,
    };
  }

  /** The original position of output `offset`, for `Diagnostic`. */
  pos(offset: number): SourcePos {
    const { source, offset: off } = this.resolve(offset);
    return { source, offset: off };
  }

  /** A diagnostic at output `offset`, in the original file, with the macro chain (see `diagnosticAt`). */
  diagnostic(message: string, offset: number, severity: Severity = 'error'): Diagnostic {
    const { source, offset: off, tok } = this.resolve(offset);
    return diagnosticAt(severity, message, { source, offset: off }, tok);
  }

  /** A `DiagnosticError` at output `offset` (see `diagnostic`), to `throw`. */
  error(message: string, offset: number): DiagnosticError {
    return new DiagnosticError(this.diagnostic(message, offset));
  }

  private resolve(offset: number): { source: SourceFile; offset: number; tok: PPToken | null } {
    const starts = this.starts;
    if (starts.length === 0) return { source: this.mainSource, offset: 0, tok: null };
    let k = floorIndex(starts, offset);
    let tok = this.tokens[k];
    const inside = offset >= starts[k] && offset < starts[k] + tok.text.length;
    if (!inside && offset >= starts[k]) {
      if (k + 1 >= starts.length) return { source: tok.source, offset: tok.offset + tok.len, tok };
      tok = this.tokens[++k];
    }
    const delta = offset - starts[k];
    if (delta <= 0 || tok.spell !== null || tok.len === 0) return { source: tok.source, offset: tok.offset, tok };
    return { source: tok.source, offset: tok.offset + Math.min(delta, tok.len - 1), tok };
  }
}

/**
 * Builds a diagnostic for token `tok`: inside a macro expansion the message ends with
 * ` (in expansion of macro X)` (X innermost), a note points at X's definition, and one note
 * (without position) names each enclosing macro.
 */
export function diagnosticAt(severity: Severity, message: string, pos: SourcePos, tok: PPToken | null): Diagnostic {
  const chain = tok ? tok.chain : [];
  if (chain.length === 0) return new Diagnostic(severity, message, pos);
  const d = new Diagnostic(severity, `${message} (in expansion of macro ${chain[0]})`, pos);
  if (tok && tok.spell) d.attachNote(`expanded from macro '${chain[0]}'`, tok.spell);
  for (const outer of chain.slice(1)) d.attachNote(`in expansion of macro '${outer}'`);
  return d;
}

/** Accumulates output text and the token positions for the source map. */
export class OutputWriter {
  private readonly parts: string[] = [];
  private length = 0;
  private readonly starts: number[] = [];
  private readonly tokens: PPToken[] = [];
  private last: PPToken | null = null;
  private lastFile: SourceFile | null = null;
  private lastLine = 1;
  private lastEnd = 0;

  /** Appends one token, choosing the whitespace before it. */
  write(t: PPToken): void {
    const { line, col } = t.source.position(t.offset);
    let sep = '';
    if (this.last === null) {
      sep = t.source === this.lastFile || this.lastFile === null ? '\n'.repeat(line - 1) : '';
      sep += ' '.repeat(col - 1);
    } else if (t.source === this.lastFile && line > this.lastLine) {
      sep = '\n'.repeat(line - this.lastLine) + ' '.repeat(col - 1);
    } else if (t.source !== this.lastFile) {
      sep = '\n' + ' '.repeat(col - 1);
    } else if (t.chain.length === 0 && this.last.chain.length === 0 && t.offset >= this.lastEnd && line === this.lastLine) {
      sep = ' '.repeat(Math.min(col - t.source.position(this.lastEnd).col, 200));
      if (sep === '' && needsSpace(this.last.text, t.text)) sep = ' ';
    } else {
      sep = t.space || needsSpace(this.last.text, t.text) ? ' ' : '';
    }
    this.push(sep);
    this.starts.push(this.length);
    this.tokens.push(t);
    this.push(t.text);
    this.last = t;
    this.lastFile = t.source;
    this.lastLine = line;
    this.lastEnd = t.offset + t.len;
  }

  /** Ends the output with a newline. */
  finish(main: SourceFile): { text: string; map: SourceMap } {
    if (this.length > 0) this.push('\n');
    return { text: this.parts.join(''), map: new SourceMap(this.starts, this.tokens, main) };
  }

  private push(s: string): void {
    if (s === '') return;
    this.parts.push(s);
    this.length += s.length;
  }
}
