//===- imex-bench.cpp - time JIT-compiled ndarray kernels -----------------===//
//
//   imex-bench <file.mlir> <kernel> <n> <reps> [--pipeline=...]
//
// Lowers the file with imex-cpu-pipeline, JIT-compiles it at -O3 for the
// host CPU (imex::compileToObject, as imex-runner) and calls the entry point
// `<kernel>_entry` (see run.py) through its C interface with arrays initialised
// like bench/cpu/reference.cpp. Prints the mean seconds per call and a
// checksum, like the reference.
//
//===----------------------------------------------------------------------===//

#include "imex/ExecutionEngine/JitCompiler.h"
#include "imex/Tools/Registration.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace mlir;

namespace {
template <int Rank> struct Array {
  std::vector<double> data;
  StridedMemRefType<double, Rank> desc;
  Array(std::vector<int64_t> shape, double init = 0.0) {
    int64_t count = 1;
    for (int64_t s : shape)
      count *= s;
    data.assign(count, init);
    desc.basePtr = desc.data = data.data();
    desc.offset = 0;
    int64_t stride = 1;
    for (int d = Rank - 1; d >= 0; --d) {
      desc.sizes[d] = shape[d];
      desc.strides[d] = stride;
      stride *= shape[d];
    }
  }
  void *arg() { return &desc; }
};

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
} // namespace

int main(int argc, char **argv) {
  if (argc < 5) {
    std::fprintf(stderr,
                 "usage: %s file.mlir triad|blackscholes|rambo|stencil n reps "
                 "[--pipeline=...]\n",
                 argv[0]);
    return 2;
  }
  std::string kernel = argv[2];
  long n = std::atol(argv[3]);
  int reps = std::atoi(argv[4]);
  std::string pipeline = "imex-cpu-pipeline";
  for (int i = 5; i < argc; ++i)
    if (!std::strncmp(argv[i], "--pipeline=", 11))
      pipeline = argv[i] + 11;

  // Code generation as in imex-runner (no loop strength reduction).
  imex::setLoopStrengthReduction(false);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  DialectRegistry registry;
  imex::registerEverything(registry);
  registerAllToLLVMIRTranslations(registry);
  MLIRContext context(registry);

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(argv[1], &context);
  if (!module)
    return 1;
  PassManager pm(&context);
  if (failed(parsePassPipeline(pipeline, pm)) || failed(pm.run(*module))) {
    std::fprintf(stderr, "imex-bench: lowering failed\n");
    return 1;
  }
  // Optimize, generate code and link for the host CPU with the JIT of
  // imex-runner and the Python frontend.
  std::string entry = kernel + "_entry";
  if (failed(imex::addPackedInterface(*module, entry)))
    return 1;
  auto machine = imex::getHostTargetMachineBuilder(/*optLevel=*/3);
  if (!machine) {
    llvm::errs() << "imex-bench: " << machine.takeError() << "\n";
    return 1;
  }
  imex::CompileStats stats;
  auto object = imex::compileToObject(*module, *machine, 3, stats);
  if (!object) {
    llvm::errs() << "imex-bench: " << object.takeError() << "\n";
    return 1;
  }
  auto session = imex::JitSession::create(*machine, {IMEX_RUNNER_UTILS_LIB});
  if (!session) {
    llvm::errs() << "imex-bench: " << session.takeError() << "\n";
    return 1;
  }
  if (llvm::Error error = (*session)->addObject(std::move(*object))) {
    llvm::errs() << "imex-bench: " << std::move(error) << "\n";
    return 1;
  }
  auto function = (*session)->lookup(imex::kPackedPrefix + entry);
  if (!function) {
    llvm::errs() << "imex-bench: " << function.takeError() << "\n";
    return 1;
  }
  // The packed interface takes the descriptor pointers of the arrays and
  // pointers to the scalars.
  auto *packed = reinterpret_cast<void (*)(void **)>(*function);
  auto call = [&](SmallVector<void *> args) { packed(args.data()); };

  double t0 = 0, t1 = 0, checksum = 0;
  if (kernel == "triad") {
    Array<1> a({n}, 1.0), b({n}), c({n});
    for (long i = 0; i < n; ++i) {
      b.data[i] = 1.0 + double(i) / n;
      c.data[i] = 2.0 + double(i) / n;
    }
    double s = 3.0;
    void *pa = a.arg(), *pb = b.arg(), *pc = c.arg();
    call({pa, pb, pc, &s}); // warm up
    t0 = now();
    for (int r = 0; r < reps; ++r)
      call({pa, pb, pc, &s});
    t1 = now();
    checksum = a.data[n / 2];
  } else if (kernel == "blackscholes") {
    Array<1> price({n}), strike({n}), t({n}), callv({n}), put({n});
    for (long i = 0; i < n; ++i) {
      double x = double(i) / n;
      price.data[i] = 10.0 + 40.0 * x;
      strike.data[i] = 20.0 + 10.0 * x;
      t.data[i] = 0.5 + 1.5 * x;
    }
    double rate = 0.02, vol = 0.3;
    void *p0 = price.arg(), *p1 = strike.arg(), *p2 = t.arg(),
         *p3 = callv.arg(), *p4 = put.arg();
    call({p0, p1, p2, p3, p4, &rate, &vol});
    t0 = now();
    for (int r = 0; r < reps; ++r)
      call({p0, p1, p2, p3, p4, &rate, &vol});
    t1 = now();
    checksum = callv.data[n / 2] + put.data[n / 3];
  } else if (kernel == "rambo") {
    Array<1> r1({n}), r2({n}), r3({n}), r4({n}), px({n}), py({n}), pz({n}),
        w({n});
    for (long i = 0; i < n; ++i) {
      double x = (double(i) + 0.5) / n;
      r1.data[i] = x;
      r2.data[i] = 1.0 - x;
      r3.data[i] = 0.25 + 0.5 * x;
      r4.data[i] = 0.75 - 0.5 * x;
    }
    SmallVector<void *> args = {r1.arg(), r2.arg(), r3.arg(), r4.arg(),
                                px.arg(), py.arg(), pz.arg(), w.arg()};
    call(args);
    t0 = now();
    for (int r = 0; r < reps; ++r)
      call(args);
    t1 = now();
    checksum = px.data[n / 3] + py.data[n / 5] + pz.data[n / 2] + w.data[n / 7];
  } else if (kernel == "stencil") {
    Array<2> u({n, n}), v({n, n});
    for (long j = 0; j < n; ++j)
      u.data[j] = v.data[j] = 1.0;
    void *pu = u.arg(), *pv = v.arg();
    t0 = now();
    for (int r = 0; r < reps; ++r) {
      call({pu, pv});
      std::swap(pu, pv);
    }
    t1 = now();
    const auto &last = (reps % 2) ? v.data : u.data;
    for (double x : last)
      checksum += x;
  } else {
    std::fprintf(stderr, "imex-bench: unknown kernel %s\n", kernel.c_str());
    return 2;
  }
  std::printf("%.9g %.17g\n", (t1 - t0) / reps, checksum);
  return 0;
}
