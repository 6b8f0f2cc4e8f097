/**
 * The MLIR-syntax parser for operations, blocks and regions (types and attributes are in
 * `parser-base.ts`). Custom op forms are read through each op's declarative format
 * (`ir/format.ts`) or its custom syntax hook; the generic form is read here.
 */
import { DenseArrayAttr, DictionaryAttr, FileLineColLoc, type Attribute, Location, UnitAttr, utf8Bytes } from './attributes.js';
import { SourceFile, type SourcePos } from './diagnostics.js';
import { parseWithFormat, type FormatScratch, type OperandRef, type OperationState, type RegionArg } from './format.js';
import { planFor, type PlanParser } from './format-plan.js';
import { Block, BlockArgument, Operation, Region, Value } from './ir.js';
import { T } from './lexer.js';
import type { OpSpec } from './op-spec.js';
import { ParserBase, type ParseOptions } from './parser-base.js';
import { RangeTable } from './range-table.js';
import { IsolatedFromAbove } from './traits.js';
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
  /** `%name` (keyed by its text, `%` included) -> its value, or its values for `%name:N`. */
  values: RangeTable<Value | Value[]>;
  forwardRefs: Map<string, ForwardRef[]>;
}

/** Per-region bookkeeping: where its names start in the scope (dropped on exit) and block labels. */
interface RegionScope {
  /** Regions of isolated ops drop their whole scope on exit. */
  isolated: boolean;
  /** The size of the scope's name table when the region started. */
  mark: number;
  blocks: Map<string, { block: Block; defined: boolean; pos: SourcePos }>;
}

/** What `parseSourceFile` returns: the top-level module and what the printer needs to keep. */
export interface ParsedFile {
  module: Operation;
  /** `{-# ... #-}` resource section, kept verbatim. */
  resources: string | null;
  /** User-chosen alias names, kept by the printer. */
  aliasNames: Map<Attribute | Type, string>;
  /** Whether `module` was made by the parser around the file's top-level ops (the file is not a single module). */
  implicitModule: boolean;
}

const AUTO_NAME = /^(?:\d+|arg\d+|cst(?:_\d+)?|c-?\d+(?:_[a-z0-9]+)?(?:_\d+)?|true|false|true_\d+|false_\d+)$/;

/** Whether the name `text[start, end)` is one the printer generates itself (`0`, `arg3`, `cst_2`, `c1_i32`, `true`). */
function looksAutoNamed(text: string, start: number, end: number): boolean {
  const c = text.charCodeAt(start);
  // Only digits and names starting with a, c, f or t can be generated names.
  if (!((c >= 48 && c <= 57) || c === 97 || c === 99 || c === 102 || c === 116)) return false;
  return AUTO_NAME.test(text.slice(start, end));
}

/** The full parser: top level, operations, regions, blocks and SSA values. */
export class Parser extends ParserBase implements PlanParser {
  private isolated: IsolatedScope[] = [];
  /** Emptied scopes kept for reuse, by nesting depth. */
  private readonly scopePool: IsolatedScope[] = [];
  private regions: RegionScope[] = [];
  private defaultDialects: (string | undefined)[] = [];
  /** Op specs by the spelling of an op name token. */
  private readonly opNames: RangeTable<OpSpec | undefined>;
  state!: OperationState;
  /** Declared here (not added by the format engine on first use) so that the parser keeps one shape. */
  fmt: FormatScratch | undefined = undefined;

  constructor(source: SourceFile, options: ParseOptions = {}) {
    super(source, options);
    this.opNames = new RangeTable(this.text, 16);
  }

  /** Parses a whole file into a module (an implicit one when the file is not a single module). */
  parseFile(): ParsedFile {
    const body = new Block();
    let resources: string | null = null;
    this.pushIsolated();
    this.regions.push({ isolated: true, mark: 0, blocks: new Map() });
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
    const implicitModule = !(first && first === body.last && first.name === 'builtin.module');
    if (!implicitModule) {
      first!.remove();
      module = first!;
    } else {
      // As MLIR does, the implicit module is placed at the start of the file: a diagnostic about it
      // (nothing to compile, say) still names the file, line and column.
      module = Operation.create({ name: 'builtin.module', spec: this.context.lookupOp('builtin.module'), regions: 1, srcPos: { source: this.source, offset: 0 } });
      module.region(0).addBlock(body);
      // Its printed location is MLIR's: the file at line 0, column 0.
      module.loc = FileLineColLoc.get(utf8Bytes(this.source.name), 0, 0);
    }
    return { module, resources, aliasNames: this.aliasDefinitions(), implicitModule };
  }

  private parseResources(): string {
    const start = this.startOf();
    let depth = 0;
    for (;;) {
      const kind = this.kind();
      if (kind === T.EOF) this.error("expected '#-}' to end the resource section");
      const t = this.pos_++;
      if (kind === T.FileMetaBegin) depth++;
      if (kind === T.FileMetaEnd && --depth === 0) return this.source.text.slice(start, this.startOf(t) + 3);
    }
  }

  // ---- scopes ----------------------------------------------------------------------------

  private pushIsolated(): void {
    // Scopes are reused per depth: 20,000 small functions would otherwise make 20,000 tables.
    const depth = this.isolated.length;
    let scope = this.scopePool[depth];
    if (!scope) this.scopePool[depth] = scope = { values: new RangeTable(this.text), forwardRefs: new Map() };
    this.isolated.push(scope);
  }

  private popIsolated(): void {
    const scope = this.isolated.pop()!;
    for (const [name, refs] of scope.forwardRefs) {
      if (refs.length) this.error(`use of undeclared SSA value name '${name}'`, refs[0].usePos);
    }
    scope.values.clear();
    scope.forwardRefs.clear();
  }

  private get scope(): IsolatedScope {
    return this.isolated[this.isolated.length - 1];
  }

  /**
   * Binds the name `text[start, end)` (`%name`, or `%name:N` as a group) in the current scope,
   * resolving forward uses. Forward references live in `forwardRefs`, so the table holds
   * definitions only: a failed `add` is a redefinition.
   */
  private defineValue(start: number, end: number, values: Value[], group: boolean): void {
    const scope = this.scope;
    if (!scope.values.add(start, end, group ? values : values[0]))
      this.error(`redefinition of SSA value '${this.text.slice(start, end)}'`, this.posAt(start));
    const name = scope.forwardRefs.size ? this.text.slice(start, end) : '';
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
    if (!looksAutoNamed(this.text, start + 1, end)) values[0].nameHint = this.text.slice(start + 1, end);
  }


  refPos(ref: OperandRef): SourcePos {
    return this.posAt(ref.startOffset);
  }

  // ---- operands --------------------------------------------------------------------------

  parseOperandRef(): OperandRef {
    const t = this.expect(T.PercentId, 'SSA operand');
    return { image: this.image(t), startOffset: this.startOf(t) };
  }

  parseOperandInto(starts: Int32Array, ends: Int32Array, k: number): void {
    const t = this.expect(T.PercentId, 'SSA operand');
    starts[k] = this.startOf(t);
    ends[k] = this.endOf(t);
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
    return this.resolveRange(ref.startOffset, ref.startOffset + ref.image.length, type);
  }

  /** `resolveOperand` for the reference `text[start, end)`. */
  resolveRange(start: number, end: number, type: Type): Value {
    const text = this.text;
    let hash = -1;
    for (let k = end - 1; k > start; k--) {
      const c = text.charCodeAt(k);
      if (c === 35 /* # */) hash = k;
      if (c < 48 || c > 57) break;
    }
    const entry = this.scope.values.find(start, hash < 0 ? end : hash);
    if (entry >= 0) {
      const found = this.scope.values.valueAt(entry);
      let v: Value;
      if (Array.isArray(found)) {
        const idx = hash < 0 ? 0 : Number(text.slice(hash + 1, end));
        if (idx >= found.length) this.error(`reference to invalid result number`, this.posAt(start));
        v = found[idx];
      } else {
        if (hash >= 0 && text.slice(hash + 1, end) !== '0') this.error(`reference to invalid result number`, this.posAt(start));
        v = found;
      }
      if (v.type !== type)
        this.error(`use of value '${text.slice(start, end)}' expects different type than prior uses: '${type}' vs '${v.type}'`, this.posAt(start));
      return v;
    }
    const name = text.slice(start, end);
    const base = hash < 0 ? name : text.slice(start, hash);
    const fwd = new ForwardRef(type, name, this.posAt(start));
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
    const start = this.atEnd() ? -1 : this.startOf();
    // Result bindings as text offsets: the common single `%x =` needs no allocation.
    let singleStart = -1;
    let singleEnd = -1;
    let groups: { start: number; end: number; count: number }[] | null = null;
    if (this.is(T.PercentId)) {
      do {
        const t = this.pos_++;
        const nameStart = this.startOf(t);
        const nameEnd = this.endOf(t);
        if (hasResultNumber(this.text, nameStart, nameEnd)) this.error('expected SSA value name without result number', this.posOf(t));
        let count = 1;
        if (this.eat(T.Colon)) {
          const at = this.pos();
          const n = this.parseInteger();
          if (n < 1n) this.error('expected a positive number of results', at);
          if (n > 1048576n) this.error(`${n} results is more than an op may have (2^20)`, at);
          count = Number(n);
        }
        if (singleStart < 0 && !groups && count === 1) {
          singleStart = nameStart;
          singleEnd = nameEnd;
        } else {
          groups ??= singleStart >= 0 ? [{ start: singleStart, end: singleEnd, count: 1 }] : [];
          singleStart = -1;
          groups.push({ start: nameStart, end: nameEnd, count });
        }
      } while (this.eat(T.Comma));
      this.parsePunctKind(T.Equal, '=');
    }
    let op: Operation;
    if (this.is(T.String)) op = this.parseGenericOperation();
    else if (this.is(T.BareId)) op = this.parseCustomOperation();
    else this.error(singleStart >= 0 || groups ? `expected operation name in quotes` : `expected operation name, found ${this.describe()}`);
    if (singleStart >= 0) {
      if (op.numResults !== 1) this.error(`operation defines ${op.numResults} results but was provided 1 to bind`, this.posAt(start));
      this.defineValue(singleStart, singleEnd, op.results, false);
      return op;
    }
    if (!groups) return op; // results may be left unnamed, as in MLIR
    const declared = groups.reduce((n, g) => n + g.count, 0);
    if (declared !== op.numResults)
      this.error(`operation defines ${op.numResults} results but was provided ${declared} to bind`, this.posAt(start));
    let k = 0;
    for (const g of groups) {
      this.defineValue(g.start, g.end, op.results.slice(k, k + g.count), g.count > 1);
      k += g.count;
    }
    return op;
  }

  private newState(name: string, spec: OpSpec | undefined, pos: SourcePos): OperationState {
    return { name, spec, operands: [], resultTypes: [], props: null, attrs: null, regions: [], successors: [], pos };
  }

  private finishOp(state: OperationState): Operation {
    const loc = this.parseOptionalLocation() ?? null;
    const st = state;
    return Operation.createParsed(st.name, st.spec, st.operands, st.resultTypes, st.props, st.attrs, st.regions, st.successors, loc, st.pos);
  }

  private lookupForParse(name: string, pos: SourcePos, generic: boolean): OpSpec | undefined {
    const spec = this.context.lookupOp(name);
    if (spec) return spec;
    const dot = name.indexOf('.');
    const dialect = dot < 0 ? '' : name.slice(0, dot);
    if (this.allowUnregistered && generic) return undefined;
    if (!generic) this.error(`custom op '${name}' is unknown (tried '${name}' as well)`, pos);
    if (this.context.isDialectLoaded(dialect))
      this.error(`unregistered operation '${name}' found in dialect ('${dialect}') that does not allow unknown operations`, pos);
    this.error(`operation being parsed with an unregistered dialect: '${name}' (use --allow-unregistered-dialect)`, pos);
  }

  private parseGenericOperation(): Operation {
    const namePos = this.pos();
    const name = this.image(this.pos_++).slice(1, -1);
    if (!name) this.error('empty operation name is invalid', namePos);
    const spec = this.lookupForParse(name, namePos, true);
    // Diagnostics about an op point at its name, as MLIR's do.
    const state = this.newState(name, spec, namePos);
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

  private parseCustomOperation(): Operation {
    const t = this.pos_++;
    const nameOffset = this.startOf(t);
    const direct = this.lookupOpAt(t);
    const word = direct ? direct.name : this.image(t);
    const name = direct ? word : this.resolveOpName(word);
    const spec = direct ?? this.context.lookupOp(name);
    if (!spec) {
      const tried = name !== word ? ` (tried '${name}' as well)` : '';
      this.error(`custom op '${word}' is unknown${tried}`, this.posAt(nameOffset));
    }
    const saved = this.state;
    const plan = !spec.decl.syntax && spec.format ? planFor(spec, spec.format) : null;
    if (plan) {
      this.state = plan.stateFor(this.source, nameOffset);
      plan.parse(this);
    } else {
      const namePos = this.posAt(nameOffset);
      this.state = this.newState(name, spec, namePos);
      if (spec.decl.syntax) spec.decl.syntax.parse(this);
      else if (spec.format) parseWithFormat(this, spec.format);
      else this.error(`'${name}' has no custom assembly form; write it in generic form ("${name}"(...) : ...)`, namePos);
    }
    const op = this.finishOp(this.state);
    this.state = saved;
    return op;
  }

  /** The registered op spelled exactly like token `t` (cached per spelling: no string per op). */
  private lookupOpAt(t: number): OpSpec | undefined {
    const start = this.startOf(t);
    const end = this.endOf(t);
    const cached = this.opNames.find(start, end);
    if (cached >= 0) return this.opNames.valueAt(cached);
    const spec = this.context.lookupOp(this.text.slice(start, end));
    this.opNames.add(start, end, spec);
    return spec;
  }

  /** Applies the default dialect of the enclosing op (`return` in func.func) and builtin's implicit prefix. */
  private resolveOpName(word: string): string {
    if (this.context.lookupOp(word)) return word;
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
    return this.blockFor(this.image(t), this.posOf(t), false);
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
    this.enterNesting();
    try {
      return this.parseRegionInner(entryArgs, owner);
    } finally {
      this.nesting--;
    }
  }

  private parseRegionInner(entryArgs: RegionArg[], owner?: OpSpec): Region {
    const region = new Region(null);
    const isolated = owner?.traitSet.has(IsolatedFromAbove) ?? false;
    if (isolated) this.pushIsolated();
    this.regions.push({ isolated, mark: this.scope.values.size, blocks: new Map() });
    this.defaultDialects.push(owner?.decl.defaultDialect);
    const open = this.pos();
    this.parsePunct('{');
    if (!this.is(T.RBrace) || entryArgs.length) {
      let entry: Block | null = null;
      if (!this.is(T.CaretId)) {
        entry = region.addBlock(new Block());
        entry.srcPos = open;
        for (const a of entryArgs) this.defineRef(a.ref, entry.addArgument(a.type, a.loc, this.argPos(a.ref)));
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
    if (!isolated) this.scope.values.truncate(scope.mark);
    this.defaultDialects.pop();
    if (isolated) this.popIsolated();
    return region;
  }

  /** Where an argument without `loc(...)` is: its name's position in the source, as MLIR gives it. */
  private argPos(ref: OperandRef): SourcePos {
    return { source: this.source, offset: ref.startOffset };
  }

  /** Binds a region or block argument named by `ref`. */
  private defineRef(ref: OperandRef, arg: BlockArgument): void {
    this.defineValue(ref.startOffset, ref.startOffset + ref.image.length, [arg], false);
  }

  private parseBlock(): Block {
    const t = this.pos_++;
    const block = this.blockFor(this.image(t), this.posOf(t), true);
    if (this.parseOptionalPunct('(')) {
      if (!this.is(T.RParen)) {
        do {
          const ref = this.parseOperandRef();
          this.parsePunct(':');
          const type = this.parseType();
          this.defineRef(ref, block.addArgument(type, this.parseOptionalLocation() ?? undefined, this.argPos(ref)));
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

/** Whether the reference `text[start, end)` ends in a result number (`%x#1`). */
function hasResultNumber(text: string, start: number, end: number): boolean {
  for (let k = start; k < end; k++) if (text.charCodeAt(k) === 35 /* # */) return true;
  return false;
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
