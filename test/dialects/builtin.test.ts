/**
 * Tests of the builtin dialect table (dialects/builtin.ts) against mlir-opt 19.1.7: named and nested modules
 * with attributes, empty modules, unrealized_conversion_cast with 0/1/2 operands and results.
 * Expected texts were produced by /usr/lib/llvm-19/bin/mlir-opt (minus its trailing blank line).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { custom, expectError, generic, roundTrip, sameGeneric } from '../helpers/roundtrip.js';

// mlir-opt 19 custom form (plain run).
const CUSTOM = `module @outer attributes {tt.flag, tt.num_warps = 4 : i32, tt.target = "cuda:90"} {
  module @inner {
    func.func private @g()
  }
  module {
  }
  module attributes {tt.x = 1 : i32} {
  }
  module @b {
  }
  func.func @casts(%arg0: i32, %arg1: f32) -> (i64, f32) {
    %0 = builtin.unrealized_conversion_cast %arg0 : i32 to i64
    %1:2 = builtin.unrealized_conversion_cast %arg0, %arg1 : i32, f32 to i64, f32
    %2 = builtin.unrealized_conversion_cast to i32
    %3 = builtin.unrealized_conversion_cast %2 : i32 to tensor<4xf16>
    %4 = builtin.unrealized_conversion_cast %0 : i64 to i32 {tt.note}
    return %0, %1#1 : i64, f32
  }
}
`;

// mlir-opt 19 --mlir-print-op-generic output for the same input.
const GENERIC = `"builtin.module"() <{sym_name = "outer"}> ({
  "builtin.module"() <{sym_name = "inner"}> ({
    "func.func"() <{function_type = () -> (), sym_name = "g", sym_visibility = "private"}> ({
    }) : () -> ()
  }) : () -> ()
  "builtin.module"() ({
  ^bb0:
  }) : () -> ()
  "builtin.module"() ({
  ^bb0:
  }) {tt.x = 1 : i32} : () -> ()
  "builtin.module"() <{sym_name = "b"}> ({
  ^bb0:
  }) : () -> ()
  "func.func"() <{function_type = (i32, f32) -> (i64, f32), sym_name = "casts"}> ({
  ^bb0(%arg0: i32, %arg1: f32):
    %0 = "builtin.unrealized_conversion_cast"(%arg0) : (i32) -> i64
    %1:2 = "builtin.unrealized_conversion_cast"(%arg0, %arg1) : (i32, f32) -> (i64, f32)
    %2 = "builtin.unrealized_conversion_cast"() : () -> i32
    %3 = "builtin.unrealized_conversion_cast"(%2) : (i32) -> tensor<4xf16>
    %4 = "builtin.unrealized_conversion_cast"(%0) {tt.note} : (i64) -> i32
    "func.return"(%0, %1#1) : (i64, f32) -> ()
  }) : () -> ()
}) {tt.flag, tt.num_warps = 4 : i32, tt.target = "cuda:90"} : () -> ()
`;

test('builtin: every op round-trips in custom form exactly as mlir-opt prints it', () => {
  roundTrip(CUSTOM);
});

test('builtin: our generic form equals mlir-opt\'s (up to SSA numbering)', () => {
  sameGeneric(CUSTOM, GENERIC);
});

test('builtin: mlir-opt\'s generic form reads back to mlir-opt\'s custom form', () => {
  assert.fixture(custom(GENERIC), CUSTOM);
  assert.fixture(generic(generic(GENERIC)), generic(GENERIC));
});

test('builtin: an empty module prints an empty entry block in generic form, as mlir-opt does', () => {
  assert.fixture(generic('module {\n}\n'), `"builtin.module"() ({\n^bb0:\n}) : () -> ()\n`);
});

test('builtin: a module with no region body in the source gets one block', () => {
  assert.fixture(custom('module {\n}\n'), 'module {\n}\n');
  assert.fixture(custom('module @m attributes {tt.a = 1 : i32} {\n}\n'), 'module @m attributes {tt.a = 1 : i32} {\n}\n');
});

test('error (mlir-opt 19 message): builtin2', () => {
  expectError(`"builtin.module"() ({
^bb0(%arg0: i32):
}) : () -> ()
`, `'builtin.module' op region should have no arguments`);
});

test('error (mlir-opt 19 message): builtin3', () => {
  expectError(`"builtin.module"() ({
^bb0:
  "func.return"() : () -> ()
^bb1:
}) : () -> ()
`, `'builtin.module' op expects region #0 to have 0 or 1 blocks`);
});

test('error (mlir-opt 19 message): builtin4', () => {
  expectError(`module attributes {foo = 1 : i32} {
}
`, `'builtin.module' op can only contain attributes with dialect-prefixed names, found: 'foo'`);
});

test('error (mlir-opt 19 message): builtin5', () => {
  expectError(`module {
  func.func @f(%arg0: i32) {
    %0 = builtin.unrealized_conversion_cast %arg0 : i64 to f32
    return
  }
}
`, `use of value '%arg0' expects different type than prior uses: 'i64' vs 'i32'`);
});

test('error (mlir-opt 19 message): builtin6', () => {
  expectError(`module {
  module @a {
  }
  module @a {
  }
}
`, `redefinition of symbol named 'a'`);
});

test.run();
