/**
 * Tensor maps written on the device (`tl.make_tensor_descriptor`, expanded by tma-lowering): the
 * program's global scratch, and the three ops that write a tensor map there and make it visible to
 * the TMA unit, as Triton's NVIDIA backend does it:
 *
 *  - one warp zeroes the op's 128 bytes of shared scratch; its first lane writes each field with
 *    `tensormap.replace` (address, rank, box, dims, byte strides, element strides, element type,
 *    interleave, swizzle, fill); the warp copies the map to global memory and releases it to the
 *    tensormap proxy (`tensormap.cp_fenceproxy`). The k-th of maps written one after another (their
 *    scratch apart, alloc-shared) is written by warp k mod W, so they are written at once;
 *  - after a barrier (once for acquires one after another), every thread acquires the map
 *    (`fence.proxy.tensormap::generic.acquire`) before its copies read it;
 *  - the descriptor register is the map's global address (a generic address, as TMA takes it).
 *
 * insert-barriers keeps the scratch apart from other ops' use of the same bytes, as for any op
 * scratch. The module's PTX is printed at `TENSORMAP_PTX_VERSION` (arch.ts).
 */
import type { Operation, Value } from '../../ir/ir.js';
import { Pure } from '../../ir/traits.js';
import * as ttg from '../../dialects/ttg/index.js';
import * as ttng from '../../dialects/ttng.js';
import * as nvptx from '../../dialects/nvptx.js';
import { TENSOR_MAP_BYTES } from '../../dialects/ttg/target.js';
import { lowering, requireHopper, type Lowering, type LoweringContext } from './context.js';
import { I32, I64, internalError } from './emitter.js';
import { scratchBase, storeShared } from './tensor.js';

/** Where each `ttg.global_scratch_alloc` of `fn` lies in a program's scratch, and the bytes a program needs (0: none). */
export function globalScratchLayout(fn: Operation): { bytesPerProgram: number; offsets: Map<Operation, number> } {
  const offsets = new Map<Operation, number>();
  let end = 0;
  fn.walk((op) => {
    const alloc = ttg.GlobalScratchAllocOp.match(op);
    if (!alloc) return;
    const align = Math.max(1, alloc.alignment);
    const at = Math.ceil(end / align) * align;
    offsets.set(op, at);
    end = at + alloc.nbytes;
  });
  return { bytesPerProgram: Math.ceil(end / TENSOR_MAP_BYTES) * TENSOR_MAP_BYTES, offsets };
}

/** The program's linear index, `ctaid.x + nctaid.x * (ctaid.y + nctaid.y * ctaid.z)`, in 64 bits (hoisted). */
function linearProgramId(ctx: LoweringContext): Value {
  return ctx.hoist('linear-pid', () => {
    const e = ctx.e;
    const [x, y, z] = ['x', 'y', 'z'].map((a) => e.sreg(`ctaid.${a}`));
    const [nx, ny] = ['x', 'y'].map((a) => e.sreg(`nctaid.${a}`));
    const yz = e.op('mad', 'lo.u32', [ny, z, y], I32);
    return e.add(e.intCast(x, I64, 'u'), e.op('mul', 'wide.u32', [nx, yz], I64));
  });
}

/** How many ops of kind `is` precede `op` in its block with only pure ops (or `alsoSkip` ops) between. */
function runPosition(op: Operation, is: (o: Operation) => boolean, alsoSkip: (o: Operation) => boolean): number {
  let k = 0;
  for (let at = op.prev; at; at = at.prev) {
    if (is(at)) k++;
    else if (!at.hasTrait(Pure) && !alsoSkip(at)) break;
  }
  return k;
}

/** `tid.x / 32 == w`: the threads of warp `w` (hoisted). */
function inWarp(ctx: LoweringContext, w: number): Value {
  return ctx.hoist(`warp:${w}`, () => ctx.e.setp('eq', 'u', ctx.warpId(), ctx.e.imm(I32, w)));
}

/** `tid.x == 32 w`: the first lane of warp `w` (hoisted). */
function firstLaneOf(ctx: LoweringContext, w: number): Value {
  return ctx.hoist(`lane0:${w}`, () => ctx.e.setp('eq', 'u', ctx.tid(), ctx.e.imm(I32, w * ctx.threadsPerWarp)));
}

/** ttg.global_scratch_alloc -> %scratch + linear_pid * bytesPerProgram + offset */
const lowerGlobalScratchAlloc = lowering(ttg.GlobalScratchAllocOp, (ctx, { op, result }) => {
  const scratch = ctx.globalScratch;
  const offset = scratch?.offsets.get(op);
  if (!scratch || offset === undefined) throw internalError(op, 'a global scratch allocation outside the kernel\'s scratch layout');
  const e = ctx.e;
  const program = e.add(scratch.base, e.mulImm(linearProgramId(ctx), scratch.bytesPerProgram));
  ctx.set(result, [e.addImm(program, offset)]);
});

/** ttng.tensormap_create %g, %p, [box], [dims], [strides], [elt strides] -> warp k zeroes its shared map, its lane 0 writes each field, the warp copies it to %g */
const lowerTensormapCreate = lowering(ttng.TensormapCreateOp, (ctx, create) => {
  const { op } = create;
  requireHopper(ctx, op, 'writing a tensor map on the device (tensormap.replace)');
  const e = ctx.e;
  const warp = runPosition(op, ttng.TensormapCreateOp.is, ttg.GlobalScratchAllocOp.is) % ctx.numWarps;
  const writer = firstLaneOf(ctx, warp);
  const smem = scratchBase(ctx, op, TENSOR_MAP_BYTES);
  const map = e.intCast(smem, I64, 'u');
  const warpSync = () => nvptx.BarOp.build(ctx.b, { ptx: 'warp.sync' });
  const replace = (field: string, value: Value | number, ord?: number) => {
    const given = typeof value === 'number' ? { immediate: value } : { value };
    nvptx.TensormapReplaceOp.build(ctx.b, { addr: map, guard: writer, field, ...given, ...(ord === undefined ? {} : { ord }) });
  };
  const regs = (vs: readonly Value[]) => vs.map((v) => ctx.scalar(v, op));
  storeShared(ctx, e.add(smem, e.shl(ctx.laneId(), 2)), e.imm(I32, 0), inWarp(ctx, warp));
  warpSync();
  replace('global_address', ctx.scalar(create.global_address, op));
  replace('rank', create.box_dim.length - 1);
  regs(create.box_dim).forEach((v, d) => replace('box_dim', v, d));
  regs(create.global_dim).forEach((v, d) => replace('global_dim', v, d));
  regs(create.global_stride).forEach((v, d) => replace('global_stride', v, d));
  regs(create.element_stride).forEach((v, d) => replace('element_stride', v, d));
  replace('elemtype', create.elem_type);
  replace('interleave_layout', create.interleave_layout);
  replace('swizzle_mode', create.swizzle_mode);
  replace('fill_mode', create.fill_mode);
  warpSync();
  nvptx.TensormapCopyOp.build(ctx.b, { dst: ctx.scalar(create.desc_ptr, op), src: map, guard: inWarp(ctx, warp) });
});

/** ttng.tensormap_fenceproxy_acquire %g -> bar.sync (the first of acquires one after another); fence.proxy.tensormap::generic.acquire.gpu [%g], 128 */
const lowerTensormapAcquire = lowering(ttng.TensormapFenceproxyAcquireOp, (ctx, { op, desc_ptr }) => {
  requireHopper(ctx, op, 'a tensormap fence (fence.proxy.tensormap)');
  // the writing warps' releases come before every thread's acquire
  if (!runPosition(op, ttng.TensormapFenceproxyAcquireOp.is, () => false)) ctx.e.barrier();
  nvptx.TensormapAcquireOp.build(ctx.b, { addr: ctx.scalar(desc_ptr, op) });
});

/** ttng.reinterpret_tensor_descriptor %g -> %g (the descriptor register is the map's address) */
const lowerReinterpret = lowering(ttng.ReinterpretTensorDescOp, (ctx, { op, rawDesc, result }) => {
  ctx.set(result, [ctx.scalar(rawDesc, op)]);
});

/** Global scratch and tensor maps written on the device. */
export const TENSORMAP_RULES: readonly Lowering[] = [lowerGlobalScratchAlloc, lowerTensormapCreate, lowerTensormapAcquire, lowerReinterpret];
