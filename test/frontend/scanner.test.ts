/**
 * The Triton-C scanner (`scanTritonC`, lexer.ts) on hand-picked edge cases: keywords inside
 * identifiers, numbers with suffixes, `0...TM`, comments, characters no token starts with. The
 * expected tokens and error offsets are those chevrotain's lexer gave for the same token
 * definitions (the project's lexer until 2026-11-29), written out here.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { scanTritonC, tokenizeTritonC } from '../../frontend/triton-c/lexer.js';

/** `text`'s tokens as `Kind image | ...` and its error offsets. */
function scan(text: string): [string, number[]] {
  const r = scanTritonC(text);
  return [r.tokens.map((t) => `${t.tokenType.name} ${t.image}`).join(' | '), r.errors];
}

const CASES: [string, string, number[]][] = [
  ["intx int int8 int80 __restrict__ __restrict __restrictx void_ _ a1 __global__ newaxis", "Identifier intx | kw_int int | kw_int8 int8 | Identifier int80 | kw___restrict__ __restrict__ | kw___restrict __restrict | Identifier __restrictx | Identifier void_ | Identifier _ | Identifier a1 | kw___global__ __global__ | kw_newaxis newaxis", []],
  ["12abc 0x1F 0x 1e5 1e5x 1.5f .5 5. 0...TM 1..2 3.e2 07 0xg", "IntLiteral 12abc | IntLiteral 0x1F | IntLiteral 0x | FloatLiteral 1e5 | FloatLiteral 1e5x | FloatLiteral 1.5f | FloatLiteral .5 | FloatLiteral 5. | IntLiteral 0 | Ellipsis ... | Identifier TM | IntLiteral 1 | Dot . | FloatLiteral .2 | FloatLiteral 3.e2 | IntLiteral 07 | IntLiteral 0xg", []],
  ["'a' '\\n' '\\'' '' 'ab", "CharLiteral 'a' | CharLiteral '\\n' | CharLiteral '\\'' | CharLiteral ' ' | Identifier ab", [14]],
  ["a<<=b>>=c->d++ --e+=f-=g*=h/=i%=j&=k|=l^=m<<n>>o<=p>=q==r!=s&&t||u", "Identifier a | ShlAssign <<= | Identifier b | ShrAssign >>= | Identifier c | Arrow -> | Identifier d | Inc ++ | Dec -- | Identifier e | AddAssign += | Identifier f | SubAssign -= | Identifier g | MulAssign *= | Identifier h | DivAssign /= | Identifier i | ModAssign %= | Identifier j | AndAssign &= | Identifier k | OrAssign |= | Identifier l | XorAssign ^= | Identifier m | Shl << | Identifier n | Shr >> | Identifier o | Le <= | Identifier p | Ge >= | Identifier q | EqEq == | Identifier r | NotEq != | Identifier s | AndAnd && | Identifier t | OrOr || | Identifier u", []],
  ["( ) [ ] { } , ; : ? = + - * / % < > & | ^ ! ~ @ . ...", "LParen ( | RParen ) | LBracket [ | RBracket ] | LBrace { | RBrace } | Comma , | Semi ; | Colon : | Question ? | Assign = | Plus + | Minus - | Star * | Slash / | Percent % | Lt < | Gt > | Amp & | Pipe | | Caret ^ | Bang ! | Tilde ~ | At @ | Dot . | Ellipsis ...", []],
  ["// line\n/* block */ x /* unterminated", "Identifier x | UnterminatedComment /* | Identifier unterminated", []],
  ["a /* b */ c // d", "Identifier a | Identifier c", []],
  ["#define X 1\nx", "Identifier define | Identifier X | IntLiteral 1 | Identifier x", [0]],
  ["\"string\" $ \\ ` \u00e9 x", "Identifier string | Identifier x", [0,7,9,11,13,15]],
  ["x\u00a0y\t\r\n\f\u000bz", "Identifier x | Identifier y | Identifier z", [1]],
  ["@@ ## a", "At @ | At @ | Identifier a", [3]],
  ["", "", []],
];

test('edge cases: tokens and error offsets', () => {
  for (const [text, tokens, errors] of CASES) assert.equal(scan(text), [tokens, errors], JSON.stringify(text));
});

test('the first lexing error is reported with a C-style message', () => {
  assert.equal(tokenizeTritonC('x /* open').error, { offset: 2, message: 'unterminated /* comment' });
  assert.equal(tokenizeTritonC('a $ b').error, { offset: 2, message: "unexpected character '$'" });
  assert.equal(tokenizeTritonC("x = 'ab").error, { offset: 4, message: "missing terminating ' character" });
  assert.equal(tokenizeTritonC('s = "x";').error, { offset: 4, message: 'string literals are not supported in Triton-C' });
  assert.equal(tokenizeTritonC('#define X\n').error?.message, "unexpected '#' (preprocessor directives must be expanded before parsing)");
  assert.equal(tokenizeTritonC('int x;').error, null);
});

test.run();
