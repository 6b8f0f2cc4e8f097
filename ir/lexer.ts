/**
 * The MLIR-syntax lexer: a hand-written scanner that stores tokens as numbers (kind, start and
 * end offsets in typed arrays), so lexing allocates no object or string per token. The parser
 * reads tokens by absolute index and slices a token's text only when it needs it.
 *
 * The token vocabulary and its matching rules are those of the former chevrotain lexer
 * (first matching rule wins, in the order of `T`). MLIR's shape syntax (`128x64xf16`) is lexed
 * as one `DimList` token (`128x64x`) followed by the element type, which avoids MLIR's lexer
 * re-entry trick.
 */

/** Token kinds. `EOF` is what the window answers past the end of the text. */
export const T = {
  EOF: 0,
  FileMetaBegin: 1,
  FileMetaEnd: 2,
  Arrow: 3,
  Ellipsis: 4,
  ColonColon: 5,
  PercentId: 6,
  CaretId: 7,
  HashId: 8,
  BangId: 9,
  AtId: 10,
  String: 11,
  Float: 12,
  HexInt: 13,
  DimList: 14,
  Integer: 15,
  BareId: 16,
  LParen: 17,
  RParen: 18,
  LBrace: 19,
  RBrace: 20,
  LSquare: 21,
  RSquare: 22,
  Less: 23,
  Greater: 24,
  Comma: 25,
  Colon: 26,
  Equal: 27,
  Question: 28,
  Star: 29,
  Plus: 30,
  Minus: 31,
  Pipe: 32,
  Slash: 33,
  Bang: 34,
} as const;

/** A token kind (a value of `T`). */
export type TokenType = number;

/** Token kind names, by kind (what `AsmParser.peekToken` reports). */
export const KIND_NAMES: readonly string[] = (() => {
  const names: string[] = [];
  for (const [name, k] of Object.entries(T)) names[k] = name;
  return names;
})();

/** Punctuation spelling to token kind, for `parsePunct`. */
export const PUNCT: Record<string, TokenType> = {
  '(': T.LParen, ')': T.RParen, '{': T.LBrace, '}': T.RBrace, '[': T.LSquare, ']': T.RSquare,
  '<': T.Less, '>': T.Greater, ',': T.Comma, ':': T.Colon, '=': T.Equal, '?': T.Question,
  '*': T.Star, '+': T.Plus, '-': T.Minus, '|': T.Pipe, '->': T.Arrow, '...': T.Ellipsis,
  '::': T.ColonColon, '/': T.Slash, '!': T.Bang, '{-#': T.FileMetaBegin, '#-}': T.FileMetaEnd,
};

/** A lexing failure: the offset of the first character no token matches. */
export interface LexError {
  offset: number;
  message: string;
}

// ---- character classes -------------------------------------------------------------------

/** `[A-Za-z0-9_]` (regex `\w`). */
const WORD = 1;
/** `[A-Za-z_]`: starts an identifier. */
const ALPHA = 2;
/** `[0-9]`. */
const DIGIT = 4;
/** `[0-9a-fA-F]`. */
const HEX = 8;
/** `[\w$.\-]`: the characters of `%name`, `^bb`, `#alias`, `!type`, `@sym` suffixes. */
const SUFFIX = 16;
/** `[\w$.]`: the characters of bare identifiers after the first. */
const BARE = 32;

const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  let m = 0;
  if (/\w/.test(ch)) m |= WORD | SUFFIX | BARE;
  if (/[A-Za-z_]/.test(ch)) m |= ALPHA;
  if (/\d/.test(ch)) m |= DIGIT;
  if (/[0-9a-fA-F]/.test(ch)) m |= HEX;
  if (ch === '$' || ch === '.') m |= SUFFIX | BARE;
  if (ch === '-') m |= SUFFIX;
  CLASS[c] = m;
}

function has(text: string, k: number, cls: number): boolean {
  const c = text.charCodeAt(k); // NaN past the end: fails every test
  return c < 128 && (CLASS[c] & cls) !== 0;
}

/** The end of a run of characters of class `cls` starting at `k`. */
function skipClass(text: string, k: number, cls: number): number {
  for (;;) {
    const c = text.charCodeAt(k);
    if (!(c < 128 && (CLASS[c] & cls) !== 0)) return k;
    k++;
  }
}

/** The end of a `"..."` string starting at `k`, or -1 when it is not terminated on its line. */
function scanString(text: string, k: number): number {
  for (let j = k + 1; j < text.length; ) {
    const c = text.charCodeAt(j);
    if (c === 34 /* " */) return j + 1;
    if (c === 10) return -1;
    if (c === 92 /* \ */) {
      const n = text.charCodeAt(j + 1);
      // `\\.`: any character but a line terminator
      if (Number.isNaN(n) || n === 10 || n === 13 || n === 0x2028 || n === 0x2029) return -1;
      j += 2;
    } else j++;
  }
  return -1;
}

/** The end of a `DimList` (`(\d+|\?)x((\d+|\?)x)*`) starting at `k`, or -1. */
function scanDimList(text: string, k: number): number {
  let end = -1;
  for (;;) {
    let j = k;
    if (text.charCodeAt(j) === 63 /* ? */) j++;
    else {
      j = skipClass(text, k, DIGIT);
      if (j === k) return end;
    }
    if (text.charCodeAt(j) !== 120 /* x */) return end;
    end = k = j + 1;
  }
}

function describeBadChar(text: string, offset: number): string {
  const c = text[offset];
  if (c === '"') return 'expected \'"\' in string literal';
  const code = c.charCodeAt(0);
  const shown = code < 0x20 || code === 0x7f || code > 0x7e ? '\\x' + code.toString(16).padStart(2, '0') : c;
  return `unexpected character '${shown}'`;
}

/**
 * Every token of a text, lexed at once into typed arrays (off the JS heap, so a large file's
 * 1,000,000s of tokens cost the garbage collector nothing). A character no token matches is
 * recorded as an error and skipped; the parsers' windows (`TokenWindow`) decide when an error
 * is reported.
 */
export class TokenStream {
  kinds: Uint8Array;
  starts: Int32Array;
  ends: Int32Array;
  count = 0;
  /** Lexing errors in text order. */
  readonly errors: LexError[] = [];

  constructor(readonly text: string) {
    const capacity = (text.length >> 2) + 16;
    this.kinds = new Uint8Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.lex(0, text.length);
  }

  /** The index of the first token starting at or after `offset`. */
  firstAt(offset: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid] < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private push(kind: number, start: number, end: number): void {
    if (this.count === this.kinds.length) {
      const grow = <A extends Uint8Array | Int32Array>(a: A, make: (n: number) => A): A => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.kinds = grow(this.kinds, (n) => new Uint8Array(n));
      this.starts = grow(this.starts, (n) => new Int32Array(n));
      this.ends = grow(this.ends, (n) => new Int32Array(n));
    }
    const c = this.count++;
    this.kinds[c] = kind;
    this.starts[c] = start;
    this.ends[c] = end;
  }

  /** Lexes `text[from, to)`, which ends at a line break or at the end of the text. */
  private lex(from: number, to: number): void {
    const text = this.text;
    let k = from;
    while (k < to) {
      const c = text.charCodeAt(k);
      const start = k;
      let kind = 0;
      switch (c) {
        case 32: // ' '
        case 9: // \t
        case 13: // \r
        case 10: {
          // \n; a run of blanks in one step
          let c2 = text.charCodeAt(++k);
          while (c2 === 32 || c2 === 10 || c2 === 9 || c2 === 13) c2 = text.charCodeAt(++k);
          continue;
        }
        case 37: // %
          k = skipClass(text, k + 1, SUFFIX);
          if (k === start + 1) break;
          if (text.charCodeAt(k) === 35 /* # */ && has(text, k + 1, DIGIT)) k = skipClass(text, k + 1, DIGIT);
          kind = T.PercentId;
          break;
        case 44: // ,
          k++;
          kind = T.Comma;
          break;
        case 58: // :
          if (text.charCodeAt(k + 1) === 58) {
            k += 2;
            kind = T.ColonColon;
          } else {
            k++;
            kind = T.Colon;
          }
          break;
        case 61: // =
          k++;
          kind = T.Equal;
          break;
        case 40: // (
          k++;
          kind = T.LParen;
          break;
        case 41: // )
          k++;
          kind = T.RParen;
          break;
        case 123: // {
          if (text.charCodeAt(k + 1) === 45 && text.charCodeAt(k + 2) === 35) {
            k += 3;
            kind = T.FileMetaBegin;
          } else {
            k++;
            kind = T.LBrace;
          }
          break;
        case 125: // }
          k++;
          kind = T.RBrace;
          break;
        case 91: // [
          k++;
          kind = T.LSquare;
          break;
        case 93: // ]
          k++;
          kind = T.RSquare;
          break;
        case 60: // <
          k++;
          kind = T.Less;
          break;
        case 62: // >
          k++;
          kind = T.Greater;
          break;
        case 45: // -
          if (text.charCodeAt(k + 1) === 62) {
            k += 2;
            kind = T.Arrow;
          } else {
            k++;
            kind = T.Minus;
          }
          break;
        case 46: // .
          if (text.charCodeAt(k + 1) === 46 && text.charCodeAt(k + 2) === 46) {
            k += 3;
            kind = T.Ellipsis;
          }
          break;
        case 94: // ^
          k = skipClass(text, k + 1, SUFFIX);
          if (k > start + 1) kind = T.CaretId;
          break;
        case 35: // #
          if (text.charCodeAt(k + 1) === 45 && text.charCodeAt(k + 2) === 125) {
            k += 3;
            kind = T.FileMetaEnd;
          } else if (has(text, k + 1, ALPHA)) {
            k = skipClass(text, k + 2, SUFFIX);
            kind = T.HashId;
          }
          break;
        case 33: // !
          if (has(text, k + 1, ALPHA)) {
            k = skipClass(text, k + 2, SUFFIX);
            kind = T.BangId;
          } else {
            k++;
            kind = T.Bang;
          }
          break;
        case 64: {
          // @
          if (has(text, k + 1, SUFFIX)) {
            k = skipClass(text, k + 1, SUFFIX);
            kind = T.AtId;
          } else if (text.charCodeAt(k + 1) === 34) {
            const e = scanString(text, k + 1);
            if (e >= 0) {
              k = e;
              kind = T.AtId;
            }
          }
          break;
        }
        case 34: {
          // "
          const e = scanString(text, k);
          if (e >= 0) {
            k = e;
            kind = T.String;
          }
          break;
        }
        case 47: // /
          if (text.charCodeAt(k + 1) === 47) {
            const nl = text.indexOf('\n', k);
            k = nl < 0 || nl > to ? to : nl;
            continue;
          }
          k++;
          kind = T.Slash;
          break;
        case 63: {
          // ?
          const e = scanDimList(text, k);
          if (e >= 0) {
            k = e;
            kind = T.DimList;
          } else {
            k++;
            kind = T.Question;
          }
          break;
        }
        case 42: // *
          k++;
          kind = T.Star;
          break;
        case 43: // +
          k++;
          kind = T.Plus;
          break;
        case 124: // |
          k++;
          kind = T.Pipe;
          break;
        default:
          if (c >= 48 && c <= 57) {
            kind = this.lexNumber(start);
            k = this.numberEnd;
          } else if (c < 128 && (CLASS[c] & ALPHA) !== 0) {
            k = skipClass(text, k + 1, BARE);
            kind = T.BareId;
          }
      }
      if (kind === 0) {
        this.errors.push({ offset: start, message: describeBadChar(text, start) });
        k = start + 1;
        continue;
      }
      this.push(kind, start, k);
    }
  }

  /** End offset of the number `lexNumber` just read. */
  private numberEnd = 0;

  /** Float, HexInt, DimList or Integer at `k` (a digit), in that order of preference. */
  private lexNumber(k: number): number {
    const text = this.text;
    const digits = skipClass(text, k, DIGIT);
    if (text.charCodeAt(digits) === 46 /* . */) {
      let j = skipClass(text, digits + 1, DIGIT);
      const e = text.charCodeAt(j);
      if (e === 101 || e === 69) {
        let m = j + 1;
        const s = text.charCodeAt(m);
        if (s === 43 || s === 45) m++;
        const exp = skipClass(text, m, DIGIT);
        if (exp > m) j = exp;
      }
      this.numberEnd = j;
      return T.Float;
    }
    if (text.charCodeAt(k) === 48 && text.charCodeAt(k + 1) === 120 && has(text, k + 2, HEX)) {
      this.numberEnd = skipClass(text, k + 2, HEX);
      return T.HexInt;
    }
    const dims = scanDimList(text, k);
    if (dims >= 0) {
      this.numberEnd = dims;
      return T.DimList;
    }
    this.numberEnd = digits;
    return T.Integer;
  }
}

/**
 * A parser's view of a `TokenStream` from a text offset on. Lexing errors are reported as the
 * former lazy lexer reported them: that lexer cut the text into chunks ending at line breaks
 * (`chunk` characters at first, doubling up to `maxChunk`) and failed on reaching a chunk with
 * an error, so the tokens before that chunk are readable and reading past them is the error.
 */
export class TokenWindow {
  /** The index of the first token of the view. */
  readonly first: number;
  /** Tokens `first .. limit - 1` are readable. */
  private readonly limit: number;
  private readonly error: LexError | null;

  constructor(
    private readonly stream: TokenStream,
    start: number,
    chunk: number,
    maxChunk: number,
    private readonly onError: (e: LexError) => never,
  ) {
    this.first = stream.firstAt(start);
    this.error = stream.errors.find((e) => e.offset >= start) ?? null;
    this.limit = this.error ? stream.firstAt(chunkStartOf(stream.text, start, chunk, maxChunk, this.error.offset)) : stream.count;
  }

  /** Whether token `i` can be read without reaching the end of the view (or a lexing error past it). */
  has(i: number): boolean {
    return i < this.limit;
  }

  /** The kind of the token at absolute index `i` (`T.EOF` past the end of the text). */
  kindAt(i: number): number {
    return i < this.limit ? this.stream.kinds[i] : this.beyond();
  }

  /** The start offset of token `i`, which must exist (`kindAt(i)` was not EOF). */
  startAt(i: number): number {
    return this.stream.starts[i];
  }

  /** The end offset of token `i`, which must exist. */
  endAt(i: number): number {
    return this.stream.ends[i];
  }

  private beyond(): number {
    if (this.error) this.onError(this.error);
    return T.EOF;
  }
}

/** Where the chunk containing `offset` starts, chunks cut as `TokenWindow` describes from `start`. */
function chunkStartOf(text: string, start: number, chunk: number, maxChunk: number, offset: number): number {
  let next = start;
  for (;;) {
    let end = next + chunk;
    if (end >= text.length) end = text.length;
    else {
      const nl = text.indexOf('\n', end);
      end = nl < 0 ? text.length : nl + 1;
    }
    if (offset < end) return next;
    next = end;
    if (chunk < maxChunk) chunk *= 2;
  }
}
