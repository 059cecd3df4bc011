//===- BufferizableOpInterfaceImpl.cpp - region bufferization -------------===//

#include "imex/Dialect/Region/Transforms/BufferizableOpInterfaceImpl.h"
#include "imex/Dialect/Region/IR/Region.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace imex::region;

namespace {
/// Result `i` of an env_region is operand `i` of its yield (like
/// scf.execute_region): bufferization allocates nothing for it.
struct EnvRegionOpInterface
    : public BufferizableOpInterface::ExternalModel<EnvRegionOpInterface,
                                                    EnvRegionOp> {
  // `args` only name what the body works on; the op itself neither reads
  // nor writes them.
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return false;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }

  AliasingOpOperandList getAliasingOpOperands(Operation *op, Value value,
                                              const AnalysisState &) const {
    auto result = cast<OpResult>(value);
    OpOperand &yielded = cast<EnvRegionOp>(op).getYield()->getOpOperand(
        result.getResultNumber());
    return {{&yielded, BufferRelation::Equivalent, /*isDefinite=*/true}};
  }

  FailureOr<BufferLikeType>
  getBufferType(Operation *op, Value value, const BufferizationOptions &options,
                const BufferizationState &state,
                SmallVector<Value> &invocationStack) const {
    auto result = cast<OpResult>(value);
    Value yielded =
        cast<EnvRegionOp>(op).getYield()->getOperand(result.getResultNumber());
    if (auto buffer = dyn_cast<BufferLikeType>(yielded.getType()))
      return buffer;
    return bufferization::getBufferType(yielded, options, state,
                                        invocationStack);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto regionOp = cast<EnvRegionOp>(op);
    SmallVector<Value> args;
    for (Value arg : regionOp.getArgs()) {
      if (!isa<TensorType>(arg.getType())) {
        args.push_back(arg);
        continue;
      }
      FailureOr<Value> buffer = getBuffer(rewriter, arg, options, state);
      if (failed(buffer))
        return failure();
      args.push_back(*buffer);
    }
    SmallVector<Type> resultTypes;
    for (Value result : regionOp.getResults()) {
      if (!isa<TensorType>(result.getType())) {
        resultTypes.push_back(result.getType());
        continue;
      }
      FailureOr<BufferLikeType> type =
          bufferization::getBufferType(result, options, state);
      if (failed(type))
        return failure();
      resultTypes.push_back(*type);
    }
    rewriter.setInsertionPoint(op);
    auto newOp = EnvRegionOp::create(
        rewriter, op->getLoc(), regionOp.getEnvironment(), args, resultTypes);
    // The builder adds an empty block; the old body replaces it.
    rewriter.eraseBlock(&newOp.getRegion().front());
    rewriter.inlineRegionBefore(regionOp.getRegion(), newOp.getRegion(),
                                newOp.getRegion().end());
    newOp->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    replaceOpWithBufferizedValues(rewriter, op, newOp.getResults());
    return success();
  }
};

/// The yield reads the buffers it returns; they become the results of the
/// enclosing env_region in place.
struct EnvRegionYieldOpInterface
    : public BufferizableOpInterface::ExternalModel<EnvRegionYieldOpInterface,
                                                    EnvRegionYieldOp> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &) const {
    return {{op->getParentOp()->getResult(operand.getOperandNumber()),
             BufferRelation::Equivalent, /*isDefinite=*/true}};
  }
  bool mustBufferizeInPlace(Operation *, OpOperand &,
                            const AnalysisState &) const {
    return true;
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    Operation *parent = op->getParentOp();
    SmallVector<Value> values;
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      if (!isa<TensorType>(value.getType())) {
        values.push_back(value);
        continue;
      }
      FailureOr<Value> buffer = getBuffer(rewriter, value, options, state);
      if (failed(buffer))
        return failure();
      Type expected = parent->getResult(operand.getOperandNumber()).getType();
      // The parent is bufferized first: its result types are buffers whose
      // layout may be more general than this buffer's.
      if (isa<BaseMemRefType>(expected) && buffer->getType() != expected)
        buffer =
            memref::CastOp::create(rewriter, op->getLoc(), expected, *buffer)
                .getResult();
      values.push_back(*buffer);
    }
    replaceOpWithNewBufferizedOp<EnvRegionYieldOp>(rewriter, op, values);
    return success();
  }
};
} // namespace

void imex::region::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, RegionDialect *) {
    EnvRegionOp::attachInterface<EnvRegionOpInterface>(*context);
    EnvRegionYieldOp::attachInterface<EnvRegionYieldOpInterface>(*context);
  });
}
