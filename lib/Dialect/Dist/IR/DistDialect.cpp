//===- DistDialect.cpp - dist dialect and #dist.dist_env ------------------===//

#include "imex/Dialect/Dist/IR/Dist.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace imex;
using namespace imex::dist;

#include "imex/Dialect/Dist/IR/DistOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "imex/Dialect/Dist/IR/DistOpsAttrs.cpp.inc"

void DistDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "imex/Dialect/Dist/IR/DistOpsAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "imex/Dialect/Dist/IR/DistOps.cpp.inc"
      >();
}

Operation *DistDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

LogicalResult DistDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() != getTeamAttrName())
    return success();
  auto team = dyn_cast<IntegerAttr>(attr.getValue());
  if (!team || !team.getType().isSignlessIntOrIndex() ||
      team.getValue().getSignificantBits() > 64 || team.getInt() < 1)
    return op->emitOpError("attribute '")
           << getTeamAttrName()
           << "' must be a positive signless integer or index, got "
           << attr.getValue();
  return success();
}

//===----------------------------------------------------------------------===//
// DistEnvAttr
//===----------------------------------------------------------------------===//

LogicalResult DistEnvAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t team) {
  if (team < 1)
    return emitError() << "dist_env team must be >= 1, got " << team;
  return success();
}

bool DistEnvAttr::isCompatibleEnvironment(Attribute other) const {
  auto dist = dyn_cast<DistEnvAttr>(other);
  return dist && dist.getTeam() == getTeam();
}

bool DistEnvAttr::mayMixWithAbsentEnvironment() const { return true; }

Attribute DistEnvAttr::getResultEnvironment(ShapedType) const { return *this; }

LogicalResult
DistEnvAttr::verifyArrayType(function_ref<InFlightDiagnostic()> emitError,
                             ShapedType arrayType) const {
  if (!arrayType.hasRank())
    return emitError() << "dist_env needs a ranked array";
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

DistEnvAttr imex::dist::getDistEnv(Type type) {
  auto array = dyn_cast_if_present<ndarray::NDArrayType>(type);
  return array ? array.getEnvironment<DistEnvAttr>() : DistEnvAttr();
}

/// The environments of `type` other than its dist env.
static SmallVector<Attribute> getOtherEnvironments(ndarray::NDArrayType type) {
  SmallVector<Attribute> others;
  for (Attribute env : type.getEnvironments())
    if (!isa<DistEnvAttr>(env))
      others.push_back(env);
  return others;
}

ndarray::NDArrayType imex::dist::getLocalType(ndarray::NDArrayType distType) {
  if (!getDistEnv(distType))
    return {};
  SmallVector<int64_t> shape(distType.getShape());
  if (!shape.empty())
    shape[0] = ShapedType::kDynamic;
  return ndarray::NDArrayType::get(shape, distType.getElementType(),
                                   getOtherEnvironments(distType));
}

ndarray::NDArrayType imex::dist::withDistEnv(ndarray::NDArrayType type,
                                             int64_t team) {
  if (!type || team < 1)
    return {};
  SmallVector<Attribute> envs = getOtherEnvironments(type);
  envs.push_back(DistEnvAttr::get(type.getContext(), team));
  return type.cloneWithEnvironments(envs);
}
