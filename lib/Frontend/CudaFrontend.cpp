//===- CudaFrontend.cpp - clang in process for CUDA sources ---------------===//
//
// respec uses clang's own driver to turn a CUDA compile into the cc1
// invocation clang would run (the same header search, the same CUDA
// wrappers), then runs that invocation in process and keeps the LLVM module.
// The device side is compiled for NVPTX without libdevice: the CPU back end
// maps the `__nv_*` calls itself. The host side gets a stand-in fat binary
// so that clang emits its usual kernel registration code, which the driver
// later points at respec's kernel table.
//
//===----------------------------------------------------------------------===//

#include "respec/Frontend/CudaFrontend.h"

#include "clang/Basic/DiagnosticDriver.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Job.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

using namespace llvm;

namespace respec {

StringRef clangExecutable() { return RESPEC_CLANG_EXECUTABLE; }

std::string findCudaToolkit(StringRef requested, bool requestedGiven) {
  auto hasHeaders = [](StringRef root) {
    SmallString<256> header(root);
    sys::path::append(header, "include", "cuda_runtime.h");
    return sys::fs::exists(header);
  };
  if (requestedGiven)
    return hasHeaders(requested) ? requested.str() : std::string();
  return hasHeaders("/usr/local/cuda") ? std::string("/usr/local/cuda")
                                       : std::string();
}

void appendToolkitLibraryIncludes(StringRef toolkitPath,
                                  std::vector<std::string> &args) {
  if (toolkitPath.empty())
    return;
  SmallString<256> cccl(toolkitPath);
  sys::path::append(cccl, "include", "cccl");
  if (!sys::fs::is_directory(cccl))
    return;
  args.push_back("-isystem");
  args.push_back(cccl.str().str());
}

void appendPreprocessorArguments(const FrontendOptions &options,
                                 std::vector<std::string> &args) {
  for (const std::string &dir : options.includeDirs)
    args.push_back("-I" + dir);
  for (const std::string &dir : options.systemIncludeDirs) {
    args.push_back("-isystem");
    args.push_back(dir);
  }
  for (const std::string &macro : options.macroDefinitions)
    args.push_back("-D" + macro);
  for (const std::string &macro : options.macroUndefinitions)
    args.push_back("-U" + macro);
}

/// The clang driver command line for one side of a CUDA compile.
static std::vector<std::string> driverArguments(const FrontendOptions &options,
                                                StringRef sourcePath,
                                                CudaSide side,
                                                StringRef gpuBinaryPath) {
  std::vector<std::string> args = {
      clangExecutable().str(), "-x", "cuda",
      side == CudaSide::Device ? "--cuda-device-only" : "--cuda-host-only",
      "--no-offload-new-driver", "--cuda-gpu-arch=" + options.gpuArch,
      "-nocudalib", "-Wno-unknown-cuda-version",
      // clang cannot read the version of every toolkit (CUDA 13 has no
      // version file it knows); the version only selects the kernel-launch
      // ABI, and respec implements the modern one.
      "-Xclang", "-target-sdk-version=12.8", "-emit-llvm", "-c"};
  if (options.cudaToolkitPath.empty()) {
    args.push_back("-nocudainc");
    args.push_back("-isystem");
    args.push_back(options.respecCudaIncludeDir);
    args.push_back("-include");
    args.push_back("__respec_cuda_prelude.h");
    // Without a toolkit clang cannot infer the PTX version, and the warp
    // intrinsics of its headers require PTX 6.0 or later.
    if (side == CudaSide::Device) {
      args.push_back("-Xclang");
      args.push_back("-target-feature");
      args.push_back("-Xclang");
      args.push_back("+ptx80");
    }
  } else {
    args.push_back("--cuda-path=" + options.cudaToolkitPath);
    // After clang's CUDA wrapper header, which includes the toolkit's.
    for (StringRef header : {"__respec_managed.h", "__respec_device_extras.h",
                             "__respec_legacy_api.h"}) {
      SmallString<256> path(options.respecCudaIncludeDir);
      sys::path::append(path, header);
      args.push_back("-include");
      args.push_back(path.str().str());
    }
  }
  if (side == CudaSide::Device) {
    // nvcc optimizes device code whatever -O says; the CPU back end
    // re-optimizes after lowering. Line tables let diagnostics of later
    // stages name the user's source line.
    args.push_back("-O2");
    // No SLP vectorization yet: short vectors formed for the GPU (two
    // floats of a thread's array) would hide the scalar per-thread code
    // that the CPU back end widens across threads; each back end's own
    // optimization pipeline runs the SLP vectorizer for its target.
    args.push_back("-fno-slp-vectorize");
    // `#pragma unroll` over a loop whose trip count the GPU code does not
    // fix (CUB's radix sort has several) cannot be honoured; nvcc ignores
    // such hints silently, and so does respec.
    args.push_back("-Wno-pass-failed");
    args.push_back("-gline-tables-only");
  } else {
    args.push_back("-O" + std::to_string(options.hostOptLevel));
    if (options.debugInfo)
      args.push_back("-g");
    args.push_back("-Xclang");
    args.push_back("-fcuda-include-gpubinary");
    args.push_back("-Xclang");
    args.push_back(gpuBinaryPath.str());
  }
  if (!options.languageStandard.empty())
    args.push_back("-std=" + options.languageStandard);
  appendPreprocessorArguments(options, args);
  appendToolkitLibraryIncludes(options.cudaToolkitPath, args);
  if (side == CudaSide::Host) {
    args.insert(args.end(), options.extraHostArgs.begin(),
                options.extraHostArgs.end());
    // The host side includes what the device side does (the device-only
    // headers clang adds are its own), so its dependencies are the file's.
    args.insert(args.end(), options.dependencyArgs.begin(),
                options.dependencyArgs.end());
  }
  args.push_back(sourcePath.str());
  return args;
}

/// Asks clang's driver for the cc1 arguments of the compile.
static std::optional<std::vector<std::string>>
buildFrontendInvocation(const std::vector<std::string> &args,
                        clang::DiagnosticsEngine &diags) {
  clang::driver::Driver driver(args[0], sys::getDefaultTargetTriple(), diags,
                               "respec");
  driver.setCheckInputsExist(true);
  std::vector<const char *> argv;
  for (const std::string &arg : args)
    argv.push_back(arg.c_str());
  std::unique_ptr<clang::driver::Compilation> compilation(
      driver.BuildCompilation(argv));
  if (!compilation || diags.hasErrorOccurred())
    return std::nullopt;
  for (const clang::driver::Command &job : compilation->getJobs()) {
    const auto &jobArgs = job.getArguments();
    if (jobArgs.empty() || StringRef(jobArgs.front()) != "-cc1")
      continue;
    return std::vector<std::string>(jobArgs.begin(), jobArgs.end());
  }
  diags.Report(diags.getCustomDiagID(clang::DiagnosticsEngine::Error,
                                     "respec: clang produced no compile job"));
  return std::nullopt;
}

std::unique_ptr<Module> compileWithClang(LLVMContext &context,
                                         const std::vector<std::string> &args,
                                         bool quietUnknownCudaVersion) {
  clang::DiagnosticOptions diagOptions;
  diagOptions.ShowColors = sys::Process::StandardErrHasColors();
  auto *printer = new clang::TextDiagnosticPrinter(errs(), diagOptions);
  clang::DiagnosticsEngine diags(new clang::DiagnosticIDs(), diagOptions,
                                 printer);
  // respec supports the toolkits it finds; clang's warning that a CUDA
  // version is newer than it knows is noise for respec's users.
  if (quietUnknownCudaVersion)
    diags.setSeverityForGroup(clang::diag::Flavor::WarningOrError,
                              "unknown-cuda-version",
                              clang::diag::Severity::Ignored);

  std::optional<std::vector<std::string>> cc1Args =
      buildFrontendInvocation(args, diags);
  if (!cc1Args)
    return nullptr;
  std::vector<const char *> cc1Argv;
  for (size_t i = 1; i < cc1Args->size(); ++i) // skip "-cc1"
    cc1Argv.push_back((*cc1Args)[i].c_str());

  auto invocation = std::make_shared<clang::CompilerInvocation>();
  if (!clang::CompilerInvocation::CreateFromArgs(*invocation, cc1Argv, diags,
                                                 clangExecutable().data()))
    return nullptr;
  // Codegen into memory; the driver decides what to emit.
  invocation->getFrontendOpts().OutputFile = "-";
  invocation->getFrontendOpts().ProgramAction = clang::frontend::EmitLLVMOnly;

  clang::CompilerInstance compiler(invocation);
  compiler.createDiagnostics(printer, /*ShouldOwnClient=*/false);
  clang::EmitLLVMOnlyAction action(&context);
  if (!compiler.ExecuteAction(action))
    return nullptr;
  return action.takeModule();
}

std::unique_ptr<Module> compileCudaSource(LLVMContext &context,
                                          const FrontendOptions &options,
                                          StringRef sourcePath, CudaSide side,
                                          StringRef gpuBinaryPath) {
  return compileWithClang(
      context, driverArguments(options, sourcePath, side, gpuBinaryPath),
      /*quietUnknownCudaVersion=*/true);
}

} // namespace respec
