/**
 * `sink-past-loops`: moves a cheap index or pointer computation that only code after a loop uses
 * past that loop, next to its first user, so its registers are not held across the loop. Triton
 * kernels compute their output pointers at the top (attention's `O_ptrs`, a 128x64 pointer tensor)
 * and use them after their loops; lowered as written, those pointers stay live through the hot
 * loop, where ptxas already runs out of registers (sm_80 attention d64 causal: 255 registers and a
 * 4-byte spill without the pass, 255 and none with it).
 *
 * Not in the default pipeline: ptxas schedules the result differently, and that decides more than
 * the registers. Measured on an H200 (2026-11-27, every benchmark kernel whose PTX changed, time
 * without ÷ time with; bench/gpu/results/2026-11-27/s55-*): sm_90a attention 1.004-1.016, bmm f32
 * with 16-byte copies 1.021, layernorm with 8 warps 1.009-1.012, tf32 1.010; but sm_80 attention
 * d64 0.958-0.999 (the causal one without its spill too), the matmul with `break` 0.978-0.986 and
 * the sm_90a odd matmul 0.966-0.969. Run it with `--pipeline=...,sink-past-loops,...` after
 * software-pipeline where it pays.
 *
 * Only the ops of `SINKABLE` move: integer arithmetic, comparisons, selects, `tt.splat`,
 * `tt.broadcast`, `tt.expand_dims`, `tt.make_range` and `tt.addptr` (pure, and cheaper to recompute
 * than to keep). An op moves when every user is in its block after a loop (scf.for / scf.while, or
 * an op holding one) that comes first; it lands right before the first user's op in the block. Ops
 * are visited last to first, so a chain whose last op moved follows it. Nothing is duplicated: an
 * operand that code before the loop uses too stays where it is.
 */
import type { Block, Operation } from '../ir/ir.js';
import { LoopLike } from '../ir/traits.js';
import * as arith from '../dialects/arith.js';
import * as tt from '../dialects/tt/index.js';
import type { PassContext, PassDecl } from './pass.js';

/** The ops worth recomputing after a loop rather than keeping live across it. */
const SINKABLE: ReadonlySet<string> = new Set([
  arith.AddIOp.name, arith.SubIOp.name, arith.MulIOp.name, arith.AndIOp.name, arith.OrIOp.name, arith.XOrIOp.name,
  arith.ShLIOp.name, arith.ShRSIOp.name, arith.ShRUIOp.name, arith.ExtSIOp.name, arith.ExtUIOp.name, arith.TruncIOp.name,
  arith.CmpIOp.name, arith.SelectOp.name, arith.IndexCastOp.name,
  tt.SplatOp.name, tt.BroadcastOp.name, tt.ExpandDimsOp.name, tt.MakeRangeOp.name, tt.AddptrOp.name,
]);

/** Whether `op` is a loop or holds one. */
function holdsLoop(op: Operation): boolean {
  let found = false;
  op.walk((inner) => {
    if (inner.hasTrait(LoopLike)) found = true;
    return !found;
  }, 'pre');
  return found;
}

/** Where `op` should move: before the first user's op in its block, if a loop comes first; else null. */
function sinkTarget(op: Operation): Operation | null {
  const block = op.parent;
  if (!block || !SINKABLE.has(op.name) || op.numResults !== 1) return null;
  let first: Operation | null = null;
  for (const user of op.result(0).users()) {
    const at = block.findAncestorOpInBlock(user);
    if (!at || at === op) return null;
    if (!first || at.isBeforeInBlock(first)) first = at;
  }
  if (!first || first.isBeforeInBlock(op)) return null;
  for (let o = op.next; o && o !== first; o = o.next) if (holdsLoop(o)) return first;
  return null;
}

/** Sinks what it can in `block` and in the blocks nested in it. */
function sinkIn(block: Block, ctx: PassContext): void {
  const ops = [...block];
  for (const op of ops) for (const r of op.regions) for (const b of r.blocks) sinkIn(b, ctx);
  const rw = ctx.rewriter();
  for (let k = ops.length - 1; k >= 0; k--) {
    const target = sinkTarget(ops[k]);
    if (!target) continue;
    // %p = tt.addptr %b, %o; scf.for ...; tt.store %p  ->  scf.for ...; %p = tt.addptr %b, %o; tt.store %p
    rw.moveOpBefore(ops[k], target);
    ctx.bump('ops-sunk');
  }
}

function run(fn: Operation, ctx: PassContext): void {
  for (const r of fn.regions) for (const b of r.blocks) sinkIn(b, ctx);
}

/** The `sink-past-loops` pass (see the file comment). */
export const sinkPastLoops: PassDecl = {
  name: 'sink-past-loops',
  summary: 'Move cheap index and pointer computations used only after a loop past it, next to their first use',
  anchor: 'function',
  statistics: { 'ops-sunk': 'number of ops moved past a loop' },
  run,
};
