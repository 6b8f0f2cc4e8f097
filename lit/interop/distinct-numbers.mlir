// distinct[N] attributes print renumbered from 0 in the order of the printed text, as mlir-opt 19
// does: the aliased ones first (their definitions come before the module), then the body's.
// REQUIRES: mlir-opt
// RUN: triton-opt %s > %t.ours
// RUN: mlir-opt --allow-unregistered-dialect %s | sed -e '${/^$/d}' > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: triton-opt %s --mlir-print-local-scope > %t.ours2
// RUN: mlir-opt --allow-unregistered-dialect %s --mlir-print-local-scope | sed -e '${/^$/d}' > %t.theirs2
// RUN: diff %t.ours2 %t.theirs2
// RUN: triton-opt %s | FileCheck %s

// CHECK: #distinct = distinct[0]<42 : i32>
// CHECK-NEXT: #distinct1 = distinct[1]<"s">
// CHECK-NEXT: module attributes {x.a = #distinct, x.b = distinct[2]<>, x.c = #distinct1} {
// CHECK-NEXT:   func.func @f() attributes {y = distinct[2]<>, z = distinct[3]<>} {
module attributes {x.a = distinct[7]<42 : i32>, x.b = distinct[3]<>, x.c = distinct[9]<"s">} {
  func.func @f() attributes {y = distinct[3]<>, z = distinct[11]<>} {
    return
  }
}
