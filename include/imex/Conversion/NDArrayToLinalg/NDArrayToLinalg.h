//===- NDArrayToLinalg.h - ndarray to linalg conversion ---------*- C++ -*-===//

#ifndef IMEX_CONVERSION_NDARRAYTOLINALG_NDARRAYTOLINALG_H
#define IMEX_CONVERSION_NDARRAYTOLINALG_NDARRAYTOLINALG_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

namespace imex {

#define GEN_PASS_DECL_CONVERTNDARRAYTOLINALG
#define GEN_PASS_DECL_DOUBLEBUFFERLOOPS
#define GEN_PASS_DECL_ELIMINATEEMPTYTENSORS
#define GEN_PASS_DECL_EXPANDDIVISIONS
#define GEN_PASS_DECL_FORWARDGHOSTWRITES
#define GEN_PASS_DECL_FUSEELEMENTWISE
#define GEN_PASS_DECL_KEEPUPDATETEMPORARIES
#define GEN_PASS_DECL_LLVMNOALIASARGS
#define GEN_PASS_DECL_SLICEELEMENTWISEPRODUCERS
#define GEN_PASS_DECL_STRIDEDCOPIESTOLINALG
#include "imex/Conversion/Passes.h.inc"

/// Function attribute listing the LLVM argument positions of array pointers
/// that do not alias (applied by the `imex-llvm-noalias-args` pass).
inline constexpr llvm::StringLiteral kNoAliasArgsAttrName =
    "imex.noalias_llvm_args";

/// Converts `!ndarray.ndarray` to tensors of the storage element type.
class NDArrayToTensorTypeConverter : public mlir::TypeConverter {
public:
  NDArrayToTensorTypeConverter();
};

/// The `ndarray.immutable_insert_slice` ops under `root` that overwrite the
/// whole of a version nobody else reads: they may reuse its buffer.
llvm::DenseSet<mlir::Operation *> findInPlaceOverwrites(mlir::Operation *root);

/// Adds the patterns lowering ndarray ops (in value semantics, see
/// `ndarray-value-semantics`) to linalg/tensor/arith/math/scf.
/// `inPlaceOverwrites` comes from `findInPlaceOverwrites` before any rewrite.
void populateNDArrayToLinalgConversionPatterns(
    const mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns,
    const llvm::DenseSet<mlir::Operation *> &inPlaceOverwrites);

/// Whether `op` writes ghost cells (see ndarray::kGhostWriteAttrName): a
/// `tensor.insert_slice` marked so, or inserting values marked as ghost
/// cells (received halos, whose mark survives canonicalization, which
/// rebuilds inserts without theirs).
bool isGhostWrite(mlir::Operation *op);

/// Adds the lowering of `ndarray.random` (Philox4x32-10 in a
/// linalg.generic over the element positions).
void populateRandomLoweringPatterns(const mlir::TypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);

} // namespace imex

#endif // IMEX_CONVERSION_NDARRAYTOLINALG_NDARRAYTOLINALG_H
