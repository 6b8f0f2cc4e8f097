/**
 * The fuzz corpus: the project's own inputs (examples, lit tests, test fixtures, the GPU
 * benchmark kernels), read from the repository and split into `// -----` chunks.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FuzzTarget } from './targets.js';

/** The folders (relative to the repository root) whose files seed the corpus. */
export const CORPUS_FOLDERS: readonly string[] = ['examples/ttir', 'examples/triton-c', 'lit', 'test/fixtures', 'bench/gpu/kernels'];

/** Every file under `dir`, recursively (none when it does not exist). */
function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names.sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

/** One corpus entry: where it comes from and its text. */
export interface CorpusEntry {
  path: string;
  text: string;
}

/**
 * The corpus of `target`: each accepted file under `CORPUS_FOLDERS`, split at `// -----` lines
 * (one entry per chunk), entries over `maxBytes` left out.
 */
export function loadCorpus(root: string, target: FuzzTarget, maxBytes: number): CorpusEntry[] {
  const entries: CorpusEntry[] = [];
  for (const folder of CORPUS_FOLDERS) {
    for (const path of filesUnder(join(root, folder))) {
      const rel = relative(root, path);
      if (!target.accepts(rel) || rel.endsWith('.json')) continue;
      const text = readFileSync(path, 'utf8');
      const chunks = target.extension === 'tir' ? text.split(/^\/\/ -----\s*$/m) : [text];
      for (const chunk of chunks) if (chunk.trim() && chunk.length <= maxBytes) entries.push({ path: rel, text: chunk });
    }
  }
  return entries;
}
