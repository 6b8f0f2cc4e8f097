/**
 * A tensor descriptor made on the device (`tl.make_tensor_descriptor`). One made from kernel
 * parameters alone is the same map at every program and every launch's argument values, so it
 * becomes a hidden tensor-map parameter the launcher builds (`hostTensormapOf`; no map is written
 * on the device at all). Any other is written as Triton's TMA lowering writes it: a 128-byte tensor map in the program's global scratch, written by the CTA and fenced
 * for the TMA unit before any copy reads it.
 *
 *   %d = tt.make_tensor_descriptor %p, [%m, %k], [%sk, %c1] : !tt.ptr<f16>, !tt.tensordesc<tensor<128x64xf16, #shared>>
 *   -> %s = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
 *      ttng.tensormap_create %s, %p, [%c64, %c128], [%k, %m], [%sk * 2], [%c1, %c1] {elem_type = 6 : i32, ...}
 *      ttng.tensormap_fenceproxy_acquire %s : !tt.ptr<i8>
 *      %d = ttng.reinterpret_tensor_descriptor %s : !tt.ptr<i8> to !tt.tensordesc<tensor<128x64xf16, #shared>>
 *
 * Descriptors made one after another (`runsOf`) write all their maps first and acquire them after:
 * each map's scratch then lives until its acquire, so the target writes them at once.
 *
 * The map's fields come from the descriptor's type once its block has a shared layout: the box of
 * `tmaGeometry` (the one the copies through it move), the element type, the swizzle; dims and strides
 * go innermost first, strides in bytes and without the innermost one, which must be 1.
 */
import { IntegerAttr } from '../../ir/attributes.js';
import { BlockArgument, type Block, type Operation, type Value } from '../../ir/ir.js';
import type { Rewriter } from '../../ir/rewriter.js';
import { constantInt } from '../../ir/patterns.js';
import { Pure } from '../../ir/traits.js';
import { FloatType, IntegerType, bitWidth, i, type Type } from '../../ir/types.js';
import * as arith from '../../dialects/arith.js';
import * as tt from '../../dialects/tt/index.js';
import * as ttg from '../../dialects/ttg/index.js';
import * as ttng from '../../dialects/ttng.js';
import { TensorDescType } from '../../dialects/tt/types.js';
import { PaddingOption } from '../../dialects/tt/enums.js';
import { TENSOR_MAP_BYTES } from '../../dialects/ttg/target.js';
import { tmaGeometry } from '../../dialects/ttg/tma-geometry.js';

/** The tensor map's element type code (PTX ISA, `tensormap.replace` `.elemtype`) for `t`, or null. */
export function tensormapElementType(t: Type): number | null {
  if (t instanceof FloatType) {
    const codes: Record<string, number> = { f16: 6, f32: 7, f64: 9, bf16: 10 };
    // fp8 formats move as bytes
    return codes[t.kind] ?? (t.width === 8 ? 0 : null);
  }
  if (!(t instanceof IntegerType)) return null;
  const signed = t.signedness === 'signed';
  switch (t.width) {
    case 8:
      return 0;
    case 16:
      return 1;
    case 32:
      return signed ? 3 : 2;
    case 64:
      return signed ? 5 : 4;
    default:
      return null;
  }
}

/**
 * `v` as a product of integer parameters of the kernel whose entry block is `entry` and a constant
 * (parameters, integer constants, `arith.muli` of such, sign extensions, which keep the value), or
 * null. A parameter alone is its index.
 */
function termOf(v: Value, entry: Block): tt.TensormapTerm | null {
  const product = (t: tt.TensormapTerm): { params: readonly number[]; times: number } => (typeof t === 'number' ? { params: [t], times: 1 } : t);
  let term: tt.TensormapTerm | null = null;
  const c = constantInt(v);
  if (v instanceof BlockArgument) term = v.owner === entry && v.type instanceof IntegerType ? v.index : null;
  else if (c !== null) term = { params: [], times: c };
  else if (arith.ExtSIOp.is(v.definingOp)) term = termOf(v.definingOp!.operand(0), entry);
  else if (arith.MulIOp.is(v.definingOp)) {
    const [a, b] = v.definingOp!.operandValues().map((x) => termOf(x, entry));
    if (a === null || b === null) return null;
    const [pa, pb] = [product(a), product(b)];
    term = { params: [...pa.params, ...pb.params], times: pa.times * pb.times };
  }
  if (term === null || (typeof term !== 'number' && !Number.isSafeInteger(term.times))) return null;
  return typeof term !== 'number' && term.times === 1 && term.params.length === 1 ? term.params[0] : term;
}

/**
 * The launcher-built map (`tir.tensormap`) that descriptor `make` stands for, when it is made from
 * parameters of the kernel whose entry block is `entry` alone: its base a pointer parameter, each
 * dim and each stride but the innermost a product of integer parameters and a constant (`termOf`),
 * the innermost stride the constant 1, and zero padding (what a host-built map reads out of
 * bounds). Else null. The launcher computes the products exactly and refuses a dim past i32, where
 * the kernel's own arithmetic would have wrapped.
 */
export function hostTensormapOf(make: Operation, entry: Block): tt.HostTensormap | null {
  const view = tt.MakeTensorDescriptorOp.view(make);
  const rank = (view.result.type as TensorDescType).blockType.rank;
  const base = view.base instanceof BlockArgument && view.base.owner === entry ? view.base.index : null;
  const shape = view.rest.slice(0, rank).map((v) => termOf(v, entry));
  const strides = view.rest.slice(rank, 2 * rank - 1).map((v) => termOf(v, entry));
  const zeroPadding = make.getAttr('padding') !== PaddingOption.byName('nan');
  if (base === null || !zeroPadding || constantInt(view.rest[2 * rank - 1]) !== 1) return null;
  if (shape.some((t) => t === null) || strides.some((t) => t === null)) return null;
  return { base, shape: shape as tt.TensormapTerm[], strides: strides as tt.TensormapTerm[], positive: [] };
}

/** The tensor map's swizzle code for rows swizzled over `bytes` bytes (0: none). */
const SWIZZLE_CODES: Readonly<Record<number, number>> = { 0: 0, 32: 1, 64: 2, 128: 3 };

/**
 * `makes` (in program order) in runs: descriptors made one after another in a block with nothing
 * but pure ops between them. The maps of a run are written at once, each by its own warp, and
 * acquired together after the last (targets/nvptx/tensormap.ts).
 */
export function runsOf(makes: readonly Operation[]): Operation[][] {
  const runs: Operation[][] = [];
  for (const make of makes) {
    const run = runs[runs.length - 1];
    const last = run?.[run.length - 1];
    let between = last && last.parent === make.parent ? last.next : null;
    while (between && between !== make && between.hasTrait(Pure)) between = between.next;
    if (last && between === make) run.push(make);
    else runs.push([make]);
  }
  return runs;
}

/**
 * Rewrites one `tt.make_tensor_descriptor` whose result type already has its shared layout into the
 * four ops above, the fence and the reinterpretation before `acquireAt` (after the rest of its run);
 * returns why it cannot (the op is left as it was), or null.
 */
export function expandMakeTensorDescriptor(op: Operation, rw: Rewriter, acquireAt: Operation): string | null {
  const make = tt.MakeTensorDescriptorOp.view(op);
  const type = make.result.type as TensorDescType;
  const geometry = tmaGeometry(type);
  if (typeof geometry === 'string') return geometry;
  const elt = type.blockType.elementType;
  const elemType = tensormapElementType(elt);
  if (elemType === null) return `makes a descriptor of '${elt}' elements; a tensor map holds integers and floats of 8 to 64 bits`;
  const rank = type.blockType.rank;
  const shape = make.rest.slice(0, rank);
  const strides = make.rest.slice(rank);
  if (constantInt(strides[rank - 1]) !== 1) return 'makes a descriptor whose innermost stride is not the constant 1; TMA reads rows of consecutive elements';
  const bytes = bitWidth(elt) / 8;
  rw.before(op);
  const int = (v: number, width: number): Value => arith.ConstantOp.build(rw, { value: IntegerAttr.get(v, i(width)) }).result;
  const byteStride = (s: Value): Value => (bytes === 1 ? s : arith.MulIOp.build(rw, { lhs: s, rhs: int(bytes, 64) }).result);
  const one = int(1, 32);
  const scratch = ttg.GlobalScratchAllocOp.build(rw, { nbytes: TENSOR_MAP_BYTES, alignment: TENSOR_MAP_BYTES }, { results: { result: tt.PointerType.get(i(8), 1) } }).result;
  ttng.TensormapCreateOp.build(rw, {
    desc_ptr: scratch,
    global_address: make.base,
    box_dim: [...geometry.box].reverse().map((d) => int(d, 32)),
    global_dim: [...shape].reverse(),
    global_stride: strides.slice(0, rank - 1).reverse().map(byteStride),
    element_stride: shape.map(() => one),
    elem_type: elemType,
    interleave_layout: 0,
    swizzle_mode: SWIZZLE_CODES[geometry.swizzleBytes],
    fill_mode: op.getAttr('padding') === PaddingOption.byName('nan') ? 1 : 0,
  });
  ttng.TensormapFenceproxyAcquireOp.build(rw.before(acquireAt), { desc_ptr: scratch });
  const desc = ttng.ReinterpretTensorDescOp.build(rw, { rawDesc: scratch }, { results: { result: type } }).result;
  rw.replaceOp(op, [desc]);
  return null;
}
