//===- SpinWaitCheck.h - Waits the CPU target cannot end -------*- C++ -*-===//
//
// On the CPU, respec runs the threads of a block one after the other between
// barriers. A thread that spins until another thread of its block changes a
// value in shared memory therefore never sees the change: the program hangs.
// This check finds such loops in the device code before it is lowered and
// warns at their line.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_FRONTEND_SPINWAITCHECK_H
#define RESPEC_FRONTEND_SPINWAITCHECK_H

namespace llvm {
class Module;
} // namespace llvm

namespace respec {

/// Prints a warning for every loop in the kernels of `module` (device code
/// with kernels' device functions inlined) that waits for a value in shared
/// memory: it reads shared memory with volatile or atomic loads, its exit
/// depends on what it reads, and it has no barrier and writes nothing.
void warnAboutSharedMemorySpinWaits(llvm::Module &module);

} // namespace respec

#endif // RESPEC_FRONTEND_SPINWAITCHECK_H
