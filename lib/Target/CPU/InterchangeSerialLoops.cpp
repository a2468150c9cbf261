//===- InterchangeSerialLoops.cpp - Thread loops inside serial loops ------===//
//
// On the CPU the threads of a block run as a loop, and LLVM vectorizes only
// innermost loops. A kernel whose threads each run a serial loop (`for (j =
// 0; j < n; ++j) acc += f(mine, shared[j])`) therefore becomes a thread loop
// around a scalar loop: the loop over j cannot be vectorized (a
// floating-point reduction, in order), and the parallel loop over threads
// is not innermost. When all threads run the same iterations (the trip
// count is uniform), the loops can be interchanged: for each j, run all
// threads, with each thread's carried state (acc) in a per-thread array.
// The thread loop is then innermost and vectorizes across threads, as the
// GPU runs it.
//
// This pass marks such loops with a barrier at the start of their body;
// barrier lowering (PredicateDivergentBarriers, LowerBarriers) does the
// interchange, keeps the uniform loop counter as a block-level value and
// demotes the per-thread state. Adding a barrier reached by all threads
// changes no result of a program without data races between the threads
// of a block (CUDA's requirement); atomics commute.
//
// Only blocks with a constant blockDim.x of at least 64 (a launch copy for
// a constant block size) are considered, and only loops whose per-thread
// state (carried values, values read from before the loop) is at most 8
// values. Only loops whose body is likely to vectorize, or to read memory in
// order after the interchange, are chosen: no calls other than intrinsics, no
// atomics (but shared-memory atomics, which LocalizeSharedAtomics made plain),
// no local allocations, no nested loops with a trip count that differs
// between threads, not a short constant trip count (which LLVM unrolls
// anyway), and every memory access either the same for all threads,
// contiguous in threadIdx.x, or a data-dependent address into the block's
// shared memory where some other access is contiguous in threadIdx.x. A
// thread that walks its own row (`p[tid * n + j]`) reads memory sequentially
// in the original order but would gather across threads after the
// interchange. A histogram's rounds (`atomicAdd(&bins[p[r * B + tid]], 1)`)
// read 1 byte of each line per thread in the original order, and the image
// in order after it.
//
// A loop under a branch that differs between threads (`if (j < n)`) is
// interchanged with its body guarded per thread, so it runs for all the
// block's threads: it qualifies only if some access then streams along
// threadIdx.x (not `if (threadIdx.x == 0)` around a loop over uniform
// addresses, 256 times the work), and only accesses whose addresses are
// computed in the loop or outside the branch count as contiguous. Values
// computed in the branch (`a + j` before the loop) become results of the
// predicated branch, kept per thread in memory, and accesses through them
// would be gathers (a thread per column walking it down ran 20x slower
// interchanged than left to the thread vectorizer).
//
//===----------------------------------------------------------------------===//

#include "respec/Dialect/RespecDialect.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"
#include "respec/Transforms/ThreadUniformity.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

namespace mlir::respec {
#define GEN_PASS_DEF_INTERCHANGESERIALLOOPSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// Loops with a constant trip count below this are left alone: LLVM unrolls
/// them fully, and the interchange would only add per-thread state traffic.
constexpr int64_t kMinConstantTripCount = 8;

/// Threads along x a block needs (known: blockDim.x is a constant, see
/// respec-specialize-block-size) for a vectorized thread loop to pay for
/// running once per iteration.
constexpr int64_t kMinThreadsX = 64;

/// Most per-thread values a loop may carry or read from before it: after
/// the interchange each is a load (and a store if carried) per thread and
/// iteration, which a body that kept them in registers did not pay.
constexpr unsigned kMaxThreadState = 8;

bool isSerialLoop(Operation *op) { return isa<scf::ForOp, scf::WhileOp>(op); }

bool hasShortConstantTripCount(scf::ForOp loop) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lower || !upper || !step || *step == 0)
    return false;
  return (*upper - *lower + *step - 1) / *step < kMinConstantTripCount;
}

/// How a value changes from one thread to the next along threadIdx.x: not
/// at all (0), by a constant, or unknown (nullopt). Values all threads agree
/// on have stride 0; the rest is followed through integer arithmetic,
/// casts and address computations (in bytes).
///
/// For a loop to interchange (`candidate`), values the interchange would
/// keep per thread in memory have no known stride: those computed under a
/// branch that differs between threads around the candidate (outside it).
/// Predication makes them results of the branch, which barrier lowering
/// stores per thread and reloads, so LLVM no longer sees that `a + j` is
/// the next element for the next thread and gathers what was contiguous.
class ThreadStride {
public:
  ThreadStride(scf::ParallelOp threadLoop, const ThreadUniformity &uniformity,
               Operation *candidate = nullptr)
      : threadX(threadLoop.getInductionVars().back()), uniformity(uniformity),
        layout(DataLayout::closest(threadLoop)), candidate(candidate) {
    if (!candidate)
      return;
    for (Operation *scope = candidate->getParentOp(); scope != threadLoop;
         scope = scope->getParentOp()) {
      Value condition;
      if (auto ifOp = dyn_cast<scf::IfOp>(scope))
        condition = ifOp.getCondition();
      else if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(scope))
        condition = switchOp.getArg();
      if (condition && !uniformity.isUniform(condition))
        divergentBranches.push_back(scope);
    }
  }

  std::optional<int64_t> of(Value value) {
    auto known = cache.find(value);
    if (known != cache.end())
      return known->second;
    std::optional<int64_t> stride = compute(value);
    cache[value] = stride;
    return stride;
  }

  /// True if the candidate runs under a branch that differs between
  /// threads.
  bool isUnderDivergentBranch() const { return !divergentBranches.empty(); }

  /// True if `address`, accessed as `type`, is the same for all threads or
  /// the next element for the next thread.
  bool isVectorFriendly(Value address, Type type) {
    std::optional<int64_t> stride = of(address);
    return stride && (*stride == 0 || *stride == size(type));
  }

private:
  int64_t size(Type type) {
    return static_cast<int64_t>(layout.getTypeSize(type).getFixedValue());
  }

  /// True if `def` lies under a divergent branch around the candidate and
  /// outside the candidate (see the class comment).
  bool isKeptPerThread(Operation *def) const {
    return !candidate->isAncestor(def) &&
           llvm::any_of(divergentBranches, [&](Operation *branch) {
             return branch->isAncestor(def);
           });
  }

  std::optional<int64_t> compute(Value value) {
    if (value == threadX)
      return 1;
    if (uniformity.isUniform(value))
      return 0;
    Operation *def = value.getDefiningOp();
    if (!def || (candidate && isKeptPerThread(def)))
      return std::nullopt;
    auto linear = [&](Value a, Value b,
                      int64_t sign) -> std::optional<int64_t> {
      std::optional<int64_t> sa = of(a), sb = of(b);
      if (!sa || !sb)
        return std::nullopt;
      return *sa + sign * *sb;
    };
    auto scaled = [&](Value a, Value b) -> std::optional<int64_t> {
      std::optional<int64_t> sa = of(a), sb = of(b);
      if (!sa || !sb)
        return std::nullopt;
      if (*sa == 0 && *sb == 0)
        return 0;
      if (*sb == 0)
        if (std::optional<int64_t> c = getConstantIntValue(b))
          return *sa * *c;
      if (*sa == 0)
        if (std::optional<int64_t> c = getConstantIntValue(a))
          return *sb * *c;
      return std::nullopt;
    };
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, LLVM::SExtOp, LLVM::ZExtOp, LLVM::TruncOp,
            arith::TruncIOp>(def))
      return of(def->getOperand(0));
    if (isa<arith::AddIOp, LLVM::AddOp>(def))
      return linear(def->getOperand(0), def->getOperand(1), 1);
    if (isDisjointOr(def))
      return linear(def->getOperand(0), def->getOperand(1), 1);
    if (isa<arith::SubIOp, LLVM::SubOp>(def))
      return linear(def->getOperand(0), def->getOperand(1), -1);
    if (isa<arith::MulIOp, LLVM::MulOp>(def))
      return scaled(def->getOperand(0), def->getOperand(1));
    if (isa<arith::ShLIOp, LLVM::ShlOp>(def)) {
      std::optional<int64_t> s = of(def->getOperand(0));
      std::optional<int64_t> c = getConstantIntValue(def->getOperand(1));
      if (s && c && *c >= 0 && *c < 32)
        return *s << *c;
      return std::nullopt;
    }
    if (auto gep = dyn_cast<LLVM::GEPOp>(def))
      return ofGEP(gep);
    return std::nullopt;
  }

  std::optional<int64_t> ofGEP(LLVM::GEPOp gep) {
    std::optional<int64_t> total = of(gep.getBase());
    if (!total)
      return std::nullopt;
    bool known =
        forEachGEPIndexStep(gep, layout, [&](Value index, int64_t bytes) {
          std::optional<int64_t> s = of(index);
          if (s)
            *total += *s * bytes;
          return s.has_value();
        });
    return known ? total : std::nullopt;
  }

  Value threadX;
  const ThreadUniformity &uniformity;
  DataLayout layout;
  Operation *candidate;
  SmallVector<Operation *> divergentBranches;
  DenseMap<Value, std::optional<int64_t>> cache;
};

/// True if `address`, accessed as `type`, needs no more than the
/// interchange's order: the same for all threads, the next element for the
/// next thread, or (`scatters`, set then) an address into the block's shared
/// memory that depends on data (a histogram bin). Shared memory is small
/// and stays in the L1 cache, so the order of its scattered accesses matters
/// little; `streams` is set for accesses that walk along threadIdx.x.
bool isInterchangeFriendly(Value address, Type type, ThreadStride &strides,
                           bool &streams, bool &scatters) {
  if (strides.isVectorFriendly(address, type)) {
    streams |= strides.of(address) != 0;
    return true;
  }
  if (strides.of(address) || !isSharedMemoryAddress(address))
    return false;
  scatters = true;
  return true;
}

/// True if `op`'s body has nothing that keeps a thread loop around it from
/// vectorizing or from reading memory in order along the threads, or that
/// barrier lowering cannot move between thread loops.
bool hasVectorizableBody(Operation *loop, const ThreadUniformity &uniformity,
                         ThreadStride &strides) {
  bool streams = false, scatters = false;
  WalkResult result = loop->walk([&](Operation *op) {
    if (auto load = dyn_cast<LLVM::LoadOp>(op);
        load && !isInterchangeFriendly(load.getAddr(), load.getType(), strides,
                                       streams, scatters))
      return WalkResult::interrupt();
    if (auto store = dyn_cast<LLVM::StoreOp>(op);
        store &&
        !isInterchangeFriendly(store.getAddr(), store.getValue().getType(),
                               strides, streams, scatters))
      return WalkResult::interrupt();
    if (op == loop)
      return WalkResult::advance();
    if (isBarrierLike(op) || isa<scf::ParallelOp>(op) ||
        isa<LLVM::AllocaOp, LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp,
            LLVM::InlineAsmOp, LLVM::FenceOp>(op))
      return WalkResult::interrupt();
    if (auto call = dyn_cast<LLVM::CallOp>(op)) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee || !callee->starts_with("llvm."))
        return WalkResult::interrupt();
    }
    if (isSerialLoop(op) && !uniformity.hasUniformControl(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  // A body with scattered shared-memory accesses does not vectorize; the
  // interchange pays only for a loop that then streams memory in order.
  // So does a loop under a branch that differs between threads: the
  // interchanged loop runs every thread of the block, and the branch may
  // let few of them in (`if (threadIdx.x == 0)`, where a loop over uniform
  // addresses would run 256 times over).
  bool needsStreams = scatters || strides.isUnderDivergentBranch();
  return !result.wasInterrupted() && (!needsStreams || streams);
}

/// True if every op between `op` and `threadLoop` keeps `op` running for
/// all threads alike or for a predicate (uniform loops; branches of either
/// kind, which predication turns into per-thread guards).
bool hasInterchangeableAncestors(Operation *op, scf::ParallelOp threadLoop,
                                 const ThreadUniformity &uniformity) {
  for (Operation *scope = op->getParentOp(); scope != threadLoop;
       scope = scope->getParentOp()) {
    if (isa<scf::IfOp, scf::IndexSwitchOp>(scope))
      continue;
    if (!isSerialLoop(scope) || !uniformity.hasUniformControl(scope))
      return false;
  }
  return true;
}

/// The values that differ between threads and that `loop` carries or reads
/// from the thread loop's code before it.
unsigned countThreadState(Operation *loop, scf::ParallelOp threadLoop,
                          const ThreadUniformity &uniformity) {
  llvm::DenseSet<Value> state;
  auto note = [&](Value value) {
    if (!uniformity.isUniform(value))
      state.insert(value);
  };
  for (Value result : loop->getResults())
    note(result);
  loop->walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      Block *owner =
          def ? def->getBlock() : cast<BlockArgument>(operand).getOwner();
      if (threadLoop->isAncestor(owner->getParentOp()) &&
          !loop->isAncestor(owner->getParentOp()) &&
          !llvm::is_contained(threadLoop.getInductionVars(), operand))
        note(operand);
    }
  });
  return state.size();
}

/// True if the thread loop's x extent is a constant of at least
/// kMinThreadsX.
bool hasWideConstantX(scf::ParallelOp threadLoop) {
  std::optional<int64_t> lower =
      getConstantThroughCasts(threadLoop.getLowerBound().back());
  std::optional<int64_t> upper =
      getConstantThroughCasts(threadLoop.getUpperBound().back());
  return lower && upper && *upper - *lower >= kMinThreadsX;
}

/// The innermost serial loops of `threadLoop` worth interchanging.
SmallVector<Operation *> findCandidates(scf::ParallelOp threadLoop) {
  if (!hasWideConstantX(threadLoop))
    return {};
  ThreadUniformity uniformity(threadLoop);
  SmallVector<Operation *> candidates;
  threadLoop.getBody()->walk([&](Operation *op) {
    if (!isSerialLoop(op) || !uniformity.hasUniformControl(op))
      return;
    ThreadStride strides(threadLoop, uniformity, op);
    if (auto forOp = dyn_cast<scf::ForOp>(op);
        forOp && hasShortConstantTripCount(forOp))
      return;
    if (countThreadState(op, threadLoop, uniformity) > kMaxThreadState ||
        !hasVectorizableBody(op, uniformity, strides) ||
        !hasInterchangeableAncestors(op, threadLoop, uniformity))
      return;
    // Post-order walk: an inner candidate comes first; the interchange of
    // an inner loop carries its enclosing loops along.
    if (llvm::any_of(candidates,
                     [&](Operation *inner) { return op->isAncestor(inner); }))
      return;
    candidates.push_back(op);
  });
  return candidates;
}

/// True if warp primitives of `threadLoop` became block barriers: its
/// per-thread values already go through memory at every primitive, and more
/// splits would only add to its (large) code.
bool emulatesWarpPrimitives(scf::ParallelOp threadLoop) {
  return threadLoop
      .walk([](BarrierOp barrier) {
        return barrier->hasAttr(kWarpSyncAttr) ? WalkResult::interrupt()
                                               : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The block the barrier goes into: the loop body (for), the region after
/// the exit test (while).
Block *loopBody(Operation *loop) {
  if (auto forOp = dyn_cast<scf::ForOp>(loop))
    return forOp.getBody();
  return &cast<scf::WhileOp>(loop).getAfter().front();
}

struct InterchangeSerialLoopsPass
    : public respec::impl::InterchangeSerialLoopsPassBase<
          InterchangeSerialLoopsPass> {
  using InterchangeSerialLoopsPassBase::InterchangeSerialLoopsPassBase;

  void runOnOperation() override {
    for (scf::ParallelOp threadLoop : collectThreadLoops(getOperation())) {
      if (emulatesWarpPrimitives(threadLoop))
        continue;
      for (Operation *loop : findCandidates(threadLoop)) {
        OpBuilder b = OpBuilder::atBlockBegin(loopBody(loop));
        auto barrier =
            BarrierOp::create(b, loop->getLoc(), threadLoop.getInductionVars());
        // Not the user's barrier: no divergence warnings about it.
        barrier->setAttr(kInterchangeAttr, b.getUnitAttr());
      }
    }
  }
};

} // namespace
