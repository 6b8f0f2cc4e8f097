/**
 * Tests of the cf dialect table (dialects/cf.ts) against mlir-opt 19.
 * Every expected text marked "mlir-opt 19" was produced by running /usr/lib/llvm-19/bin/mlir-opt
 * on the same input (custom form: plain run; generic form: --mlir-print-op-generic), minus the
 * blank line mlir-opt writes after the module. Generic texts are per function: with several
 * functions, mlir-opt's generic form numbers values across functions in an order of its own.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import '../../ir/format.js';
import { defaultContext } from '../../ir/context.js';
import { parseText } from '../../ir/parser.js';
import { printModule } from '../../ir/printer.js';
import { verify } from '../../ir/verifier.js';
import { DiagnosticError } from '../../ir/diagnostics.js';
import { builtinDialect } from '../../dialects/builtin.js';
import { funcDialect } from '../../dialects/func.js';
import { cfDialect } from '../../dialects/cf.js';

defaultContext.loadDialect(builtinDialect);
defaultContext.loadDialect(funcDialect);
defaultContext.loadDialect(cfDialect);

function load(text: string) {
  const { module } = parseText(text);
  verify(module);
  return module;
}

/** The error message that parsing + verifying `text` produces. */
function errorOf(text: string): string {
  try {
    load(text);
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostic.message;
    throw e;
  }
  return '(no error)';
}

// mlir-opt 19 output: every cf op, successor operands, block predecessor comments, switch case layout.
// @f and @g are kept apart because the generic-form tests below use each alone.
const F_FUNC = `  func.func @f(%arg0: i1, %arg1: i32, %arg2: f32, %arg3: i32) -> i32 {
    cf.assert %arg0, "must hold"
    cf.cond_br %arg0, ^bb1(%arg1 : i32), ^bb2
  ^bb1(%0: i32):  // pred: ^bb0
    cf.br ^bb3(%0, %arg2 : i32, f32)
  ^bb2:  // pred: ^bb0
    cf.cond_br %arg0, ^bb3(%arg1, %arg2 : i32, f32), ^bb4 {foo}
  ^bb3(%1: i32, %2: f32):  // 2 preds: ^bb1, ^bb2
    cf.switch %arg3 : i32, [
      default: ^bb4,
      42: ^bb5(%1 : i32),
      4294967289: ^bb6(%1 : i32)
    ]
  ^bb4:  // 2 preds: ^bb2, ^bb3
    cf.br ^bb5(%arg1 : i32)
  ^bb5(%3: i32):  // 2 preds: ^bb3, ^bb4
    cf.switch %3 : i32, [
      default: ^bb6(%3 : i32)]
  ^bb6(%4: i32):  // 2 preds: ^bb3, ^bb5
    return %4 : i32
  }
`;
const G_FUNC = `  func.func @g(%arg0: i64, %arg1: i8, %arg2: i32) {
    cf.switch %arg0 : i64, [
      default: ^bb1,
      18446744073709551615: ^bb2,
      9223372036854775807: ^bb3(%arg2 : i32)
    ]
  ^bb1:  // pred: ^bb0
    cf.br ^bb3(%arg2 : i32)
  ^bb2:  // pred: ^bb0
    cf.switch %arg1 : i8, [
      default: ^bb4,
      128: ^bb5(%arg2, %arg2 : i32, i32),
      255: ^bb6
    ]
  ^bb3(%0: i32):  // 2 preds: ^bb0, ^bb1
    cf.br ^bb4
  ^bb4:  // 2 preds: ^bb2, ^bb3
    cf.br ^bb6
  ^bb5(%1: i32, %2: i32):  // pred: ^bb2
    cf.br ^bb6
  ^bb6:  // 3 preds: ^bb2, ^bb4, ^bb5
    return
  }
`;
const CUSTOM = `module {\n${F_FUNC}${G_FUNC}}\n`;

test('every cf op round-trips in custom form as mlir-opt prints it', () => {
  assert.is(printModule(load(CUSTOM)), CUSTOM);
});

// mlir-opt 19 custom and generic output of @f and @g alone (custom: the functions above).
const F_CUSTOM = `module {\n${F_FUNC}}\n`;
const F_GENERIC = `"builtin.module"() ({
  "func.func"() <{function_type = (i1, i32, f32, i32) -> i32, sym_name = "f"}> ({
  ^bb0(%arg0: i1, %arg1: i32, %arg2: f32, %arg3: i32):
    "cf.assert"(%arg0) <{msg = "must hold"}> : (i1) -> ()
    "cf.cond_br"(%arg0, %arg1)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> ()
  ^bb1(%0: i32):  // pred: ^bb0
    "cf.br"(%0, %arg2)[^bb3] : (i32, f32) -> ()
  ^bb2:  // pred: ^bb0
    "cf.cond_br"(%arg0, %arg1, %arg2)[^bb3, ^bb4] <{operandSegmentSizes = array<i32: 1, 2, 0>}> {foo} : (i1, i32, f32) -> ()
  ^bb3(%1: i32, %2: f32):  // 2 preds: ^bb1, ^bb2
    "cf.switch"(%arg3, %1, %1)[^bb4, ^bb5, ^bb6] <{case_operand_segments = array<i32: 1, 1>, case_values = dense<[42, -7]> : vector<2xi32>, operandSegmentSizes = array<i32: 1, 0, 2>}> : (i32, i32, i32) -> ()
  ^bb4:  // 2 preds: ^bb2, ^bb3
    "cf.br"(%arg1)[^bb5] : (i32) -> ()
  ^bb5(%3: i32):  // 2 preds: ^bb3, ^bb4
    "cf.switch"(%3, %3)[^bb6] <{case_operand_segments = array<i32>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (i32, i32) -> ()
  ^bb6(%4: i32):  // 2 preds: ^bb3, ^bb5
    "func.return"(%4) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
`;
const G_CUSTOM = `module {\n${G_FUNC}}\n`;
const G_GENERIC = `"builtin.module"() ({
  "func.func"() <{function_type = (i64, i8, i32) -> (), sym_name = "g"}> ({
  ^bb0(%arg0: i64, %arg1: i8, %arg2: i32):
    "cf.switch"(%arg0, %arg2)[^bb1, ^bb2, ^bb3] <{case_operand_segments = array<i32: 0, 1>, case_values = dense<[-1, 9223372036854775807]> : vector<2xi64>, operandSegmentSizes = array<i32: 1, 0, 1>}> : (i64, i32) -> ()
  ^bb1:  // pred: ^bb0
    "cf.br"(%arg2)[^bb3] : (i32) -> ()
  ^bb2:  // pred: ^bb0
    "cf.switch"(%arg1, %arg2, %arg2)[^bb4, ^bb5, ^bb6] <{case_operand_segments = array<i32: 2, 0>, case_values = dense<[-128, -1]> : vector<2xi8>, operandSegmentSizes = array<i32: 1, 0, 2>}> : (i8, i32, i32) -> ()
  ^bb3(%0: i32):  // 2 preds: ^bb0, ^bb1
    "cf.br"()[^bb4] : () -> ()
  ^bb4:  // 2 preds: ^bb2, ^bb3
    "cf.br"()[^bb6] : () -> ()
  ^bb5(%1: i32, %2: i32):  // pred: ^bb2
    "cf.br"()[^bb6] : () -> ()
  ^bb6:  // 3 preds: ^bb2, ^bb4, ^bb5
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
`;

test('generic form matches mlir-opt (operandSegmentSizes, case_values, case_operand_segments)', () => {
  assert.is(printModule(load(F_CUSTOM), { generic: true }), F_GENERIC);
  assert.is(printModule(load(G_CUSTOM), { generic: true }), G_GENERIC);
});

test('generic form reads back to the same custom form', () => {
  assert.is(printModule(load(F_GENERIC)), F_CUSTOM);
  assert.is(printModule(load(G_GENERIC)), G_CUSTOM);
});

test('cf.switch accepts cases on one line and prints one per line', () => {
  const text = `func.func @f(%arg0: i32, %arg1: i32) {
  cf.switch %arg0 : i32, [default: ^bb1(%arg1, %arg1 : i32, i32), -2: ^bb1(%arg0, %arg1 : i32, i32)]
^bb1(%0: i32, %1: i32):
  return
}
`;
  const out = printModule(load(text));
  assert.ok(out.includes(`    cf.switch %arg0 : i32, [
      default: ^bb1(%arg1, %arg1 : i32, i32),
      4294967294: ^bb1(%arg0, %arg1 : i32, i32)
    ]
`), out);
  assert.is(printModule(load(out)), out);
});

// In MLIR 19.1.7, branch weights are a discardable attribute (mlir-opt 19 prints
// `cf.cond_br %5, ^bb3, ^bb4 {branch_weights = array<i32: 40, 60>}`).
test('cf.cond_br with branch weights round-trips as MLIR 19 prints it', () => {
  const text = `module {
  func.func @f(%arg0: i1, %arg1: i32) {
    cf.cond_br %arg0, ^bb1(%arg1 : i32), ^bb2 {branch_weights = array<i32: 3, 5>}
  ^bb1(%0: i32):  // pred: ^bb0
    return
  ^bb2:  // pred: ^bb0
    return
  }
}
`;
  const m = load(text);
  assert.is(printModule(m), text);
  const g = printModule(m, { generic: true });
  assert.ok(g.includes('"cf.cond_br"(%arg0, %arg1)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 0>}> {branch_weights = array<i32: 3, 5>} : (i1, i32) -> ()'), g);
  assert.is(printModule(load(g)), text);
});

// Messages below are mlir-opt 19's for the same input (branch operand errors have no op prefix there).
test('verifier: wrong successor operand count', () => {
  assert.is(errorOf(`func.func @f(%arg0: i32) {
  cf.br ^bb1(%arg0 : i32)
^bb1:
  return
}`), 'branch has 1 operands for successor #0, but target block has 0');
  assert.is(errorOf(`func.func @f(%arg0: i1, %arg1: i32) {
  cf.cond_br %arg0, ^bb1, ^bb2(%arg1 : i32)
^bb1:
  return
^bb2(%0: i32, %1: i32):
  return
}`), 'branch has 1 operands for successor #1, but target block has 2');
  assert.is(errorOf(`func.func @f(%arg0: i32, %arg1: f32) {
  cf.switch %arg0 : i32, [ default: ^bb1, 1: ^bb1(%arg1 : f32) ]
^bb1:
  return
}`), 'branch has 1 operands for successor #1, but target block has 0');
});

test('verifier: wrong successor operand type', () => {
  assert.is(errorOf(`func.func @f(%arg0: i32) {
  cf.br ^bb1(%arg0 : i32)
^bb1(%0: f32):
  return
}`), 'type mismatch for bb argument #0 of successor #0');
});

test('verifier: cond_br / assert condition not i1', () => {
  assert.is(errorOf(`func.func @f(%arg0: i32) {
  "cf.cond_br"(%arg0)[^bb1, ^bb1] <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  return
}`), "'cf.cond_br' op operand #0 must be 1-bit signless integer, but got 'i32'");
  assert.is(errorOf(`func.func @f(%arg0: i32) {
  "cf.assert"(%arg0) <{msg = "x"}> : (i32) -> ()
  return
}`), "'cf.assert' op operand #0 must be 1-bit signless integer, but got 'i32'");
});

test('verifier: switch case values', () => {
  assert.is(errorOf(`func.func @f(%arg0: i32) {
  "cf.switch"(%arg0)[^bb1, ^bb1] <{case_operand_segments = array<i32: 0>, case_values = dense<[1]> : vector<1xi64>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  return
}`), "'cf.switch' op 'flag' type ('i32') should match case value type ('i64')");
  assert.is(errorOf(`func.func @f(%arg0: i32) {
  "cf.switch"(%arg0)[^bb1, ^bb1] <{case_operand_segments = array<i32: 0>, case_values = dense<[1, 2]> : vector<2xi32>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  return
}`), "'cf.switch' op number of case values (2) should match number of case destinations (1)");
});

// mlir-opt 19 counts one predecessor per edge ("2 preds: ^bb0, ^bb0").
// Block.predecessors() (ir/ir.ts) lists a block once per edge, as mlir-opt's comments do.
const DUP = `module {
  func.func @f(%arg0: i1, %arg1: i32) {
    cf.cond_br %arg0, ^bb1, ^bb1
  ^bb1:  // 2 preds: ^bb0, ^bb0
    cf.switch %arg1 : i32, [
      default: ^bb2,
      1: ^bb2,
      2: ^bb3
    ]
  ^bb2:  // 2 preds: ^bb1, ^bb1
    cf.br ^bb3
  ^bb3:  // 2 preds: ^bb1, ^bb2
    return
  }
}
`;

test('predecessor comments count each edge', () => {
  assert.is(printModule(load(DUP)), DUP);
});

// mlir-opt 19 prints a one-element case_values as `dense<3> : vector<1xi32>`.
test('one-element case_values prints as a splat', () => {
  const text = `func.func @f(%arg0: i32) {
  cf.switch %arg0 : i32, [
    default: ^bb1,
    3: ^bb2
  ]
^bb1:
  cf.br ^bb2
^bb2:
  return
}
`;
  const g = printModule(load(text), { generic: true });
  assert.ok(g.includes('"cf.switch"(%arg0)[^bb1, ^bb2] <{case_operand_segments = array<i32: 0>, case_values = dense<3> : vector<1xi32>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()'), g);
});

test.run();
