// Real Triton 3.6 output with debug info, through mlir-opt 19 and back: our generic print (with
// and without locations) is accepted by mlir-opt, and what mlir-opt prints of it comes back from
// a trip through ours unchanged (mlir-opt's own generic print of both is byte-identical).
// TTGIR goes one way only here: mlir-opt keeps an unregistered dialect's attributes as opaque
// text and drops the aliases used only inside them (`#blocked1` in `#ttg.slice<{parent = #blocked1}>`).
// REQUIRES: mlir-opt
// RUN: triton-opt %S/../../examples/ttir/softmax_kernel.ttir --print-op-generic --mlir-print-debuginfo | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo -o %t.a
// RUN: triton-opt %t.a --print-op-generic --mlir-print-debuginfo | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo -o %t.b
// RUN: diff %t.a %t.b
// RUN: triton-opt %S/../../examples/ttir/matmul_kernel.sm90.ttgir --print-op-generic --mlir-print-debuginfo | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo -o %t.c
// RUN: triton-opt %S/../../examples/ttir/matmul_kernel.ttir --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic -o %t.e
// RUN: triton-opt %t.e --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic -o %t.f
// RUN: diff %t.e %t.f
// RUN: FileCheck %s --input-file=%t.c

// The block arguments' location aliases, defined before the module, survive the trip.
// CHECK: #[[FUNC:loc[0-9]*]] = loc("kernels.py":35:0)
// CHECK: = loc("a_ptr"(#[[FUNC]]))
// CHECK: "builtin.module"() ({
// CHECK: ^bb0(%arg0: !tt.ptr<f16> loc("a_ptr"(#[[FUNC]]))
// CHECK: "ttng.warp_group_dot"
