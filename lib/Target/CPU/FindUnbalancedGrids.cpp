//===- FindUnbalancedGrids.cpp - Kernels whose blocks differ in work ------===//
//
// The blocks of a grid run on the cores as an OpenMP worksharing loop. With
// a static schedule each core takes one contiguous run of blocks, chosen
// before any runs: the cheapest choice, and the best one when every block
// does the same work, but one core may finish long before the other when
// blocks differ (a row of a Mandelbrot set, a BFS level whose frontier lies
// in a few blocks, rows of a sparse matrix). A dynamic schedule hands out
// blocks as cores become free, for an atomic increment per block.
//
// This pass marks the launch functions whose blocks may do different work
// (kUnbalancedBlocksAttr), for respec-schedule-grid-loops: a loop inside the
// grid whose bounds or exit test depend on a value read from memory (a
// load, an atomic, a call) or on the block index, or a loop under a branch
// that depends on a value read from memory, or any branch that bounds the
// block index from below by a run-time value (`if (j > k)`: the leading
// blocks idle, however little work the others do). Other branches on the
// block index (`if (i < n)`) do not count: only the last blocks of a grid
// differ there. It runs on the parallel IR as raised, where
// the loops and loads are the kernel's own: barrier lowering later keeps
// values, loop counters among them, in block-scope memory, which would read as
// data.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::respec {
#define GEN_PASS_DEF_FINDUNBALANCEDGRIDSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {
/// The values of a grid loop's body that may differ between its blocks
/// because of data (`loaded`) or of the block index alone (`indexed`).
class BlockVariance {
public:
  explicit BlockVariance(scf::ParallelOp grid) {
    for (Value iv : grid.getInductionVars())
      indexed.insert(iv);
    grid.walk([&](Operation *op) {
      if (isa<LLVM::LoadOp, LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp>(op) ||
          isa<CallOpInterface>(op))
        for (Value result : op->getResults())
          loaded.insert(result);
    });
    // Forward propagation to a fixed point: loop-carried values may make
    // a value varying only after its loop's yield is seen.
    bool changed = true;
    while (changed) {
      changed = false;
      grid.walk([&](Operation *op) { changed |= propagate(op); });
    }
  }

  bool isLoaded(Value value) const { return loaded.contains(value); }
  bool isIndexed(Value value) const { return indexed.contains(value); }
  bool isVarying(Value value) const {
    return loaded.contains(value) || indexed.contains(value);
  }

private:
  /// Marks `to` like `from`; true if that changed anything.
  bool mark(Value to, Value from) {
    bool changed = false;
    if (loaded.contains(from))
      changed |= loaded.insert(to).second;
    if (indexed.contains(from))
      changed |= indexed.insert(to).second;
    return changed;
  }

  bool propagate(Operation *op) {
    bool changed = false;
    // Results depend on every operand (conservative for all ops).
    for (Value operand : op->getOperands())
      for (Value result : op->getResults())
        changed |= mark(result, operand);
    // Values yielded to a region's arguments or the op's results.
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
      for (auto [arg, init, next, result] :
           llvm::zip(forOp.getRegionIterArgs(), forOp.getInitArgs(),
                     yield.getOperands(), forOp.getResults())) {
        Value carried = arg, exit = result;
        for (auto [to, from] : {std::pair<Value, Value>(carried, init),
                                {carried, next},
                                {exit, next},
                                {exit, carried}})
          changed |= mark(to, from);
      }
    } else if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
      scf::ConditionOp condition = whileOp.getConditionOp();
      for (auto [arg, init, next] :
           llvm::zip(whileOp.getBeforeArguments(), whileOp.getInits(),
                     whileOp.getYieldOp().getOperands()))
        for (Value from : {Value(init), Value(next)})
          changed |= mark(arg, from);
      for (auto [passed, arg, result] :
           llvm::zip(condition.getArgs(), whileOp.getAfterArguments(),
                     whileOp.getResults()))
        for (Value to : {Value(arg), Value(result)})
          changed |= mark(to, passed);
    } else if (op->getNumRegions() != 0 && op->getNumResults() != 0) {
      // scf.if / scf.index_switch: results from the yields.
      for (Region &region : op->getRegions())
        for (Block &block : region)
          if (Operation *terminator = block.getTerminator())
            for (auto [operand, result] :
                 llvm::zip(terminator->getOperands(), op->getResults()))
              changed |= mark(result, operand);
    }
    return changed;
  }

  llvm::DenseSet<Value> loaded, indexed;
};
} // namespace

static bool containsLoop(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isa<scf::ForOp, scf::WhileOp>(nested) ? WalkResult::interrupt()
                                                     : WalkResult::advance();
      })
      .wasInterrupted();
}

/// True if `condition` (through `and` and `or`) bounds a value that varies
/// with the block index from below by a value other than a constant:
/// `j > k` with j the global thread index and k a kernel argument (the
/// columns right of a pivot, a triangle's rows). The grid's leading
/// blocks, as many as k decides, then have no work. An upper bound
/// (`i < n`) leaves only the last blocks short, as a bounds check does.
static bool boundsBlocksFromBelow(Value condition,
                                  const BlockVariance &variance) {
  Operation *def = condition.getDefiningOp();
  if (!def)
    return false;
  if (isa<LLVM::AndOp, LLVM::OrOp, arith::AndIOp, arith::OrIOp>(def))
    return llvm::any_of(def->getOperands(), [&](Value operand) {
      return boundsBlocksFromBelow(operand, variance);
    });
  std::optional<IntComparison> cmp = matchIntComparison(condition);
  if (!cmp)
    return false;
  // `bounded > bound` (or >=), with the operands in either order.
  auto boundsFirstFromBelow = [&](arith::CmpIPredicate predicate, Value bounded,
                                  Value bound) {
    bool isLowerBound = predicate == arith::CmpIPredicate::sgt ||
                        predicate == arith::CmpIPredicate::sge ||
                        predicate == arith::CmpIPredicate::ugt ||
                        predicate == arith::CmpIPredicate::uge;
    return isLowerBound && variance.isIndexed(bounded) &&
           !variance.isVarying(bound) && !matchPattern(bound, m_Constant());
  };
  return boundsFirstFromBelow(cmp->predicate, cmp->lhs, cmp->rhs) ||
         boundsFirstFromBelow(swapOperandsOf(cmp->predicate), cmp->rhs,
                              cmp->lhs);
}

/// True if blocks of `grid` may do different amounts of work (see the
/// file comment).
static bool mayBeUnbalanced(scf::ParallelOp grid) {
  BlockVariance variance(grid);
  WalkResult result = grid.walk([&](Operation *op) {
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      if (variance.isVarying(forOp.getLowerBound()) ||
          variance.isVarying(forOp.getUpperBound()) ||
          variance.isVarying(forOp.getStep()))
        return WalkResult::interrupt();
    } else if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
      if (variance.isVarying(whileOp.getConditionOp().getCondition()))
        return WalkResult::interrupt();
    } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      Value condition = ifOp.getCondition();
      // A lower bound idles whole blocks, also around straight-line code
      // (LU's update of the trailing submatrix).
      if ((variance.isLoaded(condition) && containsLoop(ifOp)) ||
          boundsBlocksFromBelow(condition, variance))
        return WalkResult::interrupt();
    } else if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(op)) {
      if (variance.isLoaded(switchOp.getArg()) && containsLoop(switchOp))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

namespace {
struct FindUnbalancedGridsPass
    : public respec::impl::FindUnbalancedGridsPassBase<
          FindUnbalancedGridsPass> {
  void runOnOperation() override {
    getOperation().walk([&](scf::ParallelOp loop) {
      if (!isGridLoop(loop) || !mayBeUnbalanced(loop))
        return;
      if (auto func = loop->getParentOfType<FunctionOpInterface>())
        func->setAttr(kUnbalancedBlocksAttr, UnitAttr::get(&getContext()));
    });
  }
};
} // namespace
