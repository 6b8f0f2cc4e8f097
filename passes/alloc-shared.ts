/**
 * `alloc-shared` (Triton's `allocate-shared-memory`): packs every shared-memory buffer of each
 * function — `ttg.local_alloc` buffers and the scratch of ops that exchange data through shared
 * memory (convert_layout, cross-warp reduce / scan, scalar atomics) — into one block, reusing
 * memory between buffers whose lifetimes do not overlap (rules: alloc-shared-core.ts). Writes
 * `allocation.offset = N : i32` on each buffer's op and `ttg.shared = TOTAL : i32` on the module
 * (the largest function's total).
 */
import { IntegerAttr } from '../ir/attributes.js';
import { IntegerType } from '../ir/types.js';
import { allocateModule } from './support/alloc-shared-core.js';
import type { PassDecl } from './pass.js';

/** Assigns shared-memory offsets (`allocation.offset`) and the module's `ttg.shared` size. */
export const allocShared: PassDecl = {
  name: 'alloc-shared',
  aliases: ['allocate-shared-memory'],
  summary: 'assign shared-memory offsets to local_alloc buffers and scratch (allocation.offset, ttg.shared)',
  anchor: 'module',
  statistics: {
    'explicit-buffers': 'local_alloc buffers placed',
    'scratch-buffers': 'op scratch buffers placed',
  },
  run(module, ctx) {
    const i32 = IntegerType.get(32);
    const { functions, total } = allocateModule(module);
    for (const f of functions) {
      for (const b of f.buffers) {
        b.owner.setAttr('allocation.offset', IntegerAttr.get(b.offset, i32));
        ctx.bump(b.kind === 'explicit' ? 'explicit-buffers' : 'scratch-buffers');
      }
    }
    module.setAttr('ttg.shared', IntegerAttr.get(total, i32));
  },
};
