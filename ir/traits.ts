/**
 * Op traits as objects (MLIR's `OpTrait`s): each has a name, a one-line meaning, and where it
 * constrains the op, the check the verifier runs. Passes ask `op.hasTrait(Pure)`; a trait no
 * pass, analysis or verifier reads has no place here.
 */
import type { Operation } from './ir.js';
import { RankedTensorType, ShapedType, Type, encodingOf } from './types.js';

/** A property of an op that passes query and the verifier may check. */
export interface Trait {
  /** The ODS spelling (`Pure`, `HasParent<tt.reduce>`), shown in generated docs. */
  readonly name: string;
  /** What the trait promises, one line (for docs and `--list-ops`). */
  readonly summary: string;
  /** Structural check, run before the op's own `verify`: a message (reported as `'op' op message`) or nothing. */
  readonly verify?: (op: Operation) => string | undefined;
}

/** Declares a trait. */
export function defineTrait(name: string, summary: string, verify?: (op: Operation) => string | undefined): Trait {
  return Object.freeze({ name, summary, verify });
}

// ---- effects and folding ------------------------------------------------------------------

/** No side effects and always safe to execute: dead ones are erased, equal ones merged, invariant ones hoisted. */
export const Pure = defineTrait('Pure', 'no memory effects and always speculatable: removable when unused, CSE-able, hoistable');
/** The op's effects are those of the ops in its regions (scf.for, scf.if). */
export const RecursiveMemoryEffects = defineTrait('RecursiveMemoryEffects', 'has the memory effects of the ops nested in its regions');
/** The op materializes a constant from its attributes; folding never replaces it. */
export const ConstantLike = defineTrait('ConstantLike', 'materializes a constant value');
/** Operand order does not matter: CSE sorts operands, canonicalization moves constants to the right. */
export const Commutative = defineTrait('Commutative', 'the result does not depend on the order of the operands');
/** Applies element by element to tensors: it can take any layout its operands have. */
export const Elementwise = defineTrait('Elementwise', 'applies element by element; layouts propagate through it');

// ---- control flow and regions -------------------------------------------------------------

/** Ends a block. */
export const Terminator = defineTrait('Terminator', 'must be the last op of its block', (op) =>
  op.parent && op.parent.last !== op ? 'must be the last operation in the parent block' : undefined);
/** Returns control (and its operands) to the parent op, as `func.return` and `scf.yield` do. */
export const ReturnLike = defineTrait('ReturnLike', 'returns its operands to the enclosing op');
/** Regions see no value defined outside the op. */
export const IsolatedFromAbove = defineTrait('IsolatedFromAbove', 'its regions use no value defined outside the op');
/** Blocks of the regions need no terminator (builtin.module). */
export const NoTerminator = defineTrait('NoTerminator', 'its region blocks need no terminator');
/** Each region has at most one block. */
export const SingleBlock = defineTrait('SingleBlock', 'each region has at most one block');
/** The entry blocks of the regions take no arguments. */
export const NoRegionArguments = defineTrait('NoRegionArguments', 'the entry blocks of its regions take no arguments');
/** Regions are graphs: values may be used before their definition. */
export const GraphRegion = defineTrait('GraphRegion', 'its regions have no dominance order');
/** A loop: its body runs repeatedly (scf.for, scf.while). */
export const LoopLike = defineTrait('LoopLike', 'a loop: its body region runs repeatedly');
/** A function: the anchor of function passes, with a signature in `function_type`. */
export const FunctionLike = defineTrait('FunctionLike', 'a function with a body and a signature (`function_type`)');

// ---- symbols ------------------------------------------------------------------------------

/** Defines a symbol named by its `sym_name` attribute (MLIR's `Symbol`; renamed so it does not shadow JavaScript's). */
export const SymbolDef = defineTrait('Symbol', 'defines the symbol named by its `sym_name`');
/** Its region is a symbol table (builtin.module). */
export const SymbolTable = defineTrait('SymbolTable', 'its region holds a table of symbols');

// ---- types --------------------------------------------------------------------------------

/** Every operand and result has one type. */
export const SameOperandsAndResultType = defineTrait('SameOperandsAndResultType', 'all operands and results have one type', (op) => {
  const t = op.numOperands ? op.operands[0].value.type : op.numResults ? op.results[0].type : null;
  for (const o of op.operands) if (o.value.type !== t) return 'requires the same type for all operands and results';
  for (const r of op.results) if (r.type !== t) return 'requires the same type for all operands and results';
  return undefined;
});
/** Every operand has one type. */
export const SameTypeOperands = defineTrait('SameTypeOperands', 'all operands have one type', (op) => {
  const ops = op.operands;
  for (let k = 1; k < ops.length; k++) if (ops[k].value.type !== ops[0].value.type) return 'requires all operands to have the same type';
  return undefined;
});
/** Every operand and result has one element type (a tensor's, or the scalar type itself). */
export const SameOperandsAndResultElementType = defineTrait(
  'SameOperandsAndResultElementType', 'all operands and results have one element type', (op) => {
    const first = op.numOperands ? op.operands[0].value.type : op.numResults ? op.results[0].type : null;
    if (!first) return undefined;
    const want = elementOf(first);
    for (const o of op.operands) if (elementOf(o.value.type) !== want) return 'requires the same element type for all operands and results';
    for (const r of op.results) if (elementOf(r.type) !== want) return 'requires the same element type for all operands and results';
    return undefined;
  });
/** Every operand and result has one shape. */
export const SameOperandsAndResultShape = defineTrait('SameOperandsAndResultShape', 'all operands and results have one shape', (op) =>
  sameShapes(op, true) ? undefined : 'requires the same shape for all operands and results');
/** Every operand has one shape. */
export const SameOperandsShape = defineTrait('SameOperandsShape', 'all operands have one shape', (op) =>
  sameShapes(op, false) ? undefined : 'requires the same shape for all operands');
/** Every tensor operand and result has one layout encoding. */
export const SameOperandsAndResultEncoding = defineTrait('SameOperandsAndResultEncoding', 'all tensor operands and results have one encoding', (op) =>
  sameEncodings(op, true) ? undefined : 'requires the same encoding for all operands and results');
/** Every tensor operand has one layout encoding. */
export const SameOperandsEncoding = defineTrait('SameOperandsEncoding', 'all tensor operands have one encoding', (op) =>
  sameEncodings(op, false) ? undefined : 'requires the same encoding for all operands');

/** Whether a trait is a `HasParent` trait, with its allowed parents. */
export interface HasParentTrait extends Trait {
  readonly parents: readonly string[];
}

/** The op may only appear directly inside one of `parents` (`tt.reduce.return` in `tt.reduce`). */
export function HasParent(...parents: string[]): HasParentTrait {
  const list = parents.join(', ');
  return Object.freeze({
    name: `HasParent<${list}>`,
    summary: `must be nested directly in ${parents.map((p) => `'${p}'`).join(' or ')}`,
    parents: Object.freeze([...parents]),
    verify: (op: Operation) => {
      const parent = op.parentOp;
      if (parent && parents.includes(parent.name)) return undefined;
      return `expects parent op ${parents.length > 1 ? 'to be one of ' : ''}'${list}'`;
    },
  });
}

function sameShape(a: Type, b: Type): boolean {
  const sa = a instanceof ShapedType ? a.shape : NO_SHAPE;
  const sb = b instanceof ShapedType ? b.shape : NO_SHAPE;
  if (sa.length !== sb.length) return false;
  for (let k = 0; k < sa.length; k++) if (sa[k] !== sb[k]) return false;
  return true;
}
const NO_SHAPE: readonly number[] = [];

function sameShapes(op: Operation, withResults: boolean): boolean {
  const first = op.numOperands ? op.operands[0].value.type : op.numResults ? op.results[0].type : null;
  if (!first) return true;
  for (const o of op.operands) if (!sameShape(o.value.type, first)) return false;
  if (withResults) for (const r of op.results) if (!sameShape(r.type, first)) return false;
  return true;
}

function sameEncodings(op: Operation, withResults: boolean): boolean {
  let enc: unknown = undefined;
  const check = (t: Type): boolean => {
    if (!(t instanceof RankedTensorType)) return true;
    if (enc === undefined) enc = encodingOf(t);
    return encodingOf(t) === enc;
  };
  for (const o of op.operands) if (!check(o.value.type)) return false;
  if (withResults) for (const r of op.results) if (!check(r.type)) return false;
  return true;
}

/** The element type of a shaped type (tensors, vectors, memory descriptors), or the type itself. */
function elementOf(t: Type): Type {
  const e = (t as { elementType?: unknown }).elementType;
  return e instanceof Type ? e : t;
}
