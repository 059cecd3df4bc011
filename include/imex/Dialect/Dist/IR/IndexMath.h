//===- IndexMath.h - index arithmetic on OpFoldResults ----------*- C++ -*-===//
//
// The formulas of the dist index ops are written once, on OpFoldResults,
// and used both by the folders (constants only) and by the expansion to
// arith (`dist-expand-index-ops`).
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_DIALECT_DIST_IR_INDEXMATH_H
#define IMEX_DIALECT_DIST_IR_INDEXMATH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

#include <optional>

namespace imex::dist {
/// Index arithmetic on OpFoldResults. Constant operands are computed (with
/// arith's semantics; division by zero and overflow are not folded) and
/// identities (`x + 0`, `x * 1`, ...) return the other operand. Anything
/// else creates arith ops if there is a builder; without one (folding) the
/// result is null, and so is every result computed from a null operand.
class IndexMath {
public:
  /// Folding only: never creates IR.
  explicit IndexMath(mlir::MLIRContext *context) : context(context) {}
  /// Creates arith ops at the insertion point of `builder`.
  IndexMath(mlir::OpBuilder &builder, mlir::Location loc)
      : context(builder.getContext()), builder(&builder), loc(loc) {}

  /// The builder, or null when only folding.
  mlir::OpBuilder *getBuilder() const { return builder; }
  /// The location of created ops; only with a builder.
  mlir::Location getLoc() const { return *loc; }

  mlir::OpFoldResult constant(int64_t value);

  mlir::OpFoldResult add(mlir::OpFoldResult a, mlir::OpFoldResult b);
  mlir::OpFoldResult sub(mlir::OpFoldResult a, mlir::OpFoldResult b);
  mlir::OpFoldResult mul(mlir::OpFoldResult a, mlir::OpFoldResult b);
  /// Division rounding toward zero (arith.divsi).
  mlir::OpFoldResult div(mlir::OpFoldResult a, mlir::OpFoldResult b);
  /// Remainder with the sign of `a` (arith.remsi).
  mlir::OpFoldResult rem(mlir::OpFoldResult a, mlir::OpFoldResult b);
  /// Division rounding toward +infinity (arith.ceildivsi).
  mlir::OpFoldResult ceilDiv(mlir::OpFoldResult a, mlir::OpFoldResult b);
  mlir::OpFoldResult min(mlir::OpFoldResult a, mlir::OpFoldResult b);
  mlir::OpFoldResult max(mlir::OpFoldResult a, mlir::OpFoldResult b);
  /// `min(max(x, lo), hi)`.
  mlir::OpFoldResult clamp(mlir::OpFoldResult x, mlir::OpFoldResult lo,
                           mlir::OpFoldResult hi);
  /// `a pred b ? ifTrue : ifFalse` (signed comparison).
  mlir::OpFoldResult select(mlir::arith::CmpIPredicate pred,
                            mlir::OpFoldResult a, mlir::OpFoldResult b,
                            mlir::OpFoldResult ifTrue,
                            mlir::OpFoldResult ifFalse);
  /// As above, computing only the branch taken when the comparison folds.
  mlir::OpFoldResult select(mlir::arith::CmpIPredicate pred,
                            mlir::OpFoldResult a, mlir::OpFoldResult b,
                            llvm::function_ref<mlir::OpFoldResult()> ifTrue,
                            llvm::function_ref<mlir::OpFoldResult()> ifFalse);

private:
  template <typename OpTy>
  mlir::OpFoldResult
  binary(mlir::OpFoldResult a, mlir::OpFoldResult b,
         llvm::function_ref<std::optional<int64_t>(int64_t, int64_t)> fold);
  mlir::Value materialize(mlir::OpFoldResult value);

  mlir::MLIRContext *context;
  mlir::OpBuilder *builder = nullptr;
  std::optional<mlir::Location> loc;
};
} // namespace imex::dist

#endif // IMEX_DIALECT_DIST_IR_INDEXMATH_H
