/**
 * Builtin attributes and locations. Like types, attributes are immutable and uniqued, so
 * `a === b` is attribute equality. Dialect attributes (`#ttg.blocked<...>`) extend `DialectAttr`.
 */
import type { AsmPrinter } from './asm.js';
import { FloatType, IndexType, IntegerType, ShapedType, Type, plainText, i } from './types.js';
import { freshId, unique } from './uniquer.js';
import { miniFloatBits, miniFloatFormat, miniFloatValue, roundToMiniFloat } from './minifloat.js';
import { binaryExponent, roundHalfEven } from './float-rounding.js';

/** Base of every attribute. */
export abstract class Attribute {
  readonly id = freshId();
  abstract print(p: AsmPrinter): void;
  /** The attribute's value without a `: type` suffix; the same as `print` unless overridden. */
  printWithoutType(p: AsmPrinter): void {
    this.print(p);
  }
  toString(): string {
    return plainText((p) => p.printAttribute(this));
  }
}

// ---- scalars -----------------------------------------------------------------------------

/** Normalizes an integer to the value range of its type (signless and signed ints are signed). */
export function normalizeInt(value: bigint, type: Type): bigint {
  if (type instanceof IntegerType) {
    if (type.width === 1 && type.signedness === 'signless') return value & 1n;
    return type.signedness === 'unsigned' ? BigInt.asUintN(type.width, value) : BigInt.asIntN(type.width, value);
  }
  if (type instanceof IndexType) return BigInt.asIntN(64, value);
  return value;
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Whether the safe integer `v` is its own normalized value in `type` (see `normalizeInt`). */
function holdsUnchanged(type: Type, v: number): boolean {
  if (type instanceof IndexType) return true;
  if (!(type instanceof IntegerType)) return false;
  const w = type.width;
  if (w === 1 && type.signedness === 'signless') return v === 0 || v === 1;
  if (type.signedness === 'unsigned') return v >= 0 && (w >= 53 || v < 2 ** w);
  return w >= 54 || (v >= -(2 ** (w - 1)) && v < 2 ** (w - 1));
}

/** `42 : i32`, `true`, `0 : index`. */
export class IntegerAttr extends Attribute {
  private constructor(readonly value: bigint, readonly type: Type) {
    super();
  }
  static get(value: bigint | number, type: Type): IntegerAttr {
    // Most values are small and already in range: no BigInt arithmetic and no string key for them
    // (a folded constant arrives as a BigInt: compared, not normalized, and kept as the value).
    if (typeof value === 'number') {
      if (Number.isSafeInteger(value) && holdsUnchanged(type, value)) return IntegerAttr.small(value, type, null);
    } else if (value >= MIN_SAFE && value <= MAX_SAFE) {
      const n = Number(value);
      if (holdsUnchanged(type, n)) return IntegerAttr.small(n, type, value);
    }
    const v = normalizeInt(BigInt(value), type);
    if (v >= MIN_SAFE && v <= MAX_SAFE) return IntegerAttr.small(Number(v), type, v);
    return unique(`int:${v}:${type.id}`, () => new IntegerAttr(v, type));
  }
  /** The attributes whose normalized value is a safe integer, by type then value. */
  private static readonly smallValues = new Map<Type, Map<number, IntegerAttr>>();
  /** The last type `small` was asked for and its map (folding asks for one type many times in a row). */
  private static lastType: Type | null = null;
  private static lastValues: Map<number, IntegerAttr> | null = null;
  /** The unique attribute of the normalized safe-integer value `v` of `type` (`big`: `v` as a BigInt, when at hand). */
  private static small(v: number, type: Type, big: bigint | null): IntegerAttr {
    let byValue = type === IntegerAttr.lastType ? IntegerAttr.lastValues! : IntegerAttr.smallValues.get(type);
    if (!byValue) IntegerAttr.smallValues.set(type, (byValue = new Map()));
    IntegerAttr.lastType = type;
    IntegerAttr.lastValues = byValue;
    let attr = byValue.get(v);
    if (!attr) byValue.set(v, (attr = new IntegerAttr(big ?? BigInt(v), type)));
    return attr;
  }
  /** The value as a JS number (exact for |v| < 2^53). */
  get num(): number {
    return Number(this.value);
  }
  print(p: AsmPrinter): void {
    this.printWithoutType(p);
    if (isBoolType(this.type)) return;
    p.write(' : ');
    p.printType(this.type);
  }
  override printWithoutType(p: AsmPrinter): void {
    if (isBoolType(this.type)) p.write(this.value ? 'true' : 'false');
    else p.write(this.value.toString());
  }
}

function isBoolType(t: Type): boolean {
  return t instanceof IntegerType && t.width === 1 && t.signedness === 'signless';
}

/** `true` / `false` (an i1 integer attribute). */
export function boolAttr(v: boolean): IntegerAttr {
  return IntegerAttr.get(v ? 1 : 0, i(1));
}

/** Whether `a` is a bool attribute. */
export function isBoolAttr(a: Attribute | undefined): boolean {
  return a instanceof IntegerAttr && isBoolType(a.type);
}

/** `1.500000e+00 : f32`, `0xFF800000 : f32`. `bits` keeps the exact pattern of NaNs read in hex form. */
export class FloatAttr extends Attribute {
  private constructor(readonly value: number, readonly type: FloatType, readonly nanBits: bigint | null) {
    super();
  }
  static get(value: number, type: FloatType, nanBits: bigint | null = null): FloatAttr {
    const v = roundToFloat(value, type.kind);
    const bits = Number.isNaN(v) ? nanBits : null;
    const key = `float:${Object.is(v, -0) ? '-0' : v}:${bits ?? ''}:${type.id}`;
    return unique(key, () => new FloatAttr(v, type, bits));
  }
  print(p: AsmPrinter): void {
    this.printWithoutType(p);
    p.write(' : ');
    p.printType(this.type);
  }
  override printWithoutType(p: AsmPrinter): void {
    p.write(formatFloat(this.value, this.type.kind, this.nanBits));
  }
}

/**
 * `"text"`, or `"text" : type`. As in MLIR the value is a byte string: each character is one byte
 * (0-255), so `"\FF"` keeps its byte; `textOf` decodes it as UTF-8 for display.
 */
export class StringAttr extends Attribute {
  private constructor(readonly value: string, readonly type: Type | null) {
    super();
  }
  /** The untyped strings (nearly all: symbol names, op attributes), by value: no key string per lookup. */
  private static readonly untyped = new Map<string, StringAttr>();
  static get(value: string, type: Type | null = null): StringAttr {
    if (type) return unique(`str:${type.id}:${value}`, () => new StringAttr(value, type));
    let attr = StringAttr.untyped.get(value);
    if (!attr) StringAttr.untyped.set(value, (attr = new StringAttr(value, null)));
    return attr;
  }
  print(p: AsmPrinter): void {
    p.write(quoteString(this.value));
    if (!this.type) return;
    p.write(' : ');
    p.printType(this.type);
  }
}

/** The bytes (one character each) of `text` in UTF-8: how a string attribute holds text. */
export function utf8Bytes(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return text;
  let out = '';
  for (const b of new TextEncoder().encode(text)) out += String.fromCharCode(b);
  return out;
}

/** The text a byte string (a string attribute's value) holds, decoded as UTF-8 (invalid bytes as U+FFFD). */
export function textOf(bytes: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(bytes)) return bytes;
  return new TextDecoder().decode(Uint8Array.from(bytes, (c) => c.charCodeAt(0) & 0xff));
}

/** `unit`: an attribute whose presence is the information. */
export class UnitAttr extends Attribute {
  private constructor() {
    super();
  }
  static get(): UnitAttr {
    return unique('unit', () => new UnitAttr());
  }
  print(p: AsmPrinter): void {
    p.write('unit');
  }
}

/** A type used as an attribute (e.g. `function_type = (i32) -> ()`). */
export class TypeAttr extends Attribute {
  private constructor(readonly value: Type) {
    super();
  }
  static get(value: Type): TypeAttr {
    return unique(`type:${value.id}`, () => new TypeAttr(value));
  }
  print(p: AsmPrinter): void {
    p.printType(this.value);
  }
}

/** `@sym` or `@root::@nested`. */
export class SymbolRefAttr extends Attribute {
  private constructor(readonly root: string, readonly nested: readonly string[]) {
    super();
  }
  /** The flat references (`@name`), by name: no key string per lookup. */
  private static readonly flat = new Map<string, SymbolRefAttr>();
  static get(root: string, nested: readonly string[] = []): SymbolRefAttr {
    if (nested.length) return unique(`sym:${root}::${nested.join('::')}`, () => new SymbolRefAttr(root, [...nested]));
    let attr = SymbolRefAttr.flat.get(root);
    if (!attr) SymbolRefAttr.flat.set(root, (attr = new SymbolRefAttr(root, [])));
    return attr;
  }
  print(p: AsmPrinter): void {
    p.write(symbolName(this.root));
    for (const n of this.nested) p.write('::' + symbolName(n));
  }
}

/** Prints a symbol name as `@name`, quoting it when it is not a bare identifier. */
export function symbolName(name: string): string {
  return /^[A-Za-z_][\w$.]*$/.test(name) ? '@' + name : '@' + quoteString(name);
}

// ---- aggregates --------------------------------------------------------------------------

/** `[a, b, c]`. */
export class ArrayAttr extends Attribute {
  private constructor(readonly value: readonly Attribute[]) {
    super();
  }
  static get(value: readonly Attribute[]): ArrayAttr {
    return unique(`arr:${value.map((a) => a.id).join(',')}`, () => new ArrayAttr([...value]));
  }
  print(p: AsmPrinter): void {
    p.write('[');
    this.value.forEach((a, k) => {
      if (k) p.write(', ');
      // Inside arrays MLIR leaves out the default types i64 and f64 (`[1, 2.0]`).
      if ((a instanceof IntegerAttr && a.type === i(64)) || (a instanceof FloatAttr && a.type.kind === 'f64')) a.printWithoutType(p);
      else p.printAttribute(a);
    });
    p.write(']');
  }
}

/** `array<i32: 1, 2>`: a packed array of integers or floats. */
export class DenseArrayAttr extends Attribute {
  private constructor(
    readonly elementType: Type,
    readonly values: readonly number[],
    /** The bit patterns of NaN elements read in hex form (index -> bits), where they differ from the canonical NaN. */
    readonly nanBits: NanBits | null,
  ) {
    super();
  }
  static get(elementType: Type, values: readonly number[], nanBits: NanBits | null = null): DenseArrayAttr {
    const bits = nanBits && nanBits.size ? nanBits : null;
    return unique(`darr:${elementType.id}:${values.join(',')}${nanBitsKey(bits)}`, () => new DenseArrayAttr(elementType, [...values], bits));
  }
  print(p: AsmPrinter): void {
    p.write('array<');
    p.printType(this.elementType);
    if (this.values.length) p.write(': ');
    this.values.forEach((v, k) => {
      if (k) p.write(', ');
      p.write(formatScalar(v, this.elementType, this.nanBits?.get(k) ?? null));
    });
    p.write('>');
  }
}

/**
 * The exact bit patterns of the NaN elements of a dense attribute that were read in hex form, by
 * element index: a JavaScript number keeps neither a NaN's sign nor its payload.
 */
export type NanBits = ReadonlyMap<number, bigint>;

/** The part of a dense attribute's uniquing key that tells NaN payloads apart. */
function nanBitsKey(bits: NanBits | null): string {
  if (!bits) return '';
  let key = ':nan';
  for (const [k, b] of bits) key += `,${k}=${b}`;
  return key;
}

/** Whether every element has the first one's value and bit pattern (a NaN equals a NaN of the same bits). */
function isSplatList(values: readonly DenseValue[], bits: NanBits | null): boolean {
  const first = values[0];
  for (const v of values) if (!Object.is(v, first)) return false;
  if (!bits) return true;
  const b0 = bits.get(0);
  if (b0 === undefined) return false;
  for (let k = 1; k < values.length; k++) if (bits.get(k) !== b0) return false;
  return true;
}

/**
 * Records element `index`'s bits in `out` when `value` is a NaN read as hex `bits` whose pattern is not
 * the one the printer writes for a plain NaN of `kind`.
 */
export function noteNanBits(out: Map<number, bigint>, index: number, value: number, bits: bigint | null, kind: string): void {
  if (bits === null || !Number.isNaN(value)) return;
  if (bits !== floatBits(NaN, kind)) out.set(index, bits);
}

/** A named attribute as stored in dictionaries. */
export type NamedAttr = readonly [string, Attribute];

/** `{a = 1 : i32, b}`: entries sorted by name, as MLIR keeps them. */
export class DictionaryAttr extends Attribute {
  private constructor(readonly entries: readonly NamedAttr[]) {
    super();
  }
  /** `{}`, made on first use (a function's argument without attributes asks for it). */
  private static empty: DictionaryAttr | undefined;
  static get(entries: readonly NamedAttr[]): DictionaryAttr {
    if (entries.length === 0) return (DictionaryAttr.empty ??= unique('dict:', () => new DictionaryAttr([])));
    const sorted = [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return unique(`dict:${sorted.map(([k, v]) => `${k}=${v.id}`).join(',')}`, () => new DictionaryAttr(sorted));
  }
  static fromRecord(rec: Record<string, Attribute> | null | undefined): DictionaryAttr {
    return DictionaryAttr.get(rec ? Object.entries(rec) : []);
  }
  get(name: string): Attribute | undefined {
    for (const [k, v] of this.entries) if (k === name) return v;
    return undefined;
  }
  toRecord(): Record<string, Attribute> {
    const r: Record<string, Attribute> = {};
    for (const [k, v] of this.entries) r[k] = v;
    return r;
  }
  print(p: AsmPrinter): void {
    printDictionary(p, this.entries);
  }
}

/** Prints `{k = v, unitKey}` with keys quoted where they are not bare identifiers. */
export function printDictionary(p: AsmPrinter, entries: readonly NamedAttr[]): void {
  p.write('{');
  entries.forEach(([k, v], n) => {
    if (n) p.write(', ');
    p.write(attrKey(k));
    if (v instanceof UnitAttr) return;
    p.write(' = ');
    p.printAttribute(v);
  });
  p.write('}');
}

/** A dictionary key as printed: bare when it is an identifier, else quoted. */
export function attrKey(k: string): string {
  return /^[A-Za-z_][\w$.]*$/.test(k) ? k : quoteString(k);
}

/** Element values of dense attributes: bigint for integers and booleans, number for floats. */
export type DenseValue = bigint | number;

/**
 * `dense<...>` over a shaped type: a splat (`dense<0.0>`), a nested list, or raw hex bytes
 * (`dense<"0x...">`, kept verbatim).
 */
export class DenseElementsAttr extends Attribute {
  private constructor(
    readonly type: ShapedType,
    readonly values: readonly DenseValue[],
    readonly rawHex: string | null,
    /** The bit patterns of NaN elements read in hex form (index -> bits), where they differ from the canonical NaN. */
    readonly nanBits: NanBits | null,
  ) {
    super();
  }
  static get(type: ShapedType, values: readonly DenseValue[], rawHex: string | null = null, nanBits: NanBits | null = null): DenseElementsAttr {
    let bits = nanBits && nanBits.size ? nanBits : null;
    let vals = values;
    if (values.length > 1 && isSplatList(values, bits)) {
      vals = [values[0]];
      if (bits) bits = new Map([[0, bits.get(0)!]]);
    }
    const key = `dense:${type.id}:${rawHex ?? vals.map(String).join(',')}${nanBitsKey(bits)}`;
    return unique(key, () => new DenseElementsAttr(type, [...vals], rawHex, bits));
  }
  /** The same elements (NaN payloads included) over another shaped type of the same shape, e.g. with a layout. */
  withType(type: ShapedType): DenseElementsAttr {
    return DenseElementsAttr.get(type, this.values, this.rawHex, this.nanBits);
  }
  /** Whether every element has the same value. */
  get isSplat(): boolean {
    return this.rawHex === null && this.values.length === 1;
  }
  /** The value of element `k` (row-major). */
  at(k: number): DenseValue {
    return this.values.length === 1 ? this.values[0] : this.values[k];
  }
  print(p: AsmPrinter): void {
    this.printWithoutType(p);
    p.write(' : ');
    p.printType(this.type);
  }
  override printWithoutType(p: AsmPrinter): void {
    p.write('dense<');
    if (this.rawHex !== null) p.write(`"${this.rawHex}"`);
    else if (this.isSplat) p.write(formatScalar(this.values[0], this.type.elementType, this.nanBits?.get(0) ?? null));
    else if (this.values.length > 0) this.printNested(p, 0, 0);
    p.write('>');
  }
  private printNested(p: AsmPrinter, dim: number, offset: number): number {
    const shape = this.type.shape;
    if (dim === shape.length) {
      p.write(formatScalar(this.at(offset), this.type.elementType, this.nanBits?.get(this.values.length === 1 ? 0 : offset) ?? null));
      return offset + 1;
    }
    p.write('[');
    for (let k = 0; k < shape[dim]; k++) {
      if (k) p.write(', ');
      offset = this.printNested(p, dim + 1, offset);
    }
    p.write(']');
    return offset;
  }
}

// ---- dialect attributes ------------------------------------------------------------------

/** Base of attributes defined by a dialect, printed `#dialect.mnemonic<body>`. */
export abstract class DialectAttr extends Attribute {
  /**
   * How many dialect attributes of classes that name aliases (override `aliasName`) this process has
   * made. While there are none, no attribute can get an alias name, and the printer skips looking for them.
   */
  static withAliasNames = 0;
  constructor() {
    super();
    if (this.aliasName !== DialectAttr.prototype.aliasName) DialectAttr.withAliasNames++;
  }
  abstract readonly dialect: string;
  abstract readonly mnemonic: string;
  /** Prints what follows `#dialect.mnemonic`. */
  abstract printBody(p: AsmPrinter): void;
  print(p: AsmPrinter): void {
    p.write(`#${this.dialect}.${this.mnemonic}`);
    this.printBody(p);
  }
  /** The alias name the printer gives this attribute (`blocked`, `mma`), or null for none. */
  aliasName(): string | null {
    return null;
  }
}

/** An attribute of an unregistered dialect, kept verbatim (only with `--allow-unregistered-dialect`). */
export class OpaqueAttr extends Attribute {
  private constructor(readonly text: string) {
    super();
  }
  static get(text: string): OpaqueAttr {
    return unique(`oattr:${text}`, () => new OpaqueAttr(text));
  }
  print(p: AsmPrinter): void {
    p.write(this.text);
  }
}

// ---- locations ---------------------------------------------------------------------------

/** Base of source locations (`loc(...)`). Locations are attributes, as in MLIR. */
export abstract class Location extends Attribute {
  /** Prints the location's body, the part inside `loc(...)`. */
  abstract printBody(p: AsmPrinter): void;
  print(p: AsmPrinter): void {
    p.write('loc(');
    this.printBody(p);
    p.write(')');
  }
}

/** `loc(unknown)`. */
export class UnknownLoc extends Location {
  private constructor() {
    super();
  }
  static get(): UnknownLoc {
    return unique('loc:unknown', () => new UnknownLoc());
  }
  printBody(p: AsmPrinter): void {
    p.write('unknown');
  }
}

/** `loc("file.py":12:4)`. */
export class FileLineColLoc extends Location {
  private constructor(readonly file: string, readonly line: number, readonly col: number) {
    super();
  }
  static get(file: string, line: number, col: number): FileLineColLoc {
    return unique(`loc:flc:${file}:${line}:${col}`, () => new FileLineColLoc(file, line, col));
  }
  printBody(p: AsmPrinter): void {
    p.write(`${quoteString(this.file)}:${this.line}:${this.col}`);
  }
}

/** `loc("name"(child))`: a named location, which Triton uses to carry Python variable names. */
export class NameLoc extends Location {
  private constructor(readonly name: string, readonly child: Location) {
    super();
  }
  static get(name: string, child: Location = UnknownLoc.get()): NameLoc {
    return unique(`loc:name:${name}:${child.id}`, () => new NameLoc(name, child));
  }
  printBody(p: AsmPrinter): void {
    p.write(quoteString(this.name));
    if (this.child instanceof UnknownLoc) return;
    p.write('(');
    printNestedLoc(p, this.child);
    p.write(')');
  }
}

/** `loc(callsite(callee at caller))`. */
export class CallSiteLoc extends Location {
  private constructor(readonly callee: Location, readonly caller: Location) {
    super();
  }
  static get(callee: Location, caller: Location): CallSiteLoc {
    return unique(`loc:cs:${callee.id}:${caller.id}`, () => new CallSiteLoc(callee, caller));
  }
  printBody(p: AsmPrinter): void {
    p.write('callsite(');
    printNestedLoc(p, this.callee);
    p.write(' at ');
    printNestedLoc(p, this.caller);
    p.write(')');
  }
}

/** `loc(fused[a, b])` or `loc(fused<metadata>[a, b])`. */
export class FusedLoc extends Location {
  private constructor(readonly locations: readonly Location[], readonly metadata: Attribute | null) {
    super();
  }
  static get(locations: readonly Location[], metadata: Attribute | null = null): FusedLoc {
    const key = `loc:fused:${locations.map((l) => l.id).join(',')}:${metadata ? metadata.id : 0}`;
    return unique(key, () => new FusedLoc([...locations], metadata));
  }
  printBody(p: AsmPrinter): void {
    p.write('fused');
    if (this.metadata) {
      p.write('<');
      p.printAttribute(this.metadata);
      p.write('>');
    }
    p.write('[');
    this.locations.forEach((l, k) => {
      if (k) p.write(', ');
      printNestedLoc(p, l);
    });
    p.write(']');
  }
}

/** Nested locations print as aliases when the printer has one, else inline without `loc(`. */
function printNestedLoc(p: AsmPrinter, l: Location): void {
  p.printAttributeWithoutType(l);
}

// ---- scalar formatting -------------------------------------------------------------------

const f32buf = new Float32Array(1);
const u32buf = new Uint32Array(f32buf.buffer);
const f64buf = new Float64Array(1);
const u64buf = new BigUint64Array(f64buf.buffer);

/** Rounds a double to the precision of a float kind (round to nearest even). */
export function roundToFloat(v: number, kind: string): number {
  switch (kind) {
    case 'f64':
      return v;
    case 'f32':
    case 'tf32':
      return Math.fround(v);
    case 'f16':
      return halfBitsToNumber(numberToHalfBits(v));
    case 'bf16':
      return bf16BitsToNumber(numberToBf16Bits(v));
    default: {
      const mini = miniFloatFormat(kind);
      return mini ? roundToMiniFloat(mini, v) : v;
    }
  }
}

/**
 * Bits of `v` in a 16-bit binary format with `expBits` exponent and `mantBits` mantissa bits
 * (f16: 5/10, bf16: 8/7), rounding the exact double once to nearest even.
 */
function to16Bits(v: number, expBits: number, mantBits: number): number {
  const expMask = (1 << expBits) - 1;
  const bias = expMask >> 1;
  const inf = expMask << mantBits;
  if (Number.isNaN(v)) return inf | (1 << (mantBits - 1));
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a === Infinity) return sign | inf;
  const minNormal = 1 - bias;
  // Subnormals and zero, in units of the smallest subnormal (may round up to the smallest normal).
  if (a < 2 ** minNormal) return sign | roundHalfEven(a / 2 ** (minNormal - mantBits));
  let e = binaryExponent(a);
  let m = roundHalfEven((a / 2 ** e - 1) * 2 ** mantBits);
  if (m === 2 ** mantBits) {
    m = 0;
    e++;
  }
  if (e > bias) return sign | inf;
  return sign | ((e + bias) << mantBits) | m;
}

/** IEEE half-precision bits of `v`, rounding to nearest even. */
export function numberToHalfBits(v: number): number {
  return to16Bits(v, 5, 10);
}

/** The value of IEEE half-precision bits. */
export function halfBitsToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** bfloat16 bits of `v`, rounding the exact double once to nearest even (no detour through f32). */
export function numberToBf16Bits(v: number): number {
  return to16Bits(v, 8, 7);
}

/** The value of bfloat16 bits. */
export function bf16BitsToNumber(b: number): number {
  u32buf[0] = b << 16;
  return f32buf[0];
}

/** The bit pattern of `v` in a float kind, as MLIR prints in hex form. */
export function floatBits(v: number, kind: string): bigint {
  switch (kind) {
    case 'f64':
      f64buf[0] = v;
      return u64buf[0];
    case 'f16':
      return BigInt(numberToHalfBits(v));
    case 'bf16':
      return BigInt(numberToBf16Bits(v));
    default: {
      const mini = miniFloatFormat(kind);
      if (mini) return BigInt(miniFloatBits(mini, v));
      f32buf[0] = v;
      return BigInt(u32buf[0]);
    }
  }
}

/** The value of a bit pattern in a float kind (the inverse of `floatBits`). */
export function floatFromBits(bits: bigint, kind: string): number {
  switch (kind) {
    case 'f64':
      u64buf[0] = BigInt.asUintN(64, bits);
      return f64buf[0];
    case 'f16':
      return halfBitsToNumber(Number(bits & 0xffffn));
    case 'bf16':
      return bf16BitsToNumber(Number(bits & 0xffffn));
    default: {
      const mini = miniFloatFormat(kind);
      if (mini) return miniFloatValue(mini, Number(bits & 0xffn));
      u32buf[0] = Number(bits & 0xffffffffn);
      return f32buf[0];
    }
  }
}

const HEX_DIGITS: Record<string, number> = { f64: 16, f32: 8, tf32: 8, f16: 4, bf16: 4 };

/** Significand bits of each float kind (for APFloat's default printing precision). */
const PRECISION_BITS: Record<string, number> = { f64: 53, f32: 24, tf32: 11, f16: 11, bf16: 8, f80: 64, f128: 113 };

/**
 * Formats a float as MLIR does: APFloat's 6-digit scientific form when that reads back exactly,
 * otherwise APFloat's default form (enough digits for the type, `E` exponent), else hex
 * (which is also used for infinities and NaNs).
 */
export function formatFloat(v: number, kind: string, nanBits: bigint | null = null): string {
  if (Number.isFinite(v)) {
    const six = apfloatToString(v, 6, 0, false);
    if (Object.is(roundToFloat(Number(six), kind), v)) return six;
    const bits = PRECISION_BITS[kind] ?? 24;
    const dflt = apfloatToString(v, 2 + Math.floor((bits * 59) / 196), 3, true);
    if (dflt.includes('.') && Object.is(roundToFloat(Number(dflt), kind), v)) return dflt;
  }
  const bits = nanBits ?? floatBits(v, kind);
  const digits = HEX_DIGITS[kind] ?? Math.ceil(FloatType.get(kind).width / 4);
  return '0x' + bits.toString(16).toUpperCase().padStart(digits, '0');
}

/** LLVM's `APFloat::toString(precision, maxPadding, truncateZero)` on the exact value of `v`. */
function apfloatToString(v: number, precision: number, maxPadding: number, truncateZero: boolean): string {
  const sign = v < 0 || Object.is(v, -0) ? '-' : '';
  const a = Math.abs(v);
  if (a === 0) {
    if (maxPadding) return sign + '0';
    return sign + (truncateZero ? '0.0E+0' : '0.0' + '0'.repeat(Math.max(0, precision - 1)) + 'e+00');
  }
  const [mant, e] = a.toExponential(precision - 1).split('e');
  const digits = mant.replace('.', '').replace(/0+$/, '') || '0';
  const n = digits.length;
  let exp = Number(e) - (n - 1);
  let scientific: boolean;
  if (!maxPadding) scientific = true;
  else if (exp >= 0) scientific = exp > maxPadding || n + exp > precision;
  else {
    const msd = exp + n - 1;
    scientific = msd >= 0 ? false : -msd > maxPadding;
  }
  if (scientific) {
    exp += n - 1;
    let s = digits[0] + '.';
    s += n === 1 && truncateZero ? '0' : digits.slice(1);
    if (!truncateZero && precision > n - 1) s += '0'.repeat(precision - n + 1);
    const ex = String(Math.abs(exp));
    s += (truncateZero ? 'E' : 'e') + (exp >= 0 ? '+' : '-') + (!truncateZero && ex.length < 2 ? '0' + ex : ex);
    return sign + s;
  }
  if (exp >= 0) return sign + digits + '0'.repeat(exp);
  const whole = exp + n;
  if (whole > 0) return sign + digits.slice(0, whole) + '.' + digits.slice(whole);
  return sign + '0.' + '0'.repeat(-whole) + digits;
}

/** Formats one element of a dense attribute according to the element type. */
export function formatScalar(v: DenseValue, elt: Type, nanBits: bigint | null = null): string {
  if (elt instanceof FloatType) return formatFloat(Number(v), elt.kind, nanBits);
  if (elt instanceof IntegerType && elt.width === 1) return v ? 'true' : 'false';
  return v.toString();
}

/**
 * Quotes a byte string as MLIR does (llvm::printEscapedString): `\\` for a backslash, printable
 * ASCII as itself, every other byte (`"` included) as `\XX`. A character above 0xFF (text built by
 * code, not parsed) is written as its UTF-8 bytes.
 */
export function quoteString(s: string): string {
  let out = '"';
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c === 0x5c) out += '\\\\';
    else if (c >= 0x20 && c < 0x7f && c !== 0x22) out += s[k];
    else if (c <= 0xff) out += hexByte(c);
    else {
      const cp = s.codePointAt(k)!;
      if (cp > 0xffff) k++;
      for (const b of new TextEncoder().encode(String.fromCodePoint(cp))) out += hexByte(b);
    }
  }
  return out + '"';
}

const hexByte = (b: number): string => '\\' + b.toString(16).toUpperCase().padStart(2, '0');
