//===- SanitizerDefaults.cpp - ASan options of the checked tools ----------===//
//
// Linked into the tools of a sanitized build (IMEX_ENABLE_SANITIZERS). Only
// project code is instrumented: LLVM's BumpPtrAllocator poisons memory when
// it is compiled with ASan (inline code in our objects) but libMLIR's copy
// of the same code never unpoisons it, so manual poisoning must be off.
// ASAN_OPTIONS in the environment still take precedence.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0:detect_container_overflow=0";
}
