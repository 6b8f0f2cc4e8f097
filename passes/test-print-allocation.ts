/**
 * `test-print-allocation`: a testing pass that runs the shared-memory allocation of `alloc-shared`
 * without changing the IR and reports it as remarks, for `--verify-diagnostics`:
 *  - at each local_alloc: `offset = N, size = S`;
 *  - at each op with scratch: `scratch offset = N, size = S`;
 *  - at each function: `size = TOTAL` (its own need);
 *  - at the module: `ttg.shared = TOTAL` (the largest function's).
 */
import { allocateModule } from './support/alloc-shared-core.js';
import type { PassDecl } from './pass.js';

/** Emits the shared-memory allocation (offsets, sizes, totals) as remarks. */
export const testPrintAllocation: PassDecl = {
  name: 'test-print-allocation',
  summary: 'testing: print the shared-memory allocation (offsets, sizes, totals) as remarks',
  anchor: 'module',
  run(module, ctx) {
    const { functions, total } = allocateModule(module);
    for (const f of functions) {
      for (const b of f.buffers) {
        const prefix = b.kind === 'scratch' ? 'scratch ' : '';
        ctx.remark(b.owner, `${prefix}offset = ${b.offset}, size = ${b.size}`);
      }
      ctx.remark(f.func, `size = ${f.total}`);
    }
    ctx.remark(module, `ttg.shared = ${total}`);
    ctx.preserve();
  },
};
