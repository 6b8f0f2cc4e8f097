import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { evalFeatureExpr, parseTestFile, progressLine, substitutePercent, substituteTools } from '../../tools/lit.js';

const tools = new Map([['FileCheck', '/opt/FileCheck'], ['not', '/bin/not']]);

test('tool names are substituted only in command position', () => {
  assert.is(substituteTools('FileCheck %s', tools), '/opt/FileCheck %s');
  assert.is(substituteTools('a | FileCheck x && not FileCheck y', tools), 'a | /opt/FileCheck x && /bin/not /opt/FileCheck y');
  assert.is(substituteTools('echo FileCheck', tools), 'echo FileCheck');
  assert.is(substituteTools('MyFileCheck x', tools), 'MyFileCheck x');
});

test('%-substitutions', () => {
  assert.is(substitutePercent('cat %s > %t; echo %%s %S', '/a/b.tir', '/tmp/b.tmp'), 'cat /a/b.tir > /tmp/b.tmp; echo %s /a');
});

test('RUN continuation lines and XFAIL/REQUIRES/UNSUPPORTED directives', () => {
  const spec = parseTestFile('t', '// RUN: a \\\n// RUN:   b\n// XFAIL: *\n// REQUIRES: x, y\n# UNSUPPORTED: z\n');
  assert.equal(spec.runLines, ['a b']);
  assert.equal(spec.xfail, ['*']);
  assert.equal(spec.requires, ['x', 'y']);
  assert.equal(spec.unsupported, ['z']);
  assert.ok(parseTestFile('t', '// nothing\n').error);
  assert.ok(parseTestFile('t', '// RUN: a \\\n').error);
});

test('feature expressions', () => {
  const f = new Set(['a', 'b']);
  assert.ok(evalFeatureExpr('a && !(c || d)', f));
  assert.not.ok(evalFeatureExpr('a && c', f));
  assert.ok(evalFeatureExpr('*', f));
  assert.throws(() => evalFeatureExpr('a &&', f));
});

test('progress: about 20 lines a run, the last at the end', () => {
  const lines = Array.from({ length: 842 }, (_, k) => progressLine(k + 1, 842, 0, 1000)).filter((l) => l !== null);
  assert.ok(lines.length >= 19 && lines.length <= 21, `${lines.length} lines`);
  assert.is(lines[lines.length - 1], '-- 842/842 tests (100%), 0 failed, 1 s\n');
  assert.is(progressLine(43, 842, 2, 12_400), '-- 43/842 tests (5%), 2 failed, 12 s\n');
  assert.is(progressLine(44, 842, 2, 12_400), null);
  assert.equal([1, 2, 3].map((k) => progressLine(k, 3, 0, 0) !== null), [true, true, true]);
});

test.run();
