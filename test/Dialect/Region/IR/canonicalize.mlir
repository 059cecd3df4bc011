// RUN: imex-opt %s -split-input-file -canonicalize | FileCheck %s

// Adjacent regions with equal environments merge; uses of the first
// region's results inside the second see the yielded values.
// CHECK-LABEL: func @merge_adjacent
// CHECK-SAME: (%[[A:.*]]: i64, %[[B:.*]]: i64)
// CHECK: %[[R:.*]]:2 = region.env_region "gpu" %[[A]], %[[B]] : i64, i64 -> i64, i64 {
// CHECK:   %[[X:.*]] = arith.muli %[[A]], %[[A]]
// CHECK:   %[[Y:.*]] = arith.addi %[[X]], %[[B]]
// CHECK:   region.env_region_yield %[[X]], %[[Y]] : i64, i64
// CHECK: }
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @merge_adjacent(%a: i64, %b: i64) -> (i64, i64) {
  %0 = region.env_region "gpu" %a : i64 -> i64 {
    %x = arith.muli %a, %a : i64
    region.env_region_yield %x : i64
  }
  %1 = region.env_region "gpu" %b : i64 -> i64 {
    %y = arith.addi %0, %b : i64
    region.env_region_yield %y : i64
  }
  return %0, %1 : i64, i64
}

// -----

// CHECK-LABEL: func @different_environments
// CHECK: region.env_region "gpu"
// CHECK: region.env_region "cpu"
func.func @different_environments(%a: i64) -> (i64, i64) {
  %0 = region.env_region "gpu" -> i64 {
    %x = arith.muli %a, %a : i64
    region.env_region_yield %x : i64
  }
  %1 = region.env_region "cpu" -> i64 {
    %y = arith.addi %a, %a : i64
    region.env_region_yield %y : i64
  }
  return %0, %1 : i64, i64
}

// -----

// Regions separated by another op are not merged.
// CHECK-LABEL: func @not_adjacent
// CHECK-COUNT-2: region.env_region "gpu"
func.func @not_adjacent(%a: i64) -> (i64, i64, i64) {
  %0 = region.env_region "gpu" -> i64 {
    %x = arith.muli %a, %a : i64
    region.env_region_yield %x : i64
  }
  %m = arith.subi %0, %a : i64
  %1 = region.env_region "gpu" -> i64 {
    %y = arith.muli %m, %a : i64
    region.env_region_yield %y : i64
  }
  return %0, %m, %1 : i64, i64, i64
}

// -----

// Unused, duplicated and forwarded results are dropped.
// CHECK-LABEL: func @cleanup_results
// CHECK-SAME: (%[[A:.*]]: i64)
// CHECK: %[[R:.*]] = region.env_region "gpu" -> i64 {
// CHECK:   %[[X:.*]] = arith.muli
// CHECK:   region.env_region_yield %[[X]] : i64
// CHECK: return %[[R]], %[[R]], %[[A]]
func.func @cleanup_results(%a: i64) -> (i64, i64, i64) {
  %0:4 = region.env_region "gpu" -> i64, i64, i64, i64 {
    %x = arith.muli %a, %a : i64
    %y = arith.addi %a, %a : i64
    region.env_region_yield %x, %x, %a, %y : i64, i64, i64, i64
  }
  return %0#0, %0#1, %0#2 : i64, i64, i64
}

// -----

// CHECK-LABEL: func @erase_empty
// CHECK-SAME: (%[[A:.*]]: i64)
// CHECK-NOT: region.env_region
// CHECK: return %[[A]]
func.func @erase_empty(%a: i64) -> i64 {
  region.env_region "gpu" %a : i64 {
  }
  %0 = region.env_region "gpu" -> i64 {
    region.env_region_yield %a : i64
  }
  return %0 : i64
}

// -----

// Regions with side effects inside are kept.
// CHECK-LABEL: func @keep_side_effects
// CHECK: region.env_region "gpu"
// CHECK: ndarray.delete
func.func @keep_side_effects(%a: !ndarray.ndarray<4xf32>) {
  region.env_region "gpu" {
    ndarray.delete %a : !ndarray.ndarray<4xf32>
  }
  return
}
