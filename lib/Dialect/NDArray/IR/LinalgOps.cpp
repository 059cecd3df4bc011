//===- LinalgOps.cpp - ndarray.linalg -------------------------------------===//
//
// The verifier of the dense linear algebra op: operand and result counts,
// element types and shapes per routine (the table in NDArrayReductionOps.td).
//
//===----------------------------------------------------------------------===//

#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace imex::ndarray;

namespace {

/// The expected result types of an ndarray.linalg op (before the status):
/// shapes (dynamic sizes match any) and element types.
struct ExpectedResult {
  SmallVector<int64_t> shape;
  Type element;
};

int64_t minSize(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b)
             ? ShapedType::kDynamic
             : std::min(a, b);
}

bool matches(ArrayRef<int64_t> actual, ArrayRef<int64_t> expected) {
  return actual.size() == expected.size() &&
         llvm::all_of(llvm::zip_equal(actual, expected), [](auto pair) {
           auto [a, e] = pair;
           return ShapedType::isDynamic(a) || ShapedType::isDynamic(e) ||
                  a == e;
         });
}

std::string format(ArrayRef<int64_t> shape) {
  std::string text = "(";
  for (auto [i, size] : llvm::enumerate(shape))
    text +=
        (i ? ", " : "") +
        (ShapedType::isDynamic(size) ? std::string("?") : std::to_string(size));
  return text + ")";
}

} // namespace

LogicalResult LinalgOp::verify() {
  LinalgKind kind = getKind();
  bool solve = kind == LinalgKind::solve;
  if (getInputs().size() != (solve ? 2u : 1u))
    return emitOpError("'") << stringifyLinalgKind(kind) << "' takes "
                            << (solve ? 2 : 1) << " input(s)";
  if (getFlag() && kind != LinalgKind::cholesky && kind != LinalgKind::qr &&
      kind != LinalgKind::svd)
    return emitOpError("'flag' is only meaningful for cholesky (upper), qr "
                       "(complete) and svd (full matrices)");
  auto a = cast<NDArrayType>(getInputs()[0].getType());
  Type element = a.getElementType();
  auto complexType = dyn_cast<ComplexType>(element);
  Type real = complexType ? complexType.getElementType() : element;
  if (!real.isF32() && !real.isF64())
    return emitOpError("element type must be f32, f64, complex<f32> or "
                       "complex<f64>, not ")
           << element;
  if (a.getRank() < 2)
    return emitOpError("the input must be a stack of matrices (rank >= 2), "
                       "not of rank ")
           << a.getRank();
  ArrayRef<int64_t> batch = a.getShape().drop_back(2);
  int64_t m = a.getShape()[a.getRank() - 2], n = a.getShape().back();
  bool rectangular = kind == LinalgKind::qr || kind == LinalgKind::svd ||
                     kind == LinalgKind::svdvals;
  if (!rectangular && !ShapedType::isDynamic(m) && !ShapedType::isDynamic(n) &&
      m != n)
    return emitOpError("'")
           << stringifyLinalgKind(kind) << "' needs square matrices, not " << m
           << " x " << n;
  auto shape = [&](std::initializer_list<int64_t> tail) {
    SmallVector<int64_t> s(batch);
    s.append(tail);
    return s;
  };
  int64_t k = minSize(m, n);
  SmallVector<ExpectedResult> expected;
  switch (kind) {
  case LinalgKind::cholesky:
  case LinalgKind::inv:
    expected = {{shape({n, n}), element}};
    break;
  case LinalgKind::solve: {
    auto b = cast<NDArrayType>(getInputs()[1].getType());
    if (b.getElementType() != element || b.getRank() != a.getRank() ||
        !matches(b.getShape().drop_back(2), batch) ||
        !matches(b.getShape().drop_back().take_back(), {n}))
      return emitOpError("the right-hand sides must be a stack ")
             << format(shape({n, ShapedType::kDynamic}))
             << " of the coefficient matrices' element type, not " << b;
    expected = {{shape({n, b.getShape().back()}), element}};
    break;
  }
  case LinalgKind::det:
    expected = {{shape({}), element}};
    break;
  case LinalgKind::slogdet:
    expected = {{shape({}), element}, {shape({}), real}};
    break;
  case LinalgKind::eigh:
    expected = {{shape({n}), real}, {shape({n, n}), element}};
    break;
  case LinalgKind::eigvalsh:
    expected = {{shape({n}), real}};
    break;
  case LinalgKind::qr: {
    int64_t q = getFlag() ? m : k;
    expected = {{shape({m, q}), element}, {shape({q, n}), element}};
    break;
  }
  case LinalgKind::svd:
    expected = getFlag()
                   ? SmallVector<ExpectedResult>{{shape({m, m}), element},
                                                 {shape({k}), real},
                                                 {shape({n, n}), element}}
                   : SmallVector<ExpectedResult>{{shape({m, k}), element},
                                                 {shape({k}), real},
                                                 {shape({k, n}), element}};
    break;
  case LinalgKind::svdvals:
    expected = {{shape({k}), real}};
    break;
  }
  if (getResults().size() != expected.size() + 1)
    return emitOpError("'")
           << stringifyLinalgKind(kind) << "' has " << expected.size() + 1
           << " results (the last the status)";
  for (auto [i, want] : llvm::enumerate(expected)) {
    auto type = cast<NDArrayType>(getResults()[i].getType());
    if (type.getElementType() != want.element ||
        !matches(type.getShape(), want.shape))
      return emitOpError("result #")
             << i << " must have shape " << format(want.shape)
             << " and element type " << want.element << ", not " << type;
  }
  auto status = cast<NDArrayType>(getResults().back().getType());
  if (status.getRank() != 0 || !status.getElementType().isInteger(64))
    return emitOpError("the last result (the status) must be a 0-d i64 "
                       "array, not ")
           << status;
  return success();
}

LogicalResult FFTOp::verify() {
  NDArrayType source = getSource().getType(), result = getType();
  ArrayRef<int64_t> axes = getAxes();
  if (axes.empty())
    return emitOpError("transforms over at least one axis");
  llvm::SmallDenseSet<int64_t> seen;
  for (int64_t axis : axes) {
    if (axis < 0 || axis >= source.getRank())
      return emitOpError("axis ")
             << axis << " is out of range [0, " << source.getRank() << ")";
    if (!seen.insert(axis).second)
      return emitOpError("axis ") << axis << " is repeated";
  }
  // (The real transforms halve the last axis.)
  int64_t axis = axes.back();
  if (result.getRank() != source.getRank())
    return emitOpError("the result must have the rank of the source");
  auto precision = [](Type type) -> Type {
    if (auto complexType = dyn_cast<ComplexType>(type))
      return complexType.getElementType();
    return type;
  };
  Type in = source.getElementType(), out = result.getElementType();
  Type real = precision(in);
  if ((!real.isF32() && !real.isF64()) || precision(out) != real)
    return emitOpError("source and result must be f32/complex<f32> or "
                       "f64/complex<f64>, not ")
           << in << " and " << out;
  FFTKind kind = getKind();
  bool complexIn = kind != FFTKind::r2c, complexOut = kind != FFTKind::c2r;
  if (isa<ComplexType>(in) != complexIn || isa<ComplexType>(out) != complexOut)
    return emitOpError("'") << stringifyFFTKind(kind) << "' transforms "
                            << (complexIn ? "complex" : "real") << " to "
                            << (complexOut ? "complex" : "real") << " elements";
  if ((kind == FFTKind::c2r) != getLength().has_value())
    return emitOpError("'length' (the real lane's size) is given for c2r, "
                       "and only for it");
  for (int64_t d = 0; d < source.getRank(); ++d) {
    int64_t s = source.getDimSize(d), r = result.getDimSize(d);
    if (d == axis) {
      if (kind == FFTKind::r2c && !ShapedType::isDynamic(s))
        s = s / 2 + 1;
      if (kind == FFTKind::c2r) {
        int64_t length = *getLength();
        if (length < 1)
          return emitOpError("'length' must be positive");
        if (!ShapedType::isDynamic(s) && s != length / 2 + 1)
          return emitOpError("c2r of length ")
                 << length << " takes " << length / 2 + 1
                 << " elements along the axis, not " << s;
        s = length;
      }
    }
    if (!ShapedType::isDynamic(s) && !ShapedType::isDynamic(r) && s != r)
      return emitOpError("result dimension ")
             << d << " must be " << s << ", not " << r;
  }
  return success();
}
