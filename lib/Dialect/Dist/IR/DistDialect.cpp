//===- DistDialect.cpp - dist dialect and #dist.dist_env ------------------===//

#include "imex/Dialect/Dist/IR/Dist.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

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

static void printSize(llvm::raw_ostream &os, int64_t size) {
  if (ShapedType::isDynamic(size))
    os << "?";
  else
    os << size;
}

static const char *getPartName(unsigned part) {
  switch (part) {
  case 0:
    return "left halo";
  case 1:
    return "owned block";
  default:
    return "right halo";
  }
}

Attribute DistEnvAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  int64_t team;
  if (parser.parseLess() || parser.parseKeyword("team") ||
      parser.parseEqual() || parser.parseInteger(team))
    return {};
  SmallVector<int64_t> offsets, parts;
  if (succeeded(parser.parseOptionalKeyword("loffs"))) {
    auto parseOffset = [&]() -> ParseResult {
      if (succeeded(parser.parseOptionalQuestion())) {
        offsets.push_back(ShapedType::kDynamic);
        return success();
      }
      int64_t offset;
      if (parser.parseInteger(offset))
        return failure();
      offsets.push_back(offset);
      return success();
    };
    if (parser.parseEqual() || parser.parseCommaSeparatedList(parseOffset) ||
        parser.parseKeyword("lparts") || parser.parseEqual())
      return {};
    unsigned numParts = 0;
    auto parsePart = [&]() -> ParseResult {
      SMLoc partLoc = parser.getCurrentLocation();
      SmallVector<int64_t> shape;
      if (parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                    /*withTrailingX=*/false))
        return failure();
      if (shape.size() != offsets.size())
        return parser.emitError(partLoc)
               << "expected " << offsets.size()
               << " size(s) per part (one per local offset), got "
               << shape.size();
      ++numParts;
      llvm::append_range(parts, shape);
      return success();
    };
    SMLoc partsLoc = parser.getCurrentLocation();
    if (parser.parseCommaSeparatedList(parsePart))
      return {};
    if (numParts != 3) {
      parser.emitError(partsLoc)
          << "expected 3 parts (left halo, owned block, right halo), got "
          << numParts;
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<DistEnvAttr>(loc, parser.getContext(), team, offsets,
                                        parts);
}

void DistEnvAttr::print(AsmPrinter &printer) const {
  llvm::raw_ostream &os = printer.getStream();
  os << "<team = " << getTeam();
  if (getRank() > 0) {
    os << " loffs = ";
    llvm::interleave(
        getLocalOffsets(), os, [&](int64_t off) { printSize(os, off); }, ",");
    os << " lparts = ";
    for (unsigned part = 0; part < 3; ++part) {
      if (part)
        os << ",";
      llvm::interleave(
          getPartShape(part), os, [&](int64_t size) { printSize(os, size); },
          "x");
    }
  }
  os << ">";
}

LogicalResult DistEnvAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t team, ArrayRef<int64_t> localOffsets,
                                  ArrayRef<int64_t> partSizes) {
  if (team < 1)
    return emitError() << "dist_env team must be >= 1, got " << team;
  for (auto [dim, offset] : llvm::enumerate(localOffsets)) {
    if (ShapedType::isDynamic(offset))
      continue;
    if (offset < 0)
      return emitError() << "dist_env local offsets must be non-negative or "
                            "dynamic, got "
                         << offset;
    if (dim > 0 && offset != 0)
      return emitError() << "dist_env local offset of dimension " << dim
                         << " must be 0 or dynamic (arrays are split on "
                            "dimension 0 only), got "
                         << offset;
  }
  size_t rank = localOffsets.size();
  if (partSizes.size() != 3 * rank)
    return emitError() << "dist_env needs 3 part shapes with one size per "
                          "local offset ("
                       << 3 * rank << " sizes), got " << partSizes.size();
  for (int64_t size : partSizes)
    if (size < 0 && !ShapedType::isDynamic(size))
      return emitError() << "dist_env part sizes must be non-negative or "
                            "dynamic, got "
                         << size;
  for (unsigned part = 0; part < 3 && rank > 0; ++part)
    if (!ndarray::isValidShape(partSizes.slice(part * rank, rank)))
      return emitError() << "dist_env part " << part
                         << " has more than 2^63 - 1 elements";
  // Every rank holds whole rows: the parts agree on dimensions 1...
  for (size_t dim = 1; dim < rank; ++dim) {
    int64_t known = ShapedType::kDynamic;
    for (unsigned part = 0; part < 3; ++part) {
      int64_t size = partSizes[part * rank + dim];
      if (ShapedType::isDynamic(size))
        continue;
      if (!ShapedType::isDynamic(known) && known != size)
        return emitError() << "dist_env parts must agree on dimension " << dim
                           << " (every rank holds whole rows), got sizes "
                           << known << " and " << size;
      known = size;
    }
  }
  return success();
}

DistEnvAttr DistEnvAttr::getDynamic(MLIRContext *context, int64_t team,
                                    ArrayRef<int64_t> globalShape) {
  SmallVector<int64_t> offsets(globalShape.size(), 0), parts;
  if (!globalShape.empty()) {
    offsets[0] = ShapedType::kDynamic;
    for (unsigned part = 0; part < 3; ++part) {
      parts.push_back(ShapedType::kDynamic);
      llvm::append_range(parts, globalShape.drop_front());
    }
  }
  return get(context, team, offsets, parts);
}

SmallVector<int64_t> DistEnvAttr::getPartShape(unsigned part) const {
  size_t rank = getRank();
  ArrayRef<int64_t> sizes = getPartSizes();
  if (part > 2 || sizes.size() < (part + 1) * rank)
    return {};
  return SmallVector<int64_t>(sizes.slice(part * rank, rank));
}

bool DistEnvAttr::isCompatibleEnvironment(Attribute other) const {
  auto dist = dyn_cast<DistEnvAttr>(other);
  return dist && dist.getTeam() == getTeam();
}

bool DistEnvAttr::mayMixWithAbsentEnvironment() const { return true; }

Attribute DistEnvAttr::getResultEnvironment(ShapedType resultType) const {
  if (!resultType.hasRank())
    return *this;
  return getDynamic(getContext(), getTeam(), resultType.getShape());
}

LogicalResult
DistEnvAttr::verifyArrayType(function_ref<InFlightDiagnostic()> emitError,
                             ShapedType arrayType) const {
  int64_t rank = getRank();
  if (getPartSizes().size() != static_cast<size_t>(3 * rank))
    return emitError() << "dist_env needs 3 part shapes of rank " << rank;
  if (!arrayType.hasRank() || arrayType.getRank() != rank)
    return emitError() << "dist_env of rank " << rank
                       << " does not fit an array of rank "
                       << (arrayType.hasRank() ? arrayType.getRank() : -1);
  ArrayRef<int64_t> shape = arrayType.getShape();
  for (unsigned part = 0; part < 3 && rank > 0; ++part) {
    SmallVector<int64_t> partShape = getPartShape(part);
    for (int64_t dim = 1; dim < rank; ++dim)
      if (!ShapedType::isDynamic(partShape[dim]) &&
          !ShapedType::isDynamic(shape[dim]) && partShape[dim] != shape[dim])
        return emitError() << "dist_env " << getPartName(part) << " has size "
                           << partShape[dim] << " on dimension " << dim
                           << " but the array has size " << shape[dim]
                           << " (every rank holds whole rows)";
  }
  if (rank == 0 || ShapedType::isDynamic(shape[0]))
    return success();
  // The parts are a contiguous range of rows inside the array: the static
  // row counts (and a static local offset) bound its end from below.
  std::optional<int64_t> rows = 0;
  for (unsigned part = 0; part < 3 && rows; ++part)
    if (int64_t size = getPartShape(part)[0]; !ShapedType::isDynamic(size))
      rows = llvm::checkedAdd(*rows, size);
  if (!rows || *rows > shape[0])
    return emitError() << "dist_env parts hold more rows than the " << shape[0]
                       << " of the array";
  int64_t offset = getLocalOffsets()[0];
  if (ShapedType::isDynamic(offset))
    return success();
  std::optional<int64_t> end = llvm::checkedAdd(offset, *rows);
  if (!end || *end > shape[0])
    return emitError() << "dist_env parts at local offset " << offset
                       << " hold " << *rows
                       << " rows, more than the array has from there (it "
                          "has "
                       << shape[0] << ")";
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

ndarray::NDArrayType imex::dist::getPartType(ndarray::NDArrayType distType,
                                             unsigned part) {
  DistEnvAttr env = getDistEnv(distType);
  if (!env)
    return {};
  SmallVector<Attribute> others = getOtherEnvironments(distType);
  if (distType.getRank() == 0)
    return part == 0
               ? ndarray::NDArrayType::get(distType.getShape(),
                                           distType.getElementType(), others)
               : ndarray::NDArrayType();
  SmallVector<int64_t> shape = env.getPartShape(part);
  if (part > 2 || static_cast<int64_t>(shape.size()) != distType.getRank())
    return {};
  return ndarray::NDArrayType::get(shape, distType.getElementType(), others);
}

ndarray::NDArrayType imex::dist::withDistEnv(ndarray::NDArrayType type,
                                             int64_t team) {
  if (!type || team < 1)
    return {};
  SmallVector<Attribute> envs = getOtherEnvironments(type);
  envs.push_back(
      DistEnvAttr::getDynamic(type.getContext(), team, type.getShape()));
  return type.cloneWithEnvironments(envs);
}
