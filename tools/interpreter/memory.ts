/**
 * Global-memory buffers for the interpreter. Each buffer has an element type and typed-array
 * storage in the type's real format (fp8 as bytes, f16/bf16 as 16-bit patterns, f32 as Float32Array, ...),
 * and every access is bounds-checked by the caller through `checkIndex`.
 */
import { FloatType, IntegerType, type Type, f, i } from '../../ir/types.js';
import { halfBitsToNumber, numberToHalfBits, bf16BitsToNumber, numberToBf16Bits } from '../../ir/attributes.js';
import { MINIFLOATS, miniFloatFormat } from '../../ir/minifloat.js';
import { floatFromBits32, floatToBits32 } from './floats.js';

/** Storage arrays a buffer may use. */
export type Storage =
  | Float64Array | Float32Array | Uint16Array | Int8Array | Int16Array | Int32Array | BigInt64Array | Uint8Array;

/** One global-memory allocation. */
export class Buffer {
  constructor(readonly id: number, readonly name: string, readonly elt: Type, readonly storage: Storage) {}

  /** Number of elements. */
  get length(): number {
    return this.storage.length;
  }
  /** Reads element `k` as the interpreter's value: a number (rounded float or sign-normalized int) or bigint (i64). */
  get(k: number): number | bigint {
    const s = this.storage;
    const t = this.elt;
    if (t instanceof FloatType && t.kind === 'f16') return halfBitsToNumber(s[k] as number);
    if (t instanceof FloatType && t.kind === 'bf16') return bf16BitsToNumber(s[k] as number);
    if (t instanceof FloatType && t.width === 8) return floatFromBits32(s[k] as number, t.kind);
    return s[k];
  }
  /** Writes element `k` from an interpreter value (already rounded/normalized to the element type). */
  set(k: number, v: number | bigint): void {
    const t = this.elt;
    if (t instanceof FloatType && t.kind === 'f16') this.storage[k] = numberToHalfBits(v as number);
    else if (t instanceof FloatType && t.kind === 'bf16') this.storage[k] = numberToBf16Bits(v as number);
    else if (t instanceof FloatType && t.width === 8) this.storage[k] = floatToBits32(v as number, t.kind);
    else if (this.storage instanceof BigInt64Array) this.storage[k] = v as bigint;
    else this.storage[k] = v as number;
  }
  /** All elements as numbers (i64 converted with Number). */
  toNumbers(): number[] {
    const out = new Array<number>(this.length);
    for (let k = 0; k < this.length; k++) out[k] = Number(this.get(k));
    return out;
  }
  /** Fills the buffer from numbers (rounded to the element type by the storage / f16 encoders). */
  fill(values: ArrayLike<number> | ((k: number) => number)): this {
    for (let k = 0; k < this.length; k++) {
      const v = typeof values === 'function' ? values(k) : values[k];
      this.set(k, this.storage instanceof BigInt64Array ? BigInt(Math.trunc(v)) : v);
    }
    return this;
  }
}

/** Makes zeroed storage for `n` elements of `elt`. */
export function makeStorage(elt: Type, n: number): Storage {
  if (elt instanceof FloatType) {
    if (elt.kind === 'f32') return new Float32Array(n);
    if (elt.kind === 'f64') return new Float64Array(n);
    if (elt.kind === 'f16' || elt.kind === 'bf16') return new Uint16Array(n);
    if (miniFloatFormat(elt.kind)) return new Uint8Array(n);
  }
  if (elt instanceof IntegerType) {
    if (elt.width === 1) return new Uint8Array(n);
    if (elt.width === 8) return new Int8Array(n);
    if (elt.width === 16) return new Int16Array(n);
    if (elt.width === 32) return new Int32Array(n);
    if (elt.width === 64) return new BigInt64Array(n);
  }
  throw new Error(`interpreter: buffers of element type '${elt}' are not supported`);
}

/** Parses an element type name used by the API/CLI (`f32`, `f16`, `bf16`, `f64`, the fp8 types, `i1`..`i64`). */
export function eltTypeByName(name: string): Type {
  if (/^i(1|8|16|32|64)$/.test(name)) return i(Number(name.slice(1)));
  if (['f16', 'bf16', 'f32', 'f64'].includes(name) || miniFloatFormat(name)) return f(name);
  throw new Error(`interpreter: unknown element type '${name}' (expected f16, bf16, f32, f64, ${[...MINIFLOATS.keys()].join(', ')}, i1, i8, i16, i32 or i64)`);
}

/** The set of buffers a launch can address. */
export class Memory {
  readonly buffers: Buffer[] = [];

  /** Allocates a zeroed buffer of `n` elements of `elt` (a Type or a name like 'f32'). */
  alloc(elt: Type | string, n: number, name?: string): Buffer {
    const t = typeof elt === 'string' ? eltTypeByName(elt) : elt;
    const b = new Buffer(this.buffers.length, name ?? `buf${this.buffers.length}`, t, makeStorage(t, n));
    this.buffers.push(b);
    return b;
  }
  /** The buffer with id `id`. */
  get(id: number): Buffer {
    const b = this.buffers[id];
    if (!b) throw new Error(`interpreter: no buffer with id ${id}`);
    return b;
  }
}
