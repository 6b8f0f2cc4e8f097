/**
 * Insertion helpers for the typed builders: `tt.DotOp.build(before(rw, dot), { a, b, c })`
 * creates before `dot` with `dot`'s location, as `Rewriter.createBefore` does for op names.
 */
import type { Builder } from '../../ir/builder.js';
import type { Operation } from '../../ir/ir.js';

/** `b` set to create right before `op`, with `op`'s location for what it creates (and creates next). */
export function before<B extends Builder>(b: B, op: Operation): B {
  b.setInsertionPoint(op);
  b.loc = op.loc;
  return b;
}
