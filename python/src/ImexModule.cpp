//===- ImexModule.cpp - the imex Python extension -------------------------===//
//
// `imex._imex`: compiles ndarray IR kernels in-process (parse, lower with an
// IMEX pipeline, compile with the JIT, cache objects on disk), calls them
// with numpy arrays and scalars, answers type-promotion questions with the
// dialect's own rules and exposes the IDTR team queries the frontend needs.
//
//===----------------------------------------------------------------------===//

#include "DLPack.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"
#include "imex/Dialect/NDArray/IR/TypeRules.h"
#include "imex/ExecutionEngine/JitCompiler.h"
#include "imex/Pipelines/Pipelines.h"
#include "imex/Tools/Registration.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/TargetSelect.h"

#include "idtr/idtr.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstdio>
#include <mpi.h>
#include <optional>

namespace py = pybind11;
using namespace mlir;

namespace {

/// A compiler diagnostic (MLIR's message with its location) as a Python
/// exception.
struct CompileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Collects the diagnostics of a scope as text.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext &context)
      : handler(&context, [this](Diagnostic &diag) {
          llvm::raw_string_ostream os(text);
          if (!text.empty())
            os << "\n";
          os << diag.getLocation() << ": " << diag;
          for (Diagnostic &note : diag.getNotes())
            os << "\n  " << note.getLocation() << ": note: " << note;
          return success();
        }) {}
  [[noreturn]] void raise(const std::string &what) {
    throw CompileError(what + (text.empty() ? "" : ":\n" + text));
  }

private:
  std::string text;
  ScopedDiagnosticHandler handler;
};

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// The compiler of a process: one MLIR context, the host target, the
/// object cache and the libraries kernels link against.
struct Engine {
  Engine(std::vector<std::string> libs, std::optional<std::string> cacheDir,
         std::string identity, unsigned optLevel)
      : libs(std::move(libs)), identity(std::move(identity)),
        optLevel(optLevel) {
    DialectRegistry registry;
    imex::registerEverything(registry);
    registerAllToLLVMIRTranslations(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    // Kernels are compiled one at a time; no thread pool to start.
    context.disableMultithreading();
    auto builder = imex::getHostTargetMachineBuilder(optLevel);
    if (!builder)
      throw CompileError("no JIT for this host: " +
                         llvm::toString(builder.takeError()));
    machine.emplace(std::move(*builder));
    if (cacheDir) {
      auto opened = imex::ObjectCache::open(*cacheDir);
      if (opened)
        cache.emplace(std::move(*opened));
      else
        llvm::consumeError(opened.takeError());
    }
  }

  MLIRContext context;
  std::optional<llvm::orc::JITTargetMachineBuilder> machine;
  std::optional<imex::ObjectCache> cache;
  std::vector<std::string> libs;
  std::string identity;
  unsigned optLevel;
};

std::unique_ptr<Engine> theEngine;

Engine &getEngine() {
  if (!theEngine)
    throw std::runtime_error("imex._imex.init() has not been called");
  return *theEngine;
}

/// A compiled kernel: its JIT session and packed entry point.
class Kernel {
public:
  Kernel(std::unique_ptr<imex::JitSession> session, void (*entry)(void **),
         py::dict stats)
      : session(std::move(session)), entry(entry), stats(std::move(stats)) {}

  /// Calls the kernel: numpy arrays are passed as memref descriptors
  /// (contiguous, row-major: the kernel's memrefs have the identity layout),
  /// Python ints as i64/index and floats as f64.
  void call(const py::args &args) {
    size_t slots = 0;
    for (py::handle arg : args)
      slots += py::isinstance<py::array>(arg)
                   ? 3 + 2 * py::reinterpret_borrow<py::array>(arg).ndim()
                   : 1;
    llvm::SmallVector<int64_t, 64> storage(slots);
    llvm::SmallVector<void *, 16> pointers;
    int64_t *next = storage.data();
    for (py::handle arg : args) {
      pointers.push_back(next);
      if (py::isinstance<py::array>(arg)) {
        auto array = py::reinterpret_borrow<py::array>(arg);
        void *data = const_cast<void *>(array.data());
        std::memcpy(next, &data, sizeof(void *));
        std::memcpy(next + 1, &data, sizeof(void *));
        next[2] = 0;
        py::ssize_t rank = array.ndim(), itemSize = array.itemsize();
        for (py::ssize_t d = 0; d < rank; ++d) {
          next[3 + d] = array.shape(d);
          next[3 + rank + d] = array.strides(d) / itemSize;
        }
        next += 3 + 2 * rank;
      } else if (py::isinstance<py::float_>(arg)) {
        double value = arg.cast<double>();
        std::memcpy(next++, &value, sizeof(double));
      } else {
        *next++ = arg.cast<int64_t>();
      }
    }
    py::gil_scoped_release release;
    entry(pointers.data());
  }

  py::dict getStats() const { return stats; }

private:
  std::unique_ptr<imex::JitSession> session;
  void (*entry)(void **);
  py::dict stats;
};

/// Lowers `source` with `pipeline` and compiles it, or takes the object
/// from the cache; links it into a new session.
std::unique_ptr<Kernel> compile(const std::string &source,
                                const std::string &name,
                                const std::string &pipeline) {
  Engine &engine = getEngine();
  imex::CompileStats stats;
  std::string key =
      imex::ObjectCache::makeKey({source, name, pipeline, engine.identity,
                                  std::to_string(engine.optLevel)});
  std::optional<imex::ObjectCache::Lock> lock;
  std::unique_ptr<llvm::MemoryBuffer> object;
  const char *cacheState = "off";
  if (engine.cache) {
    auto acquired = engine.cache->acquire(key);
    if (acquired) {
      lock.emplace(std::move(*acquired));
      object = engine.cache->lookup(key);
      cacheState = object ? "hit" : "miss";
    } else {
      llvm::consumeError(acquired.takeError());
    }
  }
  if (!object) {
    DiagnosticCollector diagnostics(engine.context);
    auto start = std::chrono::steady_clock::now();
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, &engine.context, "kernel");
    if (!module)
      diagnostics.raise("the kernel does not parse");
    auto func = module->lookupSymbol<func::FuncOp>(name);
    if (!func)
      diagnostics.raise("no function '" + name + "' in the kernel");
    func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  UnitAttr::get(&engine.context));
    PassManager pm(&engine.context);
    if (failed(parsePassPipeline(pipeline, pm)))
      diagnostics.raise("bad pipeline '" + pipeline + "'");
    if (failed(pm.run(*module)))
      diagnostics.raise("lowering the kernel failed");
    if (failed(imex::addPackedInterface(*module, name)))
      diagnostics.raise("no entry point");
    stats.lowerSeconds = secondsSince(start);
    auto compiled =
        imex::compileToObject(*module, *engine.machine, engine.optLevel, stats);
    if (!compiled)
      throw CompileError("compiling the kernel failed: " +
                         llvm::toString(compiled.takeError()));
    object = std::move(*compiled);
    if (engine.cache)
      if (llvm::Error error = engine.cache->store(key, *object))
        llvm::consumeError(std::move(error));
  }
  lock.reset();
  auto linkStart = std::chrono::steady_clock::now();
  auto session = imex::JitSession::create(*engine.machine, engine.libs);
  if (!session)
    throw CompileError("cannot create a JIT session: " +
                       llvm::toString(session.takeError()));
  if (llvm::Error error = (*session)->addObject(std::move(object)))
    throw CompileError("cannot link the kernel: " +
                       llvm::toString(std::move(error)));
  auto address = (*session)->lookup(imex::kPackedPrefix + name);
  if (!address)
    throw CompileError("no entry point: " +
                       llvm::toString(address.takeError()));
  py::dict info;
  info["cache"] = cacheState;
  info["lower_seconds"] = stats.lowerSeconds;
  info["translate_seconds"] = stats.translateSeconds;
  info["optimize_seconds"] = stats.optimizeSeconds;
  info["codegen_seconds"] = stats.codegenSeconds;
  info["link_seconds"] = secondsSince(linkStart);
  info["lowered_ops"] = stats.loweredOps;
  return std::make_unique<Kernel>(std::move(*session),
                                  reinterpret_cast<void (*)(void **)>(*address),
                                  std::move(info));
}

Type parseElementType(const std::string &text) {
  Type type = parseType(text, &getEngine().context);
  if (!type)
    throw std::invalid_argument("not an element type: " + text);
  return type;
}

std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

template <typename Kind>
Kind parseKind(const std::string &text,
               std::optional<Kind> (*symbolize)(llvm::StringRef)) {
  std::optional<Kind> kind = symbolize(text);
  if (!kind)
    throw std::invalid_argument("unknown operation: " + text);
  return *kind;
}

} // namespace

PYBIND11_MODULE(_imex, m) {
  m.doc() = "The in-process compiler and runtime interface of imex";
  py::register_exception<CompileError>(m, "CompileError", PyExc_RuntimeError);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  imex::registerIMEXPipelines();
  imex::setLoopStrengthReduction(false);

  m.def(
      "init",
      [](std::vector<std::string> libs, std::optional<std::string> cacheDir,
         std::string identity, unsigned optLevel) {
        theEngine =
            std::make_unique<Engine>(std::move(libs), std::move(cacheDir),
                                     std::move(identity), optLevel);
      },
      py::arg("libs"), py::arg("cache_dir"), py::arg("identity"),
      py::arg("opt_level") = 3,
      "Sets up the compiler: the shared libraries kernels link against, the "
      "object cache directory (None: no cache) and what identifies this "
      "build in cache keys.");
  m.def("default_cache_dir", &imex::ObjectCache::getDefaultDirectory);
  populateDLPack(m);

  py::class_<Kernel>(m, "Kernel")
      .def("__call__", &Kernel::call)
      .def_property_readonly("stats", &Kernel::getStats);
  m.def("compile", &compile, py::arg("source"), py::arg("name"),
        py::arg("pipeline"),
        "Compiles function `name` of the MLIR module `source` with "
        "`pipeline` (or takes it from the cache) and returns the kernel.");

  m.def("ewbin_dtype", [](const std::string &kind, const std::string &lhs,
                          const std::string &rhs) {
    std::string reason;
    auto type = imex::ndarray::inferEWBinElementType(
        parseKind<imex::ndarray::EWBinOpKind>(
            kind, imex::ndarray::symbolizeEWBinOpKind),
        parseElementType(lhs), parseElementType(rhs), reason);
    if (failed(type))
      throw py::type_error(reason);
    return printType(*type);
  });
  m.def("ewuny_dtype", [](const std::string &kind, const std::string &source) {
    std::string reason;
    auto type = imex::ndarray::inferEWUnyElementType(
        parseKind<imex::ndarray::EWUnyOpKind>(
            kind, imex::ndarray::symbolizeEWUnyOpKind),
        parseElementType(source), reason);
    if (failed(type))
      throw py::type_error(reason);
    return printType(*type);
  });
  m.def("reduction_dtype",
        [](const std::string &kind, const std::string &source) {
          std::string reason;
          auto type = imex::ndarray::inferReductionElementType(
              parseKind<imex::ndarray::ReductionKind>(
                  kind, imex::ndarray::symbolizeReductionKind),
              parseElementType(source), reason);
          if (failed(type))
            throw py::type_error(reason);
          return printType(*type);
        });
  m.def("promote", [](const std::string &a, const std::string &b) {
    Type type =
        imex::ndarray::promoteTypes(parseElementType(a), parseElementType(b));
    if (!type)
      throw py::type_error("no common type of " + a + " and " + b);
    return printType(type);
  });

  // IDTR teams (team 1 is MPI_COMM_WORLD; MPI is initialized on first use
  // unless the application, e.g. mpi4py, did).
  m.def(
      "comm_stats",
      []() {
        // (Summed over the kinds of communication: halos, repartitions,
        // gathers, reductions, ... and plan metadata.)
        py::dict stats;
        for (auto [name, counter] : {std::pair{"calls", IDTR_CNT_CALLS},
                                     {"messages_sent", IDTR_CNT_MSGS_SENT},
                                     {"bytes_sent", IDTR_CNT_BYTES_SENT},
                                     {"collectives", IDTR_CNT_COLLECTIVES},
                                     {"collective_bytes", IDTR_CNT_COLL_BYTES},
                                     {"local_bytes", IDTR_CNT_LOCAL_BYTES}})
          stats[name] = _idtr_stats(IDTR_STAT_ALL, counter);
        return stats;
      },
      "This process's communication counters of the runtime (IDTR), summed "
      "over kinds, since it started.");
  m.def("team_size", [](int64_t team) { return _idtr_nprocs(team); });
  m.def("team_rank", [](int64_t team) { return _idtr_prank(team); });
  // The Fortran handle of the team's cached Cartesian communicator of the
  // balanced grid of `ndims` dimensions (_idtr_grid_comm; collective the
  // first time).
  m.def("grid_comm", [](int64_t team, int64_t ndims) {
    std::vector<int64_t> dims(ndims, 0);
    return _idtr_grid_comm(team, ndims, dims.data());
  });
  // This rank's block (offsets, sizes) of an array of `shape` split on the
  // axes `split` over the balanced grid of the team's ranks: what compiled
  // code computes (dist.grid_partition over distruntime.grid_dim).
  m.def("grid_block", [](int64_t team, std::vector<int64_t> shape,
                         const std::vector<int64_t> &split) {
    std::vector<int64_t> grid(split.size(), 0);
    _idtr_grid_dims(team, static_cast<int64_t>(grid.size()), grid.data());
    std::vector<int64_t> dims(shape.size(), 1);
    for (size_t k = 0; k < split.size(); ++k)
      dims.at(split[k]) = grid[k];
    std::vector<int64_t> offsets(shape.size()), sizes(shape.size());
    _idtr_grid_block(static_cast<int64_t>(shape.size()), shape.data(),
                     dims.data(), _idtr_prank(team), offsets.data(),
                     sizes.data());
    return py::make_tuple(offsets, sizes);
  });
  // The message of the lowest rank of the team that has one (None if no
  // rank has), the same on every rank (collective): errors that one rank
  // meets alone (a kernel failing to compile) are raised on all.
  m.def("team_first_message",
        [](int64_t team,
           std::optional<std::string> message) -> std::optional<std::string> {
          int64_t size = _idtr_nprocs(team), rank = _idtr_prank(team);
          int64_t first = message ? rank : size;
          idtr::Descriptor<int64_t> firstDesc(&first, {1});
          _idtr_reduce_all_i64(team, firstDesc.rank(), firstDesc.get(),
                               IDTR_OP_MIN);
          if (first == size)
            return std::nullopt;
          // The text travels as the sum of one rank's bytes and zeros.
          constexpr size_t kMaxBytes = 4096;
          std::vector<int64_t> bytes(kMaxBytes, 0);
          if (rank == first)
            for (size_t i = 0; i < std::min(kMaxBytes, message->size()); ++i)
              bytes[i] = static_cast<unsigned char>((*message)[i]);
          idtr::Descriptor<int64_t> bytesDesc(
              bytes.data(), {static_cast<int64_t>(kMaxBytes)});
          _idtr_reduce_all_i64(team, bytesDesc.rank(), bytesDesc.get(),
                               IDTR_OP_SUM);
          std::string text;
          for (int64_t byte : bytes) {
            if (!byte)
              break;
            text.push_back(static_cast<char>(byte));
          }
          return text;
        });
  m.def(
      "abort",
      [](int code) {
        std::fflush(stderr);
        int initialized = 0, finalized = 0;
        MPI_Initialized(&initialized);
        MPI_Finalized(&finalized);
        if (initialized && !finalized)
          MPI_Abort(MPI_COMM_WORLD, code);
        std::_Exit(code);
      },
      "Ends every rank of the job (MPI_Abort) with exit code `code`.");
  m.def("register_team",
        [](int64_t fortranComm) { return _idtr_register_team(fortranComm); });
}
