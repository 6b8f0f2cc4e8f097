/**
 * The MLIR-syntax parser for operations, blocks and regions (types and attributes are in
 * `parser-base.ts`). Custom op forms are read through each op's declarative format
 * (`ir/format.ts`) or its custom syntax hook; the generic form is read here.
 */
import { DenseArrayAttr, DictionaryAttr, type Attribute, Location, UnitAttr } from './attributes.js';
import { SourceFile, type SourcePos } from './diagnostics.js';
import { parseWithFormat, type FormatParser, type OperandRef, type OperationState, type RegionArg } from './format.js';
import { Block, BlockArgument, Operation, Region, Value } from './ir.js';
import { T, type IToken } from './lexer.js';
import type { OpSpec } from './op-spec.js';
import { ParserBase, type ParseOptions } from './parser-base.js';
import { FunctionType, i, type Type } from './types.js';

/** A placeholder for a value used before its definition. */
class ForwardRef extends Value {
  /** `name` is the reference as written, with `%` (and `#k`). */
  constructor(type: Type, readonly name: string, readonly usePos: SourcePos) {
    super(type);
  }
  get definingOp(): null {
    return null;
  }
  get parentBlock(): null {
    return null;
  }
}

/** One isolated-from-above naming scope (a function body, a module body). */
interface IsolatedScope {
  values: Map<string, Value | Value[]>;
  forwardRefs: Map<string, ForwardRef[]>;
}

/** Per-region bookkeeping: names defined there (dropped on exit) and block labels. */
interface RegionScope {
  /** Regions of isolated ops drop their whole scope on exit, so they need no list. */
  isolated: boolean;
  defined: string[];
  blocks: Map<string, { block: Block; defined: boolean; pos: SourcePos }>;
}

/** What `parseSourceFile` returns: the top-level module and what the printer needs to keep. */
export interface ParsedFile {
  module: Operation;
  /** `{-# ... #-}` resource section, kept verbatim. */
  resources: string | null;
  /** User-chosen alias names, kept by the printer. */
  aliasNames: Map<Attribute | Type, string>;
}

const AUTO_NAME = /^(?:\d+|arg\d+|cst(?:_\d+)?|c-?\d+(?:_[a-z0-9]+)?(?:_\d+)?|true|false|true_\d+|false_\d+)$/;

/** Whether a name is one the printer generates itself (`%0`, `%arg3`, `%cst_2`, `%c1_i32`, `%true`). */
function looksAutoNamed(name: string): boolean {
  const c = name.charCodeAt(0);
  // Only digits and names starting with a, c, f or t can be generated names.
  if (!((c >= 48 && c <= 57) || c === 97 || c === 99 || c === 102 || c === 116)) return false;
  return AUTO_NAME.test(name);
}

/** The full parser: top level, operations, regions, blocks and SSA values. */
export class Parser extends ParserBase implements FormatParser {
  private isolated: IsolatedScope[] = [];
  private regions: RegionScope[] = [];
  private defaultDialects: (string | undefined)[] = [];
  state!: OperationState;

  constructor(source: SourceFile, options: ParseOptions = {}) {
    super(source, options);
  }

  /** Parses a whole file into a module (an implicit one when the file is not a single module). */
  parseFile(): ParsedFile {
    const body = new Block();
    let resources: string | null = null;
    this.pushIsolated();
    this.regions.push({ isolated: true, defined: [], blocks: new Map() });
    while (!this.atEnd()) {
      if ((this.is(T.HashId) || this.is(T.BangId)) && this.peekIs(1, T.Equal)) {
        this.skipAliasDefinition();
        continue;
      }
      if (this.is(T.FileMetaBegin)) {
        resources = this.parseResources();
        continue;
      }
      body.append(this.parseOperation());
    }
    this.regions.pop();
    this.popIsolated();
    const first = body.first;
    let module: Operation;
    if (first && first === body.last && first.name === 'builtin.module') {
      first.remove();
      module = first;
    } else {
      module = Operation.create({ name: 'builtin.module', spec: this.registry.lookupOp('builtin.module'), regions: 1 });
      module.region(0).addBlock(body);
    }
    return { module, resources, aliasNames: this.aliasDefinitions() };
  }

  private parseResources(): string {
    const start = this.tok!.startOffset;
    let depth = 0;
    for (;;) {
      const t = this.next();
      if (!t) this.error("expected '#-}' to end the resource section");
      if (t.tokenType === T.FileMetaBegin) depth++;
      if (t.tokenType === T.FileMetaEnd && --depth === 0) return this.source.text.slice(start, t.startOffset + 3);
    }
  }

  // ---- scopes ----------------------------------------------------------------------------

  private pushIsolated(): void {
    this.isolated.push({ values: new Map(), forwardRefs: new Map() });
  }

  private popIsolated(): void {
    const scope = this.isolated.pop()!;
    for (const [name, refs] of scope.forwardRefs) {
      if (refs.length) this.error(`use of undeclared SSA value name '${name}'`, refs[0].usePos);
    }
  }

  private get scope(): IsolatedScope {
    return this.isolated[this.isolated.length - 1];
  }

  /** Binds `%name` (or `%name:N` as a group; `name` includes the `%`) in the current scope, resolving forward uses. */
  private defineValue(name: string, values: Value[], offset: number, group: boolean): void {
    const scope = this.scope;
    // Forward references live in `forwardRefs`, so `values` holds definitions only: a `set` that
    // does not grow the map is a redefinition (one hash lookup instead of two on this hot path).
    const before = scope.values.size;
    scope.values.set(name, group ? values : values[0]);
    if (scope.values.size === before) this.error(`redefinition of SSA value '${name}'`, this.posAt(offset));
    const region = this.regions[this.regions.length - 1];
    if (!region.isolated) region.defined.push(name);
    const refs = scope.forwardRefs.size ? scope.forwardRefs.get(name) : undefined;
    if (refs) {
      for (const ref of refs) {
        const idx = refIndex(ref.name);
        const real = values[idx];
        if (!real) this.error(`reference to invalid result number`, ref.usePos);
        if (real.type !== ref.type)
          this.error(`use of value '${ref.name}' expects different type than prior uses: '${ref.type}' vs '${real.type}'`, ref.usePos);
        ref.replaceAllUsesWith(real);
      }
      scope.forwardRefs.delete(name);
    }
    const hint = name.slice(1);
    if (!looksAutoNamed(hint)) values[0].nameHint = hint;
  }

  /** A source position from an offset (for diagnostics). */
  posAt(offset: number): SourcePos {
    return { source: this.source, offset };
  }

  refPos(ref: OperandRef): SourcePos {
    return this.posAt(ref.startOffset);
  }

  // ---- operands --------------------------------------------------------------------------

  parseOperandRef(): OperandRef {
    return this.expect(T.PercentId, 'SSA operand');
  }

  parseOptionalOperandRef(): OperandRef | undefined {
    return this.is(T.PercentId) ? this.parseOperandRef() : undefined;
  }

  parseOperandRefList(): OperandRef[] {
    const out: OperandRef[] = [];
    if (!this.is(T.PercentId)) return out;
    do out.push(this.parseOperandRef());
    while (this.parseOptionalPunct(','));
    return out;
  }

  /** Looks up `%name` (or `%name#k`) with its expected type; creates a forward reference if undefined yet. */
  resolveOperand(ref: OperandRef, type: Type): Value {
    const name = ref.image;
    const hash = name.indexOf('#');
    const base = hash < 0 ? name : name.slice(0, hash);
    const found = this.scope.values.get(base);
    if (found !== undefined && !(found instanceof ForwardRef)) {
      let v: Value;
      if (Array.isArray(found)) {
        const idx = hash < 0 ? 0 : Number(name.slice(hash + 1));
        if (idx >= found.length) this.error(`reference to invalid result number`, this.refPos(ref));
        v = found[idx];
      } else {
        if (hash >= 0 && name.slice(hash + 1) !== '0') this.error(`reference to invalid result number`, this.refPos(ref));
        v = found;
      }
      if (v.type !== type)
        this.error(`use of value '${name}' expects different type than prior uses: '${type}' vs '${v.type}'`, this.refPos(ref));
      return v;
    }
    const fwd = new ForwardRef(type, name, this.refPos(ref));
    let list = this.scope.forwardRefs.get(base);
    if (!list) this.scope.forwardRefs.set(base, (list = []));
    list.push(fwd);
    return fwd;
  }

  resolveOperands(refs: OperandRef[], types: Type[], pos: SourcePos): Value[] {
    if (refs.length !== types.length)
      this.error(`${refs.length} operands present, but expected ${types.length}`, pos);
    const out = new Array<Value>(refs.length);
    for (let k = 0; k < refs.length; k++) out[k] = this.resolveOperand(refs[k], types[k]);
    return out;
  }

  // ---- operations ------------------------------------------------------------------------

  /** Parses one operation, with its result bindings and trailing location. */
  parseOperation(): Operation {
    const start = this.pos();
    // Result bindings: the common single `%x =` needs no allocation.
    let single: IToken | null = null;
    let groups: { tok: IToken; count: number }[] | null = null;
    if (this.is(T.PercentId)) {
      do {
        const t = this.next();
        if (t.image.includes('#')) this.error('expected SSA value name without result number', this.posOf(t));
        let count = 1;
        if (this.parseOptionalPunct(':')) {
          count = Number(this.parseInteger());
          if (count < 1) this.error('expected a positive number of results');
        }
        if (!single && !groups && count === 1) single = t;
        else {
          groups ??= single ? [{ tok: single, count: 1 }] : [];
          single = null;
          groups.push({ tok: t, count });
        }
      } while (this.parseOptionalPunct(','));
      this.parsePunct('=');
    }
    let op: Operation;
    if (this.is(T.String)) op = this.parseGenericOperation(start);
    else if (this.is(T.BareId)) op = this.parseCustomOperation(start);
    else this.error(single || groups ? `expected operation name in quotes` : `expected operation name, found ${this.describe()}`);
    if (single) {
      if (op.numResults !== 1) this.error(`operation defines ${op.numResults} results but was provided 1 to bind`, start);
      this.defineValue(single.image, op.results, single.startOffset, false);
      return op;
    }
    if (!groups) return op; // results may be left unnamed, as in MLIR
    const declared = groups.reduce((n, g) => n + g.count, 0);
    if (declared !== op.numResults)
      this.error(`operation defines ${op.numResults} results but was provided ${declared} to bind`, start);
    let k = 0;
    for (const g of groups) {
      this.defineValue(g.tok.image, op.results.slice(k, k + g.count), g.tok.startOffset, g.count > 1);
      k += g.count;
    }
    return op;
  }

  private newState(name: string, spec: OpSpec | undefined, pos: SourcePos): OperationState {
    return { name, spec, operands: [], resultTypes: [], props: null, attrs: null, regions: [], successors: [], pos };
  }

  private finishOp(state: OperationState): Operation {
    const loc = this.parseOptionalLocation();
    return Operation.create({
      name: state.name,
      spec: state.spec,
      operands: state.operands,
      resultTypes: state.resultTypes,
      properties: state.props,
      attributes: state.attrs,
      regions: state.regions,
      successors: state.successors,
      loc,
      srcPos: state.pos,
    });
  }

  private lookupForParse(name: string, pos: SourcePos, generic: boolean): OpSpec | undefined {
    const spec = this.registry.lookupOp(name);
    if (spec) return spec;
    const dot = name.indexOf('.');
    const dialect = dot < 0 ? '' : name.slice(0, dot);
    if (this.allowUnregistered && generic) return undefined;
    if (!generic) this.error(`custom op '${name}' is unknown (tried '${name}' as well)`, pos);
    if (this.registry.isDialectLoaded(dialect))
      this.error(`unregistered operation '${name}' found in dialect ('${dialect}') that does not allow unknown operations`, pos);
    this.error(`operation being parsed with an unregistered dialect: '${name}' (use --allow-unregistered-dialect)`, pos);
  }

  private parseGenericOperation(start: SourcePos): Operation {
    const nameTok = this.next();
    const name = nameTok.image.slice(1, -1);
    if (!name) this.error('empty operation name is invalid', this.posOf(nameTok));
    const spec = this.lookupForParse(name, this.posOf(nameTok), true);
    void start;
    // Diagnostics about an op point at its name, as MLIR's do.
    const state = this.newState(name, spec, this.posOf(nameTok));
    this.parsePunct('(');
    const refs = this.parseOperandRefList();
    this.parsePunct(')');
    if (this.is(T.LSquare)) state.successors = this.parseCommaList('[', ']', () => this.parseSuccessor());
    if (this.is(T.Less)) {
      this.pos_++;
      const props = this.parseDictionaryBody();
      this.parsePunct('>');
      state.props = recordOf(props);
    }
    if (this.is(T.LParen) && this.peekIs(1, T.LBrace)) {
      state.regions = this.parseCommaList('(', ')', () => this.parseRegion([], spec));
    }
    if (this.is(T.LBrace)) this.routeAttributes(state, this.parseDictionaryBody());
    const typePos = this.pos();
    this.parsePunct(':');
    const fnType = this.parseType();
    if (!(fnType instanceof FunctionType)) this.error('expected function type', typePos);
    state.operands = this.resolveOperands(refs, [...fnType.inputs], typePos);
    state.resultTypes = [...fnType.results];
    return this.finishOp(state);
  }

  /** Puts discardable-looking attributes that the spec declares into the properties. */
  private routeAttributes(state: OperationState, entries: [string, Attribute][]): void {
    for (const [k, v] of entries) {
      if (state.spec?.attrIndex.has(k)) (state.props ??= {})[k] = v;
      else (state.attrs ??= {})[k] = v;
    }
  }

  private parseCustomOperation(start: SourcePos): Operation {
    const nameTok = this.next();
    const direct = this.registry.lookupOp(nameTok.image);
    const name = direct ? nameTok.image : this.resolveOpName(nameTok.image);
    const spec = direct ?? this.registry.lookupOp(name);
    if (!spec) {
      const tried = name !== nameTok.image ? ` (tried '${name}' as well)` : '';
      this.error(`custom op '${nameTok.image}' is unknown${tried}`, this.posOf(nameTok));
    }
    const saved = this.state;
    void start;
    this.state = this.newState(name, spec, this.posOf(nameTok));
    if (spec.decl.syntax) spec.decl.syntax.parse(this);
    else if (spec.format) parseWithFormat(this, spec.format);
    else this.error(`'${name}' has no custom assembly form; write it in generic form ("${name}"(...) : ...)`, this.posOf(nameTok));
    const op = this.finishOp(this.state);
    this.state = saved;
    return op;
  }

  /** Applies the default dialect of the enclosing op (`return` in func.func) and builtin's implicit prefix. */
  private resolveOpName(word: string): string {
    if (this.registry.lookupOp(word)) return word;
    for (let k = this.defaultDialects.length - 1; k >= 0; k--) {
      const d = this.defaultDialects[k];
      if (!d) continue;
      return `${d}.${word}`;
    }
    return word.includes('.') ? word : `builtin.${word}`;
  }

  // ---- attributes for custom forms -------------------------------------------------------

  /** `{...}` into the op being parsed, routing declared names to properties. */
  parseOptionalAttrDict(): void {
    if (!this.is(T.LBrace)) return;
    this.routeAttributes(this.state, this.parseDictionaryBody());
  }

  /** `attributes {...}`. */
  parseOptionalAttrDictWithKeyword(): void {
    if (!this.parseOptionalKeyword('attributes')) return;
    if (!this.is(T.LBrace)) this.error("expected '{' after 'attributes'");
    this.parseOptionalAttrDict();
  }

  /** Sets an inherent attribute on the op being parsed. */
  setProperty(name: string, value: Attribute): void {
    (this.state.props ??= {})[name] = value;
  }

  // ---- regions and blocks ----------------------------------------------------------------

  /** `^bb3` as a branch target; the block may be defined later in the region. */
  parseSuccessor(): Block {
    const t = this.expect(T.CaretId, 'block name');
    return this.blockFor(t.image, this.posOf(t), false);
  }

  private blockFor(label: string, pos: SourcePos, defining: boolean): Block {
    const scope = this.regions[this.regions.length - 1];
    let entry = scope.blocks.get(label);
    if (!entry) {
      entry = { block: new Block(), defined: false, pos };
      entry.block.srcPos = pos;
      scope.blocks.set(label, entry);
    }
    if (defining) {
      if (entry.defined) this.error(`redefinition of block '${label}'`, pos);
      entry.defined = true;
      entry.block.srcPos = pos;
    }
    return entry.block;
  }

  /** Whether the current token starts a region. */
  isRegionStart(): boolean {
    return this.is(T.LBrace);
  }

  /**
   * `{ ... }`. `entryArgs` are values the custom syntax already named (e.g. the induction
   * variable of scf.for); they become the entry block's arguments.
   */
  parseRegion(entryArgs: RegionArg[] = [], owner?: OpSpec): Region {
    const region = new Region(null);
    const isolated = owner?.traitSet.has('IsolatedFromAbove') ?? false;
    if (isolated) this.pushIsolated();
    this.regions.push({ isolated, defined: [], blocks: new Map() });
    this.defaultDialects.push(owner?.decl.defaultDialect);
    const open = this.pos();
    this.parsePunct('{');
    if (!this.is(T.RBrace) || entryArgs.length) {
      let entry: Block | null = null;
      if (!this.is(T.CaretId)) {
        entry = region.addBlock(new Block());
        entry.srcPos = open;
        for (const a of entryArgs) this.defineValue(a.ref.image, [entry.addArgument(a.type, a.loc)], a.ref.startOffset, false);
        this.parseBlockBody(entry);
      } else if (entryArgs.length) {
        this.error('invalid block name in region with named arguments');
      }
      while (this.is(T.CaretId)) region.addBlock(this.parseBlock());
    }
    if (!this.is(T.RBrace)) this.error(`expected '}' to end the region, found ${this.describe()}`);
    this.pos_++;
    const scope = this.regions.pop()!;
    for (const [label, e] of scope.blocks) if (!e.defined) this.error(`reference to an undefined block '${label}'`, e.pos);
    if (!isolated) for (const name of scope.defined) this.dropName(name);
    this.defaultDialects.pop();
    if (isolated) this.popIsolated();
    return region;
  }

  private dropName(name: string): void {
    const v = this.scope.values.get(name);
    if (v !== undefined && !(v instanceof ForwardRef)) this.scope.values.delete(name);
  }

  private parseBlock(): Block {
    const t = this.next();
    const block = this.blockFor(t.image, this.posOf(t), true);
    if (this.parseOptionalPunct('(')) {
      if (!this.is(T.RParen)) {
        do {
          const ref = this.parseOperandRef();
          this.parsePunct(':');
          const type = this.parseType();
          const loc = this.parseOptionalLocation();
          this.defineValue(ref.image, [block.addArgument(type, loc)], ref.startOffset, false);
        } while (this.parseOptionalPunct(','));
      }
      this.parsePunct(')');
    }
    this.parsePunct(':');
    this.parseBlockBody(block);
    return block;
  }

  private parseBlockBody(block: Block): void {
    while (!this.atEnd() && !this.is(T.RBrace) && !this.is(T.CaretId)) block.append(this.parseOperation());
    if (this.atEnd()) this.error("expected '}' to end the region, found end of file");
  }

  /** A region argument definition `%name` (its type comes later). */
  parseArgumentRef(): OperandRef {
    return this.parseOperandRef();
  }
}

function refIndex(name: string): number {
  const hash = name.indexOf('#');
  return hash < 0 ? 0 : Number(name.slice(hash + 1));
}

function recordOf(entries: [string, Attribute][]): Record<string, Attribute> | null {
  if (!entries.length) return null;
  const r: Record<string, Attribute> = {};
  for (const [k, v] of entries) r[k] = v;
  return r;
}

/** Builds `operandSegmentSizes` for ops with several variable operand groups. */
export function segmentSizes(sizes: number[]): DenseArrayAttr {
  return DenseArrayAttr.get(i(32), sizes);
}

/** Parses text into a module. Throws `DiagnosticError` on the first error. */
export function parseSourceFile(source: SourceFile, options: ParseOptions = {}): ParsedFile {
  return new Parser(source, options).parseFile();
}

/** Convenience: parses a string (file name `<string>`). */
export function parseText(text: string, options: ParseOptions = {}, name = '<string>'): ParsedFile {
  return parseSourceFile(new SourceFile(name, text), options);
}

export { DictionaryAttr, UnitAttr, Location, BlockArgument };
