/**
 * `tt.dot` on tensor cores (sm_80 and later): an accumulator in `#ttg.nvidia_mma` version 2 and
 * 16-bit operands in its `#ttg.dot_op` layouts become `mma.sync.aligned.m16n8k16.row.col` per
 * 16x8 accumulator block and 16-deep K step; f32 operands (kWidth 1, tf32 asked for by the pass)
 * become `mma.sync.aligned.m16n8k8.row.col...tf32` per 8-deep K step. A batched (rank-3) dot, on
 * a rank-3 mma layout (instrShape [1, 16, 8]), issues the same instructions for each batch
 * index its registers hold: the batch dimension is an outer loop. Which register holds which fragment element comes
 * from the layouts themselves (lane 0 of warp 0), so a layout that is not the mma fragment is a
 * located error rather than wrong code.
 */
import type { Value } from '../../ir/ir.js';
import type { View } from '../../ir/op-def.js';
import { isLayout, NVIDIA_MMA } from '../../dialects/ttg/layout-attrs.js';
import type * as tt from '../../dialects/tt/index.js';
import * as nvptx from '../../dialects/nvptx.js';
import type { StructAttr } from '../../dialects/ttg/struct-attr.js';
import { IntegerType, RankedTensorType } from '../../ir/types.js';
import type { LoweringContext } from './context.js';
import { BF16, F16, F32, I32, targetError } from './emitter.js';
import { coordIndex, registersByCoords } from './layout.js';

/** The typed view of a `tt.dot`. */
export type DotView = View<(typeof tt.DotOp)['decl']>;

/** Whether `dot` is a tt.dot this file lowers (accumulator in an mma v2 layout). */
export function isMmaDot(dot: DotView): boolean {
  const enc = (dot.c.type as RankedTensorType).encoding;
  return isLayout(enc, NVIDIA_MMA) && (enc as StructAttr).int('versionMajor') === 2;
}

/**
 * The instruction for operand type `elt`: its K depth, how fragment registers are formed (`pair`:
 * two 16-bit elements along K per b32; `tf32`: one f32 element as it is, see `lowerMmaDot`), and
 * the lane-0 offsets (M/N, K) of the A and B registers. PTX ISA, mma.m16n8k16 (.f16/.bf16): a0-a3
 * at (g, 2t), (g+8, 2t), (g, 2t+8), (g+8, 2t+8), b0-b1 at (2t, g), (2t+8, g); mma.m16n8k8 (.tf32):
 * a0-a3 at (g, t), (g+8, t), (g, t+4), (g+8, t+4), b0-b1 at (t, g), (t+4, g); mma.m16n8k32 (.s8,
 * `quad`: four bytes along K per b32): a0-a3 at (g, 4t), (g+8, 4t), (g, 4t+16), (g+8, 4t+16), b0-b1
 * at (4t, g), (4t+16, g); g = lane / 4, t = lane % 4.
 */
function instrFor(elt: unknown): { k: number; form: 'pair' | 'tf32' | 'quad'; kind: string; a: number[][]; b: number[] } | null {
  if (elt === F16 || elt === BF16) return { k: 16, form: 'pair', kind: elt === F16 ? 'f16' : 'bf16', a: [[0, 0], [8, 0], [0, 8], [8, 8]], b: [0, 8] };
  if (elt === F32) return { k: 8, form: 'tf32', kind: 'tf32', a: [[0, 0], [8, 0], [0, 4], [8, 4]], b: [0, 4] };
  if (elt instanceof IntegerType && elt.width === 8) return { k: 32, form: 'quad', kind: 's8', a: [[0, 0], [8, 0], [0, 16], [8, 16]], b: [0, 16] };
  return null;
}

/**
 * tt.dot %a, %b, %c (mma v2) -> mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16} per block and
 * K step of 16; with f32 operands (kWidth 1, inputPrecision = tf32):
 * mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 per K step of 8 on the f32 registers as they
 * are. The tensor core reads their sign, exponent and upper 10 mantissa bits, so each operand is
 * rounded toward zero to tf32: Triton's numerics for inputPrecision = tf32 (it emits no conversion
 * either), and 96 fewer instructions per K step of 32 than `cvt.rna.tf32.f32` in a 128x128 tile.
 */
export function lowerMmaDot(ctx: LoweringContext, dot: DotView): void {
  const { op, a, b, c } = dot;
  const [at, ct] = [a, c].map((v) => v.type as RankedTensorType);
  const elt = at.elementType;
  const instr = instrFor(elt);
  if (!instr) throw targetError(op, `cannot lower an mma tt.dot with '${elt}' operands; f16, bf16, f32 (as tf32) and i8 are supported`);
  const accType = instr.form === 'quad' ? I32 : F32;
  if (ct.elementType !== accType) throw targetError(op, `cannot lower an mma tt.dot with a '${ct.elementType}' accumulator; ${accType === I32 ? 'i32 (for i8 operands)' : 'f32'} is supported`);
  const precision = dot.inputPrecision ?? 'ieee';
  if (instr.form === 'tf32' && precision !== 'tf32') {
    throw targetError(op, `f32 operands go to tensor cores only as tf32; this dot asks for inputPrecision = ${precision}`);
  }
  const rank = ct.shape.length;
  if (rank !== 2 && rank !== 3) throw targetError(op, `cannot lower a rank-${rank} tt.dot ('${ct}') on tensor cores; ranks 2 and 3 (batched) are supported`);
  // z: the first matrix dim (0, or 1 after the batch dim); coordinates below are full-rank.
  const z = rank - 2;
  const [la, lb, lc] = [a, b, c].map((v) => ctx.layoutOf(v, op));
  const [ma, mb, mc] = [la, lb, lc].map((l) => registersByCoords(l));
  const [aRegs, bRegs, cRegs] = [a, b, c].map((v) => ctx.get(v, op));
  const e = ctx.e;
  const K = at.shape[z + 1];
  const words = new Map<string, Value>();
  /** The b32 fragment register holding element `x` of operand `tag` (and, for pairs, the next one along K). */
  const word = (m: Map<number, number>, shape: readonly number[], regs: Value[], tag: string, x: number[], kd: number): Value => {
    const key = `${tag}:${x}`;
    const hit = words.get(key);
    if (hit) return hit;
    const along = instr.form === 'pair' ? 2 : instr.form === 'quad' ? 4 : 1;
    const elems = Array.from({ length: along }, (_, j) => x.map((v, d) => (d === kd ? v + j : v)));
    const rs = elems.map((y) => m.get(coordIndex(shape, y)));
    if (rs.some((r) => r === undefined)) throw targetError(op, `operand '${tag === 'a' ? a.type : b.type}' holds no register for element (${x}) of an mma fragment`);
    const parts = rs.map((r) => regs[r!]);
    const v = instr.form === 'pair' ? e.pack('b32', parts, I32) : instr.form === 'quad' ? e.packParts(parts, I32) : e.op('mov', 'b32', [parts[0]], I32);
    words.set(key, v);
    return v;
  };
  const out = [...cRegs];
  const blocks = lc.regCoords.map((co, r) => ({ co, r })).filter(({ co, r }) => co[z] % 16 === 0 && co[z + 1] % 8 === 0 && mc.get(coordIndex(lc.shape, co)) === r);
  const acc = accType === I32 ? 's32' : 'f32';
  const ptx = `sync.aligned.m16n8k${instr.k}.row.col.${acc}.${instr.kind}.${instr.kind}.${acc}`;
  for (let k0 = 0; k0 < K; k0 += instr.k) {
    for (const { co } of blocks) {
      const batch = co.slice(0, z);
      const [m0, n0] = co.slice(z);
      const cIdx = [[m0, n0], [m0, n0 + 1], [m0 + 8, n0], [m0 + 8, n0 + 1]].map((x) => {
        const r = mc.get(coordIndex(lc.shape, [...batch, ...x]));
        if (r === undefined) throw targetError(op, `accumulator '${c.type}' holds no register for element (${[...batch, ...x]}) of an mma fragment`);
        return r;
      });
      const aw = instr.a.map(([dm, dk]) => word(ma, la.shape, aRegs, 'a', [...batch, m0 + dm, k0 + dk], z + 1));
      const bw = instr.b.map((dk) => word(mb, lb.shape, bRegs, 'b', [...batch, k0 + dk, n0], z));
      const d = nvptx.MmaOp.build(e.b, { args: [...aw, ...bw, ...cIdx.map((r) => out[r])], ptx }, { results: { dst: [accType, accType, accType, accType] } }).dst;
      cIdx.forEach((r, j) => (out[r] = d[j]));
    }
  }
  // Registers that only duplicate a block's elements (broadcast copies) follow their first copy.
  lc.regCoords.forEach((co, r) => (out[r] = out[mc.get(coordIndex(lc.shape, co))!]));
  ctx.set(dot.d, out);
}
