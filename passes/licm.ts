/**
 * `licm`: loop-invariant code motion. Moves side-effect-free ops out of `scf.for` bodies (and out
 * of both regions of `scf.while`) when every value they use, including values used inside their
 * own regions, is defined outside the loop. Loops are visited innermost first, so an op invariant
 * in several nested loops moves out of each in turn and lands before the outermost one.
 *
 * A `ttg.local_alloc` of an invariant value into an immutable buffer moves too (a loop-invariant
 * dot operand is staged in shared memory once); the `ttg.local_load`s reading it stay in the loop,
 * as Triton keeps them, so the operand's registers are not held across the whole loop.
 *
 * The loop may run zero times, so ops that could trap when executed speculatively (integer
 * division or remainder by a divisor not known to be safe) are not moved.
 */
import { IntegerAttr } from '../ir/attributes.js';
import type { Operation, Region } from '../ir/ir.js';
import { constantOf, isSideEffectFree } from '../ir/patterns.js';
import type { Rewriter } from '../ir/rewriter.js';
import type { PassContext, PassDecl } from './pass.js';
import { SymbolDef, Terminator } from '../ir/traits.js';
import * as arith from '../dialects/arith.js';
import * as scf from '../dialects/scf.js';
import { isPrivateStaging } from './support/staging.js';

const LOOPS: ReadonlySet<string> = new Set([scf.ForOp.name, scf.WhileOp.name]);
const SIGNED_DIV = [arith.DivSIOp, arith.CeilDivSIOp, arith.FloorDivSIOp, arith.RemSIOp];
const UNSIGNED_DIV = [arith.DivUIOp, arith.CeilDivUIOp, arith.RemUIOp];

/** Whether executing `op` when the loop would not have is harmless (no trap on a zero divisor). */
function isSpeculatable(op: Operation): boolean {
  const signed = SIGNED_DIV.find((def) => def.is(op));
  const div = (signed ?? UNSIGNED_DIV.find((def) => def.is(op)))?.view(op);
  if (!div) return true;
  const d = constantOf(div.rhs);
  if (!(d instanceof IntegerAttr) || d.value === 0n) return false;
  // INT_MIN / -1 overflows for signed division.
  return !(signed && d.value === -1n);
}

/** Whether `op` and everything nested in it use only values defined outside `loop`'s regions. */
function usesOnlyValuesFrom(op: Operation, loop: Operation): boolean {
  let ok = true;
  op.walk((inner) => {
    for (const o of inner.operands) {
      const v = o.value;
      if (!loop.regions.some((r) => r.isAncestorOfValue(v))) continue;
      // Values defined inside `op` itself are fine (they move with it).
      if (op.regions.some((r) => r.isAncestorOfValue(v))) continue;
      ok = false;
    }
    return ok;
  }, 'pre');
  return ok;
}

/** Whether `op` (inside `loop`) can be moved before `loop`. */
function canHoist(op: Operation, loop: Operation): boolean {
  if (op.hasTrait(Terminator) || op.hasTrait(SymbolDef)) return false;
  return (isSideEffectFree(op) || isPrivateStaging(op)) && isSpeculatable(op) && usesOnlyValuesFrom(op, loop);
}

/** Hoists the invariant ops of one loop region; returns how many moved. */
function hoistFrom(region: Region, loop: Operation, rw: Rewriter): number {
  if (region.blocks.length !== 1) return 0;
  let moved = 0;
  // In order, so an op whose operands were just hoisted is invariant too.
  for (let op = region.blocks[0].first; op; ) {
    const next = op.next;
    if (canHoist(op, loop)) {
      // scf.for ... { %x = arith.muli %a, %b ... } -> %x = arith.muli %a, %b; scf.for ... { ... }
      rw.moveOpBefore(op, loop);
      moved++;
    }
    op = next;
  }
  return moved;
}

/** Hoists out of every loop nested in `fn`, innermost loops first. */
function run(fn: Operation, ctx: PassContext): void {
  const rw = ctx.rewriter();
  const loops: Operation[] = [];
  fn.walk((op) => void (LOOPS.has(op.name) && op !== fn && loops.push(op)), 'post');
  for (const loop of loops) {
    for (const r of loop.regions) ctx.bump('num-hoisted', hoistFrom(r, loop, rw));
  }
}

/** The `licm` pass. */
export const licm: PassDecl = {
  name: 'licm',
  aliases: ['loop-invariant-code-motion'],
  summary: 'Hoist loop-invariant, side-effect-free operations out of loops',
  anchor: 'function',
  statistics: { 'num-hoisted': 'number of operations hoisted out of loops' },
  run,
};
