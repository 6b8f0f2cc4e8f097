/**
 * Builtin types. Types are immutable and uniqued: two equal types are the same object, so
 * `a === b` is type equality. Dialect types (`!tt.ptr`, `!ttg.memdesc`, ...) extend `DialectType`.
 */
import type { AsmPrinter } from './asm.js';
import type { Attribute } from './attributes.js';
import { freshId, unique } from './uniquer.js';

/** Base of every type. */
export abstract class Type {
  readonly id = freshId();
  /** Writes the type's textual form. */
  abstract print(p: AsmPrinter): void;
  /** The textual form without aliases (for messages and debugging). */
  toString(): string {
    return plainText((p) => p.printType(this));
  }
}

/** Integer signedness as MLIR spells it: `i32`, `si32`, `ui32`. */
export type Signedness = 'signless' | 'signed' | 'unsigned';

/** Widths below this have their signless `IntegerType` in `signlessInts`. */
const SIGNLESS_CACHED = 129;
const signlessInts: (IntegerType | undefined)[] = [];

/** `iN`, `siN`, `uiN`. */
export class IntegerType extends Type {
  private constructor(readonly width: number, readonly signedness: Signedness) {
    super();
  }
  static get(width: number, signedness: Signedness = 'signless'): IntegerType {
    // Signless types, asked for all the time (`i(1)` in constraints), skip building the uniquer's key.
    if (signedness === 'signless' && width < SIGNLESS_CACHED) {
      return (signlessInts[width] ??= unique(`i:${width}:signless`, () => new IntegerType(width, 'signless')));
    }
    return unique(`i:${width}:${signedness}`, () => new IntegerType(width, signedness));
  }
  print(p: AsmPrinter): void {
    const prefix = this.signedness === 'signless' ? 'i' : this.signedness === 'signed' ? 'si' : 'ui';
    p.write(prefix + this.width);
  }
}

/** `index`. */
export class IndexType extends Type {
  private constructor() {
    super();
  }
  static get(): IndexType {
    return unique('index', () => new IndexType());
  }
  print(p: AsmPrinter): void {
    p.write('index');
  }
}

/** Every floating-point format MLIR and Triton print, with its bit width. */
export const FLOAT_KINDS: Record<string, number> = {
  f16: 16, bf16: 16, f32: 32, f64: 64, tf32: 19, f80: 80, f128: 128,
  f8E4M3FN: 8, f8E5M2: 8, f8E4M3FNUZ: 8, f8E5M2FNUZ: 8, f8E4M3B11FNUZ: 8, f8E4M3: 8, f8E3M4: 8,
  f8E8M0FNU: 8, f6E2M3FN: 6, f6E3M2FN: 6, f4E2M1FN: 4,
};

/** A floating-point type such as `f32` or `f8E4M3FN`. */
export class FloatType extends Type {
  private constructor(readonly kind: string) {
    super();
  }
  static get(kind: string): FloatType {
    if (!(kind in FLOAT_KINDS)) throw new Error(`internal error: unknown float kind '${kind}'`);
    return unique(`f:${kind}`, () => new FloatType(kind));
  }
  get width(): number {
    return FLOAT_KINDS[this.kind];
  }
  print(p: AsmPrinter): void {
    p.write(this.kind);
  }
}

/** `none`. */
export class NoneType extends Type {
  private constructor() {
    super();
  }
  static get(): NoneType {
    return unique('none', () => new NoneType());
  }
  print(p: AsmPrinter): void {
    p.write('none');
  }
}

/** `(inputs) -> results`. */
export class FunctionType extends Type {
  private constructor(readonly inputs: readonly Type[], readonly results: readonly Type[]) {
    super();
  }
  /**
   * The function types already made, as a trie over the input types, then `RESULTS`, then the
   * result types: a lookup (one per parsed `func.func`) walks a few maps and builds no key string.
   */
  private static readonly byTypes: FunctionTypeNode = { next: new Map(), type: undefined };
  static get(inputs: readonly Type[], results: readonly Type[]): FunctionType {
    let node = FunctionType.byTypes;
    for (const t of inputs) node = childOf(node, t);
    node = childOf(node, RESULTS);
    for (const t of results) node = childOf(node, t);
    if (node.type) return node.type;
    const key = `fn:${inputs.map((t) => t.id).join(',')}>${results.map((t) => t.id).join(',')}`;
    return (node.type = unique(key, () => new FunctionType([...inputs], [...results])));
  }
  print(p: AsmPrinter): void {
    p.write('(');
    this.inputs.forEach((t, i) => {
      if (i) p.write(', ');
      p.printType(t);
    });
    p.write(') -> ');
    printResultTypes(p, this.results);
  }
}

/** Prints a result type list as MLIR does: a single non-function type bare, otherwise in parentheses. */
export function printResultTypes(p: AsmPrinter, results: readonly Type[]): void {
  if (results.length === 1 && !(results[0] instanceof FunctionType)) {
    p.printType(results[0]);
    return;
  }
  p.write('(');
  results.forEach((t, i) => {
    if (i) p.write(', ');
    p.printType(t);
  });
  p.write(')');
}

/** The marker for a dynamic dimension (`?`). */
export const DYNAMIC = -1;

function printShape(p: AsmPrinter, shape: readonly number[]): void {
  for (const d of shape) p.write(d === DYNAMIC ? '?x' : `${d}x`);
}

/** Common base of types with a shape and an element type. */
export abstract class ShapedType extends Type {
  abstract readonly shape: readonly number[];
  abstract readonly elementType: Type;
  get rank(): number {
    return this.shape.length;
  }
  /** Total number of elements (dynamic dimensions count as unknown: -1). */
  get numElements(): number {
    let n = 1;
    for (const d of this.shape) {
      if (d === DYNAMIC) return -1;
      n *= d;
    }
    return n;
  }
}

/** `tensor<AxBxT, #encoding>`. */
export class RankedTensorType extends ShapedType {
  private constructor(readonly shape: readonly number[], readonly elementType: Type, readonly encoding: Attribute | null) {
    super();
  }
  static get(shape: readonly number[], elementType: Type, encoding: Attribute | null = null): RankedTensorType {
    const key = `t:${shape.join('x')}:${elementType.id}:${encoding ? encoding.id : 0}`;
    return unique(key, () => new RankedTensorType([...shape], elementType, encoding));
  }
  /** The same shape and encoding with another element type. */
  withElementType(t: Type): RankedTensorType {
    return RankedTensorType.get(this.shape, t, this.encoding);
  }
  /** The same element type and shape with another encoding. */
  withEncoding(e: Attribute | null): RankedTensorType {
    return RankedTensorType.get(this.shape, this.elementType, e);
  }
  print(p: AsmPrinter): void {
    p.write('tensor<');
    printShape(p, this.shape);
    p.printType(this.elementType);
    if (this.encoding) {
      p.write(', ');
      p.printAttribute(this.encoding);
    }
    p.write('>');
  }
}

/** `tensor<*xT>`. */
export class UnrankedTensorType extends Type {
  private constructor(readonly elementType: Type) {
    super();
  }
  static get(elementType: Type): UnrankedTensorType {
    return unique(`ut:${elementType.id}`, () => new UnrankedTensorType(elementType));
  }
  print(p: AsmPrinter): void {
    p.write('tensor<*x');
    p.printType(this.elementType);
    p.write('>');
  }
}

/** `vector<AxBxT>`, `vector<[8]xf32>` (scalable dimensions in brackets), `vector<f32>` (0-d). */
export class VectorType extends ShapedType {
  private constructor(readonly shape: readonly number[], readonly elementType: Type, readonly scalable: readonly boolean[]) {
    super();
  }
  /** `scalable[k]` marks dimension k as scalable (default: none). */
  static get(shape: readonly number[], elementType: Type, scalable: readonly boolean[] = []): VectorType {
    const flags = shape.map((_, k) => scalable[k] === true);
    const key = `v:${shape.map((d, k) => (flags[k] ? `[${d}]` : d)).join('x')}:${elementType.id}`;
    return unique(key, () => new VectorType([...shape], elementType, flags));
  }
  /** Whether any dimension is scalable. */
  get isScalable(): boolean {
    return this.scalable.includes(true);
  }
  print(p: AsmPrinter): void {
    p.write('vector<');
    this.shape.forEach((d, k) => p.write(this.scalable[k] ? `[${d}]x` : `${d}x`));
    p.printType(this.elementType);
    p.write('>');
  }
}

/** `complex<f32>`. */
export class ComplexType extends Type {
  private constructor(readonly elementType: Type) {
    super();
  }
  static get(elementType: Type): ComplexType {
    return unique(`complex:${elementType.id}`, () => new ComplexType(elementType));
  }
  print(p: AsmPrinter): void {
    p.write('complex<');
    p.printType(this.elementType);
    p.write('>');
  }
}

/**
 * `memref<4x?xf32, layout, memorySpace>`; the layout (`strided<...>`, `affine_map<...>`) and memory space are
 * attributes. Not a `ShapedType` here: the passes treat shaped types as tensors and vectors, values, not buffers.
 */
export class MemRefType extends Type {
  private constructor(
    readonly shape: readonly number[],
    readonly elementType: Type,
    readonly layout: Attribute | null,
    readonly memorySpace: Attribute | null,
  ) {
    super();
  }
  static get(shape: readonly number[], elementType: Type, layout: Attribute | null = null, memorySpace: Attribute | null = null): MemRefType {
    const key = `m:${shape.join('x')}:${elementType.id}:${layout ? layout.id : 0}:${memorySpace ? memorySpace.id : 0}`;
    return unique(key, () => new MemRefType([...shape], elementType, layout, memorySpace));
  }
  print(p: AsmPrinter): void {
    p.write('memref<');
    printShape(p, this.shape);
    p.printType(this.elementType);
    if (this.layout) {
      p.write(', ');
      p.printAttribute(this.layout);
    }
    printMemorySpace(p, this.memorySpace);
    p.write('>');
  }
}

/** `, space`; an integer memory space of type i64 prints without its type, as MLIR prints it. */
function printMemorySpace(p: AsmPrinter, space: Attribute | null): void {
  if (!space) return;
  p.write(', ');
  if ((space as { type?: unknown }).type === IntegerType.get(64) && 'value' in space) p.printAttributeWithoutType(space);
  else p.printAttribute(space);
}

/** `memref<*xf32, memorySpace>`. */
export class UnrankedMemRefType extends Type {
  private constructor(readonly elementType: Type, readonly memorySpace: Attribute | null) {
    super();
  }
  static get(elementType: Type, memorySpace: Attribute | null = null): UnrankedMemRefType {
    return unique(`um:${elementType.id}:${memorySpace ? memorySpace.id : 0}`, () => new UnrankedMemRefType(elementType, memorySpace));
  }
  print(p: AsmPrinter): void {
    p.write('memref<*x');
    p.printType(this.elementType);
    printMemorySpace(p, this.memorySpace);
    p.write('>');
  }
}

/** `tuple<T1, T2>`. */
export class TupleType extends Type {
  private constructor(readonly types: readonly Type[]) {
    super();
  }
  static get(types: readonly Type[]): TupleType {
    return unique(`tuple:${types.map((t) => t.id).join(',')}`, () => new TupleType([...types]));
  }
  print(p: AsmPrinter): void {
    p.write('tuple<');
    this.types.forEach((t, i) => {
      if (i) p.write(', ');
      p.printType(t);
    });
    p.write('>');
  }
}

/** Base of types defined by a dialect, printed `!dialect.mnemonic<body>`. */
export abstract class DialectType extends Type {
  abstract readonly dialect: string;
  abstract readonly mnemonic: string;
  /** Prints what follows `!dialect.mnemonic` (usually `<...>`, possibly nothing). */
  abstract printBody(p: AsmPrinter): void;
  print(p: AsmPrinter): void {
    p.write(`!${this.dialect}.${this.mnemonic}`);
    this.printBody(p);
  }
}

/** A type of an unregistered dialect, kept verbatim (only with `--allow-unregistered-dialect`). */
export class OpaqueType extends Type {
  private constructor(readonly text: string) {
    super();
  }
  static get(text: string): OpaqueType {
    return unique(`opaque:${text}`, () => new OpaqueType(text));
  }
  print(p: AsmPrinter): void {
    p.write(this.text);
  }
}

// ---- helpers -------------------------------------------------------------------------------

/** `i1`, `i32`, ... (signless). */
export const i = (width: number): IntegerType => IntegerType.get(width);
/** `f16`, `f32`, ... */
export const f = (kind: string): FloatType => FloatType.get(kind);

/** The element type of a shaped type, or the type itself. */
export function elementTypeOf(t: Type): Type {
  return t instanceof ShapedType || t instanceof UnrankedTensorType ? t.elementType : t;
}

/** The same shape and encoding as `like` with element type `elt` (or `elt` itself for scalars). */
export function sameShapeAs(like: Type, elt: Type): Type {
  if (like instanceof RankedTensorType) return like.withElementType(elt);
  if (like instanceof VectorType) return VectorType.get(like.shape, elt, like.scalable);
  if (like instanceof UnrankedTensorType) return UnrankedTensorType.get(elt);
  return elt;
}

/** Whether `t` is an integer type (or a shaped type of integers) of any signedness. */
export function isIntLike(t: Type): boolean {
  return elementTypeOf(t) instanceof IntegerType || elementTypeOf(t) instanceof IndexType;
}

/** Whether `t` is a float type (or a shaped type of floats). */
export function isFloatLike(t: Type): boolean {
  return elementTypeOf(t) instanceof FloatType;
}

/** Bit width of an integer or float type (index counts as 64). */
export function bitWidth(t: Type): number {
  if (t instanceof IntegerType || t instanceof FloatType) return t.width;
  if (t instanceof IndexType) return 64;
  return 0;
}

/**
 * `t` with integer signedness dropped (`si8` and `ui8` are `i8`; other types are themselves): the
 * type a value of `t` has in registers and memory, where Triton's ops are signless (a host
 * descriptor of an int8 tensor is typed `si8`, the blocks it moves `i8`).
 */
export function signless(t: Type): Type {
  return t instanceof IntegerType && t.signedness !== 'signless' ? IntegerType.get(t.width) : t;
}

/** Shape of a shaped type, or `[]` for scalars. */
export function shapeOf(t: Type): readonly number[] {
  return t instanceof ShapedType ? t.shape : [];
}

/** Encoding of a ranked tensor type, if any. */
export function encodingOf(t: Type): Attribute | null {
  return t instanceof RankedTensorType ? t.encoding : null;
}

/** Prints with a throwaway printer that uses no aliases. Installed by `ir/printer.ts`. */
let plainTextImpl: (body: (p: AsmPrinter) => void) => string = () => '<printer not loaded>';
export function plainText(body: (p: AsmPrinter) => void): string {
  return plainTextImpl(body);
}
/** Installs the implementation of `plainText` (called once by the printer module). */
export function setPlainTextImpl(impl: (body: (p: AsmPrinter) => void) => string): void {
  plainTextImpl = impl;
}

/** A node of `FunctionType.get`'s trie: the type whose types are the path to it, if made. */
interface FunctionTypeNode {
  readonly next: Map<unknown, FunctionTypeNode>;
  type: FunctionType | undefined;
}

/** The trie edge between a function type's inputs and its results. */
const RESULTS = {};

/** `node`'s child along `key`, made when missing. */
function childOf(node: FunctionTypeNode, key: unknown): FunctionTypeNode {
  let child = node.next.get(key);
  if (!child) node.next.set(key, (child = { next: new Map(), type: undefined }));
  return child;
}
