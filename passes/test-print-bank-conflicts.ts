/**
 * `test-print-bank-conflicts`: a testing pass that costs every shared-memory access through a
 * `#ttg.swizzled_shared` or `#ttg.padded_shared` buffer with the bank model of `pad-shared` (support/bank-conflicts.ts)
 * and reports it as a remark at the op, without changing the IR:
 *   `<instruction> <bytes per lane>B x <count>: wavefronts = W, ideal = I`
 * (e.g. `ldmatrix 16B x 4: wavefronts = 128, ideal = 16`), or `not modeled: <why>`.
 */
import { MemDescType } from '../dialects/ttg/types.js';
import { SWIZZLED_SHARED, isLayout } from '../dialects/ttg/layout-attrs.js';
import { PaddedSharedAttr } from '../dialects/ttg/padded-shared.js';
import type { Value } from '../ir/ir.js';
import { accessCost, warpAccesses } from './support/bank-conflicts.js';
import { accessedValues, tileAccessOf, type ViewOrigin } from './support/shared-accesses.js';
import type { PassDecl } from './pass.js';

/** Emits the bank-conflict cost of every shared access as remarks. */
export const testPrintBankConflicts: PassDecl = {
  name: 'test-print-bank-conflicts',
  summary: 'testing: print the shared-memory wavefronts of every access to a swizzled or padded buffer as remarks',
  anchor: 'module',
  run(module, ctx) {
    const memo = new Map<Value, ViewOrigin | string>();
    module.walk((op) => {
      const vals = accessedValues(op);
      const enc = vals && (vals.mem.type as MemDescType).encoding;
      if (!vals || !(isLayout(enc, SWIZZLED_SHARED) || enc instanceof PaddedSharedAttr)) return;
      const a = tileAccessOf(op, memo);
      if (!a) return;
      if (typeof a === 'string') return ctx.remark(op, `not modeled: ${a}`);
      // The access is in the coordinates of the buffer (a transposed view's included): its encoding applies.
      const bufferEnc = (a.origin.alloc.result(0).type as MemDescType).encoding;
      const insts = warpAccesses(a.access, bufferEnc);
      const cost = accessCost(a.access, bufferEnc);
      if (typeof insts === 'string' || typeof cost === 'string') return ctx.remark(op, `not issuable: ${insts}`);
      ctx.remark(op, `${a.access.op} ${insts[0]?.width ?? 0}B x ${insts.length}: wavefronts = ${cost.wavefronts}, ideal = ${cost.ideal}`);
    }, 'pre');
    ctx.preserve();
  },
};
