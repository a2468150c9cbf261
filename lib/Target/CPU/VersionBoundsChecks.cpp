//===- VersionBoundsChecks.cpp - Bounds checks tested once per block ------===//
//
// A thread that works through several elements guards each one:
//
//   for (r = 0; r < 64; ++r) { i = base + r * 256 + tid; if (i < n) ...; }
//
// The guard depends on the loop counter as well as on the thread index, so
// index-set splitting (which turns guards on the thread index alone into
// thread-loop bounds) leaves it inside the loop, one test and branch per
// element. But for every block except the last few, the largest `i` any
// thread of the block reaches is below `n`. This pass computes, once per
// block, bounds of the guarded value over all threads and loop iterations,
// and runs a copy of the thread loop without the branch when they prove
// that it is always taken; the thread loop as it was runs otherwise.
//
// The bounds are intervals computed in 128-bit arithmetic from the thread
// loop's bounds, the ranges of loop counters (`scf.for`, and the counters
// of loops as lifting leaves them: `scf.while` loops stepping by one up to
// a bound the same for all threads) and values the same for all threads,
// through sums, differences, multiplications and shifts by constants,
// `or disjoint`, and casts. An operation whose no-wrap flag does not
// guarantee that it computes the mathematical result for the signedness
// the comparison reads adds a test that its interval fits its type. Every
// value the thread loop computes at run time then lies in its interval, so
// the guard holds for every thread and iteration when the interval is
// below the bound.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::respec {
#define GEN_PASS_DEF_VERSIONBOUNDSCHECKSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// Thread loops with more operations than this are left alone: the pass
/// copies them.
constexpr unsigned kMaxLoopOps = 2000;

/// Width of the interval arithmetic: exact for sums and products of a few
/// 64-bit values.
constexpr unsigned kWideBits = 128;

/// How an integer is read.
enum class Sign { Signed, Unsigned };

/// The values an integer takes, read with some signedness: [lo, hi], as
/// 128-bit values computed before the thread loop.
struct Interval {
  Value lo, hi;
};

/// Builds, before a thread loop, intervals of values of its body and the
/// tests (side conditions) under which they hold.
class IntervalBuilder {
public:
  explicit IntervalBuilder(scf::ParallelOp loop)
      : loop(loop), builder(loop), wide(builder.getIntegerType(kWideBits)) {}

  std::optional<Interval> get(Value value, Sign sign) {
    auto key = std::make_pair(value, unsigned(sign));
    if (auto it = memo.find(key); it != memo.end())
      return it->second;
    std::optional<Interval> result = compute(value, sign);
    memo[key] = result;
    return result;
  }

  /// The side conditions of all intervals built. (Those of an interval
  /// built for a branch the pass then leaves alone stay: they only make
  /// the test stricter, and intervals are shared between branches.)
  ArrayRef<Value> getConditions() const { return conditions; }

  /// True for values the same for all threads and iterations: defined
  /// before the loop, or constants.
  bool isUniform(Value value) const {
    return isDefinedOutside(value, loop) || matchPattern(value, m_Constant());
  }

  Value constant(const APInt &value) {
    return create<arith::ConstantOp>(builder.getIntegerAttr(wide, value));
  }
  Value constant(int64_t value) {
    return constant(APInt(kWideBits, value, /*isSigned=*/true));
  }

  Value compare(arith::CmpIPredicate predicate, Value a, Value b) {
    return create<arith::CmpIOp>(predicate, a, b);
  }

  /// Removes what was built and is not used.
  void eraseUnused() {
    for (Operation *op : llvm::reverse(created))
      if (op->use_empty())
        op->erase();
    created.clear();
  }

private:
  template <typename OpTy, typename... Args> Value create(Args &&...args) {
    auto op = OpTy::create(builder, loop.getLoc(), std::forward<Args>(args)...);
    created.push_back(op);
    return op->getResult(0);
  }

  Value add(Value a, Value b) { return create<arith::AddIOp>(a, b); }
  Value sub(Value a, Value b) { return create<arith::SubIOp>(a, b); }
  Value mul(Value a, Value b) { return create<arith::MulIOp>(a, b); }
  Value max(Value a, Value b) { return create<arith::MaxSIOp>(a, b); }

  /// `value` (defined before the loop) as a 128-bit integer read with
  /// `sign`.
  Value extend(Value value, Sign sign) {
    if (isa<IndexType>(value.getType()))
      return sign == Sign::Signed ? create<arith::IndexCastOp>(wide, value)
                                  : create<arith::IndexCastUIOp>(wide, value);
    return sign == Sign::Signed ? create<arith::ExtSIOp>(wide, value)
                                : create<arith::ExtUIOp>(wide, value);
  }

  /// Requires [lo, hi] to lie in the range of a `bits`-bit integer read
  /// with `sign`.
  void requireFits(Interval interval, unsigned bits, Sign sign) {
    APInt min = sign == Sign::Signed ? APInt::getSignedMinValue(bits)
                                     : APInt::getMinValue(bits);
    APInt max = sign == Sign::Signed ? APInt::getSignedMaxValue(bits)
                                     : APInt::getMaxValue(bits);
    min = sign == Sign::Signed ? min.sext(kWideBits) : min.zext(kWideBits);
    max = sign == Sign::Signed ? max.sext(kWideBits) : max.zext(kWideBits);
    conditions.push_back(
        compare(arith::CmpIPredicate::sge, interval.lo, constant(min)));
    conditions.push_back(
        compare(arith::CmpIPredicate::sle, interval.hi, constant(max)));
  }

  /// The interval of `value` read with `from`, as read with `to` (the same
  /// numbers where they fit both readings).
  std::optional<Interval> reread(std::optional<Interval> interval,
                                 unsigned bits, Sign from, Sign to) {
    if (!interval || from == to)
      return interval;
    requireFits(*interval, bits, to);
    return interval;
  }

  std::optional<Interval> compute(Value value, Sign sign) {
    std::optional<unsigned> bits = getIntWidth(value.getType());
    if (!bits || *bits > 64)
      return std::nullopt;
    if (isDefinedOutside(value, loop)) {
      Value extended = extend(value, sign);
      return Interval{extended, extended};
    }
    if (auto arg = dyn_cast<BlockArgument>(value))
      return reread(getInductionRange(arg), *bits, Sign::Signed, sign);
    Operation *def = value.getDefiningOp();
    APInt constantValue;
    if (matchPattern(value, m_ConstantInt(&constantValue))) {
      Value c =
          constant(sign == Sign::Signed ? constantValue.sextOrTrunc(kWideBits)
                                        : constantValue.zextOrTrunc(kWideBits));
      return Interval{c, c};
    }
    if (isa<arith::AddIOp, LLVM::AddOp, arith::SubIOp, LLVM::SubOp>(def))
      return addOrSub(def, *bits, sign);
    if (isDisjointOr(def)) {
      // No two set bits meet: the sum, which cannot wrap.
      std::optional<Interval> a = get(def->getOperand(0), sign);
      std::optional<Interval> b = get(def->getOperand(1), sign);
      if (!a || !b)
        return std::nullopt;
      return Interval{add(a->lo, b->lo), add(a->hi, b->hi)};
    }
    if (isa<arith::MulIOp, LLVM::MulOp, arith::ShLIOp, LLVM::ShlOp>(def))
      return scale(def, *bits, sign);
    return cast(def, *bits, sign);
  }

  /// Thread indices and loop counters: signed ranges.
  std::optional<Interval> getInductionRange(BlockArgument arg) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (owner == loop.getOperation()) {
      unsigned d = arg.getArgNumber();
      Value lo = extend(loop.getLowerBound()[d], Sign::Signed);
      Value hi = extend(loop.getUpperBound()[d], Sign::Signed);
      return Interval{lo, max(lo, sub(hi, constant(1)))};
    }
    if (auto forOp = dyn_cast<scf::ForOp>(owner)) {
      std::optional<int64_t> step = getConstantIntValue(forOp.getStep());
      if (arg != forOp.getInductionVar() || !step || *step <= 0 ||
          forOp.getUnsignedCmp() || !isUniform(forOp.getLowerBound()) ||
          !isUniform(forOp.getUpperBound()))
        return std::nullopt;
      std::optional<Interval> lo = get(forOp.getLowerBound(), Sign::Signed);
      std::optional<Interval> hi = get(forOp.getUpperBound(), Sign::Signed);
      if (!lo || !hi)
        return std::nullopt;
      return Interval{lo->lo, max(lo->lo, sub(hi->hi, constant(1)))};
    }
    if (auto whileOp = dyn_cast<scf::WhileOp>(owner))
      return getCounterRange(whileOp, arg);
    return std::nullopt;
  }

  /// A counter of a rotated loop: starts at a value the same for all
  /// threads, steps by one without wrapping, and the loop goes on while the
  /// next value is below (or differs from) a bound the same for all
  /// threads. Every value it takes is in [start, max(start, bound - 1)].
  std::optional<Interval> getCounterRange(scf::WhileOp whileOp,
                                          BlockArgument arg) {
    if (arg.getOwner() != &whileOp.getBefore().front() ||
        !isRotatedWhileLoop(whileOp))
      return std::nullopt;
    unsigned position = arg.getArgNumber();
    Value start = whileOp.getInits()[position];
    if (!isUniform(start))
      return std::nullopt;
    scf::ConditionOp condition = whileOp.getConditionOp();
    // The value passed on (through the after region, unchanged) in the
    // counter's position.
    Value next = condition.getArgs()[position];
    Operation *increment = next.getDefiningOp();
    if (!isa_and_nonnull<arith::AddIOp, LLVM::AddOp>(increment))
      return std::nullopt;
    unsigned stepSide = increment->getOperand(0) == arg ? 1 : 0;
    if (increment->getOperand(1 - stepSide) != arg ||
        getConstantIntValue(increment->getOperand(stepSide)) != 1)
      return std::nullopt;
    std::optional<IntComparison> test =
        matchIntComparison(condition.getCondition());
    if (!test)
      return std::nullopt;
    using P = arith::CmpIPredicate;
    P predicate = test->predicate;
    Value bound = test->rhs;
    if (test->rhs == next) {
      predicate = swapOperandsOf(predicate);
      bound = test->lhs;
    } else if (test->lhs != next) {
      return std::nullopt;
    }
    if (!isUniform(bound))
      return std::nullopt;
    // The no-wrap flag says which reading counts up without wrapping.
    Sign sign;
    if (predicate == P::slt && hasNoWrapFlag(increment, /*isSigned=*/true))
      sign = Sign::Signed;
    else if (predicate == P::ult && hasNoWrapFlag(increment, false))
      sign = Sign::Unsigned;
    else if (predicate == P::ne && hasNoWrapFlag(increment, true))
      sign = Sign::Signed;
    else if (predicate == P::ne && hasNoWrapFlag(increment, false))
      sign = Sign::Unsigned;
    else
      return std::nullopt;
    std::optional<Interval> first = get(start, sign);
    std::optional<Interval> end = get(bound, sign);
    if (!first || !end)
      return std::nullopt;
    Value hi = max(first->lo, sub(end->hi, constant(1)));
    std::optional<unsigned> bits = getIntWidth(arg.getType());
    return reread(Interval{first->lo, hi}, *bits, sign, Sign::Signed);
  }

  std::optional<Interval> addOrSub(Operation *op, unsigned bits, Sign sign) {
    std::optional<Interval> a = get(op->getOperand(0), sign);
    std::optional<Interval> b = get(op->getOperand(1), sign);
    if (!a || !b)
      return std::nullopt;
    Interval result = isa<arith::SubIOp, LLVM::SubOp>(op)
                          ? Interval{sub(a->lo, b->hi), sub(a->hi, b->lo)}
                          : Interval{add(a->lo, b->lo), add(a->hi, b->hi)};
    if (!hasNoWrapFlag(op, sign == Sign::Signed))
      requireFits(result, bits, sign);
    return result;
  }

  /// Multiplications and left shifts by constants.
  std::optional<Interval> scale(Operation *op, unsigned bits, Sign sign) {
    bool shift = isa<arith::ShLIOp, LLVM::ShlOp>(op);
    unsigned side = 0;
    std::optional<int64_t> factor = getConstantIntValue(op->getOperand(1));
    if (!factor && !shift) {
      factor = getConstantIntValue(op->getOperand(0));
      side = 1;
    }
    if (!factor)
      return std::nullopt;
    if (shift) {
      if (*factor < 0 || *factor >= int64_t(bits) || *factor > 62)
        return std::nullopt;
      factor = int64_t(1) << *factor;
    } else if (sign == Sign::Unsigned && *factor < 0) {
      return std::nullopt;
    }
    std::optional<Interval> a = get(op->getOperand(side), sign);
    if (!a)
      return std::nullopt;
    Value c = constant(*factor);
    Interval result = *factor >= 0 ? Interval{mul(a->lo, c), mul(a->hi, c)}
                                   : Interval{mul(a->hi, c), mul(a->lo, c)};
    if (!hasNoWrapFlag(op, sign == Sign::Signed))
      requireFits(result, bits, sign);
    return result;
  }

  /// Extensions keep the number their operand holds in the reading they
  /// extend by; truncations keep it where it fits.
  std::optional<Interval> cast(Operation *op, unsigned bits, Sign sign) {
    std::optional<CastKind> kind = classifyCast(op);
    if (!kind)
      return std::nullopt;
    Value source = op->getOperand(0);
    // Same width: the same bits, read as asked.
    if (*kind == CastKind::Same)
      return get(source, sign);
    if (*kind != CastKind::Truncate) {
      Sign from = *kind == CastKind::SignExtend ? Sign::Signed : Sign::Unsigned;
      // The wider result holds the number; read unsigned, a negative one
      // would not be it.
      return reread(get(source, from), bits, from, sign);
    }
    std::optional<Interval> interval = get(source, sign);
    if (interval)
      requireFits(*interval, bits, sign);
    return interval;
  }

  scf::ParallelOp loop;
  OpBuilder builder;
  IntegerType wide;
  llvm::DenseMap<std::pair<Value, unsigned>, std::optional<Interval>> memo;
  SmallVector<Value> conditions;
  SmallVector<Operation *> created;
};

/// Whether `condition` holds for all threads and iterations, as a test
/// built before the loop; null if the pass cannot tell.
Value buildAlwaysTrueTest(IntervalBuilder &intervals, scf::ParallelOp loop,
                          Value condition) {
  std::optional<IntComparison> cmp = matchIntComparison(condition);
  if (!cmp)
    return nullptr;
  using P = arith::CmpIPredicate;
  P predicate = cmp->predicate;
  Value varying = cmp->lhs, bound = cmp->rhs;
  if (intervals.isUniform(varying)) {
    std::swap(varying, bound);
    predicate = swapOperandsOf(predicate);
  }
  if (intervals.isUniform(varying) || !intervals.isUniform(bound))
    return nullptr;
  Sign sign;
  switch (predicate) {
  case P::slt:
  case P::sle:
  case P::sgt:
  case P::sge:
    sign = Sign::Signed;
    break;
  case P::ult:
  case P::ule:
  case P::ugt:
  case P::uge:
    sign = Sign::Unsigned;
    break;
  default:
    return nullptr;
  }
  std::optional<Interval> range = intervals.get(varying, sign);
  std::optional<Interval> limit = intervals.get(bound, sign);
  if (!range || !limit)
    return nullptr;
  switch (predicate) {
  case P::slt:
  case P::ult:
    return intervals.compare(P::slt, range->hi, limit->lo);
  case P::sle:
  case P::ule:
    return intervals.compare(P::sle, range->hi, limit->lo);
  case P::sgt:
  case P::ugt:
    return intervals.compare(P::sgt, range->lo, limit->hi);
  default:
    return intervals.compare(P::sge, range->lo, limit->hi);
  }
}

/// True if `branch` is inside a serial loop of `loop`'s body. Branches
/// outside serial loops are index-set splitting's: it turns those on the
/// thread index into thread-loop bounds, and a copy of the whole thread
/// loop under a block-level branch would keep respec-fuse-block-rows from
/// running neighbouring blocks together (srad ran 7% slower).
bool isInSerialLoop(scf::IfOp branch, scf::ParallelOp loop) {
  for (Operation *op = branch->getParentOp(); op != loop.getOperation();
       op = op->getParentOp())
    if (isa<scf::ForOp, scf::WhileOp>(op))
      return true;
  return false;
}

/// `scf.if (test) {loop without the branches} else {loop}` for the
/// branches of `loop` whose condition the intervals prove.
void versionThreadLoop(scf::ParallelOp loop) {
  unsigned ops = 0;
  loop.getBody()->walk([&](Operation *) { ++ops; });
  if (ops > kMaxLoopOps)
    return;
  IntervalBuilder intervals(loop);
  SmallVector<scf::IfOp> branches;
  SmallVector<Value> tests;
  loop.getBody()->walk([&](scf::IfOp branch) {
    if (!isInSerialLoop(branch, loop))
      return;
    if (Value test =
            buildAlwaysTrueTest(intervals, loop, branch.getCondition())) {
      branches.push_back(branch);
      tests.push_back(test);
    }
  });
  if (branches.empty()) {
    intervals.eraseUnused();
    return;
  }
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  Value all;
  for (Value test : llvm::concat<const Value>(intervals.getConditions(),
                                              ArrayRef<Value>(tests)))
    all = all ? arith::AndIOp::create(builder, loc, all, test) : test;
  auto version = scf::IfOp::create(builder, loc, all, /*withElseRegion=*/true);
  loop->moveBefore(version.elseBlock()->getTerminator());
  OpBuilder thenBuilder(version.thenBlock()->getTerminator());
  Value taken = arith::ConstantIntOp::create(thenBuilder, loc,
                                             thenBuilder.getI1Type(), 1);
  IRMapping mapping;
  thenBuilder.clone(*loop, mapping);
  for (scf::IfOp branch : branches)
    cast<scf::IfOp>(mapping.lookup(branch.getOperation()))
        .getConditionMutable()
        .assign(taken);
  intervals.eraseUnused();
}

struct VersionBoundsChecksPass
    : public respec::impl::VersionBoundsChecksPassBase<
          VersionBoundsChecksPass> {
  void runOnOperation() override {
    for (scf::ParallelOp loop : collectThreadLoops(getOperation()))
      versionThreadLoop(loop);
  }
};

} // namespace
