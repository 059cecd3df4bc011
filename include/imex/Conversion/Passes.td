//===- Passes.td - IMEX conversion passes ---------------------*- tablegen -*-//

#ifndef IMEX_CONVERSION_PASSES_TD
#define IMEX_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertNDArrayToLinalg
    : Pass<"convert-ndarray-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower the ndarray dialect to linalg, tensor and bufferization";
  let description = [{
    First rewrites in-place updates and views into value semantics (see
    `ndarray-value-semantics`), then lowers every ndarray op to upstream
    dialects on tensors, ready for elementwise fusion and one-shot
    bufferization:

    * arrays become tensors (unsigned element types stored as signless
      integers); function arguments of array type become memrefs with the
      identity layout, read through `bufferization.to_tensor restrict`
      (arguments must not alias each other); the final version of an
      argument updated in place is written back with
      `bufferization.materialize_in_destination`;
    * elementwise ops become `linalg.generic` with numpy broadcasting
      (trailing dimensions aligned; a dynamic size that is 1 at run time is
      broadcast, and incompatible sizes abort with a message);
    * reductions start from the identity of their operation, accumulate
      integers in 64 bits, and compute `var`/`std` in two passes;
    * integer division, remainder and shifts follow numpy for negative
      operands, zero divisors and large shift amounts; `maximum`/`minimum`
      propagate NaN;
    * complex elements (`complex<f32>`, `complex<f64>`) compute with the
      `complex` dialect (lowered by the pipelines with upstream
      `convert-complex-to-standard` and `convert-complex-to-llvm`).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::complex::ComplexDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def ConvertDistToStandard
    : Pass<"convert-dist-to-standard", "::mlir::ModuleOp"> {
  let summary = "Lower distributed arrays to local ndarray code and "
                "distruntime communication";
  let description = [{
    Replaces every distributed array (an `!ndarray.ndarray` with a
    `#dist.dist_env`) by its local storage: one buffer holding the owned
    block and ghost cells (spare rows) along dimension 0, the buffer row
    and global row of the first valid row, the row counts of the left
    halo, owned block and right halo (all views of the buffer), and the
    global size of dimension 0 (docs/distribution.md, Local storage). Runs
    after `ndarray-dist`, whose alignment of operands it relies on:

    * arrays get the ghost cells their exchanges need where the shifts of
      the views they are exchanged for are constants (a created array is
      allocated with them; a given block is copied into such a buffer once
      if it is exchanged in a loop);
    * `dist.repartition` becomes `distruntime.get_halo` + `distruntime.wait`
      and writes the received rows into the ghost cells (marked
      `ndarray.ghost_write`), in place when the buffer has the spare rows
      (known at compile time, or checked at run time with a fallback to a
      new buffer); later inserts into the array write that buffer;
    * elementwise ops (`ewbin`, `ewuny`, `where`, `cast_elemtype`, `concat`
      along dimensions other than 0) are one op on views of the operands'
      buffers;
    * views, slices and `dist.local_repartition` are views of the buffer;
    * `immutable_insert_slice` writes the slice rows in the owned block;
    * reductions are local on the owned block, over dimension 0 completed by
      `distruntime.allreduce` (`mean`/`var`/`std` from global sums; ranks
      without rows contribute the identity of `min`/`max`) or, for floats,
      in fixed blocks of rows;
    * `reshape` and `permute_dims` moving dimension 0 redistribute with
      `distruntime.copy_reshape` / `copy_permute`;
    * the index computations of the `dist` dialect become `arith`.

    Loops and branches carrying distributed arrays carry their local
    representation. Distributed arrays must not cross function boundaries.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::complex::ComplexDialect",
    "::mlir::scf::SCFDialect",
    "::imex::distruntime::DistRuntimeDialect",
    "::imex::ndarray::NDArrayDialect",
  ];
}

def LLVMNoAliasArgs : Pass<"imex-llvm-noalias-args", "::mlir::ModuleOp"> {
  let summary = "Mark the pointers of array arguments noalias in llvm.func";
  let description = [{
    Runs after `convert-func-to-llvm`. Array arguments of functions lowered
    by `convert-ndarray-to-linalg` must not alias each other; that pass
    records in `imex.noalias_llvm_args` where their allocated and aligned
    pointers land in the expanded LLVM signature, and this pass marks those
    arguments `llvm.noalias` (upstream drops `llvm.noalias` of memref
    arguments unless the bare-pointer calling convention is used). The
    results of the allocation functions the generic memref lowering calls
    (`_mlir_memref_to_llvm_alloc`, `_mlir_memref_to_llvm_aligned_alloc`)
    are marked `llvm.noalias` too: fresh blocks, as malloc's.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}


def LinalgToBlas : Pass<"imex-linalg-to-blas", "::mlir::ModuleOp"> {
  let summary = "Call BLAS gemm for the matrix products of f32, f64 and "
                "complex buffers";
  let description = [{
    Runs after bufferization. A linalg op on buffers that is a matrix
    product (a contraction of two inputs into the init, `linalg.matmul`,
    `batch_matmul`, `matvec`, `vecmat` or the `linalg.generic`
    `convert-ndarray-to-linalg` builds for `ndarray.matmul`): indexing maps
    that are projected permutations, one reduction dimension k, at most one
    m dimension (of the first input and the init) and one n dimension (of
    the second input and the init), at least one of them, any batch
    dimensions (of all three), every element type the same f32, f64,
    complex<f32> or complex<f64>, and a body computing `out + a * b` with
    no conversion. It becomes a loop nest over the batch dimensions calling
    `_imex_blas_gemm_{f32,f64,c64,c128}` of libimex_runner_utils with the
    base buffer, offset and the row and column strides of A (m x k),
    B (k x n) and C (m x n), then m, n and k (an absent m or n is a unit
    dimension with stride 0).

    The wrapper adds A B to C with the BLAS of the build (`?gemm` of
    OpenBLAS by default; docs/pipeline.md): a view with a unit stride along
    either axis is passed as it is (transposed where its rows are
    contiguous), any other view, and an input overlapping C, is packed
    first. Integer and boolean products, and products with conversions,
    stay loops.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def MathToLibm : Pass<"imex-math-to-libm", "::mlir::ModuleOp"> {
  let summary = "Lower transcendental math ops to libm calls the JIT may "
                "vectorize";
  let description = [{
    Lowers the transcendental `math` ops on f32 and f64 (`exp`, `expm1`,
    `log`, `log1p`, `erf`, `sin`, `tanh`, `powf`, `atan2`, ...) to calls of
    the libm functions, with upstream's math-to-libm patterns, before
    `convert-math-to-llvm` lowers the rest (`sqrt`, `absf`, `floor`, `fma`,
    ... become LLVM intrinsics). Running first keeps `expm1` and `log1p`
    accurate (convert-math-to-llvm computes them as `exp(x) - 1` and
    `log(1 + x)`, which lose every digit near 0).

    The JIT of imex-runner and the Python frontend lets LLVM's loop
    vectorizer replace these calls by their vector variants from glibc's
    vector math library (libmvec, within 4 ulps of the correctly rounded
    result; see docs/pipeline.md). With `vector-math=0` the pass declares
    the libm functions `nobuiltin` (as clang's `-fno-builtin`): LLVM keeps
    every call as it is, and the results are the C library's, bit for bit.
  }];
  let options = [
    Option<"vectorMath", "vector-math", "bool", /*default=*/"true",
           "Let LLVM treat the libm functions as builtins (fold, simplify "
           "and vectorize their calls); off: declare them nobuiltin">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::vector::VectorDialect"];
}

def ComplexToLibm : Pass<"imex-complex-to-libm", "::mlir::ModuleOp"> {
  let summary = "Lower complex transcendental functions to the C library's";
  let description = [{
    Replaces `complex.exp`, `log`, `sqrt`, `sin`, `cos`, `tan` and `tanh`
    by calls of the C library's `cexp`, `clog`, ... (C99 Annex G: the
    special cases of the array API at infinities, NaNs and signed zeros,
    which the component formulas of convert-complex-to-standard do not
    give). `complex.expm1` and `complex.log1p` keep their accurate
    component formulas for finite arguments and take `cexp(z) - 1` and
    `clog(1 + z)` elsewhere (and at z = -1). complex<f32> is computed by
    the double functions (a `float complex` argument is passed packed in
    one register, which a call with an MLIR complex<f32> would not match).
    Runs before convert-complex-to-standard in the CPU pipelines; the GPU
    pipeline keeps the component formulas.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::complex::ComplexDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::math::MathDialect"];
}

def FuseElementwise : Pass<"imex-fuse-elementwise"> {
  let summary = "Fuse elementwise linalg ops, producers with several uses "
                "included";
  let description = [{
    Upstream's elementwise fusion patterns (`linalg-fuse-elementwise-ops`)
    with a different rule for producers used more than once: such a
    producer is fused into its first consumer when all its other uses come
    later in the same block. The fused op keeps the producer's result as an
    extra result for them (`linalg::fuseElementwiseOps`), so nothing is
    computed twice, and a DAG of elementwise ops (`q = -log(r)` feeding
    `q * cos(f)`, `q * sin(f)` and `q * c`) becomes one loop with one
    result per array still needed, instead of a loop and a temporary per
    shared value. Unused results and operands of the fused ops are erased.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SliceElementwiseProducers
    : Pass<"imex-slice-elementwise-producers"> {
  let summary = "Compute only the sliced elements of elementwise ops";
  let description = [{
    A `tensor.extract_slice` (unit strides, no rank reduction) that is the
    only use of an all-parallel linalg op on tensors (or the first of its
    uses, all taking the same slice) becomes that op
    computed on the slice, through the op's TilingInterface (upstream
    `tensor::replaceExtractSliceWithTiledProducer`; `linalg.index` values
    are offset by the slice's position). A distributed `linspace` is then
    computed on each rank's block only instead of the whole array, with the
    same values; `(a + b)[2:5]` adds three elements.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

def StridedCopiesToLinalg
    : Pass<"imex-strided-copies-to-linalg"> {
  let summary = "Turn memref.copy of strided memrefs into linalg.copy";
  let description = [{
    Runs after bufferization. `finalize-memref-to-llvm` lowers a
    `memref.copy` whose operands are not both known contiguous to a call of
    the generic `memrefCopy`, which copies element by element: copies into
    and out of views of a larger array (inserting the rows of an update, the
    parts of a distributed array) then cost several times a memory pass.
    This pass rewrites such copies (an operand with a non-identity layout)
    into `linalg.copy`, which `convert-linalg-to-loops` turns into loops the
    LLVM vectorizer handles; copies of identity layouts stay `memcpy`s.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def ExpandDivisions : Pass<"imex-expand-divisions"> {
  let summary = "Expand the arith ops LLVM has no instruction for, and only "
                "those";
  let description = [{
    Expands `arith.ceildivsi`, `arith.ceildivui` and `arith.floordivsi`
    into divisions, comparisons and selects (upstream's
    `populateCeilFloorDivExpandOpsPatterns`), which `convert-arith-to-llvm`
    cannot lower. Used instead of `arith-expand`, which also expands every
    `minsi`/`maxsi` (the index arithmetic of views of distributed arrays is
    full of them) and `minimumf`/`maximumf` into a comparison and a select
    each; `convert-arith-to-llvm` lowers those to one LLVM intrinsic
    (`llvm.intr.smin`, `llvm.intr.maximum`, ...), a smaller module for LLVM
    to optimize, with the same code after LLVM's instcombine.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ForwardGhostWrites : Pass<"imex-forward-ghost-writes"> {
  let summary = "Uses of an array version after a halo exchange into it "
                "use the exchanged version";
  let description = [{
    Runs on tensors, before one-shot bufferization. A halo exchange writes
    the neighbours' rows into the ghost cells (spare rows) of a distributed
    array's buffer: an insert marked `ndarray.ghost_write` making a version
    G of the version V it writes into. Ghost cells are not part of the
    array's value, so V and G hold the same array; a use of V after G (a
    loop yielding V while its body computes from G, as when a time step
    reads the grid it does not write) would keep V alive past the in-place
    write of G, and bufferization would copy the whole buffer each
    iteration. Every use of V after G in G's block uses G instead, and so
    do extract_slices of V before G (and extracts of them) whose values are
    used only after G, moved behind G. (The
    ghost cells of one version always receive the same rows: every rank
    runs the same program on the same version.)
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def EliminateEmptyTensors : Pass<"imex-eliminate-empty-tensors"> {
  let summary = "Upstream's eliminate-empty-tensors, replacing an empty "
                "tensor only by a subset of provably its sizes";
  let description = [{
    Replaces a `tensor.empty` whose value is inserted into a destination
    (through equivalent values) by the subset of the destination, as
    upstream's `eliminate-empty-tensors` does, so that its producer writes
    into the destination directly; but only where the subset's sizes are
    provably the empty tensor's (the same static sizes or SSA values).
    Upstream casts the subset to the empty tensor's type, which is wrong
    where a cast on the way made a static size dynamic and the value was
    then broadcast at run time: a `tensor<1xf64>` inserted, after a run-time
    broadcast, into a slice of n rows would be computed into those n rows
    as if they were one.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KeepUpdateTemporaries : Pass<"imex-keep-update-temporaries"> {
  let summary = "Compute updates that read what they overwrite into a "
                "ring of row blocks or a temporary";
  let description = [{
    Runs on tensors, right before `eliminate-empty-tensors`. An update
    `D[s] = f(views of D)` (a stencil step outside a double-buffered loop:
    `tensor.insert_slice` of a linalg op's result into D, the op reading
    slices of D) computes f into a `tensor.empty`, which
    `eliminate-empty-tensors` replaces by the slice `D[s]`, so that f would
    write into D directly. Where the views f reads overlap `s`, one-shot
    bufferization then resolves the conflict by copying every view f
    reads (a 5-point stencil: four copies of the grid) instead of one
    temporary. This pass makes the init of such an op an explicit
    temporary, which `eliminate-empty-tensors` leaves alone: f writes the
    temporary and the temporary is copied into D.

    The temporary is a ring of blocks of rows (axis 0) where f can be
    computed a block at a time: an all-parallel op writing row i of its
    result in iteration i of its first loop, reading every view of D as a
    slice of D itself with unit row stride, row i in iteration i (other
    axes: any slice, shifts and strides), through an insert with unit
    strides. A loop computes block b (B rows, B times the elements of a row
    about `block-bytes`) into slot b mod (L + 1) of the ring, reading the
    views from the loop's version of D, then writes block b - L back into
    D; the last L blocks are written after it. The lag L is computed at
    run time from the slices' offsets (slice offsets are often kernel
    arguments): L * B covers the largest distance the written slice's first
    row lies below a view's, so no view reads a row already written, and
    views reading ahead read rows not yet written. A stencil step
    `u[1:-1, 1:-1] = f(u[:-2, 1:-1], u[2:, 1:-1], ...)` keeps two blocks
    (L = 1) in cache instead of a temporary the size of the grid, whose
    writing and reading back doubled the memory traffic of the step. Other
    updates get one temporary the size of the result
    (`bufferization.alloc_tensor`), as do all with `block-bytes=0`. D and the views are compared by
    their root tensor (through `tensor.extract_slice` sources,
    `tensor.insert_slice` destinations and `tensor.cast`s, e.g. the ghost
    writes of a halo exchange); views proven disjoint from `s` (direct
    slices of D, by value bounds) do not count, nor does the slice `s`
    itself (offsets, sizes and strides equal by value bounds) where f is
    elementwise and reads it with the indexing map it writes with
    (`D[s] = D[s] + x`: each element is read before it is written, in the
    same iteration). An elementwise f reading the whole of D when `s` is
    all of D (`D[...] = D * 2`) is made to read it as the slice `s`, which
    `eliminate-empty-tensors` then makes f's init: after CSE, one-shot
    bufferization sees one value read and written elementwise and computes
    the update in place. First, slices that are their whole tensor
    (offsets 0, unit strides, sizes equal by value bounds, which
    canonicalization cannot prove for dynamic sizes) are replaced by the
    tensor: writing a block back whole after an update in place then reads
    no overwritten value (which one-shot bufferization would copy).
  }];
  let options = [
    Option<"blockBytes", "block-bytes", "int64_t", /*default=*/"32768",
           "Bytes of a block of rows of the ring (0: one temporary the size "
           "of the result)">
  ];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def DoubleBufferLoops : Pass<"imex-double-buffer-loops"> {
  let summary = "Two buffers for tensors a loop updates from their previous "
                "version";
  let description = [{
    Runs on tensors, before one-shot bufferization. A loop carrying a tensor
    that each iteration updates by a chain of writes at loop-invariant
    positions (`tensor.insert_slice` into the previous version, parallel
    linalg ops overwriting their whole init) whose values read the previous
    version, e.g. a time step `u[1:-1, 1:-1] = f(u)`, bufferizes to a
    temporary for the new values and a copy into the tensor per iteration:
    the buffer is still read while the values are computed. Hand-written
    stencils instead keep two buffers and swap them.

    The loop is unrolled by two (`scf` loop unrolling; an epilogue loop runs
    the odd iteration) and a second iter_arg, initialised like the first, is
    added: the first copy of the body reads the argument and writes its
    chain into the second, the second copy reads that and writes into the
    argument. Every yield is then equivalent to its iter_arg, both copies
    update in place, and no copy per iteration remains. Elements outside
    the written region are never written in the loop, so both buffers hold
    their initial values there: when a single insert updates the array,
    the spare starts as a new tensor holding only those elements of the
    initial value (its frame), else as a copy of it. The epilogue loop
    (an odd last iteration) computes such an update into the spare,
    carried along, and copies the written elements back, instead of
    computing into a new temporary.

    A loop that also keeps the previous value in a second iter_arg, `p' =
    insert_slice(extract_slice(u, S), p, S)` and `u' = insert_slice(new, u,
    S)` (a leapfrog time step `uprev[c] = u[c]; u[c] = f(u, uprev)`; u may
    first receive ghost writes), would copy u into p every iteration.
    Instead the buffers rotate, as hand-written codes rotate pointers: the
    new values go into p's buffer (computed in place when `new` is a
    parallel linalg op reading p elementwise at S), with u's elements
    outside S (the frame) around them, and u's buffer becomes p with p's
    frame, copied at the start of the iteration (O(boundary); the frames
    are not assumed equal). The values are unchanged. The loop yields each
    array in the other's buffer and is unrolled by two, so that every
    yield is equivalent to its iter_arg again. Only when S is the same
    slice in all three ops (offsets of possibly empty slices guarded by
    `select(size > 0, offset, default)` compare by the offset) and the two
    initial values have the same shape (value bounds).
  }];
  let dependentDialects = [
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def ConvertRegionToGPU : Pass<"convert-region-to-gpu", "::mlir::func::FuncOp"> {
  let summary = "Lower the bodies of GPU env_regions to gpu dialect kernels";
  let description = [{
    Runs after bufferization. Inside each `region.env_region` with a
    `#region.gpu_env` environment:

    - linalg ops become `scf.parallel` loops, tiled (32x8 threads per block
      for 2-D iteration spaces, 256 for 1-D) and mapped to GPU blocks and
      threads, then `gpu.launch` by upstream's parallel-loop-to-GPU
      conversion; grid sizes are computed from the loop bounds at run time;
    - a reduction of a whole array to one value runs in two steps: up to
      16384 threads fold strided shares of the elements into partial
      results (a kernel over blocks of threads), one thread folds those;
    - what remains that touches memory (sequential loops, e.g. the
      reduced dimensions of partial reductions, and scalar stores) runs in
      a single-thread `gpu.launch`, so device memory is never touched by
      the host;
    - `memref.alloc` becomes `gpu.alloc`, and its `memref.dealloc` (wherever
      buffer deallocation placed it) `gpu.dealloc`;
    - `memref.copy` between host and device memory becomes `gpu.memcpy`
      (inside the region the host-to-device copies of `ndarray.copy`,
      outside the device-to-host copies).

    The regions are then inlined. Kernels are outlined and compiled by the
    upstream passes that follow (`gpu-kernel-outlining`, `convert-gpu-to-nvvm`,
    `gpu-module-to-binary`).

    With `host-shared`, every buffer of the function (in the regions and
    outside) is allocated as memory that both the host and the device
    access (`gpu.alloc host_shared`: CUDA managed memory): the host code of
    distributed arrays (halo exchanges through IDTR, copies of strided
    views) then works on device arrays directly, the driver migrating pages.
  }];
  let options = [
    Option<"hostShared", "host-shared", "bool", /*default=*/"false",
           "Allocate every buffer in memory shared by host and device">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def GPUToHost : Pass<"imex-gpu-to-host", "::mlir::func::FuncOp"> {
  let summary = "Run gpu dialect kernels and memory operations on the host";
  let description = [{
    Emulates, for testing without a device, what `convert-region-to-gpu`
    produced: `gpu.launch` becomes an `scf.parallel` loop over the blocks and
    threads of its grid (one iteration per GPU thread, the body unchanged),
    `gpu.alloc`/`gpu.dealloc` host allocations and frees, `gpu.memcpy` a
    `memref.copy`; `gpu.wait` is dropped (everything is synchronous).
    `imex-gpu-emulation-pipeline` lowers GPU programs through it, so that
    execution tests check the decomposition into kernels (tiling, guards of
    partial tiles, single-thread kernels, transfers) against numpy on
    machines without a GPU. It does not check the NVVM code generation nor
    the driver: see docs/gpu.md.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def GPUSyncSharedAllocs
    : Pass<"imex-gpu-sync-shared-allocs", "::mlir::func::FuncOp"> {
  let summary = "Make asynchronous host-shared gpu.alloc ops synchronous";
  let description = [{
    Upstream's `gpu-to-llvm` lowers `gpu.alloc host_shared` only without
    async dependencies, and `gpu.dealloc`/`gpu.memcpy` only with them, while
    `gpu-async-region` makes all of them asynchronous. This pass waits for
    the dependencies of each asynchronous host-shared allocation, allocates
    synchronously and hands a fresh token to its users.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

#endif // IMEX_CONVERSION_PASSES_TD
