//===- NDArrayInterfaces.td - ndarray interfaces --------------*- tablegen -*-//

#ifndef IMEX_DIALECT_NDARRAY_IR_NDARRAYINTERFACES_TD
#define IMEX_DIALECT_NDARRAY_IR_NDARRAYINTERFACES_TD

include "mlir/IR/OpBase.td"

//===----------------------------------------------------------------------===//
// Environment attribute interface
//===----------------------------------------------------------------------===//

def NDArray_EnvironmentAttrInterface
    : AttrInterface<"EnvironmentAttrInterface"> {
  let cppNamespace = "::imex::ndarray";
  let description = [{
    Implemented by attributes that are used as environments of
    `!ndarray.ndarray` types. Any attribute may be an environment; attributes
    without this interface are compatible only with themselves, must be
    present on all array operands of an op, are copied unchanged to
    inferred result types, and fit arrays of any shape.
  }];
  let methods = [
    InterfaceMethod<[{
        Whether an array of shape `type` in this environment may be combined
        in one op with an array of shape `otherType` in environment `other`
        (an attribute of the same kind).
      }], "bool", "isCompatibleEnvironment",
      (ins "::mlir::ShapedType":$type, "::mlir::Attribute":$other,
           "::mlir::ShapedType":$otherType),
      [{}], [{ return $_attr == other; }]>,
    InterfaceMethod<[{
        Whether an op may combine an array in this environment with an array
        that has no environment of this kind (e.g. a replicated operand of a
        distributed op).
      }], "bool", "mayMixWithAbsentEnvironment", (ins), [{}],
      [{ return false; }]>,
    InterfaceMethod<[{
        The environment to give a result of type `resultType` computed from
        operands in this environment (for example, a distributed environment
        whose local partition is not yet known).
      }], "::mlir::Attribute", "getResultEnvironment",
      (ins "::mlir::ShapedType":$resultType), [{}], [{ return $_attr; }]>,
    InterfaceMethod<[{
        The environment of the result of type `resultType` of a reduction
        over `reducedAxes` (kept with size 1 if `keepdims`) of an array in
        this environment (for example, a distribution whose split axes are
        renumbered). By default `getResultEnvironment(resultType)`.
      }], "::mlir::Attribute", "getReducedEnvironment",
      (ins "::mlir::ShapedType":$resultType,
           "::llvm::ArrayRef<int64_t>":$reducedAxes, "bool":$keepdims),
      [{}], [{ return $_attr.getResultEnvironment(resultType); }]>,
    InterfaceMethod<[{
        Verifies that this environment fits an array with the shape and
        element type of `arrayType` (called by the `!ndarray.ndarray`
        verifier, which passes a builtin shaped type because the array type
        itself is still being verified). Errors are reported with
        `emitError`.
      }], "::llvm::LogicalResult", "verifyArrayType",
      (ins "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError,
           "::mlir::ShapedType":$arrayType), [{}],
      [{ return ::mlir::success(); }]>,
  ];
}

#endif // IMEX_DIALECT_NDARRAY_IR_NDARRAYINTERFACES_TD
