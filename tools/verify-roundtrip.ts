/**
 * `--verify-roundtrip` (mlir-opt's): the parsed input, printed in generic form and in custom
 * form (with locations), must parse back to the same IR, compared in generic form. A difference
 * is an error on the root op showing both texts.
 */
import { Diagnostic, DiagnosticError, SourceFile } from '../ir/diagnostics.js';
import type { Operation } from '../ir/ir.js';
import { parseSourceFile } from '../ir/parser.js';
import { printModule } from '../ir/printer.js';
import { opError } from '../ir/verifier.js';

const GENERIC = { generic: true, debugInfo: true };

/** Prints `root` in one form, parses it back and compares with `reference` (generic); the error, or null when they agree. */
function roundTrip(root: Operation, reference: string, generic: boolean, allowUnregistered: boolean): Diagnostic | null {
  const form = generic ? 'generic' : 'custom';
  const text = printModule(root, { generic, debugInfo: true });
  let again: Operation;
  try {
    const parsed = parseSourceFile(new SourceFile(`<${form} roundtrip>`, text), { allowUnregisteredDialect: allowUnregistered });
    // A root that is not a module (`--no-implicit-module`) comes back inside an implicit one.
    again = root.name !== 'builtin.module' && parsed.implicitModule ? parsed.module.region(0).blocks[0].first! : parsed.module;
  } catch (e) {
    if (!(e instanceof DiagnosticError)) throw e;
    return opError(root, `failed to parse ${form} content back, cannot verify round-trip:\n${e.diagnostic.format()}`);
  }
  const roundtripped = printModule(again, GENERIC);
  if (roundtripped === reference) return null;
  return opError(root, `${form} roundTrip testing roundtripped module differs from reference:\n<<<<<<Reference\n${reference}=====\n${roundtripped}>>>>>roundtripped`);
}

/** The round-trip error of `root` (generic form first, then custom form), or null when it round-trips. */
export function verifyRoundtrip(root: Operation, allowUnregistered: boolean): Diagnostic | null {
  const reference = printModule(root, GENERIC);
  return roundTrip(root, reference, true, allowUnregistered) ?? roundTrip(root, reference, false, allowUnregistered);
}
