/**
 * The upstream MLIR `cf` (control flow) dialect, MLIR 19 syntax: `cf.br`, `cf.cond_br`,
 * `cf.switch` and `cf.assert`. Successor operands are ordinary operands split into groups;
 * each branch checks them against its target blocks' arguments.
 */
import { DenseArrayAttr, DenseElementsAttr } from '../ir/attributes.js';
import { AnyType, DenseI32ArrayAttr, I1, StrAttr, attrIs, typeIs } from '../ir/constraints.js';
import type { FormatParser, FormatPrinter, OperandRef } from '../ir/format.js';
import type { Block, Operation, Value } from '../ir/ir.js';
import type { CustomDirective, DialectDecl } from '../ir/op-spec.js';
import { Diagnostic, DiagnosticError } from '../ir/diagnostics.js';
import { locText } from '../ir/verifier.js';
import { IntegerType, VectorType, i, type Type } from '../ir/types.js';
import { defineOp } from '../ir/op-def.js';
import { Pure, Terminator } from '../ir/traits.js';

/**
 * Checks each successor's operands against the target block's arguments, with the messages of
 * MLIR's BranchOpInterface verifier. `groups[k]` are the operands passed to successor k.
 * MLIR reports these without the `'op' op` prefix, so they are thrown here rather than returned.
 */
export function verifySuccessorOperands(op: Operation, groups: Value[][]): void {
  for (let k = 0; k < op.successors.length; k++) {
    const dest = op.successors[k];
    const operands = groups[k] ?? [];
    if (operands.length !== dest.args.length)
      branchError(op, `branch has ${operands.length} operands for successor #${k}, but target block has ${dest.args.length}`);
    for (let j = 0; j < operands.length; j++)
      if (operands[j].type !== dest.args[j].type) branchError(op, `type mismatch for bb argument #${j} of successor #${k}`);
  }
}

function branchError(op: Operation, message: string): never {
  throw new DiagnosticError(new Diagnostic('error', message, op.srcPos, op.srcPos ? null : locText(op.loc)));
}

const AnyInteger = typeIs('integer', (t) => t instanceof IntegerType);
const IntElementsAttr = attrIs('integer elements attribute', (a) => a instanceof DenseElementsAttr && a.type.elementType instanceof IntegerType);

/** The operands of each of a switch's successors: default first, then each case. */
function switchGroups(op: Operation): Value[][] {
  const spec = op.spec!;
  const groups = [spec.operandGroup(op, 'defaultOperands')];
  const caseOperands = spec.operandGroup(op, 'caseOperands');
  const segs = op.getAttr('case_operand_segments');
  let start = 0;
  for (const n of segs instanceof DenseArrayAttr ? segs.values : []) {
    groups.push(caseOperands.slice(start, start + n));
    start += n;
  }
  return groups;
}

/** The case values of a switch as bigints (empty when there is no `case_values`). */
function caseValues(op: Operation): bigint[] {
  const a = op.getAttr('case_values');
  if (!(a instanceof DenseElementsAttr)) return [];
  const n = a.type.shape.reduce((x, y) => x * y, 1);
  const out: bigint[] = [];
  for (let k = 0; k < n; k++) out.push(BigInt(a.at(k)));
  return out;
}

function verifySwitch(op: Operation): string | void {
  const spec = op.spec!;
  const dests = spec.successorGroup(op, 'caseDestinations');
  const segs = op.getAttr('case_operand_segments');
  if (segs instanceof DenseArrayAttr) {
    const total = segs.values.reduce((x, y) => x + y, 0);
    const found = spec.operandGroup(op, 'caseOperands').length;
    if (total !== found) return `expected ${total} operands for 'caseOperands' (the sum of 'case_operand_segments'), but found ${found}`;
    if (segs.values.length !== dests.length)
      return `number of case operand segments (${segs.values.length}) should match number of case destinations (${dests.length})`;
  }
  // Interface checks (successor operands) run before the op's own verifier in MLIR.
  verifySuccessorOperands(op, switchGroups(op));
  const values = op.getAttr('case_values');
  if (!(values instanceof DenseElementsAttr)) {
    if (dests.length) return `number of case values (0) should match number of case destinations (${dests.length})`;
    return;
  }
  const flagType = op.operand(0).type;
  const valueType = values.type.elementType;
  if (valueType !== flagType) return `'flag' type ('${flagType}') should match case value type ('${valueType}')`;
  const n = caseValues(op).length;
  if (n !== dests.length) return `number of case values (${n}) should match number of case destinations (${dests.length})`;
}

/** Writes a newline at the op's indentation (what MLIR's `printNewline` does). */
function newline(p: FormatPrinter): void {
  // FormatPrinter has no printNewline; the Printer keeps the current op indentation in `indent`.
  const indent = (p as unknown as { indent?: unknown }).indent;
  p.write('\n' + (typeof indent === 'string' ? indent : ''));
}

/** `^bb1` or `^bb1(%a, %b : i32, f32)`. */
function printSuccessorAndOperands(p: FormatPrinter, dest: Block, operands: Value[]): void {
  p.printSuccessor(dest);
  if (!operands.length) return;
  p.write('(');
  p.printOperands(operands);
  p.write(' : ');
  operands.forEach((v, k) => {
    if (k) p.write(', ');
    p.printType(v.type);
  });
  p.write(')');
}

/** Parses `^bb1` with an optional `(%a, %b : i32, f32)` operand list. */
function parseSuccessorAndOperands(p: FormatParser): { dest: Block; refs: OperandRef[]; types: Type[] } {
  const dest = p.parseSuccessor();
  if (!p.parseOptionalPunct('(')) return { dest, refs: [], types: [] };
  const refs = p.parseOperandRefList();
  p.parsePunct(':');
  const types: Type[] = [];
  do types.push(p.parseType());
  while (p.parseOptionalPunct(','));
  p.parsePunct(')');
  if (types.length !== refs.length) p.error(`expected ${refs.length} types, got ${types.length}`);
  return { dest, refs, types };
}

/**
 * `custom<SwitchOpCases>`: the body of `[ default: ^bb(...), 42: ^bb(...) ]`, one entry per line.
 * Upstream passes `ref(type($flag))`; here the flag type is read from what the format parsed.
 */
const switchOpCases: CustomDirective = {
  parse(p) {
    const s = p.fmt!;
    const flagType = s.operandTypes.get('flag')?.[0];
    if (!(flagType instanceof IntegerType)) return p.error('invalid kind of type specified');
    p.parseKeyword('default');
    p.parsePunct(':');
    const def = parseSuccessorAndOperands(p);
    const values: bigint[] = [];
    const dests: Block[] = [];
    const refs: OperandRef[] = [];
    const types: Type[] = [];
    const segs: number[] = [];
    while (p.parseOptionalPunct(',')) {
      const v = p.parseOptionalInteger();
      if (v === undefined) return p.error('expected integer value');
      p.parsePunct(':');
      const c = parseSuccessorAndOperands(p);
      values.push(BigInt.asIntN(flagType.width, v));
      dests.push(c.dest);
      refs.push(...c.refs);
      types.push(...c.types);
      segs.push(c.refs.length);
    }
    s.successors.set('defaultDestination', [def.dest]);
    s.successors.set('caseDestinations', dests);
    s.refs.set('defaultOperands', def.refs);
    s.operandTypes.set('defaultOperands', def.types);
    s.refs.set('caseOperands', refs);
    s.operandTypes.set('caseOperands', types);
    if (values.length) p.setProperty('case_values', DenseElementsAttr.get(VectorType.get([values.length], flagType), values));
    p.setProperty('case_operand_segments', DenseArrayAttr.get(i(32), segs));
  },
  print(p, op) {
    const spec = op.spec!;
    const groups = switchGroups(op);
    const dests = spec.successorGroup(op, 'caseDestinations');
    const width = op.operand(0).type instanceof IntegerType ? (op.operand(0).type as IntegerType).width : 64;
    newline(p);
    p.write('  default: ');
    printSuccessorAndOperands(p, op.successors[0], groups[0]);
    const values = caseValues(op);
    if (!values.length) return;
    values.forEach((v, k) => {
      p.write(',');
      newline(p);
      // MLIR prints the case values of the custom form unsigned (-1 : i8 reads back as 255).
      p.write(`  ${BigInt.asUintN(width, v)}: `);
      printSuccessorAndOperands(p, dests[k], groups[k + 1] ?? []);
    });
    newline(p);
  },
};

/** `cf.assert`: assert operation with message attribute. */
export const AssertOp = defineOp({
  name: 'cf.assert',
  summary: 'assert operation with message attribute',
  operands: [{ name: 'arg', type: I1 }],
  attrs: [{ name: 'msg', kind: StrAttr }],
  format: '$arg `,` $msg attr-dict',
  // ODS infers `$arg`'s type from its buildable I1 constraint; the format engine needs the rule.
  inferTypes: { arg: () => [i(1)] },
});
/** `cf.br`: branch operation. */
export const BrOp = defineOp({
  name: 'cf.br',
  summary: 'branch operation',
  operands: [{ name: 'destOperands', kind: 'variadic', type: AnyType }],
  successors: [{ name: 'dest' }],
  traits: [Pure, Terminator],
  format: '$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict',
  verify: (op) => verifySuccessorOperands(op, [op.operandValues()]),
});
/** `cf.cond_br`: conditional branch operation. */
export const CondBrOp = defineOp({
  name: 'cf.cond_br',
  summary: 'conditional branch operation',
  operands: [
    { name: 'condition', type: I1 },
    { name: 'trueDestOperands', kind: 'variadic', type: AnyType },
    { name: 'falseDestOperands', kind: 'variadic', type: AnyType },
  ],
  // MLIR 19 has no inherent `branch_weights`: it is a discardable attribute (`{branch_weights = array<i32: 40, 60>}`).
  successors: [{ name: 'trueDest' }, { name: 'falseDest' }],
  inferTypes: { condition: () => [i(1)] },
  traits: [Pure, Terminator],
  format:
    '$condition `,` ' +
    '$trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,` ' +
    '$falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict',
  verify(op) {
    const w = op.getAttr('branch_weights');
    if (w instanceof DenseArrayAttr && w.values.length !== 2)
      return `expects number of branch weights to match number of successors: ${w.values.length} vs 2`;
    const spec = op.spec!;
    return verifySuccessorOperands(op, [spec.operandGroup(op, 'trueDestOperands'), spec.operandGroup(op, 'falseDestOperands')]);
  },
});
/** `cf.switch`: switch operation. */
export const SwitchOp = defineOp({
  name: 'cf.switch',
  summary: 'switch operation',
  operands: [
    { name: 'flag', type: AnyInteger },
    { name: 'defaultOperands', kind: 'variadic', type: AnyType },
    { name: 'caseOperands', kind: 'variadic', type: AnyType },
  ],
  attrs: [
    { name: 'case_values', kind: IntElementsAttr, optional: true },
    { name: 'case_operand_segments', kind: DenseI32ArrayAttr },
  ],
  successors: [{ name: 'defaultDestination' }, { name: 'caseDestinations', variadic: true }],
  traits: [Pure, Terminator],
  format:
    '$flag `:` type($flag) `,` `[` ' +
    'custom<SwitchOpCases>($defaultDestination, $defaultOperands, $case_values, $caseDestinations, $caseOperands, $case_operand_segments) ' +
    '`]` attr-dict',
  directives: { SwitchOpCases: switchOpCases },
  verify: verifySwitch,
});

/** The cf dialect table. */
export const cfDialect: DialectDecl = {
  name: 'cf',
  summary: 'unstructured control flow (upstream MLIR)',
  ops: [
    AssertOp,
    BrOp,
    CondBrOp,
    SwitchOp,
  ],
};
