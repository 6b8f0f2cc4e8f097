/**
 * Saved fuzz findings: a reproducer `test/fixtures/fuzz/<target>/<hash>.<ext>` (minimized
 * input) and its sidecar `<hash>.json` (target, class, message, signature, seed, date). Fixed
 * findings live under `test/fixtures/fuzz/` (replayed by `test/tools/fuzz-replay.test.ts`); known
 * open ones under `test/fixtures/fuzz-open/` (not replayed, but not reported as new either).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signatureHash, type Outcome, type OutcomeClass } from './outcome.js';
import { TARGETS, type TargetName } from './targets.js';

/** Where fixed findings' reproducers are (relative to the repository root). */
export const FINDINGS_DIR = 'test/fixtures/fuzz';

/** Where known open findings' reproducers are (relative to the repository root). */
export const OPEN_FINDINGS_DIR = 'test/fixtures/fuzz-open';

/** A reproducer's sidecar. */
export interface FindingRecord {
  target: TargetName;
  class: OutcomeClass;
  message: string;
  signature: string;
  seed: number;
  date: string;
}

/** A saved reproducer: its sidecar and the paths of both files. */
export interface SavedFinding {
  record: FindingRecord;
  inputPath: string;
  recordPath: string;
}

/** Every reproducer saved under `dir` (one folder per target). */
export function loadFindings(dir: string): SavedFinding[] {
  const out: SavedFinding[] = [];
  for (const target of Object.keys(TARGETS) as TargetName[]) {
    const folder = join(dir, target);
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names.sort()) {
      if (!name.endsWith('.json')) continue;
      const recordPath = join(folder, name);
      const record = JSON.parse(readFileSync(recordPath, 'utf8')) as FindingRecord;
      out.push({ record, recordPath, inputPath: join(folder, name.replace(/\.json$/, `.${TARGETS[target].extension}`)) });
    }
  }
  return out;
}

/** Saves a minimized reproducer and its sidecar under `dir/<target>/`; returns the input's path. */
export function saveFinding(dir: string, target: TargetName, outcome: Outcome, signature: string, text: string, seed: number): string {
  const folder = join(dir, target);
  mkdirSync(folder, { recursive: true });
  // A second input with the signature of a saved one (every hang shares one) gets its own name.
  let hash = signatureHash(signature);
  if (existsSync(join(folder, `${hash}.json`))) hash += '-' + signatureHash(text);
  const inputPath = join(folder, `${hash}.${TARGETS[target].extension}`);
  const record: FindingRecord = { target, class: outcome.class, message: outcome.message, signature, seed, date: new Date().toISOString().slice(0, 10) };
  writeFileSync(inputPath, text);
  writeFileSync(join(folder, `${hash}.json`), JSON.stringify(record, null, 2) + '\n');
  return inputPath;
}
