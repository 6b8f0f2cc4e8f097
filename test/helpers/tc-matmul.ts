/**
 * Runs the seed tutorials' matmul kernels (`dot(TYPE* A, TYPE* B, TYPE* C, int M, int N, int K,
 * int lda, int ldb, int ldc)` in examples/triton-c/matmul*.tc) in the interpreter against a
 * float64 reference, with the `-D` options of the fused-transposition variants.
 */
import { Memory } from '../../tools/interpreter/memory.js';
import { type Random, at, checkMatrix, compileExample, eltOf, launch, matmulRef, matmulTolerance, outputMatrix, randomMatrix } from './tc-kernels.js';

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
