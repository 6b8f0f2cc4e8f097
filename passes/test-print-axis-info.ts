/**
 * `test-print-axis-info`: a testing pass that emits the axis-info facts of every integer and
 * pointer value as remarks, for lit tests with `--verify-diagnostics`:
 *
 *   contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>
 *
 * (the format of Triton's `test-print-alignment`). Remarks are located at the op defining the value:
 *  - a single result: the bare facts;
 *  - results of an op with several results: `result #k: <facts>`;
 *  - arguments of the entry blocks of an op's regions (scf.for induction variable and iter args,
 *    scf.while arguments): `region #r arg #k: <facts>`, at the op owning the region.
 * Function arguments are not printed (their facts are their `tt.*` attributes, visible through
 * their users); neither are float values nor arguments of non-entry blocks.
 */
import type { Operation } from '../ir/ir.js';
import { getAxisInfo, hasAxisInfo } from './analysis/axis-info.js';
import type { PassDecl } from './pass.js';
import { FunctionLike } from '../ir/traits.js';

/** Emits one remark per integer / pointer value with its axis info. */
export const testPrintAxisInfo: PassDecl = {
  name: 'test-print-axis-info',
  summary: 'testing: print the axis info (contiguity, divisibility, constancy) of every integer and pointer value as remarks',
  anchor: 'module',
  run(module, ctx) {
    const analysis = getAxisInfo(ctx.analyses, module);
    module.walk((op: Operation) => {
      if (op === module) return;
      const shown = op.results.filter((r) => hasAxisInfo(r.type));
      for (const r of shown) {
        const prefix = op.numResults > 1 ? `result #${r.index}: ` : '';
        ctx.remark(op, prefix + analysis.lookup(r).toString());
      }
      if (op.hasTrait(FunctionLike)) return;
      op.regions.forEach((region, ri) => {
        for (const a of region.entry?.args ?? []) {
          if (hasAxisInfo(a.type)) ctx.remark(op, `region #${ri} arg #${a.index}: ${analysis.lookup(a).toString()}`);
        }
      });
    }, 'pre');
    ctx.preserve();
  },
};
