// Interop for the builtin attributes and types of lit/ir/builtin-attrs-types.tir: our custom print is
// byte-identical to mlir-opt 19's, our generic print is accepted by mlir-opt and reads back as the
// input does there, and mlir-opt's generic print of the input comes back here as mlir-opt prints it.
// (mlir-opt ends its output with one more empty line than the printer writes; sed drops it.)
// REQUIRES: mlir-opt
// RUN: triton-opt %S/../ir/builtin-attrs-types.tir > %t.ours
// RUN: mlir-opt --allow-unregistered-dialect %S/../ir/builtin-attrs-types.tir | sed -e '${/^$/d}' > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: triton-opt %S/../ir/builtin-attrs-types.tir --print-op-generic | mlir-opt --allow-unregistered-dialect --verify-each --mlir-print-op-generic > %t.a
// RUN: mlir-opt --allow-unregistered-dialect %S/../ir/builtin-attrs-types.tir --mlir-print-op-generic > %t.b
// RUN: diff %t.a %t.b
// RUN: triton-opt %t.b > %t.back
// RUN: diff %t.back %t.theirs
// RUN: FileCheck %S/../ir/builtin-attrs-types.tir --input-file=%t.back
// RUN: triton-opt %S/../ir/zero-dim-shapes.tir --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic > %t.z1
// RUN: mlir-opt --allow-unregistered-dialect %S/../ir/zero-dim-shapes.tir --mlir-print-op-generic > %t.z2
// RUN: diff %t.z1 %t.z2
