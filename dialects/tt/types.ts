/**
 * Triton's types: `!tt.ptr<T>` (with an optional address space) and `!tt.tensordesc<tensor<...>>`.
 */
import type { AsmParser, AsmPrinter } from '../../ir/asm.js';
import { DialectType, RankedTensorType, type Type } from '../../ir/types.js';
import { unique } from '../../ir/uniquer.js';

/** `!tt.ptr<f32>` or `!tt.ptr<f32, 3>`: a pointer to `pointee` in `addressSpace` (1 = global, default). */
export class PointerType extends DialectType {
  readonly dialect = 'tt';
  readonly mnemonic = 'ptr';
  private constructor(readonly pointee: Type, readonly addressSpace: number) {
    super();
  }
  static get(pointee: Type, addressSpace = 1): PointerType {
    return unique(`tt.ptr:${pointee.id}:${addressSpace}`, () => new PointerType(pointee, addressSpace));
  }
  printBody(p: AsmPrinter): void {
    p.write('<');
    p.printType(this.pointee);
    if (this.addressSpace !== 1) p.write(`, ${this.addressSpace}`);
    p.write('>');
  }
  /** Reads `<T>` or `<T, addrspace>` (the part after `!tt.ptr`). */
  static parseBody(p: AsmParser): PointerType {
    p.parsePunct('<');
    const pointee = p.parseType();
    let space = 1;
    if (p.parseOptionalPunct(',')) space = p.parseIntegerInRange(0, 2147483647, 'address space');
    p.parsePunct('>');
    return PointerType.get(pointee, space);
  }
}

/** `!tt.tensordesc<tensor<64x64xf16>>`: a descriptor for TMA-style block access. */
export class TensorDescType extends DialectType {
  readonly dialect = 'tt';
  readonly mnemonic = 'tensordesc';
  private constructor(readonly blockType: RankedTensorType) {
    super();
  }
  static get(blockType: RankedTensorType): TensorDescType {
    return unique(`tt.tensordesc:${blockType.id}`, () => new TensorDescType(blockType));
  }
  /**
   * The shape of the shared-memory tile a block lands in: the block's, less the leading 1s of a
   * block of more than two dims (a `[1, 1, 64, 64]` box of a 4-d tensor fills a 64x64 tile).
   */
  get tileShape(): readonly number[] {
    const shape = this.blockType.shape;
    let lead = 0;
    while (shape.length - lead > 2 && shape[lead] === 1) lead++;
    return shape.slice(lead);
  }
  printBody(p: AsmPrinter): void {
    p.write('<');
    p.printType(this.blockType);
    p.write('>');
  }
  static parseBody(p: AsmParser): TensorDescType {
    const pos = p.pos();
    p.parsePunct('<');
    const t = p.parseType();
    if (!(t instanceof RankedTensorType)) p.error(`expected a ranked tensor type in !tt.tensordesc, got ${t}`, pos);
    p.parsePunct('>');
    return TensorDescType.get(t);
  }
}

/** Whether `t` is `!tt.ptr` or a tensor of them. */
export function isPtrLike(t: Type): boolean {
  return t instanceof PointerType || (t instanceof RankedTensorType && t.elementType instanceof PointerType);
}

/** The pointee type with the shape of `t`: `tensor<4x!tt.ptr<f32>>` gives `tensor<4xf32>`. */
export function pointeeLike(t: Type): Type | undefined {
  if (t instanceof PointerType) return t.pointee;
  if (t instanceof RankedTensorType && t.elementType instanceof PointerType) return t.withElementType(t.elementType.pointee);
  return undefined;
}
