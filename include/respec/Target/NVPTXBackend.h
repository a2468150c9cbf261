//===- NVPTXBackend.h - Device code for NVIDIA GPUs -------------*- C++ -*-===//
//
// The NVIDIA back end: the parallel IR's grid loops become NVVM kernels,
// which LLVM's NVPTX code generator turns into PTX for one `sm_XX`; the
// CUDA toolkit's ptxas assembles that into a cubin and reports registers,
// spills and shared memory per kernel.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_TARGET_NVPTXBACKEND_H
#define RESPEC_TARGET_NVPTXBACKEND_H

#include "respec/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/Module.h"

#include <map>
#include <memory>
#include <vector>
#include <string>

namespace respec {

/// Lowers a raised module to NVVM kernels (coarsened as asked, in several
/// versions if `tuning` has candidates). With `hostLaunches` the launch
/// functions stay, as host code launching the kernels (see
/// splitHostLaunches).
mlir::LogicalResult
runNVPTXLoweringPipeline(mlir::ModuleOp module,
                         const mlir::respec::CoarsenOptions &coarsening,
                         const mlir::respec::TuningOptions &tuning = {},
                         bool hostLaunches = false);

/// Moves the host launch functions of a module lowered with `hostLaunches`
/// into a new module, with the declarations and constants they use and the
/// kernel and variable table (abi.h's respec_module); `module` keeps the
/// GPU kernels and device variables. Returns null after an error.
mlir::OwningOpRef<mlir::ModuleOp> splitHostLaunches(mlir::ModuleOp module);

/// A kernel version: its PTX entries (the version and its epilogues).
struct KernelVersion {
  std::string kernel;      ///< the CUDA kernel
  std::string description; ///< block=B,thread=T
  std::vector<std::string> entries;
  int64_t sharedBytes = 0; ///< known at compile time (max over entries)
};

/// The versions of the NVVM kernels of `module` (after lowering), in order.
std::vector<KernelVersion> collectKernelVersions(mlir::ModuleOp module);

/// Per-kernel resources from ptxas -v.
struct KernelResources {
  int64_t registers = 0;
  int64_t spillStores = 0;
  int64_t spillLoads = 0;
  int64_t sharedBytes = 0;
};
std::map<std::string, KernelResources> parsePtxasReport(llvm::StringRef text);

/// The verdict on one version.
struct VersionVerdict {
  KernelVersion version;
  KernelResources resources; ///< worst over its entries
  int64_t threads = 0; ///< threads per block assumed for the occupancy
  double occupancy = 0;
  bool kept = true;
  std::string reason; ///< why it was pruned
};

/// Prunes versions against the device limits `limits` (sharedPerBlock) and
/// against the kernel's uncoarsened version (block=1,thread=1, else its
/// first): more shared memory than a block may have, new spills, or
/// registers that lower the occupancy reachable with `blockThreads`-thread
/// blocks (divided by the thread coarsening). `occupancyOf(threads, regs,
/// smem)` computes occupancy for the device.
std::vector<VersionVerdict> pruneKernelVersions(
    const std::vector<KernelVersion> &versions,
    const std::map<std::string, KernelResources> &resources,
    int64_t sharedPerBlock, int64_t blockThreads,
    llvm::function_ref<double(int64_t, int64_t, int64_t)> occupancyOf);

/// The PTX ISA version clang compiled `module`'s device code for, as the
/// target feature it set ("+ptx88"); empty when no function says.
std::string ptxVersionFeature(const llvm::Module &module);

/// Translates the NVVM kernels to NVPTX LLVM IR, links the toolkit's
/// libdevice (for the math functions) and optimizes it for `gpuArch`.
/// Returns null after printing why.
std::unique_ptr<llvm::Module>
translateToNVPTXModule(mlir::ModuleOp module, llvm::LLVMContext &context,
                       llvm::StringRef gpuArch, llvm::StringRef cudaPath);

/// Moves each warp shuffle of the optimized NVPTX IR down its block to just
/// before its first use (SinkWarpShuffles.cpp): LLVM's pipeline can leave
/// them all ahead of their uses, and ptxas then keeps every result live.
void sinkWarpShufflesToUses(llvm::Module &module);

/// Whether `module` has warp shuffles (llvm.nvvm.shfl.sync.*).
bool containsWarpShuffles(const llvm::Module &module);

/// Generates PTX for `gpuArch` (sm_XX). Returns false after printing why.
bool emitPTX(llvm::Module &module, llvm::StringRef gpuArch,
             std::string &ptx);

/// True if `gpuArch` names an NVIDIA architecture LLVM can generate code
/// for (sm_XX, sm_XXa).
bool isKnownGPUArch(llvm::StringRef gpuArch);

} // namespace respec

#endif // RESPEC_TARGET_NVPTXBACKEND_H
