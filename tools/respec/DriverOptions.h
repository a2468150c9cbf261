//===- DriverOptions.h - nvcc-compatible command line ----------*- C++ -*-===//

#ifndef RESPEC_TOOLS_DRIVEROPTIONS_H
#define RESPEC_TOOLS_DRIVEROPTIONS_H

#include "respec/Frontend/CudaFrontend.h"
#include "respec/Transforms/Passes.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace respec {

/// What the driver stops at and writes.
enum class EmitKind {
  Executable,   ///< default: compile and link
  Object,       ///< -c
  DeviceLLVM,   ///< --emit=llvm: device LLVM IR as clang produced it
  DeviceMLIR,   ///< --emit=mlir: device code imported into MLIR
  ParallelIR,   ///< --emit=parallel-ir: after raising
  PTX,          ///< --emit=ptx: PTX of the kernels (--target=nvptx)
  Cubin,        ///< --emit=cubin: PTX assembled by ptxas (--target=nvptx)
  Dependencies, ///< -M, -MM: only the Make dependencies of the sources
};

/// What device code is compiled for.
enum class TargetKind {
  CPU,   ///< --target=cpu (default): this machine's cores
  NVPTX, ///< --target=nvptx: NVIDIA GPUs
};

/// nvcc's (and gcc's) dependency-file options: a Make rule naming the
/// headers a source includes, written while it compiles.
struct DependencyFileOptions {
  bool enabled = false;             ///< -MD or -MMD
  bool systemHeaders = true;        ///< false for -MMD
  std::string file;                 ///< -MF; default: the object's name with .d
  std::vector<std::string> targets; ///< -MT; default: the object file
  bool phonyTargets = false;        ///< -MP: an empty rule per header
};

struct DriverOptions {
  FrontendOptions frontend;
  EmitKind emit = EmitKind::Executable;
  std::vector<std::string> inputs;
  std::string output;
  std::vector<std::string> linkerArgs; ///< -L, -l, -Xlinker, objects' order
  std::vector<std::string> hostCompilerArgs;    ///< -Xcompiler (also linking)
  mlir::respec::CPUPipelineOptions cpuPipeline; ///< --disable-opt
  mlir::respec::CoarsenOptions coarsening;      ///< --coarsen*
  /// --tune: "", "profile", "auto" or "use" (with tuneDatabase).
  std::string tuneMode;
  std::string tuneDatabase;
  /// Versions built by --tune=profile and --tune=auto (--tune-candidates).
  std::vector<std::string> tuneCandidates = {
      "block=1,thread=1", "block=2,thread=1", "block=4,thread=1",
      "block=8,thread=1", "block=1,thread=2", "block=2,thread=2"};
  TargetKind target = TargetKind::CPU;
  std::string gpuArch;        ///< --gpu-arch (or nvcc's -arch=sm_XX)
  bool resourceUsage = false; ///< --resource-usage: ptxas' report
  bool keepIntermediates = false;
  bool verbose = false;
  bool forceCuda = false; ///< -x cu: treat every source as CUDA
  std::string deviceCPU = "native";
  /// Threads code generation of a large translation unit may use
  /// (nvcc's --threads/-t); 0: one per core.
  unsigned codegenThreads = 0;
  /// Threads per vector of respec-vectorize-thread-loops (--thread-lanes);
  /// 0: from the device CPU's vector width.
  unsigned threadLanes = 0;
  /// Vector width in bits of LLVM's vectorizers in device code
  /// (--prefer-vector-width); 0: the device CPU's widest vectors.
  unsigned preferVectorWidth = 0;
  std::string cudaPath;
  bool cudaPathGiven = false;
  bool printVersion = false;
  bool printHelp = false;
  DependencyFileOptions dependencies;
};

/// Parses nvcc-style arguments. Prints an error naming the offending
/// argument and returns nullopt on failure.
std::optional<DriverOptions> parseDriverOptions(int argc, char **argv);

/// True for NVIDIA's CUDA runtime libraries, by `-l` name (`cudart`,
/// `cudart_static`, `cudadevrt`) or file (`.../libcudart.so.13`): respec
/// links its own runtime instead, and linking NVIDIA's as well would make
/// the program call it (which needs an NVIDIA GPU) instead of respec's.
bool isCudaRuntimeLibrary(llvm::StringRef nameOrPath);

void printDriverHelp();

} // namespace respec

#endif
