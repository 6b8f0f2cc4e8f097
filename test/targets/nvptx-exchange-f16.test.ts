/**
 * A 16-bit layout conversion through shared memory, emulated thread by thread
 * (test/helpers/nvptx-emulator.ts): the attention and matmul epilogue's f16 tile goes from the mma
 * accumulator layout (pairs along N) to the 16-byte store layout (`sizePerThread = [1, 8]`); the
 * tile gets into the mma layout by the opposite conversion, from a 16-byte load. The
 * exchange packs each pair into a 32-bit word: the reader takes 8 halves (4 words, 16 bytes) a
 * load (`ld.shared.v4.b32`), the writer its pairs. Every element must land where the IR says:
 * out[i][j] = X[i][j].
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { registerAllPasses } from '../../passes/all.js';
import { emulateKernel } from '../helpers/nvptx-emulator.js';
import { lowerForEmulation } from '../helpers/nvptx-lowered.js';
import { rowMajorPointers } from '../helpers/ttg-pointers.js';

registerAllDialects();
registerAllPasses();

/** X (rows x cols f16) loaded in blocked [1, 8] (16-byte loads), converted to the mma accumulator layout and back, stored. */
function kernel(rows: number, cols: number): string {
  return `#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [${32 / (cols / 8)}, ${cols / 8}], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {${rowMajorPointers('pa', 'a', rows, cols, '#blocked')}
    %x = tt.load %pa : tensor<${rows}x${cols}x!tt.ptr<f16>, #blocked>
    %m = ttg.convert_layout %x : tensor<${rows}x${cols}xf16, #blocked> -> tensor<${rows}x${cols}xf16, #mma>
    %y = ttg.convert_layout %m : tensor<${rows}x${cols}xf16, #mma> -> tensor<${rows}x${cols}xf16, #blocked>${rowMajorPointers('pc', 'c', rows, cols, '#blocked')}
    tt.store %pc, %y : tensor<${rows}x${cols}x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
`;
}

for (const [rows, cols] of [[128, 64], [64, 128], [128, 32], [128, 8]] as const) {
  test(`${rows}x${cols} f16, mma accumulator -> blocked [1, 8]: 16-byte shared loads, every element where the IR says`, () => {
    const { module, fn, ptx } = lowerForEmulation(kernel(rows, cols), 'alloc-shared,insert-barriers', 'nvptx.ld');
    // the epilogue's exchange (mma -> blocked) reads 16 bytes a lane
    assert.ok(ptx.includes('shared.v4.b32'), `shared loads: ${[...new Set(ptx)].join(', ')}`);
    // with 8 columns, the first exchange's writer (blocked [1, 8], a row a lane) gains more than the
    // reader: it writes its 8 halves as 4 packed words
    const stores: string[] = [];
    fn.walk((op) => void (op.name === 'nvptx.st' && stores.push(String((op.getAttr('ptx') as { value?: string } | undefined)?.value))));
    if (cols === 8) assert.ok(stores.includes('shared.v4.b32'), `shared stores: ${[...new Set(stores)].join(', ')}`);
    const n = rows * cols;
    const [A, C] = [4096, 4096 + 2 * n];
    const global = new Map<number, number>();
    for (let k = 0; k < n; k++) global.set(A + 2 * k, k + 1); // distinct nonzero 16-bit patterns
    const shared = new DataView(new ArrayBuffer(Math.max(16, Number((module.getAttr('ttg.shared') as { value?: bigint } | undefined)?.value ?? 0))));
    emulateKernel(fn, 128, [A, C], { global, shared });
    const out = Array.from({ length: n }, (_, k) => global.get(C + 2 * k) ?? -1);
    assert.equal(out, Array.from({ length: n }, (_, k) => k + 1));
  });
}

test.run();
