//===- DistOps.td - dist dialect operations --------------------*- tablegen -*-//

#ifndef IMEX_DIALECT_DIST_IR_DISTOPS_TD
#define IMEX_DIALECT_DIST_IR_DISTOPS_TD

include "imex/Dialect/Dist/IR/DistBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Dist_DistArray : Type<CPred<"::imex::dist::isDist($_self)">,
    "distributed ndarray (with a #dist.dist_env)",
    "::imex::ndarray::NDArrayType">;

def Dist_LocalArray : Type<And<[
      CPred<"::llvm::isa<::imex::ndarray::NDArrayType>($_self)">,
      CPred<"!::imex::dist::isDist($_self)">]>,
    "local ndarray (without a #dist.dist_env)",
    "::imex::ndarray::NDArrayType">;

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

class Dist_Op<string mnemonic, list<Trait> traits = []>
    : Op<Dist_Dialect, mnemonic, traits>;

// Index computations: one offset and one size result per dimension, folded
// on constant operands and expanded to arith by `dist-expand-index-ops`.
class Dist_IndexOp<string mnemonic, list<Trait> traits = []>
    : Dist_Op<mnemonic, traits # [Pure, SameVariadicResultSize,
                                  InferTypeOpAdaptor]> {
  let results = (outs Variadic<Index>:$result_offsets,
                      Variadic<Index>:$result_sizes);
  let hasVerifier = 1;
  let hasFolder = 1;
  code indexOpClassDeclaration = [{
    /// Computes the results (offsets, then sizes) with `math`. Operand `i`
    /// is taken as `constantOperands[i]` where that is non-null (a fold
    /// adaptor's operands); if `constantOperands` is empty, constant
    /// operands are matched. Without a builder, `math` only folds: this
    /// fails unless every result is a constant or an existing value.
    ::llvm::LogicalResult computeResults(
        ::imex::dist::IndexMath &math,
        ::llvm::ArrayRef<::mlir::Attribute> constantOperands,
        ::llvm::SmallVectorImpl<::mlir::OpFoldResult> &results);
  }];
  let extraClassDeclaration = indexOpClassDeclaration;
}

//===----------------------------------------------------------------------===//
// Building and taking apart distributed arrays
//===----------------------------------------------------------------------===//

def Dist_InitDistArrayOp : Dist_Op<"init_dist_array", [
    Pure, AttrSizedOperandSegments]> {
  let summary = "bind this rank's block into a distributed array";
  let description = [{
    Binds this rank's owned block of a distributed array (for a 0-d array,
    the value), the global index of the block's first element (`offsets`,
    one per dimension) and the global shape into a distributed array. The
    result aliases the block. Halos are not bound: they are rows of other
    ranks' blocks that `dist.repartition` brings in.

    The block is a local array of the result's rank and element type with
    its other (non-dist) environments, of sizes compatible with the
    result's on dimensions 1.. (every rank holds whole rows;
    `getLocalType`). Constant global sizes must equal the static ones of the
    result type; constant offsets are non-negative, and 0 on dimensions 1...

    An array split on other axes or over a grid of ranks binds this rank's
    block of its distribution (`dist.grid_partition`): the lowering assumes
    that arrays of one shape and distribution have the same blocks.

    With `spare_rows = array<i64: before, after>` the block is an
    `ndarray.subview` of a larger buffer whose `before` rows in front of it
    and `after` rows behind it are free (along dimension 0; for an array
    split on other axes or a grid, `before` and `after` elements along each
    split axis): halo exchanges write into them in place (ghost cells the
    caller allocated, e.g. a distributed function argument with
    `dist.ghost`).

    ```mlir
    %d = dist.init_dist_array %block offsets(%off, %c0) shape(%n, %c16) : !ndarray.ndarray<?x16xf64> -> !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
    %s = dist.init_dist_array %v : !ndarray.ndarray<f64> -> !ndarray.ndarray<f64, #dist.dist_env<team = 1>>
    ```
  }];
  let arguments = (ins Dist_LocalArray:$block,
                       Variadic<Index>:$offsets,
                       Variadic<Index>:$global_shape,
                       OptionalAttr<DenseI64ArrayAttr>:$spare_rows);
  let results = (outs Dist_DistArray:$result);
  let assemblyFormat = [{
    $block (`offsets` `(` $offsets^ `)`)? (`shape` `(` $global_shape^ `)`)?
    (`spare_rows` $spare_rows^)? attr-dict
    `:` qualified(type($block)) `->` qualified(type($result))
  }];
  let extraClassDeclaration = [{
    /// With `spare_rows`: the view of the buffer with the spare rows that is
    /// the block (through casts); null otherwise.
    ::imex::ndarray::SubviewOp getSpareRowsView();
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

// The local rows of a distributed array as one local array aliasing it.
class Dist_BlockOfOp<string mnemonic> : Dist_Op<mnemonic, [Pure]> {
  let arguments = (ins Dist_DistArray:$array);
  let results = (outs Dist_LocalArray:$block);
  let assemblyFormat = [{
    $array attr-dict `:` qualified(type($array)) `->` qualified(type($block))
  }];
  let builders = [OpBuilder<(ins "::mlir::Value":$array)>];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDefinition = [{
    void $cppClass::build(::mlir::OpBuilder &builder,
                          ::mlir::OperationState &state, ::mlir::Value array) {
      build(builder, state, op_helpers::getBlockTypeOf(array), array);
    }
    ::llvm::LogicalResult $cppClass::verify() {
      return op_helpers::verifyBlockOf(*this, getArray().getType(),
                                       getBlock().getType());
    }
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor) {
      return op_helpers::foldToInitBlock(getArray(), getType());
    }
  }];
}

def Dist_OwnedBlockOfOp : Dist_BlockOfOp<"owned_block_of"> {
  let summary = "this rank's owned block of a distributed array";
  let description = [{
    Returns the elements of `array` this rank owns (for a 0-d array, the
    value), without halos, as a local array aliasing `array`. Its type is a
    local array of `array`'s element type and other environments, with
    sizes compatible with `getLocalType(array)`'s (dimension 0 dynamic, the
    array's sizes on the others), which the builder without a result type
    uses. `dist.local_offsets_of` gives the global index of its first
    element.

    ```mlir
    %b = dist.owned_block_of %d : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x16xf64>
    ```

    Folds to the block of a `dist.init_dist_array` of the same type.
  }];
}

def Dist_HeldBlockOfOp : Dist_BlockOfOp<"held_block_of"> {
  let summary = "the elements of a distributed array this rank holds";
  let description = [{
    Returns the elements of `array` this rank holds, its owned block and its
    halos (e.g. those a `dist.repartition` brought in), as one local array
    aliasing `array`; for a 0-d array, the value. Types as for
    `dist.owned_block_of`. Used to read a box of rows that a
    `dist.repartition` made local (a gather).

    ```mlir
    %rows = dist.held_block_of %box : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x16xf64>
    ```

    Folds to the block of a `dist.init_dist_array` of the same type (it has
    no halos).
  }];
}

def Dist_LocalOffsetsOfOp : Dist_Op<"local_offsets_of", [
    Pure, InferTypeOpAdaptor]> {
  let summary = "the local offsets of a distributed array";
  let description = [{
    Returns one index per dimension of `array`: the global index of the
    first element of this rank's owned block (`dist.owned_block_of`): its
    first index along each split axis (rows: dimension 0), 0 on the others.

    ```mlir
    %off:2 = dist.local_offsets_of %d : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
    ```

    Folds to the offsets of a `dist.init_dist_array`; the offsets of the
    axes the distribution does not split always fold to 0.
  }];
  let arguments = (ins Dist_DistArray:$array);
  let results = (outs Variadic<Index>:$offsets);
  let assemblyFormat = "$array attr-dict `:` qualified(type($array))";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Index computations
//===----------------------------------------------------------------------===//

def Dist_DefaultPartitionOp : Dist_IndexOp<"default_partition"> {
  let summary = "the default partition of an array over a team";
  let description = [{
    The block of an array of shape `global_shape` (rank >= 1) that rank
    `rank` of `nprocs` ranks owns in the default partition, as an offset and
    a size per dimension. Dimension 0 is split: with `n` rows and `p` ranks,
    rank `r` gets `n / p + (r >= p - n % p ? 1 : 0)` rows at offset
    `r * (n / p) + max(0, r - (p - n % p))` (the extra rows go to the last
    ranks, as `_idtr_default_partition` of the runtime). Dimensions 1.. are
    whole: offset 0, size the global size.

    Requires `nprocs >= 1`, `0 <= rank < nprocs` and sizes >= 0 (checked
    where the operands are constant; otherwise undefined behaviour).

    ```mlir
    %p:4 = dist.default_partition %nprocs, %rank shape(%n, %c16)
    // %p#0, %p#1: offsets; %p#2, %p#3: sizes
    ```
  }];
  let arguments = (ins Index:$nprocs, Index:$rank,
                       Variadic<Index>:$global_shape);
  let assemblyFormat = [{
    $nprocs `,` $rank `shape` `(` $global_shape `)` attr-dict
  }];
}

def Dist_GridPartitionOp : Dist_IndexOp<"grid_partition", [
    AttrSizedOperandSegments]> {
  let summary = "the block of an array a rank owns over a grid of ranks";
  let description = [{
    The block of an array of shape `global_shape` that rank `rank` owns when
    the axes `split` (strictly increasing, below the rank) are split over a
    Cartesian grid of ranks of shape `grid` (one size per split axis), as an
    offset and a size per dimension. The rank's grid coordinates are `rank`
    in row-major order (the last grid dimension varies fastest, as
    `MPI_Cart_create` numbers ranks); along split axis `k` it owns the block
    of `dist.default_partition` of that axis for coordinate `c_k` of
    `grid[k]` ranks; other axes are whole. Ranks beyond the grid's size own
    nothing (sizes 0). The distribution of a `#dist.dist_env` with `split`
    and `grid`.

    Requires grid sizes >= 1, `rank >= 0` and global sizes >= 0 (checked
    where the operands are constant).

    ```mlir
    %p:4 = dist.grid_partition %rank grid(%p0, %p1) shape(%n, %m) split [0, 1]
    // %p#0, %p#1: offsets; %p#2, %p#3: sizes
    ```
  }];
  let arguments = (ins Index:$rank, Variadic<Index>:$grid,
                       Variadic<Index>:$global_shape,
                       DenseI64ArrayAttr:$split);
  let assemblyFormat = [{
    $rank `grid` `(` $grid `)` `shape` `(` $global_shape `)` `split` $split
    attr-dict
  }];
  let extraClassDeclaration = indexOpClassDeclaration;
  let hasVerifier = 1;
}

def Dist_LocalTargetOfSliceOp : Dist_IndexOp<"local_target_of_slice", [
    AttrSizedOperandSegments, OffsetSizeAndStrideOpInterface]> {
  let summary = "the part of a view of a distributed array this rank owns";
  let description = [{
    A slice `[offsets][sizes][strides]` of the distributed `array` (as in
    `ndarray.subview`, in global coordinates) is a view whose rows are owned
    by the ranks owning the base rows they map to. Returns the range of view
    rows, in view coordinates, whose base rows lie in this rank's owned
    block: with owned base rows `[o, o + n)` (`o` = local offset), view
    offset `f`, stride `s` and size `m` on dimension 0,

        first = clamp(ceildiv(o - f, s), 0, m)
        last  = clamp(ceildiv(o + n - f, s), first, m)
        target offset = first, target size = last - first

    so the targets of consecutive ranks are contiguous and a rank that owns
    none of the view gets size 0 at the right position. On dimensions 1..
    the target is the whole view: offset 0, size the slice size.

    Static strides must be positive and static slices lie in the array.

    ```mlir
    %t:4 = dist.local_target_of_slice %d[%f, 0] [%m, 16] [2, 1] : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
    // %t#0, %t#1: target offsets; %t#2, %t#3: target sizes
    ```
  }];
  let arguments = (ins Dist_DistArray:$array,
                       Variadic<Index>:$offsets, Variadic<Index>:$sizes,
                       Variadic<Index>:$strides,
                       DenseI64ArrayAttr:$static_offsets,
                       DenseI64ArrayAttr:$static_sizes,
                       DenseI64ArrayAttr:$static_strides);
  let assemblyFormat = [{
    $array ``
    custom<DynamicIndexList>($offsets, $static_offsets)
    custom<DynamicIndexList>($sizes, $static_sizes)
    custom<DynamicIndexList>($strides, $static_strides)
    attr-dict `:` qualified(type($array))
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$array,
      "::llvm::ArrayRef<::mlir::OpFoldResult>":$offsets,
      "::llvm::ArrayRef<::mlir::OpFoldResult>":$sizes,
      "::llvm::ArrayRef<::mlir::OpFoldResult>":$strides)>
  ];
  let extraClassDeclaration = indexOpClassDeclaration # [{
    /// Number of operands before the dynamic offsets.
    static unsigned getOffsetSizeAndStrideStartOperandIndex() { return 1; }
    /// Rank of the sliced array, for OffsetSizeAndStrideOpInterface.
    std::array<unsigned, 3> getArrayAttrMaxRanks() {
      unsigned rank = getArray().getType().getRank();
      return {rank, rank, rank};
    }
  }];
}

def Dist_LocalBoundingBoxOp : Dist_IndexOp<"local_bounding_box", [
    AttrSizedOperandSegments]> {
  let summary = "the base rows and columns read by a local part of a view";
  let description = [{
    The box, in base (global) coordinates, of the elements that the view
    elements `[target_offsets, target_offsets + target_sizes)` of a view
    `[view_offsets][view_sizes][view_strides]` read. On dimension `d`, with
    view offset `f`, stride `s`, target offset `t` and size `n`:
    `[f + s * t, f + s * (t + n - 1) + 1)`, or the empty box of size 0 at
    `f + s * t` if `n` is 0. With `bb`, the result is the union (hull) of
    this box and the incoming box `[bb offsets][bb sizes]`, where an empty
    box does not contribute; this accumulates the rows several views of one
    array need (e.g. for a halo exchange).

    All lists have one entry per dimension (at least one). Constant strides
    must be positive. `view_sizes` is not needed for the box; it keeps the
    view complete.

    ```mlir
    %b:2 = dist.local_bounding_box view[%f] [%m] [%s] target[%t] [%n]
    %c:2 = dist.local_bounding_box view[%f2] [%m] [%s] target[%t] [%n] bb[%b#0] [%b#1]
    ```
  }];
  let arguments = (ins Variadic<Index>:$view_offsets,
                       Variadic<Index>:$view_sizes,
                       Variadic<Index>:$view_strides,
                       Variadic<Index>:$target_offsets,
                       Variadic<Index>:$target_sizes,
                       Variadic<Index>:$bb_offsets,
                       Variadic<Index>:$bb_sizes);
  let assemblyFormat = [{
    `view` `[` $view_offsets `]` `[` $view_sizes `]` `[` $view_strides `]`
    `target` `[` $target_offsets `]` `[` $target_sizes `]`
    (`bb` `[` $bb_offsets^ `]` `[` $bb_sizes `]`)? attr-dict
  }];
}

def Dist_LocalCoreOp : Dist_IndexOp<"local_core", [AttrSizedOperandSegments]> {
  let summary = "the part of a local target computable without halos";
  let description = [{
    For result rows `[target_offsets, target_offsets + target_sizes)` (view
    coordinates) of an elementwise computation reading the view
    `[view_offsets][view_sizes][view_strides]` of the distributed `array`,
    returns the sub-box whose view elements all map to base rows in this
    rank's owned block of `array`: the part of the target that needs no halo
    data. On dimension 0, with owned base rows `[o, o + n)`, view offset
    `f`, stride `s`, target offset `t` and size `k`:

        first = clamp(max(ceildiv(o - f, s), c), t, t + k)
        last  = clamp(min(ceildiv(o + n - f, s), c + z), first, t + k)
        core offset = first, core size = last - first

    where `[c, c + z)` is the incoming core (`core [offsets][sizes]`, e.g.
    of another operand of the same computation) or the whole target. On
    dimensions 1.. the core is the target intersected with the incoming
    core. The results are absolute view coordinates, like the target
    offsets (not relative to the target), and always lie in the target.

    All lists have one entry per dimension of `array`. Constant strides must
    be positive.

    ```mlir
    %c:4 = dist.local_core %d target[%t0, %t1] [%n0, %n1] view[%f0, %f1] [%m0, %m1] [%s0, %s1] : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
    %e:4 = dist.local_core %d target[%t0, %t1] [%n0, %n1] view[%g0, %g1] [%m0, %m1] [%s0, %s1] core[%c#0, %c#1] [%c#2, %c#3] : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
    ```
  }];
  let arguments = (ins Dist_DistArray:$array,
                       Variadic<Index>:$target_offsets,
                       Variadic<Index>:$target_sizes,
                       Variadic<Index>:$view_offsets,
                       Variadic<Index>:$view_sizes,
                       Variadic<Index>:$view_strides,
                       Variadic<Index>:$core_offsets,
                       Variadic<Index>:$core_sizes);
  let assemblyFormat = [{
    $array `target` `[` $target_offsets `]` `[` $target_sizes `]`
    `view` `[` $view_offsets `]` `[` $view_sizes `]` `[` $view_strides `]`
    (`core` `[` $core_offsets^ `]` `[` $core_sizes `]`)? attr-dict `:`
    qualified(type($array))
  }];
}

//===----------------------------------------------------------------------===//
// Communication
//===----------------------------------------------------------------------===//

// NoMemoryEffect, not Pure: a collective may be merged or removed when
// unused, but never speculated (hoisted out of control flow), since all
// ranks of the team must execute it.
def Dist_RepartitionOp : Dist_Op<"repartition", [NoMemoryEffect]> {
  let summary = "redistribute the rows of a distributed array (collective)";
  let description = [{
    Collective over the team: every rank calls it. Returns a distributed
    array with the same global shape, element type and team that holds
    exactly the global rows `[offset, offset + size)` of dimension 0 (and
    all of dimensions 1..) on this rank (`dist.held_block_of`): its owned
    block is this rank's owned rows inside that box, the rows of the box
    before and after them are its halos, received from the ranks owning
    them.

    `source` and the result are distributed arrays of the same team, rank
    (>= 1) and element type, with global shapes that agree where both are
    static. The result is split on rows (the default distribution); the
    source may be split otherwise (columns, a grid of ranks): then each rank
    fetches the box of its rows from the blocks holding them (one move of
    each element; `dist-coalesce` builds it for a repartition of a
    redistribution to rows).

    ```mlir
    %r = dist.repartition %d offset %off size %n : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
    ```
  }];
  let arguments = (ins Dist_DistArray:$source, Index:$offset, Index:$size);
  let results = (outs Dist_DistArray:$result);
  let assemblyFormat = [{
    $source `offset` $offset `size` $size attr-dict `:`
    qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}


def Dist_LocalRepartitionOp : Dist_Op<"local_repartition", [Pure]> {
  let summary = "rows of a distributed array held locally (no communication)";
  let description = [{
    Like `dist.repartition`, returns a distributed array that holds exactly
    the global rows `[offset, offset + size)` on this rank (its owned rows
    inside them, halos around); but `source` must already hold these rows
    (owned or as halos): the result is a view of them, without
    communication. Reading
    rows that `source` does not hold locally is undefined behavior.

    `dist-coalesce` builds it for the views of an array that share one halo
    exchange: each view takes its rows out of the rows exchanged for all of
    them.

    ```mlir
    %v = dist.local_repartition %d offset %off size %n : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
    ```
  }];
  let arguments = (ins Dist_DistArray:$source, Index:$offset, Index:$size);
  let results = (outs Dist_DistArray:$result);
  let assemblyFormat = [{
    $source `offset` $offset `size` $size attr-dict `:`
    qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Dist_RedistributeOp : Dist_Op<"redistribute", [NoMemoryEffect]> {
  let summary = "change the distribution of an array (collective)";
  let description = [{
    Collective over the team: every rank calls it. Returns `source` with the
    distribution of the result type (another set of split axes, another
    grid): each rank receives the elements of its new block that it does
    not own in `source`'s distribution from their owners, point to point
    between the ranks whose blocks intersect, each element moved at most
    once (`_idtr_repartition`). The result has no halos.

    `source` and the result are distributed arrays of the same team, rank
    (>= 1) and element type, with global shapes that agree where both are
    static; their other environments are equal.

    ```mlir
    %c = dist.redistribute %r : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>>
    ```

    Folds when both types are equal (no redistribution) and when `source`
    is a redistribution (a chain of them moves data once).
  }];
  let arguments = (ins Dist_DistArray:$source);
  let results = (outs Dist_DistArray:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // IMEX_DIALECT_DIST_IR_DISTOPS_TD
