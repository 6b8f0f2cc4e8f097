/**
 * Where Triton-C diagnostics and IR locations point: offsets in the preprocessed text are mapped
 * back to the user's files through the preprocessor's source map (when there is one), so errors
 * show the original line with a caret, and ops get `loc("file":line:col)` of the user's source.
 */
import { FileLineColLoc, NameLoc, utf8Bytes, type Location } from '../../ir/attributes.js';
import { Diagnostic, DiagnosticError, SourceFile, type SourcePos } from '../../ir/diagnostics.js';

/** What the preprocessor's map answers for an offset of the preprocessed text. */
export interface MappedPosition {
  file: string;
  line: number;
  col: number;
  /** The macro expansion chain, innermost first (shape owned by the preprocessor). */
  expansion?: unknown;
}

/** The preprocessor's source map, as far as the frontend uses it. */
export interface SourceMapLike {
  /** Maps an offset of the preprocessed text to a position in the user's sources. */
  locate(offset: number): MappedPosition;
  /** A located error in the original file (macro chain included), when the map can build one. */
  diagnostic?(message: string, offset: number): Diagnostic;
}

/** Turns AST positions into diagnostics and IR locations. */
export class DiagContext {
  private readonly files = new Map<string, SourceFile>();
  private readonly preprocessed: SourceFile;

  /**
   * `text` is the preprocessed text the AST positions index; `map` is the preprocessor's source
   * map (identity if absent); `sources` holds the original text of user files by name (for the
   * caret line, when the map cannot build diagnostics itself).
   */
  constructor(
    readonly fileName: string,
    text: string,
    private readonly map?: SourceMapLike,
    sources: Record<string, string> = {},
  ) {
    this.preprocessed = new SourceFile(fileName, text);
    for (const [name, src] of Object.entries(sources)) this.files.set(name, new SourceFile(name, src));
  }

  /** The user-source position of an AST offset. */
  position(offset: number): MappedPosition {
    if (this.map) return this.map.locate(offset);
    const { line, col } = this.preprocessed.position(offset);
    return { file: this.fileName, line, col };
  }

  /** Throws a located error diagnostic. */
  error(message: string, offset: number): never {
    throw new DiagnosticError(this.diagnostic(message, offset));
  }

  /** Builds an error diagnostic at `offset`, with notes for the macro expansion chain. */
  diagnostic(message: string, offset: number): Diagnostic {
    if (!this.map) return new Diagnostic('error', message, { source: this.preprocessed, offset });
    if (this.map.diagnostic) return this.map.diagnostic(message, offset);
    const p = this.map.locate(offset);
    const sp = this.sourcePos(p);
    const d = new Diagnostic('error', message, sp, sp ? null : `${p.file}:${p.line}:${p.col}`);
    for (const name of expansionNames(p.expansion)) d.attachNote(`in expansion of macro '${name}'`);
    return d;
  }

  /** `loc("file":line:col)` of an AST offset, wrapped in a name (`loc("x"(...))`) when `name` is given. */
  loc(offset: number, name?: string | null): Location {
    const p = this.position(offset);
    const l = FileLineColLoc.get(utf8Bytes(p.file), p.line, p.col);
    return name ? NameLoc.get(name, l) : l;
  }

  private sourcePos(p: MappedPosition): SourcePos | null {
    const f = this.files.get(p.file);
    if (!f) return null;
    const starts = lineStarts(f.text);
    const start = starts[p.line - 1];
    if (start === undefined) return null;
    return { source: f, offset: start + p.col - 1 };
  }
}

function lineStarts(text: string): number[] {
  const out = [0];
  for (let k = text.indexOf('\n'); k !== -1; k = text.indexOf('\n', k + 1)) out.push(k + 1);
  return out;
}

/** Macro names from an expansion chain of unknown shape (`[{name}]`, `{name, parent}`, or strings). */
function expansionNames(e: unknown): string[] {
  const out: string[] = [];
  const visit = (x: unknown, depth: number): void => {
    if (!x || depth > 32) return;
    if (typeof x === 'string') return void out.push(x);
    if (Array.isArray(x)) return x.forEach((y) => visit(y, depth + 1));
    if (typeof x !== 'object') return;
    const o = x as Record<string, unknown>;
    const name = o.name ?? o.macro;
    if (typeof name === 'string') out.push(name);
    visit(o.parent ?? o.outer ?? o.from, depth + 1);
  };
  visit(e, 0);
  return out;
}
