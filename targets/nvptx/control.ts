/**
 * Control flow and kernel-level ops: program ids, barriers, `scf.for`/`scf.if`/`scf.while`
 * as branches between blocks whose arguments carry every register of the loop-carried values,
 * `cf` branches, returns and `tt.assert` (a trap when the condition fails).
 */
import { IntegerAttr } from '../../ir/attributes.js';
import { Block, type Operation, type Value } from '../../ir/ir.js';
import type { Type } from '../../ir/types.js';
import type { LoweringContext, LowerRule } from './context.js';
import { I1, targetError } from './emitter.js';

const AXES = ['x', 'y', 'z'];

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

function br(ctx: LoweringContext, dest: Block, args: readonly Value[]): void {
  ctx.b.create('cf.br', { operands: { destOperands: args }, successors: [dest] });
}

function condBr(ctx: LoweringContext, cond: Value, t: Block, tArgs: readonly Value[], f: Block, fArgs: readonly Value[]): void {
  ctx.b.create('cf.cond_br', { operands: { condition: cond, trueDestOperands: tArgs, falseDestOperands: fArgs }, successors: [t, f] });
}

/** Whether `op` compares its bounds as unsigned integers. */
const unsignedLoop = (op: Operation): boolean => op.getAttr('unsignedCmp') !== undefined;

/** Control flow and kernel-level ops, by op name. */
export const CONTROL_RULES: Record<string, LowerRule> = {
  // tt.get_program_id x -> mov.u32 %r, %ctaid.x
  'tt.get_program_id': (ctx, op) => {
    ctx.set(op.result(0), [ctx.e.sreg(`ctaid.${AXES[Number((op.getAttr('axis') as IntegerAttr).value)]}`)]);
  },
  // tt.get_num_programs x -> mov.u32 %r, %nctaid.x
  'tt.get_num_programs': (ctx, op) => {
    ctx.set(op.result(0), [ctx.e.sreg(`nctaid.${AXES[Number((op.getAttr('axis') as IntegerAttr).value)]}`)]);
  },
  // gpu.barrier -> bar.sync 0
  'gpu.barrier': (ctx) => ctx.e.barrier(),
  'ttg.barrier': (ctx) => ctx.e.barrier(),
  // scf.for -> br ^header(lb, inits); ^header: iv < ub ? ^body : ^exit; ^body: ...; br ^header(iv + step, yields)
  'scf.for': (ctx, op) => {
    const [lb, ub, step] = [0, 1, 2].map((k) => ctx.scalar(op.operand(k), op));
    const inits = op.operandValues().slice(3);
    const header = newBlock(ctx, [lb.type, ...typesOf(ctx, inits, op)]);
    const body = newBlock(ctx);
    const exit = newBlock(ctx);
    br(ctx, header, [lb, ...flatten(ctx, inits, op)]);
    ctx.b.setInsertionPointToEnd(header);
    const [ivReg, ...carried] = header.args;
    condBr(ctx, ctx.e.setp('lt', unsignedLoop(op) ? 'u' : 's', ivReg, ub), body, [], exit, []);
    ctx.b.setInsertionPointToEnd(body);
    const term = ctx.lowerBody(op.region(0).entry!, [[ivReg], ...unflatten(ctx, carried, inits, op)], op);
    br(ctx, header, [ctx.e.add(ivReg, step), ...flatten(ctx, term.operandValues(), term)]);
    ctx.b.setInsertionPointToEnd(exit);
    unflatten(ctx, carried, inits, op).forEach((regs, k) => ctx.set(op.result(k), regs));
  },
  // scf.if -> cond_br %c, ^then, ^else; both branch to ^merge(results)
  'scf.if': (ctx, op) => {
    const cond = ctx.scalar(op.operand(0), op);
    const merge = newBlock(ctx, typesOf(ctx, op.results, op));
    const then = newBlock(ctx);
    const hasElse = !op.region(1).empty;
    const otherwise = hasElse ? newBlock(ctx) : merge;
    condBr(ctx, cond, then, [], otherwise, []);
    ctx.b.setInsertionPointToEnd(then);
    const t = ctx.lowerBody(op.region(0).entry!, [], op);
    br(ctx, merge, flatten(ctx, t.operandValues(), t));
    if (hasElse) {
      ctx.b.setInsertionPointToEnd(otherwise);
      const f = ctx.lowerBody(op.region(1).entry!, [], op);
      br(ctx, merge, flatten(ctx, f.operandValues(), f));
    }
    ctx.b.setInsertionPointToEnd(merge);
    unflatten(ctx, merge.args, op.results, op).forEach((regs, k) => ctx.set(op.result(k), regs));
  },
  // scf.while -> ^before(inits): ...; cond_br %c, ^after(args), ^exit(args); ^after: ...; br ^before(yields)
  'scf.while': (ctx, op) => {
    const inits = op.operandValues();
    const beforeSrc = op.region(0).entry!;
    const afterSrc = op.region(1).entry!;
    const before = newBlock(ctx, typesOf(ctx, inits, op));
    const after = newBlock(ctx, typesOf(ctx, afterSrc.args, op));
    const exit = newBlock(ctx, typesOf(ctx, op.results, op));
    br(ctx, before, flatten(ctx, inits, op));
    ctx.b.setInsertionPointToEnd(before);
    const cond = ctx.lowerBody(beforeSrc, unflatten(ctx, before.args, inits, op), op);
    const passed = flatten(ctx, cond.operandValues().slice(1), cond);
    condBr(ctx, ctx.scalar(cond.operand(0), cond), after, passed, exit, passed);
    ctx.b.setInsertionPointToEnd(after);
    const y = ctx.lowerBody(afterSrc, unflatten(ctx, after.args, afterSrc.args, op), op);
    br(ctx, before, flatten(ctx, y.operandValues(), y));
    ctx.b.setInsertionPointToEnd(exit);
    unflatten(ctx, exit.args, op.results, op).forEach((regs, k) => ctx.set(op.result(k), regs));
  },
  // cf.br ^bb(%x) -> cf.br ^bb'(registers of %x)
  'cf.br': (ctx, op) => br(ctx, ctx.blockFor(op.successors[0], op), flatten(ctx, op.operandValues(), op)),
  // cf.cond_br %c, ^a(..), ^b(..) -> the same on registers
  'cf.cond_br': (ctx, op) => {
    const spec = op.spec!;
    const t = flatten(ctx, spec.operandGroup(op, 'trueDestOperands'), op);
    const f = flatten(ctx, spec.operandGroup(op, 'falseDestOperands'), op);
    condBr(ctx, ctx.scalar(op.operand(0), op), ctx.blockFor(op.successors[0], op), t, ctx.blockFor(op.successors[1], op), f);
  },
  // tt.return -> ret
  'tt.return': (ctx, op) => {
    if (op.numOperands) throw targetError(op, 'a kernel cannot return values');
    ctx.b.create('func.return');
  },
  // tt.assert %c -> and every register of %c; branch to a trap where it is false
  'tt.assert': (ctx, op) => {
    const regs = ctx.get(op.operand(0), op);
    const all = regs.reduce((a, b) => ctx.e.op('and', 'pred', [a, b], I1));
    const fail = newBlock(ctx);
    const cont = newBlock(ctx);
    condBr(ctx, all, cont, [], fail, []);
    ctx.b.setInsertionPointToEnd(fail);
    ctx.b.create('nvptx.trap');
    ctx.b.create('func.return');
    ctx.b.setInsertionPointToEnd(cont);
  },
  'tt.print': (_ctx, op) => {
    throw targetError(op, 'is not supported by the nvptx target (device printf is not implemented); remove it or run it under triton-run');
  },
};
