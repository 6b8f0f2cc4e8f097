/**
 * The 8-bit float formats (ir/minifloat.ts). Expected bits and values are the OCP 8-bit floating
 * point specification's (E4M3 / E5M2 tables: largest normal, smallest subnormal, NaN, infinity)
 * and hand-worked rounding cases; APFloat's overflow (infinity for E5M2, NaN for the FN types) and
 * PTX's saturation are both checked.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MINIFLOATS, maxFinite, miniFloatBits, miniFloatValue, roundToMiniFloat } from '../../ir/minifloat.js';
import { FloatAttr, floatBits, floatFromBits } from '../../ir/attributes.js';
import { f } from '../../ir/types.js';

const E4M3 = MINIFLOATS.get('f8E4M3FN')!;
const E5M2 = MINIFLOATS.get('f8E5M2')!;
const E4M3FNUZ = MINIFLOATS.get('f8E4M3FNUZ')!;

test('E4M3FN: the specification table', () => {
  assert.is(maxFinite(E4M3), 448);
  assert.is(miniFloatBits(E4M3, 448), 0x7e);
  assert.is(miniFloatBits(E4M3, -448), 0xfe);
  assert.is(miniFloatBits(E4M3, 1), 0x38);
  assert.is(miniFloatBits(E4M3, 2 ** -6), 0x08); // smallest normal
  assert.is(miniFloatBits(E4M3, 2 ** -9), 0x01); // smallest subnormal
  assert.is(miniFloatBits(E4M3, 0.875 * 2 ** -6), 0x07); // largest subnormal
  assert.ok(Number.isNaN(miniFloatValue(E4M3, 0x7f)));
  assert.ok(Number.isNaN(miniFloatValue(E4M3, 0xff)));
  assert.is(miniFloatValue(E4M3, 0x7e), 448);
  assert.ok(Object.is(miniFloatValue(E4M3, 0x80), -0));
  assert.is(miniFloatBits(E4M3, NaN), 0x7f);
});

test('E5M2: the specification table', () => {
  assert.is(maxFinite(E5M2), 57344);
  assert.is(miniFloatBits(E5M2, 57344), 0x7b);
  assert.is(miniFloatBits(E5M2, Infinity), 0x7c);
  assert.is(miniFloatBits(E5M2, -Infinity), 0xfc);
  assert.is(miniFloatBits(E5M2, 1), 0x3c);
  assert.is(miniFloatBits(E5M2, 2 ** -14), 0x04); // smallest normal
  assert.is(miniFloatBits(E5M2, 2 ** -16), 0x01); // smallest subnormal
  assert.ok(Number.isNaN(miniFloatValue(E5M2, 0x7d)));
  assert.is(miniFloatValue(E5M2, 0x7c), Infinity);
});

test('rounding: to nearest even, toward zero, subnormal ties', () => {
  // between 1.0 (0x38) and 1.125 (0x39): the midpoint goes to the even significand
  assert.is(roundToMiniFloat(E4M3, 1.0625), 1);
  assert.is(roundToMiniFloat(E4M3, 1.1875), 1.25);
  assert.is(roundToMiniFloat(E4M3, 1.07), 1.125);
  assert.is(roundToMiniFloat(E4M3, 1.2, { towardZero: true }), 1.125);
  assert.is(roundToMiniFloat(E4M3, -1.2, { towardZero: true }), -1.125);
  // half the smallest subnormal ties to zero (even); a bit more rounds up to it
  assert.is(roundToMiniFloat(E4M3, 2 ** -10), 0);
  assert.is(roundToMiniFloat(E4M3, 1.5 * 2 ** -10), 2 ** -9);
  assert.ok(Object.is(roundToMiniFloat(E4M3, -(2 ** -12)), -0));
});

test('overflow: APFloat (infinity or NaN) and saturation (PTX .satfinite)', () => {
  // 464 is the midpoint between 448 (even significand) and the next step: it rounds down
  assert.is(roundToMiniFloat(E4M3, 464), 448);
  assert.ok(Number.isNaN(roundToMiniFloat(E4M3, 465)));
  assert.is(roundToMiniFloat(E4M3, 465, { saturate: true }), 448);
  assert.is(roundToMiniFloat(E4M3, -Infinity, { saturate: true }), -448);
  assert.ok(Number.isNaN(roundToMiniFloat(E4M3, NaN, { saturate: true })));
  // 61440 is E5M2's midpoint above 57344 (odd significand): it rounds up, to infinity
  assert.is(roundToMiniFloat(E5M2, 61439), 57344);
  assert.is(roundToMiniFloat(E5M2, 61440), Infinity);
  assert.is(roundToMiniFloat(E5M2, 61440, { saturate: true }), 57344);
  assert.is(roundToMiniFloat(E5M2, Infinity, { saturate: true }), 57344);
  // toward zero never overflows a finite value
  assert.is(roundToMiniFloat(E4M3, 1e6, { towardZero: true }), 448);
});

test('FNUZ: no negative zero, 0x80 is NaN', () => {
  assert.is(maxFinite(E4M3FNUZ), 240);
  assert.is(miniFloatBits(E4M3FNUZ, -0), 0);
  assert.is(miniFloatBits(E4M3FNUZ, NaN), 0x80);
  assert.ok(Number.isNaN(miniFloatValue(E4M3FNUZ, 0x80)));
  assert.is(miniFloatBits(E4M3FNUZ, 1), 0x40); // bias 8
});

test('every non-NaN byte of every format reads back to itself', () => {
  for (const fmt of MINIFLOATS.values()) {
    for (let b = 0; b < 256; b++) {
      const v = miniFloatValue(fmt, b);
      if (!Number.isNaN(v)) assert.is(miniFloatBits(fmt, v), b, `${fmt.kind} 0x${b.toString(16)}`);
    }
  }
});

test('fp8 attributes round as APFloat and keep their bits (hex form)', () => {
  assert.is(FloatAttr.get(0.3, f('f8E4M3FN')).value, 0.3125);
  assert.is(floatBits(0.3125, 'f8E4M3FN'), 0x2an); // 1.25 * 2^-2: exponent field 5, significand 010
  assert.is(floatFromBits(0x7cn, 'f8E5M2'), Infinity);
});

test.run();
