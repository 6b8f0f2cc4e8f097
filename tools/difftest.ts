/**
 * `npm run difftest -- --count N [--seed S] [--every E] [--show SEED]`: differential testing of
 * the passes on random valid tt kernels (docs/fuzzing.md, "Differential testing"). Each kernel
 * runs in the CPU interpreter as generated and after the layout passes and the default pipeline
 * (sm_90a, 1/2/4/8 warps); outputs must agree. Prints progress every E kernels and a summary;
 * exits 1 on any mismatch, pass failure or interpreter failure. `--show SEED` prints one kernel.
 */
import { registerAllDialects } from '../dialects/index.js';
import { registerAllPasses } from '../passes/all.js';
import { generateKernel } from './difftest/generate.js';
import { runCampaign, summaryText } from './difftest/run.js';
import { runTool, UserError } from './input-chunks.js';

const USAGE = 'usage: difftest [--count N] [--seed S] [--every E] [--show SEED]';

/** Parses the command line (`--name value` or `--name=value`). */
function parseArgs(argv: string[]): { count: number; seed: number; every: number; show: number | null } {
  const args = { count: 100, seed: 1, every: 100, show: null as number | null };
  for (let k = 0; k < argv.length; k++) {
    const [name, inline] = argv[k].split(/=(.*)/s, 2) as [string, string | undefined];
    if (name === '--help') {
      process.stdout.write(USAGE + '\n');
      process.exit(0);
    }
    if (!['--count', '--seed', '--every', '--show'].includes(name)) throw new UserError(`unknown argument '${argv[k]}'\n${USAGE}`);
    const value = inline ?? argv[++k];
    const n = Number(value);
    if (value === undefined || !Number.isInteger(n) || n < 0) throw new UserError(`${name} needs a non-negative integer\n${USAGE}`);
    switch (name) {
      case '--count': args.count = n; break;
      case '--seed': args.seed = n; break;
      case '--every': args.every = Math.max(1, n); break;
      default: args.show = n;
    }
  }
  return args;
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  registerAllDialects();
  registerAllPasses();
  if (args.show !== null) {
    const k = generateKernel(args.show);
    process.stdout.write(`// grid ${k.grid.join('x')}, buffers ${k.buffers.map((b) => `${b.name}:${b.elt}[${b.size}]`).join(' ')}, scalars ${k.scalars.join(' ')}\n${k.text}`);
    return;
  }
  const log = (line: string): void => void process.stdout.write(line + '\n');
  const t0 = Date.now();
  const { summary } = runCampaign(args.count, args.seed, log, args.every);
  log(`difftest summary (seed ${args.seed}, ${args.count} kernels, ${((Date.now() - t0) / 1000).toFixed(1)} s, ${new Date().toISOString().slice(0, 10)}):`);
  log('  ' + summaryText(summary));
  if (summary.mismatches || summary.passFailures || summary.interpFailures || summary.valid < summary.generated) {
    log('difftest: FAILED (see above)');
    process.exitCode = 1;
  }
}

runTool('difftest', main);
