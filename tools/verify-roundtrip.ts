/**
 * `--verify-roundtrip` (mlir-opt's): the parsed input, printed in generic form with locations,
 * must parse back and print the same; so must its custom form. A difference is an error on
 * the root op showing both texts.
 */
import { Diagnostic, DiagnosticError, SourceFile } from '../ir/diagnostics.js';
import type { Operation } from '../ir/ir.js';
import { parseSourceFile } from '../ir/parser.js';
import { printModule } from '../ir/printer.js';
import { opError } from '../ir/verifier.js';

/** Prints `root` with `generic` or not, parses it back and compares; the error, or null when both prints agree. */
function roundTrip(root: Operation, generic: boolean, allowUnregistered: boolean): Diagnostic | null {
  const form = generic ? 'generic' : 'custom';
  const options = { generic, debugInfo: true };
  const reference = printModule(root, options);
  let again: Operation;
  try {
    const parsed = parseSourceFile(new SourceFile(`<${form} roundtrip>`, reference), { allowUnregisteredDialect: allowUnregistered });
    // A root that is not a module (`--no-implicit-module`) comes back inside an implicit one.
    again = root.name !== 'builtin.module' && parsed.implicitModule ? parsed.module.region(0).blocks[0].first! : parsed.module;
  } catch (e) {
    if (!(e instanceof DiagnosticError)) throw e;
    return opError(root, `failed to parse ${form} content back, cannot verify round-trip: ${e.diagnostic.format()}`);
  }
  const roundtripped = printModule(again, options);
  if (roundtripped === reference) return null;
  return opError(root, `${form} roundTrip testing roundtripped module differs from reference:\n<<<<<<Reference\n${reference}\n=====\n${roundtripped}\n>>>>>roundtripped`);
}

/** The round-trip error of `root` (generic form first, then custom form), or null when it round-trips. */
export function verifyRoundtrip(root: Operation, allowUnregistered: boolean): Diagnostic | null {
  return roundTrip(root, true, allowUnregistered) ?? roundTrip(root, false, allowUnregistered);
}
