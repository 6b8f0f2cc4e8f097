// mlir-opt 19 prints our NaN payloads (dense elements, dense arrays) exactly as it read them.
// REQUIRES: mlir-opt
// RUN: triton-opt %S/../ir/nan-payloads.tir --allow-unregistered-dialect > %t.ours
// RUN: mlir-opt --allow-unregistered-dialect %S/../ir/nan-payloads.tir | sed -e '${/^$/d}' > %t.theirs
// RUN: diff %t.ours %t.theirs
