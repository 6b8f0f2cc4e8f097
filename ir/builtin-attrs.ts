/**
 * Builtin attributes the project reads and prints but does not compute with: `affine_map`,
 * `affine_set`, `strided`, `distinct[N]`, `dense_resource`, dense complex and dense string
 * elements. Each keeps a structured value and prints it the way mlir-opt 19 does.
 *
 * They extend `DialectAttr` (as dialect `builtin`) for one reason: the printer's alias collector
 * walks the fields of dialect attributes and gives the ones that name an alias a `#name` definition,
 * which is what mlir-opt does for `#map`, `#set` and `#distinct`.
 */
import type { AsmPrinter } from './asm.js';
import { type AffineExpr, affineKey, affineToString } from './affine-expr.js';
import { Attribute, DialectAttr, UnitAttr, formatScalar, quoteString, type DenseValue } from './attributes.js';
import { DYNAMIC, type ShapedType, type Type } from './types.js';
import { unique } from './uniquer.js';

/** Common base: a builtin attribute printed by its own `print`, not as `#dialect.mnemonic`. */
abstract class BuiltinStructuredAttr extends DialectAttr {
  readonly dialect = 'builtin';
  abstract override print(p: AsmPrinter): void;
  printBody(p: AsmPrinter): void {
    this.print(p);
  }
}

function dimsAndSymbols(numDims: number, numSymbols: number): string {
  const dims = Array.from({ length: numDims }, (_, k) => `d${k}`).join(', ');
  const syms = Array.from({ length: numSymbols }, (_, k) => `s${k}`).join(', ');
  return `(${dims})` + (numSymbols ? `[${syms}]` : '');
}

/** `affine_map<(d0, d1)[s0] -> (d0 + s0, d1)>`. */
export class AffineMapAttr extends BuiltinStructuredAttr {
  readonly mnemonic = 'affine_map';
  private constructor(readonly numDims: number, readonly numSymbols: number, readonly results: readonly AffineExpr[]) {
    super();
  }
  static get(numDims: number, numSymbols: number, results: readonly AffineExpr[]): AffineMapAttr {
    const key = `amap:${numDims}:${numSymbols}:${results.map(affineKey).join(',')}`;
    return unique(key, () => new AffineMapAttr(numDims, numSymbols, [...results]));
  }
  override aliasName(): string {
    return 'map';
  }
  /** Whether this is the identity map of `rank` dimensions (`(d0, d1) -> (d0, d1)`). */
  isIdentity(rank: number): boolean {
    if (this.numDims !== rank || this.numSymbols !== 0 || this.results.length !== rank) return false;
    return this.results.every((e, k) => e.kind === 'dim' && e.position === k);
  }
  print(p: AsmPrinter): void {
    p.write(`affine_map<${dimsAndSymbols(this.numDims, this.numSymbols)} -> (${this.results.map((e) => affineToString(e)).join(', ')})>`);
  }
}

/** One constraint of an integer set: `expr == 0` or `expr >= 0`. */
export interface AffineConstraint {
  readonly expr: AffineExpr;
  readonly isEquality: boolean;
}

/** `affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 == 0)>`. */
export class AffineSetAttr extends BuiltinStructuredAttr {
  readonly mnemonic = 'affine_set';
  private constructor(readonly numDims: number, readonly numSymbols: number, readonly constraints: readonly AffineConstraint[]) {
    super();
  }
  static get(numDims: number, numSymbols: number, constraints: readonly AffineConstraint[]): AffineSetAttr {
    const key = `aset:${numDims}:${numSymbols}:${constraints.map((c) => `${affineKey(c.expr)}${c.isEquality ? '=' : '>'}`).join(',')}`;
    return unique(key, () => new AffineSetAttr(numDims, numSymbols, [...constraints]));
  }
  override aliasName(): string {
    return 'set';
  }
  print(p: AsmPrinter): void {
    // A set without constraints prints as the trivially true `0 == 0`, as MLIR does.
    const body = this.constraints.map((c) => `${affineToString(c.expr)} ${c.isEquality ? '==' : '>='} 0`).join(', ') || '0 == 0';
    p.write(`affine_set<${dimsAndSymbols(this.numDims, this.numSymbols)} : (${body})>`);
  }
}

/** `strided<[s0, s1], offset: o>`; `DYNAMIC` (-1) stands for `?`. */
export class StridedLayoutAttr extends BuiltinStructuredAttr {
  readonly mnemonic = 'strided';
  private constructor(readonly strides: readonly number[], readonly offset: number) {
    super();
  }
  static get(strides: readonly number[], offset = 0): StridedLayoutAttr {
    return unique(`strided:${strides.join(',')}:${offset}`, () => new StridedLayoutAttr([...strides], offset));
  }
  print(p: AsmPrinter): void {
    const text = (v: number): string => (v === DYNAMIC ? '?' : `${v}`);
    p.write(`strided<[${this.strides.map(text).join(', ')}]`);
    if (this.offset !== 0) p.write(`, offset: ${text(this.offset)}`);
    p.write('>');
  }
}

/**
 * `distinct[N]<attr>`: an attribute that is unique by identity, not by value. Within one parsed
 * file the same `N` is the same attribute. It prints renumbered from 0 in the order of the printed
 * text, as mlir-opt does, so a file mlir-opt wrote comes back unchanged; `number` is the `N` it was
 * read with.
 */
export class DistinctAttr extends BuiltinStructuredAttr {
  readonly mnemonic = 'distinct';
  /** Makes a new distinct attribute (never equal to another one), printed as `distinct[number]`. */
  constructor(readonly referenced: Attribute, readonly number: bigint) {
    super();
    DistinctAttr.count++;
  }
  /** How many were made in this process (the printer skips renumbering work while there are none). */
  static count = 0;
  override aliasName(): string | null {
    return this.referenced instanceof UnitAttr ? null : 'distinct';
  }
  print(p: AsmPrinter): void {
    p.write(`distinct[${p.distinctNumber(this)}]<`);
    if (!(this.referenced instanceof UnitAttr)) p.printAttribute(this.referenced);
    p.write('>');
  }
}

/** `dense_resource<blob> : tensor<4xi32>`: elements stored in the file's `{-# dialect_resources #-}` section. */
export class DenseResourceAttr extends BuiltinStructuredAttr {
  readonly mnemonic = 'dense_resource';
  private constructor(readonly handle: string, readonly type: ShapedType) {
    super();
  }
  static get(handle: string, type: ShapedType): DenseResourceAttr {
    return unique(`dres:${handle}:${type.id}`, () => new DenseResourceAttr(handle, type));
  }
  print(p: AsmPrinter): void {
    this.printWithoutType(p);
    p.write(' : ');
    p.printType(this.type);
  }
  override printWithoutType(p: AsmPrinter): void {
    p.write(`dense_resource<${this.handle}>`);
  }
}

/** Prints `dense<...>` elements: a splat as one value, else nested lists following the shape. */
function printDenseElements(p: AsmPrinter, type: ShapedType, count: number, element: (k: number) => string): void {
  p.write('dense<');
  if (count === 1) p.write(element(0));
  else if (count > 0) {
    let offset = 0;
    const nested = (d: number): void => {
      if (d === type.shape.length) {
        p.write(element(offset++));
        return;
      }
      p.write('[');
      for (let k = 0; k < type.shape[d]; k++) {
        if (k) p.write(', ');
        nested(d + 1);
      }
      p.write(']');
    };
    nested(0);
  }
  p.write('>');
}

/** Keeps one value when all are equal (a splat), as MLIR stores them. */
function splatOrAll<V>(values: readonly V[], same: (a: V, b: V) => boolean): V[] {
  return values.length > 1 && values.every((v) => same(v, values[0])) ? [values[0]] : [...values];
}

/** `dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>`: (real, imaginary) pairs of the complex element type. */
export class DenseComplexElementsAttr extends BuiltinStructuredAttr {
  readonly mnemonic = 'dense_complex';
  private constructor(readonly type: ShapedType, readonly partType: Type, readonly values: readonly (readonly [DenseValue, DenseValue])[]) {
    super();
  }
  /** `partType` is the complex type's element type. */
  static get(type: ShapedType, partType: Type, values: readonly (readonly [DenseValue, DenseValue])[]): DenseComplexElementsAttr {
    const vals = splatOrAll(values, (a, b) => Object.is(a[0], b[0]) && Object.is(a[1], b[1]));
    const key = `dcomplex:${type.id}:${vals.map((v) => `${String(v[0])},${String(v[1])}`).join(';')}`;
    return unique(key, () => new DenseComplexElementsAttr(type, partType, vals));
  }
  print(p: AsmPrinter): void {
    this.printWithoutType(p);
    p.write(' : ');
    p.printType(this.type);
  }
  override printWithoutType(p: AsmPrinter): void {
    const text = (k: number): string => {
      const [re, im] = this.values[this.values.length === 1 ? 0 : k];
      return `(${formatScalar(re, this.partType)},${formatScalar(im, this.partType)})`;
    };
    printDenseElements(p, this.type, this.values.length, text);
  }
}

/** `dense<["a", "b"]> : tensor<2x!x.str>`: string elements of a non-numeric element type. */
export class DenseStringElementsAttr extends BuiltinStructuredAttr {
  readonly mnemonic = 'dense_string';
  private constructor(readonly type: ShapedType, readonly values: readonly string[]) {
    super();
  }
  static get(type: ShapedType, values: readonly string[]): DenseStringElementsAttr {
    const vals = splatOrAll(values, (a, b) => a === b);
    return unique(`dstring:${type.id}:${JSON.stringify(vals)}`, () => new DenseStringElementsAttr(type, vals));
  }
  print(p: AsmPrinter): void {
    this.printWithoutType(p);
    p.write(' : ');
    p.printType(this.type);
  }
  override printWithoutType(p: AsmPrinter): void {
    printDenseElements(p, this.type, this.values.length, (k) => quoteString(this.values[this.values.length === 1 ? 0 : k]));
  }
}
