/**
 * What one fuzz input did, and how the fuzzer names it: the five outcome classes, the
 * classifier that turns a thrown value or a diagnostic into one, and the signature that
 * deduplicates failures (the first line of the message with its numbers stripped).
 */
import { Diagnostic, DiagnosticError } from '../../ir/diagnostics.js';

/**
 * The outcome classes. `success` and `located` are what bad input may produce; `internal`,
 * `hang` and `unlocated` are findings (bugs the project's rules forbid).
 */
export type OutcomeClass = 'success' | 'located' | 'unlocated' | 'internal' | 'hang';

/** Every class, in report order. */
export const OUTCOME_CLASSES: readonly OutcomeClass[] = ['success', 'located', 'internal', 'hang', 'unlocated'];

/** The classes that are bugs: a fuzz campaign saves (and CI fails on) these. */
export const FINDING_CLASSES: ReadonlySet<OutcomeClass> = new Set<OutcomeClass>(['internal', 'hang', 'unlocated']);

/** The result of running one input through a target. */
export interface Outcome {
  class: OutcomeClass;
  /** The diagnostic as the tools print it, or the exception's message (empty on success). */
  message: string;
}

/** A diagnostic's first line names a place in the input: `file:line:col: error: ...`. */
const LOCATED_LINE = /^.*:\d+:\d+: error: /;

/** Texts that mark a compiler bug even inside a diagnostic (the pass manager turns exceptions into these). */
const BUG_TEXT = /internal error|produced invalid IR/;

/** A `file:line:col: ` prefix (at the start, or after a `prefix: ` the fuzz targets add), which signatures leave out. */
const LOCATION_PREFIX = /(^|: )\S+:\d+:\d+: /;

/** The outcome of a run that ended with the error diagnostic `d`. */
export function classifyDiagnostic(d: Diagnostic): Outcome {
  const message = d.format();
  const first = message.split('\n')[0];
  if (BUG_TEXT.test(first)) return { class: 'internal', message };
  return { class: LOCATED_LINE.test(first) ? 'located' : 'unlocated', message };
}

/**
 * The outcome of a run that threw `e`: a `DiagnosticError` is classified by its diagnostic;
 * anything else (a TypeError, a stack overflow, a plain Error) is an internal error.
 */
export function classifyError(e: unknown): Outcome {
  if (e instanceof DiagnosticError) return classifyDiagnostic(e.diagnostic);
  const message = e instanceof Error ? `${e.name}: ${e.message}` : `thrown: ${String(e)}`;
  return { class: 'internal', message };
}

/**
 * A stable name for a failure, for deduplication and for checking that minimization keeps
 * "the same" failure: the class and the first line of the message without its location
 * prefix, with every number replaced by `N`, cut to 160 characters.
 */
export function signatureOf(o: Outcome): string {
  const first = o.message.split('\n')[0].replace(LOCATION_PREFIX, '$1');
  return `${o.class}: ${first.replace(/\d+/g, 'N').slice(0, 160)}`;
}

/** A short hex hash of a signature (FNV-1a, 32 bits): the reproducer's file name. */
export function signatureHash(signature: string): string {
  let h = 0x811c9dc5;
  for (let k = 0; k < signature.length; k++) {
    h ^= signature.charCodeAt(k);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
