/**
 * `pipeline{num-stages=S}`: software pipelining of the loads that feed a dot inside `scf.for`
 * (Triton's SM80 loop pipeliner, our own code). With D = S-1:
 *  - each pipelined load (passes/support/pipeline-analysis.ts says which, and when it is safe) gets
 *    a mutable D-slot shared buffer (`ttg.local_alloc : () -> !ttg.memdesc<Dx...>`) before the
 *    loop, freed after it behind `ttg.async_wait {num = 0}`;
 *  - prologue: for j = 0..D-1, the stage-0 slice of iteration j (iv = lb + j*step, carried values
 *    advanced through the yield's computation) and one `ttg.async_copy_global_to_local` per load
 *    into slot j, masked by the load's mask and (lb + j*step < ub), each in its own commit group;
 *  - body: `ttg.async_wait` on the oldest groups (num = (D-1) * loads), the dot operands read from
 *    the read slot (`ttg.memdesc_index` + `ttg.local_load ... token`); at the end, the stage-0
 *    slice of iteration i+D (the loop carries its pointers) and its copies into the write slot,
 *    masked by (iv + D*step < ub). Read/write slots are i32 counters wrapping at D (addi, cmpi sge,
 *    select), tokens are carried as `!ttg.async.token`s, oldest first;
 *  - a carried value whose current-iteration form nothing needs any more (e.g. the pointers) is
 *    replaced by its ahead form; results used after the loop keep their meaning;
 *  - a `ttng.warp_group_dot` of the loop becomes asynchronous with a `ttng.warp_group_dot_wait`;
 *    one that only accumulates stays in flight into the next iteration, and its buffers get a
 *    slot more (support/pipeline-wgmma.ts);
 *  - a descriptor load (sm_90) is copied by TMA instead, with no commit group or token: one
 *    mbarrier per slot, armed with the bytes of the stage's copies and waited on with the read
 *    slot's phase, which the loop carries (support/pipeline-tma.ts).
 * A loop with candidate loads that is unsafe to pipeline is left alone with a remark.
 */
import { unprefetch } from './support/pipeline-unprefetch.js';
import { rematerializeLoopPointers } from './support/loop-pointers.js';
import { dropInvariantIterArgs } from '../dialects/scf-canonicalize.js';
import { ValueMapping, type Operation, type Value } from '../ir/ir.js';
import { i } from '../ir/types.js';
import { AsyncTokenType } from '../dialects/ttg/types.js';
import { AxisInfoAnalysis, getAxisInfo } from './analysis/axis-info.js';
import { RankedTensorType } from '../ir/types.js';
import { isDistributed } from '../dialects/ttg/layout-attrs.js';
import { layoutOrder } from '../dialects/ttg/layout-lib.js';
import { vectorElems } from './coalesce.js';
import { pointeeBits } from './support/coalesce-access.js';
import { type LoopPlan, planLoop } from './support/pipeline-analysis.js';
import { IntEmitter, bufferType, copyBytes, copyContiguity, issueCopy, slot, readViewsFromSlot, stashThroughShared } from './support/pipeline-emit.js';
import { type TmaLoads, allocBarriers, issueTmaStage, releaseBarriers, waitForSlot } from './support/pipeline-tma.js';
import { hasTarget, targetOf } from '../dialects/ttg/target.js';
import * as scf from '../dialects/scf.js';
import * as tt from '../dialects/tt/index.js';
import * as ttg from '../dialects/ttg/index.js';
import * as ttng from '../dialects/ttng.js';
import { storeInvariantOperandsLate } from './support/pipeline-late-stash.js';
import type { PassContext, PassDecl } from './pass.js';
import type { Rewriter } from '../ir/rewriter.js';
import { inFlightDots, overlapWarpGroupDots } from './support/pipeline-wgmma.js';
import { SPARE_POLICIES, type SparePolicy, takesSpareSlot } from './support/pipeline-spare-slot.js';

/** The loop after the prologue: its new init values and the buffers. */
interface Prologue {
  /** Per load of the plan, its multi-slot buffer. */
  bufs: Value[];
  /** The indices (in the plan's loads) of the cp.async loads. */
  cp: number[];
  /** The descriptor loads, copied by TMA on the slots' mbarriers (null without any). */
  tma: TmaLoads | null;
  /** The carried values at iteration D (the ahead iter args' inits). */
  ahead: Value[];
  /** Per cp.async load, the commit tokens of iterations 0..D-1. */
  tokens: Value[][];
}

/** Maps the loop's iv to `iv` and its carried block args to `carriedVals`. */
function stageMapping(plan: LoopPlan, iv: Value, carriedVals: readonly Value[]): ValueMapping {
  const body = plan.body;
  const m = new ValueMapping();
  m.map(body.args[0], iv);
  plan.carried.forEach((k, n) => m.map(body.args[k + 1], carriedVals[n]));
  return m;
}

/** Clones the stage-0 slice under `m` at the insertion point; returns the carried values' next values. */
function cloneStage(e: IntEmitter, plan: LoopPlan, m: ValueMapping): Value[] {
  for (const op of plan.slice) e.rw.insert(op.clone(m));
  const yielded = scf.YieldOp.view(plan.body.terminator!).results;
  return plan.carried.map((k) => m.lookupOrDefault(yielded[k]));
}

/** Emits the buffers and the prologue before the loop. */
function emitPrologue(e: IntEmitter, plan: LoopPlan, d: number, slots: number, contig: number[]): Prologue {
  const { loads } = plan;
  const cp = loads.flatMap((l, n) => (l.tma ? [] : [n]));
  const loop = scf.ForOp.view(plan.loop);
  const { lowerBound: lb, upperBound: ub, step } = loop;
  e.rw.before(loop.op);
  // scf.for (loads) -> ttg.local_alloc : () -> !ttg.memdesc<Dx...>; prologue copies; scf.for
  const bufs = loads.map((l) => ttg.LocalAllocOp.build(e.rw, {}, { results: { result: bufferType(l.alloc!, slots) } }).result);
  // TMA copies complete on an mbarrier per slot: ttg.local_alloc : () -> !ttg.memdesc<Sx1xi64>; ttng.init_barrier (each slot)
  const tmaLoads = loads.filter((l) => l.tma);
  const tma = tmaLoads.length ? { loads: tmaLoads, bufs: bufs.filter((_, n) => loads[n].tma), barriers: allocBarriers(e, slots) } : null;
  const inits = loop.initArgs;
  let carried = plan.carried.map((k) => inits[k]);
  const tokens: Value[][] = cp.map(() => []);
  for (let j = 0; j < d; j++) {
    const iv = e.advance(lb, step, j);
    const m = stageMapping(plan, iv, carried);
    const next = cloneStage(e, plan, m);
    const pred = e.cmp('slt', iv, ub);
    const idx = e.constant(j, i(32));
    cp.forEach((n, q) => tokens[q].push(issueCopy(e, loads[n], m, bufs[n], idx, pred, contig[n])));
    if (tma) issueTmaStage(e, tma, m, idx, pred);
    carried = next;
  }
  return { bufs, cp, tma, ahead: carried, tokens };
}

/** Rebuilds the loop with the extra iter args and rewrites its body; returns the new loop. */
function emitLoop(e: IntEmitter, plan: LoopPlan, d: number, slots: number, contig: number[], pro: Prologue, freeSlot: boolean): Operation {
  const { loop, loads, dropped, body } = plan;
  const { cp } = pro;
  const { rw } = e;
  const forOp = scf.ForOp.view(loop);
  const oldYield = scf.YieldOp.view(body.terminator!);
  const nInit = loop.numResults;
  const kept = [...Array(nInit).keys()].filter((k) => !dropped.has(k));
  const oldInits = forOp.initArgs;
  const tma = pro.tma !== null;
  const inits = [
    ...kept.map((k) => oldInits[k]),
    ...pro.ahead,
    e.constant(d - 1, i(32)),
    e.constant(-1, i(32)),
    // the phase of the read slot's mbarrier (flips each time the read slot wraps)
    ...(tma ? [e.constant(0, i(32))] : []),
    ...pro.tokens.flat(),
  ];
  rw.setInsertionPoint(loop);
  const { lowerBound, upperBound, step } = forOp;
  const next = scf.ForOp.build(rw, { lowerBound, upperBound, step, initArgs: inits }, { results: { results: inits.map((v) => v.type) }, regions: 1 }).op;
  if (loop.attributes) next.attributes = { ...loop.attributes };
  e.hoistBefore = next;
  rw.inlineRegion(loop.regions[0], next.regions[0]);
  const aheadArgs = pro.ahead.map((v) => body.addArgument(v.type, loop.loc));
  const writeArg = body.addArgument(i(32), loop.loc);
  const readArg = body.addArgument(i(32), loop.loc);
  const phaseArg = tma ? body.addArgument(i(32), loop.loc) : null;
  const tokArgs = pro.tokens.map((ts) => ts.map(() => body.addArgument(AsyncTokenType.get(), loop.loc)));

  // Top of the body: the slots of this iteration and the wait for its copies.
  rw.setInsertionPointToStart(body);
  const read = e.nextSlotWrapping(readArg, slots);
  const readIdx = read.slot;
  const writeIdx = e.nextSlot(writeArg, slots);
  const wait = cp.length ? ttg.AsyncWaitOp.build(rw, { asyncToken: tokArgs.map((ts) => ts[0]), num: (d - 1) * cp.length }).retToken : null;
  const phase = phaseArg && pro.tma ? waitForSlot(e, pro.tma.barriers, readIdx, phaseArg, read.wrapped) : null;
  loads.forEach((l, n) => readFromSlot(e, l.alloc!, pro.bufs[n], readIdx, l.tma ? null : wait));

  // End of the body: the copies of iteration i+D into the write slot.
  rw.setInsertionPoint(oldYield.op);
  const ivAhead = e.advance(body.args[0], step, d);
  const m = stageMapping(plan, ivAhead, aheadArgs);
  const aheadNext = cloneStage(e, plan, m);
  const pred = e.cmp('slt', ivAhead, upperBound);
  const newToks = cp.map((n) => issueCopy(e, loads[n], m, pro.bufs[n], writeIdx, pred, contig[n], freeSlot));
  if (pro.tma) issueTmaStage(e, pro.tma, m, writeIdx, pred);
  const oldYields = oldYield.results;
  const yields = [
    ...kept.map((k) => oldYields[k]),
    ...aheadNext,
    writeIdx,
    readIdx,
    ...(phase ? [phase] : []),
    ...tokArgs.flatMap((ts, q) => [...ts.slice(1), newToks[q]]),
  ];
  scf.YieldOp.build(rw, { results: yields });
  rw.eraseOp(oldYield.op);
  for (const l of loads) rw.eraseOp(l.load);
  for (const op of [...plan.dead].reverse()) rw.eraseOp(op);
  for (const k of [...dropped].sort((a, b) => b - a)) body.eraseArgument(k + 1);
  loop.results.forEach((r, k) => {
    if (!dropped.has(k)) rw.replaceAllUsesWith(r, next.result(kept.indexOf(k)));
  });
  rw.eraseOp(loop);
  return next;
}

/**
 * %a = tt.load %p; %s = ttg.local_alloc %a; %d = ttg.local_load %s
 *   -> %v = ttg.memdesc_index %buf[%read]; %d = ttg.local_load %v token %wait
 * (a TMA slot has no token: its mbarrier wait orders the reads).
 */
function readFromSlot(e: IntEmitter, alloc: Operation, buf: Value, idx: Value, wait: Value | null): void {
  const { rw } = e;
  rw.setInsertionPoint(alloc);
  const view = slot(rw, buf, idx);
  for (const u of alloc.result(0).users()) {
    const load = ttg.LocalLoadOp.match(u);
    if (!load) continue;
    rw.replaceOp(u, [ttg.LocalLoadOp.build(rw.before(u), { src: view, token: wait ?? undefined }, { results: { result: load.result.type } }).result]);
  }
  rw.replaceAllUsesWith(alloc.result(0), view);
  rw.eraseOp(alloc);
  readViewsFromSlot(rw, view, wait);
}

/** Pipelines one loop of function `fn` by `plan` into `stages` stages. */
function pipelineLoop(fn: Operation, plan: LoopPlan, stages: number, ctx: PassContext, axis: AxisInfoAnalysis): void {
  const d = stages - 1;
  // A warp-group dot left in flight still reads the previous slot while the next copies land.
  const inFlight = inFlightDots(plan.body).length > 0;
  const needed = inFlight ? d + 1 : d;
  const contig = plan.loads.map((l) => (l.tma ? 0 : copyContiguity(l.load, axis)));
  const e = new IntEmitter(ctx.rewriter(), plan.loop);
  for (const l of plan.loads) if (l.convert || l.inRegisters) stashThroughShared(e.rw, l);
  // One slot more lets the copies refill a slot every thread left before the iteration's first
  // barrier; decided once every load has its shared tile (l.alloc).
  const bytes = plan.loads.map((l, n) => (l.tma ? 0 : copyBytes(l.load, contig[n])));
  const spare = takesSpareSlot(fn, plan, needed, inFlight, ctx.options['spare-slot'] as SparePolicy, bytes);
  const slots = spare ? needed + 1 : needed;
  if (spare) ctx.bump('spare-slots');
  const pro = emitPrologue(e, plan, d, slots, contig);
  const next = emitLoop(e, plan, d, slots, contig, pro, spare);
  ctx.bump('operand-stores-late', storeInvariantOperandsLate(next, e.rw));
  // scf.for -> scf.for; ttg.async_wait {num = 0}; ttng.inval_barrier (each slot); ttg.local_dealloc (each buffer)
  e.rw.setInsertionPointAfter(next);
  if (pro.cp.length) ttg.AsyncWaitOp.build(e.rw, { asyncToken: [], num: 0 });
  if (pro.tma) releaseBarriers(e, pro.tma.barriers, slots);
  for (const b of pro.bufs) ttg.LocalDeallocOp.build(e.rw, { src: b });
  // Right after the loop, before the buffers are freed: the wait for the last wgmma group.
  ctx.bump('warp-group-dots-in-flight', overlapWarpGroupDots(next, e.rw));
  ctx.bump('loops-pipelined');
  ctx.bump('loads-pipelined', plan.loads.length);
  ctx.bump('tma-loads-pipelined', pro.tma?.loads.length ?? 0);
}

/** Whether the loads through pointer tensor `p` move under 4 bytes per thread (a pointer per element). */
function narrowAccess(p: Value, axis: AxisInfoAnalysis): boolean {
  const t = p.type as RankedTensorType;
  if (!isDistributed(t.encoding)) return false;
  return vectorElems(p, layoutOrder(t.encoding)[0] ?? t.rank - 1, axis) * (pointeeBits(p) / 8) < 4;
}

/**
 * A load of a loop with a warp-group dot whose async copies would be under 4 bytes (element-wise
 * loads and stores instead of cp.async), else null. Such a loop stays as it is, as Triton leaves
 * it: the loads in registers, stored to shared memory for the wgmma of the same iteration.
 */
function narrowWgmmaCopy(plan: LoopPlan, axis: AxisInfoAnalysis): Operation | null {
  if (!plan.body.ops.some((op) => ttng.WarpGroupDotOp.is(op))) return null;
  return plan.loads.find((l) => !l.tma && copyBytes(l.load, copyContiguity(l.load, axis)) < 4)?.load ?? null;
}

/** The outermost op holding `op` (what axis info analyses). */
function rootOf(op: Operation): Operation {
  while (op.parentOp) op = op.parentOp;
  return op;
}

/** Whether `loop`'s body (not nested loops) holds a tt.dot or a warp-group dot. */
const hasDot = (loop: Operation): boolean => scf.ForOp.view(loop).region.blocks[0].ops.some((op) => tt.DotOp.is(op) || ttng.WarpGroupDotOp.is(op));

/**
 * In a pipelined loop, a loop-carried pointer is advanced after the copies that read it: its old
 * and new values are then never live together (ptxas would copy every pointer register otherwise).
 */
// %p1 = tt.addptr %p, %s ; async_copy %p ... ; scf.yield %p1  ->  async_copy %p ... ; %p1 = tt.addptr %p, %s ; scf.yield %p1
function sinkPointerIncrements(loop: Operation, rw: Rewriter): number {
  const body = loop.region(0).blocks[0];
  const yieldOp = body.terminator;
  if (!yieldOp || !body.ops.some((op) => ttg.AsyncCopyGlobalToLocalOp.is(op))) return 0;
  let moved = 0;
  for (const op of body.ops) {
    const inc = tt.AddptrOp.match(op);
    if (!inc || inc.ptr.parentBlock !== body || inc.ptr.definingOp || !(inc.result.type instanceof RankedTensorType)) continue;
    if (!inc.result.users().every((u) => u === yieldOp)) continue;
    rw.moveOpBefore(op, yieldOp);
    moved++;
  }
  return moved;
}

function run(fn: Operation, ctx: PassContext): void {
  const stages = Number(ctx.options['num-stages']);
  const spare = String(ctx.options['spare-slot']);
  if (!SPARE_POLICIES.includes(spare as SparePolicy)) ctx.fail(fn, `has no spare-slot policy '${spare}' to pipeline with (expected ${SPARE_POLICIES.join(', ')})`);
  if (!(stages >= 2)) return ctx.preserve();
  const loops: Operation[] = [];
  fn.walk((op) => void (scf.ForOp.is(op) && loops.push(op)), 'post');
  let axis: AxisInfoAnalysis | null = null;
  // Descriptor loads become TMA copies where the GPU has TMA (sm_90 and later).
  const tma = hasTarget(fn) && targetOf(fn).limits?.tma === true;
  // Inner loops first; each loop is planned on the IR as its inner loops left it.
  for (let loop of loops) {
    ctx.bump('prefetches-undone', unprefetch(loop, ctx.rewriter()));
    if (hasDot(loop)) {
      const remat = String(ctx.options['remat-pointers']);
      // A fresh analysis: the cached one is computed after this loop's rewrites, for the copies.
      const a = new AxisInfoAnalysis(rootOf(fn));
      // Only element-wise copies carry a pointer per element: remat those (vectors share theirs).
      const wanted = remat === 'always' ? () => true : remat === 'narrow' ? (p: Value) => narrowAccess(p, a) : () => false;
      const rematerialized = rematerializeLoopPointers(loop, ctx.rewriter(), wanted);
      ctx.bump('loop-pointers-rematerialized', rematerialized);
      // The rewritten pointers are now yielded unchanged: drop them from the loop.
      if (rematerialized) loop = dropInvariantIterArgs(loop, ctx.rewriter());
    }
    const p = planLoop(loop, tma);
    if (p && 'at' in p) ctx.remark(p.at, `'${p.at.name}' op ${p.message}`);
    if (!p || 'at' in p) continue;
    // Computed once, before anything changes; the pass only asks about the original loads' operands.
    axis ??= getAxisInfo(ctx.analyses, fn);
    const narrow = narrowWgmmaCopy(p, axis);
    if (narrow) {
      ctx.remark(narrow, `'${narrow.name}' op not pipelined: its copies would move under 4 bytes per thread, which cp.async cannot; the warp-group dot reads the tiles stored from registers instead`);
      continue;
    }
    pipelineLoop(fn, p, stages, ctx, axis);
  }
  if (!axis) return ctx.preserve();
  // The pipelined loops replaced the ones collected above: walk again.
  const forLoops: Operation[] = [];
  fn.walk((op) => void (scf.ForOp.is(op) && forLoops.push(op)), 'post');
  for (const loop of forLoops) ctx.bump('pointer-increments-sunk', sinkPointerIncrements(loop, ctx.rewriter()));
}

/** The `software-pipeline` pass (Triton's tritongpu-pipeline): multi-buffered cp.async prefetching of the loads feeding a dot in scf.for. */
export const softwarePipeline: PassDecl = {
  name: 'software-pipeline',
  aliases: ['tritongpu-pipeline'],
  summary: 'Software-pipeline the loads feeding a dot in scf.for: cp.async into multi-buffered shared memory, S-1 iterations ahead',
  anchor: 'function',
  options: {
    'num-stages': { type: 'int', default: 3, description: 'pipeline stages S (S-1 iterations prefetched; 1 leaves loops alone)' },
    'spare-slot': {
      type: 'string',
      default: 'auto',
      description: "one buffer slot more, so a loop's copies need no second barrier, where shared memory allows: 'auto' (tensor-core dots fed by 16-byte copies, or any dot of a CTA alone on its SM; with a warp-group dot in flight, only loops of two or more dots), 'always' or 'never'",
    },
    'remat-pointers': {
      type: 'string',
      default: 'narrow',
      description: "recompute a dot loop's element pointers from loop-invariant offsets instead of carrying them: 'narrow' (pointers whose accesses are under 4 bytes per thread), 'always' or 'never'",
    },
  },
  statistics: {
    'pointer-increments-sunk': 'number of loop-carried pointer increments moved after the copies that read the old pointer',
    'operand-stores-late': "number of stores of a loop's invariant operand tiles (attention's Q) moved after the prologue's copies",
    'loops-pipelined': 'number of scf.for loops pipelined',
    'spare-slots': 'number of pipelined loops whose buffers got a spare slot (their copies refill a slot free since the first barrier)',
    'warp-group-dots-in-flight': 'number of ttng.warp_group_dot left in flight across iterations (pendings = 1, one more buffer slot)',
    'loads-pipelined': 'number of loads turned into async copies',
    'tma-loads-pipelined': 'number of descriptor loads among them, copied by TMA into slots tracked by mbarriers',
    'loop-pointers-rematerialized': 'number of loop-carried pointer tensors recomputed from loop-invariant offsets in the loop',
    'prefetches-undone': 'number of hand-prefetched loop-carried tiles turned back into loads in the loop (then pipelined)',
  },
  run,
};
