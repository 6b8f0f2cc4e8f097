/**
 * The upstream gpu dialect, as far as Triton's tt-level IR uses it: `gpu.barrier`, which Triton
 * emits for `tl.debug_barrier()` (Triton-C's `__debug_barrier()`).
 */
import type { DialectDecl } from '../ir/op-spec.js';

/** The gpu dialect table. */
export const gpuDialect: DialectDecl = {
  name: 'gpu',
  ops: [
    {
      name: 'gpu.barrier',
      summary: 'synchronizes all threads of a block (a workgroup barrier)',
      format: 'attr-dict',
    },
  ],
};
