// mlir-opt 19 reads our float dense arrays with bit patterns and prints them as we do.
// REQUIRES: mlir-opt
// RUN: triton-opt %S/../ir/float-arrays.tir | mlir-opt | FileCheck %S/../ir/float-arrays.tir
