/**
 * `npm run bench:parse`: parse + verify + print, as whole `triton-opt FILE -o OUT` processes next to
 * `mlir-opt FILE -o OUT` (when mlir-opt 19 is installed), on every shape of issue 18's table:
 *
 *   startup      `module {}` (one op): start-up alone
 *   chain-20k    one function of 20,000 arith ops (also 200k and 1M): `generateModule`
 *   funcs-20k    20,000 functions of 10 ops each (200,000 ops in all): `generateFunctions`
 *   ttgir-200k   Triton 3.6's matmul TTGIR (examples/ttir/matmul_kernel.sm90.ttgir, with its
 *                locations) replicated to 200,000 ops; ours reads the custom form, mlir-opt (which
 *                has no Triton dialects) our generic print of it with --allow-unregistered-dialect
 *   cse-200k     `canonicalize,cse` on chain-200k
 *
 * Each row: median wall time of `--runs` runs (3) of each tool, the two alternating (the machine's
 * load drifts), the ratio ours / mlir-opt, and each one's peak RSS (GNU time's %M, when
 * /usr/bin/time exists). Then, for chain-200k, the in-process split into parse / verify / print.
 * A script that prints figures, not a pass/fail test; it leaves no files unless --keep.
 *
 * Usage: node --max-semi-space-size=16 dist/bench/parse.js [--runs R] [--only NAME[,NAME]] [--keep]
 * (the flag is the one the CLIs' shebang passes; `npm run bench:parse` adds it).
 */
import { spawnSync } from 'node:child_process';
import { TOOL_ENV, toolEnvNote } from './tool-env.js';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerAllDialects } from '../dialects/index.js';
import { SourceFile } from '../ir/diagnostics.js';
import { parseSourceFile } from '../ir/parser.js';
import { printModule } from '../ir/printer.js';
import { verify } from '../ir/verifier.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TRITON_OPT = join(ROOT, 'dist', 'bin', 'triton-opt.cjs');
const TTGIR = join(ROOT, 'examples', 'ttir', 'matmul_kernel.sm90.ttgir');

const INT_OPS = ['addi', 'subi', 'muli', 'andi', 'ori', 'xori', 'maxsi', 'minsi'];
const FLOAT_OPS = ['addf', 'subf', 'mulf', 'maximumf'];

/** Generates a function of `n` arith ops in upstream syntax, using a mix of i32 and f32 ops and constants. */
export function generateModule(n: number): string {
  const lines: string[] = ['func.func @bench(%a: i32, %b: i32, %x: f32, %y: f32) -> (i32, f32) {'];
  const ints = ['%a', '%b'];
  const floats = ['%x', '%y'];
  let seed = 12345;
  const rand = (k: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % k;
  };
  for (let k = 0; k < n; k++) {
    const pick = (pool: string[]) => pool[pool.length - 1 - rand(Math.min(pool.length, 8))];
    const name = `%v${k}`;
    const kind = k % 10;
    if (kind === 0) {
      lines.push(`  ${name} = arith.constant ${k} : i32`);
      ints.push(name);
    } else if (kind < 7) {
      lines.push(`  ${name} = arith.${INT_OPS[rand(INT_OPS.length)]} ${pick(ints)}, ${pick(ints)} : i32`);
      ints.push(name);
    } else if (kind === 7) {
      lines.push(`  ${name} = arith.cmpi slt, ${pick(ints)}, ${pick(ints)} : i32`);
      lines.push(`  ${name}s = arith.select ${name}, ${pick(ints)}, ${pick(ints)} : i32`);
      ints.push(`${name}s`);
      k++;
    } else {
      lines.push(`  ${name} = arith.${FLOAT_OPS[rand(FLOAT_OPS.length)]} ${pick(floats)}, ${pick(floats)} : f32`);
      floats.push(name);
    }
  }
  lines.push(`  return ${ints[ints.length - 1]}, ${floats[floats.length - 1]} : i32, f32`, '}', '');
  return lines.join('\n');
}

/** Generates `n` functions of 10 ops each (9 arith ops and a return), each with its own constant. */
export function generateFunctions(n: number): string {
  const lines: string[] = [];
  for (let f = 0; f < n; f++) {
    lines.push(
      `func.func @f${f}(%a: i32, %b: i32) -> i32 {`,
      '  %0 = arith.addi %a, %b : i32',
      '  %1 = arith.muli %0, %a : i32',
      `  %c = arith.constant ${f} : i32`,
      '  %2 = arith.subi %1, %c : i32',
      '  %3 = arith.cmpi slt, %2, %b : i32',
      '  %4 = arith.select %3, %2, %1 : i32',
      '  %5 = arith.xori %4, %0 : i32',
      '  %6 = arith.maxsi %5, %a : i32',
      '  %7 = arith.andi %6, %b : i32',
      '  return %7 : i32',
      '}',
    );
  }
  lines.push('');
  return lines.join('\n');
}

/**
 * `text` (a module whose first `tt.func` is one kernel) with that function repeated under fresh
 * names until the module holds at least `ops` ops; the aliases and locations are shared.
 */
export function replicateKernel(text: string, ops: number): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^ {2}tt\.func /.test(l));
  let end = start + 1;
  while (end < lines.length && !lines[end].startsWith('  }')) end++;
  if (start < 0 || end >= lines.length) throw new Error('replicateKernel: no tt.func found');
  const fn = lines.slice(start, end + 1).join('\n');
  const perCopy = lines.slice(start, end + 1).filter((l) => /^\s+(%\S+ = )?"?[a-z_]+\.[a-z_.]+/.test(l)).length + 1;
  const name = /@([\w$.]+)/.exec(fn)![1];
  const copies = Math.ceil(ops / perCopy);
  const body: string[] = [];
  for (let k = 0; k < copies; k++) body.push(fn.replace(`@${name}(`, `@${name}_${k}(`));
  return [...lines.slice(0, start), ...body, ...lines.slice(end + 1)].join('\n');
}

function arg(name: string): string | undefined {
  const k = process.argv.indexOf(name);
  return k >= 0 ? process.argv[k + 1] : undefined;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** One row of the table: the files each tool reads and the extra arguments each gets. */
interface Shape {
  name: string;
  what: string;
  ours: { file: string; args: string[] };
  mlir: { file: string; args: string[] };
}

const GNU_TIME = '/usr/bin/time';

/** Wall seconds and peak RSS (MB, NaN without GNU time) of one process; throws with its stderr when it fails. */
function timed(command: string, args: string[]): { s: number; mb: number } {
  const useTime = existsSync(GNU_TIME);
  const argv = useTime ? ['-f', '%M', command, ...args] : args;
  const t0 = performance.now();
  const r = spawnSync(useTime ? GNU_TIME : command, argv, { encoding: 'utf8', maxBuffer: 1 << 28, env: TOOL_ENV });
  const s = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${r.stderr}`);
  const kb = useTime ? Number(r.stderr.trim().split('\n').pop()) : NaN;
  return { s, mb: kb / 1024 };
}

/** The in-process split of one module into parse, verify and print (median of `runs`, and the first run). */
function phases(file: string, text: string, runs: number): void {
  const times = { parse: [] as number[], verify: [] as number[], print: [] as number[], total: [] as number[] };
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const parsed = parseSourceFile(new SourceFile(file, text));
    const t1 = performance.now();
    verify(parsed.module);
    const t2 = performance.now();
    printModule(parsed.module);
    const t3 = performance.now();
    times.parse.push(t1 - t0);
    times.verify.push(t2 - t1);
    times.print.push(t3 - t2);
    times.total.push(t3 - t0);
  }
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  console.log(`in process, chain-200k (median of ${runs}): parse ${ms(median(times.parse))}, verify ${ms(median(times.verify))}, print ${ms(median(times.print))}, total ${ms(median(times.total))}`);
  console.log(`in process, chain-200k, first run (what one triton-opt process does): total ${ms(times.total[0])}`);
}

function main(): void {
  const runs = Number(arg('--runs') ?? 3);
  const only = arg('--only')?.split(',');
  const dir = mkdtempSync(join(tmpdir(), 'tir-bench-'));
  const mlirOpt = ['/usr/lib/llvm-19/bin/mlir-opt', '/usr/bin/mlir-opt-19', '/usr/bin/mlir-opt'].find(existsSync);
  const write = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const plain = (name: string, what: string, file: string, args: string[] = []): Shape => ({ name, what, ours: { file, args }, mlir: { file, args } });
  const wanted = (name: string) => !only || only.includes(name);

  const shapes: Shape[] = [];
  if (wanted('startup')) shapes.push(plain('startup', '`module {}`', write('empty.mlir', 'module {}\n')));
  const chain200k = generateModule(200_000);
  for (const [name, n] of [['chain-20k', 20_000], ['chain-200k', 200_000], ['chain-1m', 1_000_000]] as const)
    if (wanted(name)) shapes.push(plain(name, `one function of ${n.toLocaleString('en')} ops`, write(`${name}.mlir`, n === 200_000 ? chain200k : generateModule(n))));
  if (wanted('funcs-20k')) shapes.push(plain('funcs-20k', '20,000 functions of 10 ops', write('funcs-20k.mlir', generateFunctions(20_000))));
  if (wanted('ttgir-200k')) {
    const custom = write('ttgir-200k.ttgir', replicateKernel(readFileSync(TTGIR, 'utf8'), 200_000));
    const generic = join(dir, 'ttgir-200k.generic.mlir');
    const r = spawnSync(TRITON_OPT, [custom, '--print-op-generic', '--print-debuginfo', '-o', generic], { encoding: 'utf8', env: TOOL_ENV });
    if (r.status !== 0) throw new Error(`could not write the generic form:\n${r.stderr}`);
    shapes.push({
      name: 'ttgir-200k',
      what: "Triton's matmul TTGIR, repeated (ours: custom form; mlir-opt: its generic form)",
      ours: { file: custom, args: [] },
      mlir: { file: generic, args: ['--allow-unregistered-dialect'] },
    });
  }
  if (wanted('cse-200k')) {
    const file = existsSync(join(dir, 'chain-200k.mlir')) ? join(dir, 'chain-200k.mlir') : write('chain-200k.mlir', chain200k);
    shapes.push(plain('cse-200k', '`canonicalize,cse` on chain-200k', file, ['--pass-pipeline=builtin.module(canonicalize,cse)']));
  }

  console.log(`${runs} runs of each, alternating; wall time is the median, peak RSS the largest (GNU time ${existsSync(GNU_TIME) ? '%M' : 'not installed'})`);
  console.log(mlirOpt ? `mlir-opt: ${mlirOpt}` : 'mlir-opt: not installed (apt-get install mlir-19-tools); ours only');
  const envNote = toolEnvNote();
  if (envNote) console.log(envNote);
  console.log('');
  console.log('| shape | what | ours s | mlir-opt s | ratio | ours MB | mlir-opt MB |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
  for (const shape of shapes) {
    const ours: number[] = [];
    const theirs: number[] = [];
    let oursMb = 0;
    let theirsMb = 0;
    for (let r = 0; r < runs; r++) {
      const o = timed(TRITON_OPT, [shape.ours.file, ...shape.ours.args, '-o', join(dir, 'out.ours')]);
      ours.push(o.s);
      oursMb = Math.max(oursMb, o.mb);
      if (!mlirOpt) continue;
      const m = timed(mlirOpt, [shape.mlir.file, ...shape.mlir.args, '-o', join(dir, 'out.mlir')]);
      theirs.push(m.s);
      theirsMb = Math.max(theirsMb, m.mb);
    }
    const o = median(ours);
    const m = mlirOpt ? median(theirs) : NaN;
    const cell = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
    console.log(`| ${shape.name} | ${shape.what} | ${cell(o, 3)} | ${cell(m, 3)} | ${cell(o / m, 2)} | ${cell(oursMb, 0)} | ${cell(theirsMb, 0)} |`);
  }
  if (wanted('chain-200k')) {
    console.log('');
    phases(join(dir, 'chain-200k.mlir'), chain200k, Math.max(3, runs));
  }
  if (process.argv.includes('--keep')) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}

if (process.argv[1]?.endsWith('parse.js')) {
  registerAllDialects();
  main();
}
