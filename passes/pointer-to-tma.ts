/**
 * `pointer-to-tma`: the pointer loads of a loop that feed a dot become TMA copies where their
 * addresses are a box of a tensor the launcher can describe (sm_90 and later).
 *
 * Triton copies such loads with `cp.async` (a thread per 16 bytes, addresses in registers); a TMA
 * copy moves the whole box from one thread, through a tensor map. The loads of Triton's tutorial
 * matmul are boxes (support/pointer-box.ts says which loads are): A is rows `(pid_m * BM + arange)
 * % M` of a row-major M x K matrix, its columns the masked K range `arange(0, BK) < K - k * BK`:
 *
 *   %a = tt.load %a_ptrs, %mask, %zeros   ->   %a = tt.descriptor_load %__tma_a_ptr_0[%o, %k_start]
 *
 * and the kernel gets a hidden `!tt.tensordesc` parameter per tensor (`tir.tensormap`,
 * dialects/tt/tensormap-arg.ts) that the launcher builds from the base pointer, extent and stride
 * parameters. The masked dim's bound is the tensor's extent: TMA reads zeros past it, as the
 * masked load does. A block past M reads wrapped rows through its pointers and zeros by TMA; where
 * those rows only make products the store masks out (support/unobserved-wrap.ts, the tutorial's
 * `offs_cm < M`), that changes nothing stored. Otherwise the loop gets two copies:
 *
 *   %fits = %o >= 0 and %o <= %M - BM and ...           (each such wrapped dim of each load)
 *   scf.if %fits { the loop with TMA copies } else { the loop as it was } {tir.versions}
 *
 * Attention's K and V (the tutorial with pointers) start at a per-program offset `off_z * stride_z
 * + off_h * stride_h` and are unmasked: each such scalar term is a dim of its own (a box of length
 * 1 at `off_z`, `off_h`), and an unmasked dim is unbounded (the map covers the base's allocation, so
 * the copy reads the addresses the load would), so they copy through 4-d maps. A loop of chained
 * dots over more than one warp group (attention at head dim 128 on 8 warps) keeps cp.async, which
 * measured faster there.
 *
 * The rest of the pipeline handles the copies as it handles Triton's host-side descriptors
 * (software-pipeline, tma-lowering). A load qualifies where its elements are 8- or 16-bit floats or i8,
 * its base pointer is 16-byte aligned and its row stride a multiple of 16 bytes (`tt.divisibility`),
 * as TMA requires; other loads stay pointer loads, with a remark saying why. Measured on an H100
 * (2026-11-28, bench/gpu/RESULTS.md): Triton's tutorial matmul 1.016-1.024x faster than with
 * `cp.async`, 1.002-1.014x Triton JIT.
 */
import { IntegerAttr, NameLoc } from '../ir/attributes.js';
import { BlockArgument, type Operation, type Value, ValueMapping } from '../ir/ir.js';
import { IntegerType, RankedTensorType } from '../ir/types.js';
import type { Rewriter } from '../ir/rewriter.js';
import { constantInt } from '../ir/patterns.js';
import * as arith from '../dialects/arith.js';
import * as scf from '../dialects/scf.js';
import * as tt from '../dialects/tt/index.js';
import { dropInvariantIterArgs } from '../dialects/scf-canonicalize.js';
import { TMA_ALIGN_BYTES, archLimits, parseCapability, targetOf } from '../dialects/ttg/target.js';
import { AxisInfoAnalysis } from './analysis/axis-info.js';
import { feedsDot, readPointerBox, tmaElementBits, type PointerBox } from './support/pointer-box.js';
import { cloneWithOpMap, markVersions } from './support/versioned-if.js';
import { wrapIsUnobserved } from './support/unobserved-wrap.js';
import { HiddenTensorMaps } from './support/hidden-tensormaps.js';
import type { PassContext, PassDecl } from './pass.js';

const I32 = IntegerType.get(32);

/** `load` as a box TMA can copy, or why not. */
function tmaBox(load: Operation, loop: Operation, axis: AxisInfoAnalysis): PointerBox | string {
  if (!feedsDot(load)) return 'it does not feed a dot';
  const bits = tmaElementBits(load);
  if (!bits) return 'its elements are not 8- or 16-bit floats or i8';
  const box = readPointerBox(load, loop);
  if (typeof box === 'string') return box;
  if (axis.divisibility(box.base) < TMA_ALIGN_BYTES) return `its base pointer is not known to be ${TMA_ALIGN_BYTES}-byte aligned (tt.divisibility)`;
  if ((axis.divisibility(box.rowStride) * bits) / 8 < TMA_ALIGN_BYTES) return `its row stride is not known to be a multiple of ${TMA_ALIGN_BYTES} bytes (tt.divisibility)`;
  // a per-program offset's stride is a stride of the tensor map too
  const unaligned = box.scalarDims.find((s) => (axis.divisibility(s.stride) * bits) / 8 < TMA_ALIGN_BYTES);
  if (unaligned) return `its offset stride ${unaligned.stride.nameHint ?? `#${unaligned.stride.index}`} is not known to be a multiple of ${TMA_ALIGN_BYTES} bytes (tt.divisibility)`;
  return box;
}

/** The hidden tensor-map parameter describing `box`'s tensor with blocks of its load's type (its other dims 1). */
function tensorMapOf(maps: HiddenTensorMaps, box: PointerBox): BlockArgument {
  const block = box.load.result(0).type as RankedTensorType;
  // the box in memory order: the scalar dims, the rows, then the contiguous columns
  const dims = box.transposed ? [box.dims[1], box.dims[0]] : box.dims;
  const outer = box.scalarDims.map(() => 1);
  const type = tt.TensorDescType.get(RankedTensorType.get([...outer, ...dims.map((d) => d.length)], block.elementType));
  const spec = {
    base: box.base.index,
    shape: [...box.scalarDims.map(() => tt.UNBOUNDED), ...dims.map((d) => d.extent?.index ?? tt.UNBOUNDED)],
    strides: [...box.scalarDims.map((d) => d.stride.index), box.rowStride.index],
    positive: box.positive.map((p) => p.index).sort((x, y) => x - y),
  };
  const name = box.base.loc instanceof NameLoc ? box.base.loc.name : box.base.nameHint ?? `arg${box.base.index}`;
  return maps.get(type, spec, 'tma', name);
}

/** `%fits`: every wrapped dim of `boxes` starts in [0, D - n], built before `loop`; null when none wraps. */
function fitsCondition(boxes: readonly PointerBox[], loop: Operation, rw: Rewriter): Value | null {
  // a wrapped block whose wrapped part no store observes needs no test (support/unobserved-wrap.ts);
  // a wrapped dim's extent is the D of its `% D`, never null
  const tested = boxes.flatMap((box) => box.dims.filter((d, k) => d.wraps && !wrapIsUnobserved(box, k)));
  if (!tested.length) return null;
  rw.setInsertionPoint(loop);
  const zero = arith.ConstantOp.build(rw, { value: IntegerAttr.get(0, I32) }).result;
  let all: Value | null = null;
  for (const d of tested) {
    const origin = d.origin[0] ?? zero;
    const length = arith.ConstantOp.build(rw, { value: IntegerAttr.get(d.length, I32) }).result;
    const last = rw.create(arith.SubIOp.name, { operands: { lhs: d.extent!, rhs: length } }).result(0);
    const low = rw.create(arith.CmpIOp.name, { operands: { lhs: origin, rhs: zero }, attrs: { predicate: arith.CmpIPredicate.byName('sge') } }).result(0);
    const high = rw.create(arith.CmpIOp.name, { operands: { lhs: origin, rhs: last }, attrs: { predicate: arith.CmpIPredicate.byName('sle') } }).result(0);
    const both = rw.create(arith.AndIOp.name, { operands: { lhs: low, rhs: high } }).result(0);
    all = all ? rw.create(arith.AndIOp.name, { operands: { lhs: all, rhs: both } }).result(0) : both;
  }
  return all;
}

/**
 * scf.for { ... } -> scf.if %fits { clone of the loop } else { scf.for { ... } } {tir.versions}; returns the clone
 * and the map from the loop's ops to the clone's.
 */
function versionLoop(loop: Operation, fits: Value, rw: Rewriter): { copy: Operation; cloneOf: Map<Operation, Operation> } {
  rw.setInsertionPoint(loop);
  const types = loop.results.map((r) => r.type);
  const ifOp = scf.IfOp.build(rw, { condition: fits }, { results: { results: types }, regions: 2 }).op;
  markVersions(ifOp);
  const [thenBlock, elseBlock] = [ifOp.regions[0].addBlock(), ifOp.regions[1].addBlock()];
  loop.results.forEach((r, k) => rw.replaceAllUsesWith(r, ifOp.result(k)));
  loop.remove();
  elseBlock.append(loop);
  rw.setInsertionPointToEnd(elseBlock);
  scf.YieldOp.build(rw, { results: loop.results });
  const cloneOf = new Map<Operation, Operation>();
  const copy = cloneWithOpMap(loop, new ValueMapping(), cloneOf);
  thenBlock.append(copy);
  rw.setInsertionPointToEnd(thenBlock);
  scf.YieldOp.build(rw, { results: copy.results });
  return { copy, cloneOf };
}

/** The sum of the i32 scalars `terms` (0 when there are none), built where `rw` inserts. */
function sum(terms: readonly Value[], rw: Rewriter): Value {
  if (!terms.length) return arith.ConstantOp.build(rw, { value: IntegerAttr.get(0, I32) }).result;
  return terms.reduce((x, y) => rw.create(arith.AddIOp.name, { operands: { lhs: x, rhs: y } }).result(0));
}

/**
 * The box's first index along dim `d` at the current iteration of `load`'s loop (values of that loop):
 * a masked dim's start, or its origin (summed before the loop) plus, for an unmasked advancing dim,
 * the iteration's advance (iv - lb) / step * advance, or iv alone where the origin holds lb and step = advance.
 */
function boxStart(box: PointerBox, d: number, load: Operation, cloneOf: Map<Operation, Operation> | null, rw: Rewriter): Value {
  const { start, origin, advance } = box.dims[d];
  const loop = load.parentOp!;
  const iv = loop.regions[0].blocks[0].args[0];
  if (start) {
    // a value of the original loop's body: its op's clone, or the clone's induction variable
    const def = start.definingOp;
    if (def && cloneOf?.has(def)) return cloneOf.get(def)!.result(def.results.indexOf(start as (typeof def.results)[number]));
    return start === box.load.parent!.args[0] ? iv : start;
  }
  if (!advance) return sum(origin, rw.before(loop));
  const f = scf.ForOp.view(loop);
  const step = constantInt(f.step)!;
  const rest = [...origin];
  const lb = rest.indexOf(f.lowerBound);
  let moved: Value;
  if (lb >= 0 && step === advance) {
    rest.splice(lb, 1);
    moved = iv;
  } else {
    rw.setInsertionPoint(load);
    moved = constantInt(f.lowerBound) === 0 ? iv : rw.create(arith.SubIOp.name, { operands: { lhs: iv, rhs: f.lowerBound } }).result(0);
    const constant = (v: number): Value => arith.ConstantOp.build(rw, { value: IntegerAttr.get(v, I32) }).result;
    if (step !== 1 && step !== advance) moved = rw.create(arith.DivSIOp.name, { operands: { lhs: moved, rhs: constant(step) } }).result(0);
    if (step !== advance) moved = rw.create(arith.MulIOp.name, { operands: { lhs: moved, rhs: constant(advance) } }).result(0);
  }
  if (!rest.length) return moved;
  const base = sum(rest, rw.before(loop));
  rw.setInsertionPoint(load);
  return rw.create(arith.AddIOp.name, { operands: { lhs: base, rhs: moved } }).result(0);
}

/**
 * %v = tt.load %ptrs, %mask, %zeros -> %v = tt.descriptor_load %map[%c..., %row, %col]
 *   (stored transposed: %t = tt.descriptor_load %map[%c..., %col, %row]; %v = tt.trans %t {order = [1, 0]};
 *   %c: the coordinates of the scalar dims);
 * the pointers the loop carried for it are dropped (their iter_arg yields itself, then goes).
 */
function copyByTma(box: PointerBox, load: Operation, map: BlockArgument, cloneOf: Map<Operation, Operation> | null, rw: Rewriter): void {
  const [row, col] = [boxStart(box, 0, load, cloneOf, rw), boxStart(box, 1, load, cloneOf, rw)];
  const outer = box.scalarDims.map((s) => sum(s.coordinate, rw.before(load.parentOp!)));
  rw.setInsertionPoint(load);
  const t = load.result(0).type as RankedTensorType;
  const blockType = box.transposed ? RankedTensorType.get([t.shape[1], t.shape[0]], t.elementType) : t;
  const indices = [...outer, ...(box.transposed ? [col, row] : [row, col])];
  const block = tt.DescriptorLoadOp.build(rw, { desc: map, indices }, { results: { result: blockType } }).result;
  const v = box.transposed ? tt.TransOp.build(rw, { src: block, order: [1, 0] }, { results: { result: t } }).result : block;
  const ptrs = tt.LoadOp.view(load).ptr as BlockArgument;
  rw.replaceOp(load, [v]);
  const y = ptrs.owner.terminator!;
  rw.modifyInPlace(y, () => y.setOperand(ptrs.index - 1, ptrs));
}

function run(fn: Operation, ctx: PassContext): void {
  // the target: the option, else the module's ttg.target (whose default is sm_80: no TMA)
  const name = String(ctx.options.target);
  const cc = name ? parseCapability(name) : targetOf(fn).capability;
  if (cc === null) return ctx.fail(fn, `pointer-to-tma: unknown target '${name}'`);
  if (!archLimits(cc)?.tma || !tt.isKernel(fn) || fn.regions[0].blocks.length !== 1) return ctx.preserve();
  const axis = new AxisInfoAnalysis(fn);
  // innermost loops first (post-order): an outer loop's copy then holds its inner loops as rewritten
  const loops: [Operation, PointerBox[]][] = [];
  const warpGroups = Math.max(1, Number(ctx.options['num-warps']) / 4);
  fn.walk((loop) => {
    if (!scf.ForOp.is(loop)) return;
    const boxes: PointerBox[] = [];
    // chained dots over several warp groups (attention at head dim 128, 8 warps) ran 2-6% slower with
    // TMA copies than with cp.async, as Triton's own TMA kernel does (bench/gpu/RESULTS.md, 2026-11-28)
    const dots = loop.regions[0].blocks[0].ops.filter((op) => tt.DotOp.is(op)).length;
    if (dots > 1 && warpGroups > 1) {
      for (const op of loop.regions[0].blocks[0]) if (tt.LoadOp.is(op) && feedsDot(op)) ctx.remark(op, `not copied by TMA: its loop chains ${dots} dots over ${warpGroups} warp groups, where cp.async measured faster`);
      return;
    }
    for (const op of loop.regions[0].blocks[0]) {
      if (!tt.LoadOp.is(op) || !(op.operand(0).type instanceof RankedTensorType)) continue;
      const box = tmaBox(op, loop, axis);
      if (typeof box === 'string') ctx.remark(op, `not copied by TMA: ${box}`);
      else boxes.push(box);
    }
    if (boxes.length) loops.push([loop, boxes]);
  });
  if (!loops.length) return ctx.preserve();
  const maps = new HiddenTensorMaps(fn);
  const rw = ctx.rewriter();
  for (const [loop, boxes] of loops) {
    const fits = fitsCondition(boxes, loop, rw);
    const versioned = fits ? versionLoop(loop, fits, rw) : null;
    const target = versioned?.copy ?? loop;
    for (const box of boxes) {
      const load = versioned ? versioned.cloneOf.get(box.load)! : box.load;
      copyByTma(box, load, tensorMapOf(maps, box), versioned?.cloneOf ?? null, rw);
      ctx.bump('loads-copied');
    }
    dropInvariantIterArgs(target, rw);
    if (versioned) ctx.bump('loops-versioned');
  }
  ctx.bump('tensor-maps', maps.commit());
}

/** The `pointer-to-tma` pass. */
export const pointerToTma: PassDecl = {
  name: 'pointer-to-tma',
  summary: 'Copy the pointer loads of a loop that feed a dot by TMA where they read a box of a tensor (sm_90 and later)',
  anchor: 'function',
  options: {
    target: { type: 'string', default: '', description: "the GPU (cuda:90, sm_90a...; default: the module's ttg.target); a target without TMA leaves the kernel alone" },
    'num-warps': { type: 'int', default: 4, description: 'warps per CTA; a loop of chained dots over more than one warp group (4 warps) keeps cp.async' },
  },
  statistics: {
    'loads-copied': 'pointer loads turned into TMA copies',
    'loops-versioned': 'loops given a TMA copy taken where no wrapped block wraps',
    'tensor-maps': 'hidden tensor-map parameters added',
  },
  run,
};
