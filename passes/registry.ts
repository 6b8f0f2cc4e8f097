/**
 * The pass registry: every pass is registered here with one line, and named pipelines live here.
 */
import type { PassDecl } from './pass.js';

const passes = new Map<string, PassDecl>();

/** Registers a pass (its name must be new). */
export function registerPass(p: PassDecl): void {
  if (passes.has(p.name)) throw new Error(`internal error: pass '${p.name}' registered twice`);
  passes.set(p.name, p);
}

/** The pass named `name`, if registered. */
export function lookupPass(name: string): PassDecl | undefined {
  return passes.get(name);
}

/** Every registered pass, sorted by name. */
export function allPasses(): PassDecl[] {
  return [...passes.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Named pipelines (`--pipeline=default`), filled in as passes land. */
export const NAMED_PIPELINES: Record<string, string> = {
  // Issue 7's order: tensor cores, then software pipelining, then shared-memory layout and sizes.
  default:
    'canonicalize,cse,convert-to-gpu,coalesce{mask-aligned=true},mma-lowering,remove-layout-conversions,canonicalize,cse,pipeline{num-stages=3},vectorize,pad-shared,alloc-shared,insert-barriers',
};

/** Up to three candidates close to `word` (edit distance <= 2, or a shared prefix), best first. */
export function nearMatches(word: string, candidates: readonly string[]): string[] {
  const scored = candidates
    .map((c) => ({ c, d: editDistance(word, c) }))
    .filter(({ c, d }) => d <= Math.max(2, Math.floor(c.length / 3)) || c.startsWith(word) || word.startsWith(c))
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c));
  return scored.slice(0, 3).map((x) => x.c);
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, k) => k);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}
