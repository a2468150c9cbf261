//===- FuseBlockRows.cpp - Neighbouring blocks run row by row -------------===//
//
// A 2-D stencil launched as 16x16 blocks touches, in each block, 16 rows of
// every array it reads or writes, 64 bytes of each. On the CPU one core
// runs the whole block: that is dozens of short streams at once, more than
// the hardware prefetchers follow, and with power-of-two row pitches the
// rows of all arrays fall into the same few L1 sets. The OpenMP program a
// CPU programmer writes sweeps whole rows instead. (srad's two 16x16-block
// kernels over six 2048x2048 arrays: 55 ms with the blocks run one by one,
// 45 ms fused, 35 ms hand-written OpenMP; 2 threads, AMD Zen 4.)
//
// This pass runs C neighbouring blocks of a grid row together, thread loop
// by thread loop, with the loop over the C blocks between the rows of
// threads and the threads of a row:
//
//   for (tz, ty) { for c < C { bx = first + c; for tx { body } } }
//
// Why it is correct: CUDA orders the blocks of a grid in no way, and
// running thread loop k (the code between two barriers) of C blocks before
// thread loop k + 1 of any of them is what a GPU running those blocks at
// the same time may do; each block's own threads still finish a thread
// loop before any starts the next. Each of the C blocks keeps its own
// shared memory and block-scope arrays (one allocation of C times the
// size, 64-byte aligned slices), and what was computed once per block from
// its index (`blockIdx.x * 16`, addresses of its tile) is computed per
// block inside the c loop. Block-level code that does not depend on the
// block's index along x (kernel arguments, loads hoisted out of the thread
// loops) runs once for the C blocks, as a GPU may run it for each of them
// at the same moment.
//
// When it applies: launch bodies specialized for one block size with
// several rows of threads whose blocks are narrower than a row of about
// 1024 threads; every thread loop a direct child of the grid loop, none
// with an access that strides along x, some with accesses contiguous along
// x (where consecutive blocks along x continue each other's rows); and
// between the thread loops only pure
// code, loads that do not depend on the block's index, and the runtime's
// allocation calls. Anything else leaves the grid loop as it is.
//
//===----------------------------------------------------------------------===//

#include "MergeFusedRows.h"

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::respec {
#define GEN_PASS_DEF_FUSEBLOCKROWSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// Threads along x a fused block aims for: a row of 1024 threads of 4-byte
/// elements sweeps 4 KiB (a page) of each row it touches.
constexpr int64_t kRowThreads = 1024;
/// Fused blocks left for the OpenMP loop to share, where the grid has as
/// many blocks.
constexpr int64_t kMinFusedBlocks = 64;
/// Most bytes of shared memory and block-scope arrays one fused block
/// allocates: well inside a 1 MiB L2, so what one thread loop leaves for the
/// next stays cached.
constexpr int64_t kStorageBudget = 96 * 1024;
/// Alignment of each block's slice of the fused allocations (what the
/// runtime guarantees for one block's).
constexpr int64_t kStorageAlignment = 64;

/// A grid loop whose blocks can be fused, and what fusing them rewrites.
struct RowFusion {
  scf::ParallelOp grid;
  /// Threads of a block along x.
  int64_t blockWidth = 1;
  /// C at most, from the block's width.
  int64_t maxBlocks = 1;
  /// In program order.
  SmallVector<scf::ParallelOp> threadLoops;
  /// Calls returning the block's shared memory or a block-scope array.
  SmallVector<LLVM::CallOp> allocations;
  /// Block-level ops that compute from the block's index along x or from
  /// its storage, in program order: recomputed for each fused block.
  SmallVector<Operation *> perBlockOps;
  /// The values that differ between the fused blocks: the index along x,
  /// the storage, and the results of perBlockOps.
  llvm::DenseSet<Value> perBlock;
};

/// True if `value` is computed before `grid` or, inside it, from such
/// values by pure ops: something the fused allocation sizes can be
/// computed from before the grid loop.
bool isGridInvariant(Value value, scf::ParallelOp grid) {
  if (isDefinedOutside(value, grid))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != grid.getBody() || def->getNumRegions() != 0 ||
      !isMemoryEffectFree(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isGridInvariant(operand, grid);
  });
}

/// True if every memory effect of `op` is a read.
bool onlyReads(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  return effects && effects.onlyHasEffect<MemoryEffects::Read>();
}

class RowFusionAnalysis {
public:
  explicit RowFusionAnalysis(scf::ParallelOp grid) { fusion.grid = grid; }

  std::optional<RowFusion> run() {
    if (!hasFusibleShape() || !classifyBlockLevelOps() ||
        !perBlockValuesStayInside())
      return std::nullopt;
    return std::move(fusion);
  }

private:
  /// Several rows of threads, narrow along x, a normalized 3-D grid.
  bool hasFusibleShape() {
    scf::ParallelOp grid = fusion.grid;
    auto size = grid->getAttrOfType<DenseI64ArrayAttr>(kBlockSizeAttr);
    if (!size || size.size() != 3 || size[0] < 1 || size[1] * size[2] < 2)
      return false;
    fusion.blockWidth = size[0];
    fusion.maxBlocks = llvm::divideCeil(kRowThreads, size[0]);
    if (fusion.maxBlocks < 2 || grid.getNumLoops() != 3 ||
        grid.getNumReductions() != 0)
      return false;
    for (auto [lower, step] : llvm::zip(grid.getLowerBound(), grid.getStep()))
      if (getConstantIntValue(lower) != 0 || getConstantIntValue(step) != 1)
        return false;
    fusion.perBlock.insert(grid.getInductionVars().back());
    return true;
  }

  bool usesPerBlockValue(Operation *op) {
    return llvm::any_of(op->getOperands(), [&](Value operand) {
      return fusion.perBlock.contains(operand);
    });
  }

  /// Sorts the grid body's ops into thread loops, allocations, per-block
  /// ops and code the fused blocks share; false for anything else.
  bool classifyBlockLevelOps() {
    scf::ParallelOp grid = fusion.grid;
    unsigned sharedMemoryCalls = 0;
    for (Operation &op : grid.getBody()->without_terminator()) {
      if (auto loop = dyn_cast<scf::ParallelOp>(op);
          loop && isThreadLoop(loop)) {
        if (!isFusibleThreadLoop(loop))
          return false;
        fusion.threadLoops.push_back(loop);
        continue;
      }
      bool sharedMemory = isCallTo(&op, kSharedMemoryFunction);
      if (sharedMemory || isCallTo(&op, kScratchFunction)) {
        // Every shared-memory call of a block returns the same storage:
        // with one call, the slices need no agreement between calls.
        if (sharedMemory && ++sharedMemoryCalls > 1)
          return false;
        auto call = cast<LLVM::CallOp>(op);
        if (call.getNumResults() != 1 || call.getArgOperands().size() != 1 ||
            !isGridInvariant(call.getArgOperands()[0], grid))
          return false;
        fusion.allocations.push_back(call);
        fusion.perBlock.insert(call.getResult());
        continue;
      }
      // Barrier marks (respec-lower-barriers=mark-barriers) matter only to
      // blocks that run as slices, which fused rows never do.
      if (isCallTo(&op, kScratchResetFunction) ||
          isCallTo(&op, kBarrierPointFunction))
        continue;
      if (op.getNumRegions() != 0)
        return false;
      if (isMemoryEffectFree(&op)) {
        if (usesPerBlockValue(&op)) {
          fusion.perBlockOps.push_back(&op);
          fusion.perBlock.insert(op.getResults().begin(),
                                 op.getResults().end());
        }
        continue;
      }
      if (onlyReads(&op) && !usesPerBlockValue(&op))
        continue;
      return false;
    }
    return contiguousAccesses != 0;
  }

  /// At least two dimensions, no reductions, the dimensions outside x the
  /// same for all fused blocks, no access that strides along x.
  bool isFusibleThreadLoop(scf::ParallelOp loop) {
    unsigned n = loop.getNumLoops();
    if (n < 2 || loop.getNumReductions() != 0)
      return false;
    for (unsigned d = 0; d + 1 < n; ++d)
      if (fusion.perBlock.contains(loop.getLowerBound()[d]) ||
          fusion.perBlock.contains(loop.getUpperBound()[d]) ||
          fusion.perBlock.contains(loop.getStep()[d]))
        return false;
    bool nested = loop.getBody()
                      ->walk([](scf::ParallelOp inner) {
                        return isThreadLoop(inner) || isGridLoop(inner)
                                   ? WalkResult::interrupt()
                                   : WalkResult::advance();
                      })
                      .wasInterrupted();
    if (nested)
      return false;
    // Rows of neighbouring blocks continue each other only where the
    // threads of a row access consecutive elements; an access that strides
    // along x (a transposed tile) would touch C times as many lines per row
    // of threads.
    AccessesAlongX accesses = classifyAccessesAlongX(loop);
    if (accesses.strided != 0)
      return false;
    contiguousAccesses += accesses.contiguous;
    return true;
  }

  /// Per-block values reach only per-block ops and the thread loops (their
  /// bodies and x bounds), which the rewrite gives the fused block's own.
  bool perBlockValuesStayInside() {
    llvm::DenseSet<Operation *> perBlockOps(fusion.perBlockOps.begin(),
                                            fusion.perBlockOps.end());
    llvm::DenseSet<Operation *> threadLoops;
    for (scf::ParallelOp loop : fusion.threadLoops)
      threadLoops.insert(loop);
    Block *body = fusion.grid.getBody();
    for (Value value : fusion.perBlock) {
      for (OpOperand &use : value.getUses()) {
        Operation *top = body->findAncestorOpInBlock(*use.getOwner());
        if (!top)
          return false;
        if (perBlockOps.contains(top))
          continue;
        if (!threadLoops.contains(top))
          return false;
        if (top != use.getOwner())
          continue;
        // The loop's own operands: bounds of its last dimension only.
        unsigned n = cast<scf::ParallelOp>(top).getNumLoops();
        unsigned index = use.getOperandNumber();
        if (index != n - 1 && index != 2 * n - 1 && index != 3 * n - 1)
          return false;
      }
    }
    return true;
  }

  RowFusion fusion;
  /// Accesses of the thread loops that move with x by their size.
  unsigned contiguousAccesses = 0;
};

class RowFusionRewriter {
public:
  RowFusionRewriter(RowFusion &fusion, bool mergeRows)
      : fusion(fusion), mergeRows(mergeRows), builder(fusion.grid) {}

  void run() {
    Value count = buildFusedBlockCount();
    buildFirstBlockAndCount(count);
    scaleAllocations(count);
    for (scf::ParallelOp loop : fusion.threadLoops)
      fuseThreadLoop(loop);
    for (Operation *op : llvm::reverse(fusion.perBlockOps)) {
      assert(op->use_empty() && "per-block op used outside the thread loops");
      op->erase();
    }
    fusion.grid->removeAttr(kBlockSizeAttr);
  }

private:
  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc(), value);
  }
  Location loc() { return fusion.grid.getLoc(); }

  /// The bytes between two blocks' slices of an allocation of `size` bytes
  /// per block, as index: an odd number of 64-byte lines. An even number
  /// (a 16x16 block's 1 KiB of spilled floats) would put the same row of
  /// every slice in a few L1 sets, which the loop over the fused blocks
  /// then thrashes.
  Value sliceSize(Value size) {
    Value index = arith::IndexCastUIOp::create(builder, loc(),
                                               builder.getIndexType(), size);
    Value lines = arith::ShRUIOp::create(
        builder, loc(),
        arith::AddIOp::create(builder, loc(), index,
                              constant(kStorageAlignment - 1)),
        constant(llvm::Log2_64(kStorageAlignment)));
    lines = arith::OrIOp::create(builder, loc(), lines, constant(1));
    return arith::ShLIOp::create(builder, loc(), lines,
                                 constant(llvm::Log2_64(kStorageAlignment)));
  }

  /// Before the grid loop: C, and the grid loop's x extent in fused blocks.
  Value buildFusedBlockCount() {
    scf::ParallelOp grid = fusion.grid;
    builder.setInsertionPoint(grid);
    Value gridX = gridWidth = grid.getUpperBound()[2];
    Value rows = arith::MulIOp::create(builder, loc(), grid.getUpperBound()[0],
                                       grid.getUpperBound()[1]);
    // Blocks, counted up to kMinFusedBlocks rows (no overflow).
    Value blocks = arith::MulIOp::create(
        builder, loc(), gridX,
        arith::MinUIOp::create(builder, loc(), rows,
                               constant(kMinFusedBlocks)));
    Value one = constant(1);
    Value count = arith::MinUIOp::create(builder, loc(),
                                         constant(fusion.maxBlocks), gridX);
    count = arith::MinUIOp::create(
        builder, loc(), count,
        arith::MaxUIOp::create(
            builder, loc(), one,
            arith::DivUIOp::create(builder, loc(), blocks,
                                   constant(kMinFusedBlocks))));
    if (!fusion.allocations.empty()) {
      IRMapping mapping;
      Value bytes = constant(0);
      for (LLVM::CallOp call : fusion.allocations) {
        Value size = cloneComputation(
            builder, call.getArgOperands()[0], mapping,
            [&](Value value) { return isDefinedOutside(value, grid); });
        Value slice = sliceSize(size);
        sliceBytes[call.getResult()] = slice;
        bytes = arith::AddIOp::create(builder, loc(), bytes, slice);
      }
      Value budget = arith::DivUIOp::create(
          builder, loc(), constant(kStorageBudget),
          arith::MaxUIOp::create(builder, loc(), bytes, one));
      count = arith::MinUIOp::create(
          builder, loc(), count,
          arith::MaxUIOp::create(builder, loc(), budget, one));
    }
    count = arith::MaxUIOp::create(builder, loc(), count, one);
    // Balanced: as few fused blocks as C gives, each as even as possible.
    Value fused = arith::CeilDivUIOp::create(builder, loc(), gridX, count);
    count = arith::CeilDivUIOp::create(
        builder, loc(), gridX,
        arith::MaxUIOp::create(builder, loc(), fused, one));
    count = arith::MaxUIOp::create(builder, loc(), count, one);
    grid.getUpperBoundMutable()[2].set(fused);
    return count;
  }

  /// At the start of the grid body: firstBlock and blocksHere.
  void buildFirstBlockAndCount(Value count) {
    scf::ParallelOp grid = fusion.grid;
    builder.setInsertionPointToStart(grid.getBody());
    Value fusedIndex = grid.getInductionVars().back();
    firstBlock = arith::MulIOp::create(builder, loc(), fusedIndex, count);
    Value left = arith::SubIOp::create(builder, loc(), gridWidth, firstBlock);
    blocksHere = arith::MinUIOp::create(builder, loc(), count, left);
  }

  /// Each allocation takes C slices (sized before the grid loop).
  void scaleAllocations(Value count) {
    for (LLVM::CallOp call : fusion.allocations) {
      builder.setInsertionPoint(call);
      Type sizeType = call.getArgOperands()[0].getType();
      Value total = arith::MulIOp::create(builder, loc(),
                                          sliceBytes[call.getResult()], count);
      call->setOperand(
          0, arith::IndexCastUIOp::create(builder, loc(), sizeType, total));
    }
  }

  /// The per-block values `loop` uses, and those they are computed from.
  llvm::DenseSet<Operation *> perBlockOpsNeededBy(scf::ParallelOp loop) {
    llvm::DenseSet<Operation *> needed;
    SmallVector<Operation *> worklist;
    auto visit = [&](Value value) {
      if (!fusion.perBlock.contains(value))
        return;
      Operation *def = value.getDefiningOp();
      if (def && !isa<LLVM::CallOp>(def) && needed.insert(def).second)
        worklist.push_back(def);
    };
    loop->walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        visit(operand);
    });
    while (!worklist.empty())
      for (Value operand : worklist.pop_back_val()->getOperands())
        visit(operand);
    return needed;
  }

  /// for (outer dims) { for c { per-block values; for x { body } } }.
  ///
  /// Each thread loop gets its own loop over the fused blocks. Index-set
  /// splitting leaves a tile's halo columns and its interior as thread
  /// loops over the same rows, which could share one; in hotspot that ran
  /// slower (57 against 46 ms at 2 threads): LLVM then vectorized neither
  /// the interior nor the halo loads across the blocks.
  void fuseThreadLoop(scf::ParallelOp loop) {
    Location loopLoc = loop.getLoc();
    builder.setInsertionPoint(loop);
    auto outer = scf::ParallelOp::create(
        builder, loopLoc, loop.getLowerBound().drop_back(),
        loop.getUpperBound().drop_back(), loop.getStep().drop_back());
    outer->setDiscardableAttrs(loop->getDiscardableAttrDictionary());

    builder.setInsertionPoint(outer.getBody()->getTerminator());
    auto blocks = scf::ForOp::create(builder, loopLoc, constant(0), blocksHere,
                                     constant(1));
    builder.setInsertionPoint(blocks.getBody()->getTerminator());
    Value c = blocks.getInductionVar();
    IRMapping mapping;
    mapping.map(fusion.grid.getInductionVars().back(),
                arith::AddIOp::create(builder, loopLoc, firstBlock, c));
    Value cBytes =
        arith::IndexCastUIOp::create(builder, loopLoc, builder.getI64Type(), c);
    for (LLVM::CallOp call : fusion.allocations) {
      // Storage allocated after this loop (barrier spills placed between
      // thread loops) is not what it uses, and does not dominate it.
      if (!call->isBeforeInBlock(loop))
        continue;
      Value offset = arith::MulIOp::create(
          builder, loopLoc, cBytes,
          arith::IndexCastUIOp::create(builder, loopLoc, builder.getI64Type(),
                                       sliceBytes[call.getResult()]));
      mapping.map(call.getResult(),
                  LLVM::GEPOp::create(
                      builder, loopLoc, call.getResult().getType(),
                      builder.getI8Type(), call.getResult(), ValueRange{offset},
                      LLVM::GEPNoWrapFlags::inbounds));
    }
    llvm::DenseSet<Operation *> needed = perBlockOpsNeededBy(loop);
    for (Operation *op : fusion.perBlockOps)
      if (needed.contains(op))
        builder.clone(*op, mapping);
    scf::ParallelOp row = moveIntoRow(loop, outer, mapping);
    if (mergeRows)
      mergeFusedRow({blocks, row,
                     mapping.lookup(fusion.grid.getInductionVars().back()),
                     firstBlock, blocksHere, fusion.blockWidth});
  }

  /// Replaces `loop` by a loop over its x dimension at the builder's
  /// insertion point, inside `outer`, with the fused block's values.
  scf::ParallelOp moveIntoRow(scf::ParallelOp loop, scf::ParallelOp outer,
                              IRMapping &mapping) {
    unsigned n = loop.getNumLoops();
    auto inner = scf::ParallelOp::create(
        builder, loop.getLoc(),
        mapping.lookupOrDefault(loop.getLowerBound()[n - 1]),
        mapping.lookupOrDefault(loop.getUpperBound()[n - 1]),
        mapping.lookupOrDefault(loop.getStep()[n - 1]));
    inner->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
    Block *from = loop.getBody();
    Block *to = inner.getBody();
    for (unsigned d = 0; d + 1 < n; ++d)
      from->getArgument(d).replaceAllUsesWith(outer.getInductionVars()[d]);
    from->getArgument(n - 1).replaceAllUsesWith(inner.getInductionVars()[0]);
    to->getOperations().splice(to->getTerminator()->getIterator(),
                               from->getOperations(), from->begin(),
                               std::prev(from->end()));
    for (Value value : fusion.perBlock)
      if (Value local = mapping.lookupOrNull(value))
        value.replaceUsesWithIf(local, [&](OpOperand &use) {
          return inner->isAncestor(use.getOwner());
        });
    loop.erase();
    return inner;
  }

  RowFusion &fusion;
  bool mergeRows;
  OpBuilder builder;
  /// The grid's x extent in blocks (before fusion).
  Value gridWidth;
  /// In the grid body: the fused block's first block index along x, and
  /// how many blocks it runs (fewer at the grid's edge).
  Value firstBlock, blocksHere;
  /// Bytes between two blocks' slices of each allocation (by its result),
  /// computed before the grid loop.
  llvm::DenseMap<Value, Value> sliceBytes;
};

struct FuseBlockRowsPass
    : public respec::impl::FuseBlockRowsPassBase<FuseBlockRowsPass> {
  using FuseBlockRowsPassBase::FuseBlockRowsPassBase;

  void runOnOperation() override {
    SmallVector<scf::ParallelOp> grids;
    getOperation()->walk([&](scf::ParallelOp loop) {
      // Blocks that synchronize the grid wait for each other inside their
      // thread loops: run by one thread together, the first would wait for
      // the others forever.
      auto launch = loop->getParentOfType<FunctionOpInterface>();
      if (launch && launch->hasAttr(kSyncsGridAttr))
        return;
      if (isGridLoop(loop) && loop->hasAttr(kBlockSizeAttr))
        grids.push_back(loop);
    });
    for (scf::ParallelOp grid : grids)
      if (std::optional<RowFusion> fusion = RowFusionAnalysis(grid).run())
        RowFusionRewriter(*fusion, mergeRows).run();
  }
};

} // namespace
