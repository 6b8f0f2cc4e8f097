/**
 * Interop with upstream MLIR (mlir-opt 19.1.7), without needing mlir-opt at test time: the fixtures in
 * test/fixtures/mlir-opt/ hold inputs (NAME.mlir) with mlir-opt's custom (NAME.custom.mlir) and generic
 * (NAME.generic.mlir) outputs. We check that mlir-opt's generic output parses and verifies here and prints
 * in custom form exactly as mlir-opt's custom output, that our generic form equals mlir-opt's up to SSA
 * numbering, and that our generic form reads back here identically.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { custom, generic, sameGeneric, stripComments, stripNames } from '../helpers/roundtrip.js';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'mlir-opt');
const NAMES = ['loops', 'cfg', 'math', 'constants', 'modules'];
const read = (name: string) => stripComments(readFileSync(join(DIR, name), 'utf8'));

for (const name of NAMES) {
  const input = read(`${name}.mlir`);
  const upCustom = read(`${name}.custom.mlir`);
  const upGeneric = read(`${name}.generic.mlir`);

  test(`${name}: mlir-opt's generic output parses here and prints as mlir-opt's custom output`, () => {
    assert.fixture(custom(upGeneric), upCustom);
  });

  test(`${name}: mlir-opt's custom output is a fixed point of our custom printer`, () => {
    assert.fixture(custom(upCustom), upCustom);
  });

  test(`${name}: our generic form equals mlir-opt's generic form (up to SSA numbering)`, () => {
    sameGeneric(upCustom, upGeneric);
    assert.fixture(stripNames(generic(input)), stripNames(upGeneric));
  });

  test(`${name}: our generic form reads back here identically`, () => {
    const g = generic(input);
    assert.fixture(generic(g), g);
    assert.fixture(custom(g), custom(input));
  });
}

test.run();
