/** Diagnostic.format: file:line:col, the source line and a caret; long lines are cut around the caret. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Diagnostic, SourceFile } from '../../ir/diagnostics.js';

test('a short line is shown whole, the caret under the column', () => {
  const src = new SourceFile('k.tir', 'x\n  %1 = arith.addi %0, %9 : i32\n');
  const d = new Diagnostic('error', "use of undeclared SSA value name '%9'", { source: src, offset: src.text.indexOf('%9') });
  assert.is(d.format(), "k.tir:2:23: error: use of undeclared SSA value name '%9'\n  %1 = arith.addi %0, %9 : i32\n                      ^");
});

test('a 1 MB line is cut to 200 characters around the column, the caret still under it', () => {
  const line = 'a'.repeat(500_000) + 'HERE' + 'b'.repeat(500_000);
  const src = new SourceFile('big.tir', line);
  const offset = line.indexOf('HERE');
  const [head, shown, caret] = new Diagnostic('error', 'bad', { source: src, offset }).format().split('\n');
  assert.is(head, `big.tir:1:${offset + 1}: error: bad`);
  assert.ok(shown.length <= 206, `shown ${shown.length} characters`);
  assert.ok(shown.startsWith('...') && shown.endsWith('...'));
  assert.is(shown.slice(caret.length - 1, caret.length + 3), 'HERE');
});

test.run();
