/**
 * Triton-C semantic types: a scalar element type, pointer levels and a tile shape, with the C
 * rules the frontend applies to them (usual arithmetic conversions, NumPy-style broadcasting of
 * tile shapes, the accumulator type of `@`) and their mapping to IR types.
 */
import { FloatType, IntegerType, RankedTensorType, type Type, f, i } from '../../ir/types.js';
import { PointerType } from '../../dialects/tt/types.js';
import type { ScalarName } from './ast.js';

/** A Triton-C value type: `scalar` with `ptr` pointer levels, as a tile of `shape` (`[]` for scalars). */
export interface CType {
  scalar: ScalarName;
  ptr: number;
  shape: readonly number[];
}

/** Builds a CType. */
export function ctype(scalar: ScalarName, ptr = 0, shape: readonly number[] = []): CType {
  return { scalar, ptr, shape };
}

/** The same type with another shape. */
export function withShape(t: CType, shape: readonly number[]): CType {
  return { scalar: t.scalar, ptr: t.ptr, shape };
}

/** The element type (no shape) of `t`. */
export function elementOf(t: CType): CType {
  return { scalar: t.scalar, ptr: t.ptr, shape: [] };
}

/** `[16, 8]`: a shape as the diagnostics print it. */
export function fmtShape(s: readonly number[]): string {
  return `[${s.join(', ')}]`;
}

/** `float*[16, 8]`: a type as the diagnostics print it. */
export function fmtType(t: CType): string {
  const base = t.scalar + '*'.repeat(t.ptr);
  return t.shape.length ? `${base}${fmtShape(t.shape)}` : base;
}

/** Whether the scalar type is floating point. */
export function isFloatScalar(s: ScalarName): boolean {
  return s === 'half' || s === 'bfloat16' || s === 'float' || s === 'double';
}

/** Whether the scalar type is an integer (bool included). */
export function isIntScalar(s: ScalarName): boolean {
  return s !== 'void' && !isFloatScalar(s);
}

/** Whether the scalar type is an unsigned integer (bool counts as unsigned). */
export function isUnsigned(s: ScalarName): boolean {
  return s === 'bool' || s.startsWith('uint');
}

/** Bit width of a scalar type. */
export function scalarWidth(s: ScalarName): number {
  switch (s) {
    case 'bool': return 1;
    case 'int8': case 'uint8': return 8;
    case 'int16': case 'uint16': case 'half': case 'bfloat16': return 16;
    case 'int32': case 'uint32': case 'float': return 32;
    case 'int64': case 'uint64': case 'double': return 64;
    default: return 0;
  }
}

/** Whether `t` is a non-pointer arithmetic type (int, bool or float, scalar or tile). */
export function isArith(t: CType): boolean {
  return t.ptr === 0 && t.scalar !== 'void';
}

/** The IR type of one element of `t` (a `!tt.ptr` for pointers). */
export function irElement(t: CType): Type {
  let ty: Type = irScalar(t.scalar);
  for (let k = 0; k < t.ptr; k++) ty = PointerType.get(ty);
  return ty;
}

/** The IR type of `t`: its element type, or a ranked tensor of it for tiles. */
export function irType(t: CType): Type {
  const e = irElement(t);
  return t.shape.length ? RankedTensorType.get(t.shape, e) : e;
}

function irScalar(s: ScalarName): Type {
  switch (s) {
    case 'half': return f('f16');
    case 'bfloat16': return f('bf16');
    case 'float': return f('f32');
    case 'double': return f('f64');
    case 'void': return i(8); // `void*` points to bytes
    default: return i(scalarWidth(s));
  }
}

/** Whether IR type `t` is an integer type (for callers holding IR types). */
export function isIrInt(t: Type): boolean {
  return t instanceof IntegerType;
}

/** Whether IR type `t` is a float type. */
export function isIrFloat(t: Type): boolean {
  return t instanceof FloatType;
}

/** NumPy broadcasting of two shapes (aligned on the right); null when incompatible. */
export function broadcastShapes(a: readonly number[], b: readonly number[]): number[] | null {
  const n = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    const x = a[a.length - n + k] ?? 1;
    const y = b[b.length - n + k] ?? 1;
    if (x !== y && x !== 1 && y !== 1) return null;
    out.push(x === 1 ? y : x);
  }
  return out;
}

/** Whether a value of shape `from` broadcasts to exactly `to`. */
export function broadcastsTo(from: readonly number[], to: readonly number[]): boolean {
  const r = broadcastShapes(from, to);
  return r !== null && sameShape(r, to);
}

/** Whether two shapes are equal. */
export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, k) => x === b[k]);
}

const INT_RANK: ScalarName[] = ['bool', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64'];

/**
 * C's usual arithmetic conversions on element types, without integer promotion below 32 bits
 * (tiles keep their width, as Triton does): a float operand wins (the wider float; half with
 * bfloat16 gives float); between integers the wider wins, unsigned on a tie.
 * A literal operand (`lit`) adopts the other operand's type when both are of the same kind.
 */
export function commonScalar(a: ScalarName, b: ScalarName, aLit = false, bLit = false): ScalarName {
  if (aLit !== bLit) {
    const [lit, other] = aLit ? [a, b] : [b, a];
    if (isFloatScalar(other)) return other;
    if (!isFloatScalar(lit)) return other === 'bool' ? 'int32' : other;
    return 'float';
  }
  const fa = isFloatScalar(a);
  const fb = isFloatScalar(b);
  if (fa && fb) {
    if (a === b) return a;
    const wa = scalarWidth(a);
    const wb = scalarWidth(b);
    if (wa === wb) return 'float';
    return wa > wb ? a : b;
  }
  if (fa) return a;
  if (fb) return b;
  const wa = scalarWidth(a);
  const wb = scalarWidth(b);
  if (wa !== wb) return wa > wb ? a : b;
  return INT_RANK.indexOf(a) >= INT_RANK.indexOf(b) ? a : b;
}

/** The accumulator (result) element type of `a @ b` on operands of element type `s`. */
export function dotAccumulator(s: ScalarName): ScalarName {
  if (s === 'double') return 'double';
  if (isFloatScalar(s)) return 'float';
  return 'int32';
}

/** Whether `n` is a positive power of two. */
export function isPow2(n: number): boolean {
  return n > 0 && Number.isInteger(n) && (n & (n - 1)) === 0;
}
