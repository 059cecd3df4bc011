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
  if (attr.getName() == getTeamAttrName()) {
    auto team = dyn_cast<IntegerAttr>(attr.getValue());
    if (!team || !team.getType().isSignlessIntOrIndex() ||
        team.getValue().getSignificantBits() > 64 || team.getInt() < 1)
      return op->emitOpError("attribute '")
             << getTeamAttrName()
             << "' must be a positive signless integer or index, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == getSplitAttrName() ||
      attr.getName() == getGridAttrName()) {
    if (!op->hasAttr(getTeamAttrName()))
      return op->emitOpError("attribute '")
             << attr.getName() << "' needs '" << getTeamAttrName() << "'";
    if (!isa<DenseI64ArrayAttr>(attr.getValue()))
      return op->emitOpError("attribute '")
             << attr.getName() << "' must be an array<i64: ...>, got "
             << attr.getValue();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// DistEnvAttr
//===----------------------------------------------------------------------===//

LogicalResult DistEnvAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t team, ArrayRef<int64_t> split,
                                  ArrayRef<int64_t> grid) {
  if (team < 1)
    return emitError() << "dist_env team must be >= 1, got " << team;
  if (split.empty())
    return emitError() << "dist_env split must name at least one axis";
  for (auto [i, axis] : llvm::enumerate(split))
    if (axis < 0 || (i > 0 && axis <= split[i - 1]))
      return emitError() << "dist_env split axes must be non-negative and "
                            "strictly increasing, got ["
                         << split << "]";
  if (!grid.empty() && grid.size() != split.size())
    return emitError() << "dist_env grid must have one entry per split axis ("
                       << split.size() << "), got " << grid.size();
  if (llvm::any_of(grid, [](int64_t n) { return n < 1; }))
    return emitError() << "dist_env grid sizes must be >= 1, got [" << grid
                       << "]";
  return success();
}

/// Parses `[a, b, ...]` (at least one entry) into `values`.
static ParseResult parseIntegerList(AsmParser &parser,
                                    SmallVectorImpl<int64_t> &values) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
    return parser.parseInteger(values.emplace_back());
  });
}

Attribute DistEnvAttr::parse(AsmParser &parser, Type) {
  int64_t team = 0;
  SmallVector<int64_t> split{0}, grid;
  if (parser.parseLess() || parser.parseKeyword("team") ||
      parser.parseEqual() || parser.parseInteger(team))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    split.clear();
    if (parser.parseKeyword("split") || parser.parseEqual() ||
        parseIntegerList(parser, split))
      return {};
    if (succeeded(parser.parseOptionalComma()) &&
        (parser.parseKeyword("grid") || parser.parseEqual() ||
         parseIntegerList(parser, grid)))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), team, split, grid);
}

void DistEnvAttr::print(AsmPrinter &printer) const {
  printer << "<team = " << getTeam();
  if (getSplit() != ArrayRef<int64_t>{0} || !getGrid().empty())
    printer << ", split = [" << getSplit() << "]";
  if (!getGrid().empty())
    printer << ", grid = [" << getGrid() << "]";
  printer << ">";
}

bool DistEnvAttr::isDefaultDistribution() const {
  return getSplit() == ArrayRef<int64_t>{0} && getGrid().empty();
}

DistEnvAttr DistEnvAttr::getDefault() const {
  return get(getContext(), getTeam());
}

bool DistEnvAttr::isCompatibleEnvironment(ShapedType type, Attribute other,
                                          ShapedType otherType) const {
  // 0-d arrays are replicated: they meet arrays of any distribution.
  auto dist = dyn_cast<DistEnvAttr>(other);
  return dist && dist.getTeam() == getTeam() &&
         (dist == *this || type.getRank() == 0 || otherType.getRank() == 0);
}

bool DistEnvAttr::mayMixWithAbsentEnvironment() const { return true; }

Attribute DistEnvAttr::getResultEnvironment(ShapedType resultType) const {
  if (resultType.hasRank() && resultType.getRank() > getSplit().back())
    return *this;
  return getDefault();
}

Attribute DistEnvAttr::getReducedEnvironment(ShapedType resultType,
                                             ArrayRef<int64_t> reducedAxes,
                                             bool keepdims) const {
  // Over a split axis the result is replicated (or, if it is distributed by
  // a pass, split on rows); otherwise the split axes stay, renumbered if the
  // reduced axes are dropped.
  SmallVector<int64_t> split;
  for (int64_t axis : getSplit()) {
    if (llvm::is_contained(reducedAxes, axis))
      return getDefault();
    split.push_back(
        keepdims ? axis : axis - llvm::count_if(reducedAxes, [&](int64_t d) {
                            return d < axis;
                          }));
  }
  return DistEnvAttr::get(getContext(), getTeam(), split, getGrid())
      .getResultEnvironment(resultType);
}

LogicalResult
DistEnvAttr::verifyArrayType(function_ref<InFlightDiagnostic()> emitError,
                             ShapedType arrayType) const {
  if (!arrayType.hasRank())
    return emitError() << "dist_env needs a ranked array";
  if (arrayType.getRank() == 0 && !isDefaultDistribution())
    return emitError() << "a 0-d distributed array is replicated: its "
                          "dist_env cannot split axes or name a grid";
  if (arrayType.getRank() > 0 && getSplit().back() >= arrayType.getRank())
    return emitError() << "dist_env splits axis " << getSplit().back()
                       << " of an array of rank " << arrayType.getRank();
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
    for (int64_t axis : getDistEnv(distType).getSplit())
      shape[axis] = ShapedType::kDynamic;
  return ndarray::NDArrayType::get(shape, distType.getElementType(),
                                   getOtherEnvironments(distType));
}

ndarray::NDArrayType imex::dist::withDistEnv(ndarray::NDArrayType type,
                                             DistEnvAttr env) {
  if (!type || !env)
    return {};
  SmallVector<Attribute> envs = getOtherEnvironments(type);
  envs.push_back(env);
  return type.cloneWithEnvironments(envs);
}

ndarray::NDArrayType imex::dist::withDistEnv(ndarray::NDArrayType type,
                                             int64_t team) {
  if (!type || team < 1)
    return {};
  return withDistEnv(type, DistEnvAttr::get(type.getContext(), team));
}
