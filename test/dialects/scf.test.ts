/**
 * Tests of the scf dialect table (dialects/scf.ts) against mlir-opt 19.1.7: scf.for (index and i32 IVs, with
 * and without iter_args), scf.if (with/without results and else), scf.while/scf.condition, scf.execute_region,
 * scf.yield. Expected texts were produced by /usr/lib/llvm-19/bin/mlir-opt (minus its trailing blank line).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { custom, expectError, generic, roundTrip, sameGeneric } from '../helpers/roundtrip.js';

// mlir-opt 19 custom form (plain run).
const CUSTOM = `module {
  func.func @loops(%arg0: index, %arg1: index, %arg2: index, %arg3: i32, %arg4: i32, %arg5: f32, %arg6: i1) -> f32 {
    scf.for %arg7 = %arg0 to %arg1 step %arg2 {
      %8 = arith.addi %arg7, %arg7 : index
    }
    scf.for %arg7 = %arg3 to %arg4 step %arg3  : i32 {
      %8 = arith.addi %arg7, %arg7 : i32
    }
    %0 = scf.for %arg7 = %arg0 to %arg1 step %arg2 iter_args(%arg8 = %arg5) -> (f32) {
      %8 = arith.addf %arg8, %arg8 : f32
      scf.yield %8 : f32
    }
    %1:2 = scf.for %arg7 = %arg3 to %arg4 step %arg3 iter_args(%arg8 = %arg5, %arg9 = %arg3) -> (f32, i32)  : i32 {
      %8 = arith.addi %arg9, %arg7 : i32
      scf.yield %arg8, %8 : f32, i32
    }
    scf.if %arg6 {
      %8 = arith.addi %arg3, %arg4 : i32
    }
    scf.if %arg6 {
      %8 = arith.addi %arg3, %arg4 : i32
    } else {
      %8 = arith.subi %arg3, %arg4 : i32
    }
    %2 = scf.if %arg6 -> (f32) {
      scf.yield %arg5 : f32
    } else {
      %8 = arith.negf %arg5 : f32
      scf.yield %8 : f32
    }
    %3:2 = scf.if %arg6 -> (i32, f32) {
      scf.yield %arg3, %arg5 : i32, f32
    } else {
      scf.yield %arg4, %0 : i32, f32
    }
    %4:2 = scf.while (%arg7 = %arg3, %arg8 = %arg5) : (i32, f32) -> (i32, f32) {
      %8 = arith.cmpi slt, %arg7, %arg4 : i32
      scf.condition(%8) %arg7, %arg8 : i32, f32
    } do {
    ^bb0(%arg7: i32, %arg8: f32):
      %8 = arith.addi %arg7, %arg3 : i32
      scf.yield %8, %arg8 : i32, f32
    }
    scf.while : () -> () {
      scf.condition(%arg6)
    } do {
      scf.yield
    }
    %5 = scf.while (%arg7 = %arg3) : (i32) -> f32 {
      %8 = arith.sitofp %arg7 : i32 to f32
      scf.condition(%arg6) %8 : f32
    } do {
    ^bb0(%arg7: f32):
      scf.yield %arg3 : i32
    } attributes {tag = "w"}
    %6 = scf.execute_region -> i32 {
      %8 = arith.addi %arg3, %arg4 : i32
      scf.yield %8 : i32
    }
    scf.execute_region {
      scf.yield
    }
    %7:2 = scf.execute_region -> (i32, f32) {
      cf.br ^bb1
    ^bb1:  // pred: ^bb0
      scf.yield %arg3, %arg5 : i32, f32
    }
    scf.for %arg7 = %arg0 to %arg1 step %arg2 {
      scf.if %arg6 {
        scf.for %arg8 = %arg7 to %arg1 step %arg2 {
        }
      }
    } {loop_tag = 1 : i32}
    return %2 : f32
  }
}
`;

// mlir-opt 19 --mlir-print-op-generic output for the same input.
const GENERIC = `"builtin.module"() ({
  "func.func"() <{function_type = (index, index, index, i32, i32, f32, i1) -> f32, sym_name = "loops"}> ({
  ^bb0(%arg0: index, %arg1: index, %arg2: index, %arg3: i32, %arg4: i32, %arg5: f32, %arg6: i1):
    "scf.for"(%arg0, %arg1, %arg2) ({
    ^bb0(%arg21: index):
      %19 = "arith.addi"(%arg21, %arg21) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "scf.for"(%arg3, %arg4, %arg3) ({
    ^bb0(%arg20: i32):
      %18 = "arith.addi"(%arg20, %arg20) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
      "scf.yield"() : () -> ()
    }) : (i32, i32, i32) -> ()
    %0 = "scf.for"(%arg0, %arg1, %arg2, %arg5) ({
    ^bb0(%arg18: index, %arg19: f32):
      %17 = "arith.addf"(%arg19, %arg19) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      "scf.yield"(%17) : (f32) -> ()
    }) : (index, index, index, f32) -> f32
    %1:2 = "scf.for"(%arg3, %arg4, %arg3, %arg5, %arg3) ({
    ^bb0(%arg15: i32, %arg16: f32, %arg17: i32):
      %16 = "arith.addi"(%arg17, %arg15) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
      "scf.yield"(%arg16, %16) : (f32, i32) -> ()
    }) : (i32, i32, i32, f32, i32) -> (f32, i32)
    "scf.if"(%arg6) ({
      %15 = "arith.addi"(%arg3, %arg4) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
      "scf.yield"() : () -> ()
    }, {
    }) : (i1) -> ()
    "scf.if"(%arg6) ({
      %14 = "arith.addi"(%arg3, %arg4) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
      "scf.yield"() : () -> ()
    }, {
      %13 = "arith.subi"(%arg3, %arg4) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
      "scf.yield"() : () -> ()
    }) : (i1) -> ()
    %2 = "scf.if"(%arg6) ({
      "scf.yield"(%arg5) : (f32) -> ()
    }, {
      %12 = "arith.negf"(%arg5) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
      "scf.yield"(%12) : (f32) -> ()
    }) : (i1) -> f32
    %3:2 = "scf.if"(%arg6) ({
      "scf.yield"(%arg3, %arg5) : (i32, f32) -> ()
    }, {
      "scf.yield"(%arg4, %0) : (i32, f32) -> ()
    }) : (i1) -> (i32, f32)
    %4:2 = "scf.while"(%arg3, %arg5) ({
    ^bb0(%arg13: i32, %arg14: f32):
      %11 = "arith.cmpi"(%arg13, %arg4) <{predicate = 2 : i64}> : (i32, i32) -> i1
      "scf.condition"(%11, %arg13, %arg14) : (i1, i32, f32) -> ()
    }, {
    ^bb0(%arg11: i32, %arg12: f32):
      %10 = "arith.addi"(%arg11, %arg3) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
      "scf.yield"(%10, %arg12) : (i32, f32) -> ()
    }) : (i32, f32) -> (i32, f32)
    "scf.while"() ({
      "scf.condition"(%arg6) : (i1) -> ()
    }, {
      "scf.yield"() : () -> ()
    }) : () -> ()
    %5 = "scf.while"(%arg3) ({
    ^bb0(%arg10: i32):
      %9 = "arith.sitofp"(%arg10) : (i32) -> f32
      "scf.condition"(%arg6, %9) : (i1, f32) -> ()
    }, {
    ^bb0(%arg9: f32):
      "scf.yield"(%arg3) : (i32) -> ()
    }) {tag = "w"} : (i32) -> f32
    %6 = "scf.execute_region"() ({
      %8 = "arith.addi"(%arg3, %arg4) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
      "scf.yield"(%8) : (i32) -> ()
    }) : () -> i32
    "scf.execute_region"() ({
      "scf.yield"() : () -> ()
    }) : () -> ()
    %7:2 = "scf.execute_region"() ({
      "cf.br"()[^bb1] : () -> ()
    ^bb1:  // pred: ^bb0
      "scf.yield"(%arg3, %arg5) : (i32, f32) -> ()
    }) : () -> (i32, f32)
    "scf.for"(%arg0, %arg1, %arg2) ({
    ^bb0(%arg7: index):
      "scf.if"(%arg6) ({
        "scf.for"(%arg7, %arg1, %arg2) ({
        ^bb0(%arg8: index):
          "scf.yield"() : () -> ()
        }) : (index, index, index) -> ()
        "scf.yield"() : () -> ()
      }, {
      }) : (i1) -> ()
      "scf.yield"() : () -> ()
    }) {loop_tag = 1 : i32} : (index, index, index) -> ()
    "func.return"(%2) : (f32) -> ()
  }) : () -> ()
}) : () -> ()
`;

test('scf: every op round-trips in custom form exactly as mlir-opt prints it', () => {
  roundTrip(CUSTOM);
});

test('scf: our generic form equals mlir-opt\'s (up to SSA numbering)', () => {
  sameGeneric(CUSTOM, GENERIC);
});

test('scf: mlir-opt\'s generic form reads back to mlir-opt\'s custom form', () => {
  assert.fixture(custom(GENERIC), CUSTOM);
  assert.fixture(generic(generic(GENERIC)), generic(GENERIC));
});

test('error (mlir-opt 19 message): scf2', () => {
  expectError(`func.func @f(%arg0: i1, %arg1: i32) {
  %0 = scf.if %arg0 -> (i32) {
    scf.yield %arg1 : i32
  }
  return
}
`, `'scf.if' op must have an else block if defining values`);
});

test('error (mlir-opt 19 message): scf4', () => {
  expectError(`func.func @f(%arg0: index, %arg1: i32) {
  "scf.for"(%arg0, %arg0, %arg0) ({
  ^bb0(%i: i32):
    scf.yield
  }) : (index, index, index) -> ()
  return
}
`, `'scf.for' op expected induction variable to be same type as bounds and step`);
});

test('error (mlir-opt 19 message): scf3', () => {
  expectError(`func.func @f(%arg0: i1, %arg1: i32, %arg2: i64) {
  %0 = scf.if %arg0 -> (i32) {
    scf.yield %arg2 : i64
  } else {
    scf.yield %arg1 : i32
  }
  return
}
`, `'scf.if' op  along control flow edge from Region #0 to parent results: source type #0 'i64' should match input type #0 'i32'`);
});

test('error (mlir-opt 19 message): scf1', () => {
  expectError(`func.func @f(%arg0: index, %arg1: i32) {
  scf.for %i = %arg0 to %arg0 step %arg0 iter_args(%x = %arg1) -> (i32) {
    scf.yield
  }
  return
}
`, `'scf.for' op  region control flow edge from Region #0 to Region #0: source has 0 operands, but target successor needs 1`);
});

test('error (mlir-opt 19 message): scf5', () => {
  expectError(`func.func @f(%arg0: i32) {
  %0 = scf.while (%a = %arg0) : (i32) -> i32 {
    %c = arith.constant true
    scf.condition(%c)
  } do {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }
  return
}
`, `'scf.while' op  region control flow edge from Region #0 to parent results: source has 0 operands, but target successor needs 1`);
});

test('error (mlir-opt 19 message): scf6', () => {
  expectError(`func.func @f(%arg0: i1) {
  scf.condition(%arg0)
  return
}
`, `'scf.condition' op expects parent op 'scf.while'`);
});

test('error (mlir-opt 19 message): scf7', () => {
  expectError(`func.func @f(%arg0: index, %arg1: i32) {
  %0 = scf.for %i = %arg0 to %arg0 step %arg0 iter_args(%x = %arg1) -> (i32) {
    %c = arith.constant 1 : i64
    scf.yield %c : i64
  }
  return
}
`, `'scf.for' op 0-th region iter_arg and 0-th yielded value have different type: 'i32' != 'i64'`);
});

test('error (mlir-opt 19 message): scf8', () => {
  expectError(`func.func @f(%arg0: i32) {
  scf.yield
}
`, `'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'`);
});

test.run();
