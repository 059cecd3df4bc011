//===- ObjectCache.cpp - on-disk cache of compiled objects ----------------===//
//
// One file per key (`llvmcache-<key>.o`, so that LLVM's cache pruning
// applies), written to a temporary file and renamed into place; a lock file
// per key serializes the processes compiling it.
//
//===----------------------------------------------------------------------===//

#include "imex/ExecutionEngine/JitCompiler.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CachePruning.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Host.h"

#include <dlfcn.h>
#include <unistd.h>

using namespace imex;
using llvm::ArrayRef;
using llvm::StringRef;

/// Bumped when the layout of cached objects changes.
static constexpr const char *kCacheFormat = "imex-object-cache-1";

std::optional<std::string> ObjectCache::getDefaultDirectory() {
  if (std::optional<std::string> dir =
          llvm::sys::Process::GetEnv("IMEX_CACHE_DIR")) {
    if (dir->empty() || *dir == "off")
      return std::nullopt;
    return dir;
  }
  llvm::SmallString<256> path;
  if (std::optional<std::string> xdg =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      xdg && !xdg->empty())
    path = *xdg;
  else if (llvm::sys::path::home_directory(path))
    llvm::sys::path::append(path, ".cache");
  else
    return std::nullopt;
  llvm::sys::path::append(path, "imex");
  return std::string(path);
}

llvm::Expected<ObjectCache> ObjectCache::open(StringRef directory) {
  if (std::error_code error = llvm::sys::fs::create_directories(directory))
    return llvm::createStringError(
        error, "cannot create the cache directory '" + directory + "'");
  return ObjectCache(directory.str());
}

/// The file holding this compiler (the executable or the shared library it
/// is linked into), by path, size and modification time: objects compiled
/// by another build of the compiler are not reused.
static const std::string &getCompilerIdentity() {
  static const std::string identity = [] {
    Dl_info info;
    if (!dladdr(reinterpret_cast<void *>(&getCompilerIdentity), &info) ||
        !info.dli_fname)
      return std::string("unknown");
    llvm::sys::fs::file_status status;
    if (llvm::sys::fs::status(info.dli_fname, status))
      return std::string(info.dli_fname);
    return llvm::formatv(
               "{0}:{1}:{2}", info.dli_fname, status.getSize(),
               status.getLastModificationTime().time_since_epoch().count())
        .str();
  }();
  return identity;
}

std::string ObjectCache::makeKey(ArrayRef<StringRef> parts) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  stream << kCacheFormat << '\0' << getCompilerIdentity() << '\0'
         << LLVM_VERSION_STRING << '\0' << llvm::sys::getProcessTriple() << '\0'
         << llvm::sys::getHostCPUName() << '\0';
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    stream << (feature.second ? '+' : '-') << feature.first() << ',';
  // Lengths keep ("ab", "c") and ("a", "bc") apart.
  for (StringRef part : parts)
    stream << '\0' << part.size() << ':' << part;
  llvm::XXH128_hash_t hash = llvm::xxh3_128bits(llvm::ArrayRef(
      reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  return llvm::formatv("{0:x-16}{1:x-16}", hash.high64, hash.low64).str();
}

std::string ObjectCache::getPath(StringRef key, StringRef suffix) const {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, "llvmcache-" + key + suffix);
  return std::string(path);
}

ObjectCache::Lock::~Lock() {
  if (fd < 0)
    return;
  (void)llvm::sys::fs::unlockFile(fd);
  ::close(fd);
}

llvm::Expected<ObjectCache::Lock> ObjectCache::acquire(StringRef key) const {
  // Pruning may remove a lock file someone holds: a process locking the
  // new file then compiles the same object again, harmless as entries are
  // renamed into place whole.
  std::string path = getPath(key, ".lock");
  int fd;
  if (std::error_code error = llvm::sys::fs::openFileForReadWrite(
          path, fd, llvm::sys::fs::CD_OpenAlways, llvm::sys::fs::OF_None))
    return llvm::createStringError(error, "cannot open '" + path + "'");
  if (std::error_code error = llvm::sys::fs::lockFile(fd)) {
    ::close(fd);
    return llvm::createStringError(error, "cannot lock '" + path + "'");
  }
  return Lock(fd);
}

std::unique_ptr<llvm::MemoryBuffer> ObjectCache::lookup(StringRef key) const {
  std::string path = getPath(key, ".o");
  int fd;
  if (llvm::sys::fs::openFileForRead(path, fd))
    return nullptr;
  auto buffer = llvm::MemoryBuffer::getOpenFile(
      llvm::sys::fs::convertFDToNativeFile(fd), path, /*FileSize=*/-1,
      /*RequiresNullTerminator=*/false);
  // Pruning removes the least recently used entries first.
  (void)llvm::sys::fs::setLastAccessAndModificationTime(
      fd, std::chrono::system_clock::now());
  ::close(fd);
  return buffer ? std::move(*buffer) : nullptr;
}

llvm::Error ObjectCache::store(StringRef key,
                               llvm::MemoryBufferRef object) const {
  std::string path = getPath(key, ".o");
  std::string temporary =
      path + ".tmp" + std::to_string(llvm::sys::Process::getProcessId());
  {
    std::error_code error;
    llvm::raw_fd_ostream stream(temporary, error, llvm::sys::fs::OF_None);
    if (error)
      return llvm::createStringError(error, "cannot write '" + temporary + "'");
    stream << object.getBuffer();
    stream.close();
    if (stream.has_error()) {
      (void)llvm::sys::fs::remove(temporary);
      return llvm::createStringError(stream.error(),
                                     "cannot write '" + temporary + "'");
    }
  }
  if (std::error_code error = llvm::sys::fs::rename(temporary, path)) {
    (void)llvm::sys::fs::remove(temporary);
    return llvm::createStringError(error, "cannot rename to '" + path + "'");
  }
  // At most 1 GiB or 10% of the free space, entries unused for 30 days
  // expire; the directory is scanned at most every 20 minutes.
  llvm::CachePruningPolicy policy;
  policy.Interval = std::chrono::minutes(20);
  policy.Expiration = std::chrono::hours(24 * 30);
  policy.MaxSizeBytes = uint64_t(1) << 30;
  policy.MaxSizePercentageOfAvailableSpace = 10;
  (void)llvm::pruneCache(directory, policy);
  return llvm::Error::success();
}
