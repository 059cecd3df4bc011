// distruntime ops lowered to IDTR calls and JIT-run on 1 to 4 MPI ranks.
// Every rank checks its own part and the mismatch counts are summed with an
// allreduce; only rank 0 prints. Every rank reports its allocations, which
// must all be freed.
//
// REQUIRES: idtr
// RUN: imex-opt %s --lower-distruntime-to-idtr -o %t.mlir
// RUN: env IMEX_ALLOCATION_STATS=1 %mpiexec -n 1 imex-runner %t.mlir --pipeline='imex-cpu-pipeline{count-allocations=1}' 2>%t.np1.err | FileCheck %s --check-prefixes=CHECK,NP1
// RUN: FileCheck %s --input-file=%t.np1.err --check-prefix=LEAKS1
// RUN: env IMEX_ALLOCATION_STATS=1 %mpiexec -n 2 imex-runner %t.mlir --pipeline='imex-cpu-pipeline{count-allocations=1}' 2>%t.np2.err | FileCheck %s --check-prefixes=CHECK,NP2
// RUN: FileCheck %s --input-file=%t.np2.err --check-prefix=LEAKS2
// RUN: env IMEX_ALLOCATION_STATS=1 %mpiexec -n 3 imex-runner %t.mlir --pipeline='imex-cpu-pipeline{count-allocations=1}' 2>%t.np3.err | FileCheck %s --check-prefixes=CHECK,NP3
// RUN: FileCheck %s --input-file=%t.np3.err --check-prefix=LEAKS3
// The lowering also composes inside the runner's pipeline.
// RUN: env IMEX_ALLOCATION_STATS=1 %mpiexec -n 4 imex-runner %s --pipeline='lower-distruntime-to-idtr,imex-cpu-pipeline{count-allocations=1}' 2>%t.np4.err | FileCheck %s --check-prefixes=CHECK,NP4
// RUN: FileCheck %s --input-file=%t.np4.err --check-prefix=LEAKS4
// Every rank prints with IMEX_PRINT_ALL_RANKS=1.
// RUN: env IMEX_PRINT_ALL_RANKS=1 %mpiexec -n 3 imex-runner %t.mlir | FileCheck %s --check-prefix=ALL
// The ranks compile the program once: one rank compiles and stores the
// object while the others wait for it, then load it; a later job on another
// rank count loads it too (the compiled code does not depend on the rank).
// RUN: rm -rf %t.cache
// RUN: env IMEX_CACHE_DIR=%t.cache %mpiexec -n 3 imex-runner %t.mlir --timing 2>&1 >/dev/null | grep -oE "cache (hit|miss)" | sort | uniq -c | FileCheck %s --check-prefix=ONCE3
// RUN: env IMEX_CACHE_DIR=%t.cache %mpiexec -n 2 imex-runner %t.mlir --timing 2>&1 >/dev/null | grep -oE "cache (hit|miss)" | sort | uniq -c | FileCheck %s --check-prefix=ONCE2
// ONCE3: 2 cache hit
// ONCE3-NEXT: 1 cache miss
// ONCE2: 2 cache hit
// ONCE2-NOT: miss

// LEAKS1: IMEX_ALLOCATIONS allocated=[[A:[1-9][0-9]*]] freed=[[A]]{{$}}
// LEAKS1-NOT: IMEX_ALLOCATIONS
// LEAKS2: IMEX_ALLOCATIONS allocated=[[A:[1-9][0-9]*]] freed=[[A]]{{$}}
// LEAKS2: IMEX_ALLOCATIONS allocated=[[A:[1-9][0-9]*]] freed=[[A]]{{$}}
// LEAKS2-NOT: IMEX_ALLOCATIONS
// LEAKS3: IMEX_ALLOCATIONS allocated=[[A:[1-9][0-9]*]] freed=[[A]]{{$}}
// LEAKS3: IMEX_ALLOCATIONS allocated=[[A:[1-9][0-9]*]] freed=[[A]]{{$}}
// LEAKS3: IMEX_ALLOCATIONS allocated=[[A:[1-9][0-9]*]] freed=[[A]]{{$}}
// LEAKS3-NOT: IMEX_ALLOCATIONS
// LEAKS4: IMEX_ALLOCATIONS allocated=[[A:[1-9][0-9]*]] freed=[[A]]{{$}}
// LEAKS4: IMEX_ALLOCATIONS allocated=[[A:[1-9][0-9]*]] freed=[[A]]{{$}}
// LEAKS4: IMEX_ALLOCATIONS allocated=[[A:[1-9][0-9]*]] freed=[[A]]{{$}}
// LEAKS4: IMEX_ALLOCATIONS allocated=[[A:[1-9][0-9]*]] freed=[[A]]{{$}}
// LEAKS4-NOT: IMEX_ALLOCATIONS

func.func private @imexPrintI64(tensor<*xi64> {bufferization.access = "read"})
func.func private @imexPrintF64(tensor<*xf64> {bufferization.access = "read"})

func.func @printI64(%a: !ndarray.ndarray<?xi64>) {
  %t = ndarray.to_tensor %a : !ndarray.ndarray<?xi64> -> tensor<?xi64>
  %u = tensor.cast %t : tensor<?xi64> to tensor<*xi64>
  func.call @imexPrintI64(%u) : (tensor<*xi64>) -> ()
  return
}

func.func @printF64(%a: !ndarray.ndarray<?xf64>) {
  %t = ndarray.to_tensor %a : !ndarray.ndarray<?xf64> -> tensor<?xf64>
  %u = tensor.cast %t : tensor<?xf64> to tensor<*xf64>
  func.call @imexPrintF64(%u) : (tensor<*xf64>) -> ()
  return
}

func.func @printF64x2(%a: !ndarray.ndarray<?x?xf64>) {
  %t = ndarray.to_tensor %a : !ndarray.ndarray<?x?xf64> -> tensor<?x?xf64>
  %u = tensor.cast %t : tensor<?x?xf64> to tensor<*xf64>
  func.call @imexPrintF64(%u) : (tensor<*xf64>) -> ()
  return
}

/// The default partition of n rows over p ranks: (offset, size) of rank r.
func.func @part(%n: index, %p: index, %r: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %q = arith.divui %n, %p : index
  %m = arith.remui %n, %p : index
  %first = arith.subi %p, %m : index
  %big = arith.cmpi uge, %r, %first : index
  %extra = arith.select %big, %c1, %c0 : index
  %size = arith.addi %q, %extra : index
  %base = arith.muli %r, %q : index
  %shift = arith.subi %r, %first : index
  %pos = arith.maxsi %shift, %c0 : index
  %off = arith.addi %base, %pos : index
  return %off, %size : index, index
}

/// The number of elements where `a` and `b` differ, summed over all ranks,
/// printed as a 1-element i64 array.
func.func @printMismatches(%a: !ndarray.ndarray<?xf64>, %b: !ndarray.ndarray<?xf64>) {
  %ne = ndarray.ewbin not_equal %a, %b : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xi1>
  %count = ndarray.reduction sum %ne keepdims : !ndarray.ndarray<?xi1> -> !ndarray.ndarray<1xi64>
  %all = distruntime.allreduce sum %count team = 1 : !ndarray.ndarray<1xi64>
  %c = ndarray.cast %all : !ndarray.ndarray<1xi64> to !ndarray.ndarray<?xi64>
  call @printI64(%c) : (!ndarray.ndarray<?xi64>) -> ()
  return
}

// Allreduce sums of (1, r, r*r) and the product of r + 1 over the ranks.
// NP1: IMEX_ARRAY i64 [4] 1 0 0 1
// NP2: IMEX_ARRAY i64 [4] 2 1 1 2
// NP3: IMEX_ARRAY i64 [4] 3 3 5 6
// NP4: IMEX_ARRAY i64 [4] 4 6 14 24
// Minimum and maximum of r.
// NP1-NEXT: IMEX_ARRAY i64 [2] 0 0
// NP2-NEXT: IMEX_ARRAY i64 [2] 0 1
// NP3-NEXT: IMEX_ARRAY i64 [2] 0 2
// NP4-NEXT: IMEX_ARRAY i64 [2] 0 3
// The input of the allreduce is unchanged.
// CHECK-NEXT: IMEX_ARRAY i64 [1] 1
// Halo exchange on a 1-D array of 10 rows, bounding box one row wider on both
// sides: rank 0's right halo is the first row of rank 1; then the number of
// wrong elements in every rank's window.
// NP1-NEXT: IMEX_ARRAY f64 [0]{{$}}
// NP2-NEXT: IMEX_ARRAY f64 [1] 5{{$}}
// NP3-NEXT: IMEX_ARRAY f64 [1] 3{{$}}
// NP4-NEXT: IMEX_ARRAY f64 [1] 2{{$}}
// CHECK-NEXT: IMEX_ARRAY i64 [1] 0{{$}}
// Reshape of 6x2 (values = linear index) into 3x4: rank 0's rows.
// NP1-NEXT: IMEX_ARRAY f64 [3,4] 0 1 2 3 4 5 6 7 8 9 10 11{{$}}
// NP2-NEXT: IMEX_ARRAY f64 [1,4] 0 1 2 3{{$}}
// NP3-NEXT: IMEX_ARRAY f64 [1,4] 0 1 2 3{{$}}
// NP4-NEXT: IMEX_ARRAY f64 [0,4]{{$}}
// CHECK-NEXT: IMEX_ARRAY i64 [1] 0{{$}}
// Transpose of 5x3 (values = linear index) into 3x5: rank 0's rows.
// NP1-NEXT: IMEX_ARRAY f64 [3,5] 0 3 6 9 12 1 4 7 10 13 2 5 8 11 14{{$}}
// NP2-NEXT: IMEX_ARRAY f64 [1,5] 0 3 6 9 12{{$}}
// NP3-NEXT: IMEX_ARRAY f64 [1,5] 0 3 6 9 12{{$}}
// NP4-NEXT: IMEX_ARRAY f64 [0,5]{{$}}
// CHECK-NEXT: IMEX_ARRAY i64 [1] 0{{$}}
// CHECK-NOT: IMEX_ARRAY

// ALL-COUNT-3: IMEX_ARRAY i64 [4] 3 3 5 6

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c10 = arith.constant 10 : index
  %c12 = arith.constant 12 : index
  %c15 = arith.constant 15 : index
  %p = distruntime.team_size team = 1
  %r = distruntime.team_member team = 1

  // Allreduce: [1, r, r*r, r+1] summed; the product of r+1 is p!.
  %ri = arith.index_cast %r : index to i64
  %one = arith.constant 1 : i64
  %r2 = arith.muli %ri, %ri : i64
  %r1 = arith.addi %ri, %one : i64
  %v = ndarray.create value %one : !ndarray.ndarray<4xi64>
  %vr = ndarray.create value %ri : !ndarray.ndarray<i64>
  %vr2 = ndarray.create value %r2 : !ndarray.ndarray<i64>
  %vr1 = ndarray.create value %r1 : !ndarray.ndarray<i64>
  ndarray.insert_slice %vr into %v[1] [1] [1] : !ndarray.ndarray<i64> into !ndarray.ndarray<4xi64>
  ndarray.insert_slice %vr2 into %v[2] [1] [1] : !ndarray.ndarray<i64> into !ndarray.ndarray<4xi64>
  ndarray.insert_slice %vr1 into %v[3] [1] [1] : !ndarray.ndarray<i64> into !ndarray.ndarray<4xi64>
  %sum = distruntime.allreduce sum %v team = 1 : !ndarray.ndarray<4xi64>
  %s3 = ndarray.subview %sum[0] [3] [1] : !ndarray.ndarray<4xi64> to !ndarray.ndarray<3xi64>
  %prod = distruntime.allreduce prod %v team = 1 : !ndarray.ndarray<4xi64>
  %p1 = ndarray.subview %prod[3] [1] [1] : !ndarray.ndarray<4xi64> to !ndarray.ndarray<1xi64>
  %sp = ndarray.concat %s3, %p1 axis 0 : (!ndarray.ndarray<3xi64>, !ndarray.ndarray<1xi64>) -> !ndarray.ndarray<4xi64>
  %spc = ndarray.cast %sp : !ndarray.ndarray<4xi64> to !ndarray.ndarray<?xi64>
  call @printI64(%spc) : (!ndarray.ndarray<?xi64>) -> ()
  // min and max of r: 0 and p - 1.
  %vm = ndarray.create value %ri : !ndarray.ndarray<1xi64>
  %min = distruntime.allreduce min %vm team = 1 : !ndarray.ndarray<1xi64>
  %max = distruntime.allreduce max %vm team = 1 : !ndarray.ndarray<1xi64>
  %mm = ndarray.concat %min, %max axis 0 : (!ndarray.ndarray<1xi64>, !ndarray.ndarray<1xi64>) -> !ndarray.ndarray<2xi64>
  %mmc = ndarray.cast %mm : !ndarray.ndarray<2xi64> to !ndarray.ndarray<?xi64>
  call @printI64(%mmc) : (!ndarray.ndarray<?xi64>) -> ()
  // The input of an allreduce is not modified.
  %vc = ndarray.cast %v : !ndarray.ndarray<4xi64> to !ndarray.ndarray<?xi64>
  %v0 = ndarray.subview %vc[0] [1] [1] : !ndarray.ndarray<?xi64> to !ndarray.ndarray<1xi64>
  %v0c = ndarray.cast %v0 : !ndarray.ndarray<1xi64> to !ndarray.ndarray<?xi64>
  call @printI64(%v0c) : (!ndarray.ndarray<?xi64>) -> ()

  // Halo: rank r owns rows [o, o + n) of 10, values = global index.
  %o, %n = call @part(%c10, %p, %r) : (index, index, index) -> (index, index)
  %end = arith.addi %o, %n : index
  %of = arith.index_cast %o : index to i64
  %ef = arith.index_cast %end : index to i64
  %off = arith.sitofp %of : i64 to f64
  %endf = arith.sitofp %ef : i64 to f64
  %data = ndarray.linspace %off, %endf, %n : f64 -> !ndarray.ndarray<?xf64>
  %bl = arith.subi %o, %c1 : index
  %lo = arith.maxsi %bl, %c0 : index
  %bh = arith.addi %end, %c1 : index
  %hi = arith.minsi %bh, %c10 : index
  %bs = arith.subi %hi, %lo : index
  %h, %lh, %rh = distruntime.get_halo %data global_shape[%c10] local_offsets[%o] bb_offsets[%lo] bb_sizes[%bs] team = 1 key = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  %data2, %lh2, %rh2 = distruntime.wait %h, %data, %lh, %rh : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  call @printF64(%rh2) : (!ndarray.ndarray<?xf64>) -> ()
  %win = ndarray.concat %lh2, %data2, %rh2 axis 0 : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %lof = arith.index_cast %lo : index to i64
  %hif = arith.index_cast %hi : index to i64
  %lofl = arith.sitofp %lof : i64 to f64
  %hifl = arith.sitofp %hif : i64 to f64
  %expect = ndarray.linspace %lofl, %hifl, %bs : f64 -> !ndarray.ndarray<?xf64>
  call @printMismatches(%win, %expect) : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> ()

  // Reshape 6x2 -> 3x4.
  %ro, %rn = call @part(%c6, %p, %r) : (index, index, index) -> (index, index)
  %rs = arith.muli %ro, %c2 : index
  %rcount = arith.muli %rn, %c2 : index
  %re = arith.addi %rs, %rcount : index
  %rsi = arith.index_cast %rs : index to i64
  %rei = arith.index_cast %re : index to i64
  %rsf = arith.sitofp %rsi : i64 to f64
  %ref = arith.sitofp %rei : i64 to f64
  %flat = ndarray.linspace %rsf, %ref, %rcount : f64 -> !ndarray.ndarray<?xf64>
  %in = ndarray.reshape %flat(%rn) copy : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?x2xf64>
  %qo, %qn = call @part(%c3, %p, %r) : (index, index, index) -> (index, index)
  %hr, %out = distruntime.copy_reshape %in global_shape_in[%c6, %c2] local_offsets_in[%ro, %c0] global_shape_out[%c3, %c4] local_offsets_out[%qo, %c0] local_shape_out[%qn, %c4] team = 1 : !ndarray.ndarray<?x2xf64> -> !ndarray.ndarray<?x4xf64>
  %in2, %out2 = distruntime.wait %hr, %in, %out : !ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?x4xf64>
  %out2c = ndarray.cast %out2 : !ndarray.ndarray<?x4xf64> to !ndarray.ndarray<?x?xf64>
  call @printF64x2(%out2c) : (!ndarray.ndarray<?x?xf64>) -> ()
  %qs = arith.muli %qo, %c4 : index
  %qcount = arith.muli %qn, %c4 : index
  %qe = arith.addi %qs, %qcount : index
  %qsi = arith.index_cast %qs : index to i64
  %qei = arith.index_cast %qe : index to i64
  %qsf = arith.sitofp %qsi : i64 to f64
  %qef = arith.sitofp %qei : i64 to f64
  %qexp = ndarray.linspace %qsf, %qef, %qcount : f64 -> !ndarray.ndarray<?xf64>
  %outflat = ndarray.reshape %out2(%qcount) copy : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?xf64>
  call @printMismatches(%outflat, %qexp) : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> ()

  // Transpose 5x3 -> 3x5.
  %to, %tn = call @part(%c5, %p, %r) : (index, index, index) -> (index, index)
  %ts = arith.muli %to, %c3 : index
  %tcount = arith.muli %tn, %c3 : index
  %te = arith.addi %ts, %tcount : index
  %tsi = arith.index_cast %ts : index to i64
  %tei = arith.index_cast %te : index to i64
  %tsf = arith.sitofp %tsi : i64 to f64
  %tef = arith.sitofp %tei : i64 to f64
  %tflat = ndarray.linspace %tsf, %tef, %tcount : f64 -> !ndarray.ndarray<?xf64>
  %tin = ndarray.reshape %tflat(%tn) copy : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?x3xf64>
  %uo, %un = call @part(%c3, %p, %r) : (index, index, index) -> (index, index)
  %ht, %tout = distruntime.copy_permute %tin permutation = [1, 0] global_shape_in[%c5, %c3] local_offsets_in[%to, %c0] local_offsets_out[%uo, %c0] local_shape_out[%un, %c5] team = 1 : !ndarray.ndarray<?x3xf64> -> !ndarray.ndarray<?x5xf64>
  %tin2, %tout2 = distruntime.wait %ht, %tin, %tout : !ndarray.ndarray<?x3xf64>, !ndarray.ndarray<?x5xf64>
  %tout2c = ndarray.cast %tout2 : !ndarray.ndarray<?x5xf64> to !ndarray.ndarray<?x?xf64>
  call @printF64x2(%tout2c) : (!ndarray.ndarray<?x?xf64>) -> ()
  // Expected: out[k][l] = 3 * l + uo + k, i.e. the transpose of the 5x3
  // array 3 * l + c restricted to columns [uo, uo + un).
  %f0 = arith.constant 0.0 : f64
  %f15 = arith.constant 15.0 : f64
  %all = ndarray.linspace %f0, %f15, %c15 : f64 -> !ndarray.ndarray<15xf64>
  %all2 = ndarray.reshape %all copy : !ndarray.ndarray<15xf64> -> !ndarray.ndarray<5x3xf64>
  %cols = ndarray.extract_slice %all2[0, %uo] [5, %un] [1, 1] : !ndarray.ndarray<5x3xf64> to !ndarray.ndarray<5x?xf64>
  %texp = ndarray.permute_dims %cols [1, 0] : !ndarray.ndarray<5x?xf64> -> !ndarray.ndarray<?x5xf64>
  %tcount2 = arith.muli %un, %c5 : index
  %texpf = ndarray.reshape %texp(%tcount2) copy : !ndarray.ndarray<?x5xf64> -> !ndarray.ndarray<?xf64>
  %toutf = ndarray.reshape %tout2(%tcount2) copy : !ndarray.ndarray<?x5xf64> -> !ndarray.ndarray<?xf64>
  call @printMismatches(%toutf, %texpf) : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> ()
  return
}
