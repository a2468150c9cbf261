//===- ParallelCodeGen.cpp - Code generation of a module on several cores -===//
//
// LLVM generates the code of a module in one thread. For sources that
// instantiate many library kernels (thrust and CUB algorithms: tens of
// kernels, each in several versions, each hundreds of loops after barrier
// lowering), code generation alone takes a minute. Functions are compiled
// independently of each other, so the module is split into partitions
// (llvm::SplitModule), each partition is compiled to an object in a thread
// of its own with its own LLVMContext (contexts are not thread-safe; the
// partitions travel as bitcode), and `ld.lld -r` joins the objects into the
// one object the caller asked for.
//
// Splitting makes every symbol that was local to the module a hidden global
// one, because a partition may call a function another partition defines.
// Such symbols get a suffix unique to the translation unit, so that the
// objects of two translation units with the same static function, or the
// same device kernel, still link together.
//
//===----------------------------------------------------------------------===//

#include "respec/Target/CPUBackend.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <atomic>
#include <cstdlib>

using namespace llvm;

namespace respec {

/// Instructions per partition below which splitting does not pay for the
/// extra work (bitcode round trip, a linker run): about a second of code
/// generation. RESPEC_CODEGEN_PARTITION_SIZE sets another size (tests split
/// small modules with it).
static uint64_t getInstructionsPerPartition() {
  uint64_t size = 20000;
  if (const char *value = std::getenv("RESPEC_CODEGEN_PARTITION_SIZE"))
    if (StringRef(value).getAsInteger(10, size) || size == 0)
      size = 20000;
  return size;
}

static uint64_t countInstructions(const Module &module) {
  uint64_t count = 0;
  for (const Function &function : module)
    count += function.getInstructionCount();
  return count;
}

/// Makes every local symbol of `module` a hidden global one with
/// `uniqueSuffix` appended, as splitting would make it without the suffix.
static void externalizeLocals(Module &module, StringRef uniqueSuffix) {
  auto externalize = [&](GlobalValue &value) {
    if (!value.hasLocalLinkage())
      return;
    std::string name =
        (value.hasName() ? value.getName() : StringRef("__respec_unnamed"))
            .str();
    value.setName(name + uniqueSuffix);
    value.setLinkage(GlobalValue::ExternalLinkage);
    value.setVisibility(GlobalValue::HiddenVisibility);
    value.setDSOLocal(true);
  };
  for (Function &function : module)
    externalize(function);
  for (GlobalVariable &variable : module.globals())
    externalize(variable);
  for (GlobalAlias &alias : module.aliases())
    externalize(alias);
  for (GlobalIFunc &ifunc : module.ifuncs())
    externalize(ifunc);
}

/// A target machine configured as `target`, for one thread's use.
static std::unique_ptr<TargetMachine> cloneTarget(const TargetMachine &target) {
  return std::unique_ptr<TargetMachine>(target.getTarget().createTargetMachine(
      target.getTargetTriple(), target.getTargetCPU(),
      target.getTargetFeatureString(), target.Options,
      target.getRelocationModel(), target.getCodeModel(),
      target.getOptLevel()));
}

/// Compiles the bitcode `partition` to the object file `path` in a context
/// of its own.
static bool compilePartition(StringRef partition, const TargetMachine &target,
                             StringRef path) {
  LLVMContext context;
  Expected<std::unique_ptr<Module>> module =
      parseBitcodeFile(MemoryBufferRef(partition, "partition"), context);
  if (!module) {
    consumeError(module.takeError());
    return false;
  }
  std::unique_ptr<TargetMachine> machine = cloneTarget(target);
  return machine && emitObjectFile(**module, *machine, path);
}

bool emitObjectFileInParallel(Module &module, TargetMachine &target,
                              StringRef path, unsigned threads,
                              StringRef linker, StringRef uniqueSuffix) {
  if (threads == 0)
    threads = hardware_concurrency().compute_thread_count();
  uint64_t partitions = std::min<uint64_t>(
      threads, countInstructions(module) / getInstructionsPerPartition());
  // Module-level assembly stays in the first partition, which is right for
  // directives but not for symbols it defines and other partitions use.
  if (partitions < 2 || !module.getModuleInlineAsm().empty() ||
      !sys::fs::can_execute(linker))
    return emitObjectFile(module, target, path);

  externalizeLocals(module, uniqueSuffix);
  std::vector<SmallString<0>> bitcode;
  SplitModule(module, partitions, [&](std::unique_ptr<Module> part) {
    bitcode.emplace_back();
    raw_svector_ostream out(bitcode.back());
    WriteBitcodeToFile(*part, out);
  });

  std::vector<std::string> objects(bitcode.size());
  for (auto [index, object] : llvm::enumerate(objects))
    object = (path + ".part" + Twine(index) + ".o").str();
  std::atomic<bool> failed = false;
  {
    DefaultThreadPool pool(hardware_concurrency(partitions));
    for (auto [part, object] : llvm::zip(bitcode, objects))
      pool.async([&, &part = part, &object = object] {
        if (!compilePartition(part, target, object))
          failed = true;
      });
    pool.wait();
  }

  bool joined = false;
  if (!failed) {
    SmallVector<StringRef> args = {linker, "-r", "-o", path};
    for (const std::string &object : objects)
      args.push_back(object);
    std::string message;
    joined = sys::ExecuteAndWait(linker, args, /*Env=*/std::nullopt,
                                 /*Redirects=*/{}, /*SecondsToWait=*/0,
                                 /*MemoryLimit=*/0, &message) == 0;
    if (!joined)
      errs() << "respec: error: could not join the partial objects of '" << path
             << "' with " << linker << (message.empty() ? "" : ": " + message)
             << "\n";
  } else {
    errs() << "respec: error: code generation of a partition of '" << path
           << "' failed\n";
  }
  for (const std::string &object : objects)
    sys::fs::remove(object);
  return joined;
}

} // namespace respec
