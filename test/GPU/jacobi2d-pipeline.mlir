// imex-gpu-pipeline on examples/jacobi2d_gpu.mlir: kernels as PTX (format=isa,
// no toolkit needed), host code calling the GPU runtime.
// RUN: imex-opt %S/../../examples/jacobi2d_gpu.mlir -imex-gpu-pipeline="format=isa" -o %t
// RUN: FileCheck %s --input-file=%t --check-prefix=HOST
// RUN: FileCheck %s --input-file=%t --check-prefix=KERNELS
// RUN: FileCheck %s --input-file=%t --check-prefix=LOWERED

// Host code: device buffers, transfers, launches through the runtime.
// HOST-DAG: llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
// HOST-DAG: llvm.func @mgpuMemFree(!llvm.ptr, !llvm.ptr)
// HOST-DAG: llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
// HOST-DAG: llvm.func @mgpuStreamSynchronize(!llvm.ptr)
// HOST-DAG: gpu.launch_func <%{{.*}} : !llvm.ptr> @{{.*}}::@{{.*}} blocks in ({{.*}}) threads in ({{.*}})

// Kernels: one gpu.binary per outlined kernel, PTX for sm_80.
// KERNELS-DAG: gpu.binary @jacobi_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">, {{.*}}assembly = "{{.*}}.target sm_80{{.*}}.visible .entry jacobi_kernel(
// KERNELS-DAG: gpu.binary @main_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">, {{.*}}assembly = "{{.*}}.visible .entry main_kernel(

// Nothing above the LLVM dialect is left.
// LOWERED-NOT: memref.
// LOWERED-NOT: region.
// LOWERED-NOT: ndarray.
