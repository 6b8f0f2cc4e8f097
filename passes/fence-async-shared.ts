/**
 * `fence-async-shared` (Triton's triton-nvidia-gpu-fence-insertion): wgmma reads shared memory
 * through the async proxy, so a tile that threads wrote with ordinary stores (`ttg.local_alloc`
 * of a register tensor, `ttg.local_store`) must be published to that proxy first. A
 * `ttng.fence_async_shared` goes right after a `ttg.local_alloc` with a source that is its tile's
 * only writer (a tile stored before a loop is fenced once, outside it), and right before the
 * `ttng.warp_group_dot` when a `ttg.local_store` writes the tile (the barrier that makes the other
 * threads' stores visible comes from insert-barriers, which runs later and puts it before the dot). Operands filled by `cp.async` (the
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

/**
 * Where the fence for operand `v` goes, when threads write its tile with ordinary stores: right
 * after a `ttg.local_alloc` with a source that is the only writer (so a tile stored before a loop
 * is fenced once, before the loop), else right before `dot` (a `ttg.local_store` writes it).
 * Null when only async copies (or nothing) write it.
 */
function fencePoint(v: Value, dot: Operation): { after: Operation } | { before: Operation } | null {
  const root = viewedAlloc(v);
  const stack = [root];
  while (stack.length) {
    for (const u of stack.pop()!.users()) {
      if (ttg.LocalStoreOp.is(u)) return { before: dot };
      if (ttg.MemdescTransOp.is(u) || ttg.MemdescIndexOp.is(u)) stack.push(u.result(0));
    }
  }
  const alloc = ttg.LocalAllocOp.match(root.definingOp);
  return alloc?.src ? { after: alloc.op } : null;
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
    const fenced = new Set<Operation>();
    for (const op of dots) {
      const dot = ttng.WarpGroupDotOp.view(op);
      for (const v of [dot.a, dot.b]) {
        const at = v.type instanceof MemDescType ? fencePoint(v, op) : null;
        if (!at) continue;
        const anchor = 'after' in at ? at.after : at.before;
        const existing = 'after' in at ? anchor.next : anchor.prev;
        if (fenced.has(anchor) || ttng.FenceAsyncSharedOp.is(existing)) continue;
        fenced.add(anchor);
        // %s = ttg.local_alloc %t -> %s = ttg.local_alloc %t; ttng.fence_async_shared (or the fence right before the dot)
        const b = 'after' in at ? rw.after(anchor) : rw.before(anchor);
        // The fence is there for the dot: it carries the dot's location.
        ttng.FenceAsyncSharedOp.build(b, { bCluster: boolAttr(false) }, { loc: op.loc });
        ctx.bump('num-fences');
      }
    }
    if (!dots.length) ctx.preserve();
  },
};
