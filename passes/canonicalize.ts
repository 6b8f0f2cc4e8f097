/**
 * `canonicalize`: folds constants, removes dead pure ops and applies every registered op's
 * canonicalization patterns (the `canonicalize` lists of the dialect tables) until nothing
 * changes, as MLIR's canonicalizer does.
 */
import { defaultContext } from '../ir/context.js';
import type { RewritePattern } from '../ir/patterns.js';
import type { PassDecl } from './pass.js';

/** Every canonicalization pattern declared by a registered op, each once. */
export function collectCanonicalizationPatterns(): RewritePattern[] {
  const seen = new Set<RewritePattern>();
  for (const spec of defaultContext.ops.values()) for (const p of spec.decl.canonicalize ?? []) seen.add(p);
  return [...seen];
}

/** The canonicalizer pass. */
export const canonicalize: PassDecl = {
  name: 'canonicalize',
  summary: 'fold constants, erase dead ops and apply the ops\' canonicalization patterns to a fixed point',
  anchor: 'module',
  options: {
    'max-iterations': { type: 'int', default: 10, description: 'sweeps over the IR before reporting that the rewrites did not converge' },
    fold: { type: 'bool', default: true, description: 'fold ops with their constant operands (and identities)' },
  },
  statistics: {
    'patterns-applied': 'canonicalization patterns applied',
    'ops-folded': 'ops replaced by a constant or an existing value',
    'ops-erased': 'dead ops erased',
  },
  run(target, ctx) {
    const maxIterations = Number(ctx.options['max-iterations'] ?? 10);
    const fold = ctx.options.fold !== false;
    const r = ctx.applyPatterns(target, collectCanonicalizationPatterns(), { maxIterations, fold });
    if (!r.changed) ctx.preserve();
  },
};
