/**
 * Helpers shared by `coalesce` and `vectorize`: which ops are global memory accesses, their
 * pointer operand, the element size they move, and the launch configuration around them.
 */
import { isVersions } from './versioned-if.js';
import type { Operation, Value } from '../../ir/ir.js';
import { bitWidth, elementTypeOf, RankedTensorType } from '../../ir/types.js';
import { PointerType } from '../../dialects/tt/types.js';
import { ctaFields } from '../../dialects/ttg/layout-lib.js';
import { isTtgLayout } from '../../dialects/ttg/layout-attrs.js';
import type { GpuConfig } from './convert-to-gpu-layouts.js';
import { FunctionLike } from '../../ir/traits.js';
import { targetOf } from '../../dialects/ttg/target.js';
import * as tt from '../../dialects/tt/index.js';
import * as builtin from '../../dialects/builtin.js';
import { DisjointSets } from './disjoint-sets.js';

/**
 * The typed view of a global memory access (Triton's getMemAccessPtr set, less the async copies:
 * `tt.load`, `tt.store`, `tt.atomic_rmw`, `tt.atomic_cas`), else null.
 */
export function accessOf(op: Operation) {
  return tt.LoadOp.match(op) ?? tt.StoreOp.match(op) ?? tt.AtomicRmwOp.match(op) ?? tt.AtomicCasOp.match(op);
}

/** The pointer operand of an access through a tensor of pointers (`tensor<Nx!tt.ptr<T>>`), else undefined. */
export function tensorPtrOf(op: Operation): Value | undefined {
  const ptr = accessOf(op)?.ptr;
  const t = ptr?.type;
  return t instanceof RankedTensorType && t.elementType instanceof PointerType ? ptr : undefined;
}

/** Bits of one element a tensor of pointers points to (64 for pointers to pointers, as Triton's getElementBitWidth). */
export function pointeeBits(ptr: Value): number {
  const p = elementTypeOf(ptr.type);
  if (!(p instanceof PointerType)) return 8;
  const e = elementTypeOf(p.pointee);
  if (e instanceof PointerType) return 64;
  return Math.max(1, bitWidth(e));
}

/** The shape of the part of `t` one CTA holds (the shape divided by the layout's CTASplitNum). */
export function shapePerCTA(t: RankedTensorType): number[] {
  const enc = t.encoding;
  if (!isTtgLayout(enc)) return [...t.shape];
  let split: number[];
  try {
    split = ctaFields(enc).splitNum;
  } catch {
    return [...t.shape];
  }
  return t.shape.map((s, d) => Math.max(1, Math.floor(s / (split[d] ?? 1))));
}

/** The launch shape of the module around `op` (its target's warps, threads per warp and CTAs). */
export function gpuConfigOf(op: Operation): GpuConfig {
  const { numWarps, threadsPerWarp, numCTAs } = targetOf(op);
  return { numWarps, threadsPerWarp, numCTAs };
}

/**
 * The ops connected to each op through def-use edges (an op with its operands' defining ops and
 * its results' users) and through region nesting (a region op with the ops inside it): Triton's
 * multiRootGetSlice, as components. Function-like ops, the module and a versioned `scf.if`
 * (support/versioned-if.ts: its regions are alternative copies of one body) do not join their bodies.
 */
export class SliceComponents {
  private readonly sets = new DisjointSets<Operation>();

  constructor(root: Operation) {
    root.walk((op) => {
      if (op === root || op.hasTrait(FunctionLike)) return;
      for (const v of op.operandValues()) {
        const def = v.definingOp;
        if (def && !def.hasTrait(FunctionLike)) this.sets.union(op, def);
      }
      const outer = op.parentOp;
      // The regions of a versioned if are alternative bodies: never joined through the if.
      if (outer && outer !== root && !outer.hasTrait(FunctionLike) && !builtin.ModuleOp.is(outer) && !isVersions(outer)) this.sets.union(op, outer);
    }, 'pre');
  }

  /** The representative of `op`'s component. */
  find(op: Operation): Operation {
    return this.sets.find(op);
  }
}

/** The mask operand of an access (tt.load / tt.store / tt.atomic_rmw), if it has one. */
export function maskOf(op: Operation): Value | undefined {
  return (tt.LoadOp.match(op) ?? tt.StoreOp.match(op) ?? tt.AtomicRmwOp.match(op))?.mask;
}
