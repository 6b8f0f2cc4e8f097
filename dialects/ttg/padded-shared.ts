/**
 * `#ttg.padded_shared<[I1:+P1, I2:+P2, ...] {offset = [[..], ..], block = [[..], ..]}>`: a shared
 * layout that inserts P elements of padding after every I elements (for each pair), over an
 * element order given by a linear map (`offset`: bit k of the unpadded element index moves by
 * basis k in the tile; `block`: the CTA bases). Triton 3.6 also reads the shorthand
 * `{order = [..], shape = [..]}` (the tile stored in `order`, unswizzled), which it prints in the
 * `offset` form; so does this printer.
 *
 * Element index `i` (the position of a coordinate under the linear map) is stored at
 * `i + sum over pairs of (i >> log2 I) << log2 P` (shared-layout.ts's `padIndex`).
 */
import type { AsmParser, AsmPrinter } from '../../ir/asm.js';
import { DialectAttr } from '../../ir/attributes.js';
import { unique } from '../../ir/uniquer.js';
import { fieldValue, listText } from './struct-attr.js';

/** One `I:+P` pair: `padding` elements after every `interval` elements. */
export interface PaddingInterval {
  interval: number;
  padding: number;
}

const isPow2 = (x: number): boolean => Number.isInteger(x) && x > 0 && (x & (x - 1)) === 0;

/** Checks the pairs and the linear component; returns the first problem, in Triton's words. */
export function verifyPaddedShared(pairs: readonly PaddingInterval[], offset: readonly (readonly number[])[], block: readonly (readonly number[])[]): string | undefined {
  if (!pairs.length) return 'expected at least one interval-padding pair';
  if (!pairs.every((p) => isPow2(p.interval))) return 'interval values must all be power of two';
  if (!pairs.every((p) => isPow2(p.padding))) return 'padding values must all be power of two';
  if (new Set(pairs.map((p) => p.interval)).size !== pairs.length) return 'interval values cannot have duplicates';
  const rank = offset[0]?.length ?? block[0]?.length ?? 0;
  if (!offset.length) return 'expected a non-empty offset basis';
  if ([...offset, ...block].some((b) => b.length !== rank)) return 'all bases must have the same number of dimensions';
  if (offset.some((b) => b.some((x) => x < 0) || b.filter((x) => x !== 0).length !== 1 || !isPow2(b.find((x) => x !== 0)!)))
    return 'each offset basis must move by a power of two in exactly one dimension';
  const seen = new Set(offset.map((b) => b.join(',')));
  if (seen.size !== offset.length) return 'offset bases must be distinct';
}

/** The offset bases of a tile of `shape` stored unswizzled in `order` (fastest dim first). */
export function orderedBases(order: readonly number[], shape: readonly number[]): number[][] {
  const bases: number[][] = [];
  for (const d of order) for (let s = 1; s < shape[d]; s *= 2) bases.push(shape.map((_, k) => (k === d ? s : 0)));
  return bases;
}

/** `#ttg.padded_shared` (alias `#shared`). */
export class PaddedSharedAttr extends DialectAttr {
  readonly dialect = 'ttg';
  readonly mnemonic = 'padded_shared';
  private constructor(
    readonly pairs: readonly PaddingInterval[],
    readonly offset: readonly (readonly number[])[],
    readonly block: readonly (readonly number[])[],
  ) {
    super();
  }

  /** The uniqued attribute (not verified: see `verifyPaddedShared`). */
  static get(pairs: readonly PaddingInterval[], offset: readonly (readonly number[])[], block: readonly (readonly number[])[] = []): PaddedSharedAttr {
    const key = `ttg.padded_shared:${pairs.map((p) => `${p.interval}:${p.padding}`).join(',')}|${listText(offset)}|${listText(block)}`;
    return unique(key, () => new PaddedSharedAttr(pairs, offset, block));
  }

  /** The tensor rank the layout describes. */
  get rank(): number {
    return this.offset[0]?.length ?? 0;
  }

  override aliasName(): string | null {
    return 'shared';
  }

  printBody(p: AsmPrinter): void {
    p.write(`<[${this.pairs.map((x) => `${x.interval}:+${x.padding}`).join(', ')}] {offset = ${listText(this.offset)}, block = ${listText(this.block)}}>`);
  }

  /** Reads `<[I:+P, ...] {offset = .., block = ..}>` or `<[I:+P, ...] {order = .., shape = ..}>`. */
  static parseBody(p: AsmParser): PaddedSharedAttr {
    const pos = p.pos();
    p.parsePunct('<');
    p.parsePunct('[');
    const pairs: PaddingInterval[] = [];
    do {
      const interval = Number(p.parseInteger());
      p.parsePunct(':');
      p.parsePunct('+');
      pairs.push({ interval, padding: Number(p.parseInteger()) });
    } while (p.parseOptionalPunct(','));
    p.parsePunct(']');
    const entries = new Map(p.parseDictionaryBody());
    p.parsePunct('>');
    const field = (kind: 'ints' | 'ints2', k: string) => {
      const a = entries.get(k);
      return a ? fieldValue(kind, a) : undefined;
    };
    const keys = [...entries.keys()].sort().join(',');
    let offset: number[][] | undefined;
    let block: number[][] = [];
    if (keys === 'order,shape') {
      const order = field('ints', 'order') as number[] | undefined;
      const shape = field('ints', 'shape') as number[] | undefined;
      if (!order || !shape) return p.error("expected integer arrays for 'order' and 'shape' in #ttg.padded_shared", pos);
      if (order.length !== shape.length || [...order].sort((a, b) => a - b).some((x, k) => x !== k)) return p.error("'order' must be a permutation of the dimensions of 'shape'", pos);
      if (!shape.every(isPow2)) return p.error("'shape' values must all be power of two", pos);
      offset = orderedBases(order, shape);
    } else if (keys === 'block,offset') {
      offset = field('ints2', 'offset') as number[][] | undefined;
      const b = field('ints2', 'block') as number[][] | undefined;
      if (!offset || !b) return p.error("expected arrays of integer arrays for 'offset' and 'block' in #ttg.padded_shared", pos);
      block = b;
    } else {
      return p.error("#ttg.padded_shared expects either {offset, block} or {order, shape}", pos);
    }
    // Kept as doubles: a value outside 32 bits would not print back exactly (fuzz finding b85da12c).
    const big = [...pairs.flatMap((x) => [x.interval, x.padding]), ...offset.flat(), ...block.flat()].find((x) => !(x >= -(2 ** 31) && x < 2 ** 31));
    if (big !== undefined) return p.error(`${BigInt(big)} is out of range in #ttg.padded_shared: its values are 32-bit integers`, pos);
    const msg = verifyPaddedShared(pairs, offset, block);
    if (msg) return p.error(msg, pos);
    return PaddedSharedAttr.get(pairs, offset, block);
  }
}
