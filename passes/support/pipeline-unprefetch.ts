/**
 * Undoes hand-written register prefetching so the pipeline pass can do it properly (the seeds'
 * "pre-fetching" kernels): a loop-carried tile that the body only stores to shared memory, whose
 * initial value is `tt.load %p0` and whose next value is `tt.load %pNext` where `%pNext` is what
 * the loop yields for pointer argument `%p` (initially `%p0`), always equals `tt.load %p` at the
 * top of the iteration. The load moves there and the prefetching load at the end of the body
 * goes (with the last iteration's read past the end); the carried tile then only yields itself
 * (canonicalize drops it) and its initial load before the loop reads one valid tile.
 */
import type { Operation, Value } from '../../ir/ir.js';
import type { Rewriter } from '../../ir/rewriter.js';

/** Whether load `op` has no mask or other operand (only plain loads are moved). */
const isPlainLoad = (op: Operation | null): op is Operation => !!op && op.name === 'tt.load' && op.numOperands === 1;

/** Same load attributes (cache, eviction, volatility) on both loads. */
function sameAttrs(a: Operation, b: Operation): boolean {
  return ['cache', 'evict', 'isVolatile'].every((k) => a.getAttr(k) === b.getAttr(k));
}

/** Rewrites every hand-prefetched tile of `loop`; returns how many moved. */
export function unprefetch(loop: Operation, rw: Rewriter): number {
  const body = loop.region(0).blocks[0];
  const yieldOp = body.terminator!;
  const n = loop.results.length;
  let moved = 0;
  for (let j = 0; j < n; j++) {
    const arg = body.args[j + 1];
    if (!arg.hasUses || loop.result(j).hasUses || !arg.users().every((u) => u.name === 'ttg.local_alloc' && u.parent === body)) continue;
    const init = loop.operand(3 + j).definingOp;
    const next = yieldOp.operand(j).definingOp;
    if (!isPlainLoad(init) || !isPlainLoad(next) || next.parent !== body || !sameAttrs(init, next)) continue;
    const k = pointerArgument(loop, init.operand(0), next.operand(0));
    if (k < 0) continue;
    // scf.for iter_args(%a = load %p0, %p = %p0) { use(%a); %p2 = ...; yield load %p2, %p2 } -> { %x = load %p; use(%x) ... }
    rw.setInsertionPointToStart(body);
    rw.loc = next.loc;
    const attrs = { ...(next.properties ?? {}), ...(next.attributes ?? {}) };
    const load = rw.create('tt.load', { operands: { ptr: body.args[k + 1] }, attrs, results: { result: arg.type } });
    arg.replaceAllUsesWith(load.result(0));
    // The carried tile is now unused: it yields itself and the prefetching load goes.
    yieldOp.setOperand(j, arg);
    if (!next.result(0).hasUses) rw.eraseOp(next);
    moved++;
  }
  return moved;
}

/** The pointer argument k whose initial value is `p0` and whose yielded value is `pNext`, or -1. */
function pointerArgument(loop: Operation, p0: Value, pNext: Value): number {
  const yieldOp = loop.region(0).blocks[0].terminator!;
  for (let k = 0; k < loop.results.length; k++) if (loop.operand(3 + k) === p0 && yieldOp.operand(k) === pNext) return k;
  return -1;
}
