//===- PromoteAcrossBarriers.cpp - Private variables next to their uses ---===//
//
// A thread's private variable that lives in memory (an `llvm.alloca` in the
// thread loop: a loop-carried value that PredicateDivergentBarriers demoted,
// or a local variable LLVM left in memory) is only ever read and written by
// its own thread. Barrier lowering keeps every SSA value that is live across
// a barrier in a per-thread spill array, so a load of such a variable in one
// barrier interval whose value is used in the next, or a store of a value
// computed one interval earlier, costs a spill store, a spill load and often
// a thread loop of its own: the accumulator of a tiled loop
//
//   for (k0...) { acc = load slot; <tile stores>; barrier;
//                 acc2 = acc + ...; barrier; store acc2, slot }
//
// becomes three thread loops per iteration, two of which only copy `acc`.
//
// This pass moves, across barriers, each load of such a variable down to
// just before its first use, and each store up to just after the definition
// of the stored value, where no access to the variable lies in between.
// The variable's own storage then carries the value across the barriers,
// and each barrier interval holds it in a register. No other thread can
// observe the variable, so moving its accesses past a barrier changes
// nothing another thread sees.
//
//===----------------------------------------------------------------------===//

#include "respec/Dialect/RespecDialect.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::respec {
#define GEN_PASS_DEF_PROMOTEACROSSBARRIERSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

/// True if every use of `alloca` loads from it or stores to it: its
/// address goes nowhere else, so no other operation can access it.
static bool isOnlyLoadedAndStored(LLVM::AllocaOp alloca) {
  for (OpOperand &use : alloca->getUses()) {
    Operation *user = use.getOwner();
    if (isa<LLVM::LoadOp>(user))
      continue;
    auto store = dyn_cast<LLVM::StoreOp>(user);
    if (!store || store.getValue() == alloca.getResult() ||
        store.getVolatile_())
      return false;
  }
  return true;
}

/// True if an access of `alloca` (only its stores with `storesOnly`) is,
/// or is nested in, an op of `from`'s block from `from` up to but not
/// including `to`.
static bool accessedBetween(LLVM::AllocaOp alloca, Operation *from,
                            Operation *to, bool storesOnly) {
  Block *block = from->getBlock();
  for (Operation *user : alloca->getUsers()) {
    if (storesOnly && !isa<LLVM::StoreOp>(user))
      continue;
    Operation *top = block->findAncestorOpInBlock(*user);
    if (!top || top == to)
      continue;
    if (top == from || (from->isBeforeInBlock(top) && top->isBeforeInBlock(to)))
      return true;
  }
  return false;
}

/// True if an op of `block` strictly between `from` and `to` is or holds a
/// barrier: moving an access over it takes it to another interval.
static bool barrierBetween(Operation *from, Operation *to) {
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode())
    if (isBarrierLike(op) || containsBarrier(op))
      return true;
  return false;
}

/// Moves `load` down to just before the first op of its block that uses its
/// value, if a barrier lies between and no store to the variable does.
static void sinkLoad(LLVM::LoadOp load, LLVM::AllocaOp alloca) {
  if (load.getVolatile_() ||
      load.getOrdering() != LLVM::AtomicOrdering::not_atomic)
    return;
  Block *block = load->getBlock();
  Operation *firstUser = nullptr;
  for (Operation *user : load->getUsers()) {
    Operation *top = block->findAncestorOpInBlock(*user);
    if (!top)
      return;
    if (!firstUser || top->isBeforeInBlock(firstUser))
      firstUser = top;
  }
  if (!firstUser || !barrierBetween(load, firstUser) ||
      accessedBetween(alloca, load->getNextNode(), firstUser,
                      /*storesOnly=*/true))
    return;
  load->moveBefore(firstUser);
}

/// Moves `store` up to just after the definition of the stored value (or
/// the start of the block defining it), if a barrier lies between and no
/// access to the variable does.
static void hoistStore(LLVM::StoreOp store, LLVM::AllocaOp alloca) {
  if (store.getOrdering() != LLVM::AtomicOrdering::not_atomic)
    return;
  Block *block = store->getBlock();
  Value value = store.getValue();
  Operation *def = value.getDefiningOp();
  Operation *first;
  if (def) {
    if (def->getBlock() != block)
      return;
    first = def->getNextNode();
  } else {
    if (cast<BlockArgument>(value).getOwner() != block)
      return;
    first = &block->front();
  }
  if (first == store.getOperation())
    return;
  bool crossesBarrier = isBarrierLike(first) || containsBarrier(first) ||
                        barrierBetween(first, store);
  if (!crossesBarrier ||
      accessedBetween(alloca, first, store, /*storesOnly=*/false))
    return;
  store->moveBefore(first);
}

/// Places the accesses of `alloca` next to the computations they feed or
/// come from.
static void promoteVariable(LLVM::AllocaOp alloca) {
  SmallVector<Operation *> users(alloca->getUsers());
  for (Operation *user : users) {
    if (auto load = dyn_cast<LLVM::LoadOp>(user))
      sinkLoad(load, alloca);
    else if (auto store = dyn_cast<LLVM::StoreOp>(user))
      hoistStore(store, alloca);
  }
}

namespace {
struct PromoteAcrossBarriersPass
    : public respec::impl::PromoteAcrossBarriersPassBase<
          PromoteAcrossBarriersPass> {
  void runOnOperation() override {
    for (scf::ParallelOp loop : collectThreadLoops(getOperation())) {
      if (!containsBarrier(loop))
        continue;
      // Allocas at the top of the thread body: one variable per thread
      // for the whole block (barrier lowering keeps exactly those).
      for (auto alloca : loop.getBody()->getOps<LLVM::AllocaOp>())
        if (isOnlyLoadedAndStored(alloca))
          promoteVariable(alloca);
    }
  }
};
} // namespace
