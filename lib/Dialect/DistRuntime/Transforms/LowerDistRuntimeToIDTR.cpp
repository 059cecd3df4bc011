//===- LowerDistRuntimeToIDTR.cpp - distruntime to IDTR calls -------------===//
//
// Replaces distruntime ops by calls of the IDTR C ABI (runtime/include/idtr/
// idtr.h, docs/runtime.md). Arrays are passed as unranked memrefs of their
// buffers; outputs are allocated here and become arrays again after the wait.
//
//===----------------------------------------------------------------------===//

#include "IDTRCalls.h"

#include "imex/Dialect/DistRuntime/Transforms/Passes.h"

#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/TypeSwitch.h"

namespace imex::distruntime {
#define GEN_PASS_DEF_LOWERDISTRUNTIMETOIDTR
#include "imex/Dialect/DistRuntime/Transforms/Passes.h.inc"
} // namespace imex::distruntime

using namespace mlir;
using namespace imex;
using namespace imex::distruntime;
using namespace imex::distruntime::idtr_calls;
using ndarray::NDArrayType;

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {

/// The buffer of an output of an asynchronous op, and the allocation the
/// wait passes to IDTR for it (the buffer, or the one buffer of all outputs
/// it is a view of).
struct OutputBuffer {
  Value buffer, allocation;
};
/// The output buffers of asynchronous ops, by the arrays that stand for
/// them until the wait.
using OutputBuffers = llvm::DenseMap<Value, OutputBuffer>;

template <typename OpTy>
struct TeamQueryLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value team = createI64(rewriter, loc, op.getTeamAttr().getInt());
    Value result = createCall(rewriter, loc, op, team).front();
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(op, rewriter.getIndexType(),
                                                    result);
    return success();
  }
};

struct GridDimLowering : public OpConversionPattern<GridDimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GridDimOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value result =
        createCall(rewriter, loc, op,
                   {createI64(rewriter, loc, op.getTeamAttr().getInt()),
                    createI64(rewriter, loc, op.getNdims()),
                    createI64(rewriter, loc, op.getDim())})
            .front();
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(op, rewriter.getIndexType(),
                                                    result);
    return success();
  }
};

struct ForgetPlanLowering : public OpConversionPattern<ForgetPlanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ForgetPlanOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    createCall(rewriter, loc, op,
               {createI64(rewriter, loc, op.getTeamAttr().getInt()),
                createI64(rewriter, loc, op.getKeyAttr().getInt())});
    rewriter.eraseOp(op);
    return success();
  }
};

/// `allreduce` and `exscan`: IDTR computes in place on a copy of the input.
template <typename OpTy>
struct CollectiveLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NDArrayType type = op.getType();
    Value input = getBuffer(rewriter, loc, adaptor.getInput());
    SmallVector<Value> sizes = getDynamicSizes(rewriter, loc, type, input);
    // IDTR reduces in place: reduce a copy (value semantics).
    Value buffer = allocOutput(rewriter, loc, type, sizes);
    memref::CopyOp::create(rewriter, loc, input, buffer);
    createIDTRCall(
        rewriter, loc, op,
        {CallArg::constant(rewriter, loc, op.getTeamAttr().getInt()),
         CallArg::buffer(buffer),
         CallArg::constant(rewriter, loc, static_cast<int64_t>(op.getKind()))});
    rewriter.replaceOp(op, wrapBuffer(rewriter, loc, buffer, type));
    return success();
  }
};

/// Base of the asynchronous ops: allocates the outputs, builds the call, and
/// records the output buffers for the wait.
template <typename OpTy>
struct AsyncLowering : public OpConversionPattern<OpTy> {
  AsyncLowering(const TypeConverter &converter, MLIRContext *context,
                OutputBuffers &outputs, SmallVectorImpl<Operation *> &wrappers)
      : OpConversionPattern<OpTy>(converter, context), outputs(outputs),
        wrappers(wrappers) {}

  /// Replaces `op` by the handle `handle` and the output `buffers` (wrapped
  /// as arrays that only the wait may use), views of `allocation` if given.
  void replace(ConversionPatternRewriter &rewriter, OpTy op, Value handle,
               ValueRange buffers, Value allocation = {}) const {
    SmallVector<Value> results{handle};
    for (auto [buffer, output] :
         llvm::zip_equal(buffers, op->getResults().drop_front())) {
      Value array = wrapBuffer(rewriter, op.getLoc(), buffer,
                               cast<NDArrayType>(output.getType()));
      outputs[array] = {buffer, allocation ? allocation : buffer};
      wrappers.push_back(array.getDefiningOp());
      results.push_back(array);
    }
    rewriter.replaceOp(op, results);
  }

  OutputBuffers &outputs;
  SmallVectorImpl<Operation *> &wrappers;
};

struct GetHaloLowering : public AsyncLowering<GetHaloOp> {
  using AsyncLowering::AsyncLowering;
  LogicalResult
  matchAndRewrite(GetHaloOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = getBuffer(rewriter, loc, adaptor.getData());
    // Owned rows [o, o + n), box rows [b, b + s): the halos hold
    // clamp(o - b, 0, s) and clamp(b + s - (o + n), 0, s) rows.
    Value zero = createIndex(rewriter, loc, 0);
    Value n = memref::DimOp::create(rewriter, loc, data, 0);
    Value o = adaptor.getLocalOffsets().front();
    Value b = adaptor.getBbOffsets().front();
    Value s = adaptor.getBbSizes().front();
    auto clamp = [&](Value v) -> Value {
      Value low = arith::MaxSIOp::create(rewriter, loc, v, zero);
      return arith::MinSIOp::create(rewriter, loc, low, s);
    };
    Value left = clamp(arith::SubIOp::create(rewriter, loc, o, b));
    Value boxEnd = arith::AddIOp::create(rewriter, loc, b, s);
    Value ownEnd = arith::AddIOp::create(rewriter, loc, o, n);
    Value right = clamp(arith::SubIOp::create(rewriter, loc, boxEnd, ownEnd));
    SmallVector<Value> leftSizes{left}, rightSizes{right};
    for (Value size : adaptor.getBbSizes().drop_front()) {
      leftSizes.push_back(size);
      rightSizes.push_back(size);
    }
    Value lhalo =
        allocOutput(rewriter, loc, op.getLhalo().getType(), leftSizes);
    Value rhalo =
        allocOutput(rewriter, loc, op.getRhalo().getType(), rightSizes);
    // The call glue in a function per element type and rank, taking the
    // arrays, team, key and the index lists' values.
    int64_t rank = getArrayType(op.getData()).getRank();
    SmallVector<Value> args{data, lhalo, rhalo,
                            createI64(rewriter, loc, op.getTeamAttr().getInt()),
                            createI64(rewriter, loc, op.getKeyAttr().getInt())};
    for (ValueRange list : {adaptor.getGlobalShape(), adaptor.getLocalOffsets(),
                            adaptor.getBbOffsets(), adaptor.getBbSizes()})
      llvm::append_range(args, list);
    Value handle =
        createOutlinedCall(
            rewriter, loc, kGetHaloFunctionPrefix, args, rewriter.getI64Type(),
            [&](OpBuilder &b, Location loc, ValueRange params) {
              auto list = [&](int64_t i) {
                return createIndexList(b, loc,
                                       params.slice(5 + i * rank, rank));
              };
              return SmallVector<Value>(createCall(
                  b, loc, op,
                  {params[3], toUnranked(b, loc, params[0]), list(0), list(1),
                   list(2), list(3), toUnranked(b, loc, params[1]),
                   toUnranked(b, loc, params[2]), params[4]}));
            })
            .front();
    replace(rewriter, op, handle, {lhalo, rhalo});
    return success();
  }
};

/// An asynchronous copy of `input` into one fresh output: the IDTR call
/// (team, input, index lists, output, key) returns the handle.
template <typename OpTy> struct AsyncCopyLowering : public AsyncLowering<OpTy> {
  using AsyncLowering<OpTy>::AsyncLowering;
  /// `lists`: the op's index lists, the call's arguments after the input.
  void startCopy(ConversionPatternRewriter &rewriter, OpTy op, Value input,
                 ValueRange outputSizes, ArrayRef<ValueRange> lists) const {
    Location loc = op.getLoc();
    Value buffer = getBuffer(rewriter, loc, input);
    Value output =
        allocOutput(rewriter, loc, op.getOutput().getType(), outputSizes);
    SmallVector<CallArg> args{
        CallArg::constant(rewriter, loc, op.getTeamAttr().getInt()),
        CallArg::buffer(buffer)};
    for (ValueRange list : lists)
      args.push_back(CallArg::list(list));
    args.push_back(CallArg::buffer(output));
    args.push_back(CallArg::constant(rewriter, loc, op.getKeyAttr().getInt()));
    Value handle = createIDTRCall(rewriter, loc, op, args).front();
    this->replace(rewriter, op, handle, output);
  }
};

struct CopyReshapeLowering : public AsyncCopyLowering<CopyReshapeOp> {
  using AsyncCopyLowering::AsyncCopyLowering;
  LogicalResult
  matchAndRewrite(CopyReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    startCopy(rewriter, op, adaptor.getInput(), adaptor.getLocalShapeOut(),
              {adaptor.getGlobalShapeIn(), adaptor.getLocalOffsetsIn(),
               adaptor.getGlobalShapeOut(), adaptor.getLocalOffsetsOut()});
    return success();
  }
};

struct RepartitionLowering : public AsyncCopyLowering<RepartitionOp> {
  using AsyncCopyLowering::AsyncCopyLowering;
  LogicalResult
  matchAndRewrite(RepartitionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    startCopy(rewriter, op, adaptor.getInput(), adaptor.getTargetSizes(),
              {adaptor.getGlobalShape(), adaptor.getLocalOffsets(),
               adaptor.getTargetOffsets(), adaptor.getTargetSizes()});
    return success();
  }
};

/// The boxes are received one after another into one buffer (row-major
/// each); the outputs are views of it.
struct FetchBoxesLowering : public AsyncLowering<FetchBoxesOp> {
  using AsyncLowering::AsyncLowering;
  LogicalResult
  matchAndRewrite(FetchBoxesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = getBuffer(rewriter, loc, adaptor.getInput());
    int64_t rank = getArrayType(op.getInput()).getRank();
    Type elementType = cast<MemRefType>(input.getType()).getElementType();
    // Each box's row-major strides and start in the buffer.
    SmallVector<Value> starts, boxes;
    SmallVector<SmallVector<Value>> strides;
    Value total = createIndex(rewriter, loc, 0);
    for (size_t i = 0; i < op.getOutputs().size(); ++i) {
      ValueRange sizes = adaptor.getBoxSizes().slice(i * rank, rank);
      llvm::append_range(boxes, adaptor.getBoxOffsets().slice(i * rank, rank));
      llvm::append_range(boxes, sizes);
      SmallVector<Value> boxStrides(rank);
      Value volume = createIndex(rewriter, loc, 1);
      for (int64_t d = rank - 1; d >= 0; --d) {
        boxStrides[d] = volume;
        volume = arith::MulIOp::create(rewriter, loc, volume, sizes[d]);
      }
      starts.push_back(total);
      strides.push_back(boxStrides);
      total = arith::AddIOp::create(rewriter, loc, total, volume);
    }
    Value allocation = memref::AllocOp::create(
        rewriter, loc, MemRefType::get({ShapedType::kDynamic}, elementType),
        ValueRange{total});
    Value handle =
        createIDTRCall(
            rewriter, loc, op,
            {CallArg::constant(rewriter, loc, op.getTeamAttr().getInt()),
             CallArg::buffer(input), CallArg::list(adaptor.getGlobalShape()),
             CallArg::list(adaptor.getLocalOffsets()), CallArg::list(boxes),
             CallArg::buffer(allocation),
             CallArg::constant(rewriter, loc, op.getKeyAttr().getInt())})
            .front();
    SmallVector<Value> views;
    SmallVector<int64_t> dynamicStrides(rank, ShapedType::kDynamic);
    dynamicStrides.back() = 1;
    for (auto [i, output] : llvm::enumerate(op.getOutputs())) {
      auto type = MemRefType::get(getArrayType(output).getShape(), elementType,
                                  StridedLayoutAttr::get(rewriter.getContext(),
                                                         ShapedType::kDynamic,
                                                         dynamicStrides));
      views.push_back(memref::ReinterpretCastOp::create(
          rewriter, loc, type, allocation, getAsOpFoldResult(starts[i]),
          getAsOpFoldResult(adaptor.getBoxSizes().slice(i * rank, rank)),
          getAsOpFoldResult(ValueRange(strides[i]))));
    }
    replace(rewriter, op, handle, views, allocation);
    return success();
  }
};

struct CopyPermuteLowering : public AsyncCopyLowering<CopyPermuteOp> {
  using AsyncCopyLowering::AsyncCopyLowering;
  LogicalResult
  matchAndRewrite(CopyPermuteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // IDTR derives the output offsets (prefix sums of the blocks).
    SmallVector<Value> permutation;
    for (int64_t d : op.getPermutation())
      permutation.push_back(createIndex(rewriter, op.getLoc(), d));
    startCopy(
        rewriter, op, adaptor.getInput(), adaptor.getLocalShapeOut(),
        {adaptor.getGlobalShapeIn(), adaptor.getLocalOffsetsIn(), permutation});
    return success();
  }
};

struct WaitLowering : public OpConversionPattern<WaitOp> {
  WaitLowering(const TypeConverter &converter, MLIRContext *context,
               const OutputBuffers &outputs)
      : OpConversionPattern(converter, context), outputs(outputs) {}

  LogicalResult
  matchAndRewrite(WaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> buffers, allocations, results;
    SmallVector<int64_t> written;
    for (auto [i, array] : llvm::enumerate(adaptor.getArrays())) {
      auto it = outputs.find(array);
      if (it != outputs.end()) {
        // An output: its buffer, read as an array after the call; IDTR
        // checks its allocation (once).
        buffers.push_back(it->second.buffer);
        if (!llvm::is_contained(allocations, it->second.allocation))
          allocations.push_back(it->second.allocation);
        results.push_back(Value());
        written.push_back(i);
        continue;
      }
      // The input (or an array of an exchange started elsewhere): read at
      // the wait, so bufferization keeps it alive and unmodified until here.
      buffers.push_back(getBuffer(rewriter, loc, array));
      allocations.push_back(buffers.back());
      results.push_back(array);
    }
    // The call glue in a function per buffer types.
    SmallVector<Value> args{adaptor.getHandle()};
    llvm::append_range(args, allocations);
    createOutlinedCall(
        rewriter, loc, "_imex_idtr_wait", args, {},
        [&](OpBuilder &b, Location loc, ValueRange params) {
          Callee callee = getCallee(op);
          SmallVector<Value> operands{params.front()};
          for (Value buffer : params.drop_front())
            operands.push_back(
                UnrealizedConversionCastOp::create(
                    b, loc, callee.type.getInput(1), toUnranked(b, loc, buffer))
                    .getResult(0));
          // The ABI takes three buffers: repeat the last one.
          while (operands.size() < callee.type.getNumInputs())
            operands.push_back(operands.back());
          createCall(b, loc, op, operands);
          return SmallVector<Value>();
        });
    for (int64_t i : written) {
      results[i] = wrapBuffer(rewriter, loc, buffers[i],
                              cast<NDArrayType>(op.getResult(i).getType()));
      // Received halo rows are ghost cells wherever they are written (see
      // imex-double-buffer-loops).
      if (isa_and_present<GetHaloOp>(op.getArrays()[i].getDefiningOp()))
        results[i].getDefiningOp()->getOperand(0).getDefiningOp()->setAttr(
            imex::ndarray::kGhostWriteAttrName, rewriter.getUnitAttr());
    }
    rewriter.replaceOp(op, results);
    return success();
  }

  const OutputBuffers &outputs;
};

/// The sizes of `buffer`, one value per dimension.
static SmallVector<Value> getSizes(OpBuilder &b, Location loc, Value buffer) {
  SmallVector<Value> sizes;
  for (int64_t dim = 0; dim < cast<MemRefType>(buffer.getType()).getRank();
       ++dim)
    sizes.push_back(memref::DimOp::create(b, loc, buffer, dim));
  return sizes;
}

/// ndarray.sort and ndarray.argsort of local arrays: IDTR sorts every lane
/// (of a copy of the input, for sort) along the axis.
template <typename OpTy>
struct LocalSortLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NDArrayType type = op.getType();
    Value input = getBuffer(rewriter, loc, adaptor.getSource());
    Value output =
        allocOutput(rewriter, loc, type, getSizes(rewriter, loc, input));
    constexpr bool values = std::is_same_v<OpTy, ndarray::SortOp>;
    if constexpr (values)
      memref::CopyOp::create(rewriter, loc, input, output);
    SmallVector<CallArg> args;
    if constexpr (!values)
      args.push_back(CallArg::buffer(input));
    args.push_back(CallArg::buffer(output));
    args.push_back(CallArg::constant(rewriter, loc, op.getAxis()));
    args.push_back(
        CallArg::constant(rewriter, loc, op.getDescending() ? 1 : 0));
    createIDTRCall(rewriter, loc, op, args);
    rewriter.replaceOp(op, wrapBuffer(rewriter, loc, output, type));
    return success();
  }
};

/// `memref` as the untyped unranked buffer (`memref<*xi8>`) of the linalg
/// wrappers' ABI, which take (rank, descriptor) pairs of any element type.
static Value asByteBuffer(OpBuilder &b, Location loc, Value memref) {
  Type buffer = UnrankedMemRefType::get(b.getI8Type(), 0);
  return UnrealizedConversionCastOp::create(b, loc, buffer,
                                            toUnranked(b, loc, memref))
      .getResult(0);
}

/// Replaces the linalg op `op` by the arrays of `outputs` (its results but
/// the last) and a 0-d array holding `failed` (its status).
static void replaceWithOutputsAndStatus(ConversionPatternRewriter &rewriter,
                                        Operation *op, ValueRange outputs,
                                        Value failed) {
  Location loc = op->getLoc();
  auto statusType = cast<NDArrayType>(op->getResults().back().getType());
  Value status = allocOutput(rewriter, loc, statusType, {});
  memref::StoreOp::create(rewriter, loc, failed, status);
  SmallVector<Value> results;
  for (auto [output, result] : llvm::zip(outputs, op->getResults()))
    results.push_back(
        wrapBuffer(rewriter, loc, output, cast<NDArrayType>(result.getType())));
  results.push_back(wrapBuffer(rewriter, loc, status, statusType));
  rewriter.replaceOp(op, results);
}

/// ndarray.linalg: IDTR's LAPACK wrapper reads the inputs and writes the
/// results (allocated here, sized as the op's verifier says), returning the
/// status.
struct LinalgLowering : public OpConversionPattern<ndarray::LinalgOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ndarray::LinalgOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> inputs;
    for (Value input : adaptor.getInputs())
      inputs.push_back(getBuffer(rewriter, loc, input));
    Value a = inputs.front();
    int64_t rank = cast<MemRefType>(a.getType()).getRank();
    auto dim = [&](Value buffer, int64_t d) -> Value {
      return memref::DimOp::create(rewriter, loc, buffer, d);
    };
    SmallVector<Value> batch;
    for (int64_t d = 0; d < rank - 2; ++d)
      batch.push_back(dim(a, d));
    Value m = dim(a, rank - 2), n = dim(a, rank - 1);
    Value k = arith::MinSIOp::create(rewriter, loc, m, n);
    // The sizes after the batch dimensions of each result (the table of
    // ndarray.linalg).
    SmallVector<SmallVector<Value>> tails;
    bool flag = op.getFlag();
    switch (op.getKind()) {
    case ndarray::LinalgKind::cholesky:
    case ndarray::LinalgKind::inv:
      tails = {{n, n}};
      break;
    case ndarray::LinalgKind::solve:
      tails = {{n, dim(inputs[1], rank - 1)}};
      break;
    case ndarray::LinalgKind::det:
      tails = {{}};
      break;
    case ndarray::LinalgKind::slogdet:
      tails = {{}, {}};
      break;
    case ndarray::LinalgKind::eigh:
      tails = {{n}, {n, n}};
      break;
    case ndarray::LinalgKind::eigvalsh:
      tails = {{n}};
      break;
    case ndarray::LinalgKind::qr:
      tails = {{m, flag ? m : k}, {flag ? m : k, n}};
      break;
    case ndarray::LinalgKind::svd:
      tails = flag ? SmallVector<SmallVector<Value>>{{m, m}, {k}, {n, n}}
                   : SmallVector<SmallVector<Value>>{{m, k}, {k}, {k, n}};
      break;
    case ndarray::LinalgKind::svdvals:
      tails = {{k}};
      break;
    }
    SmallVector<Value> outputs;
    for (auto [tail, result] :
         llvm::zip_equal(tails, op.getResults().drop_back())) {
      SmallVector<Value> sizes(batch);
      llvm::append_range(sizes, tail);
      outputs.push_back(allocOutput(
          rewriter, loc, cast<NDArrayType>(result.getType()), sizes));
    }
    auto pass = [&](Value memref) {
      return asByteBuffer(rewriter, loc, memref);
    };
    SmallVector<Value> args{
        createI64(rewriter, loc, static_cast<int64_t>(op.getKind())),
        createI64(rewriter, loc, flag ? 1 : 0)};
    // (Absent buffers are passed as the first input; IDTR does not read
    // them.)
    for (int64_t i = 0; i < 2; ++i)
      args.push_back(pass(i < (int64_t)inputs.size() ? inputs[i] : a));
    for (int64_t i = 0; i < 3; ++i)
      args.push_back(pass(i < (int64_t)outputs.size() ? outputs[i] : a));
    Value failed = createCall(rewriter, loc, op, args).front();
    replaceWithOutputsAndStatus(rewriter, op, outputs, failed);
    return success();
  }
};

/// distruntime.matrix_linalg: IDTR's ScaLAPACK wrapper writes this rank's
/// rows of the matrix result (allocated here: the rows of `a`, the columns
/// of `a`, or of `b` for solve), the eigenvalues or the 0-d results, and
/// returns the status.
struct MatrixLinalgLowering : public OpConversionPattern<MatrixLinalgOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatrixLinalgOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> inputs;
    for (Value input : adaptor.getInputs())
      inputs.push_back(getBuffer(rewriter, loc, input));
    Value a = inputs.front();
    auto dim = [&](Value buffer, int64_t d) -> Value {
      return memref::DimOp::create(rewriter, loc, buffer, d);
    };
    SmallVector<Value> outputs;
    for (auto [i, result] : llvm::enumerate(op.getResults().drop_back())) {
      auto type = cast<NDArrayType>(result.getType());
      SmallVector<Value> sizes;
      // (R's or V^H's rows.)
      if ((op.getKind() == MatrixRoutine::qr && i == 1) ||
          (op.getKind() == MatrixRoutine::svd && i == 2))
        sizes = {adaptor.getResultRows().front(), dim(a, 1)};
      else if (type.getRank() == 2)
        sizes = {dim(a, 0), dim(inputs.back(), 1)};
      else if (type.getRank() == 1) // (eigenvalues)
        sizes = {dim(a, 1)};
      outputs.push_back(allocOutput(rewriter, loc, type, sizes));
    }
    auto pass = [&](Value memref) {
      return asByteBuffer(rewriter, loc, memref);
    };
    // (Absent buffers are passed as the first; IDTR does not read them.)
    SmallVector<Value> args{
        createI64(rewriter, loc, op.getTeam()),
        createI64(rewriter, loc, static_cast<int64_t>(op.getKind())),
        createI64(rewriter, loc, op.getFlag() ? 1 : 0),
        pass(a),
        pass(inputs.back()),
        pass(outputs.front()),
        pass(outputs[std::min<size_t>(1, outputs.size() - 1)]),
        pass(outputs.back())};
    Value failed = createCall(rewriter, loc, op, args).front();
    replaceWithOutputsAndStatus(rewriter, op, outputs, failed);
    return success();
  }
};

/// ndarray.fft: IDTR's FFTW wrapper transforms the input into the result
/// (allocated here: the input's sizes, the last axis's from the c2r length
/// or n / 2 + 1 for r2c). The axes travel as a bit mask and the last one.
struct FFTLowering : public OpConversionPattern<ndarray::FFTOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ndarray::FFTOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = getBuffer(rewriter, loc, adaptor.getSource());
    SmallVector<Value> sizes = getSizes(rewriter, loc, input);
    int64_t axis = op.getAxes().back();
    uint64_t mask = 0;
    for (int64_t a : op.getAxes())
      mask |= uint64_t(1) << a;
    if (op.getKind() == ndarray::FFTKind::r2c) {
      Value two = arith::ConstantIndexOp::create(rewriter, loc, 2);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      sizes[axis] = arith::AddIOp::create(
          rewriter, loc,
          arith::DivUIOp::create(rewriter, loc, sizes[axis], two), one);
    } else if (op.getKind() == ndarray::FFTKind::c2r) {
      sizes[axis] =
          arith::ConstantIndexOp::create(rewriter, loc, *op.getLength());
    }
    NDArrayType type = op.getType();
    Value output = allocOutput(rewriter, loc, type, sizes);
    createIDTRCall(
        rewriter, loc, op,
        {CallArg::constant(rewriter, loc, static_cast<int64_t>(op.getKind())),
         CallArg::constant(rewriter, loc, static_cast<int64_t>(mask)),
         CallArg::constant(rewriter, loc, axis), CallArg::buffer(input),
         CallArg::buffer(output)});
    rewriter.replaceOp(op, wrapBuffer(rewriter, loc, output, type));
    return success();
  }
};

/// distruntime.sample_sort: IDTR writes both the values and their
/// positions.
struct SampleSortLowering : public OpConversionPattern<SampleSortOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SampleSortOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NDArrayType inputType = getArrayType(op.getInput());
    Value input = getBuffer(rewriter, loc, adaptor.getInput());
    auto valuesType =
        NDArrayType::get({ShapedType::kDynamic}, inputType.getElementType());
    auto indicesType =
        NDArrayType::get({ShapedType::kDynamic}, rewriter.getI64Type());
    Value values = allocOutput(rewriter, loc, valuesType, adaptor.getRows());
    Value indices = allocOutput(rewriter, loc, indicesType, adaptor.getRows());
    createIDTRCall(
        rewriter, loc, op,
        {CallArg::constant(rewriter, loc, op.getTeamAttr().getInt()),
         CallArg::buffer(input),
         CallArg::index(rewriter, loc, adaptor.getOffset()),
         CallArg::buffer(values), CallArg::buffer(indices),
         CallArg::constant(rewriter, loc, op.getDescending() ? 1 : 0)});
    // (The buffer not asked for is freed by the deallocation pipeline.)
    Value result = op.getIndices() ? indices : values;
    Value array = wrapBuffer(rewriter, loc, result, op.getType());
    rewriter.replaceOp(op, array);
    return success();
  }
};

/// distruntime.ordered_reduce: IDTR writes the result into a new buffer.
struct OrderedReduceLowering : public OpConversionPattern<OrderedReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OrderedReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NDArrayType type = op.getType();
    Value input = getBuffer(rewriter, loc, adaptor.getInput());
    SmallVector<Value> sizes = getDynamicSizes(rewriter, loc, type, input);
    Value result = allocOutput(rewriter, loc, type, sizes);
    createIDTRCall(
        rewriter, loc, op,
        {CallArg::constant(rewriter, loc, op.getTeamAttr().getInt()),
         CallArg::buffer(input),
         CallArg::index(rewriter, loc, adaptor.getOffset()),
         CallArg::index(rewriter, loc, adaptor.getRows()),
         CallArg::constant(rewriter, loc, static_cast<int64_t>(op.getKind())),
         CallArg::buffer(result)});
    rewriter.replaceOp(op, wrapBuffer(rewriter, loc, result, type));
    return success();
  }
};

/// distruntime.ragged_alltoall: IDTR writes the received rows into a copy
/// of the output (value semantics).
struct RaggedAllToAllLowering : public OpConversionPattern<RaggedAllToAllOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RaggedAllToAllOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NDArrayType type = op.getType();
    Value output = getBuffer(rewriter, loc, adaptor.getOutput());
    Value buffer =
        allocOutput(rewriter, loc, type, getSizes(rewriter, loc, output));
    memref::CopyOp::create(rewriter, loc, output, buffer);
    SmallVector<Value> tables;
    for (Value table : {adaptor.getSendOffsets(), adaptor.getSendSizes(),
                        adaptor.getOutputOffsets(), adaptor.getRecvSizes()})
      tables.push_back(getBuffer(rewriter, loc, table));
    Value send = getBuffer(rewriter, loc, adaptor.getSend());
    createIDTRCall(rewriter, loc, op,
                   {CallArg::constant(rewriter, loc, op.getTeamAttr().getInt()),
                    CallArg::buffer(send), CallArg::buffer(tables[0]),
                    CallArg::buffer(tables[1]), CallArg::buffer(buffer),
                    CallArg::buffer(tables[2]), CallArg::buffer(tables[3])});
    rewriter.replaceOp(op, wrapBuffer(rewriter, loc, buffer, type));
    return success();
  }
};

/// distruntime.take: IDTR writes the requested rows into a fresh buffer.
struct TakeLowering : public OpConversionPattern<TakeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TakeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NDArrayType type = op.getType();
    Value input = getBuffer(rewriter, loc, adaptor.getInput());
    Value indices = getBuffer(rewriter, loc, adaptor.getIndices());
    SmallVector<Value> sizes = getSizes(rewriter, loc, input);
    sizes[0] = memref::DimOp::create(rewriter, loc, indices, 0);
    Value output = allocOutput(rewriter, loc, type, sizes);
    createIDTRCall(rewriter, loc, op,
                   {CallArg::constant(rewriter, loc, op.getTeamAttr().getInt()),
                    CallArg::buffer(input),
                    CallArg::index(rewriter, loc, adaptor.getOffset()),
                    CallArg::index(rewriter, loc, adaptor.getRows()),
                    CallArg::buffer(indices), CallArg::buffer(output)});
    rewriter.replaceOp(op, wrapBuffer(rewriter, loc, output, type));
    return success();
  }
};

/// distruntime.gather: the global shape on receiving ranks; with a root,
/// no rows on the other ranks.
struct GatherLowering : public OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = getBuffer(rewriter, loc, adaptor.getInput());
    Value team = createI64(rewriter, loc, op.getTeamAttr().getInt());
    SmallVector<Value> sizes(adaptor.getGlobalShape());
    std::optional<int64_t> root = op.getRoot();
    if (root) {
      Callee rank = getRankCallee(getContext());
      Value me = func::CallOp::create(rewriter, loc, rank.name,
                                      rank.type.getResults(), team)
                     .getResult(0);
      Value receiving =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, me,
                                createI64(rewriter, loc, *root));
      sizes[0] = arith::SelectOp::create(rewriter, loc, receiving, sizes[0],
                                         createIndex(rewriter, loc, 0));
    }
    Value output = allocOutput(rewriter, loc, op.getType(), sizes);
    createIDTRCall(rewriter, loc, op,
                   {CallArg::scalar(team), CallArg::buffer(input),
                    CallArg::list(adaptor.getGlobalShape()),
                    CallArg::list(adaptor.getLocalOffsets()),
                    CallArg::buffer(output),
                    CallArg::constant(rewriter, loc, root ? *root : -1)});
    rewriter.replaceOp(op, wrapBuffer(rewriter, loc, output, op.getType()));
    return success();
  }
};

/// distruntime.put: IDTR writes the rows into a copy of the block (value
/// semantics).
struct PutLowering : public OpConversionPattern<PutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NDArrayType type = op.getType();
    Value data = getBuffer(rewriter, loc, adaptor.getData());
    Value buffer =
        allocOutput(rewriter, loc, type, getSizes(rewriter, loc, data));
    memref::CopyOp::create(rewriter, loc, data, buffer);
    Value indices = getBuffer(rewriter, loc, adaptor.getIndices());
    Value values = getBuffer(rewriter, loc, adaptor.getValues());
    createIDTRCall(
        rewriter, loc, op,
        {CallArg::constant(rewriter, loc, op.getTeamAttr().getInt()),
         CallArg::buffer(buffer),
         CallArg::index(rewriter, loc, adaptor.getOffset()),
         CallArg::index(rewriter, loc, adaptor.getRows()),
         CallArg::buffer(indices), CallArg::buffer(values),
         CallArg::constant(rewriter, loc, op.getReplicated() ? 1 : 0)});
    rewriter.replaceOp(op, wrapBuffer(rewriter, loc, buffer, type));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct LowerDistRuntimeToIDTRPass
    : public imex::distruntime::impl::LowerDistRuntimeToIDTRBase<
          LowerDistRuntimeToIDTRPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    resetReadNumbering();

    // The IDTR functions the module calls, checked before anything changes.
    SmallVector<Callee> callees;
    WalkResult checked = module.walk([&](Operation *op) {
      if (!isa_and_present<DistRuntimeDialect>(op->getDialect()) &&
          !isa<ndarray::SortOp, ndarray::ArgSortOp, ndarray::LinalgOp,
               ndarray::FFTOp>(op))
        return WalkResult::advance();
      for (Type type :
           llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
        auto array = dyn_cast<NDArrayType>(type);
        if (array && !isSupportedElementType(array.getElementType())) {
          op->emitOpError("cannot be lowered to IDTR: element type ")
              << array.getElementType() << " is not supported by IDTR";
          return WalkResult::interrupt();
        }
      }
      if (auto wait = dyn_cast<WaitOp>(op)) {
        // fetch_boxes receives all its outputs into one buffer.
        size_t buffers =
            isa_and_present<FetchBoxesOp>(wait.getHandle().getDefiningOp())
                ? 2
                : wait.getArrays().size();
        if (buffers < 1 || buffers > 3) {
          op->emitOpError("cannot be lowered to IDTR: _idtr_wait_buffers "
                          "takes 1 to 3 arrays, got ")
              << buffers;
          return WalkResult::interrupt();
        }
      }
      SmallVector<Callee, 2> needed{getCallee(op)};
      if (auto gather = dyn_cast<GatherOp>(op); gather && gather.getRoot())
        needed.push_back(getRankCallee(context));
      for (const Callee &callee : needed)
        if (llvm::none_of(callees, [&](const Callee &declared) {
              return declared.name == callee.name;
            }))
          callees.push_back(callee);
      return WalkResult::advance();
    });
    if (checked.wasInterrupted())
      return signalPassFailure();
    if (callees.empty())
      return;

    // Declarations, once per module.
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    for (const Callee &callee : callees) {
      Operation *existing = module.lookupSymbol(callee.name);
      if (auto func = dyn_cast_if_present<func::FuncOp>(existing)) {
        if (func.getFunctionType() == callee.type)
          continue;
        func.emitOpError("declares the IDTR function '")
            << callee.name << "' with type " << func.getFunctionType()
            << ", but lower-distruntime-to-idtr calls it with type "
            << callee.type;
        return signalPassFailure();
      }
      if (existing) {
        existing->emitOpError("defines the symbol '")
            << callee.name << "', which lower-distruntime-to-idtr needs for "
            << "the IDTR function of that name";
        return signalPassFailure();
      }
      auto func = func::FuncOp::create(builder, module.getLoc(), callee.name,
                                       callee.type);
      func.setPrivate();
    }

    // Handles become IDTR's i64 handles, also through block arguments,
    // region ops and function signatures.
    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion([](AsyncHandleType type) -> Type {
      return IntegerType::get(type.getContext(), 64);
    });
    auto cast = [](OpBuilder &b, Type type, ValueRange inputs,
                   Location loc) -> Value {
      return UnrealizedConversionCastOp::create(b, loc, type, inputs)
          .getResult(0);
    };
    converter.addSourceMaterialization(cast);
    converter.addTargetMaterialization(cast);

    ConversionTarget target(*context);
    target.addIllegalDialect<DistRuntimeDialect>();
    target.addIllegalOp<ndarray::SortOp, ndarray::ArgSortOp, ndarray::LinalgOp,
                        ndarray::FFTOp>();
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      if (auto func = dyn_cast<FunctionOpInterface>(op)) {
        auto type = dyn_cast<FunctionType>(func.getFunctionType());
        if (type && !converter.isSignatureLegal(type))
          return false;
      }
      return converter.isLegal(op) &&
             llvm::all_of(op->getRegions(), [&](Region &region) {
               return converter.isLegal(&region);
             });
    });

    OutputBuffers outputs;
    SmallVector<Operation *> wrappers;
    RewritePatternSet patterns(context);
    patterns.add<TeamQueryLowering<TeamSizeOp>, TeamQueryLowering<TeamMemberOp>,
                 GridDimLowering, ForgetPlanLowering,
                 CollectiveLowering<AllReduceOp>, CollectiveLowering<ExScanOp>,
                 OrderedReduceLowering, SampleSortLowering, TakeLowering,
                 RaggedAllToAllLowering, LocalSortLowering<ndarray::SortOp>,
                 LocalSortLowering<ndarray::ArgSortOp>, LinalgLowering,
                 MatrixLinalgLowering, FFTLowering>(converter, context);
    patterns.add<PutLowering, GatherLowering>(converter, context);
    patterns.add<RepartitionLowering>(converter, context, outputs, wrappers);
    patterns.add<GetHaloLowering, CopyReshapeLowering, CopyPermuteLowering,
                 FetchBoxesLowering>(converter, context, outputs, wrappers);
    patterns.add<WaitLowering>(converter, context, outputs);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateBranchOpInterfaceTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    // The arrays standing for outputs before the wait are unused unless the
    // IR read an output before waiting (or passed it through control flow).
    for (Operation *wrapper : llvm::reverse(wrappers)) {
      while (wrapper && wrapper->use_empty()) {
        Operation *source = wrapper->getOperand(0).getDefiningOp();
        wrapper->erase();
        wrapper = isa_and_present<bufferization::ToTensorOp>(source) ? source
                                                                     : nullptr;
      }
    }
  }
};

} // namespace
