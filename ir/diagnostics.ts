/**
 * User-facing diagnostics in MLIR's style: `file:line:col: error: message`, then the
 * source line and a caret. Every user mistake ends up as a `Diagnostic`; internal bugs
 * are reported as "internal error" by the tools, never as raw stack traces.
 */

/** Index of the last element of ascending `sorted` that is <= `x` (0 when none is). */
export function floorIndex(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid] <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A source text with a lazily built line table, used to turn offsets into line/column. */
export class SourceFile {
  private lineStarts: number[] | null = null;
  /** `lineOffset` shifts reported lines, for chunks cut out of a larger file by `--split-input-file`. */
  constructor(readonly name: string, readonly text: string, readonly lineOffset = 0) {}

  private starts(): number[] {
    if (this.lineStarts) return this.lineStarts;
    const starts = [0];
    const text = this.text;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.lineStarts = starts;
    return starts;
  }

  /** 1-based line and column of a character offset (line includes `lineOffset`). */
  position(offset: number): { line: number; col: number } {
    const starts = this.starts();
    const lo = floorIndex(starts, offset);
    return { line: lo + 1 + this.lineOffset, col: offset - starts[lo] + 1 };
  }

  /** The text of the line holding `offset`, without its newline. */
  lineText(offset: number): string {
    const starts = this.starts();
    const { line } = this.position(offset);
    const i = line - 1 - this.lineOffset;
    const begin = starts[i];
    const end = i + 1 < starts.length ? starts[i + 1] - 1 : this.text.length;
    return this.text.slice(begin, end).replace(/\r$/, '');
  }
}

/** A point in a source file; what diagnostics are attached to. */
export interface SourcePos {
  source: SourceFile;
  offset: number;
}

/** How serious a diagnostic is. */
export type Severity = 'error' | 'warning' | 'remark' | 'note';

/** One diagnostic with optional attached notes. */
export class Diagnostic {
  notes: Diagnostic[] = [];
  /** The operation the diagnostic is about, when it was reported on one (for `--mlir-print-op-on-diagnostic`). */
  operation: object | null = null;
  constructor(
    readonly severity: Severity,
    readonly message: string,
    readonly pos: SourcePos | null,
    /** A textual location when no source position is known (e.g. `loc("kernels.py":3:4)`). */
    readonly fallbackLoc: string | null = null,
  ) {}

  attachNote(message: string, pos: SourcePos | null = null): this {
    this.notes.push(new Diagnostic('note', message, pos));
    return this;
  }

  /** Formats as MLIR does, with the source line and a caret when the position is known. */
  format(): string {
    const lines = [formatOne(this)];
    for (const n of this.notes) lines.push(formatOne(n));
    return lines.join('\n');
  }
}

function formatOne(d: Diagnostic): string {
  if (!d.pos) {
    const where = d.fallbackLoc ? `${d.fallbackLoc}: ` : '';
    return `${where}${d.severity}: ${d.message}`;
  }
  const { line, col } = d.pos.source.position(d.pos.offset);
  const [text, at] = printable(...excerpt(d.pos.source.lineText(d.pos.offset), col - 1));
  const caret = ' '.repeat(Math.max(0, at)) + '^';
  return `${d.pos.source.name}:${line}:${col}: ${d.severity}: ${d.message}\n${text}\n${caret}`;
}

/** The most characters of a source line a diagnostic shows (a 50 MB one-line attribute is not echoed). */
const MAX_EXCERPT = 200;

/** `line` cut to at most MAX_EXCERPT characters around column `at` (0-based), with `...` where cut; the caret's new column. */
function excerpt(line: string, at: number): [string, number] {
  if (line.length <= MAX_EXCERPT) return [line, at];
  const start = Math.max(0, Math.min(at - MAX_EXCERPT / 2, line.length - MAX_EXCERPT));
  const head = start > 0 ? '...' : '';
  const tail = start + MAX_EXCERPT < line.length ? '...' : '';
  return [head + line.slice(start, start + MAX_EXCERPT) + tail, at - start + head.length];
}

/** Whether `c` is shown as it is in a source excerpt: not a control character and not U+FFFD (an undecodable byte). */
function shownAsIs(c: number): boolean {
  return c === 9 || (c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c !== 0xfffd);
}

/**
 * `line` with control characters and undecodable bytes escaped (`\x01`, `\ufffd`), so that a
 * binary input never sends raw bytes to the terminal; the caret's column moves with the escapes.
 */
function printable(line: string, at: number): [string, number] {
  let out = '';
  let caret = at;
  for (let k = 0; k < line.length; k++) {
    const c = line.charCodeAt(k);
    if (shownAsIs(c)) {
      out += line[k];
      continue;
    }
    const escaped = c < 0x100 ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
    if (k < at) caret += escaped.length - 1;
    out += escaped;
  }
  return [out, caret];
}

/** Thrown to abort processing with a user-facing diagnostic (never an internal bug). */
export class DiagnosticError extends Error {
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.message);
  }
}

/** Receives diagnostics; the default one collects them. `--verify-diagnostics` installs a checker. */
export class DiagnosticEngine {
  readonly diagnostics: Diagnostic[] = [];
  emit(d: Diagnostic): void {
    this.diagnostics.push(d);
  }
  get errorCount(): number {
    let n = 0;
    for (const d of this.diagnostics) if (d.severity === 'error') n++;
    return n;
  }
}

/** Creates and throws an error diagnostic at `pos`. */
export function fail(message: string, pos: SourcePos | null): never {
  throw new DiagnosticError(new Diagnostic('error', message, pos));
}
