//===- imex-dist-bench.cpp - time distributed ndarray kernels under MPI ---===//
//
//   mpirun -n P imex-dist-bench <file.mlir> <iters> [--warmup=N]
//                               [--pipeline=...] [--entry=bench_main]
//                               [--shared-libs=lib.so]...
//
// Every rank lowers the file (imex-dist-cpu-pipeline by default),
// JIT-compiles it once at -O3 for the host CPU, as imex-bench does, and
// calls `@<entry>(%iters: index) -> f64` (see bench/dist/run.py) twice: with
// `warmup` steps (untimed: first touch of the pages, IDTR plan caches), then
// with `iters` steps. The kernel brackets its time-step loop with calls of
//
//   @imex_bench_start(): MPI_Barrier, reset the IDTR counters, MPI_Wtime
//   @imex_bench_stop():  MPI_Barrier, MPI_Wtime, read the IDTR counters
//
// which this driver provides to the JIT, so the time excludes compilation,
// array creation and the final checksum. Rank 0 prints one line:
//
//   time=<seconds per step> checksum=<entry's result>
//   halo_msgs=<halo messages sent per rank per step, max over ranks>
//   halo_msgs_mean=<mean over ranks> halo_calls=<halo exchanges per step>
//   halo_bytes=<halo bytes sent per step, all ranks> msgs=<all IDTR
//   point-to-point messages per rank per step, max> collectives=<IDTR
//   collective calls per rank per step, max> halo_call_ms=<ms per step in
//   the exchange calls, max> halo_wait_ms=<ms per step blocked in their
//   waits, max> halo_exposed_ms_min=<call + wait, min over ranks>
//
//===----------------------------------------------------------------------===//

#include "imex/ExecutionEngine/JitCompiler.h"
#include "imex/Tools/Registration.h"

#include "idtr/idtr.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace mlir;

namespace {

// What the timed region measured on this rank.
struct Measurement {
  double t0 = 0, t1 = 0;
  int64_t haloMsgs = 0, haloBytes = 0, haloCalls = 0, msgs = 0, colls = 0;
  int64_t haloCallNs = 0, haloWaitNs = 0;
  int starts = 0, stops = 0;
} current;

extern "C" void imexBenchStart() {
  MPI_Barrier(MPI_COMM_WORLD);
  _idtr_reset_stats();
  ++current.starts;
  current.t0 = MPI_Wtime();
}

/// A counter of the halo exchanges of a stencil step: `get_halo` of rows
/// (HALO) and the faces of grid blocks (`fetch_boxes`, REPARTITION).
int64_t haloStat(int counter) {
  return _idtr_stats(IDTR_STAT_HALO, counter) +
         _idtr_stats(IDTR_STAT_REPARTITION, counter);
}

extern "C" void imexBenchStop() {
  MPI_Barrier(MPI_COMM_WORLD);
  current.t1 = MPI_Wtime();
  ++current.stops;
  current.haloMsgs = haloStat(IDTR_CNT_MSGS_SENT);
  current.haloBytes = haloStat(IDTR_CNT_BYTES_SENT);
  current.haloCalls = haloStat(IDTR_CNT_CALLS);
  current.msgs = _idtr_stats(IDTR_STAT_ALL, IDTR_CNT_MSGS_SENT);
  current.colls = _idtr_stats(IDTR_STAT_ALL, IDTR_CNT_COLLECTIVES);
  current.haloCallNs = haloStat(IDTR_CNT_CALL_NS);
  current.haloWaitNs = haloStat(IDTR_CNT_WAIT_NS);
}

int fail(int rank, const std::string &message) {
  std::fprintf(stderr, "imex-dist-bench (rank %d): %s\n", rank,
               message.c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  // Multiple threads: the runtime progresses messages from its own thread.
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank, nprocs;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (argc < 3) {
    if (rank == 0)
      std::fprintf(stderr,
                   "usage: %s file.mlir iters [--warmup=N] [--pipeline=...] "
                   "[--entry=bench_main] [--shared-libs=lib.so]...\n",
                   argv[0]);
    MPI_Finalize();
    return 2;
  }
  int64_t iters = std::atol(argv[2]);
  int64_t warmup = 2;
  std::string pipeline = "imex-dist-cpu-pipeline";
  std::string entry = "bench_main";
  std::vector<std::string> sharedLibs;
  for (int i = 3; i < argc; ++i) {
    if (!std::strncmp(argv[i], "--pipeline=", 11))
      pipeline = argv[i] + 11;
    else if (!std::strncmp(argv[i], "--warmup=", 9))
      warmup = std::atol(argv[i] + 9);
    else if (!std::strncmp(argv[i], "--entry=", 8))
      entry = argv[i] + 8;
    else if (!std::strncmp(argv[i], "--shared-libs=", 14))
      sharedLibs.push_back(argv[i] + 14);
    else
      return fail(rank, std::string("unknown argument ") + argv[i]);
  }

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
    return fail(rank, std::string("cannot parse ") + argv[1]);
  PassManager pm(&context);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (failed(parsePassPipeline(pipeline, pm, errorStream)))
    return fail(rank, "invalid pipeline '" + pipeline + "': " + errors);
  if (failed(pm.run(*module)))
    return fail(rank, "lowering with '" + pipeline + "' failed");

  // Optimize, generate code and link for the host CPU with the JIT of
  // imex-runner and the Python frontend, as imex-bench does.
  auto machine = imex::getHostTargetMachineBuilder(/*optLevel=*/3);
  if (!machine)
    return fail(rank, llvm::toString(machine.takeError()));
  imex::CompileStats stats;
  auto object = imex::compileToObject(*module, *machine, 3, stats);
  if (!object)
    return fail(rank, llvm::toString(object.takeError()));
  // memrefCopy and friends and the counting allocator (count-allocations,
  // on by default), as imex-runner links them; libidtr is linked into this
  // executable, so the JIT resolves _idtr_* from the process.
  std::vector<std::string> libs{IMEX_MLIR_LIB_DIR "/libmlir_c_runner_utils.so",
                                IMEX_RUNNER_UTILS_LIB};
  libs.insert(libs.end(), sharedLibs.begin(), sharedLibs.end());
  auto session = imex::JitSession::create(*machine, libs);
  if (!session)
    return fail(rank, llvm::toString(session.takeError()));
  for (auto [name, address] :
       {std::pair<const char *, void *>{
            "imex_bench_start", reinterpret_cast<void *>(&imexBenchStart)},
        {"imex_bench_stop", reinterpret_cast<void *>(&imexBenchStop)}})
    if (llvm::Error error = (*session)->defineSymbol(name, address))
      return fail(rank, llvm::toString(std::move(error)));
  if (llvm::Error error = (*session)->addObject(std::move(*object)))
    return fail(rank, llvm::toString(std::move(error)));
  // The entry, lowered: `double entry(int64_t iters)` in the C ABI.
  auto address = (*session)->lookup(entry);
  if (!address)
    return fail(rank, llvm::toString(address.takeError()));
  auto *function = reinterpret_cast<double (*)(int64_t)>(*address);

  auto run = [&](int64_t steps) {
    current = Measurement();
    double result = function(steps);
    if (current.starts != 1 || current.stops != 1)
      fail(rank, "the entry must call @imex_bench_start and "
                 "@imex_bench_stop once each");
    return result;
  };
  if (warmup > 0)
    run(warmup);
  double checksum = run(iters);

  double t = current.t1 - current.t0, tmax = 0;
  int64_t local[6] = {current.haloMsgs,   current.msgs,
                      current.colls,      current.haloCalls,
                      current.haloCallNs, current.haloWaitNs};
  int64_t maxima[6], haloMsgsSum = 0, haloBytesSum = 0;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(local, maxima, 6, MPI_INT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
  // The rank that arrives last at the exchange waits least: its exposed time
  // is the communication cost without the imbalance between ranks.
  int64_t exposedNs = current.haloCallNs + current.haloWaitNs, exposedMinNs = 0;
  MPI_Reduce(&exposedNs, &exposedMinNs, 1, MPI_INT64_T, MPI_MIN, 0,
             MPI_COMM_WORLD);
  MPI_Reduce(&current.haloMsgs, &haloMsgsSum, 1, MPI_INT64_T, MPI_SUM, 0,
             MPI_COMM_WORLD);
  MPI_Reduce(&current.haloBytes, &haloBytesSum, 1, MPI_INT64_T, MPI_SUM, 0,
             MPI_COMM_WORLD);
  if (rank == 0) {
    double steps = double(std::max<int64_t>(1, iters));
    std::printf("time=%.9g checksum=%.17g halo_msgs=%.3g halo_msgs_mean=%.3g "
                "halo_calls=%.3g halo_bytes=%.6g msgs=%.3g collectives=%.3g "
                "halo_call_ms=%.6g halo_wait_ms=%.6g "
                "halo_exposed_ms_min=%.6g\n",
                tmax / steps, checksum, maxima[0] / steps,
                haloMsgsSum / steps / nprocs, maxima[3] / steps,
                haloBytesSum / steps, maxima[1] / steps, maxima[2] / steps,
                maxima[4] / steps * 1e-6, maxima[5] / steps * 1e-6,
                exposedMinNs / steps * 1e-6);
    std::fflush(stdout);
  }
  // The session (and the JIT-compiled code) goes before MPI: the runtime's
  // communicators are released inside MPI_Finalize.
  session->reset();
  MPI_Finalize();
  return 0;
}
