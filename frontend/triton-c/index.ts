/**
 * The Triton-C frontend's entry: preprocess (with `-D` definitions), parse, check and generate a
 * tt-dialect module. Every user error is a located `DiagnosticError`.
 */
import { registerAllDialects } from '../../dialects/index.js';
import { SourceFile } from '../../ir/diagnostics.js';
import type { Operation } from '../../ir/ir.js';
import type { Program } from './ast.js';
import { generateModule, type FrontendOptions } from './irgen.js';
import { parseTritonC } from './parser.js';
import { preprocess } from './preprocessor.js';
import { DiagContext, type SourceMapLike } from './sema-diag.js';


export { DiagContext } from './sema-diag.js';
export { generateModule, type FrontendOptions } from './irgen.js';

/**
 * Compiles Triton-C `source` (named `fileName` in diagnostics and locations) with the macro
 * `defines` (`{ TM: '64' }` for `-DTM=64`) to a `builtin.module` of `tt.func`s. The module is
 * not verified here (callers run `verify`); it verifies for every program the frontend accepts.
 * `options.allowTf32` lets f32 `@` run as tf32 (`inputPrecision = tf32`); by default it is ieee.
 */
export function compileTritonC(source: string, fileName: string, defines: Record<string, string> = {}, options: FrontendOptions = {}): Operation {
  registerAllDialects(); // the ops it builds (idempotent)
  const pp = preprocess(new SourceFile(fileName, source), { defines });
  const program = parseTritonC(pp.text, fileName, (offset) => pp.map.locate(offset));
  return generateModule(program, new DiagContext(fileName, pp.text, pp.map), options);
}

/** Generates IR for an already parsed program whose positions index `text` (mapped back through `map` if given). */
export function compileProgram(program: Program, text: string, fileName: string, map?: SourceMapLike, options: FrontendOptions = {}): Operation {
  registerAllDialects(); // the ops it builds (idempotent)
  return generateModule(program, new DiagContext(fileName, text, map), options);
}
