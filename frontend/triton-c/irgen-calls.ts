/**
 * Triton-C built-in functions: `get_program_id(k)` / `get_num_programs(k)` (tt ops on axis
 * x/y/z), math functions (`exp`, `log`, `sqrt`, ... as math ops on floats), `min` / `max`,
 * `select(c, a, b)`, and calls of the file's own functions (`tt.call`).
 */
import { SymbolRefAttr } from '../../ir/attributes.js';
import { ProgramDim } from '../../dialects/tt/enums.js';
import type { Expr } from './ast.js';
import { genExpr } from './irgen-expr.js';
import type { Gen, TV } from './irgen-ctx.js';
import { minMax } from './irgen-ops.js';
import { genSelect } from './irgen-tile.js';
import { ctype, foldInt, fmtType, irType, isFloatScalar, isIntScalar } from './sema.js';

/** Float math built-ins and their math-dialect ops. */
const MATH: Record<string, string> = {
  exp: 'math.exp', exp2: 'math.exp2', log: 'math.log', log2: 'math.log2', sqrt: 'math.sqrt', rsqrt: 'math.rsqrt',
  sin: 'math.sin', cos: 'math.cos', tanh: 'math.tanh', floor: 'math.floor', ceil: 'math.ceil', erf: 'math.erf', fabs: 'math.absf',
};

function arity(g: Gen, e: Extract<Expr, { kind: 'call' }>, n: number): void {
  if (e.args.length !== n) g.diag.error(`'${e.callee}' expects ${n} argument${n === 1 ? '' : 's'}, got ${e.args.length}`, e.pos);
}

/** Generates a call expression. */
export function genCall(g: Gen, e: Extract<Expr, { kind: 'call' }>): TV {
  const name = e.callee;
  if (name === 'get_program_id' || name === 'get_num_programs') {
    arity(g, e, 1);
    const k = foldInt(e.args[0]);
    if (k === null || k < 0n || k > 2n) g.diag.error(`the axis of '${name}' must be the constant 0, 1 or 2`, e.args[0].pos);
    const op = name === 'get_program_id' ? 'tt.get_program_id' : 'tt.get_num_programs';
    return { v: g.val(op, { attrs: { axis: ProgramDim.byName('xyz'[Number(k)]) } }, e.pos), t: ctype('int32') };
  }
  if (name === 'min' || name === 'max') {
    arity(g, e, 2);
    return minMax(g, name, genExpr(g, e.args[0]), genExpr(g, e.args[1]), e.pos);
  }
  if (name === 'select') {
    arity(g, e, 3);
    return genSelect(g, genExpr(g, e.args[0]), genExpr(g, e.args[1]), genExpr(g, e.args[2]), e.pos);
  }
  if (name === 'abs') {
    arity(g, e, 1);
    const x = numeric(g, genExpr(g, e.args[0]), name, e.pos);
    const op = isFloatScalar(x.t.scalar) ? 'math.absf' : 'math.absi';
    return { v: g.val(op, { operands: { operand: x.v } }, e.pos), t: x.t };
  }
  if (name in MATH) {
    arity(g, e, 1);
    let x = numeric(g, genExpr(g, e.args[0]), name, e.pos);
    if (!isFloatScalar(x.t.scalar)) x = g.convert(x, 'float', e.pos);
    return { v: g.val(MATH[name], { operands: { operand: x.v } }, e.pos), t: x.t };
  }
  const sig = g.functions.get(name);
  if (!sig) return g.diag.error(`call to undeclared function '${name}'`, e.pos);
  arity(g, e, sig.params.length);
  const args = e.args.map((a, k) => g.assignConvert(genExpr(g, a), sig.params[k], `argument ${k + 1} of '${name}'`, a.pos).v);
  const call = g.op('tt.call', {
    operands: { operands: args },
    attrs: { callee: SymbolRefAttr.get(name) },
    results: { results: sig.result ? [irType(sig.result)] : [] },
  }, e.pos);
  if (!sig.result) return { v: null as never, t: ctype('void') };
  return { v: call.result(0), t: sig.result };
}

function numeric(g: Gen, x: TV, name: string, pos: number): TV {
  if (x.t.ptr || !(isFloatScalar(x.t.scalar) || isIntScalar(x.t.scalar)))
    g.diag.error(`invalid argument of type '${fmtType(x.t)}' to '${name}'`, pos);
  return x.t.scalar === 'bool' ? g.convert(x, 'int32', pos) : x;
}
