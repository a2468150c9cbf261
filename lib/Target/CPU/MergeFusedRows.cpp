//===- MergeFusedRows.cpp - Fused blocks' rows as one loop ----------------===//
//
// respec-fuse-block-rows runs C neighbouring blocks of a grid row together,
// each thread loop as `for c { for tx in [lo, hi) { body } }`. A 2-D
// stencil launched as 32x8 blocks then gives LLVM's vectorizer C inner
// loops of 32 iterations, each with its own set-up and remainder: on a
// 3x3 convolution over 4096x4096 floats that ran at 24 ms against 18 ms
// for the OpenMP loop over whole rows (1 thread, AVX-512 Xeon). Most such
// kernels use the thread and block indices only as the global index
// `blockIdx.x * blockDim.x + threadIdx.x`; then the two loops are one loop
// over that index, whose iterations are the same, in the same order.
//
// The iterations are the same when each block's range [lo, hi) is its
// share of one range of global indices. Index-set splitting computes, per
// block, lo and hi as mins and maxes of 0, `width` and terms `G - bx *
// width` (from `if (i >= L && i < H)` with i the global index). Read in
// global coordinates (every value plus bx * width), a term is G, 0 is the
// block's first index F and `width` the next block's E: mins and maxes
// commute with the shift. Any min/max expression over the Gs, F and E (F <=
// E) has the normal form max(a, min(b, F), min(c, E)), with a, b and c
// min/max expressions over the Gs and -inf/+inf. A lower bound with b =
// +inf runs the block's threads from max(a, c, F) (when c >= E that is
// past the block, as is the bound); an upper bound with a = -inf stops at
// min(c, E) (its min(b, F) part is never above the lower bound). Each
// block then runs its part of [max(a, c), c') and the loops merge. The Gs
// are computed once, by evaluating each term at bx = 0.
//
//===----------------------------------------------------------------------===//

#include "MergeFusedRows.h"

#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::respec;

namespace {

/// Width of the arithmetic the merged loop's bounds are computed in: the
/// widest that index-set splitting uses.
constexpr unsigned kBoundBits = 128;

/// Bit width of an integer or index value (index as 64 bits); 0 for others.
unsigned bitWidth(Type type) { return getIntWidth(type).value_or(0); }

/// The operand of an integer cast (see classifyCast) or a freeze, or null
/// for other ops.
Value castOperand(Operation *op) {
  if (isa<LLVM::FreezeOp>(op) || classifyCast(op))
    return op->getOperand(0);
  return nullptr;
}

/// True if `op` converts to a type at least as wide, reading its operand
/// as signed (or freezes it): the mathematical value is kept.
bool isSignedWidening(Operation *op) {
  if (isa<LLVM::FreezeOp>(op))
    return true;
  return isa<arith::IndexCastOp, arith::ExtSIOp, LLVM::SExtOp>(op) &&
         classifyCast(op) != CastKind::Truncate;
}

/// True if `op` zero-extends its operand (or casts it to a type as wide,
/// with `orSame`).
bool isZeroExtension(Operation *op, bool orSame) {
  std::optional<CastKind> kind = classifyCast(op);
  if (!kind || !isa<arith::ExtUIOp, LLVM::ZExtOp, arith::IndexCastUIOp>(op))
    return false;
  return *kind == CastKind::ZeroExtend || *kind == CastKind::NonNegExtend ||
         (orSame && *kind == CastKind::Same);
}

/// `value` through integer casts between types of at least 32 bits. For
/// the thread and block indices (non-negative, below 2^31), each such cast
/// keeps the value.
Value stripIndexCasts(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    Value operand = castOperand(def);
    if (!operand || isa<LLVM::FreezeOp>(def) ||
        bitWidth(def->getResult(0).getType()) < 32 ||
        bitWidth(operand.getType()) < 32)
      return value;
    value = operand;
  }
  return value;
}

/// A non-negative constant, possibly through extensions (a block size the
/// specialization wrote as `zext 32`); extensions keep such a value.
std::optional<int64_t> nonNegativeConstant(Value value) {
  std::optional<int64_t> constant = getConstantThroughCasts(value);
  if (!constant || *constant < 0)
    return std::nullopt;
  return constant;
}

/// A node of a min/max expression over the terms' Gs, -inf and +inf.
struct BoundExpr {
  enum class Kind { NegInf, PosInf, Term, Max, Min } kind;
  Value term;
  int lhs = -1, rhs = -1;
};

/// A per-block value in global coordinates, in the normal form
/// max(a, min(b, F), min(c, E)); a, b and c index BoundExprs.
struct GlobalBound {
  int a, b, c;
};

class FusedRowMerger {
public:
  explicit FusedRowMerger(const FusedRow &fused)
      : fused(fused), tx(this->fused.row.getInductionVars()[0]) {}

  bool run() {
    scf::ParallelOp row = fused.row;
    if (row.getNumLoops() != 1 || getConstantIntValue(row.getStep()[0]) != 1 ||
        fused.width < 1)
      return false;
    std::optional<GlobalBound> lower = classify(row.getLowerBound()[0], 0);
    std::optional<GlobalBound> upper = classify(row.getUpperBound()[0], 0);
    if (!lower || !upper || !is(lower->b, BoundExpr::Kind::PosInf) ||
        !is(upper->a, BoundExpr::Kind::NegInf))
      return false;
    collectGlobalIndices();
    if (globalIndices.empty() || !bodyNeedsOnlyGlobalIndex())
      return false;
    rewrite(*lower, *upper);
    return true;
  }

private:
  // --- Bounds ----------------------------------------------------------

  /// True if `value` does not change from one fused block to the next.
  bool isBlockInvariant(Value value) {
    return isDefinedOutside(value, fused.blocks);
  }

  /// The coefficient a of `value = a * bx + (terms without bx)`, where that
  /// holds exactly (no wrap-around), following additions, subtractions,
  /// multiplications and shifts by constants and widening casts; nullopt
  /// otherwise. Ops inside the block loop computed only from values that do
  /// not depend on the block have coefficient 0.
  std::optional<int64_t> blockCoefficient(Value value, unsigned depth) {
    if (value == fused.blockIndex)
      return 1;
    if (isBlockInvariant(value))
      return 0;
    Operation *def = value.getDefiningOp();
    if (!def || depth > 32 || def->getNumRegions() != 0 ||
        !isMemoryEffectFree(def) || def->getNumResults() != 1)
      return std::nullopt;
    SmallVector<int64_t, 2> coefficients;
    for (Value operand : def->getOperands()) {
      std::optional<int64_t> c = blockCoefficient(operand, depth + 1);
      if (!c)
        return std::nullopt;
      coefficients.push_back(*c);
    }
    if (llvm::all_of(coefficients, [](int64_t c) { return c == 0; }))
      return 0;
    if (Value operand = castOperand(def)) {
      // bx (below 2^31 by CUDA's grid limits) fits any integer type of 32
      // bits or more; anything else must widen as signed.
      unsigned width = bitWidth(value.getType());
      if (operand == fused.blockIndex && width >= 32)
        return coefficients[0];
      if (isSignedWidening(def))
        return coefficients[0];
      // Zero- and sign-extension agree on non-negative values.
      if (isZeroExtension(def, /*orSame=*/true) &&
          isKnownNonNegative(operand, depth + 1))
        return coefficients[0];
      return std::nullopt;
    }
    if (!isExactArithmetic(def))
      return std::nullopt;
    if (isa<arith::AddIOp, LLVM::AddOp>(def) || isDisjointOr(def))
      return coefficients[0] + coefficients[1];
    if (isa<arith::SubIOp, LLVM::SubOp>(def))
      return coefficients[0] - coefficients[1];
    if (isa<arith::MulIOp, LLVM::MulOp>(def)) {
      for (unsigned side = 0; side < 2; ++side)
        if (coefficients[1 - side] == 0)
          if (std::optional<int64_t> k =
                  nonNegativeConstant(def->getOperand(1 - side)))
            return coefficients[side] * *k;
      return std::nullopt;
    }
    if (isa<arith::ShLIOp, LLVM::ShlOp>(def) && coefficients[1] == 0)
      if (std::optional<int64_t> k = nonNegativeConstant(def->getOperand(1)))
        if (*k < 32)
          return coefficients[0] * (int64_t(1) << *k);
    return std::nullopt;
  }

  /// True if `value`, read as signed, is never negative: bx through casts
  /// of at least 32 bits, non-negative constants, zero-extensions, and
  /// sums, products and left shifts of such values without signed wrap.
  bool isKnownNonNegative(Value value, unsigned depth) {
    if (std::optional<int64_t> constant = getConstantIntValue(value))
      return *constant >= 0;
    Operation *def = value.getDefiningOp();
    if (!def || depth > 32)
      return false;
    if (Value operand = castOperand(def)) {
      unsigned width = bitWidth(value.getType());
      if (operand == fused.blockIndex)
        return width >= 32;
      if (isZeroExtension(def, /*orSame=*/false))
        return true;
      return isSignedWidening(def) && isKnownNonNegative(operand, depth + 1);
    }
    if (!isa<arith::AddIOp, LLVM::AddOp, arith::MulIOp, LLVM::MulOp,
             arith::ShLIOp, LLVM::ShlOp>(def) ||
        !hasNoWrapFlag(def, /*isSigned=*/true))
      return false;
    return llvm::all_of(def->getOperands(), [&](Value operand) {
      return isKnownNonNegative(operand, depth + 1);
    });
  }

  /// Integer arithmetic whose result is the mathematical one: marked
  /// no-signed-wrap, a disjoint or, in index type (respec's own address
  /// and bound arithmetic) or at least as wide as index-set splitting's.
  static bool isExactArithmetic(Operation *op) {
    if (!isa<arith::AddIOp, LLVM::AddOp, arith::SubIOp, LLVM::SubOp,
             arith::MulIOp, LLVM::MulOp, arith::ShLIOp, LLVM::ShlOp>(op) &&
        !isDisjointOr(op))
      return false;
    Type type = op->getResult(0).getType();
    return isDisjointOr(op) || type.isIndex() || bitWidth(type) >= kBoundBits ||
           hasNoWrapFlag(op, /*isSigned=*/true);
  }

  int addExpr(BoundExpr expr) {
    exprs.push_back(expr);
    return exprs.size() - 1;
  }
  int negInf() { return addExpr({BoundExpr::Kind::NegInf}); }
  int posInf() { return addExpr({BoundExpr::Kind::PosInf}); }
  bool is(int expr, BoundExpr::Kind kind) { return exprs[expr].kind == kind; }

  /// max or min of two expressions, with -inf and +inf folded (a term is
  /// never infinite, so an expression is infinite exactly when it folds to
  /// an infinity).
  int combine(bool isMax, int a, int b) {
    using Kind = BoundExpr::Kind;
    Kind identity = isMax ? Kind::NegInf : Kind::PosInf;
    Kind absorbing = isMax ? Kind::PosInf : Kind::NegInf;
    if (a == b || is(a, identity) || is(b, absorbing))
      return b;
    if (is(b, identity) || is(a, absorbing))
      return a;
    return addExpr({isMax ? Kind::Max : Kind::Min, nullptr, a, b});
  }
  int max(int a, int b) { return combine(true, a, b); }
  int min(int a, int b) { return combine(false, a, b); }

  /// The normal forms of max(x, y) and min(x, y), by distributing min over
  /// max and using min(F, E) = F.
  GlobalBound maxOf(GlobalBound x, GlobalBound y) {
    return {max(x.a, y.a), max(x.b, y.b), max(x.c, y.c)};
  }
  GlobalBound minOf(GlobalBound x, GlobalBound y) {
    int a = min(x.a, y.a);
    int b = max(max(min(x.a, y.b), min(x.b, y.a)),
                max(max(min(x.b, y.b), min(x.b, y.c)), min(x.c, y.b)));
    int c = max(max(min(x.a, y.c), min(x.c, y.a)), min(x.c, y.c));
    return {a, b, c};
  }

  /// Never below the block's first index (never negative as a thread
  /// index).
  bool isNonNegative(const GlobalBound &bound) {
    return is(bound.b, BoundExpr::Kind::PosInf) ||
           is(bound.c, BoundExpr::Kind::PosInf);
  }
  /// Between the block's first and next block's first index.
  bool isWithinBlock(const GlobalBound &bound) {
    return isNonNegative(bound) && is(bound.a, BoundExpr::Kind::NegInf);
  }

  /// `value` (a per-block bound, or a value it is computed from) in global
  /// coordinates, or nullopt if it is not a min/max expression of terms,
  /// 0 and `width`.
  std::optional<GlobalBound> classify(Value value, unsigned depth) {
    if (depth > 32 || bitWidth(value.getType()) == 0)
      return std::nullopt;
    if (std::optional<int64_t> constant = nonNegativeConstant(value)) {
      if (*constant == 0)
        return GlobalBound{negInf(), posInf(), negInf()};
      if (*constant == fused.width)
        return GlobalBound{negInf(), negInf(), posInf()};
      return std::nullopt;
    }
    if (blockCoefficient(value, 0) == -fused.width &&
        bitWidth(value.getType()) <= kBoundBits)
      return GlobalBound{addExpr({BoundExpr::Kind::Term, value}), negInf(),
                         negInf()};
    Operation *def = value.getDefiningOp();
    if (!def || isBlockInvariant(value))
      return std::nullopt;
    if (Value operand = castOperand(def)) {
      std::optional<GlobalBound> inner = classify(operand, depth + 1);
      // Within the block, the bound is in [0, width]: any integer cast
      // keeps it.
      if (inner && (isWithinBlock(*inner) || isSignedWidening(def)))
        return inner;
      return std::nullopt;
    }
    bool isMax, isSigned;
    if (isa<arith::MaxSIOp, LLVM::SMaxOp>(def))
      isMax = true, isSigned = true;
    else if (isa<arith::MinSIOp, LLVM::SMinOp>(def))
      isMax = false, isSigned = true;
    else if (isa<arith::MaxUIOp, LLVM::UMaxOp>(def))
      isMax = true, isSigned = false;
    else if (isa<arith::MinUIOp, LLVM::UMinOp>(def))
      isMax = false, isSigned = false;
    else
      return std::nullopt;
    std::optional<GlobalBound> x = classify(def->getOperand(0), depth + 1);
    std::optional<GlobalBound> y = classify(def->getOperand(1), depth + 1);
    if (!x || !y)
      return std::nullopt;
    // Unsigned comparisons agree with signed ones on non-negative values.
    if (!isSigned && !(isNonNegative(*x) && isNonNegative(*y)))
      return std::nullopt;
    return isMax ? maxOf(*x, *y) : minOf(*x, *y);
  }

  // --- Body ------------------------------------------------------------

  /// `blockIndex * width` (through casts), as a multiplication or a shift.
  bool isBlockBase(Value value) {
    Operation *def = value.getDefiningOp();
    if (!def || def->getNumOperands() != 2)
      return false;
    auto isBlock = [&](Value v) {
      return stripIndexCasts(v) == fused.blockIndex;
    };
    if (isa<arith::MulIOp, LLVM::MulOp>(def)) {
      for (unsigned side = 0; side < 2; ++side)
        if (isBlock(def->getOperand(side)) &&
            nonNegativeConstant(def->getOperand(1 - side)) == fused.width)
          return true;
      return false;
    }
    if (isa<arith::ShLIOp, LLVM::ShlOp>(def) && isBlock(def->getOperand(0)) &&
        llvm::isPowerOf2_64(fused.width))
      return nonNegativeConstant(def->getOperand(1)) ==
             int64_t(llvm::Log2_64(fused.width));
    return false;
  }

  /// The body's `bx * width + tx`: additions (or disjoint ors) of the
  /// thread index and the block's base, both through casts, in types of at
  /// least 32 bits. Modulo 2^n they equal the global index truncated to n
  /// bits.
  void collectGlobalIndices() {
    fused.row.getBody()->walk([&](Operation *op) {
      if (op->getNumOperands() != 2 || op->getNumResults() != 1 ||
          bitWidth(op->getResult(0).getType()) < 32 ||
          !(isa<arith::AddIOp, LLVM::AddOp>(op) || isDisjointOr(op)))
        return;
      for (unsigned side = 0; side < 2; ++side)
        if (stripIndexCasts(op->getOperand(side)) == tx &&
            isBlockBase(op->getOperand(1 - side))) {
          globalIndices.push_back(op);
          return;
        }
    });
  }

  /// True if, once the global indices are replaced, nothing in the body
  /// uses tx, bx or a value computed per block: the ops that computed the
  /// global indices only for them go away (`dead`).
  bool bodyNeedsOnlyGlobalIndex() {
    dead.insert(globalIndices.begin(), globalIndices.end());
    // Uses point forward in the body: visiting it backwards finds every op
    // whose results only dead ops use.
    SmallVector<Operation *> ops;
    fused.row.getBody()->walk([&](Operation *op) { ops.push_back(op); });
    for (Operation *op : llvm::reverse(ops)) {
      if (dead.contains(op) || op->getNumResults() == 0 ||
          op->getNumRegions() != 0 || !isMemoryEffectFree(op))
        continue;
      bool unused = llvm::all_of(
          op->getUsers(), [&](Operation *user) { return dead.contains(user); });
      if (unused)
        dead.insert(op);
    }
    for (Operation *op : ops) {
      if (dead.contains(op))
        continue;
      for (Value operand : op->getOperands())
        if (operand == tx || isPerBlock(operand))
          return false;
    }
    return true;
  }

  /// True if `value` is defined in the block loop outside the row: bx, c
  /// or a value computed from them for this block.
  bool isPerBlock(Value value) {
    Operation *owner = value.getParentRegion()->getParentOp();
    return fused.blocks->isAncestor(owner) && !fused.row->isAncestor(owner);
  }

  // --- Rewrite ---------------------------------------------------------

  /// `value` at bx = 0, built before the block loop.
  Value atBlockZero(OpBuilder &builder, Value value) {
    IRMapping mapping;
    mapping.map(fused.blockIndex,
                arith::ConstantIndexOp::create(builder, value.getLoc(), 0));
    return cloneComputation(builder, value, mapping,
                            [&](Value v) { return isBlockInvariant(v); });
  }

  /// `value` as a kBoundBits-bit integer (read as signed).
  Value widen(OpBuilder &builder, Location loc, Value value) {
    Type wide = builder.getIntegerType(kBoundBits);
    if (value.getType() == wide)
      return value;
    if (value.getType().isIndex())
      return arith::IndexCastOp::create(builder, loc, wide, value);
    return arith::ExtSIOp::create(builder, loc, wide, value);
  }

  /// G, or `infinity` in its place when it is -inf or +inf.
  Value materialize(OpBuilder &builder, Location loc, int expr, Value negInf,
                    Value posInf) {
    const BoundExpr &node = exprs[expr];
    switch (node.kind) {
    case BoundExpr::Kind::NegInf:
      return negInf;
    case BoundExpr::Kind::PosInf:
      return posInf;
    case BoundExpr::Kind::Term: {
      Value &g = termsAtBlockZero[node.term];
      if (!g)
        g = widen(builder, loc, atBlockZero(builder, node.term));
      return g;
    }
    case BoundExpr::Kind::Max:
    case BoundExpr::Kind::Min: {
      if (Value built = materialized.lookup(expr))
        return built;
      Value a = materialize(builder, loc, node.lhs, negInf, posInf);
      Value b = materialize(builder, loc, node.rhs, negInf, posInf);
      Value built =
          node.kind == BoundExpr::Kind::Max
              ? arith::MaxSIOp::create(builder, loc, a, b).getResult()
              : arith::MinSIOp::create(builder, loc, a, b).getResult();
      materialized[expr] = built;
      return built;
    }
    }
    llvm_unreachable("unknown bound expression");
  }

  /// clamp(G, first, end) as index, for the expression G; the row's first
  /// and end global indices stand for -inf and +inf (clamping commutes
  /// with min and max).
  Value buildRowBound(OpBuilder &builder, Location loc, int expr, Value first,
                      Value end) {
    if (is(expr, BoundExpr::Kind::NegInf))
      return first;
    if (is(expr, BoundExpr::Kind::PosInf))
      return end;
    if (!wideFirst) {
      wideFirst = widen(builder, loc, first);
      wideEnd = widen(builder, loc, end);
    }
    Value g = materialize(builder, loc, expr, wideFirst, wideEnd);
    g = arith::MaxSIOp::create(builder, loc, g, wideFirst);
    g = arith::MinSIOp::create(builder, loc, g, wideEnd);
    return arith::IndexCastOp::create(builder, loc, builder.getIndexType(), g);
  }

  void rewrite(GlobalBound lower, GlobalBound upper) {
    scf::ParallelOp row = fused.row;
    Location loc = row.getLoc();
    OpBuilder builder(fused.blocks);
    Value width = arith::ConstantIndexOp::create(builder, loc, fused.width);
    Value first = arith::MulIOp::create(builder, loc, fused.firstBlock, width);
    Value end = arith::MulIOp::create(
        builder, loc,
        arith::AddIOp::create(builder, loc, fused.firstBlock, fused.blocksHere),
        width);
    Value lowerBound =
        buildRowBound(builder, loc, max(lower.a, lower.c), first, end);
    Value upperBound = buildRowBound(builder, loc, upper.c, first, end);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    auto merged =
        scf::ParallelOp::create(builder, loc, lowerBound, upperBound, one);
    merged->setDiscardableAttrs(row->getDiscardableAttrDictionary());

    Block *body = merged.getBody();
    builder.setInsertionPointToStart(body);
    Value k = merged.getInductionVars()[0];
    for (Operation *op : globalIndices) {
      Value index = op->getResult(0);
      Value replacement =
          index.getType().isIndex()
              ? k
              : arith::IndexCastUIOp::create(builder, loc, index.getType(), k)
                    .getResult();
      index.replaceAllUsesWith(replacement);
    }
    // Users before producers: each dead op's users are gone when it goes.
    SmallVector<Operation *> ops;
    row.getBody()->walk([&](Operation *op) { ops.push_back(op); });
    for (Operation *op : llvm::reverse(ops))
      if (dead.contains(op)) {
        op->dropAllUses();
        op->erase();
      }
    Block *from = row.getBody();
    body->getOperations().splice(body->getTerminator()->getIterator(),
                                 from->getOperations(), from->begin(),
                                 std::prev(from->end()));
    fused.blocks.erase();
  }

  FusedRow fused;
  Value tx;
  SmallVector<BoundExpr> exprs;
  SmallVector<Operation *> globalIndices;
  llvm::DenseSet<Operation *> dead;
  /// Built by the rewrite: each term's G, and the row's first and end
  /// global indices, as kBoundBits-bit integers.
  llvm::DenseMap<Value, Value> termsAtBlockZero;
  llvm::DenseMap<int, Value> materialized;
  Value wideFirst, wideEnd;
};

} // namespace

bool mlir::respec::mergeFusedRow(const FusedRow &fused) {
  return FusedRowMerger(fused).run();
}
