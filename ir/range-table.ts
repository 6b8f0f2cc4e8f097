/**
 * A hash table keyed by ranges of one source text (`text.slice(start, end)` without making
 * the string): the parser's SSA name scopes and op-name cache. Lookups hash the characters in
 * place, so resolving `%x` allocates nothing, and the table lives in typed arrays rather than
 * in a `Map` of strings (several times faster for the 100,000s of names of a large function).
 *
 * Entries can be removed only in reverse order of insertion (`truncate`), which is what nested
 * region scopes need; linear probing stays valid under that discipline.
 */
export class RangeTable<V> {
  /** Slot -> entry index + 1 (0 is an empty slot). */
  private slots: Int32Array;
  private hashes: Int32Array;
  private starts: Int32Array;
  private lengths: Int32Array;
  private readonly values: V[] = [];
  private count = 0;

  constructor(
    private readonly text: string,
    capacity = 64,
  ) {
    this.slots = new Int32Array(capacity * 2);
    this.hashes = new Int32Array(capacity);
    this.starts = new Int32Array(capacity);
    this.lengths = new Int32Array(capacity);
  }

  /** Number of entries. */
  get size(): number {
    return this.count;
  }

  /** The entry index of `text[start, end)`, or -1. */
  find(start: number, end: number): number {
    return this.probe(start, end, hashRange(this.text, start, end));
  }

  /** The value of entry `index` (from `find`). */
  valueAt(index: number): V {
    return this.values[index];
  }

  /** Replaces the value of entry `index`. */
  setValueAt(index: number, value: V): void {
    this.values[index] = value;
  }

  /** Adds `text[start, end)` -> `value`; returns false (changing nothing) when the key is present. */
  add(start: number, end: number, value: V): boolean {
    const h = hashRange(this.text, start, end);
    if (this.probe(start, end, h) >= 0) return false;
    if ((this.count + 1) * 2 > this.slots.length) this.grow();
    const index = this.count++;
    this.hashes[index] = h;
    this.starts[index] = start;
    this.lengths[index] = end - start;
    this.values[index] = value;
    const mask = this.slots.length - 1;
    let slot = h & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = index + 1;
    return true;
  }

  /** Removes the entries added after the table had `size` entries (the latest first). */
  truncate(size: number): void {
    const mask = this.slots.length - 1;
    while (this.count > size) {
      const index = --this.count;
      let slot = this.hashes[index] & mask;
      while (this.slots[slot] !== index + 1) slot = (slot + 1) & mask;
      this.slots[slot] = 0;
      this.values[index] = undefined as V;
    }
  }

  private probe(start: number, end: number, h: number): number {
    const slots = this.slots;
    const mask = slots.length - 1;
    const len = end - start;
    const text = this.text;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const e = slots[slot];
      if (e === 0) return -1;
      const index = e - 1;
      if (this.hashes[index] !== h || this.lengths[index] !== len) continue;
      const s = this.starts[index];
      let k = 0;
      while (k < len && text.charCodeAt(s + k) === text.charCodeAt(start + k)) k++;
      if (k === len) return index;
    }
  }

  /** Doubles the capacity, reinserting entries in insertion order (which keeps `truncate` valid). */
  private grow(): void {
    const cap = this.hashes.length * 2;
    const widen = (a: Int32Array): Int32Array => {
      const b = new Int32Array(cap);
      b.set(a);
      return b;
    };
    this.hashes = widen(this.hashes);
    this.starts = widen(this.starts);
    this.lengths = widen(this.lengths);
    const slots = new Int32Array(cap * 2);
    const mask = slots.length - 1;
    for (let index = 0; index < this.count; index++) {
      let slot = this.hashes[index] & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = index + 1;
    }
    this.slots = slots;
  }
}

/** FNV-1a over the UTF-16 code units of `text[start, end)`. */
export function hashRange(text: string, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let k = start; k < end; k++) h = Math.imul(h ^ text.charCodeAt(k), 16777619);
  return h;
}
