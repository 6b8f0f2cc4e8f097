/**
 * Real Triton 3.6 dumps (`examples/ttir/`, plus any file later dropped into
 * `../shared/examples/ttir/`) parse, verify and print losslessly: print/parse/print is
 * byte-identical in custom, debug-info and generic form, every op line matches Triton's own
 * text (apart from `#loc` alias numbers), and every op keeps its location.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllDialects } from '../../dialects/index.js';
import { SourceFile } from '../../ir/diagnostics.js';
import type { Operation } from '../../ir/ir.js';
import { parseSourceFile, type ParsedFile } from '../../ir/parser.js';
import { printModule, type PrintOptions } from '../../ir/printer.js';
import { verifyDiagnostic } from '../../ir/verifier.js';

registerAllDialects();

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dirs = [join(root, 'examples/ttir'), resolve(root, '../shared/examples/ttir')].filter(existsSync);
const files = new Map<string, string>();
for (const d of dirs) for (const f of readdirSync(d)) if (/\.(ttir|ttgir|tir|mlir)$/.test(f)) files.set(f, join(d, f));

function parse(text: string, name: string): ParsedFile {
  const parsed = parseSourceFile(new SourceFile(name, text));
  const d = verifyDiagnostic(parsed.module);
  if (d) throw new Error(d.format());
  return parsed;
}

function print(p: ParsedFile, o: PrintOptions = {}): string {
  return printModule(p.module, { aliasNames: p.aliasNames, ...o });
}

function allOps(m: Operation): Operation[] {
  const out: Operation[] = [];
  m.walk((op) => void out.push(op), 'pre');
  return out;
}

/** Op lines without `loc(#locN)` suffixes and without `#loc` alias definitions. */
function opLines(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => !/^#loc\d* = /.test(l))
    .map((l) => l.replace(/ loc\(#loc\d*\)/g, ''));
}

test('there are example dumps to check', () => {
  assert.ok(files.size >= 7, `expected the bundled Triton dumps, found ${files.size}`);
});

for (const [name, path] of files) {
  const original = readFileSync(path, 'utf8');

  test(`${name}: parses and verifies`, () => {
    const m = parse(original, name).module;
    assert.ok(allOps(m).length > 10);
  });

  test(`${name}: custom form round-trips byte-identically`, () => {
    const first = print(parse(original, name));
    const again = print(parse(first, 'first'));
    assert.is(again, first);
  });

  test(`${name}: generic form parses back to the same IR`, () => {
    const p = parse(original, name);
    const custom = print(p);
    const generic = print(p, { generic: true });
    assert.ok(generic.includes('"tt.func"'), 'generic form prints quoted op names');
    assert.is(print(parse(generic, 'generic')), custom);
    assert.is(print(parse(generic, 'generic'), { generic: true }), generic);
  });

  test(`${name}: debug-info form round-trips and keeps every location`, () => {
    const p = parse(original, name);
    const withLocs = print(p, { debugInfo: true });
    const p2 = parse(withLocs, 'withLocs');
    assert.is(print(p2, { debugInfo: true }), withLocs);
    const a = allOps(p.module);
    const b = allOps(p2.module);
    assert.is(b.length, a.length);
    a.forEach((op, k) => assert.ok(op.loc === b[k].loc, `location of op #${k} (${op.name}) changed`));
  });

  test(`${name}: the debug-info form is Triton's own file, byte for byte (aliases, their order and place)`, () => {
    assert.is(print(parse(original, name), { debugInfo: true }), original);
  });

  test(`${name}: every op line matches Triton's own text`, () => {
    const ours = print(parse(original, name), { debugInfo: true });
    const want = opLines(original).filter((l) => l.trim());
    const got = opLines(ours).filter((l) => l.trim());
    assert.equal(got, want);
  });
}

test.run();
