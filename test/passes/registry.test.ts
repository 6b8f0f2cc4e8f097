/**
 * Every registered pass is declared in `passes/<name>.ts` under its own name, is kebab-case,
 * has a summary, declared option defaults of the declared types, and a lit test at
 * `lit/passes/<name>.tir` that runs it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { registerAllPasses } from '../../passes/all.js';
import { allPasses } from '../../passes/registry.js';

registerAllDialects();
registerAllPasses();

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

test('passes are registered', () => {
  assert.ok(allPasses().length >= 2);
});

for (const p of allPasses()) {
  test(`pass '${p.name}' is declared in its own file with a lit test`, async () => {
    assert.match(p.name, /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/, 'kebab-case name');
    assert.ok(p.summary.length > 10, 'has a one-line summary');
    const file = join(root, 'passes', `${p.name}.ts`);
    assert.ok(existsSync(file), `passes/${p.name}.ts exists`);
    const mod = (await import(file)) as Record<string, unknown>;
    assert.ok(Object.values(mod).includes(p), `passes/${p.name}.ts exports the registered pass object`);
    const lit = join(root, 'lit', 'passes', `${p.name}.tir`);
    assert.ok(existsSync(lit), `lit/passes/${p.name}.tir exists`);
    const text = readFileSync(lit, 'utf8');
    assert.ok(new RegExp(`RUN:.*(--pipeline=['"]?[^\\s'"]*\\b${p.name}\\b|--${p.name}\\b)`).test(text), `lit/passes/${p.name}.tir runs the pass`);
    for (const [k, d] of Object.entries(p.options ?? {})) {
      const kind = Array.isArray(d.default) ? 'string-list' : typeof d.default === 'number' ? 'int' : typeof d.default === 'boolean' ? 'bool' : 'string';
      assert.is(kind, d.type, `option '${k}' default matches its type`);
      assert.ok(d.description.length > 5, `option '${k}' is described`);
    }
  });
}

test.run();
