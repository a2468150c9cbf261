//===- LowerBarriers.cpp - Barriers out of thread loops by fission --------===//
//
// A CPU thread runs all threads of a block one after the other, so a barrier
// cannot wait for the others: it has to be removed from the program. As in
// Polygeist (PPoPP'23), the thread loop is transformed instead:
//
//   - fission: a barrier directly in a thread loop splits it in two loops;
//     every thread finishes the first before any starts the second, which is
//     what the barrier guarantees;
//   - interchange: a structured op (scf.if, scf.index_switch, scf.for,
//     scf.while) that contains a barrier is moved out of the thread loop and
//     a thread loop is put into each of its regions, recursively. Its control
//     must be uniform (PredicateDivergentBarriers guarantees it), so it is
//     evaluated once, for thread 0; so are the values it still carries or
//     yields, which that pass only leaves where every thread agrees on them;
//   - values defined before a split and used after it are kept per thread in
//     block-scope arrays, or recomputed, whichever keeps fewer bytes
//     (a minimum cut, CrossingValues.h); thread-private allocas used on both
//     sides become per-thread slices of a block-scope array.
//
//===----------------------------------------------------------------------===//

#include "respec/Dialect/RespecDialect.h"
#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/CrossingValues.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::respec {
#define GEN_PASS_DEF_LOWERBARRIERSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

/// True for a load from a barrier spill array: each slot is written once,
/// before the split that reads it, so the load may be repeated anywhere
/// after.
static bool isSpillLoad(Operation *op) {
  auto load = dyn_cast<LLVM::LoadOp>(op);
  if (!load)
    return false;
  Operation *base = getRootPointer(load.getAddr()).getDefiningOp();
  return base && base->hasAttr(kBarrierSpillAttr);
}

static bool isRecomputable(Operation *op) {
  if (op->getNumRegions() != 0 || isa<LLVM::AllocaOp>(op))
    return false;
  return isMemoryEffectFree(op) || isSpillLoad(op);
}

/// The first op directly in `block` that is or contains a barrier.
static Operation *findFirstBarrierOp(Block *block) {
  for (Operation &op : block->without_terminator())
    if (isBarrierLike(&op) || containsBarrier(&op))
      return &op;
  return nullptr;
}

/// Creates an empty thread loop like `loop` at `builder`'s position.
static scf::ParallelOp createSiblingLoop(OpBuilder &builder,
                                         scf::ParallelOp loop) {
  auto newLoop = scf::ParallelOp::create(builder, loop.getLoc(),
                                         loop.getLowerBound(),
                                         loop.getUpperBound(), loop.getStep());
  newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  return newLoop;
}

/// Makes the uses of `from` inside `scope` use `to`.
static void replaceUsesInside(Operation *scope, ValueRange from,
                              ValueRange to) {
  for (auto [oldValue, newValue] : llvm::zip(from, to))
    oldValue.replaceUsesWithIf(newValue, [&](OpOperand &use) {
      return scope->isAncestor(use.getOwner());
    });
}

namespace {
class BarrierLowering {
public:
  BarrierLowering(bool minimizeCrossing, LLVM::LLVMFuncOp barrierPoint)
      : minimizeCrossing(minimizeCrossing), barrierPoint(barrierPoint) {}

  /// Removes every barrier of `loop` by fission and interchange.
  LogicalResult lowerThreadLoop(scf::ParallelOp loop);

private:
  FailureOr<scf::ParallelOp> splitBefore(scf::ParallelOp loop, Operation *op,
                                         Operation *hoisted = nullptr);
  LogicalResult hoistCrossingAllocas(scf::ParallelOp loop,
                                     scf::ParallelOp next);
  LogicalResult materializeCrossingValues(scf::ParallelOp loop,
                                          scf::ParallelOp next,
                                          Operation *hoisted);
  LogicalResult interchange(scf::ParallelOp loop, Operation *regionOp,
                            SmallVectorImpl<scf::ParallelOp> &innerLoops);
  scf::ParallelOp wrapBlockInThreadLoop(Block &block, scf::ParallelOp loop,
                                        ArrayRef<Operation *> prefix);
  bool onlyMaterializedBefore(Operation *op);
  void eraseLoop(scf::ParallelOp loop);
  void eraseIfSideEffectFree(scf::ParallelOp loop);

  bool marksBarrier(Operation *barrier, scf::ParallelOp loop);
  void markBarrierAfter(scf::ParallelOp loop);

  bool minimizeCrossing;
  /// The declaration of the barrier marker, or null without
  /// `mark-barriers`.
  LLVM::LLVMFuncOp barrierPoint;
  /// Ops that recompute or reload crossing values at the start of a loop:
  /// side-effect free, so they may be cloned and evaluated for thread 0.
  llvm::DenseSet<Operation *> materialized;
};
} // namespace

/// Erases `loop`, forgetting its ops first: their memory may be reused for
/// new ops, which must not be taken for materialized ones.
void BarrierLowering::eraseLoop(scf::ParallelOp loop) {
  loop->walk([&](Operation *op) { materialized.erase(op); });
  loop.erase();
}

/// Erases `loop` if running it has no effect: after a split, the reloads
/// and recomputations left in a loop only fed code after it, but spills to
/// later loops must stay.
void BarrierLowering::eraseIfSideEffectFree(scf::ParallelOp loop) {
  for (Operation &op : loop.getBody()->without_terminator())
    if (!isMemoryEffectFree(&op) && !isSpillLoad(&op))
      return;
  eraseLoop(loop);
}

bool BarrierLowering::onlyMaterializedBefore(Operation *op) {
  for (Operation &before : *op->getBlock()) {
    if (&before == op)
      return true;
    if (!materialized.contains(&before))
      return false;
  }
  return true;
}

LogicalResult BarrierLowering::lowerThreadLoop(scf::ParallelOp root) {
  SmallVector<scf::ParallelOp> pending{root};
  while (!pending.empty()) {
    scf::ParallelOp loop = pending.pop_back_val();
    while (loop) {
      Operation *barrierOp = findFirstBarrierOp(loop.getBody());
      if (!barrierOp)
        break;
      if (!onlyMaterializedBefore(barrierOp)) {
        FailureOr<scf::ParallelOp> rest = splitBefore(loop, barrierOp);
        if (failed(rest))
          return failure();
        eraseIfSideEffectFree(loop);
        loop = *rest;
      }
      scf::ParallelOp next;
      Operation *following = barrierOp->getNextNode();
      if (following != loop.getBody()->getTerminator()) {
        // An op interchanged below moves to block scope, and its results
        // (uniform, see interchange) with it: they need not cross.
        FailureOr<scf::ParallelOp> rest = splitBefore(
            loop, following, isa<BarrierOp>(barrierOp) ? nullptr : barrierOp);
        if (failed(rest))
          return failure();
        next = *rest;
      }
      if (isa<BarrierOp>(barrierOp)) {
        if (marksBarrier(barrierOp, loop))
          markBarrierAfter(loop);
        barrierOp->erase();
        eraseIfSideEffectFree(loop);
      } else if (failed(interchange(loop, barrierOp, pending))) {
        return failure();
      }
      loop = next;
    }
  }
  return success();
}

/// True if the barrier `barrier` of `loop` is one of the kernel's in a grid
/// whose slices meet at barriers: not one the interchange of serial loops
/// inserted, which separates steps of each thread's own loop.
bool BarrierLowering::marksBarrier(Operation *barrier, scf::ParallelOp loop) {
  if (!barrierPoint || barrier->hasAttr(kInterchangeAttr))
    return false;
  Operation *grid = loop->getParentOp();
  while (grid && !isGridLoop(grid))
    grid = grid->getParentOp();
  return grid && grid->hasAttr(kBarrierSynchronizedThreadsAttr);
}

/// Marks the barrier that ends `loop` at block level, right after it: the
/// loop after the split comes next.
void BarrierLowering::markBarrierAfter(scf::ParallelOp loop) {
  OpBuilder builder(loop->getContext());
  builder.setInsertionPointAfter(loop);
  LLVM::CallOp::create(builder, loop.getLoc(), barrierPoint, ValueRange{});
}

FailureOr<scf::ParallelOp> BarrierLowering::splitBefore(scf::ParallelOp loop,
                                                        Operation *op,
                                                        Operation *hoisted) {
  OpBuilder builder(loop->getContext());
  builder.setInsertionPointAfter(loop);
  scf::ParallelOp next = createSiblingLoop(builder, loop);
  Block *body = loop.getBody();
  Block *nextBody = next.getBody();
  nextBody->getOperations().splice(nextBody->getTerminator()->getIterator(),
                                   body->getOperations(), op->getIterator(),
                                   body->getTerminator()->getIterator());
  replaceUsesInside(next, loop.getInductionVars(), next.getInductionVars());
  if (failed(hoistCrossingAllocas(loop, next)) ||
      failed(materializeCrossingValues(loop, next, hoisted)))
    return failure();
  return next;
}

/// True if the memory of `alloca` may be accessed from `next`: its address,
/// or anything computed from it, is used there or escapes.
static bool isAllocaUsedIn(LLVM::AllocaOp alloca, scf::ParallelOp next) {
  Block *body = alloca->getBlock();
  SmallVector<Value> worklist{alloca.getResult()};
  llvm::DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!visited.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (next->isAncestor(user))
        return true;
      if (auto store = dyn_cast<LLVM::StoreOp>(user))
        if (store.getValue() == value)
          return true;
      if (isa<CallOpInterface>(user))
        return true;
      if (Operation *top = body->findAncestorOpInBlock(*user))
        for (Value result : top->getResults())
          if (isa<LLVM::LLVMPointerType>(result.getType()))
            worklist.push_back(result);
    }
  }
  return false;
}

/// Replaces `alloca` (private to each thread of `loop`) by the thread's
/// slice of a block-scope array, so that it outlives the split.
static LogicalResult hoistAlloca(LLVM::AllocaOp alloca, scf::ParallelOp loop) {
  APInt count;
  if (!matchPattern(alloca.getArraySize(), m_ConstantInt(&count)))
    return alloca.emitError(
        "a variable-sized local array is live across __syncthreads; respec "
        "cannot keep it per thread");
  DataLayout layout = DataLayout::closest(alloca);
  uint64_t align = std::max<uint64_t>(
      {alloca.getAlignment().value_or(1),
       layout.getTypeABIAlignment(alloca.getElemType()), 1});
  // Block arrays are 64-byte aligned (ThreadLoopUtils.h); each thread's
  // slice keeps the local variable's alignment up to that.
  if (align > 64)
    return alloca.emitError("a local variable aligned to ")
           << align
           << " bytes is live across __syncthreads; respec keeps such "
              "variables per thread only up to 64-byte alignment";
  uint64_t bytes = llvm::alignTo(
      layout.getTypeSize(alloca.getElemType()).getFixedValue() *
          count.getZExtValue(),
      align);
  // Lifetime markers only apply to allocas; the slice lives for the block.
  for (Operation *user : llvm::make_early_inc_range(alloca->getUsers()))
    if (isa<LLVM::LifetimeStartOp, LLVM::LifetimeEndOp>(user))
      user->erase();
  OpBuilder builder(alloca);
  Type i8 = builder.getI8Type();
  Value base = allocateBlockArray(loop, i8, std::max<uint64_t>(bytes, 1),
                                  {kThreadPrivateAttr});
  Location loc = alloca.getLoc();
  Value tid = buildLinearThreadId(builder, loc, loop, loop.getInductionVars());
  Value offset = arith::MulIOp::create(
      builder, loc, tid, arith::ConstantIndexOp::create(builder, loc, bytes));
  alloca.replaceAllUsesWith(
      buildElementAddress(builder, loc, base, i8, offset));
  alloca.erase();
  return success();
}

LogicalResult BarrierLowering::hoistCrossingAllocas(scf::ParallelOp loop,
                                                    scf::ParallelOp next) {
  SmallVector<LLVM::AllocaOp> allocas;
  for (auto alloca : loop.getBody()->getOps<LLVM::AllocaOp>())
    if (isAllocaUsedIn(alloca, next))
      allocas.push_back(alloca);
  for (LLVM::AllocaOp alloca : allocas)
    if (failed(hoistAlloca(alloca, loop)))
      return failure();
  return success();
}

LogicalResult
BarrierLowering::materializeCrossingValues(scf::ParallelOp loop,
                                           scf::ParallelOp next,
                                           Operation *hoisted) {
  Block *body = loop.getBody();
  llvm::SetVector<Value> needed;
  next.walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        if (def->getBlock() == body && def != hoisted)
          needed.insert(operand);
  });
  if (needed.empty())
    return success();

  DataLayout layout = DataLayout::closest(loop);
  CrossingPlan plan = planCrossingValues(
      body, needed.getArrayRef(), isRecomputable,
      [&](Value value) -> int64_t {
        Type storage = getStorageType(value.getType());
        return storage ? layout.getTypeSize(storage).getFixedValue() : 1;
      },
      minimizeCrossing);

  Block *nextBody = next.getBody();
  Operation *firstMoved = &nextBody->front();
  OpBuilder builder = OpBuilder::atBlockBegin(nextBody);
  Location loc = loop.getLoc();
  IRMapping mapping;
  mapping.map(loop.getInductionVars(), next.getInductionVars());
  if (!plan.stored.empty()) {
    Value nextTid =
        buildLinearThreadId(builder, loc, next, next.getInductionVars());
    for (Value value : plan.stored) {
      Type storage = getStorageType(value.getType());
      if (!storage)
        return value.getDefiningOp()->emitError("a value of type ")
               << value.getType()
               << " is live across __syncthreads; respec cannot keep it";
      Value slots = allocateBlockArray(loop, storage, 1,
                                       {kThreadPrivateAttr, kBarrierSpillAttr});
      OpBuilder storeBuilder(value.getContext());
      storeBuilder.setInsertionPointAfter(value.getDefiningOp());
      Value tid = buildLinearThreadId(storeBuilder, loc, loop,
                                      loop.getInductionVars());
      storeValue(storeBuilder, loc, value,
                 buildElementAddress(storeBuilder, loc, slots, storage, tid));
      mapping.map(value,
                  loadValue(builder, loc, value.getType(),
                            buildElementAddress(builder, loc, slots, storage,
                                                nextTid)));
    }
  }
  for (Operation *op : plan.recomputed)
    builder.clone(*op, mapping);
  for (Operation &op : *nextBody) {
    if (&op == firstMoved)
      break;
    materialized.insert(&op);
  }
  for (Value value : needed)
    value.replaceUsesWithIf(mapping.lookup(value), [&](OpOperand &use) {
      return next->isAncestor(use.getOwner()) &&
             !materialized.contains(use.getOwner());
    });
  return success();
}

/// Moves the ops of `block` (all but its terminator) into a new thread loop
/// like `loop`, preceded by clones of `prefix` for the new loop's threads.
scf::ParallelOp
BarrierLowering::wrapBlockInThreadLoop(Block &block, scf::ParallelOp loop,
                                       ArrayRef<Operation *> prefix) {
  OpBuilder builder(block.getTerminator());
  scf::ParallelOp inner = createSiblingLoop(builder, loop);
  Block *innerBody = inner.getBody();
  innerBody->getOperations().splice(innerBody->getTerminator()->getIterator(),
                                    block.getOperations(), block.begin(),
                                    inner->getIterator());
  builder.setInsertionPointToStart(innerBody);
  IRMapping mapping;
  mapping.map(loop.getInductionVars(), inner.getInductionVars());
  for (Operation *op : prefix)
    materialized.insert(builder.clone(*op, mapping));
  replaceUsesInside(inner, loop.getInductionVars(), inner.getInductionVars());
  for (Operation *op : prefix)
    replaceUsesInside(inner, op->getResults(),
                      llvm::to_vector(llvm::map_range(
                          op->getResults(),
                          [&](Value v) { return mapping.lookup(v); })));
  return inner;
}

/// Recomputes `value` (defined in `inner`) before `user`, outside `inner`,
/// if it is a short chain of pure ops on values from outside `inner` (a loop
/// counter's step, say, or the exit test of a rotated loop, whose
/// structured form selects the next counter and the flag in a pure
/// `scf.if`); returns null otherwise.
static Value recomputeOutside(scf::ParallelOp inner, Value value,
                              Operation *user) {
  constexpr unsigned kMaxOps = 16;
  unsigned numOps = 0;
  SmallVector<Operation *> chain;
  llvm::SmallPtrSet<Operation *, 8> seen;
  SmallVector<Value> worklist{value};
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    Operation *def = current.getDefiningOp();
    if (!def || !inner->isAncestor(def)) {
      if (llvm::is_contained(inner.getInductionVars(), current))
        return nullptr;
      continue;
    }
    if (!seen.insert(def).second)
      continue;
    def->walk([&](Operation *) { ++numOps; });
    if (numOps > kMaxOps || !isMemoryEffectFree(def) ||
        def->getBlock() != inner.getBody())
      return nullptr;
    chain.push_back(def);
    llvm::append_range(worklist, def->getOperands());
    if (def->getNumRegions() != 0) {
      llvm::SetVector<Value> captured;
      getUsedValuesDefinedAbove(def->getRegions(), captured);
      llvm::append_range(worklist, captured);
    }
  }
  // Clone in program order, so that operands come first.
  llvm::sort(chain, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  OpBuilder builder(user);
  IRMapping mapping;
  for (Operation *op : chain)
    builder.clone(*op, mapping);
  return mapping.lookup(value);
}

/// Every thread of `inner` records `value` (defined in it) in a block
/// array; returns thread 0's entry, loaded before `user` (after `inner`).
static FailureOr<Value> recordForThreadZero(scf::ParallelOp inner,
                                            Value value, Operation *user) {
  Location loc = user->getLoc();
  Type storage = getStorageType(value.getType());
  if (!storage)
    return value.getDefiningOp()->emitError("a value of type ")
           << value.getType()
           << " is carried across __syncthreads; respec cannot keep it";
  Value slots = allocateBlockArray(inner, storage, 1);
  OpBuilder inside(inner.getBody()->getTerminator());
  Value tid = buildLinearThreadId(inside, loc, inner, inner.getInductionVars());
  storeValue(inside, loc, value,
             buildElementAddress(inside, loc, slots, storage, tid));
  OpBuilder after(user);
  Value zero = arith::ConstantIndexOp::create(after, loc, 0);
  Value address = buildElementAddress(after, loc, slots, storage, zero);
  Value loaded = loadValue(after, loc, value.getType(), address);
  // Any thread's entry would do (respec-parallelize-few-block-grids reads
  // the first thread of a slice instead).
  for (Operation *load : address.getUsers())
    load->setAttr(kThreadZeroEntryAttr, UnitAttr::get(user->getContext()));
  return loaded;
}

LogicalResult
BarrierLowering::interchange(scf::ParallelOp loop, Operation *regionOp,
                             SmallVectorImpl<scf::ParallelOp> &innerLoops) {
  if (!isa<scf::IfOp, scf::IndexSwitchOp, scf::ForOp, scf::WhileOp>(
          regionOp))
    return regionOp->emitError("respec cannot lower a __syncthreads nested "
                               "in this construct ('")
           << regionOp->getName() << "')";

  SmallVector<Operation *> prefix;
  for (Operation &op : *loop.getBody()) {
    if (&op == regionOp)
      break;
    prefix.push_back(&op);
  }

  // The control is uniform: evaluate it once, as thread 0 would.
  OpBuilder builder(loop);
  IRMapping threadZero;
  threadZero.map(loop.getInductionVars(), loop.getLowerBound());
  for (Operation *op : prefix)
    builder.clone(*op, threadZero);
  for (OpOperand &operand : regionOp->getOpOperands())
    if (Value mapped = threadZero.lookupOrNull(operand.get()))
      operand.set(mapped);
  regionOp->moveBefore(loop);

  for (Region &region : regionOp->getRegions()) {
    if (region.empty())
      continue;
    Block &block = region.front();
    Operation *terminator = block.getTerminator();
    scf::ParallelOp inner;
    if (!block.without_terminator().empty()) {
      inner = wrapBlockInThreadLoop(block, loop, prefix);
      innerLoops.push_back(inner);
    }
    // The terminator now runs once per block: its operands (an exit
    // condition, values yielded or carried, all uniform) are taken from
    // thread 0.
    for (OpOperand &operand : terminator->getOpOperands()) {
      Value value = operand.get();
      if (Value mapped = threadZero.lookupOrNull(value)) {
        operand.set(mapped);
      } else if (Operation *def = value.getDefiningOp();
                 inner && def && inner->isAncestor(def)) {
        if (Value recomputed = recomputeOutside(inner, value, terminator)) {
          operand.set(recomputed);
          continue;
        }
        FailureOr<Value> fromThreadZero =
            recordForThreadZero(inner, value, terminator);
        if (failed(fromThreadZero))
          return failure();
        operand.set(*fromThreadZero);
      }
    }
  }

  for (Operation &op : *loop.getBody())
    for (Value result : op.getResults())
      for (Operation *user : result.getUsers())
        if (!loop->isAncestor(user))
          return user->emitError(
              "internal error: a value crosses a barrier unlowered");
  eraseLoop(loop);
  return success();
}

namespace {
struct LowerBarriersPass
    : public respec::impl::LowerBarriersPassBase<LowerBarriersPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    LLVM::LLVMFuncOp barrierPoint;
    if (markBarriers) {
      barrierPoint =
          module.lookupSymbol<LLVM::LLVMFuncOp>(kBarrierPointFunction);
      if (!barrierPoint) {
        auto builder = OpBuilder::atBlockEnd(module.getBody());
        barrierPoint = LLVM::LLVMFuncOp::create(
            builder, module.getLoc(), kBarrierPointFunction,
            LLVM::LLVMFunctionType::get(
                LLVM::LLVMVoidType::get(module.getContext()), {}));
      }
    }
    BarrierLowering lowering(minimizeCrossing, barrierPoint);
    for (scf::ParallelOp loop : collectThreadLoops(getOperation())) {
      if (!containsBarrier(loop))
        continue;
      if (failed(verifyNormalizedThreadLoop(loop)) ||
          failed(lowering.lowerThreadLoop(loop)))
        return signalPassFailure();
    }
  }
};
} // namespace
