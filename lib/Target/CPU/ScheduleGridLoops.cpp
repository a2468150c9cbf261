//===- ScheduleGridLoops.cpp - How the cores share a grid's blocks --------===//
//
// The grid loops, now OpenMP worksharing loops over the blocks, get a
// dynamic schedule in launch functions whose blocks may do different
// amounts of work (marked by respec-find-unbalanced-grids), a static one
// elsewhere; or the schedule the user asked for (--grid-schedule).
//
// The static and dynamic schedules are built here rather than left to
// libomp's worksharing calls. Those calls cost more than a small launch's
// blocks: the libomp that Linux distributions ship is built with its debug
// traces, and `__kmpc_for_static_init` and `__kmpc_dispatch_next` format
// their trace strings (vsnprintf, malloc, free) on every call, whatever the
// trace level; a dynamic schedule pays that for every block. Each thread of
// the team instead computes its share from `omp_get_thread_num()` and
// `omp_get_num_threads()`:
//   - static: one contiguous run of the linearized blocks, the runs'
//     lengths differing by at most one (libomp's balanced static schedule);
//   - dynamic: blocks one at a time from a counter shared by the team
//     (an atomic add per block); under `auto`, runs of neighbouring blocks,
//     about eight per thread, so that a grid of few blocks still balances
//     block by block and a large one keeps its contiguity and makes few
//     atomic adds.
// The worksharing loop's implicit barrier goes with it: it is the last
// thing in its parallel region, whose end waits for every thread anyway.
// The guided schedule, whose chunk sizes depend on the blocks left, stays
// libomp's. Each iteration's stack scope (memref.alloca_scope) becomes a
// stack save and restore here: its lowering branches, which `scf` loops
// cannot hold.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::respec {
#define GEN_PASS_DEF_SCHEDULEGRIDLOOPSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// The loop nest of `wsloop` if respec may replace the worksharing loop by
/// its own distribution: the loop is the last operation of its parallel
/// region (so its implicit barrier is the region's end), has no clauses
/// (reductions, private copies, ordering) and iterates over `index` values
/// in one block.
omp::LoopNestOp getDistributableNest(omp::WsloopOp wsloop) {
  auto parallel = dyn_cast<omp::ParallelOp>(wsloop->getParentOp());
  if (!parallel || wsloop->getNumOperands() != 0 ||
      !isa<omp::TerminatorOp>(wsloop->getNextNode()))
    return nullptr;
  auto nest = dyn_cast<omp::LoopNestOp>(wsloop.getWrappedLoop());
  if (!nest || !nest.getRegion().hasOneBlock() || nest.getLoopInclusive() ||
      !llvm::all_of(nest.getIVs(),
                    [](Value iv) { return iv.getType().isIndex(); }))
    return nullptr;
  return nest;
}

/// Calls `int name(void)` of libomp, as an index.
Value callOpenMPQuery(OpBuilder &b, Location loc, ModuleOp module,
                      StringRef name) {
  FailureOr<LLVM::LLVMFuncOp> function =
      LLVM::lookupOrCreateFn(b, module, name, {}, b.getI32Type());
  assert(succeeded(function) && "libomp query declared with another type");
  Value result =
      LLVM::CallOp::create(b, loc, *function, ValueRange{}).getResult();
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), result);
}

/// The iterations of each dimension of `nest` (none where the upper bound
/// does not exceed the lower one), built before `nest`'s wrapper.
SmallVector<Value> buildTripCounts(OpBuilder &b, omp::LoopNestOp nest) {
  Location loc = nest.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> trips;
  for (auto [lower, upper, step] :
       llvm::zip(nest.getLoopLowerBounds(), nest.getLoopUpperBounds(),
                 nest.getLoopSteps())) {
    Value extent = arith::SubIOp::create(b, loc, upper, lower);
    extent = arith::MaxSIOp::create(b, loc, extent, zero);
    trips.push_back(arith::CeilDivUIOp::create(b, loc, extent, step));
  }
  return trips;
}

/// Replaces each `memref.alloca_scope` directly in `block` (where
/// --convert-scf-to-openmp puts the body of each iteration, so that its
/// allocas are freed per iteration) by its body between a stack save and
/// restore: its lowering branches, which the `scf` loops built here cannot
/// hold.
void inlineAllocaScopes(Block &block) {
  for (auto scope :
       llvm::make_early_inc_range(block.getOps<memref::AllocaScopeOp>())) {
    OpBuilder b(scope);
    Location loc = scope.getLoc();
    Value stack = LLVM::StackSaveOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()));
    Block &body = scope.getBodyRegion().front();
    Operation *terminator = body.getTerminator();
    SmallVector<Value> results(terminator->getOperands());
    terminator->erase();
    scope->getBlock()->getOperations().splice(Block::iterator(scope),
                                              body.getOperations());
    LLVM::StackRestoreOp::create(b, loc, stack);
    scope->replaceAllUsesWith(results);
    scope->erase();
  }
}

/// Moves `nest`'s body before `b`'s insertion point for the linearized
/// iteration `linear` (the last dimension varying fastest, as a collapsed
/// worksharing loop numbers them).
void inlineIteration(OpBuilder &b, omp::LoopNestOp nest, ArrayRef<Value> trips,
                     Value linear) {
  Location loc = nest.getLoc();
  unsigned rank = trips.size();
  SmallVector<Value> ivs(rank);
  Value rest = linear;
  for (unsigned d = rank; d-- > 0;) {
    Value index = rest;
    if (d != 0) {
      index = arith::RemUIOp::create(b, loc, rest, trips[d]);
      rest = arith::DivUIOp::create(b, loc, rest, trips[d]);
    }
    Value offset = arith::MulIOp::create(b, loc, index, nest.getLoopSteps()[d]);
    ivs[d] =
        arith::AddIOp::create(b, loc, nest.getLoopLowerBounds()[d], offset);
  }
  Block &body = nest.getRegion().front();
  inlineAllocaScopes(body);
  Operation *yield = body.getTerminator();
  IRRewriter rewriter(b);
  rewriter.inlineBlockBefore(&body, b.getInsertionBlock(),
                             b.getInsertionPoint(), ivs);
  rewriter.eraseOp(yield);
}

/// Static schedule: thread t of n runs iterations [lo, hi) with
/// lo = t * q + min(t, r), hi = lo + q + (t < r), where total = q * n + r.
void distributeStatically(OpBuilder &b, omp::LoopNestOp nest,
                          ArrayRef<Value> trips, Value total, Value thread,
                          Value threads) {
  Location loc = nest.getLoc();
  Value share = arith::DivUIOp::create(b, loc, total, threads);
  Value extra = arith::RemUIOp::create(b, loc, total, threads);
  Value lower = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, thread, share),
      arith::MinUIOp::create(b, loc, thread, extra));
  Value takesExtra =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, thread, extra);
  Value length = arith::AddIOp::create(
      b, loc, share,
      arith::IndexCastUIOp::create(b, loc, b.getIndexType(), takesExtra));
  Value upper = arith::AddIOp::create(b, loc, lower, length);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, lower, upper, one);
  OpBuilder inner = OpBuilder::atBlockTerminator(loop.getBody());
  inlineIteration(inner, nest, trips, loop.getInductionVar());
}

/// Dynamic schedule: each thread takes the next `chunk` iterations from
/// `counter` (shared by the team, zero at the start) until none is left.
void distributeDynamically(OpBuilder &b, omp::LoopNestOp nest,
                           ArrayRef<Value> trips, Value total, Value counter,
                           Value chunk) {
  Location loc = nest.getLoc();
  Type i64 = b.getI64Type();
  Type index = b.getIndexType();
  auto loop = scf::WhileOp::create(b, loc, TypeRange{index}, ValueRange{});
  b.createBlock(&loop.getBefore());
  Value taken = LLVM::AtomicRMWOp::create(
      b, loc, LLVM::AtomicBinOp::add, counter,
      arith::IndexCastUIOp::create(b, loc, i64, chunk),
      LLVM::AtomicOrdering::monotonic);
  Value first = arith::IndexCastUIOp::create(b, loc, index, taken);
  Value left =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, first, total);
  scf::ConditionOp::create(b, loc, left, ValueRange{first});
  Block *after = b.createBlock(&loop.getAfter(), {}, {index}, {loc});
  auto yield = scf::YieldOp::create(b, loc);
  OpBuilder inner(yield);
  Value start = after->getArgument(0);
  Value end = arith::MinUIOp::create(
      inner, loc, arith::AddIOp::create(inner, loc, start, chunk), total);
  auto run = scf::ForOp::create(inner, loc, start, end,
                                arith::ConstantIndexOp::create(inner, loc, 1));
  OpBuilder body = OpBuilder::atBlockTerminator(run.getBody());
  inlineIteration(body, nest, trips, run.getInductionVar());
  b.setInsertionPointAfter(loop);
}

/// The iterations a thread takes at once under the schedule respec picks
/// for grids whose blocks may differ in work: about kChunksPerThread
/// chunks per thread, at least one iteration. Few blocks are handed out
/// one by one, as they finish; many go in runs of neighbouring blocks,
/// which keeps most of the static schedule's contiguity and makes the
/// counter's atomic adds rare (one per block made bench/sci's bfs 1.17x
/// slower than static in 0.21.0).
Value buildBalancingChunk(OpBuilder &b, Location loc, Value total,
                          Value threads) {
  constexpr int64_t kChunksPerThread = 8;
  Value chunks = arith::MulIOp::create(
      b, loc, threads,
      arith::ConstantIndexOp::create(b, loc, kChunksPerThread));
  return arith::MaxUIOp::create(b, loc,
                                arith::DivUIOp::create(b, loc, total, chunks),
                                arith::ConstantIndexOp::create(b, loc, 1));
}

/// A zeroed 64-bit counter for the team of `parallel`, on the stack of the
/// thread that starts it: allocated in the function's entry block, reset
/// just before the region.
Value buildSharedCounter(OpBuilder &b, omp::ParallelOp parallel) {
  Location loc = parallel.getLoc();
  auto func = parallel->getParentOfType<FunctionOpInterface>();
  Type i64 = b.getI64Type();
  OpBuilder entry = OpBuilder::atBlockBegin(&func.getFunctionBody().front());
  Value one = LLVM::ConstantOp::create(entry, loc, i64, 1);
  Value counter = LLVM::AllocaOp::create(
      entry, loc, LLVM::LLVMPointerType::get(b.getContext()), i64, one,
      /*alignment=*/64);
  OpBuilder reset(parallel);
  Value zero = LLVM::ConstantOp::create(reset, loc, i64, 0);
  LLVM::StoreOp::create(reset, loc, zero, counter);
  return counter;
}

/// Replaces `wsloop` by the share of its iterations each thread of the
/// team computes for itself under `kind` (static or dynamic; dynamic in
/// chunks from buildBalancingChunk if `chunked`, else one by one).
void distributeByHand(omp::WsloopOp wsloop, omp::LoopNestOp nest,
                      omp::ClauseScheduleKind kind, bool chunked) {
  auto module = wsloop->getParentOfType<ModuleOp>();
  auto parallel = cast<omp::ParallelOp>(wsloop->getParentOp());
  OpBuilder b(wsloop);
  Location loc = wsloop.getLoc();
  Value counter;
  if (kind == omp::ClauseScheduleKind::Dynamic)
    counter = buildSharedCounter(b, parallel);
  SmallVector<Value> trips = buildTripCounts(b, nest);
  Value total = trips.front();
  for (Value trip : ArrayRef<Value>(trips).drop_front())
    total = arith::MulIOp::create(b, loc, total, trip);
  if (kind == omp::ClauseScheduleKind::Dynamic) {
    Value chunk =
        chunked ? buildBalancingChunk(
                      b, loc, total,
                      callOpenMPQuery(b, loc, module, "omp_get_num_threads"))
                : arith::ConstantIndexOp::create(b, loc, 1).getResult();
    distributeDynamically(b, nest, trips, total, counter, chunk);
  } else {
    Value thread = callOpenMPQuery(b, loc, module, "omp_get_thread_num");
    Value threads = callOpenMPQuery(b, loc, module, "omp_get_num_threads");
    distributeStatically(b, nest, trips, total, thread, threads);
  }
  wsloop.erase();
}

struct ScheduleGridLoopsPass
    : public respec::impl::ScheduleGridLoopsPassBase<ScheduleGridLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<omp::ClauseScheduleKind> forced =
        llvm::StringSwitch<std::optional<omp::ClauseScheduleKind>>(schedule)
            .Case("static", omp::ClauseScheduleKind::Static)
            .Case("dynamic", omp::ClauseScheduleKind::Dynamic)
            .Case("guided", omp::ClauseScheduleKind::Guided)
            .Default(std::nullopt);
    if (!forced && schedule != "auto") {
      getOperation().emitError("unknown grid schedule '")
          << schedule << "' (expected auto, static, dynamic or guided)";
      return signalPassFailure();
    }
    SmallVector<omp::WsloopOp> wsloops;
    getOperation().walk(
        [&](omp::WsloopOp wsloop) { wsloops.push_back(wsloop); });
    for (omp::WsloopOp wsloop : wsloops) {
      auto func = wsloop->getParentOfType<FunctionOpInterface>();
      bool unbalanced = func && func->hasAttr(kUnbalancedBlocksAttr);
      // A grid that synchronizes runs on as many threads as it has blocks,
      // and each must get exactly one: a thread running a second block
      // after its first would wait for itself at the grid barrier.
      // So must the slices of a block that wait for each other
      // (respec-parallelize-few-block-grids).
      bool syncsGrid = (func && func->hasAttr(kSyncsGridAttr)) ||
                       wsloop
                           ->walk([](LLVM::CallOp call) {
                             return isCallTo(call, kSliceBarrierFunction)
                                        ? WalkResult::interrupt()
                                        : WalkResult::advance();
                           })
                           .wasInterrupted();
      omp::ClauseScheduleKind kind = syncsGrid ? omp::ClauseScheduleKind::Static
                                     : forced  ? *forced
                                     : unbalanced
                                         ? omp::ClauseScheduleKind::Dynamic
                                         : omp::ClauseScheduleKind::Static;
      omp::LoopNestOp nest = getDistributableNest(wsloop);
      if (inlineWorksharing && nest && kind != omp::ClauseScheduleKind::Guided)
        distributeByHand(wsloop, nest, kind, /*chunked=*/!forced);
      else
        wsloop.setScheduleKind(kind);
    }
  }
};
} // namespace
