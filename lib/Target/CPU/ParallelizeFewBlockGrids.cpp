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
// Blocks whose threads synchronize only at `__syncthreads()`
// (respec.barrier_synchronized_threads) are sliced too. Barrier lowering
// has cut their code into thread loops, one per interval between barriers
// (and more from later splits), in block-level control flow that is the
// same for all threads. Each slice runs that block-level code and its part
// of every thread loop, and waits for the block's other slices
// (`__respec_slice_barrier`) where the kernel's barriers were, which
// respec-lower-barriers marks (`__respec_barrier_point`); a vector loop cut
// at its own iterations also gets a wait before and after it. Only grids
// whose threads have work between barriers get this version: waits around
// a few operations per thread cost more than they save. The slices of a
// block must run at the same time, each on a thread of the team: the
// version is taken only if the launching thread's next parallel region will
// have the team asked for (`__respec_slice_team_size`), each slice checks
// the team it got (`__respec_slice_team_ready`; if too small, the first
// slice of each block runs the whole block), and the grid gets a static
// schedule (respec-schedule-grid-loops). Their shared memory is one
// allocation per block for all its slices (`__respec_slice_group_shared`),
// made by the launching thread (`__respec_slice_groups_begin`) instead of
// each core's arena; the runtime's shared-memory call is then the only
// call of the grid that may take shared memory.
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
#include "llvm/ADT/SetVector.h"

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

/// Iterations below which a counted loop is too short to make slices that
/// wait for each other worth their barriers.
constexpr int64_t kFewIterations = 16;

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

/// How the x dimension (the last) of a thread loop may be cut into slices.
enum class XCut {
  /// Not at all.
  None,
  /// At the slices' bounds: a step that divides the slice granule, and a
  /// lower bound that is a multiple of the step (or a step of one), so
  /// that each slice's first thread starts an iteration.
  Exact,
  /// A step that divides the granule from a lower bound that may not be a
  /// multiple of it (a vector loop after an index-set split): cut at the
  /// iterations nearest the slices' bounds, so that up to step - 1 threads
  /// of a slice run in its neighbour's part of this loop.
  Lattice,
};

XCut classifyXCut(scf::ParallelOp loop) {
  if (loop.getNumReductions() != 0)
    return XCut::None;
  unsigned x = loop.getNumLoops() - 1;
  std::optional<int64_t> step = getConstantThroughCasts(loop.getStep()[x]);
  if (!step || *step <= 0 || kSliceGranule % *step != 0)
    return XCut::None;
  if (*step == 1)
    return XCut::Exact;
  std::optional<int64_t> lower =
      getConstantThroughCasts(loop.getLowerBound()[x]);
  return lower && *lower >= 0 && *lower % *step == 0 ? XCut::Exact
                                                     : XCut::Lattice;
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
    // Barrier marks become barriers of the block's slices.
    return callee &&
           (*callee == kScratchFunction || *callee == kScratchResetFunction ||
            *callee == kBarrierPointFunction);
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

/// True if `loop` uses per-thread block storage (respec.thread_private):
/// the part of a thread that its own slice keeps.
bool touchesThreadPrivateStorage(scf::ParallelOp loop) {
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      Operation *def = getRootPointer(operand).getDefiningOp();
      if (isBlockStorage(def) && def->hasAttr(kThreadPrivateAttr))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
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

/// If `user` derives pointers from `pointer` (address arithmetic, vectors
/// of pointers that a vectorized thread loop builds for its lanes), its
/// result; null otherwise.
Value getDerivedPointer(Operation *user, Value pointer) {
  if (auto gep = dyn_cast<LLVM::GEPOp>(user))
    return gep.getBase() == pointer ? gep.getResult() : nullptr;
  if (auto insert = dyn_cast<LLVM::InsertElementOp>(user))
    return insert.getValue() == pointer || insert.getVector() == pointer
               ? insert.getResult()
               : nullptr;
  if (isa<LLVM::ShuffleVectorOp, LLVM::ExtractElementOp>(user) &&
      user->getOperand(0) == pointer)
    return user->getResult(0);
  return nullptr;
}

/// True if `user` accesses memory at `pointer` (or its lanes' pointers)
/// and does nothing else with it.
bool isAddressUse(Operation *user, Value pointer) {
  if (isa<LLVM::LoadOp>(user))
    return true;
  if (auto store = dyn_cast<LLVM::StoreOp>(user))
    return store.getAddr() == pointer && store.getValue() != pointer;
  if (auto load = dyn_cast<LLVM::MaskedLoadOp>(user))
    return load.getData() == pointer;
  if (auto store = dyn_cast<LLVM::MaskedStoreOp>(user))
    return store.getData() == pointer && store.getValue() != pointer;
  if (auto gather = dyn_cast<LLVM::masked_gather>(user))
    return gather.getPtrs() == pointer;
  if (auto scatter = dyn_cast<LLVM::masked_scatter>(user))
    return scatter.getPtrs() == pointer && scatter.getValue() != pointer;
  return false;
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
        if (Value derived = getDerivedPointer(user, pointer)) {
          pointers.push_back(derived);
          continue;
        }
        if (perThread && !isInThreadLoop(user) &&
            isThreadZeroEntryLoad(user, def->getResult(0)))
          continue;
        if (!isAddressUse(user, pointer) || isInThreadLoop(user) != perThread)
          return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// How a grid's blocks may run as slices.
enum class SliceKind {
  /// Not at all.
  None,
  /// Slices of independent threads, each with no need of the others.
  Independent,
  /// Slices that meet where the kernel's barriers were and share the
  /// block's shared memory and per-thread storage.
  Synchronized,
};

/// True if `op` is a block-level call of the runtime's shared memory whose
/// size is known before the grid (the sliced version allocates it then).
bool isBlockSharedMemoryCall(Operation *op, scf::ParallelOp grid) {
  return isCallTo(op, kSharedMemoryFunction) &&
         op->getBlock() == grid.getBody() && op->getNumOperands() == 1 &&
         isDefinedOutside(op->getOperand(0), grid);
}

/// True if `value` can be computed before `grid`: defined there, or by
/// side-effect-free ops of the grid's body from such values.
bool isComputableBefore(Value value, scf::ParallelOp grid) {
  if (isDefinedOutside(value, grid))
    return true;
  Operation *def = value.getDefiningOp();
  return def && def->getBlock() == grid.getBody() &&
         def->getNumRegions() == 0 && isMemoryEffectFree(def) &&
         llvm::all_of(def->getOperands(), [&](Value operand) {
           return isComputableBefore(operand, grid);
         });
}

/// The block-level allocations of per-thread storage in `grid`
/// (respec.thread_private scratch) if all are in the grid's body with
/// sizes known before the grid, so that the sliced version can allocate
/// them once per block for all its slices; nullopt otherwise.
std::optional<SmallVector<LLVM::CallOp>>
findShareablePrivateStorage(scf::ParallelOp grid) {
  SmallVector<LLVM::CallOp> allocations;
  WalkResult walk = grid.getBody()->walk([&](LLVM::CallOp call) {
    if (!isCallTo(call, kScratchFunction) || !call->hasAttr(kThreadPrivateAttr))
      return WalkResult::advance();
    if (call->getBlock() != grid.getBody() || call.getNumOperands() != 1 ||
        !isComputableBefore(call.getOperand(0), grid))
      return WalkResult::interrupt();
    allocations.push_back(call);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return std::nullopt;
  return allocations;
}

/// True if `loop` may run many iterations: not a counted loop of a few.
bool mayIterateMuch(Operation *loop) {
  auto forOp = dyn_cast<scf::ForOp>(loop);
  if (!forOp)
    return true;
  std::optional<int64_t> lower = getConstantThroughCasts(forOp.getLowerBound());
  std::optional<int64_t> upper = getConstantThroughCasts(forOp.getUpperBound());
  std::optional<int64_t> step = getConstantThroughCasts(forOp.getStep());
  return !lower || !upper || !step || *step <= 0 ||
         (*upper - *lower) / *step >= kFewIterations;
}

/// True if `loop` scales a value it carries by a constant factor each
/// iteration (`w /= 2`, `offset *= 2`, `s >>= 1`): a tree's loop, of a
/// logarithmic number of iterations.
bool scalesCarriedValue(Operation *loop) {
  auto isCarried = [&](Value value) {
    auto argument = dyn_cast<BlockArgument>(value);
    return argument && argument.getOwner()->getParentOp() == loop;
  };
  auto isScaling = [](Operation *op, Value constantOperand) {
    std::optional<int64_t> factor = getConstantThroughCasts(constantOperand);
    if (!factor)
      return false;
    if (isa<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp, LLVM::ShlOp,
            LLVM::LShrOp, LLVM::AShrOp>(op))
      return *factor >= 1;
    return isa<arith::MulIOp, arith::DivUIOp, arith::DivSIOp, LLVM::MulOp,
               LLVM::UDivOp, LLVM::SDivOp>(op) &&
           *factor >= 2;
  };
  WalkResult walk = loop->walk([&](Operation *op) {
    if (op->getNumOperands() != 2 || op == loop)
      return WalkResult::advance();
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    bool commutes = isa<arith::MulIOp, LLVM::MulOp>(op);
    if ((isCarried(lhs) && isScaling(op, rhs)) ||
        (commutes && isCarried(rhs) && isScaling(op, lhs)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// True if `op` contains a barrier mark.
bool containsBarrierPoint(Operation *op) {
  return op
      ->walk([](LLVM::CallOp call) {
        return isCallTo(call, kBarrierPointFunction) ? WalkResult::interrupt()
                                                     : WalkResult::advance();
      })
      .wasInterrupted();
}

/// True if `root`'s threads have work that a wait of the block's slices is
/// worth: a serial loop in a thread loop, or a loop of thread loops at
/// block level without a barrier mark in it (the interchange of a
/// block-stride loop), each of more than a few iterations.
bool hasWork(Operation *root, scf::ParallelOp grid) {
  WalkResult walk = root->walk([&](Operation *op) {
    if (op == root || !isa<scf::ForOp, scf::WhileOp>(op) || !mayIterateMuch(op))
      return WalkResult::advance();
    bool inThreadLoop = op->getParentOfType<scf::ParallelOp>() != grid;
    if (inThreadLoop)
      return WalkResult::interrupt();
    bool runsThreads = !collectThreadLoops(op).empty();
    return runsThreads && !containsBarrierPoint(op) ? WalkResult::interrupt()
                                                    : WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// True if the threads of `grid` have work between barriers that a slice
/// barrier's wait (a fraction of a microsecond, more on a busy machine) is
/// worth: work somewhere (hasWork), and no loop at block level that may
/// meet at barriers many times with no work in between (`for (it = 0; it <
/// steps; ++it) { ... __syncthreads(); }` around a few operations per
/// thread; a tree's logarithmic loop is fine). A tree reduction or a tile
/// staged through shared memory alone, whose phases are a few operations
/// per thread, ran 1.5-3x slower as slices on 2 cores than on one, and a
/// loop of 40,000 light phases 5x slower.
bool hasWorkBetweenBarriers(scf::ParallelOp grid) {
  if (!hasWork(grid, grid))
    return false;
  WalkResult walk = grid.getBody()->walk([&](Operation *op) {
    if (!isa<scf::ForOp, scf::WhileOp>(op) ||
        op->getParentOfType<scf::ParallelOp>() != grid ||
        !containsBarrierPoint(op) || !mayIterateMuch(op) ||
        scalesCarriedValue(op) || hasWork(op, grid))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

/// The functions whose calls keep a grid from running as slices: those
/// reaching the runtime's shared memory (or making indirect calls), its
/// address-space queries (`__isShared` & co., judged by the running core's
/// storage) and its `%smid` (the same for all threads of a block).
struct SliceBlockers {
  llvm::DenseSet<StringRef> sharedMemoryUsers, addressSpaceQueriers,
      smidReaders;

  explicit SliceBlockers(ModuleOp module)
      : sharedMemoryUsers(findFunctionsReaching(module, {kSharedMemoryFunction},
                                                isIndirectCall)),
        addressSpaceQueriers(findFunctionsReaching(
            module, {kAddressSpaceQueryFunction}, isIndirectCall)),
        smidReaders(
            findFunctionsReaching(module, {kSmidFunction}, isIndirectCall)) {}
};

/// How `grid`'s blocks may run as slices of threads on several cores.
SliceKind classifyGrid(scf::ParallelOp grid, const SliceBlockers &blockers) {
  bool independent = grid->hasAttr(kIndependentThreadsAttr);
  auto func = grid->getParentOfType<LLVM::LLVMFuncOp>();
  // A cooperative launch's team has one thread per block, none to spare.
  bool synchronized = grid->hasAttr(kBarrierSynchronizedThreadsAttr) &&
                      !(func && func->hasAttr(kSyncsGridAttr));
  if ((!independent && !synchronized) || grid.getNumReductions() != 0 ||
      !allConstant(grid.getLowerBound(), 0) || !allConstant(grid.getStep(), 1))
    return SliceKind::None;
  if (synchronized && !hasWorkBetweenBarriers(grid))
    return SliceKind::None;
  // Nothing in the grid may rely on one thread at a time or take the
  // core's shared memory, but synchronized slices' block-level calls of
  // the runtime's shared memory (which the sliced version replaces).
  Value sharedBytes;
  WalkResult walk = grid.getBody()->walk([&](Operation *op) {
    if (op->hasAttr(kBlockSerialAttr) || isIndirectCall(op))
      return WalkResult::interrupt();
    if (synchronized && isBlockSharedMemoryCall(op, grid) &&
        (!sharedBytes || sharedBytes == op->getOperand(0))) {
      sharedBytes = op->getOperand(0);
      return WalkResult::advance();
    }
    if (isCallToAnyOf(op, blockers.sharedMemoryUsers) ||
        isCallToAnyOf(op, blockers.smidReaders))
      return WalkResult::interrupt();
    // The runtime would not know the group's shared memory and per-thread
    // storage for what they are.
    if (synchronized && isCallToAnyOf(op, blockers.addressSpaceQueriers))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return SliceKind::None;
  // Thread loops that can be sliced, never nested in one another, and
  // block-level code that may run once per slice.
  bool privateStorageShareable =
      synchronized && findShareablePrivateStorage(grid).has_value();
  walk = grid.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
      // Restricting a loop nested in another (fused block rows) would cut
      // both the outer loop's dimension and x.
      bool nested =
          loop.getBody()
              ->walk([](scf::ParallelOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
      // A loop cut at its own iterations runs threads near a cut in the
      // neighbouring slice, which then needs their per-thread storage:
      // only synchronized slices share it.
      XCut cut = classifyXCut(loop);
      if (!isThreadLoop(loop) || nested || cut == XCut::None ||
          (cut == XCut::Lattice &&
           (!synchronized ||
            (touchesThreadPrivateStorage(loop) && !privateStorageShareable))))
        return WalkResult::interrupt();
      return WalkResult::skip();
    }
    if (op != grid.getBody()->getTerminator() && !isSliceLocal(op) &&
        !(synchronized && isBlockSharedMemoryCall(op, grid)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || !usesBlockStorageLocally(grid))
    return SliceKind::None;
  return independent ? SliceKind::Independent : SliceKind::Synchronized;
}

/// The extent along x of the block, for sizing the slices: the x upper
/// bound of a thread loop available before the grid loop, or the largest
/// constant one (after barrier lowering the first loop may run thread 0
/// alone). Built at `b`, before the grid.
Value buildBlockWidth(OpBuilder &b, scf::ParallelOp grid) {
  std::optional<int64_t> widest;
  for (scf::ParallelOp loop : collectThreadLoops(grid)) {
    Value upper = loop.getUpperBound().back();
    if (std::optional<int64_t> constant = getConstantThroughCasts(upper))
      widest = std::max(widest.value_or(*constant), *constant);
    else if (isDefinedOutside(upper, grid))
      return upper;
  }
  if (!widest)
    return nullptr;
  return arith::ConstantIndexOp::create(b, grid.getLoc(), *widest);
}

/// Declares the external function `name` of `type` in `module` if needed.
LLVM::LLVMFuncOp getOrDeclareFunction(ModuleOp module, StringRef name,
                                      LLVM::LLVMFunctionType type) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  auto builder = OpBuilder::atBlockEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type);
}

/// The function that tells how many threads the launch's parallel region
/// may use: OpenMP's `omp_get_max_threads` for independent slices, and for
/// slices that wait for each other the runtime's count of threads sure to
/// run at once (one where OpenMP might give fewer than asked).
LLVM::LLVMFuncOp getTeamSizeFunction(ModuleOp module, SliceKind kind) {
  OpBuilder b(module.getContext());
  return getOrDeclareFunction(module,
                              kind == SliceKind::Synchronized
                                  ? StringRef(kSliceTeamSizeFunction)
                                  : StringRef("omp_get_max_threads"),
                              LLVM::LLVMFunctionType::get(b.getI32Type(), {}));
}

/// The launch-time choice of slices.
struct SlicePlan {
  /// The number of blocks.
  Value blocks;
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
                         Value blockWidth, LLVM::LLVMFuncOp teamSize,
                         unsigned minWidth) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Value one = constant(1);
  Value blocks = buildThreadCount(b, loc, grid);
  Value cores =
      LLVM::CallOp::create(b, loc, teamSize, ValueRange{}).getResult();
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
  return {blocks, sliced, slices, width};
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

/// Restricts the x dimension of `loop` (XCut::Lattice) to its iterations
/// that start at or after the slice's first thread `first` and, unless
/// `isLast`, before its end `end`: the cuts move up to the next iteration,
/// the same for every slice, so that each iteration runs in one slice.
void restrictToLattice(scf::ParallelOp loop, Value first, Value end,
                       Value isLast) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  unsigned x = loop.getNumLoops() - 1;
  Value lower = loop.getLowerBound()[x];
  Value step = loop.getStep()[x];
  auto nextIteration = [&](Value bound) -> Value {
    Value from = arith::MaxUIOp::create(b, loc, bound, lower);
    Value steps = arith::CeilDivUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, from, lower), step);
    return arith::AddIOp::create(b, loc, lower,
                                 arith::MulIOp::create(b, loc, steps, step));
  };
  SmallVector<Value> lowers(loop.getLowerBound());
  SmallVector<Value> uppers(loop.getUpperBound());
  lowers[x] = nextIteration(first);
  uppers[x] = arith::SelectOp::create(
      b, loc, isLast, uppers[x],
      arith::MinUIOp::create(b, loc, uppers[x], nextIteration(end)));
  loop.getLowerBoundMutable().assign(lowers);
  loop.getUpperBoundMutable().assign(uppers);
}

/// Makes the block-level loads of thread 0's entry in `slice` read the
/// entry of the slice's first thread, (z, y, x) = (0, 0, first), whose
/// linear index is `first`: a slice without thread 0 never writes thread
/// 0's entry, and the value is the same in every entry. The entries are
/// of the loaded type (per-thread copies of one value).
void readFirstThreadEntries(Block *slice, Value first) {
  slice->walk<WalkOrder::PreOrder>([&](Operation *op) {
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

/// The runtime's state of a launch's blocks whose slices wait for each
/// other: the groups' table, and the block's index in it.
struct SliceGroup {
  Value groups, index;
};

/// Makes the block-level calls of the runtime's shared memory in `slice`
/// return the storage of the block's slice group instead of the core's.
void shareGroupMemory(Block *slice, const SliceGroup &group,
                      LLVM::LLVMFuncOp groupShared) {
  for (Operation &op : llvm::make_early_inc_range(*slice)) {
    if (!isCallTo(&op, kSharedMemoryFunction))
      continue;
    OpBuilder b(&op);
    Value storage = LLVM::CallOp::create(b, op.getLoc(), groupShared,
                                         ValueRange{group.groups, group.index})
                        .getResult();
    op.getResult(0).replaceAllUsesWith(storage);
    op.erase();
  }
}

/// Builds, at `b`, a barrier of the slices of `group`'s block.
void createSliceBarrier(OpBuilder &b, Location loc, const SliceGroup &group,
                        LLVM::LLVMFuncOp barrier) {
  LLVM::CallOp::create(b, loc, barrier, ValueRange{group.groups, group.index});
}

/// Makes the slices of a block wait for each other right before or after
/// `loop`.
void addSliceBarrier(scf::ParallelOp loop, const SliceGroup &group,
                     LLVM::LLVMFuncOp barrier, bool after) {
  OpBuilder b(loop->getContext());
  if (after)
    b.setInsertionPointAfter(loop);
  else
    b.setInsertionPoint(loop);
  createSliceBarrier(b, loop.getLoc(), group, barrier);
}

/// Makes the slices running `slice` wait for each other where the kernel's
/// barriers were (the marks respec-lower-barriers left).
void addSliceBarriers(Block *slice, const SliceGroup &group,
                      LLVM::LLVMFuncOp barrier) {
  slice->walk([&](LLVM::CallOp mark) {
    if (!isCallTo(mark, kBarrierPointFunction))
      return;
    OpBuilder b(mark);
    createSliceBarrier(b, mark.getLoc(), group, barrier);
    mark.erase();
  });
}

/// True if `op` is a barrier of a block's slices.
bool isSliceBarrier(Operation &op) {
  return isCallTo(&op, kSliceBarrierFunction);
}

/// Erases the barriers of slices in `slice` that order nothing: one that
/// only side-effect-free ops separate from the barrier before it, and one
/// that only such ops separate from the end of the block.
void dropRedundantSliceBarriers(Block *slice) {
  llvm::SetVector<Operation *> redundant;
  auto visit = [&](Block *block) {
    Operation *previousBarrier = nullptr;
    for (Operation &op : *block) {
      if (isSliceBarrier(op)) {
        if (previousBarrier)
          redundant.insert(&op);
        previousBarrier = &op;
      } else if (!isMemoryEffectFree(&op) || op.getNumRegions() != 0) {
        previousBarrier = nullptr;
      }
    }
  };
  visit(slice);
  slice->walk([&](Block *block) { visit(block); });
  for (Operation *op = slice->getTerminator()->getPrevNode(); op;
       op = op->getPrevNode()) {
    if (isSliceBarrier(*op)) {
      redundant.insert(op);
      break;
    }
    if (!isMemoryEffectFree(op) || op->getNumRegions() != 0)
      break;
  }
  for (Operation *op : redundant)
    op->erase();
}

/// Erases the barrier marks left in `module` (grids that run one block per
/// core need none) and their declaration.
void eraseBarrierPoints(ModuleOp module) {
  SmallVector<Operation *> marks;
  module.walk([&](LLVM::CallOp call) {
    if (isCallTo(call, kBarrierPointFunction))
      marks.push_back(call);
  });
  for (Operation *mark : marks)
    mark->erase();
  if (auto declaration =
          module.lookupSymbol<LLVM::LLVMFuncOp>(kBarrierPointFunction))
    declaration.erase();
}

/// The runtime functions of slices that wait for each other.
struct SliceRuntime {
  LLVM::LLVMFuncOp begin, teamReady, groupShared, groupPrivate, barrier;

  explicit SliceRuntime(ModuleOp module) {
    OpBuilder b(module.getContext());
    Type pointer = LLVM::LLVMPointerType::get(b.getContext());
    Type i64 = b.getI64Type();
    begin = getOrDeclareFunction(
        module, kSliceGroupsBeginFunction,
        LLVM::LLVMFunctionType::get(pointer, {i64, i64, i64, i64}));
    teamReady = getOrDeclareFunction(
        module, kSliceTeamReadyFunction,
        LLVM::LLVMFunctionType::get(b.getI32Type(), {pointer}));
    groupShared = getOrDeclareFunction(
        module, kSliceGroupSharedFunction,
        LLVM::LLVMFunctionType::get(pointer, {pointer, i64}));
    groupPrivate = getOrDeclareFunction(
        module, kSliceGroupPrivateFunction,
        LLVM::LLVMFunctionType::get(pointer, {pointer, i64}));
    barrier = getOrDeclareFunction(
        module, kSliceBarrierFunction,
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(b.getContext()),
                                    {pointer, i64}));
  }
};

/// The bytes of shared memory the block-level runtime calls of `grid` ask
/// for (one value, checked by classifyGrid), or a constant 0 built at `b`.
Value getSharedBytes(OpBuilder &b, scf::ParallelOp grid) {
  for (Operation &op : *grid.getBody())
    if (isCallTo(&op, kSharedMemoryFunction))
      return op.getOperand(0);
  return LLVM::ConstantOp::create(b, grid.getLoc(), b.getI64Type(),
                                  b.getI64IntegerAttr(0));
}

/// Per-thread storage that the slices of a block share: the grid's
/// allocations of it, each one's offset in the block's share, and the
/// share's size (i64 values computed before the grid).
struct SharedPrivateStorage {
  SmallVector<LLVM::CallOp> allocations;
  SmallVector<Value> offsets;
  Value bytes;
};

/// Lays out, at `b` (before `grid`), one block's per-thread storage for
/// all its slices: the allocations one after the other, 64-byte aligned
/// as the runtime's scratch storage is. None where the sizes are not known
/// before the grid (its sliced version then keeps each slice's own).
SharedPrivateStorage layOutSharedPrivateStorage(OpBuilder &b,
                                                scf::ParallelOp grid) {
  Location loc = grid.getLoc();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), value);
  };
  SharedPrivateStorage storage;
  storage.bytes = constant(0);
  std::optional<SmallVector<LLVM::CallOp>> allocations =
      findShareablePrivateStorage(grid);
  if (!allocations)
    return storage;
  IRMapping mapping;
  Value alignment = constant(64);
  for (LLVM::CallOp allocation : *allocations) {
    Value size = cloneComputation(
        b, allocation.getOperand(0), mapping,
        [&](Value value) { return isDefinedOutside(value, grid); });
    Value aligned = arith::MulIOp::create(
        b, loc, arith::CeilDivUIOp::create(b, loc, size, alignment), alignment);
    storage.allocations.push_back(allocation);
    storage.offsets.push_back(storage.bytes);
    storage.bytes = arith::AddIOp::create(b, loc, storage.bytes, aligned);
  }
  return storage;
}

/// Makes the per-thread storage of `slice` (the copies `mapping` made of
/// `storage`'s allocations) the block's share for all its slices.
void sharePrivateStorage(Block *slice, const SliceGroup &group,
                         const SharedPrivateStorage &storage,
                         const IRMapping &mapping,
                         LLVM::LLVMFuncOp groupPrivate) {
  if (storage.allocations.empty())
    return;
  // Before the first allocation, which comes after the block's index.
  OpBuilder b(mapping.lookup(storage.allocations.front()->getResult(0))
                  .getDefiningOp());
  Location loc = slice->getParentOp()->getLoc();
  Value base = LLVM::CallOp::create(b, loc, groupPrivate,
                                    ValueRange{group.groups, group.index})
                   .getResult();
  Type pointer = LLVM::LLVMPointerType::get(b.getContext());
  for (auto [allocation, offset] :
       llvm::zip(storage.allocations, storage.offsets)) {
    Operation *copy = mapping.lookup(allocation->getResult(0)).getDefiningOp();
    b.setInsertionPoint(copy);
    Value part = LLVM::GEPOp::create(b, loc, pointer, b.getI8Type(), base,
                                     ValueRange{offset});
    copy->getResult(0).replaceAllUsesWith(part);
    copy->erase();
  }
}

/// Fills the else branch of `readyIf` with what a team too small for the
/// slices runs (OpenMP may give a parallel region fewer threads than asked,
/// e.g. under KMP_DEVICE_THREAD_LIMIT): the first slice of each block runs
/// the whole block as the grid loop would, the others nothing.
void buildWholeBlockFallback(scf::IfOp readyIf, scf::ParallelOp grid,
                             Value slice) {
  OpBuilder b = OpBuilder::atBlockBegin(readyIf.elseBlock());
  Location loc = grid.getLoc();
  Value isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slice,
                            arith::ConstantIndexOp::create(b, loc, 0));
  auto firstIf = scf::IfOp::create(b, loc, isFirst, /*withElseRegion=*/false);
  b.setInsertionPointToStart(firstIf.thenBlock());
  auto sliced = cast<scf::ParallelOp>(readyIf->getParentOp());
  IRMapping mapping;
  for (auto [from, to] :
       llvm::zip(grid.getInductionVars(), sliced.getBody()->getArguments()))
    mapping.map(from, to);
  for (Operation &op : grid.getBody()->without_terminator())
    b.clone(op, mapping);
}

/// Builds the sliced copy of `grid` at `b`'s insertion point: the grid's
/// dimensions and the slice, each thread loop restricted to the slice;
/// with `runtime`, slices that share their block's memory and wait for
/// each other where the kernel's barriers were.
void buildSlicedGrid(OpBuilder &b, scf::ParallelOp grid, const SlicePlan &plan,
                     const SliceRuntime *runtime) {
  Location loc = grid.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value groups;
  SharedPrivateStorage privateStorage;
  if (runtime) {
    auto toI64 = [&](Value index) -> Value {
      return arith::IndexCastUIOp::create(b, loc, b.getI64Type(), index);
    };
    privateStorage = layOutSharedPrivateStorage(b, grid);
    groups = LLVM::CallOp::create(
                 b, loc, runtime->begin,
                 ValueRange{toI64(plan.blocks), toI64(plan.slices),
                            getSharedBytes(b, grid), privateStorage.bytes})
                 .getResult();
  }
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
  SliceGroup group;
  if (runtime) {
    Value block =
        buildLinearThreadId(b, loc, grid, body->getArguments().drop_back());
    group = {groups,
             arith::IndexCastUIOp::create(b, loc, b.getI64Type(), block)};
  }
  // The block's code for this slice; for slices that wait for each other,
  // only once the team is known to run them all at once.
  Block *sliceCode = body;
  if (runtime) {
    Value ready =
        LLVM::CallOp::create(b, loc, runtime->teamReady, ValueRange{groups})
            .getResult();
    ready = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne, ready,
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0));
    auto readyIf = scf::IfOp::create(b, loc, ready, /*withElseRegion=*/true);
    sliceCode = readyIf.thenBlock();
    buildWholeBlockFallback(readyIf, grid, slice);
    b.setInsertionPointToStart(sliceCode);
  }
  IRMapping mapping;
  for (auto [from, to] :
       llvm::zip(grid.getInductionVars(), body->getArguments()))
    mapping.map(from, to);
  for (Operation &op : grid.getBody()->without_terminator())
    b.clone(op, mapping);
  SmallVector<scf::ParallelOp> threadLoops;
  sliceCode->walk([&](scf::ParallelOp loop) {
    if (isThreadLoop(loop))
      threadLoops.push_back(loop);
  });
  for (scf::ParallelOp loop : threadLoops) {
    if (classifyXCut(loop) == XCut::Exact) {
      restrictToSlice(loop, first, end, isLast);
      continue;
    }
    // Its threads near a cut run in a neighbouring slice: it must neither
    // start before the other slices finished the loops before it, nor
    // overlap the loops after it (classifyGrid: synchronized slices only).
    assert(runtime && "lattice cuts need barriers of the block's slices");
    restrictToLattice(loop, first, end, isLast);
    addSliceBarrier(loop, group, runtime->barrier, /*after=*/false);
    addSliceBarrier(loop, group, runtime->barrier, /*after=*/true);
  }
  // Before the per-thread storage is shared: the entries are found from
  // each allocation's own pointer.
  readFirstThreadEntries(sliceCode, first);
  if (runtime) {
    sharePrivateStorage(sliceCode, group, privateStorage, mapping,
                        runtime->groupPrivate);
    shareGroupMemory(sliceCode, group, runtime->groupShared);
    addSliceBarriers(sliceCode, group, runtime->barrier);
    dropRedundantSliceBarriers(sliceCode);
  }
}

struct ParallelizeFewBlockGridsPass
    : public respec::impl::ParallelizeFewBlockGridsPassBase<
          ParallelizeFewBlockGridsPass> {
  using ParallelizeFewBlockGridsPassBase::ParallelizeFewBlockGridsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SliceBlockers blockers(module);
    SmallVector<std::pair<scf::ParallelOp, SliceKind>> candidates;
    module.walk([&](scf::ParallelOp grid) {
      if (!isGridLoop(grid))
        return;
      // Dead reads of another thread's entry must not count as uses.
      IRRewriter rewriter(grid.getContext());
      (void)runRegionDCE(rewriter, grid->getRegions());
      SliceKind kind = classifyGrid(grid, blockers);
      if (kind == SliceKind::Synchronized && !barrierGrids)
        kind = SliceKind::None;
      if (kind != SliceKind::None)
        candidates.push_back({grid, kind});
    });
    std::optional<SliceRuntime> runtime;
    for (auto [grid, kind] : candidates) {
      OpBuilder b(grid);
      Location loc = grid.getLoc();
      Value blockWidth = buildBlockWidth(b, grid);
      if (!blockWidth)
        continue;
      SlicePlan plan =
          buildSlicePlan(b, loc, grid, blockWidth,
                         getTeamSizeFunction(module, kind), minBlockThreads);
      auto ifOp = scf::IfOp::create(b, loc, plan.sliced,
                                    /*withElseRegion=*/true);
      b.setInsertionPointToStart(ifOp.thenBlock());
      if (kind == SliceKind::Synchronized && !runtime)
        runtime.emplace(module);
      buildSlicedGrid(b, grid, plan,
                      kind == SliceKind::Synchronized ? &*runtime : nullptr);
      grid->moveBefore(ifOp.elseBlock()->getTerminator());
    }
    eraseBarrierPoints(module);
  }
};
} // namespace
