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
import { registerAllDialects } from '../../dialects/index.js';
import { verify } from '../../ir/verifier.js';
import type { Operation } from '../../ir/ir.js';
import { printModule } from '../../ir/printer.js';
import { registerAllPasses } from '../../passes/all.js';
import { runPipeline } from '../../passes/manager.js';
import { parsePipeline } from '../../passes/pipeline-text.js';
import { parseDefines } from '../../frontend/triton-c/autotune.js';
import { compileExample, BASE_SEED } from '../helpers/tc-kernels.js';
import { type Layout, FUSED_TRANS, fusedTransOptions, runFusedTrans } from '../helpers/tc-matmul.js';

registerAllDialects();
registerAllPasses();

const { file: FILE, tile: TILE } = FUSED_TRANS;
const steps = parsePipeline('default').map((e) => e.pass.name);

/** Runs `module` on the inputs seeded by `seed`; returns C and how many elements miss the float64 product. */
const run = (module: Operation, a: Layout, b: Layout, seed: number): { c: number[]; wrong: number } =>
  runFusedTrans(module, 'f16', a, b, seed, `${a}${b}`);

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
