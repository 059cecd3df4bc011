// RUN: imex-opt %s -split-input-file -imex-linalg-to-blas | FileCheck %s

// A matrix product on buffers: one call with the base buffers, offsets and
// (row, column) strides of A (m x k), B (k x n) and C (m x n), then m, n, k.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf64, strided<[?, ?], offset: ?>>, %[[B:.*]]: memref<?x?xf64>, %[[C:.*]]: memref<?x?xf64>)
// CHECK: %[[ABASE:.*]], %[[AOFF:.*]], %{{.*}}:2, %[[ASTR:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[BBASE:.*]], %[[BOFF:.*]], %{{.*}}:2, %[[BSTR:.*]]:2 = memref.extract_strided_metadata %[[B]]
// CHECK: %[[CBASE:.*]], %[[COFF:.*]], %{{.*}}:2, %[[CSTR:.*]]:2 = memref.extract_strided_metadata %[[C]]
// CHECK-DAG: %[[M:.*]] = memref.dim %[[A]], %c0
// CHECK-DAG: %[[N:.*]] = memref.dim %[[B]], %c1
// CHECK-DAG: %[[K:.*]] = memref.dim %[[A]], %c1
// CHECK: call @_imex_blas_gemm_f64(%[[ABASE]], %[[AOFF]], %[[ASTR]]#0, %[[ASTR]]#1, %[[BBASE]], %[[BOFF]], %[[BSTR]]#0, %[[BSTR]]#1, %[[CBASE]], %[[COFF]], %[[CSTR]]#0, %[[CSTR]]#1, %[[M]], %[[N]], %[[K]])
// CHECK-NOT: linalg.matmul
// CHECK: func.func private @_imex_blas_gemm_f64(memref<f64>, index, index, index, memref<f64>, index, index, index, memref<f64>, index, index, index, index, index, index)
func.func @matmul(%a: memref<?x?xf64, strided<[?, ?], offset: ?>>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  linalg.matmul ins(%a, %b : memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64>) outs(%c : memref<?x?xf64>)
  return
}

// -----

// A stack of products (the batch dimension of the first input broadcast
// nowhere) and a vector times a matrix: a loop over the batch, offsets
// advanced by the batch strides; a vector's missing m is a unit dimension
// with stride 0.
// CHECK-LABEL: func.func @batch
// CHECK: scf.for %[[I:.*]] =
// CHECK: arith.muli %[[I]]
// CHECK: call @_imex_blas_gemm_c64(
// CHECK-LABEL: func.func @vector_matrix
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: call @_imex_blas_gemm_f32(%{{.*}}, %{{.*}}, %[[Z]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[Z]], %{{.*}}, %[[ONE]], %{{.*}}, %{{.*}})
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#b = affine_map<(b, m, n, k) -> (b, k, n)>
#c = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batch(%a: memref<2x3x4xcomplex<f32>>, %b: memref<2x4x5xcomplex<f32>>, %c: memref<2x3x5xcomplex<f32>>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : memref<2x3x4xcomplex<f32>>, memref<2x4x5xcomplex<f32>>) outs(%c : memref<2x3x5xcomplex<f32>>) {
  ^bb0(%x: complex<f32>, %y: complex<f32>, %acc: complex<f32>):
    %p = complex.mul %x, %y : complex<f32>
    %s = complex.add %acc, %p : complex<f32>
    linalg.yield %s : complex<f32>
  }
  return
}
func.func @vector_matrix(%v: memref<4xf32>, %b: memref<4x5xf32>, %c: memref<5xf32>) {
  linalg.vecmat ins(%v, %b : memref<4xf32>, memref<4x5xf32>) outs(%c : memref<5xf32>)
  return
}

// -----

// Integer products, products with conversions, dot products (no m, no n)
// and tensors stay.
// CHECK-LABEL: func.func @integers
// CHECK: linalg.matmul
// CHECK-LABEL: func.func @converted
// CHECK: linalg.generic
// CHECK-LABEL: func.func @dot
// CHECK: linalg.dot
// CHECK-LABEL: func.func @tensors
// CHECK: linalg.matmul
// CHECK-NOT: call
func.func @integers(%a: memref<3x4xi64>, %b: memref<4x5xi64>, %c: memref<3x5xi64>) {
  linalg.matmul ins(%a, %b : memref<3x4xi64>, memref<4x5xi64>) outs(%c : memref<3x5xi64>)
  return
}
#ma = affine_map<(m, n, k) -> (m, k)>
#mb = affine_map<(m, n, k) -> (k, n)>
#mc = affine_map<(m, n, k) -> (m, n)>
func.func @converted(%a: memref<3x4xf32>, %b: memref<4x5xf32>, %c: memref<3x5xf64>) {
  linalg.generic {indexing_maps = [#ma, #mb, #mc], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<3x4xf32>, memref<4x5xf32>) outs(%c : memref<3x5xf64>) {
  ^bb0(%x: f32, %y: f32, %acc: f64):
    %p = arith.mulf %x, %y : f32
    %e = arith.extf %p : f32 to f64
    %s = arith.addf %acc, %e : f64
    linalg.yield %s : f64
  }
  return
}
func.func @dot(%a: memref<4xf64>, %b: memref<4xf64>, %c: memref<f64>) {
  linalg.dot ins(%a, %b : memref<4xf64>, memref<4xf64>) outs(%c : memref<f64>)
  return
}
func.func @tensors(%a: tensor<3x4xf64>, %b: tensor<4x5xf64>, %c: tensor<3x5xf64>) -> tensor<3x5xf64> {
  %r = linalg.matmul ins(%a, %b : tensor<3x4xf64>, tensor<4x5xf64>) outs(%c : tensor<3x5xf64>) -> tensor<3x5xf64>
  return %r : tensor<3x5xf64>
}
