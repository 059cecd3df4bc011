//===- Passes.td - ndarray transformation passes --------------*- tablegen -*-//

#ifndef IMEX_DIALECT_NDARRAY_TRANSFORMS_PASSES_TD
#define IMEX_DIALECT_NDARRAY_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def NDArrayValueSemantics : Pass<"ndarray-value-semantics", "::mlir::ModuleOp"> {
  let summary = "Rewrite in-place updates and views into value semantics";
  let description = [{
    Turns the mutable parts of ndarray programs into pure SSA form, so that
    tensor-level transformations and one-shot bufferization apply:

    * every array written by `ndarray.insert_slice` (directly or through
      views made by `ndarray.subview` and `ndarray.cast`) becomes a chain of
      versions: each write is an `ndarray.immutable_insert_slice` into the
      current version of the written array (its *root*);
    * every read of such an array or of a view of it is re-derived from the
      version current at the read (`ndarray.extract_slice`/`ndarray.cast`),
      so reads see earlier writes through any alias;
    * versions are threaded through `scf.for` (new iteration arguments),
      `scf.while` (new operands, arguments of both regions and results),
      `scf.if`, `scf.execute_region` and `region.env_region` (new results);
    * arrays passed in as function arguments or wrapped by
      `ndarray.from_memref` at function level get their final version
      written back before each `func.return` (a full `ndarray.insert_slice`
      marked `ndarray.write_back`, the only in-place write left);
    * `ndarray.delete` is removed (buffer deallocation frees memory).

    Writes to arrays defined outside another region op from inside it are
    reported as errors. Arrays returned by
    `reshape`, `permute_dims`, ... are treated as copies, which numpy's
    "may share memory" semantics allow.
  }];
  let dependentDialects = ["::imex::ndarray::NDArrayDialect",
                           "::mlir::scf::SCFDialect"];
}

def NDArrayBoundsChecks : Pass<"ndarray-bounds-checks", "::mlir::ModuleOp"> {
  let summary = "Check indices and slices at run time";
  let description = [{
    Guards every `ndarray.load`, `ndarray.subview`, `ndarray.extract_slice`,
    `ndarray.insert_slice` and `ndarray.immutable_insert_slice` whose bounds
    the verifier could not check (dynamic indices, offsets, sizes, strides or
    array sizes) with a run-time check. An index must lie in `[0, size)`; a
    slice needs a positive stride, a non-negative size, an offset in
    `[0, size]` and, unless it is empty, a last index below the size (numpy
    semantics with the negative indices already normalized).

    A failed check calls `imexIndexOutOfBounds` or `imexSliceOutOfBounds`
    (libimex_runner_utils) with the op's source location and name, the
    dimension, the index or slice and the size. They print

    ```
    prog.mlir:12:8: error: ndarray.load: index 9 is out of bounds for dimension 0 of size 8 (rank 1 of 4)
    ```

    on stderr (the rank when run under MPI) and end the process with exit
    code 1; under `mpirun` the launcher then ends every rank. Distributed
    arrays are checked against their global sizes (the pass runs before
    `ndarray-dist`). Checks whose conditions fold to true are not emitted.

    `imex-cpu-pipeline` and `imex-dist-cpu-pipeline` run this pass first
    unless their option `bounds-checks` is off.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def NDArrayDist : Pass<"ndarray-dist", "::mlir::ModuleOp"> {
  let summary = "Distribute arrays created on a team";
  let description = [{
    Arrays created by `ndarray.create`, `ndarray.linspace`,
    `ndarray.random`, `ndarray.tri` or `ndarray.copy` with a
    `dist.team = <id> : i64` attribute are distributed over that team
    (block partition of dimension 0, or of the axes `dist.split = array<i64:
    ...>` over a grid of ranks `dist.grid = array<i64: ...>`, see
    docs/distribution.md): they get a `#dist.dist_env` type and each rank
    creates or keeps only its block; a copy of a distributed array into
    another distribution is a `dist.redistribute`. Distribution then
    propagates through every op, loop and branch. Elementwise ops, copies,
    casts, `dim` and views and inserts of boxes compute on the blocks of any
    distribution (other operands redistributed to the first one's); every
    other op gets its operands redistributed to rows (`dist.redistribute`)
    and is distributed as follows:

    * results computed from distributed arrays are distributed, except
      reductions over dimension 0 and views dropping dimension 0, which are
      replicated;
    * operands of elementwise ops, `where` and `concat` along other
      dimensions are aligned with `dist.repartition` to the rows this rank
      computes: the owned rows of the first distributed operand that is not
      broadcast along dimension 0 (so it needs no communication), else the
      default partition; broadcast rows are fetched by every rank;
      distributed operands of lower rank are gathered;
    * the source of an insert into a distributed array is aligned with the
      rows of the slice this rank owns; replicated sources are used as they
      are (each rank writes its rows);
    * single elements (`ndarray.load`) and arrays leaving the distributed
      world (`ndarray.to_tensor`, inserts into replicated arrays) are
      gathered;
    * ops without a distributed lowering (`matmul`, `broadcast_to`,
      `expand_dims`, `squeeze`, `concat` along dimension 0, views dropping
      dimension 0, reshapes to 0-d) are computed on gathered operands and
      their result distributed again.

    Runs after `ndarray-value-semantics`; distributed arrays must not cross
    function boundaries (inline first).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::imex::dist::DistDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::imex::distruntime::DistRuntimeDialect"];
}

#endif // IMEX_DIALECT_NDARRAY_TRANSFORMS_PASSES_TD
