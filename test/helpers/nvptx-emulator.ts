/**
 * A small emulator of straight-line nvptx-dialect kernels (what targets/nvptx lowers to), for
 * target tests that check data movement: every thread of one CTA runs each op before any thread
 * runs the next (so `bar.sync` holds trivially and warp-collective ops see the whole warp).
 * It implements the integer address arithmetic, 16/32-bit ld/st to global and shared memory, the
 * register packing moves, `setp.eq`, and `ldmatrix` with the PTX ISA's fragment layout: for
 * matrix q, lanes 8q..8q+7 give the addresses of its rows 0-7 (8 b16 elements each), and lane t
 * receives elements (t/4, 2(t%4)) and (t/4, 2(t%4)+1), or with `.trans` (2(t%4), t/4) and
 * (2(t%4)+1, t/4). For tf32 tensor cores: `mov.b32` of the f32 operands and
 * `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`, which uses the operands' tf32 bits (sign,
 * exponent, upper 10 mantissa bits: rounded toward zero) and the ISA's
 * fragments (g = lane / 4, t = lane % 4): a0-a3 = A(g, t), A(g+8, t), A(g, t+4), A(g+8, t+4);
 * b0-b1 = B(t, g), B(t+4, g); c0-c3 = C(g, 2t), C(g, 2t+1), C(g+8, 2t), C(g+8, 2t+1).
 * `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32` with the same C fragment and the ISA's
 * f16 A and B fragments (mmaF16), `fma.rn.f32` (the FMA dot path), and `cvt.rn.f16.f32` and the packed
 * `cvt.rn.f16x2.f32 d, a, b` (a in the upper half). For Hopper: `mov.b64 %rd, {lo, hi}` packs (64-bit registers hold bigints), `nvptx.wgmma`
 * (`wgmma.mma_async.sync.aligned.m64nNk16.f32.{f16,bf16}`, emulated from the ISA's descriptor and
 * shared-memory layout rules in nvptx-emulator-wgmma.ts), and `wgmma.fence/commit_group/wait_group`
 * and `fence.proxy.async`, which are no-ops here: every op completes before the next starts.
 * Anything else throws, naming the op. Values are bit patterns (numbers; bigints for b64 packs).
 */
import type { Operation, Value } from '../../ir/ir.js';
import { FloatAttr, IntegerAttr, StringAttr } from '../../ir/attributes.js';
import { wgmma, type Registers } from './nvptx-emulator-wgmma.js';

/** Memory of one launch: global memory as 16-bit words by byte address, shared memory as bytes. */
export interface EmulatorMemory {
  global: Map<number, number>;
  shared: DataView;
}

const u32 = (x: number): number => x >>> 0;
const s32 = (x: number): number => x | 0;

/** The `ptx` attribute of an nvptx op. */
function ptxOf(op: Operation): string {
  const a = op.getAttr('ptx');
  return a instanceof StringAttr ? a.value : '';
}

/** Bits of an access (`global.b16`, `shared.v4.b32`): space, vector length, element bits. */
function accessOf(op: Operation): { space: string; n: number; bits: number } {
  const m = /^(global|shared)(?:\.v(\d))?\.b(16|32)$/.exec(ptxOf(op));
  if (!m) throw new Error(`emulator: unsupported access '${op.name} "${ptxOf(op)}"'`);
  return { space: m[1], n: Number(m[2] ?? 1), bits: Number(m[3]) };
}

function load(mem: EmulatorMemory, space: string, bits: number, addr: number): number {
  if (space === 'shared') return bits === 16 ? mem.shared.getUint16(addr, true) : mem.shared.getUint32(addr, true);
  // global memory: little-endian 16-bit words
  const word = (a: number) => {
    const v = mem.global.get(a);
    if (v === undefined) throw new Error(`emulator: global load from unwritten address ${a}`);
    return v;
  };
  return bits === 16 ? word(addr) : u32(word(addr) | (word(addr + 2) << 16));
}

function store(mem: EmulatorMemory, space: string, bits: number, addr: number, v: number): void {
  if (space === 'shared') return bits === 16 ? mem.shared.setUint16(addr, v & 0xffff, true) : mem.shared.setUint32(addr, u32(v), true);
  mem.global.set(addr, v & 0xffff);
  if (bits === 32) mem.global.set(addr + 2, u32(v) >>> 16);
}

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
/** The f32 value of bit pattern `b`. */
const toFloat = (b: number): number => ((U32[0] = b), F32[0]);
/** The bit pattern of `v` rounded to f32. */
const toBits = (v: number): number => ((F32[0] = v), U32[0]);

/** The tf32 value a tensor core reads from f32 bits `b`: the low 13 mantissa bits dropped (rounded toward zero). */
const truncateTf32 = (b: number): number => u32(b & 0xffffe000);

/** Integer ops by name and ptx suffix. */
/** The f16 bits of `v` rounded to nearest, ties to even (IEEE 754 binary16, subnormals and infinities included). */
export function halfBitsRne(v: number): number {
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (Number.isNaN(v)) return 0x7e00;
  const even = (q: number) => (Math.abs(q - Math.trunc(q)) === 0.5 ? 2 * Math.round(q / 2) : Math.round(q));
  if (a < 2 ** -14) return sign | even(a / 2 ** -24); // subnormal (a rounding up to 2^-14 gives its bits exactly)
  let e = Math.floor(Math.log2(a));
  let m = even(a / 2 ** (e - 10));
  if (m === 2048) [e, m] = [e + 1, 1024];
  if (e > 15) return sign | 0x7c00;
  return sign | ((e + 15) << 10) | (m - 1024);
}

function arith(op: Operation, a: number, b: number): number {
  const key = `${op.name.slice(6)}.${ptxOf(op)}`;
  switch (key) {
    case 'add.s32': return s32(a + b);
    case 'add.s64': return a + b;
    case 'mul.lo.s32': return Math.imul(a, b);
    case 'mul.wide.s32': return s32(a) * s32(b);
    case 'and.b32': return u32(a & b);
    case 'or.b32': return u32(a | b);
    case 'xor.b32': return u32(a ^ b);
    case 'shl.b32': return u32(a << b);
    case 'shr.u32': return u32(a) >>> b;
    default: throw new Error(`emulator: unsupported op '${op.name} "${ptxOf(op)}"'`);
  }
}

/**
 * Runs kernel `fn` (an nvptx-dialect `func.func`) with `threads` threads on `args` (one number per
 * kernel parameter, e.g. global addresses) and `mem`.
 */
export function emulateKernel(fn: Operation, threads: number, args: number[], mem: EmulatorMemory): void {
  const regs: Registers = Array.from({ length: threads }, () => new Map<Value, number | bigint>());
  const get = (t: number, v: Value): number => {
    const x = regs[t].get(v);
    if (x === undefined) throw new Error('emulator: use of an undefined register');
    if (typeof x === 'bigint') throw new Error('emulator: a 64-bit packed register used as a number');
    return x;
  };
  let block = fn.region(0).blocks[0];
  block.args.forEach((a, k) => regs.forEach((r) => r.set(a, args[k])));
  for (;;) {
    let next = null;
    for (const op of block.ops) {
      if (op.name === 'cf.br') {
        next = op.successors[0];
        break;
      }
      if (op.name === 'func.return') return;
      step(op, threads, regs, get, mem);
    }
    if (!next) throw new Error('emulator: block without a terminator');
    block = next;
  }
}

function step(op: Operation, threads: number, regs: Registers, get: (t: number, v: Value) => number, mem: EmulatorMemory): void {
  const each = (f: (t: number) => void) => { for (let t = 0; t < threads; t++) f(t); };
  const operand = (t: number, k: number) => get(t, op.operand(k));
  switch (op.name) {
    case 'nvptx.imm': {
      const v = op.getAttr('value');
      if (v instanceof FloatAttr && v.type.toString() === 'f32') return each((t) => regs[t].set(op.result(0), toBits(v.value)));
      if (!(v instanceof IntegerAttr)) throw new Error('emulator: only integer and f32 immediates');
      return each((t) => regs[t].set(op.result(0), Number(v.value)));
    }
    case 'nvptx.cvt':
      // cvt.rn.f16x2.f32 d, a, b: d's upper half is a rounded, its lower half b (PTX ISA, cvt)
      if (ptxOf(op) === 'rn.f16x2.f32') return each((t) => regs[t].set(op.result(0), u32(halfBitsRne(toFloat(operand(t, 1))) | (halfBitsRne(toFloat(operand(t, 0))) << 16))));
      if (ptxOf(op) !== 'rn.f16.f32') throw new Error(`emulator: unsupported cvt '${ptxOf(op)}'`);
      return each((t) => regs[t].set(op.result(0), halfBitsRne(toFloat(operand(t, 0)))));
    case 'nvptx.mov':
      if (ptxOf(op) !== 'b32') throw new Error(`emulator: unsupported mov '${ptxOf(op)}'`);
      return each((t) => regs[t].set(op.result(0), operand(t, 0)));
    case 'nvptx.mma':
      return mmaTf32(op, threads, regs, get);
    case 'nvptx.fma':
      // fma.rn.f32: a * b (exact in f64 for f32 inputs) + c, rounded to f32 (one rounding wherever the f64 sum is exact)
      if (ptxOf(op) !== 'rn.f32') throw new Error(`emulator: unsupported fma '${ptxOf(op)}'`);
      return each((t) => regs[t].set(op.result(0), toBits(toFloat(operand(t, 0)) * toFloat(operand(t, 1)) + toFloat(operand(t, 2)))));
    case 'nvptx.sreg':
      if ((op.getAttr('reg') as StringAttr).value !== 'tid.x') throw new Error('emulator: only %tid.x');
      return each((t) => regs[t].set(op.result(0), t));
    case 'nvptx.smem_base':
      return each((t) => regs[t].set(op.result(0), 0));
    case 'nvptx.bar':
      return; // lockstep: every thread is already here
    case 'nvptx.setp':
      if (ptxOf(op) !== 'eq.b32') throw new Error(`emulator: unsupported setp '${ptxOf(op)}'`);
      return each((t) => regs[t].set(op.result(0), u32(operand(t, 0)) === u32(operand(t, 1)) ? 1 : 0));
    case 'nvptx.pack':
      if (ptxOf(op) === 'b64' && op.numOperands === 2) {
        // mov.b64 %rd, {%lo, %hi}: the first operand is the low word
        return each((t) => regs[t].set(op.result(0), BigInt(u32(operand(t, 0))) | (BigInt(u32(operand(t, 1))) << 32n)));
      }
      if (ptxOf(op) !== 'b32' || op.numOperands !== 2) throw new Error('emulator: only pack.b32 of two halves and pack.b64 of two words');
      return each((t) => regs[t].set(op.result(0), u32((operand(t, 0) & 0xffff) | (operand(t, 1) << 16))));
    case 'nvptx.unpack':
      if (ptxOf(op) !== 'b32' || op.numResults !== 2) throw new Error('emulator: only unpack.b32 into two halves');
      return each((t) => {
        regs[t].set(op.result(0), operand(t, 0) & 0xffff);
        regs[t].set(op.result(1), operand(t, 0) >>> 16);
      });
    case 'nvptx.ld': {
      if (op.numOperands !== 1) throw new Error('emulator: guarded loads are not supported');
      const { space, bits } = accessOf(op);
      return each((t) => op.results.forEach((r, k) => regs[t].set(r, load(mem, space, bits, operand(t, 0) + (k * bits) / 8))));
    }
    case 'nvptx.st': {
      const { space, n, bits } = accessOf(op);
      const guarded = op.numOperands === n + 2;
      return each((t) => {
        if (guarded && !operand(t, 1)) return;
        for (let k = 0; k < n; k++) store(mem, space, bits, operand(t, 0) + (k * bits) / 8, operand(t, op.numOperands - n + k));
      });
    }
    case 'nvptx.ldmatrix':
      return ldmatrix(op, threads, regs, get, mem);
    case 'nvptx.wgmma':
      return wgmma(op, threads, regs, get, mem);
    case 'nvptx.wgmma_sync':
      // fence, commit_group, wait_group N: each wgmma has completed when the next op runs
      if (!/^(fence\.sync\.aligned|commit_group\.sync\.aligned|wait_group\.sync\.aligned \d+)$/.test(ptxOf(op))) throw new Error(`emulator: unsupported wgmma_sync '${ptxOf(op)}'`);
      return;
    case 'nvptx.fence':
      // the async proxy sees every shared store already
      if (!/^proxy\.async\.shared::(cta|cluster)$/.test(ptxOf(op))) throw new Error(`emulator: unsupported fence '${ptxOf(op)}'`);
      return;
    default:
      if (op.numOperands === 2 && op.numResults === 1) return each((t) => regs[t].set(op.result(0), arith(op, operand(t, 0), operand(t, 1))));
      throw new Error(`emulator: unsupported op '${op.name}'`);
  }
}

/** `ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`, warp by warp. */
function ldmatrix(op: Operation, threads: number, regs: Registers, get: (t: number, v: Value) => number, mem: EmulatorMemory): void {
  const m = /^sync\.aligned\.m8n8\.x([124])(\.trans)?\.shared\.b16$/.exec(ptxOf(op));
  if (!m) throw new Error(`emulator: unsupported ldmatrix '${ptxOf(op)}'`);
  const x = Number(m[1]);
  const trans = !!m[2];
  for (let w = 0; w * 32 < threads; w++) {
    // element (r, c) of matrix q: column c of the row whose address lane 8q + r gives
    const at = (q: number, r: number, c: number) => mem.shared.getUint16(get(w * 32 + 8 * q + r, op.operand(0)) + 2 * c, true);
    for (let lane = 0; lane < 32; lane++) {
      const [g, p] = [lane >> 2, (lane & 3) * 2];
      for (let q = 0; q < x; q++) {
        const [lo, hi] = trans ? [at(q, p, g), at(q, p + 1, g)] : [at(q, g, p), at(q, g, p + 1)];
        regs[w * 32 + lane].set(op.result(q), u32(lo | (hi << 16)));
      }
    }
  }
}

/** The value of f16 bits `h` (subnormals, infinities and NaN included). */
function halfValue(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return sign * m * 2 ** -24;
  if (e === 31) return m ? NaN : sign * Infinity;
  return sign * (1 + m / 1024) * 2 ** (e - 15);
}

/**
 * `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`, warp by warp: D = A x B + C, products exact,
 * sums rounded to f32 per K step (exact for the small integers the tests use). Fragments (PTX ISA,
 * g = lane / 4, t = lane % 4, each register two halves along K, low half first): a0-a3 = A(g, 2t),
 * A(g+8, 2t), A(g, 2t+8), A(g+8, 2t+8); b0-b1 = B(2t, g), B(2t+8, g); C as for tf32.
 */
function mmaF16(op: Operation, threads: number, regs: Registers, get: (t: number, v: Value) => number): void {
  for (let w = 0; w * 32 < threads; w++) {
    const A = Array.from({ length: 16 }, () => new Array<number>(16).fill(NaN));
    const B = Array.from({ length: 16 }, () => new Array<number>(8).fill(NaN));
    const C = Array.from({ length: 16 }, () => new Array<number>(8).fill(NaN));
    const word = (lane: number, k: number) => get(w * 32 + lane, op.operand(k));
    for (let lane = 0; lane < 32; lane++) {
      const [g, t] = [lane >> 2, lane & 3];
      [[g, 2 * t], [g + 8, 2 * t], [g, 2 * t + 8], [g + 8, 2 * t + 8]].forEach(([i, k], j) => {
        A[i][k] = halfValue(word(lane, j) & 0xffff);
        A[i][k + 1] = halfValue(word(lane, j) >>> 16);
      });
      [[2 * t, g], [2 * t + 8, g]].forEach(([k, j], q) => {
        B[k][j] = halfValue(word(lane, 4 + q) & 0xffff);
        B[k + 1][j] = halfValue(word(lane, 4 + q) >>> 16);
      });
      [[g, 2 * t], [g, 2 * t + 1], [g + 8, 2 * t], [g + 8, 2 * t + 1]].forEach(([i, j], q) => (C[i][j] = toFloat(word(lane, 6 + q))));
    }
    for (let lane = 0; lane < 32; lane++) {
      const [g, t] = [lane >> 2, lane & 3];
      [[g, 2 * t], [g, 2 * t + 1], [g + 8, 2 * t], [g + 8, 2 * t + 1]].forEach(([i, j], q) => {
        let sum = C[i][j];
        for (let k = 0; k < 16; k++) sum += A[i][k] * B[k][j];
        regs[w * 32 + lane].set(op.result(q), toBits(sum));
      });
    }
  }
}

/** `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`, warp by warp: D = A x B + C in f32, A and B read as tf32. */
function mmaTf32(op: Operation, threads: number, regs: Registers, get: (t: number, v: Value) => number): void {
  if (ptxOf(op) === 'sync.aligned.m16n8k16.row.col.f32.f16.f16.f32') return mmaF16(op, threads, regs, get);
  if (ptxOf(op) !== 'sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32') throw new Error(`emulator: unsupported mma '${ptxOf(op)}'`);
  for (let w = 0; w * 32 < threads; w++) {
    const A = Array.from({ length: 16 }, () => new Array<number>(8).fill(NaN));
    const B = Array.from({ length: 8 }, () => new Array<number>(8).fill(NaN));
    const C = Array.from({ length: 16 }, () => new Array<number>(8).fill(NaN));
    const r = (lane: number, k: number) => toFloat(get(w * 32 + lane, op.operand(k)));
    const tf = (lane: number, k: number) => toFloat(truncateTf32(get(w * 32 + lane, op.operand(k))));
    for (let lane = 0; lane < 32; lane++) {
      const [g, t] = [lane >> 2, lane & 3];
      [[g, t], [g + 8, t], [g, t + 4], [g + 8, t + 4]].forEach(([i, k], j) => (A[i][k] = tf(lane, j)));
      [[t, g], [t + 4, g]].forEach(([k, j], q) => (B[k][j] = tf(lane, 4 + q)));
      [[g, 2 * t], [g, 2 * t + 1], [g + 8, 2 * t], [g + 8, 2 * t + 1]].forEach(([i, j], q) => (C[i][j] = r(lane, 6 + q)));
    }
    for (let lane = 0; lane < 32; lane++) {
      const [g, t] = [lane >> 2, lane & 3];
      [[g, 2 * t], [g, 2 * t + 1], [g + 8, 2 * t], [g + 8, 2 * t + 1]].forEach(([i, j], q) => {
        let s = C[i][j];
        for (let k = 0; k < 8; k++) s += A[i][k] * B[k][j];
        regs[w * 32 + lane].set(op.result(q), toBits(s));
      });
    }
  }
}
