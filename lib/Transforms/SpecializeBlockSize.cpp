//===- SpecializeBlockSize.cpp - Launch bodies for known block sizes ------===//
//
// A launch function receives the block dimensions at run time, so on the
// CPU every thread loop has an unknown trip count: LLVM keeps remainder
// loops, runtime checks and branches on the thread id that constant bounds
// would resolve. The host code nearly always launches a kernel with
// constant block dimensions, which the driver reads from it. For each such
// size this pass adds a copy of the launch body in which blockDim is that
// constant, and a dispatch on the actual size at launch; any other size
// still runs the original body, so the result never depends on the list
// being complete.
//
// The copies are also taken only for grids of at most 2^30 threads along
// each dimension (every real launch): then block and thread indices have
// small known ranges, from which most 32-bit index arithmetic (`blockIdx.x
// * blockDim.x + threadIdx.x`, unsigned in CUDA and so without overflow
// flags from clang) is proven not to wrap and gets `nsw`/`nuw`, which LLVM
// needs to see that consecutive threads access consecutive addresses.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/NoWrapInference.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::respec {
#define GEN_PASS_DEF_SPECIALIZEBLOCKSIZEPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

using BlockSize = std::array<int64_t, 3>;

/// Positions of gridDim.x and blockDim.x in a launch function's arguments
/// (gx, gy, gz, bx, by, bz, shared bytes, parameters).
constexpr unsigned kFirstGridDimArg = 0;
constexpr unsigned kFirstBlockDimArg = 3;

/// Most threads along one dimension of a grid a specialized copy runs.
constexpr int64_t kMaxGridThreads = int64_t(1) << 30;

/// Largest gridDim along a dimension with `blockSize` threads per block
/// that a specialized copy runs.
int64_t maxGridDim(int64_t blockSize) { return kMaxGridThreads / blockSize; }

/// Parses "NAME=BXxBYxBZ" into `kernel` and `size`.
LogicalResult parseEntry(StringRef entry, StringRef &kernel, BlockSize &size) {
  auto [name, dims] = entry.rsplit('=');
  if (name.empty() || dims.empty())
    return failure();
  SmallVector<StringRef, 3> parts;
  dims.split(parts, 'x');
  if (parts.size() != 3)
    return failure();
  for (auto [part, dim] : llvm::zip(parts, size))
    if (part.getAsInteger(10, dim) || dim < 1 || dim > 1024)
      return failure();
  kernel = name;
  return success();
}

/// `launch`'s block dimension arguments equal `size`, and its grid has at
/// most kMaxGridThreads threads along each dimension.
Value matchesBlockSize(OpBuilder &b, Location loc, LLVM::LLVMFuncOp launch,
                       const BlockSize &size) {
  Value all;
  auto require = [&](Value condition) {
    all = all ? arith::AndIOp::create(b, loc, all, condition) : condition;
  };
  for (unsigned d = 0; d < 3; ++d) {
    Value arg = launch.getArgument(kFirstBlockDimArg + d);
    Value constant =
        arith::ConstantIntOp::create(b, loc, arg.getType(), size[d]);
    require(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, arg, constant));
  }
  for (unsigned d = 0; d < 3; ++d) {
    Value grid = launch.getArgument(kFirstGridDimArg + d);
    Value limit = arith::ConstantIntOp::create(b, loc, grid.getType(),
                                               maxGridDim(size[d]));
    require(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, grid, limit));
  }
  return all;
}

/// Adds overflow flags to the copy in `block` for `size`: its grid
/// dimensions are at most maxGridDim (see matchesBlockSize).
void inferCopyNoWrapFlags(Block &block, LLVM::LLVMFuncOp launch,
                          const BlockSize &size) {
  DenseMap<Value, ConstantIntRanges> known;
  for (unsigned d = 0; d < 3; ++d) {
    Value grid = launch.getArgument(kFirstGridDimArg + d);
    unsigned width = ConstantIntRanges::getStorageBitwidth(grid.getType());
    if (width < 32)
      continue;
    known.try_emplace(grid, ConstantIntRanges::fromUnsigned(
                                APInt(width, 1),
                                APInt(width, maxGridDim(size[d]))));
  }
  inferNoWrapFlags(block, known);
}

/// Clones `ops` before `block`'s terminator with blockDim replaced by
/// `size`.
void cloneForBlockSize(ArrayRef<Operation *> ops, Block *block,
                       LLVM::LLVMFuncOp launch, const BlockSize &size) {
  OpBuilder b = OpBuilder::atBlockTerminator(block);
  IRMapping mapping;
  for (unsigned d = 0; d < 3; ++d) {
    Value arg = launch.getArgument(kFirstBlockDimArg + d);
    mapping.map(arg, arith::ConstantIntOp::create(b, launch.getLoc(),
                                                  arg.getType(), size[d]));
  }
  for (Operation *op : ops)
    b.clone(*op, mapping);
  // Later passes size their work by the block's shape.
  block->walk([&](scf::ParallelOp loop) {
    if (isGridLoop(loop))
      loop->setAttr(kBlockSizeAttr, b.getDenseI64ArrayAttr(size));
  });
}

/// Rewrites `launch`'s body into a dispatch over `sizes` with the original
/// body as the fallback. Returns false (leaving `launch` unchanged) for
/// bodies this pass does not handle.
bool specializeLaunch(LLVM::LLVMFuncOp launch, ArrayRef<BlockSize> sizes) {
  if (sizes.empty() || !launch.getBody().hasOneBlock() ||
      launch.getNumArguments() < kFirstBlockDimArg + 3)
    return false;
  Block &body = launch.getBody().front();
  Operation *terminator = body.getTerminator();
  if (!isa<LLVM::ReturnOp>(terminator) || terminator->getNumOperands() != 0)
    return false;
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  if (ops.empty())
    return false;

  // if (block == sizes[0]) {copy 0} else if (block == sizes[1]) {copy 1}
  // ... else {original}.
  Location loc = launch.getLoc();
  OpBuilder b(terminator);
  Block *fallback = nullptr;
  for (const BlockSize &size : sizes) {
    Value matches = matchesBlockSize(b, loc, launch, size);
    auto branch = scf::IfOp::create(b, loc, matches, /*withElseRegion=*/true);
    cloneForBlockSize(ops, branch.thenBlock(), launch, size);
    inferCopyNoWrapFlags(*branch.thenBlock(), launch, size);
    fallback = branch.elseBlock();
    b.setInsertionPoint(fallback->getTerminator());
  }
  fallback->getOperations().splice(
      fallback->getTerminator()->getIterator(), body.getOperations(),
      ops.front()->getIterator(), std::next(ops.back()->getIterator()));
  return true;
}

struct SpecializeBlockSizePass
    : public respec::impl::SpecializeBlockSizePassBase<
          SpecializeBlockSizePass> {
  using SpecializeBlockSizePassBase::SpecializeBlockSizePassBase;

  void runOnOperation() override {
    llvm::StringMap<SmallVector<BlockSize>> perKernel;
    for (const std::string &entry : blockSizes) {
      StringRef kernel;
      BlockSize size;
      if (failed(parseEntry(entry, kernel, size))) {
        getOperation().emitError()
            << "bad block-sizes entry '" << entry
            << "' (expected NAME=BXxBYxBZ, each 1 to 1024)";
        return signalPassFailure();
      }
      SmallVector<BlockSize> &sizes = perKernel[kernel];
      if (!llvm::is_contained(sizes, size) && sizes.size() < maxVersions)
        sizes.push_back(size);
    }
    if (perKernel.empty())
      return;
    getOperation().walk([&](LLVM::LLVMFuncOp launch) {
      auto name = launch->getAttrOfType<StringAttr>(kKernelNameAttr);
      if (!name)
        return;
      auto found = perKernel.find(name.getValue());
      if (found != perKernel.end())
        specializeLaunch(launch, found->second);
    });
  }
};

} // namespace
