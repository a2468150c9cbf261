//===- OpenCLFrontend.h - clang in process for OpenCL C sources -*- C++ -*-===//

#ifndef RESPEC_FRONTEND_OPENCLFRONTEND_H
#define RESPEC_FRONTEND_OPENCLFRONTEND_H

#include "respec/Frontend/CudaFrontend.h"
#include "respec/Support/OpenCLKernel.h"

#include <vector>

namespace respec {

/// Compiles the OpenCL C source `sourcePath` with clang in process, for the
/// same NVPTX flavour of LLVM IR as CUDA device code, and links in the
/// built-in functions it calls from respec's library, found in
/// `supportDir` (share/respec/opencl). Returns null after printing
/// diagnostics.
std::unique_ptr<llvm::Module>
compileOpenCLSource(llvm::LLVMContext &context, const FrontendOptions &options,
                    llvm::StringRef sourcePath, llvm::StringRef supportDir);

/// Prepares a compiled OpenCL C module for raising, as prepareDeviceModule
/// does for CUDA: each `__local` pointer parameter of a kernel becomes an
/// offset into the work-group's dynamic shared memory, the hidden launch
/// parameters are appended and replace the built-ins that read them, and
/// functions are inlined into the kernels. Fills `kernels` with each
/// kernel's signature as the host API sees it. Prints errors at the user's
/// line and returns false on failure.
bool prepareOpenCLModule(llvm::Module &module,
                         std::vector<OpenCLKernelSignature> &kernels);

} // namespace respec

#endif // RESPEC_FRONTEND_OPENCLFRONTEND_H
