/**
 * The pass registry (MLIR's `PassRegistry`): passes are added to it explicitly
 * (`registerAllPasses` in `passes/all.ts`, or `registerPass` for a pass of your own), looked up
 * by name or by an upstream alias, and listed. Named pipelines live here too.
 */
import { archLimits, parseCapability, targetName } from '../dialects/ttg/target.js';
import type { PassDecl, PassOptionDecl, PassOptions } from './pass.js';

/** Passes by name, and upstream spellings (`tritongpu-pipeline`) by alias. */
export class PassRegistry {
  private readonly passes = new Map<string, PassDecl>();
  private readonly aliases = new Map<string, PassDecl>();

  /** Adds a pass; its name and aliases must be new (the same pass twice is ignored). */
  register(p: PassDecl): this {
    if (this.passes.get(p.name) === p) return this;
    for (const n of [p.name, ...(p.aliases ?? [])])
      if (this.passes.has(n) || this.aliases.has(n)) throw new Error(`internal error: pass name '${n}' registered twice`);
    this.passes.set(p.name, p);
    for (const a of p.aliases ?? []) this.aliases.set(a, p);
    return this;
  }
  /** The pass named `name` (or aliased so), if registered. */
  lookup(name: string): PassDecl | undefined {
    return this.passes.get(name) ?? this.aliases.get(name);
  }
  /** Every registered pass, sorted by name. */
  all(): PassDecl[] {
    return [...this.passes.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
  /** Every name a pass answers to: names and aliases. */
  names(): string[] {
    return [...this.passes.keys(), ...this.aliases.keys()];
  }
}

/** The registry tools use; empty until they register passes into it. */
export const defaultPassRegistry = new PassRegistry();

/** Registers a pass in the default registry. */
export function registerPass(p: PassDecl): void {
  defaultPassRegistry.register(p);
}

/** The pass named `name` in the default registry, if registered. */
export function lookupPass(name: string): PassDecl | undefined {
  return defaultPassRegistry.lookup(name);
}

/** Every pass of the default registry, sorted by name. */
export function allPasses(): PassDecl[] {
  return defaultPassRegistry.all();
}

/** A pipeline with a name and options (`default{num-warps=8 arch=sm_90a}`), expanded to pipeline text. */
export interface NamedPipeline {
  summary: string;
  options: Record<string, PassOptionDecl>;
  /** The pipeline text for these option values; a message thrown here is reported at the options. */
  expand(options: PassOptions): string;
}

/** Named pipelines by name (`--pipeline=default`). */
export const NAMED_PIPELINES: Record<string, NamedPipeline> = {
  default: {
    summary: 'tt IR to ttg IR ready for the nvptx target: layouts, tensor cores, pipelining, shared memory, barriers',
    options: {
      arch: { type: 'string', default: 'sm_80', description: 'the GPU: sm_80, sm_90a (or cuda:80, cuda:90); written to ttg.target' },
      'num-warps': { type: 'int', default: 4, description: 'warps per CTA (ttg.num-warps)' },
      'num-stages': { type: 'int', default: 3, description: 'software-pipelining stages of the loads feeding a dot' },
      'tma-pointer-loads': { type: 'bool', default: true, description: 'on a GPU with TMA, copy the pointer loads that read a box by TMA (pointer-to-tma); false keeps cp.async' },
      'host-tensor-maps': { type: 'bool', default: true, description: 'a tensor descriptor the kernel makes from its parameters alone becomes a tensor map the launcher builds (tma-lowering{host-maps}); false writes every one on the device' },
    },
    // Issue 7's order: tensor cores, then software pipelining, then shared-memory layout and sizes.
    expand: (o) => {
      const cc = parseCapability(String(o.arch));
      if (cc === null) throw new Error(`unknown architecture '${o.arch}'; known: sm_80, sm_90a`);
      return [
        'canonicalize', 'cse', 'heavy-programs-first', 'unroll-loops', 'version-alignment', ...(archLimits(cc)?.tma && o['tma-pointer-loads'] ? [`pointer-to-tma{target=${targetName(cc)} num-warps=${o['num-warps']}}`] : []),
        `convert-to-gpu{num-warps=${o['num-warps']} target=${targetName(cc)}}`, 'coalesce{mask-aligned=true}',
        'mma-lowering', 'remove-layout-conversions', 'canonicalize', 'licm', 'cse', `software-pipeline{num-stages=${o['num-stages']}}`,
        `tma-lowering{host-maps=${o['host-tensor-maps']}}`, 'vectorize', 'pad-shared', 'fence-async-shared', 'alloc-shared', 'insert-barriers',
      ].join(',');
    },
  },
};

/** Adds a named pipeline without options that stands for `text`. */
export function registerPipeline(name: string, summary: string, text: string): void {
  NAMED_PIPELINES[name] = { summary, options: {}, expand: () => text };
}

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
