/**
 * Triton's layernorm forward (`_layer_norm_fwd_fused`, bench/gpu/kernels/layernorm.*.ttir) run in
 * the CPU interpreter on seeded random inputs, for tests that compare a kernel before and after passes.
 */
import type { Operation } from '../../ir/ir.js';
import { rng } from '../../tools/interpreter/cli.js';
import { interpret } from '../../tools/interpreter/interpreter.js';
import { Memory } from '../../tools/interpreter/memory.js';

/** Y, Mean and Rstd of `rows` rows of `cols` fp16 columns (row stride `stride`, default `cols`), inputs drawn from `seed`. */
export function interpretLayernorm(module: Operation, rows: number, cols: number, seed: number, stride = cols): number[][] {
  const random = rng(seed);
  const mem = new Memory();
  const x = mem.alloc('f16', rows * stride, 'x').fill(() => random() * 4 - 2);
  const y = mem.alloc('f16', rows * stride, 'y');
  const w = mem.alloc('f16', cols, 'w').fill(() => random() * 2 - 1);
  const b = mem.alloc('f16', cols, 'b').fill(() => random() * 2 - 1);
  const mean = mem.alloc('f32', rows, 'mean');
  const rstd = mem.alloc('f32', rows, 'rstd');
  interpret(module, '_layer_norm_fwd_fused', { grid: [rows, 1, 1], args: [x, y, w, b, mean, rstd, stride, cols, 1e-5], memory: mem });
  return [y.toNumbers(), mean.toNumbers(), rstd.toNumbers()];
}
