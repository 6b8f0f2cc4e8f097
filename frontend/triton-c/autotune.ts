/**
 * Command-line definitions and the autotuning space.
 *
 * `-DNAME=VALUE` defines NAME as VALUE, any token list (`-DSHAPE_A=TM,TK`, `-DUSE_A=^a`,
 * `-DBROADCAST_AK=newaxis,:`); `-DNAME` defines NAME as `1`; `-DNAME=` defines it as empty.
 * A VALUE that is one bracketed group `[...]` is a LIST: `-DTM=[32, 64, 128]`. Its
 * items are split at top-level commas (commas inside `()`, `[]`, `{}` or quotes do not split,
 * so `-DSHAPE=[(TM,TK), (TK,TM)]` has two items) and trimmed. A list of one item is allowed.
 * There is no way to give a plain value that is a single bracketed group (`[0]` is a one-item
 * list); `[a] + b[c]` is not one group, so it is a plain value. The cartesian product of all lists is
 * the autotuning space, enumerated with the first list varying slowest.
 *
 * Splitting: `args` are argv-style strings, or whole option lines (`-DTM=[32, 64] -DTN=[32]`).
 * A new option starts at `-D` after whitespace, and also at `-DNAME=` glued to the previous
 * value, as in the seed tutorial's `-DSTRIDE_AK=1-DSTRIDE_AM=lda`. A value may contain
 * spaces inside one argv element (`-DTYPE=unsigned int`) and a list may span elements
 * (`-DTM=[32,` `64]`, as a shell splits it).
 */
import { Diagnostic, DiagnosticError, SourceFile } from '../../ir/diagnostics.js';
import { COMMAND_LINE_NAME } from './preprocessor.js';

/** A list definition: one tuning dimension. */
export interface ListDefine {
  name: string;
  values: string[];
}

/** Parsed `-D` options: fixed definitions and list definitions, each in command-line order. */
export interface ParsedDefines {
  fixed: Record<string, string>;
  lists: ListDefine[];
  /** All names in command-line order (fixed and lists interleaved). */
  order: string[];
}

/** One point of the autotuning space: the complete definitions to preprocess with, and its description. */
export interface Variant {
  defines: Record<string, string>;
  /** The list choices, e.g. `TM=32 TN=64 TK=8` ('' when there are no lists). */
  description: string;
}

const IDENT = /[A-Za-z_$][\w$]*/y;
const GLUED = /-D[A-Za-z_$][\w$]*=/y;
const OPEN = '([{';
const CLOSE = ')]}';

/** Parses `-D` options (see the file comment for the syntax); errors are DiagnosticErrors on `<command line>`. */
export function parseDefines(args: string[]): ParsedDefines {
  const text = args.join(' ');
  const source = new SourceFile(COMMAND_LINE_NAME, text);
  const fail = (message: string, offset: number): never => {
    throw new DiagnosticError(new Diagnostic('error', message, { source, offset }));
  };
  const boundaries = new Set<number>();
  for (let k = 0, at = 0; k < args.length; at += args[k].length + 1, k++) boundaries.add(at);
  const result: ParsedDefines = { fixed: {}, lists: [], order: [] };
  let pos = 0;
  const skipSpace = (): void => {
    while (pos < text.length && /\s/.test(text[pos])) pos++;
  };
  for (skipSpace(); pos < text.length; skipSpace()) {
    if (!text.startsWith('-D', pos)) fail(`unknown option '${/^\S*/.exec(text.slice(pos))?.[0]}' (expected -DNAME or -DNAME=VALUE)`, pos);
    pos += 2;
    skipSpace();
    IDENT.lastIndex = pos;
    const m = IDENT.exec(text);
    if (!m) fail(pos >= text.length || text.startsWith('-', pos) ? 'macro name missing after -D' : 'macro names must be identifiers', pos);
    const name = (m as RegExpExecArray)[0];
    const nameAt = pos;
    pos += name.length;
    if (result.order.includes(name)) fail(`macro '${name}' defined more than once on the command line`, nameAt);
    result.order.push(name);
    if (pos >= text.length || /\s/.test(text[pos])) {
      result.fixed[name] = '1';
      continue;
    }
    if (text[pos] !== '=') fail(`expected '=' after macro name '${name}' in -D option`, pos);
    pos++;
    const start = pos;
    pos = scanValue(text, pos, boundaries, fail);
    const value = text.slice(start, pos).trim();
    const open = start + text.slice(start, pos).indexOf(value);
    const close = value.startsWith('[') ? matching(text, open) : -1;
    if (close === open + value.length - 1) result.lists.push({ name, values: splitList(text, open + 1, close, fail) });
    else result.fixed[name] = value;
  }
  return result;
}

/** End of the value starting at `pos`. */
function scanValue(text: string, pos: number, boundaries: Set<number>, fail: (m: string, o: number) => never): number {
  const stack: number[] = [];
  const start = pos;
  for (; pos < text.length; pos++) {
    const c = text[pos];
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, pos + 1);
      if (close === -1) fail(`missing terminating ${c} character`, pos);
      pos = close;
      continue;
    }
    if (OPEN.includes(c)) {
      stack.push(pos);
      continue;
    }
    if (CLOSE.includes(c)) {
      const open = stack.pop();
      if (open === undefined || OPEN.indexOf(text[open]) !== CLOSE.indexOf(c)) fail(`unbalanced '${c}' in -D value`, pos);
      continue;
    }
    if (stack.length > 0) continue;
    if (/\s/.test(c)) {
      let next = pos;
      while (next < text.length && /\s/.test(text[next])) next++;
      if (boundaries.has(pos + 1) || text.startsWith('-D', next)) return pos;
      continue;
    }
    GLUED.lastIndex = pos;
    if (c === '-' && pos > start && GLUED.test(text)) return pos;
  }
  if (stack.length > 0) fail(`missing '${CLOSE[OPEN.indexOf(text[stack[stack.length - 1]])]}' in -D value`, stack[stack.length - 1]);
  return pos;
}

/** Offset of the bracket closing the one at `open` (values were checked to be balanced). */
function matching(text: string, open: number): number {
  let depth = 0;
  for (let p = open; p < text.length; p++) {
    const c = text[p];
    if (c === '"' || c === "'") p = text.indexOf(c, p + 1);
    else if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c) && --depth === 0) return p;
  }
  return -1;
}

/** Items of the list between `from` (after `[`) and `to` (the `]`). */
function splitList(text: string, from: number, to: number, fail: (m: string, o: number) => never): string[] {
  const items: string[] = [];
  let depth = 0;
  let itemStart = from;
  const push = (end: number): void => {
    const item = text.slice(itemStart, end).trim();
    if (item === '') fail(items.length === 0 && end === to ? 'empty list in -D option' : 'empty item in -D list', itemStart);
    items.push(item);
  };
  for (let p = from; p < to; p++) {
    const c = text[p];
    if (c === '"' || c === "'") p = text.indexOf(c, p + 1);
    else if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      push(p);
      itemStart = p + 1;
    }
  }
  push(to);
  return items;
}

/** Every point of the autotuning space (one, the fixed definitions, when there are no lists); the first list varies slowest. */
export function variants(defines: ParsedDefines): Record<string, string>[] {
  return variantList(defines).map((v) => v.defines);
}

/** The description of one variant: its list choices in command-line order (`TM=32 TN=64 TK=8`). */
export function describeVariant(defines: ParsedDefines, variant: Record<string, string>): string {
  return defines.lists.map((l) => `${l.name}=${variant[l.name]}`).join(' ');
}

/** Every variant with its description. */
export function variantList(defines: ParsedDefines): Variant[] {
  let choices: Record<string, string>[] = [{}];
  for (const l of defines.lists) choices = choices.flatMap((c) => l.values.map((v) => ({ ...c, [l.name]: v })));
  return choices.map((c) => {
    const full: Record<string, string> = {};
    for (const n of defines.order) full[n] = n in c ? c[n] : defines.fixed[n];
    return { defines: full, description: describeVariant(defines, full) };
  });
}
