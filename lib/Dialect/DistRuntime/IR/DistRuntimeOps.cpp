//===- DistRuntimeOps.cpp - distruntime dialect ---------------------------===//

#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace imex;
using namespace imex::distruntime;

#include "imex/Dialect/DistRuntime/IR/DistRuntimeOpsDialect.cpp.inc"
#include "imex/Dialect/DistRuntime/IR/DistRuntimeOpsEnums.cpp.inc"
#include "imex/Dialect/DistRuntime/IR/DistRuntimeOpsInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "imex/Dialect/DistRuntime/IR/DistRuntimeOpsAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "imex/Dialect/DistRuntime/IR/DistRuntimeOpsTypes.cpp.inc"

void DistRuntimeDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "imex/Dialect/DistRuntime/IR/DistRuntimeOpsAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "imex/Dialect/DistRuntime/IR/DistRuntimeOpsTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "imex/Dialect/DistRuntime/IR/DistRuntimeOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Element types and local arrays
//===----------------------------------------------------------------------===//

StringRef imex::distruntime::getIDTRTypeSuffix(Type type) {
  if (type.isF64())
    return "f64";
  if (type.isF32())
    return "f32";
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (auto complex = dyn_cast<ComplexType>(type)) {
    if (complex.getElementType().isF32())
      return "c64";
    if (complex.getElementType().isF64())
      return "c128";
    return "";
  }
  if (type.isIndex())
    return "index";
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return "";
  unsigned width = integer.getWidth();
  if (integer.isSignless()) {
    switch (width) {
    case 1:
      return "i1";
    case 8:
      return "i8";
    case 16:
      return "i16";
    case 32:
      return "i32";
    case 64:
      return "i64";
    default:
      return "";
    }
  }
  if (integer.isUnsigned()) {
    switch (width) {
    case 8:
      return "ui8";
    case 16:
      return "ui16";
    case 32:
      return "ui32";
    case 64:
      return "ui64";
    default:
      return "";
    }
  }
  return "";
}

bool imex::distruntime::isSupportedElementType(Type type) {
  return !getIDTRTypeSuffix(type).empty();
}

LogicalResult imex::distruntime::verifyLocalArray(Operation *op, Type type,
                                                  StringRef what) {
  auto array = dyn_cast<ndarray::NDArrayType>(type);
  if (!array)
    return op->emitOpError()
           << what << " must be an !ndarray.ndarray, got " << type;
  for (Attribute env : array.getEnvironments())
    if (env.getDialect().getNamespace() == "dist")
      return op->emitOpError()
             << what
             << " must be a local array (without a dist environment), got "
             << type;
  if (!isSupportedElementType(array.getElementType()))
    return op->emitOpError()
           << what << " has element type " << array.getElementType()
           << ", which IDTR does not support (f64, f32, f16, bf16, "
              "complex<f32>, complex<f64>, i64, i32, i16, i8, i1, ui64, ui32, "
              "ui16, ui8, index)";
  return success();
}

/// `list` (named `name`) has one value per dimension of a rank-`rank` array
/// (named `of`).
static LogicalResult verifyIndexList(Operation *op, ValueRange list,
                                     int64_t rank, StringRef name,
                                     StringRef of) {
  if (static_cast<int64_t>(list.size()) != rank)
    return op->emitOpError("expects ")
           << rank << " value(s) in '" << name << "' (the rank of '" << of
           << "'), got " << list.size();
  return success();
}

/// A local array of rank >= 1 (distributed arrays are split on dimension 0).
static LogicalResult verifyBlock(Operation *op, Value value, StringRef name) {
  if (failed(verifyLocalArray(op, value.getType(), "'" + name.str() + "'")))
    return failure();
  if (cast<ndarray::NDArrayType>(value.getType()).getRank() < 1)
    return op->emitOpError("'")
           << name
           << "' must have rank >= 1 (distributed arrays are split on "
              "dimension 0)";
  return success();
}

static LogicalResult verifySameElementType(Operation *op, Value value,
                                           StringRef name, Value reference,
                                           StringRef referenceName) {
  Type type = cast<ndarray::NDArrayType>(value.getType()).getElementType();
  Type expected =
      cast<ndarray::NDArrayType>(reference.getType()).getElementType();
  if (type != expected)
    return op->emitOpError("element type of '")
           << name << "' (" << type << ") differs from '" << referenceName
           << "' (" << expected << ")";
  return success();
}

/// A static size `size` of dimension `dim` of `name` agrees with the
/// expected size given by the value `expected` when that is a constant.
static LogicalResult verifyStaticSize(Operation *op, StringRef name,
                                      int64_t dim, int64_t size,
                                      std::optional<int64_t> expected,
                                      StringRef expectation) {
  if (ShapedType::isDynamic(size) || !expected || *expected == size)
    return success();
  return op->emitOpError("'")
         << name << "' has size " << size << " in dimension " << dim << " but "
         << expectation << " is " << *expected;
}

static std::optional<int64_t> getConstant(Value value) {
  return getConstantIntValue(value);
}

//===----------------------------------------------------------------------===//
// AllReduceOp
//===----------------------------------------------------------------------===//

/// Complex numbers have no order: min and max of them are rejected.
static LogicalResult verifyReductionOnElements(Operation *op, Type type,
                                               ReductionKind kind) {
  Type element = cast<ndarray::NDArrayType>(type).getElementType();
  if (isa<ComplexType>(element) &&
      (kind == ReductionKind::min || kind == ReductionKind::max))
    return op->emitOpError("reduction '")
           << stringifyReductionKind(kind) << "' of complex numbers ("
           << element << "): they have no order";
  return success();
}

LogicalResult GridDimOp::verify() {
  if (getDim() >= getNdims())
    return emitOpError("dim ") << getDim() << " is out of range for a grid of "
                               << getNdims() << " dimension(s)";
  return success();
}

LogicalResult AllReduceOp::verify() {
  if (failed(verifyLocalArray(*this, getInput().getType(), "'input'")))
    return failure();
  return verifyReductionOnElements(*this, getInput().getType(), getKind());
}

//===----------------------------------------------------------------------===//
// OrderedReduceOp
//===----------------------------------------------------------------------===//

LogicalResult OrderedReduceOp::verify() {
  auto input = cast<ndarray::NDArrayType>(getInput().getType());
  auto result = cast<ndarray::NDArrayType>(getResult().getType());
  if (failed(verifyLocalArray(*this, input, "'input'")) ||
      failed(verifyLocalArray(*this, result, "the result")))
    return failure();
  if (getKind() != ReductionKind::sum && getKind() != ReductionKind::prod)
    return emitOpError("reduces with sum or prod, got '")
           << stringifyReductionKind(getKind()) << "'";
  Type element = input.getElementType();
  if (!isa<FloatType, ComplexType>(element))
    return emitOpError("reduces floating point or complex arrays (whose sums "
                       "depend on the order), got ")
           << element;
  if (input.getRank() < 1 || result.getRank() != input.getRank() ||
      result.getElementType() != element || result.getDimSize(0) != 1 ||
      failed(verifyCompatibleShape(input.getShape().drop_front(),
                                   result.getShape().drop_front())))
    return emitOpError("result must be one row of the shape and element type "
                       "of 'input' (")
           << input << "), got " << result;
  return success();
}

//===----------------------------------------------------------------------===//
// SampleSortOp
//===----------------------------------------------------------------------===//

LogicalResult MatrixLinalgOp::verify() {
  MatrixRoutine kind = getKind();
  size_t inputs = kind == MatrixRoutine::solve ? 2 : 1;
  size_t results = kind == MatrixRoutine::svd ? 4
                   : kind == MatrixRoutine::slogdet ||
                           kind == MatrixRoutine::eigh ||
                           kind == MatrixRoutine::qr
                       ? 3
                       : 2;
  if (getInputs().size() != inputs || getResults().size() != results)
    return emitOpError("'")
           << stringifyMatrixRoutine(kind) << "' takes " << inputs
           << " input(s) and returns " << results
           << " result(s) (the last the status), got " << getInputs().size()
           << " and " << getResults().size();
  size_t resultRows =
      kind == MatrixRoutine::qr || kind == MatrixRoutine::svd ? 1 : 0;
  if (getResultRows().size() != resultRows)
    return emitOpError("'")
           << stringifyMatrixRoutine(kind) << "' takes " << resultRows
           << " 'rows' operand(s), got " << getResultRows().size();
  for (Value input : getInputs())
    if (failed(verifyLocalArray(*this, input.getType(), "input")))
      return failure();
  auto a = cast<ndarray::NDArrayType>(getInputs().front().getType());
  Type element = a.getElementType();
  Type real = element;
  if (auto complex = dyn_cast<ComplexType>(element))
    real = complex.getElementType();
  if (!real.isF32() && !real.isF64())
    return emitOpError("matrices must be f32, f64, complex<f32> or "
                       "complex<f64>, not ")
           << element;
  auto isSquareRows = [](ndarray::NDArrayType type) {
    return type.getRank() == 2;
  };
  if (!isSquareRows(a))
    return emitOpError("'a' must be this rank's rows of a matrix (rank 2), "
                       "got ")
           << a;
  if (kind == MatrixRoutine::solve) {
    auto b = cast<ndarray::NDArrayType>(getInputs()[1].getType());
    if (b.getRank() != 2 || b.getElementType() != element)
      return emitOpError("'b' must be rows of a matrix of ")
             << element << ", got " << b;
  }
  for (auto [i, result] : llvm::enumerate(getResults().drop_back())) {
    auto type = cast<ndarray::NDArrayType>(result.getType());
    // (The rank and element type of each result: rows of a matrix, the
    // eigenvalues, or a 0-d value.)
    int64_t rank = 2;
    Type want = element;
    if (kind == MatrixRoutine::det || kind == MatrixRoutine::slogdet) {
      rank = 0;
      want = kind == MatrixRoutine::slogdet && i == 1 ? real : element;
    } else if ((i == 0 && (kind == MatrixRoutine::eigh ||
                           kind == MatrixRoutine::eigvalsh ||
                           kind == MatrixRoutine::svdvals)) ||
               (i == 1 && kind == MatrixRoutine::svd)) {
      rank = 1;
      want = real;
    }
    if (type.getRank() != rank || type.getElementType() != want)
      return emitOpError("result #") << i << " must be "
                                     << (rank == 0   ? "a 0-d array"
                                         : rank == 1 ? "a vector"
                                                     : "rows")
                                     << " of " << want << ", got " << type;
  }
  auto status = cast<ndarray::NDArrayType>(getResults().back().getType());
  if (status.getRank() != 0 || !status.getElementType().isInteger(64))
    return emitOpError("the last result (the status) must be a 0-d i64 "
                       "array, not ")
           << status;
  return success();
}

LogicalResult SampleSortOp::verify() {
  auto input = cast<ndarray::NDArrayType>(getInput().getType());
  auto result = cast<ndarray::NDArrayType>(getResult().getType());
  if (failed(verifyLocalArray(*this, input, "'input'")))
    return failure();
  if (input.getRank() != 1 || result.getRank() != 1)
    return emitOpError("sorts 1-d blocks, got 'input' of rank ")
           << input.getRank() << " and a result of rank " << result.getRank();
  Type expected = getIndices() ? IntegerType::get(getContext(), 64)
                               : input.getElementType();
  if (result.getElementType() != expected)
    return emitOpError("result element type must be ")
           << expected << (getIndices() ? " (indices)" : " (the input's)")
           << ", got " << result.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// RaggedAllToAllOp
//===----------------------------------------------------------------------===//

LogicalResult RaggedAllToAllOp::verify() {
  auto send = cast<ndarray::NDArrayType>(getSend().getType());
  auto output = cast<ndarray::NDArrayType>(getOutput().getType());
  if (failed(verifyLocalArray(*this, send, "'send'")) ||
      failed(verifyLocalArray(*this, output, "'output'")))
    return failure();
  if (send.getRank() < 1 || send.getRank() != output.getRank() ||
      send.getElementType() != output.getElementType() ||
      failed(verifyCompatibleShape(send.getShape().drop_front(),
                                   output.getShape().drop_front())))
    return emitOpError("'send' (")
           << send << ") and 'output' (" << output
           << ") must be arrays of rows of the same shape and element type";
  for (auto [table, name] : {std::pair{getSendOffsets(), "send_offsets"},
                             std::pair{getSendSizes(), "send_sizes"},
                             std::pair{getOutputOffsets(), "output_offsets"},
                             std::pair{getRecvSizes(), "recv_sizes"}}) {
    auto type = cast<ndarray::NDArrayType>(table.getType());
    if (type.getRank() != 1 || !type.getElementType().isIndex() ||
        failed(verifyLocalArray(*this, type, name)))
      return emitOpError("'")
             << name << "' must be a 1-d index array, got " << type;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// TakeOp
//===----------------------------------------------------------------------===//

LogicalResult TakeOp::verify() {
  auto input = cast<ndarray::NDArrayType>(getInput().getType());
  auto indices = cast<ndarray::NDArrayType>(getIndices().getType());
  auto result = cast<ndarray::NDArrayType>(getResult().getType());
  if (failed(verifyLocalArray(*this, input, "'input'")) ||
      failed(verifyLocalArray(*this, indices, "'indices'")))
    return failure();
  if (indices.getRank() != 1 || !indices.getElementType().isInteger(64))
    return emitOpError("'indices' must be a 1-d i64 array, got ") << indices;
  if (input.getRank() < 1 || result.getRank() != input.getRank() ||
      result.getElementType() != input.getElementType() ||
      result.getShape().drop_front() != input.getShape().drop_front())
    return emitOpError("the result must be rows of 'input' (")
           << input << "), got " << result;
  return success();
}

//===----------------------------------------------------------------------===//
// PutOp
//===----------------------------------------------------------------------===//

LogicalResult PutOp::verify() {
  auto data = cast<ndarray::NDArrayType>(getData().getType());
  auto indices = cast<ndarray::NDArrayType>(getIndices().getType());
  auto values = cast<ndarray::NDArrayType>(getValues().getType());
  if (failed(verifyLocalArray(*this, data, "'data'")) ||
      failed(verifyLocalArray(*this, indices, "'indices'")) ||
      failed(verifyLocalArray(*this, values, "'values'")))
    return failure();
  if (indices.getRank() != 1 || !indices.getElementType().isInteger(64))
    return emitOpError("'indices' must be a 1-d i64 array, got ") << indices;
  if (data.getRank() < 1 || values.getRank() != data.getRank() ||
      values.getElementType() != data.getElementType() ||
      failed(verifyCompatibleShape(values.getShape().drop_front(),
                                   data.getShape().drop_front())))
    return emitOpError("'values' must be rows of 'data' (")
           << data << "), got " << values;
  return success();
}

//===----------------------------------------------------------------------===//
// ExScanOp
//===----------------------------------------------------------------------===//

LogicalResult ExScanOp::verify() {
  if (failed(verifyLocalArray(*this, getInput().getType(), "'input'")))
    return failure();
  return verifyReductionOnElements(*this, getInput().getType(), getKind());
}

//===----------------------------------------------------------------------===//
// GetHaloOp
//===----------------------------------------------------------------------===//

LogicalResult GetHaloOp::verify() {
  Operation *op = *this;
  if (failed(verifyBlock(op, getData(), "data")))
    return failure();
  auto data = cast<ndarray::NDArrayType>(getData().getType());
  int64_t rank = data.getRank();
  if (failed(verifyIndexList(op, getGlobalShape(), rank, "global_shape",
                             "data")) ||
      failed(verifyIndexList(op, getLocalOffsets(), rank, "local_offsets",
                             "data")) ||
      failed(verifyIndexList(op, getBbOffsets(), rank, "bb_offsets", "data")) ||
      failed(verifyIndexList(op, getBbSizes(), rank, "bb_sizes", "data")))
    return failure();

  // Rows of the halos, when everything they depend on is constant.
  std::optional<int64_t> own = getConstant(getLocalOffsets()[0]);
  std::optional<int64_t> begin = getConstant(getBbOffsets()[0]);
  std::optional<int64_t> size = getConstant(getBbSizes()[0]);
  std::optional<int64_t> rows[2];
  std::optional<int64_t> end, left, right;
  if (own && begin && size && !data.isDynamicDim(0)) {
    end = llvm::checkedAdd(*own, data.getDimSize(0));
    left = llvm::checkedSub(*own, *begin);
    std::optional<int64_t> stop = llvm::checkedAdd(*begin, *size);
    right = end && stop ? llvm::checkedSub(*stop, *end) : std::nullopt;
  }
  if (left && right) { // (else the constants are beyond any array)
    rows[0] = std::clamp<int64_t>(*left, 0, std::max<int64_t>(*size, 0));
    rows[1] = std::clamp<int64_t>(*right, 0, std::max<int64_t>(*size, 0));
  }
  Value halos[2] = {getLhalo(), getRhalo()};
  StringRef names[2] = {"lhalo", "rhalo"};
  for (int h = 0; h < 2; ++h) {
    if (failed(verifyLocalArray(op, halos[h].getType(),
                                "'" + names[h].str() + "'")) ||
        failed(
            verifySameElementType(op, halos[h], names[h], getData(), "data")))
      return failure();
    auto type = cast<ndarray::NDArrayType>(halos[h].getType());
    if (type.getRank() != rank)
      return op->emitOpError("'")
             << names[h] << "' must have the rank of 'data' (" << rank
             << "), got " << type.getRank();
    if (failed(verifyStaticSize(op, names[h], 0, type.getDimSize(0), rows[h],
                                "the number of bounding-box rows " +
                                    std::string(h ? "after" : "before") +
                                    " the owned rows")))
      return failure();
    for (int64_t dim = 1; dim < rank; ++dim)
      if (failed(verifyStaticSize(op, names[h], dim, type.getDimSize(dim),
                                  getConstant(getBbSizes()[dim]),
                                  "bb_sizes[" + std::to_string(dim) + "]")))
        return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CopyReshapeOp
//===----------------------------------------------------------------------===//

/// The product of `values` if all are constant.
static std::optional<int64_t> getConstantProduct(ValueRange values) {
  int64_t product = 1;
  for (Value value : values) {
    std::optional<int64_t> constant = getConstant(value);
    std::optional<int64_t> next =
        constant ? llvm::checkedMul(product, *constant) : std::nullopt;
    if (!next)
      return std::nullopt;
    product = *next;
  }
  return product;
}

LogicalResult CopyReshapeOp::verify() {
  Operation *op = *this;
  if (failed(verifyBlock(op, getInput(), "input")) ||
      failed(verifyBlock(op, getOutput(), "output")) ||
      failed(verifySameElementType(op, getOutput(), "output", getInput(),
                                   "input")))
    return failure();
  auto input = cast<ndarray::NDArrayType>(getInput().getType());
  auto output = cast<ndarray::NDArrayType>(getOutput().getType());
  if (failed(verifyIndexList(op, getGlobalShapeIn(), input.getRank(),
                             "global_shape_in", "input")) ||
      failed(verifyIndexList(op, getLocalOffsetsIn(), input.getRank(),
                             "local_offsets_in", "input")) ||
      failed(verifyIndexList(op, getGlobalShapeOut(), output.getRank(),
                             "global_shape_out", "output")) ||
      failed(verifyIndexList(op, getLocalOffsetsOut(), output.getRank(),
                             "local_offsets_out", "output")) ||
      failed(verifyIndexList(op, getLocalShapeOut(), output.getRank(),
                             "local_shape_out", "output")))
    return failure();
  std::optional<int64_t> in = getConstantProduct(getGlobalShapeIn());
  std::optional<int64_t> out = getConstantProduct(getGlobalShapeOut());
  if (in && out && *in != *out)
    return emitOpError("cannot reshape a global array of ")
           << *in << " elements into one of " << *out << " elements";
  for (int64_t dim = 0; dim < output.getRank(); ++dim)
    if (failed(
            verifyStaticSize(op, "output", dim, output.getDimSize(dim),
                             getConstant(getLocalShapeOut()[dim]),
                             "local_shape_out[" + std::to_string(dim) + "]")))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// RepartitionOp
//===----------------------------------------------------------------------===//

/// `input` is a block of a distributed array (`globalShape`, at
/// `localOffsets`) copied into `output`, a local array of the same rank
/// and element type; `output`'s static sizes agree with constant `sizes`
/// from dimension `firstSized` on.
static LogicalResult verifyBlockCopy(Operation *op, Value input, Value output,
                                     ValueRange globalShape,
                                     ValueRange localOffsets, ValueRange sizes,
                                     StringRef sizesName,
                                     int64_t firstSized = 0) {
  if (failed(verifyBlock(op, input, "input")) ||
      failed(verifyLocalArray(op, output.getType(), "'output'")) ||
      failed(verifySameElementType(op, output, "output", input, "input")))
    return failure();
  auto inputType = cast<ndarray::NDArrayType>(input.getType());
  auto outputType = cast<ndarray::NDArrayType>(output.getType());
  int64_t rank = inputType.getRank();
  if (outputType.getRank() != rank)
    return op->emitOpError("the output (")
           << outputType << ") must have the rank of the input (" << inputType
           << ")";
  if (failed(verifyIndexList(op, globalShape, rank, "global_shape", "input")) ||
      failed(
          verifyIndexList(op, localOffsets, rank, "local_offsets", "input")) ||
      failed(verifyIndexList(op, sizes, rank, sizesName, "output")))
    return failure();
  for (int64_t dim = firstSized; dim < rank; ++dim)
    if (failed(verifyStaticSize(op, "output", dim, outputType.getDimSize(dim),
                                getConstant(sizes[dim]),
                                (sizesName + "[" + Twine(dim) + "]").str())))
      return failure();
  return success();
}

LogicalResult RepartitionOp::verify() {
  auto rank = cast<ndarray::NDArrayType>(getOutput().getType()).getRank();
  if (failed(verifyBlockCopy(*this, getInput(), getOutput(), getGlobalShape(),
                             getLocalOffsets(), getTargetSizes(),
                             "target_sizes")))
    return failure();
  return verifyIndexList(*this, getTargetOffsets(), rank, "target_offsets",
                         "output");
}

//===----------------------------------------------------------------------===//
// FetchBoxesOp
//===----------------------------------------------------------------------===//

LogicalResult FetchBoxesOp::verify() {
  auto rank = cast<ndarray::NDArrayType>(getInput().getType()).getRank();
  size_t expected = getOutputs().size() * rank;
  if (getOutputs().empty())
    return emitOpError("expects at least one box");
  if (getBoxOffsets().size() != expected || getBoxSizes().size() != expected)
    return emitOpError("expects ")
           << expected << " box_offsets and box_sizes (" << rank
           << " per output), got " << getBoxOffsets().size() << " and "
           << getBoxSizes().size();
  for (auto [i, output] : llvm::enumerate(getOutputs()))
    if (failed(verifyBlockCopy(*this, getInput(), output, getGlobalShape(),
                               getLocalOffsets(),
                               getBoxSizes().slice(i * rank, rank),
                               "box_sizes of output #" + std::to_string(i))))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::verify() {
  auto output = cast<ndarray::NDArrayType>(getOutput().getType());
  if (getRoot() && output.getRank() >= 1 && !output.isDynamicDim(0))
    return emitOpError("gathers to one rank, so the output has no rows on "
                       "the others: its dimension 0 must be dynamic, got ")
           << output;
  return verifyBlockCopy(*this, getInput(), getOutput(), getGlobalShape(),
                         getLocalOffsets(), getGlobalShape(), "global_shape",
                         /*firstSized=*/getRoot() ? 1 : 0);
}

//===----------------------------------------------------------------------===//
// CopyPermuteOp
//===----------------------------------------------------------------------===//

LogicalResult CopyPermuteOp::verify() {
  Operation *op = *this;
  if (failed(verifyBlock(op, getInput(), "input")) ||
      failed(verifyBlock(op, getOutput(), "output")) ||
      failed(verifySameElementType(op, getOutput(), "output", getInput(),
                                   "input")))
    return failure();
  auto input = cast<ndarray::NDArrayType>(getInput().getType());
  auto output = cast<ndarray::NDArrayType>(getOutput().getType());
  int64_t rank = input.getRank();
  if (output.getRank() != rank)
    return emitOpError("'output' must have the rank of 'input' (")
           << rank << "), got " << output.getRank();
  if (failed(verifyIndexList(op, getGlobalShapeIn(), rank, "global_shape_in",
                             "input")) ||
      failed(verifyIndexList(op, getLocalOffsetsIn(), rank, "local_offsets_in",
                             "input")) ||
      failed(verifyIndexList(op, getLocalOffsetsOut(), rank,
                             "local_offsets_out", "input")) ||
      failed(verifyIndexList(op, getLocalShapeOut(), rank, "local_shape_out",
                             "input")))
    return failure();
  ArrayRef<int64_t> permutation = getPermutation();
  llvm::SmallBitVector seen(rank);
  bool valid = static_cast<int64_t>(permutation.size()) == rank;
  for (int64_t axis : permutation) {
    if (!valid || axis < 0 || axis >= rank || seen.test(axis)) {
      valid = false;
      break;
    }
    seen.set(axis);
  }
  if (!valid) {
    InFlightDiagnostic diag = emitOpError("'permutation' [");
    llvm::interleaveComma(permutation, diag);
    return diag << "] is not a permutation of 0.." << rank - 1;
  }
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (failed(
            verifyStaticSize(op, "output", dim, output.getDimSize(dim),
                             getConstant(getLocalShapeOut()[dim]),
                             "local_shape_out[" + std::to_string(dim) + "]")))
      return failure();
    // Dimensions 1.. are complete: the permuted global sizes.
    if (dim > 0 &&
        failed(verifyStaticSize(
            op, "output", dim, output.getDimSize(dim),
            getConstant(getGlobalShapeIn()[permutation[dim]]),
            "global_shape_in[" + std::to_string(permutation[dim]) + "]")))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// WaitOp
//===----------------------------------------------------------------------===//

LogicalResult WaitOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  llvm::append_range(inferred, adaptor.getArrays().getTypes());
  return success();
}

LogicalResult WaitOp::verify() {
  for (auto [i, array] : llvm::enumerate(getArrays()))
    if (failed(verifyLocalArray(*this, array.getType(),
                                "array #" + std::to_string(i))))
      return failure();
  Operation *producer = getHandle().getDefiningOp();
  if (auto async = dyn_cast_if_present<AsyncOpInterface>(producer)) {
    SmallVector<Value> expected{async.getAsyncInput()};
    llvm::append_range(expected, async.getAsyncOutputs());
    if (getArrays().size() != expected.size())
      return emitOpError("expects the ")
             << expected.size() << " arrays of the '" << producer->getName()
             << "' that produced the handle (its input, then its outputs), "
                "got "
             << getArrays().size();
    for (auto [i, array, want] : llvm::enumerate(getArrays(), expected))
      if (array != want)
        return emitOpError("array #")
               << i << " must be the "
               << (i == 0 ? std::string("input")
                          : "output #" + std::to_string(i - 1))
               << " of the '" << producer->getName()
               << "' that produced the handle";
    return success();
  }
  if (producer && !isa<RegionBranchOpInterface>(producer))
    return emitOpError("handle must be produced by distruntime.get_halo, "
                       "distruntime.copy_reshape, distruntime.copy_permute, "
                       "distruntime.repartition or distruntime.fetch_boxes "
                       "(or be a block argument), not by '")
           << producer->getName() << "'";
  if (getArrays().empty() || getArrays().size() > 3)
    return emitOpError("expects 1 to 3 arrays (the input and the outputs of "
                       "the exchange), got ")
           << getArrays().size();
  return success();
}

#define GET_OP_CLASSES
#include "imex/Dialect/DistRuntime/IR/DistRuntimeOps.cpp.inc"
