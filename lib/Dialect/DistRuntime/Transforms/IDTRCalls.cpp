//===- IDTRCalls.cpp - building calls of the IDTR C ABI -------------------===//
//
// Callee names and types, buffers of arrays and index lists as unranked
// memrefs, and calls through outlined glue functions: the building blocks of
// lower-distruntime-to-idtr (LowerDistRuntimeToIDTR.cpp).
//
//===----------------------------------------------------------------------===//

#include "IDTRCalls.h"

#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace imex;
using namespace imex::distruntime;
using namespace imex::distruntime::idtr_calls;
using ndarray::NDArrayType;

//===----------------------------------------------------------------------===//
// Types and callees
//===----------------------------------------------------------------------===//

/// The element type of buffers holding `type` elements: unsigned integers are
/// stored as signless ones (as convert-ndarray-to-linalg does).
Type idtr_calls::getStorageType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type);
      integer && integer.isUnsigned())
    return IntegerType::get(type.getContext(), integer.getWidth());
  return type;
}

/// `type` with its storage element type.
NDArrayType idtr_calls::getStorageArrayType(NDArrayType type) {
  return type.cloneWith(type.getShape(), getStorageType(type.getElementType()));
}

Type idtr_calls::getUnranked(Type elementType) {
  return UnrankedMemRefType::get(getStorageType(elementType), 0);
}

Type idtr_calls::getIndexList(MLIRContext *context) {
  return UnrankedMemRefType::get(IndexType::get(context), 0);
}

/// The element type of the arrays the IDTR call of `op` takes.
Type idtr_calls::getCommElementType(Operation *op) {
  if (isa<AllReduceOp, ExScanOp>(op))
    return cast<NDArrayType>(op->getResult(0).getType()).getElementType();
  if (isa<PutOp>(op))
    return getArrayType(cast<PutOp>(op).getData()).getElementType();
  if (isa<SampleSortOp, OrderedReduceOp, TakeOp, GatherOp, RaggedAllToAllOp,
          MatrixLinalgOp, ndarray::SortOp, ndarray::ArgSortOp,
          ndarray::LinalgOp, ndarray::FFTOp>(op))
    return getArrayType(op->getOperand(0)).getElementType();
  if (auto async = dyn_cast<AsyncOpInterface>(op))
    return getArrayType(async.getAsyncInput()).getElementType();
  return Type();
}

/// `_idtr_prank`: this process's rank in a team.
Callee idtr_calls::getRankCallee(MLIRContext *context) {
  Type i64 = IntegerType::get(context, 64);
  return {"_idtr_prank", FunctionType::get(context, {i64}, {i64})};
}

/// The IDTR function `op` is lowered to a call of.
Callee idtr_calls::getCallee(Operation *op) {
  MLIRContext *context = op->getContext();
  Type i64 = IntegerType::get(context, 64);
  Type list = getIndexList(context);
  if (isa<TeamSizeOp>(op))
    return {"_idtr_nprocs", FunctionType::get(context, {i64}, {i64})};
  if (isa<TeamMemberOp>(op))
    return getRankCallee(context);
  if (isa<GridDimOp>(op))
    return {"_idtr_grid_dim",
            FunctionType::get(context, {i64, i64, i64}, {i64})};
  if (isa<ForgetPlanOp>(op))
    return {"_idtr_forget_plan", FunctionType::get(context, {i64, i64}, {})};
  if (isa<WaitOp>(op)) {
    // One declaration for all element types: the ABI takes (rank,
    // descriptor) pairs, whatever the element type.
    Type buffer = UnrankedMemRefType::get(IntegerType::get(context, 8), 0);
    return {"_idtr_wait_buffers",
            FunctionType::get(context, {i64, buffer, buffer, buffer}, {})};
  }
  Type elementType = getCommElementType(op);
  Type array = getUnranked(elementType);
  std::string suffix = getIDTRTypeSuffix(elementType).str();
  return TypeSwitch<Operation *, Callee>(op)
      .Case([&](AllReduceOp) {
        return Callee{"_idtr_reduce_all_" + suffix,
                      FunctionType::get(context, {i64, array, i64}, {})};
      })
      .Case([&](ExScanOp) {
        return Callee{"_idtr_exscan_" + suffix,
                      FunctionType::get(context, {i64, array, i64}, {})};
      })
      .Case([&](OrderedReduceOp) {
        return Callee{
            "_idtr_ordered_reduce_" + suffix,
            FunctionType::get(context, {i64, array, i64, i64, i64, array}, {})};
      })
      .Case([&](ndarray::LinalgOp) {
        // (Buffers of any element type: the ABI takes (rank, descriptor)
        // pairs; which are read depends on the kind.)
        Type buffer = UnrankedMemRefType::get(IntegerType::get(context, 8), 0);
        return Callee{"_idtr_linalg_" + suffix,
                      FunctionType::get(
                          context,
                          {i64, i64, buffer, buffer, buffer, buffer, buffer},
                          {i64})};
      })
      .Case([&](MatrixLinalgOp) {
        Type buffer = UnrankedMemRefType::get(IntegerType::get(context, 8), 0);
        return Callee{"_idtr_matrix_linalg_" + suffix,
                      FunctionType::get(context,
                                        {i64, i64, i64, buffer, buffer, buffer,
                                         buffer, buffer},
                                        {i64})};
      })
      .Case([&](ndarray::FFTOp fft) {
        // Suffixed by the input and output element types.
        Type in = fft.getSource().getType().getElementType();
        Type out = fft.getType().getElementType();
        return Callee{"_idtr_fft_" + getIDTRTypeSuffix(in).str() + "_" +
                          getIDTRTypeSuffix(out).str(),
                      FunctionType::get(
                          context,
                          {i64, i64, i64, getUnranked(in), getUnranked(out)},
                          {})};
      })
      .Case([&](ndarray::SortOp) {
        return Callee{"_idtr_sort_" + suffix,
                      FunctionType::get(context, {array, i64, i64}, {})};
      })
      .Case([&](ndarray::ArgSortOp) {
        return Callee{"_idtr_argsort_" + suffix,
                      FunctionType::get(
                          context, {array, getUnranked(i64), i64, i64}, {})};
      })
      .Case([&](RaggedAllToAllOp) {
        return Callee{
            "_idtr_ragged_alltoall_" + suffix,
            FunctionType::get(context,
                              {i64, array, list, list, array, list, list}, {})};
      })
      .Case([&](TakeOp) {
        return Callee{
            "_idtr_take_" + suffix,
            FunctionType::get(
                context, {i64, array, i64, i64, getUnranked(i64), array}, {})};
      })
      .Case([&](PutOp) {
        return Callee{"_idtr_put_" + suffix,
                      FunctionType::get(
                          context,
                          {i64, array, i64, i64, getUnranked(i64), array, i64},
                          {})};
      })
      .Case([&](SampleSortOp) {
        return Callee{
            "_idtr_sample_sort_" + suffix,
            FunctionType::get(
                context, {i64, array, i64, array, getUnranked(i64), i64}, {})};
      })
      .Case([&](GetHaloOp) {
        return Callee{kUpdateHaloPrefix.str() + suffix,
                      FunctionType::get(context,
                                        {i64, array, list, list, list, list,
                                         array, array, i64},
                                        {i64})};
      })
      .Case([&](CopyReshapeOp) {
        return Callee{
            "_idtr_copy_reshape_" + suffix,
            FunctionType::get(context,
                              {i64, array, list, list, list, list, array, i64},
                              {i64})};
      })
      .Case([&](RepartitionOp) {
        return Callee{
            "_idtr_repartition_" + suffix,
            FunctionType::get(context,
                              {i64, array, list, list, list, list, array, i64},
                              {i64})};
      })
      .Case([&](FetchBoxesOp) {
        return Callee{
            "_idtr_fetch_boxes_" + suffix,
            FunctionType::get(
                context, {i64, array, list, list, list, array, i64}, {i64})};
      })
      .Case([&](GatherOp) {
        return Callee{"_idtr_gather_" + suffix,
                      FunctionType::get(
                          context, {i64, array, list, list, array, i64}, {})};
      })
      .Case([&](CopyPermuteOp) {
        return Callee{
            "_idtr_copy_permute_" + suffix,
            FunctionType::get(
                context, {i64, array, list, list, list, array, i64}, {i64})};
      })
      .Default([](Operation *) { return Callee(); });
}

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

Value idtr_calls::createI64(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 64);
}

Value idtr_calls::toI64(OpBuilder &b, Location loc, Value value) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), value);
}

Value idtr_calls::createIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// `array` with unsigned elements reinterpreted as signless ones (same bits).
Value idtr_calls::toStorageArray(OpBuilder &b, Location loc, Value array) {
  NDArrayType type = getArrayType(array);
  NDArrayType storage = getStorageArrayType(type);
  if (storage == type)
    return array;
  return ndarray::CastElemTypeOp::create(b, loc, storage, array);
}

/// Numbers the reads of communication inputs, so that no two are alike.
static constexpr llvm::StringLiteral kReadAttrName = "distruntime.read";
/// The next read number (per run of the pass; compilations on different
/// threads count separately).
static thread_local int64_t nextReadId = 0;

/// The current buffer of `array` (read only). Its layout is fully dynamic,
/// so any buffer is passed without a copy. Every read is numbered, so that
/// CSE merges none: bufferization must see each input read where the
/// exchange starts and at its wait, or it could update the input in place
/// while IDTR still sends from it (a read merged into an earlier exchange's
/// would hide this one from the analysis).
Value idtr_calls::getBuffer(OpBuilder &b, Location loc, Value array) {
  Value storage = toStorageArray(b, loc, array);
  NDArrayType type = getArrayType(storage);
  Value tensor =
      ndarray::ToTensorOp::create(b, loc, type.getTensorType(), storage);
  SmallVector<int64_t> strides(type.getRank(), ShapedType::kDynamic);
  auto layout =
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, strides);
  auto memrefType =
      MemRefType::get(type.getShape(), type.getElementType(), layout);
  auto buffer = bufferization::ToBufferOp::create(b, loc, memrefType, tensor,
                                                  /*read_only=*/true);
  buffer->setAttr(kReadAttrName, b.getI64IntegerAttr(nextReadId++));
  return buffer;
}

/// A fresh buffer for an output of type `type`; `sizes` has one size per
/// dimension (used for the dynamic ones).
Value idtr_calls::allocOutput(OpBuilder &b, Location loc, NDArrayType type,
                              ValueRange sizes) {
  SmallVector<Value> dynamicSizes;
  for (auto [dim, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size))
      dynamicSizes.push_back(sizes[dim]);
  auto memrefType =
      MemRefType::get(type.getShape(), getStorageType(type.getElementType()));
  return memref::AllocOp::create(b, loc, memrefType, dynamicSizes);
}

/// The sizes of the dynamic dimensions of `type`, taken from `buffer`
/// (null for static ones), as allocOutput takes them.
SmallVector<Value> idtr_calls::getDynamicSizes(OpBuilder &b, Location loc,
                                               NDArrayType type, Value buffer) {
  SmallVector<Value> sizes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    sizes.push_back(type.isDynamicDim(dim)
                        ? memref::DimOp::create(b, loc, buffer, dim).getResult()
                        : Value());
  return sizes;
}

/// The array of type `type` holding the current contents of the output
/// buffer `memref`: a read-only tensor of the buffer (`to_tensor restrict`
/// without `writable`), seen as an array (the cast folds away once
/// convert-ndarray-to-linalg turns arrays into tensors).
///
/// Read-only, so that bufferization never updates the buffer in place: when
/// the array is the input of a later exchange, IDTR may send from it until
/// that exchange's wait, and the read at the wait that keeps other inputs
/// unmodified folds away for buffers wrapped by `to_tensor`
/// (`to_buffer(to_tensor(m))` canonicalizes to `m`). An in-place update
/// copies the array once instead.
Value idtr_calls::wrapBuffer(OpBuilder &b, Location loc, Value memref,
                             NDArrayType type) {
  auto memrefType = cast<MemRefType>(memref.getType());
  auto tensorType =
      RankedTensorType::get(memrefType.getShape(), memrefType.getElementType());
  Value tensor = bufferization::ToTensorOp::create(
      b, loc, tensorType, memref, /*restrict=*/true, /*writable=*/false);
  return UnrealizedConversionCastOp::create(b, loc, type, tensor).getResult(0);
}

/// `buffer` as the unranked memref argument of an IDTR call.
Value idtr_calls::toUnranked(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<BaseMemRefType>(buffer.getType());
  return memref::CastOp::create(b, loc, getUnranked(type.getElementType()),
                                buffer);
}

/// An index list as `memref<*xindex>` (stack memory of the enclosing
/// function).
Value idtr_calls::createIndexList(OpBuilder &b, Location loc,
                                  ValueRange values) {
  auto type =
      MemRefType::get({static_cast<int64_t>(values.size())}, b.getIndexType());
  Value list = memref::AllocaOp::create(b, loc, type);
  for (auto [i, value] : llvm::enumerate(values))
    memref::StoreOp::create(b, loc, value, list,
                            ValueRange{createIndex(b, loc, i)});
  return memref::CastOp::create(b, loc, getIndexList(b.getContext()), list);
}

/// The memref type of `type`'s rank and element type with dynamic sizes,
/// strides and offset: every memref of that rank and element type casts to
/// it.
static MemRefType getFullyDynamicType(MemRefType type) {
  SmallVector<int64_t> dynamic(type.getRank(), ShapedType::kDynamic);
  auto layout =
      StridedLayoutAttr::get(type.getContext(), ShapedType::kDynamic, dynamic);
  return MemRefType::get(dynamic, type.getElementType(), layout);
}

ValueRange idtr_calls::createOutlinedCall(
    OpBuilder &b, Location loc, StringRef prefix, ValueRange args,
    TypeRange resultTypes,
    llvm::function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)>
        body) {
  std::string base = prefix.str();
  llvm::raw_string_ostream mangled(base);
  SmallVector<Value> operands;
  for (Value arg : args) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type) {
      operands.push_back(arg);
      continue;
    }
    MemRefType dynamic = getFullyDynamicType(type);
    operands.push_back(
        dynamic == type ? arg : memref::CastOp::create(b, loc, dynamic, arg));
    mangled << '_' << type.getElementType() << 'r' << type.getRank();
  }
  mangled << "_n" << args.size();
  auto functionType = FunctionType::get(
      b.getContext(), ValueRange(operands).getTypes(), resultTypes);

  Operation *scope = b.getInsertionBlock()->getParentOp();
  auto module = isa<ModuleOp>(scope) ? cast<ModuleOp>(scope)
                                     : scope->getParentOfType<ModuleOp>();
  // Ours if marked as such (a symbol of that name that is not: the next
  // free name).
  static constexpr StringLiteral kOutlinedAttrName = "distruntime.outlined";
  func::FuncOp function;
  std::string name = base;
  for (unsigned i = 0; Operation *existing = module.lookupSymbol(name); ++i) {
    auto candidate = dyn_cast<func::FuncOp>(existing);
    if (candidate && candidate->hasAttr(kOutlinedAttrName) &&
        candidate.getFunctionType() == functionType) {
      function = candidate;
      break;
    }
    name = base + "_" + std::to_string(i);
  }
  if (!function) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    function = func::FuncOp::create(b, loc, name, functionType);
    // Local to the module (kernels compiled into one process each have
    // theirs) and not inlined (LLVM function attributes).
    function.setPrivate();
    function->setAttr(kOutlinedAttrName, b.getUnitAttr());
    function->setAttr(
        "llvm.linkage",
        LLVM::LinkageAttr::get(b.getContext(), LLVM::Linkage::Internal));
    function->setAttr("passthrough",
                      b.getArrayAttr({b.getStringAttr("noinline")}));
    Block *entry = function.addEntryBlock();
    b.setInsertionPointToStart(entry);
    func::ReturnOp::create(b, loc, body(b, loc, entry->getArguments()));
  }
  return func::CallOp::create(b, loc, function, operands).getResults();
}

ValueRange idtr_calls::createCall(OpBuilder &b, Location loc, Operation *op,
                                  ValueRange operands) {
  Callee callee = getCallee(op);
  return func::CallOp::create(b, loc, callee.name, callee.type.getResults(),
                              operands)
      .getResults();
}

ValueRange idtr_calls::createIDTRCall(OpBuilder &b, Location loc, Operation *op,
                                      ArrayRef<CallArg> args) {
  Callee callee = getCallee(op);
  // `_imex` + the entry point's name + the list lengths (createOutlinedCall
  // adds the buffer types).
  std::string prefix = "_imex" + callee.name;
  SmallVector<Value> flat;
  for (const CallArg &arg : args) {
    if (arg.kind == CallArg::Kind::IndexList)
      prefix += "_l" + std::to_string(arg.values.size());
    llvm::append_range(flat, arg.values);
  }
  return createOutlinedCall(
      b, loc, prefix, flat, callee.type.getResults(),
      [&](OpBuilder &b, Location loc, ValueRange params) {
        SmallVector<Value> operands;
        for (const CallArg &arg : args) {
          ValueRange values = params.take_front(arg.values.size());
          params = params.drop_front(arg.values.size());
          switch (arg.kind) {
          case CallArg::Kind::Scalar:
            operands.push_back(values.front());
            break;
          case CallArg::Kind::Buffer:
            operands.push_back(toUnranked(b, loc, values.front()));
            break;
          case CallArg::Kind::IndexList:
            operands.push_back(createIndexList(b, loc, values));
            break;
          }
        }
        return SmallVector<Value>(createCall(b, loc, op, operands));
      });
}

void idtr_calls::resetReadNumbering() { nextReadId = 0; }
