//===- JitCompiler.cpp - compile lowered modules to host objects ----------===//
//
// LLVM dialect -> LLVM IR -> optimized IR -> object file, timed step by step,
// and a JIT session that links such objects and runs their functions.
//
//===----------------------------------------------------------------------===//

#include "imex/ExecutionEngine/JitCompiler.h"
#include "imex/ExecutionEngine/VectorMath.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Pass.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SmallVectorMemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"

#include <chrono>

using namespace mlir;
using namespace imex;

namespace {

/// Seconds since construction.
struct Stopwatch {
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  }
};

/// Replaces the global array `arrayName` (llvm.global_ctors or _dtors) by
/// a function `functionName` calling its entries by ascending priority.
void outlineGlobalArray(
    llvm::Module &module, StringRef arrayName, StringRef functionName,
    llvm::iterator_range<llvm::orc::CtorDtorIterator> range) {
  llvm::GlobalVariable *array = module.getNamedGlobal(arrayName);
  if (!array)
    return;
  // (priority, position, function): entries of equal priority keep their
  // order.
  SmallVector<std::tuple<unsigned, unsigned, llvm::Function *>> entries;
  for (llvm::orc::CtorDtorIterator::Element element : range)
    if (element.Func)
      entries.emplace_back(element.Priority, entries.size(), element.Func);
  llvm::sort(entries);
  llvm::LLVMContext &context = module.getContext();
  auto *fnType = llvm::FunctionType::get(llvm::Type::getVoidTy(context), false);
  auto *function = llvm::Function::Create(
      fnType, llvm::GlobalValue::ExternalLinkage, functionName, module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "", function));
  for (auto [priority, position, callee] : entries)
    builder.CreateCall(callee->getFunctionType(), callee);
  builder.CreateRetVoid();
  array->eraseFromParent();
}

/// LLVM's default pipeline at `optLevel`, tuned as MLIR's ExecutionEngine
/// does (vectorizers and unrolling on), with the standard instrumentations:
/// LLVM's -time-passes, -print-after and the like work. Loops calling libm
/// functions may call their vector variants (see VectorMath.h).
void optimizeModule(llvm::Module &module, llvm::TargetMachine *targetMachine,
                    unsigned optLevel) {
  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassInstrumentationCallbacks callbacks;
  llvm::StandardInstrumentations instrumentations(module.getContext(),
                                                  /*DebugLogging=*/false);
  instrumentations.registerCallbacks(callbacks, &mam);
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = tuning.LoopInterleaving = true;
  tuning.LoopVectorization = tuning.SLPVectorization = true;
  llvm::PassBuilder builder(targetMachine, tuning, std::nullopt, &callbacks);
  llvm::TargetLibraryInfoImpl libraryInfo(module.getTargetTriple());
  useVectorMathLibrary(module, *targetMachine, libraryInfo);
  fam.registerPass([&] { return llvm::TargetLibraryAnalysis(libraryInfo); });
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  builder.buildPerModuleDefaultPipeline(levels[std::min(optLevel, 3u)])
      .run(module, mam);
  if (llvm::TimePassesIsEnabled)
    instrumentations.getTimePasses().print();
}

} // namespace

void imex::setLoopStrengthReduction(bool enable) {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("disable-lsr");
  if (it != options.end())
    static_cast<llvm::cl::opt<bool> *>(it->second)->setValue(!enable);
}

llvm::Expected<llvm::orc::JITTargetMachineBuilder>
imex::getHostTargetMachineBuilder(unsigned optLevel) {
  auto machine = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machine)
    return machine.takeError();
  static constexpr llvm::CodeGenOptLevel levels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less,
      llvm::CodeGenOptLevel::Default, llvm::CodeGenOptLevel::Aggressive};
  machine->setCodeGenOptLevel(levels[std::min(optLevel, 3u)]);
  // LLVM's JIT default on x86-64 is the large code model, which addresses
  // constants through 64-bit immediates: in hot loops their broadcasts are
  // reloaded every iteration (wave2d ran 15% slower than the same IR
  // compiled ahead of time). Position-independent code in the small model
  // addresses them relative to the instruction pointer, as shared libraries
  // do; JITLink allocates an object's sections in one block and reaches
  // other libraries through GOT and PLT stubs (out-of-range references are
  // errors, not silent truncations).
  machine->setCodeModel(llvm::CodeModel::Small);
  machine->setRelocationModel(llvm::Reloc::PIC_);
  return machine;
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
imex::compileToObject(ModuleOp module,
                      const llvm::orc::JITTargetMachineBuilder &machine,
                      unsigned optLevel, CompileStats &stats) {
  module.walk([&](Operation *) { ++stats.loweredOps; });
  auto targetMachine =
      llvm::orc::JITTargetMachineBuilder(machine).createTargetMachine();
  if (!targetMachine)
    return targetMachine.takeError();

  Stopwatch translate;
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return llvm::createStringError("could not translate the module to LLVM IR");
  ExecutionEngine::setupTargetTripleAndDataLayout(llvmModule.get(),
                                                  targetMachine->get());
  outlineGlobalArray(*llvmModule, "llvm.global_ctors", kRunConstructors,
                     llvm::orc::getConstructors(*llvmModule));
  outlineGlobalArray(*llvmModule, "llvm.global_dtors", kRunDestructors,
                     llvm::orc::getDestructors(*llvmModule));
  stats.translateSeconds = translate.seconds();

  Stopwatch optimize;
  optimizeModule(*llvmModule, targetMachine->get(), optLevel);
  stats.optimizeSeconds = optimize.seconds();
  for (llvm::Function &function : *llvmModule)
    stats.llvmInstructions += function.getInstructionCount();

  Stopwatch codegen;
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream stream(object);
  llvm::legacy::PassManager passes;
  if ((*targetMachine)
          ->addPassesToEmitFile(passes, stream, nullptr,
                                llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the host target cannot emit object files");
  passes.run(*llvmModule);
  stats.codegenSeconds = codegen.seconds();
  stats.objectBytes = object.size();
  return std::make_unique<llvm::SmallVectorMemoryBuffer>(
      std::move(object), "imex-jit-object", /*RequiresNullTerminator=*/false);
}

//===----------------------------------------------------------------------===//
// JitSession
//===----------------------------------------------------------------------===//

JitSession::JitSession(std::unique_ptr<llvm::orc::LLJIT> jit)
    : jit(std::move(jit)) {}

JitSession::~JitSession() {
  for (void (*destructor)() : llvm::reverse(destructors))
    destructor();
}

llvm::Expected<std::unique_ptr<JitSession>>
JitSession::create(const llvm::orc::JITTargetMachineBuilder &machine,
                   ArrayRef<std::string> sharedLibs) {
  // LLJIT's default object layer, JITLink: it places the sections of an
  // object together (as the small code model needs) and reaches symbols of
  // the shared libraries, which may be far from the JIT's code, through
  // GOT and PLT stubs.
  auto jit = llvm::orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(machine)
                 .setPlatformSetUp(llvm::orc::setUpInactivePlatform)
                 .create();
  if (!jit)
    return jit.takeError();
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  char prefix = (*jit)->getDataLayout().getGlobalPrefix();
  for (const std::string &path : sharedLibs) {
    auto library =
        llvm::orc::DynamicLibrarySearchGenerator::Load(path.c_str(), prefix);
    if (!library)
      return llvm::createStringError("cannot load shared library '" + path +
                                     "': " + toString(library.takeError()));
    main.addGenerator(std::move(*library));
  }
  // Objects compiled with vector math call into it.
  if (loadVectorMathLibrary()) {
    auto library = llvm::orc::DynamicLibrarySearchGenerator::Load(
        kVectorMathLibrary, prefix);
    if (!library)
      return library.takeError();
    main.addGenerator(std::move(*library));
  }
  auto process =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!process)
    return process.takeError();
  main.addGenerator(std::move(*process));
  return std::unique_ptr<JitSession>(new JitSession(std::move(*jit)));
}

llvm::Error JitSession::addObject(std::unique_ptr<llvm::MemoryBuffer> object) {
  if (llvm::Error error = jit->addObjectFile(std::move(object)))
    return error;
  // Constructors of this object run now, destructors at the end.
  if (auto run = jit->lookup(kRunConstructors))
    run->toPtr<void (*)()>()();
  else
    llvm::consumeError(run.takeError());
  if (auto run = jit->lookup(kRunDestructors))
    destructors.push_back(run->toPtr<void (*)()>());
  else
    llvm::consumeError(run.takeError());
  return llvm::Error::success();
}

llvm::Error JitSession::defineSymbol(StringRef name, void *address) {
  llvm::orc::SymbolMap symbols;
  symbols[jit->mangleAndIntern(name)] = {
      llvm::orc::ExecutorAddr::fromPtr(address),
      llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  return jit->getMainJITDylib().define(
      llvm::orc::absoluteSymbols(std::move(symbols)));
}

llvm::Expected<void *> JitSession::lookup(StringRef name) {
  auto address = jit->lookup(name);
  if (!address)
    return address.takeError();
  return address->toPtr<void *>();
}

mlir::LogicalResult imex::addPackedInterface(mlir::ModuleOp module,
                                             StringRef name) {
  using namespace mlir;
  std::string ciface = ("_mlir_ciface_" + name).str();
  auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(ciface);
  if (!callee)
    return module.emitError("no C interface '")
           << ciface << "' (set llvm.emit_c_interface on '" << name << "')";
  LLVM::LLVMFunctionType type = callee.getFunctionType();
  if (!isa<LLVM::LLVMVoidType>(type.getReturnType()))
    return callee.emitError("a packed interface needs a function without "
                            "results");
  MLIRContext *context = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = callee.getLoc();
  auto packed = LLVM::LLVMFuncOp::create(
      b, loc, (kPackedPrefix + name).str(),
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context), {ptr}));
  Block *entry = packed.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  SmallVector<Value> arguments;
  for (auto [i, param] : llvm::enumerate(type.getParams())) {
    Value slot =
        LLVM::GEPOp::create(b, loc, ptr, ptr, entry->getArgument(0),
                            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    Value address = LLVM::LoadOp::create(b, loc, ptr, slot);
    // Memrefs are passed to the C interface by pointer already.
    arguments.push_back(
        isa<LLVM::LLVMPointerType>(param)
            ? address
            : LLVM::LoadOp::create(b, loc, param, address).getResult());
  }
  LLVM::CallOp::create(b, loc, callee, arguments);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  return success();
}
