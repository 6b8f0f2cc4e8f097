/**
 * The interfaces types, attributes and dialects use to read and write their textual form.
 * The parser (`ir/parser.ts`) and printer (`ir/printer.ts`) implement them; dialects only see
 * these, which keeps dialect code independent of the parser's internals.
 */
import type { Attribute } from './attributes.js';
import type { Type } from './types.js';
import type { SourcePos } from './diagnostics.js';

/** What a type or attribute may call while printing itself. */
export interface AsmPrinter {
  write(text: string): void;
  printType(t: Type): void;
  printAttribute(a: Attribute): void;
  /** Prints an attribute without its `: type` suffix (e.g. `16` rather than `16 : i32`). */
  printAttributeWithoutType(a: Attribute): void;
  /** Prints a type without its dialect prefix where the context implies it. */
  printStrippedType(t: Type): void;
  /**
   * The number `distinct[N]` prints for `a`: 0, 1, 2... in the order of the printed text, as
   * mlir-opt renumbers (the number is not part of the attribute, its identity is).
   */
  distinctNumber(a: Attribute): number;
}

/** What a type or attribute parser may call. All `parseX` methods report an error on mismatch. */
export interface AsmParser {
  /** Position of the current token, for diagnostics. */
  pos(): SourcePos;
  error(message: string, pos?: SourcePos): never;
  /** The current token's kind (lexer token name, e.g. `PercentId`, `BareId`, `Integer`) and text, without consuming it. */
  peekToken(offset?: number): { kind: string; image: string } | undefined;
  parseType(): Type;
  /** Runs `f` one nesting level deeper (a located error past MAX_NESTING): for a recursive grammar of a dialect's own. */
  nested<T>(f: () => T): T;
  parseAttribute(type?: Type): Attribute;
  parseInteger(): bigint;
  /** One element of a dense array of `elt` (`array<i32: 1, 2>`), range-checked for the type. */
  parseDenseArrayElement(elt: Type): number;
  /** An integer in [lo, hi] as a JS number; outside it, a located error `<what> <value> is out of range [lo, hi]`. */
  parseIntegerInRange(lo: number, hi: number, what: string): number;
  parseOptionalInteger(): bigint | undefined;
  parseFloat(): number;
  parseKeyword(expected?: string): string;
  parseOptionalKeyword(expected?: string): string | undefined;
  parseString(): string;
  parseOptionalString(): string | undefined;
  /** Parses one of the punctuation tokens: `<`, `>`, `(`, `)`, `[`, `]`, `{`, `}`, `,`, `:`, `=`, `->`, `?`, `*`, `+`, `-`, `|`, `...`, `::`. */
  parsePunct(p: string): void;
  parseOptionalPunct(p: string): boolean;
  /** Parses a shape prefix `AxBx` (possibly empty) and returns its dimensions; `?` is -1. */
  parseDimensionList(allowDynamic: boolean): number[];
  /** Parses `{key = value, ...}` as a dictionary attribute's entries. */
  parseDictionaryBody(): [string, Attribute][];
  /** Parses `elem (, elem)*` between `open` and `close`. */
  parseCommaList<T>(open: string, close: string, elem: () => T): T[];
}
