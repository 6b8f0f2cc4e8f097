/**
 * Tests of the arith dialect table (dialects/arith.ts) against mlir-opt 19.1.7: every op, overflow and
 * fastmath flags, all cmpi/cmpf predicates, select with a tensor condition, casts and constants of every
 * kind. Expected texts were produced by /usr/lib/llvm-19/bin/mlir-opt (minus its trailing blank line).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { custom, expectError, generic, roundTrip, sameGeneric } from '../helpers/roundtrip.js';

// mlir-opt 19 custom form of the @constants function (shared by the round-trip and normalization tests).
const CONSTANTS_AS_PRINTED = `  func.func @constants() {
    %true = arith.constant true
    %false = arith.constant false
    %c7_i8 = arith.constant 7 : i8
    %c-128_i8 = arith.constant -128 : i8
    %c42_i32 = arith.constant 42 : i32
    %c-1_i32 = arith.constant -1 : i32
    %c9223372036854775807_i64 = arith.constant 9223372036854775807 : i64
    %c-9223372036854775808_i64 = arith.constant -9223372036854775808 : i64
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c-3 = arith.constant -3 : index
    %cst = arith.constant 1.000000e+00 : f32
    %cst_0 = arith.constant -0.000000e+00 : f32
    %cst_1 = arith.constant 0.000000e+00 : f32
    %cst_2 = arith.constant 0x7F800000 : f32
    %cst_3 = arith.constant 0xFF800000 : f32
    %cst_4 = arith.constant 0x7FC00000 : f32
    %cst_5 = arith.constant 1.500000e+00 : f16
    %cst_6 = arith.constant 0x7C00 : f16
    %cst_7 = arith.constant -2.500000e-01 : bf16
    %cst_8 = arith.constant 3.1415926535897931 : f64
    %cst_9 = arith.constant 0x7FF8000000000000 : f64
    %cst_10 = arith.constant 1.000000e-10 : f64
    %cst_11 = arith.constant 3.40282347E+38 : f32
    %cst_12 = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %cst_13 = arith.constant dense<1> : tensor<4xi32>
    %cst_14 = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
    %cst_15 = arith.constant dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
    %cst_16 = arith.constant dense<true> : tensor<8xi1>
    %cst_17 = arith.constant dense<[true, false, true, false]> : tensor<4xi1>
    %cst_18 = arith.constant dense<-1> : tensor<2x3xi64>
    %cst_19 = arith.constant dense<[0x7F800000, -0.000000e+00]> : tensor<2xf32>
    %cst_20 = arith.constant dense<1.500000e+00> : tensor<4xf16>
    %cst_21 = arith.constant dense<[1, 2]> : tensor<2xindex>
    %c-1_i8 = arith.constant -1 : i8
    %cst_22 = arith.constant 1.000000e-01 : f32
    %cst_23 = arith.constant dense<-1> : tensor<2xi8>
    return
  }`;

// mlir-opt 19 custom form (plain run).
const CUSTOM = `module {
  func.func @ints(%arg0: i32, %arg1: i32, %arg2: index, %arg3: index, %arg4: tensor<4xi32>, %arg5: tensor<4xi32>) {
    %0 = arith.addi %arg0, %arg1 : i32
    %1 = arith.addi %arg0, %arg1 overflow<nsw> : i32
    %2 = arith.subi %arg0, %arg1 overflow<nuw> : i32
    %3 = arith.muli %arg0, %arg1 overflow<nsw, nuw> : i32
    %4 = arith.divsi %arg0, %arg1 : i32
    %5 = arith.divui %arg0, %arg1 : i32
    %6 = arith.ceildivsi %arg0, %arg1 : i32
    %7 = arith.ceildivui %arg0, %arg1 : i32
    %8 = arith.floordivsi %arg0, %arg1 : i32
    %9 = arith.remsi %arg0, %arg1 : i32
    %10 = arith.remui %arg0, %arg1 : i32
    %11 = arith.andi %arg0, %arg1 : i32
    %12 = arith.ori %arg0, %arg1 : i32
    %13 = arith.xori %arg0, %arg1 : i32
    %14 = arith.shli %arg0, %arg1 overflow<nsw> : i32
    %15 = arith.shrsi %arg0, %arg1 : i32
    %16 = arith.shrui %arg0, %arg1 : i32
    %17 = arith.maxsi %arg0, %arg1 : i32
    %18 = arith.maxui %arg0, %arg1 : i32
    %19 = arith.minsi %arg0, %arg1 : i32
    %20 = arith.minui %arg0, %arg1 : i32
    %21 = arith.addi %arg2, %arg3 : index
    %22 = arith.muli %arg4, %arg5 : tensor<4xi32>
    %23 = arith.cmpi eq, %arg0, %arg1 : i32
    %24 = arith.cmpi ne, %arg0, %arg1 : i32
    %25 = arith.cmpi slt, %arg0, %arg1 : i32
    %26 = arith.cmpi sle, %arg0, %arg1 : i32
    %27 = arith.cmpi sgt, %arg0, %arg1 : i32
    %28 = arith.cmpi sge, %arg0, %arg1 : i32
    %29 = arith.cmpi ult, %arg0, %arg1 : i32
    %30 = arith.cmpi ule, %arg0, %arg1 : i32
    %31 = arith.cmpi ugt, %arg0, %arg1 : i32
    %32 = arith.cmpi uge, %arg2, %arg3 : index
    %33 = arith.cmpi slt, %arg4, %arg5 : tensor<4xi32>
    %34 = arith.select %23, %arg0, %arg1 : i32
    %35 = arith.select %33, %arg4, %arg5 : tensor<4xi1>, tensor<4xi32>
    %36 = arith.select %23, %arg4, %arg5 : tensor<4xi32>
    return
  }
  func.func @floats(%arg0: f32, %arg1: f32, %arg2: tensor<4xf32>, %arg3: tensor<4xf32>) {
    %0 = arith.addf %arg0, %arg1 : f32
    %1 = arith.subf %arg0, %arg1 fastmath<fast> : f32
    %2 = arith.mulf %arg0, %arg1 fastmath<nnan,ninf> : f32
    %3 = arith.divf %arg0, %arg1 fastmath<reassoc,nsz,arcp,contract,afn> : f32
    %4 = arith.remf %arg0, %arg1 : f32
    %5 = arith.maximumf %arg0, %arg1 : f32
    %6 = arith.minimumf %arg0, %arg1 : f32
    %7 = arith.maxnumf %arg0, %arg1 : f32
    %8 = arith.minnumf %arg0, %arg1 : f32
    %9 = arith.negf %arg0 : f32
    %10 = arith.negf %arg2 fastmath<nnan> : tensor<4xf32>
    %11 = arith.addf %arg2, %arg3 : tensor<4xf32>
    %12 = arith.cmpf false, %arg0, %arg1 : f32
    %13 = arith.cmpf oeq, %arg0, %arg1 : f32
    %14 = arith.cmpf ogt, %arg0, %arg1 : f32
    %15 = arith.cmpf oge, %arg0, %arg1 : f32
    %16 = arith.cmpf olt, %arg0, %arg1 : f32
    %17 = arith.cmpf ole, %arg0, %arg1 : f32
    %18 = arith.cmpf one, %arg0, %arg1 : f32
    %19 = arith.cmpf ord, %arg0, %arg1 : f32
    %20 = arith.cmpf ueq, %arg0, %arg1 : f32
    %21 = arith.cmpf ugt, %arg0, %arg1 : f32
    %22 = arith.cmpf uge, %arg0, %arg1 : f32
    %23 = arith.cmpf ult, %arg0, %arg1 : f32
    %24 = arith.cmpf ule, %arg0, %arg1 : f32
    %25 = arith.cmpf une, %arg0, %arg1 : f32
    %26 = arith.cmpf uno, %arg0, %arg1 : f32
    %27 = arith.cmpf true, %arg0, %arg1 : f32
    %28 = arith.cmpf olt, %arg2, %arg3 fastmath<fast> : tensor<4xf32>
    %29 = arith.select %28, %arg2, %arg3 : tensor<4xi1>, tensor<4xf32>
    return
  }
  func.func @casts(%arg0: i8, %arg1: i32, %arg2: i64, %arg3: f16, %arg4: f32, %arg5: f64, %arg6: index, %arg7: tensor<4xi32>, %arg8: bf16) {
    %0 = arith.extsi %arg0 : i8 to i32
    %1 = arith.extui %arg0 : i8 to i64
    %2 = arith.trunci %arg2 : i64 to i32
    %3 = arith.extf %arg3 : f16 to f32
    %4 = arith.truncf %arg5 : f64 to f32
    %5 = arith.sitofp %arg1 : i32 to f32
    %6 = arith.uitofp %arg2 : i64 to f64
    %7 = arith.fptosi %arg4 : f32 to i32
    %8 = arith.fptoui %arg3 : f16 to i8
    %9 = arith.index_cast %arg6 : index to i32
    %10 = arith.index_cast %arg2 : i64 to index
    %11 = arith.index_castui %arg1 : i32 to index
    %12 = arith.bitcast %arg4 : f32 to i32
    %13 = arith.bitcast %arg1 : i32 to f32
    %14 = arith.extsi %arg7 : tensor<4xi32> to tensor<4xi64>
    %15 = arith.sitofp %arg7 : tensor<4xi32> to tensor<4xf32>
    %16 = arith.extf %arg8 : bf16 to f32
    %17 = arith.bitcast %arg3 : f16 to bf16
    return
  }
${CONSTANTS_AS_PRINTED}
}
`;

// mlir-opt 19 --mlir-print-op-generic output for the same input.
const GENERIC = `"builtin.module"() ({
  "func.func"() <{function_type = (i32, i32, index, index, tensor<4xi32>, tensor<4xi32>) -> (), sym_name = "ints"}> ({
  ^bb0(%arg13: i32, %arg14: i32, %arg15: index, %arg16: index, %arg17: tensor<4xi32>, %arg18: tensor<4xi32>):
    %85 = "arith.addi"(%arg13, %arg14) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %86 = "arith.addi"(%arg13, %arg14) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
    %87 = "arith.subi"(%arg13, %arg14) <{overflowFlags = #arith.overflow<nuw>}> : (i32, i32) -> i32
    %88 = "arith.muli"(%arg13, %arg14) <{overflowFlags = #arith.overflow<nsw, nuw>}> : (i32, i32) -> i32
    %89 = "arith.divsi"(%arg13, %arg14) : (i32, i32) -> i32
    %90 = "arith.divui"(%arg13, %arg14) : (i32, i32) -> i32
    %91 = "arith.ceildivsi"(%arg13, %arg14) : (i32, i32) -> i32
    %92 = "arith.ceildivui"(%arg13, %arg14) : (i32, i32) -> i32
    %93 = "arith.floordivsi"(%arg13, %arg14) : (i32, i32) -> i32
    %94 = "arith.remsi"(%arg13, %arg14) : (i32, i32) -> i32
    %95 = "arith.remui"(%arg13, %arg14) : (i32, i32) -> i32
    %96 = "arith.andi"(%arg13, %arg14) : (i32, i32) -> i32
    %97 = "arith.ori"(%arg13, %arg14) : (i32, i32) -> i32
    %98 = "arith.xori"(%arg13, %arg14) : (i32, i32) -> i32
    %99 = "arith.shli"(%arg13, %arg14) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
    %100 = "arith.shrsi"(%arg13, %arg14) : (i32, i32) -> i32
    %101 = "arith.shrui"(%arg13, %arg14) : (i32, i32) -> i32
    %102 = "arith.maxsi"(%arg13, %arg14) : (i32, i32) -> i32
    %103 = "arith.maxui"(%arg13, %arg14) : (i32, i32) -> i32
    %104 = "arith.minsi"(%arg13, %arg14) : (i32, i32) -> i32
    %105 = "arith.minui"(%arg13, %arg14) : (i32, i32) -> i32
    %106 = "arith.addi"(%arg15, %arg16) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
    %107 = "arith.muli"(%arg17, %arg18) <{overflowFlags = #arith.overflow<none>}> : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    %108 = "arith.cmpi"(%arg13, %arg14) <{predicate = 0 : i64}> : (i32, i32) -> i1
    %109 = "arith.cmpi"(%arg13, %arg14) <{predicate = 1 : i64}> : (i32, i32) -> i1
    %110 = "arith.cmpi"(%arg13, %arg14) <{predicate = 2 : i64}> : (i32, i32) -> i1
    %111 = "arith.cmpi"(%arg13, %arg14) <{predicate = 3 : i64}> : (i32, i32) -> i1
    %112 = "arith.cmpi"(%arg13, %arg14) <{predicate = 4 : i64}> : (i32, i32) -> i1
    %113 = "arith.cmpi"(%arg13, %arg14) <{predicate = 5 : i64}> : (i32, i32) -> i1
    %114 = "arith.cmpi"(%arg13, %arg14) <{predicate = 6 : i64}> : (i32, i32) -> i1
    %115 = "arith.cmpi"(%arg13, %arg14) <{predicate = 7 : i64}> : (i32, i32) -> i1
    %116 = "arith.cmpi"(%arg13, %arg14) <{predicate = 8 : i64}> : (i32, i32) -> i1
    %117 = "arith.cmpi"(%arg15, %arg16) <{predicate = 9 : i64}> : (index, index) -> i1
    %118 = "arith.cmpi"(%arg17, %arg18) <{predicate = 2 : i64}> : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %119 = "arith.select"(%108, %arg13, %arg14) : (i1, i32, i32) -> i32
    %120 = "arith.select"(%118, %arg17, %arg18) : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    %121 = "arith.select"(%108, %arg17, %arg18) : (i1, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (f32, f32, tensor<4xf32>, tensor<4xf32>) -> (), sym_name = "floats"}> ({
  ^bb0(%arg9: f32, %arg10: f32, %arg11: tensor<4xf32>, %arg12: tensor<4xf32>):
    %55 = "arith.addf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %56 = "arith.subf"(%arg9, %arg10) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
    %57 = "arith.mulf"(%arg9, %arg10) <{fastmath = #arith.fastmath<nnan,ninf>}> : (f32, f32) -> f32
    %58 = "arith.divf"(%arg9, %arg10) <{fastmath = #arith.fastmath<reassoc,nsz,arcp,contract,afn>}> : (f32, f32) -> f32
    %59 = "arith.remf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %60 = "arith.maximumf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %61 = "arith.minimumf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %62 = "arith.maxnumf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %63 = "arith.minnumf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %64 = "arith.negf"(%arg9) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %65 = "arith.negf"(%arg11) <{fastmath = #arith.fastmath<nnan>}> : (tensor<4xf32>) -> tensor<4xf32>
    %66 = "arith.addf"(%arg11, %arg12) <{fastmath = #arith.fastmath<none>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %67 = "arith.cmpf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>, predicate = 0 : i64}> : (f32, f32) -> i1
    %68 = "arith.cmpf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>, predicate = 1 : i64}> : (f32, f32) -> i1
    %69 = "arith.cmpf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>, predicate = 2 : i64}> : (f32, f32) -> i1
    %70 = "arith.cmpf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>, predicate = 3 : i64}> : (f32, f32) -> i1
    %71 = "arith.cmpf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>, predicate = 4 : i64}> : (f32, f32) -> i1
    %72 = "arith.cmpf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>, predicate = 5 : i64}> : (f32, f32) -> i1
    %73 = "arith.cmpf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>, predicate = 6 : i64}> : (f32, f32) -> i1
    %74 = "arith.cmpf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>, predicate = 7 : i64}> : (f32, f32) -> i1
    %75 = "arith.cmpf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>, predicate = 8 : i64}> : (f32, f32) -> i1
    %76 = "arith.cmpf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>, predicate = 9 : i64}> : (f32, f32) -> i1
    %77 = "arith.cmpf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>, predicate = 10 : i64}> : (f32, f32) -> i1
    %78 = "arith.cmpf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>, predicate = 11 : i64}> : (f32, f32) -> i1
    %79 = "arith.cmpf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>, predicate = 12 : i64}> : (f32, f32) -> i1
    %80 = "arith.cmpf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>, predicate = 13 : i64}> : (f32, f32) -> i1
    %81 = "arith.cmpf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>, predicate = 14 : i64}> : (f32, f32) -> i1
    %82 = "arith.cmpf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>, predicate = 15 : i64}> : (f32, f32) -> i1
    %83 = "arith.cmpf"(%arg11, %arg12) <{fastmath = #arith.fastmath<fast>, predicate = 4 : i64}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %84 = "arith.select"(%83, %arg11, %arg12) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i8, i32, i64, f16, f32, f64, index, tensor<4xi32>, bf16) -> (), sym_name = "casts"}> ({
  ^bb0(%arg0: i8, %arg1: i32, %arg2: i64, %arg3: f16, %arg4: f32, %arg5: f64, %arg6: index, %arg7: tensor<4xi32>, %arg8: bf16):
    %37 = "arith.extsi"(%arg0) : (i8) -> i32
    %38 = "arith.extui"(%arg0) : (i8) -> i64
    %39 = "arith.trunci"(%arg2) : (i64) -> i32
    %40 = "arith.extf"(%arg3) : (f16) -> f32
    %41 = "arith.truncf"(%arg5) : (f64) -> f32
    %42 = "arith.sitofp"(%arg1) : (i32) -> f32
    %43 = "arith.uitofp"(%arg2) : (i64) -> f64
    %44 = "arith.fptosi"(%arg4) : (f32) -> i32
    %45 = "arith.fptoui"(%arg3) : (f16) -> i8
    %46 = "arith.index_cast"(%arg6) : (index) -> i32
    %47 = "arith.index_cast"(%arg2) : (i64) -> index
    %48 = "arith.index_castui"(%arg1) : (i32) -> index
    %49 = "arith.bitcast"(%arg4) : (f32) -> i32
    %50 = "arith.bitcast"(%arg1) : (i32) -> f32
    %51 = "arith.extsi"(%arg7) : (tensor<4xi32>) -> tensor<4xi64>
    %52 = "arith.sitofp"(%arg7) : (tensor<4xi32>) -> tensor<4xf32>
    %53 = "arith.extf"(%arg8) : (bf16) -> f32
    %54 = "arith.bitcast"(%arg3) : (f16) -> bf16
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "constants"}> ({
    %0 = "arith.constant"() <{value = true}> : () -> i1
    %1 = "arith.constant"() <{value = false}> : () -> i1
    %2 = "arith.constant"() <{value = 7 : i8}> : () -> i8
    %3 = "arith.constant"() <{value = -128 : i8}> : () -> i8
    %4 = "arith.constant"() <{value = 42 : i32}> : () -> i32
    %5 = "arith.constant"() <{value = -1 : i32}> : () -> i32
    %6 = "arith.constant"() <{value = 9223372036854775807 : i64}> : () -> i64
    %7 = "arith.constant"() <{value = -9223372036854775808 : i64}> : () -> i64
    %8 = "arith.constant"() <{value = 0 : index}> : () -> index
    %9 = "arith.constant"() <{value = 64 : index}> : () -> index
    %10 = "arith.constant"() <{value = -3 : index}> : () -> index
    %11 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
    %12 = "arith.constant"() <{value = -0.000000e+00 : f32}> : () -> f32
    %13 = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32
    %14 = "arith.constant"() <{value = 0x7F800000 : f32}> : () -> f32
    %15 = "arith.constant"() <{value = 0xFF800000 : f32}> : () -> f32
    %16 = "arith.constant"() <{value = 0x7FC00000 : f32}> : () -> f32
    %17 = "arith.constant"() <{value = 1.500000e+00 : f16}> : () -> f16
    %18 = "arith.constant"() <{value = 0x7C00 : f16}> : () -> f16
    %19 = "arith.constant"() <{value = -2.500000e-01 : bf16}> : () -> bf16
    %20 = "arith.constant"() <{value = 3.1415926535897931 : f64}> : () -> f64
    %21 = "arith.constant"() <{value = 0x7FF8000000000000 : f64}> : () -> f64
    %22 = "arith.constant"() <{value = 1.000000e-10 : f64}> : () -> f64
    %23 = "arith.constant"() <{value = 3.40282347E+38 : f32}> : () -> f32
    %24 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<128x64xf32>}> : () -> tensor<128x64xf32>
    %25 = "arith.constant"() <{value = dense<1> : tensor<4xi32>}> : () -> tensor<4xi32>
    %26 = "arith.constant"() <{value = dense<[1, 2, 3, 4]> : tensor<4xi32>}> : () -> tensor<4xi32>
    %27 = "arith.constant"() <{value = dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>}> : () -> tensor<2x2xf32>
    %28 = "arith.constant"() <{value = dense<true> : tensor<8xi1>}> : () -> tensor<8xi1>
    %29 = "arith.constant"() <{value = dense<[true, false, true, false]> : tensor<4xi1>}> : () -> tensor<4xi1>
    %30 = "arith.constant"() <{value = dense<-1> : tensor<2x3xi64>}> : () -> tensor<2x3xi64>
    %31 = "arith.constant"() <{value = dense<[0x7F800000, -0.000000e+00]> : tensor<2xf32>}> : () -> tensor<2xf32>
    %32 = "arith.constant"() <{value = dense<1.500000e+00> : tensor<4xf16>}> : () -> tensor<4xf16>
    %33 = "arith.constant"() <{value = dense<[1, 2]> : tensor<2xindex>}> : () -> tensor<2xindex>
    %34 = "arith.constant"() <{value = -1 : i8}> : () -> i8
    %35 = "arith.constant"() <{value = 1.000000e-01 : f32}> : () -> f32
    %36 = "arith.constant"() <{value = dense<-1> : tensor<2xi8>}> : () -> tensor<2xi8>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
`;

test('arith: every op round-trips in custom form exactly as mlir-opt prints it', () => {
  roundTrip(CUSTOM);
});

test('arith: our generic form equals mlir-opt\'s (up to SSA numbering)', () => {
  sameGeneric(CUSTOM, GENERIC);
});

test('arith: mlir-opt\'s generic form reads back to mlir-opt\'s custom form', () => {
  assert.fixture(custom(GENERIC), CUSTOM);
  assert.fixture(generic(generic(GENERIC)), generic(GENERIC));
});

// Constants written loosely (unsigned i8, short floats, hex i8 splat) as mlir-opt 19 normalizes them.
test('arith: constants are normalized as mlir-opt prints them', () => {
  assert.fixture(custom(`func.func @constants() {
  %0 = arith.constant true
  %1 = arith.constant false
  %2 = arith.constant 7 : i8
  %3 = arith.constant -128 : i8
  %4 = arith.constant 42 : i32
  %5 = arith.constant -1 : i32
  %6 = arith.constant 9223372036854775807 : i64
  %7 = arith.constant -9223372036854775808 : i64
  %8 = arith.constant 0 : index
  %9 = arith.constant 64 : index
  %10 = arith.constant -3 : index
  %11 = arith.constant 1.000000e+00 : f32
  %12 = arith.constant -0.000000e+00 : f32
  %13 = arith.constant 0.000000e+00 : f32
  %14 = arith.constant 0x7F800000 : f32
  %15 = arith.constant 0xFF800000 : f32
  %16 = arith.constant 0x7FC00000 : f32
  %17 = arith.constant 1.500000e+00 : f16
  %18 = arith.constant 0x7C00 : f16
  %19 = arith.constant -2.500000e-01 : bf16
  %20 = arith.constant 3.1415926535897931 : f64
  %21 = arith.constant 0x7FF8000000000000 : f64
  %22 = arith.constant 1.0e-10 : f64
  %23 = arith.constant 3.40282347E+38 : f32
  %24 = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %25 = arith.constant dense<1> : tensor<4xi32>
  %26 = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %27 = arith.constant dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
  %28 = arith.constant dense<true> : tensor<8xi1>
  %29 = arith.constant dense<[true, false, true, false]> : tensor<4xi1>
  %30 = arith.constant dense<-1> : tensor<2x3xi64>
  %31 = arith.constant dense<[0x7F800000, -0.000000e+00]> : tensor<2xf32>
  %32 = arith.constant dense<1.500000e+00> : tensor<4xf16>
  %33 = arith.constant dense<[1, 2]> : tensor<2xindex>
  %34 = arith.constant 255 : i8
  %35 = arith.constant 0.1 : f32
  %36 = arith.constant dense<0xFF> : tensor<2xi8>
  return
}
`), `module {
${CONSTANTS_AS_PRINTED}
}
`);
});

test('arith: i64 / f64 constants keep their type in generic form (mlir-opt accepts nothing else for hex floats)', () => {
  const g = generic(`func.func @f() {
  %0 = arith.constant 0x7FF8000000000000 : f64
  %1 = arith.constant 5 : i64
  return
}`);
  assert.ok(g.includes('<{value = 0x7FF8000000000000 : f64}>'), g);
  assert.ok(g.includes('<{value = 5 : i64}>'), g);
});

test('error (mlir-opt 19 message): arith1', () => {
  expectError(`func.func @f(%arg0: i32) {
  %0 = arith.constant 1 : i64
  %1 = "arith.constant"() <{value = 1 : i64}> : () -> i32
  return
}
`, `'arith.constant' op failed to verify that all of {value, result} have same type`);
});

test('error (mlir-opt 19 message): arith11', () => {
  expectError(`func.func @f(%arg0: tensor<4xi32>) {
  %0 = arith.constant dense<1> : tensor<4xi64>
  %1 = "arith.constant"() <{value = dense<1> : tensor<4xi64>}> : () -> tensor<4xi32>
  return
}
`, `'arith.constant' op failed to verify that all of {value, result} have same type`);
});

test('error (mlir-opt 19 message): arith5', () => {
  expectError(`func.func @f(%arg0: i32, %arg1: i64) {
  %0 = "arith.addi"(%arg0, %arg1) : (i32, i64) -> i32
  return
}
`, `'arith.addi' op requires the same type for all operands and results`);
});

test('error (mlir-opt 19 message): arith6', () => {
  expectError(`func.func @f(%arg0: i32) {
  %0 = "arith.cmpi"(%arg0, %arg0) <{predicate = 2 : i64}> : (i32, i32) -> i32
  return
}
`, `'arith.cmpi' op result #0 must be bool-like, but got 'i32'`);
});

test('error (mlir-opt 19 message): arith2', () => {
  expectError(`func.func @f(%arg0: i32) {
  %0 = arith.extsi %arg0 : i32 to i32
  return
}
`, `'arith.extsi' op operand type 'i32' and result type 'i32' are cast incompatible`);
});

test('error (mlir-opt 19 message): arith3', () => {
  expectError(`func.func @f(%arg0: i32) {
  %0 = arith.trunci %arg0 : i32 to i64
  return
}
`, `'arith.trunci' op operand type 'i32' and result type 'i64' are cast incompatible`);
});

test('error (mlir-opt 19 message): arith4', () => {
  expectError(`func.func @f(%arg0: f32) {
  %0 = arith.addi %arg0, %arg0 : f32
  return
}
`, `'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'`);
});

test('error (mlir-opt 19 message): arith7', () => {
  expectError(`func.func @f(%arg0: tensor<4xi1>, %arg1: tensor<8xi32>) {
  %0 = arith.select %arg0, %arg1, %arg1 : tensor<4xi1>, tensor<8xi32>
  return
}
`, `'arith.select' op failed to verify that condition is signless i1 or has matching shape`);
});

test('error (mlir-opt 19 message): arith8', () => {
  expectError(`func.func @f(%arg0: f32) {
  %0 = arith.bitcast %arg0 : f32 to i64
  return
}
`, `'arith.bitcast' op operand type 'f32' and result type 'i64' are cast incompatible`);
});

test('error (mlir-opt 19 message): arith9', () => {
  expectError(`func.func @f(%arg0: f32) {
  %0 = arith.extf %arg0 : f32 to f16
  return
}
`, `'arith.extf' op operand type 'f32' and result type 'f16' are cast incompatible`);
});

// mlir-opt 19 says: custom op 'arith.cmpf' expected string or keyword containing one of the following enum values for attribute 'predicate' [false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno, true]
test('error detected: arith10', () => {
  expectError(`func.func @f(%arg0: f32) {
  %0 = arith.cmpf foo, %arg0, %arg0 : f32
  return
}
`, /predicate|cmpf/);
});

// mlir-opt 19 says: custom op 'arith.addf' expected ::mlir::arith::FastMathFlags to be one of: none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast
test('error detected: arith12', () => {
  expectError(`func.func @f(%arg0: f32) {
  %0 = arith.addf %arg0, %arg0 fastmath<bogus> : f32
  return
}
`, /fastmath|FastMath/.source ? /bogus|FastMath|fastmath/ : /x/);
});

test.run();
