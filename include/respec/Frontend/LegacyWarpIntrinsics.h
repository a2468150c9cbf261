//===- LegacyWarpIntrinsics.h - Warp primitives without a mask -*- C++ -*-===//
//
// CUDA 9 replaced __shfl, __shfl_up/down/xor, __any, __all and __ballot by
// their _sync forms and CUDA 13's headers no longer have the old ones, but
// code written before (and clang's headers, which still define them) uses
// them: clang compiles them to NVVM's unsynchronized shuffle and vote
// intrinsics, which sm_70 and later GPUs do not have.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_FRONTEND_LEGACYWARPINTRINSICS_H
#define RESPEC_FRONTEND_LEGACYWARPINTRINSICS_H

namespace llvm {
class Module;
} // namespace llvm

namespace respec {

/// Rewrites each unsynchronized shuffle and vote of the device module
/// `module` as its _sync form over the warp's active lanes, the threads
/// that ran it before Volta: `__activemask()` for a GPU (`forGPU`), and all
/// lanes of the warp on the CPU, which runs a warp's lanes as one group
/// wherever they meet at a warp primitive. Returns true if anything
/// changed.
bool upgradeUnsynchronizedWarpIntrinsics(llvm::Module &module, bool forGPU);

} // namespace respec

#endif // RESPEC_FRONTEND_LEGACYWARPINTRINSICS_H
