//===- WarpSynchronousCode.h - Lockstep warps on the CPU -------*- C++ -*-===//
//
// Code written for warps that run in lockstep (the unrolled volatile
// last-warp reductions and warp scans of old CUDA samples and benchmark
// suites) exchanges values between threads through volatile shared memory
// without synchronizing. respec's CPU target runs the threads of a block one
// after the other between barriers, so such code would read values from
// before the other thread's write. NVIDIA GPUs still give these programs
// the lockstep answer in practice, and so does respec: it synchronizes the
// warp between the exchange's volatile accesses.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_FRONTEND_WARPSYNCHRONOUSCODE_H
#define RESPEC_FRONTEND_WARPSYNCHRONOUSCODE_H

namespace llvm {
class Module;
} // namespace llvm

namespace respec {

/// Finds, in the kernels of `module` (device functions inlined), arrays in
/// shared memory where a thread stores through a volatile pointer to a
/// thread-indexed element and a later volatile access, with no
/// synchronizing call (barrier, __syncwarp, shuffle, vote) in between or
/// around a loop without one, reads the array at an index that differs by
/// more than the thread index (`s[t] += s[t + 16]` after `s[t] += s[t +
/// 32]`, `s[p] += s[p - o]` in a loop). A __syncwarp() goes before each
/// volatile access of such an array that follows a store, or that stores
/// after loads, and before its first access in a loop (between
/// iterations), so each access runs for all the warp's threads before the
/// next, as in lockstep; the accesses then drop `volatile`, which would
/// keep them scalar where lanes run as vectors. Returns true if anything
/// changed.
bool synchronizeWarpSynchronousCode(llvm::Module &module);

} // namespace respec

#endif // RESPEC_FRONTEND_WARPSYNCHRONOUSCODE_H
