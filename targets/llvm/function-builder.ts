/**
 * Writes the LLVM IR text of one kernel: value names, types, constants, intrinsic calls, inline
 * asm, and blocks that a translation may split (a guarded load becomes a branch around the load).
 * The translations of `instructions.ts` and `memory.ts` call it; `module.ts` assembles the kernels.
 */
import { FloatAttr, IntegerAttr, floatBits } from '../../ir/attributes.js';
import { DiagnosticError } from '../../ir/diagnostics.js';
import type { Block, Operation, Value } from '../../ir/ir.js';
import { FloatType, IntegerType, type Type } from '../../ir/types.js';
import { opError } from '../../ir/verifier.js';

/** A located error for an op (or a form of an op) that has no LLVM translation. */
export function noTranslation(op: Operation, what: string): DiagnosticError {
  return new DiagnosticError(opError(op, `has no LLVM translation${what ? ` for ${what}` : ''} (docs/llvm.md lists what --to-llvm translates)`));
}

/** The LLVM type of a register type: i1..i64, half, float, double; bf16 travels as i16 (LLVM 14's NVPTX backend has no bfloat arithmetic or conversions). */
export function llvmType(t: Type, op: Operation): string {
  if (t instanceof IntegerType) return `i${t.width}`;
  if (t instanceof FloatType) {
    if (t.kind === 'f16') return 'half';
    if (t.kind === 'bf16') return 'i16';
    if (t.kind === 'f32') return 'float';
    if (t.kind === 'f64') return 'double';
  }
  throw noTranslation(op, `values of type '${t}'`);
}

/** Bit width of an LLVM scalar type of `llvmType`. */
export function bitsOf(llvm: string): number {
  if (llvm === 'half') return 16;
  if (llvm === 'float') return 32;
  if (llvm === 'double') return 64;
  return Number(llvm.slice(1));
}

/** Whether an LLVM scalar type is a float type. */
export const isFloat = (llvm: string): boolean => llvm === 'half' || llvm === 'float' || llvm === 'double';

/** An immediate in LLVM syntax: integers in decimal, floats as exact hexadecimal bit patterns. */
export function constantText(attr: IntegerAttr | FloatAttr, llvm: string): string {
  if (attr instanceof IntegerAttr) {
    if (llvm === 'i1') return (BigInt(attr.value) & 1n) === 1n ? 'true' : 'false';
    return BigInt.asIntN(bitsOf(llvm), BigInt(attr.value)).toString();
  }
  const kind = (attr.type as FloatType).kind;
  if (llvm === 'half') return `0xH${floatBits(attr.value, 'f16').toString(16).toUpperCase().padStart(4, '0')}`;
  if (llvm === 'i16') return BigInt.asIntN(16, floatBits(attr.value, kind)).toString();
  // float and double constants are both written as the double's bits (a float value is exact in double)
  return `0x${floatBits(attr.value, 'f64').toString(16).toUpperCase().padStart(16, '0')}`;
}

/** An inline-asm operand constraint for an LLVM type (`h` 16-bit, `r` 32-bit, `l` 64-bit, `f` float, `d` double). */
export function constraintOf(llvm: string, op: Operation): string {
  switch (llvm) {
    case 'i16':
    case 'half':
      return 'h';
    case 'i32':
      return 'r';
    case 'i64':
      return 'l';
    case 'float':
      return 'f';
    case 'double':
      return 'd';
  }
  throw noTranslation(op, `a '${llvm}' operand of inline asm`);
}

/** An inline-asm call: the PTX template, outputs and inputs as LLVM types and texts. */
export interface AsmCall {
  template: string;
  outputs: string[];
  inputs: { type: string; text: string }[];
  /** Reads or writes memory, or synchronizes: kept in place (`sideeffect`, `~{memory}`). */
  memory?: boolean;
  /** Executed by the whole warp together (`convergent`): never moved into divergent code. */
  convergent?: boolean;
}

/** Edges into a block: the label they leave from and the values of its arguments. */
interface Incoming {
  from: string;
  values: string[];
}

/** The LLVM IR text of one function being built. */
export class FunctionBuilder {
  private readonly names = new Map<Value, string>();
  private next = 0;
  /** The body lines; a block's phis go where its label's placeholder is. */
  readonly lines: string[] = [];
  private readonly phiSlots = new Map<string, { index: number; args: Value[] }>();
  private readonly incoming = new Map<string, Incoming[]>();
  private current = '';
  /** The label of the IR block being translated (split blocks are named after it). */
  private base = '';
  private splits = 0;
  private readonly labels = new Map<Block, string>();

  /**
   * @param declare records a declaration the module needs (an intrinsic), once per name
   * @param op the function's op, for error locations
   */
  constructor(
    readonly declare: (name: string, declaration: string) => void,
    readonly op: Operation,
  ) {}

  /** The LLVM type of `v`. */
  typeOf(v: Value, op: Operation = this.op): string {
    return llvmType(v.type, op);
  }
  /** The label of a block of the function: `bb<index in its region>`. */
  labelOf(b: Block): string {
    if (!this.labels.size) this.op.region(0).blocks.forEach((block, i) => this.labels.set(block, `bb${i}`));
    const label = this.labels.get(b);
    if (!label) throw new Error('a branch to a block of another region');
    return label;
  }
  /** The text of `v` as an operand: its name, or the constant it stands for. */
  value(v: Value): string {
    let name = this.names.get(v);
    if (!name) {
      name = `%v${this.next++}`;
      this.names.set(v, name);
    }
    return name;
  }
  /** `T text` for `v`. */
  typed(v: Value): string {
    return `${this.typeOf(v)} ${this.value(v)}`;
  }
  /** Makes `v` stand for `text` (a constant, or another value that needs no instruction). */
  alias(v: Value, text: string): void {
    this.names.set(v, text);
  }
  /** A new temporary name. */
  temp(): string {
    return `%t${this.next++}`;
  }
  /** Emits `%name = rhs` for the result `v`. */
  define(v: Value, rhs: string): void {
    this.emit(`${this.value(v)} = ${rhs}`);
  }
  /** Emits `%t = rhs` and returns `%t`. */
  compute(rhs: string): string {
    const t = this.temp();
    this.emit(`${t} = ${rhs}`);
    return t;
  }
  /** Emits one instruction line. */
  emit(line: string): void {
    this.lines.push(`  ${line}`);
  }
  /** `text` of type `from` as type `to` (same width): a bitcast where they differ. */
  cast(text: string, from: string, to: string): string {
    return from === to ? text : this.compute(`bitcast ${from} ${text} to ${to}`);
  }
  /** `v` as an operand of LLVM type `to` (bitcast where its own type differs). */
  as(v: Value, to: string): string {
    return this.cast(this.value(v), this.typeOf(v), to);
  }
  /** Calls the intrinsic (or any declared function) `name` returning `ret` on typed arguments. */
  call(ret: string, name: string, args: { type: string; text: string }[]): string | undefined {
    this.declare(name, `declare ${ret} @${name}(${args.map((a) => a.type).join(', ')})`);
    const text = `call ${ret} @${name}(${args.map((a) => `${a.type} ${a.text}`).join(', ')})`;
    if (ret === 'void') {
      this.emit(text);
      return undefined;
    }
    return this.compute(text);
  }
  /** Emits an inline-asm call; returns the text of each output (extracted from a struct when several). */
  asm(c: AsmCall): string[] {
    const constraints = [
      ...c.outputs.map((t) => `=${constraintOf(t, this.op)}`),
      ...c.inputs.map((i) => constraintOf(i.type, this.op)),
      ...(c.memory ? ['~{memory}'] : []),
    ].join(',');
    const ret = c.outputs.length === 0 ? 'void' : c.outputs.length === 1 ? c.outputs[0] : `{ ${c.outputs.join(', ')} }`;
    const flags = c.memory ? 'asm sideeffect' : 'asm';
    const template = c.template.replace(/\\/g, '\\5C').replace(/"/g, '\\22').replace(/\n/g, '\\0A');
    const callText = `call ${ret} ${flags} "${template}", "${constraints}"(${c.inputs.map((i) => `${i.type} ${i.text}`).join(', ')})${c.convergent ? ' #0' : ''}`;
    if (ret === 'void') {
      this.emit(callText);
      return [];
    }
    const result = this.compute(callText);
    if (c.outputs.length === 1) return [result];
    return c.outputs.map((_, i) => this.compute(`extractvalue ${ret} ${result}, ${i}`));
  }

  /** Starts the block `label`, whose arguments `args` become phis filled in by `finish`. */
  startBlock(label: string, args: readonly Value[] = []): void {
    this.lines.push(`${label}:`);
    this.current = label;
    this.base = label;
    if (args.length) {
      this.phiSlots.set(label, { index: this.lines.length, args: [...args] });
      this.lines.push('');
    }
  }
  /** Records an edge from the current block into `label` passing `values` (before its branch is emitted). */
  edge(label: string, values: readonly Value[]): void {
    const list = this.incoming.get(label) ?? [];
    list.push({ from: this.current, values: values.map((v) => this.value(v)) });
    this.incoming.set(label, list);
  }
  /**
   * Runs `body` only where `guard` holds: a branch to a block of its own and back. `body` returns,
   * for each of its op's results, the value computed inside and the one kept where the guard is
   * false; the results are phis of the two (without a guard, the values computed).
   */
  guarded(guard: Value | undefined, body: () => { results: Value[]; inside: string[]; outside: string[] } | void): void {
    if (!guard) {
      const r = body();
      if (r) r.results.forEach((v, i) => this.alias(v, r.inside[i]));
      return;
    }
    const n = this.splits++;
    const [then, join] = [`${this.base}.then${n}`, `${this.base}.join${n}`];
    const before = this.current;
    this.emit(`br i1 ${this.value(guard)}, label %${then}, label %${join}`);
    this.lines.push(`${then}:`);
    this.current = then;
    const r = body();
    const end = this.current;
    this.emit(`br label %${join}`);
    this.lines.push(`${join}:`);
    this.current = join;
    if (r) r.results.forEach((v, i) => this.define(v, `phi ${this.typeOf(v)} [ ${r.inside[i]}, %${end} ], [ ${r.outside[i]}, %${before} ]`));
  }
  /** Fills in the phis of every block argument from the recorded edges; returns the body text. */
  finish(): string {
    for (const [label, slot] of this.phiSlots) {
      const edges = this.incoming.get(label) ?? [];
      // a block no edge reaches has no phis: its arguments are undefined
      const rhs = (a: Value, i: number) =>
        edges.length ? `phi ${this.typeOf(a)} ${edges.map((e) => `[ ${e.values[i]}, %${e.from} ]`).join(', ')}` : `bitcast ${this.typeOf(a)} undef to ${this.typeOf(a)}`;
      this.lines[slot.index] = slot.args
        .map((a, i) => `  ${this.value(a)} = ${rhs(a, i)}`)
        .join('\n');
    }
    return this.lines.join('\n');
  }
}
