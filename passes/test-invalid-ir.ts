/**
 * `test-invalid-ir`: a testing pass that breaks the IR on purpose (it erases each function's
 * terminator), so tests can check that `--verify-each` catches a pass producing invalid IR.
 */
import type { PassDecl } from './pass.js';
import { Terminator } from '../ir/traits.js';

/** Erases the terminator of every function body. */
export const testInvalidIr: PassDecl = {
  name: 'test-invalid-ir',
  summary: 'testing: erases function terminators (checks that invalid IR after a pass is reported)',
  anchor: 'function',
  run(fn, ctx) {
    const rw = ctx.rewriter();
    for (const b of fn.regions[0]?.blocks ?? []) if (b.last?.hasTrait(Terminator)) rw.eraseOp(b.last);
  },
};
