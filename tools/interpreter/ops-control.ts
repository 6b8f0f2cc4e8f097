/** Control flow: scf.for / scf.if / scf.while / scf.execute_region, tt.call / func.call, cf.assert. */
import { SymbolRefAttr } from '../../ir/attributes.js';
import * as cf from '../../dialects/cf.js';
import * as func from '../../dialects/func.js';
import * as scf from '../../dialects/scf.js';
import * as tt from '../../dialects/tt/index.js';
import type { Interpreter } from './interpreter.js';
import { impl, type OpEntry } from './op-impl.js';
import { fail } from './errors.js';
import { bigAt } from './elementwise.js';
import { type RtValue, asTensor, eltClass, tensor, wrapInt } from './values.js';
import type { Value } from '../../ir/ir.js';
import type { Type } from '../../ir/types.js';

/** A scalar of integer type `t` holding `v`. */
function intValue(v: bigint, t: Type): RtValue {
  const c = eltClass(t);
  if (c.k === 'i64') return tensor([], t, BigInt64Array.of(BigInt.asIntN(64, v)));
  if (c.k === 'int') return tensor([], t, Int32Array.of(wrapInt(Number(BigInt.asIntN(32, v)), c.width)));
  return fail(`loop induction variable of unsupported type '${t}'`);
}

/** scf.for: signed (or, with `unsignedCmp`, unsigned) iteration from lb while iv < ub. */
const scfFor = impl(scf.ForOp, (loop, it) => {
  const t = loop.lowerBound.type;
  const width = (() => {
    const c = eltClass(t);
    return c.k === 'int' ? c.width : 64;
  })();
  const unsigned = loop.op.getAttr('unsignedCmp') !== undefined;
  const norm = (v: bigint): bigint => (unsigned ? BigInt.asUintN(width, v) : BigInt.asIntN(width, v));
  let iv = norm(bigAt(it.get(loop.lowerBound), 0));
  const ub = norm(bigAt(it.get(loop.upperBound), 0));
  const step = norm(bigAt(it.get(loop.step), 0));
  if (step <= 0n) fail(`loop step must be positive, got ${step}`);
  let carried = loop.initArgs.map((v) => it.get(v));
  const body = loop.region;
  while (iv < ub) {
    carried = it.runRegion(body, [intValue(iv, t), ...carried]).values;
    iv += step; // unbounded: a loop whose induction variable would overflow still ends at ub
  }
  return carried;
});

const scfIf = impl(scf.IfOp, (branch, it) => {
  const c = (asTensor(it.get(branch.condition)).data as Int32Array)[0];
  const region = c ? branch.thenRegion : branch.elseRegion;
  if (!region || region.empty) return [];
  return it.runRegion(region, []).values;
});

/** scf.while: run `before`; scf.condition decides whether to run `after` (whose yield feeds `before`). */
const scfWhile = impl(scf.WhileOp, (loop, it) => {
  let args = loop.inits.map((v) => it.get(v));
  for (;;) {
    const exit = it.runRegion(loop.before, args);
    const [cond, ...forwarded] = exit.values;
    if (!(asTensor(cond).data as Int32Array)[0]) return forwarded;
    args = it.runRegion(loop.after, forwarded).values;
  }
});

const executeRegion = impl(scf.ExecuteRegionOp, (exec, it) => it.runRegion(exec.region, []).values);

/** Calls the function `callee` names with the values of `args`. */
function call(it: Interpreter, callee: unknown, args: readonly Value[]): RtValue[] {
  if (!(callee instanceof SymbolRefAttr)) return fail('missing callee');
  return it.call(it.func(callee.root), args.map((v) => it.get(v)));
}

const cfAssert = impl(cf.AssertOp, (check, it) => {
  if (!(asTensor(it.get(check.arg)).data as Int32Array)[0]) fail(`assertion failed: ${check.msg ?? ''}`);
  return [];
});

/** The control-flow op table (terminators are handled by the interpreter loop). */
export const controlOps: OpEntry[] = [
  scfFor,
  scfIf,
  scfWhile,
  executeRegion,
  impl(tt.CallOp, (c, it) => call(it, c.callee, c.operands)),
  impl(func.CallOp, (c, it) => call(it, c.callee, c.operands)),
  cfAssert,
];
