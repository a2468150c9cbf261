//===- Passes.h - respec passes ---------------------------------*- C++ -*-===//

#ifndef RESPEC_TRANSFORMS_PASSES_H
#define RESPEC_TRANSFORMS_PASSES_H

#include "respec/Dialect/RespecDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::respec {

#define GEN_PASS_DECL
#include "respec/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "respec/Transforms/Passes.h.inc"

/// Adds the passes that raise an imported device module to the parallel IR.
void buildRaisePipeline(OpPassManager &pm);

/// Thread and block coarsening requested for a compilation
/// (`respec-coarsen`'s options): factors for every kernel, per-kernel
/// entries, and the thread mapping. Empty: no coarsening.
struct CoarsenOptions {
  std::string factors;
  std::vector<std::string> kernels;
  std::string threadMapping = "strided";

  bool empty() const { return factors.empty() && kernels.empty(); }
};

/// Versions of each kernel to choose among at run time
/// (`respec-build-alternatives` and `respec-lower-alternatives`).
struct TuningOptions {
  /// Coarsening of each version, for every kernel.
  std::vector<std::string> candidates;
  /// Per kernel: NAME=REQUEST;REQUEST;... and NAME=geometry:INDEX.
  std::vector<std::string> kernelCandidates;
  std::vector<std::string> kernelGeometry;
  /// Time every launch and record it in the tuning database.
  bool profile = false;

  bool empty() const { return candidates.empty() && kernelCandidates.empty(); }
};

/// Adds `respec-coarsen` with `options` unless they ask for nothing.
void addCoarsenPass(OpPassManager &pm, const CoarsenOptions &options);

/// The optional optimizations of the CPU pipeline, each of which the driver
/// can disable (`--disable-opt=`) for differential testing.
struct CPUPipelineOptions {
  /// Keep provably uniform control around barriers as block-level control
  /// flow instead of predicating it per thread.
  bool hoistUniformBarrierControl = true;
  /// Recompute values across barriers where that keeps fewer bytes.
  bool minCutAcrossBarriers = true;
  /// Thread-private variables loaded and stored next to their uses across
  /// barriers (respec-promote-across-barriers).
  bool promoteAcrossBarriers = true;
  /// Run warps of kernels with warp primitives (and no block barriers) as
  /// interleaved lanes instead of emulating the primitives with barriers.
  bool interleaveWarpLanes = true;
  /// Remove barriers that order no conflicting accesses.
  bool eliminateBarriers = true;
  /// Run the threads inside uniform serial loops (vectorization across
  /// threads). On by default since 0.13.0 (bench/README.md).
  bool interchangeSerialLoops = true;
  /// Copies of launch bodies for the block sizes kernels are launched with.
  bool specializeBlockSize = true;
  /// Split thread loops where branches on the thread index change, so that
  /// each part runs without the branch.
  bool splitThreadIndexSets = true;
  /// Block indices as opaque values computed once per block (keeps LLVM
  /// from recomputing them by division inside thread loops).
  bool freezeBlockIndices = true;
  /// The code of blocks with many loops in a function of its own, called
  /// per block (respec-outline-large-blocks; for LLVM's compile time).
  bool outlineLargeBlocks = true;
  /// Grids of fewer blocks than cores whose threads never synchronize also
  /// get a version that runs slices of each block's threads on different
  /// cores (respec-find-independent-threads,
  /// respec-parallelize-few-block-grids).
  bool parallelizeFewBlockGrids = true;
  /// ... and so do those whose threads meet only at `__syncthreads()`, with
  /// a barrier of the block's slices between the phases.
  bool parallelizeFewBlockBarrierGrids = true;
  /// Atomics on shared memory as plain loads and stores (one OS thread runs
  /// a block).
  bool localizeSharedAtomics = true;
  /// Threads of thread loops around serial loops as SIMD lanes
  /// (respec-vectorize-thread-loops), `threadVectorLanes` per vector.
  bool vectorizeThreadLoops = true;
  /// Thread-invariant operations and loads moved out of thread loops
  /// (respec-hoist-thread-invariants).
  bool hoistThreadInvariants = true;
  /// Thread loops declare their accesses free of cross-thread dependences
  /// (LLVM parallel-loop metadata; respec-serialize-thread-loops).
  bool parallelAccesses = true;
  /// Kernels without barriers inlined into their thread loops as
  /// structured control flow (respec-structure-thread-bodies), so that
  /// index-set splitting sees their branches.
  bool structureBarrierFreeKernels = true;
  /// Lifted loops test their exit condition directly instead of through
  /// the CFG-to-SCF exit multiplexer (respec-simplify-loop-exits).
  bool simplifyLoopExits = true;
  /// Thread-strided loops run around a counter all threads share
  /// (respec-uniformize-strided-loops).
  bool uniformizeStridedLoops = true;
  /// Neighbouring blocks of a grid row run together, row of threads by row
  /// of threads (respec-fuse-block-rows).
  bool fuseBlockRows = true;
  /// The fused blocks' rows of threads run as one loop over the global
  /// index where the body needs only that (respec-fuse-block-rows'
  /// merge-rows).
  bool mergeFusedRows = true;
  /// respec-split-thread-groups: thread loops whose threads divide their
  /// index by a power of two run as groups of that size.
  bool splitThreadGroups = true;
  /// Thread loops run without branches that bounds checks take for the
  /// whole block (respec-version-bounds-checks).
  bool versionBoundsChecks = true;
  /// Reads of a shared-memory tile recompute the value the writing thread
  /// stored (respec-forward-shared-stores).
  bool forwardSharedStores = true;
  /// OpenMP schedule of the grid loops: auto (dynamic, in runs of about
  /// eight per thread, where blocks may do different work; static
  /// elsewhere), static, dynamic or guided (respec-schedule-grid-loops).
  /// Auto by default since 0.22.0: with runs instead of single blocks it is
  /// level with static on bench/sci's bfs (1.17x slower block by block in
  /// 0.21.0) and balances grids of few unequal blocks (a triangular
  /// correlation kernel of 4 blocks: 1.7x faster at 2 threads).
  std::string gridSchedule = "auto";
  /// Static and dynamic grid schedules computed in the parallel region
  /// itself rather than by libomp's worksharing calls, which format debug
  /// traces on every call in distribution builds (respec-schedule-grid-loops).
  bool inlineWorksharing = true;
  unsigned threadVectorLanes = 8;
  /// Lanes per SIMD group of interleaved warps (a power of two up to 32;
  /// 0: chosen from `vectorBits`, see respec-interleave-warp-lanes).
  unsigned warpGroupLanes = 0;
  /// Width of the device CPU's vector registers in bits (0: unknown).
  unsigned vectorBits = 0;
  /// Block sizes kernels are launched with ("NAME=BXxBYxBZ", from the host
  /// code): each gets a copy of its launch body with constant blockDim.
  std::vector<std::string> launchBlockSizes;
  /// Thread and block coarsening.
  CoarsenOptions coarsening;
  /// Alternatives (coarsened versions chosen at run time).
  TuningOptions tuning;
};

/// Adds the passes that lower the parallel IR to LLVM dialect for the CPU
/// (barriers removed, OpenMP over blocks, serial thread loops), ready for
/// translation: buildCPUParallelPipeline, then buildCPUToLLVMPipeline.
void buildCPULoweringPipeline(OpPassManager &pm,
                              const CPUPipelineOptions &options = {});

/// The first stage of the CPU lowering: the parallel optimizations, up to
/// the barrier-free kernels whose grid loops are still scf.parallel.
void buildCPUParallelPipeline(OpPassManager &pm,
                              const CPUPipelineOptions &options = {});

/// The second stage: grid loops to OpenMP, everything to LLVM dialect.
void buildCPUToLLVMPipeline(OpPassManager &pm,
                            const CPUPipelineOptions &options = {});

/// Adds the passes that turn the parallel IR into NVVM kernels in LLVM
/// dialect (one per grid loop), ready for translation to NVPTX LLVM IR.
/// Launch functions are removed, or with `hostLaunches` kept as host code
/// that launches the kernels through the runtime.
void buildNVPTXLoweringPipeline(OpPassManager &pm,
                                const CoarsenOptions &coarsening = {},
                                const TuningOptions &tuning = {},
                                bool hostLaunches = false);

/// Adds `respec-build-alternatives` for `tuning` unless it asks for nothing.
void addBuildAlternativesPass(OpPassManager &pm, const TuningOptions &tuning);

/// Registers `respec-cpu-pipeline`: raising followed by CPU lowering.
void registerRespecPipelines();

} // namespace mlir::respec

#endif // RESPEC_TRANSFORMS_PASSES_H
