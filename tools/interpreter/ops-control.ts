/** Control flow: scf.for / scf.if / scf.while / scf.execute_region, tt.call / func.call, cf.assert. */
import { StringAttr, SymbolRefAttr } from '../../ir/attributes.js';
import type { OpImpl } from './interpreter.js';
import { fail } from './errors.js';
import { bigAt } from './elementwise.js';
import { type RtValue, asTensor, eltClass, tensor, wrapInt } from './values.js';
import type { Type } from '../../ir/types.js';

/** A scalar of integer type `t` holding `v`. */
function intValue(v: bigint, t: Type): RtValue {
  const c = eltClass(t);
  if (c.k === 'i64') return tensor([], t, BigInt64Array.of(BigInt.asIntN(64, v)));
  if (c.k === 'int') return tensor([], t, Int32Array.of(wrapInt(Number(BigInt.asIntN(32, v)), c.width)));
  return fail(`loop induction variable of unsupported type '${t}'`);
}

/** scf.for: signed (or, with `unsignedCmp`, unsigned) iteration from lb while iv < ub. */
const scfFor: OpImpl = (op, ins, it) => {
  const t = op.operand(0).type;
  const width = (() => {
    const c = eltClass(t);
    return c.k === 'int' ? c.width : 64;
  })();
  const unsigned = op.getAttr('unsignedCmp') !== undefined;
  const norm = (v: bigint): bigint => (unsigned ? BigInt.asUintN(width, v) : BigInt.asIntN(width, v));
  let iv = norm(bigAt(ins[0], 0));
  const ub = norm(bigAt(ins[1], 0));
  const step = norm(bigAt(ins[2], 0));
  if (step <= 0n) fail(`loop step must be positive, got ${step}`);
  let carried = ins.slice(3);
  const body = op.regions[0];
  while (iv < ub) {
    carried = it.runRegion(body, [intValue(iv, t), ...carried]).values;
    iv += step; // unbounded: a loop whose induction variable would overflow still ends at ub
  }
  return carried;
};

const scfIf: OpImpl = (op, ins, it) => {
  const c = (asTensor(ins[0]).data as Int32Array)[0];
  const region = c ? op.regions[0] : op.regions[1];
  if (!region || region.empty) return [];
  return it.runRegion(region, []).values;
};

/** scf.while: run `before`; scf.condition decides whether to run `after` (whose yield feeds `before`). */
const scfWhile: OpImpl = (op, ins, it) => {
  let args = ins;
  for (;;) {
    const exit = it.runRegion(op.regions[0], args);
    const [cond, ...forwarded] = exit.values;
    if (!(asTensor(cond).data as Int32Array)[0]) return forwarded;
    args = it.runRegion(op.regions[1], forwarded).values;
  }
};

const executeRegion: OpImpl = (op, _ins, it) => it.runRegion(op.regions[0], []).values;

const call: OpImpl = (op, ins, it) => {
  const callee = op.getAttr('callee');
  if (!(callee instanceof SymbolRefAttr)) return fail('missing callee');
  return it.call(it.func(callee.root), ins);
};

const cfAssert: OpImpl = (op, ins) => {
  if (!(asTensor(ins[0]).data as Int32Array)[0]) fail(`assertion failed: ${(op.getAttr('msg') as StringAttr | undefined)?.value ?? ''}`);
  return [];
};

/** The control-flow op table (terminators are handled by the interpreter loop). */
export const controlOps: Record<string, OpImpl> = {
  'scf.for': scfFor,
  'scf.if': scfIf,
  'scf.while': scfWhile,
  'scf.execute_region': executeRegion,
  'tt.call': call,
  'func.call': call,
  'cf.assert': cfAssert,
};
