//===- UniformizeStridedLoops.cpp - Thread-strided loops, shared counter --===//
//
// The commonest loop of CUDA kernels walks an array with a stride of the
// block (or grid) size, starting at the thread's own index:
//
//   for (int i = threadIdx.x; i < n; i += blockDim.x) acc += a[i] * b[i];
//
// Each thread runs its own number of iterations, so the loop's control is
// divergent: on the CPU, the thread vectorizer runs it as a masked loop
// per vector of threads, one accumulator chain per vector, and the loop
// interchange (which wants all threads to run the same iterations) leaves
// it alone. Yet the k-th iterations of all threads touch consecutive
// elements. This pass rewrites such a loop around a counter all threads
// share: with i = j + d, d >= 0 the part of the start that differs between
// threads and j starting at the part they share,
//
//   for (j = a; ; j += s) {
//     if (j + d < n) body(j + d);       // the thread's iteration k
//     if (!(j + s < n)) break;          // no thread has an iteration k+1
//   }
//
// Thread t's k-th iteration runs in the k-th iteration of the new loop, in
// the same order, and no other iteration of t does: its iterations run
// while i < n, and as i grows by s > 0 the guard stays false once false.
// The loop itself runs while j + s < n, which holds whenever some thread
// (d >= 0) still has an iteration to run. Values the thread carries stay
// as they were after its last iteration, where it would have left the
// loop. Between barriers CUDA does not order the threads of a block, so
// running their iterations side by side is correct for every race-free
// program, as the interchange's barrier argument says.
//
// The loop must be in the rotated form the CFG lifting produces (the whole
// body in the before region, the after region only forwarding; see
// respec-simplify-loop-exits). The new loop computes in 64 bits, where its
// sums must not wrap and must equal the old loop's:
//   - a 64-bit counter (clang widens `int` counters used as addresses when
//     their arithmetic cannot wrap) needs a step known positive, and step,
//     offset and shared part known to stay below 2^60; a bound not known
//     to is tested at run time;
//   - a 32-bit counter (`i += blockDim.x * gridDim.x` in unsigned
//     arithmetic, which may wrap) is widened, and a test at run time
//     checks that the step is positive and that no value the old loop
//     computes leaves the 32-bit range.
// Where a test fails, a copy of the old loop runs instead. The first
// iteration runs unguarded unless an enclosing branch already requires
// `start < n` (the guard clang puts in front of a rotated loop); the loop
// then leaves that branch where the code before it can run for every
// thread.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"
#include "respec/Transforms/ThreadUniformity.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::respec {
#define GEN_PASS_DEF_UNIFORMIZESTRIDEDLOOPSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// Magnitudes of the counter, bound, step and offset stay below 2^kMaxBits,
/// so that sums of a few of them cannot overflow 64 bits.
constexpr unsigned kMaxBits = 60;

/// Bits of the per-thread offset of a 32-bit counter (a thread index, or
/// a multiple of it), which the run-time test adds to the shared part.
constexpr unsigned kMaxNarrowOffsetBits = 30;

//===----------------------------------------------------------------------===//
// Integer facts
//===----------------------------------------------------------------------===//

bool hasNoSignedWrap(Operation *op) { return hasNoWrapFlag(op, true); }

bool hasNoUnsignedWrap(Operation *op) { return hasNoWrapFlag(op, false); }

/// Bits of an integer or index type (index: 64, the CPU's).
unsigned bitWidth(Type type) {
  return type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
}

/// The operand of an extension or index cast to an integer at least as
/// wide, with whether the sign of the result is the operand's (sext, extsi,
/// index_cast, and casts between index and 64-bit integers, which keep the
/// value) or zero (zext, extui, index_castui to a wider type).
std::optional<std::pair<Value, bool>> extensionSource(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || !isa<LLVM::ZExtOp, LLVM::SExtOp, arith::ExtSIOp, arith::ExtUIOp,
                   arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return std::nullopt;
  Value source = def->getOperand(0);
  unsigned from = bitWidth(source.getType()), to = bitWidth(value.getType());
  if (from > to)
    return std::nullopt;
  bool keepsSign =
      from == to || isa<LLVM::SExtOp, arith::ExtSIOp, arith::IndexCastOp>(def);
  return std::make_pair(source, keepsSign);
}

/// What is known about the integers of one thread loop's body: signs,
/// magnitudes, launch extents.
class IntegerFacts {
public:
  explicit IntegerFacts(scf::ParallelOp threadLoop) : threadLoop(threadLoop) {}

  /// The operand of a truncation or narrowing index cast that keeps the
  /// value (the operand's magnitude fits the narrower type).
  std::optional<Value> exactTruncationSource(Value value,
                                             unsigned depth) const {
    Operation *def = value.getDefiningOp();
    if (!def || !isa<LLVM::TruncOp, arith::TruncIOp, arith::IndexCastOp,
                     arith::IndexCastUIOp>(def))
      return std::nullopt;
    Value source = def->getOperand(0);
    if (bitWidth(source.getType()) <= bitWidth(value.getType()))
      return std::nullopt;
    if (magnitudeBits(source, depth + 1) >= bitWidth(value.getType()))
      return std::nullopt;
    return source;
  }

  /// An upper bound on the bits of |value| (64 if unknown).
  unsigned magnitudeBits(Value value, unsigned depth = 0) const {
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return constant.isNegative() ? constant.getSignificantBits()
                                   : constant.getActiveBits();
    if (std::optional<unsigned> bits = launchExtentBits(value))
      return *bits;
    if (depth > kMaxDepth)
      return 64;
    if (auto source = extensionSource(value))
      return std::min(bitWidth(source->first.getType()),
                      magnitudeBits(source->first, depth + 1));
    if (std::optional<Value> source = exactTruncationSource(value, depth))
      return magnitudeBits(*source, depth + 1);
    Operation *def = value.getDefiningOp();
    if (!def || def->getNumOperands() != 2)
      return 64;
    unsigned lhs = magnitudeBits(def->getOperand(0), depth + 1);
    unsigned rhs = magnitudeBits(def->getOperand(1), depth + 1);
    if (isa<LLVM::AddOp, arith::AddIOp, LLVM::SubOp, arith::SubIOp>(def))
      return std::min(64u, std::max(lhs, rhs) + 1);
    if (isa<LLVM::MulOp, arith::MulIOp>(def))
      return std::min(64u, lhs + rhs);
    return 64;
  }

  /// True if `value` is known to be at least zero as a signed integer.
  bool isNonNegative(Value value, unsigned depth = 0) const {
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return !constant.isNegative();
    if (launchExtentBits(value))
      return true;
    if (depth > kMaxDepth)
      return false;
    if (auto source = extensionSource(value))
      return !source->second || isNonNegative(source->first, depth + 1);
    if (std::optional<Value> source = exactTruncationSource(value, depth))
      return isNonNegative(*source, depth + 1);
    Operation *def = value.getDefiningOp();
    if (!def)
      return false;
    auto both = [&] {
      return isNonNegative(def->getOperand(0), depth + 1) &&
             isNonNegative(def->getOperand(1), depth + 1);
    };
    if (isa<LLVM::AddOp, arith::AddIOp, LLVM::MulOp, arith::MulIOp>(def))
      return hasNoSignedWrap(def) && both();
    if (isa<LLVM::AndOp, arith::AndIOp>(def))
      return isNonNegative(def->getOperand(0), depth + 1) ||
             isNonNegative(def->getOperand(1), depth + 1);
    return false;
  }

  /// True if `value` is known to be positive: a positive constant, a launch
  /// extent (the bound of a thread or grid loop that runs, so at least one),
  /// or a product of such values without overflow.
  bool isPositive(Value value, unsigned depth = 0) const {
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return constant.isStrictlyPositive();
    if (isLaunchExtent(value))
      return true;
    if (depth > kMaxDepth)
      return false;
    if (auto source = extensionSource(value))
      return isPositive(source->first, depth + 1);
    Operation *def = value.getDefiningOp();
    if (def && isa<LLVM::MulOp, arith::MulIOp>(def) &&
        (hasNoSignedWrap(def) ||
         magnitudeBits(def->getOperand(0)) + magnitudeBits(def->getOperand(1)) <
             bitWidth(value.getType())))
      return isPositive(def->getOperand(0), depth + 1) &&
             isPositive(def->getOperand(1), depth + 1);
    return false;
  }

private:
  static constexpr unsigned kMaxDepth = 6;

  /// True if `value` is a block or grid extent of the launch: the upper
  /// bound of an enclosing thread or grid loop from 0, or what it was cast
  /// from. Inside the loop's body it is at least one.
  bool isLaunchExtent(Value value) const {
    return launchExtentBits(value, /*indicesToo=*/false).has_value();
  }

  /// Bits of a launch extent (block extents are at most 1024, grid extents
  /// below 2^31: the runtime refuses other launches) or, with `indicesToo`,
  /// of a thread or block index, which are below them.
  std::optional<unsigned> launchExtentBits(Value value,
                                           bool indicesToo = true) const {
    for (Operation *op = threadLoop; op; op = op->getParentOp()) {
      auto loop = dyn_cast<scf::ParallelOp>(op);
      if (!loop || !(isThreadLoop(loop) || isGridLoop(loop)))
        continue;
      unsigned bits = isThreadLoop(loop) ? 11 : 31;
      if (indicesToo && llvm::is_contained(loop.getInductionVars(), value))
        return bits;
      for (auto [lower, upper] :
           llvm::zip(loop.getLowerBound(), loop.getUpperBound())) {
        std::optional<int64_t> start = getConstantIntValue(lower);
        if (!start || *start != 0)
          continue;
        std::optional<std::pair<Value, bool>> source = extensionSource(upper);
        if (upper == value || (source && source->first == value))
          return bits;
      }
    }
    return std::nullopt;
  }

  scf::ParallelOp threadLoop;
};

//===----------------------------------------------------------------------===//
// Recognizing the loop
//===----------------------------------------------------------------------===//

/// The comparisons a counter that only grows leaves once and for all.
enum class ExitTest { SLT, SLE, ULT, ULE };

bool isSigned(ExitTest test) {
  return test == ExitTest::SLT || test == ExitTest::SLE;
}

arith::CmpIPredicate toArith(ExitTest test) {
  switch (test) {
  case ExitTest::SLT:
    return arith::CmpIPredicate::slt;
  case ExitTest::SLE:
    return arith::CmpIPredicate::sle;
  case ExitTest::ULT:
    return arith::CmpIPredicate::ult;
  case ExitTest::ULE:
    return arith::CmpIPredicate::ule;
  }
  llvm_unreachable("unknown exit test");
}

/// `condition` (negated if `negate`) as `counter TEST bound`, if it is one
/// of the exit tests.
std::optional<ExitTest> asExitTest(Value condition, Value counter, Value &bound,
                                   bool negate = false) {
  std::optional<IntComparison> cmp = matchIntComparison(condition);
  if (!cmp)
    return std::nullopt;
  arith::CmpIPredicate predicate =
      negate ? arith::invertPredicate(cmp->predicate) : cmp->predicate;
  if (cmp->rhs == counter && cmp->lhs != counter) {
    predicate = swapOperandsOf(predicate);
    bound = cmp->lhs;
  } else if (cmp->lhs == counter) {
    bound = cmp->rhs;
  } else {
    return std::nullopt;
  }
  switch (predicate) {
  case arith::CmpIPredicate::slt:
    return ExitTest::SLT;
  case arith::CmpIPredicate::sle:
    return ExitTest::SLE;
  case arith::CmpIPredicate::ult:
    return ExitTest::ULT;
  case arith::CmpIPredicate::ule:
    return ExitTest::ULE;
  default:
    return std::nullopt;
  }
}

/// How the parts of a start were extended to the counter's type.
enum class PartsExtension { None, Sign, Zero };

/// A thread-strided loop: carried position `position` counts from
/// The most by which `value` differs between two threads of `threadLoop`:
/// values computed outside it differ by nothing, a thread index of
/// constant extent by the extent less one; followed through casts, sums,
/// differences and products by constants. nullopt for anything else.
std::optional<int64_t> threadSpread(Value value, scf::ParallelOp threadLoop,
                                    unsigned depth = 0) {
  if (isDefinedOutside(value, threadLoop) ||
      value.getDefiningOp<arith::ConstantOp>() ||
      value.getDefiningOp<LLVM::ConstantOp>())
    return 0;
  for (auto [iv, lower, upper] :
       llvm::zip(threadLoop.getInductionVars(), threadLoop.getLowerBound(),
                 threadLoop.getUpperBound()))
    if (value == iv) {
      std::optional<int64_t> first = getConstantThroughCasts(lower);
      std::optional<int64_t> end = getConstantThroughCasts(upper);
      if (first && end && *end > *first)
        return *end - *first - 1;
      return std::nullopt;
    }
  Operation *def = value.getDefiningOp();
  if (!def || depth > 8)
    return std::nullopt;
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, LLVM::SExtOp, LLVM::ZExtOp>(def))
    return threadSpread(def->getOperand(0), threadLoop, depth + 1);
  bool isSum =
      isa<LLVM::AddOp, arith::AddIOp, LLVM::SubOp, arith::SubIOp>(def) ||
      isDisjointOr(def);
  bool isProduct = isa<LLVM::MulOp, arith::MulIOp>(def);
  if (!isSum && !isProduct)
    return std::nullopt;
  std::optional<int64_t> a =
      threadSpread(def->getOperand(0), threadLoop, depth + 1);
  std::optional<int64_t> b =
      threadSpread(def->getOperand(1), threadLoop, depth + 1);
  if (!a || !b || *a > (1 << 20) || *b > (1 << 20))
    return std::nullopt;
  if (isSum)
    return *a + *b;
  // A product spreads only by a constant factor of a spreading operand.
  for (unsigned side = 0; side < 2; ++side)
    if ((side == 0 ? *b : *a) == 0)
      if (std::optional<int64_t> k =
              getConstantThroughCasts(def->getOperand(1 - side)))
        if (*k >= -(1 << 20) && *k <= (1 << 20))
          return (side == 0 ? *a : *b) * std::abs(*k);
  return *a == 0 && *b == 0 ? std::optional<int64_t>(0) : std::nullopt;
}

/// True if the threads' trip counts differ by more than two rounds: a
/// constant step less than half the offsets' spread over the threads (`for
/// (j = tid + 1; j < n; ++j)`, a triangular loop, rather than `for (i =
/// tid; i < n; i += blockDim.x)`). The shared counter would run the longest
/// thread's iterations with the others guarded off, and the loop
/// interchange would then keep every thread's state in memory around a
/// predicated body (a correlation kernel's `for (j2 = j1 + 1; j2 < m;
/// ++j2)` ran 25x slower than as the thread vectorizer's masked loop).
bool hasRaggedTripCounts(Value step, Value offset, scf::ParallelOp threadLoop) {
  std::optional<int64_t> constant = getConstantThroughCasts(step);
  std::optional<int64_t> spread = threadSpread(offset, threadLoop);
  return constant && spread && *constant > 0 && *spread / *constant > 2;
}

/// `shared + offset` by `step` while `counter TEST bound`.
struct StridedLoop {
  scf::WhileOp loop;
  unsigned position;
  Value shared; // null: zero
  Value offset;
  Value step;
  Value bound;
  ExitTest test;
  /// The branch that requires `start TEST bound` around the loop, if any.
  scf::IfOp entryGuard;
  /// A 32-bit counter: the new loop counts in 64 bits, and runs where a
  /// test at run time shows that the old loop's arithmetic never wraps.
  bool narrow = false;
  /// A 64-bit bound of unknown magnitude: the new loop runs where it is
  /// below 2^kMaxBits.
  bool checkBound = false;

  /// How `shared` and `offset`, of a narrower type, extend to the
  /// counter's (64-bit counters only).
  PartsExtension extension = PartsExtension::None;

  bool needsRuntimeTest() const { return narrow || checkBound; }
};

/// `start` as a part all threads share plus a non-negative part that
/// differs between them (`shared` null for zero), possibly both of a
/// narrower type that `extension` widens: an extension of a sum that does
/// not wrap is the sum of the extended parts (`zext(u + t)` with nuw,
/// `sext(u + t)` with nsw; `zext nneg` of a sum with nsw is its `sext`).
bool splitStart(Value start, const ThreadUniformity &uniformity,
                const IntegerFacts &facts, Value &shared, Value &offset,
                PartsExtension &extension) {
  extension = PartsExtension::None;
  Value sum = start;
  Operation *def = start.getDefiningOp();
  if (def &&
      isa<LLVM::ZExtOp, LLVM::SExtOp, arith::ExtUIOp, arith::ExtSIOp>(def)) {
    Operation *add = def->getOperand(0).getDefiningOp();
    bool signExtends = isa<LLVM::SExtOp, arith::ExtSIOp>(def);
    if (auto zext = dyn_cast<LLVM::ZExtOp>(def); zext && zext.getNonNeg())
      signExtends = true;
    if (add && isa<LLVM::AddOp, arith::AddIOp>(add) &&
        (signExtends ? hasNoSignedWrap(add) : hasNoUnsignedWrap(add))) {
      sum = def->getOperand(0);
      extension = signExtends ? PartsExtension::Sign : PartsExtension::Zero;
    }
  }
  Operation *add = sum.getDefiningOp();
  if (add && isa<LLVM::AddOp, arith::AddIOp>(add)) {
    for (unsigned side = 0; side < 2; ++side) {
      Value uniformPart = add->getOperand(side);
      Value threadPart = add->getOperand(1 - side);
      if (uniformity.isUniform(uniformPart) &&
          !uniformity.isUniform(threadPart) &&
          (extension == PartsExtension::Zero ||
           facts.isNonNegative(threadPart))) {
        shared = uniformPart;
        offset = threadPart;
        return true;
      }
    }
  }
  extension = PartsExtension::None;
  if (!facts.isNonNegative(start))
    return false;
  shared = Value();
  offset = start;
  return true;
}

bool isStrict(ExitTest test) {
  return test == ExitTest::SLT || test == ExitTest::ULT;
}

/// A value seen through its extensions and casts: the value cast, and
/// which orders of it the casts keep (sign extensions keep both, zero
/// extensions the unsigned one, and both for values known non-negative).
struct CastChain {
  Value base;
  bool keepsSigned = true;
  bool nonNegative = false;

  bool keeps(bool signedOrder) const { return !signedOrder || keepsSigned; }
};

CastChain stripCasts(Value value, const IntegerFacts &facts) {
  CastChain chain{value};
  while (auto source = extensionSource(chain.base)) {
    if (auto zext = chain.base.getDefiningOp<LLVM::ZExtOp>();
        zext && zext.getNonNeg())
      chain.nonNegative = true;
    else if (!source->second)
      chain.keepsSigned = false;
    chain.base = source->first;
  }
  if (chain.nonNegative || facts.isNonNegative(chain.base)) {
    chain.nonNegative = true;
    chain.keepsSigned = true;
  }
  return chain;
}

/// True if `a` and `b` are the same value or the same side-effect-free
/// computation of the same operands (lifting leaves such copies in the two
/// sides of a branch).
bool isSameComputation(Value a, Value b) {
  if (a == b)
    return true;
  auto ra = dyn_cast<OpResult>(a), rb = dyn_cast<OpResult>(b);
  return ra && rb && ra.getResultNumber() == rb.getResultNumber() &&
         isPure(ra.getOwner()) &&
         OperationEquivalence::isEquivalentTo(
             ra.getOwner(), rb.getOwner(),
             OperationEquivalence::IgnoreLocations);
}

/// True if `guard` on (guardStart, guardBound) implies `test` on (start,
/// bound): the same comparison of the same values, up to casts that keep
/// the orders compared.
bool impliesEntry(ExitTest guard, Value guardStart, Value guardBound,
                  ExitTest test, Value start, Value bound,
                  const IntegerFacts &facts) {
  if (isStrict(guard) != isStrict(test))
    return false;
  CastChain loopStart = stripCasts(start, facts);
  CastChain loopBound = stripCasts(bound, facts);
  CastChain branchStart = stripCasts(guardStart, facts);
  CastChain branchBound = stripCasts(guardBound, facts);
  if (!isSameComputation(loopStart.base, branchStart.base) ||
      !isSameComputation(loopBound.base, branchBound.base))
    return false;
  bool nonNegative = (loopStart.nonNegative || branchStart.nonNegative) &&
                     (loopBound.nonNegative || branchBound.nonNegative);
  bool sameOrder = isSigned(guard) == isSigned(test) || nonNegative;
  return sameOrder && loopStart.keeps(isSigned(test)) &&
         loopBound.keeps(isSigned(test)) &&
         branchStart.keeps(isSigned(guard)) &&
         branchBound.keeps(isSigned(guard));
}

/// The branch, if any, under which `loop` only runs if `start TEST bound`:
/// its first iteration then belongs to every thread that reaches it.
scf::IfOp findEntryGuard(scf::WhileOp loop, scf::ParallelOp threadLoop,
                         Value start, Value bound, ExitTest test,
                         const IntegerFacts &facts) {
  for (Operation *op = loop; op != threadLoop; op = op->getParentOp()) {
    auto branch = dyn_cast<scf::IfOp>(op->getParentOp());
    if (!branch)
      continue;
    // Under the else side, the guard is the branch's condition negated.
    bool negate = op->getParentRegion() == &branch.getElseRegion();
    std::optional<IntComparison> compare =
        matchIntComparison(branch.getCondition());
    if (!compare)
      continue;
    // Either operand may be the start; asExitTest puts it on the left.
    for (Value candidate : {compare->lhs, compare->rhs}) {
      Value guardBound;
      std::optional<ExitTest> guard =
          asExitTest(branch.getCondition(), candidate, guardBound, negate);
      if (guard && impliesEntry(*guard, candidate, guardBound, test, start,
                                bound, facts))
        return branch;
    }
  }
  return {};
}

std::optional<StridedLoop>
matchStridedLoop(scf::WhileOp loop, scf::ParallelOp threadLoop,
                 const ThreadUniformity &uniformity) {
  if (uniformity.hasUniformControl(loop) || !isRotatedWhileLoop(loop))
    return std::nullopt;
  IntegerFacts facts(threadLoop);
  scf::ConditionOp condition = loop.getConditionOp();
  Block &before = loop.getBefore().front();
  if (condition.getArgs().size() != before.getNumArguments())
    return std::nullopt;
  for (auto [position, next] : llvm::enumerate(condition.getArgs())) {
    Value counter = before.getArgument(position);
    Type type = counter.getType();
    bool wide = type.isIndex() || type.isInteger(64);
    if (!wide && !type.isInteger(32))
      continue;
    Operation *add = next.getDefiningOp();
    if (!add || !isa<LLVM::AddOp, arith::AddIOp>(add))
      continue;
    Value step = add->getOperand(0) == counter   ? add->getOperand(1)
                 : add->getOperand(1) == counter ? add->getOperand(0)
                                                 : Value();
    Value bound;
    std::optional<ExitTest> test =
        asExitTest(condition.getCondition(), next, bound);
    if (!step || !test || !uniformity.isUniform(step) ||
        !uniformity.isUniform(bound) || !loop.isDefinedOutsideOfLoop(step) ||
        !loop.isDefinedOutsideOfLoop(bound))
      continue;
    Value start = loop.getInits()[position];
    StridedLoop strided{
        loop, static_cast<unsigned>(position), {}, {}, step, bound, *test, {}};
    if (uniformity.isUniform(start) ||
        !splitStart(start, uniformity, facts, strided.shared, strided.offset,
                    strided.extension) ||
        (!wide && strided.extension != PartsExtension::None))
      continue;
    if (hasRaggedTripCounts(step, strided.offset, threadLoop))
      continue;
    if (wide) {
      // Proven now: the step's sign, the magnitudes of step, offset and
      // shared part; the bound's at run time if need be.
      if (!facts.isPositive(step) || facts.magnitudeBits(step) > kMaxBits ||
          facts.magnitudeBits(strided.offset) > kMaxBits ||
          (strided.shared && facts.magnitudeBits(strided.shared) > kMaxBits))
        continue;
      // An unsigned order is monotone along the counter only without a
      // negative (huge unsigned) start.
      if (!isSigned(*test) && strided.shared &&
          strided.extension != PartsExtension::Zero &&
          !facts.isNonNegative(strided.shared))
        continue;
      strided.checkBound = facts.magnitudeBits(bound) > kMaxBits;
    } else {
      // 32 bits: everything but the offset is checked at run time.
      if (facts.magnitudeBits(strided.offset) > kMaxNarrowOffsetBits)
        continue;
      strided.narrow = true;
    }
    strided.entryGuard =
        findEntryGuard(loop, threadLoop, start, bound, *test, facts);
    return strided;
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Rewriting it
//===----------------------------------------------------------------------===//

/// True if `op` computes a defined value wherever it runs: no side effects,
/// no undefined behaviour, and every poison-generating flag it carries (the
/// facts LLVM inferred from the branch it sat in) provably holds.
bool isSafeEverywhere(Operation *op, const IntegerFacts &facts) {
  if (op->hasTrait<OpTrait::ConstantLike>())
    return true;
  if (!isPure(op) || !isSpeculatable(op))
    return false;
  if (auto zext = dyn_cast<LLVM::ZExtOp>(op))
    return !zext.getNonNeg() || facts.isNonNegative(zext.getArg());
  if (isa<LLVM::SExtOp, LLVM::TruncOp, arith::ExtSIOp, arith::ExtUIOp,
          arith::TruncIOp, arith::IndexCastOp, arith::IndexCastUIOp,
          arith::CmpIOp, LLVM::ICmpOp, arith::AndIOp, arith::OrIOp>(op))
    return true;
  if (isa<LLVM::AddOp, LLVM::MulOp, arith::AddIOp, arith::MulIOp>(op)) {
    bool flagged = false;
    if (auto flags = dyn_cast<LLVM::IntegerOverflowFlagsInterface>(op))
      flagged = flags.getOverflowFlags() != LLVM::IntegerOverflowFlags::none;
    if (auto flags = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(op))
      flagged = flags.getOverflowAttr().getValue() !=
                arith::IntegerOverflowFlags::none;
    if (!flagged)
      return true;
    // Small non-negative operands: neither signed nor unsigned overflow.
    unsigned lhs = facts.magnitudeBits(op->getOperand(0));
    unsigned rhs = facts.magnitudeBits(op->getOperand(1));
    unsigned bits = isa<LLVM::MulOp, arith::MulIOp>(op)
                        ? lhs + rhs
                        : std::max(lhs, rhs) + 1;
    return bits < bitWidth(op->getResult(0).getType()) &&
           facts.isNonNegative(op->getOperand(0)) &&
           facts.isNonNegative(op->getOperand(1));
  }
  return false;
}

/// True if `op` is a computation that can run for every thread once the
/// poison-generating flags LLVM put on it (facts it inferred from the
/// guard) are removed: integer arithmetic, casts, comparisons, constants.
bool isMovableWithoutFlags(Operation *op) {
  return op->hasTrait<OpTrait::ConstantLike>() ||
         isa<LLVM::AddOp, LLVM::SubOp, LLVM::MulOp, LLVM::ShlOp, LLVM::ZExtOp,
             LLVM::SExtOp, LLVM::TruncOp, LLVM::ICmpOp, LLVM::AndOp, LLVM::OrOp,
             arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::ShLIOp,
             arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
             arith::IndexCastOp, arith::IndexCastUIOp, arith::CmpIOp,
             arith::AndIOp, arith::OrIOp>(op);
}

/// True if `loop` sits directly in its entry guard after only code that
/// computes defined values for every thread: then the loop can leave the
/// guard. Threads that fail the guard run no iteration of it (its guard
/// `start + k*step < n` is false for them in every round), and the loop's
/// rounds, the same for all threads, no longer sit under a branch that
/// differs between threads (which barrier lowering would predicate).
bool canLeaveEntryGuard(scf::WhileOp loop, const StridedLoop &strided,
                        const IntegerFacts &facts) {
  scf::IfOp guard = strided.entryGuard;
  if (!guard || loop->getParentOp() != guard.getOperation())
    return false;
  // The offset decides which threads run each round: it must mean the same
  // for the threads that fail the guard.
  if (!isDefinedOutside(strided.offset, guard))
    return false;
  for (Operation &op : *loop->getBlock()) {
    if (&op == loop.getOperation())
      break;
    // With a 32-bit counter, the run-time test checks the step, bound and
    // shared part the loop's rounds use, whatever they compute: the code
    // may run without LLVM's flags.
    if (!isSafeEverywhere(&op, facts) &&
        !(strided.narrow && isMovableWithoutFlags(&op)))
      return false;
  }
  return true;
}

/// Moves the ops before `op` in its block to just before `guard`, without
/// the flags that held only under it.
void movePrecedingOpsBefore(Operation *op, scf::IfOp guard) {
  Block *block = op->getBlock();
  while (&block->front() != op) {
    Operation &moved = block->front();
    moved.moveBefore(guard);
    dropPoisonGeneratingFlags(&moved);
  }
}

/// `value`, of the counter's type, as the 64-bit integer the new loop
/// computes with: itself for 64-bit counters, else extended as the exit
/// test reads it.
Value widen(OpBuilder &builder, Location loc, Value value,
            const StridedLoop &strided) {
  if (!strided.narrow)
    return value;
  Type i64 = builder.getI64Type();
  if (isSigned(strided.test))
    return arith::ExtSIOp::create(builder, loc, i64, value);
  return arith::ExtUIOp::create(builder, loc, i64, value);
}

/// The test at run time under which the new loop's arithmetic is exact
/// and agrees with the old loop's: a 64-bit bound below 2^kMaxBits; for a
/// 32-bit counter, a positive step, and every value the old loop computes
/// (at most the larger of `bound - 1` and the largest start, plus a step)
/// within the counter's range, so that it never wraps.
Value buildExactnessTest(OpBuilder &builder, Location loc,
                         const StridedLoop &strided,
                         const IntegerFacts &facts) {
  auto constant = [&](Type type, int64_t value) -> Value {
    return arith::ConstantOp::create(builder, loc, type,
                                     builder.getIntegerAttr(type, value));
  };
  auto compare = [&](arith::CmpIPredicate predicate, Value lhs,
                     Value rhs) -> Value {
    return arith::CmpIOp::create(builder, loc, predicate, lhs, rhs);
  };
  auto both = [&](Value lhs, Value rhs) -> Value {
    return arith::AndIOp::create(builder, loc, lhs, rhs);
  };
  using P = arith::CmpIPredicate;
  if (!strided.narrow) {
    Type type = strided.bound.getType();
    int64_t limit = int64_t(1) << kMaxBits;
    if (!isSigned(strided.test))
      return compare(P::ult, strided.bound, constant(type, limit));
    return both(compare(P::slt, strided.bound, constant(type, limit)),
                compare(P::sgt, strided.bound, constant(type, -limit)));
  }
  Type i64 = builder.getI64Type();
  Value step = widen(builder, loc, strided.step, strided);
  Value bound = widen(builder, loc, strided.bound, strided);
  Value shared = strided.shared ? widen(builder, loc, strided.shared, strided)
                                : constant(i64, 0);
  int64_t max = isSigned(strided.test) ? INT32_MAX : UINT32_MAX;
  int64_t offsetLimit = int64_t(1) << facts.magnitudeBits(strided.offset);
  Value pastBound = arith::AddIOp::create(builder, loc, bound, step);
  Value startLimit =
      arith::AddIOp::create(builder, loc, shared, constant(i64, offsetLimit));
  Value pastStart = arith::AddIOp::create(builder, loc, startLimit, step);
  return both(compare(P::sgt, step, constant(i64, 0)),
              both(compare(P::sle, pastBound, constant(i64, max + 1)),
                   compare(P::sle, pastStart, constant(i64, max))));
}

/// Puts `target` under a branch on `test` and a copy of it in the other
/// side; returns the copy.
Operation *versionOn(Operation *target, Value test) {
  Location loc = target->getLoc();
  OpBuilder builder(target);
  auto version = scf::IfOp::create(builder, loc, target->getResultTypes(), test,
                                   /*addThenBlock=*/true,
                                   /*addElseBlock=*/true);
  // Without results the sides come with their terminators.
  auto yieldAtEnd = [&](Block *block, ValueRange values) {
    if (!block->empty() && block->back().hasTrait<OpTrait::IsTerminator>())
      block->back().erase();
    builder.setInsertionPointToEnd(block);
    scf::YieldOp::create(builder, loc, values);
  };
  builder.setInsertionPointToStart(version.elseBlock());
  Operation *copy = builder.clone(*target);
  yieldAtEnd(version.elseBlock(), copy->getResults());
  // Results nothing uses are yielded as poison: a use by the yield would
  // make the rewrite keep them (a per-thread value in memory each round).
  SmallVector<Value> yielded;
  for (Value result : target->getResults()) {
    if (!result.use_empty()) {
      yielded.push_back(result);
      continue;
    }
    builder.setInsertionPoint(version);
    yielded.push_back(LLVM::PoisonOp::create(builder, loc, result.getType()));
  }
  target->replaceAllUsesWith(version.getResults());
  target->moveBefore(version.thenBlock(), version.thenBlock()->begin());
  yieldAtEnd(version.thenBlock(), yielded);
  return copy;
}

/// Rewrites the loop. Adds the new loop, and the copies of the old one
/// that run where the run-time test fails, to `done`.
void uniformize(const StridedLoop &strided, const IntegerFacts &facts,
                llvm::SmallPtrSetImpl<Operation *> &done) {
  scf::WhileOp old = strided.loop;
  Location loc = old.getLoc();
  bool leavesGuard = canLeaveEntryGuard(old, strided, facts);
  if (leavesGuard)
    movePrecedingOpsBefore(old, strided.entryGuard);
  if (strided.needsRuntimeTest()) {
    // The whole guard is copied when the loop leaves it: the copy of the
    // old loop runs its first iteration unconditionally.
    scf::IfOp guard = strided.entryGuard;
    Operation *target = leavesGuard ? guard.getOperation() : old.getOperation();
    OpBuilder builder(target);
    Value exact = buildExactnessTest(builder, loc, strided, facts);
    Operation *copy = versionOn(target, exact);
    copy->walk([&](scf::WhileOp loop) { done.insert(loop); });
  }

  OpBuilder builder(old);
  Type counterType = old.getInits()[strided.position].getType();
  Type wideType = strided.narrow ? builder.getI64Type() : counterType;
  // The parts of the start in the counter's type, then as computed with.
  auto asCounter = [&](Value part) -> Value {
    switch (strided.extension) {
    case PartsExtension::None:
      return part;
    case PartsExtension::Sign:
      if (counterType.isIndex())
        return arith::IndexCastOp::create(builder, loc, counterType, part);
      return arith::ExtSIOp::create(builder, loc, counterType, part);
    case PartsExtension::Zero:
      if (counterType.isIndex())
        return arith::IndexCastUIOp::create(builder, loc, counterType, part);
      return arith::ExtUIOp::create(builder, loc, counterType, part);
    }
    llvm_unreachable("unknown extension");
  };
  Value shared = strided.shared
                     ? widen(builder, loc, asCounter(strided.shared), strided)
                     : arith::ConstantOp::create(builder, loc, wideType,
                                                 builder.getZeroAttr(wideType))
                           .getResult();
  Value offset = widen(builder, loc, asCounter(strided.offset), strided);
  Value step = widen(builder, loc, strided.step, strided);
  Value bound = widen(builder, loc, strided.bound, strided);

  // The old positions the new loop carries (the thread's own counter only
  // if its final value is used), then the shared counter.
  SmallVector<unsigned> kept;
  for (unsigned index = 0; index < old.getNumResults(); ++index)
    if (index != strided.position || !old.getResult(index).use_empty())
      kept.push_back(index);
  auto select = [&](ValueRange values) {
    SmallVector<Value> out;
    for (unsigned index : kept)
      out.push_back(values[index]);
    return out;
  };
  SmallVector<Value> inits = select(old.getInits());
  inits.push_back(shared);
  SmallVector<Type> types(ValueRange(inits).getTypes());
  SmallVector<Location> locs(types.size(), loc);
  auto loop = scf::WhileOp::create(builder, loc, types, inits);
  Block *before = builder.createBlock(&loop.getBefore(), {}, types, locs);
  Block *after = builder.createBlock(&loop.getAfter(), {}, types, locs);
  scf::YieldOp::create(builder, loc, after->getArguments());
  ValueRange carried = before->getArguments().drop_back();

  // The thread's iteration, if it has one in this round. Magnitudes are
  // far from overflow (proven, or tested at run time): these sums do not
  // wrap, which index-set splitting needs to know to turn the guard into
  // thread-loop bounds.
  builder.setInsertionPointToEnd(before);
  Value counter = before->getArguments().back();
  auto noWrap = arith::IntegerOverflowFlags::nsw;
  Value mine = arith::AddIOp::create(builder, loc, counter, offset, noWrap);
  // Unsigned tests on values known non-negative (zero-extended 32-bit
  // ones, or a bound tested or known to be) compare as signed ones, which
  // index-set splitting turns into thread-loop bounds.
  ExitTest test = strided.test;
  if (!isSigned(test) && (strided.narrow || strided.checkBound ||
                          facts.isNonNegative(strided.bound)))
    test = test == ExitTest::ULT ? ExitTest::SLT : ExitTest::SLE;
  Value active =
      arith::CmpIOp::create(builder, loc, toArith(test), mine, bound);
  if (!strided.entryGuard) {
    Value first = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        counter, shared);
    active = arith::OrIOp::create(builder, loc, first, active);
  }
  auto branch = scf::IfOp::create(builder, loc, carried.getTypes(), active,
                                  /*addThenBlock=*/true,
                                  /*addElseBlock=*/true);
  Block &oldBefore = old.getBefore().front();
  scf::ConditionOp oldCondition = old.getConditionOp();
  Block *thenBlock = branch.thenBlock();
  thenBlock->getOperations().splice(thenBlock->end(),
                                    oldBefore.getOperations());
  Value mineAsCounter = mine;
  if (strided.narrow) {
    builder.setInsertionPointToStart(thenBlock);
    mineAsCounter =
        arith::TruncIOp::create(builder, loc, counterType, mine, noWrap);
  }
  oldBefore.getArgument(strided.position).replaceAllUsesWith(mineAsCounter);
  for (auto [newIndex, oldIndex] : llvm::enumerate(kept))
    oldBefore.getArgument(oldIndex).replaceAllUsesWith(carried[newIndex]);
  builder.setInsertionPoint(oldCondition);
  scf::YieldOp::create(builder, loc, select(oldCondition.getArgs()));
  oldCondition.erase();
  builder.setInsertionPointToEnd(branch.elseBlock());
  scf::YieldOp::create(builder, loc, carried);

  // Another round while some thread may have an iteration left.
  builder.setInsertionPointAfter(branch);
  Value next = arith::AddIOp::create(builder, loc, counter, step, noWrap);
  Value more = arith::CmpIOp::create(builder, loc, toArith(test), next, bound);
  SmallVector<Value> forwarded(branch.getResults());
  forwarded.push_back(next);
  scf::ConditionOp::create(builder, loc, more, forwarded);

  for (auto [newIndex, oldIndex] : llvm::enumerate(kept))
    old.getResult(oldIndex).replaceAllUsesWith(loop.getResult(newIndex));
  old.erase();
  if (leavesGuard) {
    // Before the loop in the guard now: the casts and constants above.
    movePrecedingOpsBefore(loop, strided.entryGuard);
    loop->moveBefore(strided.entryGuard);
  }
  done.insert(loop);
}

struct UniformizeStridedLoopsPass
    : public respec::impl::UniformizeStridedLoopsPassBase<
          UniformizeStridedLoopsPass> {
  void runOnOperation() override {
    for (scf::ParallelOp threadLoop : collectThreadLoops(getOperation())) {
      // One loop at a time: the rewrite changes which values are uniform.
      llvm::SmallPtrSet<Operation *, 4> rewritten;
      while (true) {
        ThreadUniformity uniformity(threadLoop);
        std::optional<StridedLoop> found;
        threadLoop.getBody()->walk([&](scf::WhileOp loop) {
          if (!rewritten.contains(loop))
            found = matchStridedLoop(loop, threadLoop, uniformity);
          return found ? WalkResult::interrupt() : WalkResult::advance();
        });
        if (!found)
          break;
        uniformize(*found, IntegerFacts(threadLoop), rewritten);
      }
    }
  }
};

} // namespace
