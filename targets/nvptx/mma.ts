/**
 * `tt.dot` on tensor cores (sm_80 and later): an accumulator in `#ttg.nvidia_mma` version 2 and
 * 16-bit operands in its `#ttg.dot_op` layouts become `mma.sync.aligned.m16n8k16.row.col` per
 * 16x8 accumulator block and 16-deep K step. Which register holds which fragment element comes
 * from the layouts themselves (lane 0 of warp 0), so a layout that is not the mma fragment is a
 * located error rather than wrong code.
 */
import { StringAttr } from '../../ir/attributes.js';
import type { Operation, Value } from '../../ir/ir.js';
import { isLayout, NVIDIA_MMA } from '../../dialects/ttg/layout-attrs.js';
import type { StructAttr } from '../../dialects/ttg/struct-attr.js';
import { RankedTensorType } from '../../ir/types.js';
import type { LoweringContext } from './context.js';
import { BF16, F16, F32, I32, targetError } from './emitter.js';
import { registersByCoords } from './layout.js';

/** Whether `op` is a tt.dot this file lowers (accumulator in an mma v2 layout). */
export function isMmaDot(op: Operation): boolean {
  const enc = (op.operand(2).type as RankedTensorType).encoding;
  return isLayout(enc, NVIDIA_MMA) && (enc as StructAttr).int('versionMajor') === 2;
}

/** tt.dot %a, %b, %c (mma v2) -> mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16} per block and K step. */
export function lowerMmaDot(ctx: LoweringContext, op: Operation): void {
  const [a, b, c] = [0, 1, 2].map((k) => op.operand(k));
  const [at, ct] = [a, c].map((v) => v.type as RankedTensorType);
  const elt = at.elementType;
  if (elt !== F16 && elt !== BF16) throw targetError(op, `cannot lower an mma tt.dot with '${elt}' operands; f16 and bf16 are supported`);
  if (ct.elementType !== F32) throw targetError(op, `cannot lower an mma tt.dot with a '${ct.elementType}' accumulator; f32 is supported`);
  if (ct.shape.length !== 2) throw targetError(op, `cannot lower a batched tt.dot ('${ct}') on tensor cores yet`);
  const [la, lb, lc] = [a, b, c].map((v) => ctx.layoutOf(v, op));
  const [ma, mb, mc] = [la, lb, lc].map((l) => registersByCoords(l));
  const [aRegs, bRegs, cRegs] = [a, b, c].map((v) => ctx.get(v, op));
  const e = ctx.e;
  const K = at.shape[1];
  const packed = new Map<string, Value>();
  const pair = (m: Map<string, number>, regs: Value[], tag: string, x: number[], y: number[]): Value => {
    const key = `${tag}:${x}`;
    const hit = packed.get(key);
    if (hit) return hit;
    const rx = m.get(x.join(','));
    const ry = m.get(y.join(','));
    if (rx === undefined || ry === undefined) throw targetError(op, `operand '${tag === 'a' ? a.type : b.type}' holds no register for element (${x}) of an mma fragment`);
    const v = e.pack('b32', [regs[rx], regs[ry]], I32);
    packed.set(key, v);
    return v;
  };
  const out = [...cRegs];
  const blocks = lc.regCoords.map((co, r) => ({ co, r })).filter(({ co, r }) => co[0] % 16 === 0 && co[1] % 8 === 0 && mc.get(co.join(',')) === r);
  const kind = elt === F16 ? 'f16' : 'bf16';
  for (let k0 = 0; k0 < K; k0 += 16) {
    for (const { co } of blocks) {
      const [m0, n0] = co;
      const cIdx = [[m0, n0], [m0, n0 + 1], [m0 + 8, n0], [m0 + 8, n0 + 1]].map((x) => {
        const r = mc.get(x.join(','));
        if (r === undefined) throw targetError(op, `accumulator '${c.type}' holds no register for element (${x}) of an mma fragment`);
        return r;
      });
      const aw = [[m0, k0], [m0 + 8, k0], [m0, k0 + 8], [m0 + 8, k0 + 8]].map(([m, k]) => pair(ma, aRegs, 'a', [m, k], [m, k + 1]));
      const bw = [k0, k0 + 8].map((k) => pair(mb, bRegs, 'b', [k, n0], [k + 1, n0]));
      const d = e.b.create('nvptx.mma', {
        operands: { args: [...aw, ...bw, ...cIdx.map((r) => out[r])] },
        attrs: { ptx: StringAttr.get(`sync.aligned.m16n8k16.row.col.f32.${kind}.${kind}.f32`) },
        results: { dst: [F32, F32, F32, F32] },
      }).results;
      cIdx.forEach((r, j) => (out[r] = d[j]));
    }
  }
  // Registers that only duplicate a block's elements (broadcast copies) follow their first copy.
  lc.regCoords.forEach((co, r) => (out[r] = out[mc.get(co.join(','))!]));
  ctx.set(op.result(0), out);
}
