//===- NDArrayReductionOps.td - ndarray computing ops ---------*- tablegen -*-//
//
// The ndarray ops that reduce, sort, search, select, multiply and join
// arrays; included by NDArrayOps.td (which defines the shared classes).
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_DIALECT_NDARRAY_IR_NDARRAYREDUCTIONOPS_TD
#define IMEX_DIALECT_NDARRAY_IR_NDARRAYREDUCTIONOPS_TD

//===----------------------------------------------------------------------===//
// Reductions, linear algebra, joining
//===----------------------------------------------------------------------===//

def NDArray_ReductionOp : NDArray_InferredOp<"reduction"> {
  let summary = "reduce over all or some axes";
  let description = [{
    Reduces `source` with `kind` over `axes` (all axes when absent). With
    `keepdims` reduced dimensions are kept with size 1. `var` and `std`
    divide by `N - correction` (numpy's `ddof`; 0 when absent).

    Result element types follow numpy: `sum` and `prod` of `i1` and signed
    integers give `i64`, of unsigned integers `ui64`; `mean`, `var` and `std`
    of integers give `f64`; `any` and `all` give `i1`; otherwise the source
    element type. Empty reductions give the identity (0 for sum, 1 for prod,
    false for any, true for all); `min`/`max` of an empty array is an error
    at run time.

    ```mlir
    %s = ndarray.reduction sum %a axes [1] keepdims : !ndarray.ndarray<3x4xi32> -> !ndarray.ndarray<3x1xi64>
    %v = ndarray.reduction var %a correction 1.0 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<f64>
    ```
  }];
  let arguments = (ins NDArray_ReductionKindAttr:$kind,
                       NDArray_ReadArray:$source,
                       OptionalAttr<DenseI64ArrayAttr>:$axes,
                       UnitAttr:$keepdims, OptionalAttr<F64Attr>:$correction);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    `` $kind $source (`axes` $axes^)? (`keepdims` $keepdims^)?
    (`correction` $correction^)? attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
  let extraClassDeclaration = [{
    /// The reduced axes, all of them when `axes` is absent.
    ::llvm::SmallVector<int64_t> getReducedAxes();
  }];
}

class NDArray_SortOpBase<string mnemonic>
    : NDArray_InferredOp<mnemonic> {
  let arguments = (ins NDArray_ReadArray:$source, I64Attr:$axis,
                       UnitAttr:$descending);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    $source `axis` $axis (`descending` $descending^)? attr-dict `:`
    qualified(type($source)) `->` qualified(type($result))
  }];
}

def NDArray_SortOp : NDArray_SortOpBase<"sort"> {
  let summary = "stable sort along an axis";
  let description = [{
    The array API's `sort`: every lane along `axis` sorted stably, numpy's
    order (NaNs last); `descending` reverses the order (NaNs first) and
    keeps equal elements in their order. Implemented by the runtime
    (`_idtr_sort_<T>`, lowered by `lower-distruntime-to-idtr`).

    ```mlir
    %s = ndarray.sort %a axis 1 : !ndarray.ndarray<3x?xf64> -> !ndarray.ndarray<3x?xf64>
    ```

    On an array distributed along dimension 0: along other axes local; a
    1-d array is sorted by a distributed sample sort
    (`distruntime.sample_sort`) into the default partition; along
    dimension 0 of n-d arrays computed on the gathered array.
  }];
}

def NDArray_ArgSortOp : NDArray_SortOpBase<"argsort"> {
  let summary = "the indices that sort an array along an axis (stable)";
  let description = [{
    The array API's `argsort`: `i64` positions along `axis` that sort each
    lane stably (order and distribution as `ndarray.sort`).

    ```mlir
    %i = ndarray.argsort %a axis 0 descending : !ndarray.ndarray<?xi32> -> !ndarray.ndarray<?xi64>
    ```
  }];
}

def NDArray_SearchSortedOp : NDArray_InferredOp<"searchsorted"> {
  let summary = "insertion positions of values in a sorted 1-d array";
  let description = [{
    The array API's `searchsorted`: for every element `v` of `values`, the
    `i64` position in the 1-d ascending `sorted` (numpy's order, NaNs last)
    before which `v` would be inserted: after the elements less than `v`
    (`left`, the default) or after those not greater than `v` (`right`).
    Both arrays have the same element type; the result has the shape of
    `values`. A binary search per element.

    ```mlir
    %i = ndarray.searchsorted %s, %v right : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<3x4xf64>) -> !ndarray.ndarray<3x4xi64>
    ```

    Distributed: with `values` split and `sorted` replicated, local on each
    block of `values`; with `sorted` split, each rank counts in its block
    and an allreduce sums the counts (a split `values` is gathered first);
    the result is then replicated.
  }];
  let arguments = (ins NDArray_ReadArray:$sorted, NDArray_ReadArray:$values,
                       UnitAttr:$right);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    $sorted `,` $values (`right` $right^)? attr-dict `:` `(`
    qualified(type($sorted)) `,` qualified(type($values)) `)` `->`
    qualified(type($result))
  }];
}

def NDArray_TakeOp : NDArray_InferredOp<"take"> {
  let summary = "elements (sub-arrays) at integer indices along an axis";
  let description = [{
    The array API's `take` (numpy's `a[idx]` with a 1-d integer array along
    `axis`): the result has the shape of `source` with dimension `axis`
    replaced by the length of `indices`; element `j` along it is element
    `indices[j]` of `source` (negative indices count from the end). An
    index out of range is a run-time error.

    ```mlir
    %t = ndarray.take %a[%i] axis 0 : (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<?x4xf64>
    ```

    Distributed (dimension 0 split): with a split source along axis 0, the
    result's block (default partition of the indices) is fetched by
    `distruntime.take` (requests and rows through one all-to-all each);
    along other axes each rank takes from its rows (split indices are
    gathered); a replicated source with split indices along axis 0 takes
    each block of indices locally.
  }];
  let arguments = (ins NDArray_ReadArray:$source, NDArray_ReadArray:$indices,
                       I64Attr:$axis);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` `axis` $axis attr-dict `:` `(`
    qualified(type($source)) `,` qualified(type($indices)) `)` `->`
    qualified(type($result))
  }];
}

def NDArray_PutOp : NDArray_InferredOp<"put"> {
  let summary = "a copy of an array with sub-arrays at integer indices replaced";
  let description = [{
    numpy's `a[idx] = values` with a 1-d integer array `idx` along `axis`,
    with value semantics: the result is `destination` with its element (or
    sub-array) `indices[j]` along `axis` replaced by element `j` along
    `axis` of `values`, which has the shape of `take(destination, indices,
    axis)` (broadcast it first). Negative indices count from the end; an
    index out of range is a run-time error; of repeated indices the last
    one wins (numpy's order).

    ```mlir
    %r = ndarray.put %v into %a[%i] axis 0 : (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<?x4xf64>
    ```

    Distributed (dimension 0 split): along axis 0 each rank's block of the
    result is written by `distruntime.put`: with split indices or values
    the (index, row) pairs go to the owners of the rows (one all-to-all
    each for the indices and the rows), with replicated ones each rank
    writes its rows without communication; along other axes each rank
    writes its rows (split indices are gathered, the values' rows aligned
    with the destination's). A replicated destination gathers split
    indices and values.
  }];
  let arguments = (ins NDArray_ReadArray:$values,
                       NDArray_ReadArray:$destination,
                       NDArray_ReadArray:$indices, I64Attr:$axis);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    $values `into` $destination `[` $indices `]` `axis` $axis attr-dict `:`
    `(` qualified(type($values)) `,` qualified(type($destination)) `,`
    qualified(type($indices)) `)` `->` qualified(type($result))
  }];
}

def NDArray_MaskedSelectOp : NDArray_InferredOp<"masked_select"> {
  let summary = "the elements (or sub-arrays) where a boolean mask is true";
  let description = [{
    numpy's boolean array indexing `source[mask]`: `mask` (`i1`, rank
    `k >= 1`) has the shape of the first `k` dimensions of `source`; the
    result stacks, in row-major order of the mask, the sub-arrays
    `source[i0, ..., ik-1]` where the mask is true: shape
    `(count, source.shape[k:])`, `count` known only at run time. A mask
    whose dynamic sizes differ from the source's is a run-time error.

    ```mlir
    %r = ndarray.masked_select %a[%m] : !ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xi1> -> !ndarray.ndarray<?xf64>
    %s = ndarray.masked_select %b[%r0] : !ndarray.ndarray<?x8xi32>, !ndarray.ndarray<?xi1> -> !ndarray.ndarray<?x8xi32>
    ```

    On arrays distributed along dimension 0 each rank selects from its
    rows and keeps its selection: the result's blocks are where the
    selected elements lie (offsets from an exclusive scan of the ranks'
    counts), not the default partition.
  }];
  let arguments = (ins NDArray_ReadArray:$source, NDArray_ReadArray:$mask);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    $source `[` $mask `]` attr-dict `:` qualified(type($source)) `,`
    qualified(type($mask)) `->` qualified(type($result))
  }];
}

def NDArray_ArgReduceOp : NDArray_InferredOp<"argreduce"> {
  let summary = "index of the maximum or minimum (argmax/argmin)";
  let description = [{
    The `i64` index of the `max` (argmax) or `min` (argmin) element of
    `source` along `axis`, or over the whole array when `axis` is absent
    (the index into the array in row-major order, numpy's flattened index).
    With `keepdims` the reduced dimensions are kept with size 1. numpy's
    rules: the first occurrence wins; a NaN is the maximum and the minimum
    (the first NaN wins); `i1` orders false before true; unsigned integers
    compare unsigned. An empty reduction is an error (statically: a
    diagnostic; dynamically: a run-time error).

    ```mlir
    %i = ndarray.argreduce max %a axis 1 : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<3xi64>
    %j = ndarray.argreduce min %b keepdims : !ndarray.ndarray<?x?xi32> -> !ndarray.ndarray<1x1xi64>
    ```

    On an array distributed along dimension 0, along other axes the op is
    local; along dimension 0 or over all axes each rank finds its candidate
    (value and global index) and allreduces of one row pick the first
    maximum (minimum) of all ranks.
  }];
  let arguments = (ins NDArray_ReductionKindAttr:$kind,
                       NDArray_ReadArray:$source, OptionalAttr<I64Attr>:$axis,
                       UnitAttr:$keepdims);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    `` $kind $source (`axis` $axis^)? (`keepdims` $keepdims^)? attr-dict
    `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let extraClassDeclaration = [{
    /// The reduced axes: `axis`, all of them when it is absent.
    ::llvm::SmallVector<int64_t> getReducedAxes();
  }];
}

def NDArray_CumulativeOp : NDArray_InferredOp<"cumulative"> {
  let summary = "cumulative sum or product along an axis (a scan)";
  let description = [{
    Element `i` along `axis` of the result is the `sum` or `prod` of the
    elements `0..i` of `source` along that axis (the array API's
    `cumulative_sum`/`cumulative_prod`, numpy's `cumsum`/`cumprod`). With
    `include_initial` the result has one more element along `axis`, the
    identity (0 or 1), first. Element types as for `ndarray.reduction`:
    `i1` and signed integers accumulate in `i64`, unsigned ones in `ui64`,
    floats in their own type.

    ```mlir
    %c = ndarray.cumulative sum %a axis 1 : !ndarray.ndarray<3x4xi32> -> !ndarray.ndarray<3x4xi64>
    %d = ndarray.cumulative prod %b axis 0 include_initial : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
    ```

    On an array distributed along dimension 0, a scan along another axis is
    local; along dimension 0 each rank scans its rows and applies the
    exclusive scan of the ranks' totals (`distruntime.exscan`), so one row
    per rank is communicated (floating point results round differently on
    different numbers of ranks, as any parallel scan).
  }];
  let arguments = (ins NDArray_ReductionKindAttr:$kind,
                       NDArray_ReadArray:$source, I64Attr:$axis,
                       UnitAttr:$include_initial);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    `` $kind $source `axis` $axis (`include_initial` $include_initial^)?
    attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
}

def NDArray_MatMulOp : NDArray_InferredOp<"matmul"> {
  let summary = "matrix product with numpy matmul semantics";
  let description = [{
    Matrix product of the last two dimensions; leading (batch) dimensions are
    broadcast. A 1-d `lhs` is treated as a row vector and a 1-d `rhs` as a
    column vector, and the added dimension is removed from the result, as in
    numpy. Element types are promoted. 0-d operands are rejected.

    ```mlir
    %c = ndarray.matmul %a, %b : (!ndarray.ndarray<3x4xf64>, !ndarray.ndarray<4x5xf64>) -> !ndarray.ndarray<3x5xf64>
    ```
  }];
  let arguments = (ins NDArray_ReadArray:$lhs, NDArray_ReadArray:$rhs);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
}

def NDArray_LinalgOp : NDArray_Op<"linalg"> {
  let summary = "dense linear algebra on stacks of matrices (LAPACK)";
  let description = [{
    A routine of the array API's linalg extension on the last two
    dimensions of its inputs (a stack of matrices; the leading, batch,
    dimensions equal in every operand and result). Element types are
    `f32`, `f64`, `complex<f32>` or `complex<f64>`, one for all inputs.
    The last result is a 0-d `i64` status: 0, or the number of matrices
    the routine failed on (a singular matrix for `solve` and `inv`, one not
    positive definite for `cholesky`, no convergence for `eigh` and `svd`),
    whose results are then unspecified. With `n` the matrix size, inputs
    and results before the status:

    | kind | inputs | results |
    |---|---|---|
    | `cholesky` | A (n x n) | L (n x n; U = L^H with `flag`) |
    | `solve` | A (n x n), B (n x k) | X (n x k) |
    | `inv` | A (n x n) | A^-1 (n x n) |
    | `det` | A (n x n) | det (batch dims only) |
    | `slogdet` | A (n x n) | sign, log abs det (real) |
    | `eigh` | A (n x n, Hermitian: the lower triangle is read) | eigenvalues (n, real, ascending), eigenvectors (n x n) |
    | `eigvalsh` | A (n x n) | eigenvalues (n, real) |
    | `qr` | A (m x n) | Q (m x k), R (k x n): k = min(m, n), or m with `flag` (complete) |
    | `svd` | A (m x n) | U (m x k), S (k, real, descending), V^H (k x n): k = min(m, n); U m x m and V^H n x n with `flag` (full matrices) |
    | `svdvals` | A (m x n) | S (k, real) |

    Lowered by `lower-distruntime-to-idtr` to IDTR's LAPACK wrappers
    (`_idtr_linalg_<T>`); on distributed inputs `ndarray-dist` computes it
    on the gathered (replicated) arrays.

    ```mlir
    %x, %status = ndarray.linalg solve %a, %b : (!ndarray.ndarray<3x3xf64>, !ndarray.ndarray<3x2xf64>) -> (!ndarray.ndarray<3x2xf64>, !ndarray.ndarray<i64>)
    ```
  }];
  let arguments = (ins NDArray_LinalgKindAttr:$kind,
                       Arg<Variadic<NDArray_NDArrayType>, "", [MemRead]>:$inputs,
                       UnitAttr:$flag);
  let results = (outs Res<Variadic<NDArray_NDArrayType>, "", [MemAlloc]>:$results);
  let assemblyFormat = [{
    `` $kind $inputs (`flag` $flag^)? attr-dict `:`
    functional-type($inputs, $results)
  }];
  let hasVerifier = 1;
}

def NDArray_FFTOp : NDArray_Op<"fft"> {
  let summary = "unnormalized discrete Fourier transform over some axes";
  let description = [{
    The multi-dimensional transform of `source` over the distinct `axes`,
    without scaling (the fft extension's `norm` is applied by the caller).
    The last of `axes` is the real one of the real transforms:

    | kind | source | result |
    |---|---|---|
    | `forward` | complex | complex, same sizes: sum x_j e^(-2 pi i j.k/n) |
    | `backward` | complex | complex, same sizes: sum x_j e^(+2 pi i j.k/n) |
    | `r2c` | f32/f64, n along the last axis | complex, n / 2 + 1 along it (the forward transform's non-negative frequencies) |
    | `c2r` | complex, `length` / 2 + 1 along the last axis | f32/f64, `length` along it (the backward transform of the Hermitian-symmetric input) |

    The other dimensions are equal; precisions match (f32 with
    complex<f32>). One op over several axes is one FFTW plan of that rank
    (numpy's `fftn`), faster than one transform per axis. Lowered by
    `lower-distruntime-to-idtr` to IDTR's FFTW wrappers (`_idtr_fft_<T>`);
    on distributed arrays computed on the gathered array.

    ```mlir
    %f = ndarray.fft r2c %x axes [1] : !ndarray.ndarray<4x8xf64> -> !ndarray.ndarray<4x5xcomplex<f64>>
    %g = ndarray.fft forward %c axes [0, 1] : !ndarray.ndarray<4x8xcomplex<f32>> -> !ndarray.ndarray<4x8xcomplex<f32>>
    ```
  }];
  let arguments = (ins NDArray_FFTKindAttr:$kind, NDArray_ReadArray:$source,
                       DenseI64ArrayAttr:$axes, OptionalAttr<I64Attr>:$length);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    `` $kind $source `axes` $axes (`length` $length^)? attr-dict `:`
    qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def NDArray_ConcatOp : NDArray_InferredOp<"concat"> {
  let summary = "join arrays along an existing axis";
  let description = [{
    Concatenates one or more arrays of the same rank along `axis`; all other
    dimensions must match. Element types are promoted.

    ```mlir
    %c = ndarray.concat %a, %b axis 0 : (!ndarray.ndarray<2x3xf64>, !ndarray.ndarray<?x3xf64>) -> !ndarray.ndarray<?x3xf64>
    ```
  }];
  let arguments = (ins Arg<Variadic<NDArray_NDArrayType>, "", [MemRead]>:$inputs,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$axis);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    $inputs `axis` $axis attr-dict `:` functional-type($inputs, results)
  }];
}

#endif // IMEX_DIALECT_NDARRAY_IR_NDARRAYREDUCTIONOPS_TD
