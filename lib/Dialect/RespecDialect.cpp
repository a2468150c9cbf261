//===- RespecDialect.cpp - The respec dialect -----------------------------===//

#include "respec/Dialect/RespecDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::respec;

#include "respec/Dialect/RespecOpsDialect.cpp.inc"

void RespecDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "respec/Dialect/RespecOps.cpp.inc"
      >();
}

bool mlir::respec::isBarrierLike(Operation *op) {
  return isa<BarrierOp, ReduceBarrierOp>(op);
}

bool mlir::respec::containsBarrier(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isBarrierLike(nested) ? WalkResult::interrupt()
                                     : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The thread loop a barrier synchronizes: the innermost enclosing
/// scf.parallel.
static scf::ParallelOp getThreadLoop(Operation *barrier) {
  return barrier->getParentOfType<scf::ParallelOp>();
}

/// A barrier synchronizes the iterations of a thread loop, so it must sit
/// inside one and name its induction variables.
static LogicalResult verifyBarrier(Operation *op, ValueRange threads) {
  scf::ParallelOp loop = getThreadLoop(op);
  if (!loop)
    return op->emitOpError("must be nested in an scf.parallel thread loop");
  return success();
}

LogicalResult AlternativesOp::verify() {
  if (getVersions().empty())
    return emitOpError("needs at least one version");
  if (getDescriptions().size() != getVersions().size())
    return emitOpError("has ") << getVersions().size() << " versions but "
                               << getDescriptions().size() << " descriptions";
  return success();
}

LogicalResult BarrierOp::verify() { return verifyBarrier(*this, getThreads()); }

LogicalResult ReduceBarrierOp::verify() {
  StringRef kind = getKind();
  if (kind != "popc" && kind != "and" && kind != "or")
    return emitOpError("kind must be popc, and or or, not '") << kind << "'";
  return verifyBarrier(*this, getThreads());
}

bool mlir::respec::isThreadPrivateAddress(Value address,
                                          scf::ParallelOp threadLoop) {
  while (Operation *def = address.getDefiningOp()) {
    if (auto gep = dyn_cast<LLVM::GEPOp>(def)) {
      address = gep.getBase();
      continue;
    }
    if (def->hasAttr(kThreadPrivateAttr))
      return true;
    return isa<LLVM::AllocaOp>(def) && threadLoop->isProperAncestor(def);
  }
  return false;
}

namespace {
/// Collects the memory effects of the ops of one barrier interval.
class IntervalEffects {
public:
  IntervalEffects(scf::ParallelOp threadLoop) : threadLoop(threadLoop) {}

  /// Adds the effects of `op` and everything nested in it.
  void addOp(Operation *op) {
    if (unknown)
      return;
    op->walk([&](Operation *nested) {
      if (unknown || isBarrierLike(nested))
        return;
      if (nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return;
      auto iface = dyn_cast<MemoryEffectOpInterface>(nested);
      if (!iface) {
        unknown = true;
        return;
      }
      SmallVector<MemoryEffects::EffectInstance> nestedEffects;
      iface.getEffects(nestedEffects);
      for (const MemoryEffects::EffectInstance &effect : nestedEffects) {
        if (isa<MemoryEffects::Allocate, MemoryEffects::Free>(
                effect.getEffect()))
          continue;
        Value value = effect.getValue();
        if (value && isThreadPrivateAddress(value, threadLoop))
          continue;
        if (!value) {
          // Effects on a whole resource (calls, fences) order everything.
          unknown = true;
          return;
        }
        effects.push_back(effect);
      }
    });
  }

  bool unknown = false;
  SmallVector<MemoryEffects::EffectInstance> effects;

private:
  scf::ParallelOp threadLoop;
};
} // namespace

/// Walks from `barrier` towards the previous (`forward` false) or next
/// barrier of the thread loop, adding every op met. Ops that contain a
/// barrier end the walk after their whole effect is added; loops around the
/// barrier make the other end of their body part of the interval too.
static void collectInterval(Operation *barrier, bool forward,
                            IntervalEffects &interval) {
  scf::ParallelOp threadLoop = getThreadLoop(barrier);
  Operation *current = barrier;
  while (current != threadLoop.getOperation()) {
    for (Operation *op = forward ? current->getNextNode()
                                 : current->getPrevNode();
         op; op = forward ? op->getNextNode() : op->getPrevNode()) {
      interval.addOp(op);
      if (isBarrierLike(op) || containsBarrier(op))
        return;
    }
    Operation *parent = current->getParentOp();
    if (!parent || parent == threadLoop.getOperation())
      return;
    if (isa<LoopLikeOpInterface>(parent) || isa<scf::WhileOp>(parent))
      interval.addOp(parent);
    current = parent;
  }
}

bool mlir::respec::getBarrierIntervalEffects(
    Operation *barrier, bool after,
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  scf::ParallelOp threadLoop = getThreadLoop(barrier);
  if (!threadLoop)
    return false;
  IntervalEffects interval(threadLoop);
  collectInterval(barrier, /*forward=*/after, interval);
  if (interval.unknown)
    return false;
  effects.append(interval.effects.begin(), interval.effects.end());
  return true;
}

static void getBarrierEffects(
    Operation *barrier,
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  scf::ParallelOp threadLoop = getThreadLoop(barrier);
  IntervalEffects interval(threadLoop);
  if (!threadLoop) {
    interval.unknown = true;
  } else {
    collectInterval(barrier, /*forward=*/false, interval);
    collectInterval(barrier, /*forward=*/true, interval);
  }
  if (interval.unknown) {
    effects.emplace_back(MemoryEffects::Read::get());
    effects.emplace_back(MemoryEffects::Write::get());
    return;
  }
  // The barrier orders the interval's accesses against other threads':
  // it behaves as each of them.
  for (const MemoryEffects::EffectInstance &effect : interval.effects) {
    if (!isa<MemoryEffects::Read, MemoryEffects::Write>(effect.getEffect()))
      continue;
    Value value = effect.getValue();
    if (auto result = dyn_cast<OpResult>(value))
      effects.emplace_back(effect.getEffect(), result, effect.getResource());
    else
      effects.emplace_back(effect.getEffect(), cast<BlockArgument>(value),
                           effect.getResource());
  }
}

void BarrierOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getBarrierEffects(*this, effects);
}

void ReduceBarrierOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getBarrierEffects(*this, effects);
  // The result depends on every thread: never fold two reductions into one
  // or drop one with a used result.
  effects.emplace_back(MemoryEffects::Read::get());
}

#define GET_OP_CLASSES
#include "respec/Dialect/RespecOps.cpp.inc"
