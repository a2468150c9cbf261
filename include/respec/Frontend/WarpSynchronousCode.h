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

/// Finds, in the kernels of `module` (device functions inlined), runs of
/// volatile shared-memory accesses with no call (barrier, __syncwarp, ...)
/// among them where a thread stores to a thread-indexed element and then
/// loads a neighbouring element through the same pointer (`s[t] += s[t +
/// 16]` after `s[t] += s[t + 32]`), in one basic block or around a loop of
/// one block (`for (o = 1; o < 32; o *= 2) s[p] += s[p - o]`). A
/// __syncwarp() goes before each access of such a run but the first (and
/// before the first too in a loop, between iterations), so each volatile
/// access runs for all the warp's threads before the next one, as in
/// lockstep. Returns true if anything changed.
bool synchronizeWarpSynchronousCode(llvm::Module &module);

} // namespace respec

#endif // RESPEC_FRONTEND_WARPSYNCHRONOUSCODE_H
