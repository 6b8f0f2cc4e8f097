/**
 * The first half of the MLIR-syntax parser: token cursor, types, attributes, locations and
 * aliases. `ir/parser.ts` extends it with operations, blocks and regions.
 */
import type { AsmParser } from './asm.js';
import {
  ArrayAttr, Attribute, CallSiteLoc, DenseArrayAttr, DenseElementsAttr, DictionaryAttr, FileLineColLoc, FloatAttr,
  FusedLoc, IntegerAttr, Location, NameLoc, OpaqueAttr, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr, UnknownLoc,
  boolAttr, floatFromBits, type DenseValue,
} from './attributes.js';
import { Diagnostic, DiagnosticError, SourceFile, type SourcePos } from './diagnostics.js';
import { PUNCT, T, TokenWindow, type IToken, type TokenType } from './lexer.js';
import { registry, type DialectRegistry } from './op-spec.js';
import {
  DYNAMIC, FLOAT_KINDS, FloatType, FunctionType, IndexType, IntegerType, NoneType, OpaqueType, RankedTensorType,
  ShapedType, TupleType, Type, UnrankedTensorType, VectorType, i,
} from './types.js';

/** Parser options shared by the tools. */
export interface ParseOptions {
  allowUnregisteredDialect?: boolean;
  registry?: DialectRegistry;
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
}

/** Top-level alias definitions: a line starting with `#name =` or `!name =`. */
const ALIAS_DEF = /^[ \t]*([#!])([A-Za-z_][\w$.\-]*)[ \t]*=/gm;

const SIMPLE_TYPES = new Map<string, Type>();

/** Token cursor plus the type/attribute/location grammar. */
export class ParserBase implements AsmParser {
  private readonly window: TokenWindow;
  protected pos_ = 0;
  protected readonly registry: DialectRegistry;
  protected readonly allowUnregistered: boolean;
  private readonly aliases: AliasTable;

  /**
   * `sub` makes a parser for one alias value starting at a text offset, sharing the file's
   * alias table (aliases may be used before their definition, so they are read on demand).
   */
  constructor(
    readonly source: SourceFile,
    private readonly options: ParseOptions = {},
    sub?: { aliases: AliasTable; start: number },
  ) {
    const onError = (e: { offset: number; message: string }): never => this.error(e.message, { source, offset: e.offset });
    this.window = sub
      ? new TokenWindow(source.text, sub.start, 256, 1 << 16, onError)
      : new TokenWindow(source.text, 0, 1 << 16, 1 << 16, onError);
    this.registry = options.registry ?? registry;
    this.allowUnregistered = options.allowUnregisteredDialect ?? false;
    this.aliases = sub ? sub.aliases : this.scanAliases();
  }

  // ---- cursor ----------------------------------------------------------------------------

  protected get tok(): IToken | undefined {
    return this.window.at(this.pos_);
  }
  protected is(kind: TokenType): boolean {
    const t = this.window.at(this.pos_);
    return t !== undefined && t.tokenType === kind;
  }
  protected isKeyword(word: string): boolean {
    const t = this.window.at(this.pos_);
    return t !== undefined && t.tokenType === T.BareId && t.image === word;
  }
  protected peekIs(k: number, kind: TokenType): boolean {
    const t = this.window.at(this.pos_ + k);
    return t !== undefined && t.tokenType === kind;
  }
  peekToken(offset = 0): { kind: string; image: string } | undefined {
    const t = this.window.at(this.pos_ + offset);
    return t ? { kind: t.tokenType.name, image: t.image } : undefined;
  }
  protected next(): IToken {
    return this.window.at(this.pos_++)!;
  }
  protected atEnd(): boolean {
    return this.window.at(this.pos_) === undefined;
  }
  /** The source position of the current token (or end of file). */
  pos(): SourcePos {
    const t = this.window.at(this.pos_);
    if (t) return { source: this.source, offset: t.startOffset };
    // At end of file, point just after the last token (on its line), as MLIR does.
    return { source: this.source, offset: this.pos_ > 0 ? this.consumedEnd() : 0 };
  }
  /** Text offset just after the last consumed token. */
  protected consumedEnd(): number {
    const t = this.window.at(this.pos_ - 1);
    return t ? t.startOffset + t.image.length : 0;
  }
  protected posOf(t: IToken): SourcePos {
    return { source: this.source, offset: t.startOffset };
  }
  error(message: string, pos: SourcePos = this.pos()): never {
    throw new DiagnosticError(new Diagnostic('error', message, pos));
  }
  /** Describes the current token for "expected X" messages. */
  protected describe(): string {
    const t = this.tok;
    return t ? `'${t.image}'` : 'end of file';
  }
  protected expect(kind: TokenType, what: string): IToken {
    if (!this.is(kind)) this.error(`expected ${what}`);
    return this.next();
  }

  parsePunct(p: string): void {
    if (!this.parseOptionalPunct(p)) this.error(`expected '${p}'`);
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
    const t = this.tok;
    if (!t || t.tokenType !== T.BareId) return undefined;
    if (expected !== undefined && t.image !== expected) return undefined;
    this.pos_++;
    return t.image;
  }
  parseInteger(): bigint {
    const v = this.parseOptionalInteger();
    if (v === undefined) this.error('expected integer value');
    return v;
  }
  parseOptionalInteger(): bigint | undefined {
    const neg = this.is(T.Minus) && (this.peekIs(1, T.Integer) || this.peekIs(1, T.HexInt));
    if (neg) this.pos_++;
    if (!this.is(T.Integer) && !this.is(T.HexInt)) return undefined;
    const v = BigInt(this.next().image);
    return neg ? -v : v;
  }
  parseFloat(): number {
    const neg = this.parseOptionalPunct('-');
    const t = this.tok;
    if (!t || (t.tokenType !== T.Float && t.tokenType !== T.Integer)) this.error('expected floating point literal');
    this.pos_++;
    const v = Number(t.image);
    return neg ? -v : v;
  }
  parseString(): string {
    const s = this.parseOptionalString();
    if (s === undefined) this.error('expected string');
    return s;
  }
  parseOptionalString(): string | undefined {
    if (!this.is(T.String)) return undefined;
    return this.stringToken(this.next());
  }
  /** The value of a string token; an invalid escape is an error at the backslash. */
  protected stringToken(t: IToken): string {
    const bad = badEscape(t.image);
    if (bad >= 0) this.error('unknown escape in string literal', { source: this.source, offset: t.startOffset + bad });
    return unescapeString(t.image);
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
    const table: AliasTable = { attrs: new Map(), types: new Map(), order: [] };
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
    const t = this.next();
    this.pos_++; // '='
    const name = t.image.slice(1);
    const entry = (t.tokenType === T.HashId ? this.aliases.attrs : this.aliases.types).get(name);
    if (!entry) this.error(`alias definitions must start a line ('${t.image} = ...')`, this.posOf(t));
    this.resolveAlias(entry, t.tokenType === T.HashId, t);
    while (!this.atEnd() && this.tok!.startOffset < entry.end) this.pos_++;
  }

  private resolveAlias(entry: AliasEntry, isAttr: boolean, at: IToken): Attribute | Type {
    if (entry.value) return entry.value;
    if (entry.resolving) this.error(`symbol alias '${at.image}' refers to itself`, this.posOf(at));
    entry.resolving = true;
    const sub = new ParserBase(this.source, this.options, { aliases: this.aliases, start: entry.start });
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

  // ---- types -----------------------------------------------------------------------------

  parseType(): Type {
    const t = this.tok;
    if (!t) this.error('expected type');
    if (t.tokenType === T.BareId) return this.parseBuiltinType(t);
    if (t.tokenType === T.LParen) return this.parseFunctionType();
    if (t.tokenType === T.BangId) return this.parseBangType(t);
    this.error(`expected type, found ${this.describe()}`);
  }

  private parseBuiltinType(t: IToken): Type {
    const word = t.image;
    const simple = SIMPLE_TYPES.get(word) ?? simpleType(word);
    if (simple) {
      this.pos_++;
      return simple;
    }
    switch (word) {
      case 'tensor':
        return this.parseTensorType();
      case 'vector':
        return this.parseVectorType();
      case 'tuple': {
        this.pos_++;
        return TupleType.get(this.parseCommaList('<', '>', () => this.parseType()));
      }
    }
    if (/^[su]?i\d+$/.test(word)) this.error('integer bitwidth is limited to 16777215 bits');
    this.error(`unknown type '${word}'`);
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
    const shape = this.parseDimensionList(true);
    const elt = this.parseType();
    checkElementType(this, elt);
    let enc: Attribute | null = null;
    if (this.parseOptionalPunct(',')) enc = this.parseAttribute();
    this.parsePunct('>');
    return RankedTensorType.get(shape, elt, enc);
  }

  /** `*x` is lexed as `*` then the identifier `xf32`; re-read the element type from it. */
  private parseTypeAfterX(word: string): Type {
    if (word === 'x') return this.parseType();
    const rest = word.slice(1);
    const ty = simpleType(rest);
    if (!ty) this.error(`unknown type '${rest}'`);
    return ty;
  }

  private parseVectorType(): Type {
    this.pos_++;
    this.parsePunct('<');
    const shape = this.parseDimensionList(false);
    if (shape.length === 0) this.error('vector types must have at least one dimension');
    const elt = this.parseType();
    this.parsePunct('>');
    return VectorType.get(shape, elt);
  }

  parseDimensionList(allowDynamic: boolean): number[] {
    if (!this.is(T.DimList)) return [];
    const t = this.next();
    const dims: number[] = [];
    const parts = t.image.split('x');
    for (let k = 0; k < parts.length - 1; k++) {
      if (parts[k] === '?') {
        if (!allowDynamic) this.error('expected static shape', this.posOf(t));
        dims.push(DYNAMIC);
      } else dims.push(Number(parts[k]));
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

  private parseBangType(t: IToken): Type {
    this.pos_++;
    const name = t.image.slice(1);
    const alias = this.aliases.types.get(name);
    if (alias) return this.resolveAlias(alias, false, t) as Type;
    const dot = name.indexOf('.');
    if (dot < 0) this.error(`undefined symbol alias id '${name}'`, this.posOf(t));
    const parser = this.registry.typeParsers.get(name);
    if (parser) return parser(this);
    const dialect = name.slice(0, dot);
    if (this.allowUnregistered && !this.registry.isDialectLoaded(dialect)) return OpaqueType.get('!' + name + this.skipBalancedBody());
    if (this.registry.isDialectLoaded(dialect)) this.error(`unknown type '${name.slice(dot + 1)}' in dialect '${dialect}'`, this.posOf(t));
    this.error(`dialect '${dialect}' is not registered (use --allow-unregistered-dialect to accept its types)`, this.posOf(t));
  }

  /** Reads an optional `<...>` body verbatim (for unregistered dialect types and attributes). */
  private skipBalancedBody(): string {
    if (!this.is(T.Less)) return '';
    const start = this.tok!.startOffset;
    let depth = 0;
    do {
      const t = this.next();
      if (!t) this.error("unbalanced '<' in dialect type or attribute");
      if (t.tokenType === T.Less) depth++;
      else if (t.tokenType === T.Greater) depth--;
    } while (depth > 0);
    return this.source.text.slice(start, this.consumedEnd());
  }

  // ---- attributes ------------------------------------------------------------------------

  parseAttribute(type?: Type): Attribute {
    const t = this.tok;
    if (!t) this.error('expected attribute value');
    switch (t.tokenType) {
      case T.Integer:
      case T.HexInt:
      case T.Minus:
      case T.Float:
        return this.parseNumberAttr(type);
      case T.String: {
        const s = this.stringToken(this.next());
        if (this.is(T.Colon) && !type) {
          this.pos_++;
          this.parseType();
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
        return this.parseHashAttr(t);
      case T.BareId:
        return this.parseKeywordAttr(t, type);
    }
    if (t.tokenType === T.LParen || t.tokenType === T.BangId) return TypeAttr.get(this.parseType());
    this.error(`expected attribute value, found ${this.describe()}`);
  }

  parseDictionaryBody(): [string, Attribute][] {
    const seen = new Set<string>();
    return this.parseCommaList('{', '}', () => {
      const t = this.tok;
      let key: string;
      if (t && t.tokenType === T.BareId) key = this.next().image;
      else if (t && t.tokenType === T.String) key = this.stringToken(this.next());
      else this.error('expected attribute name');
      if (key === '') this.error('expected valid attribute name', this.posOf(t));
      if (seen.has(key)) this.error(`duplicate key '${key}' in dictionary attribute`, this.posOf(t));
      seen.add(key);
      if (!this.parseOptionalPunct('=')) return [key, UnitAttr.get()] as [string, Attribute];
      return [key, this.parseAttribute()] as [string, Attribute];
    });
  }

  private parseNumberAttr(type?: Type): Attribute {
    const start = this.pos();
    const neg = this.parseOptionalPunct('-');
    const t = this.tok;
    if (!t || (t.tokenType !== T.Integer && t.tokenType !== T.HexInt && t.tokenType !== T.Float))
      this.error('expected integer or floating point literal');
    this.pos_++;
    let ty = type;
    if (!ty && this.parseOptionalPunct(':')) ty = this.parseType();
    if (t.tokenType === T.Float) {
      const ft = ty ?? FloatType.get('f64');
      if (!(ft instanceof FloatType)) this.error(`floating point value not valid for specified type ${ft}`, start);
      const v = Number(t.image);
      return FloatAttr.get(neg ? -v : v, ft);
    }
    if (t.tokenType === T.HexInt && ty instanceof FloatType) {
      if (neg) this.error('hexadecimal float literal should not have a leading minus', start);
      return hexFloat(BigInt(t.image), ty);
    }
    const intTy = ty ?? i(64);
    if (intTy instanceof FloatType) return FloatAttr.get(Number(neg ? -BigInt(t.image) : BigInt(t.image)), intTy);
    if (!(intTy instanceof IntegerType) && !(intTy instanceof IndexType))
      this.error(`integer literal not valid for specified type ${intTy}`, start);
    const v = BigInt(t.image);
    if (intTy instanceof IntegerType && neg && intTy.signedness === 'unsigned')
      this.error('negative integer literal not valid for unsigned integer type', start);
    checkIntFits(this, neg ? -v : v, intTy, start);
    return IntegerAttr.get(neg ? -v : v, intTy);
  }

  private parseSymbolRef(): SymbolRefAttr {
    const root = symbolText(this.next().image);
    const nested: string[] = [];
    while (this.parseOptionalPunct('::')) nested.push(symbolText(this.expect(T.AtId, 'symbol reference').image));
    return SymbolRefAttr.get(root, nested);
  }

  private parseHashAttr(t: IToken): Attribute {
    this.pos_++;
    const name = t.image.slice(1);
    const alias = this.aliases.attrs.get(name);
    if (alias) return this.resolveAlias(alias, true, t) as Attribute;
    const dot = name.indexOf('.');
    if (dot < 0) this.error(`undefined symbol alias id '${name}'`, this.posOf(t));
    const parser = this.registry.attrParsers.get(name);
    if (parser) return parser(this);
    const dialect = name.slice(0, dot);
    if (this.allowUnregistered && !this.registry.isDialectLoaded(dialect)) return OpaqueAttr.get('#' + name + this.skipBalancedBody());
    if (this.registry.isDialectLoaded(dialect)) this.error(`unknown attribute '${name.slice(dot + 1)}' in dialect '${dialect}'`, this.posOf(t));
    this.error(`dialect '${dialect}' is not registered (use --allow-unregistered-dialect to accept its attributes)`, this.posOf(t));
  }

  private parseKeywordAttr(t: IToken, type?: Type): Attribute {
    switch (t.image) {
      case 'true':
      case 'false':
        this.pos_++;
        return boolAttr(t.image === 'true');
      case 'unit':
        this.pos_++;
        return UnitAttr.get();
      case 'dense':
        return this.parseDense(type);
      case 'array':
        return this.parseDenseArray();
      case 'loc':
        return this.parseLocation();
    }
    if (SIMPLE_TYPES.has(t.image) || simpleType(t.image) || t.image === 'tensor' || t.image === 'vector' || t.image === 'tuple')
      return TypeAttr.get(this.parseType());
    this.error(`expected attribute value, found '${t.image}'`);
  }

  private parseDenseArray(): DenseArrayAttr {
    this.pos_++;
    this.parsePunct('<');
    const elt = this.parseType();
    const values: number[] = [];
    if (this.parseOptionalPunct(':')) {
      do values.push(this.parseDenseArrayElement(elt));
      while (this.parseOptionalPunct(','));
    }
    this.parsePunct('>');
    return DenseArrayAttr.get(elt, values);
  }

  private parseDenseArrayElement(elt: Type): number {
    if (elt instanceof IntegerType && elt.width === 1) {
      if (this.parseOptionalKeyword('true')) return 1;
      if (this.parseOptionalKeyword('false')) return 0;
    }
    if (elt instanceof FloatType) return this.parseFloat();
    return Number(this.parseInteger());
  }

  private parseDense(type?: Type): DenseElementsAttr {
    const start = this.pos();
    this.pos_++;
    this.parsePunct('<');
    let raw: string | null = null;
    let nested: unknown = [];
    const literalStart = this.pos();
    if (this.is(T.String)) raw = this.stringToken(this.next());
    else if (!this.is(T.Greater)) nested = this.parseDenseLiteral();
    this.parsePunct('>');
    let ty = type;
    if (!ty) {
      this.parsePunct(':');
      ty = this.parseType();
    }
    if (!(ty instanceof ShapedType)) this.error(`elements literal must be a shaped type, got ${ty}`, start);
    if (raw !== null) return DenseElementsAttr.get(ty, [], raw);
    return DenseElementsAttr.get(ty, flattenDense(this, nested, ty, literalStart));
  }

  /** A scalar, or a nested list of scalars, kept as raw tokens until the type is known. */
  private parseDenseLiteral(): unknown {
    if (this.is(T.LSquare)) return this.parseCommaList('[', ']', () => this.parseDenseLiteral());
    const neg = this.parseOptionalPunct('-');
    const t = this.tok;
    if (!t) this.error('expected element literal');
    if (t.tokenType === T.BareId && (t.image === 'true' || t.image === 'false')) {
      this.pos_++;
      return { bool: t.image === 'true' };
    }
    if (t.tokenType !== T.Integer && t.tokenType !== T.Float && t.tokenType !== T.HexInt)
      this.error(`expected element literal of primitive type, found ${this.describe()}`);
    this.pos_++;
    return { text: t.image, neg, kind: t.tokenType, pos: this.posOf(t) };
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
    const t = this.tok;
    if (!t) this.error('expected location instance');
    if (t.tokenType === T.HashId) {
      const a = this.parseHashAttr(t);
      if (!(a instanceof Location)) this.error(`expected location, but '${t.image}' is not a location alias`, this.posOf(t));
      return a;
    }
    if (t.tokenType === T.String) {
      this.pos_++;
      const s = this.stringToken(t);
      if (this.parseOptionalPunct(':')) {
        const line = Number(this.parseInteger());
        this.parsePunct(':');
        const col = Number(this.parseInteger());
        return FileLineColLoc.get(s, line, col);
      }
      if (this.parseOptionalPunct('(')) {
        const child = this.parseLocationInstance();
        this.parsePunct(')');
        return NameLoc.get(s, child);
      }
      return NameLoc.get(s);
    }
    if (t.tokenType === T.BareId) {
      if (t.image === 'unknown') {
        this.pos_++;
        return UnknownLoc.get();
      }
      if (t.image === 'callsite') {
        this.pos_++;
        this.parsePunct('(');
        const callee = this.parseLocationInstance();
        this.parseKeyword('at');
        const caller = this.parseLocationInstance();
        this.parsePunct(')');
        return CallSiteLoc.get(callee, caller);
      }
      if (t.image === 'fused') {
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
  const m = /^(s|u)?i([1-9]\d*)$/.exec(word);
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

function checkIntFits(p: ParserBase, v: bigint, t: Type, pos: SourcePos): void {
  const width = t instanceof IntegerType ? t.width : 64;
  const unsigned = t instanceof IntegerType && t.signedness === 'unsigned';
  const lo = unsigned ? 0n : width === 1 ? 0n : -(1n << BigInt(width - 1));
  const hi = (1n << BigInt(width)) - 1n; // signless accepts the unsigned range too, as MLIR does
  if (v < lo || v > hi) p.error(`integer constant out of range for attribute`, pos);
}

function hexFloat(bits: bigint, t: FloatType): FloatAttr {
  const v = floatFromBits(bits, t.kind);
  return FloatAttr.get(v, t, Number.isNaN(v) ? bits : null);
}

interface RawElement {
  text?: string;
  neg?: boolean;
  kind?: TokenType;
  bool?: boolean;
  pos?: SourcePos;
}

function flattenDense(p: ParserBase, lit: unknown, type: ShapedType, pos: SourcePos): DenseValue[] {
  const elt = type.elementType;
  const out: DenseValue[] = [];
  const shape = type.shape;
  const mismatch = (): never =>
    p.error(`inferred shape of elements literal ([${literalShape(lit).join(', ')}]) does not match type ([${shape.join(', ')}])`, pos);
  const visit = (node: unknown, dim: number): void => {
    if (Array.isArray(node)) {
      if (dim >= shape.length || node.length !== shape[dim]) mismatch();
      for (const c of node) visit(c, dim + 1);
      return;
    }
    if (dim !== 0 && dim !== shape.length) mismatch();
    out.push(elementValue(p, node as RawElement, elt));
  };
  visit(lit, 0);
  if (out.length !== 1 && out.length !== type.numElements) mismatch();
  return out;
}

/** The shape of a nested list literal (`[[1, 2], [3, 4]]` is [2, 2]). */
function literalShape(lit: unknown): number[] {
  const out: number[] = [];
  for (let n = lit; Array.isArray(n); n = n[0]) out.push(n.length);
  return out;
}

function elementValue(p: ParserBase, e: RawElement, elt: Type): DenseValue {
  if (e.bool !== undefined) {
    if (!(elt instanceof IntegerType && elt.width === 1)) p.error(`expected ${elt} literal, found boolean`, e.pos);
    return e.bool ? 1n : 0n;
  }
  if (elt instanceof FloatType) {
    if (e.kind === T.HexInt) return (hexFloat(BigInt(e.text!), elt)).value;
    const v = Number(e.text);
    return FloatAttr.get(e.neg ? -v : v, elt).value;
  }
  if (e.kind === T.Float) p.error(`expected integer elements, but parsed floating-point`, e.pos);
  const v = e.neg ? -BigInt(e.text!) : BigInt(e.text!);
  checkIntFits(p, v, elt, e.pos!);
  return IntegerAttr.get(v, elt).value;
}

/** Offset (within `image`) of the first invalid escape, or -1. MLIR accepts `\"`, `\\`, `\n`, `\t` and `\XX` hex bytes. */
export function badEscape(image: string): number {
  for (let k = image.indexOf('\\'); k >= 0 && k < image.length; k = image.indexOf('\\', k + 2)) {
    const n = image[k + 1];
    if (n === '"' || n === '\\' || n === 'n' || n === 't') continue;
    if (/^[0-9a-fA-F]{2}$/.test(image.slice(k + 1, k + 3))) {
      k++;
      continue;
    }
    return k;
  }
  return -1;
}

/** Decodes MLIR string escapes: `\"`, `\\`, `\n`, `\t`, and `\XX` hex bytes. */
export function unescapeString(image: string): string {
  const body = image.slice(1, -1);
  if (!body.includes('\\')) return body;
  let out = '';
  for (let k = 0; k < body.length; k++) {
    const c = body[k];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = body[++k];
    if (n === 'n') out += '\n';
    else if (n === 't') out += '\t';
    else if (n === '"' || n === '\\') out += n;
    else {
      out += String.fromCharCode(parseInt(body.slice(k, k + 2), 16));
      k++;
    }
  }
  return out;
}

function symbolText(image: string): string {
  const body = image.slice(1);
  return body.startsWith('"') ? unescapeString(body) : body;
}
