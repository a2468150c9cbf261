//===- PredicateDivergentBarriers.cpp - Barriers under divergent control --===//
//
// Barrier lowering (LowerBarriers.cpp) turns a structured op around a barrier
// into block-level control flow with thread loops inside; that is only right
// when every thread takes the same path, i.e. the op's control is uniform.
// This pass prepares the thread loop so that it is:
//
//   1. The results and loop-carried values of ops that contain a barrier are
//      demoted to thread-private memory, so that no SSA value flows out of
//      such an op (its regions will be split into several thread loops).
//      Values every thread agrees on, carried by ops whose control stays
//      structured, are kept: barrier lowering holds them once per block.
//   2. Control that is not provably uniform is predicated:
//      - `scf.if` / `scf.index_switch` around a barrier is flattened: the
//        barriers are executed by every thread, and the code between them is
//        guarded by the thread's own branch condition;
//      - a loop around a barrier keeps running while any thread still wants
//        to (a `respec.reduce_barrier "or"` of the per-thread conditions);
//        threads that have left it are masked off.
//
// Divergent barriers are undefined behaviour in CUDA; the predicated form
// gives what NVIDIA hardware gives since Volta for the common cases (threads
// that returned early no longer take part in barriers), and never hangs.
//
//===----------------------------------------------------------------------===//

#include "respec/Dialect/RespecDialect.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"
#include "respec/Transforms/ThreadUniformity.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::respec {
#define GEN_PASS_DEF_PREDICATEDIVERGENTBARRIERSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

/// Marks structured ops around barriers whose control is not uniform.
static constexpr StringLiteral kDivergentAttr = "respec.divergent";

static bool isDivergent(Operation *op) { return op->hasAttr(kDivergentAttr); }

//===----------------------------------------------------------------------===//
// Step 1: demotion of values that flow out of barrier regions
//===----------------------------------------------------------------------===//

namespace {
/// Creates thread-private slots for one thread loop.
class SlotFactory {
public:
  explicit SlotFactory(scf::ParallelOp threadLoop) : threadLoop(threadLoop) {}

  SmallVector<Value> create(TypeRange types) {
    SmallVector<Value> slots;
    for (Type type : types)
      slots.push_back(createThreadPrivateSlot(threadLoop, type));
    return slots;
  }

  scf::ParallelOp threadLoop;
};
} // namespace

/// Which of an op's carried positions stay SSA values (uniform ones, see
/// canKeepCarried); the others are demoted to thread-private slots.
using KeepMask = SmallVector<bool>;

/// The entries of `values` at the kept positions.
static SmallVector<Value> selectValues(ValueRange values,
                                       ArrayRef<bool> keep) {
  SmallVector<Value> out;
  for (auto [value, k] : llvm::zip(values, keep))
    if (k)
      out.push_back(value);
  return out;
}

static SmallVector<Type> selectTypes(TypeRange types, ArrayRef<bool> keep) {
  SmallVector<Type> out;
  for (auto [type, k] : llvm::zip(types, keep))
    if (k)
      out.push_back(type);
  return out;
}

/// A slot for each demoted position (null for kept ones).
static SmallVector<Value> createSlots(SlotFactory &factory, TypeRange types,
                                      ArrayRef<bool> keep) {
  SmallVector<Value> slots;
  for (auto [type, k] : llvm::zip(types, keep))
    slots.push_back(k ? Value() : factory.create(type).front());
  return slots;
}

static void storeDemoted(OpBuilder &builder, Location loc, ValueRange values,
                         ArrayRef<Value> slots) {
  for (auto [value, slot] : llvm::zip(values, slots))
    if (slot)
      storeValue(builder, loc, value, slot);
}

/// Stores the operands of `terminator` after the first `skip` at the
/// demoted positions and leaves it with the kept ones.
static void demoteTerminatorOperands(Operation *terminator, unsigned skip,
                                     ArrayRef<Value> slots) {
  OpBuilder builder(terminator);
  storeDemoted(builder, terminator->getLoc(),
               terminator->getOperands().drop_front(skip), slots);
  for (int i = slots.size() - 1; i >= 0; --i)
    if (slots[i])
      terminator->eraseOperand(skip + i);
}

/// Replaces the demoted arguments of `block` by loads at its start.
static void demoteBlockArguments(Block &block, ArrayRef<Value> slots) {
  OpBuilder builder = OpBuilder::atBlockBegin(&block);
  llvm::BitVector erase(block.getNumArguments());
  for (auto [index, slot] : llvm::enumerate(slots)) {
    if (!slot)
      continue;
    BlockArgument arg = block.getArgument(index);
    if (!arg.use_empty())
      arg.replaceAllUsesWith(
          loadValue(builder, arg.getLoc(), arg.getType(), slot));
    erase.set(index);
  }
  block.eraseArguments(erase);
}

/// Replaces the results of `oldOp` by those of `newOp` (kept positions, in
/// order) or loads from the slots after it, moves the discardable
/// attributes over and erases `oldOp`.
static void replaceResults(Operation *oldOp, Operation *newOp,
                           ArrayRef<Value> slots) {
  OpBuilder builder(newOp->getContext());
  builder.setInsertionPointAfter(newOp);
  unsigned next = 0;
  for (auto [result, slot] : llvm::zip(oldOp->getResults(), slots))
    result.replaceAllUsesWith(
        slot ? loadValue(builder, oldOp->getLoc(), result.getType(), slot)
             : newOp->getResult(next++));
  newOp->setDiscardableAttrs(oldOp->getDiscardableAttrDictionary());
  oldOp->erase();
}

static Operation *demoteBranchResults(Operation *op, SlotFactory &factory,
                                      ArrayRef<bool> keep) {
  SmallVector<Value> slots = createSlots(factory, op->getResultTypes(), keep);
  for (Region &region : op->getRegions())
    for (Block &block : region)
      demoteTerminatorOperands(block.getTerminator(), 0, slots);
  OpBuilder builder(op);
  SmallVector<Type> types = selectTypes(op->getResultTypes(), keep);
  Operation *newOp;
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    auto newIf = scf::IfOp::create(builder, op->getLoc(), types,
                                   ifOp.getCondition(), false, false);
    newIf.getThenRegion().takeBody(ifOp.getThenRegion());
    newIf.getElseRegion().takeBody(ifOp.getElseRegion());
    newOp = newIf;
  } else {
    auto switchOp = cast<scf::IndexSwitchOp>(op);
    auto newSwitch = scf::IndexSwitchOp::create(
        builder, op->getLoc(), types, switchOp.getArg(),
        switchOp.getCasesAttr(), switchOp.getNumCases());
    for (auto [target, source] :
         llvm::zip(newSwitch->getRegions(), switchOp->getRegions()))
      target.takeBody(source);
    newOp = newSwitch;
  }
  replaceResults(op, newOp, slots);
  return newOp;
}

static Operation *demoteForCarried(scf::ForOp forOp, SlotFactory &factory,
                                   ArrayRef<bool> keep) {
  SmallVector<Value> slots =
      createSlots(factory, forOp.getResultTypes(), keep);
  OpBuilder builder(forOp);
  Location loc = forOp.getLoc();
  storeDemoted(builder, loc, forOp.getInitArgs(), slots);
  auto newFor = scf::ForOp::create(builder, loc, forOp.getLowerBound(),
                                   forOp.getUpperBound(), forOp.getStep(),
                                   selectValues(forOp.getInitArgs(), keep));
  newFor.setUnsignedCmp(forOp.getUnsignedCmp());
  Block *oldBody = forOp.getBody();
  demoteTerminatorOperands(oldBody->getTerminator(), 0, slots);
  // Demoted iteration arguments become loads; the kept ones and the
  // induction variable become the new loop's.
  SmallVector<Value> argSlots{Value()};
  llvm::append_range(argSlots, slots);
  demoteBlockArguments(*oldBody, argSlots);
  for (auto [oldArg, newArg] :
       llvm::zip(oldBody->getArguments(), newFor.getBody()->getArguments()))
    oldArg.replaceAllUsesWith(newArg);
  Block *newBody = newFor.getBody();
  newBody->getOperations().clear();
  newBody->getOperations().splice(newBody->end(), oldBody->getOperations());
  replaceResults(forOp, newFor, slots);
  return newFor;
}

/// The positions at which the after region of `whileOp` passes its
/// argument back to the before region unchanged (rotated loops, whose
/// body is all in the before region, forward every position).
static SmallVector<bool> forwardedPositions(scf::WhileOp whileOp) {
  Block &after = whileOp.getAfter().front();
  ValueRange yielded = whileOp.getYieldOp().getOperands();
  SmallVector<bool> forwarded(yielded.size(), false);
  for (auto [index, value] : llvm::enumerate(yielded))
    forwarded[index] = index < after.getNumArguments() &&
                       value == after.getArgument(index) &&
                       value.getType() ==
                           whileOp.getBefore().getArgument(index).getType();
  return forwarded;
}

static Operation *demoteWhileCarried(scf::WhileOp whileOp,
                                     SlotFactory &factory,
                                     ArrayRef<bool> keepBefore,
                                     ArrayRef<bool> keepAfter) {
  SmallVector<Value> afterSlots =
      createSlots(factory, whileOp.getResultTypes(), keepAfter);
  // A position the after region only forwards keeps one slot for both
  // regions: the value the condition stores is the next iteration's, and
  // the after region neither copies it (a thread loop per iteration once
  // barriers are lowered) nor carries it across its barriers.
  SmallVector<bool> forwarded = forwardedPositions(whileOp);
  SmallVector<Value> beforeSlots;
  SmallVector<Value> yieldSlots;
  for (auto [index, type] : llvm::enumerate(whileOp.getOperandTypes())) {
    bool shared = !keepBefore[index] && forwarded[index] &&
                  index < afterSlots.size() && afterSlots[index];
    beforeSlots.push_back(keepBefore[index] ? Value()
                          : shared          ? afterSlots[index]
                                   : factory.create(type).front());
    yieldSlots.push_back(shared ? Value() : beforeSlots.back());
  }
  OpBuilder builder(whileOp);
  Location loc = whileOp.getLoc();
  storeDemoted(builder, loc, whileOp.getInits(), beforeSlots);
  demoteTerminatorOperands(whileOp.getConditionOp(), 1, afterSlots);
  // Shared positions leave the yield without a store (the slot already
  // holds the value).
  scf::YieldOp yield = whileOp.getYieldOp();
  OpBuilder yieldBuilder(yield);
  storeDemoted(yieldBuilder, yield.getLoc(), yield.getOperands(), yieldSlots);
  for (int i = beforeSlots.size() - 1; i >= 0; --i)
    if (beforeSlots[i])
      yield->eraseOperand(i);
  demoteBlockArguments(whileOp.getBefore().front(), beforeSlots);
  demoteBlockArguments(whileOp.getAfter().front(), afterSlots);
  auto newWhile = scf::WhileOp::create(
      builder, loc, selectTypes(whileOp.getResultTypes(), keepAfter),
      selectValues(whileOp.getInits(), keepBefore));
  newWhile.getBefore().takeBody(whileOp.getBefore());
  newWhile.getAfter().takeBody(whileOp.getAfter());
  replaceResults(whileOp, newWhile, afterSlots);
  return newWhile;
}

/// Demotes the results and carried values of `op` (which contains a
/// barrier) except where `keep` (before / after positions for a while loop)
/// says; returns the op that replaces it.
static FailureOr<Operation *> demoteCarriedValues(Operation *op,
                                                  SlotFactory &factory,
                                                  ArrayRef<bool> keep,
                                                  ArrayRef<bool> keepAfter) {
  for (auto [type, k] : llvm::zip(op->getResultTypes(),
                                  isa<scf::WhileOp>(op) ? keepAfter : keep))
    if (!k && !getStorageType(type))
      return op->emitOpError("carries a value of type ")
             << type << " across a barrier, which respec cannot keep";
  auto allKept = [](ArrayRef<bool> mask) {
    return llvm::all_of(mask, [](bool k) { return k; });
  };
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return allKept(keep) ? op : demoteForCarried(forOp, factory, keep);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return allKept(keep) && allKept(keepAfter)
               ? op
               : demoteWhileCarried(whileOp, factory, keep, keepAfter);
  return allKept(keep) ? op : demoteBranchResults(op, factory, keep);
}

//===----------------------------------------------------------------------===//
// Step 2: predication
//===----------------------------------------------------------------------===//

namespace {
class Predicator {
public:
  Predicator(scf::ParallelOp threadLoop)
      : threadLoop(threadLoop), factory(threadLoop) {}

  /// Predicates `ops` (consecutive ops of one block) for the threads where
  /// `guard` holds; a null guard means every thread runs them.
  LogicalResult guardOps(ArrayRef<Operation *> ops, Value guard);

private:
  LogicalResult guardBarrierOp(Operation *op, Value guard);
  LogicalResult guardBlock(Block &block, Value guard);
  void wrapRun(ArrayRef<Operation *> run, Value guard);
  LogicalResult flattenBranches(Operation *op, ArrayRef<Value> guards);
  LogicalResult maskLoop(scf::WhileOp loop, Value active);
  scf::WhileOp convertForToWhile(scf::ForOp forOp);
  Value guardAnd(OpBuilder &builder, Location loc, Value guard, Value cond);

  scf::ParallelOp threadLoop;
  SlotFactory factory;
};
} // namespace

static SmallVector<Operation *> opsBeforeTerminator(Block &block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  return ops;
}

static Value constantBool(OpBuilder &builder, Location loc, bool value) {
  return arith::ConstantIntOp::create(builder, loc, builder.getI1Type(),
                                      value);
}

/// `guard && cond`, where `cond` may be poison when the guard is false.
Value Predicator::guardAnd(OpBuilder &builder, Location loc, Value guard,
                           Value cond) {
  if (!guard)
    return cond;
  return arith::SelectOp::create(builder, loc, guard, cond,
                                 constantBool(builder, loc, false));
}

LogicalResult Predicator::guardBlock(Block &block, Value guard) {
  return guardOps(opsBeforeTerminator(block), guard);
}

LogicalResult Predicator::guardOps(ArrayRef<Operation *> ops, Value guard) {
  SmallVector<Operation *> run;
  for (Operation *op : ops) {
    if (!containsBarrier(op)) {
      run.push_back(op);
      continue;
    }
    wrapRun(run, guard);
    run.clear();
    if (failed(guardBarrierOp(op, guard)))
      return failure();
  }
  wrapRun(run, guard);
  return success();
}

/// Moves `run` (barrier-free, consecutive ops) into `scf.if guard`; values
/// used after the run become results of the if (poison where the guard is
/// false, and then only used under the same guard).
void Predicator::wrapRun(ArrayRef<Operation *> run, Value guard) {
  if (!guard || run.empty())
    return;
  llvm::SmallPtrSet<Operation *, 16> inRun(run.begin(), run.end());
  Block *block = run.front()->getBlock();
  SmallVector<Value> escaping;
  for (Operation *op : run)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !inRun.contains(block->findAncestorOpInBlock(*user));
          }))
        escaping.push_back(result);

  OpBuilder builder(run.front());
  Location loc = run.front()->getLoc();
  auto ifOp = scf::IfOp::create(builder, loc, ValueRange(escaping).getTypes(),
                                guard, /*addThenBlock=*/true,
                                /*addElseBlock=*/true);
  Block *thenBlock = ifOp.thenBlock();
  Block *elseBlock = ifOp.elseBlock();
  for (Block *b : {thenBlock, elseBlock})
    if (!b->empty())
      b->back().erase();
  for (Operation *op : run)
    op->moveBefore(thenBlock, thenBlock->end());
  builder.setInsertionPointToEnd(thenBlock);
  scf::YieldOp::create(builder, loc, escaping);
  builder.setInsertionPointToEnd(elseBlock);
  SmallVector<Value> poison;
  for (Value value : escaping) {
    poison.push_back(
        value.getType().isIndex()
            ? arith::ConstantIndexOp::create(builder, loc, 0).getResult()
            : LLVM::PoisonOp::create(builder, loc, value.getType())
                  .getResult());
  }
  scf::YieldOp::create(builder, loc, poison);
  for (auto [value, result] : llvm::zip(escaping, ifOp.getResults()))
    value.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !ifOp->isAncestor(use.getOwner());
    });
}

/// Splices the regions of `op` (an if or switch without results) in front
/// of it, each predicated by the matching entry of `guards`, and erases it.
LogicalResult Predicator::flattenBranches(Operation *op,
                                          ArrayRef<Value> guards) {
  for (auto [region, guard] : llvm::zip(op->getRegions(), guards)) {
    if (region.empty())
      continue;
    SmallVector<Operation *> ops = opsBeforeTerminator(region.front());
    for (Operation *inner : ops)
      inner->moveBefore(op);
    if (failed(guardOps(ops, guard)))
      return failure();
  }
  op->erase();
  return success();
}

/// Rewrites `loop` (no carried values) so that every thread iterates until
/// no thread wants to continue: `active` says which threads start, a thread
/// stays active while its own condition holds.
LogicalResult Predicator::maskLoop(scf::WhileOp loop, Value active) {
  Location loc = loop.getLoc();
  Value slot = factory.create(active.getType()).front();
  OpBuilder builder(loop);
  storeValue(builder, loc, active, slot);

  Block &before = loop.getBefore().front();
  SmallVector<Operation *> beforeOps = opsBeforeTerminator(before);
  builder.setInsertionPointToStart(&before);
  Value beforeActive = loadValue(builder, loc, builder.getI1Type(), slot);
  if (failed(guardOps(beforeOps, beforeActive)))
    return failure();
  scf::ConditionOp condition = loop.getConditionOp();
  builder.setInsertionPoint(condition);
  Value stillActive =
      guardAnd(builder, loc, beforeActive, condition.getCondition());
  storeValue(builder, loc, stillActive, slot);
  Value anyActive = ReduceBarrierOp::create(
      builder, loc, builder.getI32Type(), builder.getStringAttr("or"),
      stillActive,
      threadLoop.getInductionVars());
  Value anyActiveBit = arith::TruncIOp::create(builder, loc,
                                               builder.getI1Type(), anyActive);
  condition.getConditionMutable().assign(anyActiveBit);

  Block &after = loop.getAfter().front();
  SmallVector<Operation *> afterOps = opsBeforeTerminator(after);
  builder.setInsertionPointToStart(&after);
  Value afterActive = loadValue(builder, loc, builder.getI1Type(), slot);
  loop->removeAttr(kDivergentAttr);
  return guardOps(afterOps, afterActive);
}

/// `for (iv = lb; iv < ub; iv += step)` as a while loop over a
/// thread-private induction variable, so that it can be masked.
scf::WhileOp Predicator::convertForToWhile(scf::ForOp forOp) {
  Location loc = forOp.getLoc();
  Value iv = forOp.getInductionVar();
  Value slot = factory.create(iv.getType()).front();
  OpBuilder builder(forOp);
  storeValue(builder, loc, forOp.getLowerBound(), slot);
  auto loop = scf::WhileOp::create(builder, loc, TypeRange{}, ValueRange{});
  builder.createBlock(&loop.getBefore());
  Value current = loadValue(builder, loc, iv.getType(), slot);
  Value inRange = arith::CmpIOp::create(
      builder, loc,
      forOp.getUnsignedCmp() ? arith::CmpIPredicate::ult
                             : arith::CmpIPredicate::slt,
      current, forOp.getUpperBound());
  scf::ConditionOp::create(builder, loc, inRange, ValueRange{});

  Block *after = builder.createBlock(&loop.getAfter());
  Value bodyIv = loadValue(builder, loc, iv.getType(), slot);
  iv.replaceAllUsesWith(bodyIv);
  Block *body = forOp.getBody();
  after->getOperations().splice(after->end(), body->getOperations(),
                                body->begin(), std::prev(body->end()));
  builder.setInsertionPointToEnd(after);
  Value next = arith::AddIOp::create(builder, loc, bodyIv, forOp.getStep());
  storeValue(builder, loc, next, slot);
  scf::YieldOp::create(builder, loc, ValueRange{});
  loop->setDiscardableAttrs(forOp->getDiscardableAttrDictionary());
  forOp.erase();
  return loop;
}

LogicalResult Predicator::guardBarrierOp(Operation *op, Value guard) {
  if (isa<BarrierOp>(op))
    return success();
  OpBuilder builder(op);
  Location loc = op->getLoc();
  if (auto reduce = dyn_cast<ReduceBarrierOp>(op)) {
    // Threads that do not take part count as neutral elements.
    if (guard) {
      Value neutral = constantBool(builder, loc, reduce.getKind() == "and");
      reduce.getPredicateMutable().assign(arith::SelectOp::create(
          builder, loc, guard, reduce.getPredicate(), neutral));
    }
    return success();
  }
  bool keepStructure = !guard && !isDivergent(op);
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    if (keepStructure) {
      if (failed(guardBlock(*ifOp.thenBlock(), nullptr)))
        return failure();
      return ifOp.getElseRegion().empty()
                 ? success()
                 : guardBlock(*ifOp.elseBlock(), nullptr);
    }
    Value cond = ifOp.getCondition();
    Value notCond = arith::XOrIOp::create(builder, loc, cond,
                                          constantBool(builder, loc, true));
    return flattenBranches(op, {guardAnd(builder, loc, guard, cond),
                                guardAnd(builder, loc, guard, notCond)});
  }
  if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(op)) {
    if (keepStructure) {
      for (Region &region : op->getRegions())
        if (failed(guardBlock(region.front(), nullptr)))
          return failure();
      return success();
    }
    // Region 0 is the default, taken when no case matches.
    Value noneMatch = constantBool(builder, loc, true);
    SmallVector<Value> caseGuards;
    for (int64_t value : switchOp.getCases()) {
      Value matches = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq, switchOp.getArg(),
          arith::ConstantIndexOp::create(builder, loc, value));
      caseGuards.push_back(guardAnd(builder, loc, guard, matches));
      Value differs = arith::XOrIOp::create(builder, loc, matches,
                                            constantBool(builder, loc, true));
      noneMatch = arith::AndIOp::create(builder, loc, noneMatch, differs);
    }
    SmallVector<Value> guards{guardAnd(builder, loc, guard, noneMatch)};
    llvm::append_range(guards, caseGuards);
    return flattenBranches(op, guards);
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    if (keepStructure)
      return guardBlock(*forOp.getBody(), nullptr);
    scf::WhileOp loop = convertForToWhile(forOp);
    return maskLoop(loop, guard ? guard : constantBool(builder, loc, true));
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    if (keepStructure) {
      if (failed(guardBlock(whileOp.getBefore().front(), nullptr)))
        return failure();
      return guardBlock(whileOp.getAfter().front(), nullptr);
    }
    return maskLoop(whileOp,
                    guard ? guard : constantBool(builder, loc, true));
  }
  return op->emitError("respec cannot lower a __syncthreads nested in this "
                       "construct ('")
         << op->getName() << "')";
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Structured ops (not barriers themselves) that contain a barrier.
static SmallVector<Operation *> collectBarrierRegions(scf::ParallelOp loop) {
  SmallVector<Operation *> ops;
  loop.getBody()->walk([&](Operation *op) {
    if (op->getNumRegions() && containsBarrier(op))
      ops.push_back(op);
  });
  return ops;
}

/// True if `value` is computed from the thread's id by ops without memory
/// effects: then threads of one block may disagree on it for certain (unless
/// the block has one thread), not merely because they read memory.
static bool dependsOnThreadId(Value value, scf::ParallelOp loop,
                              llvm::DenseSet<Value> &visited) {
  if (!visited.insert(value).second)
    return false;
  if (llvm::is_contained(loop.getInductionVars(), value))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || !loop->isAncestor(def) || def->getNumRegions() ||
      !isMemoryEffectFree(def))
    return false;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return dependsOnThreadId(operand, loop, visited);
  });
}

/// The value deciding which regions of `op` run, if it has one operand.
static Value getControlValue(Operation *op) {
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return ifOp.getCondition();
  if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(op))
    return switchOp.getArg();
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return whileOp.getConditionOp().getCondition();
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return forOp.getUpperBound();
  return nullptr;
}

/// Warns about a barrier under control flow that depends on the thread id:
/// undefined behaviour in CUDA, which respec gives a defined meaning.
static void warnDivergentBarrier(Operation *op, scf::ParallelOp loop) {
  // Warp primitives in divergent code are fine (a warp-level mask, not the
  // block, says who takes part).
  bool hasUserBarrier = op->walk([](Operation *nested) {
                              return isBarrierLike(nested) &&
                                             !nested->hasAttr(kWarpSyncAttr) &&
                                             !nested->hasAttr(kInterchangeAttr)
                                         ? WalkResult::interrupt()
                                         : WalkResult::advance();
                            })
                            .wasInterrupted();
  if (!hasUserBarrier)
    return;
  Value control = getControlValue(op);
  llvm::DenseSet<Value> visited;
  if (!control || !dependsOnThreadId(control, loop, visited))
    return;
  op->emitWarning(
      "__syncthreads under control flow that depends on threadIdx: not all "
      "threads of the block reach it (undefined behaviour in CUDA); respec "
      "synchronizes the threads that do, as NVIDIA GPUs since Volta do when "
      "the others have exited");
}

/// Which carried positions of `op` may stay SSA values: those every thread
/// agrees on, when the control of `op` and of every enclosing barrier
/// region stays structured (uniform). Barrier lowering then holds them once
/// per block (thread 0's) instead of in thread-private memory, so that, for
/// instance, the counter of a tiled loop stays a visible induction variable
/// for vectorizing the thread loops inside it. `keep` covers the results
/// (if, switch, for) or the before-region arguments (while), `keepAfter`
/// the after-region arguments and results of a while.
static void computeKeepMasks(Operation *op, scf::ParallelOp loop,
                             const ThreadUniformity &uniformity,
                             KeepMask &keep, KeepMask &keepAfter) {
  bool structured = true;
  for (Operation *scope = op; scope != loop; scope = scope->getParentOp())
    structured &= !isDivergent(scope);
  auto keepable = [&](Value value) {
    return structured && uniformity.isUniform(value) &&
           getStorageType(value.getType());
  };
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    for (Value arg : whileOp.getBeforeArguments())
      keep.push_back(keepable(arg));
    for (auto [arg, result] :
         llvm::zip(whileOp.getAfterArguments(), whileOp.getResults()))
      keepAfter.push_back(keepable(arg) && keepable(result));
    return;
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    for (auto [arg, result] :
         llvm::zip(forOp.getRegionIterArgs(), forOp.getResults()))
      keep.push_back(keepable(arg) && keepable(result));
    return;
  }
  for (Value result : op->getResults())
    keep.push_back(keepable(result));
}

static LogicalResult predicateThreadLoop(scf::ParallelOp loop,
                                         bool hoistUniform) {
  if (!containsBarrier(loop))
    return success();
  if (failed(verifyNormalizedThreadLoop(loop)))
    return failure();
  SmallVector<Operation *> regionOps = collectBarrierRegions(loop);
  DenseMap<Operation *, std::pair<KeepMask, KeepMask>> keepMasks;
  {
    ThreadUniformity uniformity(loop);
    for (Operation *op : regionOps) {
      bool uniform = uniformity.hasUniformControl(op);
      if (!uniform)
        warnDivergentBarrier(op, loop);
      if (!uniform || !hoistUniform)
        op->setAttr(kDivergentAttr, UnitAttr::get(op->getContext()));
    }
    for (Operation *op : regionOps) {
      auto &[keep, keepAfter] = keepMasks[op];
      computeKeepMasks(op, loop, uniformity, keep, keepAfter);
    }
  }
  SlotFactory factory(loop);
  for (Operation *op : regionOps) {
    auto &[keep, keepAfter] = keepMasks[op];
    if (failed(demoteCarriedValues(op, factory, keep, keepAfter)))
      return failure();
  }
  Predicator predicator(loop);
  if (failed(predicator.guardOps(opsBeforeTerminator(*loop.getBody()),
                                 nullptr)))
    return failure();
  loop.getBody()->walk([](Operation *op) { op->removeAttr(kDivergentAttr); });
  return success();
}

namespace {
struct PredicateDivergentBarriersPass
    : public respec::impl::PredicateDivergentBarriersPassBase<
          PredicateDivergentBarriersPass> {
  using Base::Base;
  void runOnOperation() override {
    for (scf::ParallelOp loop : collectThreadLoops(getOperation()))
      if (failed(predicateThreadLoop(loop, hoistUniform)))
        return signalPassFailure();
  }
};
} // namespace
