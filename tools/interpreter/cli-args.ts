/**
 * `triton-run`'s command line, parsed with yargs like the other tools: `--help` and
 * `--version` give text for stdout (exit 0); a mistake is an Error whose message is for the user.
 */
import yargs from 'yargs';

/** Parsed command-line options. */
export interface CliOptions {
  /** The input file; `-` is stdin. */
  file: string;
  kernel: string | null;
  grid: number[];
  args: string[];
  seed: number;
  print: 'summary' | 'full' | 'none';
  pipeline: string | null;
  /** Show JavaScript stacks of internal errors. */
  debug: boolean;
}

/** What the command line asked: a run, or text to print and exit 0 (`--help`, `--version`). */
export type ParsedCli = { options: CliOptions } | { text: string };

const SPEC_HELP = `Argument specs (--arg, one per kernel parameter but hidden tensor maps, in order):
  ptr:<elt>:<count>[:<init>]   a new buffer (elt f16|bf16|f32|f64|i1|i8|i16|i32|i64;
                               init zeros (default)|ones|rand|randint|arange|<number>)
  <type>:<value>               a scalar (i32:1000, f32:0.5, i64:-3, i1:1)
A tensor descriptor parameter (!tt.tensordesc) takes the buffer of its tensor; the parameters
after it are the tensor's shape and strides in elements (i32 each, then i64 each), as Triton
passes a host-side TensorDescriptor: ptr:f32:1600 i32:40 i32:40 i64:40 i64:1.
A hidden tensor-map parameter (a !tt.tensordesc with a tir.tensormap attribute; they come last)
takes no --arg: it is built, as the launcher builds it, from the base pointer, shape and stride
arguments its attribute names.`;

/** A non-negative integer from `s`, or an error naming `what`. */
export function nonNegativeInt(s: string, what: string): number {
  const n = Number(s);
  if (s.trim() === '' || !Number.isInteger(n) || n < 0) throw new Error(`${what}: expected a non-negative integer, got '${s}'`);
  return n;
}

/** Parses `triton-run`'s arguments (without `node script`). */
export function parseCliArgs(argv: readonly string[]): ParsedCli {
  let failure: string | null = null;
  let output = '';
  let parsed: Record<string, unknown> = {};
  yargs()
    .scriptName('triton-run')
    .usage('usage: $0 <file.ttir|-> --grid=X[,Y[,Z]] --arg SPEC... [options]\n\nRuns a tt/ttg kernel on the CPU interpreter and prints its buffers.')
    .epilogue(SPEC_HELP)
    .option('grid', { type: 'string', default: '1', describe: 'programs along x[,y[,z]]', requiresArg: true })
    // Not a yargs array: that would take the input file after `--arg X` as an argument too.
    .option('arg', { type: 'string', describe: 'a kernel argument (see below); repeat per parameter', requiresArg: true })
    .option('kernel', { type: 'string', describe: 'the tt.func to run (default: the first)', requiresArg: true })
    .option('seed', { type: 'string', default: '1', describe: 'seed of the rand/randint buffer fills', requiresArg: true })
    .option('print', { type: 'string', choices: ['summary', 'full', 'none'], default: 'summary', describe: 'how much of each buffer to print' })
    .option('pipeline', { type: 'string', describe: "passes to run before interpreting, e.g. 'default'", requiresArg: true })
    .option('debug', { type: 'boolean', default: false, describe: 'show JavaScript stacks for internal errors' })
    .strictOptions()
    .version('0.1.0')
    .help()
    .alias('h', 'help')
    .wrap(Math.min(120, process.stdout.columns ?? 100))
    .exitProcess(false)
    .fail((msg, err) => {
      failure = err?.message ?? msg;
    })
    .parse([...argv], {}, (_err, args, text) => {
      parsed = args as Record<string, unknown>;
      output = text;
    });
  if (failure !== null) throw new Error(`${failure}\n(see triton-run --help)`);
  if (parsed.help || parsed.version) return { text: output.endsWith('\n') ? output : output + '\n' };
  const files = (parsed._ as (string | number)[]).map(String);
  if (files.length === 0) throw new Error('no input file (use - for stdin); see triton-run --help');
  if (files.length > 1) throw new Error(`expected one input file, got ${files.length}: ${files.join(', ')}`);
  return {
    options: {
      file: files[0],
      kernel: (parsed.kernel as string | undefined) ?? null,
      grid: String(parsed.grid).split(',').map((s) => nonNegativeInt(s, '--grid')),
      args: parsed.arg === undefined ? [] : Array.isArray(parsed.arg) ? parsed.arg.map(String) : [String(parsed.arg)],
      seed: nonNegativeInt(String(parsed.seed), '--seed'),
      print: parsed.print as CliOptions['print'],
      pipeline: (parsed.pipeline as string | undefined) ?? null,
      debug: parsed.debug as boolean,
    },
  };
}
