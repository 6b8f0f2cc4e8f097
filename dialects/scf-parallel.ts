/**
 * `scf.parallel` with its `scf.reduce` / `scf.reduce.return` terminators, and `scf.index_switch`,
 * with MLIR 19's custom forms and verifiers (same messages).
 */
import { DenseArrayAttr, IntegerAttr } from '../ir/attributes.js';
import { AnyType, Index } from '../ir/constraints.js';
import type { FormatParser, FormatPrinter, OperandRef } from '../ir/format.js';
import { Block, type Operation, type Region, type Value } from '../ir/ir.js';
import { defineOp } from '../ir/op-def.js';
import { HasParent, Pure, RecursiveMemoryEffects, ReturnLike, SingleBlock, Terminator } from '../ir/traits.js';
import { IndexType, i, printResultTypes, type Type } from '../ir/types.js';
import { YieldOp } from './scf.js';

/** `(%a, %b)`: a parenthesized operand list; `count` (when given) is how many it must hold. */
function parseOperandTuple(p: FormatParser, count?: number): OperandRef[] {
  const pos = p.pos();
  const refs = p.parseCommaList('(', ')', () => p.parseOperandRef());
  if (count !== undefined && refs.length !== count) p.error(`expected ${count} operands`, pos);
  return refs;
}

function printOperandTuple(p: FormatPrinter, values: readonly Value[]): void {
  p.write('(');
  p.printOperands(values);
  p.write(')');
}

/** The sizes of scf.parallel's operand groups: lower bounds, upper bounds, steps, inits. */
function parallelSegments(op: Operation): [number, number, number, number] {
  const sizes = op.getAttr('operandSegmentSizes');
  if (sizes instanceof DenseArrayAttr && sizes.values.length === 4) return sizes.values as unknown as [number, number, number, number];
  const n = op.regions[0]?.blocks[0]?.args.length ?? 0;
  return [n, n, n, op.numOperands - 3 * n];
}

function parseParallel(p: FormatParser): void {
  const ivPos = p.pos();
  const ivs = p.parseCommaList('(', ')', () => p.parseOperandRef());
  if (!ivs.length) p.error('expected at least one induction variable', ivPos);
  p.parsePunct('=');
  const lbs = parseOperandTuple(p, ivs.length);
  p.parseKeyword('to');
  const ubs = parseOperandTuple(p, ivs.length);
  p.parseKeyword('step');
  const steps = parseOperandTuple(p, ivs.length);
  const initPos = p.pos();
  const inits = p.parseOptionalKeyword('init') ? parseOperandTuple(p) : [];
  const resultTypes = p.parseOptionalPunct('->') ? p.parseFunctionResultTypes() : [];
  const index = IndexType.get();
  const bounds = ivs.map(() => index);
  p.state.operands.push(...p.resolveOperands([...lbs, ...ubs, ...steps], [...bounds, ...bounds, ...bounds], p.state.pos));
  if (inits.length !== resultTypes.length) p.error(`expected ${inits.length} result types for ${inits.length} init values, got ${resultTypes.length}`, initPos);
  p.state.operands.push(...p.resolveOperands(inits, resultTypes, initPos));
  p.state.resultTypes.push(...resultTypes);
  const body = p.parseRegion(ivs.map((ref) => ({ ref, type: index })), p.state.spec);
  if (body.empty) body.addBlock(new Block());
  for (const b of body.blocks) if (!b.last?.hasTrait(Terminator)) b.append(ReduceOp.create({ operands: [] }).op);
  p.state.regions.push(body);
  p.setProperty('operandSegmentSizes', DenseArrayAttr.get(i(32), [ivs.length, ivs.length, ivs.length, inits.length]));
  p.parseOptionalAttrDict();
}

function printParallel(p: FormatPrinter, op: Operation): void {
  const [n, , , numInits] = parallelSegments(op);
  const all = op.operandValues();
  p.write(' (');
  p.printOperands(op.regions[0].blocks[0]?.args ?? []);
  p.write(') = ');
  printOperandTuple(p, all.slice(0, n));
  p.write(' to ');
  printOperandTuple(p, all.slice(n, 2 * n));
  p.write(' step ');
  printOperandTuple(p, all.slice(2 * n, 3 * n));
  if (numInits) {
    p.write(' init ');
    printOperandTuple(p, all.slice(3 * n));
  }
  if (op.numResults) {
    p.write(' -> ');
    printResultTypes(p, op.resultTypes());
  }
  p.write(' ');
  p.printRegion(op.regions[0], { printEntryBlockArgs: false, printBlockTerminators: true });
  p.printOptionalAttrDict(p.attrsToPrint(op, new Set(['operandSegmentSizes'])));
}

function verifyParallel(op: Operation): string | void {
  const [n, , , numInits] = parallelSegments(op);
  if (n === 0) return 'needs at least one tuple element for lowerBound, upperBound and step';
  for (const step of op.operandValues().slice(2 * n, 3 * n)) {
    const def = step.definingOp;
    const value = def?.name === 'arith.constant' ? def.getAttr('value') : undefined;
    if (value instanceof IntegerAttr && value.value <= 0n) return 'constant step operand must be positive';
  }
  const body = op.regions[0].blocks[0];
  if (!body) return;
  if (body.args.length !== n) return `expects the same number of induction variables: ${body.args.length} as bound and step values: ${n}`;
  if (body.args.some((a) => !(a.type instanceof IndexType))) return 'expects arguments for the induction variable to be of index type';
  const reduce = body.last;
  if (!reduce || reduce.name !== 'scf.reduce') return "expects body to terminate with 'scf.reduce'";
  if (op.numResults !== reduce.regions.length) return `expects number of results: ${op.numResults} to be the same as number of reductions: ${reduce.regions.length}`;
  if (op.numResults !== numInits) return `expects number of results: ${op.numResults} to be the same as number of initial values: ${numInits}`;
}

/** `scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x) -> f32 { ... scf.reduce(...) }`. */
export const ParallelOp = defineOp({
  name: 'scf.parallel',
  summary: 'parallel for operation',
  operands: [
    { name: 'lowerBound', kind: 'variadic', type: Index },
    { name: 'upperBound', kind: 'variadic', type: Index },
    { name: 'step', kind: 'variadic', type: Index },
    { name: 'initVals', kind: 'variadic', type: AnyType },
  ],
  results: [{ name: 'results', kind: 'variadic', type: AnyType }],
  regions: [{ name: 'region', blocks: 1 }],
  traits: [SingleBlock, RecursiveMemoryEffects],
  syntax: { parse: parseParallel, print: printParallel },
  verify: verifyParallel,
});

function parseReduce(p: FormatParser): void {
  if (p.parseOptionalPunct('(')) {
    const refs = p.parseOperandRefList();
    const pos = p.pos();
    p.parsePunct(':');
    const types: Type[] = [];
    do types.push(p.parseType());
    while (p.parseOptionalPunct(','));
    p.parsePunct(')');
    if (types.length !== refs.length) p.error(`${refs.length} operands present, but expected ${types.length}`, pos);
    p.state.operands.push(...p.resolveOperands(refs, types, pos));
  }
  const regions: Region[] = [];
  if (p.isRegionStart()) {
    do regions.push(p.parseRegion([], p.state.spec));
    while (p.parseOptionalPunct(','));
  }
  p.state.regions.push(...regions);
  p.parseOptionalAttrDict();
}

function printReduce(p: FormatPrinter, op: Operation): void {
  if (op.numOperands) {
    p.write('(');
    p.printOperands(op.operandValues());
    p.write(' : ');
    op.operandTypes().forEach((t, k) => {
      if (k) p.write(', ');
      p.printType(t);
    });
    p.write(')');
  }
  // mlir-opt writes the space before the (possibly empty) region list: `scf.reduce ` when there is nothing.
  p.write(' ');
  op.regions.forEach((r, k) => {
    if (k) p.write(', ');
    p.printRegion(r, { printEntryBlockArgs: true, printBlockTerminators: true });
  });
  p.printOptionalAttrDict(p.attrsToPrint(op, new Set()));
}

function verifyReduceRegions(op: Operation): string | void {
  if (op.regions.length !== op.numOperands)
    return `expects number of reduction regions: ${op.regions.length} to be the same as number of reduction operands: ${op.numOperands}`;
  for (let k = 0; k < op.regions.length; k++) {
    const type = op.operand(k).type;
    const block = op.regions[k].blocks[0];
    if (!block || !block.first) return `${k}-th reduction has an empty body`;
    if (block.args.length !== 2 || block.args.some((a) => a.type !== type))
      return `expected two block arguments with type '${type}' in the ${k}-th reduction region`;
    if (block.last?.name !== 'scf.reduce.return') return "reduction bodies must be terminated with an 'scf.reduce.return' op";
  }
}

/** `scf.reduce(%a, %b : f32, i32) {^bb0(%x: f32, %y: f32): ...}, {...}`: ends scf.parallel's body. */
export const ReduceOp = defineOp({
  name: 'scf.reduce',
  summary: 'reduce operation for scf.parallel',
  operands: [{ name: 'operands', kind: 'variadic', type: AnyType }],
  regions: [{ name: 'reductions', variadic: true }],
  traits: [Terminator, RecursiveMemoryEffects, HasParent('scf.parallel')],
  syntax: { parse: parseReduce, print: printReduce },
  verifyRegions: verifyReduceRegions,
});

/** `scf.reduce.return %v : f32`: ends a reduction region with the combined value. */
export const ReduceReturnOp = defineOp({
  name: 'scf.reduce.return',
  summary: 'terminator for reduce operation',
  operands: [{ name: 'result', type: AnyType }],
  traits: [Pure, Terminator, ReturnLike, HasParent('scf.reduce')],
  format: '$result attr-dict `:` type($result)',
  verify(op) {
    const region = op.parent?.parent;
    const reduce = op.parentOp;
    if (!region || !reduce) return;
    const k = reduce.regions.indexOf(region);
    const want = k >= 0 && k < reduce.numOperands ? reduce.operand(k).type : undefined;
    if (want && want !== op.operand(0).type) return `must have type '${want}' (the type of the reduction inputs)`;
  },
});

function parseIndexSwitch(p: FormatParser): void {
  const arg = p.parseOperandRef();
  p.state.operands.push(p.resolveOperand(arg, IndexType.get()));
  p.parseOptionalAttrDict();
  if (p.parseOptionalPunct('->')) p.state.resultTypes.push(...p.parseFunctionResultTypes());
  const cases: number[] = [];
  const caseRegions: Region[] = [];
  while (p.parseOptionalKeyword('case')) {
    const pos = p.pos();
    const value = p.parseInteger();
    if (!Number.isSafeInteger(Number(value))) p.error('case value out of range', pos);
    cases.push(Number(value));
    caseRegions.push(p.parseRegion([], p.state.spec));
  }
  p.parseKeyword('default');
  const defaultRegion = p.parseRegion([], p.state.spec);
  ensureYieldIn(defaultRegion);
  p.state.regions.push(defaultRegion, ...caseRegions);
  p.setProperty('cases', DenseArrayAttr.get(i(64), cases));
}

/** Adds the implicit empty `scf.yield` to a region whose block has no terminator. */
function ensureYieldIn(region: Region): void {
  if (region.empty) region.addBlock(new Block());
  for (const b of region.blocks) if (!b.last?.hasTrait(Terminator)) b.append(YieldOp.create({ results: [] }).op);
}

function printIndexSwitch(p: FormatPrinter, op: Operation): void {
  p.write(' ');
  p.printOperand(op.operand(0));
  p.printOptionalAttrDict(p.attrsToPrint(op, new Set(['cases'])));
  if (op.numResults) {
    p.write(' -> ');
    printResultTypes(p, op.resultTypes());
  }
  // mlir-opt leaves a space before the case list, even at the end of the line.
  p.write(' ');
  const cases = switchCases(op);
  op.regions.slice(1).forEach((r, k) => {
    p.printNewline();
    p.write(`case ${cases[k]} `);
    p.printRegion(r, { printEntryBlockArgs: false, printBlockTerminators: true });
  });
  p.printNewline();
  p.write('default ');
  p.printRegion(op.regions[0], { printEntryBlockArgs: false, printBlockTerminators: op.numResults > 0 });
}

function switchCases(op: Operation): readonly number[] {
  const cases = op.getAttr('cases');
  return cases instanceof DenseArrayAttr ? cases.values : [];
}

function verifyIndexSwitch(op: Operation): string | void {
  const cases = switchCases(op);
  const caseRegions = op.regions.length - 1;
  if (cases.length !== caseRegions) return `has ${caseRegions} case regions but ${cases.length} case values`;
  const seen = new Set<number>();
  for (const v of cases) {
    if (seen.has(v)) return `has duplicate case value: ${v}`;
    seen.add(v);
  }
  const check = (region: Region, name: string): string | void => {
    const y = region.blocks[0]?.last;
    if (!y || y.name !== 'scf.yield') return `expected region to end with scf.yield, but got ${y ? y.name : 'nothing'}`;
    if (y.numOperands !== op.numResults) return `expected each region to return ${op.numResults} values, but ${name} returns ${y.numOperands}`;
    for (let k = 0; k < op.numResults; k++)
      if (y.operand(k).type !== op.result(k).type) return `expected result #${k} of each region to be '${op.result(k).type}'`;
  };
  const d = check(op.regions[0], 'default region');
  if (d) return d;
  for (let k = 1; k < op.regions.length; k++) {
    const c = check(op.regions[k], `case region #${k - 1}`);
    if (c) return c;
  }
}

/** `scf.index_switch %i -> i32 case 2 {...} default {...}`: a switch over an index. */
export const IndexSwitchOp = defineOp({
  name: 'scf.index_switch',
  summary: 'switch-case operation on an index argument',
  operands: [{ name: 'arg', type: Index }],
  results: [{ name: 'results', kind: 'variadic', type: AnyType }],
  attrs: [{ name: 'cases', kind: { description: 'i64 dense array', check: (a) => a instanceof DenseArrayAttr, parse: (p) => p.parseAttribute(), print: (p, a) => p.printAttribute(a) } }],
  regions: [{ name: 'defaultRegion', blocks: 1 }, { name: 'caseRegions', variadic: true }],
  traits: [SingleBlock, RecursiveMemoryEffects],
  syntax: { parse: parseIndexSwitch, print: printIndexSwitch },
  verifyRegions: verifyIndexSwitch,
});
