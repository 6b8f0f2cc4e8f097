/**
 * Every registered op and dialect carries a one-line summary (shown by `triton-opt --list-ops`
 * and the generated docs in docs/dialects/).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { Context } from '../../ir/context.js';

const context = registerAllDialects(new Context());

test('every registered op has a one-line summary', () => {
  const missing = [...context.ops.values()].filter((s) => !s.decl.summary?.trim()).map((s) => s.name);
  assert.equal(missing, [], `ops without a summary: ${missing.join(', ')}`);
  const multiline = [...context.ops.values()].filter((s) => s.decl.summary?.includes('\n')).map((s) => s.name);
  assert.equal(multiline, [], `summaries over one line: ${multiline.join(', ')}`);
});

test('every dialect has a summary', () => {
  const missing = [...context.dialects.values()].filter((d) => !d.summary?.trim()).map((d) => d.name);
  assert.equal(missing, [], `dialects without a summary: ${missing.join(', ')}`);
});

test.run();
