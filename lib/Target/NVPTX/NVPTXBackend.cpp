//===- NVPTXBackend.cpp - Device code for NVIDIA GPUs ---------------------===//

#include "respec/Target/NVPTXBackend.h"
#include "respec/Support/LLVMPasses.h"

#include "respec/Transforms/Attributes.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <optional>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

using namespace llvm;

namespace respec {

static constexpr StringLiteral kNVPTXTriple = "nvptx64-nvidia-cuda";

mlir::LogicalResult runNVPTXLoweringPipeline(
    mlir::ModuleOp module, const mlir::respec::CoarsenOptions &coarsening,
    const mlir::respec::TuningOptions &tuning, bool hostLaunches) {
  mlir::PassManager pm(module.getContext());
  mlir::respec::buildNVPTXLoweringPipeline(pm, coarsening, tuning,
                                           hostLaunches);
  return pm.run(module);
}

static std::unique_ptr<TargetMachine>
createNVPTXTargetMachine(StringRef arch, StringRef features = "") {
  static bool initialized = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    return true;
  }();
  (void)initialized;
  Triple triple(kNVPTXTriple);
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    errs() << "respec: error: this LLVM has no NVPTX code generator: " << error
           << "\n";
    return nullptr;
  }
  return std::unique_ptr<TargetMachine>(target->createTargetMachine(
      triple, arch, features, TargetOptions(), std::nullopt, std::nullopt,
      CodeGenOptLevel::Aggressive));
}

bool isKnownGPUArch(StringRef gpuArch) {
  std::unique_ptr<TargetMachine> machine = createNVPTXTargetMachine("sm_52");
  return machine && machine->getMCSubtargetInfo()->isCPUStringValid(gpuArch);
}

/// Links libdevice's implementations of the `__nv_*` math functions the
/// kernels call.
static bool linkLibdevice(Module &module, StringRef cudaPath) {
  bool needed = llvm::any_of(module, [](const Function &function) {
    return function.isDeclaration() && function.getName().starts_with("__nv_");
  });
  if (!needed)
    return true;
  std::string path = (cudaPath + "/nvvm/libdevice/libdevice.10.bc").str();
  if (cudaPath.empty() || !sys::fs::exists(path)) {
    errs() << "respec: error: the kernels call CUDA math functions, which "
              "need libdevice from a CUDA toolkit (not found"
           << (cudaPath.empty() ? "" : (" at " + path).c_str())
           << "; use --cuda-path)\n";
    return false;
  }
  SMDiagnostic diagnostic;
  std::unique_ptr<Module> libdevice =
      parseIRFile(path, diagnostic, module.getContext());
  if (!libdevice) {
    errs() << "respec: error: cannot read " << path << ": "
           << diagnostic.getMessage() << "\n";
    return false;
  }
  libdevice->setTargetTriple(module.getTargetTriple());
  libdevice->setDataLayout(module.getDataLayout());
  if (Linker::linkModules(module, std::move(libdevice),
                          Linker::Flags::LinkOnlyNeeded)) {
    errs() << "respec: error: cannot link libdevice\n";
    return false;
  }
  return true;
}

/// libdevice's sqrtf asks `__nvvm_reflect("__CUDA_PREC_SQRT")` whether to
/// round correctly. CUDA's default (nvcc -prec-sqrt=true) is yes, but LLVM's
/// NVVMReflect pass answers 0 for every name but __CUDA_FTZ and
/// __CUDA_ARCH unless told on its command line: answer here, before it
/// runs, or sqrtf becomes sqrt.approx.f32.
static void answerPrecSqrtReflections(Module &module) {
  Function *reflect = module.getFunction("__nvvm_reflect");
  if (!reflect)
    return;
  SmallVector<CallInst *> answered;
  for (User *user : reflect->users()) {
    auto *call = dyn_cast<CallInst>(user);
    if (!call || call->getCalledFunction() != reflect ||
        call->arg_size() != 1)
      continue;
    auto *global = dyn_cast<GlobalVariable>(
        call->getArgOperand(0)->stripPointerCasts());
    if (!global || !global->hasInitializer())
      continue;
    auto *name = dyn_cast<ConstantDataSequential>(global->getInitializer());
    if (name && name->isCString() && name->getAsCString() == "__CUDA_PREC_SQRT")
      answered.push_back(call);
  }
  for (CallInst *call : answered) {
    call->replaceAllUsesWith(ConstantInt::get(call->getType(), 1));
    call->eraseFromParent();
  }
}

/// Only kernels are entry points; everything else may be inlined away.
static void internalizeNonKernels(Module &module) {
  for (Function &function : module)
    if (!function.isDeclaration() &&
        function.getCallingConv() != CallingConv::PTX_Kernel)
      function.setLinkage(GlobalValue::InternalLinkage);
}

/// The PTX ISA version clang compiled the device code for ("+ptx88" in the
/// kernels' target-features, from the CUDA toolkit's version): CUDA's
/// headers pick inline assembly by it, so the module's `.version` must be
/// at least that. Empty when no function says.
std::string ptxVersionFeature(const Module &module) {
  for (const Function &function : module) {
    Attribute features = function.getFnAttribute("target-features");
    if (!features.isValid())
      continue;
    SmallVector<StringRef> parts;
    features.getValueAsString().split(parts, ',');
    for (StringRef part : parts)
      if (part.starts_with("+ptx"))
        return part.str();
  }
  return "";
}

/// Raising moved every variable to the generic address space
/// (StripAddressSpaces); on the GPU, `__device__` and `__constant__`
/// variables go back to the global and constant spaces (`__constant__`
/// reads then use the constant cache), each use addressing them through a
/// cast to a generic pointer, as clang's code does. The host writes them
/// (cudaMemcpyToSymbol) after the module is loaded: they are not constants
/// whose initializer the optimizer may fold into the kernels (clang marks
/// them externally_initialized, which the import into MLIR loses).
static void restoreVariableAddressSpaces(mlir::ModuleOp module) {
  llvm::StringMap<unsigned> spaces;
  for (auto global : module.getOps<mlir::LLVM::GlobalOp>()) {
    auto space = global->getAttrOfType<mlir::IntegerAttr>(
        mlir::respec::kAddressSpaceAttr);
    if (!space || global.getAddrSpace() != 0 ||
        (space.getInt() != mlir::respec::kGlobal &&
         space.getInt() != mlir::respec::kConstant))
      continue;
    global.setAddrSpace(space.getInt());
    global.setConstant(false);
    global.setExternallyInitialized(true);
    spaces[global.getSymName()] = space.getInt();
  }
  if (spaces.empty())
    return;
  module.walk([&](mlir::LLVM::AddressOfOp addressOf) {
    auto it = spaces.find(addressOf.getGlobalName());
    if (it == spaces.end() ||
        cast<mlir::LLVM::LLVMPointerType>(addressOf.getType())
                .getAddressSpace() != 0)
      return;
    mlir::OpBuilder b(addressOf);
    mlir::Location loc = addressOf.getLoc();
    auto spacePointer =
        mlir::LLVM::LLVMPointerType::get(b.getContext(), it->second);
    mlir::Value address = mlir::LLVM::AddressOfOp::create(
        b, loc, spacePointer, addressOf.getGlobalName());
    mlir::Value generic = mlir::LLVM::AddrSpaceCastOp::create(
        b, loc, addressOf.getType(), address);
    addressOf.replaceAllUsesWith(generic);
    addressOf.erase();
  });
}

std::unique_ptr<Module> translateToNVPTXModule(mlir::ModuleOp module,
                                               LLVMContext &context,
                                               StringRef gpuArch,
                                               StringRef cudaPath) {
  std::unique_ptr<TargetMachine> machine = createNVPTXTargetMachine(gpuArch);
  if (!machine)
    return nullptr;
  module->removeAttr(mlir::DLTIDialect::kDataLayoutAttrName);
  restoreVariableAddressSpaces(module);
  std::unique_ptr<Module> result =
      mlir::translateModuleToLLVMIR(module, context, "respec-nvptx");
  if (!result)
    return nullptr;
  result->setTargetTriple(machine->getTargetTriple());
  result->setDataLayout(machine->createDataLayout());
  if (!linkLibdevice(*result, cudaPath))
    return nullptr;
  // Functions respec built (launch wrappers, outlined kernels) carry no
  // target features; give them the thread functions' PTX version before
  // those are inlined away, so that emitPTX finds it on the kernels.
  // Inlining in the MLIR pipeline may leave no function with clang's
  // features; the device module's attribute keeps them.
  std::string ptxVersion = ptxVersionFeature(*result);
  if (auto recorded = module->getAttrOfType<mlir::StringAttr>(
          mlir::respec::kPTXVersionAttr);
      ptxVersion.empty() && recorded)
    ptxVersion = recorded.getValue().str();
  if (!ptxVersion.empty())
    for (Function &function : *result)
      if (!function.isDeclaration() &&
          !function.hasFnAttribute("target-features"))
        function.addFnAttr("target-features", ptxVersion);
  internalizeNonKernels(*result);
  answerPrecSqrtReflections(*result);
  // libdevice asks __nvvm_reflect for the denormal mode: CUDA's default
  // keeps denormals (no -ftz), which clang already recorded.
  if (!result->getModuleFlag("nvvm-reflect-ftz"))
    result->addModuleFlag(Module::Override, "nvvm-reflect-ftz",
                          static_cast<uint32_t>(0));
  runModulePipeline(*result, machine.get(), PipelineTuningOptions(),
                    [](PassBuilder &passBuilder) {
                      return passBuilder.buildPerModuleDefaultPipeline(
                          OptimizationLevel::O3);
                    });
  sinkWarpShufflesToUses(*result);
  return result;
}

/// Sets one of LLVM's boolean code generator options (a process-wide
/// cl::opt) for the lifetime of this object, then restores it.
class ScopedCodeGenOption {
public:
  ScopedCodeGenOption(StringRef name, bool value) {
    auto &options = cl::getRegisteredOptions();
    auto found = options.find(name);
    if (found == options.end())
      return;
    option = static_cast<cl::opt<bool> *>(found->second);
    saved = *option;
    option->setValue(value);
  }
  ~ScopedCodeGenOption() {
    if (option)
      option->setValue(saved);
  }

private:
  cl::opt<bool> *option = nullptr;
  bool saved = false;
};

bool emitPTX(Module &module, StringRef gpuArch, std::string &ptx) {
  // MachineSink would move the arithmetic on warp shuffles' results back
  // into the conditional block of its use, where the shuffles cannot
  // follow, undoing sinkWarpShufflesToUses: all results live at once
  // (gemm_f32 of bench/core: 79 registers per thread instead of 32). Only
  // for modules with shuffles: elsewhere sinking saves the work of threads
  // that skip the block (particlefilter of bench/sci lost 15% without it
  // on an H200).
  std::optional<ScopedCodeGenOption> keepArithmeticNearShuffles;
  if (containsWarpShuffles(module))
    keepArithmeticNearShuffles.emplace("disable-machine-sink", true);
  std::unique_ptr<TargetMachine> machine =
      createNVPTXTargetMachine(gpuArch, ptxVersionFeature(module));
  if (!machine)
    return false;
  raw_string_ostream os(ptx);
  buffer_ostream buffered(os);
  legacy::PassManager passes;
  if (machine->addPassesToEmitFile(passes, buffered, nullptr,
                                   CodeGenFileType::AssemblyFile)) {
    errs() << "respec: error: the NVPTX code generator cannot emit PTX\n";
    return false;
  }
  passes.run(module);
  return true;
}

} // namespace respec
