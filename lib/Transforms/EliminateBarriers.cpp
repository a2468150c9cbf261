//===- EliminateBarriers.cpp - Remove barriers that order nothing ---------===//
//
// A barrier is needed only if some thread's access before it and another
// thread's access after it may touch the same memory, one of them writing.
// The intervals come from the barrier's own effect computation
// (getBarrierIntervalEffects); what this pass adds is telling addresses
// apart: by the object they point into, and, within one object, by
// raising both addresses to affine maps of the thread indices
// (ThreadAffineAccess.h): accesses where each thread touches bytes no
// other thread touches on the other side (`s[ty][tx]` written before the
// barrier and read after it) need no barrier, since each thread runs its
// own accesses in order.
//
//===----------------------------------------------------------------------===//

#include "respec/Dialect/RespecDialect.h"
#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadAffineAccess.h"
#include "respec/Transforms/ThreadLoopUtils.h"

namespace mlir::respec {
#define GEN_PASS_DEF_ELIMINATEBARRIERSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// What an address points into, as far as this pass can tell.
struct MemoryObject {
  enum Kind {
    Shared,   ///< the block's shared memory
    Global,   ///< a module-level variable (`symbol`)
    Alloca,   ///< one allocation (`op`)
    Argument, ///< memory the kernel's arguments point to: global memory,
              ///< never the block's shared memory or a thread's
              ///< allocation
    Unknown,  ///< anything, shared memory and allocations included
  } kind;
  Operation *op = nullptr;
  StringRef symbol;

  bool operator==(const MemoryObject &other) const {
    return kind == other.kind && op == other.op && symbol == other.symbol;
  }

  static MemoryObject unknown() { return {Unknown, nullptr, {}}; }
};

constexpr unsigned kMaxObjectDepth = 16;

MemoryObject underlyingObject(Value address, unsigned depth = 0);

/// The object both `a` and `b` point into, or Unknown if they differ:
/// an address chosen between two objects may point into either.
MemoryObject commonObject(Value a, Value b, unsigned depth) {
  MemoryObject objectA = underlyingObject(a, depth + 1);
  if (objectA.kind == MemoryObject::Unknown)
    return objectA;
  MemoryObject objectB = underlyingObject(b, depth + 1);
  if (objectA == objectB)
    return objectA;
  return MemoryObject::unknown();
}

/// Whether `op` runs before the grid's blocks, in the launch function.
bool isBeforeTheGrid(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isGridLoop(parent))
      return false;
  return true;
}

/// A pointer loaded from memory. The launch reads the kernel's arguments
/// from its parameter buffer before the grid's blocks start: they point to
/// global memory. A pointer a kernel loads may be one a block stored there
/// itself, the address of its shared memory included (`slot[b] = tile;
/// ... slot[b][t]`), or one kept in a thread's local variable.
MemoryObject loadedPointerObject(LLVM::LoadOp load, unsigned depth) {
  MemoryObject from = underlyingObject(load.getAddr(), depth + 1);
  if (isBeforeTheGrid(load) && (from.kind == MemoryObject::Argument ||
                                from.kind == MemoryObject::Global))
    return {MemoryObject::Argument, nullptr, {}};
  return MemoryObject::unknown();
}

MemoryObject underlyingObject(Value address, unsigned depth) {
  if (depth > kMaxObjectDepth)
    return MemoryObject::unknown();
  if (auto argument = dyn_cast<BlockArgument>(address)) {
    // The launch function's own arguments (its parameter buffer); loop
    // and region arguments carry values chosen at run time.
    if (isa<FunctionOpInterface>(argument.getOwner()->getParentOp()))
      return {MemoryObject::Argument, nullptr, {}};
    return MemoryObject::unknown();
  }
  Operation *def = address.getDefiningOp();
  if (auto gep = dyn_cast<LLVM::GEPOp>(def))
    return underlyingObject(gep.getBase(), depth + 1);
  if (isa<LLVM::AddrSpaceCastOp, LLVM::BitcastOp>(def))
    return underlyingObject(def->getOperand(0), depth + 1);
  if (isCallTo(def, kSharedMemoryFunction))
    return {MemoryObject::Shared, def, {}};
  if (auto addressOf = dyn_cast<LLVM::AddressOfOp>(def))
    return {MemoryObject::Global, def, addressOf.getGlobalName()};
  if (isa<LLVM::AllocaOp>(def))
    return {MemoryObject::Alloca, def, {}};
  if (auto select = dyn_cast<LLVM::SelectOp>(def))
    return commonObject(select.getTrueValue(), select.getFalseValue(), depth);
  if (auto select = dyn_cast<arith::SelectOp>(def))
    return commonObject(select.getTrueValue(), select.getFalseValue(), depth);
  if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
    if (ifOp.getElseRegion().empty())
      return MemoryObject::unknown();
    unsigned index = cast<OpResult>(address).getResultNumber();
    return commonObject(ifOp.thenYield().getOperand(index),
                        ifOp.elseYield().getOperand(index), depth);
  }
  if (auto load = dyn_cast<LLVM::LoadOp>(def))
    return loadedPointerObject(load, depth);
  // Loop results, integers turned into pointers, calls' results, ...
  return MemoryObject::unknown();
}

/// True if no address into `a` can equal one into `b`.
bool areDisjoint(const MemoryObject &a, const MemoryObject &b) {
  if (a.kind == MemoryObject::Unknown || b.kind == MemoryObject::Unknown)
    return false;
  // Shared memory and allocations are fresh: nothing else points into them
  // unless derived from them, which underlyingObject follows (or gives up
  // on, answering Unknown).
  if (a.kind == MemoryObject::Shared || b.kind == MemoryObject::Shared)
    return a.kind != b.kind;
  if (a.kind == MemoryObject::Alloca || b.kind == MemoryObject::Alloca)
    return a.op != b.op;
  if (a.kind == MemoryObject::Global && b.kind == MemoryObject::Global)
    return a.symbol != b.symbol;
  return false;
}

/// True if a thread's access `a` and another thread's access `b` may
/// touch the same memory, one of them writing. `affine` (may be null)
/// raises addresses within the barrier's thread loop.
bool mayConflict(const MemoryEffects::EffectInstance &a,
                 const MemoryEffects::EffectInstance &b,
                 ThreadAffineAnalysis *affine) {
  bool aWrites = isa<MemoryEffects::Write>(a.getEffect());
  bool bWrites = isa<MemoryEffects::Write>(b.getEffect());
  if (!aWrites && !bWrites)
    return false;
  if (!a.getValue() || !b.getValue())
    return true;
  if (areDisjoint(underlyingObject(a.getValue()),
                  underlyingObject(b.getValue())))
    return false;
  if (!affine)
    return true;
  std::optional<ThreadAffineAccess> accessA = affine->getAccess(a.getValue());
  std::optional<ThreadAffineAccess> accessB = affine->getAccess(b.getValue());
  if (!accessA || !accessB)
    return true;
  // Raising sees through pointers both arms of a branch compute alike,
  // which may reveal the objects.
  if (areDisjoint(underlyingObject(accessA->root),
                  underlyingObject(accessB->root)))
    return false;
  return !affine->areDisjointAcrossThreads(*accessA, *accessB);
}

bool isRemovable(BarrierOp barrier) {
  SmallVector<MemoryEffects::EffectInstance> before, after;
  if (!getBarrierIntervalEffects(barrier, /*after=*/false, before) ||
      !getBarrierIntervalEffects(barrier, /*after=*/true, after))
    return false;
  std::optional<ThreadAffineAnalysis> affine;
  auto threadLoop = barrier->getParentOfType<scf::ParallelOp>();
  if (threadLoop && isThreadLoop(threadLoop))
    affine.emplace(threadLoop);
  for (const MemoryEffects::EffectInstance &a : before)
    for (const MemoryEffects::EffectInstance &b : after)
      if (mayConflict(a, b, affine ? &*affine : nullptr))
        return false;
  return true;
}

struct EliminateBarriersPass
    : public respec::impl::EliminateBarriersPassBase<EliminateBarriersPass> {
  void runOnOperation() override {
    // One at a time: removing a barrier widens its neighbours' intervals.
    bool changed = true;
    while (changed) {
      changed = false;
      getOperation().walk([&](BarrierOp barrier) {
        if (!isRemovable(barrier))
          return WalkResult::advance();
        barrier.erase();
        changed = true;
        return WalkResult::interrupt();
      });
    }
  }
};

} // namespace
