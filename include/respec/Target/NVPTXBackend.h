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

#include <memory>
#include <string>

namespace respec {

/// Lowers a raised module to NVVM kernels (coarsened as asked).
mlir::LogicalResult
runNVPTXLoweringPipeline(mlir::ModuleOp module,
                         const mlir::respec::CoarsenOptions &coarsening);

/// Translates the NVVM kernels to NVPTX LLVM IR, links the toolkit's
/// libdevice (for the math functions) and optimizes it for `gpuArch`.
/// Returns null after printing why.
std::unique_ptr<llvm::Module>
translateToNVPTXModule(mlir::ModuleOp module, llvm::LLVMContext &context,
                       llvm::StringRef gpuArch, llvm::StringRef cudaPath);

/// Generates PTX for `gpuArch` (sm_XX). Returns false after printing why.
bool emitPTX(llvm::Module &module, llvm::StringRef gpuArch,
             std::string &ptx);

/// True if `gpuArch` names an NVIDIA architecture LLVM can generate code
/// for (sm_XX, sm_XXa).
bool isKnownGPUArch(llvm::StringRef gpuArch);

} // namespace respec

#endif // RESPEC_TARGET_NVPTXBACKEND_H
