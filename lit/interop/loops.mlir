// Upstream interop for scf/arith: our generic output is accepted by mlir-opt 19, and mlir-opt's
// generic output parses here and prints in custom form.
// REQUIRES: mlir-opt
// RUN: triton-opt %s --print-op-generic | mlir-opt --verify-each | FileCheck %s --check-prefix=UP
// RUN: mlir-opt %s --mlir-print-op-generic | triton-opt | FileCheck %s

// UP-LABEL: func.func @loops
// UP: scf.for %{{.*}} iter_args
// UP: scf.while
// UP: scf.condition

// CHECK-LABEL: func.func @loops(%arg0: index, %arg1: i32, %arg2: i1) -> (f32, i32) {
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[ACC:.*]] = scf.for %{{.*}} = %[[C0]] to %arg0 step %{{.*}} iter_args(%[[S:.*]] = %{{.*}}) -> (f32) {
// CHECK: scf.for %{{.*}} = %{{.*}} to %arg1 step %{{.*}}  : i32 {
// CHECK: %{{.*}} = scf.if %{{.*}} -> (f32) {
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: } else {
// CHECK: arith.addi %{{.*}}, %{{.*}} overflow<nsw> : i32
// CHECK: %{{.*}}:2 = scf.while (%{{.*}} = %arg1, %{{.*}} = %[[ACC]]) : (i32, f32) -> (i32, f32) {
// CHECK: scf.condition(%{{.*}}) %{{.*}}, %{{.*}} : i32, f32
// CHECK: } do {
// CHECK: scf.execute_region -> i32 {
// CHECK: return %{{.*}}#1, %{{.*}} : f32, i32
func.func @loops(%n: index, %k: i32, %flag: i1) -> (f32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1 : i32
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (f32) {
    %r = scf.for %j = %one to %k step %one iter_args(%t = %s) -> (f32) : i32 {
      %v = scf.if %flag -> (f32) {
        %x = arith.mulf %t, %t fastmath<contract> : f32
        scf.yield %x : f32
      } else {
        scf.yield %t : f32
      }
      %j2 = arith.addi %j, %one overflow<nsw> : i32
      scf.yield %v : f32
    }
    scf.yield %r : f32
  }
  %w:2 = scf.while (%x = %k, %y = %acc) : (i32, f32) -> (i32, f32) {
    %c = arith.cmpi sgt, %x, %one : i32
    scf.condition(%c) %x, %y : i32, f32
  } do {
  ^bb0(%x2: i32, %y2: f32):
    %x3 = arith.subi %x2, %one : i32
    scf.yield %x3, %y2 : i32, f32
  }
  %e = scf.execute_region -> i32 {
    %m = arith.muli %w#0, %k : i32
    scf.yield %m : i32
  }
  return %w#1, %e : f32, i32
}
