//===- FindIndependentThreads.cpp - Grids whose threads never sync --------===//
//
// CUDA orders the threads of a block only at barriers and warp primitives.
// A kernel with neither (once barrier elimination has run) lets its
// threads run in any order, also side by side on different cores, which is
// what respec-parallelize-few-block-grids does for grids with fewer blocks
// than cores. This pass marks the grid loops where that holds, on the
// parallel IR before warp lowering: afterwards warp primitives are either
// barriers (which interchange of serial loops also inserts, for threads
// that are independent) or interleaved lanes, whose thread loops run a warp
// per iteration, and the two cases can no longer be told apart.
//
// Grids whose threads synchronize only at plain block barriers
// (`__syncthreads()`: no warp primitives, no reducing barriers, no indirect
// calls) are marked too, differently: their blocks may be cut into slices
// that run on several cores and meet at a barrier between the phases that
// barrier lowering leaves, which the same pass does for them.
//
// Shared memory is left to the splitting pass, which sees it as calls of
// the runtime once device intrinsics are lowered.
//
//===----------------------------------------------------------------------===//

#include "TransitiveCalls.h"
#include "respec/Dialect/RespecDialect.h"
#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/BarrierIntrinsics.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::respec {
#define GEN_PASS_DEF_FINDINDEPENDENTTHREADSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// True if `op` by itself makes threads of a block wait for or exchange
/// values with each other: a barrier, a warp primitive, an NVVM barrier
/// intrinsic, or an indirect call (whose callee is unknown).
bool synchronizesThreads(Operation *op) {
  if (isa<BarrierOp, ReduceBarrierOp>(op) || getWarpPrimitiveKind(op))
    return true;
  if (auto call = dyn_cast<LLVM::CallOp>(op)) {
    std::optional<StringRef> callee = call.getCallee();
    return !callee || getBarrierIntrinsicKind(*callee).has_value();
  }
  if (auto intrinsic = dyn_cast<LLVM::CallIntrinsicOp>(op))
    return getBarrierIntrinsicKind(intrinsic.getIntrin()).has_value();
  return false;
}

/// True if `op` makes threads wait for each other other than at a plain
/// block barrier: a synchronizing op or an indirect call.
bool synchronizesBeyondBarriers(Operation *op) {
  return synchronizesThreads(op) && !isa<BarrierOp>(op);
}

struct FindIndependentThreadsPass
    : public respec::impl::FindIndependentThreadsPassBase<
          FindIndependentThreadsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::DenseSet<StringRef> synchronizing =
        findFunctionsReaching(module, {}, synchronizesThreads);
    module.walk([&](scf::ParallelOp grid) {
      if (!isGridLoop(grid))
        return;
      bool barriers = false, beyondBarriers = false;
      grid.getBody()->walk([&](Operation *op) {
        // Barriers in called functions are not lowered in place: only the
        // grid's own count as plain barriers.
        if (synchronizesBeyondBarriers(op) || isCallToAnyOf(op, synchronizing))
          beyondBarriers = true;
        else if (isa<BarrierOp>(op))
          barriers = true;
        return beyondBarriers ? WalkResult::interrupt() : WalkResult::advance();
      });
      if (beyondBarriers)
        return;
      grid->setAttr(barriers ? kBarrierSynchronizedThreadsAttr
                             : kIndependentThreadsAttr,
                    UnitAttr::get(&getContext()));
    });
  }
};
} // namespace
