/**
 * Loops of a lowered kernel's CFG. The lowering emits structured control flow as blocks in source
 * order, so a loop's back edge is a `cf.br` from its latch to a block that comes no later: its header.
 */
import type { Block, Region } from '../../ir/ir.js';
import type { View } from '../../ir/op-def.js';
import * as cf from '../../dialects/cf.js';

/** One back edge: the latch block and its `cf.br` to the loop header (`br.dest`). */
export interface BackEdge {
  latch: Block;
  br: View<typeof cf.BrOp.decl>;
}

/** The back edges of `region`, in block order. */
export function backEdges(region: Region): BackEdge[] {
  const index = new Map<Block, number>();
  region.blocks.forEach((b, k) => index.set(b, k));
  const out: BackEdge[] = [];
  for (const latch of region.blocks) {
    const br = cf.BrOp.match(latch.terminator);
    if (br && index.get(br.dest)! <= index.get(latch)!) out.push({ latch, br });
  }
  return out;
}

/** The natural loop of the back edge `latch -> header`: the blocks reaching the latch without passing the header. */
export function loopBlocks(header: Block, latch: Block): Set<Block> {
  const blocks = new Set<Block>([header]);
  const work = [latch];
  while (work.length) {
    const b = work.pop()!;
    if (blocks.has(b)) continue;
    blocks.add(b);
    work.push(...b.predecessors());
  }
  return blocks;
}
