/**
 * Tests for ir/affine-expr.ts: expressions built through the simplifying constructors print as
 * mlir-opt 19 prints the same expression (each expected string was read off mlir-opt's output
 * for `affine_map<(d0, d1)[s0] -> (EXPR)>`), and equal expressions are the same object.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  add, affineToString, ceilDiv, constant, dim, floorDiv, largestKnownDivisor, mod, mul, neg, sub, symbol,
} from '../../ir/affine-expr.js';

const d0 = dim(0);
const d1 = dim(1);
const s0 = symbol(0);
const c = constant;

test('constants move right and fold (3 + d0, d0 + 2 + 3, d0 * 2 * 3, 2 * d0)', () => {
  assert.is(affineToString(add(c(3), d0)), 'd0 + 3');
  assert.is(affineToString(add(add(d0, c(2)), c(3))), 'd0 + 5');
  assert.is(affineToString(mul(mul(d0, c(2)), c(3))), 'd0 * 6');
  assert.is(affineToString(mul(c(2), d0)), 'd0 * 2');
  assert.is(affineToString(add(d0, c(0))), 'd0');
  assert.is(affineToString(mul(d0, c(1))), 'd0');
  assert.is(affineToString(mul(d0, c(0))), '0');
});

test('subtraction and negation print as mlir-opt does', () => {
  assert.is(affineToString(sub(d0, d1)), 'd0 - d1');
  assert.is(affineToString(neg(d0)), '-d0');
  assert.is(affineToString(neg(add(d0, c(1)))), '-(d0 + 1)');
  assert.is(affineToString(sub(c(4), mul(d0, c(5)))), 'd0 * -5 + 4');
  assert.is(affineToString(sub(d0, add(d1, c(1)))), 'd0 - (d1 + 1)');
  assert.is(affineToString(add(neg(d0), c(10))), '-d0 + 10');
  assert.is(affineToString(sub(mul(d0, c(2)), mul(d0, c(3)))), '-d0');
});

test('like terms combine and constants are brought right ((d0 + 2) + d0 is d0 * 2 + 2)', () => {
  assert.is(affineToString(add(mul(d0, c(2)), mul(d0, c(3)))), 'd0 * 5');
  assert.is(affineToString(add(add(d0, c(2)), d0)), 'd0 * 2 + 2');
  assert.is(affineToString(add(s0, d0)), 'd0 + s0');
  assert.is(affineToString(mul(s0, d0)), 'd0 * s0');
  assert.is(affineToString(mul(mul(d0, s0), c(2))), '(d0 * s0) * 2');
  assert.is(affineToString(mul(add(d0, c(1)), c(2))), '(d0 + 1) * 2');
});

test('divisions and modulo simplify with known divisors', () => {
  assert.is(affineToString(floorDiv(mul(d0, c(4)), c(2))), 'd0 * 2');
  assert.is(affineToString(floorDiv(add(d0, c(4)), c(2))), 'd0 floordiv 2 + 2');
  assert.is(affineToString(floorDiv(add(mul(d0, c(4)), c(3)), c(2))), 'd0 * 2 + 1');
  assert.is(affineToString(ceilDiv(mul(d0, c(6)), c(3))), 'd0 * 2');
  assert.is(affineToString(mod(add(d0, c(8)), c(4))), 'd0 mod 4');
  assert.is(affineToString(mod(mod(d0, c(8)), c(4))), 'd0 mod 4');
  assert.is(affineToString(sub(d0, mul(floorDiv(d0, c(4)), c(4)))), 'd0 mod 4');
  assert.is(affineToString(mod(d0, c(1))), '0');
  assert.is(affineToString(floorDiv(d0, s0)), 'd0 floordiv s0');
  assert.is(affineToString(floorDiv(c(-7), c(2))), '-4');
  assert.is(affineToString(mod(c(-7), c(2))), '1');
  assert.is(largestKnownDivisor(add(mul(d0, c(4)), c(8))), 4);
});

test('equal expressions are the same object', () => {
  assert.ok(add(d0, c(1)) === add(c(1), d0));
  assert.ok(mul(d0, c(6)) === mul(mul(d0, c(2)), c(3)));
  assert.not.ok(add(d0, c(1)) === add(d1, c(1)));
});

test.run();
