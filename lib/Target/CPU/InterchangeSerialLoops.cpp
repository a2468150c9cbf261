//===- InterchangeSerialLoops.cpp - Thread loops inside serial loops ------===//
//
// On the CPU the threads of a block run as a loop, and LLVM vectorizes only
// innermost loops. A kernel whose threads each run a serial loop (`for (j =
// 0; j < n; ++j) acc += f(mine, shared[j])`) therefore becomes a thread loop
// around a scalar loop: the loop over j cannot be vectorized (a
// floating-point reduction, in order), and the parallel loop over threads
// is not innermost. When all threads run the same iterations (the trip
// count is uniform), the loops can be interchanged: for each j, run all
// threads, with each thread's carried state (acc) in a per-thread array.
// The thread loop is then innermost and vectorizes across threads, as the
// GPU runs it.
//
// This pass marks such loops with a barrier at the start of their body;
// barrier lowering (PredicateDivergentBarriers, LowerBarriers) does the
// interchange, keeps the uniform loop counter as a block-level value and
// demotes the per-thread state. Adding a barrier reached by all threads
// changes no result of a program without data races between the threads
// of a block (CUDA's requirement); atomics commute.
//
// Only loops whose body is likely to vectorize are chosen: no calls other
// than intrinsics, no atomics, no local allocations, no nested loops with a
// trip count that differs between threads, and not a short constant trip
// count, which LLVM unrolls anyway.
//
//===----------------------------------------------------------------------===//

#include "respec/Dialect/RespecDialect.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"
#include "respec/Transforms/ThreadUniformity.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"

namespace mlir::respec {
#define GEN_PASS_DEF_INTERCHANGESERIALLOOPSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// Loops with a constant trip count below this are left alone: LLVM unrolls
/// them fully, and the interchange would only add per-thread state traffic.
constexpr int64_t kMinConstantTripCount = 8;

bool isSerialLoop(Operation *op) { return isa<scf::ForOp, scf::WhileOp>(op); }

bool hasShortConstantTripCount(scf::ForOp loop) {
  APInt lower, upper, step;
  if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lower)) ||
      !matchPattern(loop.getUpperBound(), m_ConstantInt(&upper)) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)) || step.isZero())
    return false;
  int64_t trips = (upper.getSExtValue() - lower.getSExtValue() +
                   step.getSExtValue() - 1) /
                  step.getSExtValue();
  return trips < kMinConstantTripCount;
}

/// True if `op`'s body has nothing that keeps a thread loop around it from
/// vectorizing, or that barrier lowering cannot move between thread loops.
bool hasVectorizableBody(Operation *loop, const ThreadUniformity &uniformity) {
  WalkResult result = loop->walk([&](Operation *op) {
    if (op == loop)
      return WalkResult::advance();
    if (isBarrierLike(op) || isa<scf::ParallelOp>(op) ||
        isa<LLVM::AllocaOp, LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp,
            LLVM::InlineAsmOp, LLVM::FenceOp>(op))
      return WalkResult::interrupt();
    if (auto call = dyn_cast<LLVM::CallOp>(op)) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee || !callee->starts_with("llvm."))
        return WalkResult::interrupt();
    }
    if (isSerialLoop(op) && !uniformity.hasUniformControl(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// True if every op between `op` and `threadLoop` keeps `op` running for
/// all threads alike or for a predicate (uniform loops; branches of either
/// kind, which predication turns into per-thread guards).
bool hasInterchangeableAncestors(Operation *op, scf::ParallelOp threadLoop,
                                 const ThreadUniformity &uniformity) {
  for (Operation *scope = op->getParentOp(); scope != threadLoop;
       scope = scope->getParentOp()) {
    if (isa<scf::IfOp, scf::IndexSwitchOp>(scope))
      continue;
    if (!isSerialLoop(scope) || !uniformity.hasUniformControl(scope))
      return false;
  }
  return true;
}

/// The innermost serial loops of `threadLoop` worth interchanging.
SmallVector<Operation *> findCandidates(scf::ParallelOp threadLoop) {
  ThreadUniformity uniformity(threadLoop);
  SmallVector<Operation *> candidates;
  threadLoop.getBody()->walk([&](Operation *op) {
    if (!isSerialLoop(op) || !uniformity.hasUniformControl(op))
      return;
    if (auto forOp = dyn_cast<scf::ForOp>(op);
        forOp && hasShortConstantTripCount(forOp))
      return;
    if (!hasVectorizableBody(op, uniformity) ||
        !hasInterchangeableAncestors(op, threadLoop, uniformity))
      return;
    // Post-order walk: an inner candidate comes first; the interchange of
    // an inner loop carries its enclosing loops along.
    if (llvm::any_of(candidates,
                     [&](Operation *inner) { return op->isAncestor(inner); }))
      return;
    candidates.push_back(op);
  });
  return candidates;
}

/// True if warp primitives of `threadLoop` became block barriers: its
/// per-thread values already go through memory at every primitive, and more
/// splits would only add to its (large) code.
bool emulatesWarpPrimitives(scf::ParallelOp threadLoop) {
  return threadLoop
      .walk([](BarrierOp barrier) {
        return barrier->hasAttr(kWarpSyncAttr) ? WalkResult::interrupt()
                                               : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The block the barrier goes into: the loop body (for), the region after
/// the exit test (while).
Block *loopBody(Operation *loop) {
  if (auto forOp = dyn_cast<scf::ForOp>(loop))
    return forOp.getBody();
  return &cast<scf::WhileOp>(loop).getAfter().front();
}

struct InterchangeSerialLoopsPass
    : public respec::impl::InterchangeSerialLoopsPassBase<
          InterchangeSerialLoopsPass> {
  using InterchangeSerialLoopsPassBase::InterchangeSerialLoopsPassBase;

  void runOnOperation() override {
    for (scf::ParallelOp threadLoop : collectThreadLoops(getOperation())) {
      if (emulatesWarpPrimitives(threadLoop))
        continue;
      for (Operation *loop : findCandidates(threadLoop)) {
        OpBuilder b = OpBuilder::atBlockBegin(loopBody(loop));
        auto barrier = BarrierOp::create(b, loop->getLoc(),
                                         threadLoop.getInductionVars());
        // Not the user's barrier: no divergence warnings about it.
        barrier->setAttr(kInterchangeAttr, b.getUnitAttr());
      }
    }
  }
};

} // namespace
