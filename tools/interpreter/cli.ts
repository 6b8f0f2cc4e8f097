/**
 * The `triton-run` command line: parses a module, allocates and fills buffers from `--arg`
 * specs (one per parameter but hidden tensor maps, which the interpreter builds from the others),
 * runs a kernel over a grid, and reports the buffers and `tt.print` output.
 *
 *   triton-run kernel.ttir|- --grid=4,1,1 --arg ptr:f32:1024:rand --arg ptr:f32:1024:rand
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
import { nonNegativeInt, parseCliArgs } from './cli-args.js';
import { DiagnosticError } from '../../ir/diagnostics.js';

registerAllDialects();
registerAllPasses();

/** What the CLI produced: text for stdout and an exit code. */
export interface CliResult {
  stdout: string;
  code: number;
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
    const b = mem.alloc(elt, nonNegativeInt(parts[2], `--arg ${spec}`), name);
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

/** The smallest and largest of `values` (a loop: spreading a large buffer into Math.min overflows the stack). */
export function minMax(values: readonly number[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const x of values) {
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  return [lo, hi];
}

/** min / max / mean / sum and the first values of a buffer. */
function summarize(b: Buffer, full: boolean): string {
  const v = b.toNumbers();
  const finite = v.filter(Number.isFinite);
  const sum = finite.reduce((a, x) => a + x, 0);
  const head = full ? v : v.slice(0, 8);
  const [lo, hi] = minMax(finite);
  const stats = finite.length
    ? `min ${fmt(lo)} max ${fmt(hi)} mean ${fmt(sum / finite.length)} sum ${fmt(sum)}`
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

/**
 * Runs the CLI on `argv` (without `node script`) with `read` to load the input file (`-`: stdin);
 * `--help` and `--version` are output with code 0.
 */
export function runCli(argv: readonly string[], read: (path: string) => string): CliResult {
  const out: string[] = [];
  let debug = false;
  try {
    const parsed = parseCliArgs(argv);
    if ('text' in parsed) return { stdout: parsed.text, code: 0 };
    const o = parsed.options;
    debug = o.debug;
    const { module } = parseText(read(o.file), {}, o.file === '-' ? '<stdin>' : o.file);
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
    if (debug && !(e instanceof DiagnosticError)) throw e;
    out.push(e instanceof DiagnosticError ? e.diagnostic.format() : `triton-run: ${e instanceof Error ? e.message : String(e)}`);
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
