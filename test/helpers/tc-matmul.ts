/**
 * Runs the seed tutorials' matmul kernels (`dot(TYPE* A, TYPE* B, TYPE* C, int M, int N, int K,
 * int lda, int ldb, int ldc)` in examples/triton-c/matmul*.tc) in the interpreter against a
 * float64 reference, with the `-D` options of the fused-transposition variants.
 */
import { Memory } from '../../tools/interpreter/memory.js';
import type { Operation } from '../../ir/ir.js';
import { type Random, at, checkMatrix, compileExample, eltOf, launch, makeRandom, matmulRef, matmulTolerance, outputMatrix, randomMatrix } from './tc-kernels.js';

/** How operand A or B is laid out in memory: as the logical matrix or as its transpose. */
export type Layout = 'N' | 'T';

/** The -D options of matmul-fused-trans.tc selecting A's and B's layout (exactly as its header lists them). */
export function fusedTransOptions(a: Layout, b: Layout): string {
  const optA = a === 'N'
    ? '-DUSE_A=a -DSTRIDE_AK=1 -DSTRIDE_AM=lda -DBROADCAST_AK=newaxis,: -DBROADCAST_AM=:,newaxis -DSHAPE_A=TM,TK'
    : '-DUSE_A=^a -DSTRIDE_AK=lda -DSTRIDE_AM=1 -DBROADCAST_AK=:,newaxis -DBROADCAST_AM=newaxis,: -DSHAPE_A=TK,TM';
  const optB = b === 'N'
    ? '-DUSE_B=b -DSTRIDE_BK=ldb -DSTRIDE_BN=1 -DBROADCAST_BK=:,newaxis -DBROADCAST_BN=newaxis,: -DSHAPE_B=TK,TN'
    : '-DUSE_B=^b -DSTRIDE_BK=1 -DSTRIDE_BN=ldb -DBROADCAST_BK=newaxis,: -DBROADCAST_BN=:,newaxis -DSHAPE_B=TN,TK';
  return `${optA} ${optB}`;
}

/** One matmul run: kernel file, its full defines, problem size and operand layouts. */
export interface MatmulCase {
  file: string;
  defines: Record<string, string>;
  M: number;
  N: number;
  K: number;
  /** Layout of A in memory (default 'N': M x K row-major; 'T': K x M). */
  a?: Layout;
  /** Layout of B in memory (default 'N': K x N row-major; 'T': N x K). */
  b?: Layout;
  /** Extra elements per row beyond the matrix (multiples of 8 keep `__multipleof(8)` true); default 8. */
  pad?: number;
  /** 'tiles' (default): grid (M / TM) x (N / TN); 'grouped': matmul-grouped.tc's 1-D grid of ceil(M / MB) * ceil(N / NB). */
  grid?: 'tiles' | 'grouped';
}

/**
 * Runs a matmul case and checks C (M x N, leading dimension N + pad) against the float64 product
 * of the exact (type-rounded) inputs. Operand padding and a tail of TK rows past each operand
 * are NaN: the fused-transposition kernel loads one tile past K in its last iteration (the
 * tutorial's prefetch without a check) and matmul-grouped.tc loads whole tiles past M / N
 * (it only masks the store); none of that may reach the stored result.
 */
export function checkMatmul(c: MatmulCase, random: Random): void {
  const d = c.defines;
  const elt = eltOf(d.TYPE);
  const { M, N, K } = c;
  const pad = c.pad ?? 8;
  // rows of NaN past each operand: the over-read of the last K tile, and the unmasked loads of
  // matmul-grouped.tc's last (partial) M / N tiles
  const tail = 1 + Math.max(...['TM', 'TN', 'TK', 'MB', 'NB', 'KB'].map((k) => Number(d[k] ?? 0)));
  const layoutA = c.a ?? 'N';
  const layoutB = c.b ?? 'N';
  const label = `${c.file} ${Object.entries(d).filter(([k]) => /^(TYPE|TM|TN|TK|MB|NB|KB)$/.test(k)).map(([k, v]) => `${k}=${v}`).join(' ')}` +
    ` A:${layoutA} B:${layoutB} M=${M} N=${N} K=${K}`;
  const module = compileExample(c.file, d);
  const mem = new Memory();
  const aRows = layoutA === 'N' ? M : K;
  const aCols = layoutA === 'N' ? K : M;
  const bRows = layoutB === 'N' ? K : N;
  const bCols = layoutB === 'N' ? N : K;
  const A = randomMatrix(mem, elt, aRows, aCols, aCols + pad, tail * (aCols + pad), random, 'A');
  const B = randomMatrix(mem, elt, bRows, bCols, bCols + pad, tail * (bCols + pad), random, 'B');
  const C = outputMatrix(mem, elt, M, N, N + pad, -7.25, 'C');
  const grid = c.grid === 'grouped'
    ? [Math.ceil(M / Number(d.MB)) * Math.ceil(N / Number(d.NB))]
    : [M / Number(d.TM), N / Number(d.TN)];
  launch(label, module, 'dot', grid, [A.buffer, B.buffer, C.buffer, M, N, K, A.ld, B.ld, C.ld], mem);
  const { ref, mag } = matmulRef(M, N, K,
    (i, k) => (layoutA === 'N' ? at(A, i, k) : at(A, k, i)),
    (k, j) => (layoutB === 'N' ? at(B, k, j) : at(B, j, k)));
  checkMatrix(label, C, ref, (k) => matmulTolerance(elt, K, ref[k], mag[k]), -7.25);
}

/** The small fused-transposition problem the pass tests run after every pass: sizes, padding and tiles. */
export const FUSED_TRANS = { file: 'matmul-fused-trans.tc', M: 64, N: 32, K: 48, pad: 8, tile: { TM: 32, TN: 32, TK: 16 } } as const;

/**
 * Runs the fused-transposition kernel `module` (elements `elt`, A and B stored as `a`/`b` say) on
 * inputs seeded by `seed`, with one K tile past each operand (the kernel's last prefetch reads it);
 * returns C and how many elements miss the float64 product's tolerance.
 */
export function runFusedTrans(module: Operation, elt: 'f16' | 'f32', a: Layout, b: Layout, seed: number, label: string): { c: number[]; wrong: number } {
  const { file, M, N, K, pad, tile } = FUSED_TRANS;
  const random = makeRandom(seed);
  const mem = new Memory();
  const [aRows, aCols] = a === 'N' ? [M, K] : [K, M];
  const [bRows, bCols] = b === 'N' ? [K, N] : [N, K];
  const A = randomMatrix(mem, elt, aRows, aCols, aCols + pad, (tile.TK + 1) * (aCols + pad), random, 'A');
  const B = randomMatrix(mem, elt, bRows, bCols, bCols + pad, (tile.TK + 1) * (bCols + pad), random, 'B');
  const C = outputMatrix(mem, elt, M, N, N + pad, -7.25, 'C');
  launch(`${file} ${label}`, module, 'dot', [M / tile.TM, N / tile.TN], [A.buffer, B.buffer, C.buffer, M, N, K, A.ld, B.ld, C.ld], mem);
  const { ref, mag } = matmulRef(M, N, K, (i, k) => (a === 'N' ? at(A, i, k) : at(A, k, i)), (k, j) => (b === 'N' ? at(B, k, j) : at(B, j, k)));
  const c = Array.from({ length: M * (N + pad) }, (_, k) => Number(C.buffer.get(k)));
  let wrong = 0;
  for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) if (!(Math.abs(c[i * (N + pad) + j] - ref[i * N + j]) <= matmulTolerance(elt, K, ref[i * N + j], mag[i * N + j]))) wrong++;
  return { c, wrong };
}
