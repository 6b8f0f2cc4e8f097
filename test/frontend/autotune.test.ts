/**
 * `-D` option parsing and the autotuning space (autotune.ts), and the seed tutorials' kernels
 * preprocessed with the seeds' own `-D` options (fixtures in test/fixtures/triton-c/pp/: each
 * `*.expected` starts with the options line and the variant it shows), plus the example kernels
 * in examples/triton-c/ (preprocessed and parsed).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DiagnosticError, SourceFile } from '../../ir/diagnostics.js';
import { describeVariant, parseDefines, variantList, variants } from '../../frontend/triton-c/autotune.js';
import { preprocess, preprocessFile } from '../../frontend/triton-c/preprocessor.js';
import { parseTritonC } from '../../frontend/triton-c/parser.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = join(root, 'test/fixtures/triton-c/pp');

function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostic.format();
    throw e;
  }
  throw new Error('expected a DiagnosticError');
}

test('fixed defines: token lists, -DNAME, empty values, argv-split -D NAME', () => {
  const d = parseDefines(['-DSHAPE_A=TM,TK', '-DBROADCAST_AK=newaxis,:', '-DUSE_A=^a', '-DTYPE=float', '-DDEBUG', '-DEMPTY=', '-D', 'X=(1, 2)']);
  assert.equal(d.fixed, { SHAPE_A: 'TM,TK', BROADCAST_AK: 'newaxis,:', USE_A: '^a', TYPE: 'float', DEBUG: '1', EMPTY: '', X: '(1, 2)' });
  assert.equal(d.lists, []);
  assert.equal(variants(d), [{ SHAPE_A: 'TM,TK', BROADCAST_AK: 'newaxis,:', USE_A: '^a', TYPE: 'float', DEBUG: '1', EMPTY: '', X: '(1, 2)' }]);
  assert.equal(variantList(d).map((v) => v.description), ['']);
});

test('a value with spaces inside one argv element; glued options as in the seed', () => {
  assert.equal(parseDefines(['-DTYPE=unsigned int', '-DN=4']).fixed, { TYPE: 'unsigned int', N: '4' });
  const seed = '-DUSE_A=a -DSTRIDE_AK=1-DSTRIDE_AM=lda -DBROADCAST_AK=newaxis,: -DBROADCAST_AN=:,newaxis -DSHAPE_A=TM,TK';
  assert.equal(parseDefines([seed]).fixed, {
    USE_A: 'a', STRIDE_AK: '1', STRIDE_AM: 'lda', BROADCAST_AK: 'newaxis,:', BROADCAST_AN: ':,newaxis', SHAPE_A: 'TM,TK',
  });
  assert.equal(parseDefines(['-DSTRIDE_AK=lda-DSTRIDE_AM=1']).fixed, { STRIDE_AK: 'lda', STRIDE_AM: '1' });
});

test('list defines: the 18-variant example, first list slowest, descriptions', () => {
  const d = parseDefines(['-DTM=[32, 64, 128] -DTN=[32, 64, 128] -DTK=[8, 16]', '-DTYPE=half']);
  assert.equal(d.lists, [
    { name: 'TM', values: ['32', '64', '128'] },
    { name: 'TN', values: ['32', '64', '128'] },
    { name: 'TK', values: ['8', '16'] },
  ]);
  assert.equal(d.fixed, { TYPE: 'half' });
  const vs = variantList(d);
  assert.is(vs.length, 18);
  assert.equal(vs[0].defines, { TM: '32', TN: '32', TK: '8', TYPE: 'half' });
  assert.is(vs[0].description, 'TM=32 TN=32 TK=8');
  assert.is(vs[1].description, 'TM=32 TN=32 TK=16');
  assert.is(vs[2].description, 'TM=32 TN=64 TK=8');
  assert.is(vs[17].description, 'TM=128 TN=128 TK=16');
  assert.is(new Set(vs.map((v) => v.description)).size, 18);
  assert.is(describeVariant(d, variants(d)[5]), 'TM=32 TN=128 TK=16');
});

test('lists split by the shell, nested commas, one-item lists, bracketed plain values', () => {
  const d = parseDefines(['-DSIZE=[32,', '64,', '128]', '-DSHAPE=[(TM,TK), (TK,TM)]', '-DONE=[7]', '-DSUB=[a] + b[c]']);
  assert.equal(d.lists, [
    { name: 'SIZE', values: ['32', '64', '128'] },
    { name: 'SHAPE', values: ['(TM,TK)', '(TK,TM)'] },
    { name: 'ONE', values: ['7'] },
  ]);
  assert.equal(d.fixed, { SUB: '[a] + b[c]' });
  assert.is(variants(d).length, 6);
  assert.is(variantList(d)[1].description, 'SIZE=32 SHAPE=(TK,TM) ONE=7');
});

test('bad -D syntax is a located error on <command line>', () => {
  assert.is(errorOf(() => parseDefines(['-DTM=[32, 64'])), "<command line>:1:6: error: missing ']' in -D value\n-DTM=[32, 64\n     ^");
  assert.is(errorOf(() => parseDefines(['-DTM=[32,,64]'])), '<command line>:1:10: error: empty item in -D list\n-DTM=[32,,64]\n         ^');
  assert.is(errorOf(() => parseDefines(['-DTM=[]'])), '<command line>:1:7: error: empty list in -D option\n-DTM=[]\n      ^');
  assert.is(errorOf(() => parseDefines(['-D1X=2'])), '<command line>:1:3: error: macro names must be identifiers\n-D1X=2\n  ^');
  assert.is(errorOf(() => parseDefines(['-D'])), '<command line>:1:3: error: macro name missing after -D\n-D\n  ^');
  assert.is(errorOf(() => parseDefines(['-DA-B'])), "<command line>:1:4: error: expected '=' after macro name 'A' in -D option\n-DA-B\n   ^");
  assert.is(errorOf(() => parseDefines(['-DX=a)'])), "<command line>:1:6: error: unbalanced ')' in -D value\n-DX=a)\n     ^");
  assert.is(errorOf(() => parseDefines(['-DX=1', 'k.tc'])), "<command line>:1:7: error: unknown option 'k.tc' (expected -DNAME or -DNAME=VALUE)\n-DX=1 k.tc\n      ^");
  assert.is(errorOf(() => parseDefines(['-DX=1 -DX=2'])), "<command line>:1:9: error: macro 'X' defined more than once on the command line\n-DX=1 -DX=2\n        ^");
});

test('every variant of the seed matmul preprocesses (18 variants)', () => {
  const d = parseDefines(['-DTYPE=half -DTM=[32, 64, 128] -DTN=[32, 64, 128] -DTK=[8, 16]']);
  const texts = variantList(d).map((v) => preprocessFile(join(fixtures, 'matmul.tc'), { defines: v.defines }).text);
  assert.is(new Set(texts).size, 18);
  assert.ok(texts[5].includes('int rm[32] = pm * 32 + 0 ... 32;'));
  assert.ok(texts[5].includes('int rk[16] = 0 ... 16;'));
  assert.ok(texts[5].includes('half* pb[16, 128] = B +'));
});

// Golden outputs of the seed kernels: line 1 holds the options, line 2 the variant shown (the last one).
for (const golden of readdirSync(fixtures).filter((f) => f.endsWith('.expected')).sort()) {
  test(`seed kernel ${golden}`, () => {
    const text = readFileSync(join(fixtures, golden), 'utf8');
    const [optLine, variantLine, ...rest] = text.split('\n');
    const options = optLine.replace(/^\/\/ /, '');
    const vs = variantList(parseDefines([options]));
    const last = vs[vs.length - 1];
    assert.is(variantLine, `// variant ${vs.length}/${vs.length}: ${last.description}`);
    const source = join(fixtures, golden.replace(/(\.[a-z]+)?\.expected$/, '.tc'));
    const r = preprocessFile(source, { defines: last.defines });
    assert.is(r.text, rest.join('\n'));
    assert.equal(r.warnings, []);
    // no tuning parameter or shape macro is left, except the tutorial's BROADCAST_AM typo (it defines BROADCAST_AN)
    const left = r.text.match(/\b(TYPE|TM|TN|TK|SIZE|MB|NB|KB|SHAPE_[AB]|USE_[AB]|STRIDE_\w+|BROADCAST_\w+|MAX_GROUP_SIZE)\b/g) ?? [];
    assert.equal(left, options.includes('BROADCAST_AN') ? ['BROADCAST_AM'] : []);
  });
}

test('seed fused matmul: A and B transposed maps tokens back through -D macros', () => {
  const opts = '-DTYPE=float -DTM=64 -DTN=128 -DTK=8 -DUSE_A=^a -DSTRIDE_AK=lda-DSTRIDE_AM=1 -DBROADCAST_AK=:,newaxis -DBROADCAST_AM=newaxis,: -DSHAPE_A=TK,TM';
  const r = preprocessFile(join(fixtures, 'matmul-fused.tc'), { defines: parseDefines([opts, '-DUSE_B=^b -DSTRIDE_BK=1 -DSTRIDE_BN=ldb -DSHAPE_B=TN,TK']).fixed });
  assert.ok(r.text.includes('float* pa[8,64] = A + rk[:,newaxis] * lda + rm[newaxis,:] * 1;'));
  assert.ok(r.text.includes('c += ^a @ ^b;'));
  const at = r.text.indexOf('float* pa[8,64]') + 'float* pa['.length;
  const loc = r.map.locate(at);
  assert.equal([loc.file.endsWith('matmul-fused.tc'), loc.line, loc.col, loc.expansion], [true, 14, 12, ['TK', 'SHAPE_A']]);
});

// The example kernels written for the parser (examples/triton-c), with the options their headers suggest.
const EXAMPLE_DEFINES = parseDefines([
  '-DTYPE=half -DTM=64 -DTN=64 -DTK=16 -DSIZE=128 -DBLOCK=1024 -DMB=64 -DNB=64 -DKB=32',
  '-DUSE_A=a -DSTRIDE_AK=1 -DSTRIDE_AM=lda -DBROADCAST_AK=newaxis,: -DBROADCAST_AM=:,newaxis -DSHAPE_A=TM,TK',
  '-DUSE_B=b -DSTRIDE_BK=ldb -DSTRIDE_BN=1 -DBROADCAST_BK=:,newaxis -DBROADCAST_BN=newaxis,: -DSHAPE_B=TK,TN',
]).fixed;
const examples = join(root, 'examples/triton-c');
for (const f of existsSync(examples) ? readdirSync(examples).filter((n) => n.endsWith('.tc')).sort() : []) {
  test(`example ${f} preprocesses and parses`, () => {
    const name = `examples/triton-c/${f}`;
    const r = preprocess(new SourceFile(name, readFileSync(join(examples, f), 'utf8')), { defines: EXAMPLE_DEFINES });
    assert.not.match(r.text, /^\s*#/m);
    const program = parseTritonC(r.text, name, (offset) => r.map.locate(offset));
    assert.ok(program.functions.length > 0);
    const fn = program.functions[0];
    const loc = r.map.locate(fn.pos);
    assert.is(loc.file, name);
    assert.is(r.map.locate(fn.body.pos).line >= loc.line, true);
  });
}

test.run();
