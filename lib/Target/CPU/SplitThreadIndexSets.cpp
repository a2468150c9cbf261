//===- SplitThreadIndexSets.cpp - Branch-free thread loops by index sets --===//
//
// CUDA code picks threads by their index: `if (tx == 0)` loads a tile's
// halo, `if (tid < stride)` does one step of a tree reduction, `if (i < n)`
// guards the end of an array. On the CPU the threads of a block run as a
// loop, and such a branch inside it keeps LLVM from vectorizing the loop
// (a store under a condition, a switch) or costs a test per thread.
//
// When the condition compares a thread index (plus values the same for all
// threads) with a bound the same for all threads, the set of threads taking
// each branch is a range. This pass splits the thread loop at the range's
// ends into several thread loops, each over one range, in which the
// condition is a constant and the branch is gone: `if (tx == 0)` in a loop
// over 16 threads becomes a loop over thread 0 with the branch taken and a
// loop over threads 1..15 without it. The condition of a select splits the
// same way: clang turns `col < n - 1 ? C[k + 1] : C[k]` into a select of
// the offset, which LLVM's vectorizer would make a gather.
//
// Running the threads of a block in a different order is always correct:
// between two barriers (and barrier lowering has removed them all by now)
// CUDA does not order the threads of a block, and each thread still runs
// its own operations in order. The split points are computed once per
// block, in 128-bit arithmetic (no overflow for 64-bit operands), frozen
// (a poison bound of a branch never reached must not make the loops'
// bounds poison) and clamped to the loop's range. Loops with barriers or
// warp operations left are not touched.
//
//===----------------------------------------------------------------------===//

#include "respec/Dialect/RespecDialect.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::respec {
#define GEN_PASS_DEF_SPLITTHREADINDEXSETSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// Thread loops with more operations than this are left alone: each split
/// copies the body.
constexpr unsigned kMaxBodyOps = 2000;

/// Ops the parts of one thread loop may add beyond its own size (at least
/// this many, at most twice the loop's size otherwise).
constexpr unsigned kMinOpsBudget = 600;

/// Width of the arithmetic computing split points: wide enough that sums
/// and differences of a few 64-bit values, signed or unsigned, are exact.
constexpr unsigned kWideBits = 128;

/// How an integer compared with a bound is read.
enum class Signedness { Signed, Unsigned };

/// A value the same for all threads of the loop, added to or subtracted from
/// a thread index.
struct Term {
  Value value;
  bool negated;
};

/// `iv(dim) + sum(terms)`, or `-iv(dim) + sum(terms)` when `negatedIndex`
/// (`BLOCK - 1 - tx`), exact (no wrap-around) when every integer is read
/// with the signedness it was matched for.
struct ThreadOffset {
  unsigned dim;
  SmallVector<Term> terms;
  bool negatedIndex = false;
};

/// A comparison equivalent, for every thread, to `iv(dim) < D` (`Less`) or
/// `iv(dim) == D` (`Equal`), possibly negated, with `D = bound - sum(terms)
/// + adjust`.
struct SplitPredicate {
  enum Kind { Less, Equal };
  Operation *cmp;
  Kind kind;
  bool negated;
  int64_t adjust;
  Signedness signedness;
  unsigned dim;
  SmallVector<Term> terms; // the bound first
};

/// Operations cheap and safe to compute once before the thread loop, even if
/// the thread body would not have reached them: no memory, no division.
bool isHoistableOp(Operation *op) {
  return isa<arith::ConstantOp, LLVM::ConstantOp, arith::AddIOp, arith::SubIOp,
             arith::MulIOp, arith::ShLIOp, arith::AndIOp, arith::OrIOp,
             arith::XOrIOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
             arith::IndexCastOp, arith::IndexCastUIOp, arith::MaxSIOp,
             arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp, LLVM::AddOp,
             LLVM::SubOp, LLVM::MulOp, LLVM::ShlOp, LLVM::AndOp, LLVM::OrOp,
             LLVM::XOrOp, LLVM::SExtOp, LLVM::ZExtOp, LLVM::TruncOp>(op);
}

/// True if the integer addition or subtraction `op` cannot wrap when its
/// operands are read with `signedness`.
bool hasNoWrap(Operation *op, Signedness signedness) {
  return hasNoWrapFlag(op, signedness == Signedness::Signed);
}

/// Recognizes thread indices and loop-invariant values inside one thread
/// loop.
class ThreadIndexMatcher {
public:
  explicit ThreadIndexMatcher(scf::ParallelOp loop) : loop(loop) {}

  /// True if `value` is defined before the loop or computed inside it by
  /// hoistable operations from such values.
  bool isInvariant(Value value, unsigned depth = 0) const {
    if (loop.isDefinedOutsideOfLoop(value))
      return true;
    Operation *def = value.getDefiningOp();
    if (!def || depth > 8 || !isHoistableOp(def))
      return false;
    return llvm::all_of(def->getOperands(), [&](Value operand) {
      return isInvariant(operand, depth + 1);
    });
  }

  /// Matches `value` as a thread index plus invariant terms.
  std::optional<ThreadOffset> match(Value value, Signedness signedness,
                                    unsigned depth = 0) const {
    if (depth > 8)
      return std::nullopt;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() != loop.getBody())
        return std::nullopt;
      return ThreadOffset{arg.getArgNumber(), {}};
    }
    Operation *def = value.getDefiningOp();
    if (!def || !loop->isAncestor(def))
      return std::nullopt;
    if (std::optional<CastKind> kind = classifyCast(def))
      return matchCast(def, *kind, signedness, depth);
    bool isAdd = isa<LLVM::AddOp, arith::AddIOp>(def) || isDisjointOr(def);
    bool isSub = isa<LLVM::SubOp, arith::SubIOp>(def);
    if ((!isAdd && !isSub) ||
        (!isDisjointOr(def) && !hasNoWrap(def, signedness)))
      return std::nullopt;
    Value lhs = def->getOperand(0), rhs = def->getOperand(1);
    if (isInvariant(rhs))
      if (std::optional<ThreadOffset> offset =
              match(lhs, signedness, depth + 1)) {
        offset->terms.push_back({rhs, isSub});
        return offset;
      }
    if (isInvariant(lhs))
      if (std::optional<ThreadOffset> offset =
              match(rhs, signedness, depth + 1)) {
        // lhs - (±iv + S) = ∓iv - S + lhs.
        if (isSub) {
          offset->negatedIndex = !offset->negatedIndex;
          for (Term &term : offset->terms)
            term.negated = !term.negated;
        }
        offset->terms.push_back({lhs, false});
        return offset;
      }
    return std::nullopt;
  }

private:
  std::optional<ThreadOffset> matchCast(Operation *cast, CastKind kind,
                                        Signedness signedness,
                                        unsigned depth) const {
    std::optional<ThreadOffset> offset =
        match(cast->getOperand(0), signedness, depth + 1);
    if (!offset)
      return std::nullopt;
    // A bare thread index is below 2^31 (a block has at most a few thousand
    // threads): every cast to 32 bits or more keeps its value.
    if (offset->terms.empty() && !offset->negatedIndex)
      return *getIntWidth(cast->getResult(0).getType()) >= 32
                 ? offset
                 : std::nullopt;
    switch (kind) {
    case CastKind::Same:
    case CastKind::NonNegExtend:
      return offset;
    case CastKind::SignExtend:
      return signedness == Signedness::Signed ? offset : std::nullopt;
    case CastKind::ZeroExtend:
      return signedness == Signedness::Unsigned ? offset : std::nullopt;
    case CastKind::Truncate:
      return std::nullopt;
    }
    return std::nullopt;
  }

  // Mutable: the op's accessors are not const.
  mutable scf::ParallelOp loop;
};

/// The comparison `cmp` as a split predicate of `loop`, if it compares a
/// thread index plus invariants with an invariant.
std::optional<SplitPredicate> analyzeComparison(Operation *cmp,
                                                const ThreadIndexMatcher &m) {
  // Predicates in one order for both dialects.
  enum Pred { EQ, NE, SLT, SLE, SGT, SGE, ULT, ULE, UGT, UGE };
  Pred pred;
  if (auto icmp = dyn_cast<LLVM::ICmpOp>(cmp)) {
    static const Pred fromLLVM[] = {EQ, NE, SLT, SLE, SGT, SGE, ULT, ULE,
                                    UGT, UGE};
    pred = fromLLVM[static_cast<unsigned>(icmp.getPredicate())];
  } else if (auto cmpi = dyn_cast<arith::CmpIOp>(cmp)) {
    static const Pred fromArith[] = {EQ, NE, SLT, SLE, SGT, SGE, ULT, ULE,
                                     UGT, UGE};
    pred = fromArith[static_cast<unsigned>(cmpi.getPredicate())];
  } else {
    return std::nullopt;
  }
  if (!getIntWidth(cmp->getOperand(0).getType()))
    return std::nullopt;
  auto swapped = [](Pred p) {
    switch (p) {
    case SLT: return SGT;
    case SLE: return SGE;
    case SGT: return SLT;
    case SGE: return SLE;
    case ULT: return UGT;
    case ULE: return UGE;
    case UGT: return ULT;
    case UGE: return ULE;
    default: return p;
    }
  };
  auto isNarrow = [](Value value) {
    std::optional<unsigned> width = getIntWidth(value.getType());
    return width && *width <= 64;
  };
  for (bool swap : {false, true}) {
    Value thread = cmp->getOperand(swap ? 1 : 0);
    Value bound = cmp->getOperand(swap ? 0 : 1);
    Pred p = swap ? swapped(pred) : pred;
    if (!m.isInvariant(bound))
      continue;
    SmallVector<Signedness, 2> readings;
    if (p == EQ || p == NE)
      readings = {Signedness::Signed, Signedness::Unsigned};
    else if (p >= ULT)
      readings = {Signedness::Unsigned};
    else
      readings = {Signedness::Signed};
    for (Signedness signedness : readings) {
      std::optional<ThreadOffset> offset = m.match(thread, signedness);
      if (!offset || !isNarrow(bound) ||
          !llvm::all_of(offset->terms,
                        [&](const Term &term) { return isNarrow(term.value); }))
        continue;
      SplitPredicate split;
      split.cmp = cmp;
      split.signedness = signedness;
      split.dim = offset->dim;
      if (offset->negatedIndex) {
        // -iv + S p B  <=>  iv swapped(p) S - B.
        p = swapped(p);
        split.terms.push_back({bound, true});
        for (Term term : offset->terms)
          split.terms.push_back({term.value, term.negated});
      } else {
        split.terms.push_back({bound, false});
        for (Term term : offset->terms)
          split.terms.push_back({term.value, !term.negated});
      }
      // iv < D, iv <= D (iv < D + 1), iv > D (not iv < D + 1), iv >= D.
      switch (p) {
      case EQ: case NE:
        split.kind = SplitPredicate::Equal;
        split.negated = p == NE;
        split.adjust = 0;
        break;
      case SLT: case ULT: case SGE: case UGE:
        split.kind = SplitPredicate::Less;
        split.negated = p == SGE || p == UGE;
        split.adjust = 0;
        break;
      case SLE: case ULE: case SGT: case UGT:
        split.kind = SplitPredicate::Less;
        split.negated = p == SGT || p == UGT;
        split.adjust = 1;
        break;
      }
      return split;
    }
  }
  return std::nullopt;
}

/// The two operands of a signed or unsigned min or max, with which of the
/// four it is; nullopt for other operations.
struct MinMax {
  Value lhs, rhs;
  bool isMin;
  bool isSigned;
};
std::optional<MinMax> matchMinMax(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumOperands() != 2)
    return std::nullopt;
  auto make = [&](bool isMin, bool isSigned) {
    return MinMax{def->getOperand(0), def->getOperand(1), isMin, isSigned};
  };
  if (isa<LLVM::SMinOp, arith::MinSIOp>(def))
    return make(true, true);
  if (isa<LLVM::SMaxOp, arith::MaxSIOp>(def))
    return make(false, true);
  if (isa<LLVM::UMinOp, arith::MinUIOp>(def))
    return make(true, false);
  if (isa<LLVM::UMaxOp, arith::MaxUIOp>(def))
    return make(false, false);
  return std::nullopt;
}

/// The integer comparisons in `loop`'s body, collected before any rewrite.
SmallVector<LLVM::ICmpOp> collectComparisons(scf::ParallelOp loop) {
  SmallVector<LLVM::ICmpOp> comparisons;
  loop.getBody()->walk([&](LLVM::ICmpOp cmp) { comparisons.push_back(cmp); });
  return comparisons;
}

/// Replaces `cmp` by `first && second` (`conjunction`) or `first || second`,
/// two comparisons built in front of it.
void replaceByPair(LLVM::ICmpOp cmp, bool conjunction, Value first,
                   Value second) {
  OpBuilder b(cmp);
  Value combined =
      conjunction
          ? LLVM::AndOp::create(b, cmp.getLoc(), first, second).getResult()
          : LLVM::OrOp::create(b, cmp.getLoc(), first, second).getResult();
  cmp.getResult().replaceAllUsesWith(combined);
  cmp.erase();
}

/// LLVM's instcombine folds `tx > r && tx < N - r` into `r < smin(tx, N -
/// tx)`, which no single thread-index range describes. Comparing with a
/// min or max is a conjunction or disjunction of two comparisons (`x <
/// min(a, b)` is `x < a && x < b`, `x > min(a, b)` is `x > a || x > b`, and
/// dually for max), each of which may split the loop: rewrite the
/// comparisons of `loop` whose min or max involves a thread index.
void expandMinMaxComparisons(scf::ParallelOp loop,
                             const ThreadIndexMatcher &matcher) {
  for (LLVM::ICmpOp cmp : collectComparisons(loop)) {
    using P = LLVM::ICmpPredicate;
    P pred = cmp.getPredicate();
    if (pred == P::eq || pred == P::ne)
      continue;
    bool isSigned = pred == P::slt || pred == P::sle || pred == P::sgt ||
                    pred == P::sge;
    bool isLess = pred == P::slt || pred == P::sle || pred == P::ult ||
                  pred == P::ule;
    for (unsigned side : {1u, 0u}) {
      std::optional<MinMax> minMax = matchMinMax(cmp->getOperand(side));
      if (!minMax || minMax->isSigned != isSigned)
        continue;
      Signedness signedness =
          isSigned ? Signedness::Signed : Signedness::Unsigned;
      if (!matcher.match(minMax->lhs, signedness) &&
          !matcher.match(minMax->rhs, signedness))
        continue;
      // x p min(a, b) with the min on the right: `<` is a conjunction for
      // min, a disjunction for max; the min on the left reverses `<`.
      bool minMaxIsGreaterSide = (side == 1) == isLess;
      bool conjunction = minMaxIsGreaterSide == minMax->isMin;
      OpBuilder b(cmp);
      Value other = cmp->getOperand(1 - side);
      auto compare = [&](Value part) -> Value {
        return side == 1 ? LLVM::ICmpOp::create(b, cmp.getLoc(), pred, other,
                                                part)
                         : LLVM::ICmpOp::create(b, cmp.getLoc(), pred, part,
                                                other);
      };
      Value first = compare(minMax->lhs), second = compare(minMax->rhs);
      replaceByPair(cmp, conjunction, first, second);
      break;
    }
  }
}

/// A range check `(unsigned)(x) < C` on a signed thread expression `x` (clang
/// folds `x >= 0 && x < C` into it): with `C` a non-negative constant, `x
/// ult C` is `x sge 0 && x slt C`, and `x ugt C` is `x slt 0 || x sgt C` (a
/// negative x reads as a huge unsigned number). Each half may split the
/// loop, where the unsigned form does not match: `x` (`k - tx`) has no
/// unsigned no-wrap guarantee. Rewrites such comparisons of `loop`.
void expandUnsignedRangeChecks(scf::ParallelOp loop,
                               const ThreadIndexMatcher &matcher) {
  for (LLVM::ICmpOp cmp : collectComparisons(loop)) {
    using P = LLVM::ICmpPredicate;
    P pred = cmp.getPredicate();
    if (pred != P::ult && pred != P::ule && pred != P::ugt && pred != P::uge)
      continue;
    for (unsigned side : {1u, 0u}) {
      Value bound = cmp->getOperand(side), thread = cmp->getOperand(1 - side);
      APInt constant;
      if (!matchPattern(bound, m_ConstantInt(&constant)) ||
          constant.isNegative() || !matcher.match(thread, Signedness::Signed) ||
          matcher.match(thread, Signedness::Unsigned))
        continue;
      // thread p bound, with the thread on the left.
      P p = pred;
      if (side == 0)
        p = pred == P::ult   ? P::ugt
            : pred == P::ule ? P::uge
            : pred == P::ugt ? P::ult
                             : P::ule;
      bool inRange = p == P::ult || p == P::ule;
      P signedPred = p == P::ult   ? P::slt
                     : p == P::ule ? P::sle
                     : p == P::ugt ? P::sgt
                                   : P::sge;
      OpBuilder b(cmp);
      Location loc = cmp.getLoc();
      Value zero = LLVM::ConstantOp::create(
          b, loc, b.getIntegerAttr(thread.getType(), 0));
      Value sign = LLVM::ICmpOp::create(b, loc, inRange ? P::sge : P::slt,
                                        thread, zero);
      Value limit = LLVM::ICmpOp::create(b, loc, signedPred, thread, bound);
      replaceByPair(cmp, inRange, sign, limit);
      break;
    }
  }
}

/// The i1 leaves of the and/or/xor tree computing `condition`.
void collectConditionLeaves(Value condition, SmallVectorImpl<Value> &leaves,
                            unsigned depth = 0) {
  Operation *def = condition.getDefiningOp();
  if (depth < 8 && def &&
      isa<LLVM::AndOp, LLVM::OrOp, LLVM::XOrOp, arith::AndIOp, arith::OrIOp,
          arith::XOrIOp>(def)) {
    for (Value operand : def->getOperands())
      collectConditionLeaves(operand, leaves, depth + 1);
    return;
  }
  leaves.push_back(condition);
}

/// The constant value of the i1 `condition`, folding and/or/xor.
std::optional<bool> evaluateCondition(Value condition, unsigned depth = 0) {
  APInt constant;
  if (matchPattern(condition, m_ConstantInt(&constant)))
    return !constant.isZero();
  Operation *def = condition.getDefiningOp();
  if (!def || depth > 8 || def->getNumOperands() != 2)
    return std::nullopt;
  std::optional<bool> lhs = evaluateCondition(def->getOperand(0), depth + 1);
  std::optional<bool> rhs = evaluateCondition(def->getOperand(1), depth + 1);
  if (isa<LLVM::AndOp, arith::AndIOp>(def)) {
    if ((lhs && !*lhs) || (rhs && !*rhs))
      return false;
    if (lhs && rhs)
      return true;
  } else if (isa<LLVM::OrOp, arith::OrIOp>(def)) {
    if ((lhs && *lhs) || (rhs && *rhs))
      return true;
    if (lhs && rhs)
      return false;
  } else if (isa<LLVM::XOrOp, arith::XOrIOp>(def)) {
    if (lhs && rhs)
      return *lhs != *rhs;
  }
  return std::nullopt;
}

/// Replaces `ifOp` by the ops of the region `taken` selects.
void inlineTakenBranch(RewriterBase &rewriter, scf::IfOp ifOp, bool taken) {
  Region &region = taken ? ifOp.getThenRegion() : ifOp.getElseRegion();
  if (region.empty()) {
    rewriter.eraseOp(ifOp);
    return;
  }
  Block *block = &region.front();
  Operation *yield = block->getTerminator();
  SmallVector<Value> results(yield->getOperands());
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(block, ifOp);
  rewriter.replaceOp(ifOp, results);
}

/// Inlines the taken branch of every scf.if in `root` whose condition is
/// now a constant, and replaces such selects by the value they select.
void foldConstantBranches(Operation *root) {
  IRRewriter rewriter(root->getContext());
  root->walk([&](Operation *op) {
    if (!isa<LLVM::SelectOp, arith::SelectOp>(op))
      return;
    if (std::optional<bool> value = evaluateCondition(op->getOperand(0)))
      rewriter.replaceOp(op, op->getOperand(*value ? 1 : 2));
  });
  while (true) {
    scf::IfOp known;
    bool taken = false;
    root->walk<WalkOrder::PreOrder>([&](scf::IfOp ifOp) {
      if (std::optional<bool> value = evaluateCondition(ifOp.getCondition())) {
        known = ifOp;
        taken = *value;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (!known)
      return;
    rewriter.setInsertionPoint(known);
    inlineTakenBranch(rewriter, known, taken);
  }
}

/// Rewrites an scf.index_switch on a thread index into a chain of scf.if
/// on `operand == case` (the default in the last else), which this pass can
/// split.
void convertSwitchToIfChain(scf::IndexSwitchOp switchOp) {
  unsigned numCases = switchOp.getNumCases();
  if (numCases == 0)
    return;
  IRRewriter rewriter(switchOp);
  Location loc = switchOp.getLoc();
  TypeRange resultTypes = switchOp.getResultTypes();
  scf::IfOp outermost;
  for (unsigned i = 0; i < numCases; ++i) {
    Value caseValue =
        arith::ConstantIndexOp::create(rewriter, loc, switchOp.getCases()[i]);
    Value isCase = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, switchOp.getArg(), caseValue);
    auto ifOp = scf::IfOp::create(rewriter, loc, resultTypes, isCase,
                                  /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(switchOp.getCaseRegions()[i],
                                ifOp.getThenRegion(),
                                ifOp.getThenRegion().end());
    // Inside the previous if's else, which yields this if's results.
    if (!outermost)
      outermost = ifOp;
    else
      scf::YieldOp::create(rewriter, loc, ifOp.getResults());
    if (i + 1 < numCases)
      rewriter.createBlock(&ifOp.getElseRegion());
    else
      rewriter.inlineRegionBefore(switchOp.getDefaultRegion(),
                                  ifOp.getElseRegion(),
                                  ifOp.getElseRegion().end());
  }
  rewriter.replaceOp(switchOp, outermost.getResults());
}

bool hasSideEffects(scf::ParallelOp loop) {
  WalkResult result = loop.getBody()->walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return op->hasTrait<OpTrait::IsTerminator>() ? WalkResult::advance()
                                                   : WalkResult::interrupt();
    if (effects.hasEffect<MemoryEffects::Write>() ||
        effects.hasEffect<MemoryEffects::Free>() ||
        effects.hasEffect<MemoryEffects::Allocate>())
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// A bound of a piece: a compile-time constant or a value.
struct Bound {
  std::optional<APInt> constant; // kWideBits wide
  Value value;                   // index, when not constant
};

/// Number of ops in `loop`'s body, nested ones included.
unsigned countOps(scf::ParallelOp loop) {
  unsigned ops = 0;
  loop.getBody()->walk([&](Operation *) { ++ops; });
  return ops;
}

/// The value of a loop bound if it is constant, also when it is a cast of a
/// constant (the launch copies for constant block sizes cast the 32-bit
/// blockDim), kWideBits wide.
std::optional<APInt> getConstantBound(Value value) {
  Value source = value;
  bool zeroExtend = false;
  if (auto cast = source.getDefiningOp<arith::IndexCastUIOp>()) {
    source = cast.getIn();
    zeroExtend = true;
  } else if (auto cast = source.getDefiningOp<arith::IndexCastOp>()) {
    source = cast.getIn();
  }
  APInt constant;
  if (!matchPattern(source, m_ConstantInt(&constant)))
    return std::nullopt;
  return zeroExtend ? constant.zext(kWideBits) : constant.sext(kWideBits);
}

/// Threads `loop` runs if its bounds are constants.
std::optional<int64_t> getConstantThreadCount(scf::ParallelOp loop) {
  int64_t count = 1;
  for (auto [lower, upper] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound())) {
    std::optional<APInt> lo = getConstantBound(lower);
    std::optional<APInt> hi = getConstantBound(upper);
    if (!lo || !hi)
      return std::nullopt;
    count *= std::max<int64_t>((*hi - *lo).getSExtValue(), 0);
  }
  return count;
}

class ThreadLoopSplitter {
public:
  explicit ThreadLoopSplitter(unsigned maxPieces) : maxPieces(maxPieces) {}

  void run(scf::ParallelOp loop) {
    // Every part is a loop LLVM optimizes on its own (vectorized body,
    // remainder, runtime checks): compile time grows with the number of
    // parts and their size. Loops with run-time bounds (the generic copy
    // when launch copies exist) gain less and get fewer parts.
    unsigned originalOps = countOps(loop);
    std::optional<int64_t> threads = getConstantThreadCount(loop);
    pieceBudget = threads ? maxPieces : std::min(maxPieces, 4u);
    opsBudget = std::max(2 * originalOps, kMinOpsBudget);
    opsAdded = 0;
    pieces = 1;
    atMostOneThread.clear();
    SmallVector<scf::ParallelOp> worklist{loop};
    while (!worklist.empty()) {
      // The part with the most threads first: where a branch-free loop
      // gains most, while the budget lasts.
      auto largest = llvm::max_element(
          worklist, [](scf::ParallelOp a, scf::ParallelOp b) {
            return getConstantThreadCount(a).value_or(INT64_MAX) <
                   getConstantThreadCount(b).value_or(INT64_MAX);
          });
      scf::ParallelOp piece = *largest;
      worklist.erase(largest);
      while (true) {
        std::optional<SplitPredicate> split = findPredicate(piece);
        if (!split)
          break;
        SmallVector<scf::ParallelOp> parts = splitLoop(piece, *split);
        if (parts.size() == 1 && parts.front() == piece)
          continue; // resolved in place, or not worth splitting
        worklist.append(parts.begin(), parts.end());
        break;
      }
    }
  }

private:
  /// The first comparison controlling a branch of `loop` that is a split
  /// predicate worth using.
  std::optional<SplitPredicate> findPredicate(scf::ParallelOp loop) {
    ThreadIndexMatcher matcher(loop);
    std::optional<SplitPredicate> found;
    loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      Value condition;
      if (auto ifOp = dyn_cast<scf::IfOp>(op))
        condition = ifOp.getCondition();
      else if (isa<LLVM::SelectOp, arith::SelectOp>(op))
        condition = op->getOperand(0);
      if (!condition || !condition.getType().isInteger(1))
        return WalkResult::advance();
      SmallVector<Value> leaves;
      collectConditionLeaves(condition, leaves);
      for (Value leaf : leaves) {
        Operation *cmp = leaf.getDefiningOp();
        if (!cmp || !loop->isAncestor(cmp) || rejected.contains(cmp))
          continue;
        std::optional<SplitPredicate> split = analyzeComparison(cmp, matcher);
        if (!split) {
          rejected.insert(cmp);
          continue;
        }
        found = std::move(split);
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return found;
  }

  Bound constantBound(const APInt &value) { return {value, Value()}; }

  Bound loopBound(Value value) {
    if (std::optional<APInt> constant = getConstantBound(value))
      return constantBound(*constant);
    return {std::nullopt, value};
  }

  /// `D + adjust` of `split` in wide arithmetic, folded when constant.
  Bound buildSplitValue(OpBuilder &builder, Location loc,
                        const SplitPredicate &split, int64_t adjust,
                        Value &wideDynamic) {
    bool isSigned = split.signedness == Signedness::Signed;
    APInt constantSum(kWideBits, adjust, /*isSigned=*/true);
    bool allConstant = true;
    for (const Term &term : split.terms) {
      APInt value;
      if (!matchPattern(term.value, m_ConstantInt(&value))) {
        allConstant = false;
        continue;
      }
      APInt wide = isSigned ? value.sext(kWideBits) : value.zext(kWideBits);
      constantSum = term.negated ? constantSum - wide : constantSum + wide;
    }
    if (allConstant)
      return constantBound(constantSum);
    if (!wideDynamic) {
      IntegerType wideType = builder.getIntegerType(kWideBits);
      IRMapping hoisted;
      Value sum = arith::ConstantOp::create(
          builder, loc, builder.getIntegerAttr(wideType, constantSum - adjust));
      for (const Term &term : split.terms) {
        APInt ignored;
        if (matchPattern(term.value, m_ConstantInt(&ignored)))
          continue;
        Value value = hoist(builder, term.value, hoisted);
        Value wide;
        if (isa<IndexType>(value.getType()))
          wide = isSigned ? arith::IndexCastOp::create(builder, loc, wideType,
                                                       value)
                                .getResult()
                          : arith::IndexCastUIOp::create(builder, loc,
                                                         wideType, value)
                                .getResult();
        else
          wide = isSigned
                     ? arith::ExtSIOp::create(builder, loc, wideType, value)
                           .getResult()
                     : arith::ExtUIOp::create(builder, loc, wideType, value)
                           .getResult();
        sum = term.negated ? arith::SubIOp::create(builder, loc, sum, wide)
                                 .getResult()
                           : arith::AddIOp::create(builder, loc, sum, wide)
                                 .getResult();
      }
      // A bound computed on a path the threads never take may be poison.
      wideDynamic = LLVM::FreezeOp::create(builder, loc, sum);
    }
    Value result = wideDynamic;
    if (adjust != 0) {
      Value one = arith::ConstantOp::create(
          builder, loc, builder.getIntegerAttr(wideDynamic.getType(), adjust));
      result = arith::AddIOp::create(builder, loc, result, one);
    }
    return {std::nullopt, result};
  }

  /// Copies the invariant computation of `value` (see isInvariant) to the
  /// builder's insertion point.
  Value hoist(OpBuilder &builder, Value value, IRMapping &hoisted) {
    return cloneComputation(builder, value, hoisted, [&](Value operand) {
      return currentLoop.isDefinedOutsideOfLoop(operand);
    });
  }

  /// max(lower, min(split, upper)), statically when possible.
  Bound clamp(OpBuilder &builder, Location loc, Bound split, Bound lower,
              Bound upper) {
    if (split.constant) {
      if (lower.constant && split.constant->sle(*lower.constant))
        return lower;
      if (upper.constant && split.constant->sge(*upper.constant))
        return upper;
      if (lower.constant && upper.constant)
        return split;
    }
    IntegerType wideType = builder.getIntegerType(kWideBits);
    auto toWide = [&](Bound bound) -> Value {
      if (bound.constant)
        return arith::ConstantOp::create(
            builder, loc, builder.getIntegerAttr(wideType, *bound.constant));
      if (isa<IndexType>(bound.value.getType()))
        return arith::IndexCastOp::create(builder, loc, wideType, bound.value);
      return bound.value;
    };
    Value clamped = arith::MinSIOp::create(builder, loc, toWide(split),
                                           toWide(upper));
    clamped = arith::MaxSIOp::create(builder, loc, clamped, toWide(lower));
    return {std::nullopt, arith::IndexCastOp::create(
                              builder, loc, builder.getIndexType(), clamped)};
  }

  Value materialize(OpBuilder &builder, Location loc, Bound bound) {
    if (bound.value)
      return bound.value;
    return arith::ConstantIndexOp::create(builder, loc,
                                          bound.constant->getSExtValue());
  }

  static bool isEmpty(const Bound &lower, const Bound &upper) {
    if (lower.constant && upper.constant)
      return lower.constant->sge(*upper.constant);
    return lower.value && lower.value == upper.value;
  }

  /// Splits `loop` along the predicate's dimension into the ranges where
  /// the predicate is constant and resolves it in each. Returns the new
  /// loops (or `loop` itself if the predicate was constant over it).
  SmallVector<scf::ParallelOp> splitLoop(scf::ParallelOp loop,
                                         const SplitPredicate &split) {
    currentLoop = loop;
    OpBuilder builder(loop);
    Location loc = loop.getLoc();
    unsigned dim = split.dim;
    Bound lower = loopBound(loop.getLowerBound()[dim]);
    Bound upper = loopBound(loop.getUpperBound()[dim]);

    // Cut points and the predicate's value below, between and above them.
    Value wide;
    SmallVector<Bound> cuts{lower};
    SmallVector<bool> truth;
    cuts.push_back(clamp(builder, loc,
                         buildSplitValue(builder, loc, split, split.adjust,
                                         wide),
                         lower, upper));
    if (split.kind == SplitPredicate::Equal) {
      cuts.push_back(clamp(builder, loc,
                           buildSplitValue(builder, loc, split,
                                           split.adjust + 1, wide),
                           lower, upper));
      truth = {false, true, false};
    } else {
      truth = {true, false};
    }
    cuts.push_back(upper);
    for (auto &&value : truth)
      value = value != split.negated;

    SmallVector<unsigned> nonEmpty;
    for (unsigned i = 0; i + 1 < cuts.size(); ++i)
      if (!isEmpty(cuts[i], cuts[i + 1]))
        nonEmpty.push_back(i);

    // The predicate is the same for all of the loop's threads.
    if (nonEmpty.size() <= 1) {
      bool value = nonEmpty.empty() ? truth.front() : truth[nonEmpty.front()];
      resolve(split.cmp, value);
      foldConstantBranches(loop);
      return {loop};
    }
    // Over budget, or a dimension of one thread: splitting gains nothing.
    std::optional<int64_t> extent =
        lower.constant && upper.constant
            ? std::optional<int64_t>(
                  (*upper.constant - *lower.constant).getSExtValue())
            : std::nullopt;
    bool single = (extent && *extent <= 1) || isAtMostOneThread(loop, dim);
    unsigned extraOps = countOps(loop) * (nonEmpty.size() - 1);
    if (pieces + nonEmpty.size() - 1 > pieceBudget ||
        opsAdded + extraOps > opsBudget || single) {
      rejected.insert(split.cmp);
      return {loop};
    }

    SmallVector<scf::ParallelOp> parts;
    for (unsigned i : nonEmpty) {
      Value partLower = materialize(builder, loc, cuts[i]);
      Value partUpper = materialize(builder, loc, cuts[i + 1]);
      IRMapping mapping;
      auto part = cast<scf::ParallelOp>(builder.clone(*loop, mapping));
      part.getLowerBoundMutable()[dim].set(partLower);
      part.getUpperBoundMutable()[dim].set(partUpper);
      resolve(mapping.lookup(split.cmp->getResult(0)).getDefiningOp(),
              truth[i]);
      foldConstantBranches(part);
      if (!hasSideEffects(part)) {
        part.erase();
        continue;
      }
      // The middle part of an equality holds at most one thread.
      uint64_t dims = atMostOneThread.lookup(loop);
      if (split.kind == SplitPredicate::Equal && truth[i] != split.negated)
        dims |= uint64_t(1) << dim;
      if (dims)
        atMostOneThread[part] = dims;
      parts.push_back(part);
    }
    atMostOneThread.erase(loop);
    loop.erase();
    pieces += parts.size() - 1;
    opsAdded += extraOps;
    return parts;
  }

  static void resolve(Operation *cmp, bool value) {
    OpBuilder builder(cmp);
    Value constant = arith::ConstantIntOp::create(builder, cmp->getLoc(),
                                                  builder.getI1Type(), value);
    cmp->getResult(0).replaceAllUsesWith(constant);
    cmp->erase();
  }

  bool isAtMostOneThread(scf::ParallelOp loop, unsigned dim) const {
    return dim < 64 && (atMostOneThread.lookup(loop) >> dim) & 1;
  }

  unsigned maxPieces;
  /// Limits for the thread loop being split, and what it has used.
  unsigned pieceBudget = 0, pieces = 0, opsBudget = 0, opsAdded = 0;
  scf::ParallelOp currentLoop;
  /// Per part: a bit for each dimension known to hold at most one thread.
  DenseMap<Operation *, uint64_t> atMostOneThread;
  /// Comparisons found not to be (useful) split predicates.
  DenseSet<Operation *> rejected;
};

/// True if `loop` is a thread loop this pass may reorder: no barriers or
/// warp operations left, not too large.
bool isSplittable(scf::ParallelOp loop) {
  unsigned ops = 0;
  WalkResult result = loop.getBody()->walk([&](Operation *op) {
    if (isa<RespecDialect>(op->getDialect()) || isa<scf::ParallelOp>(op) ||
        ++ops > kMaxBodyOps)
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted() && loop.getNumReductions() == 0;
}

struct SplitThreadIndexSetsPass
    : public respec::impl::SplitThreadIndexSetsPassBase<
          SplitThreadIndexSetsPass> {
  using Base::Base;

  void runOnOperation() override {
    for (scf::ParallelOp loop : collectThreadLoops(getOperation())) {
      if (!isSplittable(loop))
        continue;
      ThreadIndexMatcher matcher(loop);
      SmallVector<scf::IndexSwitchOp> switches;
      loop.getBody()->walk([&](scf::IndexSwitchOp switchOp) {
        if (matcher.match(switchOp.getArg(), Signedness::Signed))
          switches.push_back(switchOp);
      });
      for (scf::IndexSwitchOp switchOp : switches)
        convertSwitchToIfChain(switchOp);
      expandMinMaxComparisons(loop, matcher);
      expandUnsignedRangeChecks(loop, matcher);
      ThreadLoopSplitter(maxPieces).run(loop);
    }
  }
};

} // namespace
