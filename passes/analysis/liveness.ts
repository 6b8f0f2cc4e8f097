/**
 * Program-order liveness for shared-memory allocation (Triton's Allocation.cpp `resolveLiveness`):
 * every op gets a post-order id, so a region-holding op (scf.for, scf.if ...) gets an id larger than
 * every op nested in it. A value's live interval is [first id, last id + 1) over its defining op
 * and its users, where a user nested in a loop (or any region op) that does not contain the
 * definition counts as that region op: a buffer used inside an scf.for lives across the whole loop.
 */
import type { Operation, Value } from '../../ir/ir.js';

/** A half-open interval [start, end) of op ids. */
export interface Interval {
  start: number;
  end: number;
}

/** Whether two half-open intervals share an id. */
export function intersects(a: Interval, b: Interval): boolean {
  return a.start < b.end && b.start < a.end;
}

/** Post-order op ids under a root op, and live intervals of values. */
export class ProgramOrder {
  /** Post-order id of every op under (and including) the root. */
  readonly ids = new Map<Operation, number>();

  constructor(readonly root: Operation) {
    root.walk((op) => {
      this.ids.set(op, this.ids.size);
    }, 'post');
  }

  /** The post-order id of `op` (throws for ops outside the root). */
  id(op: Operation): number {
    const n = this.ids.get(op);
    if (n === undefined) throw new Error(`op ${op.name} is not under the analysed root`);
    return n;
  }

  /** The interval of the op itself: [id, id + 1). */
  opInterval(op: Operation): Interval {
    const n = this.id(op);
    return { start: n, end: n + 1 };
  }

  /**
   * The op standing for a use of a value defined in `defRegionOwner`'s scope: the outermost
   * ancestor of `user` below the op whose region holds the definition (the user itself when they
   * share a block).
   */
  private representative(user: Operation, defScope: Operation | null): Operation {
    let rep = user;
    for (let p = user.parentOp; p && p !== defScope; p = p.parentOp) rep = p;
    return rep;
  }

  /** The live interval of `value` (an op result or block argument), loop-aware. */
  valueInterval(value: Value): Interval {
    const def = value.definingOp;
    const scope = def ? def.parentOp : value.parentBlock?.parentOp ?? null;
    let start = def ? this.id(def) : Number.MAX_SAFE_INTEGER;
    let end = def ? this.id(def) + 1 : 0;
    for (const user of value.users()) {
      const rep = this.representative(user, scope);
      const n = this.id(rep);
      // A region op's span starts at its first nested op.
      start = Math.min(start, this.firstId(rep));
      end = Math.max(end, n + 1);
    }
    if (!def && start === Number.MAX_SAFE_INTEGER) start = end;
    return { start, end };
  }

  /** The smallest id in the subtree of `op` (its own id when it has no nested ops). */
  firstId(op: Operation): number {
    let min = this.id(op);
    for (const r of op.regions) for (const b of r.blocks) for (const o of b.ops) min = Math.min(min, this.firstId(o));
    return min;
  }
}
