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
  private givenLoc: Location | undefined;
  /** The op whose location created ops share (`before`, `after`), when no location was set. */
  private locFrom: Operation | null = null;

  constructor(ip?: InsertionPoint) {
    this.ip = ip ?? null;
  }

  /** Inserts before `op`. */
  setInsertionPoint(op: Operation): this {
    if (!op.parent) throw new Error(`internal error: '${op.name}' is not in a block`);
    this.ip = { block: op.parent, before: op };
    return this;
  }
  /** The location given to created ops that specify none. */
  get loc(): Location | undefined {
    return this.givenLoc ?? this.locFrom?.loc;
  }
  set loc(l: Location | undefined) {
    this.givenLoc = l;
    this.locFrom = null;
  }
  /** Inserts before `op`, giving what it creates `op`'s location (`tt.DotOp.build(rw.before(dot), ...)`). */
  before(op: Operation): this {
    this.setInsertionPoint(op);
    this.givenLoc = undefined;
    this.locFrom = op;
    return this;
  }
  /**
   * @internal Gives `op`, just built here, the builder's location unless it was built with its
   * own: the one set, or the one `before`/`after` took from an op (shared, not made: see
   * `shareLocationOf`).
   */
  locate(op: Operation): Operation {
    if (op.hasExplicitLoc) return op;
    if (this.givenLoc) op.loc = this.givenLoc;
    else if (this.locFrom) op.shareLocationOf(this.locFrom);
    return op;
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
    this.givenLoc = undefined;
    this.locFrom = op;
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
    return this.insert(this.locate(buildOp(spec, args, args.loc)));
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
  // Called for every op a lowering makes: no Map, closure or copy unless an op needs one.
  const operands: Value[] = [];
  const operandSizes: number[] | null = spec.needsOperandSegments ? [] : null;
  const decls = spec.operands;
  for (let k = 0; k < decls.length; k++) {
    const d = decls[k];
    const given = args.operands?.[d.name];
    let n = 0;
    if (Array.isArray(given)) for (const v of given as readonly Value[]) operands.push(v), n++;
    else if (given !== undefined) operands.push(given as Value), (n = 1);
    if ((d.kind ?? 'single') === 'single' && n !== 1) throw new Error(`internal error: '${spec.name}' needs exactly one value for operand '${d.name}', got ${n}`);
    if (d.kind === 'optional' && n > 1) throw new Error(`internal error: '${spec.name}' optional operand '${d.name}' got ${n} values`);
    operandSizes?.push(n);
  }
  let props: Record<string, Attribute> | null = null;
  let attrs: Record<string, Attribute> | null = null;
  const given = args.attrs;
  if (given) {
    for (const k in given) {
      const v = given[k];
      if (v === undefined) continue;
      if (spec.attrIndex.has(k)) (props ??= {})[k] = v;
      else (attrs ??= {})[k] = v;
    }
  }
  if (operandSizes) (props ??= {}).operandSegmentSizes = DenseArrayAttr.get(i(32), operandSizes);
  const { types, resultSizes } = inferResults(spec, args, operands, props);
  if (resultSizes) (props ??= {}).resultSegmentSizes = DenseArrayAttr.get(i(32), resultSizes);
  return Operation.create({
    name: spec.name,
    spec,
    operands,
    resultTypes: types,
    properties: props,
    attributes: attrs,
    regions: args.regions ?? spec.counts.regions,
    successors: args.successors,
    loc,
  });
}

/** The types of each operand group given in `args` (an empty list for a declared group given none). */
function operandTypesOf(spec: OpSpec, args: CreateArgs, name: string): Type[] | undefined {
  if (!spec.operands.some((d) => d.name === name)) return undefined;
  const given = args.operands?.[name];
  return given === undefined ? [] : Array.isArray(given) ? (given as readonly Value[]).map((v) => v.type) : [(given as Value).type];
}

/** The result types (given, inferred by the op's rules, or from its traits), and the group sizes when the op records them. */
function inferResults(
  spec: OpSpec,
  args: CreateArgs,
  operands: readonly Value[],
  props: Record<string, Attribute> | null,
): { types: Type[]; resultSizes: number[] | null } {
  const givenResults = args.results;
  let env: TypeEnv | null = null;
  const makeEnv = (): TypeEnv => ({
    operand: (n) => operandTypesOf(spec, args, n),
    result: (n) => {
      const t = givenResults?.[n];
      return t === undefined ? undefined : Array.isArray(t) ? [...(t as readonly Type[])] : [t as Type];
    },
    attr: (n) => props?.[n] ?? spec.attrIndex.get(n)?.default,
    numOperands: (n) => operandTypesOf(spec, args, n)?.length ?? 0,
  });
  const types: Type[] = [];
  const resultSizes: number[] | null = spec.needsResultSegments ? [] : null;
  for (const d of spec.results) {
    const t = givenResults?.[d.name];
    let ts: readonly Type[] | undefined = t === undefined ? undefined : Array.isArray(t) ? (t as readonly Type[]) : [t as Type];
    if (!ts) {
      const rule = spec.decl.inferTypes?.[d.name];
      if (rule) ts = rule((env ??= makeEnv()));
    }
    if (!ts && operands.length && spec.traitSet.has(SameOperandsAndResultType)) ts = [operands[0].type];
    if (!ts && d.type?.buildable) ts = [d.type.buildable];
    if (!ts) {
      if (d.kind === 'variadic' || d.kind === 'optional') ts = [];
      else throw new Error(`internal error: cannot infer result '${d.name}' of '${spec.name}'; pass it in 'results'`);
    }
    for (const x of ts) types.push(x);
    resultSizes?.push(ts.length);
  }
  return { types, resultSizes };
}
