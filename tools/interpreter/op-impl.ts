/**
 * The shape of the interpreter's op tables: one entry per op kind, keyed by the op definition's
 * name. A typed entry (`impl(tt.LoadOp, (load, it) => ...)`) reads its operands, attributes and
 * regions through the op's view; a family of elementwise ops shares one untyped implementation.
 */
import type { Operation } from '../../ir/ir.js';
import type { OpDef, View } from '../../ir/op-def.js';
import type { OpDecl } from '../../ir/op-spec.js';
import type { Interpreter } from './interpreter.js';
import type { RtValue } from './values.js';

/** How an op computes its result values; operand values come from `it.get(value)`. */
export type OpImpl = (op: Operation, it: Interpreter) => RtValue[];

/** One table entry: an op name and its implementation. */
export type OpEntry = readonly [name: string, impl: OpImpl];

/** The entry of `def`: `fn` reads the op through its typed view (`load.mask`, `reduce.axis`). */
export function impl<D extends OpDecl>(def: OpDef<D>, fn: (op: View<D>, it: Interpreter) => RtValue[]): OpEntry {
  return [def.name, (op, it) => fn(def.view(op), it)];
}

/** The entries of a family of ops sharing an untyped implementation (elementwise ops read their operands in order). */
export function family<T>(defs: readonly (readonly [OpDef, T])[], make: (x: T) => OpImpl): OpEntry[] {
  return defs.map(([def, x]) => [def.name, make(x)] as const);
}
