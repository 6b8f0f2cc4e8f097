/**
 * Building IR: a `Builder` with an insertion point creates ops from their declarations
 * (operands by group name, attributes by name, result types inferred where the op's table
 * says how), and inserts them where the point is.
 */
import type { Attribute, Location } from './attributes.js';
import { DenseArrayAttr } from './attributes.js';
import { Block, Operation, type Region, type Value } from './ir.js';
import { defaultContext } from './context.js';
import type { OpSpec, TypeEnv } from './op-spec.js';
import { SameOperandsAndResultType } from './traits.js';
import { i, type Type } from './types.js';

/** Where new ops go: before `before` in `block`, or at its end when `before` is null. */
export interface InsertionPoint {
  block: Block;
  before: Operation | null;
}

/** What `Builder.create` takes: operand groups by name (a value, a list, or absent for optional groups). */
export interface CreateArgs {
  operands?: Record<string, Value | readonly Value[] | undefined>;
  attrs?: Record<string, Attribute | undefined>;
  /** Result types by group name; omitted groups are inferred from the op's rules and traits. */
  results?: Record<string, Type | readonly Type[]>;
  /** Number of regions to create empty (default: the declared count). */
  regions?: number;
  successors?: Block[];
  loc?: Location;
}

/** Creates ops at an insertion point. */
export class Builder {
  private ip: InsertionPoint | null = null;
  /** The location given to created ops that specify none. */
  loc: Location | undefined;

  constructor(ip?: InsertionPoint) {
    this.ip = ip ?? null;
  }

  /** Inserts before `op`. */
  setInsertionPoint(op: Operation): this {
    if (!op.parent) throw new Error(`internal error: '${op.name}' is not in a block`);
    this.ip = { block: op.parent, before: op };
    return this;
  }
  /** Inserts before `op`, giving what it creates `op`'s location (`tt.DotOp.build(rw.before(dot), ...)`). */
  before(op: Operation): this {
    this.setInsertionPoint(op);
    this.loc = op.loc;
    return this;
  }
  /** Inserts after `op`. */
  setInsertionPointAfter(op: Operation): this {
    if (!op.parent) throw new Error(`internal error: '${op.name}' is not in a block`);
    this.ip = { block: op.parent, before: op.next };
    return this;
  }
  /** Inserts after `op`, giving what it creates `op`'s location. */
  after(op: Operation): this {
    this.setInsertionPointAfter(op);
    this.loc = op.loc;
    return this;
  }
  /** Inserts at the start of `block`. */
  setInsertionPointToStart(block: Block): this {
    this.ip = { block, before: block.first };
    return this;
  }
  /** Inserts at the end of `block`. */
  setInsertionPointToEnd(block: Block): this {
    this.ip = { block, before: null };
    return this;
  }
  get insertionPoint(): InsertionPoint | null {
    return this.ip;
  }
  /** Returns to an insertion point saved from `insertionPoint`. */
  restoreInsertionPoint(ip: InsertionPoint | null): this {
    this.ip = ip ? { ...ip } : null;
    return this;
  }

  /** Inserts an already created op at the insertion point. */
  insert(op: Operation): Operation {
    if (!this.ip) throw new Error(`internal error: no insertion point to insert '${op.name}'`);
    this.ip.block.insertBefore(op, this.ip.before);
    this.notifyInserted(op);
    return op;
  }

  /** Hook for rewriters that track created ops. */
  protected notifyInserted(_op: Operation): void {}

  /** Creates the op `name` from its declaration and inserts it. */
  create(name: string, args: CreateArgs = {}): Operation {
    const spec = defaultContext.lookupOp(name);
    if (!spec) throw new Error(`internal error: creating unregistered op '${name}'`);
    return this.insert(buildOp(spec, args, args.loc ?? this.loc));
  }

  /** Creates `arith.constant` with `value` (whose type is the result type). */
  constant(value: Attribute): Value {
    return this.create('arith.constant', { attrs: { value } }).result(0);
  }

  /** Creates a block at the end of `region` with the given argument types. */
  createBlock(region: Region, argTypes: readonly Type[] = []): Block {
    const b = region.addBlock(new Block(argTypes));
    this.setInsertionPointToEnd(b);
    return b;
  }
}

/** Builds (without inserting) an op from its spec; checks group arity, infers missing result types. */
export function buildOp(spec: OpSpec, args: CreateArgs, loc?: Location): Operation {
  const operands: Value[] = [];
  const operandTypes = new Map<string, Type[]>();
  const sizes: number[] = [];
  for (const d of spec.operands) {
    const given = args.operands?.[d.name];
    const list = given === undefined ? [] : Array.isArray(given) ? [...(given as readonly Value[])] : [given as Value];
    if ((d.kind ?? 'single') === 'single' && list.length !== 1)
      throw new Error(`internal error: '${spec.name}' needs exactly one value for operand '${d.name}', got ${list.length}`);
    if (d.kind === 'optional' && list.length > 1) throw new Error(`internal error: '${spec.name}' optional operand '${d.name}' got ${list.length} values`);
    operands.push(...list);
    operandTypes.set(d.name, list.map((v) => v.type));
    sizes.push(list.length);
  }
  const props: Record<string, Attribute> = {};
  const attrs: Record<string, Attribute> = {};
  for (const [k, v] of Object.entries(args.attrs ?? {})) {
    if (v === undefined) continue;
    if (spec.attrIndex.has(k)) props[k] = v;
    else attrs[k] = v;
  }
  if (spec.needsOperandSegments) props.operandSegmentSizes = DenseArrayAttr.get(i(32), sizes);
  const resultTypes = inferResults(spec, args, operandTypes, props);
  return Operation.create({
    name: spec.name,
    spec,
    operands,
    resultTypes,
    properties: Object.keys(props).length ? props : null,
    attributes: Object.keys(attrs).length ? attrs : null,
    regions: args.regions ?? spec.regionDecls.filter((r) => !r.variadic).length,
    successors: args.successors,
    loc,
  });
}

function inferResults(spec: OpSpec, args: CreateArgs, operandTypes: Map<string, Type[]>, props: Record<string, Attribute>): Type[] {
  const known = new Map<string, Type[]>();
  for (const d of spec.results) {
    const t = args.results?.[d.name];
    if (t !== undefined) known.set(d.name, Array.isArray(t) ? [...(t as readonly Type[])] : [t as Type]);
  }
  const env: TypeEnv = {
    operand: (n) => operandTypes.get(n),
    result: (n) => known.get(n),
    attr: (n) => props[n] ?? spec.attrIndex.get(n)?.default,
    numOperands: (n) => operandTypes.get(n)?.length ?? 0,
  };
  const sameAsOperands = spec.traitSet.has(SameOperandsAndResultType);
  const out: Type[] = [];
  const sizes: number[] = [];
  for (const d of spec.results) {
    let ts = known.get(d.name) ?? spec.decl.inferTypes?.[d.name]?.(env);
    if (!ts && sameAsOperands) {
      const first = [...operandTypes.values()].find((x) => x.length)?.[0];
      if (first) ts = [first];
    }
    if (!ts && d.type?.buildable) ts = [d.type.buildable];
    if (!ts) {
      if (d.kind === 'variadic' || d.kind === 'optional') ts = [];
      else throw new Error(`internal error: cannot infer result '${d.name}' of '${spec.name}'; pass it in 'results'`);
    }
    out.push(...ts);
    sizes.push(ts.length);
  }
  if (spec.needsResultSegments) props.resultSegmentSizes = DenseArrayAttr.get(i(32), sizes);
  return out;
}
