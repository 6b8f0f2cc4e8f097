// Upstream interop for builtin/func: nested modules, declarations, attributes, casts.
// REQUIRES: mlir-opt
// RUN: triton-opt %s --print-op-generic | mlir-opt --verify-each | FileCheck %s --check-prefix=UP
// RUN: triton-opt %s | mlir-opt --verify-each | FileCheck %s --check-prefix=UP
// RUN: mlir-opt %s --mlir-print-op-generic | triton-opt | FileCheck %s

// UP: module @top attributes {tt.num_warps = 4 : i32}
// UP: func.func private @decl(i32 {tt.divisibility = 16 : i32}) -> i64
// UP: builtin.unrealized_conversion_cast

// CHECK-LABEL: module @top attributes {tt.num_warps = 4 : i32} {
// CHECK-NEXT: module @inner {
// CHECK-NEXT: func.func private @g(i32 {tt.divisibility = 16 : i32}) -> i64
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @decl(i32 {tt.divisibility = 16 : i32}) -> i64
// CHECK-NEXT: module {
// CHECK-NEXT: }
// CHECK: func.func @f(%arg0: i32) -> (i64, f32) attributes {tt.tag = [1, 2]} {
// CHECK-NEXT: %0 = call @decl(%arg0) : (i32) -> i64
// CHECK-NEXT: %1 = builtin.unrealized_conversion_cast %0 : i64 to f32
// CHECK-NEXT: %c42_i64 = arith.constant 42 : i64
// CHECK-NEXT: %cst = arith.constant 0x7FF8000000000000 : f64
// CHECK-NEXT: return %c42_i64, %1 : i64, f32
module @top attributes {tt.num_warps = 4 : i32} {
  module @inner {
    func.func private @g(i32 {tt.divisibility = 16 : i32}) -> i64
  }
  func.func private @decl(i32 {tt.divisibility = 16 : i32}) -> i64
  module {
  }
  func.func @f(%a: i32) -> (i64, f32) attributes {tt.tag = [1, 2]} {
    %0 = func.call @decl(%a) : (i32) -> i64
    %1 = builtin.unrealized_conversion_cast %0 : i64 to f32
    %2 = arith.constant 42 : i64
    %3 = arith.constant 0x7FF8000000000000 : f64
    return %2, %1 : i64, f32
  }
}
