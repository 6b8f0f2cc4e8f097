/**
 * SSA value and block naming for the printer, following MLIR's rules: names kept from the
 * source text or taken from `NameLoc`s (as Triton prints), op-suggested names (`%c1_i32`),
 * otherwise numbers; `_N` suffixes resolve conflicts; nested regions are numbered after
 * their parent region and sibling regions reuse the same numbers; isolated ops restart.
 */
import { CallSiteLoc, FusedLoc, type Location, NameLoc } from './attributes.js';
import type { Block, Operation, Region } from './ir.js';
import { IsolatedFromAbove } from './traits.js';

/**
 * Printed names of blocks (`^bb2`). Value names (`%x`, `%x#1`) are stamped on the values with
 * generation `gen`, which avoids a map lookup per operand on the printer's hot path. The result
 * list of an op (`%x:2, %y = `) is `headers`' entry for ops whose results are not all one named
 * value; an op with one result prints that result's name.
 */
export interface NameTable {
  gen: number;
  blocks: Map<Block, string>;
  headers: Map<Operation, string>;
}

let generation = 0;

interface Counters {
  value: number;
  arg: number;
  conflict: number;
}

/**
 * A set of names: open addressing over an array, with the names' hashes in a second array.
 * About twice as fast as a `Set` for the 100,000s of fresh strings of a large function. The
 * hashes are small integers in a plain array, not an `Int32Array`: a typed array past 64 bytes
 * has its memory outside V8's heap, and one per function of a module of many small functions
 * cost an allocation outside the heap and GC pressure each.
 */
class NameSet {
  private keys: (string | undefined)[];
  private hashes: number[];
  size = 0;

  /** `expected`: about how many names will be added (the table starts large enough for them). */
  constructor(expected = 0) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.keys = new Array(capacity).fill(undefined);
    this.hashes = new Array<number>(capacity).fill(0);
  }

  has(name: string): boolean {
    return this.slotOf(name, hashName(name)) < 0;
  }

  /** Adds `name`; returns false when it was present. */
  add(name: string): boolean {
    const h = hashName(name);
    let slot = this.slotOf(name, h);
    if (slot < 0) return false;
    if ((this.size + 1) * 2 > this.keys.length) {
      this.grow();
      slot = this.slotOf(name, h);
    }
    this.keys[slot] = name;
    this.hashes[slot] = h;
    this.size++;
    return true;
  }

  /** The empty slot where `name` would go, or -1 when it is present. */
  private slotOf(name: string, h: number): number {
    const keys = this.keys;
    const mask = keys.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const k = keys[slot];
      if (k === undefined) return slot;
      if (this.hashes[slot] === h && k === name) return -1;
    }
  }

  private grow(): void {
    const keys = this.keys;
    const hashes = this.hashes;
    this.keys = new Array(keys.length * 2).fill(undefined);
    this.hashes = new Array<number>(keys.length * 2).fill(0);
    const mask = this.keys.length - 1;
    for (let k = 0; k < keys.length; k++) {
      if (keys[k] === undefined) continue;
      let slot = hashes[k] & mask;
      while (this.keys[slot] !== undefined) slot = (slot + 1) & mask;
      this.keys[slot] = keys[k];
      this.hashes[slot] = hashes[k];
    }
  }
}

/** FNV-1a over the UTF-16 code units of `s`. */
function hashName(s: string): number {
  let h = 0x811c9dc5 | 0;
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 16777619);
  return h;
}

/** A chain of name sets: lookups see enclosing regions' names. */
class NameScope {
  readonly names: NameSet;
  /** The nearest enclosing scope with names (a parent scope is complete before its children start). */
  readonly parent: NameScope | null;
  /** `expected`: about how many names the scope will hold. */
  constructor(parent: NameScope | null, expected = 0) {
    this.names = new NameSet(expected);
    while (parent && parent.names.size === 0) parent = parent.parent;
    this.parent = parent;
  }
  has(n: string): boolean {
    for (let s: NameScope | null = this; s; s = s.parent) if (s.names.has(n)) return true;
    return false;
  }
  /** Adds `n` unless this scope or an enclosing one has it; returns whether it was added. */
  claim(n: string): boolean {
    for (let s = this.parent; s; s = s.parent) if (s.names.has(n)) return false;
    return this.names.add(n);
  }
}

/** The name a location suggests: the innermost `NameLoc` reached through call sites and fusions. */
export function nameFromLoc(loc: Location): string | null {
  if (loc instanceof NameLoc) return loc.name;
  if (loc instanceof CallSiteLoc) return nameFromLoc(loc.callee) ?? nameFromLoc(loc.caller);
  if (loc instanceof FusedLoc) {
    for (const l of loc.locations) {
      const n = nameFromLoc(l);
      if (n) return n;
    }
  }
  return null;
}

/** Whether `name` is already a valid suffix-id (`[A-Za-z_$.-][\w$.-]*`), the common case. */
function isValidName(name: string): boolean {
  if (name.length === 0) return false;
  for (let k = 0; k < name.length; k++) {
    const c = name.charCodeAt(k);
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c === 46 || c === 45;
    if (!letter && !(k > 0 && c >= 48 && c <= 57)) return false;
  }
  return true;
}

/** Makes a name printable as an SSA suffix-id: invalid characters become `_`. */
function sanitize(name: string): string {
  if (isValidName(name)) return name;
  let s = name.replace(/[^\w$.\-]/g, '_');
  if (/^\d/.test(s) && !/^\d+$/.test(s)) s = '_' + s;
  return s;
}

/** Computes names for everything nested in `root` (root's own results are named too). */
export function computeNames(root: Operation): NameTable {
  const table: NameTable = { gen: ++generation, blocks: new Map(), headers: new Map() };
  const rootScope = new NameScope(null);
  const counters: Counters = { value: 0, arg: 0, conflict: 0 };
  nameOpResults(root, table, rootScope, counters);
  // Worklist of regions with the counters and scope captured when their parent region finished.
  const work: [Region, Counters, NameScope][] = [];
  const pushRegions = (op: Operation, c: Counters, scope: NameScope) => {
    for (let k = op.regions.length - 1; k >= 0; k--) {
      const isolated = op.hasTrait(IsolatedFromAbove);
      work.push([op.regions[k], isolated ? { value: 0, arg: 0, conflict: 0 } : { ...c }, isolated ? new NameScope(null) : scope]);
    }
  };
  pushRegions(root, counters, rootScope);
  while (work.length) {
    const [region, c, parentScope] = work.pop()!;
    let expected = 0;
    for (const b of region.blocks) expected += b.numOps + b.args.length;
    const scope = new NameScope(parentScope, expected);
    nameRegion(region, table, scope, c);
    for (const b of region.blocks) for (let op = b.first; op; op = op.next) if (op.regions.length) pushRegions(op, c, scope);
  }
  return table;
}

function uniqueName(base: string, scope: NameScope, c: Counters): string {
  if (scope.claim(base)) return base;
  for (;;) {
    const probe = `${base}_${c.conflict++}`;
    if (!scope.has(probe)) {
      scope.names.add(probe);
      return probe;
    }
  }
}

function nameRegion(region: Region, table: NameTable, scope: NameScope, c: Counters): void {
  let blockId = 0;
  for (const b of region.blocks) table.blocks.set(b, blockLabel(blockId++));
  region.blocks.forEach((b, k) => {
    for (const a of b.args) {
      const hint = a.nameHint ?? nameFromLoc(a.loc);
      // Entry-block arguments consume an `%argN` number even when named, as MLIR does.
      const argId = k === 0 ? c.arg++ : -1;
      let name: string;
      if (hint) name = uniqueName(sanitize(hint), scope, c);
      else if (k === 0) name = uniqueName(`arg${argId}`, scope, c);
      else {
        a.printName = numberedName(c.value++);
        a.printGen = table.gen;
        continue;
      }
      a.printName = '%' + name;
      a.printGen = table.gen;
    }
    for (let op = b.first; op; op = op.next) nameOpResults(op, table, scope, c);
  });
}

function nameOpResults(op: Operation, table: NameTable, scope: NameScope, c: Counters): void {
  const n = op.results.length;
  if (n === 0) return;
  if (n === 1) {
    // The common case, with the op's suggestion asked only when the result has no name of its own.
    const r = op.results[0];
    const hint = r.nameHint ?? (op.hasExplicitLoc ? nameFromLoc(op.loc) : null) ?? op.spec?.decl.resultNames?.(op)[0] ?? null;
    r.printName = hint ? '%' + uniqueName(sanitize(hint), scope, c) : numberedName(c.value++);
    r.printGen = table.gen;
    return;
  }
  const suggested = op.spec?.decl.resultNames?.(op);
  const locName = op.hasExplicitLoc ? nameFromLoc(op.loc) : null;
  let header = '';
  let k = 0;
  while (k < n) {
    // A group runs from a result with its own name to the next such result.
    let end = k + 1;
    while (end < n && !op.results[end].nameHint && !suggested?.[end]) end++;
    const first = op.results[k];
    const hint = first.nameHint ?? (k === 0 ? locName : null) ?? suggested?.[k] ?? null;
    const name = hint ? uniqueName(sanitize(hint), scope, c) : String(c.value++);
    const size = end - k;
    for (let j = k; j < end; j++) {
      const r = op.results[j];
      r.printName = size === 1 ? '%' + name : `%${name}#${j - k}`;
      r.printGen = table.gen;
    }
    header += (header ? ', ' : '') + (size === 1 ? '%' + name : `%${name}:${size}`);
    k = end;
  }
  table.headers.set(op, header + ' = ');
}

/** How many `%N` and `^bbN` spellings are kept (each isolated region numbers from 0 again). */
const SHARED_NUMBERS = 1024;
const numberedNames: string[] = [];
const blockLabels: string[] = [];

/**
 * `%N`, the same string for every region below `SHARED_NUMBERS`: 20,000 small functions then
 * share ten strings instead of keeping 200,000 (the printer's names live until it ends).
 */
function numberedName(n: number): string {
  if (n >= SHARED_NUMBERS) return '%' + n;
  return (numberedNames[n] ??= '%' + n);
}

/** `^bbN`, shared as `numberedName` shares `%N`. */
function blockLabel(n: number): string {
  if (n >= SHARED_NUMBERS) return '^bb' + n;
  return (blockLabels[n] ??= '^bb' + n);
}
