//===- LaunchChecks.cpp - Validation of kernel launches shared by backends ===//

#include "LaunchChecks.h"

#include "Diagnostics.h"

namespace respec {
namespace {

bool isValidGeometry(const cudaDeviceProp &p, dim3 grid, dim3 block) {
  if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
    return false;
  if (block.x > unsigned(p.maxThreadsDim[0]) ||
      block.y > unsigned(p.maxThreadsDim[1]) ||
      block.z > unsigned(p.maxThreadsDim[2]))
    return false;
  uint64_t threads = uint64_t(block.x) * block.y * block.z;
  if (threads > uint64_t(p.maxThreadsPerBlock))
    return false;
  return grid.x <= unsigned(p.maxGridSize[0]) &&
         grid.y <= unsigned(p.maxGridSize[1]) &&
         grid.z <= unsigned(p.maxGridSize[2]);
}

} // namespace

cudaError_t findKernel(const void *func, KernelTarget target, const char *call,
                       const KernelInfo **kernel) {
  bool foreign = false;
  const KernelInfo *found = func ? lookupKernel(func, &foreign) : nullptr;
  *kernel = nullptr;
  if (foreign)
    return reportError(cudaErrorNoKernelImageForDevice, call,
                       "kernel %p was compiled by another compiler, not by "
                       "respec",
                       func);
  if (!found)
    return reportError(cudaErrorInvalidDeviceFunction, call,
                       "%p is not a registered kernel", func);
  // Linking objects of one target with the other target's runtime is a
  // build mistake the user must see even without RESPEC_VERBOSE.
  bool isGpuKernel = found->gpuModule != nullptr;
  if (isGpuKernel && target == KernelTarget::Cpu) {
    warnAlways("kernel '%s' was built for NVIDIA GPUs (--target=nvptx); link "
               "the program with the GPU runtime (librespec_cudart_gpu.a)",
               found->entry->name);
    return reportError(cudaErrorNoKernelImageForDevice, call);
  }
  if (!isGpuKernel && target == KernelTarget::NvidiaGpu) {
    warnAlways("kernel '%s' was built for the CPU; link the program with the "
               "CPU runtime (librespec_cudart.a) or build it with "
               "--target=nvptx",
               found->entry->name);
    return reportError(cudaErrorNoKernelImageForDevice, call);
  }
  *kernel = found;
  return cudaSuccess;
}

int maxThreadsPerBlockOf(const KernelInfo &kernel, int deviceLimit) {
  uint32_t bound = kernel.entry->maxThreadsPerBlock;
  return bound && bound < uint32_t(deviceLimit) ? int(bound) : deviceLimit;
}

cudaError_t validateLaunch(const cudaDeviceProp &device,
                           const KernelInfo &kernel, dim3 grid, dim3 block,
                           size_t sharedMem, void **args, const char *call) {
  if (!isValidGeometry(device, grid, block))
    return reportError(cudaErrorInvalidConfiguration, call,
                       "grid (%u,%u,%u) block (%u,%u,%u)", grid.x, grid.y,
                       grid.z, block.x, block.y, block.z);
  // A GPU refuses a block larger than the kernel was compiled for
  // (__launch_bounds__): its register allocation assumed the bound.
  uint64_t threads = uint64_t(block.x) * block.y * block.z;
  int limit = maxThreadsPerBlockOf(kernel, device.maxThreadsPerBlock);
  if (threads > uint64_t(limit))
    return reportError(cudaErrorLaunchOutOfResources, call,
                       "%llu threads per block exceed the kernel's "
                       "__launch_bounds__ of %d",
                       (unsigned long long)threads, limit);
  if (sharedMem > kernel.maxDynamicSharedBytes)
    return reportError(cudaErrorInvalidValue, call,
                       "%zu bytes of dynamic shared memory exceed the "
                       "kernel's limit of %llu",
                       sharedMem,
                       (unsigned long long)kernel.maxDynamicSharedBytes);
  if (kernel.entry->numParams && !args)
    return reportError(cudaErrorInvalidValue, call, "null argument array");
  return cudaSuccess;
}

cudaError_t checkLaunchAttributes(const cudaLaunchConfig_t *config,
                                  bool *cooperative, const char *call) {
  *cooperative = false;
  if (!config || (config->numAttrs && !config->attrs))
    return reportError(cudaErrorInvalidValue, call);
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const cudaLaunchAttribute &attr = config->attrs[i];
    switch (attr.id) {
    case cudaLaunchAttributeCooperative:
      *cooperative = attr.val.cooperative != 0;
      break;
    case cudaLaunchAttributeClusterDimension: {
      unsigned blocks =
          attr.val.clusterDim.x * attr.val.clusterDim.y * attr.val.clusterDim.z;
      if (blocks > 1)
        return reportError(cudaErrorNotSupported, call,
                           "thread block clusters are not supported by "
                           "respec");
      break;
    }
    default:
      // Scheduling hints (priority, carveout, synchronization policy,
      // programmatic serialization, memory sync domains) do not change
      // what a kernel computes.
      break;
    }
  }
  return cudaSuccess;
}

} // namespace respec
