//===- SerializeThreadLoops.cpp - Thread loops as counted loop nests ------===//
//
// On the CPU one OpenMP thread runs a whole GPU block, so the loop over the
// block's threads becomes an ordinary counted loop nest. Without barriers the
// iterations of a thread loop are independent, so any order is correct; x
// innermost keeps consecutive threads' accesses consecutive in memory, which
// is what LLVM's loop vectorizer needs.
//
// The same independence is what LLVM's parallel-loop metadata states: the
// loops list an access group that holds the thread body's memory accesses,
// and LLVM's loop vectorizer then needs no run-time alias checks (which it
// gives up on when a body touches many arrays, e.g. a coarsened block's).
// CUDA guarantees it only for race-free blocks between barriers, which is
// what a thread loop is once barriers are lowered. Atomics and volatile
// accesses stay out of the group (the loop is then not parallel to LLVM),
// and so does any loop with respec's block-serial accesses, which rely on
// one thread at a time. Thread-private stack memory is the other exception:
// the body's own allocas (or those of a thread function LLVM inlines) are
// one object reused by every thread, so LLVM's DropPrivateAccessGroups
// takes accesses to it out of the groups once inlining has run.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::respec {
#define GEN_PASS_DEF_SERIALIZETHREADLOOPSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

/// The attribute of a branch that carries LLVM loop metadata.
static constexpr StringLiteral kLoopAnnotationAttr = "loop_annotation";

/// Loop metadata for a thread loop: no unrolling, and the access groups
/// whose accesses no two iterations share. With a constant block size LLVM
/// would otherwise fully unroll short thread loops (16 threads of a 16x16
/// block) before its loop vectorizer runs, and the straight-line code it
/// leaves rarely vectorizes (the SLP vectorizer gives up on address
/// arithmetic the loop vectorizer handles). The loop vectorizer still
/// vectorizes and interleaves the loop.
LLVM::LoopAnnotationAttr
getThreadLoopAnnotation(MLIRContext *context,
                        ArrayRef<LLVM::AccessGroupAttr> parallelAccesses) {
  auto noUnroll = LLVM::LoopUnrollAttr::get(
      context, /*disable=*/BoolAttr::get(context, true), /*count=*/nullptr,
      /*runtimeDisable=*/nullptr, /*full=*/nullptr, /*followupUnrolled=*/nullptr,
      /*followupRemainder=*/nullptr, /*followupAll=*/nullptr);
  return LLVM::LoopAnnotationAttr::get(
      context, /*disableNonforced=*/nullptr, /*vectorize=*/nullptr,
      /*interleave=*/nullptr, /*unroll=*/noUnroll, /*unrollAndJam=*/nullptr,
      /*licm=*/nullptr, /*distribute=*/nullptr, /*pipeline=*/nullptr,
      /*peeled=*/nullptr, /*unswitch=*/nullptr, /*mustProgress=*/nullptr,
      /*isVectorized=*/nullptr, /*startLoc=*/nullptr, /*endLoc=*/nullptr,
      parallelAccesses);
}

/// True if `op` is an access the thread loop's access group may hold: not
/// an atomic (whose order between threads is the point) and not volatile.
static bool mayJoinAccessGroup(Operation *op) {
  if (isa<LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp>(op))
    return false;
  if (auto load = dyn_cast<LLVM::LoadOp>(op))
    return !load.getVolatile_();
  if (auto store = dyn_cast<LLVM::StoreOp>(op))
    return !store.getVolatile_();
  return true;
}

/// Puts the accesses of `loop`'s body in a new access group and returns it;
/// null if the loop has block-serial accesses, which must stay ordered, or
/// no accesses.
static LLVM::AccessGroupAttr groupThreadAccesses(scf::ParallelOp loop) {
  SmallVector<LLVM::AccessGroupOpInterface> accesses;
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    if (op->hasAttr(kBlockSerialAttr))
      return WalkResult::interrupt();
    if (auto access = dyn_cast<LLVM::AccessGroupOpInterface>(op))
      if (mayJoinAccessGroup(op))
        accesses.push_back(access);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || accesses.empty())
    return nullptr;
  auto group = LLVM::AccessGroupAttr::get(loop.getContext());
  for (LLVM::AccessGroupOpInterface access : accesses) {
    SmallVector<Attribute> groups;
    if (ArrayAttr existing = access.getAccessGroupsOrNull())
      groups.append(existing.begin(), existing.end());
    groups.push_back(group);
    access.setAccessGroups(ArrayAttr::get(loop.getContext(), groups));
  }
  return group;
}

/// Replaces `loop` by a nest of scf.for, its first dimension outermost;
/// with `parallelAccesses`, the loops declare the body's accesses parallel.
/// Fails (leaving the loop alone) when the loop has reductions.
LogicalResult serializeParallelLoop(scf::ParallelOp loop,
                                    bool parallelAccesses) {
  if (loop.getNumReductions() != 0)
    return loop.emitOpError("thread loop with reductions cannot be serialized");
  SmallVector<LLVM::AccessGroupAttr, 1> groups;
  if (parallelAccesses && isContiguousAlongX(loop))
    if (LLVM::AccessGroupAttr group = groupThreadAccesses(loop))
      groups.push_back(group);
  auto annotation = getThreadLoopAnnotation(loop.getContext(), groups);
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> inductionVars;
  Block *innermost = nullptr;
  for (auto [lower, upper, step] : llvm::zip(
           loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    auto forOp = scf::ForOp::create(builder, loc, lower, upper, step);
    // SCF-to-CF lowering moves the attribute to the loop's back edge.
    forOp->setAttr(kLoopAnnotationAttr, annotation);
    inductionVars.push_back(forOp.getInductionVar());
    innermost = forOp.getBody();
    builder.setInsertionPoint(innermost->getTerminator());
  }
  Block *body = loop.getBody();
  for (auto [arg, iv] : llvm::zip(body->getArguments(), inductionVars))
    arg.replaceAllUsesWith(iv);
  innermost->getOperations().splice(innermost->getTerminator()->getIterator(),
                                    body->getOperations(), body->begin(),
                                    std::prev(body->end()));
  loop.erase();
  return success();
}

namespace {
struct SerializeThreadLoopsPass
    : public respec::impl::SerializeThreadLoopsPassBase<SerializeThreadLoopsPass> {
  using SerializeThreadLoopsPassBase::SerializeThreadLoopsPassBase;
  void runOnOperation() override {
    for (scf::ParallelOp loop : collectThreadLoops(getOperation()))
      if (failed(serializeParallelLoop(loop, parallelAccesses)))
        return signalPassFailure();
  }
};
} // namespace
