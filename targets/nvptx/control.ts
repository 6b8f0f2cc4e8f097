/**
 * Control flow and kernel-level ops: program ids, barriers, `scf.for`/`scf.if`/`scf.while`
 * as branches between blocks whose arguments carry every register of the loop-carried values,
 * `cf` branches, returns and `tt.assert` (a report and a trap when the condition fails).
 */
import { Block, type Operation, type Value } from '../../ir/ir.js';
import type { Type } from '../../ir/types.js';
import * as cf from '../../dialects/cf.js';
import * as func from '../../dialects/func.js';
import * as gpu from '../../dialects/gpu.js';
import * as nvptx from '../../dialects/nvptx.js';
import * as scf from '../../dialects/scf.js';
import * as tt from '../../dialects/tt/index.js';
import { lowering, type Lowering, type LoweringContext } from './context.js';
import { I1, targetError } from './emitter.js';
import { reportAssertion } from './device-debug.js';

/** The registers of `values`, concatenated. */
function flatten(ctx: LoweringContext, values: readonly Value[], user: Operation): Value[] {
  return values.flatMap((v) => ctx.get(v, user));
}

/** Splits a flat register list back into per-value lists by the values' register counts. */
function unflatten(ctx: LoweringContext, regs: readonly Value[], like: readonly Value[], user: Operation): Value[][] {
  let k = 0;
  return like.map((v) => {
    const n = ctx.expand(v.type, user).length;
    const out = regs.slice(k, k + n);
    k += n;
    return out;
  });
}

/** The register types of `values`, concatenated. */
const typesOf = (ctx: LoweringContext, values: readonly Value[], user: Operation): Type[] => values.flatMap((v) => ctx.expand(v.type, user));

/** A new block at the end of the kernel, with arguments of `types`. */
function newBlock(ctx: LoweringContext, types: readonly Type[] = []): Block {
  return ctx.region.addBlock(new Block(types));
}

/** `cf.br ^dest(args)` on registers. */
function br(ctx: LoweringContext, dest: Block, args: readonly Value[]): void {
  cf.BrOp.build(ctx.b, { destOperands: args }, { successors: [dest] });
}

/** `cf.cond_br %cond, ^t(tArgs), ^f(fArgs)` on registers. */
function condBr(ctx: LoweringContext, cond: Value, t: Block, tArgs: readonly Value[], f: Block, fArgs: readonly Value[]): void {
  cf.CondBrOp.build(ctx.b, { condition: cond, trueDestOperands: tArgs, falseDestOperands: fArgs }, { successors: [t, f] });
}

/** Whether `op` compares its bounds as unsigned integers. */
const unsignedLoop = (op: Operation): boolean => op.getAttr('unsignedCmp') !== undefined;

/** scf.for -> br ^header(lb, inits); ^header: iv < ub ? ^body : ^exit; ^body: ...; br ^header(iv + step, yields) */
const lowerFor = lowering(scf.ForOp, (ctx, forOp) => {
  const { op, initArgs: inits } = forOp;
  const [lb, ub, step] = [forOp.lowerBound, forOp.upperBound, forOp.step].map((v) => ctx.scalar(v, op));
  const header = newBlock(ctx, [lb.type, ...typesOf(ctx, inits, op)]);
  const body = newBlock(ctx);
  const exit = newBlock(ctx);
  br(ctx, header, [lb, ...flatten(ctx, inits, op)]);
  ctx.b.setInsertionPointToEnd(header);
  const [ivReg, ...carried] = header.args;
  condBr(ctx, ctx.e.setp('lt', unsignedLoop(op) ? 'u' : 's', ivReg, ub), body, [], exit, []);
  ctx.b.setInsertionPointToEnd(body);
  const term = ctx.lowerBody(forOp.region.entry!, [[ivReg], ...unflatten(ctx, carried, inits, op)], op);
  br(ctx, header, [ctx.e.add(ivReg, step), ...flatten(ctx, term.operandValues(), term)]);
  ctx.b.setInsertionPointToEnd(exit);
  const results = forOp.results;
  unflatten(ctx, carried, inits, op).forEach((regs, k) => ctx.set(results[k], regs));
});

/** scf.if -> cond_br %c, ^then, ^else; both branch to ^merge(results) */
const lowerIf = lowering(scf.IfOp, (ctx, ifOp) => {
  const { op, results, elseRegion } = ifOp;
  const cond = ctx.scalar(ifOp.condition, op);
  const merge = newBlock(ctx, typesOf(ctx, results, op));
  const then = newBlock(ctx);
  const hasElse = !elseRegion.empty;
  const otherwise = hasElse ? newBlock(ctx) : merge;
  condBr(ctx, cond, then, [], otherwise, []);
  ctx.b.setInsertionPointToEnd(then);
  const t = ctx.lowerBody(ifOp.thenRegion.entry!, [], op);
  br(ctx, merge, flatten(ctx, t.operandValues(), t));
  if (hasElse) {
    ctx.b.setInsertionPointToEnd(otherwise);
    const f = ctx.lowerBody(elseRegion.entry!, [], op);
    br(ctx, merge, flatten(ctx, f.operandValues(), f));
  }
  ctx.b.setInsertionPointToEnd(merge);
  unflatten(ctx, merge.args, results, op).forEach((regs, k) => ctx.set(results[k], regs));
});

/** scf.while -> ^before(inits): ...; cond_br %c, ^after(args), ^exit(args); ^after: ...; br ^before(yields) */
const lowerWhile = lowering(scf.WhileOp, (ctx, whileOp) => {
  const { op, inits, results } = whileOp;
  const beforeSrc = whileOp.before.entry!;
  const afterSrc = whileOp.after.entry!;
  const before = newBlock(ctx, typesOf(ctx, inits, op));
  const after = newBlock(ctx, typesOf(ctx, afterSrc.args, op));
  const exit = newBlock(ctx, typesOf(ctx, results, op));
  br(ctx, before, flatten(ctx, inits, op));
  ctx.b.setInsertionPointToEnd(before);
  const cond = scf.ConditionOp.view(ctx.lowerBody(beforeSrc, unflatten(ctx, before.args, inits, op), op));
  const passed = flatten(ctx, cond.args, cond.op);
  condBr(ctx, ctx.scalar(cond.condition, cond.op), after, passed, exit, passed);
  ctx.b.setInsertionPointToEnd(after);
  const y = ctx.lowerBody(afterSrc, unflatten(ctx, after.args, afterSrc.args, op), op);
  br(ctx, before, flatten(ctx, y.operandValues(), y));
  ctx.b.setInsertionPointToEnd(exit);
  unflatten(ctx, exit.args, results, op).forEach((regs, k) => ctx.set(results[k], regs));
});

/** tt.assert %c, "msg" -> and every register of %c; where it is false: __assertfail("msg", file, line, kernel), trap */
const lowerAssert = lowering(tt.AssertOp, (ctx, assert) => {
  const regs = ctx.get(assert.condition, assert.op);
  const all = regs.reduce((a, b) => ctx.e.op('and', 'pred', [a, b], I1));
  const fail = newBlock(ctx);
  const cont = newBlock(ctx);
  condBr(ctx, all, cont, [], fail, []);
  ctx.b.setInsertionPointToEnd(fail);
  reportAssertion(ctx, assert.op, assert.message ?? '');
  nvptx.TrapOp.build(ctx.b, {});
  func.ReturnOp.build(ctx.b, { operands: [] });
  ctx.b.setInsertionPointToEnd(cont);
});

/** Control flow and kernel-level ops. */
export const CONTROL_RULES: readonly Lowering[] = [
  // tt.get_program_id x -> mov.u32 %r, %ctaid.x
  lowering(tt.GetProgramIdOp, (ctx, pid) => ctx.set(pid.result, [ctx.e.sreg(`ctaid.${pid.axis}`)])),
  // tt.get_num_programs x -> mov.u32 %r, %nctaid.x
  lowering(tt.GetNumProgramsOp, (ctx, n) => ctx.set(n.result, [ctx.e.sreg(`nctaid.${n.axis}`)])),
  // gpu.barrier -> bar.sync 0
  lowering(gpu.BarrierOp, (ctx) => ctx.e.barrier()),
  lowerFor,
  lowerIf,
  lowerWhile,
  // cf.br ^bb(%x) -> cf.br ^bb'(registers of %x)
  lowering(cf.BrOp, (ctx, { op, dest, destOperands }) => br(ctx, ctx.blockFor(dest, op), flatten(ctx, destOperands, op))),
  // cf.cond_br %c, ^a(..), ^b(..) -> the same on registers
  lowering(cf.CondBrOp, (ctx, { op, condition, trueDest, trueDestOperands, falseDest, falseDestOperands }) => {
    const t = flatten(ctx, trueDestOperands, op);
    const f = flatten(ctx, falseDestOperands, op);
    condBr(ctx, ctx.scalar(condition, op), ctx.blockFor(trueDest, op), t, ctx.blockFor(falseDest, op), f);
  }),
  // tt.return -> ret
  lowering(tt.ReturnOp, (ctx, ret) => {
    if (ret.srcs.length) throw targetError(ret.op, 'a kernel cannot return values');
    func.ReturnOp.build(ctx.b, { operands: [] });
  }),
  lowerAssert,
];
