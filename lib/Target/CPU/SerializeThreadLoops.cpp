//===- SerializeThreadLoops.cpp - Thread loops as counted loop nests ------===//
//
// On the CPU one OpenMP thread runs a whole GPU block, so the loop over the
// block's threads becomes an ordinary counted loop nest. Without barriers the
// iterations of a thread loop are independent, so any order is correct; x
// innermost keeps consecutive threads' accesses consecutive in memory, which
// is what LLVM's loop vectorizer needs.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir::respec {
#define GEN_PASS_DEF_SERIALIZETHREADLOOPSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

/// The attribute of a branch that carries LLVM loop metadata.
static constexpr StringLiteral kLoopAnnotationAttr = "loop_annotation";

/// Loop metadata for a thread loop: no unrolling. With a constant block
/// size LLVM would otherwise fully unroll short thread loops (16 threads of
/// a 16x16 block) before its loop vectorizer runs, and the straight-line
/// code it leaves rarely vectorizes (the SLP vectorizer gives up on address
/// arithmetic the loop vectorizer handles with run-time checks). The loop
/// vectorizer still vectorizes and interleaves the loop.
LLVM::LoopAnnotationAttr getThreadLoopAnnotation(MLIRContext *context) {
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
      /*parallelAccesses=*/{});
}

/// Replaces `loop` by a nest of scf.for, its first dimension outermost.
/// Fails (leaving the loop alone) when the loop has reductions.
LogicalResult serializeParallelLoop(scf::ParallelOp loop) {
  if (loop.getNumReductions() != 0)
    return loop.emitOpError("thread loop with reductions cannot be serialized");
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> inductionVars;
  Block *innermost = nullptr;
  for (auto [lower, upper, step] : llvm::zip(
           loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    auto forOp = scf::ForOp::create(builder, loc, lower, upper, step);
    // SCF-to-CF lowering moves the attribute to the loop's back edge.
    forOp->setAttr(kLoopAnnotationAttr,
                   getThreadLoopAnnotation(loop.getContext()));
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
  void runOnOperation() override {
    for (scf::ParallelOp loop : collectThreadLoops(getOperation()))
      if (failed(serializeParallelLoop(loop)))
        return signalPassFailure();
  }
};
} // namespace
