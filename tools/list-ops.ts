/**
 * `triton-opt --list-ops[=DIALECT]`: every registered op (or one dialect's) with its one-line
 * summary, one op per line, names padded to one column.
 */
import type { DialectDecl } from '../ir/op-spec.js';
import { UserError } from './input-chunks.js';

/** The listing of the ops of `dialects`, or of the dialect named `only` (a user error when unknown). */
export function listOps(dialects: readonly DialectDecl[], only?: string): string {
  const chosen = only ? dialects.filter((d) => d.name === only) : dialects;
  if (only && !chosen.length) throw new UserError(`unknown dialect '${only}'; known: ${dialects.map((d) => d.name).join(', ')}`);
  const ops = chosen.flatMap((d) => d.ops);
  const width = Math.max(0, ...ops.map((o) => o.name.length));
  let out = only ? `Ops of dialect '${only}':\n` : 'Available ops:\n';
  for (const o of ops) out += `  ${o.name.padEnd(width)}  -  ${o.decl.summary ?? ''}\n`;
  return out;
}
