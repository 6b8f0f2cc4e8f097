/**
 * The func dialect (`func.func`, `func.return`, `func.call`), for interop with upstream MLIR.
 */
import { FunctionType } from '../ir/types.js';
import { AnyType, FlatSymbolRefAttr, typeIs } from '../ir/constraints.js';
import { SymbolRefAttr } from '../ir/attributes.js';
import { FUNCTION_ATTRS, functionSyntax, functionTypeOf } from '../ir/function-syntax.js';
import type { Operation } from '../ir/ir.js';
import type { DialectDecl, VerifyResult } from '../ir/op-spec.js';
import { lookupSymbol } from '../ir/symbols.js';
import { defineOp } from '../ir/op-def.js';
import { FunctionLike, HasParent, IsolatedFromAbove, Pure, ReturnLike, SymbolDef, Terminator } from '../ir/traits.js';

/** Checks that `op`'s operands match the enclosing function's results (shared by return ops). */
export function verifyReturnLike(op: Operation, funcName: string): VerifyResult {
  const fn = op.parentOfType(funcName);
  if (!fn) return;
  const results = functionTypeOf(fn).results;
  if (results.length !== op.numOperands)
    return `has ${op.numOperands} operands, but enclosing function (@${fn.getAttr('sym_name')?.toString().slice(1, -1)}) returns ${results.length}`;
  for (let k = 0; k < results.length; k++) {
    if (results[k] !== op.operand(k).type)
      return { bare: `type of return operand ${k} ('${op.operand(k).type}') doesn't match function result type ('${results[k]}') in function @${fn.getAttr('sym_name')?.toString().slice(1, -1)}` };
  }
}

/** Checks that a call's callee exists with a matching type (shared by call ops). */
export function verifyCallLike(op: Operation, funcNames: string[]): string | void {
  const callee = op.getAttr('callee');
  if (!(callee instanceof SymbolRefAttr)) return;
  const fn = lookupSymbol(op, callee.root);
  if (!fn || !funcNames.includes(fn.name)) return `'${callee.root}' does not reference a valid function`;
  const ft: FunctionType = functionTypeOf(fn);
  if (ft.inputs.length !== op.numOperands) return 'incorrect number of operands for callee';
  for (let k = 0; k < ft.inputs.length; k++)
    if (ft.inputs[k] !== op.operand(k).type) return `operand type mismatch: expected operand type '${ft.inputs[k]}', but provided '${op.operand(k).type}' for operand number ${k}`;
  if (ft.results.length !== op.numResults) return 'incorrect number of results for callee';
  for (let k = 0; k < ft.results.length; k++)
    if (ft.results[k] !== op.result(k).type) return `result type mismatch at index ${k}`;
}

/** Checks the entry block arguments of a function-like op against its type. */
export function verifyFunctionLike(op: Operation): string | void {
  const ft = functionTypeOf(op);
  const body = op.regions[0];
  if (!body || body.empty) return;
  const args = body.blocks[0].args;
  if (args.length !== ft.inputs.length) return `entry block must have ${ft.inputs.length} arguments to match function signature`;
  for (let k = 0; k < args.length; k++)
    if (args[k].type !== ft.inputs[k]) return `type of entry block argument #${k}('${args[k].type}') must match the type of the corresponding argument in function signature('${ft.inputs[k]}')`;
}

/** `func.func`: a function with a body (or a declaration). */
export const FuncOp = defineOp({
  name: 'func.func',
  summary: 'a function with a body (or a declaration)',
  attrs: FUNCTION_ATTRS,
  regions: [{ name: 'body' }],
  traits: [IsolatedFromAbove, SymbolDef, FunctionLike],
  defaultDialect: 'func',
  syntax: functionSyntax,
  verify: verifyFunctionLike,
});
/** `func.return`: returns from a func.func. */
export const ReturnOp = defineOp({
  name: 'func.return',
  summary: 'returns from a func.func',
  operands: [{ name: 'operands', kind: 'variadic', type: AnyType }],
  traits: [Pure, Terminator, ReturnLike, HasParent('func.func')],
  format: 'attr-dict ($operands^ `:` type($operands))?',
  verify: (op) => verifyReturnLike(op, 'func.func'),
});
/** `func.call`: calls a function by symbol. */
export const CallOp = defineOp({
  name: 'func.call',
  summary: 'calls a function by symbol',
  operands: [{ name: 'operands', kind: 'variadic', type: AnyType }],
  results: [{ name: 'results', kind: 'variadic', type: AnyType }],
  attrs: [{ name: 'callee', kind: FlatSymbolRefAttr }],
  format: '$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)',
  verify: (op) => verifyCallLike(op, ['func.func']),
});

const FunctionTyped = typeIs('function type', (t) => t instanceof FunctionType);

function calleeType(t: unknown): FunctionType | undefined {
  return t instanceof FunctionType ? t : undefined;
}

/** `func.call_indirect`: calls a function value: `%r = func.call_indirect %f(%a) : (i32) -> i32`. */
export const CallIndirectOp = defineOp({
  name: 'func.call_indirect',
  summary: 'indirect call operation',
  operands: [{ name: 'callee', type: FunctionTyped }, { name: 'callee_operands', kind: 'variadic', type: AnyType }],
  results: [{ name: 'results', kind: 'variadic', type: AnyType }],
  format: '$callee `(` $callee_operands `)` attr-dict `:` type($callee)',
  inferTypes: {
    // A callee that is not of function type gives no types here; the verifier reports its type.
    callee_operands: (env) => calleeType(env.operand('callee')?.[0])?.inputs.slice(),
    results: (env) => calleeType(env.operand('callee')?.[0])?.results.slice(),
  },
  verify(op) {
    // MLIR's `TypesMatchWith` constraints between the callee's type and the operands and results.
    const ft = op.operand(0).type as FunctionType;
    const args = op.operandTypes().slice(1);
    if (ft.inputs.length !== args.length || ft.inputs.some((t, k) => t !== args[k])) return 'failed to verify that callee input types match argument types';
    const results = op.resultTypes();
    if (ft.results.length !== results.length || ft.results.some((t, k) => t !== results[k])) return 'failed to verify that callee result types match result types';
  },
});

/** `func.constant`: a function as a value: `%f = func.constant @g : (i32) -> i32`. */
export const ConstantOp = defineOp({
  name: 'func.constant',
  summary: 'constant',
  results: [{ name: 'result', type: AnyType }],
  attrs: [{ name: 'value', kind: FlatSymbolRefAttr }],
  traits: [Pure],
  format: '$value attr-dict `:` type($result)',
  resultNames: () => ['f'],
  verify(op) {
    const ref = op.getAttr('value') as SymbolRefAttr;
    const fn = lookupSymbol(op, ref.root);
    if (!fn || fn.name !== 'func.func') return `reference to undefined function '${ref.root}'`;
    if (functionTypeOf(fn) !== op.result(0).type) return 'reference to function with mismatched type';
  },
});

/** The func dialect table. */
export const funcDialect: DialectDecl = {
  name: 'func',
  summary: 'functions, calls and returns (upstream MLIR)',
  ops: [
    FuncOp,
    ReturnOp,
    CallOp,
    CallIndirectOp,
    ConstantOp,
  ],
};
