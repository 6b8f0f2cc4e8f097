/**
 * `version-alignment`: a kernel whose global loads and stores (by default; with
 * `accesses=dot-operands`, only its tensor-core operands) go through integer parameters of unknown
 * alignment gets a second copy of its body, taken at run time when every such parameter is a
 * multiple of `divisor`:
 *
 *   %ok = ((%K & 3) == 0) and ((%stride_am & 3) == 0) and ...
 *   scf.if %ok { the body, reading each such %x as (%x / 4) * 4 } else { the body } {tir.versions}
 *   tt.return
 *
 * Triton specializes integer arguments only on divisibility by 16, so the TTIR of an odd shape
 * (K = 700, N = 3000) says nothing of its sizes and strides: the operand loads of its dot move one
 * element at a time, too narrow for `cp.async`, and its K loop is not pipelined. In the first copy
 * the axis analysis sees the rounded values divisible by `divisor`, so the loads get vectors of up
 * to `divisor` elements and software-pipeline copies them asynchronously; the second copy keeps
 * the element-wise loads for every other launch. Where the branch runs, (%x / d) * d is %x: both
 * copies compute the same thing. (Like LLVM's loop versioning, on the whole kernel body.) The
 * `tir.versions` mark keeps coalesce from giving one copy's loads the other's vector width: its
 * slices do not join the two regions (support/versioned-if.ts).
 *
 * Which parameters: the integer parameters without a `tt.divisibility` hint of at least `divisor`
 * that the kernel's global loads and stores depend on (pointers and masks, through loop-carried
 * values; with `accesses=dot-operands`, only the loads feeding a `tt.dot`), kept only where assuming
 * them divisible widens some access; a kernel where nothing widens is left alone, with a remark.
 * Only single-block `tt.func public` kernels returning nothing; a kernel already versioned is left
 * as it is.
 *
 * The target emits the original copy alone as a second kernel too (targets/nvptx/versions.ts), so
 * a launch that takes it does not pay for the specialized copy's registers and shared memory.
 *
 * Measured on an H200 (2026-11-27, bench/gpu/RESULTS.md): Triton's matmul at 1000x3000x700 2.6-2.9x
 * faster with the copy, 4100^3 4.7x (sm_90a; 2.1-3.3x on sm_80); with every access counted (the
 * default since), the matmul's C store widens too (1.12-1.19x more), layernorm and cumsum at 1000
 * columns 1.05x and 1.14x, and no launch that takes the original copy runs slower than without the
 * copy beyond the timing noise (+-0.5%).
 */
import { IntegerAttr } from '../ir/attributes.js';
import { BlockArgument, type Operation, type Value, ValueMapping } from '../ir/ir.js';
import { IntegerType, RankedTensorType } from '../ir/types.js';
import * as arith from '../dialects/arith.js';
import * as scf from '../dialects/scf.js';
import * as tt from '../dialects/tt/index.js';
import { AxisInfoAnalysis } from './analysis/axis-info.js';
import { accessOrder, vectorElems } from './coalesce.js';
import { maskOf, tensorPtrOf } from './support/coalesce-access.js';
import type { Rewriter } from '../ir/rewriter.js';
import { cloneWithOpMap, isVersions, markVersions } from './support/versioned-if.js';
import type { PassContext, PassDecl } from './pass.js';

/**
 * What the operands of `fn`'s dots (with `all`, also its global accesses' pointers and masks)
 * depend on: the entry block's arguments and the accesses reached, walking back through operands,
 * the yields of ops with regions, and loop-carried values (an iter_arg's init and yield; an
 * induction variable's bounds).
 */
function accessSlice(fn: Operation, all: boolean): { params: Set<BlockArgument>; accesses: Operation[] } {
  const entry = fn.regions[0].entry!;
  const params = new Set<BlockArgument>();
  const accesses: Operation[] = [];
  const seen = new Set<Value>();
  const work: Value[] = [];
  fn.walk((op) => {
    const dot = tt.DotOp.match(op);
    if (dot) work.push(dot.a, dot.b);
    const ptr = all ? tensorPtrOf(op) : undefined;
    if (!ptr || tt.LoadOp.is(op)) return;
    // a store or atomic: its own access (loads are recorded when reached)
    accesses.push(op);
    work.push(ptr);
    const mask = maskOf(op);
    if (mask) work.push(mask);
  });
  if (all) fn.walk((op) => void (tt.LoadOp.is(op) && tensorPtrOf(op) && work.push(op.result(0))));
  while (work.length) {
    const v = work.pop()!;
    if (seen.has(v)) continue;
    seen.add(v);
    if (v instanceof BlockArgument) {
      if (v.owner === entry) {
        params.add(v);
        continue;
      }
      const loop = scf.ForOp.match(v.owner.parentOp);
      if (!loop) {
        // Arguments of other regions (scf.while): everything that flows into the op.
        for (const x of v.owner.parentOp?.operandValues() ?? []) work.push(x);
        for (const x of v.owner.terminator?.operandValues() ?? []) work.push(x);
        continue;
      }
      if (v.index === 0) work.push(loop.lowerBound, loop.upperBound, loop.step);
      else work.push(loop.initArgs[v.index - 1], v.owner.terminator!.operand(v.index - 1));
      continue;
    }
    const def = v.definingOp;
    if (!def) continue;
    if (tt.LoadOp.is(def)) accesses.push(def);
    for (const x of def.operandValues()) work.push(x);
    for (const r of def.regions) for (const b of r.blocks) for (const x of b.terminator?.operandValues() ?? []) work.push(x);
  }
  return { params, accesses };
}

/** Elements one access of `op` (a load or store) can move at once: its vector width, bounded by its mask's runs. */
function accessWidth(op: Operation, axis: AxisInfoAnalysis): number {
  const ptr = tensorPtrOf(op);
  if (!ptr || !(ptr.type instanceof RankedTensorType)) return 1;
  const dim = accessOrder(op, axis)[0];
  const mask = maskOf(op);
  const runs = mask && mask.type instanceof RankedTensorType ? axis.maskAlignment(mask, dim) : Infinity;
  return Math.min(vectorElems(ptr, dim, axis), runs);
}

/** `arith.constant`s built at `rw`'s insertion point, one per value and type (`made` holds them). */
function constants(rw: Rewriter): { get: (v: number, t: IntegerType) => Value; made: Map<string, Value> } {
  const made = new Map<string, Value>();
  const get = (v: number, t: IntegerType): Value => {
    const key = `${v}:${t.width}`;
    let c = made.get(key);
    if (!c) made.set(key, (c = arith.ConstantOp.build(rw, { value: IntegerAttr.get(v, t) }).result));
    return c;
  };
  return { get, made };
}

/** The widths of `accesses` (in order) under a fresh axis analysis of `fn`. */
function widths(fn: Operation, accesses: readonly Operation[]): number[] {
  const axis = new AxisInfoAnalysis(fn);
  return accesses.map((a) => accessWidth(a, axis));
}

function run(fn: Operation, ctx: PassContext): void {
  if (!tt.isKernel(fn)) return;
  const divisor = Number(ctx.options.divisor);
  if (!(divisor >= 2 && (divisor & (divisor - 1)) === 0)) return ctx.fail(fn, `version-alignment: divisor ${divisor} is not a power of two of at least 2`);
  if (ctx.options.accesses !== 'all' && ctx.options.accesses !== 'dot-operands') return ctx.fail(fn, `version-alignment: accesses '${ctx.options.accesses}' is neither 'dot-operands' nor 'all'`);
  const body = fn.regions[0];
  const entry = body.entry;
  const ret = entry?.terminator;
  if (!entry || body.blocks.length !== 1 || !ret || !tt.ReturnOp.is(ret) || ret.numOperands) return;
  // already versioned (the pass ran before, e.g. in triton-opt ahead of triton-translate): once is enough
  if ([...entry].some(isVersions)) return;
  const slice = accessSlice(fn, ctx.options.accesses === 'all');
  const integers = [...slice.params].filter((p) => p.type instanceof IntegerType);
  if (!integers.length || !slice.accesses.length) return;
  // The body's facts, hints included: what the candidates lack, and how wide each access is as written.
  const axis = new AxisInfoAnalysis(fn);
  const candidates = integers.filter((p) => axis.divisibility(p) < divisor).sort((x, y) => x.index - y.index);
  if (!candidates.length) return;
  const generic = slice.accesses.map((a) => accessWidth(a, axis));

  // body; tt.return -> scf.if %ok { body, each candidate %x read as (%x / d) * d } else { body } {tir.versions}; tt.return
  const rw = ctx.rewriter();
  rw.setInsertionPoint(entry.first!);
  rw.loc = fn.loc;
  const ifOp = scf.IfOp.build(rw, { condition: arith.ConstantOp.build(rw, { value: IntegerAttr.get(1, IntegerType.get(1)) }).result }, { results: { results: [] }, regions: 2 }).op;
  markVersions(ifOp);
  const [thenBlock, elseBlock] = [ifOp.regions[0].addBlock(), ifOp.regions[1].addBlock()];
  for (let op = ifOp.next; op && op !== ret; ) {
    const next = op.next;
    op.remove();
    elseBlock.append(op);
    op = next;
  }
  rw.setInsertionPointToEnd(elseBlock);
  scf.YieldOp.build(rw, { results: [] });
  rw.setInsertionPointToEnd(thenBlock);
  const mapping = new ValueMapping();
  const rounded = new Map<BlockArgument, Operation[]>();
  const inThen = constants(rw);
  for (const p of candidates) {
    const d = inThen.get(divisor, p.type as IntegerType);
    const q = rw.create(arith.DivSIOp.name, { operands: { lhs: p, rhs: d } }).result(0);
    const r = rw.create(arith.MulIOp.name, { operands: { lhs: q, rhs: d } });
    rounded.set(p, [r, q.definingOp!]);
    mapping.map(p, r.result(0));
  }
  // Each op of the body and its clone, paired by walking both in the same order.
  const cloneOf = new Map<Operation, Operation>();
  for (const op of elseBlock.ops) {
    if (!scf.YieldOp.is(op)) thenBlock.append(cloneWithOpMap(op, mapping, cloneOf));
  }
  scf.YieldOp.build(rw, { results: [] });
  const accessesThen = slice.accesses.map((l) => cloneOf.get(l)!);

  // Keep the version only where some access widens; then only the parameters that widen one.
  const best = widths(fn, accessesThen);
  if (best.every((w, k) => w <= generic[k])) {
    for (const op of [...elseBlock.ops]) if (!scf.YieldOp.is(op)) op.moveBefore(ifOp);
    const cond = ifOp.operand(0).definingOp!;
    rw.eraseOp(ifOp);
    rw.eraseOp(cond);
    ctx.remark(fn, `'tt.func' op not versioned: no access widens with its integer parameters divisible by ${divisor}`);
    return;
  }
  const kept: BlockArgument[] = [];
  for (const p of candidates) {
    // Read p unrounded; if a load narrows, read it rounded again.
    const [r, ...rest] = rounded.get(p)!;
    const uses = [...r.result(0).uses()];
    for (const u of uses) u.set(p);
    if (widths(fn, accessesThen).every((x, k) => x >= best[k])) {
      for (const op of [r, ...rest]) rw.eraseOp(op);
      continue;
    }
    for (const u of uses) u.set(r.result(0));
    kept.push(p);
  }
  for (const c of inThen.made.values()) if (!c.hasUses) rw.eraseOp(c.definingOp!);

  // %ok = and over the kept parameters of ((%x & (d - 1)) == 0)
  rw.setInsertionPoint(ifOp);
  const beforeIf = constants(rw);
  let ok: Value | null = null;
  for (const p of kept) {
    const low = rw.create(arith.AndIOp.name, { operands: { lhs: p, rhs: beforeIf.get(divisor - 1, p.type as IntegerType) } }).result(0);
    const zero = beforeIf.get(0, p.type as IntegerType);
    const isAligned = arith.CmpIOp.build(rw, { lhs: low, rhs: zero, predicate: 'eq' }).result;
    ok = ok ? rw.create(arith.AndIOp.name, { operands: { lhs: ok, rhs: isAligned } }).result(0) : isAligned;
  }
  const placeholder = ifOp.operand(0).definingOp!;
  ifOp.setOperand(0, ok!);
  rw.eraseOp(placeholder);
  const names = kept.map((p) => (p.nameHint ? `%${p.nameHint}` : `argument ${p.index}`)).join(', ');
  const widened = accessesThen.filter((l, k) => best[k] > generic[k]).length;
  ctx.remark(fn, `'tt.func' op versioned on ${names} divisible by ${divisor}: ${widened} access(es) widen`);
  ctx.bump('kernels-versioned');
  ctx.bump('parameters-checked', kept.length);
}

/** The `version-alignment` pass: a kernel body specialized at run time for aligned sizes and strides. */
export const versionAlignment: PassDecl = {
  name: 'version-alignment',
  summary: 'Version a kernel on its integer parameters being multiples of a divisor, so that in that version its global accesses vectorize and the loads feeding its dots pipeline',
  anchor: 'function',
  options: {
    divisor: { type: 'int', default: 4, description: 'the divisibility (a power of two) the specialized copy assumes of its integer parameters' },
    accesses: { type: 'string', default: 'all', description: "which accesses may ask for a copy: 'all' (every global load and store) or 'dot-operands' (the loads feeding a tt.dot)" },
  },
  statistics: {
    'kernels-versioned': 'number of kernels given a specialized copy of their body',
    'parameters-checked': 'number of integer parameters the run-time condition tests',
  },
  run,
};
