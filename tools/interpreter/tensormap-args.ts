/**
 * Hidden tensor-map parameters (`tir.tensormap`, see dialects/tt/tensormap-arg.ts) in the
 * interpreter. The caller does not pass them: as the launcher does, the interpreter builds each
 * one from the kernel's other arguments: the buffer (and element offset) of its base pointer
 * argument, its shape arguments (outermost dim first) and its stride arguments in elements, with
 * the innermost stride 1; an unbounded dim covers the rest of the base's buffer, as the launcher's
 * does. Whether the shape and strides fit the buffer is checked where blocks are read and written
 * (ops-memory.ts), as for any descriptor.
 */
import type { Operation } from '../../ir/ir.js';
import { signless, type Type } from '../../ir/types.js';
import type { TensorDescType } from '../../dialects/tt/types.js';
import { UNBOUNDED, tensormapOf, termValue, unboundedExtent, verifyTensormapArgs, type TensormapTerm } from '../../dialects/tt/tensormap-arg.js';
import { InterpreterError } from './errors.js';
import { Buffer } from './memory.js';
import { type DescValue, type RtValue, scalarNumber } from './values.js';
import type { ArgValue } from './interpreter.js';

/** The error for a launch that cannot start (no op or program involved yet). */
function launchError(message: string): InterpreterError {
  return new InterpreterError(`interpreter: ${message}`, null, null);
}

/** The buffer and element offset a pointer argument refers to, or null when it is not a buffer. */
export function bufferView(arg: ArgValue | undefined): { buffer: Buffer; offset: number } | null {
  if (arg instanceof Buffer) return { buffer: arg, offset: 0 };
  if (typeof arg === 'object' && 'buffer' in arg) return arg;
  return null;
}

/**
 * The indices of the hidden tensor-map parameters of `fn` (parameter types `types`), which come
 * after every other parameter; an InterpreterError when their `tir.tensormap` attributes are wrong.
 */
export function hiddenTensormapParams(fn: Operation, types: readonly Type[]): number[] {
  const wrong = verifyTensormapArgs(fn, types);
  if (wrong) throw launchError(`hidden tensor-map parameter: ${wrong}`);
  return types.flatMap((_t, k) => (tensormapOf(fn, k) ? [k] : []));
}

/** The note on a wrong argument count that says the hidden parameters `hidden` are not passed ('' when there are none). */
export function hiddenParamsNote(hidden: readonly number[]): string {
  if (hidden.length === 0) return '';
  const which = hidden.map((k) => `#${k}`).join(', ');
  return hidden.length === 1
    ? ` (its hidden tensor-map parameter ${which} is built from them, not passed)`
    : ` (its hidden tensor-map parameters ${which} are built from them, not passed)`;
}

/** How `arg` is described in an error: its kind, or the buffer's name and element type. */
function describeArg(arg: ArgValue | undefined): string {
  if (arg === undefined) return 'nothing';
  const view = bufferView(arg);
  return view ? `buffer '${view.buffer.name}' of '${view.buffer.elt}'` : `${typeof arg} ${String(arg)}`;
}

/**
 * The tensor map hidden parameter `k` of `fn` stands for, built from the caller's arguments
 * `args` (for the base buffer) and the runtime values `values` of the ordinary parameters (for
 * the shape and strides, as the kernel sees them). `types` are the parameter types.
 */
export function buildHiddenTensormap(fn: Operation, k: number, types: readonly Type[], args: readonly ArgValue[], values: readonly RtValue[]): DescValue {
  const map = tensormapOf(fn, k);
  if (!map) throw launchError(`internal error: parameter #${k} is not a hidden tensor map`);
  const elt = (types[k] as TensorDescType).blockType.elementType;
  const what = `hidden tensor map #${k}`;
  const view = bufferView(args[map.base]);
  if (!view) throw launchError(`${what} is built over argument #${map.base}, which must be a buffer, got ${describeArg(args[map.base])}`);
  if (signless(view.buffer.elt) !== signless(elt)) {
    throw launchError(`${what} of '${elt}' elements is built over argument #${map.base}, ${describeArg(args[map.base])}`);
  }
  const integer = (t: TensormapTerm, role: string): number => {
    const v = termValue(t, (j) => scalarNumber(values[j]));
    const from = typeof t === 'number' ? `argument #${t}` : `${t.times} x arguments ${t.params.map((j) => `#${j}`).join(' x ')}`;
    if (!Number.isInteger(v) || v < 0) throw launchError(`${what}: its ${role} (${from}) is ${v}; shapes and strides must be non-negative integers`);
    return v;
  };
  for (const j of map.positive) {
    const v = scalarNumber(values[j]);
    if (!(v > 0)) throw launchError(`${what}: the kernel copies by TMA only where argument #${j} > 0, got ${v}`);
  }
  const strides = [...map.strides.map((j, d) => integer(j, `dim ${d} stride`)), 1];
  // an unbounded dim stands for unmasked loads: it covers what remains of the base's buffer
  const rest = view.buffer.length - view.offset;
  const shape = map.shape.map((j, d) => (j === UNBOUNDED ? unboundedExtent(rest, strides[d]) : integer(j, `dim ${d} size`)));
  return { kind: 'desc', buf: view.buffer.id, base: view.offset, elt, shape, strides };
}
