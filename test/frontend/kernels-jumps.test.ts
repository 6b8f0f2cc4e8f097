/**
 * The Triton-C examples with `continue` and an early `return` that the GPU cases run
 * (bench/gpu/continue_tc.py, return_tc.py), here in the interpreter on fresh random inputs against
 * plain-TS references: examples/triton-c/row-sums-continue.tc (rows past the end and unflagged rows
 * skipped) and scale-rows-return.tc (an extra program that must return before reading or storing).
 * Reproduce a failure with the TC_KERNEL_SEED the failure message prints.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Memory } from '../../tools/interpreter/memory.js';
import { compileExample, launch, randomMatrix, withSeed } from '../helpers/tc-kernels.js';

test('row-sums-continue.tc: T[p] sums the flagged rows of its ROWS rows; rows past M and unflagged rows are skipped', () => {
  withSeed('row-sums-continue', (random) => {
    const [M, N, ROWS, BLOCK] = [21, 70, 8, 32];
    const module = compileExample('row-sums-continue.tc', { BLOCK: String(BLOCK), ROWS: String(ROWS) });
    const mem = new Memory();
    const x = randomMatrix(mem, 'f32', M, N, N, 0, random, 'X');
    const flags = Array.from({ length: M }, (_, r) => (r === 0 ? 1 : r === M - 1 ? 0 : random() < 1 / 3 ? 0 : 1));
    const f = mem.alloc('i32', M, 'F').fill((k) => flags[k]);
    const programs = Math.ceil(M / ROWS);
    const t = mem.alloc('f32', programs, 'T').fill(() => NaN);
    launch('row-sums-continue', module, 'flagged_row_sums', [programs], [x.buffer, f, t, M, N, N], mem);
    const out = t.toNumbers();
    for (let p = 0; p < programs; p++) {
      let sum = 0;
      let mag = 0;
      for (let r = p * ROWS; r < Math.min(M, (p + 1) * ROWS); r++) {
        if (!flags[r]) continue;
        for (let c = 0; c < N; c++) {
          sum += x.values[r * N + c];
          mag += Math.abs(x.values[r * N + c]);
        }
      }
      assert.ok(Math.abs(out[p] - sum) <= 2 ** -20 * mag, `T[${p}] = ${out[p]}, expected ${sum}`);
    }
  });
});

test('scale-rows-return.tc: Y = diag(S) X; the extra program returns before reading S or storing a row', () => {
  withSeed('scale-rows-return', (random) => {
    const [M, N, BLOCK] = [5, 45, 64];
    const module = compileExample('scale-rows-return.tc', { BLOCK: String(BLOCK) });
    const mem = new Memory();
    const x = randomMatrix(mem, 'f32', M, N, N, 0, random, 'X');
    const s = randomMatrix(mem, 'f32', 1, M, M, 0, random, 'S');
    // Y has one spare row: a program for row M that did not return would store into it (or read S out of bounds).
    const y = mem.alloc('f32', (M + 1) * N, 'Y').fill(() => -7.25);
    launch('scale-rows-return', module, 'scale_rows', [M + 1], [x.buffer, s.buffer, y, M, N, N, N], mem);
    const out = y.toNumbers();
    for (let r = 0; r < M; r++)
      for (let c = 0; c < N; c++) assert.is(out[r * N + c], Math.fround(x.values[r * N + c] * s.values[r]), `Y[${r}][${c}]`);
    for (let k = M * N; k < (M + 1) * N; k++) assert.is(out[k], -7.25, `Y[${M}][${k - M * N}] (the extra program's row) must not be written`);
  });
});

test.run();
