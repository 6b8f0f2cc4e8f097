/**
 * The early-exit matmul (examples/triton-c/matmul-early-exit.tc: `break` makes its K loop an
 * scf.while, `continue` puts the dot under an scf.if, programs past the last row `return`) through
 * each pass of the default pipeline in turn: f32 (FMA) and f16 (mma.sync on sm_80, wgmma on
 * sm_90a). The CPU interpreter must give the same C bit for bit after every pass as the tt-level
 * kernel (its dots do not depend on layouts), with flags read from memory that stop some programs
 * early, skip tiles and leave others running to the end. After the pipeline, the loop holds no
 * layout conversion (the values it carries are in the layouts their uses need), and the module
 * lowers to PTX. The other two control-flow examples (row-sums-continue.tc: `continue` in a loop
 * carrying a tensor; scale-rows-return.tc: an early `return`) must keep their outputs through each
 * pass too. Reproduce a failure with the TC_KERNEL_SEED its message prints.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Operation } from '../../ir/ir.js';
import { registerAllPasses } from '../../passes/all.js';
import { lowerToNvptx } from '../../targets/nvptx/index.js';
import { Memory } from '../../tools/interpreter/memory.js';
import { type Random, checkEachPass, compileExample, launch, randomMatrix, roundTo, withSeed } from '../helpers/tc-kernels.js';

registerAllPasses();

/** One build of matmul-early-exit.tc. */
interface Build {
  type: 'float' | 'half';
  TM: number;
  TN: number;
  TK: number;
  warps: number;
  arch: 'sm_80' | 'sm_90a';
}

const SIZES = { M: 128, N: 64, K: 96 };

/** Flags for `programs` programs of `nk` K tiles: 1 stops (break), 2 skips (continue), 0 accumulates. */
function drawFlags(programs: number, nk: number, random: Random): number[] {
  const flags: number[] = [];
  for (let p = 0; p < programs; p++) {
    // Program 0 never stops, accumulates its tile 0 and skips its tile 1 (so that some tile of C is a
    // product whatever the draw: with 2 K tiles a random skip of tile 0 left C all zeros, seed
    // 450569220); program 1 stops at its tile 0; the others at random.
    const stop = p === 0 ? nk : p === 1 ? 0 : random() < 0.35 ? nk : Math.floor(random() * nk);
    for (let kt = 0; kt < nk; kt++) {
      const skip = random() < 0.25;
      if (kt < stop) flags.push(p === 0 && kt === 0 ? 0 : skip || (p === 0 && kt === 1) ? 2 : 0);
      else flags.push(kt === stop ? 1 : Math.floor(random() * 3));
    }
  }
  return flags;
}

/** Runs `module` on A (M x K), B (K x N) and the flags; returns C (with one extra row of programs, which must not write). */
function run(module: Operation, b: Build, a: number[], bv: number[], flags: number[], label: string): number[] {
  const { M, N, K } = SIZES;
  const elt = b.type === 'float' ? 'f32' : 'f16';
  const mem = new Memory();
  const A = mem.alloc(elt, M * K, 'A').fill(a);
  const B = mem.alloc(elt, K * N, 'B').fill(bv);
  const C = mem.alloc(elt, M * N, 'C').fill(() => -1);
  const F = mem.alloc('i32', flags.length, 'F').fill(flags);
  launch(label, module, 'dot', [M / b.TM + 1, N / b.TN], [A, B, C, F, M, N, K, K, N, N], mem);
  return C.toNumbers();
}

/** The ops inside `loop`'s regions named `name`. */
function opsIn(loop: Operation, name: string): number {
  let n = 0;
  for (const region of loop.regions) for (const block of region.blocks) for (const op of block) op.walk((o) => void (o.name === name && n++));
  return n;
}

function checkBuild(b: Build, random: Random): void {
  const { M, N, K } = SIZES;
  const elt = b.type === 'float' ? 'f32' : 'f16';
  const label = `matmul-early-exit.tc TYPE=${b.type} TM=${b.TM} TN=${b.TN} TK=${b.TK} ${b.arch}`;
  const defines = { TYPE: b.type, TM: String(b.TM), TN: String(b.TN), TK: String(b.TK) };
  const a = Array.from({ length: M * K }, () => roundTo(elt, random() * 2 - 1));
  const bv = Array.from({ length: K * N }, () => roundTo(elt, random() * 2 - 1));
  const flags = drawFlags((M / b.TM + 1) * (N / b.TN), K / b.TK, random);
  const reference = run(compileExample('matmul-early-exit.tc', defines), b, a, bv, flags, `${label} tt`);
  assert.ok(reference.some((v) => v !== -1) && reference.some((v) => v !== 0), `${label}: the kernel computes something`);
  const module = compileExample('matmul-early-exit.tc', defines);
  checkEachPass(label, module, `default{arch=${b.arch} num-warps=${b.warps}}`, reference, (m, what) => run(m, b, a, bv, flags, what));
  const loops: Operation[] = [];
  module.walk((op) => void (op.name === 'scf.while' && loops.push(op)));
  assert.is(loops.length, 1, `${label}: one scf.while`);
  assert.is(opsIn(loops[0], 'ttg.convert_layout'), 0, `${label}: no layout conversion in the loop`);
  assert.is(opsIn(loops[0], b.arch === 'sm_90a' && b.type === 'half' ? 'ttng.warp_group_dot' : 'tt.dot'), 1, `${label}: the dot`);
  lowerToNvptx(module, { arch: b.arch });
}

const BUILDS: Build[] = [
  { type: 'float', TM: 32, TN: 32, TK: 16, warps: 4, arch: 'sm_90a' },
  { type: 'half', TM: 64, TN: 32, TK: 32, warps: 4, arch: 'sm_90a' },
  { type: 'half', TM: 32, TN: 32, TK: 32, warps: 4, arch: 'sm_80' },
];

for (const b of BUILDS) {
  test(`matmul-early-exit.tc ${b.type} ${b.arch}: every pass of the default pipeline keeps C; no conversion left in the loop`, () => {
    withSeed(`early-exit-${b.type}-${b.arch}`, (random) => checkBuild(b, random));
  });
}

/** Runs `module` before any pass and after each pass of the default pipeline (sm_90a, 4 warps); `go` returns its outputs. */
function eachPassKeeps(label: string, module: Operation, go: (m: Operation, what: string) => number[]): void {
  checkEachPass(label, module, 'default{arch=sm_90a num-warps=4}', go(module, `${label} tt`), go);
  lowerToNvptx(module, { arch: 'sm_90a' });
}

test('row-sums-continue.tc and scale-rows-return.tc: every pass of the default pipeline keeps the outputs', () => {
  withSeed('early-exit-rows', (random) => {
    const [M, N, ROWS] = [21, 70, 8];
    const mem0 = new Memory();
    const x = randomMatrix(mem0, 'f32', M, N, N, 0, random, 'X').values;
    const flags = Array.from({ length: M }, () => (random() < 1 / 3 ? 0 : 1));
    const programs = Math.ceil(M / ROWS);
    eachPassKeeps('row-sums-continue.tc', compileExample('row-sums-continue.tc', { BLOCK: '32', ROWS: String(ROWS) }), (m, what) => {
      const mem = new Memory();
      const X = mem.alloc('f32', M * N, 'X').fill(x);
      const F = mem.alloc('i32', M, 'F').fill(flags);
      const T = mem.alloc('f32', programs, 'T').fill(() => NaN);
      launch(what, m, 'flagged_row_sums', [programs], [X, F, T, M, N, N], mem);
      return T.toNumbers();
    });
    const s = Array.from({ length: 5 }, () => random() * 2 - 1);
    eachPassKeeps('scale-rows-return.tc', compileExample('scale-rows-return.tc', { BLOCK: '64' }), (m, what) => {
      const mem = new Memory();
      const X = mem.alloc('f32', 5 * 45, 'X').fill(x.slice(0, 5 * 45));
      const S = mem.alloc('f32', 5, 'S').fill(s);
      const Y = mem.alloc('f32', 6 * 45, 'Y').fill(() => -7.25);
      launch(what, m, 'scale_rows', [6], [X, S, Y, 5, 45, 45, 45], mem);
      return Y.toNumbers();
    });
  });
});

test.run();
