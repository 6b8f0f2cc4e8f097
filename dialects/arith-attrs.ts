/**
 * The arith dialect's attributes: `#arith.fastmath<...>` and `#arith.overflow<...>` bit enums,
 * and the constraints that write them in assembly formats (`fastmath<fast>`, `overflow<nsw>`).
 */
import type { AsmParser, AsmPrinter } from '../ir/asm.js';
import { type Attribute, DialectAttr } from '../ir/attributes.js';
import type { AttrConstraint } from '../ir/op-spec.js';
import { unique } from '../ir/uniquer.js';

/** A bit-enum attribute printed as a list of flag names (`none` when no flag is set). */
abstract class BitEnumAttr extends DialectAttr {
  readonly dialect = 'arith';
  abstract readonly flags: readonly string[];
  abstract readonly separator: string;
  constructor(readonly bits: number) {
    super();
  }
  /** The flag names set, as MLIR prints them (with `fast` standing for all fastmath flags). */
  names(): string[] {
    if (this.bits === 0) return ['none'];
    const out: string[] = [];
    this.flags.forEach((f, k) => {
      if (this.bits & (1 << k)) out.push(f);
    });
    return out;
  }
  printBody(p: AsmPrinter): void {
    p.write('<' + this.names().join(this.separator) + '>');
  }
}

const FASTMATH_FLAGS = ['reassoc', 'nnan', 'ninf', 'nsz', 'arcp', 'contract', 'afn'] as const;
const FASTMATH_ALL = (1 << FASTMATH_FLAGS.length) - 1;

/** `#arith.fastmath<nnan,ninf>`: floating-point relaxations allowed on an op. */
export class FastMathAttr extends BitEnumAttr {
  readonly mnemonic = 'fastmath';
  readonly flags = FASTMATH_FLAGS;
  readonly separator = ',';
  static get(bits: number): FastMathAttr {
    return unique(`arith.fastmath:${bits}`, () => new FastMathAttr(bits));
  }
  override names(): string[] {
    return this.bits === FASTMATH_ALL ? ['fast'] : super.names();
  }
}

const OVERFLOW_FLAGS = ['nsw', 'nuw'] as const;

/** `#arith.overflow<nsw, nuw>`: no-signed/unsigned-wrap flags of integer ops. */
export class OverflowAttr extends BitEnumAttr {
  readonly mnemonic = 'overflow';
  readonly flags = OVERFLOW_FLAGS;
  readonly separator = ', ';
  static get(bits: number): OverflowAttr {
    return unique(`arith.overflow:${bits}`, () => new OverflowAttr(bits));
  }
}

/** Reads `<flag, flag...>` into a bit set; `fast` (fastmath) sets all flags. */
function parseFlags(p: AsmParser, flags: readonly string[], what: string): number {
  let bits = 0;
  const words = p.parseCommaList('<', '>', () => {
    const pos = p.pos();
    const w = p.parseKeyword();
    return { w, pos };
  });
  for (const { w, pos } of words) {
    if (w === 'none') continue;
    if (w === 'fast' && flags === FASTMATH_FLAGS) {
      bits |= FASTMATH_ALL;
      continue;
    }
    const k = flags.indexOf(w);
    if (k < 0) p.error(`unknown ${what} flag '${w}' (expected one of: none, ${flags.join(', ')})`, pos);
    bits |= 1 << k;
  }
  return bits;
}

/** Attribute parsers to register under the arith dialect. */
export const arithAttrParsers: Record<string, (p: AsmParser) => Attribute> = {
  fastmath: (p) => FastMathAttr.get(parseFlags(p, FASTMATH_FLAGS, 'fastmath')),
  overflow: (p) => OverflowAttr.get(parseFlags(p, OVERFLOW_FLAGS, 'overflow')),
};

/** The default `#arith.fastmath<none>`. */
export const FASTMATH_NONE = FastMathAttr.get(0);
/** The default `#arith.overflow<none>`. */
export const OVERFLOW_NONE = OverflowAttr.get(0);

/** In a format, `$fastmath` reads and prints `<fast>` after the `fastmath` keyword. */
export const fastmathConstraint: AttrConstraint = {
  description: 'floating point fast math flags',
  check: (a) => a instanceof FastMathAttr,
  parse: (p) => FastMathAttr.get(parseFlags(p, FASTMATH_FLAGS, 'fastmath')),
  print: (p, a) => (a as FastMathAttr).printBody(p),
};

/** In a format, `$overflowFlags` reads and prints `<nsw>` after the `overflow` keyword. */
export const overflowConstraint: AttrConstraint = {
  description: 'integer overflow flags',
  check: (a) => a instanceof OverflowAttr,
  parse: (p) => OverflowAttr.get(parseFlags(p, OVERFLOW_FLAGS, 'overflow')),
  print: (p, a) => (a as OverflowAttr).printBody(p),
};
