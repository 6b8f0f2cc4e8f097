import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runFileCheck, type FileCheckOptions } from '../../tools/filecheck.js';

const pass = (check: string, input: string, opts?: FileCheckOptions): void => {
  const r = runFileCheck(check, input, opts);
  assert.ok(r.ok, `expected pass, got:\n${r.message}`);
  assert.is(r.exitCode, 0);
};

const fail = (check: string, input: string, opts?: FileCheckOptions): string => {
  const r = runFileCheck(check, input, { checkFileName: 'check.txt', ...opts });
  assert.not.ok(r.ok, 'expected failure');
  assert.is(r.exitCode, 1, r.message);
  return r.message;
};

test('CHECK matches in order', () => {
  pass('// CHECK: foo\n// CHECK: bar\n', 'foo\nx\nbar\n');
  const msg = fail('// CHECK: bar\n// CHECK: foo\n', 'foo\nbar\n');
  assert.match(msg, 'check.txt:2:11: error: CHECK: expected string not found in input');
  assert.match(msg, '<stdin>:2:4: note: scanning from here');
});

test('CHECK matches within a line, not across lines', () => {
  pass('CHECK: a b', 'x a b y\n');
  fail('CHECK: a b', 'a\nb\n');
});

test('whitespace is canonicalized; leading/trailing pattern space ignored', () => {
  pass('CHECK:    a   b   ', 'a \t  b\n');
  fail('CHECK: a b', 'ab\n');
  fail('CHECK: a b', 'a  b\n', { strictWhitespace: true });
});

test('CHECK-NEXT requires the very next line', () => {
  pass('CHECK: a\nCHECK-NEXT: b\n', 'a\nb\n');
  const far = fail('CHECK: a\nCHECK-NEXT: b\n', 'a\nx\nb\n');
  assert.match(far, 'CHECK-NEXT: is not on the line after the previous match');
  const same = fail('CHECK: a\nCHECK-NEXT: b\n', 'a b\n');
  assert.match(same, 'CHECK-NEXT: is on the same line as previous match');
  const missing = fail('CHECK: a\nCHECK-NEXT: zzz\n', 'a\nb\n');
  assert.match(missing, 'check.txt:2:13: error: CHECK-NEXT: expected string not found in input');
});

test('CHECK-SAME requires the same line', () => {
  pass('CHECK: a\nCHECK-SAME: b\nCHECK-SAME: c\n', 'a b c\n');
  assert.match(fail('CHECK: a\nCHECK-SAME: b\n', 'a\nb\n'), 'CHECK-SAME: is not on the same line as the previous match');
});

test('CHECK-NOT between two CHECKs', () => {
  const check = 'CHECK: begin\nCHECK-NOT: bad\nCHECK: end\n';
  pass(check, 'begin\ngood\nend\nbad\n');
  pass(check, 'bad\nbegin\nend\n');
  const msg = fail(check, 'begin\nx bad\nend\n');
  assert.match(msg, 'CHECK-NOT: excluded string found in input');
  assert.match(msg, '<stdin>:2:3: note: found here');
});

test('trailing CHECK-NOT scans to the end of input', () => {
  pass('CHECK: a\nCHECK-NOT: b\n', 'b\na\n');
  fail('CHECK: a\nCHECK-NOT: b\n', 'a\nb\n');
});

test('CHECK-LABEL splits the input into blocks', () => {
  const check = 'CHECK-LABEL: func @f\nCHECK: ret1\nCHECK-LABEL: func @g\nCHECK: ret2\n';
  pass(check, 'func @f\nret1\nfunc @g\nret2\n');
  // ret1 exists, but only after @g: it must not be found in @f's block.
  const msg = fail(check, 'func @f\nfunc @g\nret1\nret2\n');
  assert.match(msg, 'check.txt:2:8: error: CHECK: expected string not found in input');
  // CHECK-NOT inside a block only looks inside that block.
  pass('CHECK-LABEL: @f\nCHECK-NOT: bad\nCHECK-LABEL: @g\n', '@f\nok\n@g\nbad\n');
  fail('CHECK-LABEL: @f\nCHECK-NOT: bad\nCHECK-LABEL: @g\n', '@f\nbad\n@g\n');
  assert.match(fail('CHECK-LABEL: @h\n', '@f\n'), 'CHECK-LABEL: expected string not found in input');
});

test('CHECK-LABEL failures in one block still check later blocks', () => {
  const msg = fail('CHECK-LABEL: @f\nCHECK: x\nCHECK-LABEL: @g\nCHECK: y\n', '@f\ny\n@g\nx\n');
  assert.match(msg, 'check.txt:2:8');
  assert.match(msg, 'check.txt:4:8');
});

test('CHECK-DAG matches in any order', () => {
  const check = 'CHECK-DAG: a\nCHECK-DAG: b\nCHECK: c\n';
  pass(check, 'b\na\nc\n');
  pass(check, 'a\nb\nc\n');
  fail(check, 'b\nc\na\n');
  // Two identical DAG patterns need two distinct matches.
  pass('CHECK-DAG: x\nCHECK-DAG: x\n', 'x\nx\n');
  assert.match(fail('CHECK-DAG: x\nCHECK-DAG: x\n', 'x\n'), 'CHECK-DAG: expected string not found in input');
});

test('CHECK-NOT between CHECK-DAG groups', () => {
  const check = 'CHECK-DAG: one\nCHECK-NOT: bad\nCHECK-DAG: two\n';
  pass(check, 'one\ntwo\nbad\n');
  fail(check, 'one\nbad\ntwo\n');
});

test('variable captures and uses', () => {
  const check = 'CHECK: [[V:%[0-9]+]] = foo\nCHECK: use [[V]]\n';
  pass(check, '%3 = foo\nuse %3\n');
  const msg = fail(check, '%3 = foo\nuse %4\n');
  assert.match(msg, 'with "V" equal to "%3"');
  pass('CHECK-DAG: [[A:%[0-9]+]] = x\nCHECK-DAG: [[B:%[0-9]+]] = y\nCHECK: add [[A]], [[B]]\n', '%2 = y\n%1 = x\nadd %1, %2\n');
  pass('CHECK: [[X:[a-z]+]] [[X]]\n', 'ab ab\n');
  fail('CHECK: [[X:[a-z]+]] [[X]]\n', 'ab ac\n');
});

test('undefined variables and bad variable names are errors', () => {
  assert.match(fail('CHECK: [[NOPE]]\n', 'x\n'), 'undefined variable: NOPE');
  const r = runFileCheck('CHECK: [[1, 2]]\n', '[[1, 2]]\n');
  assert.is(r.exitCode, 2);
});

test('--enable-var-scope clears local variables at labels', () => {
  const check = 'CHECK-LABEL: f\nCHECK: [[X:[a-z]+]]\nCHECK-LABEL: g\nCHECK: [[X]]\n';
  pass(check, 'f\nabc\ng\nabc\n');
  assert.match(fail(check, 'f\nabc\ng\nabc\n', { enableVarScope: true }), 'undefined variable: X');
});

test('{{regex}} inline regexes', () => {
  pass('CHECK: x = {{[0-9]+}} : i{{32|64}}\n', 'x = 42 : i64\n');
  fail('CHECK: x = {{[0-9]+}} : i{{32|64}}\n', 'x = 42 : i16\n');
  pass('CHECK: {{^}}foo{{$}}\n', 'foo\n');
  fail('CHECK: {{^}}foo{{$}}\n', ' foo\n');
  pass('CHECK: {{[[:digit:]]+}}\n', '7\n');
  pass('CHECK: a.b\n', 'a.b\n');
  fail('CHECK: a.b\n', 'axb\n');
});

test('CHECK-EMPTY matches an empty next line', () => {
  pass('CHECK: a\nCHECK-EMPTY:\nCHECK-NEXT: b\n', 'a\n\nb\n');
  pass('CHECK: a\nCHECK-EMPTY:\nCHECK-EMPTY:\n', 'a\n\n\n');
  assert.match(fail('CHECK: a\nCHECK-EMPTY:\n', 'a\nx\n\n'), 'CHECK-EMPTY: is not on the line after the previous match');
  fail('CHECK: a\nCHECK-EMPTY:\nCHECK-NEXT: b\n', 'a\n \nb\n');
});

test('CHECK-COUNT-n matches n times', () => {
  pass('CHECK-COUNT-3: x\n', 'x\nx x\n');
  assert.match(fail('CHECK-COUNT-3: x\n', 'x\nx\n'), 'CHECK-COUNT: expected string not found in input (3 out of 3)');
  pass('CHECK-COUNT-2: x\nCHECK-NOT: x\n', 'x\nx\n');
  fail('CHECK-COUNT-2: x\nCHECK-NOT: x\n', 'x\nx\nx\n');
});

test('custom prefixes', () => {
  const check = 'FOO: one\nBAR: two\nFOO-NEXT: three\n';
  pass(check, 'one\nthree\n', { checkPrefixes: ['FOO'] });
  pass(check, 'one\ntwo\nthree\n', { checkPrefixes: ['FOO', 'BAR'] });
  fail(check, 'one\ntwo\nthree\n', { checkPrefixes: ['FOO'] });
  // Prefixes only count at word boundaries; COM: and RUN: lines are comments.
  pass('XFOO: nope\nFOOS: nope\nCOM: FOO: nope\nFOO: yes\n', 'yes\n', { checkPrefixes: ['FOO'] });
});

test('configuration errors exit with status 2', () => {
  const none = runFileCheck('// no directives\n', 'x\n');
  assert.is(none.exitCode, 2);
  assert.match(none.message, "error: no check strings found with prefix 'CHECK:'");
  const unused = runFileCheck('A: x\n', 'x\n', { checkPrefixes: ['A', 'B'] });
  assert.match(unused.message, "no check strings found with prefix 'B:'");
  assert.ok(runFileCheck('A: x\n', 'x\n', { checkPrefixes: ['A', 'B'], allowUnusedPrefixes: true }).ok);
  assert.match(runFileCheck('CHECK-NEXT: a\n', 'a\n').message, "found 'CHECK-NEXT' without previous 'CHECK: line");
  assert.match(runFileCheck('CHECK:\n', 'a\n').message, "found empty check string with prefix 'CHECK:'");
  assert.is(runFileCheck('CHECK: a\n', '').exitCode, 2);
  assert.is(runFileCheck('CHECK: a\n', 'a', { checkPrefixes: ['1BAD'] }).exitCode, 2);
});

test('--implicit-check-not and --match-full-lines', () => {
  pass('CHECK: ok\n', 'ok\nfine\n', { implicitCheckNot: ['warning'] });
  fail('CHECK: ok\n', 'warning\nok\n', { implicitCheckNot: ['warning'] });
  const msg = fail('CHECK: ok\n', 'ok\nwarning\n', { implicitCheckNot: ['warning'] });
  // LLVM 19's wording (LLVM 14 said `CHECK-NOT:`).
  assert.match(msg, "command line:1:22: error: IMPLICIT-CHECK-NOT: excluded string found in input\n-implicit-check-not='warning'\n");
  pass('CHECK: a b\n', '  a b\n', { matchFullLines: true });
  fail('CHECK: a b\n', 'x a b\n', { matchFullLines: true });
});

test('[[@LINE]] and {LITERAL}', () => {
  pass('\nCHECK: line [[@LINE]] prev [[@LINE-1]]\n', 'line 2 prev 1\n');
  pass('CHECK{LITERAL}: [[x]] {{y}}\n', 'a [[x]] {{y}}\n');
});

test('numeric variables: definitions, expressions, hex formats, -D#', () => {
  pass('CHECK: n [[#N:]]\nCHECK-NEXT: [[#N+1]] [[#N-2]] [[#N]]\n', 'n 7\n8 5 7\n');
  pass('CHECK: [[#%x,H:]]\nCHECK: [[#H+2]] [[#%X,H]] [[#%.4x,H]]\n', 'ff\n101 FF 00ff\n');
  pass('CHECK: [[#N+1]] [[#@LINE]]\n', '4 1\n', { numericDefines: ['N=3'] });
  const msg = fail('CHECK: [[#N:]]\nCHECK-NEXT: [[#N+1]]\n', '7\n9\n');
  assert.match(msg, 'with "N+1" equal to "8"');
  assert.match(fail('CHECK: [[#NOPE]]\n', 'x\n'), 'undefined variable: NOPE');
  const bad = runFileCheck('CHECK: [[#N+]]\n', '1\n', { checkFileName: 'c' });
  assert.is(bad.exitCode, 2);
  assert.match(bad.message, 'c:1:13: error: missing operand in expression');
  assert.match(runFileCheck('CHECK: [[#N:]] [[#N]]\n', '1 1\n').message, "numeric variable 'N' defined earlier in the same CHECK directive");
});

test('--enable-var-scope clears numeric variables too, but not $ ones', () => {
  const check = 'CHECK-LABEL: f\nCHECK: [[#N:]] [[$S:[a-z]+]]\nCHECK-LABEL: g\nCHECK: [[$S]]\nCHECK: [[#N]]\n';
  assert.match(fail(check, 'f\n1 ab\ng\nab\n1\n', { enableVarScope: true }), 'undefined variable: N');
  pass(check, 'f\n1 ab\ng\nab\n1\n');
});

test('possible intended match: the closest candidate after the scan start', () => {
  const msg = fail('CHECK: foo\nCHECK: barx\n', 'foo\nzzz\nbar\nqqq\n');
  assert.match(msg, '<stdin>:3:1: note: possible intended match here\nbar\n^\n');
  assert.not.match(fail('CHECK: a\n', 'b\n'), 'possible intended match');
});

test('--dump-input=fail annotates the input around the failure', () => {
  const msg = fail('CHECK: foo\nCHECK: barx\n', 'foo\nzzz\nbar\nqqq\n', { dumpInput: 'fail' });
  assert.match(msg, [
    'Input was:', '<<<<<<', '           1: foo ', "check:2'0        X error: no match found",
    '           2: zzz ', "check:2'0     ~~~~", '           3: bar ', "check:2'0     ~~~~",
    "check:2'1     ?    possible intended match", '           4: qqq ', "check:2'0     ~~~~", '>>>>>>',
  ].join('\n'));
  const ctx = fail('CHECK: a\nCHECK-NOT: b\nCHECK: c\n', '1\n2\n3\n4\n5\na\nb\nc\n', { dumpInput: 'fail', dumpInputContext: 1 });
  assert.match(ctx, '<<<<<<\n       .\n       .\n       .\n       6: a \n       7: b \nnot:2     !  error: no match expected\n       8: c \n>>>>>>');
  assert.not.match(runFileCheck('CHECK: a\n', 'a\n', { dumpInput: 'fail' }).message, 'Input was');
});

test.run();
