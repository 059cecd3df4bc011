//===- DistRuntimeOps.td - distruntime dialect ----------------*- tablegen -*-//
//
// The `distruntime` dialect: the communication primitives of the IDTR
// runtime (docs/runtime.md) on local arrays.
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEOPS_TD
#define IMEX_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEOPS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def DistRuntime_Dialect : Dialect {
  let name = "distruntime";
  let cppNamespace = "::imex::distruntime";
  let summary = "Communication primitives of the IDTR runtime on local arrays";
  let description = [{
    The `distruntime` dialect is the last step of the distribution before
    code generation: its ops are the collective operations of the IDTR MPI
    runtime (docs/runtime.md), expressed on the *local* parts of distributed
    arrays. `convert-dist-to-standard` produces them from `#dist.dist_env`
    arrays; `lower-distruntime-to-idtr` turns them into calls of IDTR's C
    ABI.

    All array operands and results are local `!ndarray.ndarray` values:
    arrays without a `#dist.dist_env` environment, whose element type is one
    IDTR supports (`f64 f32 i64 i32 i16 i8 i1 ui64 ui32 ui16 ui8 index`).
    Index lists (global shapes, offsets, bounding boxes) are variadic
    `index` operands with one value per dimension.

    **Teams.** Every op names the team of ranks it runs on by its IDTR id
    (`team`, >= 1; 1 is `MPI_COMM_WORLD`). The number of ranks and the rank
    of the process are only known at run time: one compiled module runs on
    any number of ranks, so `team_size` and `team_member` never fold.

    **Collectives.** `allreduce`, `get_halo`, `copy_reshape`,
    `copy_permute` and `wait` communicate: every rank of the team executes
    them in the same order. They read and write the `DistRuntimeComm`
    side-effect resource, so they are never merged (CSE), hoisted, reordered
    with each other or deleted when their results are unused.

    **Asynchronous ops and `wait`.** `get_halo`, `copy_reshape` and
    `copy_permute` start a data exchange and return an
    `!distruntime.asynchandle` together with their output arrays. The
    outputs must not be read, and the input must stay alive and unmodified,
    until the exchange is completed by `distruntime.wait`, which takes the
    handle and *all* arrays of the op (its input and its outputs) and
    returns them, completed. Later code uses the results of the wait:

    ```mlir
    %h, %l, %r = distruntime.get_halo %a global_shape[%n] local_offsets[%o]
        bb_offsets[%b] bb_sizes[%s] team = 1
        : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
    // ... work that does not need the halos ...
    %a2, %l2, %r2 = distruntime.wait %h, %a, %l, %r
        : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
    ```

    This SSA threading makes the IDTR rules visible to every pass: nothing
    can read an output before the wait, and bufferization sees the input and
    the outputs used at the wait, so their buffers stay alive and are not
    overwritten in place before it.
  }];
  let dependentDialects = ["::imex::ndarray::NDArrayDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

//===----------------------------------------------------------------------===//
// Enums, types, resources
//===----------------------------------------------------------------------===//

def DistRuntime_ReductionKind : I32Enum<"ReductionKind",
    "element-wise reduction over the ranks of a team (IDTR_OP_*)", [
  I32EnumCase<"sum", 0>, I32EnumCase<"prod", 1>, I32EnumCase<"min", 2>,
  I32EnumCase<"max", 3>, I32EnumCase<"land", 4>, I32EnumCase<"lor", 5>]> {
  let cppNamespace = "::imex::distruntime";
}

def DistRuntime_ReductionKindAttr
    : EnumAttr<DistRuntime_Dialect, DistRuntime_ReductionKind, "reduction">;

def DistRuntime_MatrixRoutine : I32Enum<"MatrixRoutine",
    "routine of distruntime.matrix_linalg (numbered as ndarray.linalg's "
    "kinds)", [
  I32EnumCase<"cholesky", 0>, I32EnumCase<"solve", 1>, I32EnumCase<"inv", 2>,
  I32EnumCase<"det", 3>, I32EnumCase<"slogdet", 4>, I32EnumCase<"eigh", 5>,
  I32EnumCase<"eigvalsh", 6>, I32EnumCase<"qr", 7>, I32EnumCase<"svd", 8>,
  I32EnumCase<"svdvals", 9>]> {
  let cppNamespace = "::imex::distruntime";
}

def DistRuntime_MatrixRoutineAttr
    : EnumAttr<DistRuntime_Dialect, DistRuntime_MatrixRoutine, "routine">;

def DistRuntime_AsyncHandleType
    : TypeDef<DistRuntime_Dialect, "AsyncHandle"> {
  let mnemonic = "asynchandle";
  let summary = "an outstanding asynchronous communication";
  let description = [{
    Produced by `get_halo`, `copy_reshape` and `copy_permute`; consumed by
    exactly one `distruntime.wait`. Lowered to the `i64` handle of IDTR.

    ```mlir
    !distruntime.asynchandle
    ```
  }];
}

// The communication state of the process (MPI, IDTR's handles and plan
// cache): read and written by every communicating op.
def DistRuntime_CommResource : Resource<"::imex::distruntime::CommResource">;

def DistRuntime_Communicates : MemoryEffects<[
    MemRead<DistRuntime_CommResource>, MemWrite<DistRuntime_CommResource>]>;

// A local array (checked by `verifyLocalArray`: no dist environment, IDTR
// element type).
def DistRuntime_Array : Type<
    CPred<"::llvm::isa<::imex::ndarray::NDArrayType>($_self)">,
    "local array", "::imex::ndarray::NDArrayType">;
def DistRuntime_ReadArray : Arg<DistRuntime_Array, "", [MemRead]>;
def DistRuntime_FreshArray : Res<DistRuntime_Array, "", [MemAlloc]>;

def DistRuntime_TeamAttr : ConfinedAttr<I64Attr, [IntMinValue<1>]>;
def DistRuntime_KeyAttr : DefaultValuedAttr<I64Attr, "-1">;

//===----------------------------------------------------------------------===//
// Interfaces
//===----------------------------------------------------------------------===//

def DistRuntime_AsyncOpInterface : OpInterface<"AsyncOpInterface"> {
  let cppNamespace = "::imex::distruntime";
  let description = [{
    An op that starts an asynchronous exchange: it reads one input array
    (operand 0) and returns a `!distruntime.asynchandle` (result 0) followed
    by the output arrays it writes. `distruntime.wait` on the handle takes
    the input and the outputs, in this order.
  }];
  let methods = [
    InterfaceMethod<"The handle of the exchange.", "::mlir::Value",
      "getAsyncHandle", (ins), [{}], [{ return $_op->getResult(0); }]>,
    InterfaceMethod<"The array the exchange reads.", "::mlir::Value",
      "getAsyncInput", (ins), [{}], [{ return $_op->getOperand(0); }]>,
    InterfaceMethod<"The arrays the exchange writes.", "::mlir::ResultRange",
      "getAsyncOutputs", (ins), [{}],
      [{ return $_op->getResults().drop_front(); }]>,
  ];
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

class DistRuntime_Op<string mnemonic, list<Trait> traits = []>
    : Op<DistRuntime_Dialect, mnemonic, traits>;

// Async ops: input first, handle first, then the outputs; collective.
class DistRuntime_AsyncOp<string mnemonic, list<Trait> traits = []>
    : DistRuntime_Op<mnemonic, traits # [AttrSizedOperandSegments,
        DistRuntime_Communicates,
        DistRuntime_AsyncOpInterface]> {
  let hasVerifier = 1;
}

def DistRuntime_TeamSizeOp : DistRuntime_Op<"team_size", [Pure]> {
  let summary = "number of ranks in a team";
  let description = [{
    The number of processes of `team` (`_idtr_nprocs`). A run-time value:
    never folded.

    ```mlir
    %n = distruntime.team_size team = 1
    ```
  }];
  let arguments = (ins DistRuntime_TeamAttr:$team);
  let results = (outs Index:$size);
  let assemblyFormat = "`team` `=` $team attr-dict";
}

def DistRuntime_TeamMemberOp : DistRuntime_Op<"team_member", [Pure]> {
  let summary = "rank of this process in a team";
  let description = [{
    The rank of the executing process in `team` (`_idtr_prank`), from 0 to
    `team_size - 1`. A run-time value: never folded.

    ```mlir
    %r = distruntime.team_member team = 1
    ```
  }];
  let arguments = (ins DistRuntime_TeamAttr:$team);
  let results = (outs Index:$rank);
  let assemblyFormat = "`team` `=` $team attr-dict";
}

def DistRuntime_GridDimOp : DistRuntime_Op<"grid_dim", [Pure]> {
  let summary = "one extent of the default grid of a team's ranks";
  let description = [{
    Extent `dim` of the Cartesian grid of `ndims` dimensions that all ranks
    of `team` form by default (`MPI_Dims_create`: extents as close to each
    other as possible, non-increasing; `_idtr_grid_dim`). The grid of a
    `#dist.dist_env` that splits `ndims` axes and names no grid. A run-time
    value: never folded. Local, not collective.

    ```mlir
    %p0 = distruntime.grid_dim team = 1 ndims = 2 dim = 0
    ```
  }];
  let arguments = (ins DistRuntime_TeamAttr:$team,
                       ConfinedAttr<I64Attr, [IntMinValue<1>]>:$ndims,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dim);
  let results = (outs Index:$size);
  let assemblyFormat = [{
    `team` `=` $team `ndims` `=` $ndims `dim` `=` $dim attr-dict
  }];
  let hasVerifier = 1;
}

def DistRuntime_AllReduceOp : DistRuntime_Op<"allreduce", [
    DistRuntime_Communicates, AllTypesMatch<["input", "result"]>]> {
  let summary = "element-wise reduction over all ranks of a team";
  let description = [{
    Returns a fresh array of the type of `input` holding, at every index,
    the reduction with `kind` of the elements of `input` on all ranks of
    `team` (every rank passes an array of the same shape). `input` is not
    modified. Collective and synchronous.

    `land` and `lor` give 0/1 for every element type; for `i1`, `sum` and
    `max` mean "any", `prod` and `min` mean "all" (numpy bool semantics).

    ```mlir
    %s = distruntime.allreduce sum %a team = 1 : !ndarray.ndarray<4xf64>
    ```
  }];
  let arguments = (ins DistRuntime_ReductionKindAttr:$kind,
                       DistRuntime_ReadArray:$input,
                       DistRuntime_TeamAttr:$team);
  let results = (outs DistRuntime_FreshArray:$result);
  let assemblyFormat = [{
    `` `` $kind $input `team` `=` $team attr-dict `:` qualified(type($input))
  }];
  let hasVerifier = 1;
}

def DistRuntime_ExScanOp : DistRuntime_Op<"exscan", [
    DistRuntime_Communicates, AllTypesMatch<["input", "result"]>]> {
  let summary = "element-wise exclusive scan over the ranks of a team";
  let description = [{
    Returns a fresh array of the type of `input` holding, at every index,
    the reduction with `kind` of the elements of `input` on the ranks
    before this one in `team` (MPI_Exscan); the first rank gets the
    identity of `kind` (0, 1, the largest/smallest value, +-inf). Every
    rank passes an array of the same shape; `input` is not modified.
    Collective and synchronous. Element types and `kind`s as `allreduce`.

    The distributed lowering of a scan along the split dimension uses it
    for the totals of the ranks' blocks.

    ```mlir
    %s = distruntime.exscan sum %totals team = 1 : !ndarray.ndarray<1x4xi64>
    ```
  }];
  let arguments = (ins DistRuntime_ReductionKindAttr:$kind,
                       DistRuntime_ReadArray:$input,
                       DistRuntime_TeamAttr:$team);
  let results = (outs DistRuntime_FreshArray:$result);
  let assemblyFormat = [{
    `` `` $kind $input `team` `=` $team attr-dict `:` qualified(type($input))
  }];
  let hasVerifier = 1;
}

def DistRuntime_OrderedReduceOp : DistRuntime_Op<"ordered_reduce", [
    DistRuntime_Communicates]> {
  let summary = "reproducible sum or product over the rows of a split array";
  let description = [{
    `input` is this rank's block (global rows `[offset, offset + size)`,
    blocks in rank order) of a floating point or complex array of `rows`
    rows split over `team`; the result (one row of the shape of the other
    dimensions) is the sum or product of all its rows in an order fixed by
    the array, not by the ranks: blocks of 64 global rows (IDTR's
    `IDTR_ORDERED_BLOCK`), each reduced in row order from the identity,
    then the block results in block order. Every number of ranks gives the
    same bits. Collective and synchronous; lowered to
    `_idtr_ordered_reduce_<T>`: the rank holding a block's first row
    receives its other rows (less than a block per rank boundary), the
    block results go to every rank.

    ```mlir
    %s = distruntime.ordered_reduce sum %a offset %o rows %n team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<1x4xf64>
    ```
  }];
  let arguments = (ins DistRuntime_ReductionKindAttr:$kind,
                       DistRuntime_ReadArray:$input, Index:$offset,
                       Index:$rows, DistRuntime_TeamAttr:$team);
  let results = (outs DistRuntime_FreshArray:$result);
  let assemblyFormat = [{
    `` `` $kind $input `offset` $offset `rows` $rows `team` `=` $team
    attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def DistRuntime_MatrixLinalgOp : DistRuntime_Op<"matrix_linalg", [
    DistRuntime_Communicates, AttrSizedOperandSegments]> {
  let summary = "a dense linear algebra routine on one matrix split on rows";
  let description = [{
    `ndarray.linalg` on a single n x n matrix split over `team`: each input
    is this rank's block of rows of the default partition (`a`, n x n; for
    `solve` also `b`, n x k); the results are this rank's rows of the
    default partition of the matrix result (`cholesky`: L, or U = L^H with
    `flag`; `solve`: X; `inv`: A^-1; `eigh`: the eigenvectors), or the
    results every rank gets whole (`det`; `slogdet`: sign and log|det|;
    `eigh`, `eigvalsh`: the n eigenvalues, ascending), then the status: the
    number of matrices the routine failed on (0 or 1), the same on every
    rank. Element types f32, f64, complex<f32>, complex<f64>; log|det| and
    eigenvalues are real.

    `qr` (reduced) takes an m x n matrix `a` of any shape and one
    `result_rows` operand: this rank's row count of the default partition
    of R's k = min(m, n) rows. Its results are this rank's rows of Q, m x k,
    in the first k of n columns (the others are not written), and its rows
    of R, k x n. `svdvals` of an m x n matrix returns the k singular values
    (descending) on every rank, in the first k of n elements; `svd`
    (reduced, with a `rows` operand as `qr`'s) returns this rank's rows of
    U (m x k, in the first k of n columns), the singular values (as
    `svdvals`) and this rank's rows of V^H (k x n).
    Collective and synchronous; lowered to `_idtr_matrix_linalg_<T>`:
    ScaLAPACK on a p x q grid of the team (`MPI_Dims_create`), the matrices
    moved to its block-cyclic layout and back by one all-to-all each.

    ```mlir
    %x, %s = distruntime.matrix_linalg solve %a, %b team = 1 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<i64>)
    %d, %t = distruntime.matrix_linalg det %a team = 1 : (!ndarray.ndarray<?x8xf32>) -> (!ndarray.ndarray<f32>, !ndarray.ndarray<i64>)
    %q, %r, %u = distruntime.matrix_linalg qr %a rows(%k) team = 1 : (!ndarray.ndarray<?x?xf64>) -> (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<i64>)
    ```
  }];
  let arguments = (ins DistRuntime_MatrixRoutineAttr:$kind,
                       Arg<Variadic<DistRuntime_Array>, "", [MemRead]>:$inputs,
                       Variadic<Index>:$result_rows,
                       UnitAttr:$flag, DistRuntime_TeamAttr:$team);
  let results = (outs Res<Variadic<DistRuntime_Array>, "", [MemAlloc]>:$results);
  let assemblyFormat = [{
    $kind $inputs (`rows` `(` $result_rows^ `)`)? (`flag` $flag^)?
    `team` `=` $team attr-dict `:` functional-type($inputs, $results)
  }];
  let hasVerifier = 1;
}

def DistRuntime_SampleSortOp : DistRuntime_Op<"sample_sort", [
    DistRuntime_Communicates]> {
  let summary = "distributed stable sort of a 1-d array (sample sort)";
  let description = [{
    `input` is this rank's block (global rows `[offset, offset + size)`,
    blocks in rank order) of a 1-d array distributed over `team`; the result
    is this rank's block of `rows` elements of the sorted array (any blocks
    in rank order whose sizes add up to the array's): the sorted values, or
    with `indices` (an `i64` result) their positions in the input. Order as
    `ndarray.sort` (stable, NaNs last, `descending`). Collective and
    synchronous; lowered to `_idtr_sample_sort_<T>` (regular-sample
    splitters, one all-to-all of (value, position) pairs, a point-to-point
    rebalance to the result's blocks).

    ```mlir
    %s = distruntime.sample_sort %a offset %o rows %n team = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
    %i = distruntime.sample_sort %a offset %o rows %n descending indices team = 1 : !ndarray.ndarray<?xi32> -> !ndarray.ndarray<?xi64>
    ```
  }];
  let arguments = (ins DistRuntime_ReadArray:$input, Index:$offset,
                       Index:$rows, UnitAttr:$descending, UnitAttr:$indices,
                       DistRuntime_TeamAttr:$team);
  let results = (outs DistRuntime_FreshArray:$result);
  let assemblyFormat = [{
    $input `offset` $offset `rows` $rows (`descending` $descending^)?
    (`indices` $indices^)? `team` `=` $team attr-dict `:`
    qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def DistRuntime_TakeOp : DistRuntime_Op<"take", [DistRuntime_Communicates]> {
  let summary = "rows of a distributed array at global indices";
  let description = [{
    `input` is this rank's block (global rows `[offset, offset + size)`,
    blocks in rank order) of an array of `rows` rows split over `team`; the
    result holds row `indices[j]` (global, `i64`, negative from the end) of
    that array as its row `j`. Collective and synchronous; lowered to
    `_idtr_take_<T>`: the requests and the rows each go through one
    all-to-all, so the bytes moved are the requested rows and their
    indices. An index out of range aborts with a message naming it.

    ```mlir
    %t = distruntime.take %a offset %o rows %n indices %i team = 1 : (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<?x4xf64>
    ```
  }];
  let arguments = (ins DistRuntime_ReadArray:$input, Index:$offset,
                       Index:$rows, DistRuntime_ReadArray:$indices,
                       DistRuntime_TeamAttr:$team);
  let results = (outs DistRuntime_FreshArray:$result);
  let assemblyFormat = [{
    $input `offset` $offset `rows` $rows `indices` $indices `team` `=` $team
    attr-dict `:` `(` qualified(type($input)) `,` qualified(type($indices))
    `)` `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def DistRuntime_PutOp : DistRuntime_Op<"put", [DistRuntime_Communicates,
    AllTypesMatch<["data", "result"]>]> {
  let summary = "rows of a distributed array written at global indices";
  let description = [{
    `data` is this rank's block (global rows `[offset, offset + size)`,
    blocks in rank order) of an array of `rows` rows split over `team`; the
    result is `data` with row `indices[j]` (global, `i64`, negative from the
    end) replaced by row `j` of `values`, for the indices and values of
    every rank: of repeated indices the last wins, rank r's indices before
    rank r + 1's (numpy's order when the indices are split in rank order).
    With `replicated` every rank passes all indices and values and writes
    those of its rows (no communication); otherwise the (index, row) pairs
    go to the owners of the rows (one all-to-all each for the indices and
    the rows). Collective and synchronous; lowered to `_idtr_put_<T>` on a
    copy of `data`. An index out of range aborts with a message naming it.

    ```mlir
    %r = distruntime.put %v into %a offset %o rows %n indices %i team = 1 : (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<?x4xf64>
    ```
  }];
  let arguments = (ins DistRuntime_ReadArray:$values,
                       DistRuntime_ReadArray:$data, Index:$offset,
                       Index:$rows, DistRuntime_ReadArray:$indices,
                       UnitAttr:$replicated, DistRuntime_TeamAttr:$team);
  let results = (outs DistRuntime_FreshArray:$result);
  let assemblyFormat = [{
    $values `into` $data `offset` $offset `rows` $rows `indices` $indices
    (`replicated` $replicated^)? `team` `=` $team attr-dict `:` `(`
    qualified(type($values)) `,` qualified(type($data)) `,`
    qualified(type($indices)) `)` `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def DistRuntime_RaggedAllToAllOp : DistRuntime_Op<"ragged_alltoall", [
    DistRuntime_Communicates, AllTypesMatch<["output", "result"]>]> {
  let summary = "ragged all-to-all exchange of rows";
  let description = [{
    `jax.lax.ragged_all_to_all` semantics on local arrays: rows
    `send[send_offsets[i] : + send_sizes[i]]` go to rank `i` of `team`,
    which stores them at rows `[output_offsets[i], + send_sizes[i])` of its
    output (`output_offsets[i]` is where *this* rank's rows land on rank
    `i`); `recv_sizes[i]` is the number of rows this rank receives from
    rank `i`. The result is `output` with the received rows written (rows
    not received keep their values). The four tables are 1-d `index`
    arrays with one entry per rank. Collective and synchronous; lowered to
    `_idtr_ragged_alltoall_<T>`, which checks the tables against each
    other (overlaps, sizes) and reports the first inconsistency.

    ```mlir
    %r = distruntime.ragged_alltoall %send send_offsets %so send_sizes %ss into %out output_offsets %oo recv_sizes %rs team = 1 : (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xindex>) -> !ndarray.ndarray<?x2xf64>
    ```
  }];
  let arguments = (ins DistRuntime_ReadArray:$send,
                       DistRuntime_ReadArray:$send_offsets,
                       DistRuntime_ReadArray:$send_sizes,
                       DistRuntime_ReadArray:$output,
                       DistRuntime_ReadArray:$output_offsets,
                       DistRuntime_ReadArray:$recv_sizes,
                       DistRuntime_TeamAttr:$team);
  let results = (outs DistRuntime_FreshArray:$result);
  let assemblyFormat = [{
    $send `send_offsets` $send_offsets `send_sizes` $send_sizes `into` $output
    `output_offsets` $output_offsets `recv_sizes` $recv_sizes `team` `=`
    $team attr-dict `:` `(` qualified(type($send)) `,`
    qualified(type($send_offsets)) `,` qualified(type($send_sizes)) `,`
    qualified(type($output_offsets)) `,` qualified(type($recv_sizes)) `)`
    `->` qualified(type($output))
  }];
  let hasVerifier = 1;
}

def DistRuntime_GetHaloOp : DistRuntime_AsyncOp<"get_halo"> {
  let summary = "start fetching the halo rows of a bounding box";
  let description = [{
    `data` is this rank's owned block of a distributed array of rank R >= 1
    and global shape `global_shape`, split on dimension 0; its first element
    is at the global index `local_offsets` (0 on dimensions 1..). The rank
    needs the global box `[bb_offsets, bb_offsets + bb_sizes)`.

    With owned rows `[o, o + n)` and box rows `[b, b + s)`, `lhalo` receives
    the `clamp(o - b, 0, s)` box rows before the owned rows and `rhalo` the
    `clamp(b + s - (o + n), 0, s)` box rows after them; on dimensions 1.. both
    have the sizes `bb_sizes[1..]` (the columns `[bb_offsets[k],
    bb_offsets[k] + bb_sizes[k])`). Owned rows inside the box are read from
    `data` by the caller. This is `_idtr_update_halo_<T>`.

    Collective and asynchronous: the halos must not be read, and `data` must
    not be modified, before `distruntime.wait %handle, %data, %lhalo,
    %rhalo`. With `key` >= 0 IDTR caches the communication plan under this
    key (one key per call site with fixed shapes and partition); -1 (the
    default, not printed) disables caching.

    ```mlir
    %h, %l, %r = distruntime.get_halo %a global_shape[%n, %c16]
        local_offsets[%o, %c0] bb_offsets[%b, %c0] bb_sizes[%s, %c16]
        team = 1 key = 7
        : !ndarray.ndarray<?x16xf64> -> !ndarray.ndarray<?x16xf64>, !ndarray.ndarray<?x16xf64>
    ```
  }];
  let arguments = (ins DistRuntime_ReadArray:$data,
                       Variadic<Index>:$global_shape,
                       Variadic<Index>:$local_offsets,
                       Variadic<Index>:$bb_offsets,
                       Variadic<Index>:$bb_sizes,
                       DistRuntime_TeamAttr:$team,
                       DistRuntime_KeyAttr:$key);
  let results = (outs DistRuntime_AsyncHandleType:$handle,
                      DistRuntime_FreshArray:$lhalo,
                      DistRuntime_FreshArray:$rhalo);
  let builders = [
    // The handle type is implied.
    OpBuilder<(ins "::mlir::Type":$lhalo, "::mlir::Type":$rhalo,
        "::mlir::Value":$data, "::mlir::ValueRange":$global_shape,
        "::mlir::ValueRange":$local_offsets, "::mlir::ValueRange":$bb_offsets,
        "::mlir::ValueRange":$bb_sizes, "int64_t":$team,
        CArg<"int64_t", "-1">:$key), [{
      build($_builder, $_state,
            AsyncHandleType::get($_builder.getContext()), lhalo, rhalo, data,
            global_shape, local_offsets, bb_offsets, bb_sizes,
            static_cast<uint64_t>(team), static_cast<uint64_t>(key));
    }]>
  ];
  let assemblyFormat = [{
    $data `global_shape` `[` $global_shape `]`
    `local_offsets` `[` $local_offsets `]`
    `bb_offsets` `[` $bb_offsets `]` `bb_sizes` `[` $bb_sizes `]`
    `team` `=` $team (`key` `=` $key^)? attr-dict
    `:` qualified(type($data)) `->` qualified(type($lhalo)) `,`
    qualified(type($rhalo))
  }];
}

def DistRuntime_CopyReshapeOp : DistRuntime_AsyncOp<"copy_reshape"> {
  let summary = "start a row-major reshape of a distributed array";
  let description = [{
    `input` is this rank's block (rows `local_offsets_in[0]..`) of a
    distributed array of global shape `global_shape_in`. `output` is this
    rank's block, of shape `local_shape_out` at the global offsets
    `local_offsets_out`, of the array of global shape `global_shape_out`
    whose row-major (C order) elements are those of the input (numpy's
    `reshape`, always a copy). Both arrays are split on dimension 0 and have
    rank >= 1. This is `_idtr_copy_reshape_<T>`.

    Collective and asynchronous: complete it with
    `distruntime.wait %handle, %input, %output`.

    ```mlir
    %h, %out = distruntime.copy_reshape %a global_shape_in[%c4, %c6]
        local_offsets_in[%o, %c0] global_shape_out[%c24]
        local_offsets_out[%p] local_shape_out[%m] team = 1
        : !ndarray.ndarray<?x6xi32> -> !ndarray.ndarray<?xi32>
    ```
  }];
  let arguments = (ins DistRuntime_ReadArray:$input,
                       Variadic<Index>:$global_shape_in,
                       Variadic<Index>:$local_offsets_in,
                       Variadic<Index>:$global_shape_out,
                       Variadic<Index>:$local_offsets_out,
                       Variadic<Index>:$local_shape_out,
                       DistRuntime_TeamAttr:$team,
                       DistRuntime_KeyAttr:$key);
  let results = (outs DistRuntime_AsyncHandleType:$handle,
                      DistRuntime_FreshArray:$output);
  let builders = [
    // The handle type is implied.
    OpBuilder<(ins "::mlir::Type":$output, "::mlir::Value":$input,
        "::mlir::ValueRange":$global_shape_in,
        "::mlir::ValueRange":$local_offsets_in,
        "::mlir::ValueRange":$global_shape_out,
        "::mlir::ValueRange":$local_offsets_out,
        "::mlir::ValueRange":$local_shape_out, "int64_t":$team,
        CArg<"int64_t", "-1">:$key), [{
      build($_builder, $_state,
            AsyncHandleType::get($_builder.getContext()), output, input,
            global_shape_in, local_offsets_in, global_shape_out,
            local_offsets_out, local_shape_out, static_cast<uint64_t>(team),
            static_cast<uint64_t>(key));
    }]>
  ];
  let assemblyFormat = [{
    $input `global_shape_in` `[` $global_shape_in `]`
    `local_offsets_in` `[` $local_offsets_in `]`
    `global_shape_out` `[` $global_shape_out `]`
    `local_offsets_out` `[` $local_offsets_out `]`
    `local_shape_out` `[` $local_shape_out `]`
    `team` `=` $team (`key` `=` $key^)? attr-dict
    `:` qualified(type($input)) `->` qualified(type($output))
  }];
}

def DistRuntime_RepartitionOp : DistRuntime_AsyncOp<"repartition"> {
  let summary = "start copying any box of a distributed array to each rank";
  let description = [{
    `input` is this rank's block (at the global offsets `local_offsets`) of
    a distributed array of global shape `global_shape` in any block
    distribution (the blocks of all ranks tile the array: rows, columns or
    the blocks of a grid of ranks). `output` receives the global box `[target_offsets, target_offsets +
    target_sizes)` of the array: boxes may be a new row partition, blocks
    of other dimensions, or the same box on several ranks; they need not
    tile the array. Only ranks whose rows overlap a box send to its rank.
    This is `_idtr_repartition_<T>`.

    Collective and asynchronous: complete it with
    `distruntime.wait %handle, %input, %output`.

    ```mlir
    %h, %out = distruntime.repartition %a global_shape[%n, %c6]
        local_offsets[%o, %c0] target_offsets[%c0, %j]
        target_sizes[%n, %c2] team = 1
        : !ndarray.ndarray<?x6xf64> -> !ndarray.ndarray<?x2xf64>
    ```
  }];
  let arguments = (ins DistRuntime_ReadArray:$input,
                       Variadic<Index>:$global_shape,
                       Variadic<Index>:$local_offsets,
                       Variadic<Index>:$target_offsets,
                       Variadic<Index>:$target_sizes,
                       DistRuntime_TeamAttr:$team,
                       DistRuntime_KeyAttr:$key);
  let results = (outs DistRuntime_AsyncHandleType:$handle,
                      DistRuntime_FreshArray:$output);
  let builders = [
    // The handle type is implied.
    OpBuilder<(ins "::mlir::Type":$output, "::mlir::Value":$input,
        "::mlir::ValueRange":$global_shape,
        "::mlir::ValueRange":$local_offsets,
        "::mlir::ValueRange":$target_offsets,
        "::mlir::ValueRange":$target_sizes, "int64_t":$team,
        CArg<"int64_t", "-1">:$key), [{
      build($_builder, $_state,
            AsyncHandleType::get($_builder.getContext()), output, input,
            global_shape, local_offsets, target_offsets, target_sizes,
            static_cast<uint64_t>(team), static_cast<uint64_t>(key));
    }]>
  ];
  let assemblyFormat = [{
    $input `global_shape` `[` $global_shape `]`
    `local_offsets` `[` $local_offsets `]`
    `target_offsets` `[` $target_offsets `]`
    `target_sizes` `[` $target_sizes `]`
    `team` `=` $team (`key` `=` $key^)? attr-dict
    `:` qualified(type($input)) `->` qualified(type($output))
  }];
}

def DistRuntime_FetchBoxesOp : DistRuntime_AsyncOp<"fetch_boxes"> {
  let summary = "start copying several boxes of a distributed array to each rank";
  let description = [{
    `distruntime.repartition` of N boxes at once: `input` is this rank's
    block (at the global offsets `local_offsets`) of a distributed array of
    global shape `global_shape` in any block distribution, and output `i`
    receives the global box `[box_offsets[i * R, (i + 1) * R), box_offsets
    + box_sizes[...])` (R: the rank; N * R values in each list; boxes may
    be empty). One operation and one wait for all of them, one message per
    owner and box it holds part of: the halo faces of a block of a grid of
    ranks come from its neighbours. This is `_idtr_fetch_boxes_<T>`, which
    receives the boxes into one buffer.

    Collective and asynchronous (every rank passes N boxes): complete it
    with `distruntime.wait %handle, %input, %output0, ..., %outputN-1`.

    ```mlir
    %h, %top, %bottom = distruntime.fetch_boxes %a global_shape[%n, %m]
        local_offsets[%i, %j] box_offsets[%i0, %j, %i1, %j]
        box_sizes[%c1, %w, %c1, %w] team = 1
        : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>
    ```
  }];
  let arguments = (ins DistRuntime_ReadArray:$input,
                       Variadic<Index>:$global_shape,
                       Variadic<Index>:$local_offsets,
                       Variadic<Index>:$box_offsets,
                       Variadic<Index>:$box_sizes,
                       DistRuntime_TeamAttr:$team,
                       DistRuntime_KeyAttr:$key);
  let results = (outs DistRuntime_AsyncHandleType:$handle,
                      Res<Variadic<DistRuntime_Array>, "", [MemAlloc]>:$outputs);
  let builders = [
    // The handle type is implied.
    OpBuilder<(ins "::mlir::TypeRange":$outputs, "::mlir::Value":$input,
        "::mlir::ValueRange":$global_shape,
        "::mlir::ValueRange":$local_offsets,
        "::mlir::ValueRange":$box_offsets,
        "::mlir::ValueRange":$box_sizes, "int64_t":$team,
        CArg<"int64_t", "-1">:$key), [{
      build($_builder, $_state,
            AsyncHandleType::get($_builder.getContext()), outputs, input,
            global_shape, local_offsets, box_offsets, box_sizes,
            static_cast<uint64_t>(team), static_cast<uint64_t>(key));
    }]>
  ];
  let assemblyFormat = [{
    $input `global_shape` `[` $global_shape `]`
    `local_offsets` `[` $local_offsets `]`
    `box_offsets` `[` $box_offsets `]`
    `box_sizes` `[` $box_sizes `]`
    `team` `=` $team (`key` `=` $key^)? attr-dict
    `:` qualified(type($input)) `->` qualified(type($outputs))
  }];
}

def DistRuntime_GatherOp : DistRuntime_Op<"gather", [DistRuntime_Communicates,
    AttrSizedOperandSegments]> {
  let summary = "the whole distributed array on every rank or on one";
  let description = [{
    `input` is this rank's block (at the global offsets `local_offsets`) of
    a distributed array of global shape `global_shape`, split on dimension
    0. The result is the whole array on every rank, or with `root` on that
    rank of the team, and no rows on the others (so the result's dimension
    0 is dynamic). Collective and synchronous; lowered to
    `_idtr_gather_<T>` (`MPI_Allgatherv`, or `MPI_Gatherv` to the root):
    each block moves once to each receiving rank.

    ```mlir
    %all = distruntime.gather %a global_shape[%n, %c4] local_offsets[%o, %c0] team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x4xf64>
    %one = distruntime.gather %a global_shape[%n, %c4] local_offsets[%o, %c0] root = 0 team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x4xf64>
    ```
  }];
  let arguments = (ins DistRuntime_ReadArray:$input,
                       Variadic<Index>:$global_shape,
                       Variadic<Index>:$local_offsets,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<0>]>>:$root,
                       DistRuntime_TeamAttr:$team);
  let results = (outs DistRuntime_FreshArray:$output);
  let assemblyFormat = [{
    $input `global_shape` `[` $global_shape `]`
    `local_offsets` `[` $local_offsets `]` (`root` `=` $root^)?
    `team` `=` $team attr-dict
    `:` qualified(type($input)) `->` qualified(type($output))
  }];
  let hasVerifier = 1;
}

def DistRuntime_CopyPermuteOp : DistRuntime_AsyncOp<"copy_permute"> {
  let summary = "start a transpose of a distributed array";
  let description = [{
    `input` is this rank's block (at the global offsets `local_offsets_in`)
    of a distributed array of rank R >= 1 and global shape
    `global_shape_in`. `output` is this rank's block, of shape
    `local_shape_out` at the global offsets `local_offsets_out`, of
    `transpose(input, permutation)` (numpy semantics: output dimension `k`
    is input dimension `permutation[k]`), split on its dimension 0 with the
    other dimensions complete. `permutation` must be a permutation of
    `0..R-1`. This is `_idtr_copy_permute_<T>` (which derives the output
    offsets itself; `local_offsets_out` documents them for the IR).

    Collective and asynchronous: complete it with
    `distruntime.wait %handle, %input, %output`.

    ```mlir
    %h, %t = distruntime.copy_permute %a permutation = [1, 0]
        global_shape_in[%n, %m] local_offsets_in[%o, %c0]
        local_offsets_out[%p, %c0] local_shape_out[%k, %n] team = 1
        : !ndarray.ndarray<?x?xf32> -> !ndarray.ndarray<?x?xf32>
    ```
  }];
  let arguments = (ins DistRuntime_ReadArray:$input,
                       Variadic<Index>:$global_shape_in,
                       Variadic<Index>:$local_offsets_in,
                       Variadic<Index>:$local_offsets_out,
                       Variadic<Index>:$local_shape_out,
                       DenseI64ArrayAttr:$permutation,
                       DistRuntime_TeamAttr:$team,
                       DistRuntime_KeyAttr:$key);
  let results = (outs DistRuntime_AsyncHandleType:$handle,
                      DistRuntime_FreshArray:$output);
  let builders = [
    // The handle type is implied.
    OpBuilder<(ins "::mlir::Type":$output, "::mlir::Value":$input,
        "::mlir::ValueRange":$global_shape_in,
        "::mlir::ValueRange":$local_offsets_in,
        "::mlir::ValueRange":$local_offsets_out,
        "::mlir::ValueRange":$local_shape_out,
        "::llvm::ArrayRef<int64_t>":$permutation, "int64_t":$team,
        CArg<"int64_t", "-1">:$key), [{
      build($_builder, $_state,
            AsyncHandleType::get($_builder.getContext()), output, input,
            global_shape_in, local_offsets_in, local_offsets_out,
            local_shape_out, permutation, static_cast<uint64_t>(team),
            static_cast<uint64_t>(key));
    }]>
  ];
  let assemblyFormat = [{
    $input `permutation` `=` $permutation
    `global_shape_in` `[` $global_shape_in `]`
    `local_offsets_in` `[` $local_offsets_in `]`
    `local_offsets_out` `[` $local_offsets_out `]`
    `local_shape_out` `[` $local_shape_out `]`
    `team` `=` $team (`key` `=` $key^)? attr-dict
    `:` qualified(type($input)) `->` qualified(type($output))
  }];
}

def DistRuntime_ForgetPlanOp : DistRuntime_Op<"forget_plan", [
    DistRuntime_Communicates]> {
  let summary = "drop the communication plans cached under a key";
  let description = [{
    Drops the plans IDTR cached for the communication ops with `key` on
    `team` (`_idtr_forget_plan`), so that the next of them exchanges
    metadata and builds its plan again. Not collective, but every rank must
    execute it at the same point. `add-comm-cache-keys` places it before a
    loop in which the keyed ops have fixed metadata: the plan is built once
    per execution of the loop and reused by all its iterations.

    ```mlir
    distruntime.forget_plan team = 1 key = 3
    ```
  }];
  let arguments = (ins DistRuntime_TeamAttr:$team,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$key);
  let assemblyFormat = "`team` `=` $team `key` `=` $key attr-dict";
}

def DistRuntime_WaitOp : DistRuntime_Op<"wait", [DistRuntime_Communicates,
    InferTypeOpAdaptor]> {
  let summary = "complete an asynchronous exchange";
  let description = [{
    Waits until the exchange that produced `handle` has completed and
    returns `arrays` unchanged, completed: the results are the same arrays,
    and only the results may be used to read the outputs of the exchange.

    `arrays` must be exactly the arrays of the exchange: its input followed
    by its outputs (`%data, %lhalo, %rhalo` for `get_halo`; `%input,
    %output` for `copy_reshape` and `copy_permute`; the input and every
    box for `fetch_boxes`). A handle that is a
    block argument or the result of a region op (the producer is not
    visible) takes between 1 and 3 arrays. Each handle must be waited for
    exactly once. This is `_idtr_wait_buffers`.

    ```mlir
    %a2, %out = distruntime.wait %h, %a, %o : !ndarray.ndarray<?x6xi32>, !ndarray.ndarray<?xi32>
    ```
  }];
  let arguments = (ins DistRuntime_AsyncHandleType:$handle,
                       Arg<Variadic<DistRuntime_Array>, "", [MemRead]>:$arrays);
  let results = (outs Variadic<DistRuntime_Array>:$results);
  let assemblyFormat = [{
    $handle (`,` $arrays^ `:` qualified(type($arrays)))? attr-dict
  }];
  let hasVerifier = 1;
}

#endif // IMEX_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEOPS_TD
