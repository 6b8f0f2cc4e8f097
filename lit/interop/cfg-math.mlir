// Upstream interop for cf/math/func: our generic output is accepted by mlir-opt 19, and mlir-opt's
// generic output parses here and prints in custom form.
// REQUIRES: mlir-opt
// RUN: triton-opt %s --print-op-generic | mlir-opt --verify-each | FileCheck %s --check-prefix=UP
// RUN: mlir-opt %s --mlir-print-op-generic | triton-opt | FileCheck %s

// UP-LABEL: func.func @cfg
// UP: cf.cond_br
// UP: cf.switch
// UP-LABEL: func.func @math
// UP: math.exp %{{.*}} fastmath<fast>

// CHECK-LABEL: func.func @cfg(%arg0: i32, %arg1: f32) -> f32 {
// CHECK: cf.assert %{{.*}}, "positive"
// CHECK: cf.cond_br %{{.*}}, ^bb1(%arg1 : f32), ^bb2
// CHECK: ^bb1(%[[V:.*]]: f32):  // 3 preds: ^bb0, ^bb2, ^bb3
// CHECK: return %[[V]] : f32
// CHECK: ^bb2:  // pred: ^bb0
// CHECK: cf.switch %arg0 : i32, [
// CHECK-NEXT: default: ^bb1(%arg1 : f32),
// CHECK-NEXT: 7: ^bb3
// CHECK-NEXT: ]
// CHECK: cf.br ^bb1(%{{.*}} : f32)
// CHECK-LABEL: func.func @math(%arg0: f32, %arg1: tensor<8xf32>, %arg2: i32) -> f32 {
// CHECK: math.exp %arg1 fastmath<fast> : tensor<8xf32>
// CHECK: math.log %arg0 fastmath<nnan,ninf> : f32
// CHECK: math.fpowi %arg0, %arg2 : f32, i32
// CHECK: math.ctlz %arg2 : i32
// CHECK: call @cfg(%arg2, %{{.*}}) : (i32, f32) -> f32
func.func @cfg(%a: i32, %b: f32) -> f32 {
  %c0 = arith.constant 0 : i32
  %p = arith.cmpi sgt, %a, %c0 : i32
  cf.assert %p, "positive"
  cf.cond_br %p, ^ret(%b : f32), ^sw
^ret(%v: f32):
  return %v : f32
^sw:
  cf.switch %a : i32, [
    default: ^ret(%b : f32),
    7: ^seven
  ]
^seven:
  %d = arith.addf %b, %b : f32
  cf.br ^ret(%d : f32)
}
func.func @math(%x: f32, %t: tensor<8xf32>, %i: i32) -> f32 {
  %e = math.exp %t fastmath<fast> : tensor<8xf32>
  %l = math.log %x fastmath<nnan,ninf> : f32
  %p = math.fpowi %x, %i : f32, i32
  %c = math.ctlz %i : i32
  %s = arith.addf %l, %p : f32
  %r = func.call @cfg(%i, %s) : (i32, f32) -> f32
  return %r : f32
}
