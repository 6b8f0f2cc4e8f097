/**
 * `tma-lowering` (Triton's triton-nvidia-tma-lowering): tensor descriptors become TMA copies on a
 * GPU that has them (sm_90 and later). Runs after `software-pipeline`, which already turned the
 * descriptor loads feeding dots in loops into multi-buffered TMA copies; this pass lowers the rest:
 *  - each `!tt.tensordesc` kernel parameter gets the shared layout its block lands in: the layout
 *    of the tiles its pipelined copies write, else the `#ttg.nvmma_shared` layout of the block
 *    (the widest swizzle its rows fill); copies through one descriptor must agree on it;
 *  - a remaining `tt.descriptor_load` copies its block into a tile through an mbarrier of its own
 *    and reads it back (`ttg.local_load`, in the layout of the block's lone layout conversion if it
 *    has one), or hands the tile itself to a `ttg.local_alloc` that stashed the block in the same
 *    layout;
 *  - `tt.descriptor_store` stores its block to a tile, publishes it to the async proxy
 *    (`ttng.fence_async_shared`), copies it out by TMA and waits until the copy has read it;
 *    `tt.descriptor_reduce` does the same with a TMA reduction (`ttng.async_tma_reduce`);
 *  - a descriptor made on the device (`tt.make_tensor_descriptor`) from kernel parameters alone
 *    becomes a hidden tensor-map parameter the launcher builds (`host-maps`, on by default); any
 *    other gets the same layout rule and becomes a tensor map the CTA writes into its global
 *    scratch (support/tensormap-create.ts).
 * The gather and scatter forms are errors at the op, as is any descriptor on a GPU without TMA.
 */
import { IntegerAttr, NameLoc, TypeAttr, boolAttr } from '../ir/attributes.js';
import { BlockArgument, type Operation, type Value } from '../ir/ir.js';
import type { Rewriter } from '../ir/rewriter.js';
import type { Attribute } from '../ir/attributes.js';
import { FloatType, FunctionType, IntegerType, RankedTensorType, bitWidth, i, signless } from '../ir/types.js';
import { functionTypeOf } from '../ir/function-syntax.js';
import { NVMMA_SHARED, SharedMemorySpaceAttr } from '../dialects/ttg/layout-attrs.js';
import { StructAttr } from '../dialects/ttg/struct-attr.js';
import { MemDescType } from '../dialects/ttg/types.js';
import { targetOf } from '../dialects/ttg/target.js';
import { TensorDescType } from '../dialects/tt/types.js';
import * as arith from '../dialects/arith.js';
import * as tt from '../dialects/tt/index.js';
import * as ttg from '../dialects/ttg/index.js';
import * as ttng from '../dialects/ttng.js';
import { nvmmaSharedFor } from './support/wgmma-lowering.js';
import { slot } from './support/pipeline-emit.js';
import { barrierBufferType, blockBytes } from './support/pipeline-tma.js';
import { expandMakeTensorDescriptor, hostTensormapOf, runsOf } from './support/tensormap-create.js';
import { HiddenTensorMaps } from './support/hidden-tensormaps.js';
import { storeThroughReusedTile } from './support/tma-store-reuse.js';
import type { PassContext, PassDecl } from './pass.js';

/** Descriptor ops this pass does not lower, with why. */
const UNSUPPORTED: ReadonlyMap<string, string> = new Map([
  ['tt.descriptor_gather', 'gathers through a descriptor are not supported yet'],
  ['tt.descriptor_scatter', 'scatters through a descriptor are not supported yet'],
]);

/** Why TMA cannot copy blocks of `block`'s elements (integers or floats of 8 to 64 bits), or null. */
function unsupportedElement(block: RankedTensorType): string | null {
  const t = block.elementType;
  const bits = t instanceof IntegerType || t instanceof FloatType ? bitWidth(t) : 0;
  return [8, 16, 32, 64].includes(bits) ? null : `uses a descriptor of '${t}' elements; TMA copies integers and floats of 8 to 64 bits`;
}

/** The shared layout a block of `block` lands in when nothing chose one: nvmma, swizzled as wide as its rows allow. */
function defaultLayout(desc: TensorDescType, op: Operation, ctx: PassContext): Attribute {
  const shape = desc.tileShape;
  if (shape.length !== 2) ctx.fail(op, `uses a descriptor of ${desc.blockType.shape.join('x')} blocks; TMA copies 2-d blocks (or blocks whose other dims are 1)`);
  const block = RankedTensorType.get(shape, desc.blockType.elementType);
  const bad = unsupportedElement(block);
  if (bad) ctx.fail(op, bad);
  const swizzled = nvmmaSharedFor(block);
  if (swizzled) return swizzled;
  const bits = bitWidth(block.elementType);
  if ((block.shape[1] * bits) % 128) ctx.fail(op, `uses blocks of ${block.shape[1]} ${block.elementType} per row; a TMA copy moves rows of a multiple of 16 bytes`);
  return StructAttr.get(NVMMA_SHARED, { swizzlingByteWidth: 0, transposed: false, elementBitWidth: bits });
}

/** The layout each copy through `desc` already uses (the pipeline's), or null when none does. */
function copiesLayout(desc: Value, ctx: PassContext): Attribute | null {
  let found: Attribute | null = null;
  for (const u of desc.users()) {
    const copy = ttng.AsyncTmaCopyGlobalToLocalOp.match(u);
    const t = copy?.result.type ?? (ttng.AsyncTmaCopyLocalToGlobalOp.match(u) ?? ttng.AsyncTmaReduceOp.match(u))?.src.type;
    if (!(t instanceof MemDescType) || !t.encoding) continue;
    if (found && found !== t.encoding) ctx.fail(u, `copies through a descriptor whose other copies use shared layout ${found}, not ${t.encoding}`);
    found = t.encoding;
  }
  return found;
}

/**
 * Gives descriptor `desc` its block's shared layout, in its type: the layout its copies use, else
 * the one it has, else the default; returns whether the type changed.
 *   !tt.tensordesc<tensor<128x64xf16>> -> !tt.tensordesc<tensor<128x64xf16, #shared>>
 */
function assignLayout(desc: Value, at: Operation, ctx: PassContext): boolean {
  const t = desc.type as TensorDescType;
  const block = t.blockType;
  const user = desc.users()[0] ?? at;
  const layout = copiesLayout(desc, ctx) ?? block.encoding ?? defaultLayout(t, user, ctx);
  if (block.encoding && block.encoding !== layout) ctx.fail(user, `copies a block whose descriptor has layout ${block.encoding} into a tile of layout ${layout}`);
  if (block.encoding === layout) return false;
  desc.type = TensorDescType.get(RankedTensorType.get(block.shape, block.elementType, layout));
  return true;
}

/** Gives each descriptor parameter of `fn` its layout (in its type and the function's signature); returns how many changed. */
function assignParamLayouts(fn: Operation, ctx: PassContext): number {
  const entry = fn.regions[0]?.blocks[0];
  if (!entry) return 0;
  let changed = 0;
  for (const arg of entry.args) if (arg.type instanceof TensorDescType && assignLayout(arg, fn, ctx)) changed++;
  if (!changed) return 0;
  const ft = functionTypeOf(fn);
  fn.setAttr('function_type', TypeAttr.get(FunctionType.get(entry.args.map((a) => a.type), ft.results)));
  return changed;
}

/**
 * The tile type a descriptor's block lands in (its layout set by `assignLayouts`, its shape the block's less leading 1s); integers are
 * signless there, as in the blocks loaded and stored (a descriptor of an int8 tensor is typed si8).
 */
function tileType(desc: Value, mutable: boolean): MemDescType {
  const t = desc.type as TensorDescType;
  const block = t.blockType;
  return MemDescType.get(t.tileShape, signless(block.elementType), block.encoding, SharedMemorySpaceAttr.get(), mutable);
}

/** An integer constant of `width` bits before `op` (the rewriter then inserts before `op`). */
const constant = (rw: Rewriter, op: Operation, v: number, width: number): Value => arith.ConstantOp.build(rw.before(op), { value: IntegerAttr.get(v, i(width)) }).result;

/**
 * %v = tt.descriptor_load %d[%x, %y]
 *   -> %t = local_alloc; %b = local_alloc; init_barrier %b, 1; barrier_expect %b, N, %true;
 *      async_tma_copy_global_to_local %d[%x, %y] %t, %b, %true; wait_barrier %b, %c0; inval_barrier %b;
 *      %v = local_load %t   (or %t itself for a local_alloc of %v in the same layout; a lone
 *      convert_layout of %v becomes the local_load, in its result layout)
 */
function lowerLoad(op: Operation, rw: Rewriter): void {
  const load = tt.DescriptorLoadOp.view(op);
  const tile = tileType(load.desc, true);
  const yes = constant(rw, op, 1, 1);
  const zero = constant(rw, op, 0, 32);
  const buf = ttg.LocalAllocOp.build(rw, {}, { results: { result: tile } }).result;
  const barrier = ttg.LocalAllocOp.build(rw, {}, { results: { result: barrierBufferType(1) } }).result;
  const bar = slot(rw, barrier, zero);
  ttng.InitBarrierOp.build(rw, { alloc: bar, count: 1 });
  ttng.BarrierExpectOp.build(rw, { alloc: bar, pred: yes, size: blockBytes(tile) });
  const attributes = { cache: op.getAttr('cache')!, evict: op.getAttr('evict')! };
  ttng.AsyncTmaCopyGlobalToLocalOp.build(rw, { desc: load.desc, coord: [...load.indices], barrier: bar, result: buf, pred: yes }, { attributes });
  ttng.WaitBarrierOp.build(rw, { alloc: bar, phase: zero, deps: [] });
  ttng.InvalBarrierOp.build(rw, { alloc: bar });
  const user = load.result.hasOneUse ? load.result.users()[0] : null;
  const stash = ttg.LocalAllocOp.match(user);
  if (stash && (stash.result.type as MemDescType).encoding === tile.encoding) {
    rw.replaceAllUsesWith(stash.result, buf);
    rw.eraseOp(stash.op);
    rw.eraseOp(op);
    followMutability(buf);
    return;
  }
  // a lone layout conversion of the block reads the tile in its target layout instead
  const cvt = ttg.ConvertLayoutOp.match(user);
  const read = ttg.LocalLoadOp.build(rw.before(op), { src: buf }, { results: { result: (cvt ? cvt.result : load.result).type } }).result;
  if (cvt) {
    rw.replaceOp(cvt.op, [read]);
    rw.eraseOp(op);
    return;
  }
  rw.replaceOp(op, [read]);
}

/**
 * Once mutable tile `v` stands for an immutable one: the views of it become mutable too, and a
 * warp-group dot wait passing it through gets its type back out.
 *   %t = ttg.memdesc_trans %v : !ttg.memdesc<..> -> !ttg.memdesc<..>  ->  ... !ttg.memdesc<.., mutable> -> !ttg.memdesc<.., mutable>
 */
function followMutability(v: Value): void {
  for (const u of v.users()) {
    const trans = ttg.MemdescTransOp.match(u);
    if (trans) {
      const t = trans.result.type as MemDescType;
      trans.result.type = MemDescType.get(t.shape, t.elementType, t.encoding, t.memorySpace, true, t.allocShape);
      followMutability(trans.result);
      continue;
    }
    if (!ttng.WarpGroupDotWaitOp.is(u)) continue;
    u.operandValues().forEach((x, k) => {
      if (x !== v || u.result(k).type === v.type) return;
      u.result(k).type = v.type;
      followMutability(u.result(k));
    });
  }
}

/**
 * tt.descriptor_store %d[%x, %y], %v
 *   -> %t = local_alloc %v; fence_async_shared; async_tma_copy_local_to_global %d[%x, %y] %t; async_tma_store_wait {pendings = 0}
 * tt.descriptor_reduce add, %d[%x, %y], %v -> the same with async_tma_reduce add, %d[%x, %y] %t
 * (%v's layout conversion, if it has no other use, is skipped: the tile is stored from its source).
 * Inside a loop that keeps the descriptor, one tile serves every iteration (support/tma-store-reuse.ts).
 */
function lowerStore(op: Operation, rw: Rewriter): void {
  const reduce = tt.DescriptorReduceOp.match(op);
  const store = reduce ?? tt.DescriptorStoreOp.view(op);
  const cvt = store.src.hasOneUse ? ttg.ConvertLayoutOp.match(store.src.definingOp) : null;
  const src = cvt ? cvt.src : store.src;
  const issue = (at: Rewriter, tile: Value): void => {
    if (reduce) ttng.AsyncTmaReduceOp.build(at, { kind: op.getAttr('kind') as IntegerAttr, desc: store.desc, coord: [...store.indices], src: tile });
    else ttng.AsyncTmaCopyLocalToGlobalOp.build(at, { desc: store.desc, coord: [...store.indices], src: tile });
  };
  if (storeThroughReusedTile(op, store.desc, src, tileType(store.desc, false), issue, rw)) {
    if (cvt && !cvt.result.hasUses) rw.eraseOp(cvt.op);
    return;
  }
  rw.before(op);
  const tile = ttg.LocalAllocOp.build(rw, { src }, { results: { result: tileType(store.desc, false) } }).result;
  ttng.FenceAsyncSharedOp.build(rw, { bCluster: boolAttr(false) });
  issue(rw, tile);
  ttng.AsyncTmaStoreWaitOp.build(rw, { pendings: 0 });
  rw.eraseOp(op);
  if (cvt && !cvt.result.hasUses) rw.eraseOp(cvt.op);
}

/**
 * Replaces each descriptor of `makes` made from kernel parameters alone by a hidden tensor-map
 * parameter (one per distinct map); returns the others, which are written on the device.
 *   %d = tt.make_tensor_descriptor %a_ptr, [%M, %K], [%sK, %c1] -> %__desc_a_ptr_0: !tt.tensordesc<..> {tir.tensormap = {base = 0, shape = [3, 5], strides = [5]}}
 */
function hoistToParameters(fn: Operation, makes: readonly Operation[], rw: Rewriter, ctx: PassContext): Operation[] {
  const entry = fn.regions[0].blocks[0];
  const maps = new HiddenTensorMaps(fn);
  const rest = makes.filter((make) => {
    const spec = hostTensormapOf(make, entry);
    if (!spec) return true;
    const base = entry.args[spec.base];
    const name = base.loc instanceof NameLoc ? base.loc.name : base.nameHint ?? `arg${spec.base}`;
    rw.replaceAllUsesWith(make.result(0), maps.get(make.result(0).type as TensorDescType, spec, 'desc', name));
    rw.eraseOp(make);
    return false;
  });
  ctx.bump('descriptors-hoisted', maps.commit());
  return rest;
}

/** The `tma-lowering` pass. */
export const tmaLowering: PassDecl = {
  name: 'tma-lowering',
  aliases: ['triton-nvidia-tma-lowering'],
  summary: 'Lower tensor-descriptor loads and stores to TMA copies tracked by mbarriers (sm_90 and later)',
  anchor: 'function',
  options: {
    'host-maps': { type: 'bool', default: true, description: 'a descriptor made from kernel parameters alone becomes a hidden tensor map the launcher builds (false: every one is written on the device, as Triton does)' },
  },
  statistics: {
    'descriptors-laid-out': 'number of tensor descriptors (parameters and made ones) given a shared layout',
    'descriptors-hoisted': 'number of hidden tensor-map parameters standing for tt.make_tensor_descriptor of kernel parameters',
    'descriptors-made': 'number of tt.make_tensor_descriptor written as tensor maps on the device',
    'loads-lowered': 'number of tt.descriptor_load lowered outside a software pipeline',
    'stores-lowered': 'number of tt.descriptor_store and tt.descriptor_reduce lowered to TMA stores and reductions',
  },
  run(fn, ctx) {
    const ops: Operation[] = [];
    const makes: Operation[] = [];
    fn.walk((op) => {
      if (tt.MakeTensorDescriptorOp.is(op)) makes.push(op);
      else if (tt.DescriptorLoadOp.is(op) || tt.DescriptorStoreOp.is(op) || tt.DescriptorReduceOp.is(op) || UNSUPPORTED.has(op.name)) ops.push(op);
    }, 'pre');
    const hasDescArgs = fn.regions[0]?.blocks[0]?.args.some((a) => a.type instanceof TensorDescType) ?? false;
    if (!ops.length && !makes.length && !hasDescArgs) return ctx.preserve();
    const target = targetOf(fn);
    for (const op of [...makes, ...ops]) {
      const why = UNSUPPORTED.get(op.name);
      if (why) ctx.fail(op, why);
      if (!target.limits?.tma) ctx.fail(op, `needs TMA, which this GPU (ttg.target = ${target.name}) does not have; tensor descriptors need sm_90a`);
      const desc = op.operand(0);
      const param = desc instanceof BlockArgument && desc.owner === fn.regions[0].blocks[0];
      if (!makes.includes(op) && !param && !tt.MakeTensorDescriptorOp.is(desc.definingOp)) ctx.fail(op, 'copies through a descriptor that is neither a kernel parameter nor made by tt.make_tensor_descriptor');
    }
    const rw = ctx.rewriter();
    const onDevice = ctx.options['host-maps'] ? hoistToParameters(fn, makes, rw, ctx) : makes;
    let laidOut = assignParamLayouts(fn, ctx);
    for (const make of onDevice) if (assignLayout(make.result(0), make, ctx)) laidOut++;
    ctx.bump('descriptors-laid-out', laidOut);
    for (const run of runsOf(onDevice)) {
      const acquireAt = run[run.length - 1].next!;
      for (const make of run) {
        const why = expandMakeTensorDescriptor(make, rw, acquireAt);
        if (why) ctx.fail(make, why);
        ctx.bump('descriptors-made');
      }
    }
    for (const op of ops) {
      if (tt.DescriptorLoadOp.is(op)) {
        lowerLoad(op, rw);
        ctx.bump('loads-lowered');
      } else {
        lowerStore(op, rw);
        ctx.bump('stores-lowered');
      }
    }
  },
};
