//===- SinkWarpShuffles.cpp - Shuffles next to their uses, for ptxas ------===//
//
// LLVM's optimization pipeline can leave a block's warp shuffles all ahead
// of the arithmetic that uses them: in a fully unrolled register-cache
// kernel (`c[r] += __shfl_sync(m, a[r], k, G) * b[k]`, results stored under
// `if (active)`), InstCombine sinks the multiply-adds into the conditional
// block of their only use, where the convergent shuffles cannot follow: 64
// shuffles, then 64 multiply-adds. The NVPTX back end emits PTX in IR order
// and ptxas does not interleave them again, so all 64 results are live at
// once (79 registers per thread where nvcc's code needs 32, hence fewer
// resident warps). Plain clang does the same.
//
// Two steps per block with shuffles:
// - Arithmetic on the shuffles' results that was sunk into a successor
//   block with no other predecessor comes back up, if it is safe to run
//   speculatively and its operands are available (the inactive threads
//   then compute values they do not store, as nvcc's code does).
// - Each shuffle moves down to just before its first use. Every thread of
//   a warp that runs the block runs its shuffles in the same order, so the
//   order among shuffles is free; a shuffle touches no memory, so loads and
//   stores do not order it. Other convergent operations (barriers, votes,
//   inline assembly, calls that may contain them) and calls that may not
//   return stop the motion: a shuffle never moves past a point where some
//   threads could stop or wait for others.
//
//===----------------------------------------------------------------------===//

#include "respec/Target/NVPTXBackend.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace respec {
namespace {

/// Any of the llvm.nvvm.shfl.sync.{idx,up,down,bfly}.{i32,f32}[p]
/// intrinsics.
bool isWarpShuffle(const Instruction &inst) {
  const auto *call = dyn_cast<CallBase>(&inst);
  const Function *callee = call ? call->getCalledFunction() : nullptr;
  return callee && callee->getName().starts_with("llvm.nvvm.shfl.sync.");
}

/// Whether a shuffle must stay above `inst`: another convergent operation,
/// or a call after which some threads may not go on.
bool stopsShuffleMotion(const Instruction &inst) {
  const auto *call = dyn_cast<CallBase>(&inst);
  if (!call || isWarpShuffle(inst))
    return false;
  return call->isConvergent() || !call->willReturn();
}

bool usesValue(const Instruction &inst, const Value *value) {
  return llvm::is_contained(inst.operands(), value);
}

/// Moves `shuffle` down to its first use in its block, or to the first
/// instruction it must stay above.
void sinkShuffle(Instruction *shuffle) {
  Instruction *target = shuffle->getNextNode();
  while (!target->isTerminator() && !usesValue(*target, shuffle) &&
         !stopsShuffleMotion(*target))
    target = target->getNextNode();
  if (target != shuffle->getNextNode())
    shuffle->moveBefore(target->getIterator());
}

/// Moves back into `block` the arithmetic on the results of `shuffles` that
/// LLVM sank into a successor reached only from `block`: instructions safe
/// to run speculatively whose operands are all available at the end of
/// `block` and at least one of which is a shuffle or an instruction moved
/// back before.
void hoistShuffleArithmetic(BasicBlock &block,
                            ArrayRef<Instruction *> shuffles,
                            const DominatorTree &dominators) {
  SmallPtrSet<const Value *, 32> fromShuffles(shuffles.begin(),
                                              shuffles.end());
  Instruction *end = block.getTerminator();
  auto available = [&](const Value *operand) {
    const auto *def = dyn_cast<Instruction>(operand);
    return !def || dominators.dominates(def, end);
  };
  for (BasicBlock *successor : successors(&block)) {
    if (successor->getSinglePredecessor() != &block)
      continue;
    for (Instruction &inst : llvm::make_early_inc_range(*successor)) {
      if (inst.isTerminator() || isa<PHINode>(inst) ||
          !isSafeToSpeculativelyExecute(&inst) ||
          !llvm::all_of(inst.operands(), available) ||
          llvm::none_of(inst.operands(), [&](const Value *operand) {
            return fromShuffles.contains(operand);
          }))
        continue;
      inst.moveBefore(end->getIterator());
      fromShuffles.insert(&inst);
    }
  }
}

} // namespace

bool containsWarpShuffles(const Module &module) {
  for (const Function &function : module)
    for (const BasicBlock &block : function)
      for (const Instruction &inst : block)
        if (isWarpShuffle(inst))
          return true;
  return false;
}

void sinkWarpShufflesToUses(Module &module) {
  for (Function &function : module) {
    if (function.isDeclaration())
      continue;
    DominatorTree dominators(function);
    for (BasicBlock &block : function) {
      SmallVector<Instruction *> shuffles;
      for (Instruction &inst : block)
        if (isWarpShuffle(inst))
          shuffles.push_back(&inst);
      if (shuffles.empty())
        continue;
      hoistShuffleArithmetic(block, shuffles, dominators);
      // The last first: an earlier shuffle then finds the later ones
      // already next to their uses.
      for (Instruction *shuffle : llvm::reverse(shuffles))
        sinkShuffle(shuffle);
    }
  }
}

} // namespace respec
