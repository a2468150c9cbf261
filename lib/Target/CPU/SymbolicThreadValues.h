//===- SymbolicThreadValues.h - Thread values over block unknowns -*- C++
//-*-===//
//
// What one thread of a block computes, with its thread index known and the
// values the same for all threads of the block (block index, kernel
// arguments) left as unknowns. Integers become polynomials over those
// unknowns, so that two computations of one address by different threads,
// written differently (`k - 1` for thread 0, `row * n + col` for thread
// 15 of the block to the left), are found equal; other values become a
// canonical description of how they are computed (a load of an address, an
// operation on such values). Branches whose conditions the thread index or
// the unknowns' ranges decide are followed; the others are kept as
// choices.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_LIB_TARGET_CPU_SYMBOLICTHREADVALUES_H
#define RESPEC_LIB_TARGET_CPU_SYMBOLICTHREADVALUES_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Value.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::respec {

/// The bytes each index of `gep` steps over (through arrays and the
/// pointee type), or nullopt where an index steps into a struct.
std::optional<SmallVector<int64_t, 4>>
getGEPIndexSteps(LLVM::GEPOp gep, const DataLayout &layout);

/// Regions of branches by index, as SymbolicThreadEvaluator::decideRegion
/// gives them: the region number of an scf.if, the case number of an
/// scf.index_switch (its number of cases for the default).
Region &getBranchRegion(Operation *branch, unsigned index);
unsigned getBranchRegionIndex(Operation *branch, Region *region);

/// A polynomial over unknowns (numbered), with 64-bit wrapping
/// coefficients; monomials are sorted lists of unknowns.
class Polynomial {
public:
  static Polynomial constant(int64_t value);
  static Polynomial unknown(unsigned id);

  Polynomial operator+(const Polynomial &other) const;
  Polynomial operator-(const Polynomial &other) const;
  Polynomial operator*(const Polynomial &other) const;

  /// Coefficients reduced to `bits` bits (sign-extended), zeros dropped.
  Polynomial truncated(unsigned bits) const;
  std::optional<int64_t> getConstant() const;
  unsigned degree() const;
  std::string str() const;

  const std::map<std::vector<unsigned>, int64_t> &terms() const {
    return coefficients;
  }

private:
  std::map<std::vector<unsigned>, int64_t> coefficients;
};

/// What a value is for one thread.
struct SymbolicValue {
  enum class Kind { Integer, Pointer, Other };
  Kind kind = Kind::Other;
  /// Integer: bit width and value; Pointer: offset in bytes from `root`.
  unsigned width = 0;
  Polynomial polynomial;
  /// Integer: the polynomial is the signed value itself (no wrap-around
  /// happened computing it).
  bool exact = false;
  Value root;
  /// Canonical description: equal keys, equal values.
  std::string key;
  /// For the result of a branch its condition does not decide: the branch
  /// and the values of its then and else regions.
  Operation *choice = nullptr;
  int thenValue = -1, elseValue = -1;
};

class SymbolicThreadEvaluator {
public:
  /// True if the thread evaluated runs `op` in the original program.
  using ReachFn = llvm::function_ref<std::optional<bool>(Operation *)>;

  SymbolicThreadEvaluator(scf::ParallelOp loop, const DataLayout &layout)
      : loop(loop), layout(layout) {}

  /// Evaluates for thread `ids` (x, y, z) from now on. Branches in
  /// `forced` take the region given (a path other threads take) instead of
  /// the one their condition picks; what `reaches` does not say the
  /// thread runs, the evaluation does not take the flags of (nsw, nneg) as
  /// facts.
  void setThread(ArrayRef<int64_t> ids,
                 const DenseMap<Operation *, unsigned> *forced,
                 ReachFn reaches);

  /// Forgets the values evaluated so far (their indices become invalid).
  void reset() {
    values.clear();
    cache.clear();
  }

  /// The value's index, or -1 if not known.
  int eval(Value value);
  const SymbolicValue &get(int index) const { return values[index]; }
  bool equal(int a, int b) const {
    return a >= 0 && b >= 0 && values[a].key == values[b].key;
  }

  /// The region (0: then or first case) a branch or select condition
  /// picks for the current thread, if decided.
  std::optional<unsigned> decideRegion(Operation *branch);

  /// The branches (scf.if, scf.index_switch) whose region the evaluation
  /// since setThread decided, with that region.
  const DenseMap<Operation *, unsigned> &getDecisions() const {
    return decisions;
  }

private:
  int compute(Value value, unsigned depth);
  int evalAt(Value value, unsigned depth);
  int add(SymbolicValue value);
  int integer(const Polynomial &p, unsigned width, bool exact);
  int other(std::string key);
  int unknownValue(Value value);
  int computeCast(Operation *op, unsigned depth);
  int computeComparison(Value value, unsigned depth);
  int computeArithmetic(Operation *op, unsigned depth);
  int computeGEP(Operation *op, unsigned depth);
  int computeBranchResult(Operation *op, unsigned result, unsigned depth);
  int computeGeneric(Operation *op, unsigned depth);
  std::optional<bool> decideComparison(const SymbolicValue &a,
                                       const SymbolicValue &b,
                                       unsigned predicate);
  bool trusted(Operation *op);
  std::optional<std::pair<APInt, APInt>> range(const Polynomial &p);
  std::pair<APInt, APInt> unknownRange(unsigned id);

  scf::ParallelOp loop;
  const DataLayout &layout;
  SmallVector<int64_t, 3> thread;
  const DenseMap<Operation *, unsigned> *forced = nullptr;
  ReachFn reaches = nullptr;
  std::vector<SymbolicValue> values;
  DenseMap<Value, int> cache;
  DenseMap<Value, unsigned> unknownIds;
  std::vector<Value> unknowns;
  DenseMap<Operation *, unsigned> decisions;
};

} // namespace mlir::respec

#endif // RESPEC_LIB_TARGET_CPU_SYMBOLICTHREADVALUES_H
