//===- LLVMPasses.h - Running LLVM pass pipelines on a module ---*- C++ -*-===//

#ifndef RESPEC_SUPPORT_LLVMPASSES_H
#define RESPEC_SUPPORT_LLVMPASSES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"

namespace respec {

/// Runs the module pipeline `buildPipeline` makes with a fully registered
/// PassBuilder (for `target`, may be null) on `module`.
inline void runModulePipeline(
    llvm::Module &module, llvm::TargetMachine *target,
    llvm::PipelineTuningOptions tuning,
    llvm::function_ref<llvm::ModulePassManager(llvm::PassBuilder &)>
        buildPipeline) {
  llvm::LoopAnalysisManager loopAM;
  llvm::FunctionAnalysisManager functionAM;
  llvm::CGSCCAnalysisManager cgsccAM;
  llvm::ModuleAnalysisManager moduleAM;
  llvm::PassBuilder passBuilder(target, tuning);
  passBuilder.registerModuleAnalyses(moduleAM);
  passBuilder.registerCGSCCAnalyses(cgsccAM);
  passBuilder.registerFunctionAnalyses(functionAM);
  passBuilder.registerLoopAnalyses(loopAM);
  passBuilder.crossRegisterProxies(loopAM, functionAM, cgsccAM, moduleAM);
  buildPipeline(passBuilder).run(module, moduleAM);
}

} // namespace respec

#endif
