/**
 * `unroll-loops`: unrolls an `scf.for` by a factor. A loop with Triton's `tt.loop_unroll_factor`
 * (`tl.range(..., loop_unroll_factor=N)`) is unrolled by that factor, as Triton's
 * `triton-loop-unroll` does (an alias of this pass; the `default` pipeline runs it so); the
 * verifier keeps that factor in [1, `MAX_LOOP_UNROLL_FACTOR`] (dialects/tt/hints.ts). With
 * `factor` above 1, an innermost straight-line loop that loads from global memory and holds no
 * `tt.dot` (the software pipeliner's) and at most `max-body-ops` ops is unrolled by `factor` too,
 * so the loads of consecutive iterations are in flight together.
 *
 * The trip count need not be known: the unrolled loop runs the whole groups of iterations, and
 * the original loop, from where those end, the rest. Each body copy keeps its ops in order, so
 * loads, stores and float sums happen in the original order, bit for bit. Without the attribute,
 * a loop whose body holds an op with regions is left alone.
 *
 * Why `factor` is 1 in the `default` pipeline (measured on an H200, 2026-11-28,
 * bench/gpu/results/2026-11-28/s100-*, s101-*, time before ÷ after): with factor 2 the seeds'
 * row sums with `continue` (16 blocks per row) ran 1.082-1.084x faster, but Triton's layernorm
 * lost everywhere, 0.944-0.980 (its loops run 1 to 4 times: the whole groups' bounds take a
 * division, and the second copy of each loop costs registers), while the same layernorm unrolled by
 * hand without a remainder loop (each copy masked) had won 1.011-1.013.
 */
import type { Operation, Value } from '../ir/ir.js';
import { Block, ValueMapping } from '../ir/ir.js';
import { IntegerAttr } from '../ir/attributes.js';
import type { Rewriter } from '../ir/rewriter.js';
import * as arith from '../dialects/arith.js';
import * as scf from '../dialects/scf.js';
import * as tt from '../dialects/tt/index.js';
import { LOOP_UNROLL_FACTOR, MAX_LOOP_UNROLL_FACTOR } from '../dialects/tt/hints.js';
import type { PassContext, PassDecl } from './pass.js';


/** The factor to unroll `loop` by (1: leave it), from its attribute or the pass's rules. */
function factorOf(loop: Operation, factor: number, maxBodyOps: number): number {
  const asked = loop.getAttr(LOOP_UNROLL_FACTOR);
  if (asked instanceof IntegerAttr) return Number(asked.value);
  const ops = loop.regions[0].blocks[0].ops;
  if (ops.some((op) => op.regions.length > 0) || ops.length - 1 > maxBodyOps) return 1;
  const loads = ops.some((op) => tt.LoadOp.is(op));
  const dots = ops.some((op) => tt.DotOp.is(op));
  return loads && !dots ? factor : 1;
}

/** `arith.<name> lhs, rhs` at the rewriter's insertion point. */
const binary = (rw: Rewriter, name: string, lhs: Value, rhs: Value): Value => rw.create(`arith.${name}`, { operands: { lhs, rhs } }).result(0);

/** The integer constant `v` of `like`'s type at the rewriter's insertion point. */
const constantLike = (rw: Rewriter, v: number, like: Value): Value => arith.ConstantOp.build(rw, { value: IntegerAttr.get(v, like.type) }).result;

/** Clones the ops of `body` but its yield at the insertion point, with `iv` and `carried` for its arguments; returns the values it yields. */
function cloneBody(rw: Rewriter, body: Block, iv: Value, carried: readonly Value[]): Value[] {
  const m = new ValueMapping();
  m.map(body.args[0], iv);
  carried.forEach((v, k) => m.map(body.args[k + 1], v));
  for (const op of body) {
    if (op === body.terminator) break;
    rw.insert(op.clone(m));
  }
  return scf.YieldOp.view(body.terminator!).results.map((v) => m.lookupOrDefault(v));
}

/**
 * scf.for %i = %lb to %ub step %s iter_args(%a = %x) { B(%i, %a) }
 *   -> %g = (max(%ub - %lb, 0) + %s - 1) / (F * %s); %mid = %lb + %g * (F * %s)
 *      %r = scf.for %i = %lb to %mid step F * %s iter_args(%a = %x) { B(%i, %a); B(%i + %s, ..); ... }
 *      scf.for %i = %mid to %ub step %s iter_args(%a = %r) { B(%i, %a) }
 */
function unroll(rw: Rewriter, loop: Operation, factor: number): void {
  const forOp = scf.ForOp.view(loop);
  const { lowerBound: lb, upperBound: ub, step } = forOp;
  const body = loop.regions[0].blocks[0];
  rw.before(loop); // what this creates takes the loop's location
  // whole groups: floor(ceil(span / s) / F) = floor((span + s - 1) / (F * s)), for span >= 0 and s > 0
  const span = binary(rw, 'maxsi', binary(rw, 'subi', ub, lb), constantLike(rw, 0, step));
  const groupStep = binary(rw, 'muli', step, constantLike(rw, factor, step));
  const stepLess1 = binary(rw, 'subi', step, constantLike(rw, 1, step));
  const groups = binary(rw, 'divsi', binary(rw, 'addi', span, stepLess1), groupStep);
  const mid = binary(rw, 'addi', lb, binary(rw, 'muli', groups, groupStep));
  const types = loop.results.map((r) => r.type);
  const main = scf.ForOp.build(rw, { lowerBound: lb, upperBound: mid, step: groupStep, initArgs: forOp.initArgs }, { results: { results: types }, regions: 1 }).op;
  const mainBody = main.regions[0].addBlock(new Block(body.args.map((a) => a.type), body.args.map((a) => a.loc)));
  rw.setInsertionPointToEnd(mainBody);
  rw.loc = loop.loc;
  let carried: Value[] = mainBody.args.slice(1);
  for (let k = 0; k < factor; k++) {
    const iv = k === 0 ? mainBody.args[0] : binary(rw, 'addi', mainBody.args[0], k === 1 ? step : binary(rw, 'muli', step, constantLike(rw, k, step)));
    carried = cloneBody(rw, body, iv, carried);
  }
  scf.YieldOp.build(rw, { results: carried });
  // the original loop, from %mid on, runs what is left
  rw.modifyInPlace(loop, () => {
    loop.setOperand(0, mid);
    main.results.forEach((r, k) => loop.setOperand(3 + k, r));
    loop.removeAttr(LOOP_UNROLL_FACTOR);
  });
}

function run(fn: Operation, ctx: PassContext): void {
  const factor = Number(ctx.options.factor);
  const maxBodyOps = Number(ctx.options['max-body-ops']);
  if (!Number.isInteger(factor) || factor < 1 || factor > MAX_LOOP_UNROLL_FACTOR) return ctx.fail(fn, `unroll-loops: factor ${ctx.options.factor} is not in [1, ${MAX_LOOP_UNROLL_FACTOR}]`);
  const loops: Operation[] = [];
  fn.walk((op) => void (scf.ForOp.is(op) && loops.push(op)));
  const rw = ctx.rewriter();
  for (const loop of loops) {
    const f = factorOf(loop, factor, maxBodyOps);
    if (f <= 1) continue;
    unroll(rw, loop, f);
    ctx.bump('loops-unrolled');
  }
}

/** The `unroll-loops` pass (see the file comment). */
export const unrollLoops: PassDecl = {
  name: 'unroll-loops',
  summary: 'Unroll loops marked tt.loop_unroll_factor, and with factor > 1 the innermost loops that load from global memory',
  anchor: 'function',
  aliases: ['triton-loop-unroll'],
  options: {
    factor: { type: 'int', default: 1, description: 'the unroll factor of an innermost loop that loads from global memory and has no tt.loop_unroll_factor (1: only marked loops)' },
    'max-body-ops': { type: 'int', default: 64, description: 'the most ops a loop body may hold to be unrolled without tt.loop_unroll_factor' },
  },
  statistics: { 'loops-unrolled': 'number of loops unrolled' },
  run,
};
