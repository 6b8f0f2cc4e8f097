/**
 * Batched (3-D) `tt.dot` through the GPU passes: examples/triton-c/bmm.tc (C[z] = A[z] x B[z], batched
 * `@` on 3-D tiles) in f32 (the FMA path) and f16 (mma.sync on a rank-3 `#ttg.nvidia_mma`), for sm_80
 * and sm_90a (wgmma has no batched form: it stays on mma.sync), on sizes that are not multiples of
 * the tiles, with NaN in the operands' row padding. With -DALIGNED (N, K, ldc and C's batch stride
 * multiples of 8; the GPU builds f16.a8 and f32.a8), on sizes whose N and K are multiples of 8 (M
 * and Z odd, K not a multiple of TK): the operand loads move 16-byte rows, batch dim slowest
 * (coalesce), and their rank-3 shared tiles are swizzled (pad-shared). The tt-level kernel is checked against a float64
 * product; then each pass of the default pipeline runs in turn and the CPU interpreter must give the
 * same C bit for bit (its tt.dot does not depend on layouts). The lowered module must then translate
 * to PTX. Reproduce a failure with the TC_KERNEL_SEED its message prints.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Operation } from '../../ir/ir.js';
import { printModule } from '../../ir/printer.js';
import { registerAllPasses } from '../../passes/all.js';
import { lowerToNvptx } from '../../targets/nvptx/index.js';
import { Memory } from '../../tools/interpreter/memory.js';
import { type Random, checkEachPass, compileExample, launch, matmulTolerance, roundTo, withSeed } from '../helpers/tc-kernels.js';

registerAllPasses();

/** One build of bmm.tc: element type, tiles, and the architecture of the pipeline. */
interface Build {
  type: 'float' | 'half';
  TM: number;
  TN: number;
  TK: number;
  TZ: number;
  arch: 'sm_80' | 'sm_90a';
  /** -DALIGNED: N, K, ldc and stride_zc are multiples of 8. */
  aligned?: boolean;
}

/** Problem sizes: Z matrices of M x K times K x N. */
interface Sizes {
  Z: number;
  M: number;
  N: number;
  K: number;
}

/** Odd in every dimension; with ALIGNED, N and K multiples of 8 (K still not a multiple of TK). */
const sizesOf = (b: Build): Sizes => (b.aligned ? { Z: 5, M: 75, N: 40, K: 40 } : { Z: 5, M: 37, N: 21, K: 35 });
const pad8 = (n: number) => Math.ceil(n / 8) * 8;

/** Runs bmm.tc's `module` on A (Z x M x K) and B (Z x K x N), rows padded to multiples of 8 with NaN; returns C (Z x M x N). */
function runBmm(module: Operation, b: Build, a: number[], bv: number[], label: string): number[] {
  const { Z, M, N, K } = sizesOf(b);
  const elt = b.type === 'float' ? 'f32' : 'f16';
  const [lda, ldb, ldc] = [pad8(K), pad8(N), N];
  const mem = new Memory();
  const A = mem.alloc(elt, Z * M * lda, 'A').fill(() => NaN);
  const B = mem.alloc(elt, Z * K * ldb, 'B').fill(() => NaN);
  const C = mem.alloc(elt, Z * M * ldc, 'C').fill(() => -1);
  for (let z = 0; z < Z; z++) {
    for (let i = 0; i < M; i++) for (let k = 0; k < K; k++) A.set((z * M + i) * lda + k, a[(z * M + i) * K + k]);
    for (let k = 0; k < K; k++) for (let j = 0; j < N; j++) B.set((z * K + k) * ldb + j, bv[(z * K + k) * N + j]);
  }
  const grid = [Math.ceil(M / b.TM), Math.ceil(N / b.TN), Math.ceil(Z / b.TZ)];
  launch(label, module, 'bmm', grid, [A, B, C, M, N, K, Z, lda, ldb, ldc, M * lda, K * ldb, M * ldc], mem);
  return C.toNumbers();
}

/** Checks C against the float64 products A[z] x B[z]. */
function checkReference(label: string, elt: 'f32' | 'f16', c: number[], a: number[], bv: number[], sizes: Sizes): void {
  const { Z, M, N, K } = sizes;
  for (let z = 0; z < Z; z++)
    for (let i = 0; i < M; i++)
      for (let j = 0; j < N; j++) {
        let s = 0;
        let mag = 0;
        for (let k = 0; k < K; k++) {
          const p = a[(z * M + i) * K + k] * bv[(z * K + k) * N + j];
          s += p;
          mag += Math.abs(p);
        }
        const got = c[(z * M + i) * N + j];
        const tol = matmulTolerance(elt, K, s, mag);
        assert.ok(Math.abs(got - s) <= tol, `${label}: C[${z}][${i}][${j}] = ${got}, expected ${s} ± ${tol}`);
      }
}

function checkBuild(b: Build, random: Random, after: (pass: string, text: string) => void): void {
  const elt = b.type === 'float' ? 'f32' : 'f16';
  const sizes = sizesOf(b);
  const { Z, M, N, K } = sizes;
  const label = `bmm.tc TYPE=${b.type} TM=${b.TM} TN=${b.TN} TK=${b.TK} TZ=${b.TZ}${b.aligned ? ' ALIGNED' : ''} ${b.arch} (${Z}x${M}x${N}x${K})`;
  const defines: Record<string, string> = { TYPE: b.type, TM: String(b.TM), TN: String(b.TN), TK: String(b.TK), TZ: String(b.TZ) };
  if (b.aligned) defines.ALIGNED = '1';
  const a = Array.from({ length: Z * M * K }, () => roundTo(elt, random() * 2 - 1));
  const bv = Array.from({ length: Z * K * N }, () => roundTo(elt, random() * 2 - 1));
  const reference = runBmm(compileExample('bmm.tc', defines), b, a, bv, `${label} tt`);
  checkReference(label, elt, reference, a, bv, sizes);
  const module = compileExample('bmm.tc', defines);
  checkEachPass(label, module, `default{arch=${b.arch} num-warps=4}`, reference, (m, what) => runBmm(m, b, a, bv, what), (pass) => after(pass, printModule(module)));
  lowerToNvptx(module, { arch: b.arch });
}

const MMA3 = /#ttg\.nvidia_mma<\{versionMajor = 2, versionMinor = 0, warpsPerCTA = \[4, 1, 1\], instrShape = \[1, 16, 8\]\}>/;

test('bmm.tc f32 (FMA): every pass of the default pipeline keeps C; the dot is a rank-3 blocked dot', () => {
  withSeed('bmm-f32', (random) => {
    checkBuild({ type: 'float', TM: 16, TN: 16, TK: 16, TZ: 2, arch: 'sm_80' }, random, (pass, text) => {
      if (pass !== 'mma-lowering') return;
      assert.not.ok(text.includes('nvidia_mma'), 'no mma layout');
      assert.ok(/tt\.dot .*-> tensor<2x16x16xf32, #blocked\d*>/.test(text), 'a rank-3 dot on a blocked accumulator');
    });
  });
});

for (const arch of ['sm_80', 'sm_90a'] as const) {
  test(`bmm.tc f16 (${arch}): every pass of the default pipeline keeps C; the dot is on a rank-3 mma layout, its accumulator carried in it`, () => {
    withSeed(`bmm-f16-${arch}`, (random) => {
      checkBuild({ type: 'half', TM: 32, TN: 16, TK: 16, TZ: 4, arch }, random, (pass, text) => {
        if (pass === 'mma-lowering') {
          assert.ok(MMA3.test(text), 'a rank-3 nvidia_mma layout');
          assert.not.ok(text.includes('warp_group_dot'), 'no wgmma for a batched dot');
          assert.ok(/scf\.for .*-> \(tensor<4x32x16xf32, #mma>/.test(text), 'the loop carries the accumulator in the mma layout, batch first');
          // Two copies of the body (version-alignment: N and K have no alignment here), each with both operands.
          assert.ok(text.includes('{tir.versions}'), 'the body is versioned on N and K');
          assert.is(text.match(/ttg\.memdesc_trans %\S+ \{order = array<i32: 2, 0, 1>\}/g)?.length, 4, 'both operands transposed to batch first in shared memory, in each copy');
        }
        if (pass === 'software-pipeline') assert.ok(text.includes('ttg.async_copy_global_to_local'), 'the operand loads are pipelined');
      });
    });
  });
}

/** The sizePerThread and order of the blocked layout of the `tt.load` named `%name` (or `%name_N`) in `text`. */
function loadLayout(text: string, name: string): { sizePerThread: string; order: string } | null {
  const load = new RegExp(`%${name}(?:_\\d+)? = tt\\.load [^\\n]*x!tt\\.ptr<f(?:16|32)>, #(blocked\\d*)>`).exec(text);
  const def = load && new RegExp(`#${load[1]} = #ttg\\.blocked<\\{sizePerThread = \\[([^\\]]*)\\][^\\n]*order = \\[([^\\]]*)\\]`).exec(text);
  return def ? { sizePerThread: def[1], order: def[2] } : null;
}

// The GPU builds f16.a8 and f32.a8 (bench/gpu/bmm_tc.py): aligned rows, larger f16 tiles.
for (const arch of ['sm_80', 'sm_90a'] as const) {
  test(`bmm.tc f16 ALIGNED (${arch}, the f16.a8 tiles): every pass keeps C; 16-byte operand rows, batch slowest, rank-3 tiles swizzled`, () => {
    withSeed(`bmm-f16-aligned-${arch}`, (random) => {
      checkBuild({ type: 'half', TM: 64, TN: 32, TK: 16, TZ: 4, arch, aligned: true }, random, (pass, text) => {
        if (pass === 'coalesce') {
          // A [TM, TK, TZ] and B [TK, TN, TZ]: 8 halves per thread along the rows, the batch dim (2) last.
          assert.equal(loadLayout(text, 'a'), { sizePerThread: '1, 8, 1', order: '1, 0, 2' }, 'A load layout');
          assert.equal(loadLayout(text, 'b'), { sizePerThread: '1, 8, 1', order: '1, 0, 2' }, 'B load layout');
        }
        if (pass === 'pad-shared') {
          // Triton's mma swizzles for 32-byte (A) and 64-byte (B) rows, batch outermost.
          assert.ok(text.includes('#ttg.swizzled_shared<{vec = 8, perPhase = 4, maxPhase = 2, order = [1, 0, 2]}>'), 'A swizzled');
          assert.ok(text.includes('#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0, 2]}>'), 'B swizzled');
          assert.ok(/ttg\.async_copy_global_to_local [^\n]*\{contiguity = 8 : i32\}/.test(text), 'cp.async of 16-byte rows');
        }
      });
    });
  });
}

test('bmm.tc f32 ALIGNED (FMA, the f32.a8 tiles): every pass keeps C; 16-byte operand rows, batch slowest', () => {
  withSeed('bmm-f32-aligned', (random) => {
    checkBuild({ type: 'float', TM: 32, TN: 32, TK: 16, TZ: 2, arch: 'sm_80', aligned: true }, random, (pass, text) => {
      if (pass !== 'coalesce') return;
      assert.equal(loadLayout(text, 'a'), { sizePerThread: '1, 4, 1', order: '1, 0, 2' }, 'A load layout');
      assert.equal(loadLayout(text, 'b'), { sizePerThread: '1, 4, 1', order: '1, 0, 2' }, 'B load layout');
    });
  });
});

test.run();
