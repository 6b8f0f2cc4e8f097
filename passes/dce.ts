/**
 * `dce`: dead code elimination. Erases trivially dead ops (results unused, no side effects; see
 * `isTriviallyDead`) until none is left: erasing an op may make the producers of its operands
 * dead, so those are revisited. Ops with regions go when everything inside is side-effect free
 * (a dead `scf.if`/`scf.for` of pure ops). Only ops are removed: unused block arguments (e.g.
 * dead `scf.for` iter_args) and unreachable blocks are left to other passes.
 */
import type { Operation } from '../ir/ir.js';
import { eraseDeadOps } from '../ir/patterns.js';
import type { PassDecl } from './pass.js';

/** The `dce` pass. */
export const dce: PassDecl = {
  name: 'dce',
  summary: 'Remove operations whose results are unused and that have no side effects',
  anchor: 'function',
  statistics: { 'num-dce': 'number of operations removed' },
  run(fn, ctx) {
    const rw = ctx.rewriter();
    // Pushed in pre-order and popped last-first: users (later ops, nested ops) come before their defs.
    const ops: Operation[] = [];
    for (const r of fn.regions) r.walk((op) => void ops.push(op), 'pre');
    eraseDeadOps(ops, (op) => {
      rw.eraseOp(op);
      ctx.bump('num-dce');
    });
  },
};
