/**
 * The `triton-run` command line: parses a module, allocates and fills buffers from `--arg`
 * specs, runs a kernel over a grid, and reports the buffers and `tt.print` output.
 *
 *   triton-run kernel.ttir --grid=4,1,1 --arg ptr:f32:1024:rand --arg ptr:f32:1024:rand
 *              --arg ptr:f32:1024 --arg i32:1000 [--kernel=name] [--seed=1] [--print=summary|full|none]
 *              [--pipeline=canonicalize,cse]
 */
import { registerAllDialects } from '../../dialects/index.js';
import * as tt from '../../dialects/tt/index.js';
import { registerAllPasses } from '../../passes/all.js';
import type { Operation } from '../../ir/ir.js';
import { parseText } from '../../ir/parser.js';
import { verify } from '../../ir/verifier.js';
import { symbolNameOf } from '../../ir/function-syntax.js';
import { runPipeline } from '../../passes/manager.js';
import { type ArgValue, interpret } from './interpreter.js';
import { type Buffer, Memory, eltTypeByName } from './memory.js';

registerAllDialects();
registerAllPasses();

/** What the CLI produced: text for stdout and an exit code. */
export interface CliResult {
  stdout: string;
  code: number;
}

/** Parsed command-line options. */
interface CliOptions {
  file: string | null;
  kernel: string | null;
  grid: number[];
  args: string[];
  seed: number;
  print: 'summary' | 'full' | 'none';
  pipeline: string | null;
}

const USAGE = `usage: triton-run <file.ttir> --grid=X[,Y[,Z]] --arg SPEC... [--kernel=NAME] [--seed=N] [--print=summary|full|none] [--pipeline=PASSES]
  SPEC: ptr:<elt>:<count>[:<init>]   a new buffer (elt f16|bf16|f32|f64|i1|i8|i16|i32|i64;
                                     init zeros (default)|ones|rand|randint|arange|<number>)
        <type>:<value>               a scalar (i32:1000, f32:0.5, i64:-3, i1:1)`;

function parseArgs(argv: readonly string[]): CliOptions {
  const o: CliOptions = { file: null, kernel: null, grid: [1, 1, 1], args: [], seed: 1, print: 'summary', pipeline: null };
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const v = argv[++k];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--grid') o.grid = value().split(',').map((s) => positiveInt(s, '--grid'));
    else if (flag === '--arg') o.args.push(value());
    else if (flag === '--kernel') o.kernel = value();
    else if (flag === '--seed') o.seed = positiveInt(value(), '--seed');
    else if (flag === '--pipeline') o.pipeline = value();
    else if (flag === '--print') o.print = oneOf(value(), ['summary', 'full', 'none'] as const, '--print');
    else if (flag === '--help' || flag === '-h') throw new Error(USAGE);
    else if (flag.startsWith('-')) throw new Error(`unknown option '${flag}'\n${USAGE}`);
    else if (o.file === null) o.file = a;
    else throw new Error(`unexpected argument '${a}'`);
  }
  return o;
}

function positiveInt(s: string, what: string): number {
  const n = Number(s);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${what}: expected a non-negative integer, got '${s}'`);
  return n;
}

function oneOf<T extends string>(s: string, options: readonly T[], what: string): T {
  if (!(options as readonly string[]).includes(s)) throw new Error(`${what}: expected one of ${options.join(', ')}, got '${s}'`);
  return s as T;
}

/** A small deterministic PRNG (mulberry32) so runs are reproducible. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Builds a kernel argument from a spec, allocating a buffer for `ptr:` specs. */
function makeArg(spec: string, mem: Memory, name: string, random: () => number): ArgValue {
  const parts = spec.split(':');
  if (parts[0] === 'ptr') {
    if (parts.length < 3) throw new Error(`--arg ${spec}: expected ptr:<elt>:<count>[:<init>]`);
    const elt = eltTypeByName(parts[1]);
    const b = mem.alloc(elt, positiveInt(parts[2], `--arg ${spec}`), name);
    const init = parts.slice(3).join(':') || 'zeros';
    const isInt = parts[1].startsWith('i');
    const fill: Record<string, (k: number) => number> = {
      zeros: () => 0,
      ones: () => 1,
      rand: () => (isInt ? Math.floor(random() * 201) - 100 : random() * 2 - 1),
      randint: () => Math.floor(random() * 201) - 100,
      arange: (k) => k,
    };
    const f = fill[init] ?? (Number.isFinite(Number(init)) ? () => Number(init) : null);
    if (!f) throw new Error(`--arg ${spec}: unknown init '${init}' (zeros, ones, rand, randint, arange or a number)`);
    return b.fill(f);
  }
  if (parts.length !== 2) throw new Error(`--arg ${spec}: expected <type>:<value> or ptr:<elt>:<count>[:<init>]`);
  eltTypeByName(parts[0]);
  const v = parts[1];
  if (parts[0] === 'i64') return BigInt(v);
  const n = Number(v);
  if (!Number.isFinite(n) && !/^-?inf|nan$/i.test(v)) throw new Error(`--arg ${spec}: '${v}' is not a number`);
  return n;
}

/** min / max / mean / sum and the first values of a buffer. */
function summarize(b: Buffer, full: boolean): string {
  const v = b.toNumbers();
  const finite = v.filter(Number.isFinite);
  const sum = finite.reduce((a, x) => a + x, 0);
  const head = full ? v : v.slice(0, 8);
  const stats = finite.length
    ? `min ${fmt(Math.min(...finite))} max ${fmt(Math.max(...finite))} mean ${fmt(sum / finite.length)} sum ${fmt(sum)}`
    : 'no finite values';
  const nonFinite = v.length - finite.length ? ` (${v.length - finite.length} non-finite)` : '';
  return `${b.name}: ${b.elt}[${b.length}] ${stats}${nonFinite}\n  [${head.map(fmt).join(', ')}${full || v.length <= 8 ? '' : ', ...'}]`;
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toPrecision(6);
}

function kernelOf(module: Operation, name: string | null): string {
  const names: string[] = [];
  module.walk((op) => {
    if (tt.FuncOp.is(op)) names.push(symbolNameOf(op) ?? '');
  });
  if (name) return name;
  if (names.length === 0) throw new Error('no tt.func in the input');
  return names[0];
}

/** Runs the CLI on `argv` (without `node script`) with `read` to load the input file. */
export function runCli(argv: readonly string[], read: (path: string) => string): CliResult {
  const out: string[] = [];
  try {
    const o = parseArgs(argv);
    if (!o.file) throw new Error(USAGE);
    const { module } = parseText(read(o.file), {}, o.file);
    verify(module);
    if (o.pipeline) runPipeline(module, o.pipeline);
    const kernel = kernelOf(module, o.kernel);
    const mem = new Memory();
    const random = rng(o.seed);
    const fn = findFunc(module, kernel);
    const params = fn?.regions[0].entry?.args ?? [];
    const args = o.args.map((s, k) => makeArg(s, mem, params[k]?.nameHint ?? `arg${k}`, random));
    const before = mem.buffers.map((b) => b.storage.slice());
    const r = interpret(module, kernel, { grid: o.grid, args, memory: mem });
    out.push(`ran @${kernel} on grid (${[0, 1, 2].map((d) => o.grid[d] ?? 1).join(', ')}): ${r.opsExecuted} ops in ${r.ms.toFixed(1)} ms`);
    for (const line of r.prints) out.push(line);
    if (o.print !== 'none') {
      for (const b of mem.buffers) {
        const changed = b.storage.some((x: number | bigint, k: number) => x !== before[b.id][k]);
        out.push(`${changed ? '*' : ' '} ${summarize(b, o.print === 'full')}`);
      }
    }
    return { stdout: out.join('\n') + '\n', code: 0 };
  } catch (e) {
    out.push(`triton-run: ${e instanceof Error ? e.message : String(e)}`);
    return { stdout: out.join('\n') + '\n', code: 1 };
  }
}

function findFunc(module: Operation, name: string): Operation | null {
  let found: Operation | null = null;
  module.walk((op) => {
    if (tt.FuncOp.is(op) && symbolNameOf(op) === name) found = op;
  });
  return found;
}
