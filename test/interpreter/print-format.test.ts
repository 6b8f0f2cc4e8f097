/**
 * The interpreter's `tt.print` conversions (tools/interpreter/print-format.ts) against C's printf:
 * the expected strings are CPython's `'%f' % x` (correctly rounded, ties to even, as glibc's printf),
 * hex of each type's bits, `%i`/`%u` by signedness, indices padded as Triton pads them.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cFixed, elementText, indexText } from '../../tools/interpreter/print-format.js';
import { f, i } from '../../ir/types.js';

test("%f: ties to even, signs, huge and special values, as C's printf", () => {
  const cases: [number, string][] = [
    [122.0703125, '122.070312'], // an exact tie: toFixed would give ...313
    [-122.0703125, '-122.070312'],
    [0.0078125, '0.007812'],
    [1.0000005, '1.000001'], // not a tie in binary: above the half
    [0.5, '0.500000'],
    [-1e-9, '-0.000000'],
    [-0, '-0.000000'],
    [1 / 3, '0.333333'],
    [65504, '65504.000000'],
    [1e22, '10000000000000000000000.000000'],
    [Infinity, 'inf'],
    [-Infinity, '-inf'],
    [NaN, 'nan'],
  ];
  for (const [x, want] of cases) assert.is(cFixed(x), want, String(x));
});

test('integers: signed or unsigned by isSigned, hex of the type width', () => {
  assert.is(elementText(-5, i(32), false, true), '-5');
  assert.is(elementText(-5, i(32), false, false), '4294967291');
  assert.is(elementText(-5, i(16), false, true), '-5');
  assert.is(elementText(-5, i(16), false, false), '65531');
  assert.is(elementText(-5, i(32), true, true), '0xfffffffb');
  assert.is(elementText(-5, i(16), true, true), '0xfffb');
  assert.is(elementText(-5n, i(64), false, true), '-5');
  assert.is(elementText(-5n, i(64), false, false), '18446744073709551611');
  assert.is(elementText(-5n, i(64), true, false), '0xfffffffffffffffb');
  assert.is(elementText(1, i(1), false, true), '1'); // i1 prints 0 or 1, never -1
  assert.is(elementText(0, i(1), true, false), '0x0');
});

test('floats in hex are their own bits, padded to the type width', () => {
  assert.is(elementText(1, f('f32'), true, false), '0x3f800000');
  assert.is(elementText(1, f('f16'), true, false), '0x3c00');
  assert.is(elementText(-2, f('bf16'), true, false), '0xc000');
  assert.is(elementText(0.5, f('f64'), true, false), '0x3fe0000000000000');
  assert.is(elementText(0.1, f('f32'), false, false), '0.100000');
});

test('indices are padded to the digits of their dimension', () => {
  assert.is(indexText(5, [128]), 'idx (  5)');
  assert.is(indexText(70, [16, 64]), 'idx ( 1,  6)');
  assert.is(indexText(3, [8, 4]), 'idx (0, 3)');
  assert.is(indexText(0, []), 'idx ()');
  assert.is(indexText(1, [2]), 'idx (1)');
});

test.run();
