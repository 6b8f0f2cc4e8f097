/**
 * `triton-translate`'s options: the one table both of its command-line readers use. The common
 * command lines (an input, translation and target flags, `-o`) are read here without yargs, which
 * with node:assert and the stdio streams it loads costs ~25 ms of every run's start-up; anything
 * else goes to yargs (`translate-flags.ts`), which gives the same values for what is read here
 * (test/tools/translate-args.test.ts checks that).
 */

/** One option: its value's kind, its default and its `--help` line. */
export interface TranslateOption {
  kind: 'boolean' | 'string' | 'number';
  describe: string;
  default?: boolean;
}

/** Every option but the translations (`--to-ptx`...), which the tool adds from its table. */
export const TRANSLATE_OPTIONS: Readonly<Record<string, TranslateOption>> = {
  o: { kind: 'string', describe: "output file (default: stdout; '-': stdout)" },
  force: { kind: 'boolean', default: false, describe: 'let -o overwrite the input file' },
  'allow-unregistered-dialect': { kind: 'boolean', default: false, describe: 'accept ops of unknown dialects' },
  'list-translations': { kind: 'boolean', default: false, describe: 'list the available translations' },
  'from-c': { kind: 'boolean', default: false, describe: 'the input is Triton-C (with -DNAME=VALUE and -DNAME=[v1, v2] lists)' },
  'list-variants': { kind: 'boolean', default: false, describe: 'with --from-c: print the autotuning space, one line per variant' },
  variant: { kind: 'number', describe: 'with --from-c: compile variant N of the -D lists' },
  'all-variants': { kind: 'string', describe: 'with --from-c: compile every variant into DIR' },
  'allow-tf32': { kind: 'boolean', default: false, describe: 'with --from-c: f32 dots may use tf32 tensor cores (inputPrecision = tf32; default ieee)' },
  arch: { kind: 'string', describe: 'with --to-ptx: the GPU architecture, sm_80 (default) or sm_90a' },
  'num-warps': { kind: 'number', describe: 'with --to-ptx: warps per program for tt-level input (default 4)' },
  'emit-metadata': { kind: 'string', describe: 'with --to-ptx: write launch metadata (kernel, parameters, threads, shared bytes, CTAs per SM) as JSON' },
  'emit-ttgir': { kind: 'string', describe: 'with --to-ptx: write the ttg IR the PTX is lowered from (after the passes), which Triton can compile too' },
  debug: { kind: 'boolean', default: false, describe: 'show JavaScript stacks (mapped to the TypeScript sources) for internal errors' },
  'mlir-timing': {
    kind: 'boolean',
    default: false,
    describe: 'report the wall time of each phase on stderr (parse, verification, every pass of the pipeline, lowering, printing, output), as mlir-translate does',
  },
  'via-llvm': { kind: 'boolean', default: false, describe: "with --to-ptx: LLVM's PTX for sm_80 (our LLVM IR through llc-14), a second opinion on ours" },
  'emit-bitcode': { kind: 'string', describe: 'with --to-llvm: write the verified module as LLVM bitcode (the text then goes only to -o)' },
  'residency-hint': {
    kind: 'boolean',
    default: true,
    describe: 'with --to-ptx: ask the launcher for fewer CTAs per SM where scattered loads gain from it (--no-residency-hint: as many as fit)',
  },
};

/** The parsed command line: each option's value by its name (`num-warps`), and the inputs in `_`. */
export interface TranslateArgv {
  _: (string | number)[];
  o?: string;
  force: boolean;
  'allow-unregistered-dialect': boolean;
  'list-translations': boolean;
  'from-c': boolean;
  'list-variants': boolean;
  variant?: number;
  'all-variants'?: string;
  'allow-tf32': boolean;
  arch?: string;
  'num-warps'?: number;
  'emit-metadata'?: string;
  'emit-ttgir'?: string;
  debug: boolean;
  'mlir-timing': boolean;
  'via-llvm': boolean;
  'emit-bitcode'?: string;
  'residency-hint': boolean;
  /** The translations (`to-ptx`: true when asked for), and yargs' own keys. */
  [translation: string]: unknown;
}

/** A word yargs keeps as it is: no option, and not a number (yargs turns `010` into `10`). */
function plainWord(arg: string | undefined): arg is string {
  return arg !== undefined && arg !== '' && !arg.startsWith('-') && Number.isNaN(Number(arg));
}

/**
 * The options of a command line made of at most one input and options of the table (and the
 * boolean `translations`), each at most once, as `--name`, `--no-residency-hint`, `--name VALUE`
 * or `--name=VALUE` (`-o VALUE`); null for any other command line (help, stdin `-`, repeated or
 * unknown options, values that yargs would read differently), which yargs then reads.
 */
export function simpleTranslateArgs(args: readonly string[], translations: readonly string[]): TranslateArgv | null {
  const argv = { _: [] } as unknown as TranslateArgv;
  for (const [name, o] of Object.entries(TRANSLATE_OPTIONS)) if (o.default !== undefined) argv[name] = o.default;
  for (const t of translations) argv[t] = false;
  const seen = new Set<string>();
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (!a.startsWith('-')) {
      if (!plainWord(a) || argv._.length) return null;
      argv._.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.startsWith('--') ? a.slice(2, eq < 0 ? undefined : eq) : a === '-o' ? 'o' : null;
    const inline = eq < 0 ? undefined : a.slice(eq + 1);
    if (name === null || seen.has(name)) return null;
    seen.add(name);
    if (name === 'no-residency-hint' && inline === undefined) {
      if (seen.has('residency-hint')) return null;
      seen.add('residency-hint');
      argv['residency-hint'] = false;
      continue;
    }
    const option = translations.includes(name) ? ({ kind: 'boolean' } as const) : TRANSLATE_OPTIONS[name];
    if (!option || name === 'list-translations') return null;
    if (option.kind === 'boolean') {
      if (inline !== undefined) return null;
      argv[name] = true;
      continue;
    }
    const value = inline ?? args[++k];
    if (option.kind === 'number') {
      if (value === undefined || !/^(0|[1-9][0-9]{0,8})$/.test(value)) return null;
      argv[name] = Number(value);
    } else {
      if (!plainWord(value)) return null;
      argv[name] = value;
    }
  }
  return argv;
}
