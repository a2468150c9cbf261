//===- Launch.cpp - Kernel launches, function attributes, occupancy -------===//
//
// A kernel of a program built for NVIDIA GPUs has a host-side launch
// function (abi.h): given the launch's geometry and arguments, it decides
// which GPU kernels of its module to run (respec may have coarsened the
// kernel, changing the geometry, or split it into several kernels) and
// launches each with __respec_cuda_launch. cudaLaunchKernel validates the
// launch as CUDA does, then runs the launch function with the launch's
// module and stream recorded in a thread-local "current launch".
//
//===----------------------------------------------------------------------===//

#include "../common/Backend.h"
#include "../common/Diagnostics.h"
#include "../common/LaunchChecks.h"
#include "Context.h"
#include "DeviceProperties.h"
#include "Modules.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace respec;
using namespace respec::gpu;

namespace {

/// Per-block shared memory a kernel may use without opting in
/// (cudaFuncAttributeMaxDynamicSharedMemorySize), on every GPU since sm_30.
constexpr uint64_t sharedMemWithoutOptin = 48 * 1024;

/// The cudaLaunchKernel being run on this host thread.
struct CurrentLaunch {
  LoadedModule *module;
  CUstream stream;
  const char *call;
  /// cudaLaunchCooperativeKernel: the driver must run every block at once.
  bool cooperative = false;
  cudaError_t error = cudaSuccess;
};

thread_local CurrentLaunch *currentLaunch = nullptr;

/// The kernel of `func` for a GPU call, with the driver ready.
cudaError_t findGpuKernel(const void *func, const char *call,
                          const KernelInfo **kernel) {
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return findKernel(func, KernelTarget::NvidiaGpu, call, kernel);
}

/// The PTX entry named like `kernel` (its uncoarsened version), which the
/// function attribute and occupancy queries describe.
cudaError_t findEntryFunction(const KernelInfo &kernel, const char *call,
                              GpuFunction **function) {
  LoadedModule *loaded = nullptr;
  cudaError_t status = loadModule(kernel.gpuModule, call, &loaded);
  if (status != cudaSuccess)
    return status;
  return findFunction(loaded, kernel.entry->name, call, function);
}

/// The kernel of `func` and its PTX entry, for the queries about a kernel.
cudaError_t findKernelEntry(const void *func, const char *call,
                            const KernelInfo **kernel, GpuFunction **function) {
  cudaError_t status = findGpuKernel(func, call, kernel);
  if (status != cudaSuccess)
    return status;
  return findEntryFunction(**kernel, call, function);
}

/// Launches one GPU kernel of the current launch; errors become the
/// launch's result.
cudaError_t launchGpuKernel(CurrentLaunch &launch, const char *name,
                            const uint32_t grid[3], const uint32_t block[3],
                            uint64_t sharedBytes, void **params) {
  GpuFunction *function = nullptr;
  cudaError_t status =
      findFunction(launch.module, name, launch.call, &function);
  if (status != cudaSuccess)
    return status;
  if (sharedBytes > UINT_MAX)
    return reportError(cudaErrorInvalidValue, launch.call,
                       "%llu bytes of shared memory",
                       (unsigned long long)sharedBytes);
  const DriverApi &api = driver();
  // Beyond 48 KiB per block the driver wants the kernel's consent, which
  // cudaFuncSetAttribute gave for the user's kernel; the launch function may
  // ask for more than the user did (a coarsened block holds several blocks'
  // shared memory), so the limit is raised here, when needed.
  uint64_t total = sharedBytes + uint64_t(function->staticSharedBytes);
  if (total > sharedMemWithoutOptin &&
      sharedBytes > function->maxDynamicSharedBytes.load()) {
    status = checkDriver(
        api.funcSetAttribute(function->function,
                             CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             static_cast<int>(sharedBytes)),
        launch.call);
    if (status != cudaSuccess)
      return status;
    function->maxDynamicSharedBytes = sharedBytes;
  }
  auto shared = static_cast<unsigned>(sharedBytes);
  CUresult result =
      launch.cooperative
          ? api.launchCooperativeKernel(function->function, grid[0], grid[1],
                                        grid[2], block[0], block[1], block[2],
                                        shared, launch.stream, params)
          : api.launchKernel(function->function, grid[0], grid[1], grid[2],
                             block[0], block[1], block[2], shared,
                             launch.stream, params, nullptr);
  return checkDriver(result, launch.call);
}

} // namespace

// The launch function's GPU kernels go to the driver as cooperative
// launches where `cooperative` says so. A kernel that synchronizes its grid
// has one version and no epilogue (respec does not coarsen it), so its one
// launch is the user's.
cudaError_t respec::launchKernel(const void *func, dim3 grid, dim3 block,
                                 void **args, size_t sharedMem,
                                 cudaStream_t stream, bool cooperative,
                                 const char *call) {
  const KernelInfo *kernel = nullptr;
  cudaError_t status = findGpuKernel(func, call, &kernel);
  if (status != cudaSuccess)
    return status;
  const cudaDeviceProp *device = nullptr;
  status = getDeviceProperties(currentDevice(), call, &device);
  if (status != cudaSuccess)
    return status;
  status = validateLaunch(*device, *kernel, grid, block, sharedMem, args, call);
  if (status != cudaSuccess)
    return status;
  LoadedModule *loaded = nullptr;
  status = loadModule(kernel->gpuModule, call, &loaded);
  if (status != cudaSuccess)
    return status;
  // The launch function runs synchronously on this thread: the caller's
  // argument values stay valid throughout, and cuLaunchKernel copies them.
  CurrentLaunch launch{loaded, toDriverStream(stream), call, cooperative};
  CurrentLaunch *outer = currentLaunch;
  currentLaunch = &launch;
  kernel->entry->launch(grid.x, grid.y, grid.z, block.x, block.y, block.z,
                        sharedMem, args);
  currentLaunch = outer;
  return launch.error;
}

// Profiling builds time each version (Tuning.cpp) with CUDA events recorded
// on the launch's stream before and after its kernels: the GPU's time for
// them, without the launch latency and the host's wait that a host clock
// would add, which for short kernels can be larger than the kernels. Both
// calls run inside the same launch function, so the current launch names
// the stream; the token is the start event.
uint64_t respec::startTunedTiming() {
  CurrentLaunch *launch = currentLaunch;
  if (!launch || launch->error != cudaSuccess)
    return 0;
  const DriverApi &api = driver();
  CUevent start = nullptr;
  launch->error = checkDriver(api.eventCreate(&start, 0), launch->call);
  if (launch->error != cudaSuccess)
    return 0;
  launch->error =
      checkDriver(api.eventRecord(start, launch->stream), launch->call);
  if (launch->error != cudaSuccess) {
    api.eventDestroy(start);
    return 0;
  }
  return reinterpret_cast<uint64_t>(start);
}

uint64_t respec::finishTunedTiming(uint64_t token) {
  auto start = reinterpret_cast<CUevent>(token);
  if (!start)
    return 0;
  const DriverApi &api = driver();
  CurrentLaunch *launch = currentLaunch;
  float ms = 0;
  CUevent end = nullptr;
  // After a failed launch the error is the launch's; the events are only
  // released.
  if (launch && launch->error == cudaSuccess) {
    cudaError_t status = checkDriver(api.eventCreate(&end, 0), launch->call);
    if (status == cudaSuccess)
      status = checkDriver(api.eventRecord(end, launch->stream), launch->call);
    if (status == cudaSuccess)
      status = checkDriver(api.eventSynchronize(end), launch->call);
    if (status == cudaSuccess)
      status =
          checkDriver(api.eventElapsedTime(&ms, start, end), launch->call);
    launch->error = status;
  }
  if (end)
    api.eventDestroy(end);
  api.eventDestroy(start);
  return static_cast<uint64_t>(static_cast<double>(ms) * 1e6);
}

extern "C" void __respec_cuda_launch(const char *kernel, uint32_t gridX,
                                     uint32_t gridY, uint32_t gridZ,
                                     uint32_t blockX, uint32_t blockY,
                                     uint32_t blockZ, uint64_t sharedBytes,
                                     void **params) {
  CurrentLaunch *launch = currentLaunch;
  if (!launch) {
    // Only respec's generated launch functions call this, and only from
    // cudaLaunchKernel: anything else is a compiler bug.
    std::fprintf(stderr,
                 "respec: internal error: __respec_cuda_launch('%s') called "
                 "outside of a kernel launch\n",
                 kernel ? kernel : "(null)");
    std::abort();
  }
  // After a failed launch the later ones (an epilogue, say) would only run
  // on incomplete results.
  if (launch->error != cudaSuccess)
    return;
  // The launch itself was validated; an empty grid here is a part with no
  // blocks to run (block coarsening's epilogue when the factor divides the
  // grid), which a GPU would reject as a configuration error.
  if (gridX == 0 || gridY == 0 || gridZ == 0)
    return;
  const uint32_t grid[3] = {gridX, gridY, gridZ};
  const uint32_t block[3] = {blockX, blockY, blockZ};
  launch->error =
      launchGpuKernel(*launch, kernel, grid, block, sharedBytes, params);
}

extern "C" cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim,
                                             dim3 blockDim, void **args,
                                             size_t sharedMem,
                                             cudaStream_t stream) {
  return launchKernel(func, gridDim, blockDim, args, sharedMem,
                      perThreadDefault(stream), /*cooperative=*/false,
                      "cudaLaunchKernel");
}

extern "C" cudaError_t
cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                 void **args, size_t sharedMem,
                                 cudaStream_t stream) {
  return launchKernel(func, gridDim, blockDim, args, sharedMem,
                      perThreadDefault(stream), /*cooperative=*/true,
                      "cudaLaunchCooperativeKernel");
}

extern "C" cudaError_t
cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                         void **args) {
  return launchKernelEx(config, func, args, perThreadDefault);
}

extern "C" cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                             const void *func) {
  const char *call = "cudaFuncGetAttributes";
  if (!attr)
    return reportError(cudaErrorInvalidValue, call);
  const KernelInfo *kernel = nullptr;
  GpuFunction *function = nullptr;
  cudaError_t status = findKernelEntry(func, call, &kernel, &function);
  if (status != cudaSuccess)
    return status;
  const DriverApi &api = driver();
  auto query = [&](int attribute) {
    int value = 0;
    api.funcGetAttribute(&value, attribute, function->function);
    return value;
  };
  std::memset(attr, 0, sizeof(*attr));
  attr->sharedSizeBytes = query(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  attr->constSizeBytes = query(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
  attr->localSizeBytes = query(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
  attr->maxThreadsPerBlock = maxThreadsPerBlockOf(
      *kernel, query(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
  attr->numRegs = query(CU_FUNC_ATTRIBUTE_NUM_REGS);
  attr->ptxVersion = query(CU_FUNC_ATTRIBUTE_PTX_VERSION);
  attr->binaryVersion = query(CU_FUNC_ATTRIBUTE_BINARY_VERSION);
  attr->cacheModeCA = query(CU_FUNC_ATTRIBUTE_CACHE_MODE_CA);
  // What the program set (the driver learns it only at launch time).
  attr->maxDynamicSharedSizeBytes =
      static_cast<int>(kernel->maxDynamicSharedBytes);
  attr->preferredShmemCarveout = kernel->preferredSharedCarveout;
  return cudaSuccess;
}

extern "C" cudaError_t
cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value) {
  const char *call = "cudaFuncSetAttribute";
  const KernelInfo *kernel = nullptr;
  cudaError_t status = findGpuKernel(func, call, &kernel);
  if (status != cudaSuccess)
    return status;
  switch (attr) {
  case cudaFuncAttributeMaxDynamicSharedMemorySize: {
    const cudaDeviceProp *device = nullptr;
    status = getDeviceProperties(currentDevice(), call, &device);
    if (status != cudaSuccess)
      return status;
    uint64_t staticBytes = kernel->entry->staticSharedBytes;
    if (value < 0 ||
        staticBytes + uint64_t(value) > device->sharedMemPerBlockOptin)
      return reportError(cudaErrorInvalidValue, call,
                         "%d bytes of dynamic shared memory exceed the "
                         "device's opt-in limit of %zu",
                         value, device->sharedMemPerBlockOptin);
    // Applied to the GPU kernels when a launch needs it.
    setKernelMaxDynamicShared(func, uint64_t(value));
    return cudaSuccess;
  }
  case cudaFuncAttributePreferredSharedMemoryCarveout: {
    if (value < -1 || value > 100)
      return reportError(cudaErrorInvalidValue, call);
    GpuFunction *function = nullptr;
    status = findEntryFunction(*kernel, call, &function);
    if (status != cudaSuccess)
      return status;
    status = checkDriver(driver().funcSetAttribute(
                             function->function,
                             CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                             value),
                         call);
    if (status == cudaSuccess)
      setKernelSharedCarveout(func, value);
    return status;
  }
  default:
    return reportError(cudaErrorInvalidValue, call,
                       "attribute %d (thread block clusters) is not "
                       "supported by respec",
                       static_cast<int>(attr));
  }
}

extern "C" cudaError_t cudaFuncSetCacheConfig(const void *func,
                                              enum cudaFuncCache config) {
  const char *call = "cudaFuncSetCacheConfig";
  const KernelInfo *kernel = nullptr;
  cudaError_t status = findGpuKernel(func, call, &kernel);
  if (status != cudaSuccess)
    return status;
  if (config < cudaFuncCachePreferNone || config > cudaFuncCachePreferEqual)
    return reportError(cudaErrorInvalidValue, call);
  GpuFunction *function = nullptr;
  status = findEntryFunction(*kernel, call, &function);
  if (status != cudaSuccess)
    return status;
  // cudaFuncCache and CUfunc_cache share their values.
  return checkDriver(driver().funcSetCacheConfig(function->function, config),
                     call);
}

extern "C" cudaError_t
cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config) {
  const char *call = "cudaFuncSetSharedMemConfig";
  const KernelInfo *kernel = nullptr;
  cudaError_t status = findGpuKernel(func, call, &kernel);
  if (status != cudaSuccess)
    return status;
  // Bank size configuration has no effect since sm_50; CUDA accepts it.
  if (config < cudaSharedMemBankSizeDefault ||
      config > cudaSharedMemBankSizeEightByte)
    return reportError(cudaErrorInvalidValue, call);
  return cudaSuccess;
}

extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags) {
  const char *call = "cudaOccupancyMaxActiveBlocksPerMultiprocessor";
  if (!numBlocks || blockSize <= 0 ||
      (flags & ~unsigned(cudaOccupancyDisableCachingOverride)))
    return reportError(cudaErrorInvalidValue, call);
  const KernelInfo *kernel = nullptr;
  GpuFunction *function = nullptr;
  cudaError_t status = findKernelEntry(func, call, &kernel, &function);
  if (status != cudaSuccess)
    return status;
  const cudaDeviceProp *device = nullptr;
  status = getDeviceProperties(currentDevice(), call, &device);
  if (status != cudaSuccess)
    return status;
  if (blockSize > maxThreadsPerBlockOf(*kernel, device->maxThreadsPerBlock)) {
    *numBlocks = 0;
    return cudaSuccess;
  }
  // cudaOccupancy* flags have the driver's CU_OCCUPANCY_* values.
  return checkDriver(
      driver().occupancyMaxActiveBlocks(numBlocks, function->function,
                                        blockSize, dynamicSMemSize, flags),
      call);
}

extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, func, blockSize, dynamicSMemSize, cudaOccupancyDefault);
}

extern "C" cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(
    size_t *dynamicSmemSize, const void *func, int numBlocks, int blockSize) {
  const char *call = "cudaOccupancyAvailableDynamicSMemPerBlock";
  if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0)
    return reportError(cudaErrorInvalidValue, call);
  const KernelInfo *kernel = nullptr;
  GpuFunction *function = nullptr;
  cudaError_t status = findKernelEntry(func, call, &kernel, &function);
  if (status != cudaSuccess)
    return status;
  size_t available = 0;
  status =
      checkDriver(driver().occupancyAvailableDynamicShared(
                      &available, function->function, numBlocks, blockSize),
                  call);
  if (status == cudaSuccess)
    *dynamicSmemSize =
        std::min<size_t>(available, kernel->maxDynamicSharedBytes);
  return status;
}
