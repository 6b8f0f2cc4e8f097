/**
 * Loop-carried addresses that advance by one loop-invariant step share one carried base, as LLVM's
 * loop strength reduction gives Triton: a loop whose header carries 64-bit registers p_0 ... p_n
 * (at least `MIN_SHARED` of them read), each advanced on the back edge by the same loop-invariant
 * register `d` (`add.s64 p_k, d`; an immediate `d` only where `MIN_SHARED` says), keeps only p_0;
 * every other p_k is `p_0 + (init_k - init_0)`, the difference computed once before the loop and
 * the sum right before each use. ptxas then gives each copy's address a register pair of its own
 * instead of rewriting one in place right behind the `cp.async` that reads it: the Hopper
 * pointer-form matmul runs 4-7% faster. An address advanced in a loop and never read (a vector's
 * elements after its first) is dropped with its increment.
 *
 * Works on the lowered CFG: the header's two predecessors are the preheader (`cf.br`) and the
 * latch (a `cf.br` back to it); the loop is the blocks that reach the latch without passing the
 * header. Returns how many carried registers were removed.
 */
import type { Block, Operation, Region, Value, BlockArgument } from '../../ir/ir.js';
import { Builder } from '../../ir/builder.js';
import { IntegerType } from '../../ir/types.js';
import { StringAttr } from '../../ir/attributes.js';
import { Pure } from '../../ir/traits.js';
import * as cf from '../../dialects/cf.js';
import * as nvptx from '../../dialects/nvptx.js';
import { PtxEmitter, plainOp, type Arch } from './emitter.js';
import { backEdges, loopBlocks } from './cfg.js';

/**
 * The fewest read addresses of one step that are rebuilt from a shared base. Measured on an H200
 * (2026-11-27, `bench/gpu/results/2026-11-27/s30-*` to `s33-*`): groups of 8 with a register step
 * (matmul's B, attention's K and V) gained 2-6%, groups of 2 (the seeds' f32 matmuls) lost 1-5%.
 * Immediate steps (matmul's A, +128 bytes an iteration) gained 1% in wgmma loops and lost 0.5-1% in
 * mma.sync loops, and the registers the base may add cost the seeds' bmm a CTA per SM (0.935), so
 * they share a base only in wgmma loops of kernels whose residency registers cannot lower.
 */
const MIN_SHARED = 4;

/** One carried address: its header argument and the back edge's `add.s64 arg, step`. */
interface Carried {
  arg: BlockArgument;
  increment: Operation;
  step: Value;
}

/** `nvptx.add`, whose `s64` form advances a loop-carried address. */
const ADD = plainOp('add');

/** `add.s64 a, b` (either order) with `arg` as one operand: the other, or null. */
function stepOf(op: Operation | null, arg: Value): Value | null {
  if (!op || !ADD.is(op) || op.numOperands !== 2) return null;
  const ptx = op.getAttr('ptx');
  if (!(ptx instanceof StringAttr) || (ptx.value !== 's64' && ptx.value !== 'u64')) return null;
  const [a, b] = op.operandValues();
  if (a === arg && b !== arg) return b;
  if (b === arg && a !== arg) return a;
  return null;
}

/**
 * Rewrites every loop of `region` (a lowered kernel body); `arch` builds the new instructions.
 * `registersFree`: registers cannot lower the kernel's CTAs per SM (`registersCanLimitResidency`).
 */
export function shareLoopBases(region: Region, arch: Arch, registersFree: boolean): number {
  let removed = 0;
  for (const { latch, br } of backEdges(region)) {
    const header = br.dest;
    const preds = header.predecessors();
    const entry = preds.find((b) => b !== latch);
    const enter = entry && cf.BrOp.match(entry.terminator);
    if (preds.length !== 2 || !entry || !enter || enter.dest !== header) continue;
    removed += rewriteLoop(header, latch, entry, arch, registersFree);
  }
  return removed;
}

/** Shares the bases of the loop `header` ... `latch` entered from `entry`; returns the carried registers removed. */
function rewriteLoop(header: Block, latch: Block, entry: Block, arch: Arch, registersFree: boolean): number {
  const blocks = loopBlocks(header, latch);
  // Immediate steps too in a loop of asynchronous warp-group MMAs (see MIN_SHARED).
  const immediateSteps = registersFree && [...blocks].some((b) => b.ops.some((op) => nvptx.WgmmaOp.is(op)));
  const inLoop = (v: Value): boolean => blocks.has(v.parentBlock!);
  const preheaderEnd = entry.terminator!;
  /** Moves the pure, region-free op defining `v` (and its in-loop operands) before the loop; false if it cannot. */
  const hoist = (v: Value): boolean => {
    if (!inLoop(v)) return true;
    const def = v.definingOp;
    if (!def || !def.hasTrait(Pure) || def.regions.length) return false;
    if (!def.operandValues().every(hoist)) return false;
    def.moveBefore(preheaderEnd);
    return true;
  };
  const backOperands = (): Value[] => latch.terminator!.operandValues();
  const carried: Carried[] = [];
  const back = backOperands();
  header.args.forEach((arg, j) => {
    if (!(arg.type instanceof IntegerType) || arg.type.width !== 64) return;
    const next = back[j];
    const increment = next.definingOp;
    const step = stepOf(increment, arg);
    if (!step || !increment || !next.hasOneUse || back.indexOf(next) !== j) return;
    carried.push({ arg, increment, step });
  });
  const read = (c: Carried): boolean => c.arg.users().some((u) => u !== c.increment);
  // An address advanced and never read goes. The rest are grouped by step (a register, hoisted
  // before the loop if it is computed in it); the first of a group is its base.
  const dropped = carried.filter((c) => !read(c));
  const groups = new Map<Value | string, Carried[]>();
  for (const c of carried) {
    const imm = c.step.definingOp && nvptx.ImmOp.is(c.step.definingOp) ? String(c.step.definingOp.getAttr('value')) : null;
    if (!read(c) || (imm !== null && !immediateSteps)) continue;
    const key = imm ?? c.step;
    const g = groups.get(key);
    if (g) g.push(c);
    else groups.set(key, [c]);
  }
  const em = new PtxEmitter(new Builder(), arch);
  const init = (c: Carried): Value => entry.terminator!.operand(c.arg.index);
  for (const [base, ...rest] of groups.values()) {
    if (rest.length + 1 < MIN_SHARED || !hoist(base.step)) continue;
    for (const c of rest) {
      // p_k -> p_0 + (init_k - init_0): the difference before the loop, the sum at each use
      em.b.before(preheaderEnd);
      const offset = em.sub(init(c), init(base));
      for (const use of [...c.arg.uses()]) {
        if (use.owner === c.increment) continue;
        em.b.before(use.owner);
        use.set(em.add(base.arg, offset));
      }
      dropped.push(c); // only its increment reads it now
    }
  }
  // A dropped address leaves the header, both branches and its increment (highest index first).
  const indices = dropped.map((c) => c.arg.index).sort((a, b) => b - a);
  for (const j of indices) {
    const increment = backOperands()[j].definingOp!;
    latch.terminator!.eraseOperand(j);
    entry.terminator!.eraseOperand(j);
    increment.erase();
    header.eraseArgument(j);
  }
  return dropped.length;
}
