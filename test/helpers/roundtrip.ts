/**
 * Shared helpers for dialect round-trip tests: parse + verify, print custom / generic, and the
 * three round-trip properties every dialect test checks (custom -> custom, generic -> custom,
 * generic -> generic), plus the error message that bad IR produces.
 */
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import type { Operation } from '../../ir/ir.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { verify } from '../../ir/verifier.js';
import { DiagnosticError } from '../../ir/diagnostics.js';

registerAllDialects();

/** Parses `text` and verifies the resulting module; throws the first diagnostic. */
export function load(text: string): Operation {
  const { module } = parseText(text);
  verify(module);
  return module;
}

/** Our custom-form print of `text` (parsed and verified). */
export function custom(text: string): string {
  return printModule(load(text));
}

/** Our generic-form print of `text` (parsed and verified). */
export function generic(text: string): string {
  return printModule(load(text), { generic: true });
}

/** The message of the error that parsing + verifying `text` produces, or `(no error)`. */
export function errorOf(text: string): string {
  try {
    load(text);
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostic.message;
    throw e;
  }
  return '(no error)';
}

/**
 * Checks the round-trip properties of `input`:
 * custom print equals `expectedCustom`; generic print (equals `expectedGeneric` when given) parses
 * back to the same custom print; generic print of the generic print is stable; the custom print is a
 * fixed point.
 */
export function roundTrip(input: string, expectedCustom: string = input, expectedGeneric?: string): void {
  const c = custom(input);
  assert.fixture(c, expectedCustom, 'custom print');
  assert.fixture(custom(c), expectedCustom, 'custom print of custom print');
  const g = generic(input);
  if (expectedGeneric !== undefined) assert.fixture(g, expectedGeneric, 'generic print');
  assert.fixture(custom(g), expectedCustom, 'custom print of generic print');
  assert.fixture(generic(g), g, 'generic print of generic print');
}

/**
 * Renames SSA values to `%v0`, `%v1`... in order of first appearance (keeping `#n` result indices),
 * restarting at each function, so texts that differ only in value numbering compare equal. mlir-opt's generic form numbers
 * values across a whole module in an order of its own; we number per isolated region.
 */
export function canonNames(text: string): string {
  let names = new Map<string, string>();
  const rename = (m: string): string => {
    let n = names.get(m);
    if (n === undefined) {
      n = `%v${names.size}`;
      names.set(m, n);
    }
    return n;
  };
  return text
    .split('\n')
    .map((line) => {
      // Each function is isolated from above: numbering restarts there (as ours does, unlike mlir-opt's generic form).
      if (/^\s*("func\.func"|func\.func)/.test(line)) names = new Map();
      return line.replace(/%[A-Za-z0-9_$.-]+/g, rename);
    })
    .join('\n');
}

/** Drops `//` comment lines (fixture headers) and the trailing blank line mlir-opt writes. */
export function stripComments(text: string): string {
  return text.split('\n').filter((l) => !l.startsWith('//')).join('\n').replace(/\n+$/, '\n');
}

/** Checks that `text` fails to load with a message that equals `expected` (string) or matches it (RegExp). */
export function expectError(text: string, expected: string | RegExp): void {
  const msg = errorOf(text);
  if (typeof expected === 'string') assert.is(msg, expected);
  else assert.match(msg, expected);
}

/** Replaces every SSA value name by `%V`: compares everything but use-def links, which `canonNames` can't when names are reused in sibling regions. */
export function stripNames(text: string): string {
  return text.replace(/%[A-Za-z0-9_$.-]+/g, '%V');
}

/**
 * Checks that our generic print of `input` is mlir-opt's generic text `upstream`: textually with SSA names
 * blanked, and structurally (same IR, so same print by us) through our reading of mlir-opt's text.
 */
export function sameGeneric(input: string, upstream: string): void {
  const ours = generic(input);
  assert.fixture(stripNames(ours), stripNames(upstream), 'generic text (names blanked)');
  assert.fixture(ours, generic(upstream), 'generic print of mlir-opt generic');
}
