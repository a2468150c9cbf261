//===- VectorizeThreadLoops.cpp - Threads of a block as SIMD lanes --------===//
//
// On the CPU the threads of a block run as a loop, and LLVM's loop
// vectorizer vectorizes only innermost loops. A thread whose work is a
// serial loop (`for (j = 0; j < n; ++j) acc += f(mine, tile[j])`, a dot
// product, a search) leaves the thread loop outermost around a scalar loop,
// and the whole kernel runs scalar. This pass vectorizes such thread loops
// itself, the way a GPU runs a warp: `lanes` consecutive threads along x
// become the lanes of one vector, every operation of the thread body is
// emitted once for all of them, and the serial loop inside stays a loop
// whose per-thread state lives in vector registers.
//
// Values that do not depend on the lane (loop counters all threads share,
// addresses of shared tiles, kernel arguments) stay scalar; a load from an
// address that is the same for every lane is one scalar load. Loads and
// stores whose addresses are consecutive across lanes become vector loads
// and stores, others gathers and scatters (which keep the lane order for
// overlapping addresses, as the threads' sequential order on the CPU did).
// A branch on a lane-dependent condition runs both sides under lane masks;
// a loop whose exit differs between lanes runs until no lane is left, each
// lane's values frozen when it leaves. The threads past the last multiple
// of `lanes` run in a copy of the original loop.
//
// Running the threads of a block side by side instead of one after the
// other is what the GPU does, and CUDA gives the threads of a block no
// ordering without a barrier, so no race-free program can tell. The
// exception is respec's own localized shared-memory atomics (plain
// read-modify-writes that rely on one thread at a time): each runs once per
// active lane, in lane order, as the scalar load, operation and store it
// was. Loops with calls, atomics and other ops this pass does not know to
// widen are left alone.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::respec {
#define GEN_PASS_DEF_VECTORIZETHREADLOOPSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

//===----------------------------------------------------------------------===//
// Which values differ between lanes
//===----------------------------------------------------------------------===//

/// The values of a thread body that differ between the lanes of one vector
/// (threads with consecutive x and the same y and z): the x induction
/// variable and everything computed from it, including through memory
/// (loads from lane-dependent addresses) and control (results of branches
/// and loops whose condition differs between lanes). Unlike
/// ThreadUniformity, a load from a lane-invariant address is lane-invariant:
/// the lanes of a vector read it at the same moment.
class LaneVariance {
public:
  LaneVariance(Block &body, Value laneIV) {
    varying.insert(laneIV);
    // Loop-carried values make this a fixpoint; bodies are small.
    bool changed = true;
    while (changed) {
      changed = false;
      body.walk([&](Operation *op) { changed |= visit(op); });
    }
  }

  bool isVarying(Value value) const { return varying.contains(value); }

private:
  bool mark(Value value) { return varying.insert(value).second; }

  bool anyVarying(ValueRange values) const {
    return llvm::any_of(values, [&](Value v) { return isVarying(v); });
  }

  bool visit(Operation *op) {
    bool changed = false;
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      bool divergent = isVarying(ifOp.getCondition());
      for (unsigned i = 0; i < ifOp.getNumResults(); ++i)
        if (divergent || isVarying(ifOp.thenYield().getOperand(i)) ||
            (!ifOp.getElseRegion().empty() &&
             isVarying(ifOp.elseYield().getOperand(i))))
          changed |= mark(ifOp.getResult(i));
      return changed;
    }
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
      for (unsigned i = 0; i < forOp.getNumRegionIterArgs(); ++i)
        if (isVarying(forOp.getInitArgs()[i]) ||
            isVarying(yield.getOperand(i))) {
          changed |= mark(forOp.getRegionIterArgs()[i]);
          changed |= mark(forOp.getResult(i));
        }
      return changed;
    }
    if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
      scf::ConditionOp condition = whileOp.getConditionOp();
      for (unsigned i = 0; i < whileOp.getInits().size(); ++i)
        if (isVarying(whileOp.getInits()[i]) ||
            isVarying(whileOp.getYieldOp().getOperand(i)))
          changed |= mark(whileOp.getBeforeArguments()[i]);
      bool divergentExit = isVarying(condition.getCondition());
      for (auto [i, arg] : llvm::enumerate(condition.getArgs())) {
        if (isVarying(arg))
          changed |= mark(whileOp.getAfterArguments()[i]);
        if (divergentExit || isVarying(arg))
          changed |= mark(whileOp.getResult(i));
      }
      return changed;
    }
    if (op->getNumRegions() != 0)
      return false;
    // A localized atomic's old value differs between lanes even at one
    // address: each lane's read-modify-write sees the ones before it.
    if (op->hasAttr(kBlockSerialAttr) || anyVarying(op->getOperands()))
      for (Value result : op->getResults())
        changed |= mark(result);
    return changed;
  }

  llvm::DenseSet<Value> varying;
};

//===----------------------------------------------------------------------===//
// Widening
//===----------------------------------------------------------------------===//

/// LLVM dialect operations that apply to each element of vector operands.
bool isElementwiseLLVMOp(Operation *op) {
  if (isa<LLVM::FAddOp, LLVM::FSubOp, LLVM::FMulOp, LLVM::FDivOp, LLVM::FRemOp,
          LLVM::FNegOp, LLVM::AddOp, LLVM::SubOp, LLVM::MulOp, LLVM::SDivOp,
          LLVM::UDivOp, LLVM::SRemOp, LLVM::URemOp, LLVM::AndOp, LLVM::OrOp,
          LLVM::XOrOp, LLVM::ShlOp, LLVM::LShrOp, LLVM::AShrOp, LLVM::ICmpOp,
          LLVM::FCmpOp, LLVM::SelectOp, LLVM::SExtOp, LLVM::ZExtOp,
          LLVM::TruncOp, LLVM::SIToFPOp, LLVM::UIToFPOp, LLVM::FPToSIOp,
          LLVM::FPToUIOp, LLVM::FPExtOp, LLVM::FPTruncOp, LLVM::PtrToIntOp,
          LLVM::IntToPtrOp, LLVM::FreezeOp, LLVM::GEPOp>(op))
    return true;
  if (auto bitcast = dyn_cast<LLVM::BitcastOp>(op))
    return bitcast.getArg().getType().isIntOrFloat() &&
           bitcast.getType().isIntOrFloat();
  // Named intrinsics of one overloaded type: llvm.intr.sqrt, .fma, .smax...
  return op->getName().getStringRef().starts_with("llvm.intr.") &&
         op->hasTrait<OpTrait::SameOperandsAndResultType>();
}

bool isDivision(Operation *op) {
  return isa<LLVM::SDivOp, LLVM::UDivOp, LLVM::SRemOp, LLVM::URemOp,
             arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
             arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op);
}

/// How the lanes of a widened integer or pointer value step: lane l holds
/// lane 0's value plus l * `step` (units for integers, bytes for pointers).
/// Integers narrower than 64 bits step modulo their width. 64-bit values
/// extended from narrower ones step evenly only if the narrow value did not
/// wrap around between the lanes: `proof`, an i1 computed at run time, says
/// so (null: nothing to prove).
struct LaneStride {
  int64_t step;
  /// An i1 under which the lanes step evenly in the value's own width
  /// (null: always).
  Value proof = Value();
  /// The part of `proof` that a truncation keeps (null: none). A value
  /// extended to 64 bits needs a proof that the narrow value did not wrap
  /// between lanes; truncated back, modular arithmetic steps evenly
  /// without it, but still needs what the narrow value needed.
  Value narrowProof = Value();
};

/// True if `proof` is null or defined outside `op`.
static bool isAbsentOrDefinedOutside(Value proof, Operation *op) {
  return !proof || isDefinedOutside(proof, op);
}

/// Keeps, for the serial loops around the ops being widened, whether each
/// carries values that differ between lanes (an accumulator per thread).
struct LoopScope {
  LoopScope(SmallVectorImpl<bool> &loops, bool carriesLaneState)
      : loops(loops) {
    loops.push_back(carriesLaneState);
  }
  ~LoopScope() { loops.pop_back(); }
  SmallVectorImpl<bool> &loops;
};

/// Builds the vector form of one thread loop's body. Each value of the
/// original body maps to a scalar (the same for all lanes) or to a vector
/// of `lanes` elements; index values are vectors of i64, since the LLVM
/// dialect has no vectors of index. Fails on anything it cannot widen, and
/// the caller then discards what was built.
class ThreadBodyWidener {
public:
  ThreadBodyWidener(OpBuilder &builder, const LaneVariance &variance,
                    unsigned lanes, DataLayout layout, bool trustCarriedStrides)
      : b(builder), variance(variance), lanes(lanes), layout(layout),
        trustCarriedStrides(trustCarriedStrides) {}

  /// True if widening failed because a loop-carried value did not keep the
  /// stride assumed for it; widening again without the assumption may work.
  bool hadCarriedStrideMismatch() const { return carriedStrideMismatch; }

  /// Maps the x induction variable of the original body to the lanes
  /// `first, first + 1, ...`.
  void mapLaneInductionVar(Value original, Value first, Location loc) {
    Value firstI64 = toI64(first, loc);
    SmallVector<int64_t> ids = llvm::to_vector(llvm::seq<int64_t>(0, lanes));
    auto type = VectorType::get({lanes}, b.getI64Type());
    Value laneIds = arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, ArrayRef<int64_t>(ids)));
    Value lanesOfX =
        arith::AddIOp::create(b, loc, broadcast(firstI64, loc), laneIds);
    vectors.map(original, lanesOfX);
    strides[lanesOfX] = LaneStride{1, Value()};
  }

  void mapScalar(Value original, Value replacement) {
    scalars.map(original, replacement);
  }

  /// Gathers and scatters, and vector operations on floating-point values,
  /// emitted so far inside serial loops.
  unsigned getGathersInLoops() const { return gathersInLoops; }
  unsigned getFloatOpsInLoops() const { return floatOpsInLoops; }

  /// Gathers and scatters emitted so far inside serial loops that carry no
  /// per-lane state.
  unsigned getGathersInStatelessLoops() const {
    return gathersInStatelessLoops;
  }

  /// Widens the ops of `block` (but its terminator) under `mask` (null:
  /// every lane active).
  LogicalResult widenBlock(Block &block, Value mask) {
    for (auto it = block.begin(), end = std::prev(block.end()); it != end;
         ++it) {
      if (it->hasAttr(kBlockSerialAttr)) {
        SmallVector<Operation *> group = collectSerialGroup(&*it);
        if (group.empty() || failed(widenSerialGroup(group, mask)))
          return failure();
        it = Block::iterator(group.back());
        continue;
      }
      if (failed(widen(&*it, mask)))
        return failure();
    }
    return failure(inconsistent);
  }

private:
  //===--------------------------------------------------------------------===//
  // Types and value forms
  //===--------------------------------------------------------------------===//

  /// The vector type holding one value of `type` per lane; null if none.
  VectorType vectorTypeOf(Type type) {
    if (isa<IndexType>(type))
      type = b.getI64Type();
    if (!type.isIntOrFloat() && !isa<LLVM::LLVMPointerType>(type))
      return nullptr;
    return VectorType::get({lanes}, type);
  }

  bool isVector(Value value) { return isa<VectorType>(value.getType()); }

  Value toI64(Value value, Location loc) {
    if (!isa<IndexType>(value.getType()))
      return value;
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), value);
  }

  Value broadcast(Value scalar, Location loc) {
    scalar = toI64(scalar, loc);
    auto type = VectorType::get({lanes}, scalar.getType());
    Value poison = LLVM::PoisonOp::create(b, loc, type);
    Value zero = LLVM::ConstantOp::create(b, loc, b.getI32Type(), 0);
    Value first =
        LLVM::InsertElementOp::create(b, loc, type, poison, scalar, zero);
    SmallVector<int32_t> mask(lanes, 0);
    return LLVM::ShuffleVectorOp::create(b, loc, first, first, mask);
  }

  /// Lane `lane` of `vector` as a value of the original `type`.
  Value extractLane(Value vector, unsigned lane, Type type, Location loc) {
    Value position = LLVM::ConstantOp::create(b, loc, b.getI32Type(), lane);
    Value element = LLVM::ExtractElementOp::create(b, loc, vector, position);
    if (isa<IndexType>(type))
      return arith::IndexCastOp::create(b, loc, type, element);
    return element;
  }

  /// The widened form of an original value: scalar if lane-invariant.
  Value lookup(Value original) {
    if (Value vector = vectors.lookupOrNull(original))
      return vector;
    return scalars.lookupOrDefault(original);
  }

  /// The widened form of an original value as a vector.
  Value lookupVector(Value original, Location loc) {
    Value value = lookup(original);
    return isVector(value) ? value : broadcast(value, loc);
  }

  /// How the lanes of a widened value step; nullopt when they do not step
  /// evenly (or nobody knows).
  std::optional<LaneStride> strideOf(Value widened) {
    if (!isVector(widened))
      return LaneStride{0, Value()};
    auto found = strides.find(widened);
    if (found == strides.end())
      return std::nullopt;
    return found->second;
  }

  /// Both proofs (null: none needed).
  Value andProofs(Value first, Value second, Location loc) {
    if (!first || first == second)
      return second;
    if (!second)
      return first;
    return LLVM::AndOp::create(b, loc, first, second);
  }

  void setResult(Value original, Value widened,
                 std::optional<LaneStride> stride = std::nullopt) {
    if (isVector(widened)) {
      vectors.map(original, widened);
      if (stride)
        strides[widened] = *stride;
    } else {
      scalars.map(original, widened);
    }
  }

  Value andMasks(Value mask, Value condition, Location loc) {
    if (!mask)
      return condition;
    return LLVM::AndOp::create(b, loc, mask, condition);
  }

  Value notMask(Value condition, Location loc) {
    Value ones = LLVM::ConstantOp::create(
        b, loc, condition.getType(),
        DenseElementsAttr::get(cast<ShapedType>(condition.getType()), true));
    return LLVM::XOrOp::create(b, loc, condition, ones);
  }

  Value allTrue(Location loc) {
    auto type = VectorType::get({lanes}, b.getI1Type());
    return LLVM::ConstantOp::create(b, loc, type,
                                    DenseElementsAttr::get(type, true));
  }

  Value anyLane(Value mask, Location loc) {
    return LLVM::vector_reduce_or::create(b, loc, b.getI1Type(), mask);
  }

  //===--------------------------------------------------------------------===//
  // Strides of address arithmetic
  //===--------------------------------------------------------------------===//

  static unsigned bitWidthOf(Type type) {
    return isa<IndexType>(type) ? 64 : type.getIntOrFloatBitWidth();
  }

  /// The stride of the widened result `result` of integer arithmetic `op`
  /// from its operands' strides. Linear arithmetic is exact modulo the
  /// width; an extension of a narrower value to 64 bits steps evenly only
  /// if no lane wrapped around, which is checked at run time from the first
  /// and last lanes (one linear sequence whose span is below half the
  /// narrow range wraps at most once, and a wrap changes that difference).
  std::optional<LaneStride> strideOfArithmetic(Operation *op, Value result) {
    if (op->getNumResults() != 1 || op->getNumOperands() == 0)
      return std::nullopt;
    Type type = op->getResult(0).getType();
    if (!type.isIntOrIndex())
      return std::nullopt;
    Location loc = op->getLoc();
    auto operandStride = [&](unsigned i) {
      return strideOf(lookup(op->getOperand(i)));
    };
    auto constant = [&](unsigned i) {
      return getConstantIntValue(op->getOperand(i));
    };
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp, LLVM::SExtOp, LLVM::ZExtOp,
            LLVM::TruncOp>(op)) {
      std::optional<LaneStride> source = operandStride(0);
      Type sourceType = op->getOperand(0).getType();
      if (!source || !sourceType.isIntOrIndex())
        return std::nullopt;
      unsigned from = bitWidthOf(sourceType), to = bitWidthOf(type);
      if (to <= from)
        return LaneStride{source->step,
                          to < 64 ? source->narrowProof : source->proof,
                          source->narrowProof};
      if (from < 8 || to < 64 ||
          std::abs(source->step) * int64_t(lanes - 1) >=
              (int64_t(1) << (from - 1)))
        return std::nullopt;
      return LaneStride{
          source->step,
          andProofs(source->proof, buildNoWrapProof(result, source->step, loc),
                    loc),
          source->proof};
    }
    if (op->getNumOperands() != 2)
      return std::nullopt;
    std::optional<LaneStride> s0 = operandStride(0), s1 = operandStride(1);
    if (!s0 || !s1)
      return std::nullopt;
    Value proof = andProofs(s0->proof, s1->proof, loc);
    Value narrowProof = andProofs(s0->narrowProof, s1->narrowProof, loc);
    auto stepping = [&](int64_t step) {
      return LaneStride{step, proof, narrowProof};
    };
    if (isa<arith::AddIOp, LLVM::AddOp>(op))
      return stepping(s0->step + s1->step);
    if (isa<arith::SubIOp, LLVM::SubOp>(op))
      return stepping(s0->step - s1->step);
    if (isa<arith::MulIOp, LLVM::MulOp>(op)) {
      if (s1->step == 0)
        if (std::optional<int64_t> c = constant(1))
          return stepping(s0->step * *c);
      if (s0->step == 0)
        if (std::optional<int64_t> c = constant(0))
          return stepping(s1->step * *c);
      return std::nullopt;
    }
    if (isa<arith::ShLIOp, LLVM::ShlOp>(op) && s1->step == 0)
      if (std::optional<int64_t> c = constant(1); c && *c >= 0 && *c < 32)
        return stepping(s0->step * (int64_t(1) << *c));
    // Any operation of lanes that all agree gives lanes that all agree.
    if (s0->step == 0 && s1->step == 0 && isMemoryEffectFree(op))
      return stepping(0);
    if (std::optional<int64_t> guess = guessStrideOfBitOp(op, *s0, *s1);
        guess && isa<IntegerType>(type)) {
      Value check = buildLaneCheck(result, *guess, loc);
      return LaneStride{*guess, andProofs(proof, check, loc),
                        andProofs(narrowProof, check, loc)};
    }
    return std::nullopt;
  }

  /// The stride that a remainder, division, shift or mask by a constant
  /// gives when the lanes do not cross a multiple of the divisor (or of
  /// the mask's range): `tid % G` steps like `tid` and `tid / G` stays put
  /// within a group of G threads; an `or disjoint` steps like the sum of
  /// its operands. Nullopt for other operations. Every guess is checked at
  /// run time (buildLaneCheck).
  static std::optional<int64_t> guessStrideOfBitOp(Operation *op,
                                                   LaneStride lhs,
                                                   LaneStride rhs) {
    // Disjoint bits add up, but only in the lanes where they are disjoint:
    // under a mask an inactive lane (`tid | 1` for an odd `tid` that the
    // branch on `tid % 32 == 0` excludes) breaks the sequence, so this is a
    // guess to check too, not a rule.
    if (auto orOp = dyn_cast<LLVM::OrOp>(op); orOp && orOp.getIsDisjoint())
      return lhs.step + rhs.step;
    if (rhs.step != 0)
      return std::nullopt;
    std::optional<int64_t> c = getConstantIntValue(op->getOperand(1));
    if (!c)
      return std::nullopt;
    if (isa<LLVM::URemOp, LLVM::SRemOp, arith::RemUIOp, arith::RemSIOp>(op))
      return *c > 0 ? std::optional<int64_t>(lhs.step) : std::nullopt;
    if (isa<LLVM::UDivOp, LLVM::SDivOp, arith::DivUIOp, arith::DivSIOp>(op))
      return *c > 0 ? std::optional<int64_t>(0) : std::nullopt;
    if (isa<LLVM::LShrOp, LLVM::AShrOp, arith::ShRUIOp, arith::ShRSIOp>(op))
      return *c > 0 ? std::optional<int64_t>(0) : std::nullopt;
    if (isa<LLVM::AndOp, arith::AndIOp>(op)) {
      uint64_t mask = static_cast<uint64_t>(*c);
      if ((mask & (mask + 1)) == 0) // low bits: x % 2^k
        return lhs.step;
      uint64_t inverse = ~mask;
      if ((inverse & (inverse + 1)) == 0) // high bits: x - x % 2^k
        return 0;
    }
    return std::nullopt;
  }

  /// An i1 that is true if every lane of the integer vector `widened`
  /// equals lane 0 plus lane * step. Checking all lanes (not only the first
  /// and last) makes the guess of guessStrideOfBitOp safe whatever wrapped.
  Value buildLaneCheck(Value widened, int64_t step, Location loc) {
    auto vectorType = cast<VectorType>(widened.getType());
    Type element = vectorType.getElementType();
    unsigned width = element.getIntOrFloatBitWidth();
    SmallVector<APInt> offsets;
    for (unsigned lane = 0; lane < lanes; ++lane)
      offsets.push_back(APInt(width, static_cast<uint64_t>(step * lane),
                              /*isSigned=*/false, /*implicitTrunc=*/true));
    Value laneOffsets = LLVM::ConstantOp::create(
        b, loc, vectorType, DenseElementsAttr::get(vectorType, offsets));
    Value first = broadcast(extractLane(widened, 0, element, loc), loc);
    Value expected = LLVM::AddOp::create(b, loc, first, laneOffsets);
    Value equal = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                       widened, expected);
    Value all = LLVM::vector_reduce_and::create(b, loc, b.getI1Type(), equal);
    // Frozen: lanes that no mask lets touch memory may be poison.
    return LLVM::FreezeOp::create(b, loc, all);
  }

  /// An i1 that is true if the lanes of the 64-bit `extended` span exactly
  /// (lanes - 1) * step from the first to the last.
  Value buildNoWrapProof(Value extended, int64_t step, Location loc) {
    Type element = getElementTypeOrSelf(extended.getType());
    Value first = extractLane(extended, 0, element, loc);
    Value last = extractLane(extended, lanes - 1, element, loc);
    Value span = LLVM::SubOp::create(b, loc, last, first);
    Value expected = LLVM::ConstantOp::create(
        b, loc, element, static_cast<int64_t>(lanes - 1) * step);
    // Frozen: under a mask no lane of which is active, the index may be
    // poison, and a branch on poison is undefined; either branch is then
    // harmless (no lane touches memory).
    Value equal =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, span, expected);
    return LLVM::FreezeOp::create(b, loc, equal);
  }

  /// The byte stride of a widened GEP's lanes.
  std::optional<LaneStride> strideOfGEP(LLVM::GEPOp gep) {
    std::optional<LaneStride> base = strideOf(lookup(gep.getBase()));
    if (!base)
      return std::nullopt;
    LaneStride total = *base;
    bool known =
        forEachGEPIndexStep(gep, layout, [&](Value index, int64_t bytes) {
          // Narrower indices are sign-extended by the GEP itself, without
          // the no-wrap check an explicit extension gets.
          if (!index.getType().isInteger(64) &&
              !isa<IndexType>(index.getType()))
            return false;
          std::optional<LaneStride> s = strideOf(lookup(index));
          if (!s)
            return false;
          total.step += s->step * bytes;
          total.proof = andProofs(total.proof, s->proof, gep.getLoc());
          total.narrowProof =
              andProofs(total.narrowProof, s->narrowProof, gep.getLoc());
          return true;
        });
    if (!known)
      return std::nullopt;
    return total;
  }

  //===--------------------------------------------------------------------===//
  // Localized atomics
  //===--------------------------------------------------------------------===//

  /// The operations of one localized atomic starting at the block-serial
  /// load `first`: everything up to the block-serial store to the same
  /// address, with only pure region-free operations in between (what
  /// LocalizeSharedAtomics emits). Empty if `first` does not start one.
  static SmallVector<Operation *> collectSerialGroup(Operation *first) {
    auto load = dyn_cast<LLVM::LoadOp>(first);
    if (!load)
      return {};
    SmallVector<Operation *> group{first};
    for (Operation *op = first->getNextNode(); op; op = op->getNextNode()) {
      group.push_back(op);
      if (auto store = dyn_cast<LLVM::StoreOp>(op);
          store && store->hasAttr(kBlockSerialAttr))
        return store.getAddr() == load.getAddr() ? group
                                                 : SmallVector<Operation *>();
      if (op->hasAttr(kBlockSerialAttr) || op->getNumRegions() != 0 ||
          !isMemoryEffectFree(op))
        return {};
    }
    return {};
  }

  /// Runs a localized atomic once per active lane, in lane order (the order
  /// of the threads in the original loop), so that each read-modify-write
  /// stays whole; a lane's results are inserted into vectors. Even with
  /// lane-invariant operands it runs once per lane: each lane is one
  /// thread's atomic.
  LogicalResult widenSerialGroup(ArrayRef<Operation *> group, Value mask) {
    Location loc = group.front()->getLoc();
    llvm::SmallPtrSet<Operation *, 8> members(group.begin(), group.end());
    llvm::SetVector<Value> inputs;
    SmallVector<Value> escaping;
    for (Operation *op : group) {
      for (Value operand : op->getOperands())
        if (!members.contains(operand.getDefiningOp()))
          inputs.insert(operand);
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return !members.contains(group.front()->getBlock()
                                           ->findAncestorOpInBlock(*user));
            })) {
          if (!result.getType().isIntOrFloat())
            return failure();
          escaping.push_back(result);
        }
    }
    // One scalar read-modify-write per lane costs what a gather and a
    // scatter do: in a loop without floating-point work the scalar thread
    // loop is faster (a byte histogram ran 2.5-5x slower vectorized).
    countGather();
    SmallVector<Type> escapingTypes;
    for (Value value : escaping)
      escapingTypes.push_back(value.getType());
    SmallVector<SmallVector<Value>> perLane;
    for (unsigned lane = 0; lane < lanes; ++lane) {
      IRMapping mapping;
      for (Value input : inputs) {
        Value widened = lookup(input);
        mapping.map(input, isVector(widened) ? extractLane(widened, lane,
                                                           input.getType(), loc)
                                             : widened);
      }
      auto emitGroup = [&]() {
        for (Operation *op : group)
          b.clone(*op, mapping);
        SmallVector<Value> results;
        for (Value value : escaping)
          results.push_back(mapping.lookup(value));
        return results;
      };
      if (!mask) {
        perLane.push_back(emitGroup());
        continue;
      }
      Value active = extractLane(mask, lane, b.getI1Type(), loc);
      auto guard = scf::IfOp::create(b, loc, escapingTypes, active,
                                     /*withElseRegion=*/!escaping.empty());
      {
        OpBuilder::InsertionGuard insertion(b);
        clearBlock(guard.thenBlock());
        b.setInsertionPointToStart(guard.thenBlock());
        scf::YieldOp::create(b, loc, emitGroup());
        if (!escaping.empty()) {
          clearBlock(guard.elseBlock());
          b.setInsertionPointToStart(guard.elseBlock());
          SmallVector<Value> zeros;
          for (Type type : escapingTypes)
            zeros.push_back(buildZero(type, loc));
          scf::YieldOp::create(b, loc, zeros);
        }
      }
      perLane.push_back(SmallVector<Value>(guard.getResults()));
    }
    for (auto [i, original] : llvm::enumerate(escaping)) {
      auto type = VectorType::get({lanes}, original.getType());
      Value vector = LLVM::PoisonOp::create(b, loc, type);
      for (unsigned lane = 0; lane < lanes; ++lane) {
        Value position = LLVM::ConstantOp::create(b, loc, b.getI32Type(), lane);
        vector = LLVM::InsertElementOp::create(b, loc, type, vector,
                                               perLane[lane][i], position);
      }
      setResult(original, vector);
    }
    return success();
  }

  //===--------------------------------------------------------------------===//
  // Operations
  //===--------------------------------------------------------------------===//

  LogicalResult widen(Operation *op, Value mask) {
    if (op->hasAttr(kBlockSerialAttr))
      return failure();
    if (auto load = dyn_cast<LLVM::LoadOp>(op))
      return widenLoad(load, mask);
    if (auto store = dyn_cast<LLVM::StoreOp>(op))
      return widenStore(store, mask);
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return widenIf(ifOp, mask);
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      return widenFor(forOp, mask);
    if (auto whileOp = dyn_cast<scf::WhileOp>(op))
      return widenWhile(whileOp, mask);
    if (auto alloca = dyn_cast<LLVM::AllocaOp>(op))
      return widenAlloca(alloca);
    if (op->getNumRegions() != 0)
      return failure();
    bool anyVector = llvm::any_of(op->getOperands(), [&](Value operand) {
      return isVector(lookup(operand));
    });
    if (!anyVector) {
      // The same for every lane: once, as a scalar. Only pure operations
      // (and reads, handled above) may be shared like this; math
      // intrinsics called by name do not say they are pure, but are.
      auto call = dyn_cast<LLVM::CallIntrinsicOp>(op);
      if (!isMemoryEffectFree(op) && !(call && isElementwiseIntrinsic(call)))
        return failure();
      // A division no active lane reaches must not run (it may trap).
      if (mask && isDivision(op))
        return cloneGuarded(op, mask);
      b.clone(*op, scalars);
      return success();
    }
    if (isa<arith::IndexCastOp>(op))
      return widenIndexCast(op, /*isSigned=*/true);
    if (isa<arith::IndexCastUIOp>(op))
      return widenIndexCast(op, /*isSigned=*/false);
    if (auto call = dyn_cast<LLVM::CallIntrinsicOp>(op))
      return widenIntrinsicCall(call);
    bool elementwise =
        op->getDialect() && op->getDialect()->getNamespace() == "arith"
            ? op->hasTrait<OpTrait::Elementwise>()
            : isElementwiseLLVMOp(op);
    if (!elementwise || !isMemoryEffectFree(op))
      return failure();
    return widenElementwise(op, mask);
  }

  /// Clones `op` with vector operands and vector results.
  LogicalResult widenElementwise(Operation *op, Value mask) {
    Location loc = op->getLoc();
    IRMapping operands;
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      Value vector = lookupVector(operand, loc);
      // Inactive lanes must not divide by zero (or overflow): give them 1.
      if (mask && isDivision(op) && i == 1) {
        Value one = arith::ConstantOp::create(
            b, loc, vector.getType(),
            DenseElementsAttr::get(
                cast<ShapedType>(vector.getType()),
                b.getIntegerAttr(getElementTypeOrSelf(vector.getType()), 1)));
        vector = LLVM::SelectOp::create(b, loc, mask, vector, one);
      }
      operands.map(operand, vector);
    }
    for (Value result : op->getResults())
      if (!vectorTypeOf(result.getType()))
        return failure();
    Operation *clone = b.clone(*op, operands);
    for (auto [original, widened] :
         llvm::zip(op->getResults(), clone->getResults()))
      widened.setType(vectorTypeOf(original.getType()));
    countFloatOp(op);
    std::optional<LaneStride> stride;
    if (auto gep = dyn_cast<LLVM::GEPOp>(op))
      stride = strideOfGEP(gep);
    else if (clone->getNumResults() == 1)
      stride = strideOfArithmetic(op, clone->getResult(0));
    for (auto [original, widened] :
         llvm::zip(op->getResults(), clone->getResults()))
      setResult(original, widened, stride);
    return success();
  }

  /// index_cast between index (i64 lanes) and an integer type.
  LogicalResult widenIndexCast(Operation *op, bool isSigned) {
    Location loc = op->getLoc();
    Value source = lookupVector(op->getOperand(0), loc);
    VectorType target = vectorTypeOf(op->getResult(0).getType());
    unsigned from =
        getElementTypeOrSelf(source.getType()).getIntOrFloatBitWidth();
    unsigned to = target.getElementType().getIntOrFloatBitWidth();
    Value result = source;
    if (to < from)
      result = arith::TruncIOp::create(b, loc, target, source);
    else if (to > from && isSigned)
      result = arith::ExtSIOp::create(b, loc, target, source);
    else if (to > from)
      result = arith::ExtUIOp::create(b, loc, target, source);
    setResult(op->getResult(0), result, strideOfArithmetic(op, result));
    return success();
  }

  LogicalResult widenIntrinsicCall(LLVM::CallIntrinsicOp call) {
    if (!isElementwiseIntrinsic(call))
      return failure();
    Location loc = call.getLoc();
    Type resultType = call.getResult(0).getType();
    VectorType vectorType = vectorTypeOf(resultType);
    if (!vectorType)
      return failure();
    IRMapping operands;
    for (Value operand : call.getArgs()) {
      if (operand.getType() == resultType) {
        operands.map(operand, lookupVector(operand, loc));
        continue;
      }
      if (isVector(lookup(operand)))
        return failure();
      operands.map(operand, lookup(operand));
    }
    Operation *clone = b.clone(*call, operands);
    clone->getResult(0).setType(vectorType);
    setResult(call.getResult(0), clone->getResult(0));
    countFloatOp(call);
    return success();
  }

  /// Counts `op`, just widened, if it works on floating-point values
  /// inside a serial loop.
  void countFloatOp(Operation *op) {
    if (!enclosingLoops.empty() &&
        llvm::any_of(op->getOperandTypes(),
                     [](Type type) { return isa<FloatType>(type); }))
      ++floatOpsInLoops;
  }

  /// The type of a vector of `type`'s elements in consecutive memory:
  /// itself, except for i1, whose vectors LLVM packs into bits while each
  /// scalar i1 takes a byte.
  VectorType memoryVectorTypeOf(VectorType type) {
    Type element = type.getElementType();
    if (!element.isInteger(1))
      return type;
    return VectorType::get(type.getShape(), b.getI8Type());
  }

  static unsigned alignmentOf(std::optional<uint64_t> alignment, Type type,
                              const DataLayout &layout) {
    if (alignment && *alignment)
      return static_cast<unsigned>(*alignment);
    return static_cast<unsigned>(layout.getTypeABIAlignment(type));
  }

  /// Zero of an integer, index, float or pointer type: the value of a
  /// guarded op no lane ran (not poison, which a branch on it would make
  /// undefined behaviour).
  Value buildZero(Type type, Location loc) {
    if (isa<LLVM::LLVMPointerType>(type))
      return LLVM::ZeroOp::create(b, loc, type);
    return arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  }

  /// Clones the lane-invariant, single-result `op` to run once if any lane
  /// of `mask` is active; its result is zero otherwise.
  LogicalResult cloneGuarded(Operation *op, Value mask) {
    if (op->getNumResults() != 1)
      return failure();
    Location loc = op->getLoc();
    Type type = op->getResult(0).getType();
    auto guard = scf::IfOp::create(b, loc, TypeRange{type}, anyLane(mask, loc),
                                   /*withElseRegion=*/true);
    OpBuilder::InsertionGuard insertion(b);
    b.setInsertionPointToStart(guard.thenBlock());
    Value result = b.clone(*op, scalars)->getResult(0);
    scf::YieldOp::create(b, loc, result);
    b.setInsertionPointToStart(guard.elseBlock());
    scf::YieldOp::create(b, loc, buildZero(type, loc));
    scalars.map(op->getResult(0), guard.getResult(0));
    return success();
  }

  void countGather() {
    if (enclosingLoops.empty())
      return;
    ++gathersInLoops;
    if (!enclosingLoops.back())
      ++gathersInStatelessLoops;
  }

  bool anyVarying(ValueRange values) {
    return llvm::any_of(values, [&](Value v) { return variance.isVarying(v); });
  }

  LogicalResult widenLoad(LLVM::LoadOp load, Value mask) {
    if (load.getVolatile_() ||
        load.getOrdering() != LLVM::AtomicOrdering::not_atomic)
      return failure();
    Location loc = load.getLoc();
    Type type = load.getType();
    VectorType vectorType = vectorTypeOf(type);
    if (!vectorType)
      return failure();
    Value address = lookup(load.getAddr());
    unsigned alignment = alignmentOf(load.getAlignment(), type, layout);
    if (!isVector(address)) {
      if (!mask) {
        b.clone(*load, scalars);
        return success();
      }
      // One load for all lanes, when any lane is active (an inactive lane
      // may not touch memory the program would not have touched).
      return cloneGuarded(load, mask);
    }
    Value result;
    int64_t elementSize =
        static_cast<int64_t>(layout.getTypeSize(type).getFixedValue());
    std::optional<LaneStride> stride = strideOf(address);
    auto buildFastLoad = [&] {
      return stride->step == 0
                 ? buildUniformLoad(address, vectorType, mask, alignment, loc)
                 : buildContiguousLoad(address, vectorType, mask, alignment,
                                       loc);
    };
    if (!stride || (stride->step != elementSize && stride->step != 0)) {
      countGather();
      result = buildGather(address, vectorType, mask, alignment, loc);
    } else if (!stride->proof) {
      result = buildFastLoad();
    } else {
      // Consecutive (or one address) unless an index wrapped between the
      // lanes or they straddle a group boundary.
      auto choice = scf::IfOp::create(b, loc, TypeRange{vectorType},
                                      stride->proof, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard insertion(b);
      b.setInsertionPointToStart(choice.thenBlock());
      scf::YieldOp::create(b, loc, buildFastLoad());
      b.setInsertionPointToStart(choice.elseBlock());
      scf::YieldOp::create(
          b, loc, buildGather(address, vectorType, mask, alignment, loc));
      result = choice.getResult(0);
    }
    setResult(load.getResult(), result);
    return success();
  }

  /// One load from the address all lanes share (lane 0's), broadcast; under
  /// a mask only when some lane is active.
  Value buildUniformLoad(Value addresses, VectorType vectorType, Value mask,
                         unsigned alignment, Location loc) {
    Type element = vectorType.getElementType();
    Value first =
        extractLane(addresses, 0, getElementTypeOrSelf(addresses), loc);
    auto load = [&] {
      return LLVM::LoadOp::create(b, loc, element, first, alignment)
          .getResult();
    };
    if (!mask)
      return broadcast(load(), loc);
    auto guard = scf::IfOp::create(b, loc, TypeRange{element},
                                   anyLane(mask, loc), /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard insertion(b);
      b.setInsertionPointToStart(guard.thenBlock());
      scf::YieldOp::create(b, loc, load());
      b.setInsertionPointToStart(guard.elseBlock());
      scf::YieldOp::create(b, loc, buildZero(element, loc));
    }
    return broadcast(guard.getResult(0), loc);
  }

  /// A load of consecutive elements from lane 0's address on.
  Value buildContiguousLoad(Value addresses, VectorType vectorType, Value mask,
                            unsigned alignment, Location loc) {
    Value first =
        extractLane(addresses, 0, getElementTypeOrSelf(addresses), loc);
    VectorType memoryType = memoryVectorTypeOf(vectorType);
    Value result;
    if (!mask)
      result = LLVM::LoadOp::create(b, loc, memoryType, first, alignment);
    else
      result = LLVM::MaskedLoadOp::create(b, loc, memoryType, first, mask,
                                          Value(), alignment);
    if (memoryType != vectorType)
      result = LLVM::TruncOp::create(b, loc, vectorType, result);
    return result;
  }

  Value buildGather(Value addresses, VectorType vectorType, Value mask,
                    unsigned alignment, Location loc) {
    return LLVM::masked_gather::create(b, loc, vectorType, addresses,
                                       mask ? mask : allTrue(loc), ValueRange{},
                                       b.getI32IntegerAttr(alignment));
  }

  /// A store of consecutive elements from lane 0's address on.
  void buildContiguousStore(Value vectorValue, Value addresses, Value mask,
                            unsigned alignment, Location loc) {
    Value first =
        extractLane(addresses, 0, getElementTypeOrSelf(addresses), loc);
    VectorType memoryType =
        memoryVectorTypeOf(cast<VectorType>(vectorValue.getType()));
    if (memoryType != vectorValue.getType())
      vectorValue = LLVM::ZExtOp::create(b, loc, memoryType, vectorValue);
    if (!mask)
      LLVM::StoreOp::create(b, loc, vectorValue, first, alignment);
    else
      LLVM::MaskedStoreOp::create(b, loc, vectorValue, first, mask,
                                  b.getI32IntegerAttr(alignment));
  }

  /// A scatter stores lanes in order, so overlapping addresses end with
  /// the value of the last lane, as in the sequential thread loop.
  void buildScatter(Value vectorValue, Value addresses, Value mask,
                    unsigned alignment, Location loc) {
    OperationState state(loc, LLVM::masked_scatter::getOperationName());
    state.addOperands({vectorValue, addresses, mask ? mask : allTrue(loc)});
    state.addAttribute("alignment", b.getI32IntegerAttr(alignment));
    b.create(state);
  }

  LogicalResult widenStore(LLVM::StoreOp store, Value mask) {
    if (store.getVolatile_() ||
        store.getOrdering() != LLVM::AtomicOrdering::not_atomic)
      return failure();
    Location loc = store.getLoc();
    Type type = store.getValue().getType();
    if (!vectorTypeOf(type))
      return failure();
    Value address = lookup(store.getAddr());
    Value value = lookup(store.getValue());
    unsigned alignment = alignmentOf(store.getAlignment(), type, layout);
    if (!isVector(address) && !mask) {
      // Every lane stores to the same place: the last lane's value is what
      // the threads' sequential order leaves there.
      if (isVector(value))
        value = extractLane(value, lanes - 1, type, loc);
      LLVM::StoreOp::create(b, loc, value, address, alignment);
      return success();
    }
    Value vectorValue = isVector(value) ? value : broadcast(value, loc);
    int64_t elementSize =
        static_cast<int64_t>(layout.getTypeSize(type).getFixedValue());
    std::optional<LaneStride> stride = strideOf(address);
    if (!isVector(address) || !stride || stride->step != elementSize) {
      countGather();
      Value addresses = isVector(address) ? address : broadcast(address, loc);
      buildScatter(vectorValue, addresses, mask, alignment, loc);
      return success();
    }
    if (!stride->proof) {
      buildContiguousStore(vectorValue, address, mask, alignment, loc);
      return success();
    }
    // Consecutive unless a 32-bit index wrapped between the lanes.
    auto choice = scf::IfOp::create(b, loc, stride->proof,
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard insertion(b);
    b.setInsertionPointToStart(choice.thenBlock());
    buildContiguousStore(vectorValue, address, mask, alignment, loc);
    b.setInsertionPointToStart(choice.elseBlock());
    buildScatter(vectorValue, address, mask, alignment, loc);
    return success();
  }

  /// Each lane gets its own copy of a thread's local array, the copies one
  /// after the other.
  LogicalResult widenAlloca(LLVM::AllocaOp alloca) {
    std::optional<int64_t> count = getConstantIntValue(alloca.getArraySize());
    if (!count || *count <= 0 || isVector(lookup(alloca.getArraySize())))
      return failure();
    Location loc = alloca.getLoc();
    Type element = alloca.getElemType();
    Value total =
        LLVM::ConstantOp::create(b, loc, b.getI64Type(), *count * lanes);
    auto storage =
        LLVM::AllocaOp::create(b, loc, alloca.getType(), element, total,
                               alloca.getAlignment().value_or(0));
    SmallVector<int64_t> offsets;
    for (unsigned lane = 0; lane < lanes; ++lane)
      offsets.push_back(lane * *count);
    auto indexType = VectorType::get({lanes}, b.getI64Type());
    Value laneOffsets = arith::ConstantOp::create(
        b, loc, indexType,
        DenseElementsAttr::get(indexType, ArrayRef<int64_t>(offsets)));
    Value base = broadcast(storage, loc);
    Value addresses =
        LLVM::GEPOp::create(b, loc, VectorType::get({lanes}, alloca.getType()),
                            element, base, ValueRange{laneOffsets});
    std::optional<LaneStride> stride;
    if (*count == 1)
      stride = LaneStride{
          static_cast<int64_t>(layout.getTypeSize(element).getFixedValue()),
          Value()};
    setResult(alloca.getResult(), addresses, stride);
    return success();
  }

  /// Maps a loop's carried values to the widened loop's block `args`. With
  /// trustCarriedStrides, a lane-dependent value whose initial value steps
  /// evenly is assumed to keep that stride (an induction variable like
  /// `for (k = threadIdx.x; k < n; k += blockDim.x)`); checkCarried
  /// verifies the assumption at the yield.
  void mapCarried(ValueRange originals, ValueRange args, ValueRange inits) {
    for (auto [original, arg, init] : llvm::zip(originals, args, inits)) {
      std::optional<LaneStride> stride;
      if (trustCarriedStrides && isVector(arg))
        if (Value widenedInit = lookup(init); isVector(widenedInit))
          stride = strideOf(widenedInit);
      setResult(original, arg, stride);
    }
  }

  /// Fails the widening when a carried value assumed to step evenly is
  /// yielded with another stride (or one that needs a proof computed in
  /// the loop, which the next iteration could not see).
  void checkCarried(ValueRange originals, ValueRange yielded) {
    for (auto [original, next] : llvm::zip(originals, yielded)) {
      Value arg = lookup(original);
      auto assumed = strides.find(arg);
      if (!isVector(arg) || assumed == strides.end())
        continue;
      std::optional<LaneStride> actual = strideOf(lookup(next));
      auto sameOrNone = [](Value actualProof, Value assumedProof) {
        return !actualProof || actualProof == assumedProof;
      };
      if (!actual || actual->step != assumed->second.step ||
          !sameOrNone(actual->proof, assumed->second.proof) ||
          !sameOrNone(actual->narrowProof, assumed->second.narrowProof)) {
        carriedStrideMismatch = true;
        inconsistent = true;
      }
    }
  }

  /// Removes the terminator a builder of a structured op may have added.
  static void clearBlock(Block *block) {
    while (!block->empty())
      block->back().erase();
  }

  /// The widened types of `values` (vectors where lane-dependent).
  SmallVector<Type> widenedTypes(ValueRange originals) {
    SmallVector<Type> types;
    for (Value value : originals)
      types.push_back(variance.isVarying(value) ? vectorTypeOf(value.getType())
                                                : value.getType());
    return types;
  }

  /// `original`'s widened value in the form `type` asks for.
  Value coerce(Value original, Type type, Location loc) {
    if (isa<VectorType>(type))
      return lookupVector(original, loc);
    Value value = lookup(original);
    // LaneVariance and the widening disagree: give up on this loop.
    if (isVector(value))
      inconsistent = true;
    return value;
  }

  SmallVector<Value> coerceAll(ValueRange originals, TypeRange types,
                               Location loc) {
    SmallVector<Value> values;
    for (auto [original, type] : llvm::zip(originals, types))
      values.push_back(coerce(original, type, loc));
    return values;
  }

  bool typesAreWidenable(ValueRange values) {
    return llvm::all_of(values, [&](Value v) {
      return !variance.isVarying(v) || vectorTypeOf(v.getType());
    });
  }

  LogicalResult widenIf(scf::IfOp ifOp, Value mask) {
    Location loc = ifOp.getLoc();
    if (!typesAreWidenable(ifOp.getResults()))
      return failure();
    Value condition = lookup(ifOp.getCondition());
    if (!isVector(condition)) {
      SmallVector<Type> types = widenedTypes(ifOp.getResults());
      auto widened = scf::IfOp::create(b, loc, types, condition,
                                       /*withElse=*/true);
      auto widenRegion = [&](Region &from, Block *to) -> LogicalResult {
        OpBuilder::InsertionGuard insertion(b);
        clearBlock(to);
        b.setInsertionPointToStart(to);
        if (from.empty()) {
          scf::YieldOp::create(b, loc);
          return success();
        }
        if (failed(widenBlock(from.front(), mask)))
          return failure();
        auto yield = cast<scf::YieldOp>(from.front().getTerminator());
        scf::YieldOp::create(b, loc,
                             coerceAll(yield.getOperands(), types, loc));
        return success();
      };
      if (failed(widenRegion(ifOp.getThenRegion(), widened.thenBlock())) ||
          failed(widenRegion(ifOp.getElseRegion(), widened.elseBlock())))
        return failure();
      for (auto [original, result] :
           llvm::zip(ifOp.getResults(), widened.getResults()))
        setResult(original, result);
      return success();
    }
    // Lanes disagree: both sides run, each under its lanes' mask, and each
    // result is selected per lane.
    // Inactive lanes may hold poison (a gather's unloaded lanes): frozen,
    // their condition cannot make the masks poison.
    condition = LLVM::FreezeOp::create(b, loc, condition);
    Value thenMask = andMasks(mask, condition, loc);
    Value elseMask = andMasks(mask, notMask(condition, loc), loc);
    if (failed(widenBlock(*ifOp.thenBlock(), thenMask)))
      return failure();
    SmallVector<Value> thenValues;
    for (Value v : ifOp.thenYield().getOperands())
      thenValues.push_back(lookupVector(v, loc));
    SmallVector<Value> elseValues;
    if (!ifOp.getElseRegion().empty()) {
      if (failed(widenBlock(*ifOp.elseBlock(), elseMask)))
        return failure();
      for (Value v : ifOp.elseYield().getOperands())
        elseValues.push_back(lookupVector(v, loc));
    }
    for (auto [i, original] : llvm::enumerate(ifOp.getResults())) {
      // A side that yields poison leaves the result free to be the other
      // side's value (select with poison refines to it), which keeps that
      // side's lane stride: CFG structuring yields poison for a loop
      // counter on the exit path of `for (k = tid; k < n; k += step)`.
      if (isPoisonYield(ifOp.elseYield(), i)) {
        setResult(original, thenValues[i], strideOf(thenValues[i]));
        continue;
      }
      if (isPoisonYield(ifOp.thenYield(), i)) {
        setResult(original, elseValues[i], strideOf(elseValues[i]));
        continue;
      }
      setResult(original, LLVM::SelectOp::create(b, loc, condition,
                                                 thenValues[i], elseValues[i]));
    }
    return success();
  }

  /// Whether operand `i` of `yield` is a poison or undef constant.
  static bool isPoisonYield(scf::YieldOp yield, unsigned i) {
    Operation *def = yield.getOperand(i).getDefiningOp();
    return isa_and_nonnull<LLVM::PoisonOp, LLVM::UndefOp>(def);
  }

  LogicalResult widenFor(scf::ForOp forOp, Value mask) {
    Location loc = forOp.getLoc();
    Value lower = lookup(forOp.getLowerBound());
    Value upper = lookup(forOp.getUpperBound());
    Value step = lookup(forOp.getStep());
    if (isVector(lower) || isVector(upper) || isVector(step) ||
        !typesAreWidenable(forOp.getRegionIterArgs()))
      return failure();
    SmallVector<Type> types = widenedTypes(forOp.getRegionIterArgs());
    auto widened = scf::ForOp::create(
        b, loc, lower, upper, step, coerceAll(forOp.getInitArgs(), types, loc));
    scalars.map(forOp.getInductionVar(), widened.getInductionVar());
    mapCarried(forOp.getRegionIterArgs(), widened.getRegionIterArgs(),
               forOp.getInitArgs());
    {
      OpBuilder::InsertionGuard insertion(b);
      clearBlock(widened.getBody());
      b.setInsertionPointToEnd(widened.getBody());
      LoopScope scope(enclosingLoops, anyVarying(forOp.getRegionIterArgs()));
      if (failed(widenBlock(*forOp.getBody(), mask)))
        return failure();
      auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
      checkCarried(forOp.getRegionIterArgs(), yield.getOperands());
      scf::YieldOp::create(b, loc, coerceAll(yield.getOperands(), types, loc));
    }
    for (auto [original, result] :
         llvm::zip(forOp.getResults(), widened.getResults()))
      setResult(original, result);
    return success();
  }

  LogicalResult widenWhile(scf::WhileOp whileOp, Value mask) {
    scf::ConditionOp conditionOp = whileOp.getConditionOp();
    if (!typesAreWidenable(whileOp.getBeforeArguments()) ||
        !typesAreWidenable(whileOp.getAfterArguments()) ||
        !typesAreWidenable(whileOp.getResults()))
      return failure();
    if (!variance.isVarying(conditionOp.getCondition()))
      return widenUniformWhile(whileOp, mask);
    return widenDivergentWhile(whileOp, mask);
  }

  bool carriesLaneState(scf::WhileOp whileOp) {
    return anyVarying(whileOp.getBeforeArguments()) ||
           anyVarying(whileOp.getAfterArguments());
  }

  /// Widens the before region of `whileOp` into `block`, whose first
  /// arguments stand for the original before arguments.
  LogicalResult widenBeforeRegion(scf::WhileOp whileOp, Block *block,
                                  Value mask) {
    mapCarried(
        whileOp.getBeforeArguments(),
        block->getArguments().take_front(whileOp.getBeforeArguments().size()),
        whileOp.getInits());
    OpBuilder::InsertionGuard insertion(b);
    b.setInsertionPointToStart(block);
    LoopScope scope(enclosingLoops, carriesLaneState(whileOp));
    return widenBlock(*whileOp.getBeforeBody(), mask);
  }

  LogicalResult widenAfterRegion(scf::WhileOp whileOp, Block *block,
                                 Value mask) {
    // An after argument steps like the value the condition forwards to it,
    // when the proof of that stride (if any) is computed outside the loop:
    // one computed in the before region does not reach the after region.
    scf::ConditionOp condition = whileOp.getConditionOp();
    Operation *widenedLoop = block->getParentOp();
    for (auto [original, arg, forwarded] :
         llvm::zip(whileOp.getAfterArguments(), block->getArguments(),
                   condition.getArgs())) {
      std::optional<LaneStride> stride;
      if (Value before = lookup(forwarded); isVector(arg) && isVector(before))
        if (std::optional<LaneStride> s = strideOf(before);
            s && isAbsentOrDefinedOutside(s->proof, widenedLoop) &&
            isAbsentOrDefinedOutside(s->narrowProof, widenedLoop))
          stride = s;
      setResult(original, arg, stride);
    }
    OpBuilder::InsertionGuard insertion(b);
    b.setInsertionPointToStart(block);
    LoopScope scope(enclosingLoops, carriesLaneState(whileOp));
    return widenBlock(*whileOp.getAfterBody(), mask);
  }

  /// A loop all lanes leave together: the same loop, with vector state.
  LogicalResult widenUniformWhile(scf::WhileOp whileOp, Value mask) {
    Location loc = whileOp.getLoc();
    SmallVector<Type> beforeTypes = widenedTypes(whileOp.getBeforeArguments());
    SmallVector<Type> afterTypes = widenedTypes(whileOp.getAfterArguments());
    SmallVector<Type> resultTypes = widenedTypes(whileOp.getResults());
    auto widened = scf::WhileOp::create(
        b, loc, resultTypes, coerceAll(whileOp.getInits(), beforeTypes, loc));
    SmallVector<Location> beforeLocs(beforeTypes.size(), loc);
    SmallVector<Location> afterLocs(afterTypes.size(), loc);
    Block *before =
        b.createBlock(&widened.getBefore(), widened.getBefore().end(),
                      beforeTypes, beforeLocs);
    Block *after = b.createBlock(&widened.getAfter(), widened.getAfter().end(),
                                 afterTypes, afterLocs);
    b.setInsertionPointAfter(widened);
    scf::ConditionOp conditionOp = whileOp.getConditionOp();
    if (failed(widenBeforeRegion(whileOp, before, mask)))
      return failure();
    {
      OpBuilder::InsertionGuard insertion(b);
      b.setInsertionPointToEnd(before);
      // The forwarded values serve both the after region and the results;
      // a value that is lane-dependent in either is passed as a vector.
      SmallVector<Type> forwardTypes;
      for (auto [afterType, resultType] : llvm::zip(afterTypes, resultTypes))
        forwardTypes.push_back(isa<VectorType>(resultType) ? resultType
                                                           : afterType);
      if (forwardTypes != afterTypes)
        return failure();
      scf::ConditionOp::create(
          b, loc, lookup(conditionOp.getCondition()),
          coerceAll(conditionOp.getArgs(), afterTypes, loc));
    }
    if (failed(widenAfterRegion(whileOp, after, mask)))
      return failure();
    {
      OpBuilder::InsertionGuard insertion(b);
      b.setInsertionPointToEnd(after);
      scf::YieldOp::create(
          b, loc,
          coerceAll(whileOp.getYieldOp().getOperands(), beforeTypes, loc));
      checkCarried(whileOp.getBeforeArguments(),
                   whileOp.getYieldOp().getOperands());
    }
    for (auto [original, result] :
         llvm::zip(whileOp.getResults(), widened.getResults()))
      setResult(original, result);
    return success();
  }

  /// A loop lanes leave at different iterations: it runs while any lane is
  /// active. Each lane's results are the values it forwarded when it left,
  /// kept in extra loop-carried vectors; its side effects stop then too.
  LogicalResult widenDivergentWhile(scf::WhileOp whileOp, Value mask) {
    Location loc = whileOp.getLoc();
    scf::ConditionOp conditionOp = whileOp.getConditionOp();
    SmallVector<Type> beforeTypes = widenedTypes(whileOp.getBeforeArguments());
    SmallVector<Type> afterTypes = widenedTypes(whileOp.getAfterArguments());
    SmallVector<Type> resultTypes;
    for (Value result : whileOp.getResults())
      resultTypes.push_back(vectorTypeOf(result.getType()));
    Type maskType = VectorType::get({lanes}, b.getI1Type());

    // Carried: the original values, the active lanes, the lanes' results.
    SmallVector<Type> carriedBefore(beforeTypes);
    carriedBefore.push_back(maskType);
    llvm::append_range(carriedBefore, resultTypes);
    SmallVector<Type> carriedAfter(afterTypes);
    carriedAfter.push_back(maskType);
    llvm::append_range(carriedAfter, resultTypes);

    SmallVector<Value> inits = coerceAll(whileOp.getInits(), beforeTypes, loc);
    inits.push_back(mask ? mask : allTrue(loc));
    for (Type type : resultTypes)
      inits.push_back(LLVM::PoisonOp::create(b, loc, type));
    auto widened = scf::WhileOp::create(b, loc, carriedAfter, inits);
    Block *before = b.createBlock(
        &widened.getBefore(), widened.getBefore().end(), carriedBefore,
        SmallVector<Location>(carriedBefore.size(), loc));
    Block *after = b.createBlock(
        &widened.getAfter(), widened.getAfter().end(), carriedAfter,
        SmallVector<Location>(carriedAfter.size(), loc));
    b.setInsertionPointAfter(widened);
    unsigned numBefore = beforeTypes.size();
    unsigned numAfter = afterTypes.size();

    Value active = before->getArgument(numBefore);
    if (failed(widenBeforeRegion(whileOp, before, active)))
      return failure();
    {
      OpBuilder::InsertionGuard insertion(b);
      b.setInsertionPointToEnd(before);
      Value stays = LLVM::FreezeOp::create(
          b, loc, lookupVector(conditionOp.getCondition(), loc));
      Value continuing = LLVM::AndOp::create(b, loc, active, stays);
      Value leaving = LLVM::AndOp::create(b, loc, active, notMask(stays, loc));
      SmallVector<Value> forwarded =
          coerceAll(conditionOp.getArgs(), afterTypes, loc);
      forwarded.push_back(continuing);
      for (auto [i, arg] : llvm::enumerate(conditionOp.getArgs())) {
        Value kept = before->getArgument(numBefore + 1 + i);
        forwarded.push_back(LLVM::SelectOp::create(
            b, loc, leaving, lookupVector(arg, loc), kept));
      }
      scf::ConditionOp::create(b, loc, anyLane(continuing, loc), forwarded);
    }
    Value afterActive = after->getArgument(numAfter);
    if (failed(widenAfterRegion(whileOp, after, afterActive)))
      return failure();
    {
      OpBuilder::InsertionGuard insertion(b);
      b.setInsertionPointToEnd(after);
      SmallVector<Value> yielded =
          coerceAll(whileOp.getYieldOp().getOperands(), beforeTypes, loc);
      checkCarried(whileOp.getBeforeArguments(),
                   whileOp.getYieldOp().getOperands());
      yielded.push_back(afterActive);
      for (unsigned i = 0; i < resultTypes.size(); ++i)
        yielded.push_back(after->getArgument(numAfter + 1 + i));
      scf::YieldOp::create(b, loc, yielded);
    }
    for (auto [i, original] : llvm::enumerate(whileOp.getResults()))
      setResult(original, widened.getResult(numAfter + 1 + i));
    return success();
  }

  OpBuilder &b;
  const LaneVariance &variance;
  unsigned lanes;
  DataLayout layout;
  IRMapping scalars;
  IRMapping vectors;
  DenseMap<Value, LaneStride> strides;
  /// Whether loop-carried values are assumed to keep the lane stride of
  /// their initial value (checked at the loop's yield).
  bool trustCarriedStrides;
  bool carriedStrideMismatch = false;
  bool inconsistent = false;
  SmallVector<bool> enclosingLoops;
  unsigned gathersInStatelessLoops = 0;
  unsigned gathersInLoops = 0;
  unsigned floatOpsInLoops = 0;
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// True if LLVM cannot vectorize `loop` itself: a serial loop inside the
/// thread body keeps the thread loop from being innermost.
bool hasSerialLoop(scf::ParallelOp loop) {
  return loop.getBody()
      ->walk([](Operation *op) {
        return isa<scf::ForOp, scf::WhileOp>(op) ? WalkResult::interrupt()
                                                 : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Builds, before `loop`, a loop over the full vectors of its x dimension
/// (the last) with the widened body. Fails, building nothing, when the body
/// cannot be widened or would not be faster; `carriedStrideMismatch` then
/// says whether assuming strides of loop-carried values was the reason.
FailureOr<scf::ParallelOp> buildVectorLoop(scf::ParallelOp loop,
                                           Value vectorEnd, Value lanesValue,
                                           unsigned lanes,
                                           bool trustCarriedStrides,
                                           bool &carriedStrideMismatch) {
  unsigned x = loop.getNumLoops() - 1;
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  SmallVector<Value> uppers(loop.getUpperBound());
  SmallVector<Value> steps(loop.getStep());
  uppers[x] = vectorEnd;
  steps[x] = lanesValue;
  auto vectorLoop =
      scf::ParallelOp::create(b, loc, loop.getLowerBound(), uppers, steps);
  vectorLoop->setAttrs(loop->getAttrs());

  LaneVariance variance(*loop.getBody(), loop.getInductionVars()[x]);
  OpBuilder body = OpBuilder::atBlockBegin(vectorLoop.getBody());
  ThreadBodyWidener widener(body, variance, lanes, DataLayout::closest(loop),
                            trustCarriedStrides);
  for (unsigned d = 0; d < x; ++d)
    widener.mapScalar(loop.getInductionVars()[d],
                      vectorLoop.getInductionVars()[d]);
  widener.mapLaneInductionVar(loop.getInductionVars()[x],
                              vectorLoop.getInductionVars()[x], loc);
  // A serial loop without per-thread state that gathers or scatters across
  // lanes usually walks memory that is contiguous for each thread (a row
  // of its own), and LLVM vectorizes it along that loop: the scalar thread
  // loop is faster. A loop with per-thread state (an accumulator) stays
  // scalar in LLVM's hands, and vectors across threads win even with
  // gathers.
  // A loop that only moves integers between scattered addresses (a graph
  // walk: an edge's target, its cost, a store back) gains nothing from
  // vectors and pays for gathers, scatters and masks (bfs ran 3x slower):
  // gathers or scatters in serial loops without any floating-point
  // operation leave the thread loop scalar.
  auto isGatherBound = [&] {
    return widener.getGathersInLoops() > 0 &&
           widener.getFloatOpsInLoops() == 0;
  };
  if (failed(widener.widenBlock(*loop.getBody(), /*mask=*/Value())) ||
      widener.getGathersInStatelessLoops() != 0 || isGatherBound()) {
    carriedStrideMismatch = widener.hadCarriedStrideMismatch();
    vectorLoop->erase();
    return failure();
  }
  return vectorLoop;
}

/// Vectorizes the x dimension (the last) of `loop` by `lanes`: a loop over
/// the full vectors, then the original loop for the remaining threads.
/// Leaves the IR unchanged on failure.
LogicalResult vectorizeThreadLoop(scf::ParallelOp loop, unsigned lanes) {
  if (loop.getNumReductions() != 0 || loop.getNumResults() != 0)
    return failure();
  unsigned x = loop.getNumLoops() - 1;
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[x]);
  if (!step || *step != 1)
    return failure();
  std::optional<int64_t> lowerX = getConstantIntValue(loop.getLowerBound()[x]);
  std::optional<int64_t> upperX = getConstantIntValue(loop.getUpperBound()[x]);
  if (lowerX && upperX && *upperX - *lowerX < lanes)
    return failure();

  Location loc = loop.getLoc();
  OpBuilder b(loop);
  // The threads of full vectors: lower + (upper - lower) / lanes * lanes.
  Value lower = loop.getLowerBound()[x];
  Value upper = loop.getUpperBound()[x];
  SmallVector<Operation *> built;
  auto record = [&](Operation *op) {
    built.push_back(op);
    return op->getResult(0);
  };
  Value lanesValue = record(arith::ConstantIndexOp::create(b, loc, lanes));
  // An empty loop (upper below lower, as split thread loops can be) has
  // no full vector.
  Value nonEmptyUpper = record(arith::MaxSIOp::create(b, loc, upper, lower));
  Value span = record(arith::SubIOp::create(b, loc, nonEmptyUpper, lower));
  Value vectors = record(arith::DivUIOp::create(b, loc, span, lanesValue));
  Value fullSpan = record(arith::MulIOp::create(b, loc, vectors, lanesValue));
  Value vectorEnd = record(arith::AddIOp::create(b, loc, lower, fullSpan));

  bool carriedStrideMismatch = false;
  FailureOr<scf::ParallelOp> vectorLoop =
      buildVectorLoop(loop, vectorEnd, lanesValue, lanes,
                      /*trustCarriedStrides=*/true, carriedStrideMismatch);
  if (failed(vectorLoop) && carriedStrideMismatch)
    vectorLoop =
        buildVectorLoop(loop, vectorEnd, lanesValue, lanes,
                        /*trustCarriedStrides=*/false, carriedStrideMismatch);
  if (failed(vectorLoop)) {
    for (Operation *op : llvm::reverse(built))
      op->erase();
    return failure();
  }
  // The rest of the threads keep the original loop.
  loop.getLowerBoundMutable()[x].assign(vectorEnd);
  return success();
}

/// 32-bit words of a value of `type` per lane (pointers and index: 2).
unsigned wordsPerLane(Type type) {
  if (type.isIntOrFloat())
    return std::max(1u, type.getIntOrFloatBitWidth() / 32);
  return 2;
}

/// The 32-bit words per lane of the lane-varying values a serial loop of
/// `loop`'s body keeps in registers all along: values from before the loop
/// that it uses, and what it carries; the most over its serial loops.
unsigned serialLoopStateWords(scf::ParallelOp loop) {
  LaneVariance variance(*loop.getBody(), loop.getInductionVars().back());
  unsigned most = 0;
  loop.getBody()->walk([&](Operation *serial) {
    if (!isa<scf::ForOp, scf::WhileOp>(serial))
      return;
    llvm::SmallPtrSet<Value, 32> state;
    serial->walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        if (variance.isVarying(operand) && isDefinedOutside(operand, serial))
          state.insert(operand);
    });
    for (Value result : serial->getResults())
      if (variance.isVarying(result))
        state.insert(result);
    unsigned words = 0;
    for (Value value : state)
      words += wordsPerLane(value.getType());
    most = std::max(most, words);
  });
  return most;
}

struct VectorizeThreadLoopsPass
    : public respec::impl::VectorizeThreadLoopsPassBase<
          VectorizeThreadLoopsPass> {
  using VectorizeThreadLoopsPassBase::VectorizeThreadLoopsPassBase;

  /// `lanes`, or half of it (at least 2) when a serial loop's per-thread
  /// state at `lanes` would take more than half of the 32 vector registers
  /// of AVX-512 (16 lanes of 32-bit values each). With 16 lanes, kmeans'
  /// distance loop (16 features and its best distance per thread) ran 19%
  /// slower than with 8, while loops with a few values of state
  /// (particlefilter, nbody) ran 8-30% faster.
  unsigned lanesFor(scf::ParallelOp loop) const {
    constexpr unsigned kStateWordLanes = 16 * 16;
    if (lanes > 2 && serialLoopStateWords(loop) * lanes > kStateWordLanes)
      return lanes / 2;
    return lanes;
  }

  void runOnOperation() override {
    if (lanes < 2)
      return;
    for (scf::ParallelOp loop : collectThreadLoops(getOperation()))
      if (hasSerialLoop(loop))
        (void)vectorizeThreadLoop(loop, lanesFor(loop));
  }
};

} // namespace
