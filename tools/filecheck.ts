#!/usr/bin/env node
// A self-contained implementation of the commonly used subset of LLVM's
// FileCheck: CHECK, -NEXT, -SAME, -NOT, -DAG, -LABEL, -EMPTY, -COUNT-<n>,
// custom prefixes, {{regex}}, [[VAR:regex]] / [[VAR]] and [[@LINE+-N]].
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Options for runFileCheck; they mirror FileCheck's command-line flags. */
export interface FileCheckOptions {
  /** Check prefixes to look for (default: ['CHECK']). */
  checkPrefixes?: string[];
  /** Name of the check file, used in diagnostics. */
  checkFileName?: string;
  /** Name of the input, used in diagnostics (default: '<stdin>'). */
  inputName?: string;
  /** Do not canonicalize horizontal whitespace (--strict-whitespace). */
  strictWhitespace?: boolean;
  /** Every pattern must match a whole line (--match-full-lines). */
  matchFullLines?: boolean;
  /** Literal strings that must not occur anywhere in the checked input. */
  implicitCheckNot?: string[];
  /** Clear non-'$' variables at each CHECK-LABEL (--enable-var-scope). */
  enableVarScope?: boolean;
  /** Accept an empty input (--allow-empty). */
  allowEmpty?: boolean;
  /** Do not complain about prefixes that have no directives. */
  allowUnusedPrefixes?: boolean;
  /** Initial string variables (-DNAME=VALUE). */
  defines?: Record<string, string>;
}

/** Outcome of runFileCheck: exitCode 0 = pass, 1 = mismatch, 2 = bad check file/options. */
export interface FileCheckResult {
  ok: boolean;
  message: string;
  exitCode: 0 | 1 | 2;
}

type Kind = 'plain' | 'next' | 'same' | 'not' | 'dag' | 'label' | 'empty' | 'count' | 'eof';

type Piece =
  | { t: 'lit'; text: string }
  | { t: 're'; src: string }
  | { t: 'def'; name: string; src: string }
  | { t: 'use'; name: string; col: number }
  | { t: 'line'; value: number };

interface Pattern {
  kind: Kind;
  count: number;
  /** Directive name as printed in diagnostics, e.g. 'CHECK-NEXT'. */
  name: string;
  line: number;
  col: number;
  pieces: Piece[];
}

interface CheckString {
  pat: Pattern;
  dagNot: Pattern[];
}

interface Match {
  start: number;
  end: number;
}

class CheckFileError extends Error {}

const SUFFIX_RE = /^(?:-(NEXT|SAME|NOT|DAG|LABEL|EMPTY|COUNT-([0-9]+)))?(\{LITERAL\})?:/;
const PREFIX_RE = /^[A-Za-z][A-Za-z0-9_-]*$/;
const VAR_NAME_RE = /^\$?[A-Za-z_][A-Za-z0-9_]*$/;
const LINE_VAR_RE = /^@LINE(?:([+-])\s*([0-9]+))?$/;
const POSIX_CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z', digit: '0-9', alnum: 'a-zA-Z0-9', upper: 'A-Z', lower: 'a-z',
  space: ' \\t\\n\\r\\f\\v', blank: ' \\t', xdigit: '0-9A-Fa-f', word: '\\w',
  punct: '!-\\/:-@\\[-`{-~',
};

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_-]/.test(c);
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const posixToJs = (src: string): string =>
  src.replace(/\[:([a-z]+):\]/g, (m, cls: string) => POSIX_CLASSES[cls] ?? m);

/** Formats one diagnostic in the FileCheck style: location, message, source line, caret. */
function formatDiag(file: string, line: number, col: number, level: string, msg: string,
  text: string, len = 1): string {
  const caret = ' '.repeat(Math.max(col - 1, 0)) + '^' + '~'.repeat(Math.max(len - 1, 0));
  return `${file}:${line}:${col}: ${level}: ${msg}\n${text}\n${caret}\n`;
}

/** Finds the ']]' that closes a [[...]] block, honouring nested [...] and escapes. */
function findVarEnd(s: string, from: number): number {
  let depth = 0;
  for (let i = from; i < s.length; i++) {
    if (s.startsWith(']]', i) && depth === 0) return i;
    if (s[i] === '\\') { i++; continue; }
    if (s[i] === '[') depth++;
    if (s[i] === ']') depth = Math.max(depth - 1, 0);
  }
  return -1;
}

/** Parsed check file: the check strings plus what is needed to print diagnostics. */
class CheckFile {
  readonly checks: CheckString[] = [];
  readonly lines: string[];
  private readonly canon: (s: string) => string;

  constructor(text: string, readonly fileName: string, private readonly opts: FileCheckOptions,
    readonly prefixes: string[]) {
    this.lines = text.split('\n');
    this.canon = opts.strictWhitespace ? (s) => s : (s) => s.replace(/[ \t]+/g, ' ');
  }

  error(line: number, col: number, msg: string): never {
    throw new CheckFileError(formatDiag(this.fileName, line, col, 'error', msg, this.lines[line - 1] ?? ''));
  }

  /** Parses every line; returns the set of prefixes that had at least one directive. */
  parse(): Set<string> {
    const used = new Set<string>();
    const implicit = (this.opts.implicitCheckNot ?? []).map((s) => this.implicitNot(s));
    let dagNot: Pattern[] = [...implicit];
    this.lines.forEach((text, idx) => {
      const pat = this.parseLine(text, idx + 1, used);
      if (!pat) return;
      if (pat.kind === 'not' || pat.kind === 'dag') { dagNot.push(pat); return; }
      if ((pat.kind === 'next' || pat.kind === 'same' || pat.kind === 'empty') && this.checks.length === 0) {
        const prefix = pat.name.slice(0, pat.name.lastIndexOf('-'));
        this.error(pat.line, text.indexOf(pat.name) + 1,
          `found '${pat.name}' without previous '${prefix}: line`);
      }
      this.checks.push({ pat, dagNot });
      dagNot = [...implicit];
    });
    if (dagNot.length > 0) {
      const eof: Pattern = { kind: 'eof', count: 1, name: 'EOF', line: this.lines.length, col: 1, pieces: [] };
      this.checks.push({ pat: eof, dagNot });
    }
    return used;
  }

  private implicitNot(text: string): Pattern {
    return { kind: 'not', count: 1, name: 'IMPLICIT-CHECK-NOT', line: 0, col: 1,
      pieces: [{ t: 'lit', text: this.canon(text) }] };
  }

  /** Finds the first directive (or comment directive) on a line and parses its pattern. */
  private parseLine(text: string, lineNo: number, used: Set<string>): Pattern | undefined {
    const candidates = [...this.prefixes].sort((a, b) => b.length - a.length);
    for (let i = 0; i < text.length; i++) {
      if (isWordChar(text[i - 1])) continue;
      if (/^(?:RUN|COM):/.test(text.slice(i, i + 4))) return undefined;
      for (const prefix of candidates) {
        if (!text.startsWith(prefix, i)) continue;
        const m = SUFFIX_RE.exec(text.slice(i + prefix.length));
        if (!m) continue;
        used.add(prefix);
        return this.makePattern(prefix, m, text, lineNo, i + prefix.length + m[0].length, i + 1);
      }
    }
    return undefined;
  }

  private makePattern(prefix: string, m: RegExpExecArray, text: string, lineNo: number,
    start: number, prefixCol: number): Pattern {
    const suffix = m[1] ?? '';
    const kind: Kind = m[2] !== undefined ? 'count' : (suffix.toLowerCase() || 'plain') as Kind;
    const count = m[2] !== undefined ? Number(m[2]) : 1;
    if (kind === 'count' && count === 0) this.error(lineNo, prefixCol, `invalid count in -COUNT specification on prefix '${prefix}'`);
    const name = kind === 'count' ? `${prefix}-COUNT` : suffix ? `${prefix}-${suffix}` : prefix;
    const keepSpace = this.opts.strictWhitespace && this.opts.matchFullLines;
    let body = text.slice(start);
    let col = start + 1;
    if (!keepSpace) {
      const lead = body.length - body.trimStart().length;
      body = body.trim();
      col += lead;
    }
    if (kind === 'empty' && body !== '') this.error(lineNo, col, `found non-empty check string for empty check with prefix '${prefix}:'`);
    if (kind !== 'empty' && body === '') this.error(lineNo, col, `found empty check string with prefix '${prefix}:'`);
    const pieces = m[3] ? [{ t: 'lit', text: this.canon(body) } as Piece] : this.parsePieces(body, lineNo, col);
    if (kind === 'label' && pieces.some((p) => p.t === 'def' || p.t === 'use')) {
      this.error(lineNo, col, `found '${name}:' with variable definition or use`);
    }
    return { kind, count, name, line: lineNo, col, pieces };
  }

  /** Splits a pattern into literal text, {{regex}} and [[VAR...]] pieces. */
  private parsePieces(body: string, lineNo: number, col0: number): Piece[] {
    const pieces: Piece[] = [];
    let i = 0;
    while (i < body.length) {
      if (body.startsWith('{{', i)) {
        const end = body.indexOf('}}', i + 2);
        if (end < 0) this.error(lineNo, col0 + i, 'found start of regex string with no end \'}}\'');
        pieces.push({ t: 're', src: this.checkRegex(this.canon(body.slice(i + 2, end)), lineNo, col0 + i) });
        i = end + 2;
        continue;
      }
      if (body.startsWith('[[', i)) {
        const end = findVarEnd(body, i + 2);
        if (end < 0) this.error(lineNo, col0 + i, 'Invalid substitution block, no ]] found');
        pieces.push(this.parseVar(body.slice(i + 2, end), lineNo, col0 + i + 2));
        i = end + 2;
        continue;
      }
      const next = [body.indexOf('{{', i), body.indexOf('[[', i)].filter((n) => n >= 0);
      const end = next.length ? Math.min(...next) : body.length;
      pieces.push({ t: 'lit', text: this.canon(body.slice(i, end)) });
      i = end;
    }
    return pieces;
  }

  private parseVar(inner: string, lineNo: number, col: number): Piece {
    if (inner.startsWith('#')) this.error(lineNo, col, 'numeric substitution blocks ([[#...]]) are not supported');
    const colon = inner.indexOf(':');
    const name = colon < 0 ? inner : inner.slice(0, colon);
    const lineVar = LINE_VAR_RE.exec(name);
    if (lineVar && colon < 0) {
      const delta = lineVar[2] ? Number(lineVar[2]) * (lineVar[1] === '-' ? -1 : 1) : 0;
      return { t: 'line', value: lineNo + delta };
    }
    if (!VAR_NAME_RE.test(name)) this.error(lineNo, col, `invalid variable name '${name}'`);
    if (colon < 0) return { t: 'use', name, col };
    return { t: 'def', name, src: this.checkRegex(this.canon(inner.slice(colon + 1)), lineNo, col) };
  }

  private checkRegex(src: string, lineNo: number, col: number): string {
    const js = posixToJs(src);
    try {
      new RegExp(js);
    } catch (e) {
      this.error(lineNo, col, `invalid regex: ${(e as Error).message}`);
    }
    return js;
  }
}

/** Matches a parsed check file against one input buffer, collecting diagnostics. */
class Matcher {
  private vars: Map<string, string>;
  private readonly lineStarts: number[] = [0];
  out = '';

  constructor(private readonly cf: CheckFile, private readonly buf: string,
    private readonly opts: FileCheckOptions, private readonly inputName: string) {
    this.vars = new Map(Object.entries(opts.defines ?? {}));
    for (let i = 0; i < buf.length; i++) if (buf[i] === '\n') this.lineStarts.push(i + 1);
  }

  /** Runs all checks; returns true when every check passed. */
  run(): boolean {
    const checks = this.cf.checks;
    let ok = true;
    let bufStart = 0;
    let i = 0;
    for (let j = 0; ; j++) {
      while (j < checks.length && checks[j].pat.kind !== 'label') j++;
      let regionEnd = this.buf.length;
      if (j < checks.length) {
        const label = this.checkOne(checks[j], bufStart, this.buf.length, true);
        if (!label) return false;
        regionEnd = label.end;
      }
      if (i !== 0 && this.opts.enableVarScope) this.clearLocals();
      let pos = bufStart;
      for (; i < Math.min(j + 1, checks.length); i++) {
        const m = this.checkOne(checks[i], pos, regionEnd, false);
        if (!m) { ok = false; i = j + 1; break; }
        pos = m.end;
      }
      if (j >= checks.length) return ok;
      bufStart = regionEnd;
    }
  }

  private clearLocals(): void {
    for (const k of [...this.vars.keys()]) if (!k.startsWith('$')) this.vars.delete(k);
  }

  private checkOne(cs: CheckString, from: number, to: number, labelScan: boolean): Match | undefined {
    const pat = cs.pat;
    const nots: Pattern[] = [];
    let lastPos = from;
    if (!labelScan) {
      const dagEnd = this.checkDag(cs.dagNot, from, to, nots);
      if (dagEnd === undefined) return undefined;
      lastPos = dagEnd;
    }
    let matchEnd = lastPos;
    let first = -1;
    for (let n = 1; n <= pat.count; n++) {
      const m = this.match(pat, matchEnd, to);
      if (m === null) return undefined;
      if (!m) return this.noMatch(pat, matchEnd, pat.kind === 'count' ? ` (${n} out of ${pat.count})` : '');
      if (first < 0) first = m.start;
      matchEnd = m.end;
    }
    if (labelScan) return { start: first, end: matchEnd };
    if (!this.checkLinePosition(pat, lastPos, first)) return undefined;
    if (!this.checkNot(nots, lastPos, first)) return undefined;
    return { start: first, end: matchEnd };
  }

  /** Verifies the CHECK-NEXT / CHECK-EMPTY / CHECK-SAME line constraints. */
  private checkLinePosition(pat: Pattern, lastPos: number, matchPos: number): boolean {
    const newlines = this.countNewlines(lastPos, matchPos);
    const isNext = pat.kind === 'next' || pat.kind === 'empty';
    if (isNext && newlines === 1) return true;
    if (!isNext && (pat.kind !== 'same' || newlines === 0)) return true;
    let msg = 'is not on the same line as the previous match';
    if (isNext) msg = newlines === 0 ? 'is on the same line as previous match' : 'is not on the line after the previous match';
    this.checkError(pat, `${pat.name}: ${msg}`);
    this.note(matchPos, "'next' match was here");
    this.note(lastPos, 'previous match ended here');
    if (isNext && newlines > 1) {
      this.note(this.buf.indexOf('\n', lastPos) + 1, 'non-matching line after previous match is here');
    }
    return false;
  }

  private countNewlines(from: number, to: number): number {
    let n = 0;
    for (let i = from; i < to; i++) if (this.buf[i] === '\n') n++;
    return n;
  }

  /** Matches a group of CHECK-DAG/CHECK-NOT patterns; returns where the following check starts. */
  private checkDag(dagNot: Pattern[], from: number, to: number, nots: Pattern[]): number | undefined {
    let start = from;
    let ranges: Match[] = [];
    for (let idx = 0; idx < dagNot.length; idx++) {
      const pat = dagNot[idx];
      if (pat.kind === 'not') { nots.push(pat); continue; }
      let pos = start;
      for (let mi = 0; ; mi++) {
        const m = this.match(pat, pos, to);
        if (m === null) return undefined;
        if (!m) { this.noMatch(pat, pos, ''); return undefined; }
        let overlap = false;
        for (; mi < ranges.length; mi++) {
          if (m.start < ranges[mi].end) { overlap = ranges[mi].start < m.end; break; }
        }
        if (!overlap) { ranges.splice(mi, 0, m); break; }
        pos = ranges[mi].end;
      }
      const groupEnds = idx === dagNot.length - 1 || dagNot[idx + 1].kind === 'not';
      if (!groupEnds) continue;
      if (nots.length > 0) {
        if (!this.checkNot(nots, start, ranges[0].start)) return undefined;
        nots.length = 0;
      }
      start = ranges[ranges.length - 1].end;
      ranges = [];
    }
    return start;
  }

  /** Reports every CHECK-NOT pattern that occurs in [from, to); true when none does. */
  private checkNot(nots: Pattern[], from: number, to: number): boolean {
    let ok = true;
    for (const pat of nots) {
      const m = this.match(pat, from, to);
      if (m === undefined) continue;
      ok = false;
      if (m === null) continue;
      if (pat.line === 0) {
        const flag = `-implicit-check-not='${(pat.pieces[0] as { text: string }).text}'`;
        this.out += formatDiag('command line', 1, 22, 'error', 'CHECK-NOT: excluded string found in input', flag);
      } else this.checkError(pat, `${pat.name}: excluded string found in input`);
      this.note(m.start, 'found here', m.end - m.start);
    }
    return ok;
  }

  /**
   * Searches for a pattern in [from, to), never across a newline.
   * Returns undefined when there is no match and null after reporting an error.
   */
  private match(pat: Pattern, from: number, to: number): Match | undefined | null {
    if (pat.kind === 'eof') return { start: to, end: to };
    if (pat.kind === 'empty') return this.matchEmpty(from, to);
    const built = this.buildRegex(pat);
    if (built === null) return null;
    const { re, defs } = built;
    for (let pos = from; pos <= to;) {
      let lineEnd = this.buf.indexOf('\n', pos);
      if (lineEnd < 0 || lineEnd > to) lineEnd = to;
      const m = re.exec(this.buf.slice(pos, lineEnd));
      if (m) {
        for (const [group, name] of defs) this.vars.set(name, m.groups?.[group] ?? '');
        return { start: pos + m.index, end: pos + m.index + m[0].length };
      }
      if (lineEnd >= to) break;
      pos = lineEnd + 1;
    }
    return undefined;
  }

  private matchEmpty(from: number, to: number): Match | undefined {
    for (let i = this.buf.indexOf('\n', from); i >= 0 && i < to; i = this.buf.indexOf('\n', i + 1)) {
      if (i + 1 === to || this.buf[i + 1] === '\n') return { start: i + 1, end: i + 1 };
    }
    return undefined;
  }

  /** Builds the JS regex for a pattern with the current variable values. */
  private buildRegex(pat: Pattern): { re: RegExp; defs: Map<string, string> } | null {
    const defs = new Map<string, string>();
    const local = new Map<string, string>();
    let src = '';
    for (const p of pat.pieces) {
      if (p.t === 'lit') src += escapeRe(p.text);
      else if (p.t === 're') src += `(?:${p.src})`;
      else if (p.t === 'line') src += String(p.value);
      else if (p.t === 'def') {
        const group = `v${defs.size}`;
        defs.set(group, p.name);
        local.set(p.name, group);
        src += `(?<${group}>${p.src})`;
      } else if (local.has(p.name)) src += `\\k<${local.get(p.name)}>`;
      else if (this.vars.has(p.name)) src += escapeRe(this.vars.get(p.name) ?? '');
      else {
        this.out += formatDiag(this.cf.fileName, pat.line, p.col, 'error', `undefined variable: ${p.name}`,
          this.cf.lines[pat.line - 1]);
        return null;
      }
    }
    if (this.opts.matchFullLines) src = this.opts.strictWhitespace ? `^(?:${src})$` : `^[ \\t]*(?:${src})[ \\t]*$`;
    return { re: new RegExp(src), defs };
  }

  private noMatch(pat: Pattern, scanFrom: number, extra: string): undefined {
    this.checkError(pat, `${pat.name}: expected string not found in input${extra}`);
    this.note(scanFrom, 'scanning from here');
    for (const p of pat.pieces) {
      if (p.t !== 'use' || !this.vars.has(p.name)) continue;
      this.note(scanFrom, `with "${p.name}" equal to "${this.vars.get(p.name)}"`);
    }
    return undefined;
  }

  private checkError(pat: Pattern, msg: string): void {
    this.out += formatDiag(this.cf.fileName, pat.line, pat.col, 'error', msg, this.cf.lines[pat.line - 1] ?? '');
  }

  private note(pos: number, msg: string, len = 1): void {
    const [line, col] = this.loc(pos);
    this.out += formatDiag(this.inputName, line, col, 'note', msg, this.lineText(line), len);
  }

  private loc(pos: number): [number, number] {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= pos) lo = mid; else hi = mid - 1;
    }
    return [lo + 1, pos - this.lineStarts[lo] + 1];
  }

  private lineText(line: number): string {
    const start = this.lineStarts[line - 1];
    const end = this.buf.indexOf('\n', start);
    return this.buf.slice(start, end < 0 ? undefined : end);
  }
}

/** Validates the requested check prefixes; returns an error message or undefined. */
function validatePrefixes(prefixes: string[]): string | undefined {
  const seen = new Set<string>(['RUN', 'COM']);
  for (const p of prefixes) {
    if (!PREFIX_RE.test(p)) {
      return `error: supplied check prefix must start with a letter and contain only alphanumeric characters, hyphens, and underscores: '${p}'\n`;
    }
    if (seen.has(p)) return `error: supplied check prefix must be unique among check and comment prefixes: '${p}'\n`;
    seen.add(p);
  }
  return undefined;
}

/** Runs FileCheck on `input` with the directives in `checkText`; never throws for user errors. */
export function runFileCheck(checkText: string, input: string, opts: FileCheckOptions = {}): FileCheckResult {
  const prefixes = opts.checkPrefixes?.length ? opts.checkPrefixes : ['CHECK'];
  const bad = validatePrefixes(prefixes);
  if (bad) return { ok: false, message: bad, exitCode: 2 };
  const inputName = opts.inputName ?? '<stdin>';
  const cf = new CheckFile(checkText.replace(/\r\n/g, '\n'), opts.checkFileName ?? 'check-file', opts, prefixes);
  let used: Set<string>;
  try {
    used = cf.parse();
  } catch (e) {
    if (e instanceof CheckFileError) return { ok: false, message: e.message, exitCode: 2 };
    throw e;
  }
  const unused = prefixes.filter((p) => !used.has(p)).sort();
  if (used.size === 0 || (unused.length > 0 && !opts.allowUnusedPrefixes)) {
    const list = unused.map((p) => `'${p}:'`).join(', ');
    return { ok: false, message: `error: no check strings found with prefix${unused.length > 1 ? 'es' : ''} ${list}\n`, exitCode: 2 };
  }
  if (input === '' && !opts.allowEmpty) return { ok: false, message: `error: '${inputName}' is empty.\n`, exitCode: 2 };
  let buf = input.replace(/\r\n/g, '\n');
  if (!opts.strictWhitespace) buf = buf.replace(/[ \t]+/g, ' ');
  const matcher = new Matcher(cf, buf, opts, inputName);
  const ok = matcher.run();
  return { ok, message: matcher.out, exitCode: ok ? 0 : 1 };
}

const USAGE = 'usage: filecheck CHECKFILE [--check-prefix=P] [--check-prefixes=A,B] [--input-file=F]\n' +
  '       [--implicit-check-not=S] [--strict-whitespace] [--match-full-lines] [--enable-var-scope]\n' +
  '       [--allow-empty] [--allow-unused-prefixes] [-DNAME=VALUE]\n';

const VALUE_FLAGS = new Set(['check-prefix', 'check-prefixes', 'input-file', 'implicit-check-not', 'D']);
const BOOL_FLAGS: Record<string, keyof FileCheckOptions> = {
  'strict-whitespace': 'strictWhitespace', 'match-full-lines': 'matchFullLines',
  'enable-var-scope': 'enableVarScope', 'allow-empty': 'allowEmpty', 'allow-unused-prefixes': 'allowUnusedPrefixes',
};
const IGNORED_FLAGS = new Set(['dump-input', 'dump-input-filter', 'dump-input-context', 'color', 'v', 'vv']);

/** Parsed command line of the FileCheck CLI. */
interface CliArgs {
  checkFile: string;
  inputFile?: string;
  opts: FileCheckOptions;
}

function usageError(msg: string): never {
  throw new CheckFileError(`error: ${msg}\n${USAGE}`);
}

function applyValueFlag(args: CliArgs, name: string, value: string): void {
  const o = args.opts;
  if (name === 'check-prefix') o.checkPrefixes = [...(o.checkPrefixes ?? []), value];
  else if (name === 'check-prefixes') o.checkPrefixes = [...(o.checkPrefixes ?? []), ...value.split(',')];
  else if (name === 'input-file') args.inputFile = value;
  else if (name === 'implicit-check-not') o.implicitCheckNot = [...(o.implicitCheckNot ?? []), value];
  else {
    const eq = value.indexOf('=');
    if (eq <= 0) usageError(`-D expects NAME=VALUE, got '${value}'`);
    o.defines = { ...o.defines, [value.slice(0, eq)]: value.slice(eq + 1) };
  }
}

function parseCli(argv: string[]): CliArgs {
  const args: CliArgs = { checkFile: '', opts: {} };
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('-') || a === '-') { positional.push(a); continue; }
    if (a.startsWith('-D')) { applyValueFlag(args, 'D', a.length > 2 ? a.slice(2) : argv[++i] ?? ''); continue; }
    const body = a.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    if (name === 'help' || name === 'h') { process.stdout.write(USAGE); process.exit(0); }
    if (IGNORED_FLAGS.has(name)) continue;
    if (name in BOOL_FLAGS) {
      Object.assign(args.opts, { [BOOL_FLAGS[name]]: eq < 0 || body.slice(eq + 1) !== 'false' });
      continue;
    }
    if (!VALUE_FLAGS.has(name)) usageError(`unknown option '${a}'`);
    const value = eq >= 0 ? body.slice(eq + 1) : argv[++i];
    if (value === undefined) usageError(`option '${a}' requires a value`);
    applyValueFlag(args, name, value);
  }
  if (positional.length !== 1) usageError('expected exactly one check file');
  args.checkFile = positional[0];
  return args;
}

function readText(path: string | number, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new CheckFileError(`error: could not open ${what}: ${(e as Error).message}\n`);
  }
}

function main(argv: string[]): number {
  try {
    const args = parseCli(argv);
    const checkText = readText(args.checkFile, `check file '${args.checkFile}'`);
    const input = args.inputFile === undefined ? readText(0, 'standard input')
      : readText(args.inputFile, `input file '${args.inputFile}'`);
    const inputName = args.inputFile === undefined || args.inputFile === '-' ? '<stdin>' : args.inputFile;
    const res = runFileCheck(checkText, input, { ...args.opts, checkFileName: args.checkFile, inputName });
    process.stderr.write(res.message);
    return res.exitCode;
  } catch (e) {
    if (!(e instanceof CheckFileError)) throw e;
    process.stderr.write(e.message);
    return 2;
  }
}

function isMainModule(): boolean {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMainModule()) process.exitCode = main(process.argv.slice(2));
