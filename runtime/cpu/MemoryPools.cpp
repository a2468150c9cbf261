//===- MemoryPools.cpp - Stream-ordered allocation on the CPU device ------===//
//
// cudaMallocAsync/cudaFreeAsync and memory pools. Host and device share one
// address space, so a pool hands out ordinary allocations (those of
// cudaMalloc, or of cudaMallocHost/cudaMallocManaged for pools placed in
// host or managed memory):
//
//  * the allocation is made when cudaMallocAsync is called, so it is valid
//    from the point in the stream where CUDA makes it valid (and earlier,
//    which a correct program cannot observe);
//  * cudaFreeAsync queues the release behind the stream's earlier work, so
//    kernels and copies queued before it still see the memory;
//  * freed memory goes back to the C library at once, which keeps its own
//    cache of free blocks: a pool's reserved memory is its memory in use,
//    and its release threshold is recorded but has nothing to hold back.
//
// A pool counts its memory in use and the highest it reached, as CUDA's
// cudaMemPoolAttrUsedMem* and cudaMemPoolAttrReservedMem* attributes do.
//
//===----------------------------------------------------------------------===//

#include "MemoryPools.h"
#include "../common/Diagnostics.h"
#include "Allocations.h"
#include "DeviceProperties.h"
#include "Streams.h"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

using namespace respec;
using namespace respec::cpu;

/// The pool behind a cudaMemPool_t.
struct CUmemPoolHandle_st {
  AllocationKind kind = AllocationKind::Device;
  bool isDefault = false;
  /// Destroyed while allocations were outstanding: deleted with the last.
  bool destroyed = false;
  uint64_t releaseThreshold = 0;
  int reuseFollowEventDependencies = 1;
  int reuseAllowOpportunistic = 1;
  int reuseAllowInternalDependencies = 1;
  uint64_t usedBytes = 0;
  uint64_t usedHigh = 0;
  uint64_t reservedHigh = 0;
  size_t outstanding = 0;
};

namespace {

struct PoolAllocation {
  cudaMemPool_t pool;
  size_t size;
};

/// Every pool and every allocation made from one, under one lock: pool
/// calls are rare next to the kernels they feed.
struct PoolRegistry {
  std::mutex mutex;
  CUmemPoolHandle_st defaultPool;
  cudaMemPool_t currentPool = &defaultPool;
  std::unordered_set<cudaMemPool_t> created;
  std::unordered_map<void *, PoolAllocation> allocations;
  /// Memory whose cudaFreeAsync is queued and has not run yet.
  std::unordered_set<void *> pendingFrees;

  PoolRegistry() { defaultPool.isDefault = true; }

  bool isLive(cudaMemPool_t pool) const {
    return pool == &defaultPool || (created.count(pool) && !pool->destroyed);
  }
};

PoolRegistry &registry() {
  static PoolRegistry *pools = new PoolRegistry; // used until exit
  return *pools;
}

/// The kind of allocation a pool placed at `location` hands out, or false
/// where respec's single device has no such place.
bool poolKindFor(const cudaMemPoolProps &props, AllocationKind *kind) {
  const cudaMemLocation &location = props.location;
  if (props.allocType == cudaMemAllocationTypeManaged) {
    *kind = AllocationKind::Managed;
    return location.type == cudaMemLocationTypeNone ||
           location.type == cudaMemLocationTypeHost ||
           (location.type == cudaMemLocationTypeDevice && location.id == 0);
  }
  if (props.allocType != cudaMemAllocationTypePinned)
    return false;
  switch (location.type) {
  case cudaMemLocationTypeDevice:
    *kind = AllocationKind::Device;
    return location.id == 0;
  case cudaMemLocationTypeHost:
  case cudaMemLocationTypeHostNuma:
  case cudaMemLocationTypeHostNumaCurrent:
    *kind = AllocationKind::PinnedHost;
    return true;
  default:
    return false;
  }
}

/// Allocations in a stream capture are a graph's memory nodes, allocated and
/// freed at every launch; respec allocates at the call, so it cannot
/// replay them.
cudaError_t refuseCapturedAllocation(const char *call) {
  return reportError(cudaErrorStreamCaptureUnsupported, call,
                     "stream-ordered allocation in a stream capture (graph "
                     "memory nodes) is not supported by respec");
}

cudaError_t allocateFromPool(void **ptr, size_t size, cudaMemPool_t pool,
                             cudaStream_t stream, const char *call) {
  if (!ptr)
    return reportError(cudaErrorInvalidValue, call, "null result pointer");
  if (!isValidStream(stream))
    return reportError(cudaErrorInvalidResourceHandle, call,
                       "%p is not a stream", static_cast<void *>(stream));
  if (isCapturing(stream))
    return refuseCapturedAllocation(call);
  PoolRegistry &pools = registry();
  std::lock_guard<std::mutex> lock(pools.mutex);
  if (!pool)
    pool = pools.currentPool;
  if (!pools.isLive(pool))
    return reportError(cudaErrorInvalidValue, call, "%p is not a memory pool",
                       static_cast<void *>(pool));
  if (size == 0) { // As cudaMalloc: success and a null pointer.
    *ptr = nullptr;
    return cudaSuccess;
  }
  *ptr = allocate(size, pool->kind, 0);
  if (!*ptr)
    return reportError(cudaErrorMemoryAllocation, call, "%zu bytes", size);
  pools.allocations[*ptr] = {pool, size};
  pool->usedBytes += size;
  pool->usedHigh = std::max(pool->usedHigh, pool->usedBytes);
  pool->reservedHigh = std::max(pool->reservedHigh, pool->usedBytes);
  ++pool->outstanding;
  return cudaSuccess;
}

/// Stops counting `allocation` in its pool (under the registry's lock);
/// the last allocation of a destroyed pool deletes it.
void uncount(PoolRegistry &pools, PoolAllocation allocation) {
  cudaMemPool_t pool = allocation.pool;
  pool->usedBytes -= allocation.size;
  if (--pool->outstanding == 0 && pool->destroyed) {
    pools.created.erase(pool);
    delete pool;
  }
}

/// Gives memory back in stream order (on the stream's worker): a pool
/// allocation, or cudaMalloc's memory where `allocation` has no pool.
void releaseQueued(void *ptr, PoolAllocation allocation) {
  release(ptr,
          allocation.pool ? allocation.pool->kind : AllocationKind::Device);
  PoolRegistry &pools = registry();
  std::lock_guard<std::mutex> lock(pools.mutex);
  pools.pendingFrees.erase(ptr);
  if (allocation.pool)
    uncount(pools, allocation);
}

/// Reads or writes one attribute; `write` selects which.
cudaError_t accessAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute,
                            void *value, bool write, const char *call) {
  int *flag = nullptr;
  switch (attribute) {
  case cudaMemPoolReuseFollowEventDependencies:
    flag = &pool->reuseFollowEventDependencies;
    break;
  case cudaMemPoolReuseAllowOpportunistic:
    flag = &pool->reuseAllowOpportunistic;
    break;
  case cudaMemPoolReuseAllowInternalDependencies:
    flag = &pool->reuseAllowInternalDependencies;
    break;
  default:
    break;
  }
  if (flag) {
    if (write)
      *flag = *static_cast<int *>(value) != 0;
    else
      *static_cast<int *>(value) = *flag;
    return cudaSuccess;
  }
  auto *number = static_cast<uint64_t *>(value);
  switch (attribute) {
  case cudaMemPoolAttrReleaseThreshold:
    if (write)
      pool->releaseThreshold = *number;
    else
      *number = pool->releaseThreshold;
    return cudaSuccess;
  case cudaMemPoolAttrReservedMemCurrent:
  case cudaMemPoolAttrUsedMemCurrent:
    if (write)
      break;
    *number = pool->usedBytes;
    return cudaSuccess;
  case cudaMemPoolAttrReservedMemHigh:
  case cudaMemPoolAttrUsedMemHigh: {
    uint64_t &high = attribute == cudaMemPoolAttrUsedMemHigh
                         ? pool->usedHigh
                         : pool->reservedHigh;
    if (!write) {
      *number = high;
      return cudaSuccess;
    }
    // The only value CUDA accepts: 0, which resets the mark to the
    // current use.
    if (*number != 0)
      break;
    high = pool->usedBytes;
    return cudaSuccess;
  }
  default:
    break;
  }
  return reportError(cudaErrorInvalidValue, call, "attribute %d",
                     static_cast<int>(attribute));
}

cudaError_t poolAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute,
                          void *value, bool write, const char *call) {
  if (!value)
    return reportError(cudaErrorInvalidValue, call, "null value pointer");
  PoolRegistry &pools = registry();
  std::lock_guard<std::mutex> lock(pools.mutex);
  if (!pools.isLive(pool))
    return reportError(cudaErrorInvalidValue, call, "%p is not a memory pool",
                       static_cast<void *>(pool));
  return accessAttribute(pool, attribute, value, write, call);
}

} // namespace

void respec::cpu::forgetPoolAllocation(void *ptr) {
  PoolRegistry &pools = registry();
  std::lock_guard<std::mutex> lock(pools.mutex);
  auto found = pools.allocations.find(ptr);
  if (found == pools.allocations.end())
    return;
  uncount(pools, found->second);
  pools.allocations.erase(found);
}

extern "C" cudaError_t cudaMallocAsync(void **devPtr, size_t size,
                                       cudaStream_t hStream) {
  return allocateFromPool(devPtr, size, nullptr, hStream, "cudaMallocAsync");
}

extern "C" cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size,
                                               cudaMemPool_t memPool,
                                               cudaStream_t stream) {
  if (!memPool)
    return reportError(cudaErrorInvalidValue, "cudaMallocFromPoolAsync",
                       "null memory pool");
  return allocateFromPool(ptr, size, memPool, stream,
                          "cudaMallocFromPoolAsync");
}

extern "C" cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream) {
  const char *call = "cudaFreeAsync";
  if (!devPtr)
    return cudaSuccess;
  if (!isValidStream(hStream))
    return reportError(cudaErrorInvalidResourceHandle, call,
                       "%p is not a stream", static_cast<void *>(hStream));
  if (isCapturing(hStream))
    return refuseCapturedAllocation(call);
  PoolAllocation allocation{};
  {
    PoolRegistry &pools = registry();
    std::lock_guard<std::mutex> lock(pools.mutex);
    auto found = pools.allocations.find(devPtr);
    Allocation plain;
    if (found != pools.allocations.end()) {
      allocation = found->second;
      pools.allocations.erase(found);
    } else if (pools.pendingFrees.count(devPtr) ||
               !findAllocation(devPtr, &plain) || plain.base != devPtr ||
               plain.kind != AllocationKind::Device) {
      // CUDA also frees cudaMalloc's memory in stream order.
      return reportError(cudaErrorInvalidValue, call,
                         "%p was not returned by cudaMallocAsync or "
                         "cudaMalloc, or is freed already",
                         devPtr);
    }
    // Marked now, so that a second free of it is an error at its call.
    pools.pendingFrees.insert(devPtr);
  }
  return enqueueOnStream(hStream, call, [devPtr, allocation] {
    releaseQueued(devPtr, allocation);
  });
}

extern "C" cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool,
                                                   int device) {
  if (!memPool)
    return reportError(cudaErrorInvalidValue, "cudaDeviceGetDefaultMemPool");
  if (!isValidDevice(device))
    return reportError(cudaErrorInvalidDevice, "cudaDeviceGetDefaultMemPool",
                       "device %d", device);
  *memPool = &registry().defaultPool;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool,
                                            int device) {
  if (!memPool)
    return reportError(cudaErrorInvalidValue, "cudaDeviceGetMemPool");
  if (!isValidDevice(device))
    return reportError(cudaErrorInvalidDevice, "cudaDeviceGetMemPool",
                       "device %d", device);
  PoolRegistry &pools = registry();
  std::lock_guard<std::mutex> lock(pools.mutex);
  *memPool = pools.currentPool;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
  const char *call = "cudaDeviceSetMemPool";
  if (!isValidDevice(device))
    return reportError(cudaErrorInvalidDevice, call, "device %d", device);
  PoolRegistry &pools = registry();
  std::lock_guard<std::mutex> lock(pools.mutex);
  // The device's current pool must be placed on the device.
  if (!pools.isLive(memPool) || memPool->kind != AllocationKind::Device)
    return reportError(cudaErrorInvalidValue, call,
                       "%p is not a memory pool of device 0",
                       static_cast<void *>(memPool));
  pools.currentPool = memPool;
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool,
                                         const cudaMemPoolProps *poolProps) {
  const char *call = "cudaMemPoolCreate";
  AllocationKind kind;
  if (!memPool || !poolProps || !poolKindFor(*poolProps, &kind))
    return reportError(cudaErrorInvalidValue, call,
                       "respec's pools are pinned memory on device 0 or the "
                       "host, or managed memory");
  auto *pool = new CUmemPoolHandle_st;
  pool->kind = kind;
  PoolRegistry &pools = registry();
  std::lock_guard<std::mutex> lock(pools.mutex);
  pools.created.insert(pool);
  *memPool = pool;
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool) {
  PoolRegistry &pools = registry();
  std::lock_guard<std::mutex> lock(pools.mutex);
  if (!pools.isLive(memPool) || memPool->isDefault)
    return reportError(cudaErrorInvalidValue, "cudaMemPoolDestroy",
                       "%p is not a pool cudaMemPoolCreate made",
                       static_cast<void *>(memPool));
  if (pools.currentPool == memPool)
    pools.currentPool = &pools.defaultPool;
  // Allocations still out keep the pool until they are freed, as in CUDA.
  if (memPool->outstanding > 0) {
    memPool->destroyed = true;
    return cudaSuccess;
  }
  pools.created.erase(memPool);
  delete memPool;
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t) {
  PoolRegistry &pools = registry();
  std::lock_guard<std::mutex> lock(pools.mutex);
  if (!pools.isLive(memPool))
    return reportError(cudaErrorInvalidValue, "cudaMemPoolTrimTo",
                       "%p is not a memory pool", static_cast<void *>(memPool));
  // Freed memory went back to the C library when it was freed.
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool,
                                               enum cudaMemPoolAttr attr,
                                               void *value) {
  return poolAttribute(memPool, attr, value, /*write=*/true,
                       "cudaMemPoolSetAttribute");
}

extern "C" cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool,
                                               enum cudaMemPoolAttr attr,
                                               void *value) {
  return poolAttribute(memPool, attr, value, /*write=*/false,
                       "cudaMemPoolGetAttribute");
}

extern "C" cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool,
                                            const cudaMemAccessDesc *descList,
                                            size_t count) {
  const char *call = "cudaMemPoolSetAccess";
  PoolRegistry &pools = registry();
  std::lock_guard<std::mutex> lock(pools.mutex);
  if (!pools.isLive(memPool) || (count && !descList))
    return reportError(cudaErrorInvalidValue, call);
  // One device, which always reads and writes its pools' memory.
  for (size_t i = 0; i < count; ++i) {
    const cudaMemAccessDesc &desc = descList[i];
    if (desc.location.type != cudaMemLocationTypeDevice ||
        !isValidDevice(desc.location.id))
      return reportError(cudaErrorInvalidDevice, call);
    if (desc.flags != cudaMemAccessFlagsProtReadWrite)
      return reportError(cudaErrorInvalidValue, call,
                         "device 0's access to its pools is read-write");
  }
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags,
                                            cudaMemPool_t memPool,
                                            cudaMemLocation *location) {
  const char *call = "cudaMemPoolGetAccess";
  PoolRegistry &pools = registry();
  std::lock_guard<std::mutex> lock(pools.mutex);
  if (!flags || !location || !pools.isLive(memPool))
    return reportError(cudaErrorInvalidValue, call);
  if (location->type != cudaMemLocationTypeDevice ||
      !isValidDevice(location->id))
    return reportError(cudaErrorInvalidDevice, call);
  *flags = cudaMemAccessFlagsProtReadWrite;
  return cudaSuccess;
}
