// Interop for the custom forms of lit/dialects/arith-func-extended.tir, scf-parallel-switch.tir and
// arith-constant-elements.tir:
// our custom print is byte-identical to mlir-opt 19's, and our generic print is accepted by mlir-opt
// and reads back there as the input does (compared through mlir-opt's own generic print).
// (mlir-opt ends its output with one more empty line than the printer writes; sed drops it.)
// REQUIRES: mlir-opt
// RUN: triton-opt %S/../dialects/arith-func-extended.tir > %t.ours1
// RUN: mlir-opt %S/../dialects/arith-func-extended.tir | sed -e '${/^$/d}' > %t.theirs1
// RUN: diff %t.ours1 %t.theirs1
// RUN: triton-opt %S/../dialects/arith-func-extended.tir --print-op-generic | mlir-opt --verify-each --mlir-print-op-generic > %t.a1
// RUN: mlir-opt %S/../dialects/arith-func-extended.tir --mlir-print-op-generic > %t.b1
// RUN: diff %t.a1 %t.b1
// RUN: triton-opt %t.b1 | FileCheck %S/../dialects/arith-func-extended.tir
// RUN: triton-opt %S/../dialects/scf-parallel-switch.tir > %t.ours2
// RUN: mlir-opt %S/../dialects/scf-parallel-switch.tir | sed -e '${/^$/d}' > %t.theirs2
// RUN: diff %t.ours2 %t.theirs2
// RUN: triton-opt %S/../dialects/scf-parallel-switch.tir --print-op-generic | mlir-opt --verify-each --mlir-print-op-generic > %t.a2
// RUN: mlir-opt %S/../dialects/scf-parallel-switch.tir --mlir-print-op-generic > %t.b2
// RUN: diff %t.a2 %t.b2
// RUN: triton-opt %t.b2 | FileCheck %S/../dialects/scf-parallel-switch.tir
// RUN: triton-opt %S/../dialects/arith-constant-elements.tir > %t.ours3
// RUN: mlir-opt %S/../dialects/arith-constant-elements.tir | sed -e '${/^$/d}' > %t.theirs3
// RUN: diff %t.ours3 %t.theirs3
// RUN: triton-opt %S/../dialects/arith-constant-elements.tir --print-op-generic | mlir-opt --verify-each --mlir-print-op-generic > %t.a3
// RUN: mlir-opt %S/../dialects/arith-constant-elements.tir --mlir-print-op-generic > %t.b3
// RUN: diff %t.a3 %t.b3
