//===- ParallelizeFewBlockGrids.cpp - Slices of a block on several cores --===//
//
// The grid loop becomes an OpenMP worksharing loop that gives each core
// whole blocks, and a block's threads run in turn on its core. A grid of
// fewer blocks than cores therefore leaves cores idle: a `<<<1, 1024>>>`
// launch runs on one core of many.
//
// Where the threads of a block never synchronize (no barriers, no warp
// primitives: `respec.independent_threads`, respec-find-independent-threads)
// and share no memory of the block, CUDA lets them run side by side, so a
// block can be cut into slices of threads that run on different cores. This
// pass gives such grid loops a version, chosen at launch, whose grid loop
// has one more dimension, the slice: slice `s` runs the block's code with
// every thread loop restricted to the threads whose x lies in the slice.
// The thread loops keep their induction variables (threadIdx.x itself), so
// everything the earlier passes built on them (per-thread arrays, SIMD
// lanes, index-set splits) stays as it is. Slices are multiples of 64
// threads, which keeps a vectorized thread loop's lane groups whole, and the
// last slice takes every thread above it, so that the slices cover each
// thread loop whatever its extent (their sizes come from one loop's).
//
// Each slice runs the block-level code on its own core, with its own
// scratch storage (per-thread arrays, barrier-lowering spills). So the
// block code must not write memory other threads see, the block must not
// use shared memory (which a core's runtime arena provides), and the
// block's storage must not carry values between threads: per-thread copies
// only in thread loops, block-level scalars only in block code. Barrier
// lowering of the interchanged loops of independent threads can combine
// the threads' values (a loop that some threads leave early runs while any
// thread's flag is set); such grids are not sliced. A value every thread
// records for the block and block code reads from thread 0's entry
// (respec.thread_zero_entry) is read from the slice's first thread's.
// Unused block-level reads are erased first: the interchange of uniform
// loops leaves copies of the loop's prologue evaluated as thread 0 would,
// whose results nothing uses, and they must not keep a grid from slicing.
//
// The version is taken when the grid has at most half as many blocks as
// OpenMP threads (so that slicing at least doubles the cores in use) and
// the block at least `min-block-threads` threads along x; the other grids
// run the original grid loop, whose constant thread-loop bounds LLVM
// unrolls and vectorizes best.
//
//===----------------------------------------------------------------------===//

#include "TransitiveCalls.h"
#include "respec/Dialect/RespecDialect.h"
#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::respec {
#define GEN_PASS_DEF_PARALLELIZEFEWBLOCKGRIDSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// Slices are multiples of this many threads: whole SIMD lane groups of a
/// vectorized thread loop (at most 64 lanes) and whole warps.
constexpr int64_t kSliceGranule = 64;

/// True for a call whose callee is not known (it might take the block's
/// shared memory).
bool isIndirectCall(Operation *op) {
  auto call = dyn_cast<LLVM::CallOp>(op);
  return call && !call.getCallee();
}

bool allConstant(ValueRange values, int64_t expected) {
  return llvm::all_of(values, [&](Value value) {
    std::optional<int64_t> constant = getConstantThroughCasts(value);
    return constant && *constant == expected;
  });
}

/// True if restricting `loop`'s x dimension (its last) to a slice keeps
/// its iterations: a constant step that divides the slice granule, and a
/// lower bound that is a multiple of the step, so that the slice's first
/// thread is one of the loop's.
bool canSliceAlongX(scf::ParallelOp loop) {
  if (loop.getNumReductions() != 0)
    return false;
  unsigned x = loop.getNumLoops() - 1;
  std::optional<int64_t> step = getConstantThroughCasts(loop.getStep()[x]);
  if (!step || *step <= 0 || kSliceGranule % *step != 0)
    return false;
  if (*step == 1)
    return true;
  std::optional<int64_t> lower =
      getConstantThroughCasts(loop.getLowerBound()[x]);
  return lower && *lower >= 0 && *lower % *step == 0;
}

/// True if `op`, at block level (outside the thread loops), may run once
/// per slice: it writes no memory other threads see. Stores to the block's
/// scratch storage and the scratch calls themselves are per slice.
bool isSliceLocal(Operation *op) {
  if (isMemoryEffectFree(op) || isa<LLVM::LoadOp, LLVM::AllocaOp>(op))
    return true;
  if (auto call = dyn_cast<LLVM::CallOp>(op)) {
    std::optional<StringRef> callee = call.getCallee();
    // The runtime's scratch storage comes from the calling core's arena:
    // each slice gets its own.
    return callee &&
           (*callee == kScratchFunction || *callee == kScratchResetFunction);
  }
  if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
    Operation *root = getRootPointer(store.getAddr()).getDefiningOp();
    return root &&
           (isa<LLVM::AllocaOp>(root) || isCallTo(root, kScratchFunction));
  }
  // Block-level control flow: its body is checked op by op.
  return isa<scf::IfOp, scf::ForOp, scf::WhileOp, scf::YieldOp,
             scf::ConditionOp>(op);
}

/// True if `def` allocates storage of the block's own: a stack slot or a
/// scratch array (each slice gets its own).
bool isBlockStorage(Operation *def) {
  return def && (isa<LLVM::AllocaOp>(def) || isCallTo(def, kScratchFunction));
}

/// True if `pointer` is `root` or a GEP from it by constant zero indices.
bool isZeroOffsetFrom(Value pointer, Value root) {
  if (pointer == root)
    return true;
  auto gep = pointer.getDefiningOp<LLVM::GEPOp>();
  if (!gep || !llvm::all_of(gep.getRawConstantIndices(), [](int32_t index) {
        return index == 0 || index == LLVM::GEPOp::kDynamicIndex;
      }))
    return false;
  return llvm::all_of(gep.getDynamicIndices(),
                      [](Value index) {
                        std::optional<int64_t> constant =
                            getConstantThroughCasts(index);
                        return constant && *constant == 0;
                      }) &&
         isZeroOffsetFrom(gep.getBase(), root);
}

/// True if `op` is a block-level load of thread 0's entry in the per-thread
/// copy `root` of a value all threads computed alike: each slice reads its
/// own first thread's entry instead (see readFirstThreadEntries).
bool isThreadZeroEntryLoad(Operation *op, Value root) {
  auto load = dyn_cast<LLVM::LoadOp>(op);
  return load && load->hasAttr(kThreadZeroEntryAttr) &&
         isZeroOffsetFrom(load.getAddr(), root);
}

/// True if slices need not see each other's block storage: per-thread
/// copies (respec.thread_private, each thread touching only its own part)
/// are accessed only in thread loops (and at block level only for thread
/// 0's entry of a value all threads computed alike), other block storage
/// (block-level scalars) only by block-level code, and both only as load
/// and store addresses. Barrier lowering's reductions (a flag per thread
/// that thread 0 combines, a slot it fills for all) read other threads'
/// values and fail this.
bool usesBlockStorageLocally(scf::ParallelOp grid) {
  auto isInThreadLoop = [&](Operation *op) {
    return op->getParentOfType<scf::ParallelOp>() != grid;
  };
  WalkResult walk = grid.getBody()->walk([&](Operation *def) {
    if (!isBlockStorage(def) || isInThreadLoop(def))
      return WalkResult::advance();
    bool perThread = def->hasAttr(kThreadPrivateAttr);
    SmallVector<Value> pointers(def->getResults());
    while (!pointers.empty()) {
      Value pointer = pointers.pop_back_val();
      for (OpOperand &use : pointer.getUses()) {
        Operation *user = use.getOwner();
        if (auto gep = dyn_cast<LLVM::GEPOp>(user);
            gep && gep.getBase() == pointer) {
          pointers.push_back(gep.getResult());
          continue;
        }
        auto store = dyn_cast<LLVM::StoreOp>(user);
        bool isAddress =
            isa<LLVM::LoadOp>(user) || (store && store.getAddr() == pointer);
        if (perThread && !isInThreadLoop(user) &&
            isThreadZeroEntryLoad(user, def->getResult(0)))
          continue;
        if (!isAddress || isInThreadLoop(user) != perThread)
          return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// True if `grid`'s blocks may run as slices of threads on several cores.
bool canSliceBlocks(scf::ParallelOp grid,
                    const llvm::DenseSet<StringRef> &sharedMemoryUsers) {
  if (!grid->hasAttr(kIndependentThreadsAttr) || grid.getNumReductions() != 0 ||
      !allConstant(grid.getLowerBound(), 0) || !allConstant(grid.getStep(), 1))
    return false;
  // Nothing in the grid may use shared memory or rely on one thread at a
  // time.
  WalkResult walk = grid.getBody()->walk([&](Operation *op) {
    if (op->hasAttr(kBlockSerialAttr))
      return WalkResult::interrupt();
    if (isIndirectCall(op) || isCallToAnyOf(op, sharedMemoryUsers))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return false;
  // Thread loops that can be sliced, never nested in one another, and
  // block-level code that may run once per slice.
  walk = grid.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
      // Restricting a loop nested in another (fused block rows) would cut
      // both the outer loop's dimension and x.
      bool nested =
          loop.getBody()
              ->walk([](scf::ParallelOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
      if (!isThreadLoop(loop) || nested || !canSliceAlongX(loop))
        return WalkResult::interrupt();
      return WalkResult::skip();
    }
    if (op != grid.getBody()->getTerminator() && !isSliceLocal(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted() && usesBlockStorageLocally(grid);
}

/// The extent along x of the block, for sizing the slices: the x upper
/// bound of a thread loop, a constant or a value available before the grid
/// loop (built at `b`, before the grid).
Value buildBlockWidth(OpBuilder &b, scf::ParallelOp grid) {
  for (scf::ParallelOp loop : collectThreadLoops(grid)) {
    Value upper = loop.getUpperBound().back();
    if (std::optional<int64_t> constant = getConstantThroughCasts(upper))
      return arith::ConstantIndexOp::create(b, grid.getLoc(), *constant);
    if (isDefinedOutside(upper, grid))
      return upper;
  }
  return nullptr;
}

/// Declares `int omp_get_max_threads(void)` in `module` if needed.
LLVM::LLVMFuncOp getMaxThreadsFunction(ModuleOp module) {
  constexpr StringLiteral name = "omp_get_max_threads";
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  auto builder = OpBuilder::atBlockEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(
      builder, module.getLoc(), name,
      LLVM::LLVMFunctionType::get(builder.getI32Type(), {}));
}

/// The launch-time choice of slices.
struct SlicePlan {
  /// True if the grid runs sliced.
  Value sliced;
  /// Number of slices per block, and threads per slice (a multiple of the
  /// granule).
  Value slices, width;
};

/// Builds, before `grid`, the test for few blocks and the slice sizes: with
/// `blocks * 2 <= cores` and `width >= minWidth`, each block runs as
/// `min(cores / blocks, ceil(width / 64))` slices.
SlicePlan buildSlicePlan(OpBuilder &b, Location loc, scf::ParallelOp grid,
                         Value blockWidth, LLVM::LLVMFuncOp maxThreads,
                         unsigned minWidth) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Value one = constant(1);
  Value blocks = buildThreadCount(b, loc, grid);
  Value cores =
      LLVM::CallOp::create(b, loc, maxThreads, ValueRange{}).getResult();
  cores = arith::IndexCastOp::create(b, loc, b.getIndexType(), cores);
  Value fewBlocks = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::sle,
      arith::MulIOp::create(b, loc, blocks, constant(2)), cores);
  Value wide = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                     blockWidth, constant(minWidth));
  Value sliced = arith::AndIOp::create(b, loc, fewBlocks, wide);
  // Guarded against empty grids and one-core runs, where the version is not
  // taken but the sizes are still computed.
  Value perBlock = arith::MaxUIOp::create(
      b, loc,
      arith::DivUIOp::create(b, loc, cores,
                             arith::MaxUIOp::create(b, loc, blocks, one)),
      one);
  Value granules =
      arith::CeilDivUIOp::create(b, loc, blockWidth, constant(kSliceGranule));
  Value target = arith::MaxUIOp::create(
      b, loc, arith::MinUIOp::create(b, loc, perBlock, granules), one);
  Value width = arith::MulIOp::create(
      b, loc,
      arith::CeilDivUIOp::create(
          b, loc, arith::CeilDivUIOp::create(b, loc, blockWidth, target),
          constant(kSliceGranule)),
      constant(kSliceGranule));
  width = arith::MaxUIOp::create(b, loc, width, constant(kSliceGranule));
  // Rounding the width up may leave fewer slices than the target; none may
  // be empty, since every slice runs the block's code (and reads its first
  // thread's entries).
  Value slices = arith::MaxUIOp::create(
      b, loc, arith::CeilDivUIOp::create(b, loc, blockWidth, width), one);
  return {sliced, slices, width};
}

/// Restricts the x dimension of `loop` to the threads of the slice that
/// starts at `first` (and ends before `end`, unless `isLast`).
void restrictToSlice(scf::ParallelOp loop, Value first, Value end,
                     Value isLast) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  unsigned x = loop.getNumLoops() - 1;
  SmallVector<Value> lowers(loop.getLowerBound());
  SmallVector<Value> uppers(loop.getUpperBound());
  lowers[x] = arith::MaxUIOp::create(b, loc, lowers[x], first);
  uppers[x] =
      arith::SelectOp::create(b, loc, isLast, uppers[x],
                              arith::MinUIOp::create(b, loc, uppers[x], end));
  loop.getLowerBoundMutable().assign(lowers);
  loop.getUpperBoundMutable().assign(uppers);
}

/// Makes the block-level loads of thread 0's entry in `sliced` read the
/// entry of the slice's first thread, (z, y, x) = (0, 0, first), whose
/// linear index is `first`: a slice without thread 0 never writes thread
/// 0's entry, and the value is the same in every entry. The entries are
/// of the loaded type (per-thread copies of one value).
void readFirstThreadEntries(scf::ParallelOp sliced, Value first) {
  sliced.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto loop = dyn_cast<scf::ParallelOp>(op))
      return WalkResult::skip();
    auto load = dyn_cast<LLVM::LoadOp>(op);
    if (!load || !load->hasAttr(kThreadZeroEntryAttr))
      return WalkResult::advance();
    OpBuilder b(load);
    Location loc = load.getLoc();
    Value index = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), first);
    Value entry = LLVM::GEPOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()), load.getType(),
        getRootPointer(load.getAddr()), ValueRange{index});
    load.getAddrMutable().assign(entry);
    return WalkResult::advance();
  });
}

/// Builds the sliced copy of `grid` at `b`'s insertion point: the grid's
/// dimensions and the slice, each thread loop restricted to the slice.
void buildSlicedGrid(OpBuilder &b, scf::ParallelOp grid,
                     const SlicePlan &plan) {
  Location loc = grid.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> lowers(grid.getLowerBound());
  SmallVector<Value> uppers(grid.getUpperBound());
  SmallVector<Value> steps(grid.getStep());
  lowers.push_back(zero);
  uppers.push_back(plan.slices);
  steps.push_back(one);
  auto sliced = scf::ParallelOp::create(b, loc, lowers, uppers, steps);
  sliced->setDiscardableAttrs(grid->getDiscardableAttrDictionary());

  Block *body = sliced.getBody();
  b.setInsertionPointToStart(body);
  Value slice = body->getArguments().back();
  Value first = arith::MulIOp::create(b, loc, slice, plan.width);
  Value end = arith::AddIOp::create(b, loc, first, plan.width);
  Value isLast =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slice,
                            arith::SubIOp::create(b, loc, plan.slices, one));
  IRMapping mapping;
  for (auto [from, to] :
       llvm::zip(grid.getInductionVars(), body->getArguments()))
    mapping.map(from, to);
  for (Operation &op : grid.getBody()->without_terminator())
    b.clone(op, mapping);
  for (scf::ParallelOp loop : collectThreadLoops(sliced))
    restrictToSlice(loop, first, end, isLast);
  readFirstThreadEntries(sliced, first);
}

struct ParallelizeFewBlockGridsPass
    : public respec::impl::ParallelizeFewBlockGridsPassBase<
          ParallelizeFewBlockGridsPass> {
  using ParallelizeFewBlockGridsPassBase::ParallelizeFewBlockGridsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Functions that take the block's shared memory from the runtime, and
    // those whose indirect calls might.
    llvm::DenseSet<StringRef> sharedMemoryUsers =
        findFunctionsReaching(module, {kSharedMemoryFunction}, isIndirectCall);
    SmallVector<scf::ParallelOp> candidates;
    module.walk([&](scf::ParallelOp grid) {
      if (!isGridLoop(grid))
        return;
      // Dead reads of another thread's entry must not count as uses.
      IRRewriter rewriter(grid.getContext());
      (void)runRegionDCE(rewriter, grid->getRegions());
      if (canSliceBlocks(grid, sharedMemoryUsers))
        candidates.push_back(grid);
    });
    if (candidates.empty())
      return;
    LLVM::LLVMFuncOp maxThreads = getMaxThreadsFunction(module);
    for (scf::ParallelOp grid : candidates) {
      OpBuilder b(grid);
      Location loc = grid.getLoc();
      Value blockWidth = buildBlockWidth(b, grid);
      if (!blockWidth)
        continue;
      SlicePlan plan =
          buildSlicePlan(b, loc, grid, blockWidth, maxThreads, minBlockThreads);
      auto ifOp = scf::IfOp::create(b, loc, plan.sliced,
                                    /*withElseRegion=*/true);
      b.setInsertionPointToStart(ifOp.thenBlock());
      buildSlicedGrid(b, grid, plan);
      grid->moveBefore(ifOp.elseBlock()->getTerminator());
    }
  }
};
} // namespace
