/**
 * The pass flags of `triton-opt`'s command line, read before yargs sees it: `--cse`,
 * mlir-opt's `--convert-to-gpu=num-warps=8` (options after `=`), Triton's spellings
 * (`--tritongpu-coalesce`, aliases of our passes), and `--pipeline=` / `--pass-pipeline=`, all
 * joined into one pipeline in command-line order. Triton names with no equivalent here and
 * unknown flags are errors with a suggestion, never silently dropped.
 */
import { defaultPassRegistry, lookupPass, nearMatches } from '../passes/registry.js';
import { UPSTREAM_WITHOUT_EQUIVALENT, upstreamWithoutEquivalent } from '../passes/upstream-names.js';
import { UserError } from './input-chunks.js';

/** What `readPassFlags` took from the command line. */
export interface PassFlags {
  /** The pipeline text, in command-line order. */
  pipeline: string;
  /** The arguments without the pass flags (for yargs). */
  rest: string[];
}

/** `NAME` or `NAME{OPTIONS}` for a pass flag's `=` value (mlir-opt: `--pass=opt1=v1 opt2=v2`). */
function passElement(name: string, options: string | undefined): string {
  if (options === undefined) return name;
  const inner = options.trim().replace(/^\{([\s\S]*)\}$/, '$1');
  return `${name}{${inner}}`;
}

/** Splits pass flags (and pipelines, kept in `rest` too for yargs) from the other arguments. */
export function readPassFlags(args: readonly string[]): PassFlags {
  const parts: string[] = [];
  const rest: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    const pipeline = /^--(pipeline|pass-pipeline)(?:=([\s\S]*))?$/.exec(a);
    if (pipeline) {
      const value = pipeline[2] ?? args[k + 1];
      if (value === undefined) throw new UserError(`--${pipeline[1]} needs a pipeline`);
      parts.push(value);
      rest.push(a);
      if (pipeline[2] === undefined) rest.push(args[++k]);
      continue;
    }
    const flag = /^--([\w.-]+)(?:=([\s\S]*))?$/.exec(a);
    if (flag && lookupPass(flag[1])) {
      parts.push(passElement(flag[1], flag[2]));
      continue;
    }
    if (flag && UPSTREAM_WITHOUT_EQUIVALENT[flag[1]] !== undefined) throw new UserError(upstreamWithoutEquivalent(flag[1])!);
    rest.push(a);
  }
  return { pipeline: parts.filter((p) => p.trim()).join(','), rest };
}

/** The option of an argument that is a flag (`--name`, `--name=v`, `--no-name`, `-x`), or null for a value. */
function flagName(arg: string): string | null {
  const m = /^--?([A-Za-z][\w.-]*)(?:=|$)/.exec(arg);
  return m ? m[1] : null;
}

/**
 * Checks that every flag in `args` names a known option (`known`: yargs' options, with their
 * `--no-` forms for booleans); an unknown one is an error with the nearest known spellings.
 * `takesValue` lists options whose next argument is their value (not checked).
 */
export function checkFlags(args: readonly string[], known: ReadonlySet<string>, takesValue: ReadonlySet<string>): void {
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a === '--') return;
    const name = flagName(a);
    if (name === null) continue;
    if (known.has(name)) {
      if (takesValue.has(name) && !a.includes('=')) k++;
      continue;
    }
    // `--no-X` forms are suggested only for a flag spelt with `no-`.
    const candidates = [...known, ...defaultPassRegistry.names()].filter((n) => n.length > 1 && (!n.startsWith('no-') || name.startsWith('no-')));
    const near = nearMatches(name, candidates);
    const hint = near.length ? `; did you mean ${near.map((n) => `'--${n}'`).join(', ')}?` : '; see --help';
    throw new UserError(`unknown option '${a.replace(/=[\s\S]*$/, '')}'${hint}`);
  }
}

/**
 * The canonical pass names of a `--print-ir-after=a,b`-style list (aliases resolved); an
 * unknown name is an error naming the flag, with a suggestion.
 */
export function passNamesOf(flag: string, names: readonly string[]): string[] {
  return names.map((n) => {
    const pass = lookupPass(n);
    if (pass) return pass.name;
    const upstream = upstreamWithoutEquivalent(n);
    if (upstream) throw new UserError(`--${flag}=${n}: ${upstream}`);
    const near = nearMatches(n, defaultPassRegistry.names());
    throw new UserError(`--${flag}: '${n}' does not refer to a registered pass${near.length ? `; did you mean ${near.map((x) => `'${x}'`).join(', ')}?` : ''}`);
  });
}
