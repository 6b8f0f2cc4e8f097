/**
 * Triton-C built-in functions: `get_program_id(k)` / `get_num_programs(k)` (tt ops on axis
 * x/y/z), math functions (`exp`, `log`, `sqrt`, ... as math ops on floats, also under their C names
 * `expf`, `sqrtf`, ...), `min` / `max` (and C's `fmax` / `fmin`, `fmaxf` / `fminf` on floats),
 * `select(c, a, b)`, atomics (`atomic_add`, `atomic_xchg`, `atomic_cas`: tt.atomic_rmw / tt.atomic_cas,
 * returning the old value), `__debug_barrier()` (`gpu.barrier`), and calls of the file's own
 * functions (`tt.call`).
 */
import { SymbolRefAttr } from '../../ir/attributes.js';
import * as gpu from '../../dialects/gpu.js';
import * as math from '../../dialects/math.js';
import * as tt from '../../dialects/tt/index.js';
import type { Expr } from './ast.js';
import { genExpr } from './irgen-expr.js';
import type { Gen, TV } from './irgen-ctx.js';
import { minMax } from './irgen-ops.js';
import { genMask, genSelect, withActiveMask } from './irgen-tile.js';
import { ctype, foldInt, fmtType, irType, isFloatScalar, isIntScalar, withShape } from './sema.js';

/** Float math built-ins and their math-dialect ops. */
const MATH: Record<string, typeof math.ExpOp> = {
  exp: math.ExpOp, exp2: math.Exp2Op, log: math.LogOp, log2: math.Log2Op, sqrt: math.SqrtOp, rsqrt: math.RsqrtOp,
  sin: math.SinOp, cos: math.CosOp, tanh: math.TanhOp, floor: math.FloorOp, ceil: math.CeilOp, erf: math.ErfOp, fabs: math.AbsfOp,
};

/**
 * The C math library's names (`sqrtf`, `fmaxf`, ...), as the original Triton-C prelude let kernels
 * call them: aliases of the built-ins above (same ops, same types: a half tile stays half). A
 * function of the file with one of these names is called instead.
 */
export const C_MATH_ALIASES: Record<string, string> = {
  expf: 'exp', exp2f: 'exp2', logf: 'log', log2f: 'log2', sqrtf: 'sqrt', rsqrtf: 'rsqrt', sinf: 'sin', cosf: 'cos',
  tanhf: 'tanh', floorf: 'floor', ceilf: 'ceil', erff: 'erf', fabsf: 'fabs', fmaxf: 'fmax', fminf: 'fmin',
};

/** Built-ins without effects that cannot trap: calls of them may be evaluated or skipped freely. */
export function isPureBuiltin(name: string): boolean {
  return name in MATH || name in C_MATH_ALIASES || ['get_program_id', 'get_num_programs', 'min', 'max', 'fmax', 'fmin', 'select', 'abs'].includes(name);
}

function arity(g: Gen, e: Extract<Expr, { kind: 'call' }>, n: number): void {
  if (e.args.length !== n) g.diag.error(`'${e.callee}' expects ${n} argument${n === 1 ? '' : 's'}, got ${e.args.length}`, e.pos);
}

/** Generates a call expression. */
export function genCall(g: Gen, e: Extract<Expr, { kind: 'call' }>): TV {
  const name = !g.functions.has(e.callee) && e.callee in C_MATH_ALIASES ? C_MATH_ALIASES[e.callee] : e.callee;
  if (name === 'get_program_id' || name === 'get_num_programs') {
    arity(g, e, 1);
    const k = foldInt(e.args[0]);
    if (k === null || k < 0n || k > 2n) g.diag.error(`the axis of '${name}' must be the constant 0, 1 or 2`, e.args[0].pos);
    const axis = (['x', 'y', 'z'] as const)[Number(k)];
    const v = name === 'get_program_id' ? g.val(tt.GetProgramIdOp, { axis }, e.pos) : g.val(tt.GetNumProgramsOp, { axis }, e.pos);
    return { v, t: ctype('int32') };
  }
  if (name === 'min' || name === 'max') {
    arity(g, e, 2);
    return minMax(g, name, genExpr(g, e.args[0]), genExpr(g, e.args[1]), e.pos);
  }
  if ((name === 'fmax' || name === 'fmin') && !g.functions.has(e.callee)) {
    // C's fmax / fmin: on floats (integers convert), NaN-ignoring like arith.maxnumf / minnumf.
    arity(g, e, 2);
    const [a, b] = e.args.map((x) => {
      const v = numeric(g, genExpr(g, x), e.callee, x.pos);
      return isFloatScalar(v.t.scalar) ? v : g.convert(v, 'float', x.pos);
    });
    return minMax(g, name === 'fmax' ? 'max' : 'min', a, b, e.pos);
  }
  if (name === 'select') {
    arity(g, e, 3);
    return genSelect(g, genExpr(g, e.args[0]), genExpr(g, e.args[1]), genExpr(g, e.args[2]), e.pos);
  }
  if (name === 'abs') {
    arity(g, e, 1);
    const x = numeric(g, genExpr(g, e.args[0]), name, e.pos);
    const v = isFloatScalar(x.t.scalar) ? g.val(math.AbsfOp, { operand: x.v }, e.pos) : g.val(math.AbsiOp, { operand: x.v }, e.pos);
    return { v, t: x.t };
  }
  if (name === 'atomic_add' || name === 'atomic_xchg' || name === 'atomic_cas') return genAtomic(g, e);
  if (name === '__debug_barrier') {
    arity(g, e, 0);
    g.op(gpu.BarrierOp, {}, e.pos);
    return { v: null as never, t: ctype('void') };
  }
  if (name in MATH) {
    arity(g, e, 1);
    let x = numeric(g, genExpr(g, e.args[0]), e.callee, e.pos);
    if (!isFloatScalar(x.t.scalar)) x = g.convert(x, 'float', e.pos);
    return { v: g.val(MATH[name], { operand: x.v }, e.pos), t: x.t };
  }
  const sig = g.functions.get(name);
  if (!sig) return g.diag.error(`call to undeclared function '${name}'`, e.pos);
  arity(g, e, sig.params.length);
  const args = e.args.map((a, k) => g.assignConvert(genExpr(g, a), sig.params[k], `argument ${k + 1} of '${name}'`, a.pos).v);
  const call = g.op(tt.CallOp, { operands: args, callee: SymbolRefAttr.get(name) }, e.pos, {
    results: { results: sig.result ? [irType(sig.result)] : [] },
  });
  if (!sig.result) return { v: null as never, t: ctype('void') };
  return { v: call.results[0], t: sig.result };
}

/**
 * `atomic_add(p, v[, mask])` / `atomic_xchg(p, v[, mask])` (tt.atomic_rmw: add, fadd or exch) and
 * `atomic_cas(p, cmp, v)` (tt.atomic_cas), with Triton's defaults: acq_rel semantics, gpu scope.
 */
function genAtomic(g: Gen, e: Extract<Expr, { kind: 'call' }>): TV {
  const name = e.callee;
  const cas = name === 'atomic_cas';
  if (cas) arity(g, e, 3);
  else if (e.args.length !== 2 && e.args.length !== 3)
    g.diag.error(`'${name}' expects 2 or 3 arguments (pointer, value[, mask]), got ${e.args.length}`, e.pos);
  const p = genExpr(g, e.args[0]);
  if (!p.t.ptr) g.diag.error(`the first argument of '${name}' must be a pointer or a tile of pointers, got '${fmtType(p.t)}'`, e.args[0].pos);
  const t = withShape(ctype(p.t.scalar, p.t.ptr - 1), p.t.shape);
  if (t.ptr || !(isFloatScalar(t.scalar) || isIntScalar(t.scalar))) g.diag.error(`'${name}' needs a pointer to numbers, got '${fmtType(p.t)}'`, e.args[0].pos);
  const value = (k: number) => g.assignConvert(genExpr(g, e.args[k]), t, `argument ${k + 1} of '${name}'`, e.args[k].pos).v;
  const sem = 'acq_rel';
  const scope = 'gpu';
  if (cas) return { v: g.val(tt.AtomicCasOp, { ptr: p.v, cmp: value(1), val: value(2), sem, scope }, e.pos, irType(t)), t };
  const kind = name === 'atomic_xchg' ? 'exch' : isFloatScalar(t.scalar) ? 'fadd' : 'add';
  const given = e.args.length === 3 ? genMask(g, genExpr(g, e.args[2]), t.shape, e.args[2].pos) : null;
  const mask = withActiveMask(g, given, t.shape, e.pos)?.v;
  return { v: g.val(tt.AtomicRmwOp, { ptr: p.v, val: value(1), mask, atomic_rmw_op: kind, sem, scope }, e.pos, irType(t)), t };
}

function numeric(g: Gen, x: TV, name: string, pos: number): TV {
  if (x.t.ptr || !(isFloatScalar(x.t.scalar) || isIntScalar(x.t.scalar)))
    g.diag.error(`invalid argument of type '${fmtType(x.t)}' to '${name}'`, pos);
  return x.t.scalar === 'bool' ? g.convert(x, 'int32', pos) : x;
}
