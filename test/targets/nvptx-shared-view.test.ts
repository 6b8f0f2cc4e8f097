/**
 * The target's shared-memory data movement for mma operands, emulated thread by thread
 * (test/helpers/nvptx-emulator.ts): a tile is loaded from global memory, stored to shared memory
 * (`ttg.local_alloc`), read into an mma `#ttg.dot_op` with ldmatrix, directly or through a
 * `ttg.memdesc_trans` view, then converted to a blocked layout and stored. Each element must
 * arrive where the IR says: out[i][j] = X[i][j] directly, X[j][i] through the view. Run with the
 * unswizzled encodings as written, with the swizzle pad-shared picks, and with `#ttg.padded_shared`
 * tiles: 16 bytes after each row (still read with ldmatrix) and 2 bytes (read with ld.shared).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { StringAttr } from '../../ir/attributes.js';
import type { Operation } from '../../ir/ir.js';
import { registerAllPasses } from '../../passes/all.js';
import { emulateKernel } from '../helpers/nvptx-emulator.js';
import { lowerForEmulation } from '../helpers/nvptx-lowered.js';
import { rowMajorPointers } from '../helpers/ttg-pointers.js';

registerAllDialects();
registerAllPasses();

interface Case {
  /** Shape of the tile in global and shared memory (row-major). */
  rows: number;
  cols: number;
  opIdx: 0 | 1;
  /** Read through ttg.memdesc_trans (the operand is the transposed tile). */
  view: boolean;
}

/** The kernel of `c`: load X (rows x cols), stash, read as the operand, store it row-major; `padding` (halves after each row) makes the tile padded_shared. */
function kernel(c: Case, padding = 0): string {
  const [R, C] = [c.rows, c.cols];
  const [OR, OC] = c.view ? [C, R] : [R, C];
  const dot = `#ttg.dot_op<{opIdx = ${c.opIdx}, parent = #mma, kWidth = 2}>`;
  const read = c.view
    ? `%t = ttg.memdesc_trans %s {order = array<i32: 1, 0>} : !ttg.memdesc<${R}x${C}xf16, #shared, #smem> -> !ttg.memdesc<${OR}x${OC}xf16, #shared1, #smem>
    %y = ttg.local_load %t : !ttg.memdesc<${OR}x${OC}xf16, #shared1, #smem> -> tensor<${OR}x${OC}xf16, ${dot}>`
    : `%y = ttg.local_load %s : !ttg.memdesc<${R}x${C}xf16, #shared, #smem> -> tensor<${OR}x${OC}xf16, ${dot}>`;
  return `#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [${32 / (C / 8)}, ${C / 8}], warpsPerCTA = [4, 1], order = [1, 0]}>
#out = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
${padding ? `#shared = #ttg.padded_shared<[${C}:+${padding}] {order = [1, 0], shape = [${R}, ${C}]}>
#shared1 = #ttg.padded_shared<[${C}:+${padding}] {order = [0, 1], shape = [${C}, ${R}]}>` : `#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>`}
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {${rowMajorPointers('pa', 'a', R, C, '#blocked')}
    %x = tt.load %pa : tensor<${R}x${C}x!tt.ptr<f16>, #blocked>
    %s = ttg.local_alloc %x : (tensor<${R}x${C}xf16, #blocked>) -> !ttg.memdesc<${R}x${C}xf16, #shared, #smem>
    ${read}
    %z = ttg.convert_layout %y : tensor<${OR}x${OC}xf16, ${dot}> -> tensor<${OR}x${OC}xf16, #out>${rowMajorPointers('pc', 'c', OR, OC, '#out')}
    tt.store %pc, %z : tensor<${OR}x${OC}x!tt.ptr<f16>, #out>
    tt.return
  }
}
`;
}

/** Lowers `c`'s kernel after `passes` and emulates it; returns out (row-major) and the module text. */
function run(c: Case, passes: string, tamper?: (op: Operation) => void, padding = 0): { out: number[]; ir: string; ldmatrix: string[] } {
  const { module, ir, fn, ptx: ldmatrix } = lowerForEmulation(kernel(c, padding), passes, 'nvptx.ldmatrix', tamper);
  const n = c.rows * c.cols;
  const [A, C] = [4096, 4096 + 2 * n];
  const global = new Map<number, number>();
  // X[i][j] = i * cols + j + 1 (distinct, nonzero 16-bit patterns)
  for (let k = 0; k < n; k++) global.set(A + 2 * k, k + 1);
  const shared = new DataView(new ArrayBuffer(Math.max(16, Number((module.getAttr('ttg.shared') as { value?: bigint } | undefined)?.value ?? 0))));
  emulateKernel(fn, 128, [A, C], { global, shared });
  return { out: Array.from({ length: n }, (_, k) => global.get(C + 2 * k) ?? -1), ir, ldmatrix };
}

/** What `c` must store: X itself, or X transposed through the view. */
function expected(c: Case): number[] {
  const [OR, OC] = c.view ? [c.cols, c.rows] : [c.rows, c.cols];
  const out: number[] = [];
  for (let i = 0; i < OR; i++) for (let j = 0; j < OC; j++) out.push((c.view ? j * c.cols + i : i * c.cols + j) + 1);
  return out;
}

const CASES: [string, Case, string][] = [
  ['A read directly (K contiguous: plain ldmatrix)', { rows: 64, cols: 32, opIdx: 0, view: false }, 'x4.shared'],
  ['B read directly (N contiguous: ldmatrix.trans)', { rows: 32, cols: 64, opIdx: 1, view: false }, 'x4.trans.shared'],
  ['A^T through memdesc_trans (M contiguous: ldmatrix.trans)', { rows: 32, cols: 64, opIdx: 0, view: true }, 'x4.trans.shared'],
  ['B^T through memdesc_trans (K contiguous: plain ldmatrix)', { rows: 64, cols: 32, opIdx: 1, view: true }, 'x4.shared'],
];

for (const [name, c, form] of CASES) {
  for (const passes of ['alloc-shared,insert-barriers', 'pad-shared,alloc-shared,insert-barriers']) {
    test(`${name}, ${passes.startsWith('pad') ? 'swizzled by pad-shared' : 'unswizzled'}: every element lands where the IR says`, () => {
      const { out, ir, ldmatrix } = run(c, passes);
      assert.ok(ldmatrix.length > 0 && ldmatrix.every((p) => p === `sync.aligned.m8n8.${form}.b16`), `ldmatrix forms: ${ldmatrix.join(', ')}`);
      if (passes.startsWith('pad')) assert.ok(/vec = 8, perPhase = \d, maxPhase = \d/.test(ir), 'pad-shared swizzled the tile');
      assert.equal(out, expected(c));
    });
  }
}

for (const [name, c, form] of CASES) {
  test(`${name}, padded_shared with 16 bytes after each row: ldmatrix, every element where the IR says`, () => {
    const { out, ir, ldmatrix } = run(c, 'alloc-shared,insert-barriers', undefined, 8);
    assert.match(ir, `#ttg.padded_shared<[${c.cols}:+8]`);
    assert.ok(ldmatrix.length > 0 && ldmatrix.every((p) => p === `sync.aligned.m8n8.${form}.b16`), `ldmatrix forms: ${ldmatrix.join(', ')}`);
    assert.equal(out, expected(c));
  });
  test(`${name}, padded_shared with 2 bytes after each row: no ldmatrix (misaligned rows), every element where the IR says`, () => {
    const { out, ldmatrix } = run(c, 'alloc-shared,insert-barriers', undefined, 1);
    assert.equal(ldmatrix, []);
    assert.equal(out, expected(c));
  });
}

test('the check can fail: the view kernel with its ldmatrix .trans dropped stores something else', () => {
  const c: Case = { rows: 32, cols: 64, opIdx: 0, view: true };
  const { out } = run(c, 'pad-shared,alloc-shared,insert-barriers', (op) => {
    if (op.name === 'nvptx.ldmatrix') op.setAttr('ptx', StringAttr.get((op.getAttr('ptx') as StringAttr).value.replace('.trans', '')));
  });
  assert.not.equal(out, expected(c));
});

test.run();
