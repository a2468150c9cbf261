//===- LLVMPasses.h - Running LLVM pass pipelines on a module ---*- C++ -*-===//

#ifndef RESPEC_SUPPORT_LLVMPASSES_H
#define RESPEC_SUPPORT_LLVMPASSES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/PassTimingInfo.h"
#include "llvm/Passes/PassBuilder.h"

#include <cstdlib>
#include <optional>

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
  // RESPEC_TIME_PASSES: LLVM's per-pass report on standard error, as
  // `opt -time-passes` prints it.
  llvm::PassInstrumentationCallbacks instrumentation;
  std::optional<llvm::TimePassesHandler> timing;
  if (std::getenv("RESPEC_TIME_PASSES")) {
    timing.emplace(/*Enabled=*/true);
    timing->registerCallbacks(instrumentation);
  }
  llvm::PassBuilder passBuilder(target, tuning, std::nullopt, &instrumentation);
  passBuilder.registerModuleAnalyses(moduleAM);
  passBuilder.registerCGSCCAnalyses(cgsccAM);
  passBuilder.registerFunctionAnalyses(functionAM);
  passBuilder.registerLoopAnalyses(loopAM);
  passBuilder.crossRegisterProxies(loopAM, functionAM, cgsccAM, moduleAM);
  buildPipeline(passBuilder).run(module, moduleAM);
  if (timing)
    timing->print();
}

} // namespace respec

#endif
