//===- InterleaveWarpLanes.cpp - Warps as interleaved lanes ---------------===//
//
// Warp-level primitives exchange values between the 32 lanes of a warp.
// Emulating them with block barriers (ExpandWarpIntrinsics.cpp) sends every
// exchanged value, and every value live across it, through memory, and
// splits the thread loop twice per primitive. This pass handles the common
// case where that is not needed: a thread loop without block barriers whose
// warp primitives are reached under control flow that is the same for every
// lane (the warp register-cache idiom: unrolled loops over per-thread
// arrays, shuffles at the top level or in uniform loops).
//
// Such a loop runs one warp at a time, with the 32 lanes interleaved: each
// operation of the thread body is emitted once per lane (once in all for
// lane-invariant pure operations; as one 32-lane vector operation for
// elementwise arithmetic), so that all lanes finish an operation before any
// starts the next, as on a GPU. A shuffle then reads another lane's value
// directly (one vector permutation when its operands are constants), and
// votes and reductions combine the 32 values without memory. Loops around
// a primitive must have lane-invariant bounds; an `if` or `switch` around
// one whose condition differs between lanes is emitted in line under a
// lane mask (side effects guarded per lane, results selected). Other
// control flow is emitted per lane. The partial last warp of a block runs
// the same code with its missing lanes masked off.
//
// Code per lane is the exception, kept small on purpose: a kernel with a
// few dozen primitives and accesses emitted lane by lane is tens of
// thousands of LLVM instructions, and LLVM's SLP vectorizer then takes
// minutes. So memory accesses whose lane addresses are not consecutive are
// one gather or scatter, runtime-operand shuffles one gather from a stack
// copy, and `while` loops with a lane-invariant condition run once for all
// lanes with scalar counters (addresses built from them keep known lane
// distances).
//
//===----------------------------------------------------------------------===//

#include "respec/Dialect/RespecDialect.h"
#include "respec/Target/LaneOffsets.h"
#include "respec/Transforms/BarrierIntrinsics.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"
#include "respec/Transforms/WarpSemantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetOperations.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::respec {
#define GEN_PASS_DEF_INTERLEAVEWARPLANESPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {
constexpr unsigned kWarpSize = 32;

/// Warp primitives this pass can express on interleaved lanes.
bool isInterleavable(WarpIntrinsicKind kind) {
  switch (kind) {
  case WarpIntrinsicKind::ShuffleIdx:
  case WarpIntrinsicKind::ShuffleUp:
  case WarpIntrinsicKind::ShuffleDown:
  case WarpIntrinsicKind::ShuffleXor:
  case WarpIntrinsicKind::Ballot:
  case WarpIntrinsicKind::Any:
  case WarpIntrinsicKind::All:
  case WarpIntrinsicKind::Uniform:
  case WarpIntrinsicKind::Reduce:
  case WarpIntrinsicKind::SyncWarp:
  case WarpIntrinsicKind::ActiveMask:
  case WarpIntrinsicKind::MatchAny:
  case WarpIntrinsicKind::MatchAll:
    return true;
  default:
    return false;
  }
}

bool containsWarpPrimitive(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return getWarpPrimitiveKind(nested) ? WalkResult::interrupt()
                                            : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The operands of a warp primitive's call.
ValueRange primitiveArguments(Operation *call) {
  if (auto intrinsic = dyn_cast<LLVM::CallIntrinsicOp>(call))
    return intrinsic.getArgs();
  return cast<LLVM::CallOp>(call).getArgOperands();
}

bool isShuffle(WarpIntrinsicKind kind) {
  return kind == WarpIntrinsicKind::ShuffleIdx ||
         kind == WarpIntrinsicKind::ShuffleUp ||
         kind == WarpIntrinsicKind::ShuffleDown ||
         kind == WarpIntrinsicKind::ShuffleXor;
}

/// The narrowest aligned group of lanes that `primitive` keeps its
/// exchanges within: a shuffle with a constant `c` operand stays in
/// segments of 32 - segmask lanes (CUDA's `width`); a butterfly with a
/// constant lane mask b stays within aligned blocks of the next power of
/// two above b, and may read an earlier segment when b reaches past its
/// own. Votes, reductions, matches and __syncwarp combine the whole warp.
unsigned exchangeGroupLanes(Operation *primitive, WarpIntrinsicKind kind) {
  if (!isShuffle(kind))
    return kWarpSize;
  ValueRange args = primitiveArguments(primitive);
  APInt cConst;
  if (!matchPattern(args[3], m_ConstantInt(&cConst)))
    return kWarpSize;
  unsigned segmask = (cConst.getZExtValue() >> 8) & 31;
  unsigned segment = kWarpSize - segmask;
  // Masks CUDA's `width` gives (high bits); others keep the whole warp.
  if (!llvm::isPowerOf2_32(segment) || (segmask & (segment - 1)) != 0)
    return kWarpSize;
  if (kind != WarpIntrinsicKind::ShuffleXor)
    return segment;
  APInt bConst;
  if (!matchPattern(args[2], m_ConstantInt(&bConst)))
    return kWarpSize;
  unsigned flipped = bConst.getZExtValue() & 31;
  unsigned pair = llvm::PowerOf2Ceil(flipped + 1);
  // Within a segment whose clamp admits every lane (CUDA's), lane ^ b stays
  // in the aligned block of `pair` lanes and is always valid.
  unsigned clamp = cConst.getZExtValue() & 31 & ~segmask;
  if (pair <= segment && clamp == (31 & ~segmask))
    return pair;
  return std::max(segment, pair);
}

bool isRegionFreePure(Operation *op) {
  return op->getNumRegions() == 0 && isMemoryEffectFree(op);
}

/// Whether `op` may run where the program would not run it: pure and
/// speculatable, or pure floating-point arithmetic (which never traps in
/// the default floating-point environment; integer division may).
bool isSafeToSpeculate(Operation *op) {
  if (!isRegionFreePure(op))
    return false;
  if (isSpeculatable(op))
    return true;
  return op->getNumResults() == 1 &&
         isa<FloatType>(getElementTypeOrSelf(op->getResult(0).getType())) &&
         llvm::all_of(op->getOperandTypes(), [](Type type) {
           return isa<FloatType>(getElementTypeOrSelf(type));
         });
}

//===----------------------------------------------------------------------===//
// Eligibility
//===----------------------------------------------------------------------===//

/// The element types a lane-varying value may have in vector form.
bool isVectorElementType(Type type) {
  return isa<FloatType>(type) ||
         (isa<IntegerType>(type) && type.getIntOrFloatBitWidth() <= 64);
}

/// Decides whether a thread loop can run as interleaved warps: no block
/// barriers, only single-block regions, only primitives this pass
/// implements, and lane-invariant control around every primitive.
class EligibilityCheck {
public:
  explicit EligibilityCheck(scf::ParallelOp loop) : loop(loop) {}

  bool run() {
    bool hasPrimitive = false;
    WalkResult result = loop.getBody()->walk([&](Operation *op) {
      if (isa<BarrierOp, ReduceBarrierOp>(op))
        return WalkResult::interrupt();
      for (Region &region : op->getRegions())
        if (!region.hasOneBlock() && !region.empty())
          return WalkResult::interrupt();
      if (auto kind = getWarpPrimitiveKind(op)) {
        hasPrimitive = true;
        if (!isInterleavable(*kind))
          return WalkResult::interrupt();
        // Shuffled values live as vectors (NVVM's shfl.sync is i32 or f32).
        if (isShuffle(*kind) &&
            !isVectorElementType(primitiveArguments(op)[1].getType()))
          return WalkResult::interrupt();
        groupLanes = std::max(groupLanes, exchangeGroupLanes(op, *kind));
      }
      return WalkResult::advance();
    });
    return hasPrimitive && !result.wasInterrupted() &&
           checkBlock(*loop.getBody());
  }

  /// After a successful run(): the fewest lanes per group that keeps every
  /// exchange of the loop's primitives inside one group.
  unsigned requiredGroupLanes() const { return groupLanes; }

  /// After a successful run(): whether a loop contains primitives.
  bool hasPrimitiveInLoop() const { return primitiveInLoop; }

private:
  /// Values the same in every lane: defined outside the thread loop, the
  /// induction variable of a loop emitted once for all lanes, or computed
  /// from such values by pure operations.
  bool isLaneInvariant(Value value) {
    if (!loop->isProperAncestor(value.getParentBlock()->getParentOp()) &&
        value.getParentBlock() != loop.getBody())
      return true;
    if (invariant.contains(value))
      return true;
    auto [cached, inserted] = known.try_emplace(value, false);
    if (!inserted)
      return cached->second;
    Operation *def = value.getDefiningOp();
    bool result = def && isRegionFreePure(def) && !getWarpPrimitiveKind(def) &&
                  llvm::all_of(def->getOperands(), [&](Value operand) {
                    return isLaneInvariant(operand);
                  });
    known[value] = result;
    return result;
  }

  bool checkBlock(Block &block) {
    for (Operation &op : block) {
      if (op.getNumRegions() == 0 || !containsWarpPrimitive(&op))
        continue;
      if (isa<scf::ForOp, scf::WhileOp>(op))
        primitiveInLoop = true;
      if (auto forOp = dyn_cast<scf::ForOp>(op)) {
        if (!isLaneInvariant(forOp.getLowerBound()) ||
            !isLaneInvariant(forOp.getUpperBound()) ||
            !isLaneInvariant(forOp.getStep()))
          return false;
        invariant.insert(forOp.getInductionVar());
      } else if (!isa<scf::IfOp, scf::IndexSwitchOp, scf::WhileOp,
                      scf::ExecuteRegionOp>(op)) {
        // An `if`, `switch` or `while` whose control differs between lanes
        // runs under a lane mask; `for` loops around primitives must have
        // lane-invariant bounds.
        return false;
      }
      for (Region &region : op.getRegions())
        if (!region.empty() && !checkBlock(region.front()))
          return false;
    }
    return true;
  }

  scf::ParallelOp loop;
  DenseSet<Value> invariant;
  DenseMap<Value, bool> known;
  unsigned groupLanes = 1;
  bool primitiveInLoop = false;
};

//===----------------------------------------------------------------------===//
// Interleaving
//===----------------------------------------------------------------------===//

Value constI32(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), value);
}

/// Elementwise operations that accept vectors of their scalar types.
bool isElementwise(Operation *op) {
  if (op->getDialect()->getNamespace() == "arith")
    return op->hasTrait<OpTrait::Elementwise>();
  static const llvm::StringSet<> llvmOps = {"llvm.fadd",
                                            "llvm.fsub",
                                            "llvm.fmul",
                                            "llvm.fdiv",
                                            "llvm.frem",
                                            "llvm.fneg",
                                            "llvm.add",
                                            "llvm.sub",
                                            "llvm.mul",
                                            "llvm.udiv",
                                            "llvm.sdiv",
                                            "llvm.urem",
                                            "llvm.srem",
                                            "llvm.and",
                                            "llvm.or",
                                            "llvm.xor",
                                            "llvm.shl",
                                            "llvm.lshr",
                                            "llvm.ashr",
                                            "llvm.icmp",
                                            "llvm.fcmp",
                                            "llvm.select",
                                            "llvm.sext",
                                            "llvm.zext",
                                            "llvm.trunc",
                                            "llvm.fpext",
                                            "llvm.fptrunc",
                                            "llvm.sitofp",
                                            "llvm.uitofp",
                                            "llvm.fptosi",
                                            "llvm.fptoui",
                                            "llvm.freeze",
                                            "llvm.bitcast",
                                            "llvm.intr.fma",
                                            "llvm.intr.fmuladd",
                                            "llvm.intr.fabs",
                                            "llvm.intr.sqrt",
                                            "llvm.intr.minnum",
                                            "llvm.intr.maxnum",
                                            "llvm.intr.minimum",
                                            "llvm.intr.maximum",
                                            "llvm.intr.copysign",
                                            "llvm.intr.floor",
                                            "llvm.intr.ceil",
                                            "llvm.intr.trunc",
                                            "llvm.intr.rint",
                                            "llvm.intr.round",
                                            "llvm.intr.roundeven",
                                            "llvm.intr.nearbyint",
                                            "llvm.intr.smax",
                                            "llvm.intr.smin",
                                            "llvm.intr.umax",
                                            "llvm.intr.umin",
                                            "llvm.intr.ctpop",
                                            "llvm.intr.bitreverse",
                                            "llvm.intr.fshl",
                                            "llvm.intr.fshr"};
  return llvmOps.contains(op->getName().getStringRef());
}

/// Emits the thread body once per lane of a SIMD group of `width` lanes (a
/// whole warp, or an aligned part of one whose lanes exchange nothing with
/// the rest). A lane-varying value lives either as one scalar per lane
/// (`lanes[i]` maps it) or as a vector of the group's lanes (`vectors` maps
/// it), converted on demand: elementwise pure operations are emitted once
/// on vectors, everything else per lane.
class LaneInterleaver {
public:
  LaneInterleaver(OpBuilder &builder, Operation *allocaAnchor, unsigned width)
      : b(builder), allocaAnchor(allocaAnchor), width(width), lanes(width),
        laneOffsets(width, DataLayout::closest(allocaAnchor),
                    [this](Value value) { return isUniformValue(value); }) {}

  IRMapping &lane(unsigned i) { return lanes[i]; }

  /// Records how the lanes' values of `original` (a thread index) differ.
  void seedLaneOffsets(Value original, LaneOffsets offsets) {
    laneOffsets.seed(original, std::move(offsets));
  }

  /// Makes only the lanes whose `laneActive` holds run side effects (a
  /// partial warp).
  void setActiveLanes(ArrayRef<Value> laneActive) {
    active.assign(laneActive.begin(), laneActive.end());
    existing.assign(laneActive.begin(), laneActive.end());
  }

  /// Emits the operations of `block` but its terminator.
  void emitBlock(Block &block) {
    for (Operation &op : block.without_terminator())
      emitOp(&op);
  }

private:
  /// Lane `i`'s scalar of `value`.
  Value at(unsigned i, Value value) {
    ensureScalars(value);
    return lanes[i].lookupOrDefault(value);
  }

  /// Gives a vector-form value its per-lane scalars, extracted right after the
  /// vector is defined so that they dominate every later use.
  void ensureScalars(Value value) {
    auto it = vectors.find(value);
    if (it == vectors.end() || lanes[0].contains(value))
      return;
    Value vector = it->second;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(vector);
    for (unsigned i = 0; i < width; ++i)
      lanes[i].map(value, LLVM::ExtractElementOp::create(
                              b, vector.getLoc(), vector,
                              constI32(b, vector.getLoc(), i)));
  }

  bool hasVectorForm(Value value) { return vectors.contains(value); }

  /// Whether every lane sees the same `value`.
  bool isUniformValue(Value value) {
    if (hasVectorForm(value))
      return false;
    Value first = lanes[0].lookupOrDefault(value);
    for (unsigned i = 1; i < width; ++i)
      if (lanes[i].lookupOrDefault(value) != first)
        return false;
    return true;
  }

  bool isUniform(Operation *op) {
    return llvm::all_of(op->getOperands(),
                        [&](Value v) { return isUniformValue(v); });
  }

  /// True if `block` is `ancestor` or nested in it.
  static bool isWithin(Block *block, Block *ancestor) {
    for (; block; block = block->getParentOp()
                              ? block->getParentOp()->getBlock()
                              : nullptr)
      if (block == ancestor)
        return true;
    return false;
  }

  /// The group's lanes of `value` as a vector, built (and cached) at the
  /// insertion point from the lanes' scalars if needed.
  Value vectorOf(Value value) {
    if (auto it = vectors.find(value); it != vectors.end())
      return it->second;
    Location loc = value.getLoc();
    auto type = VectorType::get({width}, value.getType());
    auto cached = built.find(value);
    if (cached != built.end() &&
        isWithin(b.getInsertionBlock(), cached->second.getParentBlock()))
      return cached->second;
    Value vector = LLVM::PoisonOp::create(b, loc, type);
    if (isUniformValue(value)) {
      vector = LLVM::InsertElementOp::create(b, loc, vector, at(0, value),
                                             constI32(b, loc, 0));
      vector = LLVM::ShuffleVectorOp::create(b, loc, vector, vector,
                                             SmallVector<int32_t>(width, 0));
    } else {
      for (unsigned i = 0; i < width; ++i)
        vector = LLVM::InsertElementOp::create(b, loc, vector, at(i, value),
                                               constI32(b, loc, i));
    }
    built[value] = vector;
    return vector;
  }

  void mapResults(unsigned i, Operation *from, ValueRange to) {
    for (auto [old, now] : llvm::zip(from->getResults(), to))
      lanes[i].map(old, now);
  }

  /// Makes every value `op` uses (including inside its regions) available
  /// as per-lane scalars.
  void prepareScalarOperands(Operation *op) {
    for (Value operand : op->getOperands())
      ensureScalars(operand);
    if (op->getNumRegions() == 0)
      return;
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    for (Value value : captured)
      ensureScalars(value);
  }

  bool isVectorizable(Operation *op) {
    if (op->getNumResults() != 1 || !isElementwise(op))
      return false;
    if (!isVectorElementType(op->getResult(0).getType()))
      return false;
    return llvm::all_of(op->getOperands(), [&](Value v) {
      return isVectorElementType(v.getType());
    });
  }

  void emitVectorOp(Operation *op) {
    IRMapping mapping;
    for (Value operand : op->getOperands())
      mapping.map(operand, vectorOf(operand));
    Operation *clone = b.clone(*op, mapping);
    Value result = clone->getResult(0);
    result.setType(VectorType::get({width}, result.getType()));
    vectors[op->getResult(0)] = result;
  }

  /// Whether `op` may run for lanes that are not active: speculatable
  /// pure operations (their results are ignored), warp primitives (which
  /// account for the active lanes) and control flow around primitives
  /// (whose contents are guarded in turn).
  bool runsForInactiveLanes(Operation *op) {
    if (getWarpPrimitiveKind(op))
      return true;
    if (op->getNumRegions() == 0)
      return isSafeToSpeculate(op);
    // Loops are emitted under the lane mask (emitMaskedWhile, emitFor).
    if (isa<scf::WhileOp>(op))
      return true;
    if (auto ifOp = dyn_cast<scf::IfOp>(op); ifOp && isSpeculatableIf(ifOp))
      return true;
    return containsWarpPrimitive(op);
  }

  /// Runs `op` per lane, only for the active lanes; inactive lanes get
  /// zero results.
  void emitGuarded(Operation *op) {
    prepareScalarOperands(op);
    // Unused results stay inside the guard (so that, e.g., unused inline
    // assembly is still recognized as dead later).
    TypeRange resultTypes =
        op->use_empty() ? TypeRange() : TypeRange(op->getResultTypes());
    for (unsigned i = 0; i < width; ++i) {
      auto guard = scf::IfOp::create(b, op->getLoc(), resultTypes, active[i],
                                     /*addThenBlock=*/true,
                                     /*addElseBlock=*/!resultTypes.empty());
      OpBuilder::InsertionGuard insertion(b);
      Block *thenBlock = &guard.getThenRegion().front();
      if (!thenBlock->empty())
        thenBlock->getTerminator()->erase();
      b.setInsertionPointToEnd(thenBlock);
      Operation *clone = b.clone(*op, lanes[i]);
      scf::YieldOp::create(b, op->getLoc(),
                           resultTypes.empty() ? ValueRange()
                                               : clone->getResults());
      if (!resultTypes.empty()) {
        Block *elseBlock = &guard.getElseRegion().front();
        if (!elseBlock->empty())
          elseBlock->getTerminator()->erase();
        b.setInsertionPointToEnd(elseBlock);
        SmallVector<Value> zeros;
        for (Type type : op->getResultTypes())
          zeros.push_back(LLVM::ZeroOp::create(b, op->getLoc(), type));
        scf::YieldOp::create(b, op->getLoc(), zeros);
        mapResults(i, op, guard.getResults());
      }
    }
  }

  void emitOp(Operation *op) {
    if (auto load = dyn_cast<LLVM::LoadOp>(op); load && emitLaneLoad(load))
      return;
    if (auto store = dyn_cast<LLVM::StoreOp>(op); store && emitLaneStore(store))
      return;
    if (!active.empty() && !runsForInactiveLanes(op) &&
        !isa<LLVM::AllocaOp>(op))
      return emitGuarded(op);
    if (std::optional<WarpIntrinsicKind> kind = getWarpPrimitiveKind(op))
      return emitPrimitive(op, *kind);
    if (op->getNumRegions() == 0) {
      if (isRegionFreePure(op) && isUniform(op)) {
        Operation *clone = b.clone(*op, lanes[0]);
        for (unsigned i = 1; i < width; ++i)
          mapResults(i, op, clone->getResults());
        return;
      }
      if (isRegionFreePure(op) && emitIfSameInAllLanes(op))
        return;
      if (isRegionFreePure(op) && isVectorizable(op))
        return emitVectorOp(op);
      if (auto gep = dyn_cast<LLVM::GEPOp>(op); gep && emitVectorGEP(gep))
        return;
      // A fixed-size local variable of each lane lives for the whole
      // launch of the block, outside the loop over warps.
      if (auto alloca = dyn_cast<LLVM::AllocaOp>(op);
          alloca && matchPattern(alloca.getArraySize(), m_Constant())) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(allocaAnchor);
        for (unsigned i = 0; i < width; ++i) {
          IRMapping sizeOnly;
          Operation *size = b.clone(*alloca.getArraySize().getDefiningOp());
          sizeOnly.map(alloca.getArraySize(), size->getResult(0));
          mapResults(i, op, b.clone(*op, sizeOnly)->getResults());
        }
        return;
      }
    }
    if (op->getNumRegions() != 0 && !containsWarpPrimitive(op))
      if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        // Without side effects both branches run for every lane as vector
        // code and the results are selected (if-conversion).
        if (isSpeculatableIf(ifOp))
          return emitMaskedIf(ifOp, /*needsMask=*/false);
        // The same condition in every lane: one branch for all lanes.
        if (isUniformValue(ifOp.getCondition()))
          return emitIf(ifOp);
        return emitPerLaneIf(ifOp);
      }
    // A `while` loop, with or without primitives, runs as one vector loop
    // while any lane still runs it (as on a GPU), rather than as one
    // scalar loop per lane.
    if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
      if (emitUniformWhile(whileOp))
        return;
      return emitMaskedWhile(whileOp);
    }
    // A counted loop with the same bounds in every lane runs once for all.
    if (auto forOp = dyn_cast<scf::ForOp>(op);
        forOp && isUniformValue(forOp.getLowerBound()) &&
        isUniformValue(forOp.getUpperBound()) &&
        isUniformValue(forOp.getStep()))
      return emitFor(forOp);
    if (op->getNumRegions() == 0 || !containsWarpPrimitive(op)) {
      prepareScalarOperands(op);
      for (unsigned i = 0; i < width; ++i)
        b.clone(*op, lanes[i]);
      return;
    }
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      return emitFor(forOp);
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return isUniformValue(ifOp.getCondition()) ? emitIf(ifOp)
                                                 : emitMaskedIf(ifOp);
    if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(op))
      return emitMaskedSwitch(switchOp);
    return emitExecuteRegion(cast<scf::ExecuteRegionOp>(op));
  }

  //===--------------------------------------------------------------------===//
  // Values and accesses whose lanes follow from the thread indices
  //===--------------------------------------------------------------------===//

  /// Integer arithmetic whose lanes all compute the same value from
  /// different operands (`gid / G` in a group of G lanes): emitted once,
  /// for lane 0, without the flags that could make lane 0 alone poison.
  bool emitIfSameInAllLanes(Operation *op) {
    if (op->getNumResults() != 1 || hasVectorForm(op->getResult(0)))
      return false;
    std::optional<LaneOffsets> offsets = laneOffsets.evaluate(op);
    if (!offsets || !offsets->isUniform())
      return false;
    prepareScalarOperands(op);
    Operation *clone = b.clone(*op, lanes[0]);
    dropPoisonGeneratingFlags(clone);
    for (unsigned i = 0; i < width; ++i)
      mapResults(i, op, clone->getResults());
    laneOffsets.seed(op->getResult(0), *offsets);
    return true;
  }


  /// An address computation with lane-varying indices in vector form, and
  /// lane addresses that follow no known pattern (an index loaded, or
  /// divided by an unknown block extent): one GEP giving the vector of the
  /// lanes' pointers, which loads and stores then use as one gather or
  /// scatter. Known patterns keep per-lane scalars (lane 0's serves a
  /// vector access).
  bool emitVectorGEP(LLVM::GEPOp gep) {
    auto isVectorOrUniform = [&](Value v) {
      return hasVectorForm(v) || isUniformValue(v);
    };
    if (!llvm::any_of(gep->getOperands(),
                      [&](Value v) { return hasVectorForm(v); }) ||
        !llvm::all_of(gep->getOperands(), isVectorOrUniform) ||
        laneOffsets.evaluate(gep))
      return false;
    IRMapping mapping;
    for (Value operand : gep->getOperands())
      mapping.map(operand, hasVectorForm(operand) ? vectorOf(operand)
                                                  : at(0, operand));
    Operation *clone = b.clone(*gep, mapping);
    Value result = clone->getResult(0);
    result.setType(VectorType::get({width}, result.getType()));
    vectors[gep.getResult()] = result;
    return true;
  }

  /// Bytes of a value of `type` in memory when a vector of it is packed
  /// the same way (whole bytes); 0 otherwise.
  static int64_t packedBytes(Type type) {
    if (!isVectorElementType(type) || type.getIntOrFloatBitWidth() % 8 != 0)
      return 0;
    return type.getIntOrFloatBitWidth() / 8;
  }

  /// Aligned runs of at least this many lanes reading consecutive elements
  /// become vector loads and stores.
  static constexpr unsigned kMinVectorRun = 4;

  /// The lanes `start` .. `start + run - 1` of the active-lane vector.
  Value activeRun(Location loc, unsigned start, unsigned run) {
    Value all = laneVector(loc, active);
    if (run == width)
      return all;
    return LLVM::ShuffleVectorOp::create(
        b, loc, all, all,
        llvm::to_vector(llvm::seq<int32_t>(start, start + run)));
  }

  /// A load whose lanes read consecutive elements (in aligned runs of
  /// lanes) becomes one vector load per run, masked where only some lanes
  /// run it (inactive lanes read nothing and get zero, as guarded scalar
  /// loads give them); a load from the same address in every lane becomes
  /// one scalar load; other known lane addresses (a stride, an array of
  /// structures) make one gather, which keeps the code one operation long
  /// where per-lane loads make LLVM's SLP vectorizer work for minutes on
  /// a kernel with many of them.
  bool emitLaneLoad(LLVM::LoadOp load) {
    Type type = load.getType();
    int64_t bytes = packedBytes(type);
    std::optional<LaneOffsets> offsets = plainAccessOffsets(load, bytes);
    Location loc = load.getLoc();
    if (!offsets) {
      // Unknown addresses in vector form, or under a lane mask: one
      // (masked) gather rather than a load, or a branch, per lane.
      if ((active.empty() && !hasVectorForm(load.getAddr())) ||
          !isPlainAccess(load, bytes))
        return false;
      emitGather(load, vectorOf(load.getAddr()), bytes);
      return true;
    }
    if (offsets->isUniform()) {
      if (!active.empty())
        return false;
      Operation *clone = b.clone(*load, lanes[0]);
      for (unsigned i = 0; i < width; ++i)
        mapResults(i, load, clone->getResults());
      return true;
    }
    unsigned run = offsets->contiguousRun(bytes, kMinVectorRun);
    if (!run) {
      emitGather(load, laneAddresses(loc, load.getAddr(), *offsets), bytes);
      return true;
    }
    unsigned alignment = load.getAlignment().value_or(bytes);
    auto runType = VectorType::get({run}, type);
    SmallVector<Value> parts;
    for (unsigned start = 0; start < width; start += run) {
      Value address = at(start, load.getAddr());
      if (active.empty()) {
        auto part = LLVM::LoadOp::create(b, loc, runType, address, alignment);
        copyAliasInfo(load, part);
        parts.push_back(part);
      } else {
        parts.push_back(LLVM::MaskedLoadOp::create(
            b, loc, runType, address, activeRun(loc, start, run),
            LLVM::ZeroOp::create(b, loc, runType), alignment));
      }
    }
    vectors[load.getResult()] = concatenate(loc, parts);
    return true;
  }

  /// A store whose lanes write consecutive elements (in aligned runs of
  /// lanes): one vector store per run, masked where only some lanes run it;
  /// other known lane addresses: one scatter.
  bool emitLaneStore(LLVM::StoreOp store) {
    Value value = store.getValue();
    int64_t bytes = packedBytes(value.getType());
    std::optional<LaneOffsets> offsets = plainAccessOffsets(store, bytes);
    Location loc = store.getLoc();
    unsigned alignment = store.getAlignment().value_or(bytes);
    if (!offsets) {
      // Unknown addresses in vector form, or under a lane mask: one
      // (masked) scatter rather than a store, or a branch, per lane.
      if ((active.empty() && !hasVectorForm(store.getAddr())) ||
          !isPlainAccess(store, bytes))
        return false;
      emitScatter(store, vectorOf(store.getAddr()), alignment);
      return true;
    }
    unsigned run = offsets->contiguousRun(bytes, kMinVectorRun);
    if (!run && offsets->isUniform() && active.empty()) {
      // Every lane stores to the same address: the last one's value stays.
      copyAliasInfo(store, LLVM::StoreOp::create(b, loc, at(width - 1, value),
                                                 at(width - 1, store.getAddr()),
                                                 alignment));
      return true;
    }
    if (!run) {
      emitScatter(store, laneAddresses(loc, store.getAddr(), *offsets),
                  alignment);
      return true;
    }
    Value vector = vectorOf(value);
    for (unsigned start = 0; start < width; start += run) {
      Value part = vector;
      if (run != width)
        part = LLVM::ShuffleVectorOp::create(
            b, loc, vector, vector,
            llvm::to_vector(llvm::seq<int32_t>(start, start + run)));
      Value address = at(start, store.getAddr());
      if (active.empty()) {
        copyAliasInfo(store,
                      LLVM::StoreOp::create(b, loc, part, address, alignment));
      } else {
        LLVM::MaskedStoreOp::create(b, loc, part, address,
                                    activeRun(loc, start, run),
                                    b.getI32IntegerAttr(alignment));
      }
    }
    return true;
  }

  /// The lanes' addresses of `address` as one vector of pointers: lane 0's
  /// address plus each lane's known byte distance from it. No inbounds:
  /// the distances are exact, but not every lane need run the access.
  Value laneAddresses(Location loc, Value address,
                      const LaneOffsets &offsets) {
    auto distanceType = VectorType::get({width}, b.getI64Type());
    SmallVector<int64_t> distances;
    for (int64_t offset : offsets.offsets)
      distances.push_back(
          int64_t(uint64_t(offset) - uint64_t(offsets.offsets[0])));
    Value distance = LLVM::ConstantOp::create(
        b, loc, distanceType,
        DenseElementsAttr::get(distanceType, ArrayRef(distances)));
    return LLVM::GEPOp::create(
        b, loc, VectorType::get({width}, address.getType()), b.getI8Type(),
        at(0, address), ValueRange{distance});
  }

  /// `load` for every active lane through the vector of the lanes'
  /// pointers `addresses`: one (masked) gather, zero for inactive lanes.
  void emitGather(LLVM::LoadOp load, Value addresses, int64_t bytes) {
    Location loc = load.getLoc();
    Value passThrough =
        LLVM::ZeroOp::create(b, loc, VectorType::get({width}, load.getType()));
    vectors[load.getResult()] = LLVM::masked_gather::create(
        b, loc, passThrough.getType(), addresses, activeMask(loc),
        ValueRange{passThrough}, load.getAlignment().value_or(bytes));
  }

  /// `store` for every active lane through the vector of the lanes'
  /// pointers `addresses`: one (masked) scatter, which stores in lane order
  /// where addresses coincide, as the lanes one after the other would.
  void emitScatter(LLVM::StoreOp store, Value addresses, unsigned alignment) {
    LLVM::masked_scatter::create(b, store.getLoc(), vectorOf(store.getValue()),
                                 addresses, activeMask(store.getLoc()),
                                 alignment);
  }

  /// The lanes that run side effects here, as a vector of i1.
  Value activeMask(Location loc) {
    return active.empty() ? allLanes(loc) : laneVector(loc, active);
  }

  /// Every lane of the group set.
  Value allLanes(Location loc) {
    auto type = VectorType::get({width}, b.getI1Type());
    return LLVM::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, b.getBoolAttr(true)));
  }

  /// How the lanes' addresses of `access` (a load or store of `bytes`-byte
  /// elements) differ, if it is a plain access of a packed type: not
  /// volatile, not atomic. Nullopt otherwise or when unknown.
  template <typename AccessOp>
  std::optional<LaneOffsets> plainAccessOffsets(AccessOp access,
                                                int64_t bytes) {
    if (!isPlainAccess(access, bytes))
      return std::nullopt;
    return laneOffsets.get(access.getAddr());
  }

  /// Whether `access` moves `bytes` > 0 bytes of a packed type, and is
  /// neither volatile nor atomic.
  template <typename AccessOp>
  static bool isPlainAccess(AccessOp access, int64_t bytes) {
    return bytes && !access.getVolatile_() &&
           access.getOrdering() == LLVM::AtomicOrdering::not_atomic;
  }

  /// Gives the vector access `to` the alias information of the scalar
  /// access `from` it replaces.
  template <typename AccessOp>
  static void copyAliasInfo(AccessOp from, AccessOp to) {
    to.setTbaaAttr(from.getTbaaAttr());
    to.setAliasScopesAttr(from.getAliasScopesAttr());
    to.setNoaliasScopesAttr(from.getNoaliasScopesAttr());
    to.setAccessGroupsAttr(from.getAccessGroupsAttr());
  }

  /// The vectors `parts` (equal lengths, a power-of-two count) end to end.
  Value concatenate(Location loc, SmallVector<Value> parts) {
    while (parts.size() > 1) {
      SmallVector<Value> joined;
      for (unsigned i = 0; i < parts.size(); i += 2) {
        int64_t length = cast<VectorType>(parts[i].getType()).getNumElements();
        joined.push_back(LLVM::ShuffleVectorOp::create(
            b, loc, parts[i], parts[i + 1],
            llvm::to_vector(llvm::seq<int32_t>(0, 2 * length))));
      }
      parts = std::move(joined);
    }
    return parts.front();
  }

  /// Zero values in the carried layout of `types`.
  SmallVector<Value> carriedZeros(Location loc, TypeRange types) {
    SmallVector<Value> zeros;
    for (Type type : carriedTypes(types))
      zeros.push_back(LLVM::ZeroOp::create(b, loc, type));
    return zeros;
  }

  /// The per-lane i1 scalars of an i1 vector.
  SmallVector<Value> lanesOf(Location loc, Value mask) {
    SmallVector<Value> result;
    for (unsigned i = 0; i < width; ++i)
      result.push_back(
          LLVM::ExtractElementOp::create(b, loc, mask, constI32(b, loc, i)));
    return result;
  }

  Value maskVector(Location loc, ArrayRef<Value> laneBits) {
    Value vector =
        LLVM::PoisonOp::create(b, loc, VectorType::get({width}, b.getI1Type()));
    for (unsigned i = 0; i < width; ++i)
      vector = LLVM::InsertElementOp::create(b, loc, vector, laneBits[i],
                                             constI32(b, loc, i));
    return vector;
  }

  /// A loop around warp primitives whose trip count may differ between
  /// lanes: it runs while any lane still runs it; a lane that leaves
  /// becomes inactive (no side effects, not counted by votes) and keeps the
  /// values it left with. Carried: the loop's values, the running lanes and
  /// each lane's exit values.
  void emitMaskedWhile(scf::WhileOp whileOp) {
    Location loc = whileOp.getLoc();
    SmallVector<Value> outer = active;
    auto condition = whileOp.getConditionOp();
    TypeRange exitTypes = whileOp.getResultTypes();
    Type maskType = VectorType::get({width}, b.getI1Type());
    Value trueValue = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);

    SmallVector<Value> inits = carriedOperands(whileOp.getInits());
    unsigned numLoop = inits.size();
    inits.push_back(outer.empty()
                        ? maskVector(loc, SmallVector<Value>(width, trueValue))
                        : maskVector(loc, outer));
    SmallVector<Value> exitInits = carriedZeros(loc, exitTypes);
    unsigned numExit = exitInits.size();
    llvm::append_range(inits, exitInits);

    SmallVector<Type> beforeTypes = carriedTypes(whileOp.getInits().getTypes());
    beforeTypes.push_back(maskType);
    SmallVector<Type> exitCarried = carriedTypes(exitTypes);
    llvm::append_range(beforeTypes, exitCarried);
    SmallVector<Type> afterTypes = carriedTypes(exitTypes);
    unsigned numForwarded = afterTypes.size();
    afterTypes.push_back(maskType);
    llvm::append_range(afterTypes, exitCarried);

    auto loop = scf::WhileOp::create(b, loc, afterTypes, inits);
    SmallVector<Location> beforeLocs(beforeTypes.size(), loc);
    SmallVector<Location> afterLocs(afterTypes.size(), loc);
    Block *before =
        b.createBlock(&loop.getBefore(), {}, beforeTypes, beforeLocs);
    Block *after = b.createBlock(&loop.getAfter(), {}, afterTypes, afterLocs);
    b.setInsertionPointAfter(loop);

    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToEnd(before);
      bindCarried(whileOp.getBeforeArguments(),
                  before->getArguments().take_front(numLoop));
      SmallVector<Value> running = lanesOf(loc, before->getArgument(numLoop));
      active = running;
      emitBlock(whileOp.getBefore().front());
      SmallVector<Value> stay, leave;
      for (unsigned i = 0; i < width; ++i) {
        Value cond = at(i, condition.getCondition());
        stay.push_back(arith::AndIOp::create(b, loc, running[i], cond));
        leave.push_back(arith::AndIOp::create(
            b, loc, running[i],
            arith::XOrIOp::create(b, loc, cond, trueValue)));
      }
      // Lanes leaving now record the values they leave with.
      ValueRange oldExits = before->getArguments().drop_front(numLoop + 1);
      SmallVector<Value> exits;
      Value leaveVector = maskVector(loc, leave);
      unsigned next = 0;
      for (Value forwarded : condition.getArgs()) {
        if (isVectorElementType(forwarded.getType())) {
          exits.push_back(arith::SelectOp::create(
              b, loc, leaveVector, vectorOf(forwarded), oldExits[next++]));
          continue;
        }
        for (unsigned i = 0; i < width; ++i)
          exits.push_back(arith::SelectOp::create(
              b, loc, leave[i], at(i, forwarded), oldExits[next++]));
      }
      Value stayVector = maskVector(loc, stay);
      Type bitsType = b.getIntegerType(width);
      Value anyStays = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ne,
          LLVM::BitcastOp::create(b, loc, bitsType, stayVector),
          arith::ConstantIntOp::create(b, loc, bitsType, 0));
      SmallVector<Value> forwardedOut = carriedOperands(condition.getArgs());
      forwardedOut.push_back(stayVector);
      llvm::append_range(forwardedOut, exits);
      scf::ConditionOp::create(b, loc, anyStays, forwardedOut);
    }
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToEnd(after);
      bindCarried(whileOp.getAfterArguments(),
                  after->getArguments().take_front(numForwarded));
      active = lanesOf(loc, after->getArgument(numForwarded));
      emitBlock(whileOp.getAfter().front());
      SmallVector<Value> yielded = carriedOperands(
          whileOp.getAfter().front().getTerminator()->getOperands());
      yielded.push_back(after->getArgument(numForwarded));
      llvm::append_range(yielded,
                         after->getArguments().drop_front(numForwarded + 1));
      scf::YieldOp::create(b, loc, yielded);
    }
    active = outer;
    bindCarried(whileOp.getResults(),
                loop.getResults().drop_front(numForwarded + 1));
    (void)numExit;
  }

  /// A `while` loop whose condition is the same in every lane (a counted
  /// loop that clang rotated: `k = 0; do { ... } while (++k < n)`) runs once
  /// for all lanes, as a GPU runs it, with its lane-invariant carried
  /// values as scalars: addresses built from them keep known lane offsets
  /// (vector accesses) and no lane mask is needed. Only where every lane
  /// that exists runs it (no enclosing lane mask), so that the loop runs
  /// exactly as in any one lane. False (nothing emitted) otherwise.
  bool emitUniformWhile(scf::WhileOp whileOp) {
    if (!active.empty() && ArrayRef(active) != ArrayRef(existing))
      return false;
    auto condition = whileOp.getConditionOp();
    Block &beforeBlock = whileOp.getBefore().front();
    Block &afterBlock = whileOp.getAfter().front();
    Operation *yield = afterBlock.getTerminator();
    // Greatest fixpoint: a carried value is invariant if its initial value
    // is and what the loop carries on is, given the invariant ones.
    SmallVector<bool> carriedUniform;
    for (Value init : whileOp.getInits())
      carriedUniform.push_back(isUniformValue(init));
    SmallVector<bool> forwardedUniform(condition.getArgs().size(), true);
    for (bool changed = true; changed;) {
      changed = false;
      DenseSet<Value> assumed =
          flaggedValues(beforeBlock.getArguments(), carriedUniform);
      DenseMap<Value, bool> cache;
      auto demote = [&](ValueRange values, SmallVector<bool> &uniform) {
        for (auto [value, isUniform] : llvm::zip(values, uniform))
          if (isUniform && !isLoopInvariant(value, whileOp, assumed, cache)) {
            isUniform = false;
            changed = true;
          }
      };
      // The condition's region sees only the `before` arguments, what the
      // loop carries on only the `after` ones.
      demote(condition.getArgs(), forwardedUniform);
      llvm::set_union(assumed, flaggedValues(afterBlock.getArguments(),
                                             forwardedUniform));
      demote(yield->getOperands(), carriedUniform);
    }
    DenseMap<Value, bool> cache;
    if (!isLoopInvariant(condition.getCondition(), whileOp,
                         flaggedValues(beforeBlock.getArguments(),
                                       carriedUniform),
                         cache))
      return false;

    Location loc = whileOp.getLoc();
    auto loop = scf::WhileOp::create(
        b, loc, mixedTypes(whileOp.getResultTypes(), forwardedUniform),
        mixedOperands(whileOp.getInits(), carriedUniform));
    SmallVector<Type> beforeTypes =
        mixedTypes(whileOp.getInits().getTypes(), carriedUniform);
    SmallVector<Type> afterTypes =
        mixedTypes(whileOp.getResultTypes(), forwardedUniform);
    Block *before =
        b.createBlock(&loop.getBefore(), {}, beforeTypes,
                      SmallVector<Location>(beforeTypes.size(), loc));
    Block *after = b.createBlock(&loop.getAfter(), {}, afterTypes,
                                 SmallVector<Location>(afterTypes.size(), loc));
    b.setInsertionPointAfter(loop);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToEnd(before);
      bindMixed(beforeBlock.getArguments(), before->getArguments(),
                carriedUniform);
      emitBlock(beforeBlock);
      scf::ConditionOp::create(
          b, condition.getLoc(), at(0, condition.getCondition()),
          mixedOperands(condition.getArgs(), forwardedUniform));
    }
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToEnd(after);
      bindMixed(afterBlock.getArguments(), after->getArguments(),
                forwardedUniform);
      emitBlock(afterBlock);
      scf::YieldOp::create(b, yield->getLoc(),
                           mixedOperands(yield->getOperands(), carriedUniform));
    }
    bindMixed(whileOp.getResults(), loop.getResults(), forwardedUniform);
    return true;
  }

  /// The values of `values` whose flag in `flags` is set.
  static DenseSet<Value> flaggedValues(ValueRange values,
                                       ArrayRef<bool> flags) {
    DenseSet<Value> result;
    for (auto [value, flag] : llvm::zip(values, flags))
      if (flag)
        result.insert(value);
    return result;
  }

  /// Whether `value`, used in `loop`'s regions, is the same in every lane
  /// when the block arguments in `assumed` are: defined before the loop
  /// and uniform, or computed in the loop's blocks by pure operations
  /// (not warp primitives) from such values.
  bool isLoopInvariant(Value value, scf::WhileOp loop,
                       const DenseSet<Value> &assumed,
                       DenseMap<Value, bool> &cache) {
    if (!loop->isAncestor(value.getParentBlock()->getParentOp()))
      return isUniformValue(value);
    if (isa<BlockArgument>(value))
      return assumed.contains(value);
    auto [it, inserted] = cache.try_emplace(value, false);
    if (!inserted)
      return it->second;
    Operation *def = value.getDefiningOp();
    bool result = def->getParentOp() == loop.getOperation() &&
                  isRegionFreePure(def) && !getWarpPrimitiveKind(def) &&
                  llvm::all_of(def->getOperands(), [&](Value operand) {
                    return isLoopInvariant(operand, loop, assumed, cache);
                  });
    cache[value] = result;
    return result;
  }

  /// Carried values laid out as carriedOperands lays them out, but one
  /// scalar for each value marked uniform.
  SmallVector<Value> mixedOperands(ValueRange values, ArrayRef<bool> uniform) {
    SmallVector<Value> result;
    for (auto [value, isUniform] : llvm::zip(values, uniform)) {
      if (isUniform)
        result.push_back(at(0, value));
      else
        llvm::append_range(result, carriedOperands(value));
    }
    return result;
  }

  SmallVector<Type> mixedTypes(TypeRange types, ArrayRef<bool> uniform) {
    SmallVector<Type> result;
    for (auto [type, isUniform] : llvm::zip(types, uniform)) {
      if (isUniform)
        result.push_back(type);
      else
        llvm::append_range(result, carriedTypes(type));
    }
    return result;
  }

  void bindMixed(ValueRange originals, ValueRange carried,
                 ArrayRef<bool> uniform) {
    unsigned next = 0;
    for (auto [original, isUniform] : llvm::zip(originals, uniform)) {
      if (isUniform) {
        for (unsigned i = 0; i < width; ++i)
          lanes[i].map(original, carried[next]);
        ++next;
        continue;
      }
      unsigned count = carriedTypes(original.getType()).size();
      bindCarried(original, carried.slice(next, count));
      next += count;
    }
  }

  /// A switch around warp primitives (CFG structuring makes them): every
  /// case is emitted in line with the lanes that select it as the active
  /// ones, then the default; each result is selected per lane.
  void emitMaskedSwitch(scf::IndexSwitchOp switchOp) {
    Location loc = switchOp.getLoc();
    SmallVector<Value> outer = active;
    Value trueValue = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    // Per lane: does the lane take case k; does it take any case.
    SmallVector<SmallVector<Value>> takes;
    SmallVector<Value> anyCase(width);
    for (int64_t caseValue : switchOp.getCases()) {
      SmallVector<Value> lanesTaking;
      Value caseIndex = arith::ConstantIndexOp::create(b, loc, caseValue);
      for (unsigned i = 0; i < width; ++i) {
        Value hit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          at(i, switchOp.getArg()), caseIndex);
        lanesTaking.push_back(hit);
        anyCase[i] =
            anyCase[i]
                ? arith::OrIOp::create(b, loc, anyCase[i], hit).getResult()
                : hit;
      }
      takes.push_back(lanesTaking);
    }
    SmallVector<Value> defaultTaken;
    for (unsigned i = 0; i < width; ++i)
      defaultTaken.push_back(
          anyCase[i]
              ? arith::XOrIOp::create(b, loc, anyCase[i], trueValue).getResult()
              : trueValue);
    auto emitCase = [&](Region &region, ArrayRef<Value> taken) {
      SmallVector<Value> mask;
      for (unsigned i = 0; i < width; ++i)
        mask.push_back(outer.empty()
                           ? taken[i]
                           : arith::AndIOp::create(b, loc, outer[i], taken[i])
                                 .getResult());
      active = mask;
      emitBlock(region.front());
      return SmallVector<Value>(region.front().getTerminator()->getOperands());
    };
    SmallVector<SmallVector<Value>> caseValues;
    for (auto [region, taken] : llvm::zip(switchOp.getCaseRegions(), takes))
      caseValues.push_back(emitCase(region, taken));
    SmallVector<Value> defaultValues =
        emitCase(switchOp.getDefaultRegion(), defaultTaken);
    active = outer;
    for (auto [index, result] : llvm::enumerate(switchOp.getResults())) {
      for (unsigned i = 0; i < width; ++i) {
        Value value = at(i, defaultValues[index]);
        for (auto [values, taken] : llvm::zip(caseValues, takes))
          value = arith::SelectOp::create(b, loc, taken[i],
                                          at(i, values[index]), value);
        lanes[i].map(result, value);
      }
    }
  }

  /// An `if` around warp primitives whose condition differs between lanes:
  /// both branches are emitted in line, each with the lanes that take it
  /// as the active ones; each result is selected per lane.
  void emitMaskedIf(scf::IfOp ifOp, bool needsMask = true) {
    Location loc = ifOp.getLoc();
    SmallVector<Value> outer = active;
    Value trueValue = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    auto branchMask = [&](bool taken) {
      SmallVector<Value> mask;
      for (unsigned i = 0; i < width; ++i) {
        Value cond = at(i, ifOp.getCondition());
        if (!taken)
          cond = arith::XOrIOp::create(b, loc, cond, trueValue);
        mask.push_back(
            outer.empty()
                ? cond
                : arith::AndIOp::create(b, loc, outer[i], cond).getResult());
      }
      return mask;
    };
    auto emitBranch = [&](Region &region, bool taken) {
      SmallVector<Value> yielded;
      if (region.empty())
        return yielded;
      // Branches without side effects need no mask.
      if (needsMask)
        active = branchMask(taken);
      emitBlock(region.front());
      llvm::append_range(yielded,
                         region.front().getTerminator()->getOperands());
      return yielded;
    };
    SmallVector<Value> thenValues = emitBranch(ifOp.getThenRegion(), true);
    SmallVector<Value> elseValues = emitBranch(ifOp.getElseRegion(), false);
    active = outer;
    for (auto [index, result] : llvm::enumerate(ifOp.getResults())) {
      Value thenValue = thenValues[index], elseValue = elseValues[index];
      if (isVectorElementType(result.getType())) {
        vectors[result] =
            arith::SelectOp::create(b, loc, vectorOf(ifOp.getCondition()),
                                    vectorOf(thenValue), vectorOf(elseValue));
        continue;
      }
      for (unsigned i = 0; i < width; ++i)
        lanes[i].map(result, arith::SelectOp::create(
                                 b, loc, at(i, ifOp.getCondition()),
                                 at(i, thenValue), at(i, elseValue)));
    }
  }

  /// The active lanes as a 32-bit mask (all ones outside masked code).
  /// Only whole warps use it (votes, reductions, matches, __activemask).
  Value activeBits(Location loc) {
    assert(width == kWarpSize && "lane masks describe whole warps");
    if (active.empty())
      return constI32(b, loc, -1);
    return LLVM::BitcastOp::create(b, loc, b.getI32Type(), laneVector(loc, active));
  }

  /// True if every operation in `ifOp`'s branches (and in nested ifs) is
  /// pure and speculatable: running both branches for every lane is safe.
  static bool isSpeculatableIf(scf::IfOp ifOp) {
    return !ifOp->walk([&](Operation *nested) {
                  if (nested == ifOp.getOperation() ||
                      isa<scf::YieldOp, scf::IfOp>(nested) ||
                      isSafeToSpeculate(nested))
                    return WalkResult::advance();
                  return WalkResult::interrupt();
                })
                .wasInterrupted();
  }

  /// A lane-dependent `if` runs per lane; the pure, speculatable operations
  /// at the top of its branches are hoisted in front of it first, where
  /// they run for every lane as vector code (clang sinks computations into
  /// the branch that stores their result, e.g. `if (inRange) out[i] = ...`).
  void emitPerLaneIf(scf::IfOp ifOp) {
    if (!active.empty())
      return emitGuarded(ifOp);
    DenseSet<Operation *> hoisted;
    for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
      if (region->empty())
        continue;
      for (Operation &op : region->front().without_terminator()) {
        bool operandsReady = llvm::all_of(op.getOperands(), [&](Value v) {
          Operation *def = v.getDefiningOp();
          return def ? hoisted.contains(def) || !ifOp->isAncestor(def)
                     : !ifOp->isAncestor(v.getParentBlock()->getParentOp());
        });
        if (!operandsReady || !isSafeToSpeculate(&op))
          continue;
        emitOp(&op);
        hoisted.insert(&op);
      }
    }
    prepareScalarOperands(ifOp);
    for (Operation *op : hoisted)
      for (Value result : op->getResults())
        ensureScalars(result);
    for (unsigned i = 0; i < width; ++i) {
      auto clone = scf::IfOp::create(
          b, ifOp.getLoc(), ifOp.getResultTypes(), at(i, ifOp.getCondition()),
          /*addThenBlock=*/true,
          /*addElseBlock=*/!ifOp.getElseRegion().empty());
      auto fill = [&](Region &source, Region &target) {
        Block *block = &target.front();
        if (!block->empty())
          block->getTerminator()->erase();
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToEnd(block);
        for (Operation &op : source.front())
          if (!hoisted.contains(&op))
            b.clone(op, lanes[i]);
      };
      fill(ifOp.getThenRegion(), clone.getThenRegion());
      if (!ifOp.getElseRegion().empty())
        fill(ifOp.getElseRegion(), clone.getElseRegion());
      mapResults(i, ifOp, clone.getResults());
    }
  }

  //===--------------------------------------------------------------------===//
  // Region operations around warp primitives, emitted once for all lanes.
  // Each lane-varying value they carry (iteration arguments, results) is a
  // vector when its type allows, else one value per lane.
  //===--------------------------------------------------------------------===//

  SmallVector<Value> carriedOperands(ValueRange values) {
    SmallVector<Value> result;
    for (Value value : values) {
      if (isVectorElementType(value.getType())) {
        result.push_back(vectorOf(value));
        continue;
      }
      for (unsigned i = 0; i < width; ++i)
        result.push_back(at(i, value));
    }
    return result;
  }

  SmallVector<Type> carriedTypes(TypeRange types) {
    SmallVector<Type> result;
    for (Type type : types) {
      if (isVectorElementType(type))
        result.push_back(VectorType::get({width}, type));
      else
        result.append(width, type);
    }
    return result;
  }

  /// Binds `originals` to the carried values `carried` (as laid out by
  /// carriedOperands).
  void bindCarried(ValueRange originals, ValueRange carried) {
    unsigned next = 0;
    for (Value original : originals) {
      if (isVectorElementType(original.getType())) {
        vectors[original] = carried[next++];
        continue;
      }
      for (unsigned i = 0; i < width; ++i)
        lanes[i].map(original, carried[next++]);
    }
  }

  /// Emits `source` (but its terminator) at the end of `target`, then a
  /// yield of the carried form of what `source` yields.
  void emitRegionBody(Block &source, Block &target) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(&target);
    emitBlock(source);
    Operation *yield = source.getTerminator();
    scf::YieldOp::create(b, yield->getLoc(),
                         carriedOperands(yield->getOperands()));
  }

  void emitFor(scf::ForOp forOp) {
    auto loop =
        scf::ForOp::create(b, forOp.getLoc(), at(0, forOp.getLowerBound()),
                           at(0, forOp.getUpperBound()), at(0, forOp.getStep()),
                           carriedOperands(forOp.getInitArgs()));
    Block *body = loop.getBody();
    for (unsigned i = 0; i < width; ++i)
      lanes[i].map(forOp.getInductionVar(), loop.getInductionVar());
    bindCarried(forOp.getRegionIterArgs(), loop.getRegionIterArgs());
    // Replace the builder-made terminator by the interleaved one.
    if (!body->empty())
      body->getTerminator()->erase();
    emitRegionBody(*forOp.getBody(), *body);
    bindCarried(forOp.getResults(), loop.getResults());
  }

  void emitIf(scf::IfOp ifOp) {
    auto newIf =
        scf::IfOp::create(b, ifOp.getLoc(), carriedTypes(ifOp.getResultTypes()),
                          at(0, ifOp.getCondition()), /*addThenBlock=*/true,
                          /*addElseBlock=*/!ifOp.getElseRegion().empty());
    auto fill = [&](Region &source, Region &target) {
      Block *block = &target.front();
      if (!block->empty())
        block->getTerminator()->erase();
      emitRegionBody(source.front(), *block);
    };
    fill(ifOp.getThenRegion(), newIf.getThenRegion());
    if (!ifOp.getElseRegion().empty())
      fill(ifOp.getElseRegion(), newIf.getElseRegion());
    bindCarried(ifOp.getResults(), newIf.getResults());
  }

  void emitExecuteRegion(scf::ExecuteRegionOp op) {
    auto region = scf::ExecuteRegionOp::create(
        b, op.getLoc(), carriedTypes(op.getResultTypes()));
    Block *block = b.createBlock(&region.getRegion());
    b.setInsertionPointAfter(region);
    emitRegionBody(op.getRegion().front(), *block);
    bindCarried(op.getResults(), region.getResults());
  }

  //===--------------------------------------------------------------------===//
  // Warp primitives
  //===--------------------------------------------------------------------===//

  void emitPrimitive(Operation *op, WarpIntrinsicKind kind) {
    ValueRange args = primitiveArguments(op);
    switch (kind) {
    case WarpIntrinsicKind::SyncWarp:
      // Interleaved lanes already finish each operation together.
      return;
    case WarpIntrinsicKind::ActiveMask: {
      // The lanes running this code: all of a full warp, the existing ones
      // of a partial warp, those taking the branch under a lane mask.
      Value bits = activeBits(op->getLoc());
      for (unsigned i = 0; i < width; ++i)
        lanes[i].map(op->getResult(0), bits);
      return;
    }
    case WarpIntrinsicKind::Reduce:
      return emitReduce(op, args[0], args[1]);
    case WarpIntrinsicKind::MatchAny:
    case WarpIntrinsicKind::MatchAll:
      return emitMatch(op, kind, args[0], args[1]);
    case WarpIntrinsicKind::Ballot:
    case WarpIntrinsicKind::Any:
    case WarpIntrinsicKind::All:
    case WarpIntrinsicKind::Uniform:
      return emitVote(op, kind, args[0], args[1]);
    default:
      return emitShuffle(op, kind, args[1], args[2], args[3]);
    }
  }

  /// PTX's source lane of shfl.sync for lane `lane`, or nullopt when the
  /// source is invalid (the lane keeps its own value). In a group narrower
  /// than the warp, lane numbers are the group's: the shuffles allowed there
  /// stay within aligned segments of the group, so the source is the same
  /// offset from the group's first lane as in the warp.
  std::optional<unsigned> shuffleSource(WarpIntrinsicKind kind, int32_t lane,
                                        int32_t b, int32_t c) {
    // PTX uses the low 5 bits of the lane operand in every mode.
    b &= 31;
    int32_t segmask = (c >> 8) & 31;
    int32_t minLane = lane & segmask;
    int32_t maxLane = minLane | (c & 31 & ~segmask);
    int32_t source;
    bool valid;
    switch (kind) {
    case WarpIntrinsicKind::ShuffleIdx:
      source = minLane | (b & 31 & ~segmask);
      valid = source <= maxLane;
      break;
    case WarpIntrinsicKind::ShuffleUp:
      source = int32_t(uint32_t(lane) - uint32_t(b));
      valid = source >= maxLane;
      break;
    case WarpIntrinsicKind::ShuffleDown:
      source = int32_t(uint32_t(lane) + uint32_t(b));
      valid = source <= maxLane;
      break;
    default:
      source = lane ^ b;
      valid = source <= maxLane;
      break;
    }
    if (!valid || source < 0 || source >= int32_t(width))
      return std::nullopt;
    return unsigned(source);
  }

  /// Lane i's constant source lane, or nullopt if lane i's operands are
  /// not constants.
  std::optional<unsigned> constantSource(WarpIntrinsicKind kind, unsigned i,
                                         Value bOperand, Value cOperand) {
    APInt bConst, cConst;
    if (hasVectorForm(bOperand) || hasVectorForm(cOperand) ||
        !matchPattern(lanes[i].lookupOrDefault(bOperand),
                      m_ConstantInt(&bConst)) ||
        !matchPattern(lanes[i].lookupOrDefault(cOperand),
                      m_ConstantInt(&cConst)))
      return std::nullopt;
    return shuffleSource(kind, i, int32_t(bConst.getSExtValue()),
                         int32_t(cConst.getSExtValue()))
        .value_or(i);
  }

  void emitShuffle(Operation *op, WarpIntrinsicKind kind, Value value,
                   Value bOperand, Value cOperand) {
    Location loc = op->getLoc();
    // Constant operands in every lane: one permutation of the vector.
    SmallVector<int32_t> sources;
    for (unsigned i = 0; i < width; ++i)
      if (std::optional<unsigned> source =
              constantSource(kind, i, bOperand, cOperand))
        sources.push_back(*source);
    // Reading a lane that does not exist (past the end of the block) gives
    // zero, as NVIDIA GPUs do (CUDA leaves it undefined; programs that
    // reduce a partial warp with a full mask rely on it). Reading an
    // existing lane that is not active (not taking the branch) gives the
    // reading lane its own value, as in the barrier-based emulation.
    Value activeLanes = active.empty() ? Value() : laneVector(loc, active);
    Value existingLanes =
        existing.empty() ? Value() : laneVector(loc, existing);
    // shfl.sync moves i32 or f32 values (EligibilityCheck): vector elements.
    if (sources.size() != width)
      return emitRuntimeShuffle(op, kind, value, bOperand, cOperand,
                                activeLanes, existingLanes);
    Value vector = vectorOf(value);
    Value result = permuteHalfOfWide(loc, value, sources);
    if (!result)
      result = LLVM::ShuffleVectorOp::create(b, loc, vector, vector, sources);
    if (activeLanes) {
      Value fallback = inactiveSourceValue(
          loc,
          existingLanes ? LLVM::ShuffleVectorOp::create(
                              b, loc, existingLanes, existingLanes, sources)
                        : Value(),
          vector);
      result = arith::SelectOp::create(
          b, loc,
          LLVM::ShuffleVectorOp::create(b, loc, activeLanes, activeLanes,
                                        sources),
          result, fallback);
    }
    vectors[op->getResult(0)] = result;
  }

  /// A shuffle whose source lanes are known only at run time (a lane
  /// operand that is a loop counter, or differs between lanes): the
  /// sources are computed for all lanes at once and the vectors permuted
  /// by gathers from copies on the stack. LLVM has no permutation by a
  /// runtime pattern that every target lowers, and one extraction per lane
  /// makes the code `width` times longer. Under a lane mask, what a lane
  /// reads from an inactive source is as in emitShuffle.
  void emitRuntimeShuffle(Operation *op, WarpIntrinsicKind kind, Value value,
                          Value bOperand, Value cOperand, Value activeLanes,
                          Value existingLanes) {
    Location loc = op->getLoc();
    auto indexType = VectorType::get({width}, b.getI32Type());
    SmallVector<int32_t> laneNumbers =
        llvm::to_vector(llvm::seq<int32_t>(0, width));
    Value laneIds = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(indexType, ArrayRef(laneNumbers)));
    auto [source, valid] = buildShuffleSource(
        b, loc, kind, laneIds, vectorOf(bOperand), vectorOf(cOperand));
    // An invalid source may lie outside the group; it is not read.
    source = arith::AndIOp::create(
        b, loc, source,
        arith::ConstantOp::create(
            b, loc,
            DenseElementsAttr::get(indexType, b.getI32IntegerAttr(width - 1))));
    Value own = vectorOf(value);
    Value result = permute(loc, own, source);
    if (activeLanes) {
      Value fallback = inactiveSourceValue(
          loc, existingLanes ? permute(loc, existingLanes, source) : Value(),
          own);
      result = arith::SelectOp::create(
          b, loc, permute(loc, activeLanes, source), result, fallback);
    }
    vectors[op->getResult(0)] =
        arith::SelectOp::create(b, loc, valid, result, own);
  }

  /// Lane i of the result is lane source[i] of `vector` (sources in range):
  /// a gather from a copy of `vector` on the stack. Vectors of i1, which
  /// memory packs as bits, go through i8.
  Value permute(Location loc, Value vector, Value source) {
    auto type = cast<VectorType>(vector.getType());
    if (type.getElementType().isInteger(1)) {
      auto byteType = VectorType::get({width}, b.getI8Type());
      Value bytes = permute(
          loc, arith::ExtUIOp::create(b, loc, byteType, vector), source);
      return arith::TruncIOp::create(b, loc, type, bytes);
    }
    Type elementType = type.getElementType();
    Value slot = permutationSlot(loc, type);
    LLVM::StoreOp::create(b, loc, vector, slot);
    Value addresses = LLVM::GEPOp::create(
        b, loc, VectorType::get({width}, slot.getType()), elementType, slot,
        ValueRange{source});
    return LLVM::masked_gather::create(b, loc, type, addresses, allLanes(loc),
                                       ValueRange{},
                                       unsigned(packedBytes(elementType)));
  }

  /// A stack slot for one vector of `type`, allocated once per type before
  /// the loop over warps (each use stores and reads it back at once).
  Value permutationSlot(Location loc, Type type) {
    Value &slot = permutationSlots[type];
    if (slot)
      return slot;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(allocaAnchor);
    slot = LLVM::AllocaOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()), type,
        LLVM::ConstantOp::create(b, loc, b.getI64Type(), 1));
    return slot;
  }

  /// CUDA's headers shuffle a 64-bit value as its two 32-bit halves and
  /// join the results. For `value` = one half of a 64-bit X, the same
  /// permutation of X's lanes, cut to that half: both halves' shuffles
  /// then permute X once (LLVM merges the identical permutations) and
  /// LLVM folds the join back into X, instead of two 32-bit permutations,
  /// narrowing and widening. Null if `value` is not such a half.
  Value permuteHalfOfWide(Location loc, Value value,
                          ArrayRef<int32_t> sources) {
    auto trunc = value.getDefiningOp<LLVM::TruncOp>();
    if (!trunc || !trunc.getType().isInteger(32) ||
        !trunc.getArg().getType().isInteger(64))
      return Value();
    Value wide = trunc.getArg();
    bool high = false;
    if (auto shift = wide.getDefiningOp<LLVM::LShrOp>()) {
      APInt amount;
      if (!matchPattern(shift.getRhs(), m_ConstantInt(&amount)) ||
          amount != 32)
        return Value();
      wide = shift.getLhs();
      high = true;
    }
    Value wideVector = vectorOf(wide);
    Value permuted = LLVM::ShuffleVectorOp::create(b, loc, wideVector,
                                                   wideVector, sources);
    auto wideType = cast<VectorType>(permuted.getType());
    if (high)
      permuted = LLVM::LShrOp::create(
          b, loc, permuted,
          LLVM::ConstantOp::create(
              b, loc, wideType,
              DenseElementsAttr::get(wideType, b.getI64IntegerAttr(32)
                                                   .getValue())));
    return LLVM::TruncOp::create(
        b, loc, VectorType::get({width}, b.getI32Type()), permuted);
  }

  /// Per-lane predicates (`active`, `existing`) as a vector of i1.
  Value laneVector(Location loc, ArrayRef<Value> predicates) {
    Value vector =
        LLVM::PoisonOp::create(b, loc, VectorType::get({width}, b.getI1Type()));
    for (unsigned i = 0; i < width; ++i)
      vector = LLVM::InsertElementOp::create(b, loc, vector, predicates[i],
                                             constI32(b, loc, i));
    return vector;
  }

  /// What a lane (or vector of lanes) reads from a source lane that is not
  /// active: zero where the source does not exist (`existsAtSource` false;
  /// null in a full warp), else the reader's own value `own`.
  Value inactiveSourceValue(Location loc, Value existsAtSource, Value own) {
    if (!existsAtSource)
      return own;
    return arith::SelectOp::create(b, loc, existsAtSource, own,
                                   LLVM::ZeroOp::create(b, loc, own.getType()));
  }

  /// Bit j set when lane j's predicate holds: the 32 predicates as a
  /// vector of i1, reinterpreted as an i32 (element j is bit j).
  Value buildBallot(Location loc, Value predicate) {
    assert(width == kWarpSize && "votes need the whole warp");
    return LLVM::BitcastOp::create(b, loc, b.getI32Type(), vectorOf(predicate));
  }

  void emitVote(Operation *op, WarpIntrinsicKind kind, Value mask,
                Value predicate) {
    Location loc = op->getLoc();
    Value bits = buildBallot(loc, predicate);
    Value zero = constI32(b, loc, 0);
    Value activeLanes = activeBits(loc);
    for (unsigned i = 0; i < width; ++i) {
      // A full warp: the participants are the active lanes of the mask.
      Value participants =
          arith::AndIOp::create(b, loc, at(i, mask), activeLanes);
      Value ballot = arith::AndIOp::create(b, loc, bits, participants);
      Value result;
      switch (kind) {
      case WarpIntrinsicKind::Ballot:
        result = ballot;
        break;
      case WarpIntrinsicKind::Any:
        result = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, ballot,
                                       zero);
        break;
      case WarpIntrinsicKind::All:
        result = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ballot,
                                       participants);
        break;
      default:
        result = arith::OrIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ballot,
                                  zero),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ballot,
                                  participants));
        break;
      }
      lanes[i].map(op->getResult(0), result);
    }
  }

  /// __match_any_sync / __match_all_sync: for each lane, one comparison of
  /// its value with the vector of all lanes' values gives the lanes that
  /// hold it.
  void emitMatch(Operation *op, WarpIntrinsicKind kind, Value mask,
                 Value value) {
    Location loc = op->getLoc();
    Value all = vectorOf(value);
    auto vectorType = cast<VectorType>(all.getType());
    Value activeLanes = activeBits(loc);
    for (unsigned i = 0; i < width; ++i) {
      Value own = LLVM::InsertElementOp::create(
          b, loc, LLVM::PoisonOp::create(b, loc, vectorType), at(i, value),
          constI32(b, loc, 0));
      own = LLVM::ShuffleVectorOp::create(b, loc, own, own,
                                          SmallVector<int32_t>(width, 0));
      Value equal =
          LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, all, own);
      Value equalBits = LLVM::BitcastOp::create(b, loc, b.getI32Type(), equal);
      Value participants =
          arith::AndIOp::create(b, loc, at(i, mask), activeLanes);
      Value equalLanes = arith::AndIOp::create(b, loc, equalBits, participants);
      Value result =
          kind == WarpIntrinsicKind::MatchAny
              ? equalLanes
              : buildMatchAllResult(b, loc, op->getResult(0).getType(),
                                    equalLanes, participants);
      lanes[i].map(op->getResult(0), result);
    }
  }

  void emitReduce(Operation *op, Value value, Value mask) {
    Location loc = op->getLoc();
    StringRef kind =
        cast<LLVM::CallIntrinsicOp>(op).getIntrin().rsplit('.').second;
    // Lanes usually pass the same mask: combine once per distinct mask.
    DenseMap<Value, Value> byMask;
    Value activeLanes = activeBits(loc);
    for (unsigned i = 0; i < width; ++i) {
      Value laneMask = at(i, mask);
      Value &result = byMask[laneMask];
      if (!result) {
        result = buildReduceIdentity(b, loc, kind);
        Value members = arith::AndIOp::create(b, loc, laneMask, activeLanes);
        for (unsigned j = 0; j < width; ++j) {
          Value bit = arith::AndIOp::create(
              b, loc,
              arith::ShRUIOp::create(b, loc, members, constI32(b, loc, j)),
              constI32(b, loc, 1));
          Value member = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                               bit, constI32(b, loc, 0));
          result = arith::SelectOp::create(
              b, loc, member,
              buildReduceCombine(b, loc, kind, result, at(j, value)), result);
        }
      }
      lanes[i].map(op->getResult(0), result);
    }
  }

  OpBuilder &b;
  Operation *allocaAnchor;
  /// Lanes per group: 32 where votes, reductions or matches need the
  /// whole warp.
  unsigned width;
  SmallVector<IRMapping> lanes;
  /// Vector form of lane-varying values.
  DenseMap<Value, Value> vectors;
  /// Vectors built from per-lane scalars, reusable where they dominate.
  DenseMap<Value, Value> built;
  /// Inside a branch that only some lanes take: lane i runs side effects
  /// only if active[i] holds. Empty where every lane is active.
  SmallVector<Value> active;
  /// In a partial warp: whether lane i exists (is a thread of the block).
  /// Empty in a full warp.
  SmallVector<Value> existing;
  /// How integer and address values differ between the lanes.
  LaneOffsetAnalysis laneOffsets;
  /// Stack copies that runtime shuffles permute, by vector type.
  DenseMap<Type, Value> permutationSlots;
};

//===----------------------------------------------------------------------===//
// The thread loop around it
//===----------------------------------------------------------------------===//

/// (z, y, x) thread indices of linear thread id `linear` in a block of
/// `upper` = (bz, by, bx) threads, in the loop's induction-variable order.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ValueRange upper) {
  SmallVector<Value> ivs(upper.size());
  Value rest = linear;
  for (int d = upper.size() - 1; d > 0; --d) {
    ivs[d] = arith::RemUIOp::create(b, loc, rest, upper[d]);
    rest = arith::DivUIOp::create(b, loc, rest, upper[d]);
  }
  ivs[0] = rest;
  return ivs;
}

/// Tells `interleaver` how the lanes' thread indices differ: lane i of a
/// group has x index U + i with U a multiple of the group size when the
/// block's x extent is one (or when x is its only dimension), and then the
/// same y and z indices in every lane.
void seedThreadIndexOffsets(LaneInterleaver &interleaver, scf::ParallelOp loop,
                            unsigned width) {
  ValueRange upper = loop.getUpperBound();
  auto extent = [&](unsigned d) -> std::optional<int64_t> {
    // Specialized block sizes are casts of constants.
    Value bound = upper[d];
    if (auto cast = bound.getDefiningOp<arith::IndexCastUIOp>())
      bound = cast.getIn();
    return getConstantIntValue(bound);
  };
  bool onlyX = llvm::all_of(llvm::seq<unsigned>(0, upper.size() - 1),
                            [&](unsigned d) { return extent(d) == 1; });
  std::optional<int64_t> xExtent = extent(upper.size() - 1);
  if (!onlyX && !(xExtent && *xExtent > 0 && *xExtent % width == 0))
    return;
  SmallVector<Value> ivs = llvm::to_vector(loop.getInductionVars());
  interleaver.seedLaneOffsets(
      ivs.back(), LaneOffsets{llvm::to_vector(llvm::seq<int64_t>(0, width)),
                              unsigned(llvm::Log2_32(width))});
  for (Value iv : ArrayRef<Value>(ivs).drop_back())
    interleaver.seedLaneOffsets(iv, LaneOffsets::uniform(width));
}

/// Emits the body of `loop` as the `width` interleaved lanes of the group
/// whose first thread is `base`; lanes from `activeCount` on (if given) do
/// not exist and run no side effects.
void emitGroup(OpBuilder &b, scf::ParallelOp loop, Operation *allocaAnchor,
               unsigned width, Value base, Value activeCount) {
  Location loc = loop.getLoc();
  LaneInterleaver interleaver(b, allocaAnchor, width);
  SmallVector<Value> active;
  for (unsigned i = 0; i < width; ++i) {
    Value laneIndex = arith::ConstantIndexOp::create(b, loc, i);
    Value linear = arith::AddIOp::create(b, loc, base, laneIndex);
    SmallVector<Value> ivs = delinearize(b, loc, linear, loop.getUpperBound());
    for (auto [iv, value] : llvm::zip(loop.getInductionVars(), ivs))
      interleaver.lane(i).map(iv, value);
    if (activeCount)
      active.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                             laneIndex, activeCount));
  }
  interleaver.setActiveLanes(active);
  seedThreadIndexOffsets(interleaver, loop, width);
  interleaver.emitBlock(*loop.getBody());
}

/// Rewrites `loop` as its full groups of `width` interleaved lanes, then
/// the partial last group (if any) interleaved with the missing lanes
/// masked off. Groups divide warps, so a group never spans two warps.
void interleaveThreadLoop(scf::ParallelOp loop, unsigned width) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Value count = buildThreadCount(b, loc, loop);
  Value groupSize = arith::ConstantIndexOp::create(b, loc, width);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value fullGroups = arith::DivUIOp::create(b, loc, count, groupSize);
  Value fullThreads = arith::MulIOp::create(b, loc, fullGroups, groupSize);

  auto groups = scf::ForOp::create(b, loc, zero, fullGroups, one);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(groups.getBody()->getTerminator());
    Value base =
        arith::MulIOp::create(b, loc, groups.getInductionVar(), groupSize);
    emitGroup(b, loop, groups, width, base, /*activeCount=*/Value());
  }

  Value rest = arith::SubIOp::create(b, loc, count, fullThreads);
  Value hasPartial =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rest, zero);
  auto partial = scf::IfOp::create(b, loc, hasPartial, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(partial.thenBlock()->getTerminator());
    emitGroup(b, loop, groups, width, fullThreads, rest);
  }
  loop.erase();
}

/// Fewest lanes per group: a group's values fill at least 128-bit vectors
/// (4 lanes of 32 bits).
constexpr unsigned kMinGroupLanes = 4;

struct InterleaveWarpLanesPass
    : public respec::impl::InterleaveWarpLanesPassBase<
          InterleaveWarpLanesPass> {
  using InterleaveWarpLanesPassBase::InterleaveWarpLanesPassBase;

  void runOnOperation() override {
    if (lanes != 0 && (lanes > kWarpSize || !llvm::isPowerOf2_32(lanes))) {
      getOperation().emitError()
          << "respec-interleave-warp-lanes: lanes must be a power of two up "
             "to 32, not "
          << lanes;
      return signalPassFailure();
    }
    for (scf::ParallelOp loop : collectThreadLoops(getOperation())) {
      EligibilityCheck check(loop);
      if (check.run())
        interleaveThreadLoop(loop, chooseGroupLanes(check));
    }
  }

  /// What the options ask for, raised to what the primitives need.
  ///
  /// Without a request, on a known target: straight-line code (the
  /// unrolled register-cache kernels) runs in the narrowest group its
  /// exchanges allow. Its independent operations already overlap; narrow
  /// groups keep the per-thread arrays in registers, turn exchanges into
  /// permutations within one register, and let loads of consecutive
  /// elements become vector loads (a group of whole problems). A loop
  /// around exchanges is a chain of dependent operations per iteration
  /// (a search or reduction loop); there whole warps interleave more
  /// independent problems to hide its latency. Measured on the core suite
  /// (bench/README.md).
  unsigned chooseGroupLanes(const EligibilityCheck &check) const {
    unsigned required = check.requiredGroupLanes();
    unsigned preferred = lanes;
    if (preferred == 0 && vectorBits != 0)
      preferred = check.hasPrimitiveInLoop() ? kWarpSize : kMinGroupLanes;
    if (preferred == 0)
      preferred = kWarpSize;
    return std::min(std::max(preferred, required), kWarpSize);
  }
};
} // namespace
