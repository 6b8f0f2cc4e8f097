/**
 * `unroll-loops` preserves what a kernel computes: Triton's layernorm (bench/gpu/kernels, BLOCK
 * 1024, three loops over a row's column blocks) in the CPU interpreter before and after unrolling by
 * 2 and 3, at column counts whose trip counts leave 0, 1 and 2 iterations to the remainder loop
 * (and a row shorter than a block), bit for bit; a loop marked `tt.loop_unroll_factor` alone is
 * unrolled by the default factor.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import type { Operation } from '../../ir/ir.js';
import { IntegerAttr } from '../../ir/attributes.js';
import { i } from '../../ir/types.js';
import { parseText } from '../../ir/parser.js';
import { verify } from '../../ir/verifier.js';
import { registerAllPasses } from '../../passes/all.js';
import { runPipeline } from '../../passes/manager.js';
import { interpretLayernorm } from '../helpers/layernorm-run.js';
import { LOOP_UNROLL_FACTOR } from '../../dialects/tt/hints.js';

registerAllDialects();
registerAllPasses();

const SOURCE = readFileSync(new URL('../../bench/gpu/kernels/layernorm.b1024w8.odd.ttir', import.meta.url), 'utf8');

const load = (): Operation => parseText(SOURCE, {}, 'layernorm.ttir').module;

/** The module after `pipeline` (verified). */
function after(pipeline: string, mark?: number): Operation {
  const module = load();
  if (mark !== undefined) module.walk((op) => void (op.name === 'scf.for' && op.setAttr(LOOP_UNROLL_FACTOR, IntegerAttr.get(mark, i(32)))));
  const r = runPipeline(module, pipeline);
  assert.ok(r.ok, r.diagnostics.map((d) => d.format()).join('\n'));
  verify(module);
  return module;
}

/** Y, Mean and Rstd of `rows` rows of `cols` columns (row stride `cols + 3`) on inputs seeded by `cols`. */
const layernorm = (module: Operation, rows: number, cols: number): number[][] => interpretLayernorm(module, rows, cols, cols, cols + 3);

const countLoops = (m: Operation): number => {
  let n = 0;
  m.walk((op) => void (op.name === 'scf.for' && n++));
  return n;
};

test('unrolled by 2 and 3: the same Y, Mean and Rstd at 1 to 5 blocks per row, and at a row shorter than a block', () => {
  const reference = load();
  const by2 = after('unroll-loops{factor=2}');
  const by3 = after('unroll-loops{factor=3}');
  assert.is(countLoops(reference), 3);
  assert.is(countLoops(by2), 6, 'each loop: the unrolled loop and the original for the rest');
  assert.is(countLoops(by3), 6);
  for (const cols of [300, 1024, 2048, 3000, 4100, 5000]) {
    const want = layernorm(reference, 2, cols);
    assert.ok(want[1].some((v) => v !== 0), `${cols}: the reference computed nothing`);
    assert.equal(layernorm(by2, 2, cols), want, `${cols} columns, factor 2`);
    assert.equal(layernorm(by3, 2, cols), want, `${cols} columns, factor 3`);
  }
});

test('by default only loops marked tt.loop_unroll_factor unroll, by their factor', () => {
  assert.is(countLoops(after('unroll-loops')), 3, 'no loop is marked: none unrolled');
  const marked = after('unroll-loops', 4);
  assert.is(countLoops(marked), 6);
  let left = 0;
  marked.walk((op) => void (op.getAttr(LOOP_UNROLL_FACTOR) && left++));
  assert.is(left, 0, 'the attribute is dropped once the loop is unrolled');
  assert.equal(layernorm(marked, 2, 5000), layernorm(load(), 2, 5000));
  assert.is(countLoops(after('unroll-loops', 1)), 3, 'a factor of 1 leaves the loop');
});

test.run();
