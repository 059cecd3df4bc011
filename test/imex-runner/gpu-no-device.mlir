// Without a CUDA device, a GPU program is still compiled (kernels included),
// then imex-runner says in one line why it cannot run it and exits with 77.
// REQUIRES: cuda-runtime, !cuda-device
// RUN: bash -c 'imex-runner --no-cache %S/../../examples/jacobi2d_gpu.mlir; echo "exit status $?"' 2>&1 | FileCheck %s
// Under the stub library of the toolkit (as in containers without a
// driver), the same, naming the stub.
// RUN: rm -rf %t.stub && mkdir -p %t.stub
// RUN: ln -sf /usr/local/cuda/lib64/stubs/libcuda.so %t.stub/libcuda.so.1
// RUN: bash -c 'LD_LIBRARY_PATH=%t.stub imex-runner --no-cache %S/../../examples/jacobi2d_gpu.mlir; echo "exit status $?"' 2>&1 | FileCheck %s --check-prefix=STUB
// A GPU program lowered with a CPU pipeline is an error, not a silent host
// run.
// RUN: not imex-runner --pipeline=imex-cpu-pipeline %S/../../examples/jacobi2d_gpu.mlir 2>&1 | FileCheck %s --check-prefix=CPU

// CHECK: imex-runner: this program needs a CUDA device: {{.+}}
// CHECK-NEXT: exit status 77
// STUB: imex-runner: this program needs a CUDA device: cuInit failed: CUDA_ERROR_STUB_LIBRARY
// STUB-NEXT: exit status 77
// CPU: imex-runner: the program has arrays in a GPU environment (#region.gpu_env); lower it with --pipeline=imex-gpu-pipeline
