//===- ThreadAffineAccess.cpp - Addresses as affine maps of threads -------===//
//
// Why the casts are safe to look through: every integer on the way is at
// least 32 bits wide, and areDisjointAcrossThreads only concludes when the
// exact difference of two threads' offsets stays below 2^30. Additions,
// subtractions, multiplications and shifts are exact modulo 2^w, and an
// extension changes a difference by a multiple of 2^w at most, so the
// difference the program computes is the exact one plus a multiple of
// 2^32: either the exact one, or at least 2^32 - 2^30 bytes away from
// every overlap.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/ThreadAffineAccess.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::respec;

namespace {
constexpr unsigned kMaxDepth = 32;
/// Offsets of two threads further apart than this prove nothing (see the
/// file comment).
constexpr int64_t kMaxDifference = int64_t(1) << 30;
/// Pairs of thread-index differences enumerated at most.
constexpr int64_t kMaxDifferences = int64_t(1) << 16;

/// `expr` as sum(dims[i] * d_i) + sum(syms[j] * s_j) + constant.
struct LinearForm {
  SmallVector<int64_t> dims, syms;
  int64_t constant = 0;
};

bool addTerms(AffineExpr expr, int64_t scale, LinearForm &form) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    form.constant += scale * constant.getValue();
    return true;
  }
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    form.dims[dim.getPosition()] += scale;
    return true;
  }
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr)) {
    form.syms[sym.getPosition()] += scale;
    return true;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  if (binary.getKind() == AffineExprKind::Add)
    return addTerms(binary.getLHS(), scale, form) &&
           addTerms(binary.getRHS(), scale, form);
  if (binary.getKind() == AffineExprKind::Mul) {
    if (auto factor = dyn_cast<AffineConstantExpr>(binary.getRHS()))
      return addTerms(binary.getLHS(), scale * factor.getValue(), form);
    if (auto factor = dyn_cast<AffineConstantExpr>(binary.getLHS()))
      return addTerms(binary.getRHS(), scale * factor.getValue(), form);
  }
  return false; // mod, floordiv, ceildiv, products of unknowns
}

std::optional<LinearForm> getLinearForm(AffineMap map) {
  LinearForm form;
  form.dims.assign(map.getNumDims(), 0);
  form.syms.assign(map.getNumSymbols(), 0);
  if (map.getNumResults() != 1 || !addTerms(map.getResult(0), 1, form))
    return std::nullopt;
  return form;
}

/// Narrower integers may wrap around within the range of a thread block.
bool isWideEnough(Type type) {
  if (type.isIndex())
    return true;
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.getWidth() >= 32;
}

bool isIntegerCast(Operation *op) {
  return isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
             arith::ExtUIOp, arith::TruncIOp, LLVM::SExtOp, LLVM::ZExtOp,
             LLVM::TruncOp>(op);
}

/// What `raiseArm` makes of both yields of `ifOp`'s result `index`, when
/// the two are the same. LLVM hoists a computation common to both arms of a
/// branch (a `zext`, a pointer) into each arm, which lifting turns into an
/// scf.if result.
template <typename Raised, typename RaiseArm>
std::optional<Raised> raiseAlikeArms(scf::IfOp ifOp, unsigned index,
                                     RaiseArm raiseArm) {
  if (ifOp.getElseRegion().empty())
    return std::nullopt;
  std::optional<Raised> thenValue =
      raiseArm(ifOp.thenYield().getOperand(index));
  std::optional<Raised> elseValue =
      raiseArm(ifOp.elseYield().getOperand(index));
  if (!thenValue || !elseValue || *thenValue != *elseValue)
    return std::nullopt;
  return thenValue;
}

/// Bytes an op using `address` as an address accesses; nullopt for uses
/// that access memory in other ways.
std::optional<int64_t> accessedBytes(Value address, const DataLayout &layout) {
  int64_t bytes = 0;
  auto sizeOf = [&](Type type) {
    return static_cast<int64_t>(layout.getTypeSize(type).getFixedValue());
  };
  for (OpOperand &use : address.getUses()) {
    Operation *user = use.getOwner();
    if (auto load = dyn_cast<LLVM::LoadOp>(user)) {
      bytes = std::max(bytes, sizeOf(load.getType()));
    } else if (auto store = dyn_cast<LLVM::StoreOp>(user)) {
      if (store.getAddr() == address)
        bytes = std::max(bytes, sizeOf(store.getValue().getType()));
    } else if (auto rmw = dyn_cast<LLVM::AtomicRMWOp>(user)) {
      bytes = std::max(bytes, sizeOf(rmw.getVal().getType()));
    } else if (auto cmpxchg = dyn_cast<LLVM::AtomicCmpXchgOp>(user)) {
      bytes = std::max(bytes, sizeOf(cmpxchg.getVal().getType()));
    } else if (!isMemoryEffectFree(user)) {
      return std::nullopt;
    }
  }
  if (bytes == 0)
    return std::nullopt;
  return bytes;
}
} // namespace

ThreadAffineAnalysis::ThreadAffineAnalysis(scf::ParallelOp threadLoop)
    : threadLoop(threadLoop), layout(DataLayout::closest(threadLoop)) {}

AffineExpr ThreadAffineAnalysis::symbolFor(Value value) {
  auto [it, inserted] = symbolPositions.try_emplace(value, symbols.size());
  if (inserted)
    symbols.push_back(value);
  return getAffineSymbolExpr(it->second, threadLoop.getContext());
}

std::optional<AffineExpr> ThreadAffineAnalysis::raise(Value value,
                                                      unsigned depth) {
  MLIRContext *context = threadLoop.getContext();
  if (depth > kMaxDepth || !isWideEnough(value.getType()))
    return std::nullopt;
  for (auto [index, iv] : llvm::enumerate(threadLoop.getInductionVars()))
    if (value == iv)
      return getAffineDimExpr(index, context);
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return getAffineConstantExpr(constant.getSExtValue(), context);
  if (threadLoop.isDefinedOutsideOfLoop(value))
    return symbolFor(value);
  Operation *def = value.getDefiningOp();
  if (auto ifOp = dyn_cast_or_null<scf::IfOp>(def))
    return raiseAlikeArms<AffineExpr>(
        ifOp, cast<OpResult>(value).getResultNumber(),
        [&](Value arm) { return raise(arm, depth + 1); });
  if (!def || def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return std::nullopt;

  auto operand = [&](unsigned i) {
    return raise(def->getOperand(i), depth + 1);
  };
  if (isIntegerCast(def))
    return operand(0);
  // An `or disjoint` has no carries: it is the sum of its operands.
  if (isa<arith::AddIOp, LLVM::AddOp, arith::SubIOp, LLVM::SubOp, arith::MulIOp,
          LLVM::MulOp, arith::ShLIOp, LLVM::ShlOp>(def) ||
      isDisjointOr(def)) {
    std::optional<AffineExpr> lhs = operand(0), rhs = operand(1);
    if (!lhs || !rhs)
      return std::nullopt;
    if (isa<arith::AddIOp, LLVM::AddOp>(def) || isDisjointOr(def))
      return *lhs + *rhs;
    if (isa<arith::SubIOp, LLVM::SubOp>(def))
      return *lhs - *rhs;
    if (isa<arith::MulIOp, LLVM::MulOp>(def)) {
      if (isa<AffineConstantExpr>(*lhs) || isa<AffineConstantExpr>(*rhs))
        return *lhs * *rhs;
    } else if (auto shift = dyn_cast<AffineConstantExpr>(*rhs)) {
      if (shift.getValue() >= 0 && shift.getValue() < 62)
        return *lhs * (int64_t(1) << shift.getValue());
    }
  }
  // Anything else computed from values the same for all threads is one too.
  for (Value input : def->getOperands()) {
    std::optional<AffineExpr> raised = raise(input, depth + 1);
    if (!raised || !raised->isSymbolicOrConstant())
      return std::nullopt;
  }
  return symbolFor(value);
}

std::optional<AffineExpr> ThreadAffineAnalysis::raiseAddress(Value address,
                                                             Value &root) {
  MLIRContext *context = threadLoop.getContext();
  if (auto ifOp = address.getDefiningOp<scf::IfOp>()) {
    using RootedOffset = std::pair<Value, AffineExpr>;
    std::optional<RootedOffset> alike = raiseAlikeArms<RootedOffset>(
        ifOp, cast<OpResult>(address).getResultNumber(),
        [&](Value arm) -> std::optional<RootedOffset> {
          Value armRoot;
          if (std::optional<AffineExpr> offset = raiseAddress(arm, armRoot))
            return RootedOffset(armRoot, *offset);
          return std::nullopt;
        });
    if (!alike)
      return std::nullopt;
    root = alike->first;
    return alike->second;
  }
  auto gep = address.getDefiningOp<LLVM::GEPOp>();
  if (!gep) {
    if (!threadLoop.isDefinedOutsideOfLoop(address))
      return std::nullopt;
    root = address;
    return getAffineConstantExpr(0, context);
  }
  std::optional<AffineExpr> offset = raiseAddress(gep.getBase(), root);
  if (!offset)
    return std::nullopt;
  Type type = gep.getElemType();
  bool first = true;
  for (auto index : gep.getIndices()) {
    Type stepped = type;
    if (!first) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(type);
      if (!array)
        return std::nullopt; // struct fields: offsets not computed here
      stepped = array.getElementType();
    }
    int64_t bytes =
        static_cast<int64_t>(layout.getTypeSize(stepped).getFixedValue());
    std::optional<AffineExpr> term;
    if (auto dynamic = dyn_cast<Value>(index))
      term = raise(dynamic, 0);
    else
      term = getAffineConstantExpr(
          cast<IntegerAttr>(index).getValue().getSExtValue(), context);
    if (!term)
      return std::nullopt;
    *offset = *offset + *term * bytes;
    type = stepped;
    first = false;
  }
  return offset;
}

std::optional<ThreadAffineAccess>
ThreadAffineAnalysis::getAccess(Value address) {
  auto [cached, inserted] = accesses.try_emplace(address);
  if (inserted)
    cached->second = raiseAccess(address);
  return cached->second;
}

std::optional<ThreadAffineAccess>
ThreadAffineAnalysis::raiseAccess(Value address) {
  std::optional<int64_t> size = accessedBytes(address, layout);
  if (!size)
    return std::nullopt;
  Value root;
  std::optional<AffineExpr> offset = raiseAddress(address, root);
  if (!offset)
    return std::nullopt;
  return ThreadAffineAccess{
      root, AffineMap::get(threadLoop.getNumLoops(), symbols.size(), *offset),
      *size};
}

bool ThreadAffineAnalysis::areDisjointAcrossThreads(
    const ThreadAffineAccess &a, const ThreadAffineAccess &b) const {
  if (a.root != b.root)
    return false;
  // Maps raised earlier have fewer symbols: compare over all of them.
  auto widen = [&](AffineMap map) {
    return AffineMap::get(map.getNumDims(), symbols.size(), map.getResult(0));
  };
  std::optional<LinearForm> fa = getLinearForm(widen(a.offset));
  std::optional<LinearForm> fb = getLinearForm(widen(b.offset));
  if (!fa || !fb || fa->syms != fb->syms)
    return false;
  for (int64_t coefficient : llvm::concat<int64_t>(fa->dims, fb->dims))
    if (coefficient >= kMaxDifference || coefficient <= -kMaxDifference)
      return false;

  // The extent of each thread dimension (the op's accessors are not const).
  scf::ParallelOp loop = threadLoop;
  SmallVector<int64_t> extents;
  int64_t combinations = 1;
  for (unsigned d = 0; d < loop.getNumLoops(); ++d) {
    std::optional<int64_t> lower =
        getConstantThroughCasts(loop.getLowerBound()[d]);
    std::optional<int64_t> upper =
        getConstantThroughCasts(loop.getUpperBound()[d]);
    std::optional<int64_t> step = getConstantThroughCasts(loop.getStep()[d]);
    if (!lower || !upper || !step || *step != 1 || *upper <= *lower)
      return false;
    extents.push_back(*upper - *lower);
    combinations *= 2 * extents.back() - 1;
    if (combinations > kMaxDifferences)
      return false;
  }

  // Different coefficients (two arrays of one object, `node[ty]` and
  // `w[ty][tx]`): the offsets' ranges over all threads must not meet.
  if (fa->dims != fb->dims) {
    auto range = [&](const LinearForm &form) {
      int64_t low = form.constant, high = form.constant;
      for (auto [coefficient, extent] : llvm::zip(form.dims, extents)) {
        int64_t far = coefficient * (extent - 1);
        (far < 0 ? low : high) += far;
      }
      return std::pair(low, high);
    };
    auto [lowA, highA] = range(*fa);
    auto [lowB, highB] = range(*fb);
    if (std::max(highA, highB) - std::min(lowA, lowB) >= kMaxDifference)
      return false;
    return highA + a.size <= lowB || highB + b.size <= lowA;
  }

  // Every difference of two distinct threads' indices keeps the bytes
  // [offA, offA + sizeA) and [offB, offB + sizeB) apart.
  int64_t shift = fa->constant - fb->constant;
  SmallVector<int64_t> delta;
  for (int64_t extent : extents)
    delta.push_back(-(extent - 1));
  while (true) {
    bool sameThread = llvm::all_of(delta, [](int64_t d) { return d == 0; });
    if (!sameThread) {
      int64_t difference = shift;
      for (auto [coefficient, d] : llvm::zip(fa->dims, delta))
        difference += coefficient * d;
      if (difference >= kMaxDifference || difference <= -kMaxDifference)
        return false;
      if (difference > -a.size && difference < b.size)
        return false;
    }
    // Next difference vector, like an odometer.
    unsigned d = 0;
    for (; d < delta.size(); ++d) {
      if (delta[d] < extents[d] - 1) {
        ++delta[d];
        break;
      }
      delta[d] = -(extents[d] - 1);
    }
    if (d == delta.size())
      return true;
  }
}
