//===- LaunchChecks.h - Validation of kernel launches shared by backends --===//
//
// CUDA rejects a launch before it reaches the device when its configuration
// exceeds the device's limits or the kernel's. Every backend applies the same
// rules, against its own device's limits, so that a program that launches
// correctly on one runs on all of them.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_COMMON_LAUNCHCHECKS_H
#define RESPEC_RUNTIME_COMMON_LAUNCHCHECKS_H

#include "ModuleRegistry.h"

#include <cuda_runtime_api.h>

namespace respec {

/// Which kind of module a runtime runs.
enum class KernelTarget { Cpu, NvidiaGpu };

/// The kernel of the host stub `func`, or an error naming `call`: the stub is
/// not registered, or its module was built for another target than `target`.
cudaError_t findKernel(const void *func, KernelTarget target, const char *call,
                       const KernelInfo **kernel);

/// The most threads a block of `kernel` may have: `deviceLimit`, or the
/// kernel's __launch_bounds__ when lower.
int maxThreadsPerBlockOf(const KernelInfo &kernel, int deviceLimit);

/// Checks grid, block, dynamic shared memory and arguments of a launch of
/// `kernel` on a device described by `device`, as CUDA does.
cudaError_t validateLaunch(const cudaDeviceProp &device,
                           const KernelInfo &kernel, dim3 grid, dim3 block,
                           size_t sharedMem, void **args, const char *call);

/// Checks the attributes of a cudaLaunchKernelEx configuration: clusters are
/// not supported by respec; scheduling hints are accepted and ignored.
/// `*cooperative` tells whether the launch asks for a cooperative launch.
cudaError_t checkLaunchAttributes(const cudaLaunchConfig_t *config,
                                  bool *cooperative, const char *call);

} // namespace respec

#endif // RESPEC_RUNTIME_COMMON_LAUNCHCHECKS_H
