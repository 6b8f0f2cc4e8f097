/**
 * Which ops only stage a value in shared memory: a `ttg.local_alloc` of a tensor into an immutable
 * buffer. Its effects (allocating and filling a buffer no other op writes) touch nothing else, so
 * passes may treat it as a value: licm hoists it out of loops, cse merges two of the same tensor.
 */
import type { Operation } from '../../ir/ir.js';
import * as ttg from '../../dialects/ttg/index.js';
import type { MemDescType } from '../../dialects/ttg/types.js';

/** Whether `op` is a `ttg.local_alloc` of a source tensor into an immutable buffer. */
export function isPrivateStaging(op: Operation): boolean {
  const alloc = ttg.LocalAllocOp.match(op);
  return !!alloc && !!alloc.src && !(alloc.result.type as MemDescType).mutable;
}
