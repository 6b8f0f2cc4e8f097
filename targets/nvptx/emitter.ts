/**
 * Creating nvptx ops: a thin layer over the IR builder that names each instruction by its PTX
 * opcode and suffix, and knows PTX's type suffixes for our SSA types.
 */
import { FloatAttr, IntegerAttr, StringAttr } from '../../ir/attributes.js';
import type { Builder } from '../../ir/builder.js';
import { DiagnosticError } from '../../ir/diagnostics.js';
import type { Operation, Value } from '../../ir/ir.js';
import { FloatType, IntegerType, i, f, type Type } from '../../ir/types.js';
import { opError } from '../../ir/verifier.js';
import type { OpDef } from '../../ir/op-def.js';
import * as nvptx from '../../dialects/nvptx.js';

/** The kernel parameter attribute marking a TMA tensor map (a `!tt.tensordesc` parameter): set by the lowering, read by the printer. */
export const TENSOR_MAP_ATTR = 'nvptx.tensor_map';

/** The GPU architectures we print PTX for. */
export type Arch = 'sm_80' | 'sm_90a';

/** Register types of the nvptx dialect. */
export const I1 = i(1);
export const I8 = i(8);
export const I16 = i(16);
export const I32 = i(32);
export const I64 = i(64);
export const F16 = f('f16');
export const BF16 = f('bf16');
export const F32 = f('f32');
export const F64 = f('f64');

/** A failure of the target at a source op: becomes a located `error:` diagnostic. */
export function targetError(op: Operation, message: string): DiagnosticError {
  return new DiagnosticError(opError(op, message));
}

/** An internal bug of the target, naming the op being lowered. */
export function internalError(op: Operation, message: string): DiagnosticError {
  return new DiagnosticError(opError(op, `internal error in nvptx lowering: ${message}`));
}

/** Whether `t` is one of the float types PTX computes in natively (f32, f64). */
export const isWideFloat = (t: Type): boolean => t === F32 || t === F64;

/** Bit width of a register type (i1 counts 1). */
export function widthOf(t: Type): number {
  if (t instanceof IntegerType) return t.width;
  if (t instanceof FloatType) return t.width;
  throw new Error(`internal error: '${t}' is not a register type`);
}

/** PTX's type suffix: `f32`, `f16`, `bf16`, or for integers `s32`/`u32`/`b32` by `kind`. */
export function ptxType(t: Type, kind: 's' | 'u' | 'b' = 'b'): string {
  if (t instanceof FloatType) return t.kind === 'bf16' ? 'bf16' : `f${t.width}`;
  if (t instanceof IntegerType) return t.width === 1 ? 'pred' : `${kind}${t.width}`;
  throw new Error(`internal error: '${t}' has no PTX type`);
}

/** Bit type of the same width (`b32` for f32). */
export const bitsType = (t: Type): string => `b${widthOf(t)}`;

/** The definition of the plain instruction `opcode` (`nvptx.add` for 'add'), as `PtxEmitter.op` builds it. */
export function plainOp(opcode: string): OpDef {
  const def = nvptx.plainOps.find((d) => d.name === `nvptx.${opcode}`);
  if (!def) throw new Error(`internal error: nvptx has no plain instruction '${opcode}'`);
  return def;
}

/** Builds nvptx ops at a builder's insertion point. */
export class PtxEmitter {
  constructor(readonly b: Builder, readonly arch: Arch) {}

  /** `opcode.ptx dst, args...` with result type `type`. */
  op(opcode: string, ptx: string, args: readonly Value[], type: Type): Value {
    return this.b.create(`nvptx.${opcode}`, { operands: { args }, attrs: { ptx: StringAttr.get(ptx) }, results: { dst: type } }).result(0);
  }

  /** An immediate of `type` (integer types take integers; floats take numbers). */
  imm(type: Type, value: number | bigint): Value {
    const attr = type instanceof FloatType ? FloatAttr.get(Number(value), type) : IntegerAttr.get(value, type);
    return nvptx.ImmOp.build(this.b, { value: attr }).dst;
  }

  /** A special register, e.g. `tid.x`, `ctaid.y`, `nctaid.z`, `laneid`. */
  sreg(name: string): Value {
    return nvptx.SregOp.build(this.b, { reg: name }, { results: { dst: I32 } }).dst;
  }

  /** The shared-window address of the dynamic shared memory. */
  smemBase(): Value {
    return nvptx.SmemBaseOp.build(this.b, {}, { results: { dst: I32 } }).dst;
  }

  // ---- integer helpers (32-bit unless the operands say otherwise) ----

  add(a: Value, b: Value): Value {
    return this.op('add', ptxType(a.type, 's'), [a, b], a.type);
  }
  sub(a: Value, b: Value): Value {
    return this.op('sub', ptxType(a.type, 's'), [a, b], a.type);
  }
  mulLo(a: Value, b: Value): Value {
    return this.op('mul', `lo.${ptxType(a.type, 's')}`, [a, b], a.type);
  }
  and(a: Value, b: Value): Value {
    return this.op('and', bitsType(a.type), [a, b], a.type);
  }
  or(a: Value, b: Value): Value {
    return this.op('or', bitsType(a.type), [a, b], a.type);
  }
  xor(a: Value, b: Value): Value {
    return this.op('xor', bitsType(a.type), [a, b], a.type);
  }
  shl(a: Value, n: number): Value {
    return n === 0 ? a : this.op('shl', bitsType(a.type), [a, this.imm(I32, n)], a.type);
  }
  shrU(a: Value, n: number): Value {
    return n === 0 ? a : this.op('shr', ptxType(a.type, 'u'), [a, this.imm(I32, n)], a.type);
  }
  /** `a + k` for a constant k (a when k is 0). */
  addImm(a: Value, k: number): Value {
    return k === 0 ? a : this.add(a, this.imm(a.type, k));
  }
  /** `a * k` for a constant k, as a shift when k is a power of two. */
  mulImm(a: Value, k: number): Value {
    if (k === 1) return a;
    if (k > 0 && (k & (k - 1)) === 0) return this.shl(a, Math.log2(k));
    return this.mulLo(a, this.imm(a.type, k));
  }
  /** `setp.cmp.type` into a predicate. */
  setp(cmp: string, kind: 's' | 'u' | 'b' | 'f', a: Value, b: Value): Value {
    const ty = kind === 'f' ? ptxType(a.type) : ptxType(a.type, kind);
    return this.op('setp', `${cmp}.${ty}`, [a, b], I1);
  }
  /** `p ? a : b`. */
  selp(p: Value, a: Value, b: Value): Value {
    if (a.type === I1) return this.op('or', 'pred', [this.op('and', 'pred', [p, a], I1), this.op('and', 'pred', [this.op('not', 'pred', [p], I1), b], I1)], I1);
    // a byte lives in a 16-bit register (PTX has no selp.b8)
    return this.op('selp', widthOf(a.type) === 8 ? 'b16' : bitsType(a.type), [a, b, p], a.type);
  }
  /** An i1 as the 0/1 byte memory holds it (in a 16-bit register). */
  boolToByte(p: Value): Value {
    return this.selp(p, this.imm(I16, 1), this.imm(I16, 0));
  }
  /** A byte read from memory as an i1 (nonzero is true). */
  byteToBool(v: Value): Value {
    return this.setp('ne', 'b', v, this.imm(I16, 0));
  }
  /** Widens or narrows an integer (sign- or zero-extending by `kind`). */
  intCast(a: Value, to: Type, kind: 's' | 'u'): Value {
    if (a.type === to) return a;
    return this.op('cvt', `${ptxType(to, kind)}.${ptxType(a.type, kind)}`, [a], to);
  }
  /** A 64-bit byte address `base + index * bytes` (a 32-bit index is sign-extended by `mul.wide`). */
  addressOf(base: Value, index: Value, bytes: number): Value {
    if (index.type === I64) return this.add(base, this.mulImm(index, bytes));
    return this.add(base, this.op('mul', 'wide.s32', [index, this.imm(I32, bytes)], I64));
  }
  /** Joins registers into one of `type` (`mov.b64 %rd, {%r1, %r2};`). */
  pack(ptx: string, parts: readonly Value[], type: Type): Value {
    // pack(unpack(%w)) -> %w: an ldmatrix word split into halves and packed again for mma.sync stays
    // one register (ptxas copies the pair otherwise).
    const unpacked = nvptx.UnpackOp.match(parts[0]?.definingOp);
    if (unpacked && unpacked.ptx === ptx && unpacked.args[0].type === type && unpacked.dst.length === parts.length && parts.every((p, k) => p === unpacked.dst[k])) return unpacked.args[0];
    return nvptx.PackOp.build(this.b, { args: parts, ptx }, { results: { dst: type } }).dst;
  }
  /** Splits a register into registers of `types` (`mov.b64 {%r1, %r2}, %rd;`). */
  unpack(ptx: string, v: Value, types: readonly Type[]): Value[] {
    return nvptx.UnpackOp.build(this.b, { args: [v], ptx }, { results: { dst: types } }).dst;
  }

  /** The bits of `v` as an integer register of its width (a float moved as it is; an integer unchanged). */
  bits(v: Value): Value {
    return v.type instanceof FloatType ? this.op('mov', `b${widthOf(v.type)}`, [v], i(widthOf(v.type))) : v;
  }
  /** An integer register `v` as a register of `type` of the same width (a float moved as it is). */
  fromBits(v: Value, type: Type): Value {
    return type instanceof FloatType ? this.op('mov', `b${widthOf(type)}`, [v], type) : v;
  }
  /**
   * Registers `parts` (one element type) in one register of `type`, part 0 in the lowest bits:
   * 16- and 32-bit parts by one vector move (`mov.b32 %r, {%rs1, %rs2}`), narrower ones (bytes)
   * zero-extended, shifted and or-ed.
   */
  packParts(parts: readonly Value[], type: Type): Value {
    if (parts.length === 1 && parts[0].type === type) return parts[0];
    const bits = widthOf(type);
    const w = widthOf(parts[0].type);
    if (parts.length > 1 && w >= 16) return this.fromBits(this.pack(`b${bits}`, parts.map((v) => (w === 32 ? this.bits(v) : v)), i(bits)), type);
    if (w === 8 && bits === 32 && parts.length === 4) {
      // the four bytes of one word, in order: that word
      const sources = parts.map(byteSource);
      const word = sources[0]?.word;
      if (word && widthOf(word.type) === 32 && sources.every((b, j) => b && b.word === word && b.index === j)) return this.fromBits(this.bits(word), type);
      // bytes still paired in 16-bit registers (an fp8 pair conversion's result): one free move
      const halves = [this.halfOfBytes(parts[0], parts[1]), this.halfOfBytes(parts[2], parts[3])];
      if (halves[0] && halves[1]) return this.fromBits(this.pack('b32', halves as Value[], I32), type);
    }
    let acc: Value | null = null;
    parts.forEach((v, j) => {
      const part = this.shl(this.intCast(this.bits(v), i(bits), 'u'), j * w);
      acc = acc ? this.or(acc, part) : part;
    });
    return this.fromBits(acc!, type);
  }
  /** The `count` registers of element type `elt` packed in `word` (`packParts`' inverse; part 0 from the lowest bits). */
  unpackParts(word: Value, count: number, elt: Type): Value[] {
    if (count === 1 && word.type === elt) return [word];
    const w = widthOf(elt);
    const whole = this.bits(word);
    if (count > 1 && w === 16) return this.unpack(`b${widthOf(word.type)}`, whole, new Array(count).fill(elt));
    if (count > 1 && w === 32) return this.unpack('b64', whole, [I32, I32]).map((v) => this.fromBits(v, elt));
    return Array.from({ length: count }, (_, j) => this.fromBits(this.intCast(this.shrU(whole, j * w), i(w), 'u'), elt));
  }
  /**
   * The 16-bit register holding bytes `lo` and `hi` as its low and high byte, when they were taken
   * from one 16- or 32-bit register at an even byte and the next (as `unpackParts` and
   * `bytesOfHalf` take them); else null. A 32-bit word's half comes from a free `mov.b32 {lo, hi}`.
   */
  halfOfBytes(lo: Value, hi: Value): Value | null {
    const a = byteSource(lo);
    const b = byteSource(hi);
    if (!a || !b || a.word !== b.word || a.index % 2 !== 0 || b.index !== a.index + 1) return null;
    const w = widthOf(a.word.type);
    if (w === 16) return a.index === 0 ? a.word : null;
    if (w === 32) return this.unpack('b32', this.bits(a.word), [I16, I16])[a.index / 2];
    return null;
  }
  /** The low and high byte of a 16-bit register, as i8 registers (`halfOfBytes` gives it back). */
  bytesOfHalf(half: Value): [Value, Value] {
    return [this.intCast(half, I8, 'u'), this.intCast(this.shrU(half, 8), I8, 'u')];
  }
  /** `a && b` on optional predicates (either alone where the other is absent). */
  andPred(a: Value | undefined, b: Value | undefined): Value | undefined {
    if (!a) return b;
    if (!b) return a;
    return this.op('and', 'pred', [a, b], I1);
  }

  // ---- memory and synchronization ----

  /** A (possibly guarded, vector) load of `types.length` registers. */
  ld(ptx: string, addr: Value, types: readonly Type[], guard?: Value, other?: readonly Value[]): Value[] {
    return nvptx.LdOp.build(this.b, { addr, guard, other: other ?? [], ptx }, { results: { dst: types } }).dst;
  }
  /** A (possibly guarded, vector) store. */
  st(ptx: string, addr: Value, values: readonly Value[], guard?: Value): void {
    nvptx.StOp.build(this.b, { addr, guard, values, ptx });
  }
  /** `bar.sync 0`. */
  barrier(): void {
    nvptx.BarOp.build(this.b, {});
  }
  /** A 32-bit warp shuffle of all lanes (`mode` is bfly, up, down or idx). */
  shfl(mode: string, v: Value, lane: Value | number, clamp: number): Value {
    const laneV = typeof lane === 'number' ? this.imm(I32, lane) : lane;
    return nvptx.ShflOp.build(this.b, { args: [v, laneV, this.imm(I32, clamp), this.imm(I32, -1)], ptx: `sync.${mode}.b32` }, { results: { dst: v.type } }).dst;
  }
}

/** The `ptx` suffix of `op` when it is the plain instruction `opcode`, else null. */
function plainSuffix(op: Operation | null, opcode: string): string | null {
  if (!op || op.name !== `nvptx.${opcode}`) return null;
  const ptx = op.getAttr('ptx');
  return ptx instanceof StringAttr ? ptx.value : null;
}

/** Where byte register `v` was taken from: `cvt.u8.u{16,32}` of a register, shifted right by a multiple of 8 or not. */
function byteSource(v: Value): { word: Value; index: number } | null {
  const cvt = v.definingOp;
  const suffix = plainSuffix(cvt, 'cvt');
  if (suffix !== 'u8.u32' && suffix !== 'u8.u16') return null;
  let word = cvt!.operand(0);
  let shift = 0;
  const shr = word.definingOp;
  const shrSuffix = plainSuffix(shr, 'shr');
  if (shrSuffix === 'u32' || shrSuffix === 'u16') {
    const amount = nvptx.ImmOp.match(shr!.operand(1).definingOp)?.value;
    if (!(amount instanceof IntegerAttr)) return null;
    shift = Number(amount.value);
    word = shr!.operand(0);
  }
  return shift % 8 === 0 ? { word, index: shift / 8 } : null;
}

/** Extends an f16/bf16 value to f32 (others unchanged). */
export function toF32(e: PtxEmitter, v: Value): Value {
  if (v.type === F16) return e.op('cvt', 'f32.f16', [v], F32);
  if (v.type === BF16) {
    // bf16 is the top half of an f32: shift its bits up (cvt.f32.bf16 needs sm_90).
    const wide = e.intCast(e.bits(v), I32, 'u');
    return e.op('mov', 'b32', [e.shl(wide, 16)], F32);
  }
  return v;
}

/** Rounds an f32 value to `to` (f16/bf16), or returns it. */
export function fromF32(e: PtxEmitter, v: Value, to: Type): Value {
  if (to === F16 || to === BF16) return e.op('cvt', `rn.${ptxType(to)}.f32`, [v], to);
  return v;
}
