/**
 * Whether the wrapped rows of a dot operand's load are never observed, so a TMA copy may read zeros
 * there instead of the wrapped rows. Triton's tutorial matmul loads A's rows `(o + arange) % M`
 * so that a block past M reads valid rows; those rows only make rows of the product at
 * `o + i >= M`, and the result store masks exactly those out (`offs_cm[:, None] < M`, with
 * `offs_cm` the same `o + arange`). Following the product, row by row:
 *
 *   - a dot reading it as its accumulator makes the same rows (and columns) of its result;
 *   - element-wise ops (and layout conversions) keep each element where it is;
 *   - a loop carries it to the next iteration's accumulator and out as the loop's result;
 *   - a store of it must be masked by `unwrapped < D` along that dim;
 *
 * and nothing else may use it (a reduction across rows would mix them). Rows with `o + i < 0`
 * would be read and stored out of bounds by the original program itself, so they are not its
 * behaviour to keep. Then the block needs no run-time test: every program copies by TMA.
 */
import type { Value } from '../../ir/ir.js';
import { Elementwise } from '../../ir/traits.js';
import * as arith from '../../dialects/arith.js';
import * as scf from '../../dialects/scf.js';
import * as tt from '../../dialects/tt/index.js';
import { boundTerm, type PointerBox } from './pointer-box.js';

/** Whether `mask` is a conjunction with a term `broadcast(expand_dims(unwrapped) < splat(extent))` along dim `dim`. */
function masksOut(mask: Value, dim: number, unwrapped: Value, extent: Value): boolean {
  const and = arith.AndIOp.match(mask.definingOp);
  if (and) return masksOut(and.lhs, dim, unwrapped, extent) || masksOut(and.rhs, dim, unwrapped, extent);
  const term = boundTerm(mask, dim);
  return !!term && term.index === unwrapped && term.bound === extent;
}

/** Whether the values along dim `dim` of `box.load` that wrap (`box.dims[dim]`) never reach anything but masked-out stores. */
export function wrapIsUnobserved(box: PointerBox, dim: number): boolean {
  const { unwrapped, extent } = box.dims[dim];
  if (!unwrapped || !extent) return false;
  const loaded = box.load.result(0);
  const users = loaded.users();
  const dot = users.length === 1 ? tt.DotOp.match(users[0]) : null;
  if (!dot || (dim === 0 ? dot.a : dot.b) !== loaded || dot.a === dot.b) return false;
  // Values holding the product's wrapped rows (dim 0) or columns (dim 1) at the same positions.
  const seen = new Set<Value>();
  const work: Value[] = [dot.op.result(0)];
  while (work.length) {
    const v = work.pop()!;
    if (seen.has(v)) continue;
    seen.add(v);
    for (const use of v.uses()) {
      const u = use.owner;
      if (tt.DotOp.is(u) && use.index === 2) work.push(u.result(0));
      else if (u.hasTrait(Elementwise) || u.name === 'ttg.convert_layout') work.push(...u.results);
      else if (scf.YieldOp.is(u) && scf.ForOp.is(u.parentOp)) {
        const loop = u.parentOp!;
        work.push(loop.result(use.index), loop.regions[0].blocks[0].args[use.index + 1]);
      } else if (tt.StoreOp.is(u)) {
        const st = tt.StoreOp.view(u);
        if (st.value !== v || st.ptr === v || st.mask === v || !st.mask || !masksOut(st.mask, dim, unwrapped, extent)) return false;
      } else return false;
    }
  }
  return true;
}
