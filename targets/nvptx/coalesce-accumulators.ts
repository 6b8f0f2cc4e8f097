/**
 * Loop-carried wgmma accumulators keep one register each across the back edge. A warp-group dot
 * left in flight at the end of an iteration (attention's P @ V) writes its accumulator
 * asynchronously; copying those registers into the loop's block arguments on the back edge would
 * read them before the product lands, and ptxas serializes the wgmma to make the copy safe. So the
 * value that reaches the back edge (through in-place wgmma results, down to the op that first
 * defines the registers, e.g. `acc * alpha`) takes the block argument's register, when the block
 * argument is dead from that definition on: then the edge copies nothing.
 *
 * Structured loops only need the latch block checked: every other block of the body runs before
 * it within an iteration, and the header and exit read the argument after the back edge wrote it.
 */
import type { Block, Operation, Region, Value } from '../../ir/ir.js';
import { BlockArgument } from '../../ir/ir.js';
import { backEdges } from './cfg.js';
import * as nvptx from '../../dialects/nvptx.js';

/** The value whose register `v` shares: through in-place wgmma results (an accumulator read only by its wgmma). */
function rootOf(v: Value): Value {
  for (;;) {
    const def = v.definingOp;
    const w = def && nvptx.WgmmaOp.match(def);
    if (!w) return v;
    const acc = w.acc[(w.dst as readonly Value[]).indexOf(v)];
    if (!acc || !acc.hasOneUse) return v;
    v = acc;
  }
}

/** Whether `v` is defined by a wgmma (directly): only accumulators are coalesced. */
const fromWgmma = (v: Value): boolean => !!v.definingOp && nvptx.WgmmaOp.is(v.definingOp);

/** Whether block argument `h` is read in `latch` after `def` (or by the branch `br`). */
function readAfter(h: BlockArgument, latch: Block, def: Operation, br: Operation): boolean {
  const order = new Map<Operation, number>();
  let i = 0;
  for (const op of latch) order.set(op, i++);
  const at = order.get(def)!;
  return h.users().some((u) => u === br || (u.parent === latch && order.get(u)! > at));
}

/**
 * For each back edge of `region` (a `cf.br` to an earlier block), the pairs (root value, block
 * argument) that may share a register; `alias` gives the root the argument's register.
 */
export function coalesceAccumulators(region: Region, alias: (v: Value, arg: BlockArgument) => void): number {
  const taken = new Set<Value>();
  let n = 0;
  for (const { latch, br } of backEdges(region)) {
    const operands = br.destOperands;
    operands.forEach((v, j) => {
      if (!fromWgmma(v) || operands.indexOf(v) !== j || operands.lastIndexOf(v) !== j) return;
      const root = rootOf(v);
      const h = br.dest.args[j];
      const def = root.definingOp;
      if (!def || def.parent !== latch || taken.has(root) || root instanceof BlockArgument) return;
      if (readAfter(h, latch, def, br.op)) return;
      taken.add(root);
      alias(root, h);
      n++;
    });
  }
  return n;
}
