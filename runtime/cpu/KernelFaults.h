//===- KernelFaults.h - Invalid memory accesses of kernels ------*- C++ -*-===//
//
// A GPU kernel that reads or writes memory it may not ends with
// cudaErrorIllegalAddress. On the CPU the same access is a segmentation
// fault of the process; the runtime cannot stop the other threads of the
// grid and carry on, but it says what happened before the process stops.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_CPU_KERNELFAULTS_H
#define RESPEC_RUNTIME_CPU_KERNELFAULTS_H

namespace respec {
namespace cpu {

/// While one lives, a SIGSEGV or SIGBUS is reported as an illegal memory
/// access of kernel `mangledName` (demangled in the message) before the
/// process stops with the signal, as it did without the report. Faults
/// while no kernel runs go to the handler that was there before.
class KernelFaultScope {
public:
  explicit KernelFaultScope(const char *mangledName);
  ~KernelFaultScope();
  KernelFaultScope(const KernelFaultScope &) = delete;
  KernelFaultScope &operator=(const KernelFaultScope &) = delete;
};

} // namespace cpu
} // namespace respec

#endif // RESPEC_RUNTIME_CPU_KERNELFAULTS_H
