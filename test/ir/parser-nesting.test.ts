/** Deeply nested input is a located error at MAX_NESTING levels, never a JavaScript stack overflow. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { DiagnosticError } from '../../ir/diagnostics.js';
import { MAX_NESTING } from '../../ir/parser-base.js';
import { parseText } from '../../ir/parser.js';

registerAllDialects();

/** The diagnostic parsing `text` stops with (fails the test if it parses or throws anything else). */
function failure(text: string): string {
  try {
    parseText(text, {}, 'deep.tir');
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostic.format().split('\n')[0];
    throw e;
  }
  assert.unreachable('parsed');
  return '';
}

const deep = `nesting deeper than ${MAX_NESTING} levels`;
const cases: [string, string][] = [
  ['1,000 nested scf.if', 'func.func @f(%c: i1) {\n' + 'scf.if %c {\n'.repeat(1000) + '}\n'.repeat(1000) + 'return\n}\n'],
  ['1,000 nested modules', 'module {\n'.repeat(1000) + '}\n'.repeat(1000)],
  ['10,000 nested arrays', `module attributes {ttg.x = ${'['.repeat(10000)}${']'.repeat(10000)}} {\n}\n`],
  ['10,000 nested dictionaries', `module attributes {ttg.x = ${'{a = '.repeat(10000)}1${'}'.repeat(10000)}} {\n}\n`],
  ['10,000 nested parentheses in a type', `func.func @f(%x: ${'('.repeat(10000)}i32${')'.repeat(10000)}) {\n return\n}\n`],
  ['10,000 nested lists in a dense literal', `module attributes {ttg.x = dense<${'['.repeat(10000)}1.0${']'.repeat(10000)}> : tensor<1xf32>} {\n}\n`],
  ['10,000 nested complex pairs in a dense literal', `module attributes {ttg.x = dense<${'('.repeat(10000)}1.0${', 1.0)'.repeat(10000)}> : tensor<1xcomplex<f32>>} {\n}\n`],
  ['10,000 nested parentheses in an affine map', `module attributes {ttg.x = affine_map<(d0) -> (${'('.repeat(10000)}d0${')'.repeat(10000)})>} {\n}\n`],
  ['10,000 unary minuses in an affine map', `module attributes {ttg.x = affine_map<(d0) -> (${'-'.repeat(10000)}d0)>} {\n}\n`],
  ['10,000 nested parentheses in an affine set', `module attributes {ttg.x = affine_set<(d0) : (${'('.repeat(10000)}d0${')'.repeat(10000)} >= 0)>} {\n}\n`],
  ['10,000 nested callsite locations', `module {\n} loc(${'callsite('.repeat(10000)}"a"${' at "b")'.repeat(10000)})\n`],
];

for (const [name, text] of cases) {
  test(`${name}: a located error`, () => {
    const msg = failure(text);
    assert.match(msg, /^deep\.tir:\d+:\d+: error: /);
    assert.ok(msg.includes(deep), msg);
  });
}

test(`${MAX_NESTING - 10} nested scf.if still parse`, () => {
  const n = MAX_NESTING - 10;
  const { module } = parseText('func.func @f(%c: i1) {\n' + 'scf.if %c {\n'.repeat(n) + '}\n'.repeat(n) + 'return\n}\n', {}, 'ok.tir');
  let depth = 0;
  module.walk((op) => void (op.name === 'scf.if' && depth++));
  assert.is(depth, n);
});

test.run();
