//===- ExpandWarpIntrinsics.cpp - Warp primitives through shared slots ----===//
//
// The CPU runs the threads of a block one after the other between barriers,
// so a warp primitive is an exchange through memory between two barriers:
//
//   slots[tid] = value;  barrier;
//   result = f(slots[warp's lanes]);  barrier;
//
// The first barrier makes every lane's value visible, the second keeps the
// next write of the same slots (a later primitive, or this one in a loop)
// from overtaking a lane that has not read yet. A block barrier is stronger
// than the warp-level synchronization CUDA asks for, which is always
// correct; under divergent control the barriers are predicated like any
// other (PredicateDivergentBarriers.cpp). Results follow PTX's definitions
// (shfl.sync's b/c operands encode the lane and the segment width, so
// `width` < 32 needs no special case). This is correct but not fast: the
// SIMT-on-SIMD lowering of warps is future work.
//
//===----------------------------------------------------------------------===//

#include "respec/Dialect/RespecDialect.h"
#include "respec/Transforms/BarrierIntrinsics.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"
#include "respec/Transforms/WarpSemantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::respec {
#define GEN_PASS_DEF_EXPANDWARPINTRINSICSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {
/// Where the calling thread sits in its warp, and the slots of one
/// primitive.
struct WarpExchange {
  scf::ParallelOp loop;
  Value slots;    ///< one element per thread of the block
  Type slotType;  ///< element type of `slots`
  Value tid;      ///< linear thread id (index)
  Value lane;     ///< tid % 32 (index)
  Value warpBase; ///< tid - lane (index)
  Value count;    ///< threads in the block (index)
  /// For votes, matches and reductions: one byte per thread, set while the
  /// thread takes part in the exchange. Threads that have returned (or do
  /// not take the branch) never set theirs and are left out.
  Value flags;

  /// The address of lane `laneInWarp` (index, 0..31) of this warp, or of
  /// the calling thread if that lane is past the end of the block (a
  /// partial last warp).
  Value laneAddress(OpBuilder &b, Location loc, Value laneInWarp) const {
    Value thread = arith::AddIOp::create(b, loc, warpBase, laneInWarp);
    Value exists =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, thread, count);
    thread = arith::SelectOp::create(b, loc, exists, thread, tid);
    return buildElementAddress(b, loc, slots, slotType, thread);
  }
};
} // namespace

static Value constI32(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), value);
}

/// shfl.sync for the calling lane (WarpSemantics.h): the source lane's
/// value, or the lane's own value when the source is not valid, or zero
/// when the source lane does not exist (past the end of the block in a
/// partial last warp), as NVIDIA GPUs give (CUDA leaves it undefined).
static Value computeShuffle(OpBuilder &b, Location loc, WarpIntrinsicKind kind,
                            const WarpExchange &warp, Value laneOperand,
                            Value clampOperand, Type resultType) {
  Value lane = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), warp.lane);
  auto [source, valid] =
      buildShuffleSource(b, loc, kind, lane, laneOperand, clampOperand);
  source = arith::SelectOp::create(b, loc, valid, source, lane);
  Value sourceIndex =
      arith::IndexCastUIOp::create(b, loc, b.getIndexType(), source);
  Value read =
      loadValue(b, loc, resultType, warp.laneAddress(b, loc, sourceIndex));
  Value sourceThread =
      arith::AddIOp::create(b, loc, warp.warpBase, sourceIndex);
  Value exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       sourceThread, warp.count);
  return arith::SelectOp::create(b, loc, exists, read,
                                 LLVM::ZeroOp::create(b, loc, resultType));
}

/// Votes, match and reductions: one pass over the 32 lanes of the warp.
/// Lanes take part if they are in `mask` and exist (a partial last warp).
/// Returns {combined value, mask of participating lanes}.
static std::pair<Value, Value> combineLanes(OpBuilder &b, Location loc,
                                            WarpIntrinsicKind kind,
                                            StringRef reduceOp,
                                            const WarpExchange &warp,
                                            Value mask, Value ownValue) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value lanes = arith::ConstantIndexOp::create(b, loc, 32);
  Value init = kind == WarpIntrinsicKind::Reduce
                   ? buildReduceIdentity(b, loc, reduceOp)
                   : constI32(b, loc, 0);
  auto loop = scf::ForOp::create(
      b, loc, zero, lanes, one, ValueRange{init, constI32(b, loc, 0)},
      [&](OpBuilder &lb, Location l, Value laneIndex, ValueRange acc) {
        Value laneI32 =
            arith::IndexCastUIOp::create(lb, l, lb.getI32Type(), laneIndex);
        Value bit = arith::ShLIOp::create(lb, l, constI32(lb, l, 1), laneI32);
        Value inMask = arith::CmpIOp::create(
            lb, l, arith::CmpIPredicate::ne,
            arith::AndIOp::create(lb, l, mask, bit), constI32(lb, l, 0));
        Value thread = arith::AddIOp::create(lb, l, warp.warpBase, laneIndex);
        Value exists = arith::CmpIOp::create(lb, l, arith::CmpIPredicate::ult,
                                             thread, warp.count);
        Value takesPart = arith::AndIOp::create(lb, l, inMask, exists);
        if (warp.flags) {
          Value flagThread =
              arith::SelectOp::create(lb, l, exists, thread, warp.tid);
          Value flag =
              loadValue(lb, l, lb.getI8Type(),
                        buildElementAddress(lb, l, warp.flags, lb.getI8Type(),
                                            flagThread));
          Value present = arith::CmpIOp::create(
              lb, l, arith::CmpIPredicate::ne, flag,
              arith::ConstantIntOp::create(lb, l, lb.getI8Type(), 0));
          takesPart = arith::AndIOp::create(lb, l, takesPart, present);
        }
        Value value = loadValue(lb, l, ownValue.getType(),
                                warp.laneAddress(lb, l, laneIndex));
        Value participants = arith::SelectOp::create(
            lb, l, takesPart, arith::OrIOp::create(lb, l, acc[1], bit), acc[1]);
        Value next;
        if (kind == WarpIntrinsicKind::Reduce) {
          next = arith::SelectOp::create(
              lb, l, takesPart,
              buildReduceCombine(lb, l, reduceOp, acc[0], value), acc[0]);
        } else {
          bool match = kind == WarpIntrinsicKind::MatchAny ||
                       kind == WarpIntrinsicKind::MatchAll;
          Value hit =
              match ? arith::CmpIOp::create(lb, l, arith::CmpIPredicate::eq,
                                            value, ownValue)
                          .getResult()
                    : value;
          Value counts = arith::AndIOp::create(lb, l, takesPart, hit);
          next = arith::SelectOp::create(
              lb, l, counts, arith::OrIOp::create(lb, l, acc[0], bit), acc[0]);
        }
        scf::YieldOp::create(lb, l, ValueRange{next, participants});
      });
  return {loop.getResult(0), loop.getResult(1)};
}

/// The barrier of an exchange. Those of warp primitives are marked: they
/// stand for warp-level synchronization (no divergence warning applies);
/// the work-group shuffle's is a real work-group barrier.
static BarrierOp
createWarpBarrier(OpBuilder &b, Location loc, scf::ParallelOp loop,
                  WarpIntrinsicKind kind = WarpIntrinsicKind::SyncWarp) {
  auto barrier = BarrierOp::create(b, loc, loop.getInductionVars());
  if (kind != WarpIntrinsicKind::WorkGroupShuffle)
    barrier->setAttr(kWarpSyncAttr, b.getUnitAttr());
  return barrier;
}

/// OpenCL C's work-group shuffle: the value of the work-item whose linear
/// local id is `lane` modulo the work-group size.
static Value computeWorkGroupShuffle(OpBuilder &b, Location loc,
                                     const WarpExchange &warp, Value lane,
                                     Type resultType) {
  Value laneIndex =
      arith::IndexCastUIOp::create(b, loc, b.getIndexType(), lane);
  Value source = arith::RemUIOp::create(b, loc, laneIndex, warp.count);
  return loadValue(
      b, loc, resultType,
      buildElementAddress(b, loc, warp.slots, warp.slotType, source));
}

/// A block array of one zeroed byte per thread (participation flags).
static Value allocateParticipationFlags(scf::ParallelOp loop) {
  OpBuilder b(loop.getContext());
  Type i8 = b.getI8Type();
  Value flags = allocateBlockArray(loop, i8, 1);
  b.setInsertionPointAfterValue(flags);
  Location loc = loop.getLoc();
  Value bytes = arith::IndexCastUIOp::create(b, loc, b.getI64Type(),
                                             buildThreadCount(b, loc, loop));
  LLVM::MemsetOp::create(b, loc, flags,
                         arith::ConstantIntOp::create(b, loc, i8, 0), bytes,
                         /*isVolatile=*/false);
  return flags;
}

static ValueRange callArguments(Operation *call) {
  if (auto intrinsic = dyn_cast<LLVM::CallIntrinsicOp>(call))
    return intrinsic.getArgs();
  return cast<LLVM::CallOp>(call).getArgOperands();
}

static LogicalResult expandWarpIntrinsic(Operation *call,
                                         WarpIntrinsicKind kind,
                                         scf::ParallelOp loop) {
  if (failed(verifyNormalizedThreadLoop(loop)))
    return failure();
  OpBuilder b(call);
  Location loc = call->getLoc();
  if (kind == WarpIntrinsicKind::SyncWarp) {
    createWarpBarrier(b, loc, loop);
    call->erase();
    return success();
  }
  ValueRange args = callArguments(call);
  // Operand order: (mask, value, ...) but (value, mask) for reductions and
  // (value, lane) for the work-group shuffle, which has no mask.
  bool valueFirst = kind == WarpIntrinsicKind::Reduce ||
                    kind == WarpIntrinsicKind::WorkGroupShuffle;
  Value value = valueFirst ? args[0] : args[1];
  Value mask = valueFirst ? args[1] : args[0];
  Type slotType = getStorageType(value.getType());
  if (!slotType)
    return call->emitError("unsupported operand type for a warp primitive");

  WarpExchange warp;
  warp.loop = loop;
  warp.slotType = slotType;
  warp.slots = allocateBlockArray(loop, slotType, 1);
  warp.tid = buildLinearThreadId(b, loc, loop, loop.getInductionVars());
  warp.count = buildThreadCount(b, loc, loop);
  warp.lane = arith::RemUIOp::create(
      b, loc, warp.tid, arith::ConstantIndexOp::create(b, loc, 32));
  warp.warpBase = arith::SubIOp::create(b, loc, warp.tid, warp.lane);

  storeValue(b, loc, value,
             buildElementAddress(b, loc, warp.slots, slotType, warp.tid));
  bool combines = kind != WarpIntrinsicKind::ShuffleIdx &&
                  kind != WarpIntrinsicKind::ShuffleUp &&
                  kind != WarpIntrinsicKind::ShuffleDown &&
                  kind != WarpIntrinsicKind::ShuffleXor &&
                  kind != WarpIntrinsicKind::WorkGroupShuffle;
  Value flagAddress;
  if (combines) {
    warp.flags = allocateParticipationFlags(loop);
    flagAddress =
        buildElementAddress(b, loc, warp.flags, b.getI8Type(), warp.tid);
    storeValue(b, loc, arith::ConstantIntOp::create(b, loc, b.getI8Type(), 1),
               flagAddress);
  }
  createWarpBarrier(b, loc, loop, kind);
  Value result;
  switch (kind) {
  case WarpIntrinsicKind::ShuffleIdx:
  case WarpIntrinsicKind::ShuffleUp:
  case WarpIntrinsicKind::ShuffleDown:
  case WarpIntrinsicKind::ShuffleXor:
    result =
        computeShuffle(b, loc, kind, warp, args[2], args[3], value.getType());
    break;
  case WarpIntrinsicKind::WorkGroupShuffle:
    result = computeWorkGroupShuffle(b, loc, warp, args[1], value.getType());
    break;
  default: {
    StringRef reduceOp =
        cast<LLVM::CallIntrinsicOp>(call).getIntrin().rsplit('.').second;
    auto [combined, participants] =
        combineLanes(b, loc, kind, reduceOp, warp, mask, value);
    Value zero = constI32(b, loc, 0);
    if (kind == WarpIntrinsicKind::Any)
      result = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, combined,
                                     zero);
    else if (kind == WarpIntrinsicKind::All)
      result = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, combined,
                                     participants);
    else if (kind == WarpIntrinsicKind::MatchAll)
      result = buildMatchAllResult(b, loc, call->getResult(0).getType(),
                                   combined, participants);
    else if (kind == WarpIntrinsicKind::Uniform)
      result = arith::OrIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, combined,
                                zero),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, combined,
                                participants));
    else
      result = combined;
    break;
  }
  }
  createWarpBarrier(b, loc, loop, kind);
  if (combines)
    storeValue(b, loc, arith::ConstantIntOp::create(b, loc, b.getI8Type(), 0),
               flagAddress);
  call->getResult(0).replaceAllUsesWith(result);
  call->erase();
  return success();
}

namespace {
struct ExpandWarpIntrinsicsPass
    : public respec::impl::ExpandWarpIntrinsicsPassBase<
          ExpandWarpIntrinsicsPass> {
  void runOnOperation() override {
    for (scf::ParallelOp loop : collectThreadLoops(getOperation())) {
      SmallVector<std::pair<Operation *, WarpIntrinsicKind>> calls;
      loop.walk([&](Operation *call) {
        // __activemask has no meaning in the barrier emulation (every thread
        // runs each interval); LowerDeviceIntrinsics reports it.
        std::optional<WarpIntrinsicKind> kind = getWarpPrimitiveKind(call);
        if (kind && *kind != WarpIntrinsicKind::ActiveMask)
          calls.push_back({call, *kind});
      });
      for (auto [call, kind] : calls)
        if (failed(expandWarpIntrinsic(call, kind, loop)))
          return signalPassFailure();
    }
  }
};
} // namespace
