/**
 * Typed op definitions (ODS's generated op classes and xDSL's `IRDLOperation`, without a code
 * generation step): `defineOp(decl)` turns one declaration into
 *
 * - a typed view with named accessors: `dot.a`, `load.mask`, `forOp.initArgs`, `dot.inputPrecision`;
 * - a narrowing match: `DotOp.match(op)` gives the view or null, `DotOp.is(op)` just the answer;
 * - a typed builder: `DotOp.build(b, { a, b, c, inputPrecision: 'tf32' })`.
 *
 * The names and kinds of fields come from the declaration's literal types, so a misspelt
 * operand is a compile error in the pass that reads it.
 */
import { Attribute, type Location } from './attributes.js';
import type { Builder, CreateArgs } from './builder.js';
import { buildOp } from './builder.js';
import type { Block, OpResult, Operation, Region, Value } from './ir.js';
import { OpSpec, type AttrConstraint, type AttrDecl, type OpDecl, type RegionDecl, type TypeConstraint, type ValueDecl } from './op-spec.js';
import type { Type } from './types.js';

// ---- types of the fields ------------------------------------------------------------------

type GroupOf<E, T> = E extends { kind: 'variadic' } ? T[] : E extends { kind: 'optional' } ? T | undefined : T;
type RegionGroupOf<E, T> = E extends { variadic: true } ? T[] : T;
type ListOf<L> = L extends readonly unknown[] ? L : readonly [];

/** The native value an attribute constraint reads as (`number` for I32Attr), or the attribute class. */
export type AttrValueOf<C> = C extends AttrConstraint<infer _A, infer V> ? V : Attribute;
/** The attribute class a constraint accepts. */
export type AttrClassOf<C> = C extends AttrConstraint<infer A, infer _V> ? A : Attribute;
type AttrField<E> = E extends { kind: infer C }
  ? E extends { optional: true } ? (E extends { default: Attribute } ? AttrValueOf<C> : AttrValueOf<C> | undefined) : AttrValueOf<C>
  : never;

type OperandFields<D> = D extends { operands: infer L } ? { readonly [E in ListOf<L>[number] as E extends ValueDecl ? E['name'] : never]: GroupOf<E, Value> } : unknown;
type ResultFields<D> = D extends { results: infer L } ? { readonly [E in ListOf<L>[number] as E extends ValueDecl ? E['name'] : never]: GroupOf<E, OpResult> } : unknown;
type AttrFields<D> = D extends { attrs: infer L } ? { readonly [E in ListOf<L>[number] as E extends AttrDecl ? E['name'] : never]: AttrField<E> } : unknown;
type RegionFields<D> = D extends { regions: infer L } ? { readonly [E in ListOf<L>[number] as E extends RegionDecl ? E['name'] : never]: RegionGroupOf<E, Region> } : unknown;
type SuccessorFields<D> = D extends { successors: infer L } ? { readonly [E in ListOf<L>[number] as E extends RegionDecl ? E['name'] : never]: RegionGroupOf<E, Block> } : unknown;

/** A typed view of one op: `op` and one read-only field per operand, result, attribute, region and successor group. */
export type View<D extends OpDecl = OpDecl> = OpView & OperandFields<D> & ResultFields<D> & AttrFields<D> & RegionFields<D> & SuccessorFields<D>;

type OperandInputs<D> = D extends { operands: infer L }
  ? { [E in ListOf<L>[number] as E extends { kind: 'optional' } ? never : E extends ValueDecl ? E['name'] : never]: E extends { kind: 'variadic' } ? readonly Value[] : Value }
    & { [E in ListOf<L>[number] as E extends { kind: 'optional' } ? (E extends ValueDecl ? E['name'] : never) : never]?: Value }
  : unknown;
type AttrInput<E> = E extends { kind: infer C } ? AttrClassOf<C> | AttrValueOf<C> : never;
type AttrInputs<D> = D extends { attrs: infer L }
  ? { [E in ListOf<L>[number] as E extends { optional: true } | { default: Attribute } ? never : E extends AttrDecl ? E['name'] : never]: AttrInput<E> }
    & { [E in ListOf<L>[number] as E extends { optional: true } | { default: Attribute } ? (E extends AttrDecl ? E['name'] : never) : never]?: AttrInput<E> }
  : unknown;

/** What `build` takes: operands by group name, attributes by name (as attributes or native values). */
export type BuildFields<D extends OpDecl = OpDecl> = OperandInputs<D> & AttrInputs<D>;

/** Everything else `build` may be given: result types (by result group) where they cannot be inferred, regions, successors, location. */
export interface BuildOptions {
  results?: Record<string, Type | readonly Type[]>;
  /** Number of empty regions to create (default: the declared count). */
  regions?: number;
  successors?: Block[];
  loc?: Location;
  /** Discardable attributes to set as well. */
  attributes?: Record<string, Attribute>;
}

// ---- runtime ------------------------------------------------------------------------------

/** The base of every typed view: the op it looks at. */
export class OpView {
  constructor(readonly op: Operation) {}
}

/** What `defineOp` returns: the declaration, its compiled spec, and the typed match and build. */
export interface OpDef<D extends OpDecl = OpDecl> {
  readonly name: D['name'];
  readonly decl: D;
  /** The compiled declaration the parser, printer and verifier use. */
  readonly spec: OpSpec;
  /** Whether `op` is this op (no allocation). Not a type guard: every op is an `Operation`, so a guard would narrow the other branch to `never`. */
  is(op: Operation | null | undefined): boolean;
  /** The typed view of `op` when it is this op, else null. */
  match(op: Operation | null | undefined): View<D> | null;
  /** The typed view of `op`, which must be this op (an internal error otherwise). */
  view(op: Operation): View<D>;
  /** Creates the op from named fields at the builder's insertion point. */
  build(b: Builder, fields: BuildFields<D>, options?: BuildOptions): View<D>;
  /** Creates the op from named fields without inserting it. */
  create(fields: BuildFields<D>, options?: BuildOptions): View<D>;
}

const RESERVED = new Set(['op', 'constructor']);

/** Makes the typed definition of the op declared by `decl` (see the module comment). */
export function defineOp<const D extends OpDecl>(decl: D): OpDef<D> {
  const spec = new OpSpec(decl, decl.name.slice(0, decl.name.indexOf('.')));
  checkFieldNames(spec);
  // The view class is made on first use: most ops are never viewed in a run, and start-up pays for none.
  let viewClass: (new (op: Operation) => OpView) | null = null;
  const wrap = (op: Operation) => new (viewClass ??= makeViewClass(spec))(op) as View<D>;
  const name = decl.name;
  const create = (fields: BuildFields<D>, options: BuildOptions = {}): View<D> => {
    const op = buildOp(spec, toCreateArgs(spec, fields as Record<string, unknown>, options), options.loc);
    return wrap(op);
  };
  return Object.freeze({
    name,
    decl,
    spec,
    is: (op: Operation | null | undefined): boolean => op?.name === name,
    match: (op: Operation | null | undefined) => (op?.name === name ? wrap(op) : null),
    view: (op: Operation) => {
      if (op.name !== name) throw new Error(`internal error: '${op.name}' viewed as '${name}'`);
      return wrap(op);
    },
    build: (b: Builder, fields: BuildFields<D>, options?: BuildOptions) => {
      const v = create(fields, options);
      b.insert(b.locate(v.op));
      return v;
    },
    create,
  });
}

/** Checks that every operand, result, attribute, region and successor name can be a view field: unique, not reserved. */
function checkFieldNames(spec: OpSpec): void {
  const seen = new Set<string>();
  const groups = [spec.operands, spec.results, spec.decl.attrs ?? [], spec.regionDecls, spec.successorDecls];
  for (const group of groups) {
    for (const { name } of group) {
      if (RESERVED.has(name) || seen.has(name)) throw new Error(`internal error: '${spec.name}' declares the field '${name}' twice (or a reserved name)`);
      seen.add(name);
    }
  }
}

/** A class extending `OpView` with one getter per declared field (names checked by `checkFieldNames`). */
function makeViewClass(spec: OpSpec): new (op: Operation) => OpView {
  class View extends OpView {}
  const proto = View.prototype;
  const define = (name: string, get: (this: OpView) => unknown) => Object.defineProperty(proto, name, { get, enumerable: true, configurable: false });
  spec.operands.forEach((d) => {
    const k = spec.fixedOperandIndex(d.name);
    if (k >= 0) return define(d.name, function () { return this.op.operands[k].value; });
    if (d.kind !== 'variadic') return define(d.name, function () { return spec.operandGroup(this.op, d.name)[0]; });
    define(d.name, function () { return spec.operandGroup(this.op, d.name); });
  });
  spec.results.forEach((d) => {
    const k = spec.fixedResultIndex(d.name);
    if (k >= 0) return define(d.name, function () { return this.op.results[k]; });
    if (d.kind !== 'variadic') return define(d.name, function () { return spec.resultGroup(this.op, d.name)[0]; });
    define(d.name, function () { return spec.resultGroup(this.op, d.name); });
  });
  for (const d of spec.decl.attrs ?? []) {
    const c = d.kind;
    define(d.name, function () {
      const a = this.op.getAttr(d.name);
      if (a === undefined) return c.absent;
      return c.value ? c.value(a) : a;
    });
  }
  spec.regionDecls.forEach((d) => {
    if (d.variadic) return define(d.name, function () { return spec.regionGroup(this.op, d.name); });
    define(d.name, function () { return spec.regionGroup(this.op, d.name)[0]; });
  });
  spec.successorDecls.forEach((d) => {
    if (d.variadic) return define(d.name, function () { return spec.successorGroup(this.op, d.name); });
    define(d.name, function () { return spec.successorGroup(this.op, d.name)[0]; });
  });
  Object.defineProperty(View, 'name', { value: viewClassName(spec.name) });
  return View;
}

/** `tt.dot` -> `DotOp` (the name a view shows in a debugger). */
function viewClassName(opName: string): string {
  const base = opName.slice(opName.indexOf('.') + 1);
  return base.split(/[._]/).map((s) => s.charAt(0).toUpperCase() + s.slice(1)).join('') + 'Op';
}

function toCreateArgs(spec: OpSpec, fields: Record<string, unknown>, options: BuildOptions): CreateArgs {
  const operands: Record<string, Value | readonly Value[] | undefined> = {};
  for (const d of spec.operands) operands[d.name] = fields[d.name] as Value | readonly Value[] | undefined;
  const attrValues: Record<string, Attribute | undefined> = { ...options.attributes };
  for (const [name, { kind: c }] of spec.attrIndex) {
    const v = fields[name];
    if (v === undefined) continue;
    if (v instanceof Attribute) attrValues[name] = v;
    else if (c.fromValue) attrValues[name] = c.fromValue(v);
    else throw new Error(`internal error: '${spec.name}' attribute '${name}' needs an attribute, got ${typeof v}`);
    if (attrValues[name] === undefined) delete attrValues[name];
  }
  for (const k of Object.keys(fields)) {
    if (!spec.attrIndex.has(k) && !spec.operands.some((d) => d.name === k)) throw new Error(`internal error: '${spec.name}' has no operand or attribute '${k}'`);
  }
  return { operands, attrs: attrValues, results: options.results, regions: options.regions, successors: options.successors, loc: options.loc };
}

/**
 * The declaration type of ops made by a factory function (`binaryInt('addi')`): operand, result
 * and attribute names as literal types, so the views of those ops have typed fields too. Their
 * attributes have defaults, so `build` may leave them out.
 */
export type DeclOf<O extends string, R extends string, A extends string = never> = OpDecl & {
  readonly operands: readonly { readonly name: O; readonly kind?: 'single'; readonly type?: TypeConstraint }[];
  readonly results: readonly { readonly name: R; readonly kind?: 'single'; readonly type?: TypeConstraint }[];
  readonly attrs: readonly { readonly name: A; readonly kind: AttrConstraint; readonly optional?: boolean; readonly default: Attribute }[];
};
