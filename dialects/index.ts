/**
 * Registers every dialect with the process-wide registry. Tools and tests import this once.
 */
import { registry, type DialectDecl } from '../ir/op-spec.js';
import '../ir/format.js';
import '../ir/printer.js';
import { arithDialect } from './arith.js';
import { builtinDialect } from './builtin.js';
import { funcDialect } from './func.js';
import { gpuDialect } from './gpu.js';
import { cfDialect } from './cf.js';
import { mathDialect } from './math.js';
import { scfDialect } from './scf.js';
import { ttDialect } from './tt/index.js';
import { ttgDialect } from './ttg/index.js';
import { ttngDialect } from './ttng.js';
import { nvptxDialect } from './nvptx.js';

/** Every dialect table, in registration order. */
export const allDialects: DialectDecl[] = [
  builtinDialect, funcDialect, arithDialect, mathDialect, scfDialect, cfDialect, gpuDialect, ttDialect, ttgDialect, ttngDialect, nvptxDialect,
];

/** Registers all dialects (idempotent). */
export function registerAllDialects(): void {
  for (const d of allDialects) registry.register(d);
}

registerAllDialects();
