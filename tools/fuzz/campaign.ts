/**
 * A fuzz campaign on one target: mutate corpus inputs for a while, classify each run, and
 * minimize, deduplicate and save each new finding (internal error, hang, unlocated diagnostic).
 */
import { join } from 'node:path';
import { loadCorpus } from './corpus.js';
import { FINDINGS_DIR, loadFindings, OPEN_FINDINGS_DIR, saveFinding } from './findings.js';
import { minimize } from './minimize.js';
import { Random, mutate } from './mutate.js';
import { FINDING_CLASSES, OUTCOME_CLASSES, signatureOf, type Outcome, type OutcomeClass } from './outcome.js';
import type { FuzzRunner } from './runner.js';
import { TARGETS, type TargetName } from './targets.js';

/** What a campaign is asked to do. */
export interface CampaignOptions {
  root: string;
  target: TargetName;
  seconds: number;
  /** Stop after this many inputs instead (with a fixed seed: the same inputs on every machine, as CI needs). */
  inputs?: number;
  seed: number;
  /** The largest input (characters). */
  maxBytes: number;
  /** Save new findings under `test/fixtures/fuzz/` (false: only report them). */
  save: boolean;
  /** The most seconds spent minimizing one finding. */
  minimizeSeconds: number;
  log: (line: string) => void;
}

/** A finding of the campaign. */
export interface CampaignFinding {
  signature: string;
  outcome: Outcome;
  /** Where the minimized reproducer was saved (null when not saved). */
  path: string | null;
  /** Whether it was already known open (under `test/fixtures/fuzz-open/`): such findings do not fail a campaign. */
  knownOpen: boolean;
  /** How many inputs hit it. */
  hits: number;
}

/** What a campaign did. */
export interface CampaignResult {
  target: TargetName;
  seed: number;
  inputs: number;
  counts: Record<OutcomeClass, number>;
  findings: CampaignFinding[];
  /** Timeouts that did not repeat when the input ran again (a loaded machine, not a hang). */
  flakyHangs: number;
}

/** Runs a campaign of `options.seconds` seconds on `options.target`. */
export async function runCampaign(runner: FuzzRunner, options: CampaignOptions): Promise<CampaignResult> {
  const { root, target, seed, log } = options;
  const corpus = loadCorpus(root, TARGETS[target], options.maxBytes).map((e) => e.text);
  if (!corpus.length) throw new Error(`no corpus for target '${target}'`);
  const known = new Map<string, boolean>();
  for (const f of loadFindings(join(root, FINDINGS_DIR))) known.set(f.record.signature, false);
  for (const f of loadFindings(join(root, OPEN_FINDINGS_DIR))) known.set(f.record.signature, true);
  const random = new Random(seed);
  const counts = Object.fromEntries(OUTCOME_CLASSES.map((c) => [c, 0])) as Record<OutcomeClass, number>;
  const findings = new Map<string, CampaignFinding>();
  const result: CampaignResult = { target, seed, inputs: 0, counts, findings: [], flakyHangs: 0 };
  const budget = options.inputs !== undefined ? `${options.inputs} inputs` : `${options.seconds} s`;
  log(`fuzz ${target}: ${corpus.length} corpus inputs, seed ${seed}, ${budget}`);
  const deadline = Date.now() + options.seconds * 1000;
  let drawn = 0;
  while (options.inputs !== undefined ? drawn++ < options.inputs : Date.now() < deadline) {
    // Now and then an unmutated corpus input, so that the seeds themselves are checked too.
    const text = random.next() < 0.03 ? random.pick(corpus) : mutate(corpus, random, options.maxBytes);
    const outcome = await runner.run(target, text);
    if (outcome.class === 'hang' && (await runner.run(target, text)).class !== 'hang') {
      result.flakyHangs++;
      continue;
    }
    result.inputs++;
    counts[outcome.class]++;
    if (!FINDING_CLASSES.has(outcome.class)) continue;
    const signature = signatureOf(outcome);
    const seen = findings.get(signature);
    if (seen) {
      seen.hits++;
      continue;
    }
    const knownOpen = known.get(signature);
    const finding: CampaignFinding = { signature, outcome, path: null, knownOpen: knownOpen === true, hits: 1 };
    findings.set(signature, finding);
    if (knownOpen === true) {
      log(`  known open finding again: ${signature}`);
      continue;
    }
    // The signature of a fixed finding: a regression, or another bug with the same message (all hangs share one).
    log(knownOpen === false ? `  finding with a fixed finding's signature: ${signature}` : `  new finding: ${signature}`);
    const small = await minimizeFinding(runner, target, text, signature, options.minimizeSeconds);
    log(`  minimized ${text.length} -> ${small.length} characters`);
    if (options.save) {
      finding.path = saveFinding(join(root, FINDINGS_DIR), target, outcome, signature, small, seed);
      log(`  saved ${finding.path}`);
    } else log(small.split('\n').map((l) => '  | ' + l).join('\n'));
  }
  result.findings = [...findings.values()];
  return result;
}

/** Shrinks `text` while it keeps failing with `signature`, for at most `seconds` seconds. */
async function minimizeFinding(runner: FuzzRunner, target: TargetName, text: string, signature: string, seconds: number): Promise<string> {
  const deadline = Date.now() + seconds * 1000;
  return minimize(text, async (candidate) => {
    if (Date.now() > deadline) return false;
    return signatureOf(await runner.run(target, candidate)) === signature;
  });
}

/** One line per class with the counts of a campaign (for the log and docs/fuzzing.md). */
export function summaryLine(r: CampaignResult): string {
  const fresh = r.findings.filter((f) => !f.knownOpen).length;
  return `${r.target}: ${r.inputs} inputs, ${OUTCOME_CLASSES.map((c) => `${r.counts[c]} ${c}`).join(', ')}; ${r.findings.length} distinct findings (${fresh} not known open)${r.flakyHangs ? `, ${r.flakyHangs} timeouts that did not repeat` : ''}`;
}
