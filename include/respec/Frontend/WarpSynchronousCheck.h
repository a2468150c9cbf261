//===- WarpSynchronousCheck.h - Warn about lockstep-warp code ---*- C++ -*-===//
//
// Code written for warps that run in lockstep (the unrolled volatile
// last-warp reduction of old CUDA samples) exchanges values between threads
// through shared memory without synchronizing. respec's CPU target runs the
// threads of a block one after the other between barriers, so such code
// reads values from before the other thread's write: a wrong answer. This
// check finds the pattern in the device code and warns at its line.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_FRONTEND_WARPSYNCHRONOUSCHECK_H
#define RESPEC_FRONTEND_WARPSYNCHRONOUSCHECK_H

namespace llvm {
class Module;
} // namespace llvm

namespace respec {

/// Prints a warning for each kernel of `module` (device functions inlined)
/// that stores to a thread-indexed element of shared memory through a
/// volatile pointer and, with no call (barrier, __syncwarp, ...) in between
/// in the same basic block, loads a neighbouring element through the same
/// pointer: `s[t] += s[t + 16]` after `s[t] += s[t + 32]`.
void warnAboutWarpSynchronousCode(llvm::Module &module);

} // namespace respec

#endif // RESPEC_FRONTEND_WARPSYNCHRONOUSCHECK_H
