//===- LaneOffsets.cpp - How integer values differ between SIMD lanes -----===//

#include "respec/Target/LaneOffsets.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::respec;

bool LaneOffsets::isUniform() const { return llvm::all_equal(offsets); }

unsigned LaneOffsets::contiguousRun(int64_t elementBytes,
                                    unsigned minRun) const {
  unsigned lanes = offsets.size();
  for (unsigned run = lanes; run >= std::max(minRun, 1u); run /= 2) {
    bool contiguous = true;
    for (unsigned start = 0; start < lanes && contiguous; start += run)
      for (unsigned j = 1; j < run && contiguous; ++j)
        contiguous =
            offsets[start + j] - offsets[start] == int64_t(j) * elementBytes;
    if (contiguous)
      return run;
  }
  return 0;
}

namespace {
unsigned bitWidthOf(Type type) {
  if (isa<IndexType, LLVM::LLVMPointerType>(type))
    return 64;
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth();
  return 0;
}

/// The alignment (log2) of the shared part within `bits` bits, provided
/// that every lane lies in the aligned block that starts there
/// (0 <= offset < 2^alignment): then no lane's value wraps around or
/// carries into the shared part, and divisions, remainders, shifts and
/// masks by constants act on the offsets alone. Nullopt otherwise.
std::optional<unsigned> alignmentWithinBlock(const LaneOffsets &x,
                                             unsigned bits) {
  unsigned alignment = std::min(x.alignLog2, bits);
  for (int64_t offset : x.offsets)
    if (offset < 0 ||
        (alignment < 63 && uint64_t(offset) >= (uint64_t(1) << alignment)))
      return std::nullopt;
  return alignment;
}

/// `x` extended from `from` to more bits: the same offsets when no lane
/// wraps around in the narrow type (and, sign-extended, none crosses the
/// sign boundary).
std::optional<LaneOffsets> extend(const LaneOffsets &x, unsigned from,
                                  bool isSigned) {
  std::optional<unsigned> alignment = alignmentWithinBlock(x, from);
  if (!alignment)
    return std::nullopt;
  if (x.alignLog2 >= LaneOffsets::kZeroBase) {
    // Lane i holds offsets[i] itself: it must be non-negative as signed.
    if (isSigned && llvm::any_of(x.offsets, [&](int64_t offset) {
          return from < 64 && uint64_t(offset) >= (uint64_t(1) << (from - 1));
        }))
      return std::nullopt;
    return x;
  }
  // The aligned block holding every lane lies on one side of the sign
  // boundary unless it is the whole range.
  if (isSigned && *alignment >= from)
    return std::nullopt;
  return LaneOffsets{x.offsets, *alignment};
}

std::optional<int64_t> constantOf(Value value) {
  return getConstantIntValue(value);
}

unsigned trailingZeros(int64_t value) {
  return value == 0 ? LaneOffsets::kZeroBase
                    : llvm::countr_zero(uint64_t(value));
}

unsigned addAlignments(unsigned a, unsigned b) {
  return std::min(a + b, unsigned(LaneOffsets::kZeroBase));
}
} // namespace

std::optional<LaneOffsets> LaneOffsetAnalysis::get(Value value) {
  if (auto it = known.find(value); it != known.end())
    return it->second;
  std::optional<LaneOffsets> result = compute(value);
  known[value] = result;
  return result;
}

std::optional<LaneOffsets> LaneOffsetAnalysis::compute(Value value) {
  if (isUniform(value)) {
    if (std::optional<int64_t> constant = constantOf(value))
      return LaneOffsets::uniform(lanes, trailingZeros(*constant));
    // Its operations may still tell the alignment (`blockIdx.x * 256`).
    if (Operation *def = value.getDefiningOp())
      if (std::optional<LaneOffsets> result = evaluate(def);
          result && result->isUniform())
        return result;
    return LaneOffsets::uniform(lanes);
  }
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  return evaluate(op);
}

std::optional<LaneOffsets> LaneOffsetAnalysis::evaluate(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0 ||
      !isMemoryEffectFree(op))
    return std::nullopt;
  Type type = op->getResult(0).getType();
  unsigned bits = bitWidthOf(type);
  if (bits == 0)
    return std::nullopt;
  if (isa<LLVM::GEPOp>(op))
    return evaluateGEP(op);
  if (isa<LLVM::ZExtOp, LLVM::SExtOp, LLVM::TruncOp, arith::ExtUIOp,
          arith::ExtSIOp, arith::TruncIOp, arith::IndexCastOp,
          arith::IndexCastUIOp>(op)) {
    std::optional<LaneOffsets> source = get(op->getOperand(0));
    unsigned from = bitWidthOf(op->getOperand(0).getType());
    if (!source || from == 0)
      return std::nullopt;
    if (bits <= from)
      return LaneOffsets{source->offsets, std::min(source->alignLog2, bits)};
    return extend(*source, from,
                  isa<LLVM::SExtOp, arith::ExtSIOp, arith::IndexCastOp>(op));
  }
  if (op->getNumOperands() == 2)
    if (std::optional<LaneOffsets> result = evaluateBinary(op, bits))
      return result;
  // Any pure operation of values the lanes share gives a shared value.
  for (Value operand : op->getOperands()) {
    std::optional<LaneOffsets> x = get(operand);
    if (!x || !x->isUniform())
      return std::nullopt;
  }
  return LaneOffsets::uniform(lanes);
}

std::optional<LaneOffsets> LaneOffsetAnalysis::evaluateBinary(Operation *op,
                                                              unsigned bits) {
  std::optional<LaneOffsets> x = get(op->getOperand(0));
  std::optional<LaneOffsets> y = get(op->getOperand(1));
  if (!x || !y)
    return std::nullopt;
  auto combine = [&](auto fn) {
    LaneOffsets result{SmallVector<int64_t>(lanes),
                       std::min(x->alignLog2, y->alignLog2)};
    for (unsigned i = 0; i < lanes; ++i)
      result.offsets[i] = fn(x->offsets[i], y->offsets[i]);
    return result;
  };
  auto isDisjointOr = [&] {
    auto orOp = dyn_cast<LLVM::OrOp>(op);
    return orOp && orOp.getIsDisjoint();
  };
  if (isa<LLVM::AddOp, arith::AddIOp>(op) || isDisjointOr())
    return combine([](int64_t a, int64_t b) { return a + b; });
  if (isa<LLVM::SubOp, arith::SubIOp>(op))
    return combine([](int64_t a, int64_t b) { return a - b; });

  if (isa<LLVM::MulOp, arith::MulIOp>(op)) {
    // By a constant: the offsets scale. Two shared values: a shared value.
    auto scale = [&](const LaneOffsets &z,
                     int64_t factor) -> std::optional<LaneOffsets> {
      LaneOffsets result{z.offsets,
                         addAlignments(z.alignLog2, trailingZeros(factor))};
      for (int64_t &offset : result.offsets)
        if (llvm::MulOverflow(offset, factor, offset))
          return std::nullopt;
      return result;
    };
    if (std::optional<int64_t> c = constantOf(op->getOperand(1)))
      return scale(*x, *c);
    if (std::optional<int64_t> c = constantOf(op->getOperand(0)))
      return scale(*y, *c);
    if (x->isUniform() && y->isUniform()) {
      bool exact = x->offsets[0] == 0 && y->offsets[0] == 0;
      return LaneOffsets::uniform(
          lanes, exact ? addAlignments(x->alignLog2, y->alignLog2) : 0);
    }
    return std::nullopt;
  }

  std::optional<int64_t> c = constantOf(op->getOperand(1));
  if (!c)
    return std::nullopt;
  // The constant as an unsigned value of the operation's width.
  uint64_t constant =
      bits >= 64 ? uint64_t(*c) : uint64_t(*c) & ((uint64_t(1) << bits) - 1);
  if (isa<LLVM::ShlOp, arith::ShLIOp>(op)) {
    if (constant >= bits)
      return std::nullopt;
    LaneOffsets result{x->offsets, addAlignments(x->alignLog2, constant)};
    for (int64_t &offset : result.offsets)
      offset = int64_t(uint64_t(offset) << constant);
    return result;
  }
  // Shifts, divisions and remainders by powers of two, and masks, are
  // exact on the offsets of lanes within one aligned block.
  bool isShift = isa<LLVM::LShrOp, arith::ShRUIOp>(op);
  bool isDivision = isa<LLVM::UDivOp, arith::DivUIOp>(op);
  bool isRemainder = isa<LLVM::URemOp, arith::RemUIOp>(op);
  bool isMask = isa<LLVM::AndOp, arith::AndIOp>(op);
  if (!isShift && !isDivision && !isRemainder && !isMask)
    return std::nullopt;
  std::optional<unsigned> alignment = alignmentWithinBlock(*x, bits);
  if (!alignment)
    return std::nullopt;
  bool zeroBase = x->alignLog2 >= LaneOffsets::kZeroBase;
  if (isDivision || isRemainder) {
    if (!llvm::isPowerOf2_64(constant))
      return std::nullopt;
    unsigned shift = llvm::Log2_64(constant);
    if (isDivision) {
      isShift = true;
      constant = shift;
    } else {
      isMask = true;
      constant = constant - 1;
    }
  }
  if (isShift) {
    if (constant >= bits)
      return std::nullopt;
    LaneOffsets result{
        x->offsets,
        zeroBase
            ? LaneOffsets::kZeroBase
            : (*alignment > constant ? unsigned(*alignment - constant) : 0u)};
    for (int64_t &offset : result.offsets)
      offset = int64_t(uint64_t(offset) >> constant);
    return result;
  }
  // A mask: bits below the block's alignment come from the offsets, the
  // others from the shared part.
  uint64_t low =
      *alignment >= 64 ? ~uint64_t(0) : (uint64_t(1) << *alignment) - 1;
  if ((constant & ~low) == 0) {
    LaneOffsets result{x->offsets, LaneOffsets::kZeroBase};
    for (int64_t &offset : result.offsets)
      offset = int64_t(uint64_t(offset) & constant);
    return result;
  }
  if ((constant & low) == low)
    return LaneOffsets{x->offsets,
                       zeroBase ? LaneOffsets::kZeroBase : *alignment};
  return std::nullopt;
}

std::optional<LaneOffsets> LaneOffsetAnalysis::evaluateGEP(Operation *op) {
  auto gep = cast<LLVM::GEPOp>(op);
  std::optional<LaneOffsets> base = get(gep.getBase());
  if (!base)
    return std::nullopt;
  LaneOffsets result{base->offsets, 0};
  bool known =
      forEachGEPIndexStep(gep, layout, [&](Value index, int64_t bytes) {
        std::optional<LaneOffsets> steps = get(index);
        unsigned from = bitWidthOf(index.getType());
        // The GEP sign-extends narrower indices.
        if (steps && from < 64)
          steps = extend(*steps, from, /*isSigned=*/true);
        if (!steps)
          return false;
        for (unsigned i = 0; i < lanes; ++i) {
          int64_t step;
          if (llvm::MulOverflow(steps->offsets[i], bytes, step) ||
              llvm::AddOverflow(result.offsets[i], step, result.offsets[i]))
            return false;
        }
        return true;
      });
  if (!known)
    return std::nullopt;
  return result;
}
