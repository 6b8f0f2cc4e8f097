/**
 * The Triton `tt` dialect (Triton 3.6): its op table and its types `!tt.ptr` and `!tt.tensordesc`.
 */
import type { DialectDecl } from '../../ir/op-spec.js';
import { ttComputeOps } from './ops-compute.js';
import { ttMemoryOps } from './ops-memory.js';
import { ttCoreOps } from './ops.js';
import { PointerType, TensorDescType } from './types.js';
import { verifyTTAttribute } from './hints.js';

/** The tt dialect table. Every op gets Triton's `TT_Op` base checks (tensor sizes). */
export const ttDialect: DialectDecl = {
  name: 'tt',
  summary: 'Triton IR: the target-independent tile language',
  ops: [...ttCoreOps, ...ttMemoryOps, ...ttComputeOps],
  types: {
    ptr: (p) => PointerType.parseBody(p),
    tensordesc: (p) => TensorDescType.parseBody(p),
  },
  verifyAttribute: verifyTTAttribute,
};

/** The op definitions (`tt.DotOp`, `tt.LoadOp`...): `import * as tt from 'dialects/tt/index.js'`. */
export * from './ops.js';
export * from './ops-memory.js';
export * from './ops-compute.js';
export { TENSORMAP_ATTR, UNBOUNDED, UNBOUNDED_EXTENT, unboundedExtent, tensormapAttr, tensormapOf, verifyTensormapArgs, type HostTensormap, type TensormapTerm, termParams, termValue } from './tensormap-arg.js';

/** The dialect's type classes, re-exported for convenience. */
export { PointerType, TensorDescType };
