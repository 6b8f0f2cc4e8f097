/** Deeply nested Triton-C is a located syntax error at the limit, never a JavaScript stack overflow. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DiagnosticError } from '../../ir/diagnostics.js';
import { MAX_EXPR_NESTING } from '../../frontend/triton-c/parse-expr.js';
import { MAX_STATEMENT_NESTING } from '../../frontend/triton-c/parse-stmt.js';
import { parseTritonC } from '../../frontend/triton-c/parser.js';

/** The first line of the diagnostic parsing `text` stops with. */
function failure(text: string): string {
  try {
    parseTritonC(text, 'deep.tc');
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostic.format().split('\n')[0];
    throw e;
  }
  assert.unreachable('parsed');
  return '';
}

const kernel = (body: string) => `__global__ void f(int* X, int c) {\n${body}\n}\n`;
const exprLimit = `expression nested deeper than ${MAX_EXPR_NESTING} levels`;
const stmtLimit = `statements nested deeper than ${MAX_STATEMENT_NESTING} levels`;

const cases: [string, string, string][] = [
  ['100 nested parentheses', kernel(`int x = ${'('.repeat(100)}1${')'.repeat(100)};`), exprLimit],
  ['1,000 prefix minus signs', kernel(`int x = ${'- '.repeat(1000)}1;`), exprLimit],
  ['100 nested casts', kernel(`int x = ${'(int) '.repeat(100)}1;`), exprLimit],
  ['700 nested blocks', kernel(`${'{'.repeat(700)}*X = 1;${'}'.repeat(700)}`), stmtLimit],
  ['1,000 nested if', kernel(`${'if (c) '.repeat(1000)}*X = 1;`), stmtLimit],
];

for (const [name, text, limit] of cases) {
  test(`${name}: a located error`, () => {
    const msg = failure(text);
    assert.match(msg, /^deep\.tc:2:\d+: error: /);
    assert.ok(msg.includes(limit), msg);
  });
}

test('just under the limits still parses', () => {
  const n = MAX_EXPR_NESTING - 2;
  parseTritonC(kernel(`int x = ${'('.repeat(n)}1${')'.repeat(n)};\n${'{'.repeat(MAX_STATEMENT_NESTING - 2)}*X = x;${'}'.repeat(MAX_STATEMENT_NESTING - 2)}`), 'ok.tc');
  // A long flat chain is a loop in the grammar, not nesting: no limit applies.
  parseTritonC(kernel(`int x = ${'c + '.repeat(5000)}1;`), 'flat.tc');
});

test('the counters start over with each parse', () => {
  failure(kernel(`int x = ${'('.repeat(100)}1${')'.repeat(100)};`));
  parseTritonC(kernel('int x = (((1)));'), 'after.tc');
});

test.run();
