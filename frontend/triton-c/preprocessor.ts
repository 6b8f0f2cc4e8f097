/**
 * The Triton-C preprocessor: a C preprocessor (object- and function-like macros with `#` and
 * `##`, variadic macros, `#undef`, conditionals with integer constant expressions, `#include
 * "..."`, `#error`, `#warning`, `#pragma once`, other `#pragma`s ignored) plus the built-in
 * prelude (prelude.ts) and command-line definitions (`-D`, see autotune.ts).
 *
 * The output keeps the input's line structure where it can (a token written on line L of the
 * main file lands on output line L until a macro expansion or include shifts things), and a
 * `SourceMap` maps every output offset back to file/line/column plus macro chain. Every user
 * error is a `DiagnosticError` located in the ORIGINAL file, with a caret.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { Diagnostic, DiagnosticError, SourceFile } from '../../ir/diagnostics.js';
import { evaluateCondition } from './pp-expr.js';
import { lexLines, lexString, makeToken, type Line, type PPToken } from './pp-lex.js';
import { diagnosticAt, OutputWriter, SourceMap, type Located } from './pp-map.js';
import { Expander, isIdentity, Reader, spell, type Macro } from './pp-macro.js';
import { PRELUDE, PRELUDE_NAME } from './prelude.js';

export { SourceMap, type Located };

/** Options of `preprocess`. */
export interface PreprocessOptions {
  /** Command-line definitions, name to replacement text (`-DTM=64` is `{ TM: '64' }`), in order. */
  defines?: Record<string, string>;
  /** Reads an included file; null when it does not exist. Defaults to the file system. */
  readFile?: (path: string) => string | null;
  /** Maximum `#include` nesting (default 32). */
  maxIncludeDepth?: number;
  /** Process the built-in prelude first (default true). */
  prelude?: boolean;
}

/** The preprocessed text, its source map and the warnings (`#warning`, macro redefinitions). */
export interface PreprocessResult {
  text: string;
  map: SourceMap;
  warnings: Diagnostic[];
}

/** File name under which `-D` definitions are reported. */
export const COMMAND_LINE_NAME = '<command line>';

/** Preprocesses `source` (its `name` is the base for relative includes). */
export function preprocess(source: SourceFile, options: PreprocessOptions = {}): PreprocessResult {
  return new Preprocessor(options).run(source);
}

/** Reads and preprocesses the file at `path`. */
export function preprocessFile(path: string, options: PreprocessOptions = {}): PreprocessResult {
  return preprocess(new SourceFile(path, readFileSync(path, 'utf8')), options);
}

function defaultReadFile(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

interface Cond {
  hash: PPToken;
  /** This group's lines are processed. */
  active: boolean;
  /** Some group of this if-section was taken. */
  taken: boolean;
  sawElse: boolean;
  /** The enclosing group is active. */
  outer: boolean;
}

const isIdent = (t: PPToken | undefined): t is PPToken => !!t && t.kind === 'ident';
const isPunct = (t: PPToken | undefined, s: string): boolean => !!t && t.kind === 'punct' && t.text === s;

/** Throws a DiagnosticError at token `t` (original file, macro chain in the message). */
function failAt(message: string, t: PPToken): never {
  throw new DiagnosticError(diagnosticAt('error', message, { source: t.source, offset: t.offset }, t));
}

class Preprocessor {
  private readonly macros = new Map<string, Macro>();
  private readonly expander = new Expander(this.macros, failAt);
  private readonly out = new OutputWriter();
  private readonly warnings: Diagnostic[] = [];
  private readonly includeStack: string[] = [];
  private readonly onceFiles = new Set<string>();
  private readonly readFile: (path: string) => string | null;
  private readonly maxDepth: number;

  constructor(private readonly options: PreprocessOptions) {
    this.readFile = options.readFile ?? defaultReadFile;
    this.maxDepth = options.maxIncludeDepth ?? 32;
    this.defineDynamic('__LINE__', (at) => String(at.source.position(at.offset).line));
    this.defineDynamic('__FILE__', (at) => JSON.stringify(at.source.name));
  }

  run(main: SourceFile): PreprocessResult {
    if (this.options.prelude !== false) this.processFile(new SourceFile(PRELUDE_NAME, PRELUDE), false);
    for (const [name, value] of Object.entries(this.options.defines ?? {})) this.defineFromCommandLine(name, value);
    this.includeStack.push(resolve(main.name));
    this.processFile(main, true);
    const { text, map } = this.out.finish(main);
    return { text, map, warnings: this.warnings };
  }

  private defineDynamic(name: string, value: (at: PPToken) => string): void {
    const source = new SourceFile('<built-in>', name);
    const dynamic = (at: PPToken): PPToken => {
      const text = value(at);
      return { ...at, kind: text.startsWith('"') ? 'string' : 'number', text, hide: null };
    };
    this.macros.set(name, { name, params: null, variadic: false, body: [], source, offset: 0, dynamic });
  }

  private defineFromCommandLine(name: string, value: string): void {
    const source = new SourceFile(COMMAND_LINE_NAME, `-D${name}=${value}`);
    const nameTok = makeToken('ident', name, false, source, 2, name.length);
    if (!/^[A-Za-z_$][\w$]*$/.test(name)) failAt('macro names must be identifiers', nameTok);
    const body = lexString(value, source, name.length + 3);
    for (const t of body) if (t.bad) failAt(t.bad, t);
    if (body.length > 0) body[0] = { ...body[0], space: false };
    this.define(nameTok, null, false, body);
  }

  /** Processes one file; `emit` is false for the prelude (definitions only). */
  private processFile(source: SourceFile, emit: boolean): void {
    const lines = lexLines(source, 0, (msg, offset) => failAt(msg, makeToken('other', '', false, source, offset, 2)));
    const conds: Cond[] = [];
    const active = (): boolean => conds.length === 0 || conds[conds.length - 1].active;
    let i = 0;
    const more = (): PPToken[] | null => {
      if (i + 1 >= lines.length || lines[i + 1].hash) return null;
      return lines[++i].tokens;
    };
    for (; i < lines.length; i++) {
      const line = lines[i];
      if (line.hash) {
        this.directive(line, conds, source, active());
        continue;
      }
      if (!active() || line.tokens.length === 0) continue;
      const expanded = this.expander.expand(new Reader(line.tokens, more), []);
      for (const t of expanded) {
        if (t.bad) failAt(t.bad, t);
        if (emit) this.out.write(t);
      }
    }
    if (conds.length > 0) failAt('unterminated conditional directive', conds[conds.length - 1].hash);
  }

  private directive(line: Line, conds: Cond[], source: SourceFile, active: boolean): void {
    const hash = line.hash as PPToken;
    const [nameTok, ...args] = line.tokens;
    if (!nameTok) return; // null directive
    const top = conds[conds.length - 1];
    switch (nameTok.text) {
      case 'if':
      case 'ifdef':
      case 'ifndef': {
        const value = active && this.condition(nameTok, args);
        conds.push({ hash, active: value, taken: value, sawElse: false, outer: active });
        return;
      }
      case 'elif': {
        if (!top) failAt('#elif without #if', nameTok);
        if (top.sawElse) failAt('#elif after #else', nameTok);
        const value = top.outer && !top.taken && this.condition(nameTok, args);
        top.active = value;
        top.taken ||= value;
        return;
      }
      case 'else':
        if (!top) failAt('#else without #if', nameTok);
        if (top.sawElse) failAt('#else after #else', nameTok);
        top.sawElse = true;
        top.active = top.outer && !top.taken;
        top.taken = true;
        return;
      case 'endif':
        if (!top) failAt('#endif without #if', nameTok);
        conds.pop();
        return;
    }
    if (!active) return;
    switch (nameTok.text) {
      case 'define': return this.defineDirective(nameTok, args);
      case 'undef':
        if (!isIdent(args[0])) failAt(args[0] ? 'macro names must be identifiers' : 'no macro name given in #undef directive', args[0] ?? nameTok);
        this.macros.delete(args[0].text);
        return;
      case 'include': return this.include(nameTok, args, source);
      case 'error':
        return failAt(`#error${this.restOfLine(args)}`, nameTok);
      case 'warning':
        this.warnings.push(diagnosticAt('warning', `#warning${this.restOfLine(args)}`, { source, offset: nameTok.offset }, null));
        return;
      case 'pragma':
        if (isIdent(args[0]) && args[0].text === 'once') this.onceFiles.add(resolve(source.name));
        return;
      default:
        failAt(`invalid preprocessing directive #${nameTok.text}`, nameTok);
    }
  }

  private restOfLine(args: PPToken[]): string {
    return args.length === 0 ? '' : ' ' + spell(args);
  }

  /** Value of the condition of `#if`, `#elif`, `#ifdef` or `#ifndef`. */
  private condition(nameTok: PPToken, args: PPToken[]): boolean {
    const kind = nameTok.text;
    if (kind === 'ifdef' || kind === 'ifndef') {
      const name = args[0];
      if (!name) failAt(`no macro name given in #${kind} directive`, nameTok);
      if (!isIdent(name)) failAt('macro names must be identifiers', name);
      return this.macros.has(name.text) === (kind === 'ifdef');
    }
    if (args.length === 0) failAt(`#${kind} with no expression`, nameTok);
    const replaced: PPToken[] = [];
    for (let k = 0; k < args.length; k++) {
      const t = args[k];
      if (!(isIdent(t) && t.text === 'defined')) {
        replaced.push(t);
        continue;
      }
      const paren = isPunct(args[k + 1], '(');
      const name = args[k + (paren ? 2 : 1)];
      if (!isIdent(name)) failAt("macro name missing after 'defined'", name ?? t);
      if (paren && !isPunct(args[k + 3], ')')) failAt("missing ')' after 'defined'", args[k + 3] ?? name);
      replaced.push({ ...t, kind: 'number', text: this.macros.has(name.text) ? '1' : '0' });
      k += paren ? 3 : 1;
    }
    const expanded = this.expander.expand(new Reader(replaced), []);
    const last = args[args.length - 1];
    const end: PPToken = { ...last, offset: last.offset + last.len, chain: [], spell: null };
    return evaluateCondition(expanded, (message, at) => failAt(message, at ?? end));
  }

  private defineDirective(nameTok: PPToken, args: PPToken[]): void {
    const name = args[0];
    if (!name) failAt('no macro name given in #define directive', nameTok);
    if (!isIdent(name)) failAt('macro names must be identifiers', name);
    if (name.text === 'defined') failAt("'defined' cannot be used as a macro name", name);
    let k = 1;
    let params: string[] | null = null;
    let variadic = false;
    if (isPunct(args[1], '(') && !args[1].space) {
      params = [];
      k = 2;
      for (;;) {
        const t = args[k];
        if (isPunct(t, ')') && params.length === 0) break;
        if (isPunct(t, '...')) {
          params.push('__VA_ARGS__');
          variadic = true;
          k++;
          if (!isPunct(args[k], ')')) failAt("missing ')' in macro parameter list", args[k] ?? t);
          break;
        }
        if (!isIdent(t)) failAt(t ? 'expected parameter name' : "missing ')' in macro parameter list", t ?? args[k - 1]);
        if (params.includes(t.text)) failAt(`duplicate macro parameter '${t.text}'`, t);
        params.push(t.text);
        k++;
        if (isPunct(args[k], ')')) break;
        if (!isPunct(args[k], ',')) failAt("expected ',' or ')' in macro parameter list", args[k] ?? t);
        k++;
      }
      k++;
    }
    const body = args.slice(k);
    if (body.length > 0) body[0] = { ...body[0], space: false };
    this.define(name, params, variadic, body);
  }

  /** Checks and records a definition; an incompatible redefinition is a warning, as in C compilers. */
  private define(name: PPToken, params: string[] | null, variadic: boolean, body: PPToken[]): void {
    if (isPunct(body[0], '##')) failAt("'##' cannot appear at either end of a macro expansion", body[0]);
    if (isPunct(body[body.length - 1], '##')) failAt("'##' cannot appear at either end of a macro expansion", body[body.length - 1]);
    for (let j = 0; j < body.length; j++) {
      const t = body[j];
      if (t.text === '__VA_ARGS__' && !variadic) failAt('__VA_ARGS__ can only appear in the expansion of a variadic macro', t);
      if (params && isPunct(t, '#') && !(isIdent(body[j + 1]) && params.includes(body[j + 1].text))) {
        failAt("'#' is not followed by a macro parameter", t);
      }
    }
    const old = this.macros.get(name.text);
    const macro: Macro = { name: name.text, params, variadic, body, source: name.source, offset: name.offset };
    if (!variadic && isIdentity(name.text, params, body)) macro.identity = true;
    if (old && sameDefinition(old, macro)) return;
    if (old) {
      const d = new Diagnostic('warning', `'${name.text}' macro redefined`, { source: name.source, offset: name.offset });
      if (!old.dynamic) d.attachNote('previous definition is here', { source: old.source, offset: old.offset });
      this.warnings.push(d);
    }
    this.macros.set(name.text, macro);
  }

  private include(nameTok: PPToken, args: PPToken[], from: SourceFile): void {
    let toks = args;
    if (toks.length > 0 && toks[0].kind !== 'string' && !isPunct(toks[0], '<')) toks = this.expander.expand(new Reader(args), []);
    const t = toks[0];
    if (!t) failAt('#include expects "FILENAME"', nameTok);
    if (isPunct(t, '<')) failAt('#include <...> is not supported; use #include "..."', t);
    if (t.kind !== 'string') failAt('#include expects "FILENAME"', t);
    if (toks.length > 1) failAt('extra tokens at end of #include directive', toks[1]);
    const rel = t.text.slice(1, -1);
    const path = isAbsolute(rel) ? rel : join(dirname(from.name), rel);
    const key = resolve(path);
    if (this.onceFiles.has(key)) return;
    if (this.includeStack.includes(key)) failAt(`recursive #include of '${rel}'`, t);
    if (this.includeStack.length > this.maxDepth) failAt(`#include nested too deeply (limit is ${this.maxDepth})`, t);
    const text = this.readFile(path);
    if (text === null) failAt(`'${rel}' file not found`, t);
    this.includeStack.push(key);
    try {
      this.processFile(new SourceFile(path, text), true);
    } finally {
      this.includeStack.pop();
    }
  }
}

function sameDefinition(a: Macro, b: Macro): boolean {
  if (a.dynamic || b.dynamic) return false;
  if (JSON.stringify(a.params) !== JSON.stringify(b.params) || a.body.length !== b.body.length) return false;
  return a.body.every((t, k) => t.text === b.body[k].text && (k === 0 || t.space === b.body[k].space));
}
