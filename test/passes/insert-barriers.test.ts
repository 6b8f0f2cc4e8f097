/**
 * Unit tests of the `insert-barriers` pass: the lit file run in-process, the statistic,
 * scf.while back edges, conservative overlap without allocated offsets, and idempotence.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { insertBarriers } from '../../passes/insert-barriers.js';
import { litCheck, runPass } from '../helpers/pass-harness.js';

registerAllDialects();

const HEAD = `#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
`;
const M = '!ttg.memdesc<64xf32, #shared, #smem, mutable>';
const T = 'tensor<64xf32, #blocked>';

/** The function body lines of the pass output (without the module and aliases), trimmed. */
function body(src: string): { lines: string[]; count: number | undefined } {
  const { out, stats } = runPass(insertBarriers, HEAD + src + '\n}\n');
  const lines = out.split('\n').filter((l) => l.startsWith('    ')).map((l) => l.trim().split(' :')[0]);
  return { lines, count: stats.get('num-barriers') };
}

test('lit file', () => litCheck(insertBarriers));

test('different buffers without offsets are assumed to overlap', () => {
  const { lines, count } = body(`  tt.func @f(%x: ${T}) -> ${T} {
    %a = ttg.local_alloc : () -> ${M}
    %b = ttg.local_alloc : () -> ${M}
    ttg.local_store %x, %a : ${T} -> ${M}
    %v = ttg.local_load %b : ${M} -> ${T}
    tt.return %v : ${T}
  }`);
  assert.equal(lines, ['%a = ttg.local_alloc', '%b = ttg.local_alloc', 'ttg.local_store %x, %a', 'gpu.barrier', '%v = ttg.local_load %b', 'tt.return %v']);
  assert.is(count, 1);
});

test('scf.while: a write in the after region reaches a read in the before region', () => {
  const { lines, count } = body(`  tt.func @f(%x: ${T}, %c: i1) {
    %a = ttg.local_alloc : () -> ${M}
    scf.while : () -> () {
      %v = ttg.local_load %a : ${M} -> ${T}
      scf.condition(%c)
    } do {
      gpu.barrier
      ttg.local_store %x, %a : ${T} -> ${M}
      scf.yield
    }
    tt.return
  }`);
  assert.equal(lines, ['%a = ttg.local_alloc', 'scf.while', 'gpu.barrier', '%v = ttg.local_load %a', 'scf.condition(%c)', '} do {', 'gpu.barrier', 'ttg.local_store %x, %a', 'scf.yield', '}', 'tt.return']);
  assert.is(count, 1);
});

test('a convert_layout through shared memory without offsets races with any pending access (and is marked for its internal barrier)', () => {
  const { lines, count } = body(`  tt.func @f(%x: ${T}) {
    %a = ttg.local_alloc : () -> ${M}
    ttg.local_store %x, %a : ${T} -> ${M}
    %c = ttg.convert_layout %x : ${T} -> tensor<64xf32, #blocked1>
    %d = ttg.convert_layout %x : ${T} -> tensor<64xf32, #blocked1>
    tt.return
  }`);
  assert.equal(lines, ['%a = ttg.local_alloc', 'ttg.local_store %x, %a', 'gpu.barrier', '%c = ttg.convert_layout %x {ttg.scratch_sync}', 'gpu.barrier', '%d = ttg.convert_layout %x {ttg.scratch_sync}', 'tt.return']);
  assert.is(count, 2);
});

test('running twice adds nothing (inserted barriers are respected)', () => {
  const src = `tt.func @f(%x: ${T}, %lb: i32, %ub: i32) {
    %a = ttg.local_alloc : () -> ${M}
    scf.for %i = %lb to %ub step %lb : i32 {
      %v = ttg.local_load %a : ${M} -> ${T}
      ttg.local_store %x, %a : ${T} -> ${M}
    }
    tt.return
  }`;
  const once = runPass(insertBarriers, HEAD + src + '\n}\n');
  assert.is(once.stats.get('num-barriers'), 2);
  const twice = runPass(insertBarriers, once.out);
  assert.is(twice.out, once.out);
  assert.is(twice.stats.get('num-barriers'), undefined);
});

test.run();
