/**
 * The compiler tokenizes Triton-C with its own scanner (`scanTritonC`, lexer.ts) instead of
 * building chevrotain's lexer; here both tokenize every .tc file of the repository (examples,
 * benchmarks, lit tests, fixtures, fuzz cases) and hand-picked edge cases (keywords inside
 * identifiers, numbers with suffixes, `0...TM`, comments, characters no token starts with), and
 * must give the same tokens and the same error offsets.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeTritonCLexer, scanTritonC } from '../../frontend/triton-c/lexer.js';

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');
const lexer = makeTritonCLexer();

/** Both tokenizations of `text`, comparable with assert.equal. */
function both(text: string) {
  const theirs = lexer.tokenize(text);
  const ours = scanTritonC(text);
  const shape = (tokens: readonly { image: string; startOffset: number; tokenTypeIdx: number; tokenType: { name: string } }[]) =>
    tokens.map((t) => `${t.startOffset}:${t.tokenType.name}:${t.tokenTypeIdx}:${t.image}`);
  return {
    ours: { tokens: shape(ours.tokens), errors: ours.errors },
    theirs: { tokens: shape(theirs.tokens), errors: theirs.errors.map((e) => e.offset) },
  };
}

function tcFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) tcFiles(path, out);
    else if (name.endsWith('.tc')) out.push(path);
  }
  return out;
}

test('every .tc file of the repository: the same tokens as chevrotain', () => {
  const files = tcFiles(ROOT);
  assert.ok(files.length > 50);
  for (const f of files) {
    const { ours, theirs } = both(readFileSync(f, 'utf8'));
    assert.equal(ours, theirs, f);
  }
});

test('edge cases: the same tokens and errors as chevrotain', () => {
  const cases = [
    'intx int int8 int80 __restrict__ __restrict __restrictx void_ _ a1 __global__ newaxis',
    '12abc 0x1F 0x 1e5 1e5x 1.5f .5 5. 0...TM 1..2 3.e2 07 0xg',
    "'a' '\\n' '\\'' '' 'ab",
    'a<<=b>>=c->d++ --e+=f-=g*=h/=i%=j&=k|=l^=m<<n>>o<=p>=q==r!=s&&t||u',
    '( ) [ ] { } , ; : ? = + - * / % < > & | ^ ! ~ @ . ...',
    '// line\n/* block */ x /* unterminated',
    'a /* b */ c // d',
    '#define X 1\nx',
    '"string" $ \\ ` é x',
    'x\u00a0y\t\r\n\f\vz',
    '@@ ## a',
    '',
  ];
  for (const text of cases) {
    const { ours, theirs } = both(text);
    assert.equal(ours, theirs, JSON.stringify(text));
  }
});

test.run();
