//===- JitCompiler.h - compile modules to objects, cache, run -----*- C++
//-*-===//
//
// The JIT behind imex-runner (and the Python frontend): a module is lowered
// by a pass pipeline, translated to LLVM IR, optimized and compiled to an
// object file for the host; objects are kept in an on-disk cache keyed by
// everything that determines them, so that the ranks of an MPI job (and
// later runs) compile a program once; a `JitSession` links objects against
// the runtime libraries and runs their functions.
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_EXECUTIONENGINE_JITCOMPILER_H
#define IMEX_EXECUTIONENGINE_JITCOMPILER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <optional>
#include <string>

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace imex {

/// Where compile time goes and how large the code is.
struct CompileStats {
  double lowerSeconds = 0;       // the MLIR pass pipeline
  double translateSeconds = 0;   // LLVM dialect -> LLVM IR
  double optimizeSeconds = 0;    // LLVM's optimization pipeline
  double codegenSeconds = 0;     // LLVM IR -> object file
  uint64_t loweredOps = 0;       // operations after lowering (LLVM dialect)
  uint64_t llvmInstructions = 0; // LLVM IR instructions after optimization
  uint64_t objectBytes = 0;
};

/// The target machine builder for the host CPU at `optLevel` (0-3).
llvm::Expected<llvm::orc::JITTargetMachineBuilder>
getHostTargetMachineBuilder(unsigned optLevel);

/// Compiles `module`, already lowered to the LLVM dialect, into a host
/// object file at `optLevel`. Global constructors and destructors become
/// the functions named by `kRunConstructors` and `kRunDestructors` (an
/// object linked without a platform runtime runs neither by itself).
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
compileToObject(mlir::ModuleOp module,
                const llvm::orc::JITTargetMachineBuilder &machine,
                unsigned optLevel, CompileStats &stats);

/// Whether LLVM's code generation runs loop strength reduction (a
/// process-wide LLVM option). Lowered array code has many small loops with
/// many address computations; LSR is superlinear on them (13.0 of 13.3 s of
/// codegen for examples/wave1d.mlir) and made no measured run-time
/// difference, so the JIT turns it off (imex-runner
/// --loop-strength-reduction turns it on).
void setLoopStrengthReduction(bool enable);

/// Adds `void <kPackedPrefix><name>(void **arguments)` to `module` (lowered
/// to the LLVM dialect), which calls the C interface `_mlir_ciface_<name>`
/// of a function without results (`llvm.emit_c_interface`): `arguments[i]`
/// points to argument `i`, a memref descriptor or a scalar. Embedders call
/// kernels of any signature through it.
mlir::LogicalResult addPackedInterface(mlir::ModuleOp module,
                                       llvm::StringRef name);

inline constexpr const char *kPackedPrefix = "_imex_packed_";
inline constexpr const char *kRunConstructors = "__imex_run_constructors";
inline constexpr const char *kRunDestructors = "__imex_run_destructors";

/// An on-disk cache of objects. Entries are written atomically; `acquire`
/// holds an exclusive lock on the key while the caller compiles, so that
/// processes starting together (the ranks of an MPI job) compile once and
/// the others wait for the object instead of compiling it again.
class ObjectCache {
public:
  /// A cache in `directory` (created if missing). Fails when the directory
  /// cannot be created.
  static llvm::Expected<ObjectCache> open(llvm::StringRef directory);

  /// The default directory: $IMEX_CACHE_DIR, else $XDG_CACHE_HOME/imex,
  /// else $HOME/.cache/imex; std::nullopt when IMEX_CACHE_DIR is "off" (or
  /// empty) or no directory is known.
  static std::optional<std::string> getDefaultDirectory();

  /// A lock on one key, released on destruction.
  class Lock {
  public:
    Lock(Lock &&other) : fd(other.fd) { other.fd = -1; }
    ~Lock();

  private:
    friend class ObjectCache;
    explicit Lock(int fd) : fd(fd) {}
    int fd;
  };

  /// Blocks until no other process holds `key`, then holds it.
  llvm::Expected<Lock> acquire(llvm::StringRef key) const;
  /// The object stored under `key`, if any.
  std::unique_ptr<llvm::MemoryBuffer> lookup(llvm::StringRef key) const;
  /// Stores `object` under `key` (write to a temporary file, then rename)
  /// and prunes the cache when it grew past its limits.
  llvm::Error store(llvm::StringRef key, llvm::MemoryBufferRef object) const;

  llvm::StringRef getDirectory() const { return directory; }

  /// A key (hex digest) of `parts`, with the LLVM version, the host CPU
  /// and the cache format folded in.
  static std::string makeKey(llvm::ArrayRef<llvm::StringRef> parts);

private:
  explicit ObjectCache(std::string directory)
      : directory(std::move(directory)) {}
  std::string getPath(llvm::StringRef key, llvm::StringRef suffix) const;
  std::string directory;
};

/// Objects linked into one JIT against shared libraries and the process.
class JitSession {
public:
  static llvm::Expected<std::unique_ptr<JitSession>>
  create(const llvm::orc::JITTargetMachineBuilder &machine,
         llvm::ArrayRef<std::string> sharedLibs);
  ~JitSession();

  /// Links `object`; its global constructors run now, its destructors when
  /// the session ends.
  llvm::Error addObject(std::unique_ptr<llvm::MemoryBuffer> object);
  /// The address of the function or global `name`.
  llvm::Expected<void *> lookup(llvm::StringRef name);
  /// Makes the function or global at `address` known as `name` to the
  /// objects linked afterwards (e.g. callbacks of the embedding program).
  llvm::Error defineSymbol(llvm::StringRef name, void *address);

private:
  explicit JitSession(std::unique_ptr<llvm::orc::LLJIT> jit);
  std::unique_ptr<llvm::orc::LLJIT> jit;
  llvm::SmallVector<void (*)()> destructors;
};

} // namespace imex

#endif // IMEX_EXECUTIONENGINE_JITCOMPILER_H
