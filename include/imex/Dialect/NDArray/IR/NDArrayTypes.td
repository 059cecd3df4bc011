//===- NDArrayTypes.td - ndarray dialect types ----------------*- tablegen -*-//

#ifndef IMEX_DIALECT_NDARRAY_IR_NDARRAYTYPES_TD
#define IMEX_DIALECT_NDARRAY_IR_NDARRAYTYPES_TD

include "imex/Dialect/NDArray/IR/NDArrayBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def NDArray_NDArrayType : NDArray_Type<"NDArray", "ndarray",
    [ShapedTypeInterface]> {
  let summary = "ranked n-dimensional array with environments";
  let description = [{
    A ranked array with a static or dynamic (`?`) size per dimension (0-d
    arrays have no dimensions), an element type, and an optional list of
    environment attributes.

    ```mlir
    !ndarray.ndarray<f64>                           // 0-d
    !ndarray.ndarray<4x?xi32>
    !ndarray.ndarray<16xf32, #region.gpu_env<device = "cuda:0">>
    ```

    Supported element types: `i1` (bool), signless `i8`, `i16`, `i32`, `i64`
    (signed integers), `ui8`, `ui16`, `ui32`, `ui64` (unsigned integers),
    `f16`, `bf16`, `f32`, `f64`, `complex<f32>` and `complex<f64>` (numpy's
    complex64 and complex128) and `index`.

    At most one environment of each kind (attribute class) may be attached.
    Environments are kept in a canonical order (by the attribute's name,
    e.g. `dist.dist_env` before `region.gpu_env`), so equal sets of
    environments always give the same type and print the same way.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "::mlir::Type":$elementType,
    OptionalArrayRefParameter<"::mlir::Attribute">:$environments
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins
        "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType,
        CArg<"::llvm::ArrayRef<::mlir::Attribute>", "{}">:$environments), [{
      ::llvm::SmallVector<::mlir::Attribute> sorted =
          canonicalizeEnvironments(environments);
      return $_get(elementType.getContext(), shape, elementType, sorted);
    }]>
  ];
  let extraClassDeclaration = [{
    /// Sorts environments into the canonical order of the type.
    static ::llvm::SmallVector<::mlir::Attribute>
    canonicalizeEnvironments(::llvm::ArrayRef<::mlir::Attribute> envs);

    /// Whether `type` may be the element type of an ndarray.
    static bool isValidElementType(::mlir::Type type);

    // ShapedTypeInterface.
    bool hasRank() const { return true; }
    NDArrayType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                          ::mlir::Type elementType) const;

    /// This type with other environments.
    NDArrayType cloneWithEnvironments(
        ::llvm::ArrayRef<::mlir::Attribute> environments) const;
    /// This type with the same shape, element type and no environment.
    NDArrayType withoutEnvironments() const;
    /// The environment of kind `EnvT`, or null.
    template <typename EnvT> EnvT getEnvironment() const {
      for (::mlir::Attribute env : getEnvironments())
        if (auto typed = ::llvm::dyn_cast<EnvT>(env))
          return typed;
      return {};
    }
    /// The tensor type with the same shape and element type.
    ::mlir::RankedTensorType getTensorType() const;
  }];
}

#endif // IMEX_DIALECT_NDARRAY_IR_NDARRAYTYPES_TD
