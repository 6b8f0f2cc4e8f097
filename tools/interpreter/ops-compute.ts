/** tt compute ops: dot, reduce, scan (running their combiner regions), fp_to_fp, clampf, precise math, mulhiui, bitcast, assert, print. */
import { StringAttr, IntegerAttr } from '../../ir/attributes.js';
import type { Operation } from '../../ir/ir.js';
import { PointerType } from '../../dialects/tt/types.js';
import { PropagateNan, RoundingMode } from '../../dialects/tt/enums.js';
import type { Interpreter, OpImpl } from './interpreter.js';
import { fail } from './errors.js';
import { rounderFor, roundTowardZero } from './floats.js';
import { floatBinary, floatTernary, floatUnary, fromFunction } from './elementwise.js';
import { bitcastElt } from './ops-arith.js';
import { intAttr } from './ops-shape.js';
import { laneText } from './ops-memory.js';
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

const dot: OpImpl = (op, ins) => [dotProduct(asTensor(ins[0]), asTensor(ins[1]), asTensor(ins[2]), elementOf(op.result(0).type))];

/** A 0-d tensor holding element k of t. */
function elementAt(t: Tensor, k: number): Tensor {
  const d = allocData(t.elt, 1);
  copyElt(d, 0, t.data, k);
  return tensor([], t.elt, d);
}

/** Runs a combiner region on (lhs..., rhs...) scalars and returns its results. */
function combine(it: Interpreter, op: Operation, lhs: Tensor[], rhs: Tensor[]): Tensor[] {
  const exit = it.runRegion(op.regions[0], [...lhs, ...rhs]);
  return exit.values.map(asTensor);
}

/** Splits a shape around `axis`: (outer count, axis length, inner count). */
function around(shape: readonly number[], axis: number): [number, number, number] {
  return [numel(shape.slice(0, axis)), shape[axis], numel(shape.slice(axis + 1))];
}

/** tt.reduce: folds each line along `axis` left to right with the combiner region. */
const reduce: OpImpl = (op, ins, it) => {
  const srcs = ins.map(asTensor);
  const axis = intAttr(op, 'axis');
  const [outer, len, inner] = around(srcs[0].shape, axis);
  const results = op.results.map((r) => allocData(elementOf(r.type), outer * inner));
  for (let o = 0; o < outer; o++)
    for (let i = 0; i < inner; i++) {
      const base = o * len * inner + i;
      let acc = srcs.map((s) => elementAt(s, base));
      for (let j = 1; j < len; j++) acc = combine(it, op, acc, srcs.map((s) => elementAt(s, base + j * inner)));
      acc.forEach((a, r) => copyElt(results[r], o * inner + i, a.data, 0));
    }
  return op.results.map((r, k) => tensor(shapeOfType(r.type), elementOf(r.type), results[k]));
};

/** tt.scan: inclusive scan along `axis` (from the end when `reverse`). */
const scan: OpImpl = (op, ins, it) => {
  const srcs = ins.map(asTensor);
  const axis = intAttr(op, 'axis');
  const reverse = (op.getAttr('reverse') as IntegerAttr | undefined)?.value === 1n;
  const [outer, len, inner] = around(srcs[0].shape, axis);
  const results = srcs.map((s) => allocData(s.elt, s.data.length));
  for (let o = 0; o < outer; o++)
    for (let i = 0; i < inner; i++) {
      let acc: Tensor[] | null = null;
      for (let step = 0; step < len; step++) {
        const j = reverse ? len - 1 - step : step;
        const idx = o * len * inner + j * inner + i;
        const cur = srcs.map((s) => elementAt(s, idx));
        acc = acc ? combine(it, op, acc, cur) : cur;
        acc.forEach((a, r) => copyElt(results[r], idx, a.data, 0));
      }
    }
  return op.results.map((r, k) => tensor(shapeOfType(r.type), elementOf(r.type), results[k]));
};

const fpToFp: OpImpl = (op, ins) => {
  const c = eltClass(elementOf(op.result(0).type));
  if (c.k !== 'float') return fail('expected a float result');
  const mode = op.getAttr('rounding');
  const rtz = mode !== undefined && RoundingMode.nameOf(mode) === 'rtz';
  const src = asTensor(ins[0]).data as Float64Array;
  return [fromFunction(op, 0, (k) => (rtz ? roundTowardZero(src[k], c.kind) : rounderFor(c.kind)(src[k])))];
};

const maxnum = (a: number, b: number): number => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b));
const minnum = (a: number, b: number): number => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b));

const clampf: OpImpl = (op, ins, it) => {
  const propagate = PropagateNan.nameOf(op.getAttr('propagateNan')!) === 'all';
  const f = propagate ? (x: number, lo: number, hi: number) => Math.min(Math.max(x, lo), hi) : (x: number, lo: number, hi: number) => minnum(maxnum(x, lo), hi);
  return floatTernary(f)(op, ins, it);
};

/** High half of the unsigned product of two integers of the same width. */
const mulhiui: OpImpl = (op, ins) => {
  const c = eltClass(elementOf(op.result(0).type));
  const w = c.k === 'int' ? c.width : 64;
  const a = asTensor(ins[0]).data as Int32Array | BigInt64Array;
  const b = asTensor(ins[1]).data as Int32Array | BigInt64Array;
  return [fromFunction(op, 0, (k) => {
    const ak = a[k];
    const bk = b[k];
    const x = typeof ak === 'bigint' ? BigInt.asUintN(64, ak) : BigInt(unsignedOf(ak, w));
    const y = typeof bk === 'bigint' ? BigInt.asUintN(64, bk) : BigInt(unsignedOf(bk, w));
    const hi = (x * y) >> BigInt(w);
    return w === 64 ? BigInt.asIntN(64, hi) : Number(BigInt.asIntN(32, hi));
  })];
};

const bitcast: OpImpl = (op, ins) => {
  const src = asTensor(ins[0]);
  const rt = op.result(0).type;
  if (elementOf(rt) instanceof PointerType) return [tensor(shapeOfType(rt), elementOf(rt), src.data)];
  return [fromFunction(op, 0, (k) => bitcastElt(readElt(src.data, k) as number | bigint, op))];
};

const assertOp: OpImpl = (op, ins, it) => {
  const c = asTensor(ins[0]);
  const d = c.data as Int32Array;
  for (let k = 0; k < d.length; k++) {
    if (d[k]) continue;
    const msg = (op.getAttr('message') as StringAttr | undefined)?.value ?? '';
    fail(`assertion failed: ${msg} (lane ${laneText(k, c.shape)}, program (${it.pid.join(', ')}))`);
  }
  return [];
};

/** tt.print: one line per element of each argument (a single line for scalars), collected in `prints`. */
const printOp: OpImpl = (op, ins, it) => {
  const prefix = (op.getAttr('prefix') as StringAttr | undefined)?.value ?? '';
  const hex = (op.getAttr('hex') as IntegerAttr | undefined)?.value === 1n;
  const pid = `pid (${it.pid.join(', ')})`;
  if (ins.length === 0) it.prints.push(`${pid} ${prefix}`);
  ins.forEach((v, a) => {
    const t = asTensor(v);
    for (let k = 0; k < t.data.length; k++) {
      const idx = t.shape.length ? ` idx ${laneText(k, t.shape)}` : '';
      const operand = ins.length > 1 ? ` (operand ${a})` : '';
      it.prints.push(`${pid}${idx}${prefix}${operand}${formatElt(t, k, hex)}`);
    }
  });
  return [];
};

function formatElt(t: Tensor, k: number, hex: boolean): string {
  const v = readElt(t.data, k);
  if (typeof v === 'object') return ` <ptr buffer #${v.buf} + ${v.off}>`;
  if (hex && typeof v !== 'number') return ` 0x${BigInt.asUintN(64, v).toString(16)}`;
  if (hex && typeof v === 'number' && eltClass(t.elt).k === 'int') return ` 0x${(v >>> 0).toString(16)}`;
  return ` ${v}`;
}

/** The compute op table. */
export const computeOps: Record<string, OpImpl> = {
  'tt.dot': dot,
  'tt.reduce': reduce,
  'tt.scan': scan,
  'tt.fp_to_fp': fpToFp,
  'tt.clampf': clampf,
  'tt.precise_sqrt': floatUnary(Math.sqrt),
  'tt.precise_divf': floatBinary((a, b) => a / b),
  'tt.mulhiui': mulhiui,
  'tt.bitcast': bitcast,
  'tt.assert': assertOp,
  'tt.print': printOp,
};
