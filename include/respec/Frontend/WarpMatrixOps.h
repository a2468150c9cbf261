//===- WarpMatrixOps.h - wmma for the CPU ----------------------*- C++ -*-===//
//
// CUDA's warp matrix functions (`nvcuda::wmma`: load_matrix_sync, mma_sync,
// store_matrix_sync) reach device code as NVVM intrinsics that a warp
// executes together on tensor cores. The CPU has none; these functions
// rewrite them as each lane's share of the work.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_FRONTEND_WARPMATRIXOPS_H
#define RESPEC_FRONTEND_WARPMATRIXOPS_H

namespace llvm {
class Module;
} // namespace llvm

namespace respec {

/// Replaces the wmma load, store and mma intrinsics of `module` (device
/// code) by loads, stores and arithmetic. A fragment holds the elements of
/// its matrix in row-major order spread over the lanes (element e in lane
/// e % 32), which CUDA leaves unspecified; mma exchanges the operands
/// through shared memory between two warp barriers. Shapes and types the
/// CPU does not support (sub-byte, 1-bit) are left alone and reported as
/// unsupported intrinsics later. Returns true if anything changed.
bool lowerWarpMatrixOps(llvm::Module &module);

} // namespace respec

#endif // RESPEC_FRONTEND_WARPMATRIXOPS_H
