/** Interpreter errors: every runtime failure names the op, its location and the program id. */
import type { Operation } from '../../ir/ir.js';
import { locText } from '../../ir/verifier.js';

/** A runtime error raised while interpreting an op. */
export class InterpreterError extends Error {
  constructor(message: string, readonly opName: string | null, readonly programId: readonly number[] | null) {
    super(message);
    this.name = 'InterpreterError';
  }
}

/** Where an op is: its source location (`kernels.py:13:16`) and/or its position in the IR text. */
export function describeOpLocation(op: Operation): string {
  const parts: string[] = [];
  const l = locText(op.loc);
  if (l) parts.push(l);
  const p = op.srcPos;
  if (p) {
    const { line, col } = p.source.position(p.offset);
    const irPos = `${p.source.name}:${line}:${col}`;
    if (irPos !== l) parts.push(`IR ${irPos}`);
  }
  return parts.length ? ` at ${parts.join(', ')}` : '';
}

/** Builds the error for `message` raised by `op` in program `pid`. */
export function opFailure(op: Operation, pid: readonly number[] | null, message: string): InterpreterError {
  const prog = pid ? ` in program (${pid.join(', ')})` : '';
  return new InterpreterError(`interpreter: '${op.name}'${describeOpLocation(op)}${prog}: ${message}`, op.name, pid);
}

/** An error an op implementation throws; the interpreter adds the op, location and program id. */
export class OpError extends Error {}

/** Throws an `OpError` (for use in expressions). */
export function fail(message: string): never {
  throw new OpError(message);
}
