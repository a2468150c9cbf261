//===- CPUBackend.cpp - Device code through MLIR for the CPU --------------===//
//
// Glue between the driver and the MLIR pipelines: import the device LLVM IR,
// raise it to the parallel IR, lower it for the CPU and translate it back to
// LLVM IR for the host target.
//
//===----------------------------------------------------------------------===//

#include "respec/Target/CPUBackend.h"
#include "respec/Dialect/RespecDialect.h"
#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Target/LLVMIR/Import.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>

using namespace mlir;

namespace respec {

/// Locations inside headers of clang, the CUDA toolkit or respec: a
/// diagnostic about an inlined header function (a warp intrinsic, say)
/// belongs at the user's line that called it.
static bool isSystemHeaderLocation(FileLineColLoc loc) {
  StringRef file = loc.getFilename().getValue();
  return file.starts_with("/usr/lib/llvm-") ||
         file.starts_with("/usr/local/cuda") || file.starts_with("/usr/include") ||
         file.starts_with("/usr/local/include") ||
         file.contains("/share/respec/cuda/include/");
}

/// Finds the user's file:line:col inside a (possibly fused or inlined
/// call-site) location: the innermost frame outside system headers, else
/// the outermost frame.
static std::optional<FileLineColLoc> findSourceLocation(Location loc) {
  SmallVector<FileLineColLoc> frames; // innermost callee first
  loc->walk([&](Location nested) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(nested))
      if (fileLoc.getLine() != 0)
        frames.push_back(fileLoc);
    return WalkResult::advance();
  });
  for (FileLineColLoc frame : frames)
    if (!isSystemHeaderLocation(frame))
      return frame;
  if (frames.empty())
    return std::nullopt;
  return frames.back();
}

static StringRef severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

static void printDiagnostic(Diagnostic &diag, llvm::raw_ostream &os) {
  if (std::optional<FileLineColLoc> loc = findSourceLocation(diag.getLocation()))
    os << loc->getFilename().getValue() << ":" << loc->getLine() << ":"
       << loc->getColumn() << ": ";
  os << severityName(diag.getSeverity()) << ": " << diag.str() << "\n";
  for (Diagnostic &note : diag.getNotes())
    printDiagnostic(note, os);
}

void prepareMLIRContext(MLIRContext &context) {
  DialectRegistry registry;
  registry.insert<mlir::respec::RespecDialect, arith::ArithDialect,
                  cf::ControlFlowDialect, DLTIDialect, func::FuncDialect,
                  index::IndexDialect, LLVM::LLVMDialect, NVVM::NVVMDialect,
                  memref::MemRefDialect, omp::OpenMPDialect,
                  scf::SCFDialect>();
  registerAllToLLVMIRTranslations(registry);
  registerAllFromLLVMIRTranslations(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  // Users see their source line, not respec's IR.
  context.printOpOnDiagnostic(false);
  // Code respec duplicates (kernel versions, launch bodies specialized for a
  // block size) would report the same problem at the same line again.
  auto printed = std::make_shared<llvm::StringSet<>>();
  context.getDiagEngine().registerHandler([printed](Diagnostic &diag) {
    std::string text;
    llvm::raw_string_ostream os(text);
    printDiagnostic(diag, os);
    if (printed->insert(text).second)
      llvm::errs() << text;
    return success();
  });
}

OwningOpRef<ModuleOp> importDeviceModule(std::unique_ptr<llvm::Module> device,
                                         MLIRContext &context) {
  // Warnings of the LLVM IR importer (unknown data-layout tokens, module
  // flags) concern clang's output, not the user's program.
  ScopedDiagnosticHandler dropImporterWarnings(&context, [](Diagnostic &diag) {
    return success(diag.getSeverity() == DiagnosticSeverity::Warning);
  });
  return translateLLVMIRToModule(std::move(device), &context,
                                 /*emitExpensiveWarnings=*/false);
}

static LogicalResult
runPipeline(ModuleOp module, function_ref<void(OpPassManager &)> build) {
  PassManager pm(module.getContext());
  // A developer's view of where compile time goes: MLIR's per-pass report
  // on standard error.
  if (std::getenv("RESPEC_TIME_PASSES"))
    pm.enableTiming();
  build(pm);
  return pm.run(module);
}

LogicalResult runRaisePipeline(ModuleOp module) {
  return runPipeline(module, mlir::respec::buildRaisePipeline);
}

LogicalResult
runCPULoweringPipeline(ModuleOp module,
                       const mlir::respec::CPUPipelineOptions &options,
                       llvm::function_ref<void(ModuleOp)> afterParallelStage) {
  if (failed(runPipeline(module, [&](OpPassManager &pm) {
        mlir::respec::buildCPUParallelPipeline(pm, options);
      })))
    return failure();
  if (afterParallelStage)
    afterParallelStage(module);
  return runPipeline(module, [&](OpPassManager &pm) {
    mlir::respec::buildCPUToLLVMPipeline(pm, options);
  });
}

/// The CPU name and feature string `cpu` ("native" = this machine's, with
/// its detected features) stands for.
static std::pair<std::string, std::string>
resolveDeviceCPU(llvm::StringRef cpu) {
  if (cpu != "native")
    return {cpu.str(), ""};
  std::string features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    features += (features.empty() ? "" : ",") +
                std::string(feature.getValue() ? "+" : "-") +
                feature.getKey().str();
  return {llvm::sys::getHostCPUName().str(), features};
}

unsigned getDeviceVectorBits(const llvm::TargetMachine &target,
                             llvm::StringRef deviceCPU) {
  if (!target.getTargetTriple().isX86())
    return 128;
  auto [cpuName, features] = resolveDeviceCPU(deviceCPU);
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target.getTarget().createMCSubtargetInfo(target.getTargetTriple(),
                                               cpuName, features));
  if (!info)
    return 128;
  if (info->checkFeatures("+avx512f"))
    return 512;
  return info->checkFeatures("+avx") ? 256 : 128;
}

unsigned getThreadVectorLanes(unsigned vectorBits) {
  return vectorBits >= 512 ? 16 : 8;
}

/// Compiles every device function for `cpu`: vector width matters more for
/// kernels than for host code, which keeps clang's default target. With
/// `preferVectorBits`, LLVM's vectorizers use vectors of that width: its
/// default for AVX-512 CPUs is 256 bits, which suits code that mixes a few
/// vector loops with scalar work, while kernels are vector loops through
/// and through. A thread row of 16 floats is then one vector instead of a
/// loop of two, so that values loaded once per row stay in registers across
/// an outer thread loop (a tile's row in a matrix product).
static void setDeviceTarget(llvm::Module &module, llvm::StringRef cpu,
                            unsigned preferVectorBits) {
  auto [cpuName, features] = resolveDeviceCPU(cpu);
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    function.addFnAttr("target-cpu", cpuName);
    if (!features.empty())
      function.addFnAttr("target-features", features);
    if (preferVectorBits)
      function.addFnAttr("prefer-vector-width",
                         std::to_string(preferVectorBits));
  }
}

/// What the runtime's block-storage functions (runtime/cpu/DeviceRuntime.cpp)
/// guarantee, told to LLVM: each call returns 64-byte aligned storage that
/// no pointer the kernel held before the call points into (the block's
/// shared memory, fetched once per block; a fresh part of the per-block
/// scratch arena). Without this, LLVM must assume that stores to shared
/// memory and to per-thread arrays may overwrite the kernel's global
/// inputs, which blocks vectorizing the loops that copy tiles.
static void describeRuntimeAllocators(llvm::Module &module) {
  for (llvm::StringRef name :
       {mlir::respec::kSharedMemoryFunction, mlir::respec::kScratchFunction}) {
    llvm::Function *function = module.getFunction(name);
    if (!function || !function->getReturnType()->isPointerTy())
      continue;
    function->addRetAttr(llvm::Attribute::NoAlias);
    function->addRetAttr(llvm::Attribute::NonNull);
    function->addRetAttr(llvm::Attribute::getWithAlignment(
        module.getContext(), llvm::Align(64)));
    function->addFnAttr(llvm::Attribute::NoUnwind);
  }
}

std::unique_ptr<llvm::Module>
translateToCPUModule(ModuleOp module, llvm::LLVMContext &context,
                     llvm::TargetMachine &target, llvm::StringRef deviceCPU,
                     bool keepDebugInfo, unsigned preferVectorBits) {
  // The NVPTX data layout and triple of the imported module do not apply.
  module->removeAttr(DLTIDialect::kDataLayoutAttrName);
  module->removeAttr(LLVM::LLVMDialect::getTargetTripleAttrName());
  std::unique_ptr<llvm::Module> result =
      translateModuleToLLVMIR(module, context, "respec-device");
  if (!result)
    return nullptr;
  result->setTargetTriple(target.getTargetTriple());
  result->setDataLayout(target.createDataLayout());
  if (!keepDebugInfo)
    llvm::StripDebugInfo(*result);
  setDeviceTarget(*result, deviceCPU, preferVectorBits);
  describeRuntimeAllocators(*result);
  return result;
}

} // namespace respec
