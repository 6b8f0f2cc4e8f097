/**
 * The mark version-alignment leaves on the `scf.if` whose two regions are alternative copies of one
 * kernel body (a specialized one and the original): only one runs, so analyses that group the ops
 * of a region op with the op (coalesce's slices) treat each region on its own.
 */
import { UnitAttr } from '../../ir/attributes.js';
import type { Operation } from '../../ir/ir.js';

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
