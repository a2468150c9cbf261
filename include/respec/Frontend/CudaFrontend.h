//===- CudaFrontend.h - clang in process for CUDA sources -------*- C++ -*-===//

#ifndef RESPEC_FRONTEND_CUDAFRONTEND_H
#define RESPEC_FRONTEND_CUDAFRONTEND_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <memory>
#include <string>
#include <vector>

namespace respec {

/// What the user's command line says about compiling one source file.
struct FrontendOptions {
  std::vector<std::string> includeDirs;
  std::vector<std::string> systemIncludeDirs;  ///< -isystem
  std::vector<std::string> macroDefinitions;   ///< "NAME" or "NAME=VALUE"
  std::vector<std::string> macroUndefinitions; ///< "NAME"
  std::vector<std::string> extraHostArgs;      ///< -Xcompiler arguments
  std::string languageStandard;                ///< e.g. "c++17"; empty: default
  unsigned hostOptLevel = 0;                   ///< -O of the host code
  bool debugInfo = false;                      ///< -g
  /// CUDA toolkit whose headers to use; empty when none is available, in
  /// which case respec's own headers are used.
  std::string cudaToolkitPath;
  /// respec's own CUDA headers (share/respec/cuda/include).
  std::string respecCudaIncludeDir;
  /// GPU architecture clang compiles device code for (the NVPTX flavour of
  /// the device IR; on the CPU it only decides which builtins exist).
  std::string gpuArch = "sm_80";
  /// clang driver options that write a Make dependency file while the host
  /// side compiles (-MD/-MMD, -MF, -MT, -MP); empty: none.
  std::vector<std::string> dependencyArgs;
};

enum class CudaSide { Host, Device };

/// Returns the CUDA toolkit to use: `requested` if given (empty string if
/// that path holds no toolkit), else /usr/local/cuda when it has headers.
std::string findCudaToolkit(llvm::StringRef requested, bool requestedGiven);

/// Compiles `sourcePath` (CUDA) for one side with clang in process and
/// returns its LLVM IR. Device code is optimized as nvcc would (independent
/// of -O) and always carries line tables so diagnostics can name source
/// lines. For the host side `gpuBinaryPath` names the file clang embeds as
/// the fat binary. Diagnostics are printed to stderr; returns null on error.
std::unique_ptr<llvm::Module>
compileCudaSource(llvm::LLVMContext &context, const FrontendOptions &options,
                  llvm::StringRef sourcePath, CudaSide side,
                  llvm::StringRef gpuBinaryPath = "");

/// Runs clang in process on the driver command line `args` (args[0] is the
/// clang executable) for one compile job and returns its LLVM IR, or null
/// after printing clang's diagnostics.
std::unique_ptr<llvm::Module>
compileWithClang(llvm::LLVMContext &context,
                 const std::vector<std::string> &args,
                 bool quietUnknownCudaVersion = false);

/// Appends `-isystem <toolkit>/include/cccl` when the toolkit has that
/// directory: CUDA 13 moved CUB, Thrust and libcu++ (which
/// cooperative_groups.h includes) there, and nvcc adds it by itself.
void appendToolkitLibraryIncludes(llvm::StringRef toolkitPath,
                                  std::vector<std::string> &args);

/// Appends the user's -I, -isystem, -D and -U options to `args`.
void appendPreprocessorArguments(const FrontendOptions &options,
                                 std::vector<std::string> &args);

/// The clang executable respec was built with (for linking and for plain
/// C/C++ inputs).
llvm::StringRef clangExecutable();

} // namespace respec

#endif // RESPEC_FRONTEND_CUDAFRONTEND_H
