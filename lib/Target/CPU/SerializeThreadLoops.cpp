//===- SerializeThreadLoops.cpp - Thread loops as counted loop nests ------===//
//
// On the CPU one OpenMP thread runs a whole GPU block, so the loop over the
// block's threads becomes an ordinary counted loop nest. Without barriers the
// iterations of a thread loop are independent, so any order is correct; x
// innermost keeps consecutive threads' accesses consecutive in memory, which
// is what LLVM's loop vectorizer needs.
//
// The same independence is what LLVM's parallel-loop metadata states: the
// loops list an access group that holds the thread body's memory accesses,
// and LLVM's loop vectorizer then needs no run-time alias checks (which it
// gives up on when a body touches many arrays, e.g. a coarsened block's).
// CUDA guarantees it only for race-free blocks between barriers, which is
// what a thread loop is once barriers are lowered. Atomics and volatile
// accesses stay out of the group (the loop is then not parallel to LLVM),
// and so does any loop with respec's block-serial accesses, which rely on
// one thread at a time. Thread-private stack memory is the other exception:
// the body's own allocas (or those of a thread function LLVM inlines) are
// one object reused by every thread, so LLVM's DropPrivateAccessGroups
// takes accesses to it out of the groups once inlining has run.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::respec {
#define GEN_PASS_DEF_SERIALIZETHREADLOOPSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

/// The attribute of a branch that carries LLVM loop metadata.
static constexpr StringLiteral kLoopAnnotationAttr = "loop_annotation";

/// Loop metadata for a thread loop: no unrolling, and the access groups
/// whose accesses no two iterations share. With a constant block size LLVM
/// would otherwise fully unroll short thread loops (16 threads of a 16x16
/// block) before its loop vectorizer runs, and the straight-line code it
/// leaves rarely vectorizes (the SLP vectorizer gives up on address
/// arithmetic the loop vectorizer handles). The loop vectorizer still
/// vectorizes and interleaves the loop.
LLVM::LoopAnnotationAttr
getThreadLoopAnnotation(MLIRContext *context,
                        ArrayRef<LLVM::AccessGroupAttr> parallelAccesses) {
  auto noUnroll = LLVM::LoopUnrollAttr::get(
      context, /*disable=*/BoolAttr::get(context, true), /*count=*/nullptr,
      /*runtimeDisable=*/nullptr, /*full=*/nullptr, /*followupUnrolled=*/nullptr,
      /*followupRemainder=*/nullptr, /*followupAll=*/nullptr);
  return LLVM::LoopAnnotationAttr::get(
      context, /*disableNonforced=*/nullptr, /*vectorize=*/nullptr,
      /*interleave=*/nullptr, /*unroll=*/noUnroll, /*unrollAndJam=*/nullptr,
      /*licm=*/nullptr, /*distribute=*/nullptr, /*pipeline=*/nullptr,
      /*peeled=*/nullptr, /*unswitch=*/nullptr, /*mustProgress=*/nullptr,
      /*isVectorized=*/nullptr, /*startLoc=*/nullptr, /*endLoc=*/nullptr,
      parallelAccesses);
}

namespace {

/// How the values of a thread body move with the thread loop's innermost
/// index x: the coefficient c of `value = c * x + (terms without x)`, in
/// bytes for addresses. Following sums, constant multiples, casts and
/// address arithmetic; anything else that depends on x has no coefficient.
/// (A heuristic for LLVM's vectorizer, not a legality argument: casts are
/// read as not wrapping.)
class InnermostStrides {
public:
  InnermostStrides(scf::ParallelOp loop, DataLayout layout)
      : loop(loop), x(loop.getInductionVars().back()), layout(layout) {}

  std::optional<int64_t> coefficient(Value value) {
    if (auto it = memo.find(value); it != memo.end())
      return it->second;
    // SSA values of structured code form no cycles (loop-carried values
    // are block arguments, not followed), so the recursion ends.
    std::optional<int64_t> result = compute(value);
    memo[value] = result;
    return result;
  }

private:
  std::optional<int64_t> compute(Value value) {
    if (value == x)
      return 1;
    if (!loop->isProperAncestor(value.getParentBlock()->getParentOp()) &&
        value.getParentRegion() != &loop.getRegion())
      return 0;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      // The other thread indices; a serial loop's counter moves with x as
      // its lower bound does.
      if (arg.getOwner() == loop.getBody())
        return 0;
      auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (forOp && arg == forOp.getInductionVar() &&
          coefficient(forOp.getStep()) == 0)
        return coefficient(forOp.getLowerBound());
      return std::nullopt;
    }
    Operation *def = value.getDefiningOp();
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp, LLVM::SExtOp, LLVM::ZExtOp,
            LLVM::TruncOp>(def))
      return coefficient(def->getOperand(0));
    if (isa<arith::AddIOp, LLVM::AddOp>(def))
      return combine(def, [](int64_t a, int64_t b) { return a + b; });
    if (isa<arith::SubIOp, LLVM::SubOp>(def))
      return combine(def, [](int64_t a, int64_t b) { return a - b; });
    if (isa<arith::MulIOp, LLVM::MulOp, arith::ShLIOp, LLVM::ShlOp>(def))
      return scale(def);
    if (auto gep = dyn_cast<LLVM::GEPOp>(def))
      return addressCoefficient(gep);
    // What regions yield (scf.if, loops) is not followed.
    if (def->getNumRegions() != 0)
      return std::nullopt;
    // Anything else moves with x only if an operand does.
    for (Value operand : def->getOperands())
      if (coefficient(operand) != 0)
        return std::nullopt;
    return 0;
  }

  std::optional<int64_t>
  combine(Operation *def, function_ref<int64_t(int64_t, int64_t)> fn) {
    std::optional<int64_t> a = coefficient(def->getOperand(0));
    std::optional<int64_t> b = coefficient(def->getOperand(1));
    if (!a || !b)
      return std::nullopt;
    return fn(*a, *b);
  }

  /// `a * k`, `k * a` or `a << k` for a constant k.
  std::optional<int64_t> scale(Operation *def) {
    bool shift = isa<arith::ShLIOp, LLVM::ShlOp>(def);
    for (unsigned side = 0; side < 2; ++side) {
      if (shift && side == 1)
        break;
      std::optional<int64_t> c = coefficient(def->getOperand(side));
      std::optional<int64_t> k = getConstantIntValue(def->getOperand(1 - side));
      if (!c || !k)
        continue;
      if (shift)
        return *k >= 0 && *k < 32
                   ? std::optional<int64_t>(*c * (int64_t(1) << *k))
                   : std::nullopt;
      return *c * *k;
    }
    if (coefficient(def->getOperand(0)) == 0 &&
        coefficient(def->getOperand(1)) == 0)
      return 0;
    return std::nullopt;
  }

  std::optional<int64_t> addressCoefficient(LLVM::GEPOp gep) {
    std::optional<int64_t> total = coefficient(gep.getBase());
    if (!total)
      return std::nullopt;
    bool linear = forEachGEPIndexStep(gep, layout, [&](Value index,
                                                       int64_t bytes) {
      std::optional<int64_t> c = coefficient(index);
      if (!c)
        return false;
      *total += *c * bytes;
      return true;
    });
    return linear ? total : std::nullopt;
  }

  scf::ParallelOp loop;
  Value x;
  DataLayout layout;
  llvm::DenseMap<Value, std::optional<int64_t>> memo;
};

} // namespace

/// True if every access of `loop`'s body is the same for all threads or
/// moves with x by its own size, so that LLVM's vectorizer, told the loop
/// is parallel, emits vector loads and stores. Gathers and scatters it
/// would emit for other accesses ran slower than the scalar loop (`nw`'s
/// anti-diagonal sweep, 1.9x on AMD Zen 4), and a call that takes x may
/// be inlined into anything, so such loops are left to LLVM's own
/// analysis.
static bool isContiguousAlongX(scf::ParallelOp loop) {
  DataLayout layout = DataLayout::closest(loop);
  InnermostStrides strides(loop, layout);
  int64_t step = getConstantIntValue(loop.getStep().back()).value_or(1);
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    Value address;
    Type accessed;
    if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
      address = load.getAddr();
      accessed = load.getType();
    } else if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
      address = store.getAddr();
      accessed = store.getValue().getType();
    } else if (auto call = dyn_cast<LLVM::CallOp>(op)) {
      for (Value arg : call.getArgOperands())
        if (strides.coefficient(arg) != 0)
          return WalkResult::interrupt();
      return WalkResult::advance();
    } else {
      return WalkResult::advance();
    }
    std::optional<int64_t> c = strides.coefficient(address);
    if (!c || (*c != 0 && *c * step != int64_t(layout.getTypeSize(accessed))))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// True if `op` is an access the thread loop's access group may hold: not
/// an atomic (whose order between threads is the point) and not volatile.
static bool mayJoinAccessGroup(Operation *op) {
  if (isa<LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp>(op))
    return false;
  if (auto load = dyn_cast<LLVM::LoadOp>(op))
    return !load.getVolatile_();
  if (auto store = dyn_cast<LLVM::StoreOp>(op))
    return !store.getVolatile_();
  return true;
}

/// Puts the accesses of `loop`'s body in a new access group and returns it;
/// null if the loop has block-serial accesses, which must stay ordered, or
/// no accesses.
static LLVM::AccessGroupAttr groupThreadAccesses(scf::ParallelOp loop) {
  SmallVector<LLVM::AccessGroupOpInterface> accesses;
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    if (op->hasAttr(kBlockSerialAttr))
      return WalkResult::interrupt();
    if (auto access = dyn_cast<LLVM::AccessGroupOpInterface>(op))
      if (mayJoinAccessGroup(op))
        accesses.push_back(access);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || accesses.empty())
    return nullptr;
  auto group = LLVM::AccessGroupAttr::get(loop.getContext());
  for (LLVM::AccessGroupOpInterface access : accesses) {
    SmallVector<Attribute> groups;
    if (ArrayAttr existing = access.getAccessGroupsOrNull())
      groups.append(existing.begin(), existing.end());
    groups.push_back(group);
    access.setAccessGroups(ArrayAttr::get(loop.getContext(), groups));
  }
  return group;
}

/// Replaces `loop` by a nest of scf.for, its first dimension outermost;
/// with `parallelAccesses`, the loops declare the body's accesses parallel.
/// Fails (leaving the loop alone) when the loop has reductions.
LogicalResult serializeParallelLoop(scf::ParallelOp loop,
                                    bool parallelAccesses) {
  if (loop.getNumReductions() != 0)
    return loop.emitOpError("thread loop with reductions cannot be serialized");
  SmallVector<LLVM::AccessGroupAttr, 1> groups;
  if (parallelAccesses && isContiguousAlongX(loop))
    if (LLVM::AccessGroupAttr group = groupThreadAccesses(loop))
      groups.push_back(group);
  auto annotation = getThreadLoopAnnotation(loop.getContext(), groups);
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> inductionVars;
  Block *innermost = nullptr;
  for (auto [lower, upper, step] : llvm::zip(
           loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    auto forOp = scf::ForOp::create(builder, loc, lower, upper, step);
    // SCF-to-CF lowering moves the attribute to the loop's back edge.
    forOp->setAttr(kLoopAnnotationAttr, annotation);
    inductionVars.push_back(forOp.getInductionVar());
    innermost = forOp.getBody();
    builder.setInsertionPoint(innermost->getTerminator());
  }
  Block *body = loop.getBody();
  for (auto [arg, iv] : llvm::zip(body->getArguments(), inductionVars))
    arg.replaceAllUsesWith(iv);
  innermost->getOperations().splice(innermost->getTerminator()->getIterator(),
                                    body->getOperations(), body->begin(),
                                    std::prev(body->end()));
  loop.erase();
  return success();
}

namespace {
struct SerializeThreadLoopsPass
    : public respec::impl::SerializeThreadLoopsPassBase<SerializeThreadLoopsPass> {
  using SerializeThreadLoopsPassBase::SerializeThreadLoopsPassBase;
  void runOnOperation() override {
    for (scf::ParallelOp loop : collectThreadLoops(getOperation()))
      if (failed(serializeParallelLoop(loop, parallelAccesses)))
        return signalPassFailure();
  }
};
} // namespace
