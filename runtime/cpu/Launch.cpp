//===- Launch.cpp - Kernel launches, function attributes, occupancy -------===//

#include "../common/Backend.h"
#include "../common/Diagnostics.h"
#include "../common/LaunchChecks.h"
#include "../common/ModuleRegistry.h"
#include "DeviceProperties.h"
#include "Streams.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

using namespace respec;
using namespace respec::cpu;

namespace {

/// The kernel's arguments copied at launch time: the caller's `args` point
/// into its own stack frame, which is gone by the time the queued launch
/// runs. Each value gets a 64-byte aligned slot: the launch code loads a
/// parameter with its type's alignment, up to 32 bytes for AVX vectors.
class KernelArguments {
public:
  KernelArguments(const respec_kernel_entry &kernel, void **args) {
    size_t total = 0;
    for (uint32_t i = 0; i < kernel.numParams; ++i)
      total += slotSize(kernel.paramSizes[i]);
    storage.reset(static_cast<char *>(::operator new(
        total ? total : slotAlignment, std::align_val_t(slotAlignment))));
    char *slot = storage.get();
    for (uint32_t i = 0; i < kernel.numParams; ++i) {
      std::memcpy(slot, args[i], kernel.paramSizes[i]);
      pointers.push_back(slot);
      slot += slotSize(kernel.paramSizes[i]);
    }
  }

  void **data() { return pointers.empty() ? nullptr : pointers.data(); }

private:
  static constexpr size_t slotAlignment = 64;
  static size_t slotSize(size_t bytes) {
    return (bytes + slotAlignment - 1) / slotAlignment * slotAlignment;
  }
  struct AlignedDelete {
    void operator()(char *p) const {
      ::operator delete(p, std::align_val_t(slotAlignment));
    }
  };
  std::unique_ptr<char, AlignedDelete> storage;
  std::vector<void *> pointers;
};

/// The most threads a block of `kernel` may have on the CPU device.
int maxThreadsPerBlockOf(const KernelInfo &kernel) {
  return respec::maxThreadsPerBlockOf(kernel,
                                      deviceProperties().maxThreadsPerBlock);
}

/// The kernel of `func`, or an error naming `call`.
cudaError_t findKernel(const void *func, const char *call,
                       const KernelInfo **kernel) {
  return respec::findKernel(func, KernelTarget::Cpu, call, kernel);
}

/// Resident blocks of `blockSize` threads using `sharedBytes` of shared
/// memory per block on one multiprocessor of an sm_80 GPU.
int residentBlocksPerMultiprocessor(int blockSize, size_t sharedBytes) {
  const cudaDeviceProp &p = deviceProperties();
  if (blockSize > p.maxThreadsPerBlock)
    return 0;
  int warps = (blockSize + p.warpSize - 1) / p.warpSize;
  int byThreads = p.maxThreadsPerMultiProcessor / (warps * p.warpSize);
  int blocks = std::min(p.maxBlocksPerMultiProcessor, byThreads);
  if (sharedBytes) {
    size_t perBlock = sharedBytes + p.reservedSharedMemPerBlock;
    blocks =
        std::min<int>(blocks, int(p.sharedMemPerMultiprocessor / perBlock));
  }
  return blocks;
}

} // namespace

cudaError_t respec::launchKernel(const void *func, dim3 grid, dim3 block,
                                 void **args, size_t sharedMem,
                                 cudaStream_t stream, const char *call) {
  const KernelInfo *kernel = nullptr;
  // Spelled out: in namespace respec, respec::findKernel hides the
  // file's CPU-target shorthand.
  cudaError_t status =
      respec::findKernel(func, KernelTarget::Cpu, call, &kernel);
  if (status != cudaSuccess)
    return status;
  status = validateLaunch(deviceProperties(), *kernel, grid, block, sharedMem,
                          args, call);
  if (status != cudaSuccess)
    return status;
  const respec_kernel_entry &entry = *kernel->entry;
  auto arguments = std::make_shared<KernelArguments>(entry, args);
  respec_launch_fn launch = entry.launch;
  return enqueueOnStream(stream, call, [=] {
    launch(grid.x, grid.y, grid.z, block.x, block.y, block.z, sharedMem,
           arguments->data());
  });
}

extern "C" cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                             const void *func) {
  const KernelInfo *kernel = nullptr;
  if (!attr)
    return reportError(cudaErrorInvalidValue, "cudaFuncGetAttributes");
  cudaError_t status = findKernel(func, "cudaFuncGetAttributes", &kernel);
  if (status != cudaSuccess)
    return status;
  std::memset(attr, 0, sizeof(*attr));
  attr->sharedSizeBytes = kernel->entry->staticSharedBytes;
  attr->maxThreadsPerBlock = maxThreadsPerBlockOf(*kernel);
  // Registers are not a CPU resource; report a count that never limits
  // occupancy (64K registers / 1024 threads = 64).
  attr->numRegs = 32;
  attr->ptxVersion = 80;
  attr->binaryVersion = 80;
  attr->maxDynamicSharedSizeBytes =
      static_cast<int>(kernel->maxDynamicSharedBytes);
  attr->preferredShmemCarveout = kernel->preferredSharedCarveout;
  return cudaSuccess;
}

extern "C" cudaError_t
cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value) {
  const char *call = "cudaFuncSetAttribute";
  const KernelInfo *kernel = nullptr;
  cudaError_t status = findKernel(func, call, &kernel);
  if (status != cudaSuccess)
    return status;
  switch (attr) {
  case cudaFuncAttributeMaxDynamicSharedMemorySize: {
    uint64_t staticBytes = kernel->entry->staticSharedBytes;
    if (value < 0 || staticBytes + uint64_t(value) > sharedMemPerBlockOptin)
      return reportError(cudaErrorInvalidValue, call,
                         "%d bytes of dynamic shared memory exceed the "
                         "opt-in limit",
                         value);
    setKernelMaxDynamicShared(func, uint64_t(value));
    return cudaSuccess;
  }
  case cudaFuncAttributePreferredSharedMemoryCarveout:
    if (value < -1 || value > 100)
      return reportError(cudaErrorInvalidValue, call);
    setKernelSharedCarveout(func, value);
    return cudaSuccess;
  default:
    return reportError(cudaErrorInvalidValue, call,
                       "attribute %d (thread block clusters) is not "
                       "supported by respec",
                       static_cast<int>(attr));
  }
}

extern "C" cudaError_t cudaFuncSetCacheConfig(const void *func,
                                              enum cudaFuncCache config) {
  const KernelInfo *kernel = nullptr;
  cudaError_t status = findKernel(func, "cudaFuncSetCacheConfig", &kernel);
  if (status != cudaSuccess)
    return status;
  if (config < cudaFuncCachePreferNone || config > cudaFuncCachePreferEqual)
    return reportError(cudaErrorInvalidValue, "cudaFuncSetCacheConfig");
  return cudaSuccess;
}

extern "C" cudaError_t
cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config) {
  const KernelInfo *kernel = nullptr;
  cudaError_t status = findKernel(func, "cudaFuncSetSharedMemConfig", &kernel);
  if (status != cudaSuccess)
    return status;
  if (config < cudaSharedMemBankSizeDefault ||
      config > cudaSharedMemBankSizeEightByte)
    return reportError(cudaErrorInvalidValue, "cudaFuncSetSharedMemConfig");
  return cudaSuccess;
}

extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags) {
  const char *call = "cudaOccupancyMaxActiveBlocksPerMultiprocessor";
  const KernelInfo *kernel = nullptr;
  if (!numBlocks || blockSize <= 0 ||
      (flags & ~unsigned(cudaOccupancyDisableCachingOverride)))
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = findKernel(func, call, &kernel);
  if (status != cudaSuccess)
    return status;
  *numBlocks =
      blockSize > maxThreadsPerBlockOf(*kernel)
          ? 0
          : residentBlocksPerMultiprocessor(
                blockSize, kernel->entry->staticSharedBytes + dynamicSMemSize);
  return cudaSuccess;
}

extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, func, blockSize, dynamicSMemSize, cudaOccupancyDefault);
}

extern "C" cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(
    size_t *dynamicSmemSize, const void *func, int numBlocks, int blockSize) {
  const char *call = "cudaOccupancyAvailableDynamicSMemPerBlock";
  const KernelInfo *kernel = nullptr;
  if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = findKernel(func, call, &kernel);
  if (status != cudaSuccess)
    return status;
  const cudaDeviceProp &p = deviceProperties();
  size_t perBlock = p.sharedMemPerMultiprocessor / size_t(numBlocks);
  size_t overhead =
      p.reservedSharedMemPerBlock + kernel->entry->staticSharedBytes;
  size_t available = perBlock > overhead ? perBlock - overhead : 0;
  *dynamicSmemSize = std::min<size_t>(available, kernel->maxDynamicSharedBytes);
  return cudaSuccess;
}
