//===- DistToStandard.cpp - lower distributed arrays to local code --------===//
//
// Every distributed array becomes its local representation (LocalArray.h):
// one buffer with the owned rows and ghost cells, the valid rows in it, and
// their global position. Operations on distributed arrays become ndarray
// operations on views of the buffers plus distruntime communication.
//
//===----------------------------------------------------------------------===//

#include "imex/Conversion/DistToStandard/DistToStandard.h"

#include "LocalArray.h"

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/Dist/Transforms/Passes.h"
#include "imex/Dialect/Dist/Utils/DistUtils.h"
#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace imex {
#define GEN_PASS_DEF_CONVERTDISTTOSTANDARD
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::dist::detail;

namespace {

class DistToLocalTypeConverter : public TypeConverter {
public:
  DistToLocalTypeConverter() {
    addConversion([](Type type) { return type; });
    addConversion([](NDArrayType type, SmallVectorImpl<Type> &results)
                      -> std::optional<LogicalResult> {
      if (!dist::getDistEnv(type))
        return std::nullopt;
      if (type.getRank() == 0) {
        results.push_back(dist::getLocalType(type));
        return success();
      }
      if (isGridArray(type)) {
        // GridArray: the buffer, then first, sizes, offsets and shape.
        results.push_back(dist::getLocalType(type));
        results.append(4 * type.getRank(), IndexType::get(type.getContext()));
        return success();
      }
      // LocalArray: the buffer, then its index values.
      results.push_back(getBufferType(type));
      results.append(LocalArray::kNumValues - 1,
                     IndexType::get(type.getContext()));
      return success();
    });
  }
};

bool hasDistTypes(TypeRange types) {
  return llvm::any_of(types, [](Type t) { return dist::getDistEnv(t); });
}

struct ConvertDistToStandardPass
    : public imex::impl::ConvertDistToStandardBase<ConvertDistToStandardPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    DistToLocalTypeConverter converter;
    ConversionTarget target(*context);
    target.addIllegalDialect<dist::DistDialect>();
    target.addLegalDialect<arith::ArithDialect, cf::ControlFlowDialect,
                           complex::ComplexDialect,
                           distruntime::DistRuntimeDialect, scf::SCFDialect>();
    target.addDynamicallyLegalDialect<NDArrayDialect>([](Operation *op) {
      return !hasDistTypes(op->getOperandTypes()) &&
             !hasDistTypes(op->getResultTypes());
    });

    if (failed(checkGridArrayUses(getOperation())))
      return signalPassFailure();

    // Before the index ops expand: the analysis reads the views exchanges
    // are for.
    GhostAnalysis ghosts = analyzeGhostCells(getOperation());
    GridGhosts gridGhosts = analyzeGridGhosts(getOperation());
    GridUpdates gridUpdates;

    ExchangedBuffers exchanged;
    RewritePatternSet patterns(context);
    populateDistOpsToStandardPatterns(converter, patterns, ghosts, exchanged);
    populateArrayOpsToStandardPatterns(converter, patterns, exchanged);
    populateReductionsToStandardPatterns(converter, patterns);
    populateGridArrayToStandardPatterns(converter, patterns, gridGhosts,
                                        gridUpdates);
    dist::populateExpandDistIndexOpsPatterns(patterns);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    writeBackGhostedArguments(getOperation());
  }
};

} // namespace
