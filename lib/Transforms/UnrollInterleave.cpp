//===- UnrollInterleave.cpp - Unroll-and-interleave of parallel loops -----===//
//
// Emitting copies statement by statement, rather than the whole body once
// per copy, is what keeps a coarsened block correct: every copy reaches each
// barrier before any copy passes it, exactly as the original threads did.
// Structured ops containing barriers are emitted once and carry the values
// of all copies (copy k's values at positions [k*n, (k+1)*n)), which needs
// their control to agree between copies; callers check that first.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/UnrollInterleave.h"
#include "respec/Dialect/RespecDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::respec;

bool mlir::respec::needsInterleaving(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isa<BarrierOp, ReduceBarrierOp, scf::ParallelOp>(nested)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

Operation *mlir::respec::findNonInterleavableOp(
    Block &body, function_ref<bool(Operation *)> isInvariant) {
  for (Operation &op : body.without_terminator()) {
    if (!needsInterleaving(&op) || isa<BarrierOp, ReduceBarrierOp>(op))
      continue;
    if (!isa<scf::IfOp, scf::ForOp, scf::WhileOp, scf::IndexSwitchOp,
             scf::ParallelOp>(op))
      return &op;
    if (auto parallel = dyn_cast<scf::ParallelOp>(op))
      if (parallel.getNumResults() != 0)
        return &op;
    if (!isInvariant(&op))
      return &op;
    for (Region &region : op.getRegions())
      for (Block &block : region)
        if (Operation *bad = findNonInterleavableOp(block, isInvariant))
          return bad;
  }
  return nullptr;
}

namespace {

using EmitSharedFn =
    function_ref<bool(OpBuilder &, Operation *, MutableArrayRef<IRMapping>)>;

class Interleaver {
public:
  Interleaver(OpBuilder &builder, MutableArrayRef<IRMapping> copies,
              ValueRange barrierThreads, bool copiesShareBlock,
              EmitSharedFn emitShared)
      : b(builder), copies(copies),
        threads(barrierThreads.begin(), barrierThreads.end()),
        copiesShareBlock(copiesShareBlock), emitShared(emitShared) {}

  void emitBlock(Block &body) {
    for (Operation &op : body.without_terminator())
      emitOp(&op);
  }

private:
  void emitOp(Operation *op) {
    if (emitShared && emitShared(b, op, copies))
      return;
    if (op->hasTrait<OpTrait::ConstantLike>()) {
      // The same in every copy: one is enough.
      Operation *constant = b.clone(*op, copies.front());
      for (IRMapping &mapping : copies.drop_front())
        mapping.map(op->getResults(), constant->getResults());
      return;
    }
    if (!needsInterleaving(op)) {
      for (IRMapping &mapping : copies)
        b.clone(*op, mapping);
      return;
    }
    if (auto barrier = dyn_cast<BarrierOp>(op))
      return (void)BarrierOp::create(b, barrier.getLoc(), threads);
    if (auto reduce = dyn_cast<ReduceBarrierOp>(op))
      return emitReduceBarrier(reduce);
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return emitIf(ifOp);
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      return emitFor(forOp);
    if (auto whileOp = dyn_cast<scf::WhileOp>(op))
      return emitWhile(whileOp);
    if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(op))
      return emitSwitch(switchOp);
    emitParallel(cast<scf::ParallelOp>(op));
  }

  /// `values` of every copy, copy after copy.
  SmallVector<Value> lookupAll(ValueRange values) {
    SmallVector<Value> result;
    for (IRMapping &mapping : copies)
      for (Value value : values)
        result.push_back(mapping.lookupOrDefault(value));
    return result;
  }

  static SmallVector<Type> repeatTypes(TypeRange types, size_t times) {
    SmallVector<Type> result;
    for (size_t i = 0; i < times; ++i)
      result.append(types.begin(), types.end());
    return result;
  }

  /// Maps `originals` in copy k to `replacements[k*n .. (k+1)*n)`.
  void mapAll(ValueRange originals, ValueRange replacements) {
    size_t n = originals.size();
    for (auto [k, mapping] : llvm::enumerate(copies))
      for (size_t i = 0; i < n; ++i)
        mapping.map(originals[i], replacements[k * n + i]);
  }

  /// Emits `source` (a region's block, with its terminator's operands
  /// collected for all copies) into `target`, ending with `terminate`.
  void emitRegionBody(Block &source, Block &target,
                      function_ref<void(ValueRange)> terminate) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(&target);
    emitBlock(source);
    terminate(lookupAll(source.getTerminator()->getOperands()));
  }

  /// Each copy contributes to its own block-wide reduction. When the copies
  /// are threads of one block (thread coarsening), together they stand for
  /// all of the block's threads, so the results combine with the
  /// reduction's own operator; copies that are different blocks keep their
  /// own results.
  void emitReduceBarrier(ReduceBarrierOp reduce) {
    if (!copiesShareBlock) {
      for (IRMapping &mapping : copies)
        mapping.map(reduce.getResult(),
                    ReduceBarrierOp::create(
                        b, reduce.getLoc(), reduce.getType(),
                        reduce.getKindAttr(),
                        mapping.lookupOrDefault(reduce.getPredicate()), threads)
                        .getResult());
      return;
    }
    Location loc = reduce.getLoc();
    Value combined;
    for (IRMapping &mapping : copies) {
      Value result =
          ReduceBarrierOp::create(b, loc, reduce.getType(),
                                  reduce.getKindAttr(),
                                  mapping.lookupOrDefault(reduce.getPredicate()),
                                  threads)
              .getResult();
      if (!combined)
        combined = result;
      else if (reduce.getKind() == "popc")
        combined = arith::AddIOp::create(b, loc, combined, result);
      else if (reduce.getKind() == "and")
        combined = arith::AndIOp::create(b, loc, combined, result);
      else
        combined = arith::OrIOp::create(b, loc, combined, result);
    }
    for (IRMapping &mapping : copies)
      mapping.map(reduce.getResult(), combined);
  }

  void emitIf(scf::IfOp ifOp) {
    bool hasElse = !ifOp.getElseRegion().empty();
    auto newIf = scf::IfOp::create(
        b, ifOp.getLoc(), repeatTypes(ifOp.getResultTypes(), copies.size()),
        copies.front().lookupOrDefault(ifOp.getCondition()),
        /*addThenBlock=*/true, /*addElseBlock=*/hasElse);
    auto fill = [&](Region &source, Region &target) {
      Block &block = target.front();
      if (!block.empty())
        block.getTerminator()->erase();
      emitRegionBody(source.front(), block, [&](ValueRange values) {
        scf::YieldOp::create(b, ifOp.getLoc(), values);
      });
    };
    fill(ifOp.getThenRegion(), newIf.getThenRegion());
    if (hasElse)
      fill(ifOp.getElseRegion(), newIf.getElseRegion());
    mapAll(ifOp.getResults(), newIf.getResults());
  }

  void emitFor(scf::ForOp forOp) {
    IRMapping &first = copies.front();
    auto newFor = scf::ForOp::create(
        b, forOp.getLoc(), first.lookupOrDefault(forOp.getLowerBound()),
        first.lookupOrDefault(forOp.getUpperBound()),
        first.lookupOrDefault(forOp.getStep()),
        lookupAll(forOp.getInitArgs()), /*bodyBuilder=*/nullptr,
        forOp.getUnsignedCmp());
    Block *body = newFor.getBody();
    if (!body->empty())
      body->getTerminator()->erase();
    for (IRMapping &mapping : copies)
      mapping.map(forOp.getInductionVar(), newFor.getInductionVar());
    mapAll(forOp.getRegionIterArgs(), newFor.getRegionIterArgs());
    emitRegionBody(*forOp.getBody(), *body, [&](ValueRange values) {
      scf::YieldOp::create(b, forOp.getLoc(), values);
    });
    mapAll(forOp.getResults(), newFor.getResults());
  }

  void emitWhile(scf::WhileOp whileOp) {
    Location loc = whileOp.getLoc();
    size_t numCopies = copies.size();
    auto newWhile = scf::WhileOp::create(
        b, loc, repeatTypes(whileOp.getResultTypes(), numCopies),
        lookupAll(whileOp.getInits()));
    Block *before = b.createBlock(
        &newWhile.getBefore(), {},
        repeatTypes(ValueRange(whileOp.getBeforeArguments()).getTypes(), numCopies),
        SmallVector<Location>(whileOp.getBeforeArguments().size() * numCopies,
                              loc));
    Block *after = b.createBlock(
        &newWhile.getAfter(), {},
        repeatTypes(ValueRange(whileOp.getAfterArguments()).getTypes(), numCopies),
        SmallVector<Location>(whileOp.getAfterArguments().size() * numCopies,
                              loc));
    b.setInsertionPointAfter(newWhile);

    mapAll(whileOp.getBeforeArguments(), before->getArguments());
    scf::ConditionOp condition = whileOp.getConditionOp();
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToEnd(before);
      emitBlock(whileOp.getBefore().front());
      scf::ConditionOp::create(
          b, condition.getLoc(),
          copies.front().lookupOrDefault(condition.getCondition()),
          lookupAll(condition.getArgs()));
    }
    mapAll(whileOp.getAfterArguments(), after->getArguments());
    emitRegionBody(whileOp.getAfter().front(), *after, [&](ValueRange values) {
      scf::YieldOp::create(b, loc, values);
    });
    mapAll(whileOp.getResults(), newWhile.getResults());
  }

  void emitSwitch(scf::IndexSwitchOp switchOp) {
    Location loc = switchOp.getLoc();
    auto newSwitch = scf::IndexSwitchOp::create(
        b, loc, repeatTypes(switchOp.getResultTypes(), copies.size()),
        copies.front().lookupOrDefault(switchOp.getArg()),
        switchOp.getCases(), switchOp.getNumCases());
    auto fill = [&](Region &source, Region &target) {
      OpBuilder::InsertionGuard guard(b);
      Block *block = b.createBlock(&target);
      emitRegionBody(source.front(), *block, [&](ValueRange values) {
        scf::YieldOp::create(b, loc, values);
      });
    };
    fill(switchOp.getDefaultRegion(), newSwitch.getDefaultRegion());
    for (auto [source, target] :
         llvm::zip(switchOp.getCaseRegions(), newSwitch.getCaseRegions()))
      fill(source, target);
    mapAll(switchOp.getResults(), newSwitch.getResults());
  }

  /// A nested parallel loop (the threads of coarsened blocks): one loop
  /// whose iterations run the copies' bodies for the same thread ids.
  void emitParallel(scf::ParallelOp parallel) {
    IRMapping &first = copies.front();
    auto lookup = [&](ValueRange values) {
      SmallVector<Value> result;
      for (Value value : values)
        result.push_back(first.lookupOrDefault(value));
      return result;
    };
    auto merged = scf::ParallelOp::create(
        b, parallel.getLoc(), lookup(parallel.getLowerBound()),
        lookup(parallel.getUpperBound()), lookup(parallel.getStep()));
    merged->setDiscardableAttrs(parallel->getDiscardableAttrDictionary());
    for (IRMapping &mapping : copies)
      for (auto [oldIv, newIv] : llvm::zip(parallel.getInductionVars(),
                                           merged.getInductionVars()))
        mapping.map(oldIv, newIv);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(merged.getBody()->getTerminator());
    SmallVector<Value> outerThreads = threads;
    ValueRange mergedIvs = merged.getInductionVars();
    threads.assign(mergedIvs.begin(), mergedIvs.end());
    emitBlock(*parallel.getBody());
    threads = outerThreads;
  }

  OpBuilder &b;
  MutableArrayRef<IRMapping> copies;
  SmallVector<Value> threads;
  bool copiesShareBlock;
  EmitSharedFn emitShared;
};

} // namespace

void mlir::respec::emitInterleaved(OpBuilder &builder, Block &body,
                                   MutableArrayRef<IRMapping> copies,
                                   ValueRange barrierThreads,
                                   bool copiesShareBlock,
                                   EmitSharedFn emitShared) {
  Interleaver(builder, copies, barrierThreads, copiesShareBlock, emitShared)
      .emitBlock(body);
}
