/**
 * The mark version-alignment leaves on the `scf.if` whose two regions are alternative copies of one
 * kernel body (a specialized one and the original): only one runs, so analyses that group the ops
 * of a region op with the op (coalesce's slices) treat each region on its own.
 */
import { UnitAttr } from '../../ir/attributes.js';
import type { Operation, Region, ValueMapping } from '../../ir/ir.js';

/** The unit attribute on such an `scf.if`. */
export const VERSIONS = 'tir.versions';

/** Marks `ifOp` as holding alternative copies of one body. */
export function markVersions(ifOp: Operation): void {
  ifOp.setAttr(VERSIONS, UnitAttr.get());
}

/** Whether `op` is an `scf.if` holding alternative copies of one body. */
export function isVersions(op: Operation): boolean {
  return op.getAttr(VERSIONS) instanceof UnitAttr;
}

/**
 * The sum of `count` over the ops of `region` and of the regions nested in them, as one launch
 * runs them: of a versioned if's two copies, only the larger counts. Null as soon as `count` gives
 * null for some op (it cannot be counted).
 */
export function perLaunch(region: Region, count: (op: Operation) => number | null): number | null {
  let total = 0;
  for (const block of region.blocks) {
    for (const op of block) {
      const own = count(op);
      if (own === null) return null;
      const inner = op.regions.map((r) => perLaunch(r, count));
      if (inner.includes(null)) return null;
      const counts = inner as number[];
      total += own + (isVersions(op) ? Math.max(0, ...counts) : counts.reduce((a, b) => a + b, 0));
    }
  }
  return total;
}

/**
 * A clone of `op` (values mapped by `mapping`, which it extends), recording in `cloneOf` each op
 * of `op` and the ops nested in it with its clone: the two walks visit them in the same order.
 * For the passes that build a versioned if's copy and then rewrite chosen ops in it.
 */
export function cloneWithOpMap(op: Operation, mapping: ValueMapping, cloneOf: Map<Operation, Operation>): Operation {
  const copy = op.clone(mapping);
  const [from, to]: Operation[][] = [[], []];
  op.walk((o) => void from.push(o), 'pre');
  copy.walk((o) => void to.push(o), 'pre');
  from.forEach((o, k) => cloneOf.set(o, to[k]));
  return copy;
}
