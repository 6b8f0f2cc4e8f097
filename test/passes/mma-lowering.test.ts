/**
 * The `mma-lowering` pass's transposed operands (`^a`, `^b` in the seeds' fused-transposition
 * matmul): the tile is stored as loaded and read through `ttg.memdesc_trans`. Checked on
 * matmul-fused-trans.tc in f16 for all four variants: each pass of the default pipeline keeps the
 * CPU interpreter's output bit for bit (the tt-level kernel is the reference, and is itself
 * checked against a float64 product), the transposed operands go through a transposed view, and
 * the pipeline pass then pipelines both loads (which it could not do with tt.trans in between).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import '../../dialects/index.js';
import { verify } from '../../ir/verifier.js';
import type { Operation } from '../../ir/ir.js';
import { printModule } from '../../ir/printer.js';
import '../../passes/all.js';
import { runPipeline } from '../../passes/manager.js';
import { parsePipeline } from '../../passes/pipeline-text.js';
import { NAMED_PIPELINES } from '../../passes/registry.js';
import { parseDefines } from '../../frontend/triton-c/autotune.js';
import { Memory } from '../../tools/interpreter/memory.js';
import { at, compileExample, launch, makeRandom, matmulRef, matmulTolerance, outputMatrix, randomMatrix, BASE_SEED } from '../helpers/tc-kernels.js';
import { type Layout, fusedTransOptions } from '../helpers/tc-matmul.js';

const FILE = 'matmul-fused-trans.tc';
const [M, N, K, PAD] = [64, 32, 48, 8];
const TILE = { TM: 32, TN: 32, TK: 16 };
const steps = parsePipeline(NAMED_PIPELINES.default).map((e) => e.pass.name);

/** Runs `module` on the inputs seeded by `seed` (A and B stored as `a`/`b` say); returns C and the float64 check's verdict. */
function run(module: Operation, a: Layout, b: Layout, seed: number): { c: number[]; wrong: number } {
  const random = makeRandom(seed);
  const mem = new Memory();
  // one K tile of NaN past each operand: the kernel's last prefetch reads it (and must not use it)
  const [aRows, aCols] = a === 'N' ? [M, K] : [K, M];
  const [bRows, bCols] = b === 'N' ? [K, N] : [N, K];
  const A = randomMatrix(mem, 'f16', aRows, aCols, aCols + PAD, (TILE.TK + 1) * (aCols + PAD), random, 'A');
  const B = randomMatrix(mem, 'f16', bRows, bCols, bCols + PAD, (TILE.TK + 1) * (bCols + PAD), random, 'B');
  const C = outputMatrix(mem, 'f16', M, N, N + PAD, -7.25, 'C');
  launch(`${FILE} ${a}${b}`, module, 'dot', [M / TILE.TM, N / TILE.TN], [A.buffer, B.buffer, C.buffer, M, N, K, A.ld, B.ld, C.ld], mem);
  const { ref, mag } = matmulRef(M, N, K, (i, k) => (a === 'N' ? at(A, i, k) : at(A, k, i)), (k, j) => (b === 'N' ? at(B, k, j) : at(B, j, k)));
  const c = Array.from({ length: M * (N + PAD) }, (_, k) => Number(C.buffer.get(k)));
  let wrong = 0;
  for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) if (!(Math.abs(c[i * (N + PAD) + j] - ref[i * N + j]) <= matmulTolerance('f16', K, ref[i * N + j], mag[i * N + j]))) wrong++;
  return { c, wrong };
}

const compile = (a: Layout, b: Layout): Operation =>
  compileExample(FILE, parseDefines([`-DTYPE=half -DTM=${TILE.TM} -DTN=${TILE.TN} -DTK=${TILE.TK} ${fusedTransOptions(a, b)}`]).fixed);

for (const [a, b] of [['T', 'N'], ['N', 'T'], ['T', 'T'], ['N', 'N']] as [Layout, Layout][]) {
  test(`${FILE} f16 ${a}${b}: every pass of the default pipeline keeps C (seed ${BASE_SEED}); transposed operands are read through memdesc_trans and pipelined`, () => {
    const reference = run(compile(a, b), a, b, BASE_SEED);
    assert.is(reference.wrong, 0, 'the tt-level kernel computes A x B');
    const module = compile(a, b);
    for (const pass of steps) {
      const r = runPipeline(module, pass);
      assert.ok(r.ok, `${pass}: ${r.diagnostics.map((d) => d.format()).join('\n')}`);
      verify(module);
      assert.equal(run(module, a, b, BASE_SEED).c, reference.c, `C changed after '${pass}' (seed ${BASE_SEED})`);
      const text = printModule(module);
      if (pass === 'mma-lowering') {
        const transposed = (a === 'T' ? 1 : 0) + (b === 'T' ? 1 : 0);
        assert.is(text.match(/ttg\.memdesc_trans/g)?.length ?? 0, transposed, 'one transposed view per transposed operand');
        assert.not.ok(text.includes('tt.trans'), 'no transposition left in registers');
      }
    }
    // num-stages=3: per load, two copies in the prologue and one in the loop
    const text = printModule(module);
    assert.is(text.match(/ttg\.async_copy_global_to_local/g)?.length, 6, 'both loads pipelined');
    assert.not.ok(/ttg\.local_alloc %/.test(text), 'no tile stored from registers');
  });
}

test.run();
