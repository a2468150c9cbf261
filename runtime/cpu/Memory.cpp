//===- Memory.cpp - Allocation, memset and pointer queries ----------------===//

#include "../common/Backend.h"
#include "../common/Diagnostics.h"
#include "../common/ModuleRegistry.h"
#include "Allocations.h"
#include "MemoryPools.h"
#include "Streams.h"
#include "WorkQueue.h"

#include <cstring>
#include <unistd.h>

using namespace respec;
using namespace respec::cpu;

namespace {

/// CUDA pads pitched allocations to its texture pitch alignment.
constexpr size_t pitchAlignment = 512;

size_t roundUp(size_t value, size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

/// The pitch of rows of `width` bytes: the texture alignment, and not a
/// multiple of 4 KiB. Rows a multiple of 4 KiB apart put a tile's rows in
/// one L1 set, and x86 cores hold a load back behind an earlier store to
/// another row at the same offset ("4K aliasing", see Allocations.cpp);
/// CUDA leaves the pitch to the implementation.
size_t rowPitch(size_t width) {
  size_t pitch = roundUp(width ? width : 1, pitchAlignment);
  return pitch % aliasingPeriod == 0 ? pitch + pitchAlignment : pitch;
}

cudaError_t allocateInto(void **ptr, size_t size, AllocationKind kind,
                         unsigned flags, const char *call) {
  if (!ptr)
    return reportError(cudaErrorInvalidValue, call, "null result pointer");
  if (size == 0) { // CUDA succeeds and returns null for empty allocations.
    *ptr = nullptr;
    return cudaSuccess;
  }
  *ptr = allocate(size, kind, flags);
  if (!*ptr)
    return reportError(cudaErrorMemoryAllocation, call, "%zu bytes", size);
  return cudaSuccess;
}

cudaError_t releaseKind(void *ptr, AllocationKind kind, const char *call) {
  if (!ptr)
    return cudaSuccess;
  // Freeing synchronizes with the device, as in CUDA, so no queued kernel
  // or copy still uses the memory.
  waitForAllWork();
  if (!release(ptr, kind))
    return reportError(cudaErrorInvalidValue, call,
                       "%p was not returned by the matching allocation call",
                       ptr);
  forgetPoolAllocation(ptr);
  return cudaSuccess;
}

/// Fills `height` rows of `width` bytes, `pitch` bytes apart.
void fillRows(char *base, size_t pitch, int value, size_t width,
              size_t height) {
  for (size_t row = 0; row < height; ++row)
    std::memset(base + row * pitch, value, width);
}

} // namespace

cudaError_t respec::memset2D(void *devPtr, size_t pitch, int value,
                             size_t width, size_t height, Ordering order,
                             const char *call) {
  if (width == 0 || height == 0)
    return cudaSuccess;
  if (!devPtr || width > pitch)
    return reportError(cudaErrorInvalidValue, call);
  auto work = [=] {
    fillRows(static_cast<char *>(devPtr), pitch, value, width, height);
  };
  return order.async ? enqueueOnStream(order.stream, call, work)
                     : runOnStreamAndWait(order.stream, call, work);
}

cudaError_t respec::memset3D(cudaPitchedPtr ptr, int value, cudaExtent extent,
                             Ordering order, const char *call) {
  if (extent.width == 0 || extent.height == 0 || extent.depth == 0)
    return cudaSuccess;
  if (!ptr.ptr || extent.width > ptr.pitch)
    return reportError(cudaErrorInvalidValue, call);
  size_t sliceRows = ptr.ysize ? ptr.ysize : extent.height;
  auto work = [=] {
    for (size_t slice = 0; slice < extent.depth; ++slice)
      fillRows(static_cast<char *>(ptr.ptr) + slice * sliceRows * ptr.pitch,
               ptr.pitch, value, extent.width, extent.height);
  };
  return order.async ? enqueueOnStream(order.stream, call, work)
                     : runOnStreamAndWait(order.stream, call, work);
}

extern "C" cudaError_t cudaMalloc(void **devPtr, size_t size) {
  return allocateInto(devPtr, size, AllocationKind::Device, 0, "cudaMalloc");
}

extern "C" cudaError_t cudaMallocManaged(void **devPtr, size_t size,
                                         unsigned int flags) {
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
    return reportError(cudaErrorInvalidValue, "cudaMallocManaged");
  return allocateInto(devPtr, size, AllocationKind::Managed, flags,
                      "cudaMallocManaged");
}

extern "C" cudaError_t cudaMallocHost(void **ptr, size_t size) {
  return allocateInto(ptr, size, AllocationKind::PinnedHost, 0,
                      "cudaMallocHost");
}

extern "C" cudaError_t cudaHostAlloc(void **pHost, size_t size,
                                     unsigned int flags) {
  constexpr unsigned knownFlags =
      cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined;
  if (flags & ~knownFlags)
    return reportError(cudaErrorInvalidValue, "cudaHostAlloc");
  return allocateInto(pHost, size, AllocationKind::PinnedHost, flags,
                      "cudaHostAlloc");
}

extern "C" cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch,
                                       size_t width, size_t height) {
  if (!pitch)
    return reportError(cudaErrorInvalidValue, "cudaMallocPitch");
  *pitch = rowPitch(width);
  return allocateInto(devPtr, *pitch * height, AllocationKind::Device, 0,
                      "cudaMallocPitch");
}

extern "C" cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr,
                                    struct cudaExtent extent) {
  if (!pitchedDevPtr)
    return reportError(cudaErrorInvalidValue, "cudaMalloc3D");
  size_t pitch = rowPitch(extent.width);
  void *ptr = nullptr;
  cudaError_t status = allocateInto(&ptr, pitch * extent.height * extent.depth,
                                    AllocationKind::Device, 0, "cudaMalloc3D");
  if (status != cudaSuccess)
    return status;
  *pitchedDevPtr = make_cudaPitchedPtr(ptr, pitch, extent.width, extent.height);
  return cudaSuccess;
}

extern "C" cudaError_t cudaFree(void *devPtr) {
  return releaseKind(devPtr, AllocationKind::Device, "cudaFree");
}

extern "C" cudaError_t cudaFreeHost(void *ptr) {
  return releaseKind(ptr, AllocationKind::PinnedHost, "cudaFreeHost");
}

extern "C" cudaError_t cudaHostRegister(void *ptr, size_t size,
                                        unsigned int flags) {
  constexpr unsigned knownFlags =
      cudaHostRegisterPortable | cudaHostRegisterMapped |
      cudaHostRegisterIoMemory | cudaHostRegisterReadOnly;
  if (!ptr || size == 0 || (flags & ~knownFlags))
    return reportError(cudaErrorInvalidValue, "cudaHostRegister");
  Allocation existing;
  if (findAllocation(ptr, &existing) ||
      findAllocation(static_cast<char *>(ptr) + size - 1, &existing))
    return reportError(cudaErrorHostMemoryAlreadyRegistered,
                       "cudaHostRegister");
  if (!registerRange(ptr, size, flags))
    return reportError(cudaErrorHostMemoryAlreadyRegistered,
                       "cudaHostRegister");
  return cudaSuccess;
}

/// Registers a `__managed__` variable: as any device variable for the
/// symbol API, and as managed memory for cudaPointerGetAttributes. The back
/// end has merged the variable with its host shadow, so `hostVar` is the
/// object kernels use too.
extern "C" void __respec_register_managed_var(void **handle, char *hostVar,
                                              char *deviceAddress,
                                              const char *deviceName, int ext,
                                              size_t size, int constant,
                                              int global) {
  __cudaRegisterVar(handle, hostVar, deviceAddress, deviceName, ext, size,
                    constant, global);
  registerRange(hostVar, size, 0, AllocationKind::ManagedVariable);
}

extern "C" cudaError_t cudaHostUnregister(void *ptr) {
  if (!unregisterRange(ptr))
    return reportError(cudaErrorHostMemoryNotRegistered, "cudaHostUnregister");
  return cudaSuccess;
}

extern "C" cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost,
                                                unsigned int flags) {
  Allocation found;
  if (!pDevice || flags != 0 || !findAllocation(pHost, &found) ||
      (found.kind != AllocationKind::PinnedHost &&
       found.kind != AllocationKind::RegisteredHost))
    return reportError(cudaErrorInvalidValue, "cudaHostGetDevicePointer");
  // Host and device share one address space on the CPU.
  *pDevice = pHost;
  return cudaSuccess;
}

extern "C" cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost) {
  Allocation found;
  if (!pFlags || !findAllocation(pHost, &found) ||
      (found.kind != AllocationKind::PinnedHost &&
       found.kind != AllocationKind::RegisteredHost))
    return reportError(cudaErrorInvalidValue, "cudaHostGetFlags");
  *pFlags = found.flags;
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemGetInfo(size_t *free, size_t *total) {
  long pageSize = sysconf(_SC_PAGESIZE);
  if (free)
    *free = static_cast<size_t>(sysconf(_SC_AVPHYS_PAGES)) * pageSize;
  if (total)
    *total = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * pageSize;
  return cudaSuccess;
}

extern "C" cudaError_t
cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
                         const void *ptr) {
  if (!attributes)
    return reportError(cudaErrorInvalidValue, "cudaPointerGetAttributes");
  std::memset(attributes, 0, sizeof(*attributes));
  Allocation found;
  if (!ptr || !findAllocation(ptr, &found)) {
    attributes->type = cudaMemoryTypeUnregistered;
    attributes->device = cudaInvalidDeviceId;
    return cudaSuccess;
  }
  void *address = const_cast<void *>(ptr);
  attributes->device = 0;
  attributes->devicePointer = address;
  switch (found.kind) {
  case AllocationKind::Device:
    attributes->type = cudaMemoryTypeDevice;
    break;
  case AllocationKind::Managed:
  case AllocationKind::ManagedVariable:
    attributes->type = cudaMemoryTypeManaged;
    attributes->hostPointer = address;
    break;
  case AllocationKind::PinnedHost:
  case AllocationKind::RegisteredHost:
    attributes->type = cudaMemoryTypeHost;
    attributes->hostPointer = address;
    break;
  }
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemPrefetchAsync(const void *, size_t,
                                            struct cudaMemLocation,
                                            unsigned int, cudaStream_t) {
  // Managed memory is host memory: there is nothing to move. No parameter is
  // read, so callers built against CUDA 12's signature (ptr, count, device,
  // stream), whose stream sits in another argument slot, work too.
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemAdvise(const void *, size_t,
                                     enum cudaMemoryAdvise advice,
                                     struct cudaMemLocation) {
  if (advice < cudaMemAdviseSetReadMostly ||
      advice > cudaMemAdviseUnsetAccessedBy)
    return reportError(cudaErrorInvalidValue, "cudaMemAdvise");
  return cudaSuccess;
}
