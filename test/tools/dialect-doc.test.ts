/**
 * Tests for tools/dialect-doc.ts: the committed docs/dialects/ pages are those the declarations
 * generate now, and a page shows what a declaration says.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AnyType, I1, I32, I32Attr, UnitAttrC } from '../../ir/constraints.js';
import { defineOp } from '../../ir/op-def.js';
import type { DialectDecl } from '../../ir/op-spec.js';
import { Pure, Terminator } from '../../ir/traits.js';
import { dialectDoc, dialectDocFiles, dialectIndex } from '../../tools/dialect-doc.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

test('the committed docs/dialects/ pages are up to date', () => {
  const files = dialectDocFiles();
  for (const [path, text] of files) {
    const file = join(root, path);
    const committed = existsSync(file) ? readFileSync(file, 'utf8') : null;
    assert.ok(committed === text, `${path} is ${committed === null ? 'missing' : 'stale'}; run npm run docs`);
  }
  for (const name of readdirSync(join(root, 'docs/dialects'))) {
    assert.ok(files.has(`docs/dialects/${name}`), `docs/dialects/${name} is not generated (no such dialect); run npm run docs`);
  }
});

test('generation is deterministic', () => {
  assert.equal([...dialectDocFiles()], [...dialectDocFiles()]);
});

const StepOp = defineOp({
  name: 'toy.step',
  summary: 'one step',
  operands: [{ name: 'x', type: I32, summary: 'the input' }, { name: 'mask', kind: 'optional', type: I1 }, { name: 'rest', kind: 'variadic' }],
  results: [{ name: 'y', type: I32 }],
  attrs: [{ name: 'count', kind: I32Attr }, { name: 'fast', kind: UnitAttrC, optional: true }],
  regions: [{ name: 'body' }],
  successors: [{ name: 'dests', variadic: true }],
  traits: [Pure],
  format: '$x (`,` $mask^)? `(` $rest `)` attr-dict `:` type($rest)',
});
const EndOp = defineOp({ name: 'toy.end', summary: 'ends a block', operands: [{ name: 'v', type: AnyType }], traits: [Terminator] });
const toy: DialectDecl = { name: 'toy', summary: 'a toy dialect', ops: [StepOp, EndOp] };

test('a page shows the declaration', () => {
  const doc = dialectDoc(toy, { module: 'dialects/toy.ts', names: new Map([[StepOp, 'StepOp']]) });
  for (const line of [
    '# `toy` dialect',
    'a toy dialect',
    'Op definitions (`defineOp`, `ir/op-def.ts`) are exported from `dialects/toy.ts`.',
    '- [`toy.step`](#toystep-stepop): one step',
    '- [`toy.end`](#toyend): ends a block',
    '### `toy.step` (StepOp)',
    'operation ::= `toy.step` $x (`,` $mask^)? `(` $rest `)` attr-dict `:` type($rest)',
    '| Operand | Kind | Constraint | Description |',
    '| `x` | single | 32-bit signless integer | the input |',
    '| `mask` | optional | 1-bit signless integer |  |',
    '| `rest` | variadic | any type |  |',
    'The size of each operand group is stored in `operandSegmentSizes`.',
    '| `y` | single | 32-bit signless integer |',
    '| `count` | 32-bit signless integer attribute | required |',
    '| `fast` | unit attribute | optional |',
    '| `body` | single |',
    '| `dests` | variadic |',
    `- \`Pure\`: ${Pure.summary}`,
    '### `toy.end`',
    'Syntax: the generic form only.',
    `- \`Terminator\`: ${Terminator.summary}`,
  ]) assert.ok(doc.split('\n').includes(line), `missing line: ${line}\n${doc}`);
  assert.not.ok(doc.includes('resultSegmentSizes'));
});

test('the index lists each dialect with its op count', () => {
  assert.ok(dialectIndex([toy]).includes('| [`toy`](toy.md) | 2 | a toy dialect |'));
});

test.run();
