/**
 * Helpers shared by the tt op tables: type inference as Triton's `TypesMatchWith` rules do it,
 * and the checks behind several verifiers.
 */
import type { Operation } from '../../ir/ir.js';
import type { CustomDirective, OpDecl, TypeEnv } from '../../ir/op-spec.js';
import { UnitAttr } from '../../ir/attributes.js';
import { RankedTensorType, type Type, i } from '../../ir/types.js';
import { PointerType } from './types.js';
import { defineOp, type OpDef } from '../../ir/op-def.js';
import { defineTrait } from '../../ir/traits.js';

/** Triton's `getPointeeType`: `tensor<4x!tt.ptr<f32>, #e>` gives `tensor<4xf32, #e>`, `!tt.ptr<T>` gives `T`. */
export function pointeeOf(t: Type): Type | undefined {
  if (t instanceof PointerType) return t.pointee;
  if (t instanceof RankedTensorType && t.elementType instanceof PointerType) return t.withElementType(t.elementType.pointee);
  return undefined;
}

/** Triton's `getI1SameShape`: i1 with the shape and encoding of `t` (plain i1 for scalars). */
export function i1SameShape(t: Type): Type {
  if (t instanceof RankedTensorType) return t.withElementType(i(1));
  return i(1);
}

/** Triton's `getPointerTypeSameShape`: pointers to the elements of `t`, keeping shape and encoding. */
export function pointerSameShape(t: Type): Type {
  if (t instanceof RankedTensorType) return t.withElementType(PointerType.get(t.elementType));
  return PointerType.get(t);
}

/** The first type of group `name` in a type environment. */
export function firstType(env: TypeEnv, name: string, result = false): Type | undefined {
  const ts = result ? env.result(name) : env.operand(name);
  return ts?.[0];
}

/** An inference rule giving group `name`'s type from another group's first type. */
export function inferFrom(from: string, fn: (t: Type) => Type | undefined, fromResult = false): (env: TypeEnv) => Type[] | undefined {
  return (env) => {
    const t = firstType(env, from, fromResult);
    if (!t) return undefined;
    const r = fn(t);
    return r ? [r] : undefined;
  };
}

/** The most elements a tensor may have (Triton's TensorSizeTrait limit, 2^20). */
export const MAX_TENSOR_ELEMENTS = 1048576;

/** Triton's `TensorSizeTrait` (on every tt op): tensors have a power-of-two number of elements, at most 2^20. */
export function checkTensorSizes(op: Operation): string | void {
  for (const v of [...op.operandValues(), ...op.results]) {
    const t = v.type;
    if (!(t instanceof RankedTensorType)) continue;
    const n = t.numElements;
    if (n < 0) continue;
    if (n > MAX_TENSOR_ELEMENTS) return `Maximum allowed number of elements is ${MAX_TENSOR_ELEMENTS}, but ${t} has more than that`;
    if ((n & (n - 1)) !== 0) return `Number of elements must be power-of-two, but ${t} doesn't follow the rule (${n}) elements`;
  }
}

/** Triton's `TensorSizeTrait`, which every `TT_Op` has. */
export const TensorSize = defineTrait('TensorSizeTrait', 'tensors have a power-of-two number of elements, at most 2^20', (op) => checkTensorSizes(op) ?? undefined);

/** `defineOp` for tt ops: adds the trait every `TT_Op` gets (`TensorSizeTrait`). */
export function defineTTOp<const D extends OpDecl>(decl: D): OpDef<D> {
  return defineOp({ ...decl, traits: [...(decl.traits ?? []), TensorSize] }) as unknown as OpDef<D>;
}

/**
 * `custom<UnitKeyword>($name)`: the ODS group (`name` $name^)? for a unit attribute, written as the
 * bare keyword `name` when the attribute is set.
 */
export const unitKeyword: CustomDirective = {
  parse(p, args) {
    const name = args[0].slice(1);
    if (p.parseOptionalKeyword(name) !== undefined) p.setProperty(name, UnitAttr.get());
  },
  print(p, op, args) {
    const name = args[0].slice(1);
    if (op.getAttr(name) instanceof UnitAttr) p.write(` ${name}`);
  },
};
