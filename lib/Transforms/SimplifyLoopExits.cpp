//===- SimplifyLoopExits.cpp - Plain exit tests for lifted loops ----------===//
//
// Kernel loops reach the parallel IR through the CFG-to-SCF lifting, which
// turns a rotated loop (`do { body; i += s; } while (i < n)`) into an
// `scf.while` whose before region ends in an "exit multiplexer": an `scf.if`
// on the exit test that yields, on one side, the next iteration's values and
// a constant 1, and on the other the values live after the loop (and
// poison for the rest) and a constant 0. `scf.condition` then tests the
// constant and forwards the multiplexed values:
//
//   %m:4 = scf.if %lt -> (i64, f32, f32, i32) {
//     scf.yield %next, %acc, %poison, %c1 : ...
//   } else {
//     scf.yield %poison, %poison, %acc, %c0 : ...
//   }
//   %c = arith.trunci %m#3 : i32 to i1
//   scf.condition(%c) %m#0, %m#1, %m#2 : ...
//
// Every later analysis then sees the loop's counter, its exit test and its
// carried state through that `scf.if`: the uniformity analysis keeps a
// counter all threads share as uniform, but barrier lowering stores the
// multiplexed values of each thread to memory, and the exit test of a
// thread-strided loop is not recognizable. This pass rewrites the
// terminator to test `%lt` itself and to forward the values the
// multiplexer selects, where one side is poison or both sides agree (a
// poison operand may be replaced by any value). The multiplexer, carried
// values no longer used and positions that now forward the same value go:
//
//   scf.condition(%lt) %next, %acc, %acc : ...   // then: one %acc
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"

namespace mlir::respec {
#define GEN_PASS_DEF_SIMPLIFYLOOPEXITSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

bool isPoison(Value value) {
  return value.getDefiningOp<LLVM::PoisonOp>() ||
         value.getDefiningOp<ub::PoisonOp>();
}

/// An exit test seen through the multiplexer: the `scf.if` and whether the
/// loop continues on its then side (true) or on its else side (false).
struct Multiplexer {
  scf::IfOp ifOp;
  bool continuesOnThen;
};

/// Bit 0 of the integer constant `value`, if it is one.
std::optional<bool> lowBitOfConstant(Value value) {
  APInt constant;
  if (!matchPattern(value, m_ConstantInt(&constant)))
    return std::nullopt;
  return constant[0];
}

/// The multiplexer `condition` tests: an i1 result of an `scf.if`, or its
/// truncation to i1, whose yields are constants that differ in bit 0.
std::optional<Multiplexer> findMultiplexer(Value condition) {
  Value tested = condition;
  if (auto trunc = condition.getDefiningOp<arith::TruncIOp>())
    tested = trunc.getIn();
  else if (auto trunc = condition.getDefiningOp<LLVM::TruncOp>())
    tested = trunc.getArg();
  auto result = dyn_cast<OpResult>(tested);
  if (!result)
    return std::nullopt;
  auto ifOp = dyn_cast<scf::IfOp>(result.getOwner());
  if (!ifOp || ifOp.getElseRegion().empty())
    return std::nullopt;
  unsigned position = result.getResultNumber();
  std::optional<bool> onThen =
      lowBitOfConstant(ifOp.thenYield().getOperand(position));
  std::optional<bool> onElse =
      lowBitOfConstant(ifOp.elseYield().getOperand(position));
  if (!onThen || !onElse || *onThen == *onElse)
    return std::nullopt;
  return Multiplexer{ifOp, *onThen};
}

/// The value the terminator may forward instead of `forwarded`, a result
/// of the multiplexer: the value on the side that matters where the other
/// side is poison, or the value both sides agree on.
Value unmultiplexed(Value forwarded, Multiplexer mux) {
  auto result = dyn_cast<OpResult>(forwarded);
  if (!result || result.getOwner() != mux.ifOp.getOperation())
    return {};
  unsigned position = result.getResultNumber();
  Value onContinue =
      (mux.continuesOnThen ? mux.ifOp.thenYield() : mux.ifOp.elseYield())
          .getOperand(position);
  Value onExit =
      (mux.continuesOnThen ? mux.ifOp.elseYield() : mux.ifOp.thenYield())
          .getOperand(position);
  Value chosen;
  if (onContinue == onExit || isPoison(onExit))
    chosen = onContinue;
  else if (isPoison(onContinue))
    chosen = onExit;
  if (!chosen || !isDefinedOutside(chosen, mux.ifOp))
    return {};
  return chosen;
}

/// Rewrites the terminator of `whileOp`'s before region to test the exit
/// condition itself, and erases the multiplexer if nothing else uses it.
/// Returns true if it changed the loop.
bool simplifyExit(scf::WhileOp whileOp) {
  scf::ConditionOp condition = whileOp.getConditionOp();
  Value oldTest = condition.getCondition();
  std::optional<Multiplexer> mux = findMultiplexer(oldTest);
  if (!mux)
    return false;
  OpBuilder builder(condition);
  Value test = mux->ifOp.getCondition();
  if (!mux->continuesOnThen) {
    // The inverse comparison where the test is one (later passes read
    // counters' exit tests from it), else a negation.
    if (std::optional<IntComparison> cmp = matchIntComparison(test)) {
      test = arith::CmpIOp::create(builder, condition.getLoc(),
                                   arith::invertPredicate(cmp->predicate),
                                   cmp->lhs, cmp->rhs);
    } else {
      Value one = arith::ConstantIntOp::create(builder, condition.getLoc(),
                                               builder.getI1Type(), 1);
      test = arith::XOrIOp::create(builder, condition.getLoc(), test, one);
    }
  }
  condition.getConditionMutable().assign(test);
  for (OpOperand &arg : condition.getArgsMutable())
    if (Value plain = unmultiplexed(arg.get(), *mux))
      arg.set(plain);
  if (Operation *cast = oldTest.getDefiningOp();
      cast && cast != mux->ifOp && isOpTriviallyDead(cast))
    cast->erase();
  if (isOpTriviallyDead(mux->ifOp))
    mux->ifOp->erase();
  return true;
}

/// The carried positions of a forwarding loop that can go: a position
/// that forwards the same value as an earlier one (its result is that
/// one's, and so is its argument if the initial values agree or the
/// argument is unused), and a position whose argument and result are
/// unused. Uses of the positions that go are redirected.
llvm::BitVector redirectRedundantPositions(scf::WhileOp whileOp) {
  Block &before = whileOp.getBefore().front();
  ValueRange forwarded = whileOp.getConditionOp().getArgs();
  ValueRange inits = whileOp.getInits();
  unsigned count = forwarded.size();
  llvm::BitVector gone(count);
  for (unsigned later = 0; later < count; ++later)
    for (unsigned earlier = 0; earlier < later; ++earlier) {
      if (gone[earlier] || forwarded[earlier] != forwarded[later])
        continue;
      BlockArgument arg = before.getArgument(later);
      if (inits[earlier] != inits[later] && !arg.use_empty())
        continue;
      arg.replaceAllUsesWith(before.getArgument(earlier));
      whileOp.getResult(later).replaceAllUsesWith(whileOp.getResult(earlier));
      break;
    }
  for (unsigned index = 0; index < count; ++index)
    if (before.getArgument(index).use_empty() &&
        whileOp.getResult(index).use_empty())
      gone.set(index);
  return gone;
}

/// Replaces forwarding loop `whileOp` by one without the positions `gone`.
void removePositions(scf::WhileOp whileOp, const llvm::BitVector &gone) {
  SmallVector<Value> inits;
  for (auto [index, init] : llvm::enumerate(whileOp.getInits()))
    if (!gone[index])
      inits.push_back(init);
  SmallVector<Type> types(ValueRange(inits).getTypes());
  SmallVector<Location> locs(types.size(), whileOp.getLoc());
  OpBuilder builder(whileOp);
  auto loop = scf::WhileOp::create(builder, whileOp.getLoc(), types, inits);
  Block *before = builder.createBlock(&loop.getBefore(), {}, types, locs);
  Block *after = builder.createBlock(&loop.getAfter(), {}, types, locs);
  scf::YieldOp::create(builder, whileOp.getLoc(), after->getArguments());

  Block &oldBefore = whileOp.getBefore().front();
  before->getOperations().splice(before->end(), oldBefore.getOperations());
  unsigned next = 0;
  for (auto [index, arg] : llvm::enumerate(oldBefore.getArguments()))
    if (!gone[index])
      arg.replaceAllUsesWith(before->getArgument(next++));
  scf::ConditionOp condition = loop.getConditionOp();
  for (int index = gone.size() - 1; index >= 0; --index)
    if (gone[index])
      condition->eraseOperand(index + 1);
  next = 0;
  for (auto [index, result] : llvm::enumerate(whileOp.getResults()))
    if (!gone[index])
      result.replaceAllUsesWith(loop.getResult(next++));
  whileOp.erase();
}

struct SimplifyLoopExitsPass
    : public respec::impl::SimplifyLoopExitsPassBase<SimplifyLoopExitsPass> {
  void runOnOperation() override {
    // Post-order: an inner loop is done before the loop around it.
    SmallVector<scf::WhileOp> rewritten;
    getOperation()->walk([&](scf::WhileOp whileOp) {
      if (simplifyExit(whileOp))
        rewritten.push_back(whileOp);
    });
    // The positions the multiplexer kept apart (the next value, and the
    // same value live after the loop) are one now. Upstream's scf.while
    // canonicalizations would do this too, but some of them also move
    // code between the regions.
    for (scf::WhileOp whileOp : rewritten) {
      if (!isRotatedWhileLoop(whileOp))
        continue;
      llvm::BitVector gone = redirectRedundantPositions(whileOp);
      if (gone.any())
        removePositions(whileOp, gone);
    }
  }
};

} // namespace
