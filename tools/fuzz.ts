/**
 * `npm run fuzz -- --seconds N [--target parser|passes|ptx|frontend] [--seed S]`: mutation
 * fuzzing of the parser, the passes, the PTX target and the Triton-C frontend (docs/fuzzing.md).
 * Without `--target`, each target runs for N seconds in turn. New internal errors, hangs and
 * unlocated diagnostics are minimized and saved under test/fixtures/fuzz/; the exit code is 1
 * when the campaign found any finding that is not known open (test/fixtures/fuzz-open/).
 *
 * `--replay FILE...` runs saved reproducers (their target from the `.json` sidecar) and prints
 * each outcome. Runs only as the bundle dist/bin/fuzz.mjs, which is also its own worker script.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runCampaign, summaryLine } from './fuzz/campaign.js';
import { FINDING_CLASSES } from './fuzz/outcome.js';
import { FuzzRunner, serveIfWorker } from './fuzz/runner.js';
import { isTargetName, TARGET_NAMES, type TargetName } from './fuzz/targets.js';
import { runTool, UserError } from './input-chunks.js';

/** The command line. */
interface FuzzArgs {
  seconds: number;
  /** A fixed number of inputs per target instead of a time budget (deterministic with --seed). */
  inputs?: number;
  targets: TargetName[];
  seed: number;
  timeoutMs: number;
  maxBytes: number;
  minimizeSeconds: number;
  save: boolean;
  replay: string[] | null;
}

const USAGE = `usage: fuzz [--seconds N | --inputs N] [--target parser|passes|ptx|frontend] [--seed S] [--timeout-ms T]
            [--max-bytes B] [--minimize-seconds M] [--no-save]
       fuzz --replay FILE... [--target T]`;

/** Parses the command line (`--name value` or `--name=value`). */
function parseArgs(argv: string[]): FuzzArgs {
  const args: FuzzArgs = { seconds: 60, targets: [...TARGET_NAMES], seed: Date.now() % 2 ** 31, timeoutMs: 10000, maxBytes: 65536, minimizeSeconds: 60, save: true, replay: null };
  const number = (name: string, v: string | undefined): number => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n) || n < 0) throw new UserError(`--${name} needs a non-negative number\n${USAGE}`);
    return n;
  };
  for (let k = 0; k < argv.length; k++) {
    let [name, value] = argv[k].split(/=(.*)/s, 2) as [string, string | undefined];
    const take = (): string | undefined => value ?? argv[++k];
    if (args.replay && !name.startsWith('--')) {
      args.replay.push(name);
      continue;
    }
    switch (name) {
      case '--seconds': args.seconds = number('seconds', take()); break;
      case '--inputs': args.inputs = number('inputs', take()); break;
      case '--seed': args.seed = Math.floor(number('seed', take())); break;
      case '--timeout-ms': args.timeoutMs = number('timeout-ms', take()); break;
      case '--max-bytes': args.maxBytes = number('max-bytes', take()); break;
      case '--minimize-seconds': args.minimizeSeconds = number('minimize-seconds', take()); break;
      case '--no-save': args.save = false; break;
      case '--replay': args.replay = []; break;
      case '--target': {
        value = take();
        if (!value || !isTargetName(value)) throw new UserError(`--target must be one of ${TARGET_NAMES.join(', ')}\n${USAGE}`);
        args.targets = [value];
        break;
      }
      case '--help': process.stdout.write(USAGE + '\n'); process.exit(0); break;
      default: throw new UserError(`unknown argument '${argv[k]}'\n${USAGE}`);
    }
  }
  return args;
}

/** The target of a saved reproducer: its sidecar's, else the only `--target`, else by extension. */
function replayTarget(path: string, args: FuzzArgs): TargetName {
  const sidecar = path.replace(/\.[^./]*$/, '.json');
  if (existsSync(sidecar)) return (JSON.parse(readFileSync(sidecar, 'utf8')) as { target: TargetName }).target;
  if (args.targets.length === 1) return args.targets[0];
  return path.endsWith('.tc') ? 'frontend' : 'parser';
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const runner = new FuzzRunner(fileURLToPath(import.meta.url), args.timeoutMs);
  let failed = false;
  try {
    if (args.replay) {
      for (const path of args.replay) {
        const target = replayTarget(path, args);
        const o = await runner.run(target, readFileSync(path, 'utf8'));
        if (FINDING_CLASSES.has(o.class)) failed = true;
        process.stdout.write(`${path}: ${target}: ${o.class}${o.message ? '\n' + o.message : ''}\n`);
      }
    } else {
      const root = fileURLToPath(new URL('../..', import.meta.url));
      const log = (line: string): void => void process.stdout.write(line + '\n');
      const summaries: string[] = [];
      for (const target of args.targets) {
        const r = await runCampaign(runner, { root, target, seconds: args.seconds, inputs: args.inputs, seed: args.seed, maxBytes: args.maxBytes, save: args.save, minimizeSeconds: args.minimizeSeconds, log });
        summaries.push(summaryLine(r));
        if (r.findings.some((f) => !f.knownOpen)) failed = true;
      }
      log(`fuzz summary (seed ${args.seed}, ${new Date().toISOString().slice(0, 10)}):`);
      for (const s of summaries) log('  ' + s);
    }
  } finally {
    await runner.close();
  }
  if (failed) {
    process.stdout.write('fuzz: FAILED: internal errors, hangs or unlocated diagnostics (see above)\n');
    process.exitCode = 1;
  }
}

if (!serveIfWorker()) runTool('fuzz', main);
