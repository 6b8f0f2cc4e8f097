/**
 * TritonGPU types: `!ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>` (a descriptor of a
 * buffer in shared or tensor memory) and `!ttg.async.token`.
 */
import type { AsmParser, AsmPrinter } from '../../ir/asm.js';
import type { Attribute } from '../../ir/attributes.js';
import { strippedTypeOf, typeIs } from '../../ir/constraints.js';
import { DialectType, type Type } from '../../ir/types.js';
import { unique } from '../../ir/uniquer.js';

/**
 * `!ttg.memdesc<shape x elt, encoding[, memorySpace][, mutable][, allocShape]>`. The alloc shape
 * is printed only when it differs from the shape (a view into a larger allocation).
 */
export class MemDescType extends DialectType {
  readonly dialect = 'ttg';
  readonly mnemonic = 'memdesc';
  private constructor(
    readonly shape: readonly number[],
    readonly elementType: Type,
    readonly encoding: Attribute | null,
    readonly memorySpace: Attribute | null,
    readonly mutable: boolean,
    readonly allocShape: readonly number[],
  ) {
    super();
  }
  static get(
    shape: readonly number[],
    elementType: Type,
    encoding: Attribute | null,
    memorySpace: Attribute | null = null,
    mutable = false,
    allocShape?: readonly number[],
  ): MemDescType {
    const alloc = allocShape ?? shape;
    const key = `ttg.memdesc:${shape.join('x')}:${elementType.id}:${encoding?.id ?? 0}:${memorySpace?.id ?? 0}:${mutable}:${alloc.join('x')}`;
    return unique(key, () => new MemDescType([...shape], elementType, encoding, memorySpace, mutable, [...alloc]));
  }
  get rank(): number {
    return this.shape.length;
  }
  /** The same descriptor with another shape (and alloc shape kept unless given). */
  withShape(shape: readonly number[], allocShape?: readonly number[]): MemDescType {
    return MemDescType.get(shape, this.elementType, this.encoding, this.memorySpace, this.mutable, allocShape ?? this.allocShape);
  }
  printBody(p: AsmPrinter): void {
    p.write('<');
    for (const d of this.shape) p.write(`${d}x`);
    p.printType(this.elementType);
    if (this.encoding) {
      p.write(', ');
      p.printAttribute(this.encoding);
    }
    if (this.memorySpace) {
      p.write(', ');
      p.printAttribute(this.memorySpace);
    }
    if (this.mutable) p.write(', mutable');
    if (!sameShape(this.allocShape, this.shape)) p.write(`, ${this.allocShape.join('x')}`);
    p.write('>');
  }
  /** Reads `<...>` (after `!ttg.memdesc`, or where a format prints the type stripped). */
  static parseBody(p: AsmParser): MemDescType {
    p.parsePunct('<');
    const shape = p.parseDimensionList(false);
    const elt = p.parseType();
    const attrs: Attribute[] = [];
    let mutable = false;
    let alloc: number[] | undefined;
    while (p.parseOptionalPunct(',')) {
      const t = p.peekToken();
      if (t?.kind === 'BareId' && t.image === 'mutable') {
        p.parseKeyword('mutable');
        mutable = true;
      } else if ((t?.kind === 'DimList' || t?.kind === 'Integer') && (attrs.length === 2 || mutable)) {
        // the alloc shape comes after the encoding and memory space (an integer before them is an attribute, `4 : i64`)
        alloc = [...p.parseDimensionList(false), p.parseIntegerInRange(0, Number.MAX_SAFE_INTEGER, 'alloc dimension')];
      } else {
        if (attrs.length === 2) p.error('expected `mutable` or an alloc shape in !ttg.memdesc');
        attrs.push(p.parseAttribute());
      }
    }
    p.parsePunct('>');
    return MemDescType.get(shape, elt, attrs[0] ?? null, attrs[1] ?? null, mutable, alloc);
  }
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, k) => x === b[k]);
}

/** `!ttg.async.token`: the result of an async copy / commit group. */
export class AsyncTokenType extends DialectType {
  readonly dialect = 'ttg';
  readonly mnemonic = 'async.token';
  private constructor() {
    super();
  }
  static get(): AsyncTokenType {
    return unique('ttg.async.token', () => new AsyncTokenType());
  }
  printBody(_p: AsmPrinter): void {}
  /** Nothing follows the mnemonic. */
  static parseBody(_p: AsmParser): AsyncTokenType {
    return AsyncTokenType.get();
  }
}

/** `TTG_MemDescType`: prints stripped (`<128x64xf16, ...>`) where a format says `type($x)`. */
export const MemDesc = strippedTypeOf(
  'memory descriptor type',
  (t) => t instanceof MemDescType,
  MemDescType.parseBody,
);
/** `TTG_AsyncToken`. */
export const AsyncToken = typeIs('async token type', (t) => t instanceof AsyncTokenType);
