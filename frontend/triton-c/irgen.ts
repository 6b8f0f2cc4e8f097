/**
 * Triton-C IR generation, top level: a `builtin.module` holding one `tt.func` per function of
 * the program (`public` for kernels and for functions no other function calls, `private`
 * otherwise), parameters with `tt.divisibility` (16 for pointers, or `__multipleof(N)`), and
 * `noinline = false`, as Triton's own frontend emits them.
 */
import { ArrayAttr, DictionaryAttr, IntegerAttr, NameLoc, StringAttr, TypeAttr, boolAttr, type NamedAttr } from '../../ir/attributes.js';
import { Builder } from '../../ir/builder.js';
import { Block, Operation } from '../../ir/ir.js';
import * as arith from '../../dialects/arith.js';
import { ModuleOp } from '../../dialects/builtin.js';
import * as tt from '../../dialects/tt/index.js';
import { FunctionType, i } from '../../ir/types.js';
import type { FunctionDef, Param, Program } from './ast.js';
import { genExpr } from './irgen-expr.js';
import { Gen, type FunctionSig } from './irgen-ctx.js';
import { genStmt } from './irgen-stmt.js';
import { lowerJumps } from './lower-jumps.js';
import type { DiagContext } from './sema-diag.js';
import { ctype, fmtType, irType, type CType } from './sema.js';

/** Default `tt.divisibility` of pointer parameters (what Triton assumes of tensor base pointers). */
export const DEFAULT_POINTER_DIVISIBILITY = 16;

function paramType(p: Param, diag: DiagContext): CType {
  const t = ctype(p.type.scalar, p.type.pointers);
  if (t.scalar === 'void' && !t.ptr) diag.error(`parameter '${p.name}' has type 'void'`, p.pos);
  return t;
}

function paramAttrs(p: Param, t: CType, diag: DiagContext): NamedAttr[] {
  let div = t.ptr ? DEFAULT_POINTER_DIVISIBILITY : null;
  for (const a of p.attrs) {
    if (a.name !== 'multipleof' && a.name !== 'aligned') continue;
    if (a.arg === null || a.arg <= 0 || !Number.isInteger(a.arg)) diag.error(`'__${a.name}' needs a positive integer argument`, a.pos);
    div = a.arg;
  }
  return div === null ? [] : [['tt.divisibility', IntegerAttr.get(div, i(32))]];
}

function signature(f: FunctionDef, diag: DiagContext): FunctionSig {
  const r = f.returnType;
  const result = r.scalar === 'void' && !r.pointers ? null : ctype(r.scalar, r.pointers);
  return { name: f.name, params: f.params.map((p) => paramType(p, diag)), result };
}

/** Names of the functions called anywhere in `program`. */
function calledNames(program: Program): Set<string> {
  const out = new Set<string>();
  const visit = (x: unknown): void => {
    if (!x || typeof x !== 'object') return;
    if (Array.isArray(x)) return x.forEach(visit);
    const o = x as Record<string, unknown>;
    if (o.kind === 'call' && typeof o.callee === 'string') out.add(o.callee);
    for (const k in o) if (k !== 'pos') visit(o[k]);
  };
  for (const f of program.functions) visit(f.body);
  return out;
}

/** Options of IR generation. */
export interface FrontendOptions {
  /**
   * Lets f32 `a @ b` run on tensor cores as tf32 (`inputPrecision = tf32`, Triton's default).
   * Off by default: Triton-C's `@` is a full-precision product, so f32 dots are `ieee`.
   */
  allowTf32?: boolean;
}

/** Generates the module for a parsed (preprocessed) Triton-C program. */
export function generateModule(program: Program, diag: DiagContext, options: FrontendOptions = {}): Operation {
  const module = ModuleOp.create({}).op;
  const body = module.region(0).addBlock(new Block());
  const sigs = new Map<string, FunctionSig>();
  for (const f of program.functions) {
    if (sigs.has(f.name)) diag.error(`redefinition of function '${f.name}'`, f.pos);
    sigs.set(f.name, signature(f, diag));
  }
  const called = calledNames(program);
  const b = new Builder();
  b.setInsertionPointToEnd(body);
  for (const f of program.functions) genFunction(b, f, sigs, !f.global && called.has(f.name), diag, options);
  return module;
}

function genFunction(b: Builder, f: FunctionDef, sigs: Map<string, FunctionSig>, isPrivate: boolean, diag: DiagContext, options: FrontendOptions): void {
  const sig = sigs.get(f.name)!;
  const argTypes = sig.params.map(irType);
  const resTypes = sig.result ? [irType(sig.result)] : [];
  const argAttrs = f.params.map((p, k) => paramAttrs(p, sig.params[k], diag));
  const floc = diag.loc(f.pos);
  const fn = tt.FuncOp.build(b, {
    sym_name: StringAttr.get(f.name),
    function_type: TypeAttr.get(FunctionType.get(argTypes, resTypes)),
    sym_visibility: isPrivate ? 'private' : 'public',
    arg_attrs: argAttrs.some((a) => a.length) ? ArrayAttr.get(argAttrs.map((a) => DictionaryAttr.get(a))) : undefined,
  }, { loc: floc, attributes: { noinline: boolAttr(false) } });
  const entry = fn.body.addBlock(new Block(argTypes, f.params.map((p) => NameLoc.get(p.name, floc))));
  const g = new Gen(diag, entry);
  g.functions = sigs;
  g.allowTf32 = options.allowTf32 ?? false;
  f.params.forEach((p, k) => g.declare(p.name, sig.params[k], entry.args[k], p.pos));
  genBody(g, lowerJumps(f, diag), sig);
  // Conversions of literals can leave hoisted constants unused.
  for (let op = entry.first; op && arith.ConstantOp.is(op); ) {
    const next = op.next;
    if (!op.result(0).hasUses) op.erase();
    op = next;
  }
}

function genBody(g: Gen, f: FunctionDef, sig: FunctionSig): void {
  const diag = g.diag;
  const stmts = f.body.stmts;
  const last = stmts[stmts.length - 1];
  for (const s of stmts) if (s !== last || s.kind !== 'return') genStmt(g, s);
  if (last?.kind === 'return') return genReturn(g, f, sig, last);
  if (sig.result) diag.error(`non-void function '${f.name}' must end with a 'return' statement`, f.pos);
  g.op(tt.ReturnOp, { srcs: [] }, f.body.pos);
}

function genReturn(g: Gen, f: FunctionDef, sig: FunctionSig, s: { value: Parameters<typeof genExpr>[1] | null; pos: number }): void {
  if (!sig.result) {
    if (s.value) g.diag.error(`void function '${f.name}' should not return a value`, s.pos);
    g.op(tt.ReturnOp, { srcs: [] }, s.pos);
    return;
  }
  const result = sig.result;
  if (!s.value) return g.diag.error(`non-void function '${f.name}' must return a value of type '${fmtType(result)}'`, s.pos);
  const value = s.value;
  const v = g.assignConvert(genExpr(g, value), result, 'the return value', value.pos);
  g.op(tt.ReturnOp, { srcs: [v.v] }, s.pos);
}
