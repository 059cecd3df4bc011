//===- Passes.td - distruntime dialect passes -----------------*- tablegen -*-//

#ifndef IMEX_DIALECT_DISTRUNTIME_TRANSFORMS_PASSES_TD
#define IMEX_DIALECT_DISTRUNTIME_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerDistRuntimeToIDTR
    : Pass<"lower-distruntime-to-idtr", "::mlir::ModuleOp"> {
  let summary = "Lower distruntime ops to calls of the IDTR runtime";
  let description = [{
    Replaces every `distruntime` op by calls of IDTR's C ABI
    (docs/runtime.md) and declares the called functions once per module as
    `func.func private @_idtr_...` with `i64` scalars and unranked memref
    (`memref<*xT>`) arrays, which the standard LLVM lowering passes as
    `(int64_t rank, void *descriptor)`. Runs before
    `convert-ndarray-to-linalg`: arrays stay `!ndarray.ndarray` values.

    * `team_size`, `team_member` call `_idtr_nprocs` / `_idtr_prank` and
      cast the `i64` result to `index`.
    * The ndarray ops the runtime implements are lowered here too:
      `ndarray.sort` (IDTR sorts a copy of the input) and `ndarray.argsort`
      call `_idtr_sort_<T>` / `_idtr_argsort_<T>`; `sample_sort` calls
      `_idtr_sample_sort_<T>` with buffers for the values and the
      positions. The single-process pipelines run this pass for them.
    * Arrays are passed as their buffers: `ndarray.to_tensor`, then
      `bufferization.to_buffer ... read_only` (fully dynamic strided layout,
      so any layout is passed without a copy), then `memref.cast` to
      `memref<*xT>`.
    * Outputs (halos, reshaped/permuted blocks, allreduce results) are
      `memref.alloc`'d with their sizes (halo rows from the clamped formula
      of `get_halo`) and become arrays only after the wait (after the call
      for `allreduce`): `bufferization.to_tensor %m restrict` seen as an
      array by a `builtin.unrealized_conversion_cast`, which folds away in
      `convert-ndarray-to-linalg`. Buffer deallocation frees them like any
      other buffer. They are read-only (no `writable`): bufferization never
      updates them in place (an in-place update copies once), so an output
      that becomes the input of a later exchange cannot be overwritten
      before that exchange's wait.
    * Every call is outlined: the call site passes the arrays' buffers
      (cast to fully dynamic memrefs), the scalars and the values of the
      index lists to a private function (`_imex_idtr_get_halo_<T>r<rank>...`,
      `_imex_idtr_wait_...`, `_imex_idtr_ordered_reduce_<T>_<T>r<rank>...`:
      one per entry point, element types, ranks and list lengths; internal
      linkage, `noinline`) which stores the index lists into
      `memref<Nxindex>` stack buffers (`memref.alloca`, passed as
      `memref<*xindex>`), builds the unranked descriptors and calls IDTR.
      A module holds this glue once per entry point instead of at every
      call (in the distributed Jacobi example, 395 fewer lowered ops and
      570 fewer LLVM IR instructions for its exchanges alone), and the
      stack memory is released when the function returns, so calls in
      loops do not grow the stack.
    * `allreduce` copies the input into a fresh buffer (`memref.copy`) and
      reduces that in place with `_idtr_reduce_all_<T>`.
    * `get_halo`, `copy_reshape`, `copy_permute` call
      `_idtr_update_halo_<T>`, `_idtr_copy_reshape_<T>` and
      `_idtr_copy_permute_<T>`; the handle becomes their `i64` result
      (through block arguments, `scf` ops and function signatures too).
    * `wait` calls `_idtr_wait_buffers(handle, a, b, c)` with the buffers of
      its arrays (the last one repeated if there are fewer than three): the
      input is re-read at the wait (`to_tensor` + `to_buffer`), so
      bufferization keeps it alive and unmodified until then. Every such
      read of an input is numbered (`{distruntime.read = N}`) so that CSE
      merges none: a read merged into an earlier one would hide it from
      bufferization, which could then reuse the input's buffer before the
      exchange sends from it. The outputs
      are the allocated buffers. The results are the input array and the
      outputs wrapped after the call. `_idtr_wait_buffers` is declared once
      with `memref<*xi8>` arguments; the buffers are cast to it with
      `builtin.unrealized_conversion_cast`, which disappears in the LLVM
      lowering (all unranked memrefs are `(rank, descriptor)`).
      Arrays of a wait whose handle does not come straight from its
      producer (through a block argument) are all re-read at the wait and
      passed through.

    Unsigned arrays are communicated through their signless twins
    (`ndarray.cast_elemtype`, same bits); the typed entry point keeps the
    unsigned suffix (`_idtr_reduce_all_ui8` on `memref<*xi8>`). Ops with
    element types IDTR does not support, and existing symbols named like an
    IDTR function but of another type, are reported as errors.

    Limitation: the read of the input at the wait is a
    `bufferization.to_buffer` of its tensor, which canonicalization folds
    away when the tensor is a `bufferization.to_tensor` of a buffer (a
    function argument, an `ndarray.from_memref`). If such an input is
    writable (a function argument the function updates in place) and dead
    after the wait, bufferization may update it in place between the start
    of the exchange and the wait, which IDTR forbids. Inputs computed by the
    program and outputs of earlier exchanges are safe.
  }];
  let dependentDialects = ["::imex::ndarray::NDArrayDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

def OverlapCommAndCompute : Pass<"overlap-comm-and-compute"> {
  let summary = "Start exchanges early and wait for them late";
  let description = [{
    Within each block, moves every asynchronous exchange (`get_halo`,
    `copy_reshape`, `copy_permute`) up to just after the definitions of its
    operands, the computation on received data (the ops using the results of
    a wait, directly or through each other) down to just before their first
    users, and every `distruntime.wait` down to just before the first user
    of its results, so that computation independent of the messages (for a
    stencil, the core of each elementwise op or fused chain, which reads
    owned blocks only) runs while they are in flight. Shape queries of the
    received arrays are answered from the arrays before the wait. Nothing moves across ops that
    write or free memory or have unknown effects, or across region
    boundaries. Every rank runs the same code, so collectives stay in the
    same order on all ranks.

    With `split-interior`, an update (`ndarray.immutable_insert_slice`)
    whose rows are computed elementwise from views of arrays with received
    halos (the ghost writes of `convert-dist-to-standard`'s exchanges) and
    of other arrays is first split into three computations: the interior
    rows, which read no ghost cells and are computed from the arrays as
    they were before the halos arrived, and the rows before and after them,
    computed after the wait. The pieces are assembled in a new array that
    the update then inserts. The interior then runs while the halos are in
    flight; the code of the computation is tripled.
  }];
  let options = [
    Option<"splitInterior", "split-interior", "bool", /*default=*/"false",
           "Compute the rows of updates that read no ghost cells before "
           "the halos arrive">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}


def ReceiveHalosInPlace : Pass<"receive-halos-in-place"> {
  let summary = "Receive halos straight into the ghost cells they are copied to";
  let description = [{
    Runs after bufferization. `lower-distruntime-to-idtr` receives the halos
    of `get_halo` into buffers of their own (`memref.alloc`s passed as the
    second and third argument of its `_imex_idtr_get_halo_...` functions),
    which the halo exchange of
    `convert-dist-to-standard` then copies into the ghost cells of the
    array's buffer (an insert marked `ndarray.ghost_write`, bufferized in
    place to a `memref.copy` into a view of that buffer). When a halo
    buffer is used only by calls (through `memref.cast`s) before one
    `memref.copy` from it in its block, and the
    destination of that copy can be computed before the buffer is allocated
    (its definitions are moved up if they have no side effects), the calls
    get the destination instead and the buffer and the copy are erased: IDTR
    receives the rows in place, saving a pass over every halo (a large part
    of a step when rows are long).

    The output of an asynchronous copy (`repartition`, `copy_reshape`: the
    last argument but the key of their `_imex_idtr_repartition_...` and
    `_imex_idtr_copy_reshape_...` functions) copied whole (the buffer, or a
    subview of all of it) into a view is received there the same way: an
    array assigned to one of another distribution (`b[...] = c`) is
    written by the runtime straight into the block of `b`, provided the
    copy's input cannot share elements with the destination.

    Sound because the destination rows are ghost cells, not part of the
    value of the array version they belong to: nothing reads them between
    the start of the exchange and the copy except as rows of a version that
    holds the same neighbour rows (the ones being received), and nothing
    writes them there, as the buffer holds that version until the copy
    (bufferization updates it in place only after its last read). That
    holds where the exchanged array (the first argument) is a view of the
    destination's buffer. Where it is not (a repartitioned array whose rows
    are copied into the buffer later), the buffer may hold another array
    until the copy; then no op other than the exchange's calls may access
    the destination rows between the call and the copy (views of the buffer
    that cannot be proven disjoint from them count as accesses).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def AddCommCacheKeys : Pass<"add-comm-cache-keys", "::mlir::ModuleOp"> {
  let summary = "Let IDTR reuse the plans of exchanges in loops";
  let description = [{
    Gives each asynchronous exchange (`get_halo`, `copy_reshape`,
    `copy_permute`) whose metadata (index operands and the shape of the
    array it reads) cannot change while an enclosing loop runs a cache key,
    and inserts `distruntime.forget_plan` for that key before the outermost
    such loop. IDTR then builds the plan (one collective metadata exchange)
    on the first iteration and reuses it in all others, and every new
    execution of the loop starts afresh, so the metadata may differ between
    executions. Metadata is loop-invariant when computed without side
    effects from values defined outside the loop; array shapes also when the
    array is a loop-carried value that every iteration updates in place
    (inserts into it, casts). Exchanges that already have a key, or are in
    no loop with invariant metadata, are left alone.

    Keys are numbered from `first-key` in the order of the ops in the
    module, so the same module gets the same keys. Modules whose code runs
    in one process with interleaved loops (e.g. one calls the other inside
    a loop) need disjoint key ranges: give them different `first-key`s.
    IDTR reports a key reused with different metadata as an error.
  }];
  let options = [
    Option<"firstKey", "first-key", "int64_t", /*default=*/"0",
           "The first key to assign">
  ];
  let dependentDialects = ["::imex::distruntime::DistRuntimeDialect"];
}

#endif // IMEX_DIALECT_DISTRUNTIME_TRANSFORMS_PASSES_TD
