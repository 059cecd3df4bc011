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
      `scf.if`, `scf.execute_region` and `region.env_region` (new results);
    * arrays passed in as function arguments or wrapped by
      `ndarray.from_memref` at function level get their final version
      written back before each `func.return` (a full `ndarray.insert_slice`,
      the only in-place write left);
    * `ndarray.delete` is removed (buffer deallocation frees memory).

    Writes to arrays defined outside an `scf.while` or another unsupported
    region op from inside it are reported as errors. Arrays returned by
    `reshape`, `permute_dims`, ... are treated as copies, which numpy's
    "may share memory" semantics allow.
  }];
  let dependentDialects = ["::imex::ndarray::NDArrayDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // IMEX_DIALECT_NDARRAY_TRANSFORMS_PASSES_TD
