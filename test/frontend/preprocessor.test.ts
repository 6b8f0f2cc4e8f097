/**
 * The Triton-C preprocessor: directives, macro expansion (stringizing, pasting, nesting,
 * variadics), the prelude, `-D` token lists, the source map through expansions and includes,
 * and user errors (exact messages and locations).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DiagnosticError, SourceFile } from '../../ir/diagnostics.js';
import { preprocess, type PreprocessOptions, type PreprocessResult } from '../../frontend/triton-c/preprocessor.js';

/** Preprocesses `text` as `k.tc`, with in-memory include files. */
function pp(text: string, defines: Record<string, string> = {}, files: Record<string, string> = {}, extra: PreprocessOptions = {}): PreprocessResult {
  return preprocess(new SourceFile('k.tc', text), { defines, readFile: (p) => files[p] ?? null, ...extra });
}

/** The output with all whitespace runs collapsed. */
function flat(text: string, defines: Record<string, string> = {}, files: Record<string, string> = {}): string {
  return pp(text, defines, files).text.replace(/\s+/g, ' ').trim();
}

/** The formatted diagnostic of the DiagnosticError `f` throws. */
function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostic.format();
    throw e;
  }
  throw new Error('expected a DiagnosticError');
}

// ---- directives --------------------------------------------------------------------------

test('object-like #define, #undef, comments removed', () => {
  assert.is(flat('#define N 32\nint a[N]; // c\n#undef N\nint b[N]; /* x */'), 'int a[32]; int b[N];');
});

test('function-like macros, nested expansion and rescanning', () => {
  const src = '#define SQ(x) ((x) * (x))\n#define TWICE(f, x) f(f(x))\n#define N M + 1\n#define M 2\nint a = TWICE(SQ, N);';
  assert.is(flat(src), 'int a = ((((2 + 1) * (2 + 1))) * (((2 + 1) * (2 + 1))));');
});

test('function-like macro name without ( is not expanded; ( may be on the next line', () => {
  assert.is(flat('#define F(x) [x]\nint F; F\n(1)'), 'int F; [ 1]');
});

test('self-referential macros stop (hide sets)', () => {
  assert.is(flat('#define foo foo + 1\n#define a b\n#define b a\nfoo; a; b;'), 'foo + 1; a; b;');
  // the C standard's example (6.10.3.4): g is function-like
  assert.is(flat('#define f(a) a * g\n#define g(a) f(a)\nf(2)(9)'), '2 * 9 * g');
  // gcc and clang agree on this object-like variant
  assert.is(flat('#define f(a) a * g\n#define g f\nf(2)(9)'), '2 * f(9)');
});

test('# stringizing', () => {
  assert.is(flat('#define S(x) #x\nS(a   +  "b\\n"  c) S() S( p  q )'), '"a + \\"b\\\\n\\" c" "" "p q"');
});

test('## pasting, including empty arguments and pasted macro names', () => {
  const src = '#define CAT(a, b) a ## b\n#define XY 42\n#define E(a) x ## a ## y\nCAT(X, Y) CAT(1, 2) CAT(, z) CAT(z, ) E() CAT(+, =)';
  assert.is(flat(src), '42 12 z z xy +=');
});

test('arguments are fully expanded before substitution, but not next to # or ##', () => {
  const src = '#define N 8\n#define S(x) #x\n#define XS(x) S(x)\n#define P(x) x ## 1\nS(N) XS(N) P(N)';
  assert.is(flat(src), '"N" "8" N1');
});

test('variadic macros', () => {
  assert.is(flat('#define V(f, ...) f(__VA_ARGS__) #__VA_ARGS__\nV(g, 1, (2, 3)) V(h)'), 'g(1, (2, 3)) "1, (2, 3)" h() ""');
});

test('#if / #elif / #else / #endif with expressions, defined, nesting', () => {
  const src = [
    '#define TM 64',
    '#if TM >= 128',
    'big',
    '#elif TM == 64 && defined TM && defined(TM) && !defined(TK)',
    'mid',
    '#if UNDEFINED_NAME',
    'never',
    '#else',
    'nested',
    '#endif',
    '#else',
    'small',
    '#endif',
  ].join('\n');
  assert.is(flat(src), 'mid nested');
});

test('#if arithmetic: precedence, unsigned, shifts, ternary, char constants, short circuit', () => {
  const yes = [
    '1 + 2 * 3 == 7', '(1 << 4) == 16', '-1 < 0', '-1 > 0u', '0x10 == 16 && 010 == 8 && 0b11 == 3', "'a' == 97 && '\\n' == 10",
    '1 ? 2 : 0', '0 || 1 / 1', '!(0 && 1 / 0)', '1 || 1 % 0', '~0 == -1', '!0', '7 / 2 == 3 && -7 % 3 == -1', '(3 & 5) == 1 && (3 | 4) == 7 && (3 ^ 1) == 2',
    'true && !false', '18446744073709551615u == -1',
  ];
  for (const e of yes) assert.is(flat(`#if ${e}\nyes\n#else\nno\n#endif`), 'yes', e);
  assert.is(flat('#if 0 ? 1 : 0\nyes\n#else\nno\n#endif'), 'no');
});

test('#ifdef / #ifndef; skipped groups may hold anything', () => {
  const src = '#ifdef TM\na\n#endif\n#ifndef TM\nb\n#endif\n#if 0\n#bogus directive\n\'unterminated\n#endif';
  assert.is(flat(src), 'b');
  assert.is(flat(src, { TM: '1' }), 'a');
});

test('#pragma is ignored, #warning is collected', () => {
  const r = pp('#pragma unroll 4\n#warning check this\nx');
  assert.is(r.text.trim(), 'x');
  assert.is(r.warnings.length, 1);
  assert.is(r.warnings[0].format(), 'k.tc:2:2: warning: #warning check this\n#warning check this\n ^');
});

test('macro redefinition is a warning; identical redefinition is silent', () => {
  const r = pp('#define A 1\n#define A 1\n#define A 2\nA');
  assert.is(r.text.trim(), '2');
  assert.is(r.warnings.length, 1);
  assert.is(r.warnings[0].format(), "k.tc:3:9: warning: 'A' macro redefined\n#define A 2\n        ^\nk.tc:1:9: note: previous definition is here\n#define A 1\n        ^");
});

test('line continuations in directives and text', () => {
  assert.is(flat('#define LONG 1 + \\\n  2\nint x = LONG; in\\\nt y;'), 'int x = 1 + 2; int y;');
});

test('#include "..." relative to the including file, #pragma once', () => {
  const files = {
    'dir/a.h': '#pragma once\n#include "sub/b.h"\n#define FROM_A 1\n',
    'dir/sub/b.h': 'int b = FROM_B;\n#define FROM_B 2\n',
  };
  const r = preprocess(new SourceFile('dir/k.tc', '#include "a.h"\n#include "a.h"\nint x = FROM_A + FROM_B;'), {
    readFile: (p) => files[p as keyof typeof files] ?? null,
  });
  assert.is(r.text.replace(/\s+/g, ' ').trim(), 'int b = FROM_B; int x = 1 + 2;');
  const at = r.text.indexOf('FROM_B');
  assert.equal([r.map.locate(at).file, r.map.locate(at).line, r.map.locate(at).col], ['dir/sub/b.h', 1, 9]);
});

test('#include with a macro-expanded name; __FILE__ and __LINE__', () => {
  const r = pp('#define H "h.tc"\n#include H\nint l = __LINE__;', {}, { 'h.tc': 'char* f = __FILE__;' });
  assert.is(r.text.replace(/\s+/g, ' ').trim(), 'char* f = "h.tc"; int l = 3;');
});

// ---- the prelude ---------------------------------------------------------------------------

test('prelude: attributes survive, infinities are bitcasts, true/false are 1/0, min/max/bool/intN untouched', () => {
  const src = [
    '__global__ void f(float* __restrict__ X __readonly __noalias __aligned(16), int ld __multipleof(ALIGN), int8 a, uint64 b) __retune {',
    '  bool t = true; bool f = false; float i = F32_INFINITY; half h = -F16_INFINITY;',
    '  int m = min(a, max(b, 2)); float r[32] = x[:, max];',
    '#if defined(__multipleof) && defined(__readonly) && __TRITON_C__',
    '  ok;',
    '#endif',
    '}',
  ].join('\n');
  assert.is(
    flat(src, { ALIGN: '8' }),
    '__global__ void f(float* __restrict__ X __readonly __noalias __aligned(16), int ld __multipleof(8), int8 a, uint64 b) __retune { ' +
      'bool t = 1; bool f = 0; float i = bitcast<float>(0x7F800000); half h = -bitcast<half>((int16)0x7C00); ' +
      'int m = min(a, max(b, 2)); float r[32] = x[:, max]; ok; }',
  );
  // attribute tokens keep their own location and no macro chain
  const r = pp('int ld __multipleof(8);');
  const loc = r.map.locate(r.text.indexOf('__multipleof'));
  assert.equal([loc.line, loc.col, loc.expansion], [1, 8, []]);
});

test('prelude can be turned off', () => {
  assert.is(pp('true F32_INFINITY', {}, {}, { prelude: false }).text.trim(), 'true F32_INFINITY');
});

// ---- -D token lists --------------------------------------------------------------------------

test('-D token lists from the seeds: shapes, broadcasts, transposition, types', () => {
  const defines = { TM: '128', TK: '8', SHAPE_A: 'TM,TK', BROADCAST_AK: 'newaxis,:', USE_A: '^a', TYPE: 'float', STRIDE_AK: '1' };
  const src = 'TYPE a[SHAPE_A] = *pa;\nTYPE* pa[SHAPE_A] = A + rk[BROADCAST_AK] * STRIDE_AK;\nc += USE_A @ b;';
  assert.is(pp(src, defines).text, 'float a[128,8] = *pa;\nfloat* pa[128,8] = A + rk[newaxis,:] * 1;\nc += ^a @ b;\n');
});

test('-DNAME=VALUE as a macro with arguments in the value; empty values', () => {
  assert.is(flat('X Y [Z]', { X: 'min(1, 2)', Y: '', Z: '1' }), 'min(1, 2) [1]');
});

// ---- output layout and source map ------------------------------------------------------------

test('output keeps line structure and indentation of the input', () => {
  const src = '// header\n#define N 4\n\nvoid f() {\n    int x[N] = 0 ... N;  // c\n  x = x\n      + 1;\n}\n';
  assert.is(pp(src).text, '\n\n\nvoid f() {\n    int x[4] = 0 ... 4;\n  x = x\n      + 1;\n}\n');
});

test('tokens that would merge are separated', () => {
  assert.is(flat('#define NEG -1\n#define P +\nint a = -NEG; a P+; a/ /**/ /b;'), 'int a = - -1; a + +; a/ /b;');
});

test('source map: plain tokens map to their own line and column, characters inside a token too', () => {
  const r = pp('int a;\n\tfloat  bcd = 1;\n');
  const at = r.text.indexOf('bcd') + 2;
  const loc = r.map.locate(at);
  assert.equal([loc.file, loc.line, loc.col, loc.expansion, loc.spelling], ['k.tc', 2, 11, [], null]);
  // whitespace maps to the next token, the end to the end of the last token
  assert.equal([r.map.locate(r.text.indexOf('bcd') - 1).col], [9]);
  assert.equal([r.map.locate(r.text.length).line, r.map.locate(r.text.length).col], [2, 17]);
});

test('source map: macro expansion chains (innermost first) and spelling locations', () => {
  const r = pp('#define INNER 7\n#define OUTER(x) (x + INNER)\n  int v = OUTER(TM);', { TM: '32' });
  assert.is(r.text.trim(), 'int v = (32 + 7);');
  const seven = r.map.locate(r.text.indexOf('7'));
  assert.equal([seven.line, seven.col, seven.expansion], [3, 11, ['INNER', 'OUTER']]);
  assert.is(seven.spelling?.source.name, 'k.tc');
  assert.is(seven.spelling?.source.position(seven.spelling.offset).line, 1);
  const tm = r.map.locate(r.text.indexOf('32'));
  assert.equal([tm.line, tm.col, tm.expansion], [3, 17, ['TM', 'OUTER']]);
  assert.is(tm.spelling?.source.name, '<command line>');
  const paren = r.map.locate(r.text.indexOf('('));
  assert.equal([paren.line, paren.col, paren.expansion], [3, 11, ['OUTER']]);
});

test('source map: diagnostics for the parser, with the macro chain and a note', () => {
  const r = pp('#define SHAPE TM, TK\nfloat a[SHAPE];', { TM: '32', TK: '8' });
  assert.is(r.text.trim(), 'float a[32, 8];');
  assert.is(
    r.map.error('bad shape', r.text.indexOf('8')).diagnostic.format(),
    'k.tc:2:9: error: bad shape (in expansion of macro TK)\nfloat a[SHAPE];\n        ^\n' +
      "<command line>:1:6: note: expanded from macro 'TK'\n-DTK=8\n     ^\nnote: in expansion of macro 'SHAPE'",
  );
  assert.is(r.map.diagnostic('plain', r.text.indexOf('float')).format(), 'k.tc:2:1: error: plain\nfloat a[SHAPE];\n^');
});

test('source map: through includes and line continuations', () => {
  const r = pp('int a;\n#include "inc.h"\nint \\\n  z;', {}, { 'inc.h': '\n  int y;\n' });
  const y = r.map.locate(r.text.indexOf('y'));
  assert.equal([y.file, y.line, y.col], ['inc.h', 2, 7]);
  const z = r.map.locate(r.text.indexOf('z'));
  assert.equal([z.file, z.line, z.col], ['k.tc', 4, 3]);
});

// ---- errors ----------------------------------------------------------------------------------

test('error: unterminated #if', () => {
  assert.is(errorOf(() => pp('#if 1\nx\n  #ifdef Y\n#endif')), 'k.tc:1:1: error: unterminated conditional directive\n#if 1\n^');
});

test('error: bad #if expressions', () => {
  assert.is(errorOf(() => pp('#if 1 +\n#endif')), 'k.tc:1:8: error: expected value in expression\n#if 1 +\n       ^');
  assert.is(errorOf(() => pp('#if (1\n#endif')), "k.tc:1:7: error: missing ')' in expression\n#if (1\n      ^");
  assert.is(errorOf(() => pp('#if 1.5\n#endif')), 'k.tc:1:5: error: floating point literal in preprocessor expression\n#if 1.5\n    ^');
  assert.is(errorOf(() => pp('#if 2 / (1 - 1)\n#endif')), 'k.tc:1:7: error: division by zero in preprocessor expression\n#if 2 / (1 - 1)\n      ^');
  assert.is(errorOf(() => pp('#if\n#endif')), 'k.tc:1:2: error: #if with no expression\n#if\n ^');
  assert.is(errorOf(() => pp('#if defined(\n#endif')), "k.tc:1:5: error: macro name missing after 'defined'\n#if defined(\n    ^");
  assert.is(
    errorOf(() => pp('#define D 1 / 0\n#if D\n#endif')),
    'k.tc:2:5: error: division by zero in preprocessor expression (in expansion of macro D)\n#if D\n    ^\nk.tc:1:13: note: expanded from macro \'D\'\n#define D 1 / 0\n            ^',
  );
});

test('error: unknown directive', () => {
  assert.is(errorOf(() => pp('x\n  #defne X 1')), 'k.tc:2:4: error: invalid preprocessing directive #defne\n  #defne X 1\n   ^');
});

test('error: #else / #elif / #endif out of place', () => {
  assert.is(errorOf(() => pp('#endif')), 'k.tc:1:2: error: #endif without #if\n#endif\n ^');
  assert.is(errorOf(() => pp('#else')), 'k.tc:1:2: error: #else without #if\n#else\n ^');
  assert.is(errorOf(() => pp('#if 1\n#else\n#elif 1\n#endif')), 'k.tc:3:2: error: #elif after #else\n#elif 1\n ^');
});

test('error: recursive include, missing file, include depth', () => {
  const files = { 'a.h': '\n#include "b.h"', 'b.h': '#include "a.h"' };
  assert.is(errorOf(() => pp('#include "a.h"', {}, files)), 'b.h:1:10: error: recursive #include of \'a.h\'\n#include "a.h"\n         ^');
  assert.is(errorOf(() => pp('#include "k.tc"', {}, { 'k.tc': '' })), 'k.tc:1:10: error: recursive #include of \'k.tc\'\n#include "k.tc"\n         ^');
  assert.is(errorOf(() => pp('int x;\n#include "nope.h"')), "k.tc:2:10: error: 'nope.h' file not found\n#include \"nope.h\"\n         ^");
  assert.is(errorOf(() => pp('#include <stdio.h>')), 'k.tc:1:10: error: #include <...> is not supported; use #include "..."\n#include <stdio.h>\n         ^');
  const chain: Record<string, string> = {};
  for (let k = 0; k < 5; k++) chain[`h${k}.h`] = `#include "h${k + 1}.h"`;
  assert.is(errorOf(() => pp('#include "h0.h"', {}, chain, { maxIncludeDepth: 3 })), 'h2.h:1:10: error: #include nested too deeply (limit is 3)\n#include "h3.h"\n         ^');
});

test('error: #error', () => {
  assert.is(errorOf(() => pp('#if TK < 16\n# error TK must be >= 16 // why\n#endif')), 'k.tc:2:3: error: #error TK must be >= 16\n# error TK must be >= 16 // why\n  ^');
});

test('error: macro invocation problems', () => {
  assert.is(errorOf(() => pp('#define F(a, b) a\nF(1)')), "k.tc:2:1: error: macro 'F' requires 2 arguments, but only 1 given\nF(1)\n^");
  assert.is(errorOf(() => pp('#define F(a) a\n  F(1, 2)')), "k.tc:2:3: error: macro 'F' passed 2 arguments, but takes just 1\n  F(1, 2)\n  ^");
  assert.is(errorOf(() => pp('#define F(a) a\nF(1\n')), "k.tc:2:1: error: unterminated argument list invoking macro 'F'\nF(1\n^");
  assert.is(
    errorOf(() => pp('#define CAT(a, b) a ## b\nCAT(x, +)')),
    'k.tc:2:1: error: pasting "x" and "+" does not give a valid preprocessing token\nCAT(x, +)\n^',
  );
});

test('error: bad #define', () => {
  assert.is(errorOf(() => pp('#define 3 x')), 'k.tc:1:9: error: macro names must be identifiers\n#define 3 x\n        ^');
  assert.is(errorOf(() => pp('#define')), 'k.tc:1:2: error: no macro name given in #define directive\n#define\n ^');
  assert.is(errorOf(() => pp('#define F(a, a) a')), "k.tc:1:14: error: duplicate macro parameter 'a'\n#define F(a, a) a\n             ^");
  assert.is(errorOf(() => pp('#define F(a) #b')), "k.tc:1:14: error: '#' is not followed by a macro parameter\n#define F(a) #b\n             ^");
  assert.is(errorOf(() => pp('#define F(a) ## a')), "k.tc:1:14: error: '##' cannot appear at either end of a macro expansion\n#define F(a) ## a\n             ^");
  assert.is(errorOf(() => pp('#define F(a b')), "k.tc:1:13: error: expected ',' or ')' in macro parameter list\n#define F(a b\n            ^");
});

test('error: lexical problems in active code only', () => {
  assert.is(errorOf(() => pp('int a;\nchar c = \'x;')), "k.tc:2:10: error: missing terminating ' character\nchar c = 'x;\n         ^");
  assert.is(errorOf(() => pp('int a; /* never closed\nint b;')), 'k.tc:1:8: error: unterminated /* comment\nint a; /* never closed\n       ^');
});

test('error: bad -D value and name', () => {
  assert.is(errorOf(() => pp('x', { '1X': '2' })), '<command line>:1:3: error: macro names must be identifiers\n-D1X=2\n  ^');
  assert.is(errorOf(() => pp('x', { S: '"abc' })), '<command line>:1:5: error: missing terminating " character\n-DS="abc\n    ^');
});

test.run();
