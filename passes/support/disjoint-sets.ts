/**
 * Disjoint sets (union-find with path compression) of ops or values: the components of
 * coalesce's slices and the webs of values that control flow carries (`region-carried.ts`).
 */

/** Disjoint sets of items; an item never added nor joined is a set of its own. */
export class DisjointSets<T> {
  private readonly parent = new Map<T, T>();

  /** Makes `x` a member (a set of its own, if it is new). */
  add(x: T): void {
    if (!this.parent.has(x)) this.parent.set(x, x);
  }

  /** Whether `x` was added (or joined a set). */
  has(x: T): boolean {
    return this.parent.has(x);
  }

  /** The members, in the order they were added. */
  members(): IterableIterator<T> {
    return this.parent.keys();
  }

  /** The representative of `x`'s set. */
  find(x: T): T {
    let r = x;
    for (let p = this.parent.get(r); p !== undefined && p !== r; p = this.parent.get(r)) r = p;
    for (let y = x; y !== r; ) {
      const next = this.parent.get(y)!;
      this.parent.set(y, r);
      y = next;
    }
    return r;
  }

  /** Joins the sets of `a` and `b`. */
  union(a: T, b: T): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(ra, rb);
  }
}
