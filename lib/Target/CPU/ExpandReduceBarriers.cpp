//===- ExpandReduceBarriers.cpp - __syncthreads_{count,and,or} ------------===//
//
// A reducing barrier is a barrier whose result combines one predicate per
// thread. On the CPU it becomes ordinary block code around two plain
// barriers:
//
//   votes[tid] = predicate;  barrier;
//   if (tid == 0) result = reduce(votes[0 .. threads]);  barrier;
//   r = result;
//
// One thread reduces, so the work is linear in the block size; the second
// barrier publishes the result before anyone reads it. Barrier lowering then
// treats both barriers like any other.
//
//===----------------------------------------------------------------------===//

#include "respec/Dialect/RespecDialect.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::respec {
#define GEN_PASS_DEF_EXPANDREDUCEBARRIERSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

/// Combines the running value `acc` with one thread's vote (0 or 1).
static Value combineVote(OpBuilder &builder, Location loc, StringRef kind,
                         Value acc, Value vote) {
  if (kind == "popc")
    return arith::AddIOp::create(builder, loc, acc, vote);
  if (kind == "and")
    return arith::AndIOp::create(builder, loc, acc, vote);
  return arith::OrIOp::create(builder, loc, acc, vote);
}

static LogicalResult expandReduceBarrier(ReduceBarrierOp reduce,
                                         scf::ParallelOp loop) {
  if (failed(verifyNormalizedThreadLoop(loop)))
    return failure();
  Location loc = reduce.getLoc();
  OpBuilder builder(reduce);
  Type i32 = builder.getI32Type();
  Value votes = allocateBlockArray(loop, i32, 1);
  Value result = allocateBlockArray(loop, i32, 1);

  Value tid = buildLinearThreadId(builder, loc, loop, loop.getInductionVars());
  Value vote = arith::ExtUIOp::create(builder, loc, i32, reduce.getPredicate());
  storeValue(builder, loc, vote,
             buildElementAddress(builder, loc, votes, i32, tid));
  BarrierOp::create(builder, loc, loop.getInductionVars());

  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value isFirst = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        tid, zero);
  auto ifFirst = scf::IfOp::create(builder, loc, isFirst, false);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(ifFirst.thenBlock());
    Value init = arith::ConstantIntOp::create(builder, loc, i32,
                                              reduce.getKind() == "and");
    Value count = buildThreadCount(builder, loc, loop);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    auto forOp = scf::ForOp::create(
        builder, loc, zero, count, one, ValueRange{init},
        [&](OpBuilder &b, Location l, Value thread, ValueRange acc) {
          Value threadVote = loadValue(
              b, l, i32, buildElementAddress(b, l, votes, i32, thread));
          scf::YieldOp::create(
              b, l, combineVote(b, l, reduce.getKind(), acc[0], threadVote));
        });
    storeValue(builder, loc, forOp.getResult(0),
               buildElementAddress(builder, loc, result, i32, zero));
  }
  BarrierOp::create(builder, loc, loop.getInductionVars());
  Value reduced = loadValue(builder, loc, i32,
                            buildElementAddress(builder, loc, result, i32, zero));
  reduce.getResult().replaceAllUsesWith(reduced);
  reduce.erase();
  return success();
}

namespace {
struct ExpandReduceBarriersPass
    : public respec::impl::ExpandReduceBarriersPassBase<
          ExpandReduceBarriersPass> {
  void runOnOperation() override {
    SmallVector<ReduceBarrierOp> reduces;
    getOperation().walk([&](ReduceBarrierOp op) { reduces.push_back(op); });
    for (ReduceBarrierOp reduce : reduces) {
      auto loop = reduce->getParentOfType<scf::ParallelOp>();
      if (failed(expandReduceBarrier(reduce, loop)))
        return signalPassFailure();
    }
  }
};
} // namespace
