func.func @f() -> i64 {
  %0 = arith.constant 1 : i32
  %1 = "arith.addi"(%0, %0) : (i32, i32) -> i64
  return %1 : i64
}
