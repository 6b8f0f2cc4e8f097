/**
 * The state of Triton-C IR generation for one function: the builder and its insertion point, the
 * scopes mapping C variable names to their current SSA values (mutable variables become SSA
 * values updated on assignment), constants hoisted to the function's entry, and the helpers every
 * expression needs: located op creation, implicit conversions, broadcasting.
 */
import { DenseElementsAttr, FloatAttr, IntegerAttr, type Attribute } from '../../ir/attributes.js';
import { Builder } from '../../ir/builder.js';
import type { Block, Operation, Value } from '../../ir/ir.js';
import type { BuildFields, BuildOptions, OpDef, View } from '../../ir/op-def.js';
import type { OpDecl } from '../../ir/op-spec.js';
import * as arith from '../../dialects/arith.js';
import * as tt from '../../dialects/tt/index.js';
import { FloatType, RankedTensorType, type Type } from '../../ir/types.js';
import type { ScalarName } from './ast.js';
import type { DiagContext } from './sema-diag.js';
import {
  checkAssignShape, ctype, elementOf, fmtType, irElement, irType, isFloatScalar, isUnsigned, sameShape, scalarWidth, withShape,
  type CType,
} from './sema.js';

/** A generated value with its Triton-C type; `lit` marks literal constants (weakly typed in arithmetic). */
export interface TV {
  v: Value;
  t: CType;
  lit?: boolean;
}

/** A declared variable: its declared type (fixed) and current value. */
export interface VarSlot {
  name: string;
  t: CType;
  v: Value;
}

/** A function's signature, for `tt.call`. */
export interface FunctionSig {
  name: string;
  params: CType[];
  result: CType | null;
}

/** IR generation state for one function. */
export class Gen {
  /** The file's functions, callable by name. */
  functions = new Map<string, FunctionSig>();
  readonly b = new Builder();
  /** Whether f32 `@` may run as tf32 (`inputPrecision = tf32`); otherwise ieee. */
  allowTf32 = false;
  /**
   * While the right operand of a tile `&&` / `||` is generated: the lanes that evaluate it (a bool
   * tile). Loads, stores and atomics whose pointers it broadcasts to are masked by it.
   */
  activeMask: TV | null = null;
  /** The name of the variable being defined; ops created meanwhile get `loc("name"(...))`, as Triton does. */
  curName: string | null = null;
  private scopes: Map<string, VarSlot>[] = [new Map()];
  private consts = new Map<Attribute, Value>();
  private lastConst: Operation | null = null;

  constructor(readonly diag: DiagContext, readonly entry: Block) {
    this.b.setInsertionPointToEnd(entry);
  }

  // ---- ops --------------------------------------------------------------------------------

  /** Builds op `def` from its named fields at the insertion point, located at AST offset `pos` (named after `curName`). */
  op<D extends OpDecl>(def: OpDef<D>, fields: BuildFields<D>, pos: number, options?: BuildOptions): View<D> {
    return def.build(this.b, fields, { ...options, loc: this.diag.loc(pos, this.curName) });
  }

  /** Builds a one-result op (of type `type`, or the inferred one) and returns its result. */
  val<D extends OpDecl>(def: OpDef<D>, fields: BuildFields<D>, pos: number, type?: Type): Value {
    const results = type ? { [def.spec.results[0].name]: type } : undefined;
    return this.op(def, fields, pos, { results }).op.result(0);
  }

  /** An `arith.constant` of `attr`, hoisted to the top of the function and shared. */
  constant(attr: Attribute, pos: number): Value {
    const hit = this.consts.get(attr);
    if (hit) return hit;
    const cb = new Builder();
    if (this.lastConst) cb.setInsertionPointAfter(this.lastConst);
    else cb.setInsertionPointToStart(this.entry);
    const op = arith.ConstantOp.build(cb, { value: attr }, { loc: this.diag.loc(pos) }).op;
    this.lastConst = op;
    this.consts.set(attr, op.result(0));
    return op.result(0);
  }

  /** A constant of type `t` (scalar or splat tile) with numeric value `x`. */
  constOf(t: CType, x: number | bigint, pos: number): TV {
    const elt = irElement(t);
    const ty = irType(t);
    const value = elt instanceof FloatType ? Number(x) : BigInt(typeof x === 'number' ? Math.trunc(x) : x);
    let attr: Attribute;
    if (ty instanceof RankedTensorType) attr = DenseElementsAttr.get(ty, [value]);
    else if (elt instanceof FloatType) attr = FloatAttr.get(Number(value), elt);
    else attr = IntegerAttr.get(value as bigint, elt);
    return { v: this.constant(attr, pos), t };
  }

  /** The numeric value of a scalar or splat constant, or null. */
  constValue(v: Value): number | bigint | null {
    const c = arith.ConstantOp.match(v.definingOp);
    if (!c) return null;
    const a = c.value;
    if (a instanceof IntegerAttr) return a.value;
    if (a instanceof FloatAttr) return a.value;
    if (a instanceof DenseElementsAttr && a.isSplat) return a.at(0);
    return null;
  }

  // ---- scopes -----------------------------------------------------------------------------

  /** Opens a nested scope. */
  push(): void {
    this.scopes.push(new Map());
  }
  /** Closes the innermost scope. */
  pop(): void {
    this.scopes.pop();
  }
  /** Finds a variable, or null. */
  find(name: string): VarSlot | null {
    for (let k = this.scopes.length - 1; k >= 0; k--) {
      const s = this.scopes[k].get(name);
      if (s) return s;
    }
    return null;
  }
  /** Finds a variable or reports `use of undeclared identifier`. */
  lookup(name: string, pos: number): VarSlot {
    return this.find(name) ?? this.diag.error(`use of undeclared identifier '${name}'`, pos);
  }
  /** Declares a variable in the innermost scope. */
  declare(name: string, t: CType, v: Value, pos: number): VarSlot {
    const top = this.scopes[this.scopes.length - 1];
    if (top.has(name)) this.diag.error(`redefinition of '${name}'`, pos);
    const slot = { name, t, v };
    top.set(name, slot);
    return slot;
  }

  /** Runs `fn` with `curName` set to `name`. */
  named<T>(name: string | null, fn: () => T): T {
    const saved = this.curName;
    this.curName = name;
    try {
      return fn();
    } finally {
      this.curName = saved;
    }
  }

  /** Runs `fn` with the insertion point at the end of `block`, restoring it afterwards. */
  inBlock<T>(block: Block, fn: () => T): T {
    const saved = this.b.insertionPoint;
    this.b.setInsertionPointToEnd(block);
    try {
      return fn();
    } finally {
      if (saved) saved.before ? this.b.setInsertionPoint(saved.before) : this.b.setInsertionPointToEnd(saved.block);
    }
  }

  // ---- conversions ------------------------------------------------------------------------

  /** Converts the elements of an arithmetic value to `s` (C implicit conversion), keeping its shape. */
  convert(x: TV, s: ScalarName, pos: number): TV {
    if (x.t.scalar === s && x.t.ptr === 0) return x;
    if (x.t.ptr) this.diag.error(`cannot convert '${fmtType(x.t)}' to '${s}'`, pos);
    const t = withShape(ctype(s), x.t.shape);
    const c = this.constValue(x.v);
    if (c !== null) {
      // C leaves converting an infinity or NaN to an integer undefined: say so instead of guessing.
      if (typeof c === 'number' && !Number.isFinite(c) && s !== 'bool' && !isFloatScalar(s))
        this.diag.error(`the constant ${Number.isNaN(c) ? 'nan' : c > 0 ? 'inf' : '-inf'} (a floating literal out of range, or a NaN) cannot be converted to '${s}'`, pos);
      return { v: this.constOf(t, convertConst(c, x.t.scalar, s), pos).v, t, lit: x.lit };
    }
    return { v: this.castValue(x.v, x.t.scalar, s, irType(t), pos), t };
  }

  private castValue(v: Value, from: ScalarName, to: ScalarName, ty: Type, pos: number): Value {
    const fromF = isFloatScalar(from);
    const toF = isFloatScalar(to);
    const wf = scalarWidth(from);
    const wt = scalarWidth(to);
    if (to === 'bool') {
      const zero = this.constOf(withShape(ctype(from), shapeOfType(v.type)), 0, pos).v;
      if (fromF) return this.val(arith.CmpFOp, { lhs: v, rhs: zero, predicate: 'une' }, pos, ty);
      return this.val(arith.CmpIOp, { lhs: v, rhs: zero, predicate: 'ne' }, pos, ty);
    }
    if (fromF && toF) {
      if (wf === wt) {
        const f32 = retype(ty, irElement(ctype('float')));
        const mid = this.val(arith.ExtFOp, { in: v }, pos, f32);
        return this.val(arith.TruncFOp, { in: mid }, pos, ty);
      }
      return this.val(wt > wf ? arith.ExtFOp : arith.TruncFOp, { in: v }, pos, ty);
    }
    if (fromF) return this.val(isUnsigned(to) ? arith.FPToUIOp : arith.FPToSIOp, { in: v }, pos, ty);
    if (toF) return this.val(isUnsigned(from) ? arith.UIToFPOp : arith.SIToFPOp, { in: v }, pos, ty);
    if (wf === wt) return v;
    if (wt < wf) return this.val(arith.TruncIOp, { in: v }, pos, ty);
    return this.val(isUnsigned(from) ? arith.ExtUIOp : arith.ExtSIOp, { in: v }, pos, ty);
  }

  /** Broadcasts `x` to `shape` (splat for scalars, expand_dims for missing leading dims, tt.broadcast). */
  broadcast(x: TV, shape: readonly number[], pos: number): TV {
    if (sameShape(x.t.shape, shape)) return x;
    const t = withShape(x.t, shape);
    if (x.t.shape.length === 0) {
      const c = this.constValue(x.v);
      if (c !== null && !x.t.ptr) return { v: this.constOf(t, c, pos).v, t };
      return { v: this.val(tt.SplatOp, { src: x.v }, pos, irType(t)), t };
    }
    let cur = x;
    while (cur.t.shape.length < shape.length) {
      const s = [1, ...cur.t.shape];
      const nt = withShape(x.t, s);
      cur = { v: this.val(tt.ExpandDimsOp, { src: cur.v, axis: 0 }, pos, irType(nt)), t: nt };
    }
    if (sameShape(cur.t.shape, shape)) return cur;
    return { v: this.val(tt.BroadcastOp, { src: cur.v }, pos, irType(t)), t };
  }

  /** Converts `x` for assignment to something of type `to` (element conversion, then broadcasting). */
  assignConvert(x: TV, to: CType, what: string, pos: number): TV {
    if (x.t.ptr || to.ptr) {
      if (x.t.ptr !== to.ptr || x.t.scalar !== to.scalar)
        this.diag.error(`cannot assign a value of type '${fmtType(elementOf(x.t))}' to ${what} of type '${fmtType(elementOf(to))}'`, pos);
    } else if (x.t.scalar === 'void' || to.scalar === 'void') {
      this.diag.error(`cannot assign a value of type '${fmtType(elementOf(x.t))}' to ${what} of type '${fmtType(elementOf(to))}'`, pos);
    }
    checkAssignShape(x.t.shape, to.shape, what, pos, this.diag);
    const c = to.ptr ? x : this.convert(x, to.scalar, pos);
    return this.broadcast(c, to.shape, pos);
  }

  /** Converts a condition or mask to bool (`x != 0`). */
  toBool(x: TV, pos: number): TV {
    if (x.t.ptr) this.diag.error(`expected a boolean condition, got '${fmtType(x.t)}'`, pos);
    return this.convert(x, 'bool', pos);
  }
}

function shapeOfType(t: Type): number[] {
  return t instanceof RankedTensorType ? [...t.shape] : [];
}

function retype(t: Type, elt: Type): Type {
  return t instanceof RankedTensorType ? RankedTensorType.get(t.shape, elt) : elt;
}

function convertConst(c: number | bigint, from: ScalarName, to: ScalarName): number | bigint {
  if (to === 'bool') return Number(c) !== 0 ? 1n : 0n;
  if (isFloatScalar(to)) return Number(c);
  const n = typeof c === 'number' ? BigInt(Math.trunc(c)) : c;
  const w = scalarWidth(to);
  return isUnsigned(to) || isUnsigned(from) ? BigInt.asUintN(w, n) : BigInt.asIntN(w, n);
}
