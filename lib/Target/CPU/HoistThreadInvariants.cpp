//===- HoistThreadInvariants.cpp - Parallel LICM out of thread loops ------===//
//
// Every thread of a block computes the values that do not depend on its
// thread index (a kernel argument's field, a shared tile's base address, a
// coefficient read from a parameter struct) once per thread. This pass
// moves such operations in front of the thread loop, to block scope, where
// they run once per block.
//
// Pure operations may move when their operands are available outside the
// loop. Loads need the parallel loop's lock-step argument, which LLVM's
// loop-invariant code motion does not have: in a thread loop without
// barriers the threads are unordered, so a load can only observe a store
// made earlier by its own thread (a store by another thread to the same
// location, unsynchronized, is a data race whose outcome CUDA leaves
// open). A thread-invariant load that no write precedes in the thread body
// therefore reads the value the location held when the loop began, and can
// be done once before it. LLVM alone cannot hoist such a load past the
// stores of later threads to memory it cannot tell apart (`next[k] = ...
// h.cp ...` with `h` in the parameter buffer).
//
// Operations that may trap (integer division) and loads only move out of
// loops that run at least once, and loads only from in front of every
// operation with other effects (a store, a call that might not return, a
// loop that might not end), so that they run whenever the original did.
// Volatile and atomic loads, and respec's localized shared-memory atomics
// (whose loads see the other threads' updates by design), stay.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::respec {
#define GEN_PASS_DEF_HOISTTHREADINVARIANTSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// True if every dimension of `loop` has constant bounds with at least one
/// iteration.
bool runsAtLeastOnce(scf::ParallelOp loop) {
  for (auto [lower, upper] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound())) {
    std::optional<int64_t> lo = getConstantIntValue(lower);
    std::optional<int64_t> hi = getConstantIntValue(upper);
    if (!lo || !hi || *hi <= *lo)
      return false;
  }
  return true;
}

/// Integer division and remainder: undefined for a zero divisor, so they
/// must not run where the program would not run them.
bool mayTrap(Operation *op) {
  return isa<LLVM::SDivOp, LLVM::UDivOp, LLVM::SRemOp, LLVM::URemOp>(op) ||
         !isSpeculatable(op);
}

/// A load every thread may share: plain, not part of a localized atomic.
bool isShareableLoad(Operation *op) {
  auto load = dyn_cast<LLVM::LoadOp>(op);
  return load && !load.getVolatile_() &&
         load.getOrdering() == LLVM::AtomicOrdering::not_atomic &&
         !op->hasAttr(kBlockSerialAttr);
}

/// Moves the thread-invariant operations at the top level of `loop`'s body
/// in front of it.
void hoistInvariants(scf::ParallelOp loop) {
  bool nonEmpty = runsAtLeastOnce(loop);
  // Whether an operation other than pure ones and plain loads came first:
  // a store, an atomic, a call (which might also not return: `assert`), a
  // loop (which might not end). A load after one stays where it is.
  bool effectSeen = false;
  Block *body = loop.getBody();
  for (Operation &op : llvm::make_early_inc_range(body->without_terminator())) {
    bool invariant =
        op.getNumRegions() == 0 &&
        llvm::all_of(op.getOperands(), [&](Value operand) {
          return !loop->isAncestor(operand.getParentBlock()->getParentOp());
        });
    bool movable = false;
    if (invariant && isMemoryEffectFree(&op))
      movable = nonEmpty || !mayTrap(&op);
    else if (invariant && isShareableLoad(&op))
      movable = nonEmpty && !effectSeen;
    if (movable) {
      op.moveBefore(loop);
      continue;
    }
    effectSeen |= !isMemoryEffectFree(&op) && !isShareableLoad(&op);
  }
}

struct HoistThreadInvariantsPass
    : public respec::impl::HoistThreadInvariantsPassBase<
          HoistThreadInvariantsPass> {
  void runOnOperation() override {
    for (scf::ParallelOp loop : collectThreadLoops(getOperation()))
      hoistInvariants(loop);
  }
};

} // namespace
