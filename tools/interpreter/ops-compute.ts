/** tt compute ops: dot, reduce, scan (running their combiner regions), fp_to_fp, clampf, precise math, mulhiui, bitcast, assert, print. */
import { textOf } from '../../ir/attributes.js';
import type { Region } from '../../ir/ir.js';
import { PointerType } from '../../dialects/tt/types.js';
import * as tt from '../../dialects/tt/index.js';
import type { Interpreter } from './interpreter.js';
import { impl, type OpEntry } from './op-impl.js';
import { fail } from './errors.js';
import { rounderFor, roundTowardZero } from './floats.js';
import { miniFloatFormat, roundToMiniFloat } from '../../ir/minifloat.js';
import { floatBinary, floatTernary, floatUnary, fromFunction } from './elementwise.js';
import { bitcastElt } from './ops-arith.js';
import { laneText } from './ops-memory.js';
import { elementText, indexText } from './print-format.js';
import { type Tensor, allocData, asTensor, copyElt, eltClass, elementOf, numel, readElt, shapeOfType, tensor, unsignedOf, wrapInt } from './values.js';

/**
 * Matrix product d = a x b + c over the last two dims (an optional leading batch dim).
 * Float accumulators: each step is one fused multiply-add rounded to the accumulator type
 * (f16 x f16 products are exact in f32); integer accumulators wrap.
 */
export function dotProduct(a: Tensor, b: Tensor, c: Tensor, outElt: Tensor['elt']): Tensor {
  const r = a.shape.length;
  const batch = r === 3 ? a.shape[0] : 1;
  const M = a.shape[r - 2];
  const K = a.shape[r - 1];
  const N = b.shape[r - 1];
  const cls = eltClass(outElt);
  const out = allocData(outElt, batch * M * N);
  const ad = a.data;
  const bd = b.data;
  if (cls.k === 'float') {
    const rnd = rounderFor(cls.kind);
    const x = ad as Float64Array;
    const y = bd as Float64Array;
    const acc = c.data as Float64Array;
    const o = out as Float64Array;
    for (let p = 0; p < batch; p++)
      for (let i = 0; i < M; i++)
        for (let j = 0; j < N; j++) {
          let s = acc[(p * M + i) * N + j];
          const aBase = (p * M + i) * K;
          const bBase = p * K * N + j;
          for (let k = 0; k < K; k++) s = rnd(s + x[aBase + k] * y[bBase + k * N]);
          o[(p * M + i) * N + j] = s;
        }
    return tensor(c.shape, outElt, out);
  }
  for (let p = 0; p < batch; p++)
    for (let i = 0; i < M; i++)
      for (let j = 0; j < N; j++) {
        let s = BigInt(readElt(c.data, (p * M + i) * N + j) as number | bigint);
        for (let k = 0; k < K; k++) {
          s += BigInt(readElt(ad, (p * M + i) * K + k) as number | bigint) * BigInt(readElt(bd, p * K * N + k * N + j) as number | bigint);
        }
        const idx = (p * M + i) * N + j;
        if (cls.k === 'i64') (out as BigInt64Array)[idx] = BigInt.asIntN(64, s);
        else if (cls.k === 'int') (out as Int32Array)[idx] = wrapInt(Number(BigInt.asIntN(32, s)), cls.width);
      }
  return tensor(c.shape, outElt, out);
}

const dot = impl(tt.DotOp, (dot, it) => [dotProduct(asTensor(it.get(dot.a)), asTensor(it.get(dot.b)), asTensor(it.get(dot.c)), elementOf(dot.d.type))]);

/** A 0-d tensor holding element k of t. */
function elementAt(t: Tensor, k: number): Tensor {
  const d = allocData(t.elt, 1);
  copyElt(d, 0, t.data, k);
  return tensor([], t.elt, d);
}

/** Runs a combiner region on (lhs..., rhs...) scalars and returns its results. */
function combine(it: Interpreter, region: Region, lhs: Tensor[], rhs: Tensor[]): Tensor[] {
  const exit = it.runRegion(region, [...lhs, ...rhs]);
  return exit.values.map(asTensor);
}

/** Splits a shape around `axis`: (outer count, axis length, inner count). */
function around(shape: readonly number[], axis: number): [number, number, number] {
  return [numel(shape.slice(0, axis)), shape[axis], numel(shape.slice(axis + 1))];
}

/** tt.reduce: folds each line along `axis` left to right with the combiner region. */
const reduce = impl(tt.ReduceOp, (red, it) => {
  const srcs = red.srcs.map((v) => asTensor(it.get(v)));
  const [outer, len, inner] = around(srcs[0].shape, red.axis);
  const body = red.combineOp;
  const types = red.result.map((r) => r.type);
  const results = types.map((t) => allocData(elementOf(t), outer * inner));
  for (let o = 0; o < outer; o++)
    for (let i = 0; i < inner; i++) {
      const base = o * len * inner + i;
      let acc = srcs.map((s) => elementAt(s, base));
      for (let j = 1; j < len; j++) acc = combine(it, body, acc, srcs.map((s) => elementAt(s, base + j * inner)));
      acc.forEach((a, r) => copyElt(results[r], o * inner + i, a.data, 0));
    }
  return types.map((t, k) => tensor(shapeOfType(t), elementOf(t), results[k]));
});

/** tt.scan: inclusive scan along `axis` (from the end when `reverse`). */
const scan = impl(tt.ScanOp, (sc, it) => {
  const srcs = sc.srcs.map((v) => asTensor(it.get(v)));
  const reverse = sc.reverse;
  const body = sc.combineOp;
  const types = sc.result.map((r) => r.type);
  const [outer, len, inner] = around(srcs[0].shape, sc.axis);
  const results = srcs.map((s) => allocData(s.elt, s.data.length));
  for (let o = 0; o < outer; o++)
    for (let i = 0; i < inner; i++) {
      let acc: Tensor[] | null = null;
      for (let step = 0; step < len; step++) {
        const j = reverse ? len - 1 - step : step;
        const idx = o * len * inner + j * inner + i;
        const cur = srcs.map((s) => elementAt(s, idx));
        acc = acc ? combine(it, body, acc, cur) : cur;
        acc.forEach((a, r) => copyElt(results[r], idx, a.data, 0));
      }
    }
  return types.map((t, k) => tensor(shapeOfType(t), elementOf(t), results[k]));
});

const fpToFp = impl(tt.FpToFpOp, (cvt, it) => {
  const c = eltClass(elementOf(cvt.result.type));
  if (c.k !== 'float') return fail('expected a float result');
  const rtz = cvt.rounding === 'rtz';
  const src = asTensor(it.get(cvt.src)).data as Float64Array;
  // Into fp8 the conversion saturates, as the GPU's (PTX `cvt.rn.satfinite`): past the largest finite value, infinities included.
  const mini = miniFloatFormat(c.kind);
  if (mini) return [fromFunction(cvt.op, 0, (k) => roundToMiniFloat(mini, src[k], { towardZero: rtz, saturate: true }))];
  return [fromFunction(cvt.op, 0, (k) => (rtz ? roundTowardZero(src[k], c.kind) : rounderFor(c.kind)(src[k])))];
});

const maxnum = (a: number, b: number): number => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b));
const minnum = (a: number, b: number): number => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b));

const clampf = impl(tt.ClampfOp, (clamp, it) => {
  const propagate = clamp.propagateNan === 'all';
  const f = propagate ? (x: number, lo: number, hi: number) => Math.min(Math.max(x, lo), hi) : (x: number, lo: number, hi: number) => minnum(maxnum(x, lo), hi);
  return floatTernary(f)(clamp.op, it);
});

/** High half of the unsigned product of two integers of the same width. */
const mulhiui = impl(tt.MulhiuiOp, (mul, it) => {
  const c = eltClass(elementOf(mul.result.type));
  const w = c.k === 'int' ? c.width : 64;
  const a = asTensor(it.get(mul.x)).data as Int32Array | BigInt64Array;
  const b = asTensor(it.get(mul.y)).data as Int32Array | BigInt64Array;
  return [fromFunction(mul.op, 0, (k) => {
    const ak = a[k];
    const bk = b[k];
    const x = typeof ak === 'bigint' ? BigInt.asUintN(64, ak) : BigInt(unsignedOf(ak, w));
    const y = typeof bk === 'bigint' ? BigInt.asUintN(64, bk) : BigInt(unsignedOf(bk, w));
    const hi = (x * y) >> BigInt(w);
    return w === 64 ? BigInt.asIntN(64, hi) : Number(BigInt.asIntN(32, hi));
  })];
});

const bitcast = impl(tt.BitcastOp, (cast, it) => {
  const src = asTensor(it.get(cast.src));
  const rt = cast.result.type;
  if (elementOf(rt) instanceof PointerType) return [tensor(shapeOfType(rt), elementOf(rt), src.data)];
  const from = cast.src.type;
  return [fromFunction(cast.op, 0, (k) => bitcastElt(readElt(src.data, k) as number | bigint, from, rt))];
});

const assertOp = impl(tt.AssertOp, (check, it) => {
  const c = asTensor(it.get(check.condition));
  const d = c.data as Int32Array;
  for (let k = 0; k < d.length; k++) {
    if (d[k]) continue;
    fail(`assertion failed: ${textOf(check.message ?? '')} (lane ${laneText(k, c.shape)}, program (${it.pid.join(', ')}))`);
  }
  return [];
});

/** tt.print: the lines the GPU prints (print-format.ts), one per element of each argument, collected in `prints`. */
const printOp = impl(tt.PrintOp, (print, it) => {
  const prefix = textOf(print.prefix ?? '');
  const hex = print.hex === true;
  const signedness = print.isSigned ?? [];
  const ins = print.args.map((v) => asTensor(it.get(v)));
  const pid = `pid (${it.pid.join(', ')})`;
  if (ins.length === 0) it.prints.push(`${pid}${prefix}`);
  ins.forEach((t, a) => {
    const operand = ins.length > 1 ? `(operand ${a}) ` : '';
    const signed = (signedness[a] ?? 0) > 0;
    for (let k = 0; k < t.data.length; k++) {
      const v = readElt(t.data, k);
      const value = typeof v === 'object' ? `<ptr buffer #${v.buf} + ${v.off}>` : elementText(v, t.elt, hex, signed);
      it.prints.push(`${pid} ${indexText(k, t.shape)}${prefix}${operand}${value}`);
    }
  });
  return [];
});

/** The compute op table. */
export const computeOps: OpEntry[] = [
  dot,
  reduce,
  scan,
  fpToFp,
  clampf,
  [tt.PreciseSqrtOp.name, floatUnary(Math.sqrt)],
  [tt.PreciseDivfOp.name, floatBinary((a, b) => a / b)],
  mulhiui,
  bitcast,
  assertOp,
  printOp,
];
