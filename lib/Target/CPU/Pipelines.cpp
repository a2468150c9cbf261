//===- Pipelines.cpp - Pass pipelines of the CPU back end -----------------===//

#include "respec/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void respec::buildRaisePipeline(OpPassManager &pm) {
  pm.addPass(createStripAddressSpacesPass());
  pm.addPass(createRaiseKernelsPass());
}

void respec::buildCPULoweringPipeline(OpPassManager &pm) {
  pm.addPass(createLowerDeviceIntrinsicsToCPUPass());
  pm.addPass(createSerializeThreadLoopsPass());
  pm.addPass(createEmitModuleTablePass());
  // Blocks run on all cores: the grid loop becomes an OpenMP worksharing
  // loop; everything left of scf/arith/index then lowers to LLVM dialect.
  pm.addPass(createConvertSCFToOpenMPPass());
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
}
