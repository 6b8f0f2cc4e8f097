/**
 * Lowering a ttg-level module to the nvptx dialect: each public `tt.func` becomes a kernel
 * `func.func` whose values are per-thread registers. The dispatch is a table: elementwise ops
 * first (one rule per element), then the tensor, memory, reduction and control-flow tables.
 * An op with no entry is an error at that op. CSE, loop-address sharing (`loop-bases.ts`) and DCE then run on the result.
 */
import { ArrayAttr, DictionaryAttr, IntegerAttr, NameLoc, StringAttr, TypeAttr, UnitAttr, type Attribute } from '../../ir/attributes.js';
import { Builder } from '../../ir/builder.js';
import { Block, Operation, type Value } from '../../ir/ir.js';
import { FunctionType, IntegerType, RankedTensorType, elementTypeOf, signless, type Type } from '../../ir/types.js';
import { verifyDiagnostic } from '../../ir/verifier.js';
import { DiagnosticError } from '../../ir/diagnostics.js';
import * as nvptx from '../../dialects/nvptx.js';
import * as cf from '../../dialects/cf.js';
import * as func from '../../dialects/func.js';
import * as tt from '../../dialects/tt/index.js';
import * as arith from '../../dialects/arith.js';
import * as ttg from '../../dialects/ttg/index.js';
import { MemDescType } from '../../dialects/ttg/types.js';
import { unsupportedSharedEncoding } from '../../dialects/ttg/shared-layout.js';
import { runPipeline } from '../../passes/manager.js';
import { registerAllPasses } from '../../passes/all.js';
import { LoweringContext, loweringTable, registerType } from './context.js';
import { CONTROL_RULES } from './control.js';
import { DEBUG_RULES } from './device-debug.js';
import { INLINE_ASM_RULES } from './inline-asm.js';
import { HISTOGRAM_RULES } from './histogram.js';
import { GATHER_RULES } from './gather.js';
import { DOT_RULES } from './dot.js';
import { ELEMENTWISE, ELEMENT_PAIRS, type ElementPairRule, type ElementRule } from './elementwise.js';
import { FP8_REGISTER_OPS, isFp8 } from './fp8.js';
import { I32, I64, TENSOR_MAP_ATTR, internalError, targetError, type Arch } from './emitter.js';
import { PTX_ARCHES, archMismatch, limitsOf } from './arch.js';
import { TENSOR_MAP_BYTES, hasTarget, targetOf } from '../../dialects/ttg/target.js';
import { MEMORY_RULES } from './memory.js';
import { REDUCE_RULES } from './reduce.js';
import { SCAN_RULES } from './scan.js';
import { SHARED_RULES } from './shared.js';
import { TENSOR_RULES } from './tensor.js';
import { WGMMA_RULES } from './wgmma.js';
import { TMA_RULES } from './tma.js';
import { TENSORMAP_RULES, globalScratchLayout } from './tensormap.js';
import { tmaGeometry } from '../../dialects/ttg/tma-geometry.js';
import { registerBudget, registersCanLimitResidency, residencyHint } from './residency.js';
import { kernelVersions, type KernelVersions } from './versions.js';
import { checkElementsPerThread } from './register-limit.js';
import { shareLoopBases } from './loop-bases.js';
import { AxisInfoAnalysis } from '../../passes/analysis/axis-info.js';


/** Every non-elementwise rule, by op name. */
const RULES = loweringTable([...TENSOR_RULES, ...MEMORY_RULES, ...REDUCE_RULES, ...SCAN_RULES, ...SHARED_RULES, ...DOT_RULES, ...WGMMA_RULES, ...TMA_RULES, ...CONTROL_RULES, ...DEBUG_RULES, ...INLINE_ASM_RULES, ...HISTOGRAM_RULES, ...GATHER_RULES, ...TENSORMAP_RULES]);

/** One kernel parameter as the launcher sees it. */
export interface KernelParam {
  name: string;
  /**
   * A pointer, a scalar, a tensor descriptor (a CUtensorMap passed by value, see `tma`), a
   * hidden tensor map the launcher builds from other parameters (`from`; the caller passes nothing),
   * or the hidden global scratch: a pointer to `bytesPerProgram` bytes for each program of the grid,
   * which the launcher allocates (tensor maps the kernel writes, see tensormap.ts).
   */
  kind: 'pointer' | 'scalar' | 'tensordesc' | 'tensormap' | 'global_scratch';
  /** The element type for pointers and descriptors, the value type for scalars (`f32`, `i32`, ...). */
  type: string;
  /** `tt.divisibility` when given. */
  divisibility?: number;
  /** For the global scratch: the bytes each program uses (the launcher allocates grid size times this). */
  bytesPerProgram?: number;
  /** For a tensor descriptor or hidden tensor map: how the launcher encodes its tensor map. */
  tma?: TensorMapInfo;
  /**
   * For a hidden tensor map: the parameters (by name) of its tensor's base pointer, shape (null: an
   * unbounded dim: the rest of the base allocation) and strides, and those that must be > 0 at launch (`tir.tensormap`).
   */
  from?: { base: string; shape: (TermSource | null)[]; strides: TermSource[]; positive?: string[] };
}

/** A hidden tensor map's dim or stride for the launcher: an integer parameter's name, or a product of them and a constant. */
export type TermSource = string | { params: string[]; times: number };

/**
 * What a launcher needs to encode a descriptor's CUtensorMap (cuTensorMapEncodeTiled) from the
 * tensor it is given: the kernel's block, the box each copy moves (outermost dim first, as the
 * block; the driver takes dims innermost first) and the shared-memory swizzle of the box rows.
 * Element strides are 1, there is no interleave, and out-of-bounds elements read as zeros.
 */
export interface TensorMapInfo {
  block: number[];
  box: number[];
  swizzleBytes: number;
}

/** What a launcher needs to know about a kernel. */
export interface KernelInfo {
  name: string;
  params: KernelParam[];
  numWarps: number;
  threadsPerWarp: number;
  sharedBytes: number;
  /** CTAs per SM the launcher should keep resident (see residency.ts); absent: as many as fit. */
  ctasPerSM?: number;
  /**
   * A versioned kernel (see versions.ts): the launches where some of `params` is not a multiple of
   * `divisor` may run `otherwise`, the kernel of the original copy alone.
   */
  versions?: { divisor: number; params: number[]; otherwise: KernelInfo };
}

/** Whether parameter `p` is a 128-byte tensor map passed by value (a descriptor, or a hidden map the launcher builds). */
const isTensorMap = (p: KernelParam): boolean => p.kind === 'tensordesc' || p.kind === 'tensormap';

/** The name of the hidden global scratch parameter (last; launchers leave out trailing `__` parameters). */
export const GLOBAL_SCRATCH_PARAM = '__global_scratch';

/** The name suffix of a versioned kernel's second kernel, its original copy alone (see versions.ts). */
export const UNALIGNED_SUFFIX = '__unaligned';

/** Options of the nvptx lowering. */
export interface NvptxOptions {
  arch: Arch;
  /** Compute each kernel's residency hint (default true). */
  residencyHint?: boolean;
}

/**
 * Applies an elementwise rule register by register (scalar operands are reused for every
 * register), two at a time where the op has a paired form that applies.
 */
function lowerElementwise(ctx: LoweringContext, op: Operation, rule: ElementRule): void {
  const args = op.operandValues().map((v) => ctx.get(v, op));
  const n = Math.max(1, ...args.map((a) => a.length));
  const to = registerType(op.result(0).type);
  const copy = n > 1 ? ctx.repeatedRegisters(op.result(0), op) : null;
  const pairRule = ELEMENT_PAIRS[op.name] as ElementPairRule | undefined;
  const at = (r: number): Value[] => args.map((a) => a[a.length === 1 ? 0 : r]);
  const out: Value[] = [];
  for (let r = 0; r < n; r++) {
    // a register inside a run of equal elements copies the run's first (`cols < N` with N % 4 == 0: one compare per 4 elements)
    if (copy && copy[r] !== r) {
      out.push(out[copy[r]]);
      continue;
    }
    const pair = pairRule && r % 2 === 0 && r + 1 < n && (!copy || copy[r + 1] === r + 1) ? pairRule(ctx.e, at(r), at(r + 1), to, op) : null;
    if (pair) {
      out.push(...pair);
      r++;
      continue;
    }
    out.push(rule(ctx.e, at(r), to, op));
  }
  ctx.set(op.result(0), out);
}

/** Integer widths with a PTX register type. */
const REGISTER_INT_WIDTHS = new Set([1, 8, 16, 32, 64]);

/** Scalar types a kernel parameter may have (what a launcher can pass by value). */
const KERNEL_SCALARS = new Set(['i8', 'i16', 'i32', 'i64', 'f16', 'bf16', 'f32', 'f64']);

/** A located error when `v` is a memdesc whose shared encoding the target cannot address. */
function checkSharedEncoding(op: Operation, v: Value): void {
  if (!(v.type instanceof MemDescType)) return;
  const why = unsupportedSharedEncoding(v.type.encoding);
  if (why) throw targetError(op, `cannot be lowered to the nvptx target: ${why}`);
}

/**
 * A located error when `v` would hold values with no PTX register type (integers of odd widths), or
 * fp8 values in an op that computes on them (fp8 registers only move and convert, `fp8.ts`).
 */
function checkRegisterType(op: Operation, v: Value): void {
  const elt = elementTypeOf(v.type);
  if (v.type instanceof MemDescType) return;
  if (elt instanceof IntegerType && !REGISTER_INT_WIDTHS.has(elt.width)) {
    throw targetError(op, `cannot be lowered to the nvptx target: '${elt}' values have no PTX register type (integers are i1, i8, i16, i32 or i64)`);
  }
  if (!isFp8(elt) || FP8_REGISTER_OPS.has(op.name)) return;
  if (tt.DotOp.is(op)) throw targetError(op, `cannot be lowered to the nvptx target: fp8 dots run on sm_90a's warp-group tensor cores (wgmma, operands from shared memory); here its '${elt}' operands are in registers`);
  throw targetError(op, `cannot be lowered to the nvptx target: it computes on '${elt}' values, which the target only loads, stores, moves and converts (convert them with tt.fp_to_fp first)`);
}

/** Lowers one source op by the tables; a bug in a rule becomes an internal error naming the op. */
function lowerOp(ctx: LoweringContext, op: Operation): void {
  const elementwise = ELEMENTWISE[op.name];
  const rule = RULES.get(op.name);
  if (!elementwise && !rule) throw targetError(op, 'has no lowering to the nvptx target');
  for (const o of op.operands) checkSharedEncoding(op, o.value);
  for (const r of op.results) checkSharedEncoding(op, r);
  // Constants are immediates (dead ones vanish, e.g. a zero `other` of a cp.async, which fills zeros itself).
  if (!arith.ConstantOp.is(op)) for (const r of op.results) checkRegisterType(op, r);
  if (!ttg.AsyncCopyGlobalToLocalOp.is(op)) for (const o of op.operands) checkRegisterType(op, o.value);
  try {
    if (elementwise) lowerElementwise(ctx, op, elementwise);
    else rule!(ctx, op);
  } catch (err) {
    if (err instanceof DiagnosticError) throw err;
    throw internalError(op, (err as Error).message ?? String(err));
  }
}

const intAttr = (op: Operation, name: string): number | null => {
  const a = op.getAttr(name);
  return a instanceof IntegerAttr ? Number(a.value) : null;
};

/** The launcher-facing description of a parameter of type `t`. */
function describeParam(name: string, t: Type, attrs: Attribute | undefined, fn: Operation): KernelParam {
  const div = attrs instanceof DictionaryAttr ? attrs.get('tt.divisibility') : undefined;
  const divisibility = div instanceof IntegerAttr ? Number(div.value) : undefined;
  if (t instanceof tt.PointerType) {
    if (t.pointee instanceof RankedTensorType || t.pointee instanceof tt.PointerType) throw targetError(fn, `cannot pass a parameter of type '${t}' to a kernel`);
    return { name, kind: 'pointer', type: String(t.pointee), divisibility };
  }
  if (t instanceof tt.TensorDescType) {
    const g = tmaGeometry(t);
    if (typeof g === 'string') throw targetError(fn, `cannot pass descriptor parameter '${name}': ${g}`);
    // signless: a descriptor of an int8 tensor is typed si8, and launchers name its elements i8
    return { name, kind: 'tensordesc', type: String(signless(t.blockType.elementType)), tma: { block: [...t.blockType.shape], box: g.box, swizzleBytes: g.swizzleBytes } };
  }
  if (t instanceof RankedTensorType) throw targetError(fn, `cannot pass a tensor parameter '${t}' to a kernel`);
  if (String(t) === 'i1') throw targetError(fn, "cannot pass an 'i1' parameter to a kernel; pass an i32");
  if (!KERNEL_SCALARS.has(String(t))) throw targetError(fn, `cannot pass a parameter of type '${t}' to a kernel (scalars are i8, i16, i32, i64, f16, bf16, f32 or f64)`);
  return { name, kind: 'scalar', type: String(t), divisibility };
}

/** Lowers one kernel into `module`'s body; returns its launch description. */
function lowerKernel(fn: Operation, into: Block, opts: NvptxOptions, numWarps: number, threadsPerWarp: number, sharedBytes: number, axis: AxisInfoAnalysis, original?: KernelVersions): KernelInfo {
  const name = (fn.getAttr('sym_name') as StringAttr).value + (original ? UNALIGNED_SUFFIX : '');
  if (original) sharedBytes = original.originalSharedBytes;
  // the code the kernel runs: the function's body, or for the original copy alone the else region of the versioned if
  const runs = original ? original.ifOp.regions[1] : fn.region(0);
  const body = fn.region(0);
  const entry = body.entry;
  if (!entry) throw targetError(fn, 'a kernel needs a body');
  const argAttrs = fn.getAttr('arg_attrs');
  // Names from the source's name locations; one taken already (a descriptor's shape and strides
  // carry the descriptor's) falls back to the argument's SSA name (`%a_desc_0`), then to `argN`.
  const taken = new Set<string>();
  const params = entry.args.map((a, k) => {
    const primary = a.loc instanceof NameLoc ? a.loc.name : `arg${k}`;
    const nm = [primary, a.nameHint, `${primary}_${k}`].find((n): n is string => !!n && !taken.has(n))!;
    taken.add(nm);
    return describeParam(nm, a.type, argAttrs instanceof ArrayAttr ? argAttrs.value[k] : undefined, fn);
  });
  // hidden tensor maps name the parameters the launcher builds them from (dialects/tt/tensormap-arg.ts)
  params.forEach((p, k) => {
    const h = tt.tensormapOf(fn, k);
    if (!h) return;
    p.kind = 'tensormap';
    // launchers leave out trailing `__` parameters (a name read back from printed IR may be `argN`)
    if (!p.name.startsWith('__')) p.name = `__${p.name}`;
    const term = (t: tt.TensormapTerm): TermSource => (typeof t === 'number' ? params[t].name : { params: t.params.map((j) => params[j].name), times: t.times });
    const shape = h.shape.map((t) => (t === tt.UNBOUNDED ? null : term(t)));
    p.from = { base: params[h.base].name, shape, strides: h.strides.map(term), ...(h.positive.length ? { positive: h.positive.map((j) => params[j].name) } : {}) };
  });
  const paramTypes = entry.args.map((a) => registerType(a.type));
  // the program's global scratch: a hidden last parameter (the names of `__` parameters are the launcher's)
  const scratch = globalScratchLayout(fn);
  if (scratch.bytesPerProgram) {
    params.push({ name: GLOBAL_SCRATCH_PARAM, kind: 'global_scratch', type: 'i8', divisibility: TENSOR_MAP_BYTES, bytesPerProgram: scratch.bytesPerProgram });
    paramTypes.push(I64);
  }
  const b = new Builder();
  b.setInsertionPointToEnd(into);
  const kernelAttrs = params.map((p) => {
    if (isTensorMap(p)) return DictionaryAttr.get([[TENSOR_MAP_ATTR, UnitAttr.get()]]);
    return DictionaryAttr.get((p.kind === 'pointer' || p.kind === 'global_scratch') && p.divisibility ? [['nvptx.align', IntegerAttr.get(Math.min(p.divisibility, 16), I32)]] : []);
  });
  const kernel = func.FuncOp.build(b, {
    sym_name: StringAttr.get(name),
    function_type: TypeAttr.get(FunctionType.get(paramTypes, [])),
    arg_attrs: ArrayAttr.get(kernelAttrs),
  }, { loc: fn.loc }).op;
  kernel.setAttr('nvptx.kernel', UnitAttr.get());
  kernel.setAttr('nvptx.reqntid', IntegerAttr.get(numWarps * threadsPerWarp, I32));
  const hint = opts.residencyHint !== false && sharedBytes > 0 && residencyHint(fn, axis, opts.arch, numWarps, sharedBytes, runs);
  if (hint) kernel.setAttr('nvptx.ctas_per_sm', IntegerAttr.get(hint.ctasPerSM, I32));
  const maxnreg = registerBudget(fn, opts.arch, numWarps, sharedBytes, runs);
  if (maxnreg) kernel.setAttr('nvptx.maxnreg', IntegerAttr.get(maxnreg, I32));
  const region = kernel.region(0);
  const prologue = region.addBlock(new Block(paramTypes));
  const start = new Block();
  b.setInsertionPointToEnd(prologue);
  const jump = cf.BrOp.build(b, { destOperands: [] }, { successors: [start] }).op;
  region.addBlock(start);
  const ctx = new LoweringContext(b, opts.arch, numWarps, threadsPerWarp, sharedBytes, jump, region, lowerOp, axis);
  entry.args.forEach((a, k) => ctx.set(a, [prologue.args[k]]));
  // tensor maps in parameters go to the descriptor cache before the first copy needs them
  // (measured on an H200: up to 1.09x on attention at head dim 128, bench/gpu/RESULTS.md)
  b.setInsertionPoint(jump);
  params.forEach((p, k) => {
    if (isTensorMap(p)) nvptx.PrefetchTensormapOp.build(b, { addr: prologue.args[k] });
  });
  if (scratch.bytesPerProgram) ctx.globalScratch = { base: prologue.args[entry.args.length], bytesPerProgram: scratch.bytesPerProgram, offsets: scratch.offsets };
  for (const src of body.blocks) {
    const dest = src === entry ? start : ctx.blockFor(src, fn);
    b.setInsertionPointToEnd(dest);
    for (const op of src) {
      // the original copy alone: its ops in place of the versioned if
      if (original && op === original.ifOp) ctx.lowerBody(op.regions[1].entry!, [], op);
      else lowerOp(ctx, op);
    }
  }
  return { name, params, numWarps, threadsPerWarp, sharedBytes, ...(hint ? { ctasPerSM: hint.ctasPerSM } : {}) };
}

/** The result of lowering a module: the nvptx-dialect module and one description per kernel. */
export interface NvptxModule {
  module: Operation;
  kernels: KernelInfo[];
}

/** Lowers every public `tt.func` of a ttg-level module to the nvptx dialect, then runs CSE, shares loop-carried address bases and runs DCE. */
export function lowerToNvptx(module: Operation, opts: NvptxOptions): NvptxModule {
  if (!hasTarget(module)) throw targetError(module, "has no 'ttg.num-warps'; run convert-to-gpu before lowering to nvptx");
  const target = targetOf(module);
  const { numWarps, threadsPerWarp } = target;
  if (threadsPerWarp !== 32) throw targetError(module, `has ${threadsPerWarp} threads per warp; NVIDIA GPUs have 32`);
  if (target.numCTAs !== 1) throw targetError(module, `has ttg.num-ctas = ${target.numCTAs}; the nvptx target supports 1`);
  const mismatch = archMismatch(module, PTX_ARCHES[opts.arch]);
  if (mismatch) throw targetError(module, mismatch);
  const sharedBytes = intAttr(module, 'ttg.shared') ?? 0;
  const limit = limitsOf(opts.arch).maxSharedBytesPerCTA;
  if (sharedBytes > limit) throw targetError(module, `needs ${sharedBytes} bytes of shared memory (ttg.shared), above the ${limit} an ${opts.arch} block can have`);
  checkElementsPerThread(module);
  const out = Operation.create({ name: 'builtin.module', spec: module.spec, regions: 1, loc: module.loc });
  const body = out.region(0).addBlock(new Block());
  out.setAttr('nvptx.arch', StringAttr.get(opts.arch));
  const kernels: KernelInfo[] = [];
  const names = new Set<string>();
  for (const op of module.region(0).entry ?? []) if (op.getAttr('sym_name') instanceof StringAttr) names.add((op.getAttr('sym_name') as StringAttr).value);
  const axis = new AxisInfoAnalysis(module);
  for (const op of module.region(0).entry ?? []) {
    if (!tt.FuncOp.is(op)) continue;
    if (op.getAttr('sym_visibility') instanceof StringAttr && (op.getAttr('sym_visibility') as StringAttr).value === 'private') continue;
    const kernel = lowerKernel(op, body, opts, numWarps, threadsPerWarp, sharedBytes, axis);
    const versions = kernelVersions(op);
    if (versions && !names.has(kernel.name + UNALIGNED_SUFFIX)) {
      const otherwise = lowerKernel(op, body, opts, numWarps, threadsPerWarp, sharedBytes, axis, versions);
      kernel.versions = { divisor: versions.divisor, params: versions.params, otherwise };
    }
    kernels.push(kernel);
  }
  if (!kernels.length) throw targetError(module, 'has no public tt.func to compile');
  registerAllPasses(); // cse and dce below (idempotent)
  // Verified once, at the end: verifying the lowered module after each cleanup too cost a tenth of
  // a large kernel's compile.
  const cse = runPipeline(out, 'cse', { reproducerDir: null, verifyEach: false });
  if (!cse.ok) throw new DiagnosticError(cse.diagnostics[cse.diagnostics.length - 1]);
  // the lowered functions, in the order lowerKernel appended them: each kernel, then its original copy alone
  const lowered = kernels.flatMap((k) => (k.versions ? [k, k.versions.otherwise] : [k]));
  const functions = [...body].filter((fn) => fn.regions.length);
  functions.forEach((fn, k) => shareLoopBases(fn.region(0), opts.arch, !registersCanLimitResidency(opts.arch, numWarps, lowered[k].sharedBytes)));
  const result = runPipeline(out, 'dce', { reproducerDir: null, verifyEach: false });
  if (!result.ok) throw new DiagnosticError(result.diagnostics[result.diagnostics.length - 1]);
  const d = verifyDiagnostic(out);
  if (d) throw new DiagnosticError(d);
  return { module: out, kernels };
}
