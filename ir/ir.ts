/**
 * Operations, values, blocks and regions with use-def chains, as in MLIR.
 *
 * Use-lists are intrusive doubly-linked lists threaded through `OpOperand`s, and a block's
 * operations form an intrusive doubly-linked list, so insertion, erasure and RAUW are O(1)
 * per use and allocate nothing beyond the operand itself.
 */
import { Attribute, FileLineColLoc, Location, UnknownLoc, utf8Bytes } from './attributes.js';
import type { SourcePos } from './diagnostics.js';
import type { OpSpec } from './op-spec.js';
import { Terminator, type Trait } from './traits.js';
import type { Type } from './types.js';

// ---- values ------------------------------------------------------------------------------

/** An SSA value: an operation result or a block argument. */
export abstract class Value {
  /** Head of the use-list. */
  firstUse: OpOperand | null = null;
  /** The name the value had in the source text (`%offsets`), used by the printer when free. */
  nameHint: string | null = null;
  /** @internal The printer's name for this value, valid while `printGen` is the printer's generation. */
  printName = '';
  /** @internal */
  printGen = 0;
  constructor(public type: Type) {}

  /** The operation defining this value, or null for block arguments. */
  abstract get definingOp(): Operation | null;
  /** The block in which this value is defined. */
  abstract get parentBlock(): Block | null;

  /** Iterates over the operands that use this value. */
  *uses(): IterableIterator<OpOperand> {
    for (let u = this.firstUse; u; ) {
      const next = u.nextUse;
      yield u;
      u = next;
    }
  }
  /** The operations that use this value (an operation appears once per use). */
  users(): Operation[] {
    const out: Operation[] = [];
    for (let u = this.firstUse; u; u = u.nextUse) out.push(u.owner);
    return out;
  }
  get hasUses(): boolean {
    return this.firstUse !== null;
  }
  get hasOneUse(): boolean {
    return this.firstUse !== null && this.firstUse.nextUse === null;
  }
  get useCount(): number {
    let n = 0;
    for (let u = this.firstUse; u; u = u.nextUse) n++;
    return n;
  }
  /** Makes every use of this value use `other` instead. */
  replaceAllUsesWith(other: Value): void {
    if (other === this) return;
    while (this.firstUse) this.firstUse.set(other);
  }
  /** Replaces the uses for which `pred` holds. */
  replaceUsesWithIf(other: Value, pred: (use: OpOperand) => boolean): void {
    for (const u of this.uses()) if (pred(u)) u.set(other);
  }
}

/** A result of an operation. */
export class OpResult extends Value {
  constructor(type: Type, readonly owner: Operation, readonly index: number) {
    super(type);
  }
  get definingOp(): Operation {
    return this.owner;
  }
  get parentBlock(): Block | null {
    return this.owner.parent;
  }
}

/** The location of `offset` in a parsed file (MLIR's default for what has no `loc(...)`); unknown without a file. */
function sourceLoc(file: SourcePos['source'] | null, offset: number): Location {
  if (!file) return UnknownLoc.get();
  const { line, col } = file.position(offset);
  return FileLineColLoc.get(utf8Bytes(file.name), line, col);
}

/** An argument of a block. */
export class BlockArgument extends Value {
  private _loc: Location | null;
  /** The parsed file and offset of the argument's name (its location when none was given). */
  private srcFile: SourcePos['source'] | null;
  private srcOffset: number;
  constructor(type: Type, public owner: Block, public index: number, loc?: Location, srcPos?: SourcePos) {
    super(type);
    this._loc = loc ?? null;
    this.srcFile = srcPos?.source ?? null;
    this.srcOffset = srcPos?.offset ?? 0;
  }
  /**
   * The argument's location; one parsed without `loc(...)` gets its name's position in the source
   * file, as in MLIR (made on first use: a location object per argument is not kept otherwise).
   */
  get loc(): Location {
    return this._loc ?? sourceLoc(this.srcFile, this.srcOffset);
  }
  set loc(l: Location) {
    this._loc = l;
  }
  get definingOp(): null {
    return null;
  }
  get parentBlock(): Block {
    return this.owner;
  }
}

/** One operand slot of an operation; a node in its value's use-list. */
export class OpOperand {
  prevUse: OpOperand | null = null;
  nextUse: OpOperand | null = null;
  constructor(public value: Value, readonly owner: Operation, public index: number) {
    this.link();
  }
  private link(): void {
    const v = this.value;
    this.nextUse = v.firstUse;
    if (v.firstUse) v.firstUse.prevUse = this;
    v.firstUse = this;
  }
  /** @internal Removes this operand from its value's use-list. */
  unlink(): void {
    if (this.prevUse) this.prevUse.nextUse = this.nextUse;
    else this.value.firstUse = this.nextUse;
    if (this.nextUse) this.nextUse.prevUse = this.prevUse;
    this.prevUse = this.nextUse = null;
  }
  /** Points this operand at another value. */
  set(v: Value): void {
    if (v === this.value) return;
    this.unlink();
    this.value = v;
    this.link();
  }
}

// ---- operations --------------------------------------------------------------------------

/** Shared, frozen lists for the common ops without regions or successors (saves two arrays per op). */
const NO_REGIONS: Region[] = Object.freeze([]) as unknown as Region[];
const NO_SUCCESSORS: Block[] = Object.freeze([]) as unknown as Block[];
const NO_VALUES: readonly Value[] = Object.freeze([]);
const NO_TYPES: readonly Type[] = Object.freeze([]);

/** Arguments to `Operation.create`. */
export interface OperationInit {
  name: string;
  spec?: OpSpec;
  operands?: readonly Value[];
  resultTypes?: readonly Type[];
  /** Inherent attributes (MLIR "properties", printed `<{...}>` in generic form). */
  properties?: Record<string, Attribute> | null;
  /** Discardable attributes (printed `{...}`). */
  attributes?: Record<string, Attribute> | null;
  /** A region count, or regions already built (e.g. by the parser) to adopt. */
  regions?: number | Region[];
  successors?: readonly Block[];
  loc?: Location;
  srcPos?: SourcePos;
}

/** An operation: the unit of IR. Its meaning comes from its spec in a dialect table. */
export class Operation {
  readonly operands: OpOperand[];
  readonly results: OpResult[];
  readonly regions: Region[];
  successors: Block[];
  properties: Record<string, Attribute> | null;
  attributes: Record<string, Attribute> | null;
  parent: Block | null = null;
  prev: Operation | null = null;
  next: Operation | null = null;
  /** Position within the parent block; valid while `parent.orderValid`. */
  orderIndex = 0;
  /** @internal The greedy pattern driver's mark: which run's worklist holds the op (0: none). */
  worklistMark = 0;
  private _loc: Location | null;
  /** The parsed file and offset of the op's name (kept as two fields: no object per op). */
  private srcFile: SourcePos['source'] | null;
  private srcOffset: number;

  private constructor(
    readonly name: string,
    public spec: OpSpec | undefined,
    ops: readonly Value[],
    rts: readonly Type[],
    properties: Record<string, Attribute> | null,
    attributes: Record<string, Attribute> | null,
    regions: number | Region[],
    successors: readonly Block[] | undefined,
    loc: Location | null,
    srcFile: SourcePos['source'] | null,
    srcOffset: number,
  ) {
    this.operands = new Array(ops.length);
    for (let k = 0; k < ops.length; k++) this.operands[k] = new OpOperand(ops[k], this, k);
    this.results = new Array(rts.length);
    for (let k = 0; k < rts.length; k++) this.results[k] = new OpResult(rts[k], this, k);
    if (regions === 0 || (typeof regions !== 'number' && regions.length === 0)) {
      this.regions = NO_REGIONS;
    } else if (typeof regions === 'number') {
      this.regions = new Array(regions);
      for (let k = 0; k < regions; k++) this.regions[k] = new Region(this);
    } else {
      this.regions = regions;
      for (const r of regions) r.parent = this;
    }
    this.successors = successors && successors.length ? [...successors] : NO_SUCCESSORS;
    this.properties = properties;
    this.attributes = attributes;
    this._loc = loc;
    this.srcFile = srcFile;
    this.srcOffset = srcOffset;
  }

  /** Creates a detached operation. Prefer `Builder.create`, which also inserts it. */
  static create(init: OperationInit): Operation {
    return new Operation(
      init.name, init.spec, init.operands ?? NO_VALUES, init.resultTypes ?? NO_TYPES, init.properties ?? null,
      init.attributes ?? null, init.regions ?? 0, init.successors, init.loc ?? null, init.srcPos?.source ?? null,
      init.srcPos?.offset ?? 0,
    );
  }

  /**
   * @internal `create` without the init object, for the parser (one op per line of a large file):
   * the lists are copied, `regions` (when an array) is adopted.
   */
  static createParsed(
    name: string, spec: OpSpec | undefined, operands: readonly Value[], resultTypes: readonly Type[],
    properties: Record<string, Attribute> | null, attributes: Record<string, Attribute> | null, regions: Region[],
    successors: readonly Block[], loc: Location | null, srcPos: SourcePos,
  ): Operation {
    return new Operation(name, spec, operands, resultTypes, properties, attributes, regions, successors, loc, srcPos.source, srcPos.offset);
  }

  /** The op's location; ops parsed without `loc(...)` get their position in the source file, as in MLIR. */
  get loc(): Location {
    return this._loc ?? sourceLoc(this.srcFile, this.srcOffset);
  }
  set loc(l: Location) {
    this._loc = l;
  }
  /**
   * Where the op was in the parsed text, for diagnostics: for an op a pass built at another op's
   * location (`Builder.before`), that op's; null for other ops built by passes.
   */
  get srcPos(): SourcePos | null {
    return this.srcFile ? { source: this.srcFile, offset: this.srcOffset } : null;
  }
  set srcPos(p: SourcePos | null) {
    this.srcFile = p?.source ?? null;
    this.srcOffset = p?.offset ?? 0;
  }

  /**
   * @internal Gives this op `from`'s location as it stands: its location object, or, for an op
   * parsed without `loc(...)`, its source position, from which the location is made on demand (a
   * pass rewriting every op of a large file then makes no location object per op).
   */
  shareLocationOf(from: Operation): void {
    this._loc = from._loc;
    this.srcFile = from.srcFile;
    this.srcOffset = from.srcOffset;
  }

  /** Whether a location was given explicitly (parsed `loc(...)` or set by a pass). */
  get hasExplicitLoc(): boolean {
    return this._loc !== null;
  }

  /** The dialect prefix of the op name (`tt` for `tt.load`). */
  get dialect(): string {
    const dot = this.name.indexOf('.');
    return dot < 0 ? '' : this.name.slice(0, dot);
  }
  get numOperands(): number {
    return this.operands.length;
  }
  get numResults(): number {
    return this.results.length;
  }
  operand(k: number): Value {
    return this.operands[k].value;
  }
  result(k = 0): OpResult {
    return this.results[k];
  }
  operandValues(): Value[] {
    return this.operands.map((o) => o.value);
  }
  operandTypes(): Type[] {
    return this.operands.map((o) => o.value.type);
  }
  resultTypes(): Type[] {
    return this.results.map((r) => r.type);
  }
  region(k = 0): Region {
    return this.regions[k];
  }

  /** Whether the op's declaration has trait `t` (`op.hasTrait(Pure)`). */
  hasTrait(t: Trait): boolean {
    return this.spec !== undefined && this.spec.traitSet.has(t);
  }

  // -- attributes --

  /** Reads an attribute, inherent or discardable; an absent default-valued attribute reads as its default. */
  getAttr(name: string): Attribute | undefined {
    return this.properties?.[name] ?? this.attributes?.[name] ?? this.spec?.attrIndex.get(name)?.default;
  }
  /** Sets an attribute; names declared by the op's spec become inherent (properties). */
  setAttr(name: string, value: Attribute): void {
    if (this.isInherent(name)) (this.properties ??= Object.create(null) as Record<string, Attribute>)[name] = value;
    else (this.attributes ??= Object.create(null) as Record<string, Attribute>)[name] = value;
  }
  /** Removes an attribute; returns whether it was present. */
  removeAttr(name: string): boolean {
    if (this.properties && name in this.properties) {
      delete this.properties[name];
      return true;
    }
    if (this.attributes && name in this.attributes) {
      delete this.attributes[name];
      return true;
    }
    return false;
  }
  /** Whether `name` is one of the op's inherent attributes. */
  isInherent(name: string): boolean {
    if (this.spec) return this.spec.attrIndex.has(name);
    return this.properties !== null && name in this.properties;
  }
  /** Every attribute, inherent (defaults included) and discardable, sorted by name. */
  allAttrs(): [string, Attribute][] {
    const out: [string, Attribute][] = this.inherentAttrs();
    if (this.attributes) for (const k in this.attributes) out.push([k, this.attributes[k]]);
    return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }
  /** The inherent attributes (MLIR properties), with declared defaults for those not set, sorted by name. */
  inherentAttrs(): [string, Attribute][] {
    const out: [string, Attribute][] = [];
    if (this.properties) for (const k in this.properties) out.push([k, this.properties[k]]);
    for (const d of this.spec?.decl.attrs ?? []) if (d.default && !this.properties?.[d.name]) out.push([d.name, d.default]);
    return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  // -- operands --

  /** Replaces operand `k`. */
  setOperand(k: number, v: Value): void {
    this.operands[k].set(v);
  }
  /** Replaces the whole operand list. */
  setOperands(values: readonly Value[]): void {
    for (const o of this.operands) o.unlink();
    this.operands.length = 0;
    values.forEach((v, k) => this.operands.push(new OpOperand(v, this, k)));
  }
  /** Appends an operand. */
  addOperand(v: Value): void {
    this.operands.push(new OpOperand(v, this, this.operands.length));
  }
  /** Removes operand `k`. */
  eraseOperand(k: number): void {
    this.operands[k].unlink();
    this.operands.splice(k, 1);
    for (let j = k; j < this.operands.length; j++) this.operands[j].index = j;
  }

  // -- structure --

  /** The op owning the region this op is in. */
  get parentOp(): Operation | null {
    return this.parent?.parent?.parent ?? null;
  }
  /** The region holding this op. */
  get parentRegion(): Region | null {
    return this.parent?.parent ?? null;
  }
  /** The nearest enclosing op named `name` (or satisfying `pred`). */
  parentOfType(pred: string | ((op: Operation) => boolean)): Operation | null {
    const test = typeof pred === 'string' ? (o: Operation) => o.name === pred : pred;
    for (let p = this.parentOp; p; p = p.parentOp) if (test(p)) return p;
    return null;
  }
  /** Whether `this` is `other` or nested inside it. */
  isAncestorOf(other: Operation): boolean {
    for (let o: Operation | null = other; o; o = o.parentOp) if (o === this) return true;
    return false;
  }
  /** Whether this op comes before `other` in the same block. */
  isBeforeInBlock(other: Operation): boolean {
    const b = this.parent;
    if (!b || b !== other.parent) throw new Error('internal error: isBeforeInBlock on ops of different blocks');
    b.ensureOrder();
    return this.orderIndex < other.orderIndex;
  }

  /** Unlinks the op from its block without destroying it. */
  remove(): this {
    this.parent?.unlinkOp(this);
    return this;
  }
  /**
   * Removes and destroys the op: its operands stop using their values, nested ops are
   * destroyed too. Its results must have no remaining uses outside the op.
   */
  erase(): void {
    this.remove();
    this.dropAllReferences();
  }
  /** Drops every operand of this op and of nested ops (so they can be erased in any order). */
  dropAllReferences(): void {
    for (const o of this.operands) o.unlink();
    this.operands.length = 0;
    for (const r of this.regions) for (const b of r.blocks) for (const op of b.ops) op.dropAllReferences();
  }
  /** Moves this op right before `other`. */
  moveBefore(other: Operation): void {
    this.remove();
    other.parent!.insertBefore(this, other);
  }
  /** Moves this op right after `other`. */
  moveAfter(other: Operation): void {
    this.remove();
    other.parent!.insertAfter(this, other);
  }
  /** Replaces all uses of this op's results with `values` (one per result). */
  replaceAllUsesWith(values: readonly Value[]): void {
    if (values.length !== this.results.length)
      throw new Error(`internal error: '${this.name}' has ${this.results.length} results, got ${values.length} replacements`);
    this.results.forEach((r, k) => r.replaceAllUsesWith(values[k]));
  }

  /** Visits this op and every nested op; `order` picks pre- or post-order. Return `false` from `fn` in pre-order to skip nested ops. */
  walk(fn: (op: Operation) => void | boolean, order: 'pre' | 'post' = 'post'): void {
    if (order === 'pre' && fn(this) === false) return;
    for (const r of this.regions) {
      for (const b of r.blocks) {
        for (let op = b.first; op; ) {
          const next = op.next;
          op.walk(fn, order);
          op = next;
        }
      }
    }
    if (order === 'post') fn(this);
  }

  /** Deep copy: results, regions and nested ops are copied; operands are remapped through `mapping`. */
  clone(mapping: ValueMapping = new ValueMapping()): Operation {
    const op = Operation.create({
      name: this.name,
      spec: this.spec,
      operands: this.operands.map((o) => mapping.lookupOrDefault(o.value)),
      resultTypes: this.results.map((r) => r.type),
      properties: this.properties ? { ...this.properties } : null,
      attributes: this.attributes ? { ...this.attributes } : null,
      regions: this.regions.length,
      successors: this.successors.map((b) => mapping.lookupBlockOrDefault(b)),
      loc: this._loc ?? undefined,
      srcPos: this.srcPos ?? undefined,

    });
    this.results.forEach((r, k) => {
      op.results[k].nameHint = r.nameHint;
      mapping.map(r, op.results[k]);
    });
    this.regions.forEach((r, k) => r.cloneInto(op.regions[k], mapping));
    return op;
  }

  toString(): string {
    return printOpImpl(this);
  }
}

let printOpImpl: (op: Operation) => string = (op) => `<${op.name}>`;
/** Installs the implementation of `Operation.toString` (done by the printer module). */
export function setOpPrinter(impl: (op: Operation) => string): void {
  printOpImpl = impl;
}

// ---- blocks and regions ------------------------------------------------------------------

/** A basic block: arguments and a list of operations ending (usually) in a terminator. */
export class Block {
  readonly args: BlockArgument[] = [];
  parent: Region | null = null;
  first: Operation | null = null;
  last: Operation | null = null;
  private count = 0;
  orderValid = true;
  /** The label the block had in the source text (`^bb3`), for diagnostics. */
  srcPos: SourcePos | null = null;

  constructor(argTypes: readonly Type[] = [], argLocs?: readonly Location[]) {
    argTypes.forEach((t, k) => this.addArgument(t, argLocs?.[k]));
  }

  /** Appends an argument; `srcPos` (for the parser), its name's place in the source, is its location when `loc` is absent. */
  addArgument(type: Type, loc?: Location, srcPos?: SourcePos): BlockArgument {
    const a = new BlockArgument(type, this, this.args.length, loc, srcPos);
    this.args.push(a);
    return a;
  }
  /** Removes argument `k`, which must be unused. */
  eraseArgument(k: number): void {
    this.args.splice(k, 1);
    for (let j = k; j < this.args.length; j++) this.args[j].index = j;
  }
  get numOps(): number {
    return this.count;
  }
  get empty(): boolean {
    return this.first === null;
  }
  /** The operations as an array (a snapshot). */
  get ops(): Operation[] {
    const out: Operation[] = new Array(this.count);
    let k = 0;
    for (let op = this.first; op; op = op.next) out[k++] = op;
    return out;
  }
  *[Symbol.iterator](): IterableIterator<Operation> {
    for (let op = this.first; op; ) {
      const next = op.next;
      yield op;
      op = next;
    }
  }
  /** The last op when it is a terminator (by trait), else null. */
  get terminator(): Operation | null {
    const t = this.last;
    return t && t.hasTrait(Terminator) ? t : null;
  }
  get parentOp(): Operation | null {
    return this.parent?.parent ?? null;
  }
  /** The op of this block that is `op` or holds it (MLIR's `findAncestorOpInBlock`), or null when `op` is not inside this block. */
  findAncestorOpInBlock(op: Operation): Operation | null {
    for (let o: Operation | null = op; o; o = o.parentOp) if (o.parent === this) return o;
    return null;
  }

  /** Appends `op` at the end of the block. */
  append(op: Operation): void {
    this.insertBefore(op, null);
  }
  /** Inserts `op` before `before` (or at the end when `before` is null). */
  insertBefore(op: Operation, before: Operation | null): void {
    if (op.parent) throw new Error(`internal error: inserting '${op.name}' which is already in a block`);
    op.parent = this;
    op.next = before;
    op.prev = before ? before.prev : this.last;
    if (op.prev) op.prev.next = op;
    else this.first = op;
    if (before) before.prev = op;
    else this.last = op;
    this.count++;
    if (before === null && this.orderValid) op.orderIndex = op.prev ? op.prev.orderIndex + 1 : 0;
    else this.orderValid = false;
  }
  /** Inserts `op` after `after`. */
  insertAfter(op: Operation, after: Operation): void {
    this.insertBefore(op, after.next);
  }
  /** @internal */
  unlinkOp(op: Operation): void {
    if (op.prev) op.prev.next = op.next;
    else this.first = op.next;
    if (op.next) op.next.prev = op.prev;
    else this.last = op.prev;
    op.prev = op.next = null;
    op.parent = null;
    this.count--;
  }
  /** Recomputes op order indices if insertions made them stale. */
  ensureOrder(): void {
    if (this.orderValid) return;
    let k = 0;
    for (let op = this.first; op; op = op.next) op.orderIndex = k++;
    this.orderValid = true;
  }
  /** Detaches the block from its region. */
  remove(): void {
    if (!this.parent) return;
    const blocks = this.parent.blocks;
    blocks.splice(blocks.indexOf(this), 1);
    this.parent = null;
  }
  /** Destroys the block and its ops. */
  erase(): void {
    for (const op of this) op.dropAllReferences();
    for (const op of this) op.remove();
    this.remove();
  }
  /** The blocks that branch to this one. */
  predecessors(): Block[] {
    const out: Block[] = [];
    if (!this.parent) return out;
    for (const b of this.parent.blocks) {
      const t = b.last;
      if (t) for (const s of t.successors) if (s === this) out.push(b); // once per edge, as MLIR counts
    }
    return out;
  }
  /** Moves every op of `other` to the end of this block (arguments are not touched). */
  takeOpsFrom(other: Block): void {
    for (const op of other) {
      op.remove();
      this.append(op);
    }
  }
}

/** A list of blocks owned by an operation. */
export class Region {
  readonly blocks: Block[] = [];
  constructor(public parent: Operation | null) {}

  get empty(): boolean {
    return this.blocks.length === 0;
  }
  /** The entry block, or null when the region is empty. */
  get entry(): Block | null {
    return this.blocks[0] ?? null;
  }
  /** Appends a block and returns it. */
  addBlock(b: Block = new Block()): Block {
    if (b.parent) b.remove();
    b.parent = this;
    this.blocks.push(b);
    return b;
  }
  /** Inserts block `b` at index `k`. */
  insertBlock(k: number, b: Block): void {
    if (b.parent) b.remove();
    b.parent = this;
    this.blocks.splice(k, 0, b);
  }
  /** Whether `v` is defined inside this region (including nested regions). */
  isAncestorOfValue(v: Value): boolean {
    for (let b: Block | null = v.parentBlock; b; b = b.parentOp?.parent ?? null) if (b.parent === this) return true;
    return false;
  }
  /** Copies the blocks of this region into `dest`, mapping values and blocks. */
  cloneInto(dest: Region, mapping: ValueMapping): void {
    const newBlocks = this.blocks.map((b) => {
      const nb = new Block();
      for (const a of b.args) {
        const na = nb.addArgument(a.type, a.loc);
        na.nameHint = a.nameHint;
        mapping.map(a, na);
      }
      mapping.mapBlock(b, nb);
      return nb;
    });
    this.blocks.forEach((b, k) => {
      const nb = newBlocks[k];
      for (let op = b.first; op; op = op.next) nb.append(op.clone(mapping));
      dest.addBlock(nb);
    });
  }
  /** Moves all blocks of this region to the end of `dest`. */
  moveBlocksTo(dest: Region): void {
    for (const b of [...this.blocks]) dest.addBlock(b);
  }
  /** Visits every op in this region. */
  walk(fn: (op: Operation) => void | boolean, order: 'pre' | 'post' = 'post'): void {
    for (const b of this.blocks) for (const op of b) op.walk(fn, order);
  }
}

/** Old-to-new value and block correspondence, used by `clone` and by inlining. */
export class ValueMapping {
  private readonly values = new Map<Value, Value>();
  private readonly blocks = new Map<Block, Block>();
  map(from: Value, to: Value): void {
    this.values.set(from, to);
  }
  mapBlock(from: Block, to: Block): void {
    this.blocks.set(from, to);
  }
  lookup(v: Value): Value | undefined {
    return this.values.get(v);
  }
  lookupOrDefault(v: Value): Value {
    return this.values.get(v) ?? v;
  }
  lookupBlockOrDefault(b: Block): Block {
    return this.blocks.get(b) ?? b;
  }
}

export type { Attribute };
