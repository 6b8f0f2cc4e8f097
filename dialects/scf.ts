/**
 * The scf dialect: structured control flow (`scf.for` with iter_args, `scf.if` with results,
 * `scf.while`/`scf.condition`, `scf.yield`), with MLIR 19's custom syntax.
 */
import { AnyType, I1, SignlessIntegerOrIndexLike } from '../ir/constraints.js';
import type { FormatParser, FormatPrinter, OperandRef, RegionArg } from '../ir/format.js';
import { Block, Operation, Region as RegionClass, type Region, type Value } from '../ir/ir.js';
import type { DialectDecl } from '../ir/op-spec.js';
import { FunctionType, IntegerType, IndexType, printResultTypes, type Type } from '../ir/types.js';
import { IndexSwitchOp, ParallelOp, ReduceOp, ReduceReturnOp } from './scf-parallel.js';
export { IndexSwitchOp, ParallelOp, ReduceOp, ReduceReturnOp };
import { forInvariantIterArgs, forZeroTrips, ifConstantCondition, ifToSelect } from './scf-canonicalize.js';
import { defineOp } from '../ir/op-def.js';
import { HasParent, LoopLike, NoRegionArguments, Pure, RecursiveMemoryEffects, ReturnLike, SingleBlock, Terminator } from '../ir/traits.js';

/** Appends `scf.yield` to blocks of `region` that lack a terminator (MLIR's implicit terminator). */
function ensureYield(region: Region): void {
  if (region.empty) region.addBlock(new Block());
  for (const b of region.blocks) {
    if (b.last?.hasTrait(Terminator)) continue;
    b.append(YieldOp.create({ results: [] }).op);
  }
}

/** `(%a = %x, %b = %y)`: region arguments with their initial values. */
function parseInitList(p: FormatParser): { args: OperandRef[]; inits: OperandRef[] } {
  const args: OperandRef[] = [];
  const inits: OperandRef[] = [];
  p.parseCommaList('(', ')', () => {
    args.push(p.parseOperandRef());
    p.parsePunct('=');
    inits.push(p.parseOperandRef());
  });
  return { args, inits };
}

function printInitList(p: FormatPrinter, args: readonly Value[], inits: readonly Value[], prefix: string): void {
  if (!inits.length) return;
  p.write(prefix + '(');
  inits.forEach((v, k) => {
    if (k) p.write(', ');
    p.printOperand(args[k]);
    p.write(' = ');
    p.printOperand(v);
  });
  p.write(')');
}

function parseForOp(p: FormatParser): void {
  const iv = p.parseOperandRef();
  p.parsePunct('=');
  const lb = p.parseOperandRef();
  p.parseKeyword('to');
  const ub = p.parseOperandRef();
  p.parseKeyword('step');
  const step = p.parseOperandRef();
  let iter = { args: [] as OperandRef[], inits: [] as OperandRef[] };
  let resultTypes: Type[] = [];
  const iterPos = p.pos();
  if (p.parseOptionalKeyword('iter_args')) {
    iter = parseInitList(p);
    p.parsePunct('->');
    resultTypes = p.parseFunctionResultTypes();
    if (resultTypes.length !== iter.inits.length)
      p.error(`expected as many result types as iter_args (${iter.inits.length}), got ${resultTypes.length}`, iterPos);
  }
  let ivType: Type = IndexType.get();
  if (p.parseOptionalPunct(':')) ivType = p.parseType();
  const bounds = p.resolveOperands([lb, ub, step], [ivType, ivType, ivType], p.state.pos);
  const inits = p.resolveOperands(iter.inits, resultTypes, iterPos);
  const entry: RegionArg[] = [{ ref: iv, type: ivType }, ...iter.args.map((ref, k) => ({ ref, type: resultTypes[k] }))];
  const body = p.parseRegion(entry, p.state.spec);
  ensureYield(body);
  p.state.operands.push(...bounds, ...inits);
  p.state.resultTypes.push(...resultTypes);
  p.state.regions.push(body);
  p.parseOptionalAttrDict();
}

function printForOp(p: FormatPrinter, op: Operation): void {
  const body = op.regions[0].blocks[0];
  const iv = body.args[0];
  p.write(' ');
  p.printOperand(iv);
  p.write(' = ');
  p.printOperand(op.operand(0));
  p.write(' to ');
  p.printOperand(op.operand(1));
  p.write(' step ');
  p.printOperand(op.operand(2));
  const inits = op.operandValues().slice(3);
  printInitList(p, body.args.slice(1), inits, ' iter_args');
  if (inits.length) {
    p.write(' -> (');
    inits.forEach((v, k) => {
      if (k) p.write(', ');
      p.printType(v.type);
    });
    p.write(')');
  }
  p.write(' ');
  if (!(iv.type instanceof IndexType)) {
    p.write(' : ');
    p.printType(iv.type);
    p.write(' ');
  }
  p.printRegion(op.regions[0], { printEntryBlockArgs: false, printBlockTerminators: inits.length > 0 });
  p.printOptionalAttrDict(p.attrsToPrint(op, new Set()));
}

function verifyForOp(op: Operation): string | void {
  const body = op.regions[0];
  if (body.blocks.length !== 1) return 'expected body to have a single block';
  const args = body.blocks[0].args;
  const iv = op.operand(0).type;
  if (op.operand(1).type !== iv || op.operand(2).type !== iv) return 'expected lower bound, upper bound and step to have the same type';
  if (!args.length || args[0].type !== iv) return 'expected induction variable to be same type as bounds and step';
  const inits = op.operandValues().slice(3);
  if (inits.length !== op.numResults) return 'mismatch in number of loop-carried values and defined values';
  if (args.length !== inits.length + 1) return 'mismatch in number of basic block args and defined values';
  for (let k = 0; k < inits.length; k++) {
    if (inits[k].type !== op.result(k).type) return `init value #${k} type '${inits[k].type}' does not match result type '${op.result(k).type}'`;
    if (args[k + 1].type !== op.result(k).type) return `types mismatch between iter operand and defined value #${k}`;
  }
}

function parseIfOp(p: FormatParser): void {
  const cond = p.parseOperandRef();
  let resultTypes: Type[] = [];
  if (p.parseOptionalPunct('->')) resultTypes = p.parseFunctionResultTypes();
  p.state.operands.push(p.resolveOperand(cond, IntegerType.get(1)));
  const thenRegion = p.parseRegion([], p.state.spec);
  ensureYield(thenRegion);
  let elseRegion: Region;
  if (p.parseOptionalKeyword('else')) {
    elseRegion = p.parseRegion([], p.state.spec);
    ensureYield(elseRegion);
  } else elseRegion = new RegionClass(null);
  p.state.regions.push(thenRegion, elseRegion);
  p.state.resultTypes.push(...resultTypes);
  p.parseOptionalAttrDict();
}

function printIfOp(p: FormatPrinter, op: Operation): void {
  p.write(' ');
  p.printOperand(op.operand(0));
  if (op.numResults) {
    p.write(' -> (');
    op.results.forEach((r, k) => {
      if (k) p.write(', ');
      p.printType(r.type);
    });
    p.write(')');
  }
  const terminators = op.numResults > 0;
  p.write(' ');
  p.printRegion(op.regions[0], { printEntryBlockArgs: false, printBlockTerminators: terminators });
  if (!op.regions[1].empty) {
    p.write(' else ');
    p.printRegion(op.regions[1], { printEntryBlockArgs: false, printBlockTerminators: terminators });
  }
  p.printOptionalAttrDict(p.attrsToPrint(op, new Set()));
}

function verifyIfOp(op: Operation): string | void {
  if (op.numResults && op.regions[1].empty) return 'must have an else block if defining values';
  for (const r of op.regions) {
    const y = r.blocks[0]?.last;
    if (!y || y.name !== 'scf.yield') continue;
    // MLIR's region-branch messages start with a space after "op" (hence the double space).
    if (y.numOperands !== op.numResults) return ` region control flow edge from Region #${op.regions.indexOf(r)} to parent results: source has ${y.numOperands} operands, but target successor needs ${op.numResults}`;
    for (let k = 0; k < y.numOperands; k++)
      if (y.operand(k).type !== op.result(k).type) return ` along control flow edge from Region #${op.regions.indexOf(r)} to parent results: source type #${k} '${y.operand(k).type}' should match input type #${k} '${op.result(k).type}'`;
  }
}

function parseWhileOp(p: FormatParser): void {
  let init = { args: [] as OperandRef[], inits: [] as OperandRef[] };
  if (p.peekToken()?.kind === 'LParen') init = parseInitList(p);
  const pos = p.pos();
  p.parsePunct(':');
  const ft = p.parseType();
  if (!(ft instanceof FunctionType)) p.error('expected function type', pos);
  if (ft.inputs.length !== init.inits.length) p.error(`expected as many input types as operands (expected ${init.inits.length} got ${ft.inputs.length})`, pos);
  p.state.operands.push(...p.resolveOperands(init.inits, [...ft.inputs], pos));
  p.state.resultTypes.push(...ft.results);
  const before = p.parseRegion(init.args.map((ref, k) => ({ ref, type: ft.inputs[k] })), p.state.spec);
  p.parseKeyword('do');
  // No implicit terminator here (MLIR's scf.while has none): the verifier asks for the scf.yield.
  const after = p.parseRegion([], p.state.spec);
  p.state.regions.push(before, after);
  p.parseOptionalAttrDictWithKeyword();
}

function printWhileOp(p: FormatPrinter, op: Operation): void {
  const before = op.regions[0].blocks[0];
  printInitList(p, before?.args ?? [], op.operandValues(), ' ');
  p.write(' : ');
  p.printType(FunctionType.get(op.operandTypes(), op.resultTypes()));
  p.write(' ');
  p.printRegion(op.regions[0], { printEntryBlockArgs: false });
  p.write(' do ');
  p.printRegion(op.regions[1], { printEntryBlockArgs: true });
  p.printOptionalAttrDict(p.attrsToPrint(op, new Set()), undefined, true);
}

function verifyWhileOp(op: Operation): string | void {
  const before = op.regions[0].blocks[0];
  if (!before) return 'expects a non-empty before region';
  if (before.args.length !== op.numOperands) return 'expects the before region to take as many arguments as the op has operands';
  const cond = before.last;
  if (!cond || cond.name !== 'scf.condition') return "expects the 'before' region to terminate with 'scf.condition'";
  for (let k = 0; k < before.args.length; k++)
    if (before.args[k].type !== op.operand(k).type) return `along control flow edge from parent operands to Region #0: source type #${k} '${op.operand(k).type}' should match input type #${k} '${before.args[k].type}'`;
  const forwarded = cond.numOperands - 1;
  if (forwarded !== op.numResults) return ` region control flow edge from Region #0 to parent results: source has ${forwarded} operands, but target successor needs ${op.numResults}`;
  for (let k = 0; k < forwarded; k++)
    if (cond.operand(k + 1).type !== op.results[k].type) return `along control flow edge from Region #0 to parent results: source type #${k} '${cond.operand(k + 1).type}' should match input type #${k} '${op.results[k].type}'`;
  const after = op.regions[1].blocks[0];
  if (!after) return;
  if (after.args.length !== op.numResults) return "expects the 'after' region to take as many arguments as the op has results";
  for (let k = 0; k < forwarded; k++)
    if (after.args[k].type !== cond.operand(k + 1).type) return `along control flow edge from Region #0 to Region #1: source type #${k} '${cond.operand(k + 1).type}' should match input type #${k} '${after.args[k].type}'`;
  const y = after.last;
  if (!y || y.name !== 'scf.yield') return "expects the 'after' region to terminate with 'scf.yield'";
  if (y.numOperands !== before.args.length) return ` region control flow edge from Region #1 to Region #0: source has ${y.numOperands} operands, but target successor needs ${before.args.length}`;
  for (let k = 0; k < y.numOperands; k++)
    if (y.operand(k).type !== before.args[k].type) return `along control flow edge from Region #1 to Region #0: source type #${k} '${y.operand(k).type}' should match input type #${k} '${before.args[k].type}'`;
}

/** The loop-carried values yielded by scf.for's body match its iter_args (checked on the loop, as MLIR does). */
function verifyForYield(op: Operation): string | void {
  const y = op.regions[0].blocks[0]?.last;
  if (!y || y.name !== 'scf.yield') return;
  const want = op.numResults;
  if (y.numOperands !== want) return ` region control flow edge from Region #0 to Region #0: source has ${y.numOperands} operands, but target successor needs ${want}`;
  const args = op.regions[0].blocks[0].args;
  for (let k = 0; k < want; k++)
    if (y.operand(k).type !== args[k + 1].type) return `${k}-th region iter_arg and ${k}-th yielded value have different type: '${args[k + 1].type}' != '${y.operand(k).type}'`;
}

/** `scf.execute_region [-> types] {...} [attr-dict]`. */
function parseExecuteRegion(p: FormatParser): void {
  if (p.parseOptionalPunct('->')) p.state.resultTypes.push(...p.parseFunctionResultTypes());
  p.state.regions.push(p.parseRegion([], p.state.spec));
  p.parseOptionalAttrDict();
}

function printExecuteRegion(p: FormatPrinter, op: Operation): void {
  if (op.numResults) {
    p.write(' -> ');
    printResultTypes(p, op.resultTypes());
  }
  p.write(' ');
  p.printRegion(op.regions[0], { printEntryBlockArgs: false, printBlockTerminators: true });
  p.printOptionalAttrDict(p.attrsToPrint(op, new Set()));
}

/** `scf.for`: a counted loop with loop-carried values. */
export const ForOp = defineOp({
  name: 'scf.for',
  summary: 'a counted loop with loop-carried values',
  operands: [
    { name: 'lowerBound', type: SignlessIntegerOrIndexLike },
    { name: 'upperBound', type: SignlessIntegerOrIndexLike },
    { name: 'step', type: SignlessIntegerOrIndexLike },
    { name: 'initArgs', kind: 'variadic', type: AnyType },
  ],
  results: [{ name: 'results', kind: 'variadic', type: AnyType }],
  regions: [{ name: 'region', blocks: 1 }],
  traits: [SingleBlock, LoopLike, RecursiveMemoryEffects],
  syntax: { parse: parseForOp, print: printForOp },
  verify: verifyForOp,
  verifyRegions: verifyForYield,
  canonicalize: [forZeroTrips, forInvariantIterArgs],
});
/** `scf.if`: if-then-else, optionally yielding values. */
export const IfOp = defineOp({
  name: 'scf.if',
  summary: 'if-then-else, optionally yielding values',
  operands: [{ name: 'condition', type: I1 }],
  results: [{ name: 'results', kind: 'variadic', type: AnyType }],
  regions: [{ name: 'thenRegion', blocks: 1 }, { name: 'elseRegion' }],
  traits: [SingleBlock, RecursiveMemoryEffects, NoRegionArguments],
  syntax: { parse: parseIfOp, print: printIfOp },
  verify: verifyIfOp,
  canonicalize: [ifConstantCondition, ifToSelect],
});
/** `scf.while`: a generic while loop with a before (condition) and an after (body) region. */
export const WhileOp = defineOp({
  name: 'scf.while',
  summary: 'a generic while loop with a before (condition) and an after (body) region',
  operands: [{ name: 'inits', kind: 'variadic', type: AnyType }],
  results: [{ name: 'results', kind: 'variadic', type: AnyType }],
  regions: [{ name: 'before', blocks: 1 }, { name: 'after', blocks: 1 }],
  traits: [LoopLike, RecursiveMemoryEffects],
  syntax: { parse: parseWhileOp, print: printWhileOp },
  verify: verifyWhileOp,
});
/** `scf.condition`: ends scf.while's before region: continue with args while condition holds. */
export const ConditionOp = defineOp({
  name: 'scf.condition',
  summary: "ends scf.while's before region: continue with args while condition holds",
  operands: [{ name: 'condition', type: I1 }, { name: 'args', kind: 'variadic', type: AnyType }],
  traits: [Pure, Terminator, ReturnLike, HasParent('scf.while')],
  format: '`(` $condition `)` attr-dict ($args^ `:` type($args))?',
});
/** `scf.yield`: yields values from an scf region. */
export const YieldOp = defineOp({
  name: 'scf.yield',
  summary: 'yields values from an scf region',
  operands: [{ name: 'results', kind: 'variadic', type: AnyType }],
  traits: [Pure, Terminator, ReturnLike, HasParent('scf.execute_region', 'scf.for', 'scf.if', 'scf.index_switch', 'scf.while')],
  format: 'attr-dict ($results^ `:` type($results))?',
});
/** `scf.execute_region`: runs a region once, yielding its values. */
export const ExecuteRegionOp = defineOp({
  name: 'scf.execute_region',
  summary: 'runs a region once, yielding its values',
  results: [{ name: 'result', kind: 'variadic', type: AnyType }],
  regions: [{ name: 'region' }],
  traits: [RecursiveMemoryEffects, NoRegionArguments],
  syntax: { parse: parseExecuteRegion, print: printExecuteRegion },
});

/** The scf dialect table. */
export const scfDialect: DialectDecl = {
  name: 'scf',
  summary: 'structured control flow: loops and conditionals as ops with regions (upstream MLIR)',
  ops: [
    ForOp,
    IfOp,
    WhileOp,
    ConditionOp,
    YieldOp,
    ExecuteRegionOp,
    ParallelOp,
    ReduceOp,
    ReduceReturnOp,
    IndexSwitchOp,
  ],
};
