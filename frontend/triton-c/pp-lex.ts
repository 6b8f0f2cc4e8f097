/**
 * Preprocessing-token lexer for Triton-C (translation phases 1-3 of C): line splices
 * (`\` newline) are removed, comments become whitespace, and the text is cut into logical
 * lines of preprocessing tokens. Every token remembers the PHYSICAL offset of its first
 * character in its `SourceFile`, so diagnostics and the source map point at what the user wrote.
 */
import { SourceFile } from '../../ir/diagnostics.js';

/** Kind of a preprocessing token; `placemarker` only exists transiently during `##` pasting. */
export type TokKind = 'ident' | 'number' | 'string' | 'char' | 'punct' | 'other' | 'placemarker';

/** A location in an original source file. */
export interface Loc {
  source: SourceFile;
  offset: number;
}

/** One preprocessing token with its provenance. */
export interface PPToken {
  kind: TokKind;
  text: string;
  /** Whitespace (or a comment) came before it. */
  space: boolean;
  /** Where diagnostics should point: the token itself, or the outermost macro invocation it came from. */
  source: SourceFile;
  offset: number;
  /** Physical length in `source` (differs from `text.length` across line splices); 0 when not spelled there. */
  len: number;
  /** Names of the macros whose expansion produced it, innermost first. */
  chain: readonly string[];
  /** Prosser hide set: macros that must not be expanded again from this token. */
  hide: ReadonlySet<string> | null;
  /** Where it was spelled when that differs from `source/offset` (a `#define` body or a `-D` value). */
  spell: Loc | null;
  /** Set on malformed tokens (unterminated literal): the error to report if the token is used. */
  bad?: string;
}

/** One logical line: a directive (`hash` set, `tokens` after the `#`) or a text line. */
export interface Line {
  hash: PPToken | null;
  tokens: PPToken[];
  /** Physical offset just past the last character of the line (before its newline). */
  end: number;
}

const PUNCTS = [
  '...', '<<=', '>>=',
  '->', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '*=', '/=', '%=', '+=', '-=', '&=', '^=', '|=', '##',
];
const SINGLE = '[](){}.&*+-~!/%<>^|?:;=,#@';

/** Text with splices removed, plus a map from logical to physical offsets. */
class Spliced {
  readonly text: string;
  private readonly phys: Int32Array | null;
  constructor(raw: string, start: number) {
    if (raw.indexOf('\\', start) === -1) {
      this.text = raw;
      this.phys = null;
      return;
    }
    const chars: string[] = [];
    const phys: number[] = [];
    for (let i = 0; i < start; i++) {
      chars.push(raw[i]);
      phys.push(i);
    }
    for (let i = start; i < raw.length; i++) {
      if (raw[i] === '\\') {
        const nl = raw[i + 1] === '\n' ? 1 : raw[i + 1] === '\r' && raw[i + 2] === '\n' ? 2 : 0;
        if (nl) {
          i += nl;
          continue;
        }
      }
      chars.push(raw[i]);
      phys.push(i);
    }
    phys.push(raw.length);
    this.text = chars.join('');
    this.phys = Int32Array.from(phys);
  }
  /** Physical offset of logical offset `i`. */
  at(i: number): number {
    return this.phys ? this.phys[Math.min(i, this.phys.length - 1)] : i;
  }
}

const isIdStart = (c: string): boolean => /[A-Za-z_$]/.test(c);
const isIdChar = (c: string): boolean => /[A-Za-z0-9_$]/.test(c);
const isDigit = (c: string): boolean => c >= '0' && c <= '9';

/** Makes a token spelled at `offset` in `source`. */
export function makeToken(kind: TokKind, text: string, space: boolean, source: SourceFile, offset: number, len: number): PPToken {
  return { kind, text, space, source, offset, len, chain: [], hide: null, spell: null };
}

/** Length of the token starting at `i` of `s` (never 0 below `s.length`), with its kind and an error for bad tokens. */
export function scanToken(s: string, i: number): { kind: TokKind; end: number; bad?: string } {
  const c = s[i];
  if (isIdStart(c)) {
    let j = i + 1;
    while (j < s.length && isIdChar(s[j])) j++;
    return { kind: 'ident', end: j };
  }
  if (isDigit(c) || (c === '.' && isDigit(s[i + 1] ?? ''))) {
    let j = i + 1;
    while (j < s.length) {
      const d = s[j];
      if ((d === '+' || d === '-') && /[eEpP]/.test(s[j - 1])) j++;
      else if (isIdChar(d) || d === '.') j++;
      else break;
    }
    return { kind: 'number', end: j };
  }
  if (c === '"' || c === "'") {
    let j = i + 1;
    while (j < s.length && s[j] !== c && s[j] !== '\n') j += s[j] === '\\' && s[j + 1] !== '\n' ? 2 : 1;
    if (j < s.length && s[j] === c) return { kind: c === '"' ? 'string' : 'char', end: j + 1 };
    return { kind: 'other', end: i + 1, bad: `missing terminating ${c} character` };
  }
  for (const p of PUNCTS) if (s.startsWith(p, i)) return { kind: 'punct', end: i + p.length };
  if (SINGLE.includes(c)) return { kind: 'punct', end: i + 1 };
  return { kind: 'other', end: i + 1 };
}

/**
 * Lexes `source.text` from `start` into logical lines. Block comments may span lines (they
 * then join them, as in C). An unterminated block comment is reported through `onError`.
 */
export function lexLines(source: SourceFile, start = 0, onError?: (msg: string, offset: number) => never): Line[] {
  const sp = new Spliced(source.text, start);
  const s = sp.text;
  const lines: Line[] = [];
  let toks: PPToken[] = [];
  let hash: PPToken | null = null;
  let space = false;
  let i = start;
  const endLine = (at: number): void => {
    lines.push({ hash, tokens: toks, end: sp.at(at) });
    toks = [];
    hash = null;
    space = false;
  };
  while (i < s.length) {
    const c = s[i];
    if (c === '\n') {
      endLine(i);
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      space = true;
      i++;
      continue;
    }
    if (c === '/' && s[i + 1] === '/') {
      while (i < s.length && s[i] !== '\n') i++;
      space = true;
      continue;
    }
    if (c === '/' && s[i + 1] === '*') {
      const close = s.indexOf('*/', i + 2);
      if (close === -1) {
        if (onError) onError('unterminated /* comment', sp.at(i));
        i = s.length;
      } else i = close + 2;
      space = true;
      continue;
    }
    const r = scanToken(s, i);
    const off = sp.at(i);
    const tok = makeToken(r.kind, s.slice(i, r.end), space, source, off, sp.at(r.end) - off);
    if (r.bad) tok.bad = r.bad;
    space = false;
    if (toks.length === 0 && hash === null && tok.text === '#') {
      hash = tok;
    } else toks.push(tok);
    i = r.end;
  }
  if (toks.length > 0 || hash !== null || s.length === 0 || s[s.length - 1] !== '\n') endLine(s.length);
  return lines;
}

/** Lexes a standalone string (a pasted token, a `-D` value) whose first character is at `offset` of `source`. */
export function lexString(text: string, source: SourceFile, offset: number): PPToken[] {
  const out: PPToken[] = [];
  let space = false;
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      space = true;
      i++;
      continue;
    }
    const r = scanToken(text, i);
    const tok = makeToken(r.kind, text.slice(i, r.end), space, source, offset + i, r.end - i);
    if (r.bad) tok.bad = r.bad;
    out.push(tok);
    space = false;
    i = r.end;
  }
  return out;
}

/** True when printing `a` directly followed by `b` would lex differently (so a space is needed). */
export function needsSpace(a: string, b: string): boolean {
  if (a.length === 0 || b.length === 0) return false;
  const last = a[a.length - 1];
  if (last === '/' && (b[0] === '/' || b[0] === '*')) return true;
  const joined = a + b;
  let i = 0;
  while (i < a.length) i = scanToken(joined, i).end;
  return i !== a.length;
}
