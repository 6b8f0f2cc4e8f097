/**
 * Unit tests of the timing report (`passes/timing.ts`): MLIR's layout, the total as the sum of the
 * top-level phases, nesting of phases timed inside others (a pipeline's passes), and a phase that
 * throws still being recorded.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PhaseTimer, timingReport } from '../../passes/timing.js';

/** The report's rows after its header: [seconds, percent, name with its indentation]. */
function rows(report: string): [number, number, string][] {
  const body = report.slice(report.indexOf('----Name----') + '----Name----\n'.length);
  return body
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const m = /^ {2}( *[0-9.]+) \( *([0-9.]+)%\) {2}(.*)$/.exec(l);
      if (!m) throw new Error(`not a report row: '${l}'`);
      return [Number(m[1]), Number(m[2]), m[3]];
    });
}

test('the total sums the top-level rows only; nested rows are indented under theirs', () => {
  const report = timingReport([
    { name: 'Parser', ms: 100, depth: 0 },
    { name: "'default' Pipeline", ms: 300, depth: 0 },
    { name: 'canonicalize', ms: 200, depth: 1 },
    { name: 'cse', ms: 100, depth: 1 },
    { name: 'Output', ms: 100, depth: 0 },
  ]);
  assert.match(report, '... Execution time report ...');
  assert.match(report, 'Total Execution Time: 0.5000 seconds');
  assert.equal(rows(report), [
    [0.1, 20, 'Parser'],
    [0.3, 60, "'default' Pipeline"],
    [0.2, 40, '  canonicalize'],
    [0.1, 20, '  cse'],
    [0.1, 20, 'Output'],
    [0.5, 100, 'Total'],
  ]);
});

test('PhaseTimer nests what is timed or added inside a phase, in the order the phases began', () => {
  const timer = new PhaseTimer();
  const value = timer.time('outer', () => {
    timer.add('pass-a', 2);
    timer.time('inner', () => timer.add('deep', 1));
    return 42;
  });
  timer.add('after', 3);
  assert.is(value, 42);
  const names = rows(timer.report()).map((r) => r[2]);
  assert.equal(names, ['outer', '  pass-a', '  inner', '    deep', 'after', 'Total']);
  const total = rows(timer.report()).at(-1)![0];
  const outer = rows(timer.report())[0][0];
  // (the total is outer + after: the nested rows are inside outer's time)
  assert.ok(Math.abs(total - (outer + 0.003)) < 1e-3, `total ${total} vs outer ${outer} + 0.003`);
});

test('a phase that throws is recorded with its time, and the timer stays usable', () => {
  const timer = new PhaseTimer();
  assert.throws(() => timer.time('failing', () => {
    throw new Error('boom');
  }), /boom/);
  timer.time('next', () => undefined);
  const names = rows(timer.report()).map((r) => r[2]);
  assert.equal(names, ['failing', 'next', 'Total']);
});

test.run();
