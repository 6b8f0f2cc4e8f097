/**
 * The Triton-C lexer (chevrotain). It runs on preprocessed text, but still skips `//` and
 * `/* *\/` comments so that unpreprocessed snippets parse too. Positions are offsets only.
 *
 * Numeric literals swallow any trailing letters/digits (`12abc`) so that the parser can report
 * "invalid suffix 'abc' on integer constant" instead of two confusing tokens. A float literal
 * never ends in `.` when another `.` follows, so `0...TM` lexes as `0`, `...`, `TM`.
 */
import { createToken, Lexer, type IToken, type TokenType } from 'chevrotain';

const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\r\n\f\v]+/, group: Lexer.SKIPPED, line_breaks: true });
const LineComment = createToken({ name: 'LineComment', pattern: /\/\/[^\n]*/, group: Lexer.SKIPPED });
const BlockComment = createToken({ name: 'BlockComment', pattern: /\/\*[\s\S]*?\*\//, group: Lexer.SKIPPED, line_breaks: true });
/** `/*` without its `*\/` (matched only when BlockComment failed); reported as a lexing error. */
const UnterminatedComment = createToken({ name: 'UnterminatedComment', pattern: /\/\*/ });

/** Identifiers; keywords are matched first and fall back to this when longer (`intx`). */
const Identifier = createToken({ name: 'Identifier', pattern: /[A-Za-z_]\w*/, label: 'identifier' });

/** Token categories (abstract tokens several concrete tokens belong to). */
const cat = (name: string): TokenType => createToken({ name, pattern: Lexer.NA });

/** Categories used by the grammar. */
export const C = {
  TypeKw: cat('TypeKeyword'),
  Qualifier: cat('Qualifier'),
  AttrKw: cat('AttributeKeyword'),
  AssignOp: cat('AssignOp'),
  EqualityOp: cat('EqualityOp'),
  RelationalOp: cat('RelationalOp'),
  ShiftOp: cat('ShiftOp'),
  AdditiveOp: cat('AdditiveOp'),
  MultiplicativeOp: cat('MultiplicativeOp'),
  IncDec: cat('IncDec'),
  UnaryOp: cat('UnaryOp'),
};

/** The spelling of each keyword and punctuator, for the scanner (`tokenizeTritonC`). */
const SPELLINGS = new Map<TokenType, string>();

function kw(word: string, categories: TokenType[] = []): TokenType {
  const t = createToken({ name: `kw_${word}`, pattern: new RegExp(`${word}\\b`), longer_alt: Identifier, categories, label: `'${word}'` });
  SPELLINGS.set(t, word);
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
const qualKws = QUALIFIER_KEYWORDS.map((w) => kw(w, [C.Qualifier]));
const attrKws = ATTR_KEYWORDS.map((w) => kw(w, [C.AttrKw]));

function punct(name: string, spelling: string, categories: TokenType[] = []): TokenType {
  const pattern = new RegExp(spelling.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const t = createToken({ name, pattern, categories, label: `'${spelling}'` });
  SPELLINGS.set(t, spelling);
  return t;
}

/** Concrete tokens, by name. */
export const T = {
  Identifier,
  Global: kw('__global__'),
  Attribute: kw('__attribute__'),
  If: kw('if'), Else: kw('else'), For: kw('for'), While: kw('while'), Do: kw('do'),
  Break: kw('break'), Continue: kw('continue'), Return: kw('return'),
  Newaxis: kw('newaxis'), Bitcast: kw('bitcast'),
  Float: createToken({ name: 'FloatLiteral', pattern: /(?:\d+\.(?!\.)\d*|\.\d+)(?:[eE][+-]?\d+)?\w*|\d+[eE][+-]?\d+\w*/, label: 'floating constant' }),
  Int: createToken({ name: 'IntLiteral', pattern: /0[xX][0-9a-fA-F]+\w*|\d+\w*/, label: 'integer constant' }),
  Char: createToken({ name: 'CharLiteral', pattern: /'(?:[^'\\\n]|\\.)+'/, label: 'character constant' }),
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

/** Every token type, in lexing priority order (categories included, as chevrotain requires). */
export const ALL_TOKENS: TokenType[] = [
  WhiteSpace, LineComment, BlockComment, UnterminatedComment,
  ...Object.values(C),
  T.Global, T.Attribute, T.If, T.Else, T.For, T.While, T.Do, T.Break, T.Continue, T.Return, T.Newaxis, T.Bitcast,
  ...typeKws, ...qualKws, ...attrKws,
  Identifier,
  T.Float, T.Int, T.Char,
  T.Ellipsis, T.ShlAssign, T.ShrAssign, T.Arrow, T.Inc, T.Dec,
  T.AddAssign, T.SubAssign, T.MulAssign, T.DivAssign, T.ModAssign, T.AndAssign, T.OrAssign, T.XorAssign,
  T.Shl, T.Shr, T.Le, T.Ge, T.EqEq, T.NotEq, T.AndAnd, T.OrOr,
  T.LParen, T.RParen, T.LBracket, T.RBracket, T.LBrace, T.RBrace, T.Comma, T.Semi, T.Colon, T.Question,
  T.Assign, T.Plus, T.Minus, T.Star, T.Slash, T.Percent, T.Lt, T.Gt, T.Amp, T.Pipe, T.Caret,
  T.Bang, T.Tilde, T.At, T.Dot,
];

/** A lexing failure: where, and a C-style message. */
export interface TcLexError {
  offset: number;
  message: string;
}

/**
 * The Triton-C lexer of chevrotain. `validate` runs chevrotain's checks of the token definitions
 * and insists on its first-character optimization. The compiler tokenizes with `tokenizeTritonC`
 * instead (building this lexer was ~25 ms of every compile); test/frontend/grammar.test.ts builds
 * it with the checks, and test/frontend/scanner.test.ts checks both give the same tokens.
 */
export function makeTritonCLexer(options: { validate?: boolean } = {}): Lexer {
  return new Lexer(ALL_TOKENS, { positionTracking: 'onlyOffset', skipValidations: !options.validate, ensureOptimizations: options.validate === true });
}

/** Tokenizes preprocessed Triton-C; the first lexing error (if any) is returned, not thrown. */
export function tokenizeTritonC(text: string): { tokens: IToken[]; error: TcLexError | null } {
  const r = scanTritonC(text);
  const bad = r.tokens.find((t) => t.tokenType === UnterminatedComment);
  if (bad && (!r.errors.length || r.errors[0] > bad.startOffset)) {
    return { tokens: r.tokens, error: { offset: bad.startOffset, message: 'unterminated /* comment' } };
  }
  if (!r.errors.length) return { tokens: r.tokens, error: null };
  const offset = r.errors[0];
  return { tokens: r.tokens, error: { offset, message: describeBadInput(text, offset) } };
}

/** What may start at a character that begins no word or number: the patterns and punctuators of ALL_TOKENS that start with it, in its order. */
let byFirstChar: Map<string, TokenType[]> | null = null;
/** Keywords by spelling. */
let keywords: Map<string, TokenType> | null = null;

/** The patterns `tokenAt` runs, made sticky (as chevrotain runs them). */
const STICKY = new Map<TokenType, RegExp>();
const WORD = /[A-Za-z_]\w*/y;
const SPACE = /[ \t\r\n\f\v]/;

/**
 * The token at `offset` as chevrotain's lexer finds it (the first pattern of ALL_TOKENS that
 * matches there; a keyword gives way to a longer identifier), or null where none matches. A word
 * is a keyword exactly when it is one's whole spelling (`int\b` matches `int`, not `intx`);
 * numbers are floats before integers; other characters try the patterns that can start with them.
 */
function tokenAt(text: string, offset: number): { type: TokenType; length: number } | null {
  if (!byFirstChar || !keywords) {
    byFirstChar = new Map([['/', [LineComment, BlockComment, UnterminatedComment]], ['.', [T.Float]], ["'", [T.Char]]]);
    keywords = new Map();
    for (const t of ALL_TOKENS) {
      const spelling = SPELLINGS.get(t);
      if (spelling === undefined) continue;
      if (/^\w/.test(spelling)) keywords.set(spelling, t);
      else byFirstChar.set(spelling[0], [...(byFirstChar.get(spelling[0]) ?? []), t]);
    }
  }
  const c = text[offset];
  const match = (type: TokenType) => {
    let sticky = STICKY.get(type);
    if (!sticky) STICKY.set(type, (sticky = new RegExp((type.PATTERN as RegExp).source, 'y')));
    sticky.lastIndex = offset;
    const m = sticky.exec(text);
    return m ? { type, length: m[0].length } : null;
  };
  if (SPACE.test(c)) return match(WhiteSpace);
  if (/[A-Za-z_]/.test(c)) {
    WORD.lastIndex = offset;
    const word = WORD.exec(text)![0];
    return { type: keywords.get(word) ?? Identifier, length: word.length };
  }
  if (/\d/.test(c)) return match(T.Float) ?? match(T.Int);
  for (const type of byFirstChar.get(c) ?? []) {
    const spelling = SPELLINGS.get(type);
    if (spelling === undefined) {
      const m = match(type);
      if (m) return m;
    } else if (text.startsWith(spelling, offset)) {
      return { type, length: spelling.length };
    }
  }
  return null;
}

/**
 * Chevrotain's tokenization of `text` (tokens of offsets only, as `makeTritonCLexer` makes them),
 * and where each run of characters no token starts at begins (the lexer drops them and goes on).
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
    if (t.type.GROUP !== Lexer.SKIPPED) {
      tokens.push({ image: text.substring(offset, offset + t.length), startOffset: offset, tokenTypeIdx: t.type.tokenTypeIdx!, tokenType: t.type } as IToken);
    }
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

export type { IToken, TokenType };
