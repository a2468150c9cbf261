//===- FreezeBlockIndices.cpp - Block indices opaque to LLVM's SCEV -------===//
//
// The grid loop becomes one OpenMP worksharing loop over all blocks: the
// OpenMP lowering collapses its dimensions into one counter and computes
// each block index from it by division and remainder. LLVM's scalar
// evolution sees through those, and loop strength reduction then rewrites
// uses of a block index inside the thread loops in terms of the collapsed
// counter, recomputing the division at each use: a 64-bit `div` per thread
// (measured in hotspot's halo loads). Freezing each block index at the start
// of the block makes it an opaque value, computed once per block, which is
// all the thread loops need. Freezing a value that is not poison returns it
// unchanged.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::respec {
#define GEN_PASS_DEF_FREEZEBLOCKINDICESPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// Replaces the uses of each induction variable of `grid` by a frozen copy
/// made at the start of its body.
void freezeInductionVariables(scf::ParallelOp grid) {
  OpBuilder builder = OpBuilder::atBlockBegin(grid.getBody());
  Location loc = grid.getLoc();
  for (Value index : grid.getInductionVars()) {
    if (index.use_empty())
      continue;
    auto wide = arith::IndexCastUIOp::create(builder, loc,
                                             builder.getI64Type(), index);
    auto frozen = LLVM::FreezeOp::create(builder, loc, wide);
    auto opaque = arith::IndexCastUIOp::create(
        builder, loc, builder.getIndexType(), frozen);
    index.replaceAllUsesExcept(opaque, wide);
  }
}

struct FreezeBlockIndicesPass
    : public respec::impl::FreezeBlockIndicesPassBase<FreezeBlockIndicesPass> {
  void runOnOperation() override {
    getOperation()->walk([](scf::ParallelOp loop) {
      if (isGridLoop(loop))
        freezeInductionVariables(loop);
    });
  }
};

} // namespace
