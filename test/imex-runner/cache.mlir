// imex-runner's object cache: the first run compiles and stores the object,
// a second run of the same program and options loads it; other options or
// another program compile again; --no-cache and IMEX_CACHE_DIR=off bypass it.
//
// RUN: rm -rf %t.cache
// RUN: env IMEX_CACHE_DIR=%t.cache imex-runner %s --timing 2>%t.err1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=MISS --input-file=%t.err1
// RUN: env IMEX_CACHE_DIR=%t.cache imex-runner %s --timing 2>%t.err2 | FileCheck %s
// RUN: FileCheck %s --check-prefix=HIT --input-file=%t.err2
// RUN: env IMEX_CACHE_DIR=%t.cache imex-runner %s --timing -O0 2>&1 >/dev/null | FileCheck %s --check-prefix=MISS
// RUN: env IMEX_CACHE_DIR=%t.cache imex-runner %s --timing -e other 2>%t.err3 | FileCheck %s --check-prefix=OTHER
// RUN: FileCheck %s --check-prefix=MISS --input-file=%t.err3
// RUN: env IMEX_CACHE_DIR=%t.cache imex-runner %s --timing --no-cache 2>&1 | FileCheck %s --check-prefixes=CHECK,OFF
// RUN: env IMEX_CACHE_DIR=off imex-runner %s --timing 2>&1 | FileCheck %s --check-prefixes=CHECK,OFF
// RUN: ls %t.cache | FileCheck %s --check-prefix=FILES

// CHECK: IMEX_ARRAY i64 [3] 7 7 7

// MISS: imex-runner: timing: parse {{[0-9.]+}} s, lower {{[0-9.]+}} s, translate {{[0-9.]+}} s, llvm-opt {{[0-9.]+}} s, codegen {{[0-9.]+}} s, link {{[0-9.]+}} s, run {{[0-9.]+}} s, total {{[0-9.]+}} s
// MISS-NEXT: imex-runner: size: {{[1-9][0-9]*}} lowered ops, {{[1-9][0-9]*}} LLVM IR instructions, {{[1-9][0-9]*}} object bytes
// MISS-NEXT: imex-runner: cache miss {{.*}}cache

// HIT: imex-runner: timing: parse {{[0-9.]+}} s, lower 0.000 s, translate 0.000 s, llvm-opt 0.000 s, codegen 0.000 s
// HIT-NEXT: imex-runner: size: 0 lowered ops, 0 LLVM IR instructions, {{[1-9][0-9]*}} object bytes
// HIT-NEXT: imex-runner: cache hit {{.*}}cache

// OFF: imex-runner: cache off

// Three objects: -O3 main, -O0, -e other, each with its lock.
// FILES-COUNT-6: llvmcache-{{[0-9a-f]+}}.{{lock|o}}
// FILES-NOT: {{.o$}}

func.func private @imexPrintI64(tensor<*xi64> {bufferization.access = "read"})

func.func @main() {
  %v = arith.constant 7 : i64
  %n = arith.constant 3 : index
  %a = ndarray.create(%n) value %v : !ndarray.ndarray<?xi64>
  %t = ndarray.to_tensor %a : !ndarray.ndarray<?xi64> -> tensor<?xi64>
  %u = tensor.cast %t : tensor<?xi64> to tensor<*xi64>
  func.call @imexPrintI64(%u) : (tensor<*xi64>) -> ()
  return
}

// OTHER: IMEX_ARRAY i64 [] 42
func.func @other() {
  %v = arith.constant 42 : i64
  %a = ndarray.create value %v : !ndarray.ndarray<i64>
  %t = ndarray.to_tensor %a : !ndarray.ndarray<i64> -> tensor<i64>
  %u = tensor.cast %t : tensor<i64> to tensor<*xi64>
  func.call @imexPrintI64(%u) : (tensor<*xi64>) -> ()
  return
}
