/**
 * The MLIR-syntax lexer, built with chevrotain. Positions are tracked as offsets only (cheap);
 * line and column are computed from the offset when a diagnostic needs them.
 *
 * MLIR's shape syntax (`128x64xf16`) is lexed as one `DimList` token (`128x64x`) followed by
 * the element type, which avoids MLIR's lexer re-entry trick.
 */
import { createToken, Lexer, type IToken, type TokenType } from 'chevrotain';

const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\r\n]+/, group: Lexer.SKIPPED, line_breaks: true });
const Comment = createToken({ name: 'Comment', pattern: /\/\/[^\n]*/, group: Lexer.SKIPPED });

/** Token kinds, by name. */
export const T = {
  FileMetaBegin: createToken({ name: 'FileMetaBegin', pattern: /\{-#/ }),
  FileMetaEnd: createToken({ name: 'FileMetaEnd', pattern: /#-\}/ }),
  Arrow: createToken({ name: 'Arrow', pattern: /->/ }),
  Ellipsis: createToken({ name: 'Ellipsis', pattern: /\.\.\./ }),
  ColonColon: createToken({ name: 'ColonColon', pattern: /::/ }),
  PercentId: createToken({ name: 'PercentId', pattern: /%[\w$.\-]+(?:#\d+)?/ }),
  CaretId: createToken({ name: 'CaretId', pattern: /\^[\w$.\-]+/ }),
  HashId: createToken({ name: 'HashId', pattern: /#[A-Za-z_][\w$.\-]*/ }),
  BangId: createToken({ name: 'BangId', pattern: /![A-Za-z_][\w$.\-]*/ }),
  AtId: createToken({ name: 'AtId', pattern: /@(?:[\w$.\-]+|"(?:[^"\\\n]|\\.)*")/ }),
  String: createToken({ name: 'String', pattern: /"(?:[^"\\\n]|\\.)*"/ }),
  Float: createToken({ name: 'Float', pattern: /\d+\.\d*(?:[eE][+-]?\d+)?/ }),
  HexInt: createToken({ name: 'HexInt', pattern: /0x[0-9a-fA-F]+/ }),
  DimList: createToken({ name: 'DimList', pattern: /(?:\d+|\?)x(?:(?:\d+|\?)x)*/ }),
  Integer: createToken({ name: 'Integer', pattern: /\d+/ }),
  BareId: createToken({ name: 'BareId', pattern: /[A-Za-z_][\w$.]*/ }),
  LParen: createToken({ name: 'LParen', pattern: /\(/ }),
  RParen: createToken({ name: 'RParen', pattern: /\)/ }),
  LBrace: createToken({ name: 'LBrace', pattern: /\{/ }),
  RBrace: createToken({ name: 'RBrace', pattern: /\}/ }),
  LSquare: createToken({ name: 'LSquare', pattern: /\[/ }),
  RSquare: createToken({ name: 'RSquare', pattern: /\]/ }),
  Less: createToken({ name: 'Less', pattern: /</ }),
  Greater: createToken({ name: 'Greater', pattern: />/ }),
  Comma: createToken({ name: 'Comma', pattern: /,/ }),
  Colon: createToken({ name: 'Colon', pattern: /:/ }),
  Equal: createToken({ name: 'Equal', pattern: /=/ }),
  Question: createToken({ name: 'Question', pattern: /\?/ }),
  Star: createToken({ name: 'Star', pattern: /\*/ }),
  Plus: createToken({ name: 'Plus', pattern: /\+/ }),
  Minus: createToken({ name: 'Minus', pattern: /-/ }),
  Pipe: createToken({ name: 'Pipe', pattern: /\|/ }),
  Slash: createToken({ name: 'Slash', pattern: /\// }),
  Bang: createToken({ name: 'Bang', pattern: /!/ }),
};

const ALL: TokenType[] = [
  WhiteSpace,
  Comment,
  T.FileMetaBegin,
  T.FileMetaEnd,
  T.Arrow,
  T.Ellipsis,
  T.ColonColon,
  T.PercentId,
  T.CaretId,
  T.HashId,
  T.BangId,
  T.AtId,
  T.String,
  T.Float,
  T.HexInt,
  T.DimList,
  T.Integer,
  T.BareId,
  T.LParen,
  T.RParen,
  T.LBrace,
  T.RBrace,
  T.LSquare,
  T.RSquare,
  T.Less,
  T.Greater,
  T.Comma,
  T.Colon,
  T.Equal,
  T.Question,
  T.Star,
  T.Plus,
  T.Minus,
  T.Pipe,
  T.Slash,
  T.Bang,
];

/** Punctuation spelling to token kind, for `parsePunct`. */
export const PUNCT: Record<string, TokenType> = {
  '(': T.LParen, ')': T.RParen, '{': T.LBrace, '}': T.RBrace, '[': T.LSquare, ']': T.RSquare,
  '<': T.Less, '>': T.Greater, ',': T.Comma, ':': T.Colon, '=': T.Equal, '?': T.Question,
  '*': T.Star, '+': T.Plus, '-': T.Minus, '|': T.Pipe, '->': T.Arrow, '...': T.Ellipsis,
  '::': T.ColonColon, '/': T.Slash, '!': T.Bang, '{-#': T.FileMetaBegin, '#-}': T.FileMetaEnd,
};

let lexer: Lexer | null = null;

/** A lexing failure: the offset of the first character no token matches. */
export interface LexError {
  offset: number;
  message: string;
}

/** Tokenizes `text`; lexing errors are returned, not thrown. */
export function tokenize(text: string): { tokens: IToken[]; errors: LexError[] } {
  lexer ??= new Lexer(ALL, { positionTracking: 'onlyOffset', ensureOptimizations: true });
  const r = lexer.tokenize(text);
  return { tokens: r.tokens, errors: r.errors.map((e) => ({ offset: e.offset, message: describeBadChar(text, e.offset) })) };
}

function describeBadChar(text: string, offset: number): string {
  const c = text[offset];
  if (c === '"') return 'expected \'"\' in string literal';
  const code = c.charCodeAt(0);
  const shown = code < 0x20 || code === 0x7f || code > 0x7e ? '\\x' + code.toString(16).padStart(2, '0') : c;
  return `unexpected character '${shown}'`;
}

/**
 * Lazily lexed tokens over absolute indices: the text is lexed a chunk (ending at a line break,
 * which no token spans) at a time, and tokens far behind the parser are dropped, so a large
 * file never holds all its tokens at once (they would outlive the young generation).
 */
export class TokenWindow {
  private win: IToken[] = [];
  private base = 0;
  private next: number;
  /** How far behind the requested index tokens are kept, for short backtracking. */
  private static readonly MARGIN = 4096;

  constructor(
    private readonly text: string,
    start: number,
    private chunk: number,
    private readonly maxChunk: number,
    private readonly onError: (e: LexError) => never,
  ) {
    this.next = start;
  }

  /** The token at absolute index `i`, or undefined past the end of the text. */
  at(i: number): IToken | undefined {
    let k = i - this.base;
    while (k >= this.win.length) {
      if (!this.fill(i)) return undefined;
      k = i - this.base;
    }
    return this.win[k];
  }

  private fill(requested: number): boolean {
    const text = this.text;
    if (this.next >= text.length) return false;
    let end = this.next + this.chunk;
    if (end >= text.length) end = text.length;
    else {
      const nl = text.indexOf('\n', end);
      end = nl < 0 ? text.length : nl + 1;
    }
    const start = this.next;
    const { tokens, errors } = tokenize(start === 0 && end === text.length ? text : text.slice(start, end));
    if (errors.length) this.onError({ offset: errors[0].offset + start, message: errors[0].message });
    if (start) for (let k = 0; k < tokens.length; k++) tokens[k].startOffset += start;
    const drop = requested - TokenWindow.MARGIN - this.base;
    if (drop > 0 && drop >= this.win.length) {
      this.base += this.win.length;
      this.win = tokens;
    } else if (drop > 0) {
      this.win = this.win.slice(drop).concat(tokens);
      this.base += drop;
    } else this.win = this.win.length ? this.win.concat(tokens) : tokens;
    this.next = end;
    if (this.chunk < this.maxChunk) this.chunk *= 2;
    return true;
  }
}

export type { IToken, TokenType };
