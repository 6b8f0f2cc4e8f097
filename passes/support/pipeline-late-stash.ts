/**
 * The stores of a pipelined loop's invariant operands (attention's Q: `ttg.local_alloc %q` before
 * the loop) go after the pipeline's prologue. A thread's store of a loaded tile waits for the load's
 * data; placed before the prologue it holds back the prologue's copies (and, with TMA, the mbarrier
 * set-up and its barrier) for a global-memory round trip. After it, the copies are in flight while
 * the store waits, and the two latencies overlap.
 */
import type { Operation } from '../../ir/ir.js';
import type { Rewriter } from '../../ir/rewriter.js';
import * as ttg from '../../dialects/ttg/index.js';

/** Whether every use of `op`'s result is in `loop` (or nested in it) or after it in its block. */
function usedFromLoopOn(op: Operation, loop: Operation): boolean {
  return op.result(0).users().every((u) => {
    for (let x: Operation | null = u; x; x = x.parentOp) {
      if (x === loop) return true;
      if (x.parent === loop.parent) return loop.isBeforeInBlock(x);
    }
    return false;
  });
}

/**
 * Moves each `ttg.local_alloc %v` of `loop`'s block that comes before it and is read only from the
 * loop on to just before the loop (after the prologue the pipeline put there); returns how many moved.
 */
// %t = ttg.local_alloc %q ; prologue copies ; scf.for  ->  prologue copies ; %t = ttg.local_alloc %q ; scf.for
export function storeInvariantOperandsLate(loop: Operation, rw: Rewriter): number {
  const block = loop.parent;
  if (!block) return 0;
  let moved = 0;
  for (const op of block.ops) {
    if (op === loop) break;
    if (!ttg.LocalAllocOp.is(op) || op.numOperands !== 1 || !usedFromLoopOn(op, loop)) continue;
    rw.moveOpBefore(op, loop);
    moved++;
  }
  return moved;
}
