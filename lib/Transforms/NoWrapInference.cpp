//===- NoWrapInference.cpp - Overflow flags from integer ranges -----------===//
//
// A forward pass over the ops of a region in order: every integer value gets
// a range (the full range when nothing better is known), loop induction
// variables get their loop's bounds, and integer arithmetic whose operand
// ranges rule out wrap-around gets the matching overflow flag. The flags are
// facts about every execution of the region, so adding them is sound as
// long as the `known` ranges hold whenever the region runs.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/NoWrapInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/Utils/InferIntRangeCommon.h"

using namespace mlir;
using namespace mlir::respec;
using intrange::OverflowFlags;

namespace {

class RangeInference {
public:
  explicit RangeInference(const DenseMap<Value, ConstantIntRanges> &known)
      : ranges(known) {}

  unsigned run(Block &block) {
    for (Operation &top : block)
      top.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto forOp = dyn_cast<scf::ForOp>(op))
        setInductionRange(forOp.getInductionVar(), forOp.getLowerBound(),
                          forOp.getUpperBound());
      else if (auto parallel = dyn_cast<scf::ParallelOp>(op))
        for (auto [iv, lower, upper] :
             llvm::zip(parallel.getInductionVars(), parallel.getLowerBound(),
                       parallel.getUpperBound()))
          setInductionRange(iv, lower, upper);
      else if (op->getNumResults() == 1 && isInteger(op->getResult(0)))
        visit(op);
      });
    return flagged;
  }

private:
  static bool isInteger(Value value) {
    return isa<IntegerType, IndexType>(value.getType());
  }

  ConstantIntRanges get(Value value) const {
    auto found = ranges.find(value);
    if (found != ranges.end())
      return found->second;
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return ConstantIntRanges::constant(constant);
    return ConstantIntRanges::maxRange(
        ConstantIntRanges::getStorageBitwidth(value.getType()));
  }

  /// lower <= iv < upper, for nonnegative bounds (steps are positive).
  void setInductionRange(Value iv, Value lower, Value upper) {
    ConstantIntRanges lo = get(lower), hi = get(upper);
    if (lo.smin().isNegative() || hi.smin().isNegative())
      return;
    APInt last = hi.smax() - 1;
    if (last.slt(lo.smin()))
      last = lo.smin();
    ranges.try_emplace(iv, ConstantIntRanges::fromSigned(lo.smin(), last));
  }

  /// Overflow flags that the ranges of `lhs` and `rhs` prove for `kind`
  /// ('+', '-', '*').
  static OverflowFlags provenFlags(char kind, const ConstantIntRanges &lhs,
                                   const ConstantIntRanges &rhs) {
    auto noOverflow = [&](bool isSigned, const APInt &a, const APInt &b) {
      bool overflow = false;
      switch (kind) {
      case '+':
        (void)(isSigned ? a.sadd_ov(b, overflow) : a.uadd_ov(b, overflow));
        break;
      case '-':
        (void)(isSigned ? a.ssub_ov(b, overflow) : a.usub_ov(b, overflow));
        break;
      default:
        (void)(isSigned ? a.smul_ov(b, overflow) : a.umul_ov(b, overflow));
        break;
      }
      return !overflow;
    };
    OverflowFlags flags = OverflowFlags::None;
    // The extremes of a sum, difference or product of two intervals are
    // among the combinations of their ends.
    bool signedOk = true, unsignedOk = true;
    for (const APInt &a : {lhs.smin(), lhs.smax()})
      for (const APInt &b : {rhs.smin(), rhs.smax()})
        signedOk &= noOverflow(true, a, b);
    for (const APInt &a : {lhs.umin(), lhs.umax()})
      for (const APInt &b : {rhs.umin(), rhs.umax()})
        unsignedOk &= noOverflow(false, a, b);
    if (signedOk)
      flags |= OverflowFlags::Nsw;
    if (unsignedOk)
      flags |= OverflowFlags::Nuw;
    return flags;
  }

  /// Adds `flags` to the overflow flags of `op`.
  void addFlags(Operation *op, OverflowFlags flags) {
    if (flags == OverflowFlags::None)
      return;
    bool nsw = (flags & OverflowFlags::Nsw) == OverflowFlags::Nsw;
    bool nuw = (flags & OverflowFlags::Nuw) == OverflowFlags::Nuw;
    if (auto llvmOp = dyn_cast<LLVM::IntegerOverflowFlagsInterface>(op)) {
      LLVM::IntegerOverflowFlags old = llvmOp.getOverflowFlags(), added = old;
      if (nsw)
        added = added | LLVM::IntegerOverflowFlags::nsw;
      if (nuw)
        added = added | LLVM::IntegerOverflowFlags::nuw;
      if (added != old) {
        llvmOp.setOverflowFlags(added);
        ++flagged;
      }
      return;
    }
    if (auto arithOp = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(op)) {
      arith::IntegerOverflowFlags old = arithOp.getOverflowAttr().getValue(),
                                  added = old;
      if (nsw)
        added = added | arith::IntegerOverflowFlags::nsw;
      if (nuw)
        added = added | arith::IntegerOverflowFlags::nuw;
      if (added != old) {
        op->setAttr(arithOp.getIntegerOverflowAttrName(),
                    arith::IntegerOverflowFlagsAttr::get(op->getContext(),
                                                         added));
        ++flagged;
      }
    }
  }

  /// Flags already on `op`, in the form the range functions take.
  static OverflowFlags existingFlags(Operation *op) {
    OverflowFlags flags = OverflowFlags::None;
    if (auto llvmOp = dyn_cast<LLVM::IntegerOverflowFlagsInterface>(op)) {
      if (llvmOp.hasNoSignedWrap())
        flags |= OverflowFlags::Nsw;
      if (llvmOp.hasNoUnsignedWrap())
        flags |= OverflowFlags::Nuw;
    } else if (auto arithOp =
                   dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(op)) {
      if (arithOp.hasNoSignedWrap())
        flags |= OverflowFlags::Nsw;
      if (arithOp.hasNoUnsignedWrap())
        flags |= OverflowFlags::Nuw;
    }
    return flags;
  }

  std::optional<ConstantIntRanges> infer(Operation *op) {
    Value result = op->getResult(0);
    unsigned width = ConstantIntRanges::getStorageBitwidth(result.getType());
    auto operand = [&](unsigned i) { return get(op->getOperand(i)); };
    if (isa<arith::IndexCastOp, arith::ExtSIOp, LLVM::SExtOp,
            arith::IndexCastUIOp, arith::ExtUIOp, LLVM::ZExtOp,
            arith::TruncIOp, LLVM::TruncOp>(op)) {
      ConstantIntRanges in = operand(0);
      unsigned from = in.smin().getBitWidth();
      if (width < from)
        return intrange::truncRange(in, width);
      if (width == from)
        return in;
      if (isa<arith::IndexCastUIOp, arith::ExtUIOp, LLVM::ZExtOp>(op))
        return intrange::extUIRange(in, width);
      return intrange::extSIRange(in, width);
    }
    char kind = 0;
    if (isa<LLVM::AddOp, arith::AddIOp>(op))
      kind = '+';
    else if (isa<LLVM::SubOp, arith::SubIOp>(op))
      kind = '-';
    else if (isa<LLVM::MulOp, arith::MulIOp>(op))
      kind = '*';
    if (kind) {
      ConstantIntRanges lhs = operand(0), rhs = operand(1);
      addFlags(op, provenFlags(kind, lhs, rhs));
      OverflowFlags flags = existingFlags(op);
      if (kind == '+')
        return intrange::inferAdd({lhs, rhs}, flags);
      if (kind == '-')
        return intrange::inferSub({lhs, rhs}, flags);
      return intrange::inferMul({lhs, rhs}, flags);
    }
    if (isa<LLVM::ShlOp, arith::ShLIOp>(op)) {
      ConstantIntRanges lhs = operand(0), rhs = operand(1);
      // A shift by a constant is a multiplication by a power of two.
      if (std::optional<APInt> amount = rhs.getConstantValue())
        if (amount->ult(width - 1)) {
          APInt factor = APInt::getOneBitSet(width, amount->getZExtValue());
          addFlags(op, provenFlags(
                           '*', lhs, ConstantIntRanges::constant(factor)));
        }
      return intrange::inferShl({lhs, rhs}, existingFlags(op));
    }
    if (isa<LLVM::AndOp, arith::AndIOp>(op))
      return intrange::inferAnd({operand(0), operand(1)});
    if (isa<LLVM::OrOp, arith::OrIOp>(op))
      return intrange::inferOr({operand(0), operand(1)});
    if (isa<LLVM::LShrOp, arith::ShRUIOp>(op))
      return intrange::inferShrU({operand(0), operand(1)});
    if (isa<LLVM::AShrOp, arith::ShRSIOp>(op))
      return intrange::inferShrS({operand(0), operand(1)});
    if (isa<LLVM::UDivOp, arith::DivUIOp>(op))
      return intrange::inferDivU({operand(0), operand(1)});
    if (isa<LLVM::URemOp, arith::RemUIOp>(op))
      return intrange::inferRemU({operand(0), operand(1)});
    if (isa<arith::MinSIOp>(op))
      return intrange::inferMinS({operand(0), operand(1)});
    if (isa<arith::MaxSIOp>(op))
      return intrange::inferMaxS({operand(0), operand(1)});
    if (isa<arith::MinUIOp>(op))
      return intrange::inferMinU({operand(0), operand(1)});
    if (isa<arith::MaxUIOp>(op))
      return intrange::inferMaxU({operand(0), operand(1)});
    if (isa<LLVM::SelectOp, arith::SelectOp>(op))
      return operand(1).rangeUnion(operand(2));
    return std::nullopt;
  }

  void visit(Operation *op) {
    Value result = op->getResult(0);
    if (ranges.count(result))
      return;
    std::optional<ConstantIntRanges> range = infer(op);
    if (range && range->smin().getBitWidth() ==
                     ConstantIntRanges::getStorageBitwidth(result.getType()))
      ranges.try_emplace(result, *range);
  }

  DenseMap<Value, ConstantIntRanges> ranges;
  unsigned flagged = 0;
};

} // namespace

unsigned mlir::respec::inferNoWrapFlags(
    Block &block, const DenseMap<Value, ConstantIntRanges> &known) {
  return RangeInference(known).run(block);
}
