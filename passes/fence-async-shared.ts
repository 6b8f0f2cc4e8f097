/**
 * `fence-async-shared` (Triton's triton-nvidia-gpu-fence-insertion): wgmma reads shared memory
 * through the async proxy, so a tile that threads wrote with ordinary stores (`ttg.local_alloc`
 * of a register tensor, `ttg.local_store`) must be published to that proxy first. A
 * `ttng.fence_async_shared` is placed before each `ttng.warp_group_dot` with such an operand
 * (the barrier that makes the other threads' stores visible comes from insert-barriers, which
 * runs later and puts it between the fence and the dot). Operands filled by `cp.async` (the
 * pipeline's copies) need no fence, as in Triton.
 */
import type { Operation, Value } from '../ir/ir.js';
import { boolAttr } from '../ir/attributes.js';
import { MemDescType } from '../dialects/ttg/types.js';
import * as ttg from '../dialects/ttg/index.js';
import * as ttng from '../dialects/ttng.js';
import type { PassDecl } from './pass.js';

/** The memdesc `v` is a view of (through memdesc_trans / memdesc_index). */
function viewedAlloc(v: Value): Value {
  for (;;) {
    const def = v.definingOp;
    const trans = ttg.MemdescTransOp.match(def);
    const index = ttg.MemdescIndexOp.match(def);
    if (trans) v = trans.src;
    else if (index) v = index.src;
    else return v;
  }
}

/** Whether threads write the tile behind `v` with ordinary stores (a local_alloc with a source, or a local_store into it). */
function writtenByThreads(v: Value): boolean {
  const root = viewedAlloc(v);
  if (ttg.LocalAllocOp.match(root.definingOp)?.src) return true;
  const stack = [root];
  while (stack.length) {
    for (const u of stack.pop()!.users()) {
      if (ttg.LocalStoreOp.is(u)) return true;
      if (ttg.MemdescTransOp.is(u) || ttg.MemdescIndexOp.is(u)) stack.push(u.result(0));
    }
  }
  return false;
}

/** The `fence-async-shared` pass. */
export const fenceAsyncShared: PassDecl = {
  name: 'fence-async-shared',
  aliases: ['triton-nvidia-gpu-fence-insertion'],
  summary: 'Insert ttng.fence_async_shared before warp-group dots reading shared tiles written by ordinary stores',
  anchor: 'function',
  statistics: { 'num-fences': 'number of ttng.fence_async_shared ops inserted' },
  run(fn, ctx) {
    const dots: Operation[] = [];
    fn.walk((op) => void (ttng.WarpGroupDotOp.is(op) && dots.push(op)), 'pre');
    const rw = ctx.rewriter();
    for (const op of dots) {
      const dot = ttng.WarpGroupDotOp.view(op);
      if (ttng.FenceAsyncSharedOp.is(op.prev)) continue;
      if (![dot.a, dot.b].some((v) => v.type instanceof MemDescType && writtenByThreads(v))) continue;
      // ttng.warp_group_dot (local_alloc %t) -> ttng.fence_async_shared; ttng.warp_group_dot (local_alloc %t)
      ttng.FenceAsyncSharedOp.build(rw.before(op), { bCluster: boolAttr(false) });
      ctx.bump('num-fences');
    }
    if (!dots.length) ctx.preserve();
  },
};
