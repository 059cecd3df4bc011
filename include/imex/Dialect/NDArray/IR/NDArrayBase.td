//===- NDArrayBase.td - ndarray dialect, enums and interfaces -*- tablegen -*-//
//
// The `ndarray` dialect: numpy/array-API style arrays with environments.
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_DIALECT_NDARRAY_IR_NDARRAYBASE_TD
#define IMEX_DIALECT_NDARRAY_IR_NDARRAYBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "imex/Dialect/NDArray/IR/NDArrayInterfaces.td"

def NDArray_Dialect : Dialect {
  let name = "ndarray";
  let cppNamespace = "::imex::ndarray";
  let summary = "Mutable, numpy/array-API style n-dimensional arrays";
  let description = [{
    The `ndarray` dialect models the arrays of the Python array API: ranked
    n-dimensional arrays with numpy broadcasting and type promotion, most
    operations with value semantics, and two deliberate exceptions that give
    arrays their mutable, numpy-like behaviour:

    * `ndarray.subview` is always a view: it aliases its source.
    * `ndarray.insert_slice` always writes in place into its destination; the
      write is visible through every view of the destination.

    Ops that compute new values (`ewbin`, `ewuny`, `reduction`, `create`,
    `copy`, `extract_slice`, ...) return fresh arrays: their results are
    modelled as allocations and their array operands as reads, so no pass
    merges two of them or moves them across a write to an operand. As in
    numpy, `reshape`, `broadcast_to`, `permute_dims`, `expand_dims`,
    `squeeze` and `cast_elemtype` may return an array that shares memory
    with their source (`reshape` and `cast_elemtype` take `copy` to force a
    fresh array).

    Arrays carry an optional set of *environments*: attributes that say where
    the data lives (for example `#region.gpu_env<device = "cuda:0">`) or how
    it is distributed (`#dist.dist_env<...>`, from the `dist` dialect). Operations follow the data: an
    op whose operands live in incompatible environments is rejected.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

class NDArray_Case<string sym, int val> : I32EnumCase<sym, val>;

def NDArray_EWBinOpKind : I32Enum<"EWBinOpKind",
    "elementwise binary operation of the array API", [
  NDArray_Case<"add", 0>, NDArray_Case<"atan2", 1>,
  NDArray_Case<"bitwise_and", 2>, NDArray_Case<"bitwise_left_shift", 3>,
  NDArray_Case<"bitwise_or", 4>, NDArray_Case<"bitwise_right_shift", 5>,
  NDArray_Case<"bitwise_xor", 6>, NDArray_Case<"copysign", 7>,
  NDArray_Case<"divide", 8>, NDArray_Case<"equal", 9>,
  NDArray_Case<"floor_divide", 10>, NDArray_Case<"greater", 11>,
  NDArray_Case<"greater_equal", 12>, NDArray_Case<"hypot", 13>,
  NDArray_Case<"less", 14>, NDArray_Case<"less_equal", 15>,
  NDArray_Case<"logaddexp", 16>, NDArray_Case<"logical_and", 17>,
  NDArray_Case<"logical_or", 18>, NDArray_Case<"logical_xor", 19>,
  NDArray_Case<"maximum", 20>, NDArray_Case<"minimum", 21>,
  NDArray_Case<"multiply", 22>, NDArray_Case<"not_equal", 23>,
  NDArray_Case<"pow", 24>, NDArray_Case<"remainder", 25>,
  NDArray_Case<"subtract", 26>, NDArray_Case<"nextafter", 27>]> {
  let cppNamespace = "::imex::ndarray";
}

def NDArray_EWUnyOpKind : I32Enum<"EWUnyOpKind",
    "elementwise unary operation of the array API", [
  NDArray_Case<"abs", 0>, NDArray_Case<"acos", 1>, NDArray_Case<"acosh", 2>,
  NDArray_Case<"asin", 3>, NDArray_Case<"asinh", 4>, NDArray_Case<"atan", 5>,
  NDArray_Case<"atanh", 6>, NDArray_Case<"bitwise_invert", 7>,
  NDArray_Case<"ceil", 8>, NDArray_Case<"cos", 9>, NDArray_Case<"cosh", 10>,
  NDArray_Case<"erf", 11>, NDArray_Case<"exp", 12>, NDArray_Case<"expm1", 13>,
  NDArray_Case<"floor", 14>, NDArray_Case<"isfinite", 15>,
  NDArray_Case<"isinf", 16>, NDArray_Case<"isnan", 17>,
  NDArray_Case<"log", 18>, NDArray_Case<"log1p", 19>,
  NDArray_Case<"log2", 20>, NDArray_Case<"log10", 21>,
  NDArray_Case<"logical_not", 22>, NDArray_Case<"negative", 23>,
  NDArray_Case<"positive", 24>, NDArray_Case<"round", 25>,
  NDArray_Case<"sign", 26>, NDArray_Case<"signbit", 27>,
  NDArray_Case<"sin", 28>, NDArray_Case<"sinh", 29>, NDArray_Case<"sqrt", 30>,
  NDArray_Case<"square", 31>, NDArray_Case<"tan", 32>,
  NDArray_Case<"tanh", 33>, NDArray_Case<"trunc", 34>,
  NDArray_Case<"real", 35>, NDArray_Case<"imag", 36>, NDArray_Case<"conj", 37>
  ]> {
  let cppNamespace = "::imex::ndarray";
}

def NDArray_ReductionKind : I32Enum<"ReductionKind",
    "reduction of the array API", [
  NDArray_Case<"sum", 0>, NDArray_Case<"prod", 1>, NDArray_Case<"min", 2>,
  NDArray_Case<"max", 3>, NDArray_Case<"mean", 4>, NDArray_Case<"var", 5>,
  NDArray_Case<"std", 6>, NDArray_Case<"any", 7>, NDArray_Case<"all", 8>]> {
  let cppNamespace = "::imex::ndarray";
}

def NDArray_RandomDistribution : I32Enum<"RandomDistribution",
    "distribution of ndarray.random", [
  NDArray_Case<"uniform", 0>, NDArray_Case<"normal", 1>]> {
  let cppNamespace = "::imex::ndarray";
}

def NDArray_LinalgKind : I32Enum<"LinalgKind",
    "dense linear algebra routine of ndarray.linalg", [
  NDArray_Case<"cholesky", 0>, NDArray_Case<"solve", 1>,
  NDArray_Case<"inv", 2>, NDArray_Case<"det", 3>, NDArray_Case<"slogdet", 4>,
  NDArray_Case<"eigh", 5>, NDArray_Case<"eigvalsh", 6>, NDArray_Case<"qr", 7>,
  NDArray_Case<"svd", 8>, NDArray_Case<"svdvals", 9>]> {
  let cppNamespace = "::imex::ndarray";
}

def NDArray_FFTKind : I32Enum<"FFTKind",
    "discrete Fourier transform of ndarray.fft", [
  NDArray_Case<"forward", 0>, NDArray_Case<"backward", 1>,
  NDArray_Case<"r2c", 2>, NDArray_Case<"c2r", 3>]> {
  let cppNamespace = "::imex::ndarray";
}

def NDArray_FFTKindAttr : EnumAttr<NDArray_Dialect, NDArray_FFTKind, "fft_kind">;

def NDArray_LinalgKindAttr
    : EnumAttr<NDArray_Dialect, NDArray_LinalgKind, "linalg_kind">;
def NDArray_EWBinOpKindAttr
    : EnumAttr<NDArray_Dialect, NDArray_EWBinOpKind, "binop">;
def NDArray_RandomDistributionAttr
    : EnumAttr<NDArray_Dialect, NDArray_RandomDistribution, "distribution">;
def NDArray_EWUnyOpKindAttr
    : EnumAttr<NDArray_Dialect, NDArray_EWUnyOpKind, "unop">;
def NDArray_ReductionKindAttr
    : EnumAttr<NDArray_Dialect, NDArray_ReductionKind, "reduction_kind">;

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

class NDArray_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<NDArray_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

// All array operands and results of the op live in compatible environments.
def NDArray_CompatibleEnvironments : NativeOpTrait<"CompatibleEnvironments">;

class NDArray_Op<string mnemonic, list<Trait> traits = []>
    : Op<NDArray_Dialect, mnemonic, traits # [NDArray_CompatibleEnvironments]>;

#endif // IMEX_DIALECT_NDARRAY_IR_NDARRAYBASE_TD
