//===- Pipelines.cpp - Pass pipelines of the back ends --------------------===//

#include "respec/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void respec::buildRaisePipeline(OpPassManager &pm) {
  pm.addPass(createStripAddressSpacesPass());
  pm.addPass(createRaiseKernelsPass());
  pm.addPass(createStructureThreadBodiesPass());
}

void respec::addCoarsenPass(OpPassManager &pm,
                            const CoarsenOptions &options) {
  if (options.empty())
    return;
  CoarsenPassOptions coarsen;
  coarsen.factors = options.factors;
  coarsen.kernelFactors.assign(options.kernels.begin(), options.kernels.end());
  coarsen.threadMapping = options.threadMapping;
  pm.addPass(createCoarsenPass(coarsen));
}

void respec::addBuildAlternativesPass(OpPassManager &pm,
                                      const TuningOptions &tuning) {
  if (tuning.empty())
    return;
  BuildAlternativesPassOptions alternatives;
  alternatives.candidates.assign(tuning.candidates.begin(),
                                 tuning.candidates.end());
  alternatives.kernelCandidates.assign(tuning.kernelCandidates.begin(),
                                       tuning.kernelCandidates.end());
  alternatives.kernelGeometry.assign(tuning.kernelGeometry.begin(),
                                     tuning.kernelGeometry.end());
  pm.addPass(createBuildAlternativesPass(alternatives));
}

void respec::buildNVPTXLoweringPipeline(OpPassManager &pm,
                                        const CoarsenOptions &coarsening,
                                        const TuningOptions &tuning,
                                        bool hostLaunches) {
  addCoarsenPass(pm, coarsening);
  addBuildAlternativesPass(pm, tuning);
  pm.addPass(createOutlineGPUKernelsPass({hostLaunches}));
  // A program's launch code chooses among the versions as on the CPU: by
  // the tuning database's geometry table, by timing them (--tune=profile)
  // or by the geometry heuristic.
  if (hostLaunches && !tuning.empty())
    pm.addPass(createLowerAlternativesPass({tuning.profile}));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void respec::buildCPULoweringPipeline(OpPassManager &pm,
                                      const CPUPipelineOptions &options) {
  buildCPUParallelPipeline(pm, options);
  buildCPUToLLVMPipeline(pm, options);
}

void respec::buildCPUParallelPipeline(OpPassManager &pm,
                                      const CPUPipelineOptions &options) {
  // Barrier-free kernels in the thread loop, as kernels with barriers are:
  // their bounds checks and `?:` on thread indices split like branches.
  if (options.structureBarrierFreeKernels)
    pm.addPass(createStructureThreadBodiesPass({/*barrierFreeKernels=*/true}));
  // Loop counters and exit tests in plain sight for the analyses below.
  if (options.simplifyLoopExits)
    pm.addPass(createSimplifyLoopExitsPass());
  // Which kernels' blocks may differ in work (the grid's OpenMP schedule
  // under `auto`), read from the kernel's own loops and loads, before
  // coarsening adds remainder loops and barrier lowering keeps values in
  // memory.
  if (options.gridSchedule == "auto")
    pm.addPass(createFindUnbalancedGridsPass());
  // Coarsening works on the parallel IR as raised: its SSA form shows which
  // control around barriers is uniform.
  addCoarsenPass(pm, options.coarsening);
  if (!options.tuning.empty()) {
    addBuildAlternativesPass(pm, options.tuning);
    pm.addPass(createLowerAlternativesPass({options.tuning.profile}));
  }
  // Constant blockDim gives thread loops known trip counts, which the
  // passes below and LLVM's unrolling and vectorization use.
  if (options.specializeBlockSize && !options.launchBlockSizes.empty()) {
    SpecializeBlockSizePassOptions specialize;
    specialize.blockSizes.assign(options.launchBlockSizes.begin(),
                                 options.launchBlockSizes.end());
    pm.addPass(createSpecializeBlockSizePass(specialize));
  }
  // Tiles read back after a barrier: each read recomputes what its writer
  // stored, so that the barrier and the tile go.
  if (options.forwardSharedStores && options.specializeBlockSize &&
      !options.launchBlockSizes.empty())
    pm.addPass(createForwardSharedStoresPass());
  // Fewer barriers: fewer fissions, and warps of kernels left without
  // block barriers can run as interleaved lanes.
  if (options.eliminateBarriers)
    pm.addPass(createEliminateBarriersPass());
  // Grids whose threads are left without barriers and warp primitives, read
  // before warp lowering turns primitives into barriers or interleaved
  // lanes (respec-parallelize-few-block-grids splits their blocks).
  if (options.parallelizeFewBlockGrids)
    pm.addPass(createFindIndependentThreadsPass());
  // Warps whose primitives sit under lane-invariant control run as
  // interleaved lanes; the other warp primitives become barriers and
  // exchanges through memory; the remaining NVVM intrinsics map to CPU code
  // (or are rejected).
  if (options.interleaveWarpLanes)
    pm.addPass(createInterleaveWarpLanesPass(
        {/*lanes=*/options.warpGroupLanes,
         /*vectorBits=*/options.vectorBits}));
  pm.addPass(createExpandWarpIntrinsicsPass());
  pm.addPass(createLowerDeviceIntrinsicsToCPUPass());
  if (options.localizeSharedAtomics)
    pm.addPass(createLocalizeSharedAtomicsPass());
  // `for (i = tid; i < n; i += blockDim.x)`: uniform control, for the
  // interchange, the thread vectorizer and index-set splitting.
  if (options.simplifyLoopExits && options.uniformizeStridedLoops)
    pm.addPass(createUniformizeStridedLoopsPass());
  if (options.interchangeSerialLoops)
    pm.addPass(createInterchangeSerialLoopsPass());
  // Barriers: uniform control first, then reducing barriers become plain
  // ones, then fission and interchange remove them all.
  pm.addPass(createPredicateDivergentBarriersPass(
      {/*hoistUniform=*/options.hoistUniformBarrierControl}));
  pm.addPass(createExpandReduceBarriersPass());
  // Thread-private variables loaded and stored in the interval that uses
  // them: their own storage carries them across barriers, not spills.
  if (options.promoteAcrossBarriers)
    pm.addPass(createPromoteAcrossBarriersPass());
  pm.addPass(createLowerBarriersPass(
      {/*minimizeCrossing=*/options.minCutAcrossBarriers,
       /*markBarriers=*/options.parallelizeFewBlockGrids &&
           options.parallelizeFewBlockBarrierGrids}));
  // Branches on the thread index (halo loads, reduction steps, bounds
  // checks) out of the thread loops, which then vectorize.
  if (options.splitThreadIndexSets)
    pm.addPass(createSplitThreadIndexSetsPass());
  // Bounds checks inside per-thread loops, which the splitting cannot take
  // out, tested once per block.
  if (options.versionBoundsChecks)
    pm.addPass(createVersionBoundsChecksPass());
  // Thread loops around serial loops: LLVM vectorizes only innermost
  // loops, so respec runs their threads as SIMD lanes itself.
  // Once per block what every thread would compute alike, before the
  // vectorizer (which then sees block-level scalars).
  if (options.hoistThreadInvariants)
    pm.addPass(createHoistThreadInvariantsPass());
  if (options.vectorizeThreadLoops && options.threadVectorLanes > 1)
    pm.addPass(createVectorizeThreadLoopsPass({options.threadVectorLanes}));
  // Narrow blocks of several rows: rows of neighbouring blocks swept
  // together, as a CPU loop nest over the whole array would.
  if (options.fuseBlockRows)
    pm.addPass(createFuseBlockRowsPass({options.mergeFusedRows}));
  // Grids of fewer blocks than cores: a version whose blocks run as slices
  // of threads on several cores.
  if (options.parallelizeFewBlockGrids)
    pm.addPass(createParallelizeFewBlockGridsPass(
        {/*minBlockThreads=*/128,
         /*barrierGrids=*/options.parallelizeFewBlockBarrierGrids}));
  // `tid / 16`, `tid % 16`: the threads of a group as an inner loop whose
  // addresses are affine, for LLVM's vectorizer.
  if (options.splitThreadGroups)
    pm.addPass(createSplitThreadGroupsPass());
  pm.addPass(createSerializeThreadLoopsPass({options.parallelAccesses}));
  if (options.freezeBlockIndices)
    pm.addPass(createFreezeBlockIndicesPass());
  pm.addPass(createEmitModuleTablePass());
  // Kernels of hundreds of thread loops: the block's code out of the grid
  // loop, or LLVM's loop passes take time quadratic in the kernel's size.
  if (options.outlineLargeBlocks)
    pm.addPass(createOutlineLargeBlocksPass());
}

void respec::buildCPUToLLVMPipeline(OpPassManager &pm,
                                    const CPUPipelineOptions &options) {
  // Blocks run on all cores: the grid loop becomes an OpenMP worksharing
  // loop; everything left of scf/arith/index then lowers to LLVM dialect.
  pm.addPass(createConvertSCFToOpenMPPass());
  // Blocks handed out as cores become free where they may differ in work.
  pm.addPass(createScheduleGridLoopsPass(
      {options.gridSchedule, options.inlineWorksharing}));
  // The OpenMP loop body sits in a memref.alloca_scope, which must become
  // stack save/restore before its structured body turns into a CFG.
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void respec::registerRespecPipelines() {
  PassPipelineRegistration<>(
      "respec-cpu-pipeline",
      "Raise an imported device module and lower it for the CPU",
      [](OpPassManager &pm) {
        buildRaisePipeline(pm);
        buildCPULoweringPipeline(pm);
      });
  PassPipelineRegistration<>(
      "respec-nvptx-pipeline",
      "Raise an imported device module and lower it to NVVM kernels",
      [](OpPassManager &pm) {
        buildRaisePipeline(pm);
        buildNVPTXLoweringPipeline(pm);
      });
}
