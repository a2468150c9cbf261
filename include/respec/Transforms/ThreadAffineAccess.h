//===- ThreadAffineAccess.h - Addresses as affine maps of threads -*- C++
//-*-===//
//
// Raises the address of a memory access inside a thread loop to an affine
// map: the byte offset from a root pointer the same for all threads, as an
// affine function of the thread indices (the map's dimensions) and of
// values the same for all threads of the block (its symbols). Analyses use
// it to tell which threads may touch the same bytes.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_TRANSFORMS_THREADAFFINEACCESS_H
#define RESPEC_TRANSFORMS_THREADAFFINEACCESS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace mlir::respec {

/// An access `root + offset(threadIndices, symbols)`, in bytes.
struct ThreadAffineAccess {
  /// Defined outside the thread loop: the same pointer for every thread.
  Value root;
  /// One result; dimensions: the thread loop's induction variables;
  /// symbols: ThreadAffineAnalysis::getSymbols().
  AffineMap offset;
  /// Bytes accessed from the address.
  int64_t size;
};

/// Affine raising of the accesses of one thread loop.
class ThreadAffineAnalysis {
public:
  explicit ThreadAffineAnalysis(scf::ParallelOp threadLoop);

  /// The access through `address` by the ops using it, or nullopt if its
  /// offset is not affine in the thread indices and block-uniform values
  /// (through additions, subtractions, multiplications and shifts by
  /// constants and integer casts of at least 32 bits), or an op accesses
  /// it in a way not known.
  std::optional<ThreadAffineAccess> getAccess(Value address);

  /// True if no two different threads of the loop (whose bounds must be
  /// constant) can access overlapping bytes through `a` and `b`: the same
  /// root and coefficients of symbols, and either the same coefficients of
  /// threads with constant offsets that keep distinct threads apart, or
  /// ranges of offsets over all threads that do not meet.
  bool areDisjointAcrossThreads(const ThreadAffineAccess &a,
                                const ThreadAffineAccess &b) const;

  ArrayRef<Value> getSymbols() const { return symbols; }

private:
  std::optional<ThreadAffineAccess> raiseAccess(Value address);
  std::optional<AffineExpr> raise(Value value, unsigned depth);
  std::optional<AffineExpr> raiseAddress(Value address, Value &root);
  AffineExpr symbolFor(Value value);

  scf::ParallelOp threadLoop;
  DataLayout layout;
  SmallVector<Value> symbols;
  llvm::DenseMap<Value, unsigned> symbolPositions;
  /// getAccess's answers: a barrier's accesses are compared pairwise.
  llvm::DenseMap<Value, std::optional<ThreadAffineAccess>> accesses;
};

} // namespace mlir::respec

#endif // RESPEC_TRANSFORMS_THREADAFFINEACCESS_H
