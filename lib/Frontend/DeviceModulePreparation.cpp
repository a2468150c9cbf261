//===- DeviceModulePreparation.cpp - Device LLVM IR before raising --------===//
//
// clang keeps device functions out of line when they are large or marked
// noinline. A CPU thread loop needs the whole per-thread body in the kernel:
// the launch position (threadIdx, blockIdx, ...) becomes loop variables there,
// and __shared__ variables become offsets into the block's allocation. So
// every device function that can be inlined is; what cannot (recursion,
// calls through pointers) is diagnosed later if it touches launch state.
//
//===----------------------------------------------------------------------===//

#include "respec/Frontend/DeviceModulePreparation.h"
#include "respec/Support/LLVMPasses.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"

using namespace llvm;

namespace respec {

static bool isKernel(const Function &function) {
  return function.getCallingConv() == CallingConv::PTX_Kernel;
}

/// External functions the CPU back end or runtime provides.
static bool isProvidedByRespec(StringRef name) {
  return name.starts_with("llvm.") || name.starts_with("__nv_") ||
         name.starts_with("__respec_") || name == "vprintf" ||
         name == "__assertfail" || name == "malloc" || name == "free" ||
         name == "memcpy" || name == "memset" || name == "memmove";
}

static void markForInlining(Module &module) {
  for (Function &function : module) {
    if (function.isDeclaration() || isKernel(function))
      continue;
    function.removeFnAttr(Attribute::NoInline);
    function.removeFnAttr(Attribute::OptimizeNone);
    function.addFnAttr(Attribute::AlwaysInline);
    // Without -rdc no other translation unit can call a device function, so
    // once inlined everywhere its body is dead (and must not be raised: it
    // reads threadIdx outside a kernel).
    function.setLinkage(GlobalValue::InternalLinkage);
  }
}

static void runInliner(Module &module) {
  runModulePipeline(module, /*target=*/nullptr, PipelineTuningOptions(),
                    [](PassBuilder &) {
                      ModulePassManager passes;
                      passes.addPass(AlwaysInlinerPass(
                          /*InsertLifetimeIntrinsics=*/true));
                      passes.addPass(GlobalDCEPass());
                      return passes;
                    });
}

/// Prints "file:line:col: error: " for the first instruction that uses
/// `value`, or a location-less prefix if none has a debug location.
static raw_ostream &errorAtFirstUse(const Value &value) {
  for (const User *user : value.users()) {
    auto *inst = dyn_cast<Instruction>(user);
    if (!inst || !inst->getDebugLoc())
      continue;
    const DebugLoc &loc = inst->getDebugLoc();
    auto *scope = cast<DIScope>(loc.getScope());
    errs() << scope->getFilename() << ":" << loc.getLine() << ":"
           << loc.getCol() << ": ";
    break;
  }
  return errs() << "error: ";
}

/// Device code may only refer to what this translation unit defines:
/// whole-program device linking (nvcc -rdc) is not implemented.
static bool verifySelfContained(Module &module, DeviceLanguage language) {
  bool ok = true;
  for (Function &function : module) {
    if (!function.isDeclaration() || function.use_empty() ||
        isProvidedByRespec(function.getName()))
      continue;
    std::string name = demangle(function.getName().str());
    raw_ostream &os = errorAtFirstUse(function);
    // OpenCL C built-ins are overloaded, hence mangled; the user's own
    // functions are plain C.
    if (language == DeviceLanguage::OpenCL &&
        function.getName().starts_with("_Z"))
      os << "OpenCL C built-in '" << name
         << "' is not supported by respec yet\n";
    else if (language == DeviceLanguage::OpenCL)
      os << "function '" << name
         << "' is declared but not defined in this OpenCL C source\n";
    else
      os << "device function '" << name
         << "' is declared but not defined in this translation unit; respec "
            "does not support separate compilation of device code (-rdc) "
            "yet\n";
    ok = false;
  }
  for (GlobalVariable &global : module.globals()) {
    if (!global.isDeclaration() || global.use_empty())
      continue;
    // `extern __shared__` arrays are declarations by design.
    if (global.getAddressSpace() == 3)
      continue;
    errorAtFirstUse(global)
        << "device variable '" << demangle(global.getName().str())
        << "' is declared but not defined in this translation unit; respec "
           "does not support separate compilation of device code (-rdc) yet\n";
    ok = false;
  }
  return ok;
}

bool prepareDeviceModule(Module &module, DeviceLanguage language) {
  markForInlining(module);
  runInliner(module);
  return verifySelfContained(module, language);
}

} // namespace respec
