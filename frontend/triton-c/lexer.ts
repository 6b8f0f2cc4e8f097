/**
 * The Triton-C lexer: a hand-written scanner over preprocessed text. It still skips `//` and
 * `/* *\/` comments so that unpreprocessed snippets parse too. Positions are offsets only.
 *
 * Numeric literals swallow any trailing letters/digits (`12abc`) so that the parser can report
 * "invalid suffix 'abc' on integer constant" instead of two confusing tokens. A float literal
 * never ends in `.` when another `.` follows, so `0...TM` lexes as `0`, `...`, `TM`.
 *
 * At each offset the first matching rule wins, in this order: whitespace and comments, words
 * (a keyword exactly when the whole word is its spelling, so `intx` is an identifier), numbers
 * (a float before an integer), then punctuators, longest first.
 */

/** A kind of token; a category (`C.AssignOp`) is a kind that several concrete kinds belong to. */
export interface TokenType {
  readonly name: string;
  /** How messages spell it: `')'`, `'for'`, `identifier`. */
  readonly label: string;
  /** The categories this kind belongs to. */
  readonly categories: readonly TokenType[];
}

/** A token: its kind, its text and where it starts in the preprocessed text (NaN for the end of input). */
export interface IToken {
  readonly tokenType: TokenType;
  readonly image: string;
  readonly startOffset: number;
}

function kind(name: string, label: string, categories: TokenType[] = []): TokenType {
  return { name, label, categories };
}

/** Token categories used by the grammar. */
export const C = {
  TypeKw: kind('TypeKeyword', 'type keyword'),
  Qualifier: kind('Qualifier', 'qualifier'),
  AttrKw: kind('AttributeKeyword', 'attribute keyword'),
  AssignOp: kind('AssignOp', 'assignment operator'),
  EqualityOp: kind('EqualityOp', 'equality operator'),
  RelationalOp: kind('RelationalOp', 'relational operator'),
  ShiftOp: kind('ShiftOp', 'shift operator'),
  AdditiveOp: kind('AdditiveOp', 'additive operator'),
  MultiplicativeOp: kind('MultiplicativeOp', 'multiplicative operator'),
  IncDec: kind('IncDec', "'++' or '--'"),
  UnaryOp: kind('UnaryOp', 'unary operator'),
};

/** Whether `tok` is of kind `type`, or belongs to category `type`. */
export function isA(tok: IToken, type: TokenType): boolean {
  return tok.tokenType === type || tok.tokenType.categories.includes(type);
}

/** Keywords by spelling. */
const KEYWORDS = new Map<string, TokenType>();

function kw(word: string, categories: TokenType[] = []): TokenType {
  const t = kind(`kw_${word}`, `'${word}'`, categories);
  KEYWORDS.set(word, t);
  return t;
}

/** Type keywords; `int32` is `int`, `int8` is `char` ... (see parse-specs.ts). */
export const TYPE_KEYWORDS = [
  'void', 'bool', 'char', 'short', 'int', 'long', 'signed', 'unsigned', 'half', 'float', 'double', 'bfloat16',
  'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64',
] as const;
/** Type qualifiers; `__restrict__` and `__restrict` are spellings of `restrict`. */
export const QUALIFIER_KEYWORDS = ['const', 'restrict', '__restrict__', '__restrict', 'volatile'] as const;
/** Triton attribute keywords (the `__attribute__((...))` spelling is accepted too). */
export const ATTR_KEYWORDS = ['__multipleof', '__aligned', '__readonly', '__writeonly', '__noalias', '__retune'] as const;

const typeKws = TYPE_KEYWORDS.map((w) => kw(w, [C.TypeKw]));
/** The `void` keyword (a `f(void)` parameter list). */
export const VoidKw = typeKws[0];
for (const w of QUALIFIER_KEYWORDS) kw(w, [C.Qualifier]);
for (const w of ATTR_KEYWORDS) kw(w, [C.AttrKw]);

/** Punctuators, longest first among those sharing a first character (the scanner tries them in this order). */
const PUNCTUATORS: [string, TokenType][] = [];

function punct(name: string, spelling: string, categories: TokenType[] = []): TokenType {
  const t = kind(name, `'${spelling}'`, categories);
  PUNCTUATORS.push([spelling, t]);
  return t;
}

/** Concrete tokens, by name. */
export const T = {
  EOF: kind('EOF', 'end of input'),
  Identifier: kind('Identifier', 'identifier'),
  Global: kw('__global__'),
  Attribute: kw('__attribute__'),
  If: kw('if'), Else: kw('else'), For: kw('for'), While: kw('while'), Do: kw('do'),
  Break: kw('break'), Continue: kw('continue'), Return: kw('return'),
  Newaxis: kw('newaxis'), Bitcast: kw('bitcast'),
  Float: kind('FloatLiteral', 'floating constant'),
  Int: kind('IntLiteral', 'integer constant'),
  Char: kind('CharLiteral', 'character constant'),
  /** `/*` without its `*\/`: the lexing error "unterminated /* comment". */
  UnterminatedComment: kind('UnterminatedComment', "'/*'"),
  Ellipsis: punct('Ellipsis', '...'),
  ShlAssign: punct('ShlAssign', '<<=', [C.AssignOp]), ShrAssign: punct('ShrAssign', '>>=', [C.AssignOp]),
  Arrow: punct('Arrow', '->'),
  Inc: punct('Inc', '++', [C.IncDec]), Dec: punct('Dec', '--', [C.IncDec]),
  AddAssign: punct('AddAssign', '+=', [C.AssignOp]), SubAssign: punct('SubAssign', '-=', [C.AssignOp]),
  MulAssign: punct('MulAssign', '*=', [C.AssignOp]), DivAssign: punct('DivAssign', '/=', [C.AssignOp]),
  ModAssign: punct('ModAssign', '%=', [C.AssignOp]), AndAssign: punct('AndAssign', '&=', [C.AssignOp]),
  OrAssign: punct('OrAssign', '|=', [C.AssignOp]), XorAssign: punct('XorAssign', '^=', [C.AssignOp]),
  Shl: punct('Shl', '<<', [C.ShiftOp]), Shr: punct('Shr', '>>', [C.ShiftOp]),
  Le: punct('Le', '<=', [C.RelationalOp]), Ge: punct('Ge', '>=', [C.RelationalOp]),
  EqEq: punct('EqEq', '==', [C.EqualityOp]), NotEq: punct('NotEq', '!=', [C.EqualityOp]),
  AndAnd: punct('AndAnd', '&&'), OrOr: punct('OrOr', '||'),
  LParen: punct('LParen', '('), RParen: punct('RParen', ')'),
  LBracket: punct('LBracket', '['), RBracket: punct('RBracket', ']'),
  LBrace: punct('LBrace', '{'), RBrace: punct('RBrace', '}'),
  Comma: punct('Comma', ','), Semi: punct('Semi', ';'), Colon: punct('Colon', ':'), Question: punct('Question', '?'),
  Assign: punct('Assign', '=', [C.AssignOp]),
  Plus: punct('Plus', '+', [C.AdditiveOp, C.UnaryOp]), Minus: punct('Minus', '-', [C.AdditiveOp, C.UnaryOp]),
  Star: punct('Star', '*', [C.MultiplicativeOp]), Slash: punct('Slash', '/', [C.MultiplicativeOp]),
  Percent: punct('Percent', '%', [C.MultiplicativeOp]),
  Lt: punct('Lt', '<', [C.RelationalOp]), Gt: punct('Gt', '>', [C.RelationalOp]),
  Amp: punct('Amp', '&', [C.UnaryOp]), Pipe: punct('Pipe', '|'), Caret: punct('Caret', '^'),
  Bang: punct('Bang', '!', [C.UnaryOp]), Tilde: punct('Tilde', '~', [C.UnaryOp]), At: punct('At', '@'), Dot: punct('Dot', '.'),
};

/** The token past the last one (what the parser reads at the end of the input). */
export const EOF_TOKEN: IToken = { tokenType: T.EOF, image: '', startOffset: NaN };

/** A lexing failure: where, and a C-style message. */
export interface TcLexError {
  offset: number;
  message: string;
}

/** Tokenizes preprocessed Triton-C; the first lexing error (if any) is returned, not thrown. */
export function tokenizeTritonC(text: string): { tokens: IToken[]; error: TcLexError | null } {
  const r = scanTritonC(text);
  const bad = r.tokens.find((t) => t.tokenType === T.UnterminatedComment);
  if (bad && (!r.errors.length || r.errors[0] > bad.startOffset)) {
    return { tokens: r.tokens, error: { offset: bad.startOffset, message: 'unterminated /* comment' } };
  }
  if (!r.errors.length) return { tokens: r.tokens, error: null };
  const offset = r.errors[0];
  return { tokens: r.tokens, error: { offset, message: describeBadInput(text, offset) } };
}

const FLOAT = /(?:\d+\.(?!\.)\d*|\.\d+)(?:[eE][+-]?\d+)?\w*|\d+[eE][+-]?\d+\w*/y;
const INT = /0[xX][0-9a-fA-F]+\w*|\d+\w*/y;
const CHAR = /'(?:[^'\\\n]|\\.)+'/y;
const WORD = /[A-Za-z_]\w*/y;

/** Whitespace, as C's `isspace`. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** The length of `re` (sticky) matched at `offset`, or 0. */
function matchAt(re: RegExp, text: string, offset: number): number {
  re.lastIndex = offset;
  const m = re.exec(text);
  return m ? m[0].length : 0;
}

/** What `tokenAt` finds: a kind (null for text that is skipped) and a length. */
interface Scanned {
  type: TokenType | null;
  length: number;
}

/** The token at `offset` (rules in the order of the file comment), or null where none starts. */
function tokenAt(text: string, offset: number): Scanned | null {
  const c = text.charCodeAt(offset);
  if (isSpace(c)) {
    let end = offset + 1;
    while (end < text.length && isSpace(text.charCodeAt(end))) end++;
    return { type: null, length: end - offset };
  }
  if (c === 47 /* / */) {
    const d = text.charCodeAt(offset + 1);
    if (d === 47) {
      const nl = text.indexOf('\n', offset);
      return { type: null, length: (nl < 0 ? text.length : nl) - offset };
    }
    if (d === 42 /* * */) {
      const close = text.indexOf('*/', offset + 2);
      return close < 0 ? { type: T.UnterminatedComment, length: 2 } : { type: null, length: close + 2 - offset };
    }
  }
  if (isAlpha(c)) {
    const length = matchAt(WORD, text, offset);
    return { type: KEYWORDS.get(text.substring(offset, offset + length)) ?? T.Identifier, length };
  }
  if (isDigit(c) || (c === 46 /* . */ && isDigit(text.charCodeAt(offset + 1)))) {
    const f = matchAt(FLOAT, text, offset);
    if (f) return { type: T.Float, length: f };
    return { type: T.Int, length: matchAt(INT, text, offset) };
  }
  if (c === 39 /* ' */) {
    const length = matchAt(CHAR, text, offset);
    return length ? { type: T.Char, length } : null;
  }
  for (const [spelling, type] of PUNCTUATORS) {
    if (text.startsWith(spelling, offset)) return { type, length: spelling.length };
  }
  return null;
}

/**
 * Tokenizes `text`, and says where each run of characters no token starts at begins (the
 * scanner drops them and goes on; `tokenizeTritonC` reports the first).
 */
export function scanTritonC(text: string): { tokens: IToken[]; errors: number[] } {
  const tokens: IToken[] = [];
  const errors: number[] = [];
  let offset = 0;
  while (offset < text.length) {
    const t = tokenAt(text, offset);
    if (!t) {
      errors.push(offset);
      do offset++;
      while (offset < text.length && !tokenAt(text, offset));
      continue;
    }
    if (t.type) tokens.push({ tokenType: t.type, image: text.substring(offset, offset + t.length), startOffset: offset });
    offset += t.length;
  }
  return { tokens, errors };
}

function describeBadInput(text: string, offset: number): string {
  if (text.startsWith('/*', offset)) return 'unterminated /* comment';
  const c = text[offset];
  if (c === "'") return "missing terminating ' character";
  if (c === '"') return 'string literals are not supported in Triton-C';
  const code = c.charCodeAt(0);
  const shown = code < 0x20 || code === 0x7f || code > 0x7e ? '\\x' + code.toString(16).padStart(2, '0') : c;
  if (c === '#') return "unexpected '#' (preprocessor directives must be expanded before parsing)";
  return `unexpected character '${shown}'`;
}
