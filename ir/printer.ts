/**
 * The MLIR-syntax printer: custom forms through each op's format or syntax hook, the generic
 * form on request, attribute aliases the way Triton prints them (`#blocked`, `#mma`), and
 * locations with `#loc` aliases under `printDebugInfo`. Output is deterministic.
 */
import {
  ArrayAttr, Attribute, CallSiteLoc, DenseElementsAttr, DialectAttr, DictionaryAttr, FusedLoc, Location, NameLoc,
  TypeAttr, UnitAttr, printDictionary,
} from './attributes.js';
import { printWithFormat, type FormatPrinter, type RegionPrintOptions } from './format.js';
import { printPlanFor } from './format-print-plan.js';
import { type Block, type BlockArgument, type Operation, type Region, type Value, setOpPrinter } from './ir.js';
import { computeNames, type NameTable } from './names.js';
import { Terminator } from './traits.js';
import { FunctionType, RankedTensorType, ShapedType, Type, TupleType, setPlainTextImpl, printResultTypes, DialectType } from './types.js';
import { ComplexType, MemRefType, UnrankedMemRefType } from './types.js';
import { DistinctAttr } from './builtin-attrs.js';

/** Printing options, mirroring mlir-opt's flags. */
export interface PrintOptions {
  /** `--print-op-generic`. */
  generic?: boolean;
  /** `--print-debuginfo`: print `loc(...)` on ops and block arguments. */
  debugInfo?: boolean;
  /** Alias names to keep (from the parsed file). */
  aliasNames?: Map<Attribute | Type, string>;
  /** `{-# ... #-}` section to print after the module. */
  resources?: string | null;
  /** `--mlir-print-local-scope`: no alias definitions; attributes, types and locations printed where used. */
  localScope?: boolean;
  /** `--mlir-elide-elementsattrs-if-larger=N`: a non-splat dense attribute of more than N elements prints as `dense_resource<__elided__>`. */
  elideElementsAttrsIfLarger?: number;
  /** `--mlir-print-value-users`: each op ends with a comment naming the users of its results. */
  valueUsers?: boolean;
  /** `--mlir-print-skip-regions`: regions print as `{...}`. */
  skipRegions?: boolean;
}

/** Whether `a` is a dense attribute that `limit` (`--mlir-elide-elementsattrs-if-larger`) elides. */
function elided(a: Attribute, limit: number | undefined): boolean {
  return limit !== undefined && a instanceof DenseElementsAttr && !a.isSplat && a.type.numElements > limit;
}

/** Prints IR as text. One instance prints one top-level operation. */
export class Printer implements FormatPrinter {
  private out = '';
  private indent = '';
  private names: NameTable = { gen: -1, blocks: new Map(), headers: new Map() };
  /** Finished output, flattened in chunks so the many small concatenations die young. */
  private readonly chunks: string[] = [];
  private readonly aliases = new Map<Attribute | Type, string>();
  private readonly locAliases = new Map<Location, string>();
  /** While `locatedPrinted` runs: the ops and block arguments whose locations were printed. */
  private printedArgs: Set<BlockArgument | Operation> | null = null;
  /** Location aliases defined before the module rather than after it. */
  private readonly locsAtTop = new Set<Location>();
  /** The numbers `distinct[N]` attributes print with, in the order the text shows them. */
  private readonly distinctNumbers = new Map<Attribute, number>();
  /**
   * The printed text of each type, once the aliases are fixed (while the body is printed): a
   * type prints the same every time then, and most ops print the same few types.
   */
  private typeTexts: Map<Type, string> | null = null;
  /** Per enclosing region: the `dialect.` prefix elided from op names there (inherited from enclosing ops), if any. */
  private readonly opPrefixes: (string | undefined)[] = [];

  constructor(readonly options: PrintOptions = {}) {}

  // ---- AsmPrinter -------------------------------------------------------------------------

  write(text: string): void {
    this.out += text;
  }

  distinctNumber(a: Attribute): number {
    let n = this.distinctNumbers.get(a);
    if (n === undefined) this.distinctNumbers.set(a, (n = this.distinctNumbers.size));
    return n;
  }
  printType(t: Type): void {
    const texts = this.typeTexts;
    if (texts) {
      const text = texts.get(t);
      if (text !== undefined) {
        this.out += text;
        return;
      }
    }
    const alias = this.aliases.get(t);
    if (alias !== undefined) {
      this.out += alias;
      return;
    }
    if (!texts) return t.print(this);
    const before = this.out;
    this.out = '';
    t.print(this);
    const text = this.out;
    texts.set(t, text);
    this.out = before + text;
  }
  printAttribute(a: Attribute): void {
    const alias = a instanceof Location ? this.locAliases.get(a) : this.aliases.get(a);
    if (alias !== undefined) this.out += alias;
    else if (elided(a, this.options.elideElementsAttrsIfLarger)) {
      this.out += 'dense_resource<__elided__> : ';
      this.printType((a as DenseElementsAttr).type);
    } else a.print(this);
  }
  printAttributeWithoutType(a: Attribute): void {
    if (a instanceof Location) {
      const alias = this.locAliases.get(a);
      if (alias !== undefined) this.out += alias;
      else a.printBody(this);
      return;
    }
    const alias = this.aliases.get(a);
    if (alias !== undefined) this.out += alias;
    else if (elided(a, this.options.elideElementsAttrsIfLarger)) this.out += 'dense_resource<__elided__>';
    else a.printWithoutType(this);
  }
  printStrippedType(t: Type): void {
    if (t instanceof DialectType) t.printBody(this);
    else this.printType(t);
  }

  // ---- FormatPrinter ----------------------------------------------------------------------

  printOperand(v: Value): void {
    this.out += v.printGen === this.names.gen ? v.printName : '<<UNKNOWN SSA VALUE>>';
  }
  printOperands(vs: readonly Value[]): void {
    for (let k = 0; k < vs.length; k++) {
      if (k) this.out += ', ';
      this.printOperand(vs[k]);
    }
  }
  printNewline(): void {
    this.out += '\n' + this.indent;
  }
  printSuccessor(b: Block): void {
    this.out += this.names.blocks.get(b) ?? '^<<UNKNOWN BLOCK>>';
  }
  printOptionalAttrDict(attrs: [string, Attribute][], elided?: Set<string>, withKeyword = false): void {
    const list = elided ? attrs.filter(([k]) => !elided.has(k)) : attrs;
    if (!list.length) return;
    this.out += withKeyword ? ' attributes ' : ' ';
    printDictionary(this, list);
  }
  attrsToPrint(op: Operation, elided: Set<string>): [string, Attribute][] {
    if (!op.attributes && !this.printsSomeProperty(op, elided)) return NO_ATTRS; // defaults are never printed in attr-dicts
    const spec = op.spec;
    return op.allAttrs().filter(([k, v]) => {
      if (elided.has(k)) return false;
      const d = spec?.attrIndex.get(k);
      return !(d?.default && d.default === v);
    });
  }
  /** Whether some property of `op` is neither elided nor equal to its default (what `attrsToPrint` keeps). */
  private printsSomeProperty(op: Operation, elided: Set<string>): boolean {
    const props = op.properties;
    if (!props) return false;
    for (const k in props) {
      if (elided.has(k)) continue;
      const d = op.spec?.attrIndex.get(k);
      if (!(d?.default && d.default === props[k])) return true;
    }
    return false;
  }
  printRegionArgument(arg: BlockArgument, attrs?: [string, Attribute][] | null): void {
    this.printOperand(arg);
    this.out += ': ';
    this.printType(arg.type);
    if (attrs && attrs.length) {
      this.out += ' ';
      printDictionary(this, attrs);
    }
    if (this.options.debugInfo) this.printArgLoc(arg);
  }
  printRegion(r: Region, opts: RegionPrintOptions = { printEntryBlockArgs: true }): void {
    if (this.options.skipRegions) {
      this.out += '{...}';
      return;
    }
    const parentOp = r.parent;
    const dialect = parentOp?.spec?.decl.defaultDialect;
    this.opPrefixes.push(dialect ? dialect + '.' : this.opPrefixes[this.opPrefixes.length - 1]);
    this.out += '{\n';
    const outer = this.indent;
    this.indent += '  ';
    r.blocks.forEach((b, k) => {
      const showLabel = k > 0 || (opts.printEntryBlockArgs && b.args.length > 0) || (opts.printEmptyBlock === true && b.empty);
      if (showLabel) this.printBlockLabel(b, k === 0);
      if (this.options.valueUsers) this.printArgumentUsers(b);
      const elideTerminator = opts.printBlockTerminators === false;
      for (let op = b.first; op; op = op.next) {
        if (elideTerminator && op === b.last && op.hasTrait(Terminator) && op.numOperands === 0 && k === 0) continue;
        this.out += this.indent;
        this.printOperation(op);
        this.out += '\n';
        if (this.out.length > 65536) this.flushChunk();
      }
    });
    this.indent = outer;
    this.out += outer + '}';
    this.opPrefixes.pop();
  }

  private printBlockLabel(b: Block, isEntry: boolean): void {
    this.out += this.indent.slice(2) + (this.names.blocks.get(b) ?? '^bb?');
    if (b.args.length) {
      this.out += '(';
      b.args.forEach((a, k) => {
        if (k) this.out += ', ';
        this.printOperand(a);
        this.out += ': ';
        this.printType(a.type);
        if (this.options.debugInfo) this.printArgLoc(a);
      });
      this.out += ')';
    }
    this.out += ':';
    if (!isEntry) {
      const preds = b.predecessors();
      if (preds.length === 0) this.out += '  // no predecessors';
      else {
        const names = preds.map((p) => this.names.blocks.get(p) ?? '^bb?').sort(byBlockNumber);
        this.out += `  // ${preds.length === 1 ? 'pred' : `${preds.length} preds`}: ${names.join(', ')}`;
      }
    }
    this.out += '\n';
  }

  /** Moves the current output into a flat chunk (reading a character flattens V8's rope). */
  private flushChunk(): void {
    const s = this.out;
    s.charCodeAt(0);
    this.chunks.push(s);
    this.out = '';
  }

  /** Everything written so far, as the flat chunks it was flushed in (no copy into one string). */
  private takeParts(): string[] {
    if (this.out.length) this.flushChunk();
    const parts = this.chunks.slice();
    this.chunks.length = 0;
    return parts;
  }

  /** Everything written so far. */
  private take(): string {
    if (this.chunks.length === 0) {
      const s = this.out;
      this.out = '';
      return s;
    }
    this.flushChunk();
    const all = this.chunks.join('');
    this.chunks.length = 0;
    return all;
  }

  /**
   * A block argument's location, printed in place. MLIR's parser resolves a `#loc` alias used
   * before its definition only in an op's trailing `loc(...)`, so the aliases this location
   * refers to (and its own, as MLIR does) are defined before the module, not after it.
   */
  private printArgLoc(arg: BlockArgument): void {
    const l = arg.loc;
    if (this.printedArgs) this.printedArgs.add(arg);
    if (this.locAliases.size) this.markLocAtTop(l);
    this.out += ' loc(';
    l.printBody(this);
    this.out += ')';
  }

  // ---- operations --------------------------------------------------------------------------

  /** Prints one operation (results, name, body, location) without a trailing newline. */
  printOperation(op: Operation): void {
    const results = op.results;
    if (results.length === 1) {
      const r = results[0];
      this.out += r.printGen === this.names.gen ? r.printName : '<<UNNAMED>>';
      this.out += ' = ';
    } else if (results.length) this.out += this.names.headers.get(op) ?? '<<UNNAMED>> = ';
    const spec = op.spec;
    if (!this.options.generic && spec && (spec.decl.syntax || spec.format)) {
      this.out += this.displayName(op);
      if (spec.decl.syntax) spec.decl.syntax.print(this, op);
      else {
        const plan = printPlanFor(spec, spec.format!);
        if (plan) plan.print(this, op);
        else printWithFormat(this, op, spec.format!);
      }
    } else this.printGeneric(op);
    if (this.options.debugInfo) {
      if (this.printedArgs) this.printedArgs.add(op);
      this.out += ' loc(';
      this.printAttributeWithoutType(op.loc);
      this.out += ')';
    }
    if (this.options.valueUsers) this.printUsers(op);
  }

  /**
   * `--mlir-print-value-users`: ` // users: %a, %b` (` // user:` for one, ` // unused` for none);
   * with several results, one parenthesized list per result. A user without results is named
   * by its op name.
   */
  private printUsers(op: Operation): void {
    if (op.results.length === 0) return;
    const userName = (user: Operation) => (user.results.length ? this.nameOf(user.results[0]) : user.name);
    const lists = op.results.map((r) => [...new Set(r.users())].map(userName));
    if (lists.every((l) => l.length === 0)) {
      this.out += ' // unused';
      return;
    }
    if (lists.length === 1) {
      this.out += ` // ${lists[0].length === 1 ? 'user' : 'users'}: ${lists[0].join(', ')}`;
      return;
    }
    this.out += ' // users: ' + lists.map((l) => (l.length ? `(${l.join(', ')})` : '(unused)')).join(', ');
  }

  /** `--mlir-print-value-users` for block arguments: a `// %a is used by %1, %0` (or `is unused`) line each. */
  private printArgumentUsers(b: Block): void {
    for (const a of b.args) {
      const users = [...new Set(a.users())].map((user) => (user.results.length ? this.nameOf(user.results[0]) : user.name));
      this.out += `${this.indent}// ${this.nameOf(a)} ${users.length ? `is used by ${users.join(', ')}` : 'is unused'}\n`;
    }
  }

  private nameOf(v: Value): string {
    return v.printGen === this.names.gen ? v.printName : '<<UNNAMED>>';
  }

  /** The op name as printed: without the prefix of the default dialect in effect (inherited from enclosing ops), or of builtin when none is. */
  private displayName(op: Operation): string {
    const name = op.name;
    const prefix = this.opPrefixes[this.opPrefixes.length - 1];
    if (!prefix) return name.startsWith('builtin.') ? name.slice(8) : name;
    return name.startsWith(prefix) ? name.slice(prefix.length) : name;
  }

  private printGeneric(op: Operation): void {
    this.out += '"' + op.name + '"(';
    this.printOperands(op.operandValues());
    this.out += ')';
    if (op.successors.length) {
      this.out += '[';
      op.successors.forEach((b, k) => {
        if (k) this.out += ', ';
        this.printSuccessor(b);
      });
      this.out += ']';
    }
    const props = op.inherentAttrs();
    if (props.length) {
      this.out += ' <';
      printDictionary(this, props);
      this.out += '>';
    }
    if (op.regions.length) {
      this.out += ' (';
      op.regions.forEach((r, k) => {
        if (k) this.out += ', ';
        this.printRegion(r, { printEntryBlockArgs: true, printEmptyBlock: true });
      });
      this.out += ')';
    }
    const attrs = op.attributes ? Object.keys(op.attributes).sort() : [];
    if (attrs.length) {
      this.out += ' ';
      printDictionary(this, attrs.map((k) => [k, op.attributes![k]]));
    }
    this.out += ' : ';
    this.printType(FunctionType.get(op.operandTypes(), op.resultTypes()));
  }

  // ---- top level ---------------------------------------------------------------------------

  /** Prints a top-level op (usually the module) with alias definitions around it. */
  printTopLevel(op: Operation): string {
    return this.printTopLevelParts(op).join('');
  }

  /**
   * `printTopLevel`'s text as consecutive parts (the body in its 64 KiB chunks): a large module is
   * written out part by part, never held as one string as well.
   */
  printTopLevelParts(op: Operation): string[] {
    const collector = this.collectAliases(op); // before naming: its dry run names the values too
    this.names = computeNames(op);
    // The alias definitions print before the body but are written after it: number their
    // distinct attributes first, in their order (a dry print, dropped).
    if (collector && DistinctAttr.count > 0) {
      this.printAliasDefinitions(collector);
      this.take();
    }
    this.typeTexts = new Map();
    this.printOperation(op);
    this.typeTexts = null;
    this.out += '\n';
    const body = this.takeParts();
    // The definitions before the module are known once the body is printed (block argument locations).
    if (collector) this.printAliasDefinitions(collector);
    const header = this.take();
    for (const [l, name] of [...this.locAliases].sort((a, b) => aliasOrder(a[1], b[1]))) {
      if (this.locsAtTop.has(l)) continue;
      this.out += name + ' = ';
      l.print(this);
      this.out += '\n';
    }
    const trailer = this.take();
    const resources = this.options.resources ? '\n' + this.options.resources + '\n' : ''; // a blank line before `{-#`, as mlir-opt
    return [header, ...body, trailer, resources].filter((part) => part.length > 0);
  }

  /** Prints a single op (for messages): names are local to it. */
  printStandalone(op: Operation): string {
    this.names = computeNames(op);
    this.out = '';
    this.printOperation(op);
    return this.take();
  }

  /** Prints a single op with the value names it has in the whole IR around it (for notes about it). */
  printInScope(op: Operation): string {
    let top = op;
    while (top.parentOp) top = top.parentOp;
    this.names = computeNames(top);
    this.out = '';
    this.printOperation(op);
    return this.take();
  }

  /** Visits the types, attributes (and locations) of `op` and of the ops nested in it, in pre-order. */
  /** The ops and block arguments whose locations printing `root` writes (a dry run, for `collectAliases`). */
  private locatedPrinted(root: Operation): Set<BlockArgument | Operation> {
    this.names = computeNames(root);
    this.printedArgs = new Set();
    this.printOperation(root);
    this.take();
    return this.printedArgs;
  }

  private visitForAliases(op: Operation, collector: AliasCollector, printedArgs: Set<BlockArgument | Operation> | null): void {
    // Locations in MLIR's order (which numbers their aliases): the op's own, then per block its arguments' and its ops'.
    if (printedArgs?.has(op)) collector.visitLoc(op.loc, false);
    const results = op.results;
    for (let k = 0; k < results.length; k++) collector.visitTypeAgain(results[k].type);
    if (op.properties) for (const k in op.properties) collector.visitAttr(op.properties[k]);
    if (op.attributes) for (const k in op.attributes) collector.visitAttr(op.attributes[k]);
    for (const r of op.regions) for (const b of r.blocks) for (const a of b.args) collector.visitType(a.type);
    const operands = op.operands;
    for (let k = 0; k < operands.length; k++) collector.visitTypeAgain(operands[k].value.type);
    for (const r of op.regions) {
      for (const b of r.blocks) {
        if (printedArgs) for (const a of b.args) if (printedArgs.has(a)) collector.visitLoc(a.loc, true);
        for (let inner = b.first; inner; inner = inner.next) this.visitForAliases(inner, collector, printedArgs);
      }
    }
  }

  /** Names the aliases of everything under `root` (null when there can be none). */
  private collectAliases(root: Operation): AliasCollector | null {
    // Aliases come from names the user gave, dialect attributes that name aliases and (with debug
    // info) locations: without any of them, the walk over every op would find nothing.
    if (!this.options.debugInfo && !this.options.aliasNames?.size && DialectAttr.withAliasNames === 0) return null;
    if (this.options.localScope) return null;
    const collector = new AliasCollector(this.options.aliasNames);
    // Only what is printed has its location printed (and aliased): not the arguments a custom form
    // leaves out (scf.for's induction variable), nor an elided terminator. MLIR finds them by
    // printing once into nothing; so do we.
    const printedArgs = this.options.debugInfo ? new Printer(this.options).locatedPrinted(root) : null;
    this.visitForAliases(root, collector, printedArgs);
    for (const [value, name] of collector.finish()) this.aliases.set(value, name);
    for (const [value, name] of collector.locationNames()) this.locAliases.set(value, name);
    return collector;
  }

  /** Marks `l` and the locations nested in it as defined before the module. */
  private markLocAtTop(l: Location): void {
    if (this.locsAtTop.has(l)) return;
    if (this.locAliases.has(l)) this.locsAtTop.add(l);
    if (l instanceof NameLoc) this.markLocAtTop(l.child);
    else if (l instanceof CallSiteLoc) {
      this.markLocAtTop(l.callee);
      this.markLocAtTop(l.caller);
    } else if (l instanceof FusedLoc) for (const x of l.locations) this.markLocAtTop(x);
  }

  /** The alias definitions before the module: attributes, types and the locations block arguments need, by depth, then name (MLIR's order). */
  private printAliasDefinitions(collector: AliasCollector): void {
    const defs: [Attribute | Type | Location, string][] = [...this.aliases];
    for (const l of this.locsAtTop) defs.push([l, this.locAliases.get(l)!]);
    defs.sort((a, b) => collector.depth(a[0]) - collector.depth(b[0]) || aliasOrder(a[1], b[1]));
    for (const [value, name] of defs) {
      this.out += name + ' = ';
      if (value instanceof Location) {
        value.print(this);
        this.out += '\n';
        continue;
      }
      this.aliases.delete(value); // print the definition itself, not the alias
      value.print(this);
      this.aliases.set(value, name);
      this.out += '\n';
    }
  }
}

const NO_ATTRS: [string, Attribute][] = [];

function byBlockNumber(a: string, b: string): number {
  return Number(a.slice(3)) - Number(b.slice(3));
}

/** Orders `#blocked` < `#blocked1` < `#blocked2` < `#mma`, and `#loc` < `#loc1` < `#loc10`. */
function aliasOrder(a: string, b: string): number {
  const ma = /^(.*?)(\d*)$/.exec(a)!;
  const mb = /^(.*?)(\d*)$/.exec(b)!;
  if (ma[1] !== mb[1]) return ma[1] < mb[1] ? -1 : 1;
  return Number(ma[2] || -1) - Number(mb[2] || -1);
}

/** Finds the attributes and types that get alias names and assigns them. */
class AliasCollector {
  private readonly seen = new Set<unknown>();
  private readonly order: (Attribute | Type)[] = [];
  private readonly depths = new Map<unknown, number>();
  private readonly locs: Location[] = [];
  private readonly locSeen = new Set<Location>();
  private readonly locDepth = new Map<Location, number>();

  /** The type `visitTypeAgain` saw last. */
  private lastType: Type | null = null;

  constructor(private readonly userNames: Map<Attribute | Type, string> | undefined) {}

  /** `visitType` for the types of op results and operands, which repeat from op to op: a repeat is skipped (it changes nothing). */
  visitTypeAgain(t: Type): void {
    if (t === this.lastType) return;
    this.lastType = t;
    if (!this.seen.has(t)) this.visitType(t);
  }

  visitType(t: Type): number {
    if (this.seen.has(t)) return this.depths.get(t) ?? 0;
    this.seen.add(t);
    let d = 0;
    if (t instanceof RankedTensorType) {
      d = this.visitType(t.elementType);
      if (t.encoding) d = Math.max(d, this.visitAttr(t.encoding));
    } else if (t instanceof ShapedType) d = this.visitType(t.elementType);
    else if (t instanceof FunctionType) for (const x of [...t.inputs, ...t.results]) d = Math.max(d, this.visitType(x));
    else if (t instanceof TupleType) for (const x of t.types) d = Math.max(d, this.visitType(x));
    else if (t instanceof DialectType || t instanceof MemRefType || t instanceof UnrankedMemRefType || t instanceof ComplexType) d = this.visitNested(t);
    if (this.userNames?.has(t)) {
      this.order.push(t);
      d++;
    }
    this.depths.set(t, d);
    return d;
  }

  visitAttr(a: Attribute): number {
    if (a instanceof Location) return 0;
    // A leaf (an integer, a string, ...) matters only when the user named it.
    const nested = a instanceof ArrayAttr || a instanceof DictionaryAttr || a instanceof TypeAttr || a instanceof DenseElementsAttr || a instanceof DialectAttr;
    if (!nested && !this.userNames?.has(a)) return 0;
    if (this.seen.has(a)) return this.depths.get(a) ?? 0;
    this.seen.add(a);
    let d = 0;
    if (a instanceof ArrayAttr) for (const x of a.value) d = Math.max(d, this.visitAttr(x));
    else if (a instanceof DictionaryAttr) for (const [, x] of a.entries) d = Math.max(d, this.visitAttr(x));
    else if (a instanceof TypeAttr) d = this.visitType(a.value);
    else if (a instanceof DenseElementsAttr) d = this.visitType(a.type);
    else if (a instanceof DialectAttr) d = this.visitNested(a);
    if (this.userNames?.has(a) || (a instanceof DialectAttr && a.aliasName())) {
      this.order.push(a);
      d++;
    }
    this.depths.set(a, d);
    return d;
  }

  /** Dialect types and attributes expose nested values through their own fields. */
  private visitNested(x: object): number {
    let d = 0;
    for (const v of Object.values(x)) {
      if (v instanceof Type) d = Math.max(d, this.visitType(v));
      else if (v instanceof Attribute) d = Math.max(d, this.visitAttr(v));
      else if (Array.isArray(v)) for (const e of v) if (e instanceof Attribute) d = Math.max(d, this.visitAttr(e));
    }
    return d;
  }

  visitLoc(l: Location, _inline: boolean): number {
    if (this.locSeen.has(l)) return this.locDepth.get(l)!;
    this.locSeen.add(l);
    let d = 0;
    if (l instanceof NameLoc) d = this.visitLoc(l.child, false) + 1;
    else if (l instanceof CallSiteLoc) d = Math.max(this.visitLoc(l.callee, false), this.visitLoc(l.caller, false)) + 1;
    else if (l instanceof FusedLoc) for (const x of l.locations) d = Math.max(d, this.visitLoc(x, false) + 1);
    this.locDepth.set(l, d);
    this.locs.push(l);
    return d;
  }

  /** The nesting depth of an alias, on one scale for attributes, types and locations (a leaf alias is 1). */
  depth(x: unknown): number {
    if (x instanceof Location) return (this.locDepth.get(x) ?? 0) + 1;
    return this.depths.get(x) ?? 0;
  }

  finish(): Map<Attribute | Type, string> {
    const out = new Map<Attribute | Type, string>();
    const taken = new Set<string>();
    for (const x of this.order) {
      const user = this.userNames?.get(x);
      if (user && !taken.has(user)) {
        out.set(x, (x instanceof Type ? '!' : '#') + user);
        taken.add(user);
      }
    }
    const counts = new Map<string, number>();
    for (const x of this.order) {
      if (out.has(x)) continue;
      const base = x instanceof DialectAttr ? x.aliasName() : null;
      if (!base) continue;
      let n = counts.get(base) ?? 0;
      let name = n === 0 ? base : base + n;
      while (taken.has(name)) name = base + ++n;
      counts.set(base, n + 1);
      taken.add(name);
      out.set(x, '#' + name);
    }
    return out;
  }

  locationNames(): Map<Location, string> {
    const sorted = this.locs
      .map((l, k) => [l, k] as const)
      .sort((a, b) => this.locDepth.get(a[0])! - this.locDepth.get(b[0])! || a[1] - b[1]);
    const out = new Map<Location, string>();
    sorted.forEach(([l], k) => out.set(l, k === 0 ? '#loc' : `#loc${k}`));
    return out;
  }
}

/** Prints a module (or any top-level op) as text. */
export function printModule(op: Operation, options: PrintOptions = {}): string {
  return new Printer(options).printTopLevel(op);
}

/** `printModule`'s text as consecutive parts, for writing a large module out without joining it first. */
export function printModuleParts(op: Operation, options: PrintOptions = {}): string[] {
  return new Printer(options).printTopLevelParts(op);
}

/** Prints one op for messages and debugging. */
export function printOp(op: Operation, options: PrintOptions = {}): string {
  return new Printer(options).printStandalone(op);
}

/** Prints one op with the value names of the IR it sits in (`%1 = "arith.addi"(%0, %0) ...`), as MLIR's notes show it. */
export function printOpInScope(op: Operation, options: PrintOptions = {}): string {
  return new Printer(options).printInScope(op);
}

/** Makes `Operation.toString` print the op in its custom form (done by every `Context`). */
export function installOpPrinter(): void {
  setOpPrinter((op) => printOp(op));
}
/** Printers for `plainText` (`Type.toString`, messages), reused: building one per call showed in profiles. */
const plainPrinters: Printer[] = [];
setPlainTextImpl((body) => {
  const p = plainPrinters.pop() ?? new Printer({});
  body(p); // a printer left midway by an exception is not reused
  const text = (p as unknown as { take(): string }).take();
  plainPrinters.push(p);
  return text;
});

export { printResultTypes, UnitAttr };
