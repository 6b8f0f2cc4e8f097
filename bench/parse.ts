/**
 * `npm run bench:parse`: parse + verify + print of a generated module with 200,000 arith ops
 * in one function. Prints times, ops/second and peak memory; when mlir-opt is installed, times
 * it on the same file for comparison. A script that prints figures, not a pass/fail test.
 *
 * Usage: node --max-semi-space-size=16 dist/bench/parse.js [--ops N] [--runs R] [--keep]
 * (the flag is the one the CLIs' shebang passes; `npm run bench:parse` adds it).
 */


import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerAllDialects } from '../dialects/index.js';
import { SourceFile } from '../ir/diagnostics.js';
import { parseSourceFile } from '../ir/parser.js';
import { printModule } from '../ir/printer.js';
import { verify } from '../ir/verifier.js';

registerAllDialects();

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

function arg(name: string, dflt: number): number {
  const k = process.argv.indexOf(name);
  return k >= 0 ? Number(process.argv[k + 1]) : dflt;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function main(): void {
  const n = arg('--ops', 200_000);
  const runs = arg('--runs', 3);
  const text = generateModule(n);
  const dir = mkdtempSync(join(tmpdir(), 'tir-bench-'));
  const file = join(dir, 'bench.mlir');
  writeFileSync(file, text);
  const times = { parse: [] as number[], verify: [] as number[], print: [] as number[], total: [] as number[] };
  let ops = 0;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const parsed = parseSourceFile(new SourceFile(file, text));
    const t1 = performance.now();
    verify(parsed.module);
    const t2 = performance.now();
    const out = printModule(parsed.module);
    const t3 = performance.now();
    ops = out.split('\n').length;
    times.parse.push(t1 - t0);
    times.verify.push(t2 - t1);
    times.print.push(t3 - t2);
    times.total.push(t3 - t0);
  }
  const total = median(times.total);
  const peakMB = process.resourceUsage().maxRSS / 1024;
  console.log(`module: ${n} ops in one function (${(text.length / 1e6).toFixed(1)} MB of text, ${ops} printed lines)`);
  console.log(`triton-ir  parse ${median(times.parse).toFixed(0)} ms, verify ${median(times.verify).toFixed(0)} ms, print ${median(times.print).toFixed(0)} ms`);
  console.log(`triton-ir  total ${total.toFixed(0)} ms (median of ${runs}), ${((n / total) * 1000).toFixed(0)} ops/s, peak RSS ${peakMB.toFixed(0)} MB`);
  // The first run is the one a whole `triton-opt` process makes: code not yet optimized, heap still small.
  console.log(`triton-ir  first run: parse ${times.parse[0].toFixed(0)} ms, verify ${times.verify[0].toFixed(0)} ms, print ${times.print[0].toFixed(0)} ms, total ${times.total[0].toFixed(0)} ms`);
  // Whole processes, ours and mlir-opt's alternating (the machine's load drifts between runs).
  const cli = join(dirname(fileURLToPath(import.meta.url)), '../bin/triton-opt.mjs');
  const mlirOpt = ['/usr/lib/llvm-19/bin/mlir-opt', '/usr/bin/mlir-opt'].find(existsSync);
  const timed = (command: string, args: string[]): number => {
    const t0 = performance.now();
    execFileSync(command, args);
    return performance.now() - t0;
  };
  const ct: number[] = [];
  const mt: number[] = [];
  for (let r = 0; r < runs; r++) {
    ct.push(timed(process.execPath, ['--max-semi-space-size=16', cli, file, '-o', join(dir, 'ours.mlir')]));
    if (mlirOpt) mt.push(timed(mlirOpt, [file, '-o', join(dir, 'out.mlir')]));
  }
  console.log(`triton-opt total ${median(ct).toFixed(0)} ms (median of ${runs}, whole process incl. startup, as for mlir-opt below)`);
  if (mlirOpt) console.log(`mlir-opt   total ${median(mt).toFixed(0)} ms (median of ${runs}, whole process incl. startup, alternating with triton-opt)`);
  else console.log('mlir-opt   not installed; no comparison');
  if (process.argv.includes('--keep')) console.log(`kept ${file}`);
  else rmSync(dir, { recursive: true, force: true });
}

if (process.argv[1]?.endsWith("parse.js")) main();
