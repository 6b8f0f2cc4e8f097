/**
 * triton-ir's public API: what `import { ... } from 'triton-ir'` gives a pass author.
 *
 * It lives in `tools/`, the bottom layer of DESIGN.md's order, because it re-exports every
 * layer above it (ir, dialects, passes, frontend, targets).
 *
 * Importing this module gives a ready context: it loads every dialect into `defaultContext`
 * and registers every pass in `defaultPassRegistry` (the one import side effect of the
 * project; the modules it re-exports register nothing on import). So `parse`, `runPipeline`
 * and `Builder` work at once, and `registerPass` adds a pass of your own beside ours.
 *
 * ```ts
 * import { parse, print, runPipeline, tt } from 'triton-ir';
 * const module = parse(text, 'kernel.ttir');
 * module.walk((op) => { if (tt.LoadOp.is(op)) ... });
 * runPipeline(module, 'canonicalize,cse');
 * console.log(print(module));
 * ```
 */
import type { Attribute } from '../ir/attributes.js';
import { Context, defaultContext } from '../ir/context.js';
import type { Operation } from '../ir/ir.js';
import { parseText } from '../ir/parser.js';
import { printModule } from '../ir/printer.js';
import type { Type } from '../ir/types.js';
import { registerAllDialects } from '../dialects/index.js';
import { registerAllPasses } from '../passes/all.js';
import { defaultPassRegistry } from '../passes/registry.js';

registerAllDialects(defaultContext);
registerAllPasses(defaultPassRegistry);

// ---- text in, text out ----------------------------------------------------------------------

/** Options of `parse`. */
export interface ParseOptions {
  /** The dialects to parse with (default: `defaultContext`, which has every dialect). */
  context?: Context;
  /** Keep ops, types and attributes of unknown dialects as opaque (mlir-opt's `--allow-unregistered-dialect`). */
  allowUnregisteredDialect?: boolean;
}

/** What `parse` saw that the printer keeps: the file's alias names and its `{-# ... #-}` section. */
const parsedExtras = new WeakMap<Operation, { aliasNames: Map<Attribute | Type, string>; resources: string | null }>();

/**
 * Parses MLIR text (a Triton dump, `.ttir`/`.ttgir`, or our `.tir`) into its top-level
 * `builtin.module` op. `fileName` names the text in diagnostics and locations. Throws a
 * `DiagnosticError` at the first error (`e.diagnostic.format()` gives `file:line:col: error: ...`
 * with the source line). The module is not verified: call `verify`.
 */
export function parse(text: string, fileName = '<string>', options: ParseOptions = {}): Operation {
  const parsed = parseText(text, { context: options.context ?? defaultContext, allowUnregisteredDialect: options.allowUnregisteredDialect }, fileName);
  parsedExtras.set(parsed.module, { aliasNames: parsed.aliasNames, resources: parsed.resources });
  return parsed.module;
}

/** Options of `print`. */
export interface PrintOptions {
  /** MLIR's generic form for every op (`--print-op-generic`). */
  generic?: boolean;
  /** Print locations, `loc(...)` and `#loc` aliases (`--print-debuginfo`). */
  debugInfo?: boolean;
}

/**
 * Prints a module (or any top-level op) as text, the way `triton-opt` does: a module from
 * `parse` keeps its attribute alias names and resource section, so parse then print is
 * byte-identical to `triton-opt`'s output.
 */
export function print(module: Operation, options: PrintOptions = {}): string {
  const extras = parsedExtras.get(module);
  return printModule(module, { generic: options.generic, debugInfo: options.debugInfo, aliasNames: extras?.aliasNames, resources: extras?.resources });
}

/** A fresh context with every dialect loaded (for parsing apart from `defaultContext`). */
export function createContext(): Context {
  return registerAllDialects(new Context());
}

// ---- the core IR ----------------------------------------------------------------------------

export { verify, type VerifyOptions } from '../ir/verifier.js';
export { Context, defaultContext } from '../ir/context.js';
export { Operation, Value, OpResult, BlockArgument, OpOperand, Block, Region } from '../ir/ir.js';
export { Builder, type InsertionPoint, type CreateArgs } from '../ir/builder.js';
export { Rewriter, type RewriteListener } from '../ir/rewriter.js';
export { applyPatternsGreedily, constantOf, isTriviallyDead, type RewritePattern, type GreedyOptions, type GreedyResult } from '../ir/patterns.js';
export { defineOp, OpView, type OpDef, type View, type BuildFields, type BuildOptions } from '../ir/op-def.js';
export { Diagnostic, DiagnosticError, SourceFile, type Severity } from '../ir/diagnostics.js';
export {
  Type, IntegerType, IndexType, FloatType, NoneType, FunctionType, ShapedType, RankedTensorType, UnrankedTensorType, VectorType, TupleType,
  DialectType, OpaqueType, i, f, elementTypeOf, shapeOf, encodingOf, bitWidth, isIntLike, isFloatLike,
} from '../ir/types.js';
export {
  Attribute, IntegerAttr, FloatAttr, StringAttr, UnitAttr, TypeAttr, SymbolRefAttr, ArrayAttr, DenseArrayAttr, DictionaryAttr, DenseElementsAttr,
  DialectAttr, OpaqueAttr, boolAttr, Location, UnknownLoc, FileLineColLoc, NameLoc, CallSiteLoc, FusedLoc,
} from '../ir/attributes.js';
export * from '../ir/traits.js';

// ---- dialects -------------------------------------------------------------------------------

/** `builtin`: `builtin.module`, `builtin.unrealized_conversion_cast`. */
export * as builtin from '../dialects/builtin.js';
/** `func`: functions, calls, returns. */
export * as func from '../dialects/func.js';
/** `arith`: integer and float arithmetic, comparisons, casts, constants. */
export * as arith from '../dialects/arith.js';
/** `math`: transcendental and bit-counting functions. */
export * as math from '../dialects/math.js';
/** `scf`: structured control flow (`scf.for`, `scf.if`, `scf.while`). */
export * as scf from '../dialects/scf.js';
/** `cf`: unstructured control flow (branches, asserts). */
export * as cf from '../dialects/cf.js';
/** `tt`: Triton (`tt.func`, `tt.load`, `tt.store`, `tt.dot`, pointers...). */
export * as tt from '../dialects/tt/index.js';
/** `ttg`: TritonGPU (layouts, shared memory, async copies). */
export * as ttg from '../dialects/ttg/index.js';
/** `ttng`: TritonNvidiaGPU (wgmma, TMA, mbarriers). */
export * as ttng from '../dialects/ttng.js';
export { registerAllDialects, allDialects } from '../dialects/index.js';

// ---- passes ---------------------------------------------------------------------------------

export { PassManager, runPipeline, type PassManagerOptions, type PassRunResult } from '../passes/manager.js';
export { parsePipeline, type PipelineEntry } from '../passes/pipeline-text.js';
export { PassRegistry, defaultPassRegistry, registerPass, lookupPass, allPasses, NAMED_PIPELINES } from '../passes/registry.js';
export { PassContext, type PassDecl, type PassOptionDecl, type PassOptions, type OptionValue } from '../passes/pass.js';
export { registerAllPasses, allPassDecls } from '../passes/all.js';

// ---- frontend and target --------------------------------------------------------------------

export { compileTritonC, type FrontendOptions } from '../frontend/triton-c/index.js';
export { compileToPtx, metadataJson, ARCHES, targetFor, parseArch, type Arch, type PtxArch, type PtxOptions, type PtxResult, type KernelInfo, type KernelParam } from '../targets/nvptx/index.js';
/** The target object: what a module is compiled for (`targetOf(op)` reads it, `makeTarget` builds one). */
export { makeTarget, targetOf, hasTarget, writeTarget, type GpuTarget, type ArchLimits } from '../dialects/ttg/target.js';
