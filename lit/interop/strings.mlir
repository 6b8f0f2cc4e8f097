// mlir-opt 19 prints our string attributes (bytes, escapes, typed strings) exactly as we do.
// REQUIRES: mlir-opt
// RUN: mlir-opt %S/../ir/strings.tir | FileCheck %S/../ir/strings.tir
// RUN: triton-opt %S/../ir/strings.tir | mlir-opt | FileCheck %S/../ir/strings.tir
