//===- MergeFusedRows.h - Fused blocks' rows as one loop --------*- C++ -*-===//
//
// Used by respec-fuse-block-rows: the loop over the fused blocks and the
// loop over each block's row of threads become one loop over the row's
// global x index, where that is the same set of iterations in the same
// order and the body needs only that index.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_LIB_TARGET_CPU_MERGEFUSEDROWS_H
#define RESPEC_LIB_TARGET_CPU_MERGEFUSEDROWS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::respec {

/// The loops respec-fuse-block-rows builds for one thread loop:
///
///   for c in [0, blocksHere) {
///     bx = firstBlock + c; per-block values;
///     scf.parallel tx in [lo, hi) { body }
///   }
///
/// with `width` threads per block along x.
struct FusedRow {
  scf::ForOp blocks;
  scf::ParallelOp row;
  Value blockIndex;
  Value firstBlock;
  Value blocksHere;
  int64_t width;
};

/// Replaces the fused row's two loops by one `scf.parallel` over the global
/// index k = bx * width + tx, when
/// - the body uses tx and bx only as `bx * width + tx` (the CUDA idiom
///   `blockIdx.x * blockDim.x + threadIdx.x`), which becomes k;
/// - lo and hi are, for every block, its share of one range of global
///   indices [L, H): lo = clamp(L - bx * width, 0, width) and hi likewise
///   (what index-set splitting builds from `if (i >= L && i < H)`), so that
///   the blocks' pieces join into one range, visited in the same order.
/// LLVM's vectorizer then sees rows of C * width iterations instead of C
/// loops of `width`. Returns false, changing nothing, otherwise.
bool mergeFusedRow(const FusedRow &fused);

} // namespace mlir::respec

#endif // RESPEC_LIB_TARGET_CPU_MERGEFUSEDROWS_H
