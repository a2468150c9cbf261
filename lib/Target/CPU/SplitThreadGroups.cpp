//===- SplitThreadGroups.cpp - Threads in groups of a power of two --------===//
//
// CUDA kernels often give each group of C threads one item of work: a
// small matrix per 16 threads, a row per warp. The thread finds its item
// and its place in it by dividing its index:
//
//   int item = (blockIdx.x * blockDim.x + threadIdx.x) / 16;
//   int lane = threadIdx.x % 16;
//   out[item * 256 + r * 16 + lane] = ...;
//
// clang turns the division and remainder by a power of two into shifts and
// masks. On the CPU the threads of a block run as a loop over tx, and
// LLVM's loop vectorizer sees addresses made of `(g + tx) & -16` and
// `tx & 15`, which are not affine in tx: it emits gathers or leaves the
// loop scalar, although consecutive threads of a group touch consecutive
// elements. (A batched 16x16 matrix addition ran 1.5x slower than the same
// kernel written with 2-D blocks of 16 x 16 threads.)
//
// This pass runs such a thread loop as two: tx = C * q + l, with l in
// [0, C) innermost. In the loop body, for g the same for all threads and a
// multiple of C (`blockIdx.x * blockDim.x` with a constant block size),
//   (g + tx) & (C - 1)  is  l
//   (g + tx) >> k       is  (g + C * q) >> k          (C = 2^k)
//   (g + tx) & -C       is  g + C * q
// exactly, also where g + tx wraps around: g + C * q is a multiple of C
// modulo 2^N and adding l < C carries nothing past it. Division and
// remainder by C (unsigned) are the shift and the mask. What depends on q
// only is then the same for the C iterations of the inner loop, and the
// addresses are affine in l: LLVM vectorizes the inner loop.
//
// Running the threads in another order is correct: the thread loops are
// final here (no barriers left), and CUDA does not order the threads of a
// block between barriers. The inner loop covers each group of C threads
// and the outer one all groups, so every thread runs once.
//
// When it applies: thread loops from 0 with step 1 and a constant x extent,
// whose body takes the x index (cast to an integer) through one of the
// patterns above for a C of at least `min-group` threads that divides the
// extent; the largest such C is used.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::respec {
#define GEN_PASS_DEF_SPLITTHREADGROUPSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// How a use of the thread's x index reads its group (C = 2^shift).
enum class GroupRead {
  Lane,  ///< v & (C - 1), v urem C: the place in the group, l
  Group, ///< v >> shift, v udiv C: (g + C * q) >> shift
  Base,  ///< v & -C: g + C * q
};

/// One rewritable use: `op` reads `v = g + x` (g may be absent) as `kind`.
struct GroupUse {
  Operation *op;
  GroupRead kind;
  unsigned shift;
  Value base; ///< g, or null for v = x
};

std::optional<APInt> constantInt(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant;
  return std::nullopt;
}

/// True if `value`, an integer, is a multiple of 2^shift: a constant, a
/// product or shift with such a factor, a sum of such values, a mask that
/// clears the low bits, or a cast of one (a truncation keeps it while the
/// narrow type has more than `shift` bits).
bool isMultipleOfPowerOfTwo(Value value, unsigned shift, unsigned depth = 0) {
  if (depth > 8)
    return false;
  if (std::optional<APInt> constant = constantInt(value))
    return constant->isZero() || constant->countr_zero() >= shift;
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  auto multiple = [&](Value operand) {
    return isMultipleOfPowerOfTwo(operand, shift, depth + 1);
  };
  if (isa<LLVM::MulOp, arith::MulIOp>(def))
    return multiple(def->getOperand(0)) || multiple(def->getOperand(1));
  if (isa<LLVM::AddOp, LLVM::SubOp, arith::AddIOp, arith::SubIOp>(def))
    return multiple(def->getOperand(0)) && multiple(def->getOperand(1));
  if (isa<LLVM::AndOp, arith::AndIOp>(def))
    return multiple(def->getOperand(0)) || multiple(def->getOperand(1));
  if (isa<LLVM::ShlOp, arith::ShLIOp>(def)) {
    if (multiple(def->getOperand(0)))
      return true;
    std::optional<APInt> amount = constantInt(def->getOperand(1));
    return amount && amount->getZExtValue() >= shift;
  }
  if (isa<LLVM::ZExtOp, LLVM::SExtOp, arith::ExtUIOp, arith::ExtSIOp,
          arith::IndexCastOp, arith::IndexCastUIOp, LLVM::FreezeOp>(def))
    return multiple(def->getOperand(0));
  if (isa<LLVM::TruncOp, arith::TruncIOp>(def)) {
    auto type = dyn_cast<IntegerType>(value.getType());
    return type && type.getWidth() > shift && multiple(def->getOperand(0));
  }
  return false;
}

/// The thread loop's x index as the integers the body computes with.
bool isIntegerOfX(Value value, Value x) {
  auto cast = value.getDefiningOp();
  return cast && isa<arith::IndexCastOp, arith::IndexCastUIOp>(cast) &&
         cast->getOperand(0) == x && isa<IntegerType>(value.getType());
}

/// True if `value`, read as signed, is never negative: non-negative
/// constants, zero extensions, a grid index or the thread loop's x index
/// (below `extent`) in at least 32 bits, and sums, products and left shifts
/// of such values without signed wrap. Signed division and remainder by C
/// are then the unsigned ones (`int tid = ...; tid / 32`).
bool isKnownNonNegative(Value value, Value x, int64_t extent,
                        unsigned depth = 0) {
  if (std::optional<APInt> constant = constantInt(value))
    return constant->isNonNegative();
  if (depth > 16)
    return false;
  unsigned width = 64;
  if (auto type = dyn_cast<IntegerType>(value.getType()))
    width = type.getWidth();
  if (value == x)
    return true;
  if (auto argument = dyn_cast<BlockArgument>(value))
    return isGridLoop(argument.getOwner()->getParentOp()) && width >= 32;
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  auto nonNegative = [&](Value operand) {
    return isKnownNonNegative(operand, x, extent, depth + 1);
  };
  if (isa<LLVM::ZExtOp, arith::ExtUIOp>(def))
    return true;
  if (isa<arith::IndexCastUIOp, arith::IndexCastOp, LLVM::FreezeOp,
          LLVM::SExtOp, arith::ExtSIOp>(def)) {
    Value operand = def->getOperand(0);
    // The x index is below the extent; grid indices are below 2^31.
    if (operand == x)
      return width >= 64 || extent <= (int64_t(1) << (width - 1));
    if (isa<IndexType>(operand.getType()) || width >= 32)
      return width >= 32 && nonNegative(operand);
    return false;
  }
  if (isa<LLVM::AddOp, LLVM::MulOp, LLVM::ShlOp, arith::AddIOp, arith::MulIOp,
          arith::ShLIOp>(def) &&
      hasNoWrapFlag(def, /*isSigned=*/true))
    return llvm::all_of(def->getOperands(), nonNegative);
  return false;
}

/// True if `value` is defined outside `loop` (the same for all threads).
bool isDefinedOutside(Value value, scf::ParallelOp loop) {
  return !loop.getRegion().isAncestor(value.getParentRegion());
}

/// Matches `v` as x or g + x, g the same for all threads.
bool matchGroupOperand(Value v, Value x, scf::ParallelOp loop, Value &base) {
  if (isIntegerOfX(v, x)) {
    base = nullptr;
    return true;
  }
  Operation *add = v.getDefiningOp();
  if (!add || !isa<LLVM::AddOp, arith::AddIOp>(add))
    return false;
  for (unsigned i = 0; i < 2; ++i) {
    Value other = add->getOperand(1 - i);
    if (isIntegerOfX(add->getOperand(i), x) && isDefinedOutside(other, loop)) {
      base = other;
      return true;
    }
  }
  return false;
}

/// The group read `op` makes of the x index, if any.
std::optional<GroupUse> matchGroupUse(Operation *op, Value x,
                                      scf::ParallelOp loop, int64_t extent) {
  if (op->getNumOperands() != 2 || op->getNumResults() != 1)
    return std::nullopt;
  std::optional<APInt> constant = constantInt(op->getOperand(1));
  Value base;
  if (!constant || !matchGroupOperand(op->getOperand(0), x, loop, base))
    return std::nullopt;
  unsigned width = constant->getBitWidth();
  auto use = [&](GroupRead kind, unsigned shift) -> std::optional<GroupUse> {
    if (shift == 0 || shift >= width ||
        (base && !isMultipleOfPowerOfTwo(base, shift)))
      return std::nullopt;
    return GroupUse{op, kind, shift, base};
  };
  if (isa<LLVM::AndOp, arith::AndIOp>(op)) {
    // C - 1 (low bits set) or -C (high bits set).
    APInt mask = *constant;
    if ((mask + 1).isPowerOf2())
      return use(GroupRead::Lane, (mask + 1).logBase2());
    if ((-mask).isPowerOf2())
      return use(GroupRead::Base, (-mask).logBase2());
    return std::nullopt;
  }
  if (isa<LLVM::URemOp, arith::RemUIOp>(op) && constant->isPowerOf2())
    return use(GroupRead::Lane, constant->logBase2());
  if (isa<LLVM::UDivOp, arith::DivUIOp>(op) && constant->isPowerOf2())
    return use(GroupRead::Group, constant->logBase2());
  bool nonNegative =
      isa<LLVM::SDivOp, LLVM::SRemOp, arith::DivSIOp, arith::RemSIOp>(op) &&
      constant->isStrictlyPositive() && constant->isPowerOf2() &&
      isKnownNonNegative(op->getOperand(0), x, extent);
  if (nonNegative && isa<LLVM::SDivOp, arith::DivSIOp>(op))
    return use(GroupRead::Group, constant->logBase2());
  if (nonNegative && isa<LLVM::SRemOp, arith::RemSIOp>(op))
    return use(GroupRead::Lane, constant->logBase2());
  if (isa<LLVM::LShrOp, arith::ShRUIOp>(op) &&
      constant->ult(APInt(width, width)))
    return use(GroupRead::Group, unsigned(constant->getZExtValue()));
  return std::nullopt;
}

class ThreadGroupSplitter {
public:
  ThreadGroupSplitter(scf::ParallelOp loop, int64_t minGroup)
      : loop(loop), minGroup(minGroup) {}

  /// Splits the loop if a group size applies; returns true if it did.
  bool run() {
    unsigned dims = loop.getNumLoops();
    if (dims == 0 || loop.getNumReductions() != 0)
      return false;
    std::optional<int64_t> lower =
        getConstantThroughCasts(loop.getLowerBound()[dims - 1]);
    std::optional<int64_t> upper =
        getConstantThroughCasts(loop.getUpperBound()[dims - 1]);
    std::optional<int64_t> step =
        getConstantThroughCasts(loop.getStep()[dims - 1]);
    if (!lower || !upper || !step || *lower != 0 || *step != 1 || *upper < 2)
      return false;
    Value x = loop.getInductionVars()[dims - 1];
    SmallVector<GroupUse> uses;
    loop.getBody()->walk([&](Operation *op) {
      if (std::optional<GroupUse> use = matchGroupUse(op, x, loop, *upper))
        uses.push_back(*use);
    });
    // The largest group that divides the extent.
    unsigned shift = 0;
    for (const GroupUse &use : uses) {
      int64_t size = int64_t(1) << use.shift;
      if (use.shift < 62 && size >= minGroup && *upper % size == 0)
        shift = std::max(shift, use.shift);
    }
    if (shift == 0)
      return false;
    split(*upper, shift, uses);
    return true;
  }

private:
  void split(int64_t extent, unsigned shift, ArrayRef<GroupUse> uses);
  Value groupBase(OpBuilder &b, const GroupUse &use, Value q, unsigned shift);

  scf::ParallelOp loop;
  int64_t minGroup;
};

/// g + C * q in the type of `use`'s operation (C * q alone without g).
Value ThreadGroupSplitter::groupBase(OpBuilder &b, const GroupUse &use, Value q,
                                     unsigned shift) {
  Location loc = use.op->getLoc();
  Type type = use.op->getResult(0).getType();
  Value first = arith::IndexCastUIOp::create(b, loc, type, q);
  Value amount =
      arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, shift));
  first = arith::ShLIOp::create(b, loc, first, amount);
  if (use.base)
    first = arith::AddIOp::create(b, loc, use.base, first);
  return first;
}

void ThreadGroupSplitter::split(int64_t extent, unsigned shift,
                                ArrayRef<GroupUse> uses) {
  int64_t size = int64_t(1) << shift;
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  unsigned dims = loop.getNumLoops();
  SmallVector<Value> lowers(loop.getLowerBound());
  SmallVector<Value> uppers(loop.getUpperBound());
  SmallVector<Value> steps(loop.getStep());
  Value one = steps[dims - 1];
  uppers[dims - 1] = arith::ConstantIndexOp::create(b, loc, extent / size);
  lowers.push_back(lowers[dims - 1]);
  uppers.push_back(arith::ConstantIndexOp::create(b, loc, size));
  steps.push_back(one);
  auto split = scf::ParallelOp::create(b, loc, lowers, uppers, steps);
  split->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  // The new loop's body is the old one, with l appended to its arguments.
  Block *body = loop.getBody();
  Block *newBody = split.getBody();
  newBody->getTerminator()->erase();
  newBody->getOperations().splice(newBody->end(), body->getOperations());
  Value q = split.getInductionVars()[dims - 1];
  Value l = split.getInductionVars()[dims];
  for (unsigned i = 0; i < dims; ++i)
    if (i != dims - 1)
      body->getArgument(i).replaceAllUsesWith(split.getInductionVars()[i]);
  // x = C * q + l for the uses the patterns do not cover.
  b.setInsertionPointToStart(newBody);
  Value groupSize = arith::ConstantIndexOp::create(b, loc, size);
  Value x = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, q, groupSize), l);
  body->getArgument(dims - 1).replaceAllUsesWith(x);
  for (const GroupUse &use : uses) {
    if (use.shift != shift && use.kind != GroupRead::Lane)
      continue;
    b.setInsertionPoint(use.op);
    Location useLoc = use.op->getLoc();
    Type type = use.op->getResult(0).getType();
    Value replacement;
    switch (use.kind) {
    case GroupRead::Lane: {
      // A mask narrower than the group keeps the low bits of l.
      if (use.shift > shift)
        continue;
      replacement = arith::IndexCastUIOp::create(b, useLoc, type, l);
      if (use.shift < shift) {
        Value mask = arith::ConstantOp::create(
            b, useLoc, type,
            b.getIntegerAttr(type, (int64_t(1) << use.shift) - 1));
        replacement = arith::AndIOp::create(b, useLoc, replacement, mask);
      }
      break;
    }
    case GroupRead::Group: {
      Value amount = arith::ConstantOp::create(b, useLoc, type,
                                               b.getIntegerAttr(type, shift));
      replacement = arith::ShRUIOp::create(b, useLoc,
                                           groupBase(b, use, q, shift), amount);
      break;
    }
    case GroupRead::Base:
      replacement = groupBase(b, use, q, shift);
      break;
    }
    use.op->getResult(0).replaceAllUsesWith(replacement);
    use.op->erase();
  }
  loop.erase();
}

struct SplitThreadGroupsPass
    : public respec::impl::SplitThreadGroupsPassBase<SplitThreadGroupsPass> {
  using SplitThreadGroupsPassBase::SplitThreadGroupsPassBase;
  void runOnOperation() override {
    for (scf::ParallelOp loop : collectThreadLoops(getOperation()))
      ThreadGroupSplitter(loop, minGroup).run();
  }
};

} // namespace
