/**
 * Assembly formats are compiled on first use (`OpSpec.format`), not when a dialect loads; this
 * compiles every registered op's format, so a bad one fails here rather than in a user's run.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { Context } from '../../ir/context.js';
import { defineOp } from '../../ir/op-def.js';
import { AnyType } from '../../ir/constraints.js';

const context = registerAllDialects(new Context());

test('every registered op with a format compiles it; ops without one have none', () => {
  const failed: string[] = [];
  let compiled = 0;
  for (const spec of context.ops.values()) {
    try {
      if (spec.decl.format === undefined) assert.is(spec.format, null, spec.name);
      else if (spec.format) compiled++;
      else failed.push(`${spec.name}: no compiled format`);
    } catch (e) {
      failed.push(`${spec.name}: ${(e as Error).message}`);
    }
  }
  assert.equal(failed, []);
  assert.ok(compiled > 200, `only ${compiled} formats compiled`);
});

test('a format is compiled once, and a bad one is reported on first use, naming the op', () => {
  const good = defineOp({ name: 'test.good', operands: [{ name: 'x', type: AnyType }], format: '$x attr-dict `:` type($x)' });
  assert.is(good.spec.format, good.spec.format);
  const bad = defineOp({ name: 'test.bad', operands: [{ name: 'x', type: AnyType }], format: '$y attr-dict' });
  assert.throws(() => bad.spec.format, /internal error: bad assembly format of 'test\.bad' at 2: unknown variable '\$y'/);
});

test.run();
