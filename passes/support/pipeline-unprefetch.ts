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
import type { View } from '../../ir/op-def.js';
import * as scf from '../../dialects/scf.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';

type LoadView = View<typeof tt.LoadOp.decl>;

/** `op` when it is a load without mask or other operand (only plain loads are moved), else null. */
function plainLoad(op: Operation | null): LoadView | null {
  const load = tt.LoadOp.match(op);
  return load && !load.mask && !load.other ? load : null;
}

/** Same load attributes (cache, eviction, volatility) on both loads. */
function sameAttrs(a: Operation, b: Operation): boolean {
  return ['cache', 'evict', 'isVolatile'].every((k) => a.getAttr(k) === b.getAttr(k));
}

/** Rewrites every hand-prefetched tile of `loop`; returns how many moved. */
export function unprefetch(forOp: Operation, rw: Rewriter): number {
  const loop = scf.ForOp.view(forOp);
  const body = loop.region.blocks[0];
  const yieldOp = scf.YieldOp.view(body.terminator!);
  const inits = loop.initArgs;
  const yielded = yieldOp.results;
  const n = forOp.results.length;
  let moved = 0;
  for (let j = 0; j < n; j++) {
    const arg = body.args[j + 1];
    if (!arg.hasUses || forOp.result(j).hasUses || !arg.users().every((u) => ttg.LocalAllocOp.is(u) && u.parent === body)) continue;
    const init = plainLoad(inits[j].definingOp);
    const next = plainLoad(yielded[j].definingOp);
    if (!init || !next || next.op.parent !== body || !sameAttrs(init.op, next.op)) continue;
    const k = pointerArgument(inits, yielded, init.ptr, next.ptr);
    if (k < 0) continue;
    // scf.for iter_args(%a = load %p0, %p = %p0) { use(%a); %p2 = ...; yield load %p2, %p2 } -> { %x = load %p; use(%x) ... }
    rw.setInsertionPointToStart(body);
    rw.loc = next.op.loc;
    const attrs = { ...(next.op.properties ?? {}), ...(next.op.attributes ?? {}) };
    // (not tt.LoadOp.build: tt's memAttrs() declares the cache/evict names as plain strings, so its fields do not type-check)
    const load = rw.create(tt.LoadOp.name, { operands: { ptr: body.args[k + 1] }, attrs, results: { result: arg.type } });
    arg.replaceAllUsesWith(load.result(0));
    // The carried tile is now unused: it yields itself and the prefetching load goes.
    yieldOp.op.setOperand(j, arg);
    if (!next.result.hasUses) rw.eraseOp(next.op);
    moved++;
  }
  return moved;
}

/** The pointer argument k whose initial value is `p0` and whose yielded value is `pNext`, or -1. */
function pointerArgument(inits: readonly Value[], yielded: readonly Value[], p0: Value, pNext: Value): number {
  for (let k = 0; k < inits.length; k++) if (inits[k] === p0 && yielded[k] === pNext) return k;
  return -1;
}
