/**
 * `remove-layout-conversions` (a small version of Triton's RemoveLayoutConversions pass): removes
 * `ttg.convert_layout` ops by folding chains of converts and by rematerializing the cheap,
 * layout-agnostic computation that feeds a convert directly in the convert's target layout.
 *
 * For each convert `%r = ttg.convert_layout %v : T0 -> T`, the backward slice of `%v` is planned
 * first (all or nothing, depth- and size-capped): values of type T are used as they are; a convert
 * feeding the slice is looked through (its source is rematerialized, or converted once, directly
 * to the needed type); elementwise ops (arith/math/tt.addptr ...), tt.splat, splat dense
 * constants, 1-D tt.make_range, tt.broadcast, tt.expand_dims and tt.trans (blocked) are recreated in
 * the needed layout (operand layouts: the same for elementwise/broadcast, `#ttg.slice<{dim = axis,
 * parent = L}>` for expand_dims, the inverse transposition for trans), which may be any register
 * layout but an mma operand's, and so is a load over fewer elements than the CTA has threads, in
 * the convert's block (Triton's cheap load; support/rematerialize.ts). Anything else (block
 * arguments, other loads, dots, reductions, loop results) stops the plan, and the convert stays.
 * Before all of it, layouts are propagated forward from loads and dots (support/layout-propagation.ts).
 * Before that, a `tt.scan` of converted operands is moved to their source layout (converting its
 * results instead), and so is a `tt.trans` of a converted blocked operand (its result takes the
 * source layout transposed, as Triton infers it), so the converts around them fold away.
 * Then a convert read only by an elementwise op whose other operands can be recreated in the
 * convert's source layout moves after that op (a scaled epilogue, `acc * scale[None, :]`, runs in
 * the accumulator's layout), and last a convert read only by a narrowing cast (`arith.truncf`,
 * `arith.trunci`) moves after the cast: the exchange then carries the narrow values (an f32 mma
 * accumulator goes to the store layout as f16, half the shared-memory traffic, as Triton's
 * epilogue does; support/sink-converts.ts).
 * Originals are kept while other ops use them; ops left dead are erased afterwards.
 */
import { Builder } from '../ir/builder.js';
import type { Operation } from '../ir/ir.js';
import { eraseDeadOps } from '../ir/patterns.js';
import { RankedTensorType } from '../ir/types.js';
import { BLOCKED, isLayout } from '../dialects/ttg/layout-attrs.js';
import { propagateLayouts } from './support/layout-propagation.js';
import { carryInUseLayouts } from './support/region-carried.js';
import { Rematerializer } from './support/rematerialize.js';
import { sinkConvertsPastElementwise, sinkConvertsPastNarrowing } from './support/sink-converts.js';
import { targetOf } from '../dialects/ttg/target.js';
import type { StructAttr } from '../dialects/ttg/struct-attr.js';
import { transLayout } from './support/convert-to-gpu-layouts.js';
import type { PassContext, PassDecl } from './pass.js';
import type { View } from '../ir/op-def.js';
import * as tt from '../dialects/tt/index.js';
import * as ttg from '../dialects/ttg/index.js';

type ConvertView = View<typeof ttg.ConvertLayoutOp.decl>;
type TransView = View<typeof tt.TransOp.decl>;

/**
 * Scans keep their operand's layout: a scan of converted values is done in the source layout
 * and its results converted instead, so the converts can then fold with those after the scan.
 */
// %c = convert %x : L -> L1 ; %y = tt.scan(%c) : L1  ->  %y' = tt.scan(%x) : L ; %y = convert %y' : L -> L1
function hoistConvertsOverScans(fn: Operation, b: Builder): number {
  const scans: Operation[] = [];
  fn.walk((op) => void (tt.ScanOp.is(op) && scans.push(op)), 'pre');
  let moved = 0;
  for (const scan of scans) {
    const cvts = tt.ScanOp.view(scan).srcs.map((v) => ttg.ConvertLayoutOp.match(v.definingOp));
    if (!cvts.every((c) => c !== null)) continue;
    const srcs = cvts.map((c) => c!.src);
    const enc = (srcs[0].type as RankedTensorType).encoding;
    if (!isLayout(enc, BLOCKED) || !srcs.every((v) => (v.type as RankedTensorType).encoding === enc)) continue;
    const copy = scan.clone();
    srcs.forEach((v, k) => copy.setOperand(k, v));
    copy.results.forEach((r) => (r.type = (r.type as RankedTensorType).withEncoding(enc)));
    b.setInsertionPoint(scan);
    b.insert(copy);
    const back = copy.results.map((r, k) => ttg.ConvertLayoutOp.build(b, { src: r }, { results: { result: scan.result(k).type }, loc: scan.loc }).result);
    scan.replaceAllUsesWith(back);
    scan.erase();
    eraseDeadOps(cvts.map((c) => c!.op));
    moved++;
  }
  return moved;
}

/**
 * A transposition keeps its operand's layout (transposed): a trans of a converted blocked value is
 * done on the source and its result converted instead, so the transposed tile is exchanged once.
 */
// %c = convert %x : A -> B ; %t = tt.trans %c : B -> B^T  ->  %t' = tt.trans %x : A -> A^T ; %t = convert %t' : A^T -> B^T
function hoistConvertsOverTranses(fn: Operation, b: Builder): number {
  const transes: TransView[] = [];
  fn.walk((op) => {
    const trans = tt.TransOp.match(op);
    if (trans) transes.push(trans);
  }, 'pre');
  let moved = 0;
  for (const trans of transes) {
    const cvt = ttg.ConvertLayoutOp.match(trans.src.definingOp);
    if (!cvt) continue;
    const src = cvt.src;
    const enc = (src.type as RankedTensorType).encoding;
    if (!isLayout(enc, BLOCKED)) continue;
    const copy = tt.TransOp.view(trans.op.clone());
    copy.op.setOperand(0, src);
    const resT = trans.result.type as RankedTensorType;
    copy.result.type = resT.withEncoding(transLayout(enc as StructAttr, [...trans.order]));
    b.setInsertionPoint(trans.op);
    b.insert(copy.op);
    const back = ttg.ConvertLayoutOp.build(b, { src: copy.result }, { results: { result: resT }, loc: trans.op.loc }).result;
    trans.op.replaceAllUsesWith([back]);
    trans.op.erase();
    eraseDeadOps([cvt.op]);
    moved++;
  }
  return moved;
}

function run(fn: Operation, ctx: PassContext): void {
  const target = targetOf(fn);
  const forward = propagateLayouts(fn, target.numWarps * target.threadsPerWarp, {
    onRewrite: (what, op) => ctx.onPatternApplied?.(what, op),
    remark: (op, message) => ctx.remark(op, message),
  });
  ctx.bump('values-relaid', forward.relaid);
  ctx.bump('converts-inserted', forward.convertsInserted);
  ctx.bump('converts-folded', forward.convertsFolded);
  ctx.bump('scans-relaid', hoistConvertsOverScans(fn, new Builder()));
  ctx.bump('transes-relaid', hoistConvertsOverTranses(fn, new Builder()));
  // Values carried by scf.while / scf.if take the layout their uses in the region need; the
  // conversions this inserts before and after the region are then rematerialized or folded below.
  ctx.bump('carried-relaid', carryInUseLayouts(fn, {
    canRecompute: (v, t) => new Rematerializer().canRemat(v, t),
    onRewrite: (what, op) => ctx.onPatternApplied?.(what, op),
  }));
  const converts: ConvertView[] = [];
  fn.walk((op) => {
    const cvt = ttg.ConvertLayoutOp.match(op);
    if (cvt) converts.push(cvt);
  }, 'pre');
  const threads = target.numWarps * target.threadsPerWarp;
  const remat = new Rematerializer(threads);
  const candidates: Operation[] = [];
  for (const cvt of converts) {
    if (!cvt.op.parent) continue;
    const src = cvt.src;
    const t = cvt.result.type;
    remat.resetBudget(cvt.op.parent);
    if (!remat.canRemat(src, t)) continue;
    cvt.result.replaceAllUsesWith(remat.build(src, t, cvt.op));
    if (src.definingOp) candidates.push(src.definingOp);
    ctx.onPatternApplied?.('rematerialize', cvt.op);
    cvt.op.erase();
    ctx.bump('converts-removed');
  }
  const onRewrite = (what: string, op: Operation): void => ctx.onPatternApplied?.(what, op);
  ctx.bump('converts-sunk', sinkConvertsPastElementwise(fn, new Builder(), remat, candidates, onRewrite));
  ctx.bump('ops-rematerialized', remat.created);
  ctx.bump('ops-erased', eraseDeadOps(candidates));
  // Last: rematerialization would move the cast back before the conversion.
  ctx.bump('converts-narrowed', sinkConvertsPastNarrowing(fn, new Builder(), onRewrite));
}

/** The `remove-layout-conversions` pass (a small version of Triton's tritongpu-remove-layout-conversions). */
export const removeLayoutConversions: PassDecl = {
  name: 'remove-layout-conversions',
  aliases: ['tritongpu-remove-layout-conversions'],
  summary: 'Fold ttg.convert_layout chains and rematerialize cheap producers in the converted layout',
  anchor: 'function',
  statistics: {
    'values-relaid': 'number of values given the layout propagated from an anchor (load, dot, atomic)',
    'converts-inserted': 'number of ttg.convert_layout ops inserted where a use needs another layout',
    'converts-folded': 'number of ttg.convert_layout ops that became no-ops after the propagation',
    'converts-removed': 'number of ttg.convert_layout ops replaced',
    'ops-rematerialized': 'number of ops (and folded converts) created in a new layout',
    'ops-erased': 'number of ops erased after they became dead',
    'scans-relaid': 'number of tt.scan ops moved to the layout of their converted operands',
    'transes-relaid': 'number of tt.trans ops moved to the (transposed) layout of their converted operands',
    'carried-relaid': 'number of sets of values carried by scf.while / scf.if moved to the layout their uses need',
    'converts-sunk': 'number of ttg.convert_layout ops moved after the elementwise op that reads them',
    'converts-narrowed': 'number of ttg.convert_layout ops moved after the narrowing cast that reads them',
  },
  run,
};
