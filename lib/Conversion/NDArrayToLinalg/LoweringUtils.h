//===- LoweringUtils.h - helpers of convert-ndarray-to-linalg ---*- C++ -*-===//
//
// Types, sizes and small builders shared by the patterns of
// convert-ndarray-to-linalg. Tensors hold ndarray elements in their storage
// types (ScalarOps.h).
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_LIB_CONVERSION_NDARRAYTOLINALG_LOWERINGUTILS_H
#define IMEX_LIB_CONVERSION_NDARRAYTOLINALG_LOWERINGUTILS_H

#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Transforms/DialectConversion.h"

namespace imex::ndarray::lowering {

/// The tensor type holding the elements of `type`.
mlir::RankedTensorType getTensorType(NDArrayType type);

/// The type of the ndarray `value`.
NDArrayType getArrayType(mlir::Value value);

/// The element type of the ndarray `ndarray`.
mlir::Type getElementType(mlir::Value ndarray);

mlir::Value toIndex(mlir::OpBuilder &b, mlir::Location loc,
                    mlir::OpFoldResult ofr);

/// Size `dim` of `tensor`, read through the ops this conversion creates, so
/// that equal sizes are the same SSA value.
mlir::OpFoldResult getSize(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value tensor, int64_t dim);
llvm::SmallVector<mlir::OpFoldResult>
getSizes(mlir::OpBuilder &b, mlir::Location loc, mlir::Value tensor);

/// Aborts at run time with `message` unless `condition` holds.
void runtimeCheck(mlir::OpBuilder &b, mlir::Location loc, mlir::Value condition,
                  llvm::StringRef message);

/// Whether the float `value` is NaN.
mlir::Value createIsNaN(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value value);

/// The negation of the i1 `flag`.
mlir::Value createNot(mlir::OpBuilder &b, mlir::Location loc, mlir::Value flag);

/// An index comparison, folded on constants.
mlir::Value cmpIndex(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::arith::CmpIPredicate pred, mlir::Value lhs,
                     mlir::Value rhs);

/// `tensor.empty` of `shape` (static information) and `sizes`.
mlir::Value createEmpty(mlir::OpBuilder &b, mlir::Location loc,
                        llvm::ArrayRef<int64_t> shape,
                        llvm::ArrayRef<mlir::OpFoldResult> sizes,
                        mlir::Type elementType);

/// Reassociation for inserting (expand) or removing (collapse) the unit
/// dimensions `unitAxes` of a shape of rank `rank`.
llvm::SmallVector<mlir::ReassociationIndices>
getUnitDimReassociation(int64_t rank, llvm::ArrayRef<int64_t> unitAxes);

/// Rewrites the rank-reducing tensor.extract_slice and insert_slice ops
/// under `root` whose dropped axes are ambiguous, i.e. which have more unit
/// sizes than dropped axes, into full-rank slices and an explicit
/// collapse_shape (expand_shape of the inserted value). Upstream re-infers
/// such reductions: canonicalization as the first unit axes (wrong for
/// `a[:, :, 0]` of a 1x5x1x2x1 tensor), memref.subview from the strides
/// (which crashes where unit axes have equal strides).
void makeRankReductionsExplicit(mlir::Operation *root);

/// A parallel loop over `init` whose element at position `i` is
/// `source[remap(i)]`: `remap` rewrites the loop indices in place.
mlir::Value
buildRemappedRead(mlir::OpBuilder &b, mlir::Location loc, mlir::Value source,
                  mlir::Value init,
                  llvm::function_ref<void(mlir::OpBuilder &, mlir::Location,
                                          llvm::SmallVectorImpl<mlir::Value> &)>
                      remap);

/// Whether `ofr` is the constant 1.
bool isStaticOne(mlir::OpFoldResult ofr);

/// Whether two sizes are provably equal: the same constant or value, or
/// `tensor.dim` of the same tensor and dimension.
bool isSameSize(mlir::OpFoldResult a, mlir::OpFoldResult b);

/// `tensor` prepared as an input of an elementwise op over `targetSizes`
/// (numpy broadcasting, end-aligned), with its indexing map. Static unit
/// dimensions broadcast through the map; a dynamic size that turns out to be
/// 1 while the target is not is repeated at run time.
std::pair<mlir::Value, mlir::AffineMap>
broadcastInput(mlir::OpBuilder &b, mlir::Location loc, mlir::Value tensor,
               llvm::ArrayRef<mlir::OpFoldResult> targetSizes);

/// An elementwise `linalg.generic` over `inputs` broadcast to a result of
/// static shape `resultShape` and storage element type `elementType`
/// (sizes `sizes`, or broadcast from the inputs'). `body` receives the input
/// elements. (Defined in Broadcasting.cpp.)
mlir::Value buildElementwise(
    mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange inputs,
    llvm::ArrayRef<int64_t> resultShape, mlir::Type elementType,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   mlir::ValueRange)>
        body,
    llvm::ArrayRef<mlir::OpFoldResult> sizes = {});

/// `tensor` (of ndarray element type `from`) converted to ndarray element
/// type `to` and broadcast to `sizes` with static shape `shape`.
mlir::Value convertAndBroadcast(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value tensor, mlir::Type from,
                                mlir::Type to, llvm::ArrayRef<int64_t> shape,
                                llvm::ArrayRef<mlir::OpFoldResult> sizes);

/// `source` reduced over `axes` by `kind` (a floating point or complex sum
/// or product, or a moment's sum) along the pairwise tree of each axis's
/// indices, innermost axis first (PairwiseReduction.cpp). `element` (null:
/// the elements are of the accumulator type) maps a source element and the
/// elements of `extraInputs` (read by `extraMaps`) to the accumulator type
/// `accType`; `finish` reduces an axis holding at most one value.
mlir::Value buildPairwiseReduction(
    mlir::OpBuilder &b, mlir::Location loc, ReductionKind kind,
    mlir::Value source, llvm::ArrayRef<int64_t> axes, mlir::Type accType,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   mlir::ValueRange)>
        element,
    mlir::ValueRange extraInputs, llvm::ArrayRef<mlir::AffineMap> extraMaps,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   ReductionKind, mlir::Value, int64_t)>
        finish);

/// The patterns of SliceLowering.cpp: views, slices and inserts
/// (`inPlaceOverwrites` as in populateNDArrayToLinalgConversionPatterns).
void populateSliceLoweringPatterns(
    const mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns,
    const llvm::DenseSet<mlir::Operation *> &inPlaceOverwrites);

/// The patterns of CreationLowering.cpp: create, linspace, tri, copy,
/// delete, from_memref, to_tensor.
void populateCreationLoweringPatterns(const mlir::TypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);

/// The patterns of ReductionLowering.cpp: reduction, matmul.
void populateReductionLoweringPatterns(const mlir::TypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);

/// The patterns of IndexingLowering.cpp: take, put, searchsorted, flip,
/// masked_select, argreduce, cumulative.
void populateIndexingLoweringPatterns(const mlir::TypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);

} // namespace imex::ndarray::lowering

#endif // IMEX_LIB_CONVERSION_NDARRAYTOLINALG_LOWERINGUTILS_H
