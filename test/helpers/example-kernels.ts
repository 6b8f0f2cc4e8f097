/**
 * Runs the real Triton dumps of `examples/ttir/` (add, softmax, matmul) in the CPU interpreter
 * on seeded random inputs, so tests can check that passes keep what a kernel computes.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { registerAllDialects } from '../../dialects/index.js';
import type { Operation } from '../../ir/ir.js';
import { parseText } from '../../ir/parser.js';
import { rng } from '../../tools/interpreter/cli.js';
import { interpret } from '../../tools/interpreter/interpreter.js';
import { Memory } from '../../tools/interpreter/memory.js';

registerAllDialects();

/** The folder of the bundled Triton dumps. */
export const EXAMPLES_DIR = new URL('../../examples/ttir/', import.meta.url);

/** The tt-level (`.ttir`) example file names. */
export function ttirExamples(): string[] {
  return readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.ttir')).sort();
}

/** Parses an example dump. */
export function loadExample(file: string): Operation {
  return parseText(readFileSync(new URL(file, EXAMPLES_DIR), 'utf8'), {}, file).module;
}

/** Runs the example kernel of `file` (add, softmax or matmul, by name) and returns its output buffers. */
export function runExample(file: string, module: Operation, seed: number): number[][] {
  const random = rng(seed);
  const mem = new Memory();
  if (file.startsWith('add')) {
    const n = 2500;
    const x = mem.alloc('f32', n, 'x').fill(() => random() * 2 - 1);
    const y = mem.alloc('f32', n, 'y').fill(() => random() * 2 - 1);
    const o = mem.alloc('f32', n, 'out');
    interpret(module, 'add_kernel', { grid: [3, 1, 1], args: [x, y, o, n], memory: mem });
    return [o.toNumbers()];
  }
  if (file.startsWith('softmax')) {
    const [rows, cols, stride] = [3, 700, 1040];
    const o = mem.alloc('f32', rows * stride, 'out');
    const x = mem.alloc('f32', rows * stride, 'in').fill(() => random() * 10 - 5);
    interpret(module, 'softmax_kernel', { grid: [2, 1, 1], args: [o, x, stride, stride, rows, cols], memory: mem });
    return [o.toNumbers()];
  }
  const [M, N, K] = [160, 256, 96];
  const a = mem.alloc('f16', M * K, 'a').fill(() => random() * 2 - 1);
  const b = mem.alloc('f16', K * N, 'b').fill(() => random() * 2 - 1);
  const c = mem.alloc('f16', M * N, 'c');
  interpret(module, 'matmul_kernel', { grid: [2, 1, 1], args: [a, b, c, M, N, K, K, N, N], memory: mem });
  return [c.toNumbers()];
}
