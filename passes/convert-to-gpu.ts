/**
 * `convert-to-gpu`: Triton's convert-triton-to-tritongpu. Sets the module attributes
 * `ttg.num-warps`, `ttg.threads-per-warp`, `ttg.num-ctas` and `ttg.target`, gives every tensor
 * without a layout the default `#ttg.blocked` layout for its shape, and inserts
 * `ttg.convert_layout` where a value's layout differs from the one its user needs.
 *
 * As in Triton, a few ops have their own layouts: `tt.expand_dims` takes a `#ttg.slice` of its
 * result layout, `tt.reduce` gives `#ttg.slice` results, `tt.broadcast` keeps its source layout,
 * `tt.dot` takes `#ttg.dot_op` operands and gives a blocked result with more elements per thread,
 * and join / split / trans / cat / descriptor gather-scatter follow Triton's rules. Everything
 * else (loops and their region arguments included) gets the default layout of its type.
 */
import { DenseArrayAttr, DenseElementsAttr, IntegerAttr, TypeAttr, type Attribute } from '../ir/attributes.js';
import { Builder } from '../ir/builder.js';
import { functionTypeOf } from '../ir/function-syntax.js';
import { BlockArgument, type Operation, type Value } from '../ir/ir.js';
import { FunctionType, RankedTensorType, type Type } from '../ir/types.js';
import { BLOCKED, DOT_OP, SLICE, isLayout, threadsAndWarps } from '../dialects/ttg/layout-attrs.js';
import type { StructAttr } from '../dialects/ttg/struct-attr.js';
import {
  catLayout, defaultBlocked, dotOperandLayout, dotResultLayout, expandDimsLayout, gatherIndicesLayout, isSplittable,
  joinLayout, sliceLayout, splitResultLayout, transLayout, type GpuConfig,
} from './support/convert-to-gpu-layouts.js';
import { hasTarget, makeTarget, targetOf, writeTarget, type GpuTarget } from '../dialects/ttg/target.js';
import type { PassContext, PassDecl } from './pass.js';
import { FunctionLike } from '../ir/traits.js';
import * as arith from '../dialects/arith.js';
import * as tt from '../dialects/tt/index.js';
import * as ttg from '../dialects/ttg/index.js';
import { MAX_TENSOR_ELEMENTS } from '../dialects/tt/util.js';

/** An operand type a special op needs (converted just before the op, as Triton's patterns do). */
interface OperandNeed {
  index: number;
  type: Type;
}

/** One run of the conversion: the configuration, original types, and the converts made so far. */
class Conversion {
  private readonly original = new Map<Value, Type>();
  private readonly casts = new Map<Value, Map<Type, Value>>();
  private readonly lastCast = new Map<Value, Operation>();
  /** `convert` per (uniqued) type: every op's operands and results ask for it. */
  private readonly converted = new Map<Type, Type>();
  private readonly b = new Builder();
  inserted = 0;

  constructor(readonly cfg: GpuConfig) {}

  /** The type converter: a tensor without encoding gets the default blocked layout for its shape. */
  convert(t: Type): Type {
    if (!(t instanceof RankedTensorType) || t.encoding) return t;
    let c = this.converted.get(t);
    if (!c) this.converted.set(t, (c = t.withEncoding(defaultBlocked(t.shape, this.cfg))));
    return c;
  }

  /** The converted type of a value's type before the pass (what a generic user expects). */
  expected(v: Value): Type {
    return this.convert(this.original.get(v) ?? v.type);
  }

  /** The layout of the converted type of `v`, when it is a tensor. */
  private layoutOf(v: Value): StructAttr | null {
    const t = this.expected(v);
    return t instanceof RankedTensorType ? (t.encoding as StructAttr | null) : null;
  }

  private retype(v: Value, t: Type): void {
    if (!this.original.has(v)) this.original.set(v, v.type);
    v.type = t;
  }

  // ---- phase 1: types -------------------------------------------------------------------

  /** Sets the new types of an op's results and region arguments. */
  retypeOp(op: Operation): void {
    for (const r of op.regions) for (const blk of r.blocks) for (const a of blk.args) this.retype(a, this.convert(a.type));
    const special = this.resultTypes(op);
    op.results.forEach((r, k) => this.retype(r, special?.[k] ?? this.convert(r.type)));
    if (op.hasTrait(FunctionLike)) this.retypeSignature(op);
    if (arith.ConstantOp.is(op)) this.retypeConstant(op);
  }

  private retypeSignature(fn: Operation): void {
    const ft = functionTypeOf(fn);
    const next = FunctionType.get(ft.inputs.map((t) => this.convert(t)), ft.results.map((t) => this.convert(t)));
    if (next !== ft) fn.setAttr('function_type', TypeAttr.get(next));
  }

  // arith.constant dense<0> : tensor<4xi32> -> arith.constant dense<0> : tensor<4xi32, #blocked>
  private retypeConstant(op: Operation): void {
    const v = op.getAttr('value');
    const t = op.result(0).type;
    if (!(v instanceof DenseElementsAttr) || !(t instanceof RankedTensorType) || v.type === t) return;
    op.setAttr('value', v.withType(t));
  }

  /** Result types of the ops with their own layout rules (null: the default conversion). */
  private resultTypes(op: Operation): (Type | null)[] | null {
    const res = op.results.map((r) => r.type);
    const first = res[0];
    switch (op.name) {
      // tt.reduce axis=1 (tensor<4x8xf32, #blocked>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      case tt.ReduceOp.name: {
        const axis = intAttr(op, 'axis');
        return op.operands.map((o, k) => {
          const t = this.expected(o.value);
          if (!(t instanceof RankedTensorType) || !(res[k] instanceof RankedTensorType) || !t.encoding) return null;
          return (res[k] as RankedTensorType).withEncoding(sliceLayout(axis, t.encoding));
        });
      }
      case tt.ScanOp.name:
        return op.operands.map((o) => this.expected(o.value));
      // tt.broadcast tensor<4x1xi32, #blocked> -> tensor<4x8xi32, #blocked> (the source layout)
      case tt.BroadcastOp.name:
        return [withLayout(first, this.layoutOf(tt.BroadcastOp.view(op).src))];
      case tt.ExpandDimsOp.name:
        return [withLayout(first, this.expandDimsResult(op))];
      case tt.DotOp.name:
        return [withLayout(first, first instanceof RankedTensorType ? dotResultLayout(first.shape, this.cfg) : null)];
      case tt.JoinOp.name: {
        const src = this.layoutOf(tt.JoinOp.view(op).lhs);
        return [withLayout(first, isLayout(src, BLOCKED) ? joinLayout(src) : null)];
      }
      case tt.SplitOp.name: {
        const src = this.layoutOf(tt.SplitOp.view(op).src);
        const enc = isSplittable(src) ? splitResultLayout(src!) : null;
        return res.map((t) => withLayout(t, enc));
      }
      case tt.TransOp.name: {
        const src = this.layoutOf(tt.TransOp.view(op).src);
        return [withLayout(first, isLayout(src, BLOCKED) ? transLayout(src, denseInts(op, 'order')) : null)];
      }
      case tt.CatOp.name:
        return [this.catResult(op)];
      default:
        return null;
    }
  }

  /** expand_dims: the slice parent when the source is already that slice, else Triton's rule on a blocked source. */
  private expandDimsResult(op: Operation): StructAttr | null {
    const src = this.layoutOf(tt.ExpandDimsOp.view(op).src);
    const axis = intAttr(op, 'axis');
    if (isLayout(src, SLICE) && src.int('dim') === axis) return src.attr('parent') as StructAttr;
    return isLayout(src, BLOCKED) ? expandDimsLayout(src, axis) : null;
  }

  private catResult(op: Operation): Type | null {
    const cat = tt.CatOp.view(op);
    const [l, r] = [this.expected(cat.lhs), this.expected(cat.rhs)];
    const res = cat.result.type;
    if (!(res instanceof RankedTensorType) || !(l instanceof RankedTensorType) || !(r instanceof RankedTensorType)) return null;
    if (!isLayout(l.encoding, BLOCKED) || !isLayout(r.encoding, BLOCKED)) return null;
    return res.withEncoding(catLayout(res.shape, { shape: l.shape, enc: l.encoding }, { shape: r.shape, enc: r.encoding }, this.cfg));
  }

  // ---- phase 2: converts ----------------------------------------------------------------

  /** Operand layouts the special ops need, converted just before the op (as Triton's patterns do). */
  private patternNeeds(op: Operation): OperandNeed[] {
    // Operand `index` (the position fixOperands replaces) in `layout`.
    const need = (index: number, layout: StructAttr | null): OperandNeed[] => {
      const t = this.expected(op.operands[index].value);
      return layout && t instanceof RankedTensorType ? [{ index, type: t.withEncoding(layout) }] : [];
    };
    switch (op.name) {
      // tt.expand_dims %x (tensor<4xi32, #blocked>) -> convert to #ttg.slice<{dim = 1, parent = #blocked1}> first
      case tt.ExpandDimsOp.name: {
        const res = op.result(0).type;
        const axis = intAttr(op, 'axis');
        if (!(res instanceof RankedTensorType) || !res.encoding) return [];
        return need(0, sliceLayout(axis, res.encoding));
      }
      // tt.dot %a, %b, %c -> convert a, b to #ttg.dot_op<{opIdx = 0/1, parent = #blocked}> and c to #blocked
      case tt.DotOp.name: {
        const dot = tt.DotOp.view(op);
        const d = (dot.d.type as RankedTensorType).encoding as StructAttr;
        const isDotOp = (v: Value): boolean => isLayout(this.layoutOf(v), DOT_OP);
        return [
          ...(isDotOp(dot.a) ? [] : need(0, dotOperandLayout(0, d))),
          ...(isDotOp(dot.b) ? [] : need(1, dotOperandLayout(1, d))),
          ...need(2, d),
        ];
      }
      // tt.split %x (default layout) -> convert to the default result layout with a fastest dimension of 2
      case tt.SplitOp.name: {
        const src = this.layoutOf(tt.SplitOp.view(op).src);
        if (isSplittable(src)) return [];
        const res = this.convert(op.result(0).type);
        return res instanceof RankedTensorType && isLayout(res.encoding, BLOCKED) ? need(0, joinLayout(res.encoding)) : [];
      }
      case tt.DescriptorGatherOp.name:
      case tt.DescriptorScatterOp.name: {
        const xOffsets = (tt.DescriptorGatherOp.match(op) ?? tt.DescriptorScatterOp.view(op)).x_offsets;
        const t = this.expected(xOffsets);
        return t instanceof RankedTensorType && t.rank === 1 ? need(1, gatherIndicesLayout(this.cfg)) : [];
      }
      default:
        return [];
    }
  }

  /** Converts the operands of `op` whose layout is not the one it needs. */
  fixOperands(op: Operation): void {
    const byPattern = new Map(this.patternNeeds(op).map((n) => [n.index, n.type]));
    op.operands.forEach((o, k) => {
      const v = o.value;
      const want = byPattern.get(k) ?? this.expected(v);
      if (v.type === want) return;
      op.setOperand(k, byPattern.has(k) ? this.castBefore(op, v, want) : this.castAfterDef(v, want));
    });
  }

  // %x = tt.dot ... ; use(%x) -> %x = tt.dot ... ; %y = ttg.convert_layout %x ; use(%y)
  private castAfterDef(v: Value, t: Type): Value {
    let perType = this.casts.get(v);
    if (!perType) this.casts.set(v, (perType = new Map()));
    const known = perType.get(t);
    if (known) return known;
    const last = this.lastCast.get(v);
    const def = v.definingOp;
    if (last) this.b.setInsertionPointAfter(last);
    else if (def) this.b.setInsertionPointAfter(def);
    else this.b.setInsertionPointToStart(v.parentBlock!);
    const cvt = this.create(v, t, def ? def.loc : v instanceof BlockArgument ? v.loc : undefined);
    this.lastCast.set(v, cvt);
    perType.set(t, cvt.result(0));
    return cvt.result(0);
  }

  // tt.expand_dims %x -> %y = ttg.convert_layout %x ; tt.expand_dims %y
  private castBefore(op: Operation, v: Value, t: Type): Value {
    this.b.setInsertionPoint(op);
    return this.create(v, t, op.loc).result(0);
  }

  private create(v: Value, t: Type, loc: Operation['loc'] | undefined): Operation {
    this.inserted++;
    return ttg.ConvertLayoutOp.build(this.b, { src: v }, { results: { result: t }, loc }).op;
  }
}

function intAttr(op: Operation, name: string): number {
  const a = op.getAttr(name);
  return a instanceof IntegerAttr ? a.num : 0;
}

function denseInts(op: Operation, name: string): number[] {
  const a = op.getAttr(name);
  return a instanceof DenseArrayAttr ? a.values.map(Number) : [];
}

function withLayout(t: Type | undefined, layout: StructAttr | null): Type | null {
  return t instanceof RankedTensorType && layout ? t.withEncoding(layout) : null;
}

/** A module converted before keeps its layouts: they must fit the new launch shape. */
function checkPreviousConversion(module: Operation, ctx: PassContext, target: GpuTarget): void {
  if (!hasTarget(module)) return;
  const had = targetOf(module);
  const pairs: [string, number, number][] = [
    ['ttg.num-warps', had.numWarps, target.numWarps], ['ttg.threads-per-warp', had.threadsPerWarp, target.threadsPerWarp], ['ttg.num-ctas', had.numCTAs, target.numCTAs],
  ];
  for (const [name, old, now] of pairs) if (old !== now) ctx.fail(module, `was already converted with ${name} = ${old}; its layouts do not fit ${now}`);
}

/**
 * A module that does not state a launch attribute (`ttg.num-warps`, `ttg.threads-per-warp`) may
 * already use ttg layouts (written by hand); each must fit the value this pass writes for it, or the
 * module it leaves would not verify. The first one that does not is a located error at the op using
 * it. (What the module states, the verifier has already checked its layouts against.)
 */
function checkExistingLayouts(module: Operation, ctx: PassContext, target: GpuTarget): void {
  const checkWarps = module.getAttr('ttg.num-warps') === undefined;
  const checkThreads = module.getAttr('ttg.threads-per-warp') === undefined;
  if (!checkWarps && !checkThreads) return;
  const checked = new Set<Attribute>();
  module.walk((op) => {
    const types = [...op.operandValues().map((v) => v.type), ...op.results.map((r) => r.type)];
    for (const block of op.regions.flatMap((r) => r.blocks)) types.push(...block.args.map((a) => a.type));
    for (const t of types) {
      const enc = t instanceof RankedTensorType ? t.encoding : null;
      if (!enc || checked.has(enc)) continue;
      checked.add(enc);
      const { threads, warps } = threadsAndWarps(enc);
      if (checkWarps && warps !== null && warps !== target.numWarps) ctx.fail(op, `uses layout ${enc} of ${warps} warps, but convert-to-gpu compiles for ${target.numWarps} (num-warps)`);
      if (checkThreads && threads !== null && threads !== target.threadsPerWarp) ctx.fail(op, `uses layout ${enc} of ${threads} threads per warp, but convert-to-gpu compiles for ${target.threadsPerWarp} (threads-per-warp)`);
    }
  }, 'pre');
}

const isPow2 = (n: number): boolean => Number.isInteger(n) && n >= 1 && (n & (n - 1)) === 0;

/**
 * Every tensor this pass lays out must have a shape layouts can map (rank at least 1, power-of-two
 * dimensions, at most 2^20 elements, as Triton's); the first that does not is a located error at the op using it,
 * not invalid IR after the pass.
 */
function checkShapesToLayOut(module: Operation, ctx: PassContext): void {
  const checked = new Set<Type>();
  module.walk((op) => {
    const types = [...op.operandValues().map((v) => v.type), ...op.results.map((r) => r.type)];
    for (const block of op.regions.flatMap((r) => r.blocks)) types.push(...block.args.map((a) => a.type));
    for (const t of types) {
      if (!(t instanceof RankedTensorType) || t.encoding || checked.has(t)) continue;
      checked.add(t);
      if (t.rank === 0) ctx.fail(op, `uses tensor ${t}, which cannot be given a layout: it has rank 0 (a Triton scalar is not a tensor)`);
      const odd = t.shape.find((n) => !isPow2(n));
      if (odd !== undefined) ctx.fail(op, `uses tensor ${t}, which cannot be given a layout: dimension ${odd} is not a power of two`);
      if (t.numElements > MAX_TENSOR_ELEMENTS) ctx.fail(op, `uses tensor ${t}, which cannot be given a layout: more than ${MAX_TENSOR_ELEMENTS} elements`);
    }
  }, 'pre');
}

/** The target the options describe; a bad option fails the pass. */
function targetFromOptions(module: Operation, ctx: PassContext): GpuTarget {
  const shape = { 'num-warps': Number(ctx.options['num-warps']), 'threads-per-warp': Number(ctx.options['threads-per-warp']), 'num-ctas': Number(ctx.options['num-ctas']) };
  for (const [k, v] of Object.entries(shape)) if (!isPow2(v)) ctx.fail(module, `convert-to-gpu option ${k} must be a power of 2, got ${v}`);
  const name = String(ctx.options.target);
  if (!name) ctx.fail(module, "convert-to-gpu requires the 'target' option to be set");
  try {
    return makeTarget({ arch: name, numWarps: shape['num-warps'], threadsPerWarp: shape['threads-per-warp'], numCTAs: shape['num-ctas'] });
  } catch (e) {
    return ctx.fail(module, `convert-to-gpu option target: ${(e as Error).message}`);
  }
}

function run(module: Operation, ctx: PassContext): void {
  const target = targetFromOptions(module, ctx);
  const cfg: GpuConfig = { numWarps: target.numWarps, threadsPerWarp: target.threadsPerWarp, numCTAs: target.numCTAs };
  checkPreviousConversion(module, ctx, target);
  checkExistingLayouts(module, ctx, target);
  checkShapesToLayOut(module, ctx);
  writeTarget(module, target);

  const conv = new Conversion(cfg);
  const ops: Operation[] = [];
  module.walk((op) => void (op !== module && ops.push(op)), 'pre');
  for (const op of ops) conv.retypeOp(op);
  for (const op of ops) conv.fixOperands(op);
  ctx.bump('converts-inserted', conv.inserted);
}

/** The `convert-to-gpu` pass (Triton's convert-triton-to-tritongpu). */
export const convertToGpu: PassDecl = {
  name: 'convert-to-gpu',
  aliases: ['convert-triton-to-tritongpu'],
  summary: 'Give every tensor a TritonGPU layout and set the module launch attributes',
  anchor: 'module',
  options: {
    'num-warps': { type: 'int', default: 4, description: 'number of warps per CTA (ttg.num-warps)' },
    'threads-per-warp': { type: 'int', default: 32, description: 'threads per warp (ttg.threads-per-warp)' },
    'num-ctas': { type: 'int', default: 1, description: 'number of CTAs per CGA (ttg.num-ctas)' },
    target: { type: 'string', default: 'cuda:80', description: 'compilation target (ttg.target): cuda:80 or cuda:90 (sm_80, sm_90a also read)' },
  },
  statistics: { 'converts-inserted': 'number of ttg.convert_layout ops inserted' },
  run,
};
