/**
 * A bound on the registers one tensor value gives each thread, checked before lowering: a layout
 * whose sizePerThread dwarfs its tensor (`sizePerThread = [1048576, 4]` on a 64x64 tensor gives
 * every thread 4194304 elements) would otherwise be lowered element by element for minutes (a
 * fuzzer hang with seed 1 once lit/target/llvm/ joined the corpus: test/fixtures/fuzz/ptx/6e45253e-7bf14689.tir).
 * Real kernels hold at most a few hundred.
 */
import { DiagnosticError } from '../../ir/diagnostics.js';
import type { Operation } from '../../ir/ir.js';
import { RankedTensorType } from '../../ir/types.js';
import { opError } from '../../ir/verifier.js';
import { isSupportedLayout, totalElemsPerThread } from '../../dialects/ttg/layout-lib.js';

/** The most elements of one tensor value a thread may hold (a thread has at most 255 registers; ptxas spills the rest). */
export const MAX_ELEMENTS_PER_THREAD = 16384;

/** Throws a located error at the first op whose tensor result gives a thread more than `MAX_ELEMENTS_PER_THREAD` elements. */
export function checkElementsPerThread(module: Operation): void {
  module.walk((op) => {
    for (const r of op.results) {
      const t = r.type;
      if (!(t instanceof RankedTensorType) || !isSupportedLayout(t.encoding)) continue;
      const n = totalElemsPerThread(t.encoding!, t.shape);
      if (n > MAX_ELEMENTS_PER_THREAD)
        throw new DiagnosticError(opError(op, `gives each thread ${n} elements of a ${t}; the nvptx target supports at most ${MAX_ELEMENTS_PER_THREAD} per thread (a thread has at most 255 registers)`));
    }
  });
}
