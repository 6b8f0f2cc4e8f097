/**
 * A descriptor store inside a loop stores through one tile kept for the whole loop, and waits for
 * the previous iteration's copy out only when it is about to write the tile again, so the copy
 * overlaps the next iteration's work (as Triton's TMA store pipelining does):
 *
 *   loop { ...; tt.descriptor_store %d[%x, %y], %v }
 *   -> %t = ttg.local_alloc : () -> !ttg.memdesc<.., mutable>
 *      loop { ...; ttng.async_tma_store_wait {pendings = 0}; gpu.barrier; ttg.local_store %v, %t;
 *             ttng.fence_async_shared; ttng.async_tma_copy_local_to_global %d[%x, %y] %t }
 *      ttng.async_tma_store_wait {pendings = 0}
 *
 * The loop is the outermost one around the store inside which the descriptor does not change: the
 * wait after it also keeps a descriptor made in an outer loop from being rewritten while a copy
 * through it is in flight. The barrier after the wait makes every thread's write of the tile come
 * after the issuing thread saw its copy read the tile.
 */
import type { Operation, Value } from '../../ir/ir.js';
import type { Rewriter } from '../../ir/rewriter.js';
import * as gpu from '../../dialects/gpu.js';
import * as scf from '../../dialects/scf.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';
import * as ttng from '../../dialects/ttng.js';
import { MemDescType } from '../../dialects/ttg/types.js';

/** The outermost `scf.for` / `scf.while` around `op` that `desc` is not defined in, or null. */
function reuseLoop(op: Operation, desc: Value): Operation | null {
  let found: Operation | null = null;
  for (let at = op.parentOp; at && !tt.FuncOp.is(at); at = at.parentOp) {
    if ((scf.ForOp.is(at) || scf.WhileOp.is(at)) && !at.regions.some((r) => r.isAncestorOfValue(desc))) found = at;
  }
  return found;
}

/**
 * Rewrites descriptor store or reduce `op` (through `desc`, its source `src`, its tile type `tile`,
 * its copy out made by `issue`) as above when a loop around it keeps its descriptor; returns false
 * (nothing changed) otherwise.
 */
export function storeThroughReusedTile(op: Operation, desc: Value, src: Value, tile: MemDescType, issue: (at: Rewriter, tile: Value) => void, rw: Rewriter): boolean {
  const loop = reuseLoop(op, desc);
  if (!loop) return false;
  const mutable = MemDescType.get(tile.shape, tile.elementType, tile.encoding, tile.memorySpace, true);
  const buffer = ttg.LocalAllocOp.build(rw.before(loop), {}, { results: { result: mutable } }).result;
  rw.before(op);
  ttng.AsyncTmaStoreWaitOp.build(rw, { pendings: 0 });
  gpu.BarrierOp.build(rw, {});
  ttg.LocalStoreOp.build(rw, { src, dst: buffer });
  ttng.FenceAsyncSharedOp.build(rw, { bCluster: false });
  issue(rw, buffer);
  ttng.AsyncTmaStoreWaitOp.build(rw.after(loop), { pendings: 0 });
  rw.eraseOp(op);
  return true;
}
