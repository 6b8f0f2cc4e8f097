/**
 * The declarative assembly-format engine. An op's format string in MLIR's syntax
 * (`$src attr-dict : type($src) -> type($result)`) is compiled once into elements; the same
 * elements drive parsing and printing, so what is printed always reads back.
 */
import type { AsmParser, AsmPrinter } from './asm.js';
import { type Attribute, UnitAttr } from './attributes.js';
import type { SourcePos } from './diagnostics.js';
import { Region, type Block, type BlockArgument, type Operation, type Value } from './ir.js';
import { type AttrDecl, type OpSpec, type TypeConstraint, type TypeEnv, type ValueDecl } from './op-spec.js';
import { DenseArrayAttr } from './attributes.js';
import { SameOperandsAndResultType, SameTypeOperands } from './traits.js';
import { FunctionType, i, printResultTypes, type Type } from './types.js';

/** A use of `%name` (possibly `%name#k`) not yet resolved to a value (`image` includes the `%`). */
export interface OperandRef {
  readonly image: string;
  readonly startOffset: number;
}

/** An entry-block argument named by custom syntax (`%iv` of scf.for). */
export interface RegionArg {
  ref: OperandRef;
  type: Type;
  loc?: import('./attributes.js').Location;
}

/** The op being parsed. */
export interface OperationState {
  name: string;
  spec: OpSpec | undefined;
  operands: Value[];
  resultTypes: Type[];
  props: Record<string, Attribute> | null;
  attrs: Record<string, Attribute> | null;
  regions: Region[];
  successors: Block[];
  pos: SourcePos;
}

/** What formats and custom syntax hooks may call while parsing an op. */
export interface FormatParser extends AsmParser {
  state: OperationState;
  parseOperandRef(): OperandRef;
  parseOptionalOperandRef(): OperandRef | undefined;
  parseOperandRefList(): OperandRef[];
  resolveOperand(ref: OperandRef, type: Type): Value;
  resolveOperands(refs: OperandRef[], types: Type[], pos: SourcePos): Value[];
  parseRegion(entryArgs?: RegionArg[], owner?: OpSpec): Region;
  /** The source position of an operand reference, for diagnostics. */
  refPos(ref: OperandRef): SourcePos;
  isRegionStart(): boolean;
  parseSuccessor(): Block;
  parseOptionalAttrDict(): void;
  parseOptionalAttrDictWithKeyword(): void;
  setProperty(name: string, value: Attribute): void;
  parseFunctionResultTypes(): Type[];
  parseOptionalLocation(): import('./attributes.js').Location | undefined;
  /** Scratch space for custom directives: operand refs and types per group name. */
  fmt?: FormatScratch;
}

/** Options for printing a region. */
export interface RegionPrintOptions {
  printEntryBlockArgs: boolean;
  printBlockTerminators?: boolean;
  printEmptyBlock?: boolean;
}

/** What formats and custom syntax hooks may call while printing an op. */
export interface FormatPrinter extends AsmPrinter {
  printOperand(v: Value): void;
  printOperands(vs: readonly Value[]): void;
  printRegion(r: Region, opts?: RegionPrintOptions): void;
  printSuccessor(b: Block): void;
  /** ` {a = 1}` (nothing when empty); `elided` names are left out. */
  printOptionalAttrDict(attrs: [string, Attribute][], elided?: Set<string>, withKeyword?: boolean): void;
  /** `%name: type {attrs} loc(...)` for function signatures. */
  printRegionArgument(arg: BlockArgument, attrs?: [string, Attribute][] | null): void;
  /** Starts a new line at the current op's indentation. */
  printNewline(): void;
  /** The attributes of `op` an attr-dict prints, honouring defaults and elisions. */
  attrsToPrint(op: Operation, elided: Set<string>): [string, Attribute][];
}

/**
 * A tiny insertion-ordered map over parallel arrays: ops have a handful of groups, and
 * `clear()` here is free where `Map.clear()` reallocates (this runs once per parsed op).
 */
export class SmallMap<V> {
  private readonly keys: string[] = [];
  private readonly vals: V[] = [];
  /** Live entries are the first `count`; clearing just resets it (truncating arrays is slow in V8). */
  private count = 0;
  get size(): number {
    return this.count;
  }
  private indexOf(k: string): number {
    for (let i = 0; i < this.count; i++) if (this.keys[i] === k) return i;
    return -1;
  }
  get(k: string): V | undefined {
    const i = this.indexOf(k);
    return i < 0 ? undefined : this.vals[i];
  }
  has(k: string): boolean {
    return this.indexOf(k) >= 0;
  }
  set(k: string, v: V): this {
    const i = this.indexOf(k);
    if (i >= 0) this.vals[i] = v;
    else {
      this.keys[this.count] = k;
      this.vals[this.count++] = v;
    }
    return this;
  }
  values(): V[] {
    return this.vals.slice(0, this.count);
  }
  /** The first element of the first non-empty list value (for type lists). */
  firstNonEmpty(this: SmallMap<Type[]>): Type | undefined {
    for (let i = 0; i < this.count; i++) if (this.vals[i].length) return this.vals[i][0];
    return undefined;
  }
  clear(): void {
    this.count = 0;
  }
}

/** Per-parse scratch state shared with custom directives: operand refs and types per group name. */
export interface FormatScratch {
  refs: SmallMap<OperandRef[]>;
  operandTypes: SmallMap<Type[]>;
  resultTypes: SmallMap<Type[]>;
  regions: SmallMap<Region[]>;
  successors: SmallMap<Block[]>;
}

// ---- compiled form -----------------------------------------------------------------------

type Arg = { kind: 'operand' | 'result' | 'operands' | 'results'; name: string };

/** One element of a compiled format. */
export type Element =
  | {
      k: 'lit';
      text: string;
      /** a keyword (`to`, `iter_args`) rather than punctuation; computed once */
      keyword: boolean;
      /** Printing: whether a space goes before it after punctuation, and after anything else; whether one may follow it. */
      spaceAfterPunct: boolean;
      spaceAfterOther: boolean;
      spaceAfter: boolean;
    }
  | { k: 'operand'; name: string; /** the operand's index when every operand group is a single value, else -1 */ fixed: number }
  | { k: 'attr'; name: string; decl: AttrDecl }
  | { k: 'region'; name: string }
  | { k: 'successor'; name: string }
  | {
      k: 'type';
      arg: Arg;
      qualified: boolean;
      /** The operand or result group's declaration, and its index when every group of its kind is a single value (else -1). */
      decl: ValueDecl | undefined;
      fixed: number;
    }
  | { k: 'attrdict'; withKeyword: boolean }
  | { k: 'fntype'; inputs: Arg; results: Arg }
  | { k: 'operands' }
  | { k: 'regions' }
  | { k: 'optional'; then: Element[]; else: Element[]; anchor: Element }
  | { k: 'custom'; name: string; args: string[] }
  | { k: 'oilist'; clauses: Element[][] };

/** A format compiled against its op spec. */
export interface CompiledFormat {
  elements: Element[];
  /** Attributes the format prints itself (left out of attr-dict). */
  usedAttrs: Set<string>;
  /** `usedAttrs` plus the segment-size properties: what attr-dict never prints. */
  elided: Set<string>;
  /** @internal The specialized parse plan (`ir/format-plan.ts`): null when the op needs the general engine, undefined until compiled. */
  plan?: unknown;
  /** @internal The specialized print plan (`ir/format-print-plan.ts`), likewise. */
  printPlan?: unknown;
}

/** Compiles `spec`'s format; a bad format is an internal error naming the op. */
export function compileFormat(spec: OpSpec): CompiledFormat {
  const text = spec.decl.format!;
  const usedAttrs = new Set<string>();
  let pos = 0;
  const fail = (msg: string): never => {
    throw new Error(`internal error: bad assembly format of '${spec.name}' at ${pos}: ${msg}`);
  };
  const skipWs = () => {
    while (pos < text.length && /\s/.test(text[pos])) pos++;
  };
  const ident = (): string => {
    const m = /^[A-Za-z_][\w-]*/.exec(text.slice(pos));
    if (!m) fail('expected identifier');
    pos += m![0].length;
    return m![0];
  };
  const argOf = (word: string): Arg => {
    if (word === 'operands' || word === 'results') return { kind: word, name: word };
    if (!word.startsWith('$')) fail(`expected $name, got '${word}'`);
    const name = word.slice(1);
    if (spec.operands.some((o) => o.name === name)) return { kind: 'operand', name };
    if (spec.results.some((o) => o.name === name)) return { kind: 'result', name };
    return fail(`'${name}' is not an operand or result`);
  };
  const readArgWord = (): string => {
    skipWs();
    if (text[pos] === '$') {
      pos++;
      return '$' + ident();
    }
    return ident();
  };
  const parseElements = (stop: string): Element[] => {
    const out: Element[] = [];
    for (;;) {
      skipWs();
      if (pos >= text.length || stop.includes(text[pos])) return out;
      const el = parseElement();
      if (text[pos] === '^') {
        pos++;
        (el as { anchor?: boolean }).anchor = true;
      }
      out.push(el);
    }
  };
  const parseElement = (): Element => {
    const c = text[pos];
    if (c === '`') {
      const end = text.indexOf('`', pos + 1);
      if (end < 0) fail('unterminated literal');
      const lit = text.slice(pos + 1, end);
      pos = end + 1;
      return {
        k: 'lit',
        text: lit,
        keyword: isKeywordLiteral(lit),
        spaceAfterPunct: spaceBeforeLiteral(lit, true),
        spaceAfterOther: spaceBeforeLiteral(lit, false),
        spaceAfter: lit.length !== 1 || !'<({['.includes(lit[0]),
      };
    }
    if (c === '$') {
      pos++;
      const name = ident();
      if (spec.operands.some((o) => o.name === name)) return { k: 'operand', name, fixed: spec.fixedOperandIndex(name) };
      const attr = spec.attrIndex.get(name);
      if (attr) {
        usedAttrs.add(name);
        return { k: 'attr', name, decl: attr };
      }
      if (spec.regionDecls.some((r) => r.name === name)) return { k: 'region', name };
      if (spec.successorDecls.some((r) => r.name === name)) return { k: 'successor', name };
      return fail(`unknown variable '$${name}'`);
    }
    if (c === '(') {
      pos++;
      const then = parseElements(')');
      if (text[pos] !== ')') fail("expected ')'");
      pos++;
      skipWs();
      if (text[pos] !== '?') fail("optional group must end with '?'");
      pos++;
      let elseEls: Element[] = [];
      skipWs();
      if (text[pos] === ':') {
        pos++;
        skipWs();
        if (text[pos] !== '(') fail("expected '(' for else group");
        pos++;
        elseEls = parseElements(')');
        pos++;
        skipWs();
        if (text[pos] === '?') pos++;
      }
      const anchor = then.find((e) => (e as { anchor?: boolean }).anchor) ?? firstNonLiteral(then) ?? then[0];
      return { k: 'optional', then, else: elseEls, anchor };
    }
    const word = ident();
    skipWs();
    switch (word) {
      case 'attr-dict':
        return { k: 'attrdict', withKeyword: false };
      case 'attr-dict-with-keyword':
        return { k: 'attrdict', withKeyword: true };
      case 'operands':
        return { k: 'operands' };
      case 'regions':
        return { k: 'regions' };
      case 'type':
      case 'qualified': {
        if (text[pos] !== '(') fail("expected '('");
        pos++;
        let qualified = word === 'qualified';
        let inner: string;
        if (qualified) {
          skipWs();
          const w = ident();
          if (w !== 'type') fail('qualified() supports type(...) only');
          skipWs();
          pos++; // (
          inner = readArgWord();
          skipWs();
          pos++; // )
        } else inner = readArgWord();
        skipWs();
        if (text[pos] !== ')') fail("expected ')'");
        pos++;
        const arg = argOf(inner);
        const decl = typeDecl(spec, arg);
        const fixed = arg.kind === 'operand' ? spec.fixedOperandIndex(arg.name) : arg.kind === 'result' ? spec.fixedResultIndex(arg.name) : -1;
        return { k: 'type', arg, qualified, decl, fixed };
      }
      case 'functional-type': {
        pos++;
        const a = readArgWord();
        skipWs();
        pos++; // ,
        const b = readArgWord();
        skipWs();
        pos++; // )
        return { k: 'fntype', inputs: argOf(a), results: argOf(b) };
      }
      case 'custom': {
        if (text[pos] !== '<') fail("expected '<'");
        const close = text.indexOf('>', pos);
        const name = text.slice(pos + 1, close);
        pos = close + 1;
        skipWs();
        pos++; // (
        let depth = 1;
        let end = pos;
        while (end < text.length && depth > 0) {
          if (text[end] === '(') depth++;
          else if (text[end] === ')') depth--;
          end++;
        }
        if (depth) fail('unbalanced parentheses in custom directive');
        const args = splitTopLevel(text.slice(pos, end - 1));
        pos = end;
        if (!spec.decl.directives?.[name]) fail(`no custom directive '${name}'`);
        for (const a of args) if (a.startsWith('$') && spec.attrIndex.has(a.slice(1))) usedAttrs.add(a.slice(1));
        return { k: 'custom', name, args };
      }
      case 'oilist': {
        pos++;
        const clauses: Element[][] = [];
        for (;;) {
          clauses.push(parseElements('|)'));
          if (text[pos] === '|') {
            pos++;
            continue;
          }
          pos++;
          return { k: 'oilist', clauses };
        }
      }
    }
    return fail(`unknown directive '${word}'`);
  };
  const elements = parseElements('');
  if (pos < text.length) fail(`unexpected '${text[pos]}'`);
  const elided = new Set([...usedAttrs, 'operandSegmentSizes', 'resultSegmentSizes']);
  // `plan` is present from the start so that every compiled format has one shape.
  return { elements, usedAttrs, elided, plan: undefined, printPlan: undefined };
}

/** Splits `a, ref(type($b)), c` at top-level commas. */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of s) {
    if (c === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    if (c === '(') depth++;
    if (c === ')') depth--;
    cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

function firstNonLiteral(els: Element[]): Element | undefined {
  return els.find((e) => e.k !== 'lit');
}

// ---- parsing -----------------------------------------------------------------------------

function isKeywordLiteral(text: string): boolean {
  return /^[A-Za-z_]/.test(text);
}

/** Whether the optional element `e` is present at the current token (consumes a leading literal). */
export function tryStart(p: FormatParser, spec: OpSpec, e: Element): boolean {
  switch (e.k) {
    case 'lit':
      if (e.text === '' || e.text === ' ') return true;
      return e.keyword ? p.parseOptionalKeyword(e.text) !== undefined : p.parseOptionalPunct(e.text);
    case 'operand':
      return peekPercent(p);
    case 'attr': {
      const kind = spec.attrIndex.get(e.name)!.kind;
      return kind.canStart ? kind.canStart(p) : true;
    }
    case 'region':
      return p.isRegionStart();
    case 'successor':
      return peekCaret(p);
    case 'attrdict':
      return true;
    default:
      return true;
  }
}

function peekPercent(p: FormatParser): boolean {
  return p.peekToken()?.kind === 'PercentId';
}

function peekCaret(p: FormatParser): boolean {
  return p.peekToken()?.kind === 'CaretId';
}

/** Scratch objects reused per nesting depth (ops inside regions of ops being parsed). */
const scratchPool: FormatScratch[] = [];
let scratchDepth = 0;

/** @internal Takes the scratch state of the next nesting depth (give it back with `releaseScratch`). */
export function takeScratch(): FormatScratch {
  let s = scratchPool[scratchDepth];
  if (!s) {
    s = { refs: new SmallMap(), operandTypes: new SmallMap(), resultTypes: new SmallMap(), regions: new SmallMap(), successors: new SmallMap() };
    scratchPool[scratchDepth] = s;
  } else {
    s.refs.clear();
    s.operandTypes.clear();
    s.resultTypes.clear();
    if (s.regions.size) s.regions.clear();
    if (s.successors.size) s.successors.clear();
  }
  scratchDepth++;
  return s;
}

/** @internal Gives back the scratch state taken last. */
export function releaseScratch(): void {
  scratchDepth--;
}

/** Parses the op described by `format` into `p.state`. */
export function parseWithFormat(p: FormatParser, format: CompiledFormat): void {
  const spec = p.state.spec!;
  const outer = p.fmt;
  const scratch = takeScratch();
  try {
    p.fmt = scratch;
    parseElements(p, spec, format.elements, scratch);
    p.fmt = scratch;
    finishParse(p, spec, scratch);
  } finally {
    scratchDepth--;
    p.fmt = outer;
  }
}

function parseElements(p: FormatParser, spec: OpSpec, els: Element[], s: FormatScratch): void {
  for (const e of els) parseElement(p, spec, e, s);
}

function parseElement(p: FormatParser, spec: OpSpec, e: Element, s: FormatScratch): void {
  switch (e.k) {
    case 'lit':
      if (e.text === '' || e.text === ' ' || e.text === '\\n') return;
      if (e.keyword) p.parseKeyword(e.text);
      else p.parsePunct(e.text);
      return;
    case 'operand': {
      const decl = spec.operands.find((o) => o.name === e.name)!;
      if (decl.kind === 'variadic') s.refs.set(e.name, p.parseOperandRefList());
      else if (decl.kind === 'optional') {
        const r = p.parseOptionalOperandRef();
        s.refs.set(e.name, r ? [r] : []);
      } else s.refs.set(e.name, [p.parseOperandRef()]);
      return;
    }
    case 'operands': {
      const refs = p.parseOperandRefList();
      s.refs.set('$all', refs);
      return;
    }
    case 'attr': {
      const decl = spec.attrIndex.get(e.name)!;
      p.setProperty(e.name, decl.kind.parse(p));
      return;
    }
    case 'region': {
      const decl = spec.regionDecls.find((r) => r.name === e.name)!;
      const regions: Region[] = [];
      if (decl.variadic) {
        if (p.isRegionStart()) {
          do regions.push(p.parseRegion([], spec));
          while (p.parseOptionalPunct(','));
        }
      } else regions.push(p.parseRegion([], spec));
      s.regions.set(e.name, regions);
      return;
    }
    case 'regions': {
      const regions: Region[] = [];
      if (p.isRegionStart()) {
        do regions.push(p.parseRegion([], spec));
        while (p.parseOptionalPunct(','));
      }
      s.regions.set('$all', regions);
      return;
    }
    case 'successor': {
      const decl = spec.successorDecls.find((r) => r.name === e.name)!;
      const blocks: Block[] = [];
      if (decl.variadic) {
        if (peekCaret(p)) {
          do blocks.push(p.parseSuccessor());
          while (p.parseOptionalPunct(','));
        }
      } else blocks.push(p.parseSuccessor());
      s.successors.set(e.name, blocks);
      return;
    }
    case 'type':
      parseTypeDirective(p, spec, e.arg, e.qualified, s);
      return;
    case 'attrdict':
      if (e.withKeyword) p.parseOptionalAttrDictWithKeyword();
      else p.parseOptionalAttrDict();
      return;
    case 'fntype': {
      const inputs = p.parseCommaList('(', ')', () => p.parseType());
      p.parsePunct('->');
      const results = p.parseFunctionResultTypes();
      assignTypes(spec, e.inputs, inputs, s);
      assignTypes(spec, e.results, results, s);
      return;
    }
    case 'optional': {
      const first = e.then[0];
      if (!tryStart(p, spec, first)) {
        parseElements(p, spec, e.else, s);
        return;
      }
      const rest = first.k === 'lit' ? e.then.slice(1) : e.then;
      parseElements(p, spec, rest, s);
      return;
    }
    case 'custom':
      spec.decl.directives![e.name].parse(p, e.args);
      return;
    case 'oilist': {
      const done = new Set<number>();
      for (;;) {
        const k = e.clauses.findIndex((c, idx) => !done.has(idx) && c[0].k === 'lit' && tryStart(p, spec, c[0]));
        if (k < 0) return;
        done.add(k);
        parseElements(p, spec, e.clauses[k].slice(1), s);
      }
    }
  }
}

function parseTypeDirective(p: FormatParser, spec: OpSpec, arg: Arg, qualified: boolean, s: FormatScratch): void {
  const decl = arg.kind === 'operand' ? spec.operands.find((o) => o.name === arg.name) : spec.results.find((o) => o.name === arg.name);
  const one = (): Type => parseOneType(p, decl?.type, qualified);
  let types: Type[];
  if (arg.kind === 'operand' && decl && decl.kind !== 'variadic') {
    const n = decl.kind === 'optional' ? (s.refs.get(arg.name)?.length ?? 1) : 1;
    types = n ? singleton(one()) : NO_TYPES;
  } else if (arg.kind === 'operand' && s.refs.has(arg.name)) {
    const n = s.refs.get(arg.name)!.length;
    types = [];
    for (let k = 0; k < n; k++) {
      if (k) p.parsePunct(',');
      types.push(one());
    }
  } else if (decl && decl.kind !== 'variadic' && decl.kind !== 'optional') {
    types = singleton(one());
  } else {
    types = [];
    if (canStartType(p)) {
      do types.push(one());
      while (p.parseOptionalPunct(','));
    }
  }
  assignTypes(spec, arg, types, s);
}

/** @internal Parses one type of a `type(...)` directive (stripped when the constraint says so). */
export function parseOneType(p: FormatParser, c: TypeConstraint | undefined, qualified: boolean): Type {
  if (c?.stripped && !qualified && !peekBang(p)) return c.stripped.parse(p);
  return p.parseType();
}

function peekBang(p: FormatParser): boolean {
  return p.peekToken()?.kind === 'BangId';
}

function canStartType(p: FormatParser): boolean {
  const k = p.peekToken()?.kind;
  return k === 'BangId' || k === 'LParen' || k === 'BareId';
}

function assignTypes(spec: OpSpec, arg: Arg, types: Type[], s: FormatScratch): void {
  if (arg.kind === 'operand') s.operandTypes.set(arg.name, types);
  else if (arg.kind === 'result') s.resultTypes.set(arg.name, types);
  else if (arg.kind === 'operands') splitAll(spec.operands, types, s.operandTypes, s.refs);
  else splitAll(spec.results, types, s.resultTypes, null);
}

/** Distributes an `operands`/`results` type list over groups (at most one variable group). */
function splitAll(decls: readonly ValueDecl[], types: Type[], into: SmallMap<Type[]>, refs: SmallMap<OperandRef[]> | null): void {
  const sizes = decls.map((d) => {
    const known = refs?.get(d.name);
    if (known) return known.length;
    return d.kind === 'variadic' || d.kind === 'optional' ? -1 : 1;
  });
  const fixed = sizes.filter((n) => n >= 0).reduce((a, b) => a + b, 0);
  let k = 0;
  decls.forEach((d, idx) => {
    const n = sizes[idx] >= 0 ? sizes[idx] : Math.max(0, types.length - fixed);
    into.set(d.name, types.slice(k, k + n));
    k += n;
  });
}

/** @internal Resolves operands, infers missing types and fills `p.state` from the scratch state. */
export function finishParse(p: FormatParser, spec: OpSpec, s: FormatScratch): void {
  const st = p.state;
  // `operands` directive: distribute refs over groups by the types' split (or evenly when one group).
  const all = s.refs.get('$all');
  if (all) {
    let k = 0;
    const groupsWithTypes = spec.operands.map((d) => s.operandTypes.get(d.name));
    spec.operands.forEach((d, idx) => {
      const n = groupsWithTypes[idx]?.length ?? (d.kind === 'variadic' ? all.length - k : 1);
      s.refs.set(d.name, all.slice(k, k + n));
      k += n;
    });
  }
  inferMissing(spec, s, st);
  const sizes: number[] | null = spec.needsOperandSegments ? [] : null;
  for (const d of spec.operands) {
    const refs = s.refs.get(d.name) ?? [];
    const types = s.operandTypes.get(d.name) ?? [];
    if (refs.length && types.length !== refs.length) {
      if (!types.length) p.error(`'${spec.name}' cannot infer the type of operand '${d.name}'`, st.pos);
      p.error(`'${spec.name}' op expected ${refs.length} types for operand '${d.name}', got ${types.length}`, st.pos);
    }
    if (d.kind !== 'variadic' && d.kind !== 'optional' && refs.length !== 1)
      p.error(`'${spec.name}' op expected one operand for '${d.name}'`, st.pos);
    for (let k = 0; k < refs.length; k++) st.operands.push(p.resolveOperand(refs[k], types[k]));
    sizes?.push(refs.length);
  }
  if (sizes) p.setProperty('operandSegmentSizes', DenseArrayAttr.get(i(32), sizes));
  const rsizes: number[] | null = spec.needsResultSegments ? [] : null;
  for (const d of spec.results) {
    const types = s.resultTypes.get(d.name);
    if (!types) p.error(`'${spec.name}' cannot infer the type of result '${d.name}'`, st.pos);
    for (const t of types) st.resultTypes.push(t);
    rsizes?.push(types.length);
  }
  if (rsizes) p.setProperty('resultSegmentSizes', DenseArrayAttr.get(i(32), rsizes));
  const allRegions = s.regions.get('$all');
  if (allRegions) st.regions.push(...allRegions);
  else for (const d of spec.regionDecls) st.regions.push(...(s.regions.get(d.name) ?? (d.variadic ? [] : [emptyRegion()])));
  for (const d of spec.successorDecls) st.successors.push(...(s.successors.get(d.name) ?? []));
}

/** A declared region the text left out (e.g. an absent else branch) is empty, as in MLIR. */
function emptyRegion(): Region {
  return new Region(null);
}

/** Fills types the format leaves implicit: spec rules first, then traits. */
function inferMissing(spec: OpSpec, s: FormatScratch, st: OperationState): void {
  if (s.operandTypes.size === spec.operands.length && s.resultTypes.size === spec.results.length) return;
  const rules = spec.decl.inferTypes;
  let env: TypeEnv | undefined;
  const envFor = (): TypeEnv =>
    (env ??= {
      operand: (n) => s.operandTypes.get(n),
      result: (n) => s.resultTypes.get(n),
      attr: (n) => st.props?.[n] ?? st.attrs?.[n] ?? spec.attrIndex.get(n)?.default,
      numOperands: (n) => s.refs.get(n)?.length ?? 0,
    });
  for (let round = 0; round < 3; round++) {
    let missing = 0;
    for (const d of spec.operands) {
      if (s.operandTypes.has(d.name)) continue;
      const n = s.refs.get(d.name)?.length ?? 0;
      if (n === 0) {
        s.operandTypes.set(d.name, NO_TYPES);
        continue;
      }
      const rule = rules?.[d.name];
      const t = (rule && rule(envFor())) ?? sameTypeFromTraits(spec, s) ?? buildable(d.type);
      if (t) s.operandTypes.set(d.name, t.length === n ? t : new Array(n).fill(t[0]));
      else missing++;
    }
    for (const d of spec.results) {
      if (s.resultTypes.has(d.name)) continue;
      const rule = rules?.[d.name];
      const t = (rule && rule(envFor())) ?? sameTypeFromTraits(spec, s) ?? buildable(d.type);
      if (t) s.resultTypes.set(d.name, t);
      else missing++;
    }
    if (!missing) return;
  }
}

const NO_TYPES: Type[] = [];

/** A constraint naming exactly one type (ODS "buildable" types such as I1 or I32) gives it directly. */
function buildable(c: TypeConstraint | undefined): Type[] | undefined {
  return c?.buildable ? singleton(c.buildable) : undefined;
}

/** A shared one-element list per type (never mutated), to avoid an allocation per parsed op. */
export function singleton(t: Type): Type[] {
  const holder = t as Type & { _single?: Type[] };
  return (holder._single ??= [t]);
}

function sameTypeFromTraits(spec: OpSpec, s: FormatScratch): Type[] | undefined {
  const all = spec.traitSet.has(SameOperandsAndResultType);
  if (!all && !spec.traitSet.has(SameTypeOperands)) return undefined;
  const first = s.operandTypes.firstNonEmpty() ?? (all ? s.resultTypes.firstNonEmpty() : undefined);
  return first ? singleton(first) : undefined;
}

// ---- printing ----------------------------------------------------------------------------

/** Prints `op` (after its name) with `format`, using MLIR's spacing rules. */
export function printWithFormat(p: FormatPrinter, op: Operation, format: CompiledFormat): void {
  const spec = op.spec!;
  const sp = { emitSpace: true, lastWasPunct: false };
  printElements(p, op, spec, format.elements, format.elided, sp);
}

interface Spacing {
  emitSpace: boolean;
  lastWasPunct: boolean;
}

function spaceBeforeLiteral(value: string, lastWasPunct: boolean): boolean {
  if (value.length !== 1 && value !== '->') return true;
  if (lastWasPunct) return !'>)}],'.includes(value[0]);
  return !'<>(){}[],'.includes(value[0]);
}

function printElements(p: FormatPrinter, op: Operation, spec: OpSpec, els: Element[], elided: Set<string>, sp: Spacing): void {
  for (const e of els) printElement(p, op, spec, e, elided, sp);
}

function space(p: FormatPrinter, sp: Spacing): void {
  if (sp.emitSpace) p.write(' ');
  sp.emitSpace = true;
  sp.lastWasPunct = false;
}

function printElement(p: FormatPrinter, op: Operation, spec: OpSpec, e: Element, elided: Set<string>, sp: Spacing): void {
  switch (e.k) {
    case 'lit': {
      if (e.text === '') {
        sp.emitSpace = false;
        return;
      }
      if (e.text === ' ') {
        p.write(' ');
        sp.emitSpace = false;
        return;
      }
      if (e.text === '\\n') {
        p.printNewline();
        sp.emitSpace = false;
        return;
      }
      if (sp.emitSpace && (sp.lastWasPunct ? e.spaceAfterPunct : e.spaceAfterOther)) p.write(' ');
      p.write(e.text);
      sp.emitSpace = e.spaceAfter;
      sp.lastWasPunct = !e.keyword; // keyword: starts with a letter or '_'
      return;
    }
    case 'operand': {
      if (e.fixed >= 0) {
        space(p, sp);
        p.printOperand(op.operands[e.fixed].value);
        return;
      }
      const vals = spec.operandGroup(op, e.name);
      if (!vals.length) return;
      space(p, sp);
      p.printOperands(vals);
      return;
    }
    case 'operands':
      if (!op.numOperands) return;
      space(p, sp);
      p.printOperands(op.operandValues());
      return;
    case 'attr': {
      const a = op.getAttr(e.name);
      if (!a || a instanceof UnitAttr) return; // a unit attribute is spelled by its keyword alone
      space(p, sp);
      e.decl.kind.print(p, a);
      return;
    }
    case 'region':
    case 'regions': {
      const regions = e.k === 'region' ? spec.regionGroup(op, e.name) : op.regions;
      regions.forEach((r, k) => {
        if (k) p.write(',');
        space(p, sp);
        p.printRegion(r, { printEntryBlockArgs: true });
      });
      return;
    }
    case 'successor': {
      const blocks = spec.successorGroup(op, e.name);
      blocks.forEach((b, k) => {
        if (k) p.write(',');
        space(p, sp);
        p.printSuccessor(b);
      });
      return;
    }
    case 'type': {
      const decl = e.decl;
      if (e.fixed >= 0) {
        const t = e.arg.kind === 'operand' ? op.operands[e.fixed].value.type : op.results[e.fixed].type;
        space(p, sp);
        if (decl?.type?.stripped && !e.qualified && decl.type.check(t)) decl.type.stripped.print(p, t);
        else p.printType(t);
        return;
      }
      const types = typesOf(op, spec, e.arg);
      if (!types.length) return;
      space(p, sp);
      types.forEach((t, k) => {
        if (k) p.write(', ');
        if (decl?.type?.stripped && !e.qualified && decl.type.check(t)) decl.type.stripped.print(p, t);
        else p.printType(t);
      });
      return;
    }
    case 'attrdict':
      p.printOptionalAttrDict(p.attrsToPrint(op, elided), undefined, e.withKeyword);
      return;
    case 'fntype': {
      space(p, sp);
      const ins = typesOf(op, spec, e.inputs);
      const outs = typesOf(op, spec, e.results);
      p.write('(');
      ins.forEach((t, k) => {
        if (k) p.write(', ');
        p.printType(t);
      });
      p.write(') -> ');
      printResultTypes(p, outs);
      return;
    }
    case 'optional': {
      const present = isPresent(op, spec, e.anchor);
      printElements(p, op, spec, present ? e.then : e.else, elided, sp);
      return;
    }
    case 'custom':
      spec.decl.directives![e.name].print(p, op, e.args);
      sp.emitSpace = true;
      sp.lastWasPunct = false;
      return;
    case 'oilist':
      for (const c of e.clauses) {
        const anchor = firstNonLiteral(c);
        if (anchor && isPresent(op, spec, anchor)) printElements(p, op, spec, c, elided, sp);
      }
      return;
  }
}

function typeDecl(spec: OpSpec, arg: Arg): ValueDecl | undefined {
  if (arg.kind === 'operand') return spec.operands.find((o) => o.name === arg.name);
  if (arg.kind === 'result') return spec.results.find((o) => o.name === arg.name);
  return undefined;
}

function typesOf(op: Operation, spec: OpSpec, arg: Arg): Type[] {
  switch (arg.kind) {
    case 'operand': {
      const fixed = spec.fixedOperandIndex(arg.name);
      if (fixed >= 0) return [op.operand(fixed).type];
      return spec.operandGroup(op, arg.name).map((v) => v.type);
    }
    case 'result': {
      const fixed = spec.fixedResultIndex(arg.name);
      if (fixed >= 0) return [op.result(fixed).type];
      return spec.resultGroup(op, arg.name).map((v) => v.type);
    }
    case 'operands':
      return op.operandTypes();
    case 'results':
      return op.resultTypes();
  }
}

/** Whether an optional group's anchor is present: a non-empty group, or a non-default attribute. */
export function isPresent(op: Operation, spec: OpSpec, anchor: Element): boolean {
  switch (anchor.k) {
    case 'operand':
      return spec.operandGroup(op, anchor.name).length > 0;
    case 'attr': {
      const a = op.getAttr(anchor.name);
      if (!a) return false;
      return !(anchor.decl.default && anchor.decl.default === a);
    }
    case 'region':
      return spec.regionGroup(op, anchor.name).some((r) => !r.empty);
    case 'successor':
      return spec.successorGroup(op, anchor.name).length > 0;
    case 'type':
      return typesOf(op, spec, anchor.arg).length > 0;
    case 'lit':
      return true;
    default:
      return true;
  }
}

export { FunctionType };
