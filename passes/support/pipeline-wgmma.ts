/**
 * Warp-group dots in a pipelined loop (Triton's MMAv3 pipelining): each `ttng.warp_group_dot`
 * of the loop body becomes asynchronous, and how long it stays in flight depends on its result:
 *  - one that only accumulates (its result goes only to the yield, and the carried value only to
 *    its accumulator: a matmul) waits with `pendings = 1` right after it: its wgmma group stays in
 *    flight while the next iterations' copies are issued and the next group is queued;
 *  - one whose result goes only to the yield but whose accumulator is computed in the loop
 *    (attention's `acc * alpha` before P @ V) is not waited for in its iteration at all: the next
 *    iteration waits (`pendings = 0`) right before the first op that reads the carried value, so
 *    the product overlaps the start of the next iteration (its copies' wait, the next Q @ K^T);
 *  - any other waits with `pendings = 0` right after it, as does one reading a tile the loop
 *    stores anew each iteration (a `ttg.local_alloc` of registers: an fp8 tile widened after its load).
 * A dot left in flight past its iteration is retired after the loop by a `pendings = 0` wait, and
 * still reads its buffer slot while the next copies land, so such a loop needs one buffer slot more
 * than the copies ahead (the pipeline asks `inFlightDots` first).
 */
import type { Block, Operation, Value } from '../../ir/ir.js';
import { BlockArgument } from '../../ir/ir.js';
import type { Rewriter } from '../../ir/rewriter.js';
import { boolAttr } from '../../ir/attributes.js';
import * as scf from '../../dialects/scf.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';
import * as ttng from '../../dialects/ttng.js';

/** How a warp-group dot of a pipelined loop is waited for (see the file comment). */
type Overlap = 'accumulates' | 'carried' | 'none';

/**
 * Whether operand `v` is a tile that `body` stores anew every iteration (a `ttg.local_alloc` of a
 * computed register value, possibly seen through views): the next iteration overwrites it, so a
 * dot reading it cannot stay in flight. A stashed load is not one: the pipeline turns it into a
 * slot, refilled only once no dot reads it.
 */
function storedEachIteration(v: Value, body: Block): boolean {
  let d = v.definingOp;
  while (d && ttg.MemdescTransOp.is(d)) d = d.operand(0).definingOp;
  if (!d || d.parent !== body || !ttg.LocalAllocOp.is(d) || d.numOperands === 0) return false;
  const src = d.operand(0).definingOp;
  return !(tt.LoadOp.is(src) || tt.DescriptorLoadOp.is(src));
}

/** How warp_group_dot `op` (directly in loop body `body`) is waited for. */
function overlapOf(op: Operation, body: Block): Overlap {
  const dot = ttng.WarpGroupDotOp.view(op);
  const yieldOp = body.terminator;
  if (!yieldOp || !dot.d.hasOneUse || dot.d.users()[0] !== yieldOp) return 'none';
  if (storedEachIteration(dot.a, body) || storedEachIteration(dot.b, body)) return 'none';
  const k = yieldOp.operandValues().indexOf(dot.d);
  const c: Value = dot.c;
  if (c instanceof BlockArgument && c.owner === body && c.index === k + 1 && c.hasOneUse) return 'accumulates';
  return 'carried';
}

/** The warp_group_dots directly in `body` that stay in flight past their iteration's copies. */
export function inFlightDots(body: Block): Operation[] {
  return body.ops.filter((op) => ttng.WarpGroupDotOp.is(op) && overlapOf(op, body) !== 'none');
}

/** The first op of `body` (in block order) that reads `v`, directly or in a nested region. */
function firstReader(v: Value, body: Block): Operation | null {
  const readers = new Set(v.users().map((u) => body.findAncestorOpInBlock(u)));
  for (const op of body.ops) if (readers.has(op)) return op;
  return null;
}

/** `%r = ttng.warp_group_dot_wait %v {pendings = 0}` before `at`; the uses of `v` other than `keep` read `%r`. */
function waitBefore(rw: Rewriter, at: Operation, v: Value, keep?: (op: Operation) => boolean): void {
  const wait = ttng.WarpGroupDotWaitOp.build(rw.before(at), { inputs: [v], pendings: 0 }, { results: { outputs: [v.type] } });
  v.replaceUsesWithIf(wait.outputs[0], (use) => use.owner !== wait.op && !keep?.(use.owner));
}

/**
 * Makes every warp_group_dot directly in `loop`'s body asynchronous, with its waits (see the file
 * comment); returns how many stay in flight past their iteration's copies.
 */
// %d = ttng.warp_group_dot %a, %b, %c -> %d = ttng.warp_group_dot %a, %b, %c {isAsync = true}; %w:3 = ttng.warp_group_dot_wait %d, %a, %b {pendings}
export function overlapWarpGroupDots(loop: Operation, rw: Rewriter): number {
  const body = scf.ForOp.view(loop).region.blocks[0];
  let inFlight = 0;
  for (const op of body.ops.filter((o) => ttng.WarpGroupDotOp.is(o))) {
    const dot = ttng.WarpGroupDotOp.view(op);
    const overlap = overlapOf(op, body);
    rw.modifyInPlace(op, () => op.setAttr('isAsync', boolAttr(true)));
    const k = body.terminator!.operandValues().indexOf(dot.d);
    if (overlap === 'carried') {
      // ... iter_args(%acc = ...) { %x = f(%acc) ... } -> { %w = ttng.warp_group_dot_wait %acc {pendings = 0}; %x = f(%w) ... }
      const carried = body.args[k + 1];
      const reader = firstReader(carried, body);
      if (reader) waitBefore(rw, reader, carried);
    } else {
      const inputs = [dot.d, dot.a, dot.b];
      const pendings = overlap === 'accumulates' ? 1 : 0;
      const wait = ttng.WarpGroupDotWaitOp.build(rw.setInsertionPointAfter(op), { inputs, pendings }, { results: { outputs: inputs.map((v) => v.type) } });
      dot.d.replaceUsesWithIf(wait.outputs[0], (use) => use.owner !== wait.op);
      if (overlap === 'none') continue;
    }
    inFlight++;
    // scf.for ... yield %d -> scf.for; %r = ttng.warp_group_dot_wait %for#k {pendings = 0}
    const result = loop.result(k);
    if (result.hasUses) waitBefore(rw, loop.next!, result);
  }
  return inFlight;
}
