/**
 * Symbol tables: ops with a `sym_name` inside ops with the `SymbolTable` trait (modules).
 */
import { StringAttr } from './attributes.js';
import type { Operation } from './ir.js';
import { SymbolTable } from './traits.js';

/** The nearest enclosing symbol-table op of `op` (e.g. its module). */
export function symbolTableOf(op: Operation): Operation | null {
  for (let p = op.parentOp; p; p = p.parentOp) if (p.hasTrait(SymbolTable)) return p;
  return null;
}

/** Finds the symbol `name` in the symbol table enclosing `from`. */
export function lookupSymbol(from: Operation, name: string): Operation | null {
  const table = from.hasTrait(SymbolTable) ? from : symbolTableOf(from);
  if (!table) return null;
  for (const b of table.regions[0]?.blocks ?? []) {
    for (let op = b.first; op; op = op.next) {
      const n = op.getAttr('sym_name');
      if (n instanceof StringAttr && n.value === name) return op;
    }
  }
  return null;
}
