/**
 * The first half of the MLIR-syntax parser: token cursor, types, attributes, locations and
 * aliases. `ir/parser.ts` extends it with operations, blocks and regions.
 */
import { badEscape, unescapeString } from './string-literal.js';
import type { AsmParser } from './asm.js';
import {
  ArrayAttr, Attribute, CallSiteLoc, DenseArrayAttr, DenseElementsAttr, DictionaryAttr, FileLineColLoc, FloatAttr,
  FusedLoc, IntegerAttr, Location, NameLoc, OpaqueAttr, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr, UnknownLoc,
  boolAttr, floatFromBits, noteNanBits,
} from './attributes.js';
import { Diagnostic, DiagnosticError, SourceFile, type SourcePos } from './diagnostics.js';
import { KIND_NAMES, PUNCT, T, TokenStream, TokenWindow, type TokenType } from './lexer.js';
import { defaultContext, type Context } from './context.js';
import {
  DYNAMIC, FLOAT_KINDS, FloatType, FunctionType, IndexType, IntegerType, NoneType, OpaqueType, RankedTensorType,
  ShapedType, TupleType, Type, UnrankedTensorType, VectorType, i, ComplexType, MemRefType, UnrankedMemRefType,
} from './types.js';
import {
  parseAffineMapAttr, parseAffineSetAttr, parseDenseResourceAttr, parseDistinctAttr, parseStridedLayoutAttr,
} from './builtin-attr-parser.js';
import { AffineMapAttr, StridedLayoutAttr, type DistinctAttr } from './builtin-attrs.js';
import { denseComplexOrString } from './dense-extra.js';
import { shapePrefixAt } from './shape-text.js';
import { RangeTable } from './range-table.js';
import { checkIntFits, elementValue, flattenDense, hexFloat } from './parse-literals.js';

/** Parser options shared by the tools. */
export interface ParseOptions {
  allowUnregisteredDialect?: boolean;
  /** The dialects to parse with (default: `defaultContext`). */
  context?: Context;
}

interface AliasEntry {
  /** Text offset where the aliased value starts (after `=`). */
  start: number;
  /** Text offset just after the value, once parsed. */
  end: number;
  value: Attribute | Type | null;
  resolving: boolean;
}

/** Alias definitions of one file, shared by the main parser and the sub-parsers that read them. */
interface AliasTable {
  attrs: Map<string, AliasEntry>;
  types: Map<string, AliasEntry>;
  order: string[];
  /** `distinct[N]<...>` attributes by their id in this file. */
  distinct: Map<bigint, DistinctAttr>;
}

/** Top-level alias definitions: a line starting with `#name =` or `!name =`. */
const ALIAS_DEF = /^[ \t]*([#!])([A-Za-z_][\w$.\-]*)[ \t]*=/gm;

const SIMPLE_TYPES = new Map<string, Type>();
/** Builtin types spelled `keyword<...>`. */
const KEYWORD_TYPES = new Set(['tensor', 'vector', 'tuple', 'memref', 'complex']);

/** Token cursor plus the type/attribute/location grammar. */
/**
 * The deepest nesting the parser follows (regions in ops, attributes, types and locations in each
 * other, counted together). Real IR stays far below; past it the input gets a located error
 * instead of the JavaScript stack overflowing.
 */
export const MAX_NESTING = 256;

/** The longest type spelling (in tokens) `parseSpelledType` remembers, and the deepest nesting it is used at. */
const TYPE_MEMO_MAX_TOKENS = 128;
const TYPE_MEMO_MAX_NESTING = 64;

/** Locations' line and column numbers are unsigned 32-bit in MLIR. */
const U32_MAX = 4294967295;

export class ParserBase implements AsmParser {
  private readonly window: TokenWindow;
  /** The file's tokens, shared with the sub-parsers of alias values. */
  private readonly stream: TokenStream;
  /** The source text (token offsets index into it). */
  protected readonly text: string;
  /** The index of the current token. */
  protected pos_: number;
  /** How deep the parse is in nested regions, attributes, types and locations (see MAX_NESTING). */
  protected nesting = 0;
  protected readonly context: Context;
  protected readonly allowUnregistered: boolean;
  private readonly aliases: AliasTable;
  /** Types spelled `word<...>` already read, by their text (see `parseSpelledType`). */
  private typeSpellings: RangeTable<Type> | null = null;

  /**
   * `sub` makes a parser for one alias value starting at a text offset, sharing the file's
   * alias table (aliases may be used before their definition, so they are read on demand).
   */
  constructor(
    readonly source: SourceFile,
    private readonly options: ParseOptions = {},
    sub?: { aliases: AliasTable; start: number; stream: TokenStream },
  ) {
    this.text = source.text;
    const onError = (e: { offset: number; message: string }): never => this.error(e.message, { source, offset: e.offset });
    this.stream = sub ? sub.stream : new TokenStream(source.text);
    this.window = sub
      ? new TokenWindow(this.stream, sub.start, 256, 1 << 16, onError)
      : new TokenWindow(this.stream, 0, 1 << 16, 1 << 16, onError);
    this.pos_ = this.window.first;
    this.context = options.context ?? defaultContext;
    this.allowUnregistered = options.allowUnregisteredDialect ?? false;
    this.aliases = sub ? sub.aliases : this.scanAliases();
  }

  // ---- cursor ----------------------------------------------------------------------------

  /** The kind of the current token (`T.EOF` at the end). */
  protected kind(): number {
    return this.window.kindAt(this.pos_);
  }
  protected is(kind: TokenType): boolean {
    return this.window.kindAt(this.pos_) === kind;
  }
  protected isKeyword(word: string): boolean {
    return this.window.kindAt(this.pos_) === T.BareId && this.imageIs(this.pos_, word);
  }
  protected peekIs(k: number, kind: TokenType): boolean {
    return this.window.kindAt(this.pos_ + k) === kind;
  }
  /** Whether token `i` (which exists) is spelled `word`. */
  protected imageIs(i: number, word: string): boolean {
    const w = this.window;
    const start = w.startAt(i);
    return w.endAt(i) - start === word.length && this.text.startsWith(word, start);
  }
  /** The text of token `i` (the current one by default), which must exist. */
  protected image(i = this.pos_): string {
    return this.text.slice(this.window.startAt(i), this.window.endAt(i));
  }
  /** The start offset of token `i` (the current one by default), which must exist. */
  protected startOf(i = this.pos_): number {
    return this.window.startAt(i);
  }
  /** The end offset of token `i` (the current one by default), which must exist. */
  protected endOf(i = this.pos_): number {
    return this.window.endAt(i);
  }
  peekToken(offset = 0): { kind: string; image: string } | undefined {
    const i = this.pos_ + offset;
    const kind = this.window.kindAt(i);
    return kind === T.EOF ? undefined : { kind: KIND_NAMES[kind], image: this.image(i) };
  }
  protected atEnd(): boolean {
    return this.window.kindAt(this.pos_) === T.EOF;
  }
  /** The source position of the current token (or end of file). */
  pos(): SourcePos {
    if (this.window.kindAt(this.pos_) !== T.EOF) return { source: this.source, offset: this.window.startAt(this.pos_) };
    // At end of file, point just after the last token (on its line), as MLIR does.
    return { source: this.source, offset: this.pos_ > this.window.first ? this.consumedEnd() : 0 };
  }
  /** Text offset just after the last consumed token. */
  protected consumedEnd(): number {
    return this.pos_ > this.window.first && this.window.kindAt(this.pos_ - 1) !== T.EOF ? this.window.endAt(this.pos_ - 1) : 0;
  }
  /** A source position from an offset (for diagnostics). */
  posAt(offset: number): SourcePos {
    return { source: this.source, offset };
  }
  /** The source position of token `i`, which must exist. */
  protected posOf(i: number): SourcePos {
    return { source: this.source, offset: this.window.startAt(i) };
  }
  error(message: string, pos: SourcePos = this.pos()): never {
    throw new DiagnosticError(new Diagnostic('error', message, pos));
  }
  /** Describes the current token for "expected X" messages. */
  protected describe(): string {
    return this.atEnd() ? 'end of file' : `'${this.image()}'`;
  }
  /** Consumes a token of `kind` and returns its index; an error naming `what` otherwise. */
  protected expect(kind: TokenType, what: string): number {
    if (!this.is(kind)) this.error(`expected ${what}`);
    return this.pos_++;
  }

  parsePunct(p: string): void {
    if (!this.parseOptionalPunct(p)) this.error(`expected '${p}'`);
  }
  /** Consumes a token of `kind` if it is next: `parseOptionalPunct` without the lookup by spelling. */
  protected eat(kind: TokenType): boolean {
    if (this.window.kindAt(this.pos_) !== kind) return false;
    this.pos_++;
    return true;
  }
  /** `parsePunct(p)` where `kind` is `p`'s token kind (no lookup by spelling). */
  parsePunctKind(kind: TokenType, p: string): void {
    if (this.window.kindAt(this.pos_) !== kind) this.error(`expected '${p}'`);
    this.pos_++;
  }
  parseOptionalPunct(p: string): boolean {
    const kind = PUNCT[p];
    if (!kind) throw new Error(`internal error: unknown punctuation '${p}'`);
    if (!this.is(kind)) return false;
    this.pos_++;
    return true;
  }
  parseKeyword(expected?: string): string {
    const k = this.parseOptionalKeyword(expected);
    if (k === undefined) this.error(expected ? `expected '${expected}'` : 'expected keyword');
    return k;
  }
  parseOptionalKeyword(expected?: string): string | undefined {
    if (this.kind() !== T.BareId) return undefined;
    if (expected !== undefined) {
      if (!this.imageIs(this.pos_, expected)) return undefined;
      this.pos_++;
      return expected;
    }
    return this.image(this.pos_++);
  }
  parseInteger(): bigint {
    const v = this.parseOptionalInteger();
    if (v === undefined) this.error('expected integer value');
    return v;
  }
  parseIntegerInRange(lo: number, hi: number, what: string): number {
    const at = this.pos();
    const v = this.parseInteger();
    if (v < BigInt(lo) || v > BigInt(hi)) this.error(`${what} ${v} is out of range [${lo}, ${hi}]`, at);
    return Number(v);
  }
  parseOptionalInteger(): bigint | undefined {
    const neg = this.is(T.Minus) && (this.peekIs(1, T.Integer) || this.peekIs(1, T.HexInt));
    if (neg) this.pos_++;
    if (!this.is(T.Integer) && !this.is(T.HexInt)) return undefined;
    const v = BigInt(this.image(this.pos_++));
    return neg ? -v : v;
  }
  parseFloat(): number {
    const neg = this.parseOptionalPunct('-');
    const kind = this.kind();
    if (kind !== T.Float && kind !== T.Integer) this.error('expected floating point literal');
    const v = Number(this.image(this.pos_++));
    return neg ? -v : v;
  }
  parseString(): string {
    const s = this.parseOptionalString();
    if (s === undefined) this.error('expected string');
    return s;
  }
  parseOptionalString(): string | undefined {
    if (!this.is(T.String)) return undefined;
    return this.stringToken(this.pos_++);
  }
  /** The value of string token `i`; an invalid escape is an error at the backslash. */
  protected stringToken(i: number): string {
    const image = this.image(i);
    const bad = badEscape(image);
    if (bad >= 0) this.error('unknown escape in string literal', { source: this.source, offset: this.startOf(i) + bad });
    return unescapeString(image);
  }

  parseCommaList<E>(open: string, close: string, elem: () => E): E[] {
    this.parsePunct(open);
    const out: E[] = [];
    if (this.parseOptionalPunct(close)) return out;
    do out.push(elem());
    while (this.parseOptionalPunct(','));
    this.parsePunct(close);
    return out;
  }

  // ---- aliases ---------------------------------------------------------------------------

  /** Finds every top-level `#name = ...` and `!name = ...` so aliases can be used before their definition. */
  private scanAliases(): AliasTable {
    const table: AliasTable = { attrs: new Map(), types: new Map(), order: [], distinct: new Map() };
    const text = this.source.text;
    ALIAS_DEF.lastIndex = 0;
    for (let m = ALIAS_DEF.exec(text); m; m = ALIAS_DEF.exec(text)) {
      const name = m[2];
      const at = { source: this.source, offset: m.index + m[0].indexOf(m[1]) };
      const map = m[1] === '#' ? table.attrs : table.types;
      if (map.has(name)) this.error(`redefinition of ${m[1] === '#' ? 'attribute' : 'type'} alias id '${name}'`, at);
      if (name.includes('.')) this.error(`expected alias name without '.' (dialect namespaces are reserved)`, at);
      map.set(name, { start: m.index + m[0].length, end: -1, value: null, resolving: false });
      table.order.push(m[1] + name);
    }
    return table;
  }

  /** At a top-level alias definition: makes sure it is parsed and skips past it. */
  protected skipAliasDefinition(): void {
    const t = this.pos_++;
    this.pos_++; // '='
    const image = this.image(t);
    const isAttr = this.window.kindAt(t) === T.HashId;
    const entry = (isAttr ? this.aliases.attrs : this.aliases.types).get(image.slice(1));
    if (!entry) this.error(`alias definitions must start a line ('${image} = ...')`, this.posOf(t));
    this.resolveAlias(entry, isAttr, t);
    while (!this.atEnd() && this.startOf() < entry.end) this.pos_++;
  }

  /** Parses an alias's value on first use; `at` is the index of the token naming it. */
  private resolveAlias(entry: AliasEntry, isAttr: boolean, at: number): Attribute | Type {
    if (entry.value) return entry.value;
    if (entry.resolving) this.error(`symbol alias '${this.image(at)}' refers to itself`, this.posOf(at));
    entry.resolving = true;
    const sub = new ParserBase(this.source, this.options, { aliases: this.aliases, start: entry.start, stream: this.stream });
    entry.value = isAttr ? sub.parseAttribute() : sub.parseType();
    entry.end = sub.consumedEnd();
    entry.resolving = false;
    return entry.value;
  }

  /** Alias definitions, for the printer to keep user-chosen names (value -> name). */
  aliasDefinitions(): Map<Attribute | Type, string> {
    const out = new Map<Attribute | Type, string>();
    for (const [n, e] of this.aliases.attrs) if (e.value) out.set(e.value, n);
    for (const [n, e] of this.aliases.types) if (e.value) out.set(e.value, n);
    return out;
  }

  /**
   * Runs `f` one nesting level deeper (see MAX_NESTING), for dialect parsers. The parser's own
   * recursive entry points (types, attributes, dense literals, locations, regions) inline the same
   * enter/leave around their bodies, so that these hot paths allocate no closure per call.
   */
  nested<T>(f: () => T): T {
    this.enterNesting();
    try {
      return f();
    } finally {
      this.nesting--;
    }
  }

  /** Enters one more level of nesting, or stops with a located error past MAX_NESTING. */
  protected enterNesting(): void {
    if (++this.nesting > MAX_NESTING) {
      this.nesting--;
      this.error(`nesting deeper than ${MAX_NESTING} levels (regions, attributes, types and locations together); the parser stops here`);
    }
  }

  // ---- types -----------------------------------------------------------------------------

  parseType(): Type {
    this.enterNesting();
    try {
      return this.parseTypeInner();
    } finally {
      this.nesting--;
    }
  }

  private parseTypeInner(): Type {
    const kind = this.kind();
    if ((kind === T.BareId || kind === T.BangId) && this.peekIs(1, T.Less) && this.nesting <= TYPE_MEMO_MAX_NESTING) return this.parseSpelledType(kind);
    return this.parseTypeByKind(kind);
  }

  private parseTypeByKind(kind: number): Type {
    if (kind === T.BareId) return this.parseBuiltinType();
    if (kind === T.LParen) return this.parseFunctionType();
    if (kind === T.BangId) return this.parseBangType();
    if (kind === T.EOF) this.error('expected type');
    this.error(`expected type, found ${this.describe()}`);
  }

  /**
   * A type spelled `word<...>` (`tensor<128x64xf16, #blocked>`, `!tt.ptr<f16>`), read once per
   * distinct spelling in the file: a type's text (its aliases included) always means the same type,
   * so later occurrences are found by their text in `typeSpellings` and skipped, with no shape
   * lists, keys or attribute lookups built again (a TTGIR file repeats a few dozen spellings
   * thousands of times). Spellings longer than TYPE_MEMO_MAX_TOKENS tokens are read each time.
   */
  private parseSpelledType(kind: number): Type {
    const first = this.pos_;
    let last = first + 1;
    for (let depth = 0; last - first < TYPE_MEMO_MAX_TOKENS && this.window.has(last); last++) {
      const k = this.window.kindAt(last);
      if (k === T.Less) depth++;
      else if (k === T.Greater && --depth === 0) break;
    }
    // Without the closing '>' within reach (the loop ran out), the spelling is read as usual.
    if (last - first >= TYPE_MEMO_MAX_TOKENS || !this.window.has(last)) return this.parseTypeByKind(kind);
    const start = this.window.startAt(first);
    const end = this.window.endAt(last);
    const memo = (this.typeSpellings ??= new RangeTable<Type>(this.text));
    const known = memo.find(start, end);
    if (known >= 0) {
      this.pos_ = last + 1;
      return memo.valueAt(known);
    }
    const type = this.parseTypeByKind(kind);
    if (this.pos_ === last + 1) memo.add(start, end, type);
    return type;
  }

  private parseBuiltinType(): Type {
    const word = this.image();
    const simple = SIMPLE_TYPES.get(word) ?? simpleType(word);
    if (simple) {
      this.pos_++;
      return simple;
    }
    const keyword = this.parseKeywordType(word);
    if (keyword) return keyword;
    if (/^[su]?i\d+$/.test(word)) this.error('integer bitwidth is limited to 16777215 bits');
    this.error(`unknown type '${word}'`);
  }

  /** A builtin type spelled `word<...>`, with the cursor on the token that names it; undefined for another word. */
  private parseKeywordType(word: string): Type | undefined {
    switch (word) {
      case 'tensor':
        return this.parseTensorType();
      case 'vector':
        return this.parseVectorType();
      case 'memref':
        return this.parseMemRefType();
      case 'complex': {
        this.pos_++;
        this.parsePunct('<');
        const at = this.pos();
        const elt = this.parseType();
        if (!(elt instanceof IntegerType || elt instanceof FloatType)) this.error('invalid element type for complex', at);
        this.parsePunct('>');
        return ComplexType.get(elt);
      }
      case 'tuple': {
        this.pos_++;
        return TupleType.get(this.parseCommaList('<', '>', () => this.parseType()));
      }
    }
    return undefined;
  }

  /** `memref<4x?xf32, layout, memorySpace>` or `memref<*xf32, memorySpace>`. */
  private parseMemRefType(): Type {
    this.pos_++;
    this.parsePunct('<');
    if (this.eat(T.Star)) {
      const x = this.parseOptionalKeyword();
      if (x === undefined || !x.startsWith('x')) this.error("expected 'x' in unranked memref type");
      const elt = this.parseTypeAfterX(x);
      const space = this.parseOptionalPunct(',') ? this.parseAttribute() : null;
      this.parsePunct('>');
      return UnrankedMemRefType.get(elt, space);
    }
    const eltAt = this.pos();
    const { shape, elt } = this.parseShapeAndElementType();
    if (elt instanceof FunctionType || elt instanceof NoneType || elt instanceof TupleType) this.error('invalid memref element type', eltAt);
    let layout: Attribute | null = null;
    let space: Attribute | null = null;
    let sawLayout = false;
    while (this.parseOptionalPunct(',')) {
      const at = this.pos();
      const a = this.parseAttribute();
      const isLayout = a instanceof AffineMapAttr || a instanceof StridedLayoutAttr;
      if (space) this.error(isLayout ? 'expected memory space to be last in memref type' : 'multiple memory spaces specified in memref type', at);
      if (isLayout && sawLayout) this.error('multiple layouts specified in memref type', at);
      if (isLayout) {
        sawLayout = true;
        layout = a instanceof AffineMapAttr && a.isIdentity(shape.length) ? null : a; // MLIR drops identity layouts
      } else space = a;
    }
    this.parsePunct('>');
    return MemRefType.get(shape, elt, layout, space);
  }

  private parseTensorType(): Type {
    this.pos_++;
    this.parsePunct('<');
    if (this.is(T.Star)) {
      this.pos_++;
      const x = this.parseOptionalKeyword();
      if (x === undefined || !x.startsWith('x')) this.error("expected 'x' in unranked tensor type");
      const elt = this.parseTypeAfterX(x);
      this.parsePunct('>');
      return UnrankedTensorType.get(elt);
    }
    const { shape, elt } = this.parseShapeAndElementType();
    checkElementType(this, elt);
    let enc: Attribute | null = null;
    if (this.parseOptionalPunct(',')) enc = this.parseAttribute();
    this.parsePunct('>');
    return RankedTensorType.get(shape, elt, enc);
  }

  /** `4x?xf32`; `0xf32` and `0x4xf32` lex as hex integers (then maybe more words), so those are re-read from the text. */
  private parseShapeAndElementType(): { shape: number[]; elt: Type } {
    const lead = this.is(T.HexInt) ? shapePrefixAt(this.text, this.startOf()) : null;
    if (!lead) return { shape: this.parseDimensionList(true), elt: this.parseType() };
    while (this.endOf() <= lead.eltStart) this.pos_++;
    if (this.startOf() === lead.eltStart) return { shape: lead.shape, elt: this.parseType() };
    // The element type's word starts inside this token and runs over the tokens glued to it.
    let end = this.endOf();
    for (this.pos_++; !this.atEnd() && this.startOf() === end && (this.is(T.BareId) || this.is(T.Integer) || this.is(T.HexInt)); this.pos_++) end = this.endOf();
    const word = this.text.slice(lead.eltStart, end);
    const elt = simpleType(word) ?? (this.pos_--, this.parseKeywordType(word));
    if (!elt) this.error(`unknown type '${word}'`, this.posAt(lead.eltStart));
    return { shape: lead.shape, elt };
  }

  /** `*x` is lexed as `*` then the identifier `xf32`; re-read the element type from it. */
  private parseTypeAfterX(word: string): Type {
    if (word === 'x') return this.parseType();
    const rest = word.slice(1);
    const ty = simpleType(rest);
    if (ty) return ty;
    // `xcomplex<f32>`: step back onto the word; the keyword type's parser skips it.
    this.pos_--;
    const keyword = this.parseKeywordType(rest);
    if (!keyword) this.error(`unknown type '${rest}'`, this.posOf(this.pos_ - 1));
    return keyword;
  }

  /** `vector<4x[8]xf32>` (bracketed dimensions are scalable) or `vector<f32>` (0-d). */
  private parseVectorType(): Type {
    this.pos_++;
    this.parsePunct('<');
    const shape: number[] = [];
    const scalable: boolean[] = [];
    let elt: Type | undefined;
    let eltAt = this.pos();
    while (!elt) {
      eltAt = this.pos();
      if (this.is(T.DimList)) {
        for (const d of this.parseDimensionList(false)) {
          shape.push(d);
          scalable.push(false);
        }
      } else if (this.is(T.HexInt) && this.image().startsWith('0x')) {
        // `0xf32` lexes as a hex integer: a zero dimension, which vectors may not have.
        this.error('vector types must have positive constant sizes');
      } else if (this.eat(T.LSquare)) {
        shape.push(this.parseIntegerInRange(0, Number.MAX_SAFE_INTEGER, 'scalable dimension'));
        scalable.push(true);
        this.parsePunct(']');
        // `]xf32` lexes as `]` `xf32`, `]x4xf32` as `]` `x4xf32`: split the dimensions off the word.
        const word = this.parseOptionalKeyword();
        if (word === undefined || !word.startsWith('x')) this.error("expected 'x' in vector dimension list");
        let rest = word.slice(1);
        for (let m = /^(\d+)x/.exec(rest); m; m = /^(\d+)x/.exec(rest)) {
          shape.push(Number(m[1]));
          scalable.push(false);
          rest = rest.slice(m[0].length);
        }
        if (rest) elt = this.parseTypeAfterX('x' + rest);
      } else elt = this.parseType();
    }
    if (shape.includes(0)) this.error('vector types must have positive constant sizes', eltAt);
    if (!(elt instanceof IntegerType || elt instanceof IndexType || elt instanceof FloatType)) this.error('vector elements must be int/index/float type', eltAt);
    this.parsePunct('>');
    return VectorType.get(shape, elt, scalable);
  }

  parseDimensionList(allowDynamic: boolean): number[] {
    if (!this.is(T.DimList)) return [];
    const t = this.pos_++;
    const dims: number[] = [];
    const parts = this.image(t).split('x');
    for (let k = 0; k < parts.length - 1; k++) {
      if (parts[k] === '?') {
        if (!allowDynamic) this.error('expected static shape', this.posOf(t));
        dims.push(DYNAMIC);
      } else {
        const d = Number(parts[k]);
        // Kept exactly or rejected: 999999999999999999999 printed back as 1e+29.
        if (!Number.isSafeInteger(d)) this.error(`dimension ${parts[k]} is out of range: dimensions are limited to 2^53-1`, this.posOf(t));
        dims.push(d);
      }
    }
    return dims;
  }

  private parseFunctionType(): FunctionType {
    const inputs = this.parseCommaList('(', ')', () => this.parseType());
    this.parsePunct('->');
    return FunctionType.get(inputs, this.parseFunctionResultTypes());
  }

  /** A single type, or a parenthesized list (possibly empty). */
  parseFunctionResultTypes(): Type[] {
    if (this.is(T.LParen)) {
      // `(a) -> b` is a function type even in result position; a plain list otherwise.
      const save = this.pos_;
      const list = this.parseCommaList('(', ')', () => this.parseType());
      if (this.is(T.Arrow)) {
        this.pos_ = save;
        return [this.parseFunctionType()];
      }
      return list;
    }
    return [this.parseType()];
  }

  private parseBangType(): Type {
    const t = this.pos_++;
    const name = this.image(t).slice(1);
    const alias = this.aliases.types.get(name);
    if (alias) return this.resolveAlias(alias, false, t) as Type;
    const dot = name.indexOf('.');
    if (dot < 0) this.error(`undefined symbol alias id '${name}'`, this.posOf(t));
    const parser = this.context.typeParsers.get(name);
    if (parser) return parser(this);
    const dialect = name.slice(0, dot);
    if (this.allowUnregistered && !this.context.isDialectLoaded(dialect)) return OpaqueType.get('!' + name + this.skipBalancedBody());
    if (this.context.isDialectLoaded(dialect)) this.error(`unknown type '${name.slice(dot + 1)}' in dialect '${dialect}'`, this.posOf(t));
    this.error(`dialect '${dialect}' is not registered (use --allow-unregistered-dialect to accept its types)`, this.posOf(t));
  }

  /** Reads an optional `<...>` body verbatim (for unregistered dialect types and attributes). */
  private skipBalancedBody(): string {
    if (!this.is(T.Less)) return '';
    const start = this.startOf();
    let depth = 0;
    do {
      const kind = this.kind();
      if (kind === T.EOF) this.error("unbalanced '<' in dialect type or attribute");
      this.pos_++;
      if (kind === T.Less) depth++;
      else if (kind === T.Greater) depth--;
    } while (depth > 0);
    return this.source.text.slice(start, this.consumedEnd());
  }

  // ---- attributes ------------------------------------------------------------------------

  parseAttribute(type?: Type): Attribute {
    this.enterNesting();
    try {
      return this.parseAttributeInner(type);
    } finally {
      this.nesting--;
    }
  }

  private parseAttributeInner(type?: Type): Attribute {
    const kind = this.kind();
    switch (kind) {
      case T.EOF:
        this.error('expected attribute value');
      case T.Integer:
      case T.HexInt:
      case T.Minus:
      case T.Float:
        return this.parseNumberAttr(type);
      case T.String: {
        const s = this.stringToken(this.pos_++);
        if (this.is(T.Colon) && !type) {
          this.pos_++;
          return StringAttr.get(s, this.parseType());
        }
        return StringAttr.get(s);
      }
      case T.LSquare:
        return ArrayAttr.get(this.parseCommaList('[', ']', () => this.parseAttribute()));
      case T.LBrace:
        return DictionaryAttr.get(this.parseDictionaryBody());
      case T.AtId:
        return this.parseSymbolRef();
      case T.HashId:
        return this.parseHashAttr();
      case T.BareId:
        return this.parseKeywordAttr(type);
    }
    if (kind === T.LParen || kind === T.BangId) return TypeAttr.get(this.parseType());
    this.error(`expected attribute value, found ${this.describe()}`);
  }

  parseDictionaryBody(): [string, Attribute][] {
    const seen = new Set<string>();
    return this.parseCommaList('{', '}', () => {
      const t = this.pos_;
      const kind = this.kind();
      let key: string;
      if (kind === T.BareId) key = this.image(this.pos_++);
      else if (kind === T.String) key = this.stringToken(this.pos_++);
      else this.error('expected attribute name');
      if (key === '') this.error('expected valid attribute name', this.posOf(t));
      if (seen.has(key)) this.error(`duplicate key '${key}' in dictionary attribute`, this.posOf(t));
      seen.add(key);
      if (!this.parseOptionalPunct('=')) return [key, UnitAttr.get()] as [string, Attribute];
      return [key, this.parseAttribute()] as [string, Attribute];
    });
  }

  private parseNumberAttr(type?: Type): Attribute {
    // The literal's position, made only for a diagnostic.
    const startOffset = this.startOf();
    const neg = this.eat(T.Minus);
    const kind = this.kind();
    if (kind !== T.Integer && kind !== T.HexInt && kind !== T.Float) this.error('expected integer or floating point literal');
    const image = this.image(this.pos_++);
    let ty = type;
    if (!ty && this.eat(T.Colon)) ty = this.parseType();
    if (kind === T.Float) {
      const ft = ty ?? FloatType.get('f64');
      if (!(ft instanceof FloatType)) this.error(`floating point value not valid for specified type ${ft}`, this.posAt(startOffset));
      const v = Number(image);
      return FloatAttr.get(neg ? -v : v, ft);
    }
    if (kind === T.HexInt && ty instanceof FloatType) {
      if (neg) this.error('hexadecimal float literal should not have a leading minus', this.posAt(startOffset));
      return hexFloat(BigInt(image), ty);
    }
    const intTy = ty ?? i(64);
    if (intTy instanceof FloatType) return FloatAttr.get(Number(neg ? -BigInt(image) : BigInt(image)), intTy);
    if (!(intTy instanceof IntegerType) && !(intTy instanceof IndexType))
      this.error(`integer literal not valid for specified type ${intTy}`, this.posAt(startOffset));
    const v = BigInt(image);
    if (intTy instanceof IntegerType && neg && intTy.signedness === 'unsigned')
      this.error('negative integer literal not valid for unsigned integer type', this.posAt(startOffset));
    checkIntFits(this, neg ? -v : v, intTy, startOffset);
    return IntegerAttr.get(neg ? -v : v, intTy);
  }

  private parseSymbolRef(): SymbolRefAttr {
    const root = symbolText(this.image(this.pos_++));
    const nested: string[] = [];
    while (this.parseOptionalPunct('::')) nested.push(symbolText(this.image(this.expect(T.AtId, 'symbol reference'))));
    return SymbolRefAttr.get(root, nested);
  }

  private parseHashAttr(): Attribute {
    const t = this.pos_++;
    const name = this.image(t).slice(1);
    const alias = this.aliases.attrs.get(name);
    if (alias) return this.resolveAlias(alias, true, t) as Attribute;
    const dot = name.indexOf('.');
    if (dot < 0) this.error(`undefined symbol alias id '${name}'`, this.posOf(t));
    const parser = this.context.attrParsers.get(name);
    if (parser) return parser(this);
    const dialect = name.slice(0, dot);
    if (this.allowUnregistered && !this.context.isDialectLoaded(dialect)) return OpaqueAttr.get('#' + name + this.skipBalancedBody());
    if (this.context.isDialectLoaded(dialect)) this.error(`unknown attribute '${name.slice(dot + 1)}' in dialect '${dialect}'`, this.posOf(t));
    this.error(`dialect '${dialect}' is not registered (use --allow-unregistered-dialect to accept its attributes)`, this.posOf(t));
  }

  private parseKeywordAttr(type?: Type): Attribute {
    const word = this.image();
    switch (word) {
      case 'true':
      case 'false':
        this.pos_++;
        return boolAttr(word === 'true');
      case 'unit':
        this.pos_++;
        return UnitAttr.get();
      case 'dense':
        return this.parseDense(type);
      case 'array':
        return this.parseDenseArray();
      case 'loc':
        return this.parseLocation();
      case 'affine_map':
        return parseAffineMapAttr(this);
      case 'affine_set':
        return parseAffineSetAttr(this);
      case 'strided':
        return parseStridedLayoutAttr(this);
      case 'distinct':
        return parseDistinctAttr(this, this.aliases.distinct);
      case 'dense_resource':
        return parseDenseResourceAttr(this, type);
    }
    if (SIMPLE_TYPES.has(word) || simpleType(word) || KEYWORD_TYPES.has(word))
      return TypeAttr.get(this.parseType());
    this.error(`expected attribute value, found '${word}'`);
  }

  private parseDenseArray(): DenseArrayAttr {
    this.pos_++;
    this.parsePunct('<');
    const elt = this.parseType();
    const values: number[] = [];
    const nanBits = new Map<number, bigint>();
    if (this.parseOptionalPunct(':')) {
      do {
        const hex = elt instanceof FloatType && this.is(T.HexInt) ? BigInt(this.image(this.pos_)) : null;
        const v = this.parseDenseArrayElement(elt);
        if (elt instanceof FloatType) noteNanBits(nanBits, values.length, v, hex, elt.kind);
        values.push(v);
      } while (this.parseOptionalPunct(','));
    }
    this.parsePunct('>');
    return DenseArrayAttr.get(elt, values, nanBits);
  }

  /** One element of `array<T: ...>` (also the bracketed form of dense array properties), range-checked for `elt`. */
  parseDenseArrayElement(elt: Type): number {
    if (elt instanceof IntegerType && elt.width === 1) {
      if (this.parseOptionalKeyword('true')) return 1;
      if (this.parseOptionalKeyword('false')) return 0;
    }
    const at = this.pos();
    if (elt instanceof FloatType) {
      // As MLIR: a hex integer is the bit pattern (how infinities and NaNs print); a decimal integer is a mistake.
      if (this.is(T.HexInt)) return floatFromBits(BigInt(this.image(this.pos_++)), elt.kind);
      if (this.is(T.Integer) || (this.is(T.Minus) && this.peekIs(1, T.Integer)))
        this.error('unexpected decimal integer literal for a floating point value (add a trailing dot to make the literal a float)', at);
      return this.parseFloat();
    }
    const v = this.parseInteger();
    checkIntFits(this, v, elt, at);
    if (!Number.isSafeInteger(Number(v))) this.error(`array element ${v} is out of range: dense array elements are limited to 2^53-1 in magnitude`, at);
    return Number(v);
  }

  private parseDense(type?: Type): Attribute {
    const start = this.pos();
    this.pos_++;
    this.parsePunct('<');
    let raw: string | null = null;
    let nested: unknown = [];
    const literalStart = this.pos();
    if (this.is(T.String)) raw = this.stringToken(this.pos_++);
    else if (!this.is(T.Greater)) nested = this.parseDenseLiteral();
    this.parsePunct('>');
    let ty = type;
    if (!ty) {
      this.parsePunct(':');
      ty = this.parseType();
    }
    if (!(ty instanceof ShapedType)) this.error(`elements literal must be a shaped type, got ${ty}`, start);
    const extra = denseComplexOrString(this, raw ?? nested, ty, literalStart);
    if (extra) return extra;
    if (raw !== null) return DenseElementsAttr.get(ty, [], raw);
    const elt = ty.elementType;
    if (!(elt instanceof FloatType)) return DenseElementsAttr.get(ty, flattenDense(this, nested, ty, literalStart));
    // Float elements: a NaN read in hex keeps its sign and payload beside the value.
    const nanBits = new Map<number, bigint>();
    let index = 0;
    const values = flattenDense(this, nested, ty, literalStart, (e) => {
      const v = elementValue(this, e, elt) as number;
      if (e.kind === T.HexInt) noteNanBits(nanBits, index, v, BigInt(e.text!), elt.kind);
      index++;
      return v;
    });
    return DenseElementsAttr.get(ty, values, null, nanBits);
  }

  /** A scalar, or a nested list of scalars, kept as raw tokens until the type is known. */
  private parseDenseLiteral(): unknown {
    this.enterNesting();
    try {
      return this.parseDenseLiteralInner();
    } finally {
      this.nesting--;
    }
  }

  private parseDenseLiteralInner(): unknown {
    if (this.is(T.LSquare)) return this.parseCommaList('[', ']', () => this.parseDenseLiteral());
    if (this.is(T.String)) return { str: this.stringToken(this.pos_++), pos: this.posOf(this.pos_ - 1) };
    const at = this.pos();
    if (this.eat(T.LParen)) {
      const re = this.parseDenseLiteral();
      this.parsePunct(',');
      const im = this.parseDenseLiteral();
      this.parsePunct(')');
      return { complex: [re, im], pos: at };
    }
    const neg = this.parseOptionalPunct('-');
    const kind = this.kind();
    if (kind === T.EOF) this.error('expected element literal');
    if (kind === T.BareId && (this.isKeyword('true') || this.isKeyword('false'))) {
      return { bool: this.image(this.pos_++) === 'true' };
    }
    if (kind !== T.Integer && kind !== T.Float && kind !== T.HexInt)
      this.error(`expected element literal of primitive type, found ${this.describe()}`);
    const t = this.pos_++;
    return { text: this.image(t), neg, kind, pos: this.posOf(t) };
  }

  // ---- locations -------------------------------------------------------------------------

  /** `loc(...)`. */
  parseLocation(): Location {
    this.parseKeyword('loc');
    this.parsePunct('(');
    const l = this.parseLocationInstance();
    this.parsePunct(')');
    return l;
  }

  /** Parses an optional trailing `loc(...)`. */
  parseOptionalLocation(): Location | undefined {
    return this.isKeyword('loc') && this.peekIs(1, T.LParen) ? this.parseLocation() : undefined;
  }

  protected parseLocationInstance(): Location {
    this.enterNesting();
    try {
      return this.parseLocationInstanceInner();
    } finally {
      this.nesting--;
    }
  }

  private parseLocationInstanceInner(): Location {
    const kind = this.kind();
    const t = this.pos_;
    if (kind === T.EOF) this.error('expected location instance');
    if (kind === T.HashId) {
      const a = this.parseHashAttr();
      if (!(a instanceof Location)) this.error(`expected location, but '${this.image(t)}' is not a location alias`, this.posOf(t));
      return a;
    }
    if (kind === T.String) {
      this.pos_++;
      const s = this.stringToken(t);
      if (this.parseOptionalPunct(':')) {
        const line = this.parseIntegerInRange(0, U32_MAX, 'line number');
        this.parsePunct(':');
        const col = this.parseIntegerInRange(0, U32_MAX, 'column number');
        return FileLineColLoc.get(s, line, col);
      }
      if (this.parseOptionalPunct('(')) {
        const child = this.parseLocationInstance();
        this.parsePunct(')');
        return NameLoc.get(s, child);
      }
      return NameLoc.get(s);
    }
    if (kind === T.BareId) {
      const word = this.image(t);
      if (word === 'unknown') {
        this.pos_++;
        return UnknownLoc.get();
      }
      if (word === 'callsite') {
        this.pos_++;
        this.parsePunct('(');
        const callee = this.parseLocationInstance();
        this.parseKeyword('at');
        const caller = this.parseLocationInstance();
        this.parsePunct(')');
        return CallSiteLoc.get(callee, caller);
      }
      if (word === 'fused') {
        this.pos_++;
        let meta: Attribute | null = null;
        if (this.parseOptionalPunct('<')) {
          meta = this.parseAttribute();
          this.parsePunct('>');
        }
        return FusedLoc.get(this.parseCommaList('[', ']', () => this.parseLocationInstance()), meta);
      }
    }
    this.error(`expected location instance, found ${this.describe()}`);
  }
}

// ---- helpers -----------------------------------------------------------------------------

function simpleType(word: string): Type | undefined {
  const cached = SIMPLE_TYPES.get(word);
  if (cached) return cached;
  let t: Type | undefined;
  const m = /^(s|u)?i(0|[1-9]\d*)$/.exec(word);
  if (m) {
    const width = Number(m[2]);
    if (width > 16777215) return undefined;
    t = IntegerType.get(width, m[1] === 's' ? 'signed' : m[1] === 'u' ? 'unsigned' : 'signless');
  } else if (word === 'index') t = IndexType.get();
  else if (word === 'none') t = NoneType.get();
  else if (word in FLOAT_KINDS) t = FloatType.get(word);
  if (t) SIMPLE_TYPES.set(word, t);
  return t;
}

function checkElementType(p: ParserBase, t: Type): void {
  if (t instanceof FunctionType) p.error('invalid tensor element type');
}

function symbolText(image: string): string {
  const body = image.slice(1);
  return body.startsWith('"') ? unescapeString(body) : body;
}
