//===- ForwardSharedStores.cpp - Shared-memory reads as recomputation ----===//
//
// The most common use of shared memory is a tile: every thread stores what
// it loaded from global memory (`t[ty + 1][tx + 1] = in[k]`, plus a halo
// the edge threads load), `__syncthreads()`, and every thread reads its
// neighbours' values (`t[ty][tx + 1]`). On a GPU the tile saves global
// memory traffic. On the CPU it costs a copy of each cell, a barrier that
// splits the thread loop, and per-thread values kept in memory across it;
// the neighbour's value is one ordinary (cached) load away.
//
// This pass replaces such a read by the computation of the value the
// writing thread stored: for `t[ty][tx + 1]`, the thread one row up loaded
// `in[k - n]`, and the threads of the first row loaded their halo cell. When
// all reads after a barrier are replaced, nothing crosses the barrier, which
// is removed, and the tile's stores, which nobody reads any more, go too.
//
// Which thread wrote which location is found by evaluating, for every thread
// of the block (launch copies with a constant block size, see
// respec-specialize-block-size), the addresses and branch conditions of the
// shared-memory stores before the barrier and of each read after it. A read
// is replaced when, for every thread that reaches it, exactly one store of
// one thread last wrote its location (same address, same type), and the
// readers of each (store, writer - reader offset) pair form a box of thread
// indices: the read becomes a chain of branches on those boxes, each
// recomputing the store's value for the writer (the thread index shifted by
// the offset). The evaluation proves that the chain picks, for every
// reader, the store and writer that the GPU's execution would have had it
// read.
//
// A tile's halo cells are loaded by the edge threads for their neighbours
// (`if (tx == 0) t[ty + 1][0] = col > 0 ? in[k - 1] : in[k]`), and the
// other threads read what their neighbour loaded. The halo's computation,
// evaluated for any thread of the row, is that thread's left neighbour's
// value wherever `col > 0`, which holds for every thread but those of the
// halo column. So the halo branch serves all readers, and the read needs
// no test on the thread index (which would split narrow rows into short
// loops and make the loads gathers). This is proved per reader by
// evaluating both computations with the thread index known and the block
// index and kernel arguments as unknowns (SymbolicThreadValues.h): integers
// become polynomials over the unknowns, compared exactly, and comparisons
// are decided from the unknowns' ranges where they can be. Where the halo
// branch's condition may pick its other region for another thread (`col <
// n - 1` at the right edge, for a block past the image's end), the branch
// is redirected to the neighbour's region there.
//
// The recomputed value must be what the writer computed before the barrier:
// - it may use pure operations, branches (scf.if, scf.index_switch) and
//   loads from global memory, all from the code since the previous barrier
//   (no shared memory, no thread-private memory, no calls, no loops);
// - the code before the barrier stores nothing but shared memory;
// - the code after it (up to the next barrier) stores nothing to shared
//   memory and nothing to the objects the code before it reads from.
// Objects are told apart statically (distinct `__device__` variables) or at
// run time: a check that two pointers lie in different allocations
// (`__respec_distinct_allocations`) selects the rewritten copy of the
// thread loop, the original runs otherwise. Pointers are followed through
// address arithmetic only (an access through one object's pointer never
// reaches another object in C++ or LLVM IR).
//
//===----------------------------------------------------------------------===//

#include "SymbolicThreadValues.h"

#include "respec/Dialect/RespecDialect.h"
#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/StringSet.h"

#include <map>

namespace mlir::respec {
#define GEN_PASS_DEF_FORWARDSHAREDSTORESPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// Blocks with more threads than this are left alone (every thread is
/// evaluated at compile time).
constexpr int64_t kMaxThreads = 1024;
/// Most store evaluations (stores times threads) per barrier.
constexpr int64_t kMaxEvaluations = 1 << 16;
/// Most (store, offset) pairs one read may pick from.
constexpr unsigned kMaxCandidates = 8;
/// Blocks narrower than this along x keep reads whose sources differ along
/// x (a halo column) unless the halo's computation serves the whole row
/// (TailMerge): the chain of tests would split the thread loop into rows
/// too short for LLVM to vectorize, slower than the tile.
constexpr int64_t kMinSplitWidthX = 64;
/// Most operations recomputed for one store's value: a read replaced by a
/// long computation would cost more than the tile saves.
constexpr unsigned kMaxSliceOps = 48;

/// The runtime's test that two pointers lie in different allocations.
constexpr StringLiteral kDistinctAllocationsFunction =
    "__respec_distinct_allocations";

/// An integer, or a pointer as an offset in bytes from a root pointer, that
/// one thread computes.
struct Concrete {
  Value root; // null for integers
  APInt bits;
};

/// Evaluates the integer and address arithmetic of a thread body for one
/// thread at a time.
class ThreadEvaluator {
public:
  ThreadEvaluator(scf::ParallelOp loop, const DataLayout &layout)
      : loop(loop), layout(layout) {}

  void setThread(ArrayRef<int64_t> ids) {
    thread.assign(ids.begin(), ids.end());
    cache.clear();
    possible.clear();
  }

  std::optional<Concrete> eval(Value value, unsigned depth = 0) {
    auto known = cache.find(value);
    if (known != cache.end())
      return known->second;
    std::optional<Concrete> result =
        depth > 64 ? std::nullopt : compute(value, depth);
    cache[value] = result;
    return result;
  }

  /// True if the current thread runs `op` (every enclosing branch inside
  /// the thread loop leads to it); nullopt if that is not known.
  std::optional<bool> reaches(Operation *op) {
    for (Operation *child = op, *parent = op->getParentOp();
         parent != loop.getOperation();
         child = parent, parent = parent->getParentOp()) {
      if (!isa<scf::IfOp, scf::IndexSwitchOp>(parent))
        return std::nullopt;
      unsigned region = child->getParentRegion()->getRegionNumber();
      SmallVector<unsigned> choices = possibleRegions(parent, 0);
      if (!llvm::is_contained(choices, region))
        return false;
      if (choices.size() != 1)
        return std::nullopt;
    }
    return true;
  }

private:
  static Region *selectedRegion(scf::IndexSwitchOp op, const APInt &selector) {
    for (auto [i, value] : llvm::enumerate(op.getCases()))
      if (selector.getSExtValue() == value)
        return &op.getCaseRegions()[i];
    return &op.getDefaultRegion();
  }

  std::optional<Concrete> integer(APInt bits) {
    return Concrete{Value(), std::move(bits)};
  }

  std::optional<Concrete> compute(Value value, unsigned depth) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      // Induction variables are (z, y, x); threads are given as (x, y, z).
      if (arg.getOwner() == loop.getBody())
        return integer(
            APInt(64, thread[loop.getNumLoops() - 1 - arg.getArgNumber()]));
      return std::nullopt;
    }
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return integer(constant);
    Operation *def = value.getDefiningOp();
    if (auto gep = dyn_cast<LLVM::GEPOp>(def))
      return evalGEP(gep, depth);
    if (isa<scf::IfOp, scf::IndexSwitchOp>(def))
      return evalRegionResult(def, cast<OpResult>(value).getResultNumber(),
                              depth);
    if (auto select = dyn_cast<arith::SelectOp>(def))
      return evalSelect(select.getCondition(), select.getTrueValue(),
                        select.getFalseValue(), depth);
    if (auto select = dyn_cast<LLVM::SelectOp>(def))
      return evalSelect(select.getCondition(), select.getTrueValue(),
                        select.getFalseValue(), depth);
    // Pointers from outside the thread loop are the roots addresses are
    // offsets from.
    if (isa<LLVM::LLVMPointerType>(value.getType()))
      return loop->isAncestor(def)
                 ? std::nullopt
                 : std::optional<Concrete>(Concrete{value, APInt(64, 0)});
    if (!loop->isAncestor(def))
      return std::nullopt;
    std::optional<unsigned> width = getIntWidth(value.getType());
    if (!width)
      return std::nullopt;
    if (std::optional<CastKind> kind = classifyCast(def)) {
      std::optional<Concrete> a = eval(def->getOperand(0), depth + 1);
      if (!a || a->root)
        return std::nullopt;
      switch (*kind) {
      case CastKind::SignExtend:
        return integer(a->bits.sextOrTrunc(*width));
      case CastKind::ZeroExtend:
      case CastKind::NonNegExtend:
      case CastKind::Truncate:
      case CastKind::Same:
        return integer(a->bits.zextOrTrunc(*width));
      }
    }
    if (std::optional<IntComparison> cmp = matchIntComparison(value)) {
      std::optional<Concrete> a = eval(cmp->lhs, depth + 1);
      std::optional<Concrete> b = eval(cmp->rhs, depth + 1);
      if (!a || !b || a->root || b->root)
        return std::nullopt;
      return integer(
          APInt(1, arith::applyCmpPredicate(cmp->predicate, a->bits, b->bits)));
    }
    if (def->getNumOperands() != 2)
      return std::nullopt;
    std::optional<Concrete> a = eval(def->getOperand(0), depth + 1);
    std::optional<Concrete> b = eval(def->getOperand(1), depth + 1);
    if (!a || !b || a->root || b->root)
      return std::nullopt;
    const APInt &x = a->bits, &y = b->bits;
    if (isa<arith::AddIOp, LLVM::AddOp>(def) || isDisjointOr(def))
      return integer(x + y);
    if (isa<arith::SubIOp, LLVM::SubOp>(def))
      return integer(x - y);
    if (isa<arith::MulIOp, LLVM::MulOp>(def))
      return integer(x * y);
    if (isa<arith::ShLIOp, LLVM::ShlOp>(def))
      return y.uge(*width) ? std::nullopt : integer(x.shl(y));
    if (isa<arith::AndIOp, LLVM::AndOp>(def))
      return integer(x & y);
    if (isa<arith::OrIOp, LLVM::OrOp>(def))
      return integer(x | y);
    if (isa<arith::XOrIOp, LLVM::XOrOp>(def))
      return integer(x ^ y);
    return std::nullopt;
  }

  static bool isPoison(Value value) {
    return isa_and_nonnull<LLVM::PoisonOp, LLVM::UndefOp>(
        value.getDefiningOp());
  }

  static bool same(const std::optional<Concrete> &a,
                   const std::optional<Concrete> &b) {
    return a && b && a->root == b->root &&
           a->bits.getBitWidth() == b->bits.getBitWidth() && a->bits == b->bits;
  }

  /// The value of a choice among `values` (one per region, null for an
  /// empty one) where the regions in `choices` may be taken: the chosen
  /// value, or the one all possible choices agree on.
  std::optional<Concrete> evalChoice(ArrayRef<unsigned> choices,
                                     ArrayRef<Value> values, unsigned depth) {
    std::optional<Concrete> agreed;
    for (unsigned choice : choices) {
      Value value = values[choice];
      // Poison may be taken to be any value: the one the others agree on.
      if (value && isPoison(value))
        continue;
      std::optional<Concrete> v = value ? eval(value, depth + 1) : std::nullopt;
      if (!v || (agreed && !same(agreed, v)))
        return std::nullopt;
      agreed = v;
    }
    return agreed;
  }

  /// The integers `value` may be for the current thread: one where it is
  /// known; where it is a branch's result on a condition that depends on
  /// more than the thread index, those of the branches (`row == 0 ? 1 :
  /// 2`). Nullopt if unknown or more than a few.
  std::optional<SmallVector<APInt, 4>> possibleValues(Value value,
                                                      unsigned depth = 0) {
    auto memo = possible.find(value);
    if (memo != possible.end())
      return memo->second;
    std::optional<SmallVector<APInt, 4>> result =
        computePossibleValues(value, depth);
    possible[value] = result;
    return result;
  }

  std::optional<SmallVector<APInt, 4>> computePossibleValues(Value value,
                                                             unsigned depth) {
    std::optional<Concrete> known = eval(value, depth + 1);
    if (known)
      return known->root ? std::nullopt
                         : std::optional<SmallVector<APInt, 4>>({known->bits});
    Operation *def = value.getDefiningOp();
    if (!def || depth > 16 || !loop->isAncestor(def))
      return std::nullopt;
    if (std::optional<CastKind> kind = classifyCast(def)) {
      std::optional<SmallVector<APInt, 4>> operands =
          possibleValues(def->getOperand(0), depth + 1);
      std::optional<unsigned> width = getIntWidth(value.getType());
      if (!operands || !width)
        return std::nullopt;
      for (APInt &bits : *operands)
        bits = *kind == CastKind::SignExtend ? bits.sextOrTrunc(*width)
                                             : bits.zextOrTrunc(*width);
      return operands;
    }
    SmallVector<Value> values;
    SmallVector<unsigned> choices;
    if (auto select = dyn_cast<arith::SelectOp>(def)) {
      values = {select.getTrueValue(), select.getFalseValue()};
      choices = possibleRegions(select.getCondition(), depth);
    } else if (auto select = dyn_cast<LLVM::SelectOp>(def)) {
      values = {select.getTrueValue(), select.getFalseValue()};
      choices = possibleRegions(select.getCondition(), depth);
    } else if (isa<scf::IfOp, scf::IndexSwitchOp>(def)) {
      values = yieldedValues(def, cast<OpResult>(value).getResultNumber());
      choices = possibleRegions(def, depth);
    }
    if (choices.empty())
      return std::nullopt;
    SmallVector<APInt, 4> all;
    for (unsigned choice : choices) {
      if (!values[choice])
        return std::nullopt;
      if (isPoison(values[choice]))
        continue;
      std::optional<SmallVector<APInt, 4>> some =
          possibleValues(values[choice], depth + 1);
      if (!some)
        return std::nullopt;
      for (const APInt &bits : *some)
        if (!llvm::is_contained(all, bits))
          all.push_back(bits);
      if (all.size() > 4)
        return std::nullopt;
    }
    return all;
  }

  /// The regions (0: true/then, 1: false/else) an i1 condition may pick.
  SmallVector<unsigned> possibleRegions(Value cond, unsigned depth) {
    std::optional<SmallVector<APInt, 4>> values =
        possibleValues(cond, depth + 1);
    if (!values)
      return {0, 1};
    SmallVector<unsigned> regions;
    for (const APInt &bits : *values) {
      unsigned region = bits.isZero() ? 1 : 0;
      if (!llvm::is_contained(regions, region))
        regions.push_back(region);
    }
    return regions;
  }

  /// The regions of an scf.if or scf.index_switch that may run.
  SmallVector<unsigned> possibleRegions(Operation *op, unsigned depth) {
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return possibleRegions(ifOp.getCondition(), depth);
    auto switchOp = cast<scf::IndexSwitchOp>(op);
    std::optional<SmallVector<APInt, 4>> selectors =
        possibleValues(switchOp.getArg(), depth + 1);
    SmallVector<unsigned> regions;
    if (!selectors) {
      for (unsigned i = 0; i < switchOp->getNumRegions(); ++i)
        regions.push_back(i);
      return regions;
    }
    for (const APInt &bits : *selectors) {
      // Regions: default, then the cases.
      unsigned region = selectedRegion(switchOp, bits)->getRegionNumber();
      if (!llvm::is_contained(regions, region))
        regions.push_back(region);
    }
    return regions;
  }

  std::optional<Concrete> evalSelect(Value cond, Value ifTrue, Value ifFalse,
                                     unsigned depth) {
    return evalChoice(possibleRegions(cond, depth), {ifTrue, ifFalse}, depth);
  }

  /// The value yielded as `result` by each region (null for an empty one).
  static SmallVector<Value> yieldedValues(Operation *op, unsigned result) {
    SmallVector<Value> values;
    for (Region &region : op->getRegions())
      values.push_back(
          region.empty() ? Value()
                         : region.front().getTerminator()->getOperand(result));
    return values;
  }

  std::optional<Concrete> evalRegionResult(Operation *op, unsigned result,
                                           unsigned depth) {
    return evalChoice(possibleRegions(op, depth), yieldedValues(op, result),
                      depth);
  }

  /// Constant and dynamic indices through arrays and the pointee type;
  /// struct fields are not followed.
  std::optional<Concrete> evalGEP(LLVM::GEPOp gep, unsigned depth) {
    std::optional<Concrete> base = eval(gep.getBase(), depth + 1);
    if (!base || !base->root)
      return std::nullopt;
    int64_t offset = base->bits.getSExtValue();
    std::optional<SmallVector<int64_t, 4>> steps =
        getGEPIndexSteps(gep, layout);
    if (!steps)
      return std::nullopt;
    for (auto [index, step] : llvm::zip(gep.getIndices(), *steps)) {
      int64_t count;
      if (auto dynamic = dyn_cast<Value>(index)) {
        std::optional<Concrete> i = eval(dynamic, depth + 1);
        if (!i || i->root)
          return std::nullopt;
        count = i->bits.getSExtValue();
      } else {
        count = cast<IntegerAttr>(index).getInt();
      }
      offset += count * step;
    }
    return Concrete{base->root, APInt(64, offset, /*isSigned=*/true)};
  }

  scf::ParallelOp loop;
  const DataLayout &layout;
  SmallVector<int64_t, 3> thread;
  DenseMap<Value, std::optional<Concrete>> cache;
  DenseMap<Value, std::optional<SmallVector<APInt, 4>>> possible;
};

/// True if `address` points into the block's shared memory: address
/// arithmetic on it, or a branch's result that is such an address (or
/// poison) on every path (LLVM merges stores of both arms of a branch into
/// one store of a selected address).
bool pointsIntoShared(Value address, unsigned depth = 0) {
  if (isSharedMemoryAddress(address))
    return true;
  Operation *def = address.getDefiningOp();
  if (!def || depth > 8)
    return false;
  if (isa<LLVM::PoisonOp, LLVM::UndefOp>(def))
    return true;
  if (auto gep = dyn_cast<LLVM::GEPOp>(def))
    return pointsIntoShared(gep.getBase(), depth + 1);
  if (auto select = dyn_cast<LLVM::SelectOp>(def))
    return pointsIntoShared(select.getTrueValue(), depth + 1) &&
           pointsIntoShared(select.getFalseValue(), depth + 1);
  if (isa<scf::IfOp, scf::IndexSwitchOp>(def)) {
    unsigned result = cast<OpResult>(address).getResultNumber();
    return llvm::all_of(def->getRegions(), [&](Region &region) {
      return region.empty() ||
             pointsIntoShared(
                 region.front().getTerminator()->getOperand(result), depth + 1);
    });
  }
  return false;
}

bool isAllocaPointer(Value root) {
  return isa_and_nonnull<LLVM::AllocaOp>(root.getDefiningOp());
}

/// True if the root pointer `root` of an access in `loop` cannot point into
/// shared memory: a global variable's address, or a pointer from outside the
/// block (kernel arguments: the host never sees a block's shared memory).
/// Pointers chosen or loaded inside the block might, and an access through
/// one is neither a tile access nor provably another object's.
bool isOutsideShared(Value root, scf::ParallelOp loop) {
  if (isa_and_nonnull<LLVM::AddressOfOp>(root.getDefiningOp()))
    return true;
  Operation *block = loop->getParentOp();
  while (block && !isGridLoop(block))
    block = block->getParentOp();
  return isDefinedOutside(root, block ? block : loop.getOperation());
}

/// Calls without memory effects: math intrinsics called by name, and
/// libdevice functions (`__nv_expf`, lowered later) that take and return
/// only numbers. Those taking pointers (`__nv_sincosf`) or returning nothing
/// are left out.
bool isPureCall(Operation *op) {
  if (auto intrinsic = dyn_cast<LLVM::CallIntrinsicOp>(op))
    return isElementwiseIntrinsic(intrinsic);
  auto call = dyn_cast<LLVM::CallOp>(op);
  std::optional<StringRef> callee = call ? call.getCallee() : std::nullopt;
  auto isPointer = [](Type type) { return isa<LLVM::LLVMPointerType>(type); };
  return callee && callee->starts_with("__nv_") && call.getNumResults() == 1 &&
         !isPointer(call.getResult().getType()) &&
         llvm::none_of(call->getOperandTypes(), isPointer);
}

/// True for ops of the LLVM, arith and scf dialects: what the analysis
/// knows. Warp operations (respec and NVVM ops, which depend on other
/// threads' values at that moment) and anything else are not moved or
/// recomputed.
bool isPlainOp(Operation *op) {
  Dialect *dialect = op->getDialect();
  return isa_and_nonnull<LLVM::LLVMDialect, arith::ArithDialect,
                         scf::SCFDialect>(dialect);
}

/// The top-level ops of a thread body between two barriers.
struct Phase {
  Block::iterator begin, end;

  bool contains(Operation *op, Block *body) const {
    Operation *top = body->findAncestorOpInBlock(*op);
    if (!top)
      return false;
    for (auto it = begin; it != end; ++it)
      if (&*it == top)
        return true;
    return false;
  }

  template <typename Fn> void walk(Fn &&fn) const {
    for (auto it = begin; it != end; ++it)
      it->walk(fn);
  }
};

/// Where one read's value comes from, for the readers in a box of thread
/// indices.
struct Candidate {
  LLVM::StoreOp store;
  SmallVector<int64_t, 3> offset; // writer - reader
  SmallVector<int64_t, 3> lo, hi; // the box of readers, inclusive
  int64_t readers = 0;
};

/// The last two candidates of a read sharing one recomputation: the one
/// before last (C, a halo store) computes, along the branches its writers
/// take, the last one's (P, the tile's main store) value for P's readers
/// too. Where it does not (its branch on the image's edge takes the other
/// region), those of P's readers get P's value.
struct TailMerge {
  /// The branches of C's computation and the region all its writers take.
  DenseMap<Operation *, unsigned> forced;
  /// The branch of C's computation whose other region marks the readers of
  /// P that need P's value (null if none does), and the region giving
  /// P's value.
  scf::IfOp exceptionBranch;
  unsigned normalRegion = 0;
};

/// The value candidate `c`'s store writes.
Value storedValue(const Candidate &c) {
  return LLVM::StoreOp(c.store).getValue();
}

struct ForwardedRead {
  LLVM::LoadOp load;
  SmallVector<Candidate> candidates; // the last one without a test
  std::optional<TailMerge> merge;
};

/// The plan for one barrier of one thread loop.
struct Plan {
  BarrierOp barrier;
  SmallVector<ForwardedRead> reads;
  /// All shared-memory reads after the barrier are replaced.
  bool removesBarrier = false;
  /// Pairs of root pointers that must point into different allocations.
  SmallVector<std::pair<Value, Value>> distinctRoots;
};

class BarrierForwarding {
public:
  BarrierForwarding(scf::ParallelOp loop, ArrayRef<int64_t> sizes,
                    const DataLayout &layout)
      : loop(loop), body(loop.getBody()), sizes(sizes), layout(layout),
        evaluator(loop, layout) {}

  /// The plan for `barrier`, whose phases are `before` and `after`.
  std::optional<Plan> analyze(BarrierOp barrier, Phase before, Phase after);

private:
  bool collectAccesses(Phase before, Phase after);
  bool enumerateWrites();
  using ReaderMap = std::map<std::vector<int64_t>, unsigned>;
  std::optional<ForwardedRead> planRead(LLVM::LoadOp load,
                                        const Phase &before);
  bool chooseBoxes(ForwardedRead &read, const ReaderMap &byReader,
                   ArrayRef<Candidate> all, ReaderMap &ordered);
  bool mergeTail(ForwardedRead &read, const ReaderMap &own,
                 const Phase &before);
  bool findForcedBranches(const Candidate &c, const ReaderMap &own,
                          unsigned index, TailMerge &merge,
                          SymbolicThreadEvaluator &symbolic);
  bool runsOnlySafeLoads(const SetVector<Operation *> &slice,
                         const TailMerge &merge,
                         const DenseMap<Operation *, unsigned> &decisions,
                         const llvm::StringSet<> &safeAddresses,
                         SymbolicThreadEvaluator &symbolic);
  bool inBlock(ArrayRef<int64_t> ids) const {
    for (unsigned d = 0; d < 3; ++d)
      if (ids[d] < 0 || ids[d] >= sizes[d])
        return false;
    return true;
  }

  template <typename Fn> void forEachThread(Fn &&fn) {
    SmallVector<int64_t, 3> ids(3, 0);
    for (ids[2] = 0; ids[2] < sizes[2]; ++ids[2])
      for (ids[1] = 0; ids[1] < sizes[1]; ++ids[1])
        for (ids[0] = 0; ids[0] < sizes[0]; ++ids[0])
          fn(ArrayRef<int64_t>(ids));
  }

  scf::ParallelOp loop;
  Block *body;
  ArrayRef<int64_t> sizes; // x, y, z
  const DataLayout &layout;
  ThreadEvaluator evaluator;

  /// The block's shared memory, as addresses evaluate to offsets from it.
  Value sharedRoot;
  bool isSharedRoot(Value root) {
    if (!root || !root.getDefiningOp() ||
        !isCallTo(root.getDefiningOp(), kSharedMemoryFunction))
      return false;
    if (!sharedRoot)
      sharedRoot = root;
    return root == sharedRoot;
  }
  SmallVector<LLVM::StoreOp> sharedStores;
  SmallVector<LLVM::LoadOp> sharedReads;
  SetVector<Value> loadRoots, storeRoots;
  DenseMap<Operation *, bool> sliceOk;

  struct Write {
    int64_t size;
    unsigned store;
    SmallVector<int64_t, 3> writer;
    bool conflicted = false;
  };
  std::map<int64_t, Write> writes;
};

/// Thread-loop dims in (x, y, z) order: the loop's induction variables are
/// (z, y, x).
unsigned ivIndex(scf::ParallelOp loop, unsigned dim) {
  return loop.getNumLoops() - 1 - dim;
}

bool BarrierForwarding::collectAccesses(Phase before, Phase after) {
  bool ok = true;
  auto classify = [&](Operation *op, bool isBefore) {
    if (!isPlainOp(op)) {
      ok = false;
      return;
    }
    if (isa<LLVM::CallOp, LLVM::CallIntrinsicOp>(op)) {
      if (!isPureCall(op))
        ok = false;
      return;
    }
    if (isBarrierLike(op) ||
        isa<LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp, LLVM::InlineAsmOp,
            LLVM::FenceOp, LLVM::MemcpyOp, LLVM::MemsetOp, LLVM::MemmoveOp>(
            op)) {
      ok = false;
      return;
    }
    if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
      if (load.getVolatile_() ||
          load.getOrdering() != LLVM::AtomicOrdering::not_atomic) {
        ok = false;
        return;
      }
      Value root = getRootPointer(load.getAddr());
      if (pointsIntoShared(load.getAddr())) {
        if (!isBefore)
          sharedReads.push_back(load);
      } else if (!isAllocaPointer(root)) {
        if (!isOutsideShared(root, loop))
          ok = false;
        else if (isBefore)
          loadRoots.insert(root);
      }
      return;
    }
    if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
      if (store.getVolatile_() ||
          store.getOrdering() != LLVM::AtomicOrdering::not_atomic) {
        ok = false;
        return;
      }
      Value root = getRootPointer(store.getAddr());
      if (pointsIntoShared(store.getAddr())) {
        if (isBefore)
          sharedStores.push_back(store);
        else
          ok = false;
      } else if (!isAllocaPointer(root)) {
        if (isBefore || !isOutsideShared(root, loop))
          ok = false;
        else
          storeRoots.insert(root);
      }
      return;
    }
    // Anything else that writes memory.
    if (auto effects = dyn_cast<MemoryEffectOpInterface>(op)) {
      if (effects.hasEffect<MemoryEffects::Write>())
        ok = false;
    } else if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
      ok = false;
    }
  };
  before.walk([&](Operation *op) { classify(op, true); });
  after.walk([&](Operation *op) { classify(op, false); });
  // Root pointers must be available in front of the thread loop, where the
  // run-time test goes.
  for (const SetVector<Value> *roots : {&loadRoots, &storeRoots})
    for (Value root : *roots)
      if (!isDefinedOutside(root, loop))
        ok = false;
  return ok && !sharedStores.empty() && !sharedReads.empty();
}

/// Collects in `ops` what computes `value` in `loop`'s phase `before` a
/// barrier, or fails if that cannot be recomputed after it.
bool collectSlice(scf::ParallelOp loop, Value value, const Phase &before,
                  SetVector<Operation *> &ops) {
  Block *body = loop.getBody();
  SmallVector<Value> worklist{value};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (isDefinedOutside(v, loop))
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == body)
        continue;   // a thread index, shifted to the writer's
      return false; // a loop's or region's argument
    }
    Operation *def = v.getDefiningOp();
    if (ops.contains(def))
      continue;
    if (!before.contains(def, body))
      return false;
    // Every op nested in `def` must be recomputable, and what it uses from
    // outside comes along.
    bool ok = true;
    def->walk([&](Operation *op) {
      if (!isPlainOp(op))
        ok = false;
      else if (isa<scf::IfOp, scf::IndexSwitchOp, scf::YieldOp>(op))
        ; // their regions are walked too
      else if (op->getNumRegions() != 0)
        ok = false;
      else if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
        Value root = getRootPointer(load.getAddr());
        if (pointsIntoShared(load.getAddr()) || isAllocaPointer(root) ||
            !isDefinedOutside(root, loop))
          ok = false;
      } else if (isa<LLVM::CallOp, LLVM::CallIntrinsicOp>(op)) {
        if (!isPureCall(op))
          ok = false;
      } else if (!isMemoryEffectFree(op)) {
        ok = false;
      }
      // What `def` uses from outside itself comes along.
      for (Value operand : op->getOperands())
        if (!def->isAncestor(operand.getParentRegion()->getParentOp()))
          worklist.push_back(operand);
    });
    if (!ok)
      return false;
    ops.insert(def);
    if (ops.size() > kMaxSliceOps)
      return false;
  }
  return true;
}

/// Records, for each shared address the stores write, the last store and
/// thread to write it.
bool BarrierForwarding::enumerateWrites() {
  if (static_cast<int64_t>(sharedStores.size()) * sizes[0] * sizes[1] *
          sizes[2] >
      kMaxEvaluations)
    return false;
  bool ok = true;
  forEachThread([&](ArrayRef<int64_t> ids) {
    if (!ok)
      return;
    evaluator.setThread(ids);
    for (auto [index, store] : llvm::enumerate(sharedStores)) {
      std::optional<bool> runs = evaluator.reaches(store);
      if (!runs) {
        ok = false;
        return;
      }
      if (!*runs)
        continue;
      std::optional<Concrete> address = evaluator.eval(store.getAddr());
      if (!address || !isSharedRoot(address->root)) {
        ok = false;
        return;
      }
      int64_t offset = address->bits.getSExtValue();
      int64_t size = static_cast<int64_t>(
          layout.getTypeSize(store.getValue().getType()).getFixedValue());
      Write write{size, static_cast<unsigned>(index),
                  SmallVector<int64_t, 3>(ids), false};
      // Overlaps with writes at other addresses make both unusable.
      auto next = writes.lower_bound(offset);
      auto overlaps = [&](std::map<int64_t, Write>::iterator it) {
        return it->first < offset + size &&
               offset < it->first + it->second.size;
      };
      bool conflicted = false;
      for (auto it = next; it != writes.end() && it->first < offset + size;
           ++it)
        if (it->first != offset && overlaps(it))
          it->second.conflicted = conflicted = true;
      if (next != writes.begin() && overlaps(std::prev(next)) &&
          std::prev(next)->first != offset)
        std::prev(next)->second.conflicted = conflicted = true;
      auto [it, inserted] = writes.try_emplace(offset, write);
      if (!inserted) {
        Write &old = it->second;
        // A later store of the same thread overwrites; another thread's
        // store to the same location races with it (CUDA leaves the
        // outcome open: leave such reads alone).
        if (old.writer != write.writer || old.size != size)
          old.conflicted = true;
        else
          old.store = index; // stores run in program order per thread
      }
      if (conflicted)
        it->second.conflicted = true;
    }
  });
  return ok;
}

std::optional<ForwardedRead>
BarrierForwarding::planRead(LLVM::LoadOp load, const Phase &before) {
  // Candidates by (store, offset), and which candidate each reader needs.
  SmallVector<Candidate> candidates;
  std::map<std::vector<int64_t>, unsigned> byReader;
  int64_t size =
      static_cast<int64_t>(layout.getTypeSize(load.getType()).getFixedValue());
  bool ok = true;
  forEachThread([&](ArrayRef<int64_t> ids) {
    if (!ok)
      return;
    evaluator.setThread(ids);
    // A thread that may reach the read (its branch depends on more than
    // the thread index) must get the right value too.
    if (!evaluator.reaches(load).value_or(true))
      return;
    std::optional<Concrete> address = evaluator.eval(load.getAddr());
    if (!address || !isSharedRoot(address->root)) {
      ok = false;
      return;
    }
    auto it = writes.find(address->bits.getSExtValue());
    if (it == writes.end() || it->second.conflicted ||
        it->second.size != size) {
      ok = false;
      return;
    }
    LLVM::StoreOp store = sharedStores[it->second.store];
    if (store.getValue().getType() != load.getType()) {
      ok = false;
      return;
    }
    SmallVector<int64_t, 3> offset;
    for (unsigned d = 0; d < 3; ++d)
      offset.push_back(it->second.writer[d] - ids[d]);
    auto found = llvm::find_if(candidates, [&](const Candidate &c) {
      return c.store == store && c.offset == offset;
    });
    if (found == candidates.end()) {
      if (candidates.size() == kMaxCandidates) {
        ok = false;
        return;
      }
      Candidate c;
      c.store = store;
      c.offset = offset;
      c.lo.assign(ids.begin(), ids.end());
      c.hi.assign(ids.begin(), ids.end());
      candidates.push_back(c);
      found = std::prev(candidates.end());
    }
    for (unsigned d = 0; d < 3; ++d) {
      found->lo[d] = std::min(found->lo[d], ids[d]);
      found->hi[d] = std::max(found->hi[d], ids[d]);
    }
    ++found->readers;
    byReader[std::vector<int64_t>(ids.begin(), ids.end())] =
        found - candidates.begin();
  });
  if (!ok || candidates.empty())
    return std::nullopt;
  ForwardedRead read{load, {}, std::nullopt};
  ReaderMap ordered;
  if (!chooseBoxes(read, byReader, candidates, ordered))
    return std::nullopt;
  (void)mergeTail(read, ordered, before);
  // The box tests left: in narrow blocks, none that splits rows along x.
  ArrayRef<Candidate> tested = read.candidates;
  tested = tested.drop_back(read.merge ? 2 : 1);
  if (sizes[0] < kMinSplitWidthX &&
      llvm::any_of(tested, [&](const Candidate &c) {
        return c.lo[0] > 0 || c.hi[0] < sizes[0] - 1;
      }))
    return std::nullopt;
  return read;
}

/// Orders the candidates so that testing each one's box in turn (the last
/// one untested) picks every reader's own: the largest group goes last.
/// Fails if some reader would get another's.
bool BarrierForwarding::chooseBoxes(ForwardedRead &read,
                                    const ReaderMap &byReader,
                                    ArrayRef<Candidate> all,
                                    ReaderMap &ordered) {
  SmallVector<unsigned> order(all.size());
  for (unsigned i = 0; i < all.size(); ++i)
    order[i] = i;
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return std::make_pair(all[a].readers, a) <
           std::make_pair(all[b].readers, b);
  });
  auto inBox = [](const Candidate &c, const std::vector<int64_t> &ids) {
    for (unsigned d = 0; d < 3; ++d)
      if (ids[d] < c.lo[d] || ids[d] > c.hi[d])
        return false;
    return true;
  };
  for (const auto &[ids, own] : byReader) {
    unsigned picked = order.back();
    for (unsigned i = 0; i + 1 < order.size(); ++i)
      if (inBox(all[order[i]], ids)) {
        picked = order[i];
        break;
      }
    if (picked != own)
      return false;
  }
  SmallVector<unsigned> position(all.size());
  for (auto [pos, i] : llvm::enumerate(order)) {
    position[i] = pos;
    read.candidates.push_back(all[i]);
  }
  for (const auto &[ids, own] : byReader)
    ordered[ids] = position[own];
  return true;
}

/// `ids + offset`.
SmallVector<int64_t, 3> shiftThread(ArrayRef<int64_t> ids,
                                    ArrayRef<int64_t> offset) {
  SmallVector<int64_t, 3> result;
  for (unsigned d = 0; d < 3; ++d)
    result.push_back(ids[d] + offset[d]);
  return result;
}

/// True for ops that may trap or be undefined where the original program
/// did not run them: divisions and remainders.
bool mayTrap(Operation *op) {
  return isa<LLVM::SDivOp, LLVM::UDivOp, LLVM::SRemOp, LLVM::URemOp,
             arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
             arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op);
}

/// Records in `merge.forced` the branches of candidate `c`'s computation
/// that all of its writers (readers with `own` == `index`, shifted) take
/// the same way, and checks that following them gives each writer the
/// value it computed.
bool BarrierForwarding::findForcedBranches(const Candidate &c,
                                           const ReaderMap &own,
                                           unsigned index, TailMerge &merge,
                                           SymbolicThreadEvaluator &symbolic) {
  auto reaches = [&](Operation *op) { return evaluator.reaches(op); };
  Value value = storedValue(c);
  DenseMap<Operation *, unsigned> &forced = merge.forced;
  std::map<std::vector<int64_t>, std::string> keys;
  for (const auto &[reader, owner] : own) {
    if (owner != index)
      continue;
    SmallVector<int64_t, 3> writer = shiftThread(reader, c.offset);
    evaluator.setThread(writer);
    symbolic.setThread(writer, nullptr, reaches);
    int v = symbolic.eval(value);
    if (v < 0)
      return false;
    keys[reader] = symbolic.get(v).key;
    symbolic.reset();
    for (auto [op, region] : symbolic.getDecisions()) {
      auto [it, inserted] = forced.try_emplace(op, region);
      if (!inserted && it->second != region)
        return false;
    }
  }
  // The recomputation inlines forced branches only where it reaches them:
  // none may sit inside a branch it copies whole.
  for (auto [op, region] : forced)
    for (Operation *parent = op->getParentOp();
         parent && parent != loop.getOperation();
         parent = parent->getParentOp())
      if (parent->getNumRegions() != 0 && !forced.contains(parent))
        return false;
  // A writer that left a forced branch undecided must compute the same.
  for (const auto &[reader, key] : keys) {
    SmallVector<int64_t, 3> writer = shiftThread(reader, c.offset);
    evaluator.setThread(writer);
    symbolic.setThread(writer, &forced, reaches);
    int v = symbolic.eval(value);
    if (v < 0 || symbolic.get(v).key != key)
      return false;
  }
  return true;
}

/// True if each load of `slice` that the recomputation along `merge`'s
/// branches runs for the current thread (the symbolic and concrete
/// evaluators' thread) is one the original program runs for that thread
/// or loads one of `safeAddresses`.
bool BarrierForwarding::runsOnlySafeLoads(
    const SetVector<Operation *> &slice, const TailMerge &merge,
    const DenseMap<Operation *, unsigned> &decisions,
    const llvm::StringSet<> &safeAddresses,
    SymbolicThreadEvaluator &symbolic) {
  auto runs = [&](Operation *op) {
    for (Operation *child = op, *parent = op->getParentOp();
         parent && parent != loop.getOperation();
         child = parent, parent = parent->getParentOp()) {
      if (!isa<scf::IfOp, scf::IndexSwitchOp>(parent))
        continue;
      unsigned region =
          getBranchRegionIndex(parent, child->getParentRegion());
      if (parent == scf::IfOp(merge.exceptionBranch).getOperation() &&
          region != merge.normalRegion)
        return false;
      auto forced = merge.forced.find(parent);
      if (forced != merge.forced.end() && forced->second != region)
        return false;
      auto decided = decisions.find(parent);
      if (decided != decisions.end() && decided->second != region)
        return false;
    }
    return true;
  };
  for (Operation *top : slice) {
    WalkResult result = top->walk([&](LLVM::LoadOp load) {
      if (!runs(load) || evaluator.reaches(load).value_or(false))
        return WalkResult::advance();
      int address = symbolic.eval(load.getAddr());
      if (address < 0 || !safeAddresses.contains(symbolic.get(address).key))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return false;
  }
  return true;
}

/// Tries to give the readers of the last two candidates of `read` one
/// recomputation (see TailMerge): `t[ty + 1][tx]` after the halo column
/// `if (tx == 0) t[ty + 1][0] = col > 0 ? in[k - 1] : in[k]` is
/// `col > 0 ? in[k - 1] : in[k]` for every thread, since `col > 0` for the
/// threads with `tx > 0`, whose left neighbour stored `in[k - 1]`. The box
/// tests would split the rows of a narrow block into short loops and make
/// the halo's loads gathers; the merged read is a load per thread.
///
/// Proven per reader of P by evaluating both computations symbolically
/// (SymbolicThreadEvaluator): C's along its writers' branches, for the
/// reader shifted by C's offset (which must be a thread of the block), and
/// P's for P's writer. Equal, or C's is a branch whose one region is equal
/// (then that branch is the exception test). C's recomputation may only
/// run loads the original program runs for that thread or loads of
/// addresses P's writer loads, and nothing that traps.
bool BarrierForwarding::mergeTail(ForwardedRead &read, const ReaderMap &own,
                                  const Phase &before) {
  unsigned n = read.candidates.size();
  if (n < 2)
    return false;
  const Candidate &c = read.candidates[n - 2], &p = read.candidates[n - 1];
  SetVector<Operation *> cSlice, pSlice;
  if (!collectSlice(loop, storedValue(c), before, cSlice) ||
      !collectSlice(loop, storedValue(p), before, pSlice))
    return false;
  for (Operation *top : cSlice)
    if (top->walk([](Operation *op) {
             return mayTrap(op) ? WalkResult::interrupt()
                                : WalkResult::advance();
           })
            .wasInterrupted())
      return false;

  SymbolicThreadEvaluator symbolic(loop, layout);
  auto reaches = [&](Operation *op) { return evaluator.reaches(op); };
  TailMerge merge;
  if (!findForcedBranches(c, own, n - 2, merge, symbolic))
    return false;

  // Per reader of P: P's writer's value and loads, and C's computation for
  // the reader shifted by C's offset.
  struct ReaderCheck {
    SmallVector<int64_t, 3> cWriter;
    llvm::StringSet<> pLoads;
  };
  SmallVector<ReaderCheck> checks;
  for (const auto &[reader, owner] : own) {
    if (owner != n - 1)
      continue;
    symbolic.reset();
    ReaderCheck check;
    check.cWriter = shiftThread(reader, c.offset);
    if (!inBlock(check.cWriter))
      return false;
    SmallVector<int64_t, 3> pWriter = shiftThread(reader, p.offset);
    evaluator.setThread(pWriter);
    symbolic.setThread(pWriter, nullptr, reaches);
    int pValue = symbolic.eval(storedValue(p));
    if (pValue < 0)
      return false;
    for (Operation *top : pSlice)
      top->walk([&](LLVM::LoadOp load) {
        if (!evaluator.reaches(load).value_or(false))
          return;
        int address = symbolic.eval(load.getAddr());
        if (address >= 0)
          check.pLoads.insert(symbolic.get(address).key);
      });
    evaluator.setThread(check.cWriter);
    symbolic.setThread(check.cWriter, &merge.forced, reaches);
    int cValue = symbolic.eval(storedValue(c));
    if (cValue < 0)
      return false;
    if (!symbolic.equal(cValue, pValue)) {
      const SymbolicValue &choice = symbolic.get(cValue);
      auto ifOp = dyn_cast_or_null<scf::IfOp>(choice.choice);
      if (!ifOp)
        return false;
      unsigned normal;
      if (symbolic.equal(choice.thenValue, pValue))
        normal = 0;
      else if (symbolic.equal(choice.elseValue, pValue))
        normal = 1;
      else
        return false;
      if (merge.exceptionBranch && (merge.exceptionBranch != ifOp ||
                                    merge.normalRegion != normal))
        return false;
      merge.exceptionBranch = ifOp;
      merge.normalRegion = normal;
    }
    checks.push_back(std::move(check));
  }
  if (checks.empty())
    return false;

  for (ReaderCheck &check : checks) {
    symbolic.reset();
    evaluator.setThread(check.cWriter);
    symbolic.setThread(check.cWriter, &merge.forced, reaches);
    if (symbolic.eval(storedValue(c)) < 0)
      return false;
    DenseMap<Operation *, unsigned> decisions(symbolic.getDecisions());
    // The exception branch runs its normal region for every reader of P:
    // one whose condition picks the other region was compared on that one.
    if (merge.exceptionBranch) {
      auto decided = decisions.find(merge.exceptionBranch.getOperation());
      if (decided != decisions.end() &&
          decided->second != merge.normalRegion)
        return false;
    }
    if (!runsOnlySafeLoads(cSlice, merge, decisions, check.pLoads, symbolic))
      return false;
  }
  read.merge = std::move(merge);
  return true;
}

std::optional<Plan> BarrierForwarding::analyze(BarrierOp barrier, Phase before,
                                               Phase after) {
  if (!collectAccesses(before, after) || !enumerateWrites())
    return std::nullopt;
  Plan plan;
  plan.barrier = barrier;
  for (LLVM::LoadOp load : sharedReads) {
    std::optional<ForwardedRead> read = planRead(load, before);
    if (!read)
      continue;
    bool recomputable = llvm::all_of(read->candidates, [&](Candidate &c) {
      auto [it, inserted] = sliceOk.try_emplace(c.store, false);
      if (inserted) {
        SetVector<Operation *> ops;
        it->second = collectSlice(loop, storedValue(c), before, ops);
      }
      return it->second;
    });
    if (recomputable)
      plan.reads.push_back(std::move(*read));
  }
  // Reads replaced while the barrier stays would trade shared-memory loads
  // for recomputation and keep the tile: only whole barriers go.
  if (plan.reads.size() != sharedReads.size())
    return std::nullopt;
  plan.removesBarrier = true;
  for (Value load : loadRoots)
    for (Value store : storeRoots) {
      if (load == store)
        return std::nullopt;
      auto a = load.getDefiningOp<LLVM::AddressOfOp>();
      auto b = store.getDefiningOp<LLVM::AddressOfOp>();
      if (a && b && a.getGlobalName() != b.getGlobalName())
        continue;
      // A by-value kernel parameter is a copy that device code cannot
      // reach through other pointers.
      if (Operation *def = load.getDefiningOp();
          def && def->hasAttr(kByValParamAttr))
        continue;
      plan.distinctRoots.push_back({load, store});
    }
  return plan;
}

/// `v + offset` for an index value.
Value buildShifted(OpBuilder &b, Location loc, Value v, int64_t offset) {
  if (offset == 0)
    return v;
  Value c = arith::ConstantIndexOp::create(b, loc, offset);
  return arith::AddIOp::create(b, loc, v, c);
}

/// Drops the flags that made `op` (and the ops in it) poison where they
/// did not hold: it now runs for threads the original did not run it for.
void dropFlagsOfMovedOps(Operation *op) {
  op->walk([](Operation *inner) {
    dropPoisonGeneratingFlags(inner);
    if (auto gep = dyn_cast<LLVM::GEPOp>(inner))
      gep.setNoWrapFlags(LLVM::GEPNoWrapFlags::none);
  });
}

/// Clones `op` at `b`; a branch in `forced` becomes the ops of the region
/// it takes there (its results what that region yields), recursively.
/// Ops cloned out of such a region lose their poison flags.
void cloneAlong(OpBuilder &b, Operation *op, IRMapping &mapping,
                const TailMerge *merge, bool fromForcedRegion,
                function_ref<void(scf::IfOp)> onExceptionBranch) {
  auto it = merge ? merge->forced.find(op)
                  : DenseMap<Operation *, unsigned>::const_iterator();
  if (!merge || it == merge->forced.end()) {
    Operation *copy = b.clone(*op, mapping);
    if (fromForcedRegion)
      dropFlagsOfMovedOps(copy);
    if (merge && merge->exceptionBranch &&
        op == scf::IfOp(merge->exceptionBranch).getOperation())
      onExceptionBranch(cast<scf::IfOp>(copy));
    else if (merge && merge->exceptionBranch)
      copy->walk([&](scf::IfOp inner) {
        if (mapping.lookupOrNull(scf::IfOp(merge->exceptionBranch)
                                     .getResult(0)) == inner.getResult(0))
          onExceptionBranch(inner);
      });
    return;
  }
  Block &block = getBranchRegion(op, it->second).front();
  for (Operation &inner : block.without_terminator())
    cloneAlong(b, &inner, mapping, merge, /*fromForcedRegion=*/true,
               onExceptionBranch);
  for (auto [result, yielded] :
       llvm::zip(op->getResults(), block.getTerminator()->getOperands()))
    mapping.map(result, mapping.lookupOrDefault(yielded));
}

/// `value` as the thread `offset` away computed it in phase `before`,
/// computed by the reader at `b`'s point, along `merge`'s forced branches
/// (if any; `onExceptionBranch` gets the copy of its exception branch).
Value buildRecomputation(OpBuilder &b, scf::ParallelOp loop,
                         ArrayRef<int64_t> offset, Value value, Phase before,
                         const TailMerge *merge = nullptr,
                         function_ref<void(scf::IfOp)> onExceptionBranch = {}) {
  Location loc = value.getLoc();
  IRMapping mapping;
  for (unsigned d = 0; d < loop.getNumLoops(); ++d) {
    Value iv = loop.getInductionVars()[ivIndex(loop, d)];
    mapping.map(iv, buildShifted(b, loc, iv, offset[d]));
  }
  SetVector<Operation *> ops;
  (void)collectSlice(loop, value, before, ops);
  // Program order: a walk visits defs before uses.
  SmallVector<Operation *> ordered;
  loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (ops.contains(op)) {
      ordered.push_back(op);
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  for (Operation *op : ordered)
    cloneAlong(b, op, mapping, merge,
               /*fromForcedRegion=*/op->getBlock() != loop.getBody(),
               onExceptionBranch);
  return mapping.lookupOrDefault(value);
}

/// The writer's value of candidate `c`'s store.
Value buildRecomputation(OpBuilder &b, scf::ParallelOp loop,
                         const Candidate &c, Phase before) {
  return buildRecomputation(b, loop, c.offset, storedValue(c), before);
}

/// `lo <= iv <= hi` for the box's bounds that are not the loop's own.
Value buildBoxTest(OpBuilder &b, Location loc, scf::ParallelOp loop,
                   ArrayRef<int64_t> sizes, const Candidate &c) {
  Value test;
  auto conjoin = [&](Value cmp) {
    test = test ? arith::AndIOp::create(b, loc, test, cmp).getResult() : cmp;
  };
  for (unsigned d = 0; d < loop.getNumLoops(); ++d) {
    Value iv = loop.getInductionVars()[ivIndex(loop, d)];
    if (c.lo[d] > 0)
      conjoin(arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::uge, iv,
          arith::ConstantIndexOp::create(b, loc, c.lo[d])));
    if (c.hi[d] < sizes[d] - 1)
      conjoin(arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ule, iv,
          arith::ConstantIndexOp::create(b, loc, c.hi[d])));
  }
  return test ? test : arith::ConstantIntOp::create(b, loc, 1, 1).getResult();
}

/// The merged last two candidates (see TailMerge): C's recomputation along
/// its writers' branches, for all of their readers. Its exception branch
/// takes the region giving P's value also where its condition says
/// otherwise outside C's box (where the readers are P's, and that region
/// computes what P's writer stored).
Value buildMergedTail(OpBuilder &b, scf::ParallelOp loop,
                      ArrayRef<int64_t> sizes, const Candidate &c,
                      const TailMerge &merge, Phase before) {
  Location loc = LLVM::StoreOp(c.store).getLoc();
  Value inBox;
  if (merge.exceptionBranch)
    inBox = buildBoxTest(b, loc, loop, sizes, c);
  auto redirect = [&](scf::IfOp copy) {
    // Its normal region now runs for threads whose condition picked the
    // other: the flags that held where it ran may not hold there.
    dropFlagsOfMovedOps(copy);
    OpBuilder ifBuilder(copy);
    Value cond = copy.getCondition();
    // Normal region then: cond || !inBox; else: cond && inBox.
    if (merge.normalRegion == 0) {
      Value one = arith::ConstantIntOp::create(ifBuilder, loc, 1, 1);
      Value outside = arith::XOrIOp::create(ifBuilder, loc, inBox, one);
      cond = arith::OrIOp::create(ifBuilder, loc, cond, outside);
    } else {
      cond = arith::AndIOp::create(ifBuilder, loc, cond, inBox);
    }
    copy.getConditionMutable().assign(cond);
  };
  return buildRecomputation(b, loop, c.offset, storedValue(c), before, &merge,
                            redirect);
}

/// The chain of box tests for `read`'s candidates from the first of
/// `candidates` on.
Value buildChain(OpBuilder &b, scf::ParallelOp loop, ArrayRef<int64_t> sizes,
                 const ForwardedRead &read, ArrayRef<Candidate> candidates,
                 Type type, Phase before) {
  const Candidate &c = candidates.front();
  if (candidates.size() == 2 && read.merge)
    return buildMergedTail(b, loop, sizes, c, *read.merge, before);
  if (candidates.size() == 1)
    return buildRecomputation(b, loop, c, before);
  Location loc = LLVM::StoreOp(c.store).getLoc();
  Value test = buildBoxTest(b, loc, loop, sizes, c);
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{type}, test,
                                /*withElseRegion=*/true);
  OpBuilder thenBuilder = ifOp.getThenBodyBuilder();
  scf::YieldOp::create(thenBuilder, loc,
                       buildRecomputation(thenBuilder, loop, c, before));
  OpBuilder elseBuilder = ifOp.getElseBodyBuilder();
  scf::YieldOp::create(elseBuilder, loc,
                       buildChain(elseBuilder, loop, sizes, read,
                                  candidates.drop_front(), type, before));
  return ifOp.getResult(0);
}

/// The phases of `loop`'s body around each top-level barrier.
SmallVector<std::tuple<BarrierOp, Phase, Phase>>
collectPhases(scf::ParallelOp loop) {
  Block *body = loop.getBody();
  SmallVector<Block::iterator> cuts{body->begin()};
  for (Operation &op : *body)
    if (isa<BarrierOp>(op))
      cuts.push_back(Block::iterator(&op));
  cuts.push_back(Block::iterator(body->getTerminator()));
  SmallVector<std::tuple<BarrierOp, Phase, Phase>> phases;
  for (unsigned i = 1; i + 1 < cuts.size(); ++i) {
    Block::iterator beforeBegin = i == 1 ? cuts[0] : std::next(cuts[i - 1]);
    phases.push_back({cast<BarrierOp>(*cuts[i]), Phase{beforeBegin, cuts[i]},
                      Phase{std::next(cuts[i]), cuts[i + 1]}});
  }
  return phases;
}

/// The constant thread counts along x, y, z of a normalized thread loop.
std::optional<SmallVector<int64_t, 3>> getConstantSizes(scf::ParallelOp loop) {
  SmallVector<int64_t, 3> sizes(3, 1);
  int64_t total = 1;
  for (unsigned d = 0; d < loop.getNumLoops() && d < 3; ++d) {
    unsigned i = ivIndex(loop, d);
    std::optional<int64_t> lower =
        getConstantThroughCasts(loop.getLowerBound()[i]);
    std::optional<int64_t> upper =
        getConstantThroughCasts(loop.getUpperBound()[i]);
    std::optional<int64_t> step = getConstantThroughCasts(loop.getStep()[i]);
    if (!lower || !upper || !step || *lower != 0 || *step != 1 || *upper < 1)
      return std::nullopt;
    sizes[d] = *upper;
    total *= *upper;
  }
  if (loop.getNumLoops() > 3 || total > kMaxThreads)
    return std::nullopt;
  return sizes;
}

/// The test that every pair of roots points into different allocations,
/// in front of `anchor`.
Value buildDistinctTest(OpBuilder &b, Location loc, ModuleOp module,
                        ArrayRef<std::pair<Value, Value>> pairs) {
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto i32 = b.getI32Type();
  auto callee =
      module.lookupSymbol<LLVM::LLVMFuncOp>(kDistinctAllocationsFunction);
  if (!callee) {
    OpBuilder moduleBuilder = OpBuilder::atBlockBegin(module.getBody());
    callee = LLVM::LLVMFuncOp::create(
        moduleBuilder, module.getLoc(), kDistinctAllocationsFunction,
        LLVM::LLVMFunctionType::get(i32, {ptr, ptr}));
  }
  Value all;
  for (auto [a, c] : pairs) {
    Value result =
        LLVM::CallOp::create(b, loc, callee, ValueRange{a, c}).getResult();
    Value zero = LLVM::ConstantOp::create(b, loc, i32, 0);
    Value distinct =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, result, zero);
    all =
        all ? LLVM::AndOp::create(b, loc, all, distinct).getResult() : distinct;
  }
  return all;
}

/// Where the run-time test goes: in front of the grid loop when the roots
/// are available there (once per launch), else in front of the thread loop.
Operation *getTestAnchor(scf::ParallelOp loop,
                         ArrayRef<std::pair<Value, Value>> pairs) {
  Operation *grid = loop->getParentOp();
  while (grid && !isGridLoop(grid))
    grid = grid->getParentOp();
  if (!grid)
    return loop;
  for (auto [a, c] : pairs)
    if (!isDefinedOutside(a, grid) || !isDefinedOutside(c, grid))
      return loop;
  return grid;
}

/// Rewrites the reads of `plan` in `loop`, whose barrier it is.
void applyPlan(scf::ParallelOp loop, ArrayRef<int64_t> sizes,
               const Plan &plan) {
  Phase before;
  for (auto [barrier, phaseBefore, phaseAfter] : collectPhases(loop))
    if (barrier == plan.barrier)
      before = phaseBefore;
  for (const ForwardedRead &read : plan.reads) {
    LLVM::LoadOp load = read.load;
    OpBuilder b(load);
    Value value =
        buildChain(b, loop, sizes, read, read.candidates, load.getType(),
                   before);
    load.replaceAllUsesWith(value);
    load.erase();
  }
  if (plan.removesBarrier)
    BarrierOp(plan.barrier).erase();
  // The recomputations repeat the address arithmetic of the thread body
  // and of each other.
  IRRewriter rewriter(loop.getContext());
  DominanceInfo dominance(loop);
  eliminateCommonSubExpressions(rewriter, dominance, loop);
}

/// `plan` for the copy of its loop that `mapping` made.
void mapPlan(Plan &plan, const IRMapping &mapping) {
  plan.barrier = cast<BarrierOp>(mapping.lookup(plan.barrier.getOperation()));
  for (ForwardedRead &read : plan.reads) {
    read.load = cast<LLVM::LoadOp>(mapping.lookup(read.load.getOperation()));
    for (Candidate &c : read.candidates)
      c.store = cast<LLVM::StoreOp>(mapping.lookup(c.store.getOperation()));
    if (!read.merge)
      continue;
    DenseMap<Operation *, unsigned> forced;
    for (auto [op, region] : read.merge->forced)
      forced[mapping.lookup(op)] = region;
    read.merge->forced = std::move(forced);
    if (read.merge->exceptionBranch)
      read.merge->exceptionBranch = cast<scf::IfOp>(
          mapping.lookup(read.merge->exceptionBranch.getOperation()));
  }
}

/// Erases the shared-memory stores of `loop` when nothing in the launch
/// body reads shared memory any more (the tile is dead), and what computed
/// only them.
void eraseDeadSharedStores(scf::ParallelOp loop, Operation *scope,
                           Operation *ignored) {
  bool read = false;
  scope->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == ignored)
      return WalkResult::skip();
    // A load through a pointer chosen inside the block may read the tile.
    if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
      Value root = getRootPointer(load.getAddr());
      if (pointsIntoShared(load.getAddr()) ||
          (!isAllocaPointer(root) && !isOutsideShared(root, loop)))
        read = true;
    }
    // Calls and atomics may read through a shared address they are given;
    // a shared address stored or turned into an integer escapes.
    auto isShared = [](Value v) {
      return isa<LLVM::LLVMPointerType>(v.getType()) && pointsIntoShared(v);
    };
    if (isa<LLVM::CallOp, LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp,
            LLVM::InlineAsmOp, LLVM::MemcpyOp, LLVM::MemmoveOp, LLVM::MemsetOp,
            LLVM::PtrToIntOp>(op) &&
        llvm::any_of(op->getOperands(), isShared))
      read = true;
    if (auto store = dyn_cast<LLVM::StoreOp>(op);
        store && isShared(store.getValue()))
      read = true;
    return WalkResult::advance();
  });
  if (read)
    return;
  SmallVector<LLVM::StoreOp> stores;
  loop.walk([&](LLVM::StoreOp store) {
    if (pointsIntoShared(store.getAddr()))
      stores.push_back(store);
  });
  for (LLVM::StoreOp store : stores)
    store.erase();
  IRRewriter rewriter(loop.getContext());
  (void)runRegionDCE(rewriter, loop->getRegions());
}

struct ForwardSharedStoresPass
    : public respec::impl::ForwardSharedStoresPassBase<
          ForwardSharedStoresPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    DataLayout layout(module);
    for (scf::ParallelOp loop : collectThreadLoops(module))
      forwardInLoop(module, loop, layout);
  }

  /// Forwards the reads after the first barrier of `loop` that allows it.
  void forwardInLoop(ModuleOp module, scf::ParallelOp loop,
                     const DataLayout &layout) {
    if (loop.getNumResults() != 0)
      return;
    std::optional<SmallVector<int64_t, 3>> sizes = getConstantSizes(loop);
    if (!sizes)
      return;
    for (auto [barrier, before, after] : collectPhases(loop)) {
      BarrierForwarding analysis(loop, *sizes, layout);
      std::optional<Plan> plan = analysis.analyze(barrier, before, after);
      if (!plan)
        continue;
      scf::ParallelOp target = loop;
      Operation *original = nullptr;
      if (!plan->distinctRoots.empty()) {
        IRMapping mapping;
        std::tie(target, original) = versionLoop(module, loop, *plan, mapping);
        mapPlan(*plan, mapping);
      }
      applyPlan(target, *sizes, *plan);
      Operation *scope = target->getParentOp();
      while (scope && !isGridLoop(scope))
        scope = scope->getParentOp();
      eraseDeadSharedStores(target, scope ? scope : target.getOperation(),
                            original);
      return;
    }
  }

  /// `if (distinct) { copy } else { original }` around the grid loop when
  /// the test can go in front of it, else around `loop`; returns the copy
  /// of `loop`, which `mapping` maps `loop`'s ops to, and the original that
  /// stays inside the grid loop (null if the grid loop was copied).
  std::pair<scf::ParallelOp, Operation *> versionLoop(ModuleOp module,
                                                      scf::ParallelOp loop,
                                                      const Plan &plan,
                                                      IRMapping &mapping) {
    Operation *anchor = getTestAnchor(loop, plan.distinctRoots);
    OpBuilder b(anchor);
    Value distinct =
        buildDistinctTest(b, loop.getLoc(), module, plan.distinctRoots);
    auto ifOp = scf::IfOp::create(b, loop.getLoc(), TypeRange{}, distinct,
                                  /*withElseRegion=*/true);
    OpBuilder thenBuilder = ifOp.getThenBodyBuilder();
    thenBuilder.clone(*anchor, mapping);
    anchor->moveBefore(ifOp.elseBlock()->getTerminator());
    auto copy = cast<scf::ParallelOp>(mapping.lookup(loop.getOperation()));
    return {copy, anchor == loop.getOperation() ? anchor : nullptr};
  }
};

} // namespace
