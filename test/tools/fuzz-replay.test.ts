/**
 * Replays every fuzz reproducer saved under test/fixtures/fuzz/<target>/ through its target
 * and asserts it no longer gives an internal error, a hang or an unlocated diagnostic (a
 * located diagnostic or success is what bad input may give). Known open findings live in
 * test/fixtures/fuzz-open/, which this test does not read.
 *
 * The inputs run in the fuzzer's worker (the bundle dist/bin/fuzz.mjs, which the npm test
 * script builds first), with the fuzzer's per-input time budget.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FINDINGS_DIR, loadFindings } from '../../tools/fuzz/findings.js';
import { FINDING_CLASSES, signatureHash } from '../../tools/fuzz/outcome.js';
import { FuzzRunner } from '../../tools/fuzz/runner.js';
import { isTargetName } from '../../tools/fuzz/targets.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const runner = new FuzzRunner(join(root, 'dist/bin/fuzz.mjs'), 20000);
const findings = loadFindings(join(root, FINDINGS_DIR));

test('every reproducer has its input and a well-formed sidecar', () => {
  for (const f of findings) {
    assert.ok(existsSync(f.inputPath), `${f.recordPath}: no input ${f.inputPath}`);
    assert.ok(isTargetName(f.record.target), `${f.recordPath}: target`);
    assert.ok(FINDING_CLASSES.has(f.record.class), `${f.recordPath}: class ${f.record.class}`);
    assert.match(f.record.date, /^\d{4}-\d\d-\d\d$/);
    // Named by its signature's hash; a second input with the signature of a saved one (all hangs share one) adds its own.
    assert.match(f.recordPath, new RegExp(`/${signatureHash(f.record.signature)}(-[0-9a-f]{8})?\\.json$`), `${f.recordPath}: named by its signature's hash`);
  }
});

for (const f of findings) {
  test(`replay ${f.inputPath.slice(root.length + 1)} (was: ${f.record.signature})`, async () => {
    const o = await runner.run(f.record.target, readFileSync(f.inputPath, 'utf8'));
    assert.ok(!FINDING_CLASSES.has(o.class), `still ${o.class}:\n${o.message}`);
  });
}

test('the runner reports an input over its time budget as a hang, and recovers', async () => {
  const kernel = readFileSync(join(root, 'examples/ttir/matmul_kernel.ttir'), 'utf8');
  const hang = await runner.run('ptx', kernel, 1);
  assert.is(hang.class, 'hang');
  assert.is((await runner.run('parser', 'module {\n}\n')).class, 'success');
  assert.is((await runner.run('parser', 'module {\n')).class, 'located');
});

test.after(() => runner.close());

test.run();
