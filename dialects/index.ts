/**
 * Registers every dialect with the process-wide registry. Tools and tests import this once.
 */
import { registry, type DialectDecl } from '../ir/op-spec.js';
import '../ir/format.js';
import '../ir/printer.js';
import { arithDialect } from './arith.js';
import { builtinDialect } from './builtin.js';
import { funcDialect } from './func.js';
import { scfDialect } from './scf.js';

/** Every dialect table, in registration order. */
export const allDialects: DialectDecl[] = [builtinDialect, funcDialect, arithDialect, scfDialect];

/** Registers all dialects (idempotent). */
export function registerAllDialects(): void {
  for (const d of allDialects) registry.register(d);
}

registerAllDialects();
