//===- LaneOffsets.h - How integer values differ between SIMD lanes -------===//
//
// When the threads of a group run as the lanes of one vector, an address
// that is `base + lane * size` in every lane makes a load one vector load
// instead of one scalar load per lane, and a value that works out the same
// in every lane (the problem index `gid / G` of a group of G threads) needs
// computing once. Both facts follow from the thread indices by exact
// arithmetic, given what is known about the part the lanes share: lane i
// holds U + offsets[i], where U is common to the lanes and a known multiple
// of a power of two (the group's first thread index is a multiple of the
// group size). Divisions, remainders, shifts and masks by constants then
// have exact per-lane results whenever no lane crosses a multiple of that
// power of two.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_TARGET_LANEOFFSETS_H
#define RESPEC_TARGET_LANEOFFSETS_H

#include "mlir/IR/Value.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <functional>
#include <optional>

namespace mlir::respec {

/// Lane i of an integer (or pointer) value holds U + offsets[i], modulo the
/// value's width; U is the same in every lane and a multiple of
/// 2^alignLog2 (kZeroBase: U is zero). Pointer offsets are bytes.
struct LaneOffsets {
  static constexpr unsigned kZeroBase = 64;

  SmallVector<int64_t> offsets;
  unsigned alignLog2 = 0;

  /// The same value in every lane.
  static LaneOffsets uniform(unsigned lanes, unsigned alignLog2 = 0) {
    return {SmallVector<int64_t>(lanes, 0), alignLog2};
  }

  bool isUniform() const;

  /// The largest power-of-two run length L (from all lanes down to
  /// `minRun`) such that each aligned run of L lanes holds consecutive
  /// elements of `elementBytes`; 0 if there is none.
  unsigned contiguousRun(int64_t elementBytes, unsigned minRun) const;
};

/// Computes LaneOffsets of values of one thread body from seeds (the
/// thread indices) through integer arithmetic and address computations.
/// `isUniform` says whether the lanes share a value (defined outside the
/// body, or emitted once for all lanes).
class LaneOffsetAnalysis {
public:
  LaneOffsetAnalysis(unsigned lanes, DataLayout layout,
                     std::function<bool(Value)> isUniform)
      : lanes(lanes), layout(layout), isUniform(std::move(isUniform)) {}

  void seed(Value value, LaneOffsets offsets) { known[value] = offsets; }

  /// What is known about `value`, or nullopt.
  std::optional<LaneOffsets> get(Value value);

  /// What is known about the result of `op` from its operands (for an
  /// operation not emitted yet, whose result `isUniform` cannot judge).
  std::optional<LaneOffsets> evaluate(Operation *op);

private:
  std::optional<LaneOffsets> compute(Value value);
  std::optional<LaneOffsets> evaluateGEP(Operation *gep);
  std::optional<LaneOffsets> evaluateBinary(Operation *op, unsigned bits);

  unsigned lanes;
  DataLayout layout;
  std::function<bool(Value)> isUniform;
  llvm::DenseMap<Value, std::optional<LaneOffsets>> known;
};

} // namespace mlir::respec

#endif // RESPEC_TARGET_LANEOFFSETS_H
