/**
 * The `mma-lowering` pass on f32 dots that ask for tf32 (`--allow-tf32`): matmul-fused-trans.tc
 * in f32 for all four operand layouts. The tt-level kernel is the reference (checked against a
 * float64 product); each pass of the default pipeline keeps the CPU interpreter's C bit for bit
 * (the interpreter's tt.dot does not depend on layouts), the dot goes to the mma layout with
 * kWidth-1 operands, and transposed operands are read through ttg.memdesc_trans. Without
 * --allow-tf32 the same kernel stays on the FMA path.
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
  runFusedTrans(module, 'f32', a, b, seed, `f32 tf32 ${a}${b}`);

const compile = (a: Layout, b: Layout, allowTf32: boolean): Operation =>
  compileExample(FILE, parseDefines([`-DTYPE=float -DTM=${TILE.TM} -DTN=${TILE.TN} -DTK=${TILE.TK} ${fusedTransOptions(a, b)}`]).fixed, { allowTf32 });

for (const [a, b] of [['N', 'N'], ['T', 'N'], ['N', 'T'], ['T', 'T']] as [Layout, Layout][]) {
  test(`${FILE} f32 --allow-tf32 ${a}${b}: every pass of the default pipeline keeps C (seed ${BASE_SEED}); the dot is on mma with kWidth-1 operands`, () => {
    const reference = run(compile(a, b, true), a, b, BASE_SEED);
    assert.is(reference.wrong, 0, 'the tt-level kernel computes A x B');
    const module = compile(a, b, true);
    assert.ok(printModule(module).includes('inputPrecision = tf32'), 'the frontend asks for tf32');
    for (const pass of steps) {
      const r = runPipeline(module, pass);
      assert.ok(r.ok, `${pass}: ${r.diagnostics.map((d) => d.format()).join('\n')}`);
      verify(module);
      assert.equal(run(module, a, b, BASE_SEED).c, reference.c, `C changed after '${pass}' (seed ${BASE_SEED})`);
      if (pass === 'mma-lowering') {
        const text = printModule(module);
        assert.ok(/tt\.dot .*inputPrecision = tf32 : tensor<32x16xf32, #ttg\.dot_op<\{opIdx = 0, parent = #mma, kWidth = 1\}>> \* tensor<16x32xf32, #ttg\.dot_op<\{opIdx = 1, parent = #mma, kWidth = 1\}>> -> tensor<32x32xf32, #mma>/.test(text), text);
        assert.is(text.match(/ttg\.memdesc_trans/g)?.length ?? 0, (a === 'T' ? 1 : 0) + (b === 'T' ? 1 : 0), 'one transposed view per transposed operand');
      }
    }
    const text = printModule(module);
    assert.is(text.match(/ttg\.async_copy_global_to_local/g)?.length, 6, 'both loads pipelined');
  });
}

test(`${FILE} f32 without --allow-tf32: the dot stays on the FMA path`, () => {
  const module = compile('N', 'N', false);
  const r = runPipeline(module, 'convert-to-gpu,mma-lowering');
  assert.ok(r.ok);
  const text = printModule(module);
  assert.not.ok(text.includes('nvidia_mma'), 'no mma layout');
  assert.not.ok(text.includes('tf32'), 'no tf32 anywhere');
});

test.run();
