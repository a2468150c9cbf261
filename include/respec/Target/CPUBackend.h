//===- CPUBackend.h - Device code for the CPU, object emission --*- C++ -*-===//

#ifndef RESPEC_TARGET_CPUBACKEND_H
#define RESPEC_TARGET_CPUBACKEND_H

#include "respec/Frontend/ManagedVariables.h"
#include "respec/Support/OpenCLKernel.h"
#include "respec/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace respec {

/// Registers the dialects and translations the CPU path needs in `context`
/// and installs a diagnostic handler that prints `file:line:col: error: ...`
/// using the user's source location carried by each op.
void prepareMLIRContext(mlir::MLIRContext &context);

/// Imports prepared device LLVM IR into MLIR's LLVM dialect.
mlir::OwningOpRef<mlir::ModuleOp>
importDeviceModule(std::unique_ptr<llvm::Module> device,
                   mlir::MLIRContext &context);

/// Runs `pipeline` (raise, or CPU lowering) on `module`.
mlir::LogicalResult runRaisePipeline(mlir::ModuleOp module);
/// `afterParallelStage`, if given, sees the module once the parallel
/// optimizations are done and before the grid loops become OpenMP (what
/// --keep writes as X.cpu.mlir).
mlir::LogicalResult runCPULoweringPipeline(
    mlir::ModuleOp module, const mlir::respec::CPUPipelineOptions &options,
    llvm::function_ref<void(mlir::ModuleOp)> afterParallelStage = {});

/// Translates lowered device code to an LLVM module for the host target;
/// device functions are compiled for `deviceCPU` ("native" = this machine)
/// and, unless `preferVectorBits` is 0, vectorized with vectors of that
/// many bits.
std::unique_ptr<llvm::Module>
translateToCPUModule(mlir::ModuleOp module, llvm::LLVMContext &context,
                     llvm::TargetMachine &target, llvm::StringRef deviceCPU,
                     bool keepDebugInfo, unsigned preferVectorBits = 0);

/// Width in bits of the vector registers of `deviceCPU` ("native" = this
/// machine) on `target`'s architecture: 512 with AVX-512, 256 with AVX,
/// else 128.
unsigned getDeviceVectorBits(const llvm::TargetMachine &target,
                             llvm::StringRef deviceCPU);

/// Threads respec-vectorize-thread-loops runs as the lanes of one vector on
/// a CPU with `vectorBits`-bit registers: one register of 32-bit values
/// with AVX-512 (16), else 8 (one AVX register; two of 128 bits).
unsigned getThreadVectorLanes(unsigned vectorBits);

/// A target machine for the host (code model, PIC) at `optLevel`.
std::unique_ptr<llvm::TargetMachine> createHostTargetMachine(unsigned optLevel);

/// Runs LLVM's standard optimization pipeline at `optLevel` (0-3), with
/// DropPrivateAccessGroupsPass before the loop vectorizer.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &target,
                    unsigned optLevel);

/// Takes accesses that may touch stack memory (allocas) out of their access
/// groups: respec declares thread loops' accesses parallel, which a
/// thread's local arrays, one alloca reused by every thread, are not
/// (DropPrivateAccessGroups.cpp).
struct DropPrivateAccessGroupsPass
    : llvm::PassInfoMixin<DropPrivateAccessGroupsPass> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &);
};

/// Turns LLVM's loop vectorizer off for innermost loops that access memory
/// at an extension of a sum containing a narrower extension of an
/// induction variable, which LLVM 22's vectorizer miscompiles (its run-time
/// check misses the narrow variable's wrap; GuardWrappingIndices.cpp).
struct GuardWrappingIndicesPass
    : llvm::PassInfoMixin<GuardWrappingIndicesPass> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
};

/// The constant block sizes the kernels of a CUDA translation unit are
/// launched with in its host code `host`, as "KERNEL=BXxBYxBZ" entries
/// (mangled kernel names) for respec-specialize-block-size. `host` is not
/// changed; an optimized copy is scanned.
std::vector<std::string> findLaunchBlockSizes(const llvm::Module &host,
                                              llvm::TargetMachine &target);

/// Gives every defined device symbol but the kernel table `table`
/// (mlir::respec::kModuleTableName for CPU device code) internal
/// linkage: device code of one translation unit is self-contained (no
/// -rdc), and `__host__ __device__` functions exist on both sides under the
/// same name. The table stays external until linked, because the linker
/// drops unreferenced internal symbols; everything else is reachable from
/// it.
void internalizeDeviceSymbols(llvm::Module &device, llvm::StringRef table);

/// Links the device module into the host module of the same translation
/// unit, points clang's fat-binary wrapper at respec's kernel table and
/// makes every device symbol internal. Host code then reads and writes the
/// device copy of each of the `managed` variables (takeManagedVariables of
/// the host module), which takes over the host shadow's name. Returns false
/// (after printing why) if the host module does not have the expected
/// registration code.
bool linkDeviceIntoHost(llvm::Module &host,
                        std::unique_ptr<llvm::Module> device,
                        llvm::ArrayRef<ManagedVariable> managed = {});

/// For programs built for NVIDIA GPUs: links the host launch functions and
/// their kernel table (`launches`, see splitHostLaunches) into the host
/// module, with the kernels' PTX and its cubin for `gpuArch` (may be
/// empty), and points clang's fat-binary wrapper at the resulting
/// respec_gpu_module (abi.h).
bool linkGPULaunchesIntoHost(llvm::Module &host,
                             std::unique_ptr<llvm::Module> launches,
                             llvm::StringRef ptx, llvm::StringRef cubin,
                             llvm::StringRef gpuArch);

/// Makes `device` (an OpenCL C source's lowered kernels) an object of its
/// own: device symbols become internal and a constructor registers the
/// kernel table with the runtime's OpenCL host API, with `kernels`'
/// signatures. Returns false (after printing why) if there is no table.
bool addOpenCLRegistration(llvm::Module &device,
                           llvm::ArrayRef<OpenCLKernelSignature> kernels);

/// Writes `module` as an object file.
bool emitObjectFile(llvm::Module &module, llvm::TargetMachine &target,
                    llvm::StringRef path);

/// Writes `module` as the object file `path` like emitObjectFile, but with
/// the code generation of a large module spread over up to `threads`
/// threads (0: one per core): the module is split into partitions, each
/// compiled in a thread of its own, and `linker` (an `ld.lld`) joins their
/// objects into one relocatable object. Symbols local to the module keep
/// names of their own in the partitions (`uniqueSuffix` is appended), so
/// that objects of different translation units do not clash. Small
/// modules, one thread, a module with inline assembly or a missing linker
/// take emitObjectFile's single thread. `module` is changed.
bool emitObjectFileInParallel(llvm::Module &module, llvm::TargetMachine &target,
                              llvm::StringRef path, unsigned threads,
                              llvm::StringRef linker,
                              llvm::StringRef uniqueSuffix);

} // namespace respec

#endif
