/**
 * The axis hints `tt.divisibility`, `tt.contiguity` and `tt.constancy` (Triton's `tl.multiple_of`,
 * `tl.max_contiguous`, and the launcher's specialization of arguments), checked where they enter:
 * on a `tt.func` argument (its `arg_attrs`) or as a discardable attribute of any op. The axis
 * analysis then reads only a value per dimension of the hinted value, each a positive 32-bit integer.
 */
import { DenseArrayAttr, DenseElementsAttr, IntegerAttr, type Attribute } from '../../ir/attributes.js';
import type { Operation } from '../../ir/ir.js';
import { IntegerType, RankedTensorType, type Type } from '../../ir/types.js';
import { argAttrsOf } from '../../ir/function-syntax.js';
import { PointerType } from './types.js';

/** The hint attribute names, each giving one value per dimension of the value it is on. */
export const AXIS_HINTS: ReadonlySet<string> = new Set(['tt.divisibility', 'tt.contiguity', 'tt.constancy']);

const MAX_HINT = 2 ** 31 - 1;

/** How many dimensions a value of type `t` has for the axis analysis (a scalar has one). */
function hintRank(t: Type): number {
  if (t instanceof RankedTensorType) return Math.max(t.rank, 1);
  if (t instanceof PointerType && t.pointee instanceof RankedTensorType) return t.pointee.rank;
  return 1;
}

/**
 * Why hint `name` = `value` cannot describe a value of type `t` (or `undefined` when it can): an
 * integer, or a dense integer vector / array with one element per dimension, each in [1, 2^31-1].
 */
export function checkAxisHint(name: string, value: Attribute, t: Type | null): string | undefined {
  let values: bigint[];
  if (value instanceof IntegerAttr) values = [value.value];
  else if (value instanceof DenseElementsAttr && value.type.elementType instanceof IntegerType && value.rawHex === null) {
    if (value.type.rank !== 1) return `'${name}' must be an integer or a 1-D vector of integers, not ${value}`;
    const n = value.type.numElements;
    if (t && n !== hintRank(t)) return `'${name}' has ${n} values for a value of rank ${hintRank(t)} ('${t}')`;
    if (n > 64) return `'${name}' has ${n} values: one per dimension is expected`;
    values = Array.from({ length: n }, (_, k) => BigInt(value.at(k)));
  } else if (value instanceof DenseArrayAttr && value.elementType instanceof IntegerType) {
    if (t && value.values.length !== hintRank(t)) return `'${name}' has ${value.values.length} values for a value of rank ${hintRank(t)} ('${t}')`;
    values = value.values.map((v) => BigInt(v));
  } else return `'${name}' must be an integer or a vector of integers, not ${value}`;
  for (const v of values) if (v < 1n || v > BigInt(MAX_HINT)) return `'${name}' values must be in [1, ${MAX_HINT}], got ${v}`;
  return undefined;
}

/** Triton's unroll request on an `scf.for` (`tl.range(..., loop_unroll_factor=N)`): the loop is unrolled N times (`unroll-loops`). */
export const LOOP_UNROLL_FACTOR = 'tt.loop_unroll_factor';

/** The largest `tt.loop_unroll_factor` accepted (each unit is a copy of the loop body). */
export const MAX_LOOP_UNROLL_FACTOR = 64;

/** Why `tt.loop_unroll_factor` = `value` on `op` is not a request to unroll it (or `undefined` when it is). */
function checkUnrollFactor(op: Operation, value: Attribute): string | undefined {
  if (op.name !== 'scf.for') return `'${LOOP_UNROLL_FACTOR}' belongs on an 'scf.for', not on '${op.name}'`;
  if (!(value instanceof IntegerAttr)) return `'${LOOP_UNROLL_FACTOR}' must be an integer, not ${value}`;
  if (value.value < 1n || value.value > BigInt(MAX_LOOP_UNROLL_FACTOR)) return `'${LOOP_UNROLL_FACTOR}' must be in [1, ${MAX_LOOP_UNROLL_FACTOR}], got ${value.value}`;
  return undefined;
}

/** The tt dialect's check of its discardable attributes: the axis hints on an op's result, and an unroll factor on a loop. */
export function verifyTTAttribute(op: Operation, name: string, value: Attribute): string | void {
  if (name === LOOP_UNROLL_FACTOR) return checkUnrollFactor(op, value);
  if (!AXIS_HINTS.has(name)) return;
  return checkAxisHint(name, value, op.results.length === 1 ? op.results[0].type : null);
}

/** The axis hints on a function's arguments (`%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}`). */
export function verifyArgumentHints(op: Operation, inputs: readonly Type[]): string | void {
  for (let k = 0; k < inputs.length; k++) {
    for (const [name, value] of argAttrsOf(op, k)) {
      if (!AXIS_HINTS.has(name)) continue;
      const why = checkAxisHint(name, value, inputs[k]);
      if (why) return `argument #${k}: ${why}`;
    }
  }
}
