//===- Launch.cpp - Kernel launches, function attributes, occupancy -------===//

#include "Launch.h"
#include "../common/Backend.h"
#include "../common/Diagnostics.h"
#include "../common/LaunchChecks.h"
#include "../common/ModuleRegistry.h"
#include "DeviceProperties.h"
#include "KernelFaults.h"
#include "Streams.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <thread>
#include <vector>

#include <sched.h>

// libomp's API, weak so that the runtime links into programs without
// kernels (which do not link libomp).
extern "C" {
int omp_get_max_threads(void) __attribute__((weak));
void omp_set_num_threads(int) __attribute__((weak));
int omp_get_dynamic(void) __attribute__((weak));
void omp_set_dynamic(int) __attribute__((weak));
int omp_get_thread_limit(void) __attribute__((weak));
int omp_get_active_level(void) __attribute__((weak));
int omp_get_max_active_levels(void) __attribute__((weak));
void omp_set_max_active_levels(int) __attribute__((weak));
}

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

/// Cooperative groups' view of the grid workspace (the layout of
/// `cooperative_groups::details::grid_workspace`): the grid barrier counts
/// arrivals in `barrier`, whose top bit flips when the last block arrives.
struct GridWorkspace {
  unsigned size;
  unsigned barrier;
};

/// The workspace of the cooperative launch running now. Cooperative
/// launches run one at a time (cooperativeLaunchMutex), so one pointer
/// serves every thread of the launch.
std::atomic<GridWorkspace *> currentWorkspace{nullptr};
std::mutex cooperativeLaunchMutex;

/// Set while a cooperative launch has more blocks than cores: a block that
/// polls for the others then yields its core (__respec_acquire_poll).
std::atomic<bool> oversubscribed{false};

/// Ordinary launches of kernels that synchronize their grid running now.
std::atomic<int> ordinaryGridSyncLaunches{0};

/// The OpenMP settings of the calling thread that a cooperative launch
/// changes, restored when it ends.
class CooperativeTeam {
public:
  /// Asks for a team of `threads` threads for the calling thread's next
  /// parallel region (the launch function's), nested or not.
  explicit CooperativeTeam(int threads) {
    savedThreads = omp_get_max_threads();
    savedDynamic = omp_get_dynamic();
    savedLevels = omp_get_max_active_levels();
    omp_set_dynamic(0);
    omp_set_num_threads(threads);
    omp_set_max_active_levels(
        std::max(savedLevels, omp_get_active_level() + 1));
  }
  ~CooperativeTeam() {
    omp_set_max_active_levels(savedLevels);
    omp_set_num_threads(savedThreads);
    omp_set_dynamic(savedDynamic);
  }

private:
  int savedThreads, savedDynamic, savedLevels;
};

/// True if libomp is linked in (kernels' launch functions need it; the
/// runtime's own tests run without).
bool haveOpenMP() {
  return omp_get_max_threads && omp_set_num_threads && omp_get_dynamic &&
         omp_set_dynamic && omp_get_thread_limit && omp_get_active_level &&
         omp_get_max_active_levels && omp_set_max_active_levels;
}

/// The most threads a team may have.
uint64_t teamLimit() {
  return haveOpenMP() ? uint64_t(omp_get_thread_limit()) : 1;
}

} // namespace

bool respec::cpu::gridSyncOutsideCooperativeLaunch() {
  return ordinaryGridSyncLaunches.load(std::memory_order_relaxed) > 0;
}

extern "C" void *__respec_grid_workspace(void) {
  return currentWorkspace.load(std::memory_order_acquire);
}

extern "C" void __respec_acquire_poll(void) {
  if (oversubscribed.load(std::memory_order_relaxed))
    sched_yield();
}

namespace {

/// The most blocks of `kernel` a cooperative launch may have: as many as a
/// GPU with this many multiprocessors holds at once, and no more than an
/// OpenMP team may have threads.
uint64_t cooperativeGridLimit(const KernelInfo &kernel, dim3 block,
                              size_t sharedMem) {
  uint64_t perMultiprocessor = residentBlocksPerMultiprocessor(
      int(block.x * block.y * block.z),
      kernel.entry->staticSharedBytes + sharedMem);
  uint64_t limit =
      perMultiprocessor * uint64_t(deviceProperties().multiProcessorCount);
  return std::min(limit, teamLimit());
}

// The blocks of a cooperative launch wait for each other at grid barriers,
// so all of them must run at once: the launch function runs on a team of
// as many OpenMP threads as the grid has blocks, and the compiler gives a
// kernel that synchronizes its grid a static schedule (one block per
// thread) and never merges its blocks. A grid of more blocks than cores
// oversubscribes them, which is correct but slow where blocks spin at the
// barrier; the occupancy API therefore reports one block per core for such
// kernels, which is what programs size cooperative grids from.
void runCooperatively(respec_launch_fn launch, dim3 grid, dim3 block,
                      size_t sharedMem, void **args) {
  std::lock_guard<std::mutex> lock(cooperativeLaunchMutex);
  uint64_t blocks = uint64_t(grid.x) * grid.y * grid.z;
  GridWorkspace workspace{sizeof(GridWorkspace), 0};
  currentWorkspace.store(&workspace, std::memory_order_release);
  oversubscribed.store(
      blocks > uint64_t(std::max(1u, std::thread::hardware_concurrency())),
      std::memory_order_relaxed);
  {
    std::optional<CooperativeTeam> team;
    if (haveOpenMP())
      team.emplace(int(blocks));
    launch(grid.x, grid.y, grid.z, block.x, block.y, block.z, sharedMem, args);
  }
  oversubscribed.store(false, std::memory_order_relaxed);
  currentWorkspace.store(nullptr, std::memory_order_release);
}

} // namespace

cudaError_t respec::launchKernel(const void *func, dim3 grid, dim3 block,
                                 void **args, size_t sharedMem,
                                 cudaStream_t stream, bool cooperative,
                                 const char *call) {
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
  uint64_t blocks = uint64_t(grid.x) * grid.y * grid.z;
  if (cooperative) {
    uint64_t limit = cooperativeGridLimit(*kernel, block, sharedMem);
    if (blocks > limit)
      return reportError(cudaErrorCooperativeLaunchTooLarge, call,
                         "a grid of %llu blocks; at most %llu blocks of this "
                         "kernel can run at once",
                         (unsigned long long)blocks,
                         (unsigned long long)limit);
  }
  const respec_kernel_entry &entry = *kernel->entry;
  auto arguments = std::make_shared<KernelArguments>(entry, args);
  respec_launch_fn launch = entry.launch;
  bool syncsGrid = entry.flags & RESPEC_KERNEL_SYNCS_GRID;
  const char *name = entry.name;
  // What a captured launch's graph node reports (the argument copies live
  // as long as the node's work).
  cudaKernelNodeParams params{};
  params.func = const_cast<void *>(func);
  params.gridDim = grid;
  params.blockDim = block;
  params.sharedMemBytes = unsigned(sharedMem);
  params.kernelParams = arguments->data();
  return enqueueOnStream(
      stream, call,
      [=] {
        KernelFaultScope faults(name);
        if (cooperative) {
          runCooperatively(launch, grid, block, sharedMem, arguments->data());
          return;
        }
        if (syncsGrid)
          ++ordinaryGridSyncLaunches;
        launch(grid.x, grid.y, grid.z, block.x, block.y, block.z, sharedMem,
               arguments->data());
        if (syncsGrid)
          --ordinaryGridSyncLaunches;
      },
      Placement::InlineWhenIdle, &params);
}

extern "C" cudaError_t cudaFuncGetName(const char **name, const void *func) {
  if (!name || !func)
    return reportError(cudaErrorInvalidValue, "cudaFuncGetName");
  const KernelInfo *kernel = nullptr;
  cudaError_t status = findKernel(func, "cudaFuncGetName", &kernel);
  if (status != cudaSuccess)
    return status;
  // As CUDA: the kernel's mangled name.
  *name = kernel->entry->name;
  return cudaSuccess;
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
  // The blocks of a kernel that synchronizes its grid each need a thread
  // of their own (cooperative launches): one per core runs best.
  bool syncsGrid = kernel->entry->flags & RESPEC_KERNEL_SYNCS_GRID;
  *numBlocks =
      blockSize > maxThreadsPerBlockOf(*kernel) ? 0
      : syncsGrid
          ? 1
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
