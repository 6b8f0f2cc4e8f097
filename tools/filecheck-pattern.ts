// Check-file parsing for our FileCheck: directives, prefixes, pattern pieces
// ({{regex}}, [[VAR:regex]], [[VAR]], [[@LINE]]) and numeric substitution
// blocks ([[#%fmt,VAR:expr]]). Used by tools/filecheck.ts.

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
  /** Initial numeric variables (-D#[%fmt,]NAME=EXPR), as the text after '#'. */
  numericDefines?: string[];
  /** Annotated input dump: 'fail' prints it after a failure (the CLI's default, like LLVM's). */
  dumpInput?: 'never' | 'fail' | 'always';
  /** Lines of context around error lines in the dump (default 5). */
  dumpInputContext?: number;
  /** Which input lines the dump shows: 'all' or only those near errors (default). */
  dumpInputFilter?: 'all' | 'annotation-full' | 'annotation' | 'error';
}

export type Kind = 'plain' | 'next' | 'same' | 'not' | 'dag' | 'label' | 'empty' | 'count' | 'eof';

/** Number format of a numeric variable or expression (%u, %d, %x, %X, with precision and '#'). */
export interface NumFormat {
  conv: 'u' | 'd' | 'x' | 'X';
  precision: number;
  alt: boolean;
}

export type Expr =
  | { k: 'num'; value: bigint }
  | { k: 'var'; name: string; col: number }
  | { k: 'line' }
  | { k: 'bin'; op: '+' | '-'; l: Expr; r: Expr }
  | { k: 'call'; fn: string; args: Expr[] };

export type Piece =
  | { t: 'lit'; text: string }
  | { t: 're'; src: string; raw: string }
  | { t: 'def'; name: string; src: string; raw: string }
  | { t: 'use'; name: string; col: number }
  | { t: 'line'; value: number }
  /** Numeric block: defines `def` (if set) and/or matches the value of `expr`. */
  | { t: 'num'; def?: string; fmt?: NumFormat; expr?: Expr; text: string; col: number };

export interface Pattern {
  kind: Kind;
  count: number;
  /** Directive name as printed in diagnostics, e.g. 'CHECK-NEXT'. */
  name: string;
  line: number;
  col: number;
  pieces: Piece[];
  /** The pattern text (canonicalized), used for fuzzy matching. */
  text: string;
  /** Index of the --implicit-check-not pattern (1-based), 0 for check-file patterns. */
  implicit: number;
}

export interface CheckString {
  pat: Pattern;
  dagNot: Pattern[];
}

export class CheckFileError extends Error {}

const SUFFIX_RE = /^(?:-(NEXT|SAME|NOT|DAG|LABEL|EMPTY|COUNT-([0-9]+)))?(\{LITERAL\})?:/;
// LLVM 14 accepts a leading digit despite the wording of its error message.
export const PREFIX_RE = /^[A-Za-z0-9_-]+$/;
const VAR_NAME_RE = /^\$?[A-Za-z_][A-Za-z0-9_]*$/;
const LINE_VAR_RE = /^@LINE(?:([+-])\s*([0-9]+))?$/;
const POSIX_CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z', digit: '0-9', alnum: 'a-zA-Z0-9', upper: 'A-Z', lower: 'a-z',
  space: ' \\t\\n\\r\\f\\v', blank: ' \\t', xdigit: '0-9A-Fa-f', word: '\\w',
  punct: '!-\\/:-@\\[-`{-~',
};

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_-]/.test(c);
export const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const posixToJs = (src: string): string =>
  src.replace(/\[:([a-z]+):\]/g, (m, cls: string) => POSIX_CLASSES[cls] ?? m);
/** Collapses runs of spaces and tabs to one space, as FileCheck does unless --strict-whitespace. */
export const canonicalize = (s: string): string => s.replace(/[ \t]+/g, ' ');

/** Words a JS RegExp syntax error like the POSIX regcomp messages LLVM prints. */
function posixRegexError(msg: string): string {
  if (/Unterminated group|Unmatched '\)'/.test(msg)) return 'parentheses not balanced';
  if (/Unterminated character class/.test(msg)) return 'brackets ([ ]) not balanced';
  if (/Nothing to repeat/.test(msg)) return 'repetition-operator operand invalid';
  if (/Incomplete quantifier|numbers out of order/.test(msg)) return 'invalid repetition count(s)';
  if (/\\ at end of pattern/.test(msg)) return 'trailing backslash (\\)';
  return msg.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '');
}

/** Formats one diagnostic in the FileCheck style: location, message, source line, caret. */
export function formatDiag(file: string, line: number, col: number, level: string, msg: string,
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

/** Regex matching any value printed in `fmt`, like LLVM's ExpressionFormat::getWildcardRegex. */
export function numWildcard(fmt: NumFormat): string {
  const alt = fmt.alt ? '0x' : '';
  const digits = fmt.conv === 'x' ? ['1-9a-f', '0-9a-f'] : fmt.conv === 'X' ? ['1-9A-F', '0-9A-F'] : ['1-9', '0-9'];
  const sign = fmt.conv === 'd' ? '-?' : '';
  if (fmt.precision) return `${alt}${sign}(?:[${digits[0]}][${digits[1]}]*)?[${digits[1]}]{${fmt.precision}}`;
  return `${alt}${sign}[${digits[1]}]+`;
}

/** Prints a value in a numeric format. */
export function formatNum(value: bigint, fmt: NumFormat): string {
  const neg = value < 0n;
  let digits = (neg ? -value : value).toString(fmt.conv === 'x' || fmt.conv === 'X' ? 16 : 10);
  if (fmt.conv === 'X') digits = digits.toUpperCase();
  digits = digits.padStart(fmt.precision, '0');
  return `${neg ? '-' : ''}${fmt.alt ? '0x' : ''}${digits}`;
}

/** Parses a matched numeric string back into a value. */
export function parseNum(text: string, fmt: NumFormat): bigint {
  const neg = text.startsWith('-');
  let body = neg ? text.slice(1) : text;
  if (fmt.alt) body = body.replace(/^0x/, '');
  const v = fmt.conv === 'x' || fmt.conv === 'X' ? BigInt(`0x${body}`) : BigInt(body);
  return neg ? -v : v;
}

export const UNSIGNED: NumFormat = { conv: 'u', precision: 0, alt: false };

/** Parser of the text inside one [[#...]] block; positions are 1-based check-file columns. */
class NumericParser {
  private i = 0;
  constructor(private readonly s: string, private readonly col0: number,
    private readonly fail: (col: number, msg: string) => never) {}

  private skip(): void { while (this.s[this.i] === ' ' || this.s[this.i] === '\t') this.i++; }
  private col(): number { return this.col0 + this.i; }

  /** Parses `[%fmt,] [NAME:] [expr]`. */
  parseBlock(col: number): Piece {
    let fmt: NumFormat | undefined;
    this.skip();
    const fm = /^%(#)?(?:\.([0-9]+))?([udxX])?\s*,/.exec(this.s.slice(this.i));
    if (this.s[this.i] === '%') {
      if (!fm) this.fail(this.col(), 'invalid matching format specification in expression');
      if (!fm[3]) this.fail(this.col() + fm[0].length - 1, 'invalid format specifier in expression');
      if (fm[1] && (fm[3] === 'u' || fm[3] === 'd')) this.fail(this.col(), 'alternate form only supported for hex values');
      fmt = { conv: fm[3] as NumFormat['conv'], precision: Number(fm[2] ?? 0), alt: !!fm[1] };
      this.i += fm[0].length;
    }
    this.skip();
    let def: string | undefined;
    const dm = /^([A-Za-z_$][A-Za-z0-9_]*)\s*:(?!:)/.exec(this.s.slice(this.i));
    if (dm) {
      def = dm[1];
      if (def.startsWith('$') && !VAR_NAME_RE.test(def)) this.fail(this.col(), `invalid variable name`);
      this.i += dm[0].length;
    }
    this.skip();
    if (this.s.startsWith('==', this.i)) { this.i += 2; this.skip(); }
    const exprText = this.s.slice(this.i).trim();
    let expr: Expr | undefined;
    if (this.i < this.s.length) {
      expr = this.parseExpr();
      this.skip();
      if (this.i < this.s.length) this.fail(this.col(), `unexpected characters at end of expression '${this.s.slice(this.i)}'`);
    }
    return { t: 'num', def, fmt, expr, text: exprText, col };
  }

  private parseExpr(): Expr {
    let l = this.parseOperand();
    for (;;) {
      this.skip();
      const c = this.s[this.i];
      if (c === undefined || c === ')' || c === ',') return l;
      if (c !== '+' && c !== '-') this.fail(this.col(), `unsupported operation '${c}'`);
      this.i++;
      this.skip();
      if (this.i >= this.s.length) this.fail(this.col(), 'missing operand in expression');
      l = { k: 'bin', op: c, l, r: this.parseOperand() };
    }
  }

  private parseOperand(): Expr {
    this.skip();
    const rest = this.s.slice(this.i);
    if (rest === '') this.fail(this.col(), 'missing operand in expression');
    if (rest.startsWith('(')) {
      this.i++;
      const e = this.parseExpr();
      if (this.s[this.i] !== ')') this.fail(this.col(), "missing ')' at end of nested expression");
      this.i++;
      return e;
    }
    const num = /^(-?)(0x[0-9a-fA-F]+|[0-9]+)/.exec(rest);
    if (num) {
      this.i += num[0].length;
      const v = BigInt(num[2]);
      return { k: 'num', value: num[1] ? -v : v };
    }
    if (rest.startsWith('@LINE')) { this.i += 5; return { k: 'line' }; }
    const id = /^\$?[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (!id) this.fail(this.col(), `invalid operand format '${rest}'`);
    const col = this.col();
    this.i += id[0].length;
    this.skip();
    if (this.s[this.i] !== '(') return { k: 'var', name: id[0], col };
    const fns = ['add', 'sub', 'mul', 'div', 'max', 'min'];
    if (!fns.includes(id[0])) this.fail(col, `call to undefined function '${id[0]}'`);
    this.i++;
    const args: Expr[] = [];
    for (;;) {
      args.push(this.parseExpr());
      this.skip();
      if (this.s[this.i] === ',') { this.i++; continue; }
      if (this.s[this.i] !== ')') this.fail(this.col(), "missing ')' at end of call expression");
      this.i++;
      break;
    }
    if (args.length !== 2) this.fail(col, `function '${id[0]}' takes 2 arguments but ${args.length} given`);
    return { k: 'call', fn: id[0], args };
  }
}

/** Variables an expression reads (not counting @LINE). */
export function exprVars(e: Expr | undefined, out: Expr[] = []): Expr[] {
  if (!e) return out;
  if (e.k === 'var') out.push(e);
  else if (e.k === 'bin') { exprVars(e.l, out); exprVars(e.r, out); }
  else if (e.k === 'call') e.args.forEach((a) => exprVars(a, out));
  return out;
}

/** Parses the text after '#' in -D#[%fmt,]NAME=EXPR. */
export function parseNumericDefine(text: string): { name: string; fmt?: NumFormat; expr: Expr } {
  const eq = text.indexOf('=');
  const fail = (_col: number, msg: string): never => { throw new CheckFileError(`-D#${text}: error: ${msg}\n`); };
  if (eq < 0) fail(0, "missing equal sign in '-D#' option");
  const lhs = text.slice(0, eq);
  const piece = new NumericParser(`${lhs}:${text.slice(eq + 1)}`, 1, fail).parseBlock(1);
  if (piece.t !== 'num' || !piece.def || !piece.expr) return fail(0, 'invalid -D# definition');
  return { name: piece.def, fmt: piece.fmt, expr: piece.expr };
}

/** Parsed check file: the check strings plus what is needed to print diagnostics. */
export class CheckFile {
  readonly checks: CheckString[] = [];
  readonly lines: string[];
  private readonly canon: (s: string) => string;

  constructor(text: string, readonly fileName: string, private readonly opts: FileCheckOptions,
    readonly prefixes: string[]) {
    this.canon = opts.strictWhitespace ? (s) => s : canonicalize;
    // Like LLVM, diagnostics quote the canonicalized check file.
    this.lines = text.split('\n').map(this.canon);
  }

  error(line: number, col: number, msg: string): never {
    throw new CheckFileError(formatDiag(this.fileName, line, col, 'error', msg, this.lines[line - 1] ?? ''));
  }

  /** Parses every line; returns the set of prefixes that had at least one directive. */
  parse(): Set<string> {
    const used = new Set<string>();
    const implicit = (this.opts.implicitCheckNot ?? []).map((s, i) => this.implicitNot(s, i + 1));
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
      const eof: Pattern = { kind: 'eof', count: 1, name: 'EOF', line: this.lines.length, col: 1, pieces: [], text: '', implicit: 0 };
      this.checks.push({ pat: eof, dagNot });
    }
    return used;
  }

  private implicitNot(text: string, index: number): Pattern {
    return { kind: 'not', count: 1, name: 'IMPLICIT-CHECK-NOT', line: 0, col: 1,
      pieces: [{ t: 'lit', text: this.canon(text) }], text: this.canon(text), implicit: index };
  }

  /** Finds the first directive on a line (RUN:/COM: lines are comments) and parses its pattern. */
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
    if (kind === 'count' && count === 0) this.error(lineNo, start, `invalid count in -COUNT specification on prefix '${prefix}'`);
    const name = (kind === 'count' ? `${prefix}-COUNT` : suffix ? `${prefix}-${suffix}` : prefix) + (m[3] ?? '');
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
    const pieces = m[3] ? [{ t: 'lit', text: body } as Piece] : this.parsePieces(body, lineNo, col);
    if (kind === 'label' && pieces.some((p) => p.t === 'def' || p.t === 'use' || (p.t === 'num' && (p.def || exprVars(p.expr).length)))) {
      this.error(lineNo, prefixCol, `found '${prefix}-LABEL:' with variable definition or use`);
    }
    return { kind, count, name, line: lineNo, col, pieces, text: body, implicit: 0 };
  }

  /** Splits a pattern into literal text, {{regex}} and [[VAR...]] pieces. */
  private parsePieces(body: string, lineNo: number, col0: number): Piece[] {
    const pieces: Piece[] = [];
    const numDefs = new Set<string>();
    let i = 0;
    while (i < body.length) {
      if (body.startsWith('{{', i)) {
        const end = body.indexOf('}}', i + 2);
        if (end < 0) this.error(lineNo, col0 + i, 'found start of regex string with no end \'}}\'');
        const raw = body.slice(i + 2, end);
        pieces.push({ t: 're', src: this.checkRegex(raw, lineNo, col0 + i + 2), raw });
        i = end + 2;
        continue;
      }
      if (body.startsWith('[[', i)) {
        const end = findVarEnd(body, i + 2);
        if (end < 0) this.error(lineNo, col0 + i, 'Invalid substitution block, no ]] found');
        const inner = body.slice(i + 2, end);
        if (inner.startsWith('#')) {
          // LLVM prints an extra blank line after numeric-expression parse errors.
          const fail = (c: number, msg: string): never => {
            throw new CheckFileError(`${formatDiag(this.fileName, lineNo, c, 'error', msg, this.lines[lineNo - 1] ?? '')}\n`);
          };
          const piece = new NumericParser(inner.slice(1), col0 + i + 3, fail).parseBlock(col0 + i + 3);
          if (piece.t === 'num') {
            for (const v of exprVars(piece.expr)) {
              if (v.k === 'var' && numDefs.has(v.name)) {
                this.error(lineNo, v.col, `numeric variable '${v.name}' defined earlier in the same CHECK directive`);
              }
            }
            if (piece.def) numDefs.add(piece.def);
          }
          pieces.push(piece);
        } else pieces.push(this.parseVar(inner, lineNo, col0 + i + 2));
        i = end + 2;
        continue;
      }
      const next = [body.indexOf('{{', i), body.indexOf('[[', i)].filter((n) => n >= 0);
      const end = next.length ? Math.min(...next) : body.length;
      pieces.push({ t: 'lit', text: body.slice(i, end) });
      i = end;
    }
    return pieces;
  }

  private parseVar(inner: string, lineNo: number, col: number): Piece {
    const colon = inner.indexOf(':');
    const name = colon < 0 ? inner : inner.slice(0, colon);
    const lineVar = LINE_VAR_RE.exec(name);
    if (lineVar && colon < 0) {
      const delta = lineVar[2] ? Number(lineVar[2]) * (lineVar[1] === '-' ? -1 : 1) : 0;
      return { t: 'line', value: lineNo + delta };
    }
    if (!VAR_NAME_RE.test(name)) throw new CheckFileError(`${formatDiag(this.fileName, lineNo, col, 'error', 'invalid variable name', this.lines[lineNo - 1] ?? '')}\n`);
    if (colon < 0) return { t: 'use', name, col };
    const raw = inner.slice(colon + 1);
    return { t: 'def', name, src: this.checkRegex(raw, lineNo, col), raw };
  }

  private checkRegex(src: string, lineNo: number, col: number): string {
    const js = posixToJs(src);
    try {
      new RegExp(js);
    } catch (e) {
      this.error(lineNo, col, `invalid regex: ${posixRegexError((e as Error).message)}`);
    }
    return js;
  }
}
