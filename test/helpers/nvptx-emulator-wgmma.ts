/**
 * `wgmma.mma_async.sync.aligned.m64nNk16.f32.<t>.<t>` (t: f16 or bf16; B in shared memory, A in
 * shared memory or in registers) and `m64nNk8.f32.tf32.tf32` (both tiles K-major in shared memory)
 * for the nvptx emulator, written from the PTX ISA's rules, not from the target's code:
 *
 * - Descriptor (64 bits): start address = bits 0-13 << 4, leading dimension byte offset (LBO) =
 *   bits 16-29 << 4, stride dimension byte offset (SBO) = bits 32-45 << 4, matrix base offset =
 *   bits 49-51 (must be 0 here: tiles are placed at swizzle-pattern aligned addresses), swizzle
 *   mode = bits 62-63 (1: 128 bytes, 2: 64, 3: 32; 0, no swizzle, is not emulated).
 * - Canonical layouts, for a swizzle of S bytes and 16-bit elements (8 per 16 bytes), element
 *   (mn, k) of the instruction's 64 x 16 A (mn = row of M) or 16 x N B (mn = column of N):
 *   K-major (imm-trans = 0): rows of S bytes hold K; 8 such rows (mn % 8) form a group, groups
 *   (mn / 8) are SBO apart: start + (mn % 8) * S + (mn / 8) * SBO + 2k.
 *   MN-major (imm-trans = 1): rows of S bytes hold S/2 elements of M or N; the 8 rows of a group
 *   are 8 consecutive k, groups of 8 k are SBO apart, and blocks of S/2 along M or N are LBO
 *   apart: start + 2 (mn % (S/2)) + (mn / (S/2)) * LBO + (k % 8) * S + (k / 8) * SBO.
 *   tf32 (32-bit elements, K = 8 per instruction) is K-major only: start + (mn % 8) * S +
 *   (mn / 8) * SBO + 4k; the tensor core reads the f32 bits as tf32 (the low 13 mantissa bits
 *   dropped).
 * - Swizzle: on the resulting byte address, bits [4, 4 + log2(S/16)) (the 16-byte chunk) are
 *   XORed with bits [7, 7 + log2(S/16)) (the 128-byte row).
 * - D = A * B + (scale-d ? D : 0) with imm-scale-a = imm-scale-b = 1: each instruction's 16
 *   products are summed in float64 and added to D, then rounded to f32 (the ISA leaves the
 *   accumulation order open; tests allow f32 rounding error).
 * - Accumulator fragment: thread t of the warp group (warp w = t / 32, lane l) holds in register
 *   i (0 <= i < N/2) row 16w + l/4 + 8((i >> 1) & 1), column 8(i >> 2) + 2(l % 4) + (i & 1).
 *
 * Each warp group of the CTA (threads 128g .. 128g + 127) runs its own instruction; its
 * descriptors and scale-d must agree across the group (the instruction is `.aligned`).
 */
import type { Operation, Value } from '../../ir/ir.js';
import { IntegerAttr, StringAttr } from '../../ir/attributes.js';
import type { EmulatorMemory } from './nvptx-emulator.js';

/** Per-thread registers: 32-bit (and narrower) bit patterns as numbers, 64-bit packs as bigints. */
export type Registers = Map<Value, number | bigint>[];

/** The fields of a wgmma matrix descriptor. */
export interface WgmmaDescriptor {
  /** Byte address in shared memory. */
  start: number;
  /** Leading and stride dimension byte offsets. */
  lbo: number;
  sbo: number;
  /** Matrix base offset (bits 49-51). */
  baseOffset: number;
  /** Swizzle width in bytes (0: none). */
  swizzle: number;
}

const SWIZZLE_BYTES = [0, 128, 64, 32];

/** Decodes a 64-bit descriptor by the ISA's field layout. */
export function decodeDescriptor(desc: bigint): WgmmaDescriptor {
  const field = (lo: number, bits: number) => Number((desc >> BigInt(lo)) & ((1n << BigInt(bits)) - 1n));
  return {
    start: field(0, 14) << 4,
    lbo: field(16, 14) << 4,
    sbo: field(32, 14) << 4,
    baseOffset: field(49, 3),
    swizzle: SWIZZLE_BYTES[field(62, 2)],
  };
}

/** The swizzled byte address of element (mn, k) of an operand of `bytes`-byte elements (2, or 4 for tf32) under `d` (K-major unless `mnMajor`). */
export function wgmmaElementAddress(d: WgmmaDescriptor, mnMajor: boolean, mn: number, k: number, bytes = 2): number {
  const S = d.swizzle;
  if (!S) throw new Error('emulator: wgmma without swizzle (mode 0) is not emulated');
  if (d.baseOffset) throw new Error('emulator: wgmma descriptors with a matrix base offset are not emulated');
  if (mnMajor && bytes !== 2) throw new Error('emulator: only 16-bit wgmma tiles can be MN-major');
  const perRow = S / 2;
  const addr = mnMajor
    ? d.start + 2 * (mn % perRow) + Math.floor(mn / perRow) * d.lbo + (k % 8) * S + Math.floor(k / 8) * d.sbo
    : d.start + (mn % 8) * S + Math.floor(mn / 8) * d.sbo + bytes * k;
  const mask = S / 16 - 1;
  return addr ^ (((addr >>> 7) & mask) << 4);
}

/** The value of f16 bits `h`. */
export function halfValue(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 31;
  const f = h & 1023;
  if (e === 0) return sign * f * 2 ** -24;
  if (e === 31) return f ? NaN : sign * Infinity;
  return sign * (1 + f / 1024) * 2 ** (e - 15);
}

/** The value of bf16 bits `h` (the high half of an f32). */
export function bfloatValue(h: number): number {
  return new Float32Array(new Uint32Array([(h & 0xffff) << 16]).buffer)[0];
}

const f32Bits = (v: number): number => new Uint32Array(new Float32Array([v]).buffer)[0];
const bitsF32 = (b: number): number => new Float32Array(new Uint32Array([b >>> 0]).buffer)[0];

/** The accumulator element register `i` of warp-group thread `t` holds. */
export function wgmmaFragment(t: number, i: number): [number, number] {
  const [w, l] = [t >> 5, t & 31];
  return [16 * w + (l >> 2) + 8 * ((i >> 1) & 1), 8 * (i >> 2) + 2 * (l & 3) + (i & 1)];
}

/**
 * The 64 x 16 A of warp group `t0` from its register fragment (the ISA's m64nNk16 A figure, the
 * same per warp as mma.sync's m16n8k16 A): thread t (warp w = t / 32, lane l, g = l / 4, q = l % 4)
 * holds in a0..a3 the pairs (16w + g, 2q..2q+1), (16w + g + 8, 2q..), (16w + g, 2q + 8..),
 * (16w + g + 8, 2q + 8..), the lower column in the low half.
 */
function registerA(op: Operation, t0: number, get: (t: number, v: Value) => number, value: (h: number) => number): number[][] {
  const A = Array.from({ length: 64 }, () => new Array<number>(16).fill(NaN));
  for (let t = 0; t < 128; t++) {
    const [w, l] = [t >> 5, t & 31];
    const [g, q] = [l >> 2, l & 3];
    [[0, 0], [8, 0], [0, 8], [8, 8]].forEach(([dr, dk], j) => {
      const word = get(t0 + t, op.operand(j));
      A[16 * w + g + dr][2 * q + dk] = value(word & 0xffff);
      A[16 * w + g + dr][2 * q + dk + 1] = value((word >>> 16) & 0xffff);
    });
  }
  return A;
}

/** `nvptx.wgmma` for every warp group of `threads`. */
export function wgmma(op: Operation, threads: number, regs: Registers, get: (t: number, v: Value) => number, mem: EmulatorMemory): void {
  const ptx = (op.getAttr('ptx') as StringAttr | undefined)?.value ?? '';
  const m = /^sync\.aligned\.m64n(\d+)k(8|16)\.f32\.(f16|bf16|tf32)\.(f16|bf16|tf32)$/.exec(ptx);
  if (!m || m[3] !== m[4] || (m[2] === '8') !== (m[3] === 'tf32')) throw new Error(`emulator: unsupported wgmma '${ptx}'`);
  const n = Number(m[1]);
  const kSteps = Number(m[2]);
  const tf32 = m[3] === 'tf32';
  const bytes = tf32 ? 4 : 2;
  const value = m[3] === 'f16' ? halfValue : bfloatValue;
  const flag = (name: string) => Number((op.getAttr(name) as IntegerAttr).value);
  const [transA, transB] = [flag('transA') === 1, flag('transB') === 1];
  if (tf32 && (transA || transB)) throw new Error('emulator: a tf32 wgmma has no transpose immediates (its tiles are K-major)');
  if (threads % 128) throw new Error(`emulator: wgmma needs whole warp groups, got ${threads} threads`);
  // A is one descriptor, or four b32 registers of 16-bit pairs (the register fragment).
  const aWords = op.numOperands - 2 - n / 2;
  if ((aWords !== 1 && aWords !== 4) || op.numResults !== n / 2) throw new Error(`emulator: wgmma m64n${n} takes A, B, scale-d and ${n / 2} accumulator registers`);
  if (tf32 && aWords !== 1) throw new Error('emulator: tf32 wgmma with A in registers is not emulated');
  const [bAt, scaleAt, accAt] = [aWords, aWords + 1, aWords + 2];
  for (let g = 0; g * 128 < threads; g++) {
    const t0 = g * 128;
    // The descriptors and scale-d of the group: the same in every thread.
    const uniform = <T>(read: (t: number) => T, what: string): T => {
      const v = read(t0);
      for (let t = t0 + 1; t < t0 + 128; t++) if (read(t) !== v) throw new Error(`emulator: wgmma ${what} differs across warp group ${g} (threads ${t0} and ${t})`);
      return v;
    };
    const desc = (k: number) => {
      if (typeof regs[t0].get(op.operand(k)) !== 'bigint') throw new Error('emulator: a wgmma descriptor is not a 64-bit register');
      return decodeDescriptor(uniform((t) => regs[t].get(op.operand(k)) as bigint, `descriptor ${k === 0 ? 'A' : 'B'}`));
    };
    const dB = desc(bAt);
    const scaleD = uniform((t) => get(t, op.operand(scaleAt)), 'scale-d') !== 0;
    const read = (d: WgmmaDescriptor, mnMajor: boolean, mn: number, k: number) => {
      const at = wgmmaElementAddress(d, mnMajor, mn, k, bytes);
      if (at + bytes > mem.shared.byteLength) throw new Error(`emulator: wgmma reads shared byte ${at}, past the ${mem.shared.byteLength} bytes of shared memory`);
      // tf32: the f32 bits with the low 13 mantissa bits dropped.
      return tf32 ? bitsF32(mem.shared.getUint32(at, true) & 0xffffe000) : value(mem.shared.getUint16(at, true));
    };
    const A = aWords === 1 ? Array.from({ length: 64 }, (_, i) => Array.from({ length: kSteps }, (_, k) => read(desc(0), transA, i, k))) : registerA(op, t0, get, value);
    const B = Array.from({ length: kSteps }, (_, k) => Array.from({ length: n }, (_, j) => read(dB, transB, j, k)));
    // D from the fragments: every element exactly once.
    const D = Array.from({ length: 64 }, () => new Array<number>(n).fill(NaN));
    const seen = Array.from({ length: 64 }, () => new Array<boolean>(n).fill(false));
    for (let t = 0; t < 128; t++) {
      for (let i = 0; i < n / 2; i++) {
        const [r, c] = wgmmaFragment(t, i);
        if (seen[r][c]) throw new Error(`emulator: wgmma fragment element (${r}, ${c}) held twice`);
        seen[r][c] = true;
        D[r][c] = bitsF32(get(t0 + t, op.operand(accAt + i)));
      }
    }
    for (let t = 0; t < 128; t++) {
      for (let i = 0; i < n / 2; i++) {
        const [r, c] = wgmmaFragment(t, i);
        let s = 0;
        for (let k = 0; k < kSteps; k++) s += A[r][k] * B[k][c];
        regs[t0 + t].set(op.result(i), f32Bits((scaleD ? D[r][c] : 0) + s));
      }
    }
  }
}
