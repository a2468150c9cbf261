//===- respec.cpp - The nvcc-compatible compiler driver -------------------===//
//
// For each CUDA source: clang compiles the device side to NVPTX-flavoured
// LLVM IR and the host side to host LLVM IR (in process); the device IR goes
// through MLIR (raise to the parallel IR, lower for the CPU) and is linked
// into the host module, which becomes one object file. Other sources are
// compiled by clang as plain host code. Objects are linked with the respec
// runtime (the CUDA runtime API on the CPU) and OpenMP.
//
//===----------------------------------------------------------------------===//

#include "../../runtime/common/DeviceDescriptors.h"
#include "DriverOptions.h"
#include "TuningDatabase.h"

#include "respec/Frontend/AlignmentClaims.h"
#include "respec/Frontend/CudaFrontend.h"
#include "respec/Frontend/DeviceModulePreparation.h"
#include "respec/Frontend/InlinePTX.h"
#include "respec/Frontend/LegacyWarpIntrinsics.h"
#include "respec/Frontend/ManagedVariables.h"
#include "respec/Frontend/OpenCLFrontend.h"
#include "respec/Frontend/SpinWaitCheck.h"
#include "respec/Frontend/TextureReferences.h"
#include "respec/Frontend/WarpMatrixOps.h"
#include "respec/Frontend/WarpSynchronousCode.h"
#include "respec/Target/CPUBackend.h"
#include "respec/Target/NVPTXBackend.h"
#include "respec/Transforms/Attributes.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>

using namespace llvm;
using namespace respec;

namespace {

/// With RESPEC_TIME_PASSES set in the environment, reports on standard
/// error how long a stage of the compilation took (MLIR's passes also
/// report their own times then): where a user's compile time goes.
class StageTimer {
public:
  explicit StageTimer(StringRef stage)
      : stage(stage), start(std::chrono::steady_clock::now()) {}
  ~StageTimer() {
    if (!enabled())
      return;
    std::chrono::duration<double> elapsed =
        std::chrono::steady_clock::now() - start;
    errs() << format("respec: %-34s %9.3f s\n", stage.str().c_str(),
                     elapsed.count());
  }

private:
  static bool enabled() {
    static const bool on = std::getenv("RESPEC_TIME_PASSES") != nullptr;
    return on;
  }

  StringRef stage;
  std::chrono::steady_clock::time_point start;
};

/// Paths of respec's own files, found relative to the executable: the build
/// tree and an installation have the same layout.
struct InstallLayout {
  std::string binDir;
  std::string libDir;
  std::string cudaIncludeDir;
  std::string openclDir;     ///< OpenCL C built-ins and prelude
  std::string apiIncludeDir; ///< respec's own host APIs (respec/opencl.h)
  std::string devicesFile;   ///< device descriptors (devices.txt)

  static InstallLayout fromExecutable(const char *argv0) {
    static int anchor;
    std::string exe = sys::fs::getMainExecutable(argv0, &anchor);
    InstallLayout layout;
    layout.binDir = sys::path::parent_path(exe).str();
    SmallString<256> prefix(sys::path::parent_path(layout.binDir));
    SmallString<256> lib(prefix), include(prefix), opencl(prefix), api(prefix);
    sys::path::append(lib, "lib");
    sys::path::append(include, "share", "respec", "cuda", "include");
    sys::path::append(opencl, "share", "respec", "opencl");
    sys::path::append(api, "share", "respec", "include");
    layout.libDir = lib.str().str();
    layout.cudaIncludeDir = include.str().str();
    layout.openclDir = opencl.str().str();
    layout.apiIncludeDir = api.str().str();
    SmallString<256> devices(prefix);
    sys::path::append(devices, "share", "respec", "devices.txt");
    layout.devicesFile = devices.str().str();
    return layout;
  }
};

enum class InputKind { Cuda, OpenCL, HostSource, Object };

InputKind classifyInput(StringRef path, bool forceCuda) {
  StringRef ext = sys::path::extension(path);
  if (ext == ".cl")
    return InputKind::OpenCL;
  if (ext == ".cu" || (forceCuda && (ext == ".cpp" || ext == ".cc" ||
                                     ext == ".cxx" || ext == ".c")))
    return InputKind::Cuda;
  if (ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".c" ||
      ext == ".C")
    return InputKind::HostSource;
  return InputKind::Object;
}

/// Writes `text` to `path` ("-" or empty: stdout).
bool writeText(StringRef path, function_ref<void(raw_ostream &)> print) {
  std::error_code error;
  ToolOutputFile out(path.empty() ? "-" : path, error, sys::fs::OF_Text);
  if (error) {
    errs() << "respec: error: cannot write '" << path
           << "': " << error.message() << "\n";
    return false;
  }
  print(out.os());
  out.keep();
  return true;
}

class Driver {
public:
  Driver(DriverOptions options, InstallLayout layout)
      : options(std::move(options)), layout(std::move(layout)) {}

  int run();

private:
  bool compileCuda(StringRef source, StringRef objectPath);
  bool writeDependenciesOnly(StringRef source);
  bool compileCudaForGPU(StringRef source, StringRef objectPath);
  bool assembleForGPU(StringRef ptx, std::string &cubin);
  bool compileOpenCL(StringRef source, StringRef objectPath);
  std::unique_ptr<Module>
  lowerForCPU(std::unique_ptr<Module> device, LLVMContext &llvmContext,
              StringRef source, TargetMachine &target,
              ArrayRef<std::string> launchBlockSizes = {});
  bool compileHostSource(StringRef source, StringRef objectPath);
  std::string executablePath() const;
  std::vector<std::string> dependencyFileArguments(StringRef source,
                                                   StringRef target) const;
  bool link(ArrayRef<std::string> objects);
  bool runProgram(ArrayRef<std::string> args);
  bool emitDeviceStage(StringRef source);
  bool configureTuning(mlir::respec::TuningOptions &tuning) const;
  bool compileForNVPTX(StringRef source);
  mlir::OwningOpRef<mlir::ModuleOp>
  lowerForNVPTX(LLVMContext &llvmContext, mlir::MLIRContext &context,
                StringRef source, const mlir::respec::TuningOptions &tuning,
                bool hostLaunches);
  bool runPtxas(StringRef ptxPath, StringRef cubinPath,
                std::string *report = nullptr);
  bool pruneVersions(Module &kernels,
                     const std::vector<KernelVersion> &versions, StringRef ptx);
  std::string intermediatePath(StringRef source, StringRef suffix) const;
  std::string temporaryPath(StringRef stem, StringRef suffix);
  std::string standInFatBinary();
  std::unique_ptr<Module>
  compileDevice(LLVMContext &context, StringRef source,
                std::vector<OpenCLKernelSignature> *openCLKernels = nullptr);

  DriverOptions options;
  InstallLayout layout;
  std::vector<std::string> temporaries;
  std::string fatBinaryPath;
};

std::string Driver::temporaryPath(StringRef stem, StringRef suffix) {
  SmallString<256> path;
  if (sys::fs::createTemporaryFile(stem, suffix, path)) {
    errs() << "respec: error: cannot create a temporary file\n";
    return "";
  }
  temporaries.push_back(path.str().str());
  return path.str().str();
}

/// Intermediate files kept by --keep go beside the output (or the current
/// directory) as <source stem>.<suffix>.
std::string Driver::intermediatePath(StringRef source, StringRef suffix) const {
  SmallString<256> path;
  if (!options.output.empty())
    path = sys::path::parent_path(options.output);
  sys::path::append(path, sys::path::stem(source) + "." + suffix);
  return path.str().str();
}

/// clang registers kernels only when it embeds a GPU binary. respec embeds
/// this stand-in and then points clang's wrapper at its own kernel table.
std::string Driver::standInFatBinary() {
  if (!fatBinaryPath.empty())
    return fatBinaryPath;
  fatBinaryPath = temporaryPath("respec-fatbin", "bin");
  if (fatBinaryPath.empty())
    return "";
  writeText(fatBinaryPath, [](raw_ostream &os) { os << "RESPEC\n"; });
  return fatBinaryPath;
}

/// The device code of a CUDA source, or the kernels of an OpenCL C source
/// (whose signatures go to `openCLKernels`), prepared for raising.
std::unique_ptr<Module>
Driver::compileDevice(LLVMContext &context, StringRef source,
                      std::vector<OpenCLKernelSignature> *openCLKernels) {
  std::unique_ptr<Module> device;
  if (classifyInput(source, options.forceCuda) == InputKind::OpenCL) {
    std::vector<OpenCLKernelSignature> kernels;
    device = compileOpenCLSource(context, options.frontend, source,
                                 layout.openclDir);
    if (!device || !prepareOpenCLModule(*device, kernels))
      return nullptr;
    if (openCLKernels)
      *openCLKernels = std::move(kernels);
  } else {
    device =
        compileCudaSource(context, options.frontend, source, CudaSide::Device);
    if (!device)
      return nullptr;
    // The CPU back end merges managed variables with their host shadows when
    // it links the two sides (linkDeviceIntoHost); a GPU would need them in
    // managed memory, which respec does not allocate yet.
    std::vector<ManagedVariable> managed = takeManagedVariables(*device);
    if (options.target != TargetKind::CPU &&
        reportUnsupportedManagedVariables(managed, "--target=nvptx"))
      return nullptr;
    lowerTextureReferences(*device);
    upgradeUnsynchronizedWarpIntrinsics(*device,
                                        options.target != TargetKind::CPU);
    // PTX is native to the NVPTX target; for the CPU, CUDA's headers' asm
    // (half precision, cache hints, shuffles, ...) becomes LLVM IR.
    if (options.target == TargetKind::CPU) {
      translateInlinePTX(*device);
      lowerWarpMatrixOps(*device);
    }
    if (!prepareDeviceModule(*device))
      return nullptr;
    if (options.target != TargetKind::CPU &&
        reportWideIntegerFloatConversions(*device))
      return nullptr;
    if (options.target != TargetKind::CPU)
      dropComdats(*device);
    // A GPU runs a block's threads concurrently; only the CPU target runs
    // them one after the other.
    if (options.target == TargetKind::CPU) {
      warnAboutSharedMemorySpinWaits(*device);
      synchronizeWarpSynchronousCode(*device);
    }
  }
  // A GPU checks only the alignment each access needs; the CPU back end
  // would trust the rest of what clang states (CUB relies on this).
  if (options.target == TargetKind::CPU)
    limitAlignmentToCheckedAccesses(*device);
  if (options.keepIntermediates)
    writeText(intermediatePath(source, "device.ll"),
              [&](raw_ostream &os) { device->print(os, nullptr); });
  return device;
}

bool Driver::emitDeviceStage(StringRef source) {
  LLVMContext llvmContext;
  std::unique_ptr<Module> device = compileDevice(llvmContext, source);
  if (!device)
    return false;
  if (options.emit == EmitKind::DeviceLLVM)
    return writeText(options.output,
                     [&](raw_ostream &os) { device->print(os, nullptr); });
  mlir::MLIRContext context;
  prepareMLIRContext(context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      importDeviceModule(std::move(device), context);
  if (!module)
    return false;
  if (options.emit == EmitKind::ParallelIR && failed(runRaisePipeline(*module)))
    return false;
  // The parallel IR as the target will see it (coarsened, if asked).
  if (options.emit == EmitKind::ParallelIR && !options.coarsening.empty()) {
    mlir::PassManager pm(&context);
    mlir::respec::addCoarsenPass(pm, options.coarsening);
    if (failed(pm.run(*module)))
      return false;
  }
  return writeText(options.output, [&](raw_ostream &os) { module->print(os); });
}

/// Raises `device` to the parallel IR, lowers it for the CPU and returns
/// it translated and optimized for `target`.
std::unique_ptr<Module>
Driver::lowerForCPU(std::unique_ptr<Module> device, LLVMContext &llvmContext,
                    StringRef source, TargetMachine &target,
                    ArrayRef<std::string> launchBlockSizes) {
  mlir::MLIRContext context;
  prepareMLIRContext(context);
  std::optional<StageTimer> timer;
  timer.emplace("device import and raising (MLIR)");
  mlir::OwningOpRef<mlir::ModuleOp> module =
      importDeviceModule(std::move(device), context);
  if (!module || failed(runRaisePipeline(*module)))
    return nullptr;
  timer.reset();
  if (options.keepIntermediates)
    writeText(intermediatePath(source, "parallel.mlir"),
              [&](raw_ostream &os) { module->print(os); });
  mlir::respec::CPUPipelineOptions pipeline = options.cpuPipeline;
  pipeline.coarsening = options.coarsening;
  pipeline.launchBlockSizes = launchBlockSizes;
  pipeline.vectorBits = getDeviceVectorBits(target, options.deviceCPU);
  pipeline.threadVectorLanes = options.threadLanes
                                   ? options.threadLanes
                                   : getThreadVectorLanes(pipeline.vectorBits);
  if (!configureTuning(pipeline.tuning))
    return nullptr;
  auto keepParallelStage = [&](mlir::ModuleOp lowered) {
    writeText(intermediatePath(source, "cpu.mlir"),
              [&](raw_ostream &os) { lowered->print(os); });
  };
  timer.emplace("device lowering for the CPU (MLIR)");
  if (failed(runCPULoweringPipeline(
          *module, pipeline,
          options.keepIntermediates
              ? llvm::function_ref<void(mlir::ModuleOp)>(keepParallelStage)
              : nullptr)))
    return nullptr;
  std::unique_ptr<Module> deviceCode =
      translateToCPUModule(*module, llvmContext, target, options.deviceCPU,
                           options.frontend.debugInfo,
                           options.preferVectorWidth ? options.preferVectorWidth
                                                     : pipeline.vectorBits);
  if (!deviceCode)
    return nullptr;
  if (options.keepIntermediates)
    writeText(intermediatePath(source, "cpu-unoptimized.ll"),
              [&](raw_ostream &os) { deviceCode->print(os, nullptr); });
  timer.reset();
  // Device code belongs to its translation unit (no -rdc): with every
  // symbol but the kernel table internal, LLVM inlines device functions
  // into their only callers and drops those the kernels no longer call,
  // instead of optimizing and compiling each of them for nothing.
  internalizeDeviceSymbols(*deviceCode, mlir::respec::kModuleTableName);
  // Device code is optimized like nvcc's, whatever -O says about the host.
  StageTimer optimization("device optimization (LLVM)");
  optimizeModule(*deviceCode, target, 3);
  return deviceCode;
}

/// The kernel versions --tune asks for.
bool Driver::configureTuning(mlir::respec::TuningOptions &tuning) const {
  // Records of the target's devices only: a CPU's timings say nothing
  // about a GPU's best version, and the other way round.
  if (options.tuneMode == "use")
    return applyTuningDatabase(
        options.tuneDatabase,
        options.target == TargetKind::NVPTX ? "gpu:" : "cpu:", tuning);
  if (!options.tuneMode.empty()) {
    tuning.candidates = options.tuneCandidates;
    tuning.profile = options.tuneMode == "profile";
  }
  return true;
}

/// The target machine device and host code are compiled for, or null after
/// an error (an unknown --cpu).
static std::unique_ptr<TargetMachine>
createTarget(const DriverOptions &options) {
  std::unique_ptr<TargetMachine> target =
      createHostTargetMachine(std::max(options.frontend.hostOptLevel, 2u));
  if (!target)
    return nullptr;
  if (options.deviceCPU != "native" &&
      !target->getMCSubtargetInfo()->isCPUStringValid(options.deviceCPU)) {
    errs() << "respec: error: unknown CPU '" << options.deviceCPU
           << "' in --cpu\n";
    return nullptr;
  }
  return target;
}

/// Runs the toolkit's ptxas on `ptxPath` for the chosen GPU; with
/// --resource-usage its per-kernel report (registers, spills, shared
/// memory) goes to stderr.
bool Driver::runPtxas(StringRef ptxPath, StringRef cubinPath,
                      std::string *report) {
  std::string ptxas = options.frontend.cudaToolkitPath + "/bin/ptxas";
  if (options.frontend.cudaToolkitPath.empty() || !sys::fs::exists(ptxas)) {
    errs() << "respec: error: --emit=cubin, --resource-usage and "
              "--tune=auto for --target=nvptx need ptxas from a CUDA toolkit "
              "(none found; use --cuda-path)\n";
    return false;
  }
  std::vector<std::string> args = {ptxas, "-arch=" + options.gpuArch,
                                   ptxPath.str(), "-o", cubinPath.str()};
  if (options.resourceUsage || report)
    args.push_back("-v");
  if (!report)
    return runProgram(args);
  // Keep ptxas' report to read it.
  std::string log = temporaryPath("respec-ptxas", "txt");
  SmallVector<StringRef> argv(args.begin(), args.end());
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  std::string message;
  int status = sys::ExecuteAndWait(args[0], argv, std::nullopt, redirects, 0, 0,
                                   &message);
  ErrorOr<std::unique_ptr<MemoryBuffer>> text = MemoryBuffer::getFile(log);
  if (text)
    *report = (*text)->getBuffer().str();
  if (status != 0) {
    errs() << "respec: error: ptxas failed" << (message.empty() ? "" : ": ")
           << message << "\n"
           << *report;
    return false;
  }
  return true;
}

/// Drops the kernel versions ptxas shows to be bad for the chosen GPU
/// (PruneAlternatives.cpp) from `kernels`; with --resource-usage, prints
/// the verdict on every version.
bool Driver::pruneVersions(Module &kernels,
                           const std::vector<KernelVersion> &versions,
                           StringRef ptx) {
  std::string ptxPath = temporaryPath("respec-versions", "ptx");
  std::string cubin = temporaryPath("respec-versions", "cubin");
  std::string report;
  if (ptxPath.empty() || cubin.empty() ||
      !writeText(ptxPath, [&](raw_ostream &os) { os << ptx; }) ||
      !runPtxas(ptxPath, cubin, &report))
    return false;
  std::vector<tuning::DeviceDescriptor> devices;
  std::string error;
  if (!tuning::loadDeviceDescriptors(layout.devicesFile, devices, error)) {
    errs() << "respec: error: " << error << "\n";
    return false;
  }
  const tuning::DeviceDescriptor *device =
      tuning::findDevice(devices, options.gpuArch);
  if (!device) {
    errs() << "respec: error: no device descriptor for " << options.gpuArch
           << " in " << layout.devicesFile
           << "; cannot prune kernel versions\n";
    return false;
  }
  // Blocks of 256 threads stand for the (unknown) launch geometry.
  constexpr int64_t kNominalBlockThreads = 256;
  std::vector<VersionVerdict> verdicts = pruneKernelVersions(
      versions, parsePtxasReport(report), device->sharedPerBlock,
      kNominalBlockThreads, [&](int64_t threads, int64_t regs, int64_t smem) {
        return tuning::occupancy(*device, threads, regs, smem);
      });
  if (options.resourceUsage)
    errs() << "respec: kernel versions for " << options.gpuArch << " ("
           << device->name << "), occupancy with 256-thread blocks:\n";
  for (const VersionVerdict &verdict : verdicts) {
    if (options.resourceUsage)
      errs() << "  " << verdict.version.kernel << " "
             << verdict.version.description << ": "
             << verdict.resources.registers << " registers, "
             << verdict.resources.spillStores + verdict.resources.spillLoads
             << " bytes spilled, " << verdict.resources.sharedBytes
             << " bytes shared, occupancy " << format("%.2f", verdict.occupancy)
             << ": "
             << (verdict.kept ? "kept" : "pruned (" + verdict.reason + ")")
             << "\n";
    if (verdict.kept)
      continue;
    for (const std::string &entry : verdict.version.entries)
      if (Function *function = kernels.getFunction(entry))
        function->eraseFromParent();
  }
  return true;
}

/// --target=nvptx: the kernels of `source` as PTX (or a cubin).
/// The device code of `source` raised and lowered to NVVM kernels (with
/// the host launch functions kept if `hostLaunches`), or null after an
/// error.
mlir::OwningOpRef<mlir::ModuleOp> Driver::lowerForNVPTX(
    LLVMContext &llvmContext, mlir::MLIRContext &context, StringRef source,
    const mlir::respec::TuningOptions &tuning, bool hostLaunches) {
  if (!isKnownGPUArch(options.gpuArch)) {
    errs() << "respec: error: unknown NVIDIA GPU architecture '"
           << options.gpuArch << "' (expected sm_XX, e.g. sm_80 or sm_90)\n";
    return nullptr;
  }
  std::unique_ptr<Module> device = compileDevice(llvmContext, source);
  if (!device)
    return nullptr;
  std::string ptxVersion = ptxVersionFeature(*device);
  prepareMLIRContext(context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      importDeviceModule(std::move(device), context);
  if (module && !ptxVersion.empty())
    (*module)->setAttr(mlir::respec::kPTXVersionAttr,
                       mlir::StringAttr::get(&context, ptxVersion));
  if (!module || failed(runRaisePipeline(*module)) ||
      failed(runNVPTXLoweringPipeline(*module, options.coarsening, tuning,
                                      hostLaunches)))
    return nullptr;
  return module;
}

bool Driver::compileForNVPTX(StringRef source) {
  LLVMContext llvmContext;
  mlir::MLIRContext context;
  mlir::respec::TuningOptions tuning;
  if (options.tuneMode == "auto")
    tuning.candidates = options.tuneCandidates;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      lowerForNVPTX(llvmContext, context, source, tuning,
                    /*hostLaunches=*/false);
  if (!module)
    return false;
  std::vector<KernelVersion> versions = collectKernelVersions(*module);
  std::unique_ptr<Module> kernels = translateToNVPTXModule(
      *module, llvmContext, options.gpuArch, options.frontend.cudaToolkitPath);
  std::string ptx;
  if (!kernels || !emitPTX(*kernels, options.gpuArch, ptx))
    return false;
  if (!versions.empty()) {
    if (!pruneVersions(*kernels, versions, ptx))
      return false;
    ptx.clear();
    if (!emitPTX(*kernels, options.gpuArch, ptx))
      return false;
  }
  bool cubin = options.emit == EmitKind::Cubin;
  std::string output = options.output;
  if (output.empty())
    output = (sys::path::stem(source) + (cubin ? ".cubin" : ".ptx")).str();
  std::string ptxPath = cubin ? temporaryPath("respec-kernels", "ptx") : output;
  if (ptxPath.empty() ||
      !writeText(ptxPath, [&](raw_ostream &os) { os << ptx; }))
    return false;
  if (cubin)
    return runPtxas(ptxPath, output);
  if (options.resourceUsage) {
    std::string scratch = temporaryPath("respec-kernels", "cubin");
    return !scratch.empty() && runPtxas(ptxPath, scratch);
  }
  return true;
}

/// -M / -MM: the Make rule of `source` (target `<stem>.o` unless -MT says
/// otherwise), found by preprocessing it as the compile would, written to
/// -MF or -o, else to standard output; nothing is compiled.
bool Driver::writeDependenciesOnly(StringRef source) {
  if (!sys::fs::exists(source)) {
    errs() << "respec: error: no such file: '" << source << "'\n";
    return false;
  }
  InputKind kind = classifyInput(source, options.forceCuda);
  if (kind == InputKind::Object)
    return true;
  if (kind == InputKind::OpenCL) {
    errs() << "respec: error: -M and -MM are not supported for OpenCL C "
              "sources ('"
           << source << "')\n";
    return false;
  }
  std::string file = !options.dependencies.file.empty()
                         ? options.dependencies.file
                         : options.output;
  bool toStdout = file.empty() || file == "-";
  if (toStdout)
    file = temporaryPath("respec-deps", "d");
  if (file.empty())
    return false;
  DependencyFileOptions deps = options.dependencies;
  deps.file = file;
  if (deps.targets.empty())
    deps.targets.push_back((sys::path::stem(source) + ".o").str());
  std::vector<std::string> args = {deps.systemHeaders ? "-MD" : "-MMD", "-MF",
                                   file};
  for (const std::string &target : deps.targets)
    args.insert(args.end(), {"-MT", target});
  if (deps.phonyTargets)
    args.push_back("-MP");
  options.frontend.dependencyArgs = args;
  bool ok;
  if (kind == InputKind::Cuda) {
    // The host side sees every header the file includes (see
    // buildCompileArgs); its code is not needed.
    LLVMContext context;
    std::string fatbin = standInFatBinary();
    ok = !fatbin.empty() && compileCudaSource(context, options.frontend, source,
                                              CudaSide::Host, fatbin);
  } else {
    std::string scratch = temporaryPath("respec-deps", "o");
    ok = !scratch.empty() && compileHostSource(source, scratch);
  }
  if (!ok)
    return false;
  if (toStdout) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> rule = MemoryBuffer::getFile(file);
    if (!rule) {
      errs() << "respec: error: cannot read the dependency file '" << file
             << "'\n";
      return false;
    }
    outs() << (*rule)->getBuffer();
  }
  return true;
}

/// The cubin of `ptx` for the chosen GPU, assembled by the toolkit's ptxas,
/// which also checks the PTX now rather than when the program loads it
/// (with --resource-usage it reports each kernel's resources). Without
/// ptxas `cubin` stays empty: the program carries only the PTX, which the
/// driver compiles when it loads it.
bool Driver::assembleForGPU(StringRef ptx, std::string &cubin) {
  std::string ptxas = options.frontend.cudaToolkitPath + "/bin/ptxas";
  if (options.frontend.cudaToolkitPath.empty() || !sys::fs::exists(ptxas)) {
    if (options.resourceUsage) {
      errs() << "respec: error: --resource-usage for --target=nvptx needs "
                "ptxas from a CUDA toolkit (none found; use --cuda-path)\n";
      return false;
    }
    return true;
  }
  std::string ptxPath = temporaryPath("respec-kernels", "ptx");
  std::string cubinPath = temporaryPath("respec-kernels", "cubin");
  if (ptxPath.empty() || cubinPath.empty() ||
      !writeText(ptxPath, [&](raw_ostream &os) { os << ptx; }) ||
      !runPtxas(ptxPath, cubinPath))
    return false;
  ErrorOr<std::unique_ptr<MemoryBuffer>> image =
      MemoryBuffer::getFile(cubinPath, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!image) {
    errs() << "respec: error: cannot read ptxas' output '" << cubinPath
           << "'\n";
    return false;
  }
  cubin = (*image)->getBuffer().str();
  return true;
}

/// --target=nvptx without --emit: an object whose host code launches the
/// kernels, compiled to PTX and embedded, through the runtime's CUDA driver
/// back end (librespec_cudart_gpu.a).
bool Driver::compileCudaForGPU(StringRef source, StringRef objectPath) {
  mlir::respec::TuningOptions tuning;
  if (!configureTuning(tuning))
    return false;
  LLVMContext llvmContext;
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = lowerForNVPTX(
      llvmContext, context, source, tuning, /*hostLaunches=*/true);
  std::unique_ptr<TargetMachine> target =
      module ? createTarget(options) : nullptr;
  std::string fatbin = target ? standInFatBinary() : "";
  if (fatbin.empty())
    return false;
  std::unique_ptr<Module> host = compileCudaSource(
      llvmContext, options.frontend, source, CudaSide::Host, fatbin);
  if (!host)
    return false;
  mlir::OwningOpRef<mlir::ModuleOp> launches = splitHostLaunches(*module);
  if (!launches)
    return false;
  std::unique_ptr<Module> kernels = translateToNVPTXModule(
      *module, llvmContext, options.gpuArch, options.frontend.cudaToolkitPath);
  std::string ptx;
  if (!kernels || !emitPTX(*kernels, options.gpuArch, ptx))
    return false;
  if (options.keepIntermediates)
    writeText(intermediatePath(source, "ptx"),
              [&](raw_ostream &os) { os << ptx; });
  std::string cubin;
  if (!assembleForGPU(ptx, cubin))
    return false;
  std::unique_ptr<Module> launchCode =
      translateToCPUModule(*launches, llvmContext, *target, options.deviceCPU,
                           options.frontend.debugInfo);
  if (!launchCode || !linkGPULaunchesIntoHost(*host, std::move(launchCode), ptx,
                                              cubin, options.gpuArch))
    return false;
  optimizeModule(*host, *target, options.frontend.hostOptLevel);
  return emitObjectFile(*host, *target, objectPath);
}

/// LLVM's linker, next to clang: joins the objects of a module whose code
/// was generated in parts (emitObjectFileInParallel).
static std::string partialLinker() {
  SmallString<256> path(sys::path::parent_path(clangExecutable()));
  sys::path::append(path, "ld.lld");
  return path.str().str();
}

/// A suffix for the symbols of `source`'s object `objectPath` that were
/// local to its module, the same in every compilation of that source to
/// that object and different for every other source or object.
static std::string uniqueSymbolSuffix(StringRef source, StringRef objectPath) {
  SmallString<256> absolute(source);
  sys::fs::make_absolute(absolute);
  MD5 hash;
  hash.update(absolute);
  hash.update(StringRef("\0", 1));
  hash.update(objectPath);
  MD5::MD5Result result = hash.final();
  return ".respec." + toHex(ArrayRef(result.data(), 6), /*LowerCase=*/true);
}

bool Driver::compileCuda(StringRef source, StringRef objectPath) {
  if (options.target == TargetKind::NVPTX)
    return compileCudaForGPU(source, objectPath);
  LLVMContext llvmContext;
  std::unique_ptr<TargetMachine> target = createTarget(options);
  if (!target)
    return false;
  // The host side first: the block sizes it launches kernels with shape
  // the device code.
  std::string fatbin = standInFatBinary();
  if (fatbin.empty())
    return false;
  std::unique_ptr<Module> host;
  {
    StageTimer timer("host front end (clang)");
    host = compileCudaSource(llvmContext, options.frontend, source,
                             CudaSide::Host, fatbin);
  }
  if (!host)
    return false;
  std::vector<std::string> blockSizes;
  if (options.cpuPipeline.specializeBlockSize)
    blockSizes = findLaunchBlockSizes(*host, *target);
  if (options.verbose) {
    // As clang -v shows its device compilation (CMake reads the GPU
    // architecture from `-target-cpu` when it identifies respec as clang).
    errs() << "respec: device compilation: -triple nvptx64-nvidia-cuda "
              "-target-cpu "
           << options.gpuArch << ", lowered for the CPU\n";
    for (const std::string &entry : blockSizes)
      errs() << "respec: launch block size " << entry << "\n";
  }

  // Host and device code are optimized apart, each at its own level, and
  // then linked: optimizing the linked module would run the host's
  // pipeline over the optimized device code again, which took a sixth of
  // the compile time of CUB-heavy sources.
  std::vector<ManagedVariable> managed = takeManagedVariables(*host);
  {
    StageTimer timer("host optimization (LLVM)");
    optimizeModule(*host, *target, options.frontend.hostOptLevel);
  }
  std::unique_ptr<Module> device;
  {
    StageTimer timer("device front end (clang)");
    device = compileDevice(llvmContext, source);
  }
  if (!device)
    return false;
  std::unique_ptr<Module> deviceCode =
      lowerForCPU(std::move(device), llvmContext, source, *target, blockSizes);
  if (!deviceCode || !linkDeviceIntoHost(*host, std::move(deviceCode), managed))
    return false;
  if (options.keepIntermediates)
    writeText(intermediatePath(source, "cpu.ll"),
              [&](raw_ostream &os) { host->print(os, nullptr); });
  StageTimer timer("code generation (LLVM)");
  return emitObjectFileInParallel(*host, *target, objectPath,
                                  options.codegenThreads, partialLinker(),
                                  uniqueSymbolSuffix(source, objectPath));
}

bool Driver::compileOpenCL(StringRef source, StringRef objectPath) {
  LLVMContext llvmContext;
  std::vector<OpenCLKernelSignature> kernels;
  std::unique_ptr<TargetMachine> target = createTarget(options);
  std::unique_ptr<Module> device =
      target ? compileDevice(llvmContext, source, &kernels) : nullptr;
  if (!device)
    return false;
  std::unique_ptr<Module> deviceCode =
      lowerForCPU(std::move(device), llvmContext, source, *target);
  if (!deviceCode || !addOpenCLRegistration(*deviceCode, kernels))
    return false;
  if (options.keepIntermediates)
    writeText(intermediatePath(source, "cpu.ll"),
              [&](raw_ostream &os) { deviceCode->print(os, nullptr); });
  return emitObjectFile(*deviceCode, *target, objectPath);
}

bool Driver::runProgram(ArrayRef<std::string> args) {
  if (options.verbose) {
    for (const std::string &arg : args)
      errs() << arg << " ";
    errs() << "\n";
  }
  SmallVector<StringRef> argv(args.begin(), args.end());
  std::string message;
  int status =
      sys::ExecuteAndWait(args[0], argv, std::nullopt, {}, 0, 0, &message);
  if (status < 0)
    errs() << "respec: error: cannot run '" << args[0] << "': " << message
           << "\n";
  return status == 0;
}

bool Driver::compileHostSource(StringRef source, StringRef objectPath) {
  std::vector<std::string> args = {clangExecutable().str() + "++", "-c",
                                   source.str(), "-o", objectPath.str()};
  args.push_back("-O" + std::to_string(options.frontend.hostOptLevel));
  if (options.frontend.debugInfo)
    args.push_back("-g");
  if (!options.frontend.languageStandard.empty() &&
      sys::path::extension(source) != ".c")
    args.push_back("-std=" + options.frontend.languageStandard);
  // respec's own host APIs (respec/opencl.h).
  args.push_back("-I" + layout.apiIncludeDir);
  // Host sources of CUDA programs include cuda_runtime.h too.
  if (options.frontend.cudaToolkitPath.empty())
    args.push_back("-I" + layout.cudaIncludeDir);
  else
    args.push_back("-I" + options.frontend.cudaToolkitPath + "/include");
  appendPreprocessorArguments(options.frontend, args);
  appendToolkitLibraryIncludes(options.frontend.cudaToolkitPath, args);
  args.insert(args.end(), options.frontend.dependencyArgs.begin(),
              options.frontend.dependencyArgs.end());
  args.insert(args.end(), options.hostCompilerArgs.begin(),
              options.hostCompilerArgs.end());
  if (sys::path::extension(source) == ".c")
    args[0] = clangExecutable().str();
  return runProgram(args);
}

bool Driver::link(ArrayRef<std::string> objects) {
  std::string output = options.output.empty() ? "a.out" : options.output;
  std::vector<std::string> args = {clangExecutable().str() + "++", "-o",
                                   output};
  args.insert(args.end(), objects.begin(), objects.end());
  args.insert(args.end(), options.linkerArgs.begin(), options.linkerArgs.end());
  for (const std::string &arg : options.hostCompilerArgs)
    if (StringRef(arg).starts_with("-f") || arg == "-pthread")
      args.push_back(arg);
  if (options.target == TargetKind::NVPTX) {
    // The CUDA driver (libcuda.so.1) is loaded when the program starts, so
    // that it links and reports a missing driver on machines without one.
    args.push_back(layout.libDir + "/librespec_cudart_gpu.a");
    args.push_back("-ldl");
  } else {
    args.push_back(layout.libDir + "/librespec_cudart.a");
    args.push_back("-fopenmp=libomp");
  }
  args.push_back("-pthread");
  args.push_back("-lm");
  return runProgram(args);
}

std::string Driver::executablePath() const {
  return options.output.empty() ? std::string("a.out") : options.output;
}

/// clang's options for the dependency file of `source`, whose product is
/// `target` (the object with -c, else the executable); none without -MD.
std::vector<std::string>
Driver::dependencyFileArguments(StringRef source, StringRef target) const {
  const DependencyFileOptions &deps = options.dependencies;
  if (!deps.enabled)
    return {};
  std::string file = deps.file;
  if (file.empty()) {
    // As gcc and nvcc: next to the object, or named after the source when
    // compiling and linking in one step.
    SmallString<256> path(options.emit == EmitKind::Object
                              ? target
                              : sys::path::filename(source));
    sys::path::replace_extension(path, "d");
    file = path.str().str();
  }
  std::vector<std::string> args = {deps.systemHeaders ? "-MD" : "-MMD", "-MF",
                                   file};
  if (deps.targets.empty())
    args.insert(args.end(), {"-MT", target.str()});
  for (const std::string &name : deps.targets)
    args.insert(args.end(), {"-MT", name});
  if (deps.phonyTargets)
    args.push_back("-MP");
  return args;
}

int Driver::run() {
  if (options.inputs.empty()) {
    errs() << "respec: error: no input files\n";
    return 1;
  }
  options.frontend.cudaToolkitPath =
      findCudaToolkit(options.cudaPath, options.cudaPathGiven);
  options.frontend.respecCudaIncludeDir = layout.cudaIncludeDir;

  bool gpuOutput =
      options.emit == EmitKind::PTX || options.emit == EmitKind::Cubin;
  if (options.target == TargetKind::NVPTX)
    options.frontend.gpuArch = options.gpuArch;
  bool stageOnly = options.emit == EmitKind::DeviceLLVM ||
                   options.emit == EmitKind::DeviceMLIR ||
                   options.emit == EmitKind::ParallelIR || gpuOutput;
  bool compileOnly = options.emit == EmitKind::Object;
  size_t sources = 0;
  for (const std::string &input : options.inputs)
    if (classifyInput(input, options.forceCuda) != InputKind::Object)
      ++sources;
  if ((stageOnly || compileOnly) && sources > 1 && !options.output.empty()) {
    errs() << "respec: error: -o with -c or --emit takes one source file\n";
    return 1;
  }
  if (options.dependencies.enabled && !options.dependencies.file.empty() &&
      sources > 1) {
    errs() << "respec: error: -MF takes one source file\n";
    return 1;
  }
  if (options.emit == EmitKind::Dependencies) {
    if (sources > 1 && !options.output.empty()) {
      errs() << "respec: error: -o with -M or -MM takes one source file\n";
      return 1;
    }
    bool written = true;
    for (const std::string &input : options.inputs)
      written &= writeDependenciesOnly(input);
    for (const std::string &path : temporaries)
      sys::fs::remove(path);
    return written ? 0 : 1;
  }

  std::vector<std::string> objects;
  bool ok = true;
  for (const std::string &input : options.inputs) {
    if (!sys::fs::exists(input)) {
      errs() << "respec: error: no such file: '" << input << "'\n";
      ok = false;
      continue;
    }
    InputKind kind = classifyInput(input, options.forceCuda);
    if (kind == InputKind::Object) {
      if (!isCudaRuntimeLibrary(input))
        objects.push_back(input);
      continue;
    }
    if (stageOnly) {
      if (gpuOutput && kind != InputKind::Cuda) {
        errs() << "respec: error: --emit="
               << (options.emit == EmitKind::PTX ? "ptx" : "cubin")
               << " needs a CUDA source, got '" << input << "'\n";
        ok = false;
        continue;
      }
      if (gpuOutput) {
        ok &= compileForNVPTX(input);
        continue;
      }
      if (kind != InputKind::Cuda && kind != InputKind::OpenCL) {
        errs() << "respec: error: --emit needs a CUDA or OpenCL C source, "
                  "got '"
               << input << "'\n";
        ok = false;
        continue;
      }
      ok &= emitDeviceStage(input);
      continue;
    }
    std::string objectPath;
    if (compileOnly)
      objectPath = options.output.empty()
                       ? (sys::path::stem(input) + ".o").str()
                       : options.output;
    else
      objectPath = temporaryPath(sys::path::stem(input), "o");
    if (objectPath.empty())
      return 1;
    options.frontend.dependencyArgs =
        kind == InputKind::OpenCL
            ? std::vector<std::string>()
            : dependencyFileArguments(input, compileOnly ? objectPath
                                                         : executablePath());
    if (kind == InputKind::OpenCL && options.target == TargetKind::NVPTX) {
      errs() << "respec: error: OpenCL C sources ('" << input
             << "') are not supported yet for --target=nvptx\n";
      ok = false;
      continue;
    }
    bool compiled = kind == InputKind::Cuda ? compileCuda(input, objectPath)
                    : kind == InputKind::OpenCL
                        ? compileOpenCL(input, objectPath)
                        : compileHostSource(input, objectPath);
    ok &= compiled;
    objects.push_back(objectPath);
  }
  if (ok && !stageOnly && !compileOnly)
    ok = link(objects);
  for (const std::string &path : temporaries)
    sys::fs::remove(path);
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  std::optional<DriverOptions> options = parseDriverOptions(argc, argv);
  if (!options)
    return 1;
  if (options->printHelp) {
    printDriverHelp();
    return 0;
  }
  if (options->printVersion) {
    outs() << "respec version " RESPEC_VERSION " (LLVM " RESPEC_LLVM_VERSION
              ")\nCUDA compiler for the CPU, nvcc-compatible\n";
    return 0;
  }
  Driver driver(std::move(*options), InstallLayout::fromExecutable(argv[0]));
  return driver.run();
}
