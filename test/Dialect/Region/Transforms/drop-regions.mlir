// RUN: imex-opt %s -split-input-file -drop-regions | FileCheck %s

// CHECK-LABEL: func @inline_nested
// CHECK-SAME: (%[[A:.*]]: i64)
// CHECK-NOT: region.
// CHECK: %[[X:.*]] = arith.muli %[[A]], %[[A]]
// CHECK: %[[Y:.*]] = arith.addi %[[X]], %[[A]]
// CHECK: return %[[Y]], %[[X]]
func.func @inline_nested(%a: i64) -> (i64, i64) {
  %0:2 = region.env_region #region.gpu_env<device = "gpu"> %a : i64 -> i64, i64 {
    %x = arith.muli %a, %a : i64
    %y = region.env_region "inner" -> i64 {
      %s = arith.addi %x, %a : i64
      region.env_region_yield %s : i64
    }
    region.env_region_yield %y, %x : i64, i64
  }
  return %0#0, %0#1 : i64, i64
}
