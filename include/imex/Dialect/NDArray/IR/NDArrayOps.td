//===- NDArrayOps.td - ndarray dialect operations -------------*- tablegen -*-//

#ifndef IMEX_DIALECT_NDARRAY_IR_NDARRAYOPS_TD
#define IMEX_DIALECT_NDARRAY_IR_NDARRAYOPS_TD

include "imex/Dialect/NDArray/IR/NDArrayBase.td"
include "imex/Dialect/NDArray/IR/NDArrayTypes.td"
include "mlir/Interfaces/CastInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ShapedOpInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"
include "mlir/IR/OpAsmInterface.td"

// An array operand whose data the op reads.
def NDArray_ReadArray : Arg<NDArray_NDArrayType, "", [MemRead]>;
// A result that is a fresh array, never aliasing an operand.
def NDArray_FreshArray : Res<NDArray_NDArrayType, "", [MemAlloc]>;

def NDArray_Scalar : AnyTypeOf<[AnySignlessIntegerOrIndex, AnyUnsignedInteger,
                                AnyFloat, Complex<AnyTypeOf<[F32, F64]>>]>;

// Ops whose result type is inferred from their operands and attributes. The
// declared result may be less static than the inferred one and carry
// compatible environments (see `isCompatibleReturnTypes`).
class NDArray_InferredOp<string mnemonic, list<Trait> traits = []>
    : NDArray_Op<mnemonic, traits # [
        InferTypeOpAdaptorBase<[{
          static bool isCompatibleReturnTypes(::mlir::TypeRange inferred,
                                              ::mlir::TypeRange actual) {
            return ::imex::ndarray::areCompatibleInferredTypes(inferred,
                                                               actual);
          }
        }]>]>;

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

def NDArray_CreateOp : NDArray_Op<"create", [AttrSizedOperandSegments,
    OptionalTypesMatchWith<"fill value type matches the element type", "result",
                   "value", "::llvm::cast<::imex::ndarray::NDArrayType>"
                   "($_self).getElementType()">]> {
  let summary = "create an array, uninitialised or filled with a value";
  let description = [{
    Creates a fresh array of the result type. `dynamic_sizes` gives one index
    per dynamic (`?`) dimension of the result, in order. With `value`, every
    element is set to it (array API `full`, `zeros`, `ones`); without, the
    contents are undefined (`empty`).

    ```mlir
    %a = ndarray.create(%n) value %zero : !ndarray.ndarray<?x4xf64>
    %b = ndarray.create : !ndarray.ndarray<8xi32>
    ```
  }];
  let arguments = (ins Variadic<Index>:$dynamic_sizes,
                       Optional<NDArray_Scalar>:$value);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    (`(` $dynamic_sizes^ `)`)? (`value` $value^)? attr-dict
    `:` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def NDArray_LinSpaceOp : NDArray_Op<"linspace",
    [AllTypesMatch<["start", "stop"]>]> {
  let summary = "evenly spaced values over an interval (covers arange)";
  let description = [{
    A 1-d array of `num` values `start + i * step`, where
    `step = (stop - start) / (endpoint ? num - 1 : num)`. Values are computed
    in floating point and converted to the element type (truncating toward
    zero for integers, as numpy's `linspace(..., dtype=int)` does).
    `arange(start, stop, step)` is `linspace(start, start + n * step, n)`
    without `endpoint`, where `n = ceil((stop - start) / step)`.

    ```mlir
    %a = ndarray.linspace %start, %stop, %num endpoint : f64 -> !ndarray.ndarray<?xf64>
    ```
  }];
  let arguments = (ins NDArray_Scalar:$start, NDArray_Scalar:$stop,
                       Index:$num, UnitAttr:$endpoint);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    $start `,` $stop `,` $num (`endpoint` $endpoint^)? attr-dict `:`
    type($start) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def NDArray_RandomOp : NDArray_Op<"random"> {
  let summary = "counter-based random numbers (Philox4x32-10)";
  let description = [{
    A fresh f32 or f64 array of random numbers: `uniform` in [0, 1), or
    `normal` (standard normal, Box-Muller). Each element is a function of
    `seed`, `stream` and its own row-major position `i` in the array:
    Philox4x32-10 (Salmon et al., SC'11) with key `(lo32(seed),
    hi32(seed))` and counter `(lo32(i), hi32(i), lo32(stream),
    hi32(stream))` gives four 32-bit words `x0..x3`.

    * `uniform`, f64: `((x0 << 32 | x1) >> 11) * 2^-53`; f32:
      `(x0 >> 8) * 2^-24`.
    * `normal`: `u1 = (((x0 << 32 | x1) >> 11) + 0.5) * 2^-53`,
      `u2 = ((x2 << 32 | x3) >> 11) * 2^-53`,
      `sqrt(-2 log(u1)) * cos(2 pi u2)`, computed in f64.

    No element depends on another, so a distributed array computes its own
    block only, with the same values on every number of ranks and without
    communication; different `stream`s give independent arrays for one
    seed. `dynamic_sizes` gives one index per dynamic dimension.

    ```mlir
    %u = ndarray.random uniform %seed, %stream (%n) : !ndarray.ndarray<?x4xf64>
    ```
  }];
  let arguments = (ins NDArray_RandomDistributionAttr:$distribution,
                       I64:$seed, I64:$stream,
                       Variadic<Index>:$dynamic_sizes);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    $distribution $seed `,` $stream (`(` $dynamic_sizes^ `)`)? attr-dict
    `:` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def NDArray_TriOp : NDArray_Op<"tri"> {
  let summary = "ones at and below a diagonal (numpy's tri; eye, tril, triu)";
  let description = [{
    A fresh 2-d array whose element `(i, j)` is 1 where `j - i <= k` and 0
    elsewhere (`true`/`false` for `i1`): numpy's `tri(n, m, k)`. `k` is the
    diagonal (0 the main one, positive above it, negative below), given at
    run time. The array API's `eye(n, m, k=k)` is `tri(k) and not
    tri(k - 1)`, `tril(x, k)` is `where(tri(k), x, 0)` and `triu(x, k)` is
    `where(tri(k - 1), 0, x)` (the last two dimensions of `x`), so these
    functions need no op of their own; elementwise fusion makes each one
    loop. Each element depends on its position only: a distributed array
    computes its own block, without communication. `dynamic_sizes` gives
    one index per dynamic dimension.

    ```mlir
    %m = ndarray.tri %k (%n, %n) : !ndarray.ndarray<?x?xi1>
    ```
  }];
  let arguments = (ins Index:$k, Variadic<Index>:$dynamic_sizes);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    $k (`(` $dynamic_sizes^ `)`)? attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

// Not an NDArray_Op: a copy may move an array to other environments.
def NDArray_CopyOp : Op<NDArray_Dialect, "copy"> {
  let summary = "deep copy, possibly into another environment";
  let description = [{
    Returns a fresh copy of `source`. The result has the same shape and
    element type and may live in different environments (e.g. to move an
    array from the host to a GPU).

    ```mlir
    %b = ndarray.copy %a : !ndarray.ndarray<4xf32> -> !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>
    ```
  }];
  let arguments = (ins NDArray_ReadArray:$source);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def NDArray_DeleteOp : NDArray_Op<"delete"> {
  let summary = "free an array";
  let description = [{
    Releases the memory of `array`. It must be the last use of the array and
    of every view of it.

    ```mlir
    ndarray.delete %a : !ndarray.ndarray<?xf64>
    ```
  }];
  let arguments = (ins Arg<NDArray_NDArrayType, "", [MemFree]>:$array);
  let assemblyFormat = "$array attr-dict `:` qualified(type($array))";
}

def NDArray_FromMemRefOp : NDArray_Op<"from_memref", [Pure]> {
  let summary = "view a memref as an array";
  let description = [{
    Wraps a memref as an array without copying: in-place updates of the array
    write the memref.

    ```mlir
    %a = ndarray.from_memref %m : memref<?xf64> -> !ndarray.ndarray<?xf64>
    ```
  }];
  let arguments = (ins AnyRankedOrUnrankedMemRef:$source);
  let results = (outs NDArray_NDArrayType:$result);
  let assemblyFormat = [{
    $source attr-dict `:` type($source) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def NDArray_ToTensorOp : NDArray_Op<"to_tensor"> {
  let summary = "the current contents of an array as a tensor";
  let arguments = (ins NDArray_ReadArray:$array);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $array attr-dict `:` qualified(type($array)) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Types and shapes
//===----------------------------------------------------------------------===//

def NDArray_CastOp : NDArray_Op<"cast", [
    Pure, DeclareOpInterfaceMethods<CastOpInterface>,
    DeclareOpInterfaceMethods<ViewLikeOpInterface>]> {
  let summary = "change static shape information (a view, never a copy)";
  let description = [{
    Converts between types that differ only in how much of the shape is
    static, e.g. `4xf64` to `?xf64` and back. Element type and environments
    are unchanged. A cast to a static size that does not match the runtime
    size is undefined behaviour.

    ```mlir
    %b = ndarray.cast %a : !ndarray.ndarray<4xf64> to !ndarray.ndarray<?xf64>
    ```
  }];
  let arguments = (ins NDArray_NDArrayType:$source);
  let results = (outs NDArray_NDArrayType:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `to` qualified(type($result))
  }];
  let hasFolder = 1;
}

def NDArray_CastElemTypeOp : NDArray_Op<"cast_elemtype"> {
  let summary = "convert the element type (numpy astype)";
  let description = [{
    Converts every element to the element type of the result, with numpy's
    `astype` semantics (float to integer truncates toward zero, to `i1` is
    `!= 0`). Without `copy`, a conversion to the same element type may return
    `source` itself; with `copy` the result is always a fresh array.

    ```mlir
    %b = ndarray.cast_elemtype %a : !ndarray.ndarray<4xf64> to !ndarray.ndarray<4xi32>
    ```
  }];
  let arguments = (ins NDArray_ReadArray:$source, UnitAttr:$copy);
  let results = (outs NDArray_NDArrayType:$result);
  let assemblyFormat = [{
    $source (`copy` $copy^)? attr-dict `:` qualified(type($source)) `to`
    qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def NDArray_DimOp : NDArray_Op<"dim", [
    Pure, DeclareOpInterfaceMethods<ShapedDimOpInterface>]> {
  let summary = "size of one dimension";
  let description = [{
    ```mlir
    %n = ndarray.dim %a, %c0 : !ndarray.ndarray<?x4xf64>
    ```
  }];
  let arguments = (ins NDArray_NDArrayType:$source, Index:$index);
  let results = (outs Index:$result);
  let assemblyFormat = [{
    $source `,` $index attr-dict `:` qualified(type($source))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$source, "int64_t":$index)>
  ];
}

def NDArray_ReshapeOp : NDArray_Op<"reshape"> {
  let summary = "array-API reshape";
  let description = [{
    Reinterprets `source` in row-major (C) order with the result's shape;
    the number of elements must not change. `dynamic_sizes` gives one index
    per dynamic dimension of the result. As in numpy, the result may share
    memory with `source` unless `copy` is set.

    ```mlir
    %b = ndarray.reshape %a : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<12xf64>
    %c = ndarray.reshape %a(%n) copy : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?x2xf64>
    ```
  }];
  let arguments = (ins NDArray_ReadArray:$source,
                       Variadic<Index>:$dynamic_sizes, UnitAttr:$copy);
  let results = (outs NDArray_NDArrayType:$result);
  let assemblyFormat = [{
    $source (`(` $dynamic_sizes^ `)`)? (`copy` $copy^)? attr-dict `:`
    qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def NDArray_BroadcastToOp : NDArray_Op<"broadcast_to"> {
  let summary = "broadcast to a shape (numpy rules)";
  let description = [{
    Broadcasts `source` to the result shape with numpy's rules: dimensions
    are aligned at the end, and each source dimension is either 1 or the
    target size. `dynamic_sizes` gives one index per dynamic dimension of the
    result. The result may share memory with `source`. A dynamic size that
    is the source's own `ndarray.dim` at the aligned axis marks that axis as
    not broadcast; a broadcast to the source's own shape folds to `source`.

    ```mlir
    %b = ndarray.broadcast_to %a : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<3x4xf64>
    ```
  }];
  let arguments = (ins NDArray_ReadArray:$source,
                       Variadic<Index>:$dynamic_sizes);
  let results = (outs NDArray_NDArrayType:$result);
  let assemblyFormat = [{
    $source (`(` $dynamic_sizes^ `)`)? attr-dict `:` qualified(type($source))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// Whether result dimension `dim` is provably the source's size at the
    /// aligned axis (the same static size other than 1, or a dynamic size
    /// given as the source's `ndarray.dim`): nothing is broadcast along it.
    bool keepsSourceDim(int64_t dim);
  }];
}

def NDArray_PermuteDimsOp : NDArray_InferredOp<"permute_dims"> {
  let summary = "permute the axes (transpose)";
  let description = [{
    Result dimension `i` is source dimension `permutation[i]`. The result may
    share memory with `source`.

    ```mlir
    %t = ndarray.permute_dims %a [1, 0] : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<4x3xf64>
    ```
  }];
  let arguments = (ins NDArray_ReadArray:$source,
                       DenseI64ArrayAttr:$permutation);
  let results = (outs NDArray_NDArrayType:$result);
  let assemblyFormat = [{
    $source $permutation attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
  let hasFolder = 1;
}

def NDArray_FlipOp : NDArray_InferredOp<"flip"> {
  let summary = "reverse the order of elements along axes";
  let description = [{
    Element `i` along each axis in `axes` (sorted, unique) of the result is
    element `n - 1 - i` of `source` (the array API's `flip`; all axes when
    `axes` lists every dimension).

    ```mlir
    %f = ndarray.flip %a [0, 1] : !ndarray.ndarray<3x?xf64> -> !ndarray.ndarray<3x?xf64>
    ```

    On an array distributed along dimension 0, a flip along other axes is
    local; along dimension 0 each rank fetches the mirrored rows of its
    block of the result (a repartition) and flips them.
  }];
  let arguments = (ins NDArray_ReadArray:$source, DenseI64ArrayAttr:$axes);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    $source $axes attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
}

def NDArray_ExpandDimsOp : NDArray_InferredOp<"expand_dims"> {
  let summary = "insert unit dimensions";
  let description = [{
    Inserts a dimension of size 1 at each position of `axes`, which are
    positions in the result (sorted, unique, in `[0, result rank)`). The
    result may share memory with `source`.

    ```mlir
    %b = ndarray.expand_dims %a [0] : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<1x4xf64>
    ```
  }];
  let arguments = (ins NDArray_ReadArray:$source, DenseI64ArrayAttr:$axes);
  let results = (outs NDArray_NDArrayType:$result);
  let assemblyFormat = [{
    $source $axes attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
  let hasFolder = 1;
}

def NDArray_SqueezeOp : NDArray_InferredOp<"squeeze"> {
  let summary = "remove unit dimensions";
  let description = [{
    Removes the dimensions listed in `axes` (sorted, unique, in
    `[0, source rank)`); each must have size 1. The result may share memory
    with `source`.

    ```mlir
    %b = ndarray.squeeze %a [0] : !ndarray.ndarray<1x4xf64> -> !ndarray.ndarray<4xf64>
    ```
  }];
  let arguments = (ins NDArray_ReadArray:$source, DenseI64ArrayAttr:$axes);
  let results = (outs NDArray_NDArrayType:$result);
  let assemblyFormat = [{
    $source $axes attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

class NDArray_SliceOpBase<string mnemonic, list<Trait> traits = []>
    : NDArray_Op<mnemonic, traits # [
        AttrSizedOperandSegments, OffsetSizeAndStrideOpInterface]> {
  code sliceClassDeclaration = [{
    /// Number of operands before the dynamic offsets.
    static unsigned getOffsetSizeAndStrideStartOperandIndex();
    /// Rank of the sliced array, for OffsetSizeAndStrideOpInterface.
    std::array<unsigned, 3> getArrayAttrMaxRanks() {
      unsigned rank = getSlicedType().getRank();
      return {rank, rank, rank};
    }
    /// The type of the array the slice is taken from or written into.
    NDArrayType getSlicedType();
  }];
}

def NDArray_SubviewOp : NDArray_SliceOpBase<"subview", [
    Pure, DeclareOpInterfaceMethods<ViewLikeOpInterface>]> {
  let summary = "a strided view of an array (always a view, never a copy)";
  let description = [{
    Selects `sizes[i]` elements starting at `offsets[i]` with step
    `strides[i]` (> 0) in each dimension. The result aliases `source`: writes
    to either are visible through the other. Unit dimensions may be dropped
    from the result (rank reduction, as for integer indices in numpy).

    ```mlir
    %v = ndarray.subview %a[1, %o] [4, 2] [2, 1] : !ndarray.ndarray<10x?xf64> to !ndarray.ndarray<4x2xf64>
    ```
  }];
  let arguments = (ins NDArray_NDArrayType:$source,
                       Variadic<Index>:$offsets, Variadic<Index>:$sizes,
                       Variadic<Index>:$strides,
                       DenseI64ArrayAttr:$static_offsets,
                       DenseI64ArrayAttr:$static_sizes,
                       DenseI64ArrayAttr:$static_strides);
  let results = (outs NDArray_NDArrayType:$result);
  let assemblyFormat = [{
    $source ``
    custom<DynamicIndexList>($offsets, $static_offsets)
    custom<DynamicIndexList>($sizes, $static_sizes)
    custom<DynamicIndexList>($strides, $static_strides)
    attr-dict `:` qualified(type($source)) `to` qualified(type($result))
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$resultType, "::mlir::Value":$source,
      "::llvm::ArrayRef<::mlir::OpFoldResult>":$offsets,
      "::llvm::ArrayRef<::mlir::OpFoldResult>":$sizes,
      "::llvm::ArrayRef<::mlir::OpFoldResult>":$strides)>
  ];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let hasFolder = 1;
  let extraClassDeclaration = sliceClassDeclaration;
}

def NDArray_ExtractSliceOp : NDArray_SliceOpBase<"extract_slice"> {
  let summary = "copy a strided slice of an array";
  let description = [{
    Like `ndarray.subview`, but the result is a fresh copy.

    ```mlir
    %s = ndarray.extract_slice %a[0] [3] [2] : !ndarray.ndarray<?xi64> to !ndarray.ndarray<3xi64>
    ```
  }];
  let arguments = (ins NDArray_ReadArray:$source,
                       Variadic<Index>:$offsets, Variadic<Index>:$sizes,
                       Variadic<Index>:$strides,
                       DenseI64ArrayAttr:$static_offsets,
                       DenseI64ArrayAttr:$static_sizes,
                       DenseI64ArrayAttr:$static_strides);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    $source ``
    custom<DynamicIndexList>($offsets, $static_offsets)
    custom<DynamicIndexList>($sizes, $static_sizes)
    custom<DynamicIndexList>($strides, $static_strides)
    attr-dict `:` qualified(type($source)) `to` qualified(type($result))
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$resultType, "::mlir::Value":$source,
      "::llvm::ArrayRef<::mlir::OpFoldResult>":$offsets,
      "::llvm::ArrayRef<::mlir::OpFoldResult>":$sizes,
      "::llvm::ArrayRef<::mlir::OpFoldResult>":$strides)>
  ];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let hasFolder = 1;
  let extraClassDeclaration = sliceClassDeclaration;
}

def NDArray_InsertSliceOp : NDArray_SliceOpBase<"insert_slice"> {
  let summary = "write into a strided slice of an array, in place";
  let description = [{
    Writes `source`, broadcast with numpy's rules to the slice shape
    (`sizes`), into the selected elements of `destination`. The update
    happens in place: it is visible through every view of `destination`.
    `source` may be 0-d (a scalar fill) and may be converted to the element
    type of `destination` (numpy's `same_kind` casting is not checked).

    ```mlir
    ndarray.insert_slice %v into %a[2] [4] [1] : !ndarray.ndarray<4xf64> into !ndarray.ndarray<?xf64>
    ```
  }];
  let arguments = (ins NDArray_ReadArray:$source,
                       Arg<NDArray_NDArrayType, "", [MemRead, MemWrite]>:$destination,
                       Variadic<Index>:$offsets, Variadic<Index>:$sizes,
                       Variadic<Index>:$strides,
                       DenseI64ArrayAttr:$static_offsets,
                       DenseI64ArrayAttr:$static_sizes,
                       DenseI64ArrayAttr:$static_strides);
  let assemblyFormat = [{
    $source `into` $destination ``
    custom<DynamicIndexList>($offsets, $static_offsets)
    custom<DynamicIndexList>($sizes, $static_sizes)
    custom<DynamicIndexList>($strides, $static_strides)
    attr-dict `:` qualified(type($source)) `into` qualified(type($destination))
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$source, "::mlir::Value":$destination,
      "::llvm::ArrayRef<::mlir::OpFoldResult>":$offsets,
      "::llvm::ArrayRef<::mlir::OpFoldResult>":$sizes,
      "::llvm::ArrayRef<::mlir::OpFoldResult>":$strides)>
  ];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = sliceClassDeclaration;
}

def NDArray_ImmutableInsertSliceOp : NDArray_SliceOpBase<
    "immutable_insert_slice", [AllTypesMatch<["destination", "result"]>]> {
  let summary = "a copy of an array with a slice replaced";
  let description = [{
    Value-semantics counterpart of `ndarray.insert_slice`: returns a fresh
    array equal to `destination` with the slice replaced by `source`
    (broadcast as for `ndarray.insert_slice`); `destination` is unchanged.

    ```mlir
    %b = ndarray.immutable_insert_slice %v into %a[2] [4] [1] : !ndarray.ndarray<4xf64> into !ndarray.ndarray<?xf64>
    ```
  }];
  let arguments = (ins NDArray_ReadArray:$source,
                       NDArray_ReadArray:$destination,
                       Variadic<Index>:$offsets, Variadic<Index>:$sizes,
                       Variadic<Index>:$strides,
                       DenseI64ArrayAttr:$static_offsets,
                       DenseI64ArrayAttr:$static_sizes,
                       DenseI64ArrayAttr:$static_strides);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    $source `into` $destination ``
    custom<DynamicIndexList>($offsets, $static_offsets)
    custom<DynamicIndexList>($sizes, $static_sizes)
    custom<DynamicIndexList>($strides, $static_strides)
    attr-dict `:` qualified(type($source)) `into` qualified(type($destination))
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$source, "::mlir::Value":$destination,
      "::llvm::ArrayRef<::mlir::OpFoldResult>":$offsets,
      "::llvm::ArrayRef<::mlir::OpFoldResult>":$sizes,
      "::llvm::ArrayRef<::mlir::OpFoldResult>":$strides)>
  ];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = sliceClassDeclaration;
}

def NDArray_LoadOp : NDArray_Op<"load", [
    TypesMatchWith<"result type matches the element type", "array", "result",
                   "::llvm::cast<::imex::ndarray::NDArrayType>($_self)"
                   ".getElementType()">]> {
  let summary = "read one element";
  let description = [{
    ```mlir
    %x = ndarray.load %a[%i, %j] : !ndarray.ndarray<?x?xf64>
    ```
  }];
  let arguments = (ins NDArray_ReadArray:$array, Variadic<Index>:$indices);
  let results = (outs NDArray_Scalar:$result);
  let assemblyFormat = [{
    $array `[` $indices `]` attr-dict `:` qualified(type($array))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

def NDArray_EWBinOp : NDArray_InferredOp<"ewbin"> {
  let summary = "elementwise binary operation with broadcasting";
  let description = [{
    Applies the array-API binary function `kind` elementwise. Operands are
    broadcast with numpy's rules (dimensions aligned at the end) and their
    element types promoted with the array-API/numpy promotion rules (see
    `docs/design.md`). Comparisons and logical operations return `i1`;
    `divide`, `atan2`, `hypot`, `copysign` and `logaddexp` return a floating
    point type (integers are converted as numpy does).

    ```mlir
    %c = ndarray.ewbin add %a, %b : (!ndarray.ndarray<3x1xf64>, !ndarray.ndarray<4xf32>) -> !ndarray.ndarray<3x4xf64>
    ```
  }];
  let arguments = (ins NDArray_EWBinOpKindAttr:$kind, NDArray_ReadArray:$lhs,
                       NDArray_ReadArray:$rhs);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    `` $kind $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
}

def NDArray_EWUnyOp : NDArray_InferredOp<"ewuny"> {
  let summary = "elementwise unary operation";
  let description = [{
    Applies the array-API unary function `kind` elementwise. `isfinite`,
    `isinf`, `isnan`, `signbit` and `logical_not` return `i1`; transcendental
    functions of integers return a floating point type as in numpy. `erf` is
    an extension of the array API.

    On complex arrays (`complex<f32>`, `complex<f64>`): `abs`, `real` and
    `imag` return the component type; `conj`, `negative`, `positive`,
    `square`, `sign` (`z / |z|`, 0 for 0), `sqrt`, `exp`, `expm1`, `log`,
    `log1p`, `log2`, `log10`, `sin`, `cos`, `tan`, `sinh`, `cosh` and `tanh`
    keep it; `isnan`, `isinf`, `isfinite` test either component. Functions
    without a complex form here (rounding, `signbit`, inverse trigonometric
    and hyperbolic functions, `erf`, bitwise) reject complex operands. On
    real arrays `real` and `conj` are the identity and `imag` is zero.

    ```mlir
    %b = ndarray.ewuny sqrt %a : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
    ```
  }];
  let arguments = (ins NDArray_EWUnyOpKindAttr:$kind,
                       NDArray_ReadArray:$source);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    `` $kind $source attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
}

def NDArray_WhereOp : NDArray_InferredOp<"where"> {
  let summary = "select elements (array API where)";
  let description = [{
    `result[i] = condition[i] ? x[i] : y[i]` with the three operands
    broadcast together and the element types of `x` and `y` promoted.
    `condition` must have element type `i1`.

    ```mlir
    %r = ndarray.where %c, %x, %y : (!ndarray.ndarray<4xi1>, !ndarray.ndarray<4xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<4xf64>
    ```
  }];
  let arguments = (ins NDArray_ReadArray:$condition, NDArray_ReadArray:$x,
                       NDArray_ReadArray:$y);
  let results = (outs NDArray_FreshArray:$result);
  let assemblyFormat = [{
    $condition `,` $x `,` $y attr-dict `:` functional-type(operands, results)
  }];
}

include "imex/Dialect/NDArray/IR/NDArrayReductionOps.td"

#endif // IMEX_DIALECT_NDARRAY_IR_NDARRAYOPS_TD
