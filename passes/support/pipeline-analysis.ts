/**
 * What the `pipeline` pass may pipeline in one `scf.for` (passes/pipeline.ts), and whether it is
 * safe:
 *  - candidate loads: a non-volatile `tt.load` of a tensor of pointers, directly in the loop body,
 *    whose only use is a `ttg.local_alloc` read back by `ttg.local_load`s (possibly through
 *    `ttg.memdesc_trans`) into `#ttg.dot_op` layouts or read as an operand of
 *    `ttng.warp_group_dot`, or a `ttg.convert_layout` to a `#ttg.dot_op`; or whose value reaches
 *    one of those through a chain of pure elementwise ops, one use each (an fp8 tile widened
 *    after its load): that load is read back from its slot into its own layout (`inRegisters`);
 *  - with TMA (sm_90 and later): a `tt.descriptor_load` whose only use is such a `ttg.local_alloc`
 *    into a non-transposed `#ttg.nvmma_shared` tile, the layout a TMA copy writes (`tmaWritable`);
 *  - the stage-0 slice: the body ops computing the loads' pointers, masks and `other` values, and
 *    the next values of the loop-carried values they use (closed under both); every op in it
 *    must be side-effect free and region-free, and the loop must not write global memory;
 *  - liveness: which loop-carried values the loop still needs in their current-iteration form
 *    once the loads are gone (the others are dropped: the pass carries them S-1 iterations ahead),
 *    and which body ops become dead.
 */
import type { Block, Operation, Value } from '../../ir/ir.js';
import { BlockArgument } from '../../ir/ir.js';
import { isSideEffectFree } from '../../ir/patterns.js';
import { Elementwise } from '../../ir/traits.js';
import { RankedTensorType, encodingOf, type Type } from '../../ir/types.js';
import { PointerType, TensorDescType } from '../../dialects/tt/types.js';
import { MemDescType } from '../../dialects/ttg/types.js';
import { nvmmaOf } from '../../dialects/ttg/shared-layout.js';
import { DOT_OP, isDistributed, isLayout } from '../../dialects/ttg/layout-attrs.js';
import * as func from '../../dialects/func.js';
import * as scf from '../../dialects/scf.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';
import * as ttng from '../../dialects/ttng.js';

/** One load to pipeline and how its value reaches the dot. */
export interface PipelinedLoad {
  load: Operation;
  /** The `ttg.local_alloc` stashing the load (null in the convert_layout form until rewritten). */
  alloc: Operation | null;
  /** The `ttg.convert_layout` to a `#ttg.dot_op` (the convert-to-gpu form), else null. */
  convert: Operation | null;
  /** A `tt.descriptor_load` copied by TMA (completion on an mbarrier), not a cp.async of pointers. */
  tma: boolean;
  /** The load's value goes on through elementwise ops: read back from the slot in its own layout. */
  inRegisters?: boolean;
}

/** A loop the pass will pipeline. */
export interface LoopPlan {
  loop: Operation;
  /** The loop's body block (it moves to the rebuilt loop). */
  body: Block;
  loads: PipelinedLoad[];
  /** Indices of the iter args (0-based, as loop results) the stage-0 slice depends on. */
  carried: number[];
  /** The stage-0 slice, in block order. */
  slice: Operation[];
  /** Carried iter args whose current value nothing needs once the loads are gone. */
  dropped: Set<number>;
  /** Body ops that become dead once the loads are gone (block order). */
  dead: Operation[];
}

/** Why a loop with candidate loads is left alone: the op to remark at and the message. */
export interface Rejection {
  at: Operation;
  message: string;
}

/** Ops that write global memory (or may, through a call). */
const GLOBAL_WRITES: ReadonlySet<string> = new Set([tt.StoreOp, tt.AtomicRmwOp, tt.AtomicCasOp, tt.CallOp, func.CallOp, tt.DescriptorStoreOp].map((d) => d.name));

/** Views the dot operand may go through between the local_alloc and the local_load. */
const VIEWS: ReadonlySet<string> = new Set([ttg.MemdescTransOp.name]);

const isDotOperand = (v: Value): boolean => isLayout(encodingOf(v.type), DOT_OP);

/** Whether every use of `v` (a memdesc in `body`) is a local_load to a #dot_op or a warp_group_dot's A or B, possibly through a view. */
function feedsDotOnly(v: Value, body: Block): boolean {
  if (!v.hasUses) return false;
  return v.users().every((u) => {
    if (u.parent !== body) return false;
    const wgmma = ttng.WarpGroupDotOp.match(u);
    if (wgmma) return wgmma.c !== v;
    const load = ttg.LocalLoadOp.match(u);
    if (load) return !load.token && isDotOperand(load.result);
    return VIEWS.has(u.name) && feedsDotOnly(u.result(0), body);
  });
}

/**
 * Whether a TMA copy can write a tile of type `t` as it is: a non-transposed `#ttg.nvmma_shared`
 * tile (TMA reads rows along the global tensor's contiguous last dim and swizzles them as wgmma's
 * shared-memory descriptors expect); a transposed one would need the copy to transpose.
 */
export function tmaWritable(t: Type): boolean {
  if (!(t instanceof MemDescType) || t.shape.length !== 2) return false;
  const nvmma = nvmmaOf(t.encoding);
  return nvmma !== null && !nvmma.transposed;
}

/** A `tt.descriptor_load` stashed into a TMA-writable tile that only feeds dots, else null. */
function tmaCandidate(op: Operation, body: Block): PipelinedLoad | null {
  const load = tt.DescriptorLoadOp.match(op);
  if (!load || !load.result.hasOneUse) return null;
  const user = load.result.users()[0];
  const alloc = ttg.LocalAllocOp.match(user);
  if (!alloc || user.parent !== body || !tmaWritable(alloc.result.type) || !feedsDotOnly(alloc.result, body)) return null;
  // A descriptor already given a layout (Triton's TTGIR) must be the tile's.
  const block = (load.desc.type as TensorDescType).blockType;
  if (block.encoding && block.encoding !== (alloc.result.type as MemDescType).encoding) return null;
  return { load: op, alloc: user, convert: null, tma: true };
}

/** The load's form if it is a candidate (see the file comment), else null. */
function candidate(op: Operation, body: Block, tma: boolean): PipelinedLoad | null {
  if (tma && tt.DescriptorLoadOp.is(op)) return tmaCandidate(op, body);
  const load = tt.LoadOp.match(op);
  if (!load || !load.result.hasOneUse) return null;
  // A volatile load must stay where it is.
  if (load.isVolatile) return null;
  const t = load.ptr.type;
  if (!(t instanceof RankedTensorType) || !(t.elementType instanceof PointerType) || !isDistributed(t.encoding)) return null;
  const user = load.result.users()[0];
  if (user.parent !== body) return null;
  const alloc = ttg.LocalAllocOp.match(user);
  if (alloc && feedsDotOnly(alloc.result, body)) return { load: op, alloc: user, convert: null, tma: false };
  const cvt = ttg.ConvertLayoutOp.match(user);
  if (cvt && isDotOperand(cvt.result)) return { load: op, alloc: null, convert: user, tma: false };
  if (reachesDotThroughElementwise(load.result, body)) return { load: op, alloc: null, convert: null, tma: false, inRegisters: true };
  return null;
}

/**
 * Whether `v` (one use) goes through pure elementwise ops of the body, each with one use, into a
 * `ttg.local_alloc` that only feeds dots or a `ttg.convert_layout` to a `#ttg.dot_op`.
 */
function reachesDotThroughElementwise(v: Value, body: Block): boolean {
  let steps = 0;
  for (let cur = v; cur.hasOneUse; steps++) {
    const user = cur.users()[0];
    if (user.parent !== body) return false;
    const alloc = ttg.LocalAllocOp.match(user);
    if (alloc) return steps > 0 && feedsDotOnly(alloc.result, body);
    const cvt = ttg.ConvertLayoutOp.match(user);
    if (cvt) return steps > 0 && isDotOperand(cvt.result);
    if (!user.hasTrait(Elementwise) || user.numResults !== 1 || user.regions.length || !isSideEffectFree(user)) return false;
    cur = user.result(0);
  }
  return false;
}

/** The candidate loads directly in `body` (descriptor loads too when the GPU has TMA). */
export function candidateLoads(body: Block, tma = false): PipelinedLoad[] {
  return body.ops.map((op) => candidate(op, body, tma)).filter((c): c is PipelinedLoad => c !== null);
}

/**
 * Grows `slice` with the body ops computing `roots` (and `carried` with the iter args they use),
 * then with the yield computation of every carried iter arg. Returns the offending op if one is
 * impure or has regions.
 */
function stageZeroSlice(roots: Value[], body: Block, slice: Set<Operation>, carried: Set<number>): Operation | null {
  const work = [...roots];
  const yielded = scf.YieldOp.view(body.terminator!).results;
  while (work.length) {
    const v = work.pop()!;
    if (v instanceof BlockArgument) {
      if (v.owner !== body || v.index === 0 || carried.has(v.index - 1)) continue;
      carried.add(v.index - 1);
      work.push(yielded[v.index - 1]);
      continue;
    }
    const d = v.definingOp;
    if (!d || d.parent !== body || slice.has(d)) continue;
    if (!isSideEffectFree(d) || d.regions.length) return d;
    slice.add(d);
    work.push(...d.operandValues());
  }
  return null;
}

/**
 * Body ops and iter args still needed once `ignored` (the loads and what stashes them) is gone:
 * side-effecting ops, the yields of non-carried iter args and of carried ones used after the
 * loop, and everything they use (through the back edge too).
 */
function liveness(loop: Operation, body: Block, ignored: Set<Operation>, carried: Set<number>): { ops: Set<Operation>; args: Set<number> } {
  const ops = new Set<Operation>();
  const args = new Set<number>();
  const yieldOp = body.terminator!;
  const yielded = scf.YieldOp.view(yieldOp).results;
  const work: Operation[] = [];
  const markOp = (op: Operation): void => {
    if (ignored.has(op) || ops.has(op)) return;
    ops.add(op);
    work.push(op);
  };
  const markValue = (v: Value): void => {
    if (v instanceof BlockArgument && v.owner === body && v.index > 0) return markArg(v.index - 1);
    const d = v.definingOp;
    if (d && d.parent === body) markOp(d);
  };
  const markArg = (k: number): void => {
    if (args.has(k)) return;
    args.add(k);
    markValue(yielded[k]);
  };
  for (const op of body.ops) if (op !== yieldOp && !isSideEffectFree(op)) markOp(op);
  for (let k = 0; k < loop.numResults; k++) if (!carried.has(k) || loop.result(k).hasUses) markArg(k);
  while (work.length) work.pop()!.walk((inner) => inner.operandValues().forEach(markValue));
  return { ops, args };
}

/**
 * The plan for `loop` (an scf.for), a rejection, or null when it has nothing to pipeline. With
 * `tma` (the GPU has TMA), descriptor loads are candidates too.
 */
export function planLoop(loop: Operation, tma = false): LoopPlan | Rejection | null {
  const body = loop.regions[0]?.blocks[0];
  if (!body || !scf.YieldOp.match(body.terminator)) return null;
  const loads = candidateLoads(body, tma);
  if (!loads.length) return null;
  let writer: Operation | null = null;
  loop.walk((op) => void (GLOBAL_WRITES.has(op.name) && (writer ??= op)));
  if (writer) return { at: loads[0].load, message: `not pipelined: the loop writes global memory ('${(writer as Operation).name}')` };
  const slice = new Set<Operation>();
  const carried = new Set<number>();
  for (const l of loads) {
    const bad = stageZeroSlice(l.load.operandValues(), body, slice, carried);
    if (bad) return { at: l.load, message: `not pipelined: its address depends on '${bad.name}', which is not pure` };
  }
  const ignored = new Set(loads.flatMap((l) => (l.inRegisters ? [l.load] : [l.load, l.alloc ?? l.convert!])));
  const live = liveness(loop, body, ignored, carried);
  const dead = body.ops.filter((op) => op !== body.terminator && !ignored.has(op) && !live.ops.has(op));
  const dropped = new Set([...carried].filter((k) => !live.args.has(k)));
  return { loop, body, loads, carried: [...carried].sort((a, b) => a - b), slice: body.ops.filter((op) => slice.has(op)), dropped, dead };
}
