/**
 * `--verify-roundtrip` (mlir-opt's): the parsed input, printed in generic form with locations (what
 * mlir-opt 19 checks), and in custom form, must parse back to the same IR, compared in generic form.
 * The custom form is compared without locations: like MLIR's, it leaves out the locations of some
 * block arguments (scf.for's induction variable and iter_args), which come back at their new text
 * positions. A difference is an error on the root op showing both texts.
 */
import { Diagnostic, DiagnosticError, SourceFile } from '../ir/diagnostics.js';
import type { Operation } from '../ir/ir.js';
import { parseSourceFile } from '../ir/parser.js';
import { printModule } from '../ir/printer.js';
import { opError } from '../ir/verifier.js';

/** Prints `root` in one form, parses it back and compares both in generic form; the error, or null when they agree. */
function roundTrip(root: Operation, generic: boolean, allowUnregistered: boolean): Diagnostic | null {
  const form = generic ? 'generic' : 'custom';
  const compared = { generic: true, debugInfo: generic };
  const reference = printModule(root, compared);
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
  const roundtripped = printModule(again, compared);
  if (roundtripped === reference) return null;
  return opError(root, `${form} roundTrip testing roundtripped module differs from reference:\n<<<<<<Reference\n${reference}=====\n${roundtripped}>>>>>roundtripped`);
}

/** The round-trip error of `root` (generic form first, then custom form), or null when it round-trips. */
export function verifyRoundtrip(root: Operation, allowUnregistered: boolean): Diagnostic | null {
  return roundTrip(root, true, allowUnregistered) ?? roundTrip(root, false, allowUnregistered);
}
