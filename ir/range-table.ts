/**
 * A hash table keyed by ranges of one source text (`text.slice(start, end)` without making
 * the string): the parser's SSA name scopes and op-name cache. Lookups hash the characters in
 * place, so resolving `%x` allocates nothing, and the table lives in typed arrays rather than
 * in a `Map` of strings (several times faster for the 100,000s of names of a large function).
 * A slot holds the key's hash, start, length and entry number side by side, so a probe reads
 * one cache line.
 *
 * Entries are removed in reverse order of insertion (`truncate`), which is what nested region
 * scopes need; removal shifts the following entries of a probe run back (no tombstones).
 */
export class RangeTable<V> {
  /** Per slot: hash, start, length, entry index + 1 (0: empty slot). */
  private slots: Int32Array;
  /** Per entry: its slot. */
  private slotOf: Int32Array;
  private readonly values: V[] = [];
  private count = 0;

  constructor(
    private readonly text: string,
    capacity = 64,
  ) {
    this.slots = new Int32Array(capacity * 2 * SLOT);
    this.slotOf = new Int32Array(capacity);
  }

  /** Number of entries. */
  get size(): number {
    return this.count;
  }

  /** The entry index of `text[start, end)`, or -1. */
  find(start: number, end: number): number {
    const slot = this.probe(start, end, hashRange(this.text, start, end));
    return slot < 0 ? -1 : this.slots[slot + 3] - 1;
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
    let slot = this.probe(start, end, h);
    if (slot >= 0) return false;
    if ((this.count + 1) * 2 * SLOT > this.slots.length) {
      this.grow();
      slot = this.probe(start, end, h);
    }
    slot = -1 - slot;
    const index = this.count++;
    const slots = this.slots;
    slots[slot] = h;
    slots[slot + 1] = start;
    slots[slot + 2] = end - start;
    slots[slot + 3] = index + 1;
    this.slotOf[index] = slot;
    this.values[index] = value;
    return true;
  }

  /** Removes every entry (keeping the capacity, for reuse). */
  clear(): void {
    if (this.count * 8 < this.slotOf.length) {
      this.truncate(0);
      return;
    }
    this.slots.fill(0);
    this.values.length = 0;
    this.count = 0;
  }

  /** Removes the entries added after the table had `size` entries (the latest first). */
  truncate(size: number): void {
    while (this.count > size) {
      const index = --this.count;
      this.removeSlot(this.slotOf[index]);
      this.values[index] = undefined as V;
    }
  }

  /** Empties `slot`, moving later entries of its probe run back so that every entry stays reachable. */
  private removeSlot(slot: number): void {
    const slots = this.slots;
    const mask = slots.length / SLOT - 1;
    let hole = slot / SLOT;
    for (let j = (hole + 1) & mask; slots[j * SLOT + 3] !== 0; j = (j + 1) & mask) {
      const home = slots[j * SLOT] & mask;
      // The entry at j stays when its home lies cyclically in (hole, j].
      const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (stays) continue;
      const from = j * SLOT;
      const to = hole * SLOT;
      slots[to] = slots[from];
      slots[to + 1] = slots[from + 1];
      slots[to + 2] = slots[from + 2];
      slots[to + 3] = slots[from + 3];
      this.slotOf[slots[to + 3] - 1] = to;
      hole = j;
    }
    slots[hole * SLOT + 3] = 0;
  }

  /** The slot (its first array index) holding the key, or -1 - the empty slot where it would go. */
  private probe(start: number, end: number, h: number): number {
    const slots = this.slots;
    const mask = slots.length / SLOT - 1;
    const len = end - start;
    const text = this.text;
    for (let k = h & mask; ; k = (k + 1) & mask) {
      const slot = k * SLOT;
      if (slots[slot + 3] === 0) return -1 - slot;
      if (slots[slot] !== h || slots[slot + 2] !== len) continue;
      const s = slots[slot + 1];
      let j = 0;
      while (j < len && text.charCodeAt(s + j) === text.charCodeAt(start + j)) j++;
      if (j === len) return slot;
    }
  }

  /** Doubles the capacity, reinserting entries in slot order (reads and writes mostly sequential). */
  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const slotOf = new Int32Array(this.slotOf.length * 2);
    const mask = slots.length / SLOT - 1;
    for (let from = 0; from < old.length; from += SLOT) {
      const entry = old[from + 3];
      if (entry === 0) continue;
      let k = old[from] & mask;
      while (slots[k * SLOT + 3] !== 0) k = (k + 1) & mask;
      const to = k * SLOT;
      slots[to] = old[from];
      slots[to + 1] = old[from + 1];
      slots[to + 2] = old[from + 2];
      slots[to + 3] = entry;
      slotOf[entry - 1] = to;
    }
    this.slots = slots;
    this.slotOf = slotOf;
  }
}

/** Int32s per slot. */
const SLOT = 4;

/** FNV-1a over the UTF-16 code units of `text[start, end)`. */
export function hashRange(text: string, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let k = start; k < end; k++) h = Math.imul(h ^ text.charCodeAt(k), 16777619);
  return h;
}
