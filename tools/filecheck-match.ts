// Matching of a parsed check file against one input buffer, for our FileCheck:
// the CHECK-LABEL regions, CHECK-DAG/NOT groups, line constraints, variables,
// and the diagnostics (with fuzzy "possible intended match" and the
// annotations drawn by the input dump).
import { ABBREV, type Annotation } from './filecheck-dump.js';
import {
  type CheckFile, type CheckString, type Expr, type FileCheckOptions, type NumFormat, type Pattern,
  UNSIGNED, escapeRe, formatDiag, formatNum, numWildcard, parseNum,
} from './filecheck-pattern.js';

interface Match {
  start: number;
  end: number;
}

interface NumValue {
  value: bigint;
  fmt: NumFormat;
}

interface Built {
  re: RegExp;
  defs: Map<string, string>;
  numDefs: Map<string, { name: string; fmt: NumFormat }>;
  /** Substitutions made, for the 'with "X" equal to "v"' notes. */
  subs: Array<[string, string]>;
}

/** Thrown (internally) when a pattern cannot be built, e.g. it uses an undefined variable. */
class BadPattern {
  constructor(readonly col: number, readonly msg: string) {}
}

/** Levenshtein distance, as LLVM's StringRef::edit_distance. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** The string LLVM compares input against for fuzzy matching: the fixed text, or the regex text. */
function exampleString(pat: Pattern, matchFullLines: boolean): string {
  const fixed = pat.pieces.length === 1 && pat.pieces[0].t === 'lit';
  if (!matchFullLines && (fixed || pat.text.length < 2 || !/\{\{|\[\[/.test(pat.text))) return pat.text;
  let s = matchFullLines ? '^' : '';
  for (const p of pat.pieces) {
    if (p.t === 'lit') s += p.text.replace(/[()^$|*+?.[\]\\{}]/g, '\\$&');
    else if (p.t === 're' || p.t === 'def') s += `(${p.raw})`;
  }
  return s;
}

/** Matches a parsed check file against one input buffer, collecting diagnostics. */
export class Matcher {
  private vars: Map<string, string>;
  private readonly numVars = new Map<string, NumValue>();
  private readonly lineStarts: number[] = [0];
  out = '';
  readonly annotations: Annotation[] = [];

  constructor(private readonly cf: CheckFile, private readonly buf: string,
    private readonly opts: FileCheckOptions, private readonly inputName: string,
    numDefines: Array<{ name: string; fmt?: NumFormat; expr: Expr }> = []) {
    this.vars = new Map(Object.entries(opts.defines ?? {}));
    for (const d of numDefines) {
      const v = this.evalExpr(d.expr, 0);
      this.numVars.set(d.name, { value: v.value, fmt: d.fmt ?? v.fmt });
    }
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
    for (const k of [...this.numVars.keys()]) if (!k.startsWith('$')) this.numVars.delete(k);
  }

  private key(pat: Pattern): string {
    return pat.implicit ? `not:imp${pat.implicit}` : `${ABBREV[pat.kind]}:${pat.line}`;
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
      if (!m) return this.noMatch(pat, matchEnd, to, pat.kind === 'count' ? ` (${n} out of ${pat.count})` : '');
      if (first < 0) first = m.start;
      matchEnd = m.end;
    }
    if (labelScan) return { start: first, end: matchEnd };
    if (!this.checkLinePosition(pat, lastPos, first, matchEnd)) return undefined;
    if (!this.checkNot(nots, lastPos, first)) return undefined;
    return { start: first, end: matchEnd };
  }

  /** Verifies the CHECK-NEXT / CHECK-EMPTY / CHECK-SAME line constraints. */
  private checkLinePosition(pat: Pattern, lastPos: number, matchPos: number, matchEnd: number): boolean {
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
    this.annotations.push({ key: this.key(pat), start: matchPos, end: matchEnd, head: '!', note: 'error: match on wrong line', error: true });
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
        if (!m) { this.noMatch(pat, pos, to, ''); return undefined; }
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
      const subs: Array<[string, string]> = [];
      const m = this.match(pat, from, to, subs);
      if (m === undefined) continue;
      ok = false;
      if (m === null) continue;
      if (pat.implicit) {
        const flag = `-implicit-check-not='${pat.text}'`;
        this.out += formatDiag('command line', 1, 22, 'error', 'IMPLICIT-CHECK-NOT: excluded string found in input', flag);
      } else this.checkError(pat, `${pat.name}: excluded string found in input`);
      this.note(m.start, 'found here', m.end - m.start);
      this.annotations.push({ key: this.key(pat), start: m.start, end: m.end, head: '!', note: 'error: no match expected', error: true });
      for (const [name, value] of subs) {
        this.note(m.start, `with "${name}" equal to "${value}"`);
        this.annotations.push({ key: this.key(pat), start: m.start, end: m.start, head: '', note: `with "${name}" equal to "${value}"`, error: false });
      }
    }
    return ok;
  }

  /**
   * Searches for a pattern in [from, to), never across a newline.
   * Returns undefined when there is no match and null after reporting an error.
   */
  private match(pat: Pattern, from: number, to: number, subsOut?: Array<[string, string]>): Match | undefined | null {
    if (pat.kind === 'eof') return { start: to, end: to };
    if (pat.kind === 'empty') return this.matchEmpty(from, to);
    let built: Built;
    try {
      built = this.buildRegex(pat);
    } catch (e) {
      if (!(e instanceof BadPattern)) throw e;
      this.out += formatDiag(this.cf.fileName, pat.line, e.col, 'error', e.msg, this.cf.lines[pat.line - 1]);
      const key = this.key(pat);
      this.annotations.push({ key, start: from, end: to, head: 'X', note: 'error: match failed for invalid pattern', error: true });
      this.annotations.push({ key, start: from, end: from, head: '', note: e.msg, error: false });
      return null;
    }
    subsOut?.push(...built.subs);
    const { re } = built;
    for (let pos = from; pos <= to;) {
      let lineEnd = this.buf.indexOf('\n', pos);
      if (lineEnd < 0 || lineEnd > to) lineEnd = to;
      const m = re.exec(this.buf.slice(pos, lineEnd));
      if (m) {
        for (const [group, name] of built.defs) this.vars.set(name, m.groups?.[group] ?? '');
        for (const [group, { name, fmt }] of built.numDefs) {
          this.numVars.set(name, { value: parseNum(m.groups?.[group] ?? '0', fmt), fmt });
        }
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

  /** Evaluates a numeric expression; its format is that of its first variable (else unsigned). */
  private evalExpr(e: Expr, line: number): NumValue {
    if (e.k === 'num') return { value: e.value, fmt: UNSIGNED };
    if (e.k === 'line') return { value: BigInt(line), fmt: UNSIGNED };
    if (e.k === 'var') {
      const v = this.numVars.get(e.name);
      if (!v) throw new BadPattern(e.col, `undefined variable: ${e.name}`);
      return v;
    }
    const args = e.k === 'bin' ? [e.l, e.r] : e.args;
    const [a, b] = args.map((x) => this.evalExpr(x, line));
    const fn = e.k === 'bin' ? (e.op === '+' ? 'add' : 'sub') : e.fn;
    const fmt = [a, b].find((x) => x.fmt !== UNSIGNED)?.fmt ?? UNSIGNED;
    const ops: Record<string, (x: bigint, y: bigint) => bigint> = {
      add: (x, y) => x + y, sub: (x, y) => x - y, mul: (x, y) => x * y,
      div: (x, y) => { if (y === 0n) throw new BadPattern(0, 'division by zero'); return x / y; },
      max: (x, y) => (x > y ? x : y), min: (x, y) => (x < y ? x : y),
    };
    return { value: ops[fn](a.value, b.value), fmt };
  }

  /** Builds the JS regex for a pattern with the current variable values. */
  private buildRegex(pat: Pattern): Built {
    const defs = new Map<string, string>();
    const numDefs = new Map<string, { name: string; fmt: NumFormat }>();
    const subs: Array<[string, string]> = [];
    const local = new Map<string, string>();
    let src = '';
    let groups = 0;
    for (const p of pat.pieces) {
      if (p.t === 'lit') src += escapeRe(p.text);
      else if (p.t === 're') src += `(?:${p.src})`;
      else if (p.t === 'line') src += String(p.value);
      else if (p.t === 'def') {
        const group = `v${groups++}`;
        defs.set(group, p.name);
        local.set(p.name, group);
        src += `(?<${group}>${p.src})`;
      } else if (p.t === 'num') {
        let body: string;
        let fmt = p.fmt ?? UNSIGNED;
        if (p.expr) {
          const v = this.evalExpr(p.expr, pat.line);
          fmt = p.fmt ?? v.fmt;
          const text = formatNum(v.value, fmt);
          body = escapeRe(text);
          if (!p.def && p.expr.k !== 'line' && p.expr.k !== 'num') subs.push([p.text, text]);
        } else body = numWildcard(fmt);
        if (p.def) {
          const group = `v${groups++}`;
          numDefs.set(group, { name: p.def, fmt });
          src += `(?<${group}>${body})`;
        } else src += `(?:${body})`;
      } else if (local.has(p.name)) src += `\\k<${local.get(p.name)}>`;
      else if (this.vars.has(p.name)) {
        const value = this.vars.get(p.name) ?? '';
        subs.push([p.name, value]);
        src += escapeRe(value);
      } else throw new BadPattern(p.col, `undefined variable: ${p.name}`);
    }
    if (this.opts.matchFullLines) src = this.opts.strictWhitespace ? `^(?:${src})$` : `^[ \\t]*(?:${src})[ \\t]*$`;
    return { re: new RegExp(src), defs, numDefs, subs };
  }

  private noMatch(pat: Pattern, scanFrom: number, to: number, extra: string): undefined {
    this.checkError(pat, `${pat.name}: expected string not found in input${extra}`);
    this.note(scanFrom, 'scanning from here');
    const key = this.key(pat);
    this.annotations.push({ key, start: scanFrom, end: to, head: 'X', note: 'error: no match found', error: true });
    let subs: Array<[string, string]> = [];
    try {
      subs = pat.kind === 'empty' || pat.kind === 'eof' ? [] : this.buildRegex(pat).subs;
    } catch {
      // a pattern that cannot be built has been reported already
    }
    for (const [name, value] of subs) {
      this.note(scanFrom, `with "${name}" equal to "${value}"`);
      this.annotations.push({ key, start: scanFrom, end: scanFrom, head: '', note: `with "${name}" equal to "${value}"`, error: false });
    }
    if (pat.kind !== 'empty') this.fuzzy(pat, scanFrom, to, key);
    return undefined;
  }

  /** LLVM's Pattern::printFuzzyMatch: the closest-looking position after the scan start. */
  private fuzzy(pat: Pattern, from: number, to: number, key: string): void {
    const example = exampleString(pat, !!this.opts.matchFullLines);
    const buffer = this.buf.slice(from, to);
    let lines = 0;
    let best = -1;
    let bestQuality = 0;
    for (let i = 0, e = Math.min(4096, buffer.length); i !== e; i++) {
      if (buffer[i] === '\n') lines++;
      if (buffer[i] === ' ' || buffer[i] === '\t') continue;
      const prefix = buffer.slice(i, i + example.length).split('\n')[0];
      const quality = editDistance(prefix, example) + lines / 100;
      if (best < 0 || quality < bestQuality) { best = i; bestQuality = quality; }
    }
    if (best > 0 && bestQuality < 50) {
      this.note(from + best, 'possible intended match here');
      this.annotations.push({ key, start: from + best, end: from + best, head: '?', note: 'possible intended match', error: false });
    }
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
