// The CUDA toolkit accepts the kernels: ptxas assembles the PTX of every
// kernel, and format=bin (ptxas through gpu-module-to-binary) gives CUDA ELF
// files for the requested chip with a .text section per kernel.
// REQUIRES: ptxas
// RUN: imex-opt %S/../../examples/jacobi2d_gpu.mlir -imex-gpu-pipeline="format=isa" -o %t.isa.mlir
// RUN: %python %S/check_binaries.py ptx %t.isa.mlir | FileCheck %s
// RUN: imex-opt %S/../../examples/jacobi2d_gpu.mlir -imex-gpu-pipeline="format=bin chip=sm_90" -o %t.bin.mlir
// RUN: %python %S/check_binaries.py cubin %t.bin.mlir | FileCheck %s --check-prefix=CUBIN
// The default format is a cubin where ptxas is found.
// RUN: imex-opt %S/../../examples/jacobi2d_gpu.mlir -imex-gpu-pipeline -o %t.auto.mlir
// RUN: %python %S/check_binaries.py cubin %t.auto.mlir | FileCheck %s

// CHECK-DAG: main_kernel sm_80: main_kernel
// CHECK-DAG: jacobi_kernel sm_80: jacobi_kernel
// CUBIN-DAG: main_kernel sm_90: main_kernel
// CUBIN-DAG: jacobi_kernel sm_90: jacobi_kernel
