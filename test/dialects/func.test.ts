/**
 * Tests of the func dialect table (dialects/func.ts) against mlir-opt 19.1.7: declarations (private, nested,
 * public), argument/result attributes, function attributes, multiple results, func.call and func.return.
 * Expected texts were produced by /usr/lib/llvm-19/bin/mlir-opt (minus its trailing blank line).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { custom, expectError, generic, roundTrip, sameGeneric } from '../helpers/roundtrip.js';

// mlir-opt 19 custom form (plain run).
const CUSTOM = `module {
  func.func private @decl(i32, f32) -> i32
  func.func private @decl_attrs(i32 {tt.divisibility = 16 : i32}, f32) -> (i32 {tt.foo})
  func.func @no_args() {
    return
  }
  func.func nested @nested_vis(%arg0: i32) -> i32 {
    return %arg0 : i32
  }
  func.func @multi(%arg0: i32, %arg1: f32) -> (i32, f32) {
    return %arg0, %arg1 : i32, f32
  }
  func.func @arg_attrs(%arg0: i32 {tt.divisibility = 16 : i32}, %arg1: f32 {tt.a, tt.b = "x"}) -> (i32 {tt.res = 1 : i32}) attributes {noinline = false, tt.tag = [1, 2]} {
    return %arg0 : i32
  }
  func.func @calls(%arg0: i32, %arg1: f32) -> i32 {
    %0 = call @decl(%arg0, %arg1) : (i32, f32) -> i32
    %1:2 = call @multi(%0, %arg1) : (i32, f32) -> (i32, f32)
    call @no_args() : () -> ()
    %2 = call @decl(%1#0, %1#1) {tt.note = "hi"} : (i32, f32) -> i32
    return %2 : i32
  }
  func.func @blocks(%arg0: i1, %arg1: i32) -> i32 {
    cf.cond_br %arg0, ^bb1, ^bb2(%arg1 : i32)
  ^bb1:  // pred: ^bb0
    return %arg1 : i32
  ^bb2(%0: i32):  // pred: ^bb0
    return %0 : i32
  }
  func.func public @pub() {
    return
  }
}
`;

// mlir-opt 19 --mlir-print-op-generic output for the same input.
const GENERIC = `"builtin.module"() ({
  "func.func"() <{function_type = (i32, f32) -> i32, sym_name = "decl", sym_visibility = "private"}> ({
  }) : () -> ()
  "func.func"() <{arg_attrs = [{tt.divisibility = 16 : i32}, {}], function_type = (i32, f32) -> i32, res_attrs = [{tt.foo}], sym_name = "decl_attrs", sym_visibility = "private"}> ({
  }) : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "no_args"}> ({
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32) -> i32, sym_name = "nested_vis", sym_visibility = "nested"}> ({
  ^bb0(%arg8: i32):
    "func.return"(%arg8) : (i32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32, f32) -> (i32, f32), sym_name = "multi"}> ({
  ^bb0(%arg6: i32, %arg7: f32):
    "func.return"(%arg6, %arg7) : (i32, f32) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{tt.divisibility = 16 : i32}, {tt.a, tt.b = "x"}], function_type = (i32, f32) -> i32, res_attrs = [{tt.res = 1 : i32}], sym_name = "arg_attrs"}> ({
  ^bb0(%arg4: i32, %arg5: f32):
    "func.return"(%arg4) : (i32) -> ()
  }) {noinline = false, tt.tag = [1, 2]} : () -> ()
  "func.func"() <{function_type = (i32, f32) -> i32, sym_name = "calls"}> ({
  ^bb0(%arg2: i32, %arg3: f32):
    %1 = "func.call"(%arg2, %arg3) <{callee = @decl}> : (i32, f32) -> i32
    %2:2 = "func.call"(%1, %arg3) <{callee = @multi}> : (i32, f32) -> (i32, f32)
    "func.call"() <{callee = @no_args}> : () -> ()
    %3 = "func.call"(%2#0, %2#1) <{callee = @decl}> {tt.note = "hi"} : (i32, f32) -> i32
    "func.return"(%3) : (i32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i1, i32) -> i32, sym_name = "blocks"}> ({
  ^bb0(%arg0: i1, %arg1: i32):
    "cf.cond_br"(%arg0, %arg1)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (i1, i32) -> ()
  ^bb1:  // pred: ^bb0
    "func.return"(%arg1) : (i32) -> ()
  ^bb2(%0: i32):  // pred: ^bb0
    "func.return"(%0) : (i32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "pub", sym_visibility = "public"}> ({
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
`;

test('func: every op round-trips in custom form exactly as mlir-opt prints it', () => {
  roundTrip(CUSTOM);
});

test('func: our generic form equals mlir-opt\'s (up to SSA numbering)', () => {
  sameGeneric(CUSTOM, GENERIC);
});

test('func: mlir-opt\'s generic form reads back to mlir-opt\'s custom form', () => {
  assert.fixture(custom(GENERIC), CUSTOM);
  assert.fixture(generic(generic(GENERIC)), generic(GENERIC));
});

test('error (mlir-opt 19 message): func1', () => {
  expectError(`func.func @f(%arg0: i32) -> i32 {
  return
}
`, `'func.return' op has 0 operands, but enclosing function (@f) returns 1`);
});

test('error (mlir-opt 19 message): func10', () => {
  expectError(`func.func @f() {
  "func.return"() : () -> ()
}
"func.return"() : () -> ()
`, `'func.return' op expects parent op 'func.func'`);
});

test('error (mlir-opt 19 message): func2', () => {
  expectError(`func.func @f(%arg0: i32) -> i64 {
  return %arg0 : i32
}
`, `type of return operand 0 ('i32') doesn't match function result type ('i64') in function @f`);
});

test('error (mlir-opt 19 message): func3', () => {
  expectError(`func.func @f() {
  func.call @missing() : () -> ()
  return
}
`, `'func.call' op 'missing' does not reference a valid function`);
});

test('error (mlir-opt 19 message): func4', () => {
  expectError(`func.func private @g(i32) -> i32
func.func @f(%arg0: i64) {
  %0 = func.call @g(%arg0) : (i64) -> i32
  return
}
`, `'func.call' op operand type mismatch: expected operand type 'i32', but provided 'i64' for operand number 0`);
});

test('error (mlir-opt 19 message): func5', () => {
  expectError(`func.func private @g(i32) -> i32
func.func @f(%arg0: i32) {
  %0 = func.call @g(%arg0) : (i32) -> i64
  return
}
`, `'func.call' op result type mismatch at index 0`);
});

test('error (mlir-opt 19 message): func6', () => {
  expectError(`func.func private @g(i32) -> i32
func.func @f(%arg0: i32) {
  func.call @g(%arg0) : (i32) -> ()
  return
}
`, `'func.call' op incorrect number of results for callee`);
});

test('error (mlir-opt 19 message): func7', () => {
  expectError(`"func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
^bb0(%arg0: i64):
  "func.return"() : () -> ()
}) : () -> ()
`, `'func.func' op type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')`);
});

test('error (mlir-opt 19 message): func8', () => {
  expectError(`func.func @f() {
  return
}
func.func @f() {
  return
}
`, `redefinition of symbol named 'f'`);
});

test('error (mlir-opt 19 message): func9', () => {
  expectError(`func.func private @g(i32) -> i32
func.func @f(%arg0: i32) {
  func.call @g(%arg0, %arg0) : (i32, i32) -> i32
  return
}
`, `'func.call' op incorrect number of operands for callee`);
});

test.run();
