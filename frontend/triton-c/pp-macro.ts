/**
 * Macro definitions and expansion, after Prosser's hide-set algorithm (the one the C standard
 * describes): every token carries the set of macros it must not be expanded by again. Expanded
 * tokens are relocated to the invocation site (outermost, so a diagnostic points at what the
 * user wrote) and record the macro chain; tokens of arguments keep their own location.
 */
import type { SourceFile } from '../../ir/diagnostics.js';
import { lexString, type PPToken } from './pp-lex.js';

/** A macro definition. `params` is null for object-like macros. */
export interface Macro {
  name: string;
  params: string[] | null;
  variadic: boolean;
  body: PPToken[];
  /** Where the name was spelled in the `#define` (or `-D`). */
  source: SourceFile;
  offset: number;
  /** Dynamic macros (`__LINE__`, `__FILE__`): computes the replacement from the invocation token. */
  dynamic?: (at: PPToken) => PPToken;
  /**
   * An identity definition (`#define X X`, `#define F(a) F(a)`, as the prelude's attributes): the
   * name is passed through untouched (keeping its own location and no macro chain), and what
   * follows is scanned as ordinary text. Equivalent to the C semantics for such definitions.
   */
  identity?: boolean;
}

/** True when `body` just re-invokes the macro itself with its parameters in order. */
export function isIdentity(name: string, params: string[] | null, body: readonly PPToken[]): boolean {
  const texts = body.map((t) => t.text);
  const want = params === null ? [name] : [name, '(', ...params.flatMap((p, k) => (k === 0 ? [p] : [',', p])), ')'];
  return texts.length === want.length && texts.every((t, k) => t === want[k]);
}

/** Reports an error at a token and aborts. */
export type MacroError = (message: string, at: PPToken) => never;

/** A token stream with push-back; `more` supplies further lines (null once they run out). */
export class Reader {
  private readonly stack: PPToken[] = [];
  constructor(tokens: PPToken[], private readonly more: (() => PPToken[] | null) | null = null) {
    this.unshift(tokens);
  }
  /** The next token, or null at the end. */
  next(): PPToken | null {
    while (this.stack.length === 0) {
      const line = this.more ? this.more() : null;
      if (line === null) return null;
      this.unshift(line);
    }
    return this.stack.pop() ?? null;
  }
  /** Puts tokens back in front of the stream. */
  unshift(tokens: readonly PPToken[]): void {
    for (let i = tokens.length - 1; i >= 0; i--) this.stack.push(tokens[i]);
  }
}

const isPunct = (t: PPToken | null | undefined, text: string): boolean => !!t && t.kind === 'punct' && t.text === text;

function addHide(h: ReadonlySet<string> | null, more: ReadonlySet<string>): ReadonlySet<string> {
  if (!h || h.size === 0) return more;
  const s = new Set(h);
  for (const m of more) s.add(m);
  return s;
}

function intersect(a: ReadonlySet<string> | null, b: ReadonlySet<string> | null): Set<string> {
  const s = new Set<string>();
  if (!a || !b) return s;
  for (const m of a) if (b.has(m)) s.add(m);
  return s;
}

/** Spelling of the tokens as `#` stringizes them (one space where there was whitespace). */
export function spell(tokens: readonly PPToken[]): string {
  let s = '';
  for (const t of tokens) {
    if (t.kind === 'placemarker') continue;
    if (s !== '' && t.space) s += ' ';
    s += t.text;
  }
  return s;
}

/** Expands macros in token streams. */
export class Expander {
  constructor(readonly macros: Map<string, Macro>, private readonly error: MacroError) {}

  /** Fully expands what `reader` yields (rescanning replacements), appending to `out`. */
  expand(reader: Reader, out: PPToken[]): PPToken[] {
    for (let t = reader.next(); t !== null; t = reader.next()) {
      const m = t.kind === 'ident' ? this.macros.get(t.text) : undefined;
      if (!m || (t.hide && t.hide.has(t.text))) {
        out.push(t);
        continue;
      }
      if (m.identity) {
        out.push(t);
        continue;
      }
      if (m.dynamic) {
        out.push(m.dynamic(t));
        continue;
      }
      if (m.params === null) {
        reader.unshift(this.substitute(m, t, [], addHide(t.hide, new Set([m.name]))));
        continue;
      }
      const paren = reader.next();
      if (!isPunct(paren, '(')) {
        if (paren) reader.unshift([paren]);
        out.push(t);
        continue;
      }
      const { args, close } = this.collectArgs(reader, m, t);
      const hide = intersect(t.hide, close.hide);
      hide.add(m.name);
      reader.unshift(this.substitute(m, t, args, hide));
    }
    return out;
  }

  /** Reads the arguments of an invocation of `m` (the `(` is consumed); tokens get `m` added to their chain. */
  private collectArgs(reader: Reader, m: Macro, name: PPToken): { args: PPToken[][]; close: PPToken } {
    const params = m.params ?? [];
    const args: PPToken[][] = [[]];
    let depth = 0;
    for (;;) {
      const t = reader.next();
      if (t === null) return this.error(`unterminated argument list invoking macro '${m.name}'`, name);
      if (depth === 0 && isPunct(t, ')')) {
        this.checkArity(m, args, params, name);
        return { args, close: t };
      }
      if (isPunct(t, '(')) depth++;
      else if (isPunct(t, ')')) depth--;
      if (depth === 0 && isPunct(t, ',') && !(m.variadic && args.length === params.length)) {
        args.push([]);
        continue;
      }
      args[args.length - 1].push({ ...t, chain: [m.name, ...t.chain] });
    }
  }

  private checkArity(m: Macro, args: PPToken[][], params: string[], name: PPToken): void {
    if (params.length === 0 && args.length === 1 && args[0].length === 0) {
      args.length = 0;
      return;
    }
    if (m.variadic && args.length === params.length - 1) args.push([]);
    if (args.length < params.length) {
      this.error(`macro '${m.name}' requires ${params.length} argument${params.length === 1 ? '' : 's'}, but only ${args.length} given`, name);
    }
    if (args.length > params.length) {
      this.error(`macro '${m.name}' passed ${args.length} arguments, but takes just ${params.length}`, name);
    }
  }

  /** The replacement list of `m` invoked by `name`, with arguments substituted, pasted and stringized. */
  private substitute(m: Macro, name: PPToken, args: PPToken[][], hide: ReadonlySet<string>): PPToken[] {
    const params = m.params ?? [];
    const expanded = new Map<number, PPToken[]>();
    const expandedArg = (k: number): PPToken[] => {
      let e = expanded.get(k);
      if (!e) expanded.set(k, (e = this.expand(new Reader(args[k]), [])));
      return e;
    };
    const chain = [m.name, ...name.chain];
    const fromBody = (b: PPToken, space: boolean): PPToken => ({
      ...b, space, source: name.source, offset: name.offset, len: 0, chain, hide: null,
      spell: b.spell ?? { source: b.source, offset: b.offset },
    });
    const out: PPToken[] = [];
    const body = m.body;
    const paramIndex = (t: PPToken | undefined): number => (t && t.kind === 'ident' ? params.indexOf(t.text) : -1);
    const placeArg = (toks: PPToken[], space: boolean): void => {
      if (toks.length === 0) {
        out.push({ ...fromBody(name, space), kind: 'placemarker', text: '' });
        return;
      }
      toks.forEach((t, j) => out.push(j === 0 ? { ...t, space } : t));
    };
    for (let i = 0; i < body.length; i++) {
      const b = body[i];
      const space = i === 0 ? name.space : b.space;
      if (m.params && isPunct(b, '#') && paramIndex(body[i + 1]) >= 0) {
        const arg = args[paramIndex(body[i + 1])];
        const text = '"' + spell(arg).replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
        out.push({ ...fromBody(b, space), kind: 'string', text });
        i++;
        continue;
      }
      if (isPunct(b, '##') && out.length > 0) {
        const lhs = out.pop() as PPToken;
        const next = body[++i];
        const k = paramIndex(next);
        const rhsToks = k >= 0 ? args[k] : [fromBody(next, next.space)];
        out.push(this.paste(lhs, rhsToks[0], name));
        for (let j = 1; j < rhsToks.length; j++) out.push(rhsToks[j]);
        continue;
      }
      const k = paramIndex(b);
      if (k < 0) {
        out.push(fromBody(b, space));
        continue;
      }
      placeArg(isPunct(body[i + 1], '##') ? args[k] : expandedArg(k), space);
    }
    const result: PPToken[] = [];
    for (const t of out) if (t.kind !== 'placemarker') result.push({ ...t, hide: addHide(t.hide, hide) });
    return result;
  }

  /** `lhs ## rhs` (either may be a placemarker or absent). */
  private paste(lhs: PPToken, rhs: PPToken | undefined, name: PPToken): PPToken {
    if (!rhs || rhs.kind === 'placemarker') return lhs;
    if (lhs.kind === 'placemarker') return { ...rhs, space: lhs.space };
    const toks = lexString(lhs.text + rhs.text, lhs.source, lhs.offset);
    if (toks.length !== 1 || toks[0].bad) {
      return this.error(`pasting "${lhs.text}" and "${rhs.text}" does not give a valid preprocessing token`, name);
    }
    return { ...lhs, kind: toks[0].kind, text: toks[0].text };
  }
}
