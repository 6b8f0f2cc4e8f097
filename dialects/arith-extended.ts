/**
 * arith ops with two results (`arith.addui_extended`, `arith.mulsi_extended`,
 * `arith.mului_extended`) and the rounding-mode enum of `arith.truncf`, as in MLIR 19.
 */
import { BoolLike, SignlessIntegerLike, intEnum } from '../ir/constraints.js';
import { defineOp } from '../ir/op-def.js';
import { Commutative, Elementwise, Pure, SameOperandsAndResultType, SameTypeOperands } from '../ir/traits.js';
import { boolLike } from '../ir/constraints.js';

/** `arith.truncf`'s rounding modes (MLIR's `Arith_RoundingModeAttr`, an i32 enum). */
export const RoundingMode = intEnum('rounding mode', 32, ['to_nearest_even', 'downward', 'upward', 'toward_zero', 'to_nearest_away']);

/**
 * `arith.addui_extended`: unsigned integer addition with an overflow flag:
 * `%sum, %overflow = arith.addui_extended %a, %b : i32, i1`.
 */
export const AddUIExtendedOp = defineOp({
  name: 'arith.addui_extended',
  summary: 'extended unsigned integer addition operation returning sum and overflow bit',
  operands: [{ name: 'lhs', type: SignlessIntegerLike }, { name: 'rhs', type: SignlessIntegerLike }],
  results: [{ name: 'sum', type: SignlessIntegerLike }, { name: 'overflow', type: BoolLike }],
  traits: [Pure, Commutative, Elementwise, SameTypeOperands],
  format: '$lhs `,` $rhs attr-dict `:` type($sum) `,` type($overflow)',
  inferTypes: { rhs: (env) => env.result('sum'), lhs: (env) => env.result('sum') },
  resultNames: () => ['sum', 'overflow'],
  verify(op) {
    if (op.operand(0).type !== op.result(0).type) return "failed to verify that all of {lhs, rhs, sum} have same type";
    const expect = boolLike(op.result(0).type);
    if (op.result(1).type !== expect) return `expected overflow type ${expect}, got ${op.result(1).type}`;
  },
});

/** An extended multiplication: `%low, %high = arith.mulsi_extended %a, %b : i32`. */
function mulExtended(name: string, summary: string) {
  return defineOp({
    name: `arith.${name}`,
    summary,
    operands: [{ name: 'lhs', type: SignlessIntegerLike }, { name: 'rhs', type: SignlessIntegerLike }],
    results: [{ name: 'low', type: SignlessIntegerLike }, { name: 'high', type: SignlessIntegerLike }],
    traits: [Pure, Commutative, Elementwise, SameOperandsAndResultType],
    format: '$lhs `,` $rhs attr-dict `:` type($lhs)',
    inferTypes: { rhs: (env) => env.operand('lhs'), low: (env) => env.operand('lhs'), high: (env) => env.operand('lhs') },
    resultNames: () => ['low', 'high'],
  });
}

/** `arith.mulsi_extended`: signed full multiplication, low and high halves. */
export const MulSIExtendedOp = mulExtended('mulsi_extended', 'extended signed integer multiplication operation');
/** `arith.mului_extended`: unsigned full multiplication, low and high halves. */
export const MulUIExtendedOp = mulExtended('mului_extended', 'extended unsigned integer multiplication operation');
