//===- DriverOptions.cpp - nvcc-compatible command line -------------------===//
//
// Build systems call nvcc with a small, stable set of flags; respec accepts
// the same spellings (both `-o x` and `-ox`, `--opt=v` and `--opt v`), and
// accepts-and-ignores the GPU-specific ones that do not change the meaning
// of a CPU build. Anything else is an error naming the flag, never silently
// dropped.
//
//===----------------------------------------------------------------------===//

#include "DriverOptions.h"

#include "respec/Transforms/Coarsening.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace respec {

namespace {

/// Walks argv, handing out flag values in either spelling.
class ArgumentReader {
public:
  ArgumentReader(int argc, char **argv) : args(argv + 1, argv + argc) {}

  bool done() const { return index >= args.size(); }
  StringRef next() { return args[index++]; }

  /// If `arg` is `flag` followed by `=value`, by `value` glued on (for
  /// single-dash short flags), or by a separate argument, stores the value.
  /// Returns false if `arg` is not this flag; reports a missing value.
  bool value(StringRef arg, StringRef flag, std::string &out, bool &error,
             bool allowGlued = false) {
    if (arg == flag) {
      if (done()) {
        errs() << "respec: error: option '" << flag << "' needs a value\n";
        error = true;
        return true;
      }
      out = next().str();
      return true;
    }
    if (arg.starts_with(flag) && arg.size() > flag.size()) {
      StringRef rest = arg.drop_front(flag.size());
      if (rest.consume_front("=") || allowGlued) {
        out = rest.str();
        return true;
      }
    }
    return false;
  }

private:
  std::vector<StringRef> args;
  size_t index = 0;
};

/// Flags of nvcc that only concern GPU code generation or nvcc's own
/// front end, with no effect on a CPU build. Those that take a value list
/// their value as a separate argument.
bool isIgnoredFlag(StringRef arg) {
  return StringSwitch<bool>(arg)
      .Cases({"-lineinfo", "--generate-line-info", "-use_fast_math",
              "--use_fast_math", "-Wno-deprecated-gpu-targets",
              "--expt-relaxed-constexpr", "--expt-extended-lambda",
              "-extended-lambda", "--extended-lambda", "-m64", "-rdc=false",
              "--relocatable-device-code=false", "-w", "-cudart=static",
              "--cudart=static"},
             true)
      .Default(false);
}

bool isIgnoredFlagWithValue(StringRef arg) {
  return StringSwitch<bool>(arg)
      .Cases({"-ccbin", "--compiler-bindir", "-Xptxas", "-Xnvlink", "-Xcudafe",
              "-code", "--gpu-code", "-maxrregcount", "--maxrregcount",
              "-cudart", "--cudart"},
             true)
      .Default(false);
}

bool isIgnoredPrefix(StringRef arg) {
  return arg.starts_with("-arch=") || arg.starts_with("--gpu-architecture=") ||
         arg.starts_with("-gencode=") || arg.starts_with("--generate-code=") ||
         arg.starts_with("-code=") || arg.starts_with("--gpu-code=") ||
         arg.starts_with("-maxrregcount=") || arg.starts_with("-Xptxas=") ||
         arg.starts_with("-ccbin=") || arg.starts_with("-cudart=") ||
         arg.starts_with("--cudart=") || arg.starts_with("--ptxas-options=") ||
         arg.starts_with("-Xcudafe=");
}

void splitCommaList(StringRef list, std::vector<std::string> &out) {
  SmallVector<StringRef> parts;
  list.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef part : parts)
    out.push_back(part.str());
}

/// The optimizations `--disable-opt=NAME` turns off and `--enable-opt=NAME`
/// turns on.
struct OptionalOptimization {
  StringLiteral name;
  bool mlir::respec::CPUPipelineOptions::*enabled;
};
static const OptionalOptimization kOptionalOptimizations[] = {
    {"barrier-elim", &mlir::respec::CPUPipelineOptions::eliminateBarriers},
    {"barrier-uniform-control",
     &mlir::respec::CPUPipelineOptions::hoistUniformBarrierControl},
    {"barrier-min-cut",
     &mlir::respec::CPUPipelineOptions::minCutAcrossBarriers},
    {"barrier-promotion",
     &mlir::respec::CPUPipelineOptions::promoteAcrossBarriers},
    {"block-index-freeze",
     &mlir::respec::CPUPipelineOptions::freezeBlockIndices},
    {"block-outline", &mlir::respec::CPUPipelineOptions::outlineLargeBlocks},
    {"block-rows", &mlir::respec::CPUPipelineOptions::fuseBlockRows},
    {"block-size-spec", &mlir::respec::CPUPipelineOptions::specializeBlockSize},
    {"bounds-checks", &mlir::respec::CPUPipelineOptions::versionBoundsChecks},
    {"few-block-barriers",
     &mlir::respec::CPUPipelineOptions::parallelizeFewBlockBarrierGrids},
    {"few-block-grids",
     &mlir::respec::CPUPipelineOptions::parallelizeFewBlockGrids},
    {"inline-worksharing",
     &mlir::respec::CPUPipelineOptions::inlineWorksharing},
    {"loop-exits", &mlir::respec::CPUPipelineOptions::simplifyLoopExits},
    {"loop-interchange",
     &mlir::respec::CPUPipelineOptions::interchangeSerialLoops},
    {"parallel-accesses", &mlir::respec::CPUPipelineOptions::parallelAccesses},
    {"row-merge", &mlir::respec::CPUPipelineOptions::mergeFusedRows},
    {"shared-atomics",
     &mlir::respec::CPUPipelineOptions::localizeSharedAtomics},
    {"shared-forwarding",
     &mlir::respec::CPUPipelineOptions::forwardSharedStores},
    {"strided-loops",
     &mlir::respec::CPUPipelineOptions::uniformizeStridedLoops},
    {"structure-all",
     &mlir::respec::CPUPipelineOptions::structureBarrierFreeKernels},
    {"thread-groups", &mlir::respec::CPUPipelineOptions::splitThreadGroups},
    {"thread-index-split",
     &mlir::respec::CPUPipelineOptions::splitThreadIndexSets},
    {"thread-licm", &mlir::respec::CPUPipelineOptions::hoistThreadInvariants},
    {"thread-vectorize",
     &mlir::respec::CPUPipelineOptions::vectorizeThreadLoops},
    {"warp-interleave", &mlir::respec::CPUPipelineOptions::interleaveWarpLanes},
};

/// Applies `--disable-opt=NAME[,NAME...]` (`enable` false) or
/// `--enable-opt=...` (`enable` true); prints an error and returns false for
/// an unknown name.
static bool setOptimizations(StringRef list, bool enable,
                             mlir::respec::CPUPipelineOptions &pipeline) {
  SmallVector<StringRef> names;
  list.split(names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef name : names) {
    bool known = name == "all";
    for (const OptionalOptimization &opt : kOptionalOptimizations) {
      if (name == "all" || name == opt.name) {
        pipeline.*opt.enabled = enable;
        known = true;
      }
    }
    if (!known) {
      errs() << "respec: error: unknown optimization '" << name << "' in "
             << (enable ? "--enable-opt" : "--disable-opt") << " (expected all";
      for (const OptionalOptimization &opt : kOptionalOptimizations)
        errs() << ", " << opt.name;
      errs() << ")\n";
      return false;
    }
  }
  return true;
}

} // namespace

bool isCudaRuntimeLibrary(StringRef nameOrPath) {
  StringRef name = sys::path::filename(nameOrPath);
  if (name.consume_front("lib")) {
    // A file: libcudart.so, libcudart.so.13, libcudart_static.a, ...
    name = name.take_until([](char c) { return c == '.'; });
  }
  return name == "cudart" || name == "cudart_static" || name == "cudadevrt";
}

std::optional<DriverOptions> parseDriverOptions(int argc, char **argv) {
  DriverOptions options;
  ArgumentReader reader(argc, argv);
  bool error = false;
  std::string value;
  bool sawCompileOnly = false;
  std::string nvccArch; // -arch=sm_XX, used by --target=nvptx
  while (!reader.done() && !error) {
    StringRef arg = reader.next();
    if (!arg.starts_with("-") || arg == "-") {
      options.inputs.push_back(arg.str());
      continue;
    }
    // GPU-only flags first: "-lineinfo" must not read as "-l ineinfo".
    if (arg == "--resource-usage" || arg == "-res-usage") {
      options.resourceUsage = true;
    } else if (reader.value(arg, "--gpu-arch", value, error)) {
      options.gpuArch = value;
    } else if (arg.starts_with("-arch=sm_") ||
               arg.starts_with("--gpu-architecture=sm_") ||
               arg.starts_with("--cuda-gpu-arch=sm_") ||
               arg.starts_with("--offload-arch=sm_")) {
      // (The last two are clang's spellings, which CMake uses when it takes
      // respec for clang.)
      // nvcc's spelling selects the GPU for --target=nvptx.
      if (options.gpuArch.empty())
        nvccArch = arg.split('=').second.str();
    } else if (isIgnoredFlag(arg) || isIgnoredPrefix(arg)) {
    } else if (isIgnoredFlagWithValue(arg) || arg == "-arch" ||
               arg == "--gpu-architecture" || arg == "-gencode" ||
               arg == "--generate-code") {
      if (reader.done()) {
        errs() << "respec: error: option '" << arg << "' needs a value\n";
        error = true;
      } else {
        reader.next();
      }
    } else if (arg == "--version" || arg == "-V") {
      options.printVersion = true;
    } else if (arg == "--help" || arg == "-h") {
      options.printHelp = true;
    } else if (arg == "-c" || arg == "--compile") {
      sawCompileOnly = true;
    } else if (reader.value(arg, "-o", options.output, error, true) ||
               reader.value(arg, "--output-file", options.output, error)) {
    } else if (reader.value(arg, "-I", value, error, true) ||
               reader.value(arg, "--include-path", value, error)) {
      splitCommaList(value, options.frontend.includeDirs);
    } else if (reader.value(arg, "-isystem", value, error)) {
      options.frontend.systemIncludeDirs.push_back(value);
    } else if (reader.value(arg, "-D", value, error, true) ||
               reader.value(arg, "--define-macro", value, error)) {
      options.frontend.macroDefinitions.push_back(value);
    } else if (reader.value(arg, "-U", value, error, true) ||
               reader.value(arg, "--undefine-macro", value, error)) {
      options.frontend.macroUndefinitions.push_back(value);
    } else if (arg.starts_with("-O") && arg.size() <= 3) {
      StringRef level = arg.drop_front(2);
      if (level.empty())
        options.frontend.hostOptLevel = 3;
      else if (level.size() == 1 && level[0] >= '0' && level[0] <= '3')
        options.frontend.hostOptLevel = level[0] - '0';
      else if (level == "s" || level == "z")
        options.frontend.hostOptLevel = 2;
      else {
        errs() << "respec: error: invalid optimization level '" << arg << "'\n";
        error = true;
      }
    } else if (arg == "-g" || arg == "--debug" || arg == "-G" ||
               arg == "--device-debug") {
      options.frontend.debugInfo = true;
    } else if (reader.value(arg, "-std", value, error) ||
               reader.value(arg, "--std", value, error)) {
      options.frontend.languageStandard = value;
    } else if (reader.value(arg, "-x", value, error, true) ||
               reader.value(arg, "--x", value, error)) {
      if (value != "cu" && value != "cuda") {
        errs() << "respec: error: unsupported language '-x " << value
               << "' (respec accepts -x cu)\n";
        error = true;
      }
      options.forceCuda = true;
    } else if (reader.value(arg, "-Xcompiler", value, error) ||
               reader.value(arg, "--compiler-options", value, error)) {
      splitCommaList(value, options.hostCompilerArgs);
    } else if (reader.value(arg, "-Xlinker", value, error) ||
               reader.value(arg, "--linker-options", value, error)) {
      std::vector<std::string> parts;
      splitCommaList(value, parts);
      for (const std::string &part : parts)
        options.linkerArgs.push_back("-Wl," + part);
    } else if (reader.value(arg, "-L", value, error, true) ||
               reader.value(arg, "--library-path", value, error)) {
      options.linkerArgs.push_back("-L" + value);
    } else if (reader.value(arg, "-l", value, error, true) ||
               reader.value(arg, "--library", value, error)) {
      if (!isCudaRuntimeLibrary(value))
        options.linkerArgs.push_back("-l" + value);
    } else if (reader.value(arg, "--emit", value, error)) {
      std::optional<EmitKind> kind =
          StringSwitch<std::optional<EmitKind>>(value)
              .Case("llvm", EmitKind::DeviceLLVM)
              .Case("mlir", EmitKind::DeviceMLIR)
              .Case("parallel-ir", EmitKind::ParallelIR)
              .Case("ptx", EmitKind::PTX)
              .Case("cubin", EmitKind::Cubin)
              .Case("obj", EmitKind::Object)
              .Default(std::nullopt);
      if (!kind) {
        errs() << "respec: error: unknown --emit kind '" << value
               << "' (expected llvm, mlir, parallel-ir, ptx, cubin or obj)\n";
        error = true;
      } else {
        options.emit = *kind;
      }
    } else if (reader.value(arg, "--disable-opt", value, error)) {
      error = !setOptimizations(value, /*enable=*/false, options.cpuPipeline);
    } else if (reader.value(arg, "--enable-opt", value, error)) {
      error = !setOptimizations(value, /*enable=*/true, options.cpuPipeline);
    } else if (reader.value(arg, "--coarsen", value, error)) {
      std::string message;
      if (!mlir::respec::parseCoarseningRequest(value, message)) {
        errs() << "respec: error: --coarsen=" << value << ": " << message
               << "\n";
        error = true;
      }
      options.coarsening.factors = value;
    } else if (reader.value(arg, "--coarsen-kernel", value, error)) {
      std::string message;
      if (!mlir::respec::parseKernelCoarsening(value, message)) {
        errs() << "respec: error: --coarsen-kernel=" << value << ": " << message
               << "\n";
        error = true;
      }
      options.coarsening.kernels.push_back(value);
    } else if (reader.value(arg, "--tune", value, error)) {
      StringRef mode(value);
      if (mode == "profile" || mode == "auto") {
        options.tuneMode = value;
      } else if (mode.consume_front("use=") && !mode.empty()) {
        options.tuneMode = "use";
        options.tuneDatabase = mode.str();
      } else {
        errs() << "respec: error: invalid --tune=" << value
               << " (expected profile, auto or use=FILE)\n";
        error = true;
      }
    } else if (reader.value(arg, "--tune-candidates", value, error)) {
      options.tuneCandidates.clear();
      SmallVector<StringRef> parts;
      StringRef(value).split(parts, ';', -1, /*KeepEmpty=*/false);
      for (StringRef part : parts) {
        std::string message;
        if (!mlir::respec::parseCoarseningRequest(part, message)) {
          errs() << "respec: error: --tune-candidates: " << message << "\n";
          error = true;
        }
        options.tuneCandidates.push_back(part.str());
      }
    } else if (reader.value(arg, "--coarsen-thread-map", value, error)) {
      if (value != "strided" && value != "contiguous") {
        errs() << "respec: error: unknown --coarsen-thread-map '" << value
               << "' (expected strided or contiguous)\n";
        error = true;
      }
      options.coarsening.threadMapping = value;
    } else if (arg == "-M" || arg == "--generate-dependencies" ||
               arg == "-MM" || arg == "--generate-nonsystem-dependencies") {
      options.emit = EmitKind::Dependencies;
      options.dependencies.enabled = true;
      options.dependencies.systemHeaders =
          arg == "-M" || arg == "--generate-dependencies";
    } else if (arg == "-MD" || arg == "--generate-dependencies-with-compile") {
      options.dependencies.enabled = true;
      options.dependencies.systemHeaders = true;
    } else if (arg == "-MMD" ||
               arg == "--generate-nonsystem-dependencies-with-compile") {
      options.dependencies.enabled = true;
      options.dependencies.systemHeaders = false;
    } else if (arg == "-MP" || arg == "--generate-dependency-targets") {
      options.dependencies.phonyTargets = true;
    } else if (reader.value(arg, "-MF", value, error) ||
               reader.value(arg, "--dependency-output", value, error)) {
      options.dependencies.file = value;
    } else if (reader.value(arg, "-MT", value, error) ||
               reader.value(arg, "--dependency-target-name", value, error)) {
      options.dependencies.targets.push_back(value);
    } else if (arg == "--keep" || arg == "-keep") {
      options.keepIntermediates = true;
    } else if (arg == "-v" || arg == "--verbose") {
      options.verbose = true;
    } else if (reader.value(arg, "--cuda-path", value, error)) {
      options.cudaPath = value;
      options.cudaPathGiven = true;
    } else if (reader.value(arg, "--cpu", value, error)) {
      options.deviceCPU = value;
    } else if (reader.value(arg, "--warp-lanes", value, error)) {
      unsigned lanes = 0;
      if (StringRef(value).getAsInteger(10, lanes) || lanes == 0 ||
          lanes > 32 || !llvm::isPowerOf2_32(lanes)) {
        errs() << "respec: error: --warp-lanes=" << value
               << " is not a power of two from 1 to 32\n";
        error = true;
      }
      options.cpuPipeline.warpGroupLanes = lanes;
    } else if (reader.value(arg, "--threads", value, error) ||
               reader.value(arg, "-t", value, error)) {
      unsigned threads = 0;
      if (StringRef(value).getAsInteger(10, threads) || threads > 1024) {
        errs() << "respec: error: --threads " << value
               << " is not a number of threads from 0 (one per core) to "
                  "1024\n";
        error = true;
      }
      options.codegenThreads = threads;
    } else if (reader.value(arg, "--thread-lanes", value, error)) {
      unsigned lanes = 0;
      if (StringRef(value).getAsInteger(10, lanes) || lanes < 2 ||
          lanes > 64 || !llvm::isPowerOf2_32(lanes)) {
        errs() << "respec: error: --thread-lanes=" << value
               << " is not a power of two from 2 to 64\n";
        error = true;
      }
      options.threadLanes = lanes;
    } else if (reader.value(arg, "--prefer-vector-width", value, error)) {
      unsigned bits = 0;
      if (StringRef(value).getAsInteger(10, bits) ||
          (bits != 128 && bits != 256 && bits != 512)) {
        errs() << "respec: error: --prefer-vector-width=" << value
               << " is not 128, 256 or 512\n";
        error = true;
      }
      options.preferVectorWidth = bits;
    } else if (reader.value(arg, "--grid-schedule", value, error)) {
      if (value != "auto" && value != "static" && value != "dynamic" &&
          value != "guided") {
        errs() << "respec: error: --grid-schedule=" << value
               << " is not auto, static, dynamic or guided\n";
        error = true;
      }
      options.cpuPipeline.gridSchedule = value;
    } else if (reader.value(arg, "--target", value, error)) {
      if (value == "cpu") {
        options.target = TargetKind::CPU;
      } else if (value == "nvptx") {
        options.target = TargetKind::NVPTX;
      } else if (value == "amdgpu") {
        errs() << "respec: error: --target=amdgpu is not supported yet "
                  "(supported: cpu, nvptx)\n";
        error = true;
      } else {
        errs() << "respec: error: unknown target '" << value
               << "' (expected cpu or nvptx)\n";
        error = true;
      }
    } else if (arg == "-rdc=true" || arg == "--relocatable-device-code=true" ||
               arg == "-dc" || arg == "--device-c") {
      errs() << "respec: error: '" << arg
             << "': separate compilation of device code (relocatable device "
                "code) is not supported yet\n";
      error = true;
    } else if (arg == "-fPIC" || arg == "-fpic" || arg == "-pthread" ||
               arg == "-fopenmp" || arg.starts_with("-W") ||
               arg.starts_with("-march=") || arg.starts_with("-mtune=") ||
               arg.starts_with("-f")) {
      // Common host compiler flags nvcc users pass directly.
      options.hostCompilerArgs.push_back(arg.str());
    } else {
      errs() << "respec: error: unknown option '" << arg
             << "' (see respec --help)\n";
      error = true;
    }
  }
  if (options.gpuArch.empty())
    options.gpuArch = nvccArch.empty() ? "sm_80" : nvccArch;
  if (!error && options.target == TargetKind::CPU &&
      (options.emit == EmitKind::PTX || options.emit == EmitKind::Cubin)) {
    errs() << "respec: error: --emit=ptx and --emit=cubin need "
              "--target=nvptx\n";
    error = true;
  }
  bool gpuKernelsOnly =
      options.emit == EmitKind::PTX || options.emit == EmitKind::Cubin;
  if (!error && options.target == TargetKind::NVPTX && gpuKernelsOnly &&
      !options.tuneMode.empty() && options.tuneMode != "auto") {
    errs() << "respec: error: --tune=" << options.tuneMode << " with --emit="
           << (options.emit == EmitKind::PTX ? "ptx" : "cubin")
           << " has no program to time the versions; build the program "
              "(without --emit) or use --tune=auto, which prunes the "
              "versions with ptxas\n";
    error = true;
  }
  if (error)
    return std::nullopt;
  if (sawCompileOnly && options.emit == EmitKind::Executable)
    options.emit = EmitKind::Object;
  options.frontend.extraHostArgs.insert(options.frontend.extraHostArgs.end(),
                                        options.hostCompilerArgs.begin(),
                                        options.hostCompilerArgs.end());
  return options;
}

void printDriverHelp() {
  outs()
      << R"(OVERVIEW: respec - compile CUDA programs for the CPU (nvcc-compatible)

USAGE: respec [options] <inputs>

Inputs: .cu (CUDA), .cl (OpenCL C kernels), .cpp/.cc/.cxx/.c (host code),
        .o/.a (objects, libraries).

Options:
  -c                      Compile only; write one object per input
  -o <file>               Output file (default a.out, or <input>.o with -c)
  -I<dir>, -D<m>[=v], -U<m>  Include directories and macros
  -O0 .. -O3              Host-code optimization (device code is always optimized)
  -g, -G                  Debug information
  -std=<std>              C++ language standard (e.g. c++17)
  -x cu                   Treat all sources as CUDA
  -Xcompiler <a,b,...>    Arguments for the host compiler (clang)
  -MD, -MMD               Also write a Make dependency file (-MMD: without
                          system headers); -MF <file> names it (default:
                          the object with .d), -MT <target> names the
                          rule's target, -MP adds a phony rule per header
  -Xlinker <a,b,...>      Arguments for the linker
  -L<dir>, -l<lib>        Libraries
  -arch=, -gencode=, -code=, -lineinfo, --use_fast_math, -ccbin ...
                          Accepted and ignored: they select GPU code
  --cuda-path=<dir>       CUDA toolkit whose headers to use; a directory
                          without a toolkit selects respec's own headers
  --cpu=<name>            CPU to compile device code for (default: native)
  --warp-lanes=<N>        Lanes per SIMD group where warps of shuffle
                          kernels run as vector lanes (1, 2, 4, ..., 32;
                          raised to the shuffles' width; default: from the
                          CPU's vector width)
  --threads=<N>, -t <N>   Threads that compile a large source's code at
                          once (0, the default: one per core)
  --thread-lanes=<N>      Threads per vector where thread loops around
                          serial loops run as SIMD lanes (2, 4, ..., 64;
                          default: 16 with AVX-512, else 8)
  --prefer-vector-width=<N>
                          Vector width in bits of LLVM's vectorizers in
                          device code (128, 256, 512; default: the CPU's
                          widest, 512 with AVX-512)
  --grid-schedule=auto|static|dynamic|guided
                          OpenMP schedule of the blocks of each kernel
                          (default auto: dynamic, in runs of blocks, where
                          blocks may do different work, else static)
  --target=cpu|nvptx      Target: this machine's CPU (default) or NVIDIA
                          GPUs (programs, or PTX/cubin with --emit)
  --gpu-arch=sm_XX        NVIDIA GPU for --target=nvptx (default sm_80;
                          nvcc's -arch=sm_XX also selects it)
  --emit=llvm|mlir|parallel-ir
                          Stop after a stage and write the device code
  --emit=ptx|cubin        With --target=nvptx: the kernels as PTX, or
                          assembled by the toolkit's ptxas
  --resource-usage        With --target=nvptx: print ptxas' registers,
                          spills and shared memory per kernel
  --disable-opt=<a,b,...> Turn optional optimizations off (for differential
                          testing): barrier-elim, barrier-uniform-control,
                          barrier-min-cut, barrier-promotion,
                          block-index-freeze, block-outline,
                          block-rows, block-size-spec, bounds-checks,
                          few-block-barriers, few-block-grids,
                          inline-worksharing, loop-exits,
                          loop-interchange, parallel-accesses, row-merge,
                          shared-atomics, shared-forwarding, strided-loops,
                          structure-all, thread-groups, thread-index-split,
                          thread-licm, thread-vectorize,
                          warp-interleave, all
  --enable-opt=<a,b,...>  Turn optimizations back on (all are on by
                          default; the last flag for a name wins)
  --coarsen=block=B,thread=T
                          Coarsen every kernel: each block runs B blocks and
                          each thread T threads; B, T a total spread over
                          the dimensions used, or XxYxZ (e.g. block=4x1x1)
  --coarsen-kernel=NAME:block=B,thread=T
                          Coarsening of one kernel (mangled or plain name;
                          repeatable, overrides --coarsen)
  --coarsen-thread-map=strided|contiguous
                          Threads a coarsened thread runs: t + k*n/T
                          (strided, default) or t*T + k (contiguous)
  --tune=profile          Build every kernel in several coarsened versions
                          and a program that times them on its launches,
                          appending to the tuning database
                          ($RESPEC_TUNING_DB, default ./respec-tuning.db)
  --tune=use=<db>         Keep the fastest version per kernel and launch
                          geometry recorded in <db>
  --tune=auto             Build the versions and let the geometry heuristic
                          choose per launch
  --tune-candidates=<r;r;...>
                          Versions for --tune=profile/auto (coarsening
                          requests, default block=1,2,4,8 and thread=2)
  --keep                  Keep intermediate files next to the output
  -v                      Print the commands respec runs
  --version, --help
)";
}

} // namespace respec
