//===- GuardWrappingIndices.cpp - Loops LLVM 22's vectorizer miscompiles --===//
//
// LLVM 22's loop vectorizer miscompiles a loop whose address is a wider
// extension of a sum that contains a narrower extension of an induction
// variable which wraps in its narrow type:
//
//   for (unsigned t = 0; t < 256; ++t)
//     out[t] = in[base * 300 + (t + 1) % 256];
//
// Scalar evolution reads `(t + 1) % 256` as `zext i8 {1,+,1}`, the i8
// counter that wraps from 255 to 0, and the address as the 64-bit
// extension of a 32-bit sum around it. To vectorize, the vectorizer
// assumes both extensions can be folded into one 64-bit induction
// variable, but its run-time check only tests the 32-bit sum for overflow,
// not the 8-bit counter's wrap: the last vector loads in[base * 300 + 256]
// instead of in[base * 300]. `clang-22 -O3` gets this C loop wrong as well
// (Debian's 22.1.8); GCC gets it right.
//
// In CUDA this is the neighbour in a ring, `blockIdx.x * blockDim.x +
// (threadIdx.x + 1) % blockDim.x`, once the block size is a constant power
// of two (respec-specialize-block-size): a thread loop that reads it came
// out wrong for the block's last thread.
//
// It also miscompiles a loop whose trip count it does not know and whose
// address extends an induction variable that wraps within a few lanes:
//
//   for (long i = 0; i < n; i++) { int t = i; if (t < m) out[t] = A[t & 7]; }
//
// `t & 7` is `zext i3 {0,+,1}`; with 16 lanes the vector loop loads
// A[0..15], past the table (also with `& 15`; `& 31` and wider masks come
// out right). In CUDA: `lut[threadIdx.x & 7]` or `% 8` in a kernel whose
// block size is not a constant at the launch (with a constant one the trip
// count is known and the loop comes out right).
//
// This pass, run just before the vectorizer, turns vectorization off for
// each innermost loop with a memory access whose address, as scalar
// evolution sees it, extends a value that itself contains an extension of
// one of the loop's induction variables. Such nesting appears only where an
// induction variable wraps within a narrower type (the folds of scalar
// evolution remove the extensions of induction variables that cannot
// wrap), so ordinary thread loops are not affected. So it does for loops
// whose address extends an induction variable narrower than 16 bits, unless
// the loop's trip count is known to stay within that width: the wrap then
// comes after as few iterations as a vector loop may run at once (up to 64
// lanes of bytes, times the interleaving).
//
//===----------------------------------------------------------------------===//

#include "respec/Target/CPUBackend.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

using namespace llvm;

namespace respec {

namespace {

/// True if `expr` contains an extension or truncation of an expression that
/// varies in `loop`.
bool containsCastOfInduction(const SCEV *expr, const Loop &loop,
                             ScalarEvolution &scalarEvolution) {
  return SCEVExprContains(expr, [&](const SCEV *node) {
    auto *cast = dyn_cast<SCEVIntegralCastExpr>(node);
    return cast && !scalarEvolution.isLoopInvariant(cast->getOperand(), &loop);
  });
}

/// True if `address` extends a value that contains a cast of one of
/// `loop`'s induction variables: the nesting LLVM 22's vectorizer gets
/// wrong.
bool hasNestedCastOfInduction(const SCEV *address, const Loop &loop,
                              ScalarEvolution &scalarEvolution) {
  return SCEVExprContains(address, [&](const SCEV *node) {
    auto *cast = dyn_cast<SCEVIntegralCastExpr>(node);
    return cast &&
           (isa<SCEVZeroExtendExpr>(cast) || isa<SCEVSignExtendExpr>(cast)) &&
           containsCastOfInduction(cast->getOperand(), loop, scalarEvolution);
  });
}

/// Widths below which an extended induction variable may wrap within the
/// iterations one vector loop step runs.
constexpr unsigned kNarrowBits = 16;

/// True if `expr` contains an induction variable of `loop` (an add
/// recurrence of the loop, in whatever type scalar evolution folded it to).
bool containsInductionOf(const SCEV *expr, const Loop &loop) {
  return SCEVExprContains(expr, [&](const SCEV *node) {
    auto *recurrence = dyn_cast<SCEVAddRecExpr>(node);
    return recurrence && recurrence->getLoop() == &loop;
  });
}

/// True if `address` extends an induction variable of `loop` of fewer than
/// kNarrowBits bits (`t & 7` is `zext i3 {0,+,1}`) that may wrap: the
/// loop's trip count is not known to stay below 2^bits. Data read from
/// memory (a byte used as an index) does not count: it is no recurrence.
bool hasNarrowWrappingExtension(const SCEV *address, const Loop &loop,
                                ScalarEvolution &scalarEvolution) {
  return SCEVExprContains(address, [&](const SCEV *node) {
    auto *cast = dyn_cast<SCEVIntegralCastExpr>(node);
    if (!cast ||
        !(isa<SCEVZeroExtendExpr>(cast) || isa<SCEVSignExtendExpr>(cast)))
      return false;
    const SCEV *narrow = cast->getOperand();
    uint64_t bits = scalarEvolution.getTypeSizeInBits(narrow->getType());
    if (bits >= kNarrowBits || !containsInductionOf(narrow, loop))
      return false;
    const SCEV *maxTaken =
        scalarEvolution.getConstantMaxBackedgeTakenCount(&loop);
    auto *constant = dyn_cast<SCEVConstant>(maxTaken);
    return !constant || constant->getAPInt().getActiveBits() >= bits;
  });
}

bool hasWrappingAccess(const Loop &loop, ScalarEvolution &scalarEvolution) {
  for (BasicBlock *block : loop.blocks())
    for (Instruction &instruction : *block) {
      Value *pointer = getLoadStorePointerOperand(&instruction);
      if (!pointer)
        continue;
      const SCEV *address = scalarEvolution.getSCEV(pointer);
      if (hasNestedCastOfInduction(address, loop, scalarEvolution) ||
          hasNarrowWrappingExtension(address, loop, scalarEvolution))
        return true;
    }
  return false;
}

} // namespace

PreservedAnalyses
GuardWrappingIndicesPass::run(Function &function,
                              FunctionAnalysisManager &analyses) {
  auto &loops = analyses.getResult<LoopAnalysis>(function);
  auto &scalarEvolution = analyses.getResult<ScalarEvolutionAnalysis>(function);
  bool changed = false;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    if (!loop->isInnermost() || !hasWrappingAccess(*loop, scalarEvolution))
      continue;
    addStringMetadataToLoop(loop, "llvm.loop.vectorize.enable", 0);
    changed = true;
  }
  if (!changed)
    return PreservedAnalyses::all();
  // Only loop metadata changed.
  PreservedAnalyses preserved;
  preserved.preserveSet<CFGAnalyses>();
  preserved.preserve<LoopAnalysis>();
  preserved.preserve<ScalarEvolutionAnalysis>();
  return preserved;
}

} // namespace respec
