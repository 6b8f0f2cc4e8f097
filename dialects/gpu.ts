/**
 * The upstream gpu dialect, as far as Triton's tt-level IR uses it: `gpu.barrier`, which Triton
 * emits for `tl.debug_barrier()` (Triton-C's `__debug_barrier()`).
 */
import type { DialectDecl } from '../ir/op-spec.js';
import { defineOp } from '../ir/op-def.js';

/** `gpu.barrier`: synchronizes all threads of a block (a workgroup barrier). */
export const BarrierOp = defineOp({
  name: 'gpu.barrier',
  summary: 'synchronizes all threads of a block (a workgroup barrier)',
  format: 'attr-dict',
});

/** The gpu dialect table. */
export const gpuDialect: DialectDecl = {
  name: 'gpu',
  summary: 'the workgroup barrier of the upstream MLIR gpu dialect',
  ops: [
    BarrierOp,
  ],
};
