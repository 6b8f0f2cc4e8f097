/**
 * Every dialect of the project, and the one call that loads them into a context. Importing
 * this module registers nothing.
 */
import { defaultContext, type Context } from '../ir/context.js';
import type { DialectDecl } from '../ir/op-spec.js';
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

/** Loads every dialect into `context` (the default context unless given); loading twice does nothing. */
export function registerAllDialects(context: Context = defaultContext): Context {
  for (const d of allDialects) context.loadDialect(d);
  return context;
}
