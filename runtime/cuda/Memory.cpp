//===- Memory.cpp - Allocation, memset and pointer queries on the GPU -----===//
//
// The runtime's allocation flags (cudaHostAlloc*, cudaHostRegister*,
// cudaMemAttach*) have the same values as the driver's, so they are passed
// through unchanged.
//
//===----------------------------------------------------------------------===//

#include "../common/Backend.h"
#include "../common/Diagnostics.h"
#include "Context.h"

#include <cstring>

using namespace respec;
using namespace respec::gpu;

namespace {

/// The element size cudaMallocPitch's rows are aligned for: the widest
/// access a kernel makes (16-byte vectors), so every access stays
/// coalesced.
constexpr unsigned pitchElementBytes = 16;

cudaError_t allocateDevice(void **ptr, size_t size, const char *call) {
  if (!ptr)
    return reportError(cudaErrorInvalidValue, call, "null result pointer");
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  if (size == 0) { // CUDA succeeds and returns null for empty allocations.
    *ptr = nullptr;
    return cudaSuccess;
  }
  CUdeviceptr address = 0;
  status = checkDriver(driver().memAlloc(&address, size), call);
  *ptr = status == cudaSuccess ? fromDevicePtr(address) : nullptr;
  return status;
}

cudaError_t allocatePitched(void **ptr, size_t *pitch, size_t width,
                            size_t height, const char *call) {
  if (!ptr || !pitch)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  if (width == 0 || height == 0) {
    *ptr = nullptr;
    *pitch = width;
    return cudaSuccess;
  }
  CUdeviceptr address = 0;
  status = checkDriver(
      driver().memAllocPitch(&address, pitch, width, height, pitchElementBytes),
      call);
  *ptr = status == cudaSuccess ? fromDevicePtr(address) : nullptr;
  return status;
}

} // namespace

cudaError_t respec::memset2D(void *devPtr, size_t pitch, int value,
                             size_t width, size_t height, Ordering order,
                             const char *call) {
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess || width == 0 || height == 0)
    return status;
  if (!devPtr || width > pitch)
    return reportError(cudaErrorInvalidValue, call);
  const DriverApi &api = driver();
  auto byte = static_cast<unsigned char>(value);
  CUdeviceptr dst = toDevicePtr(devPtr);
  bool sync = !order.async && !order.stream;
  CUstream stream = toDriverStream(order.stream);
  if (height == 1)
    return checkDriver(sync ? api.memsetD8(dst, byte, width)
                            : api.memsetD8Async(dst, byte, width, stream),
                       call);
  return checkDriver(
      sync ? api.memsetD2D8(dst, pitch, byte, width, height)
           : api.memsetD2D8Async(dst, pitch, byte, width, height, stream),
      call);
}

cudaError_t respec::memset3D(cudaPitchedPtr ptr, int value, cudaExtent extent,
                             Ordering order, const char *call) {
  if (extent.width == 0 || extent.height == 0 || extent.depth == 0)
    return enterContext(call);
  if (!ptr.ptr || extent.width > ptr.pitch)
    return reportError(cudaErrorInvalidValue, call);
  // A pitched pointer's ysize is its slice height in rows.
  size_t sliceBytes = (ptr.ysize ? ptr.ysize : extent.height) * ptr.pitch;
  for (size_t slice = 0; slice < extent.depth; ++slice) {
    cudaError_t status =
        memset2D(static_cast<char *>(ptr.ptr) + slice * sliceBytes, ptr.pitch,
                 value, extent.width, extent.height, order, call);
    if (status != cudaSuccess)
      return status;
  }
  return cudaSuccess;
}

namespace {

/// The driver's device for a cudaMemLocation (CU_DEVICE_CPU for the host).
bool toDriverLocation(cudaMemLocation location, CUdevice *device) {
  switch (location.type) {
  case cudaMemLocationTypeDevice:
    if (location.id < 0 || location.id >= deviceCount())
      return false;
    *device = deviceHandle(location.id);
    return true;
  case cudaMemLocationTypeHost:
    *device = CU_DEVICE_CPU;
    return true;
  default:
    return false;
  }
}

} // namespace

extern "C" cudaError_t cudaMalloc(void **devPtr, size_t size) {
  return allocateDevice(devPtr, size, "cudaMalloc");
}

extern "C" cudaError_t cudaMallocManaged(void **devPtr, size_t size,
                                         unsigned int flags) {
  const char *call = "cudaMallocManaged";
  if (!devPtr || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  *devPtr = nullptr;
  if (size == 0)
    return cudaSuccess;
  CUdeviceptr address = 0;
  status = checkDriver(driver().memAllocManaged(&address, size, flags), call);
  if (status == cudaSuccess)
    *devPtr = fromDevicePtr(address);
  return status;
}

extern "C" cudaError_t cudaMallocHost(void **ptr, size_t size) {
  const char *call = "cudaMallocHost";
  if (!ptr)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  *ptr = nullptr;
  if (size == 0)
    return cudaSuccess;
  return checkDriver(driver().memAllocHost(ptr, size), call);
}

extern "C" cudaError_t cudaHostAlloc(void **pHost, size_t size,
                                     unsigned int flags) {
  const char *call = "cudaHostAlloc";
  constexpr unsigned knownFlags =
      cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined;
  if (!pHost || (flags & ~knownFlags))
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  *pHost = nullptr;
  if (size == 0)
    return cudaSuccess;
  return checkDriver(driver().memHostAlloc(pHost, size, flags), call);
}

extern "C" cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch,
                                       size_t width, size_t height) {
  return allocatePitched(devPtr, pitch, width, height, "cudaMallocPitch");
}

extern "C" cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr,
                                    struct cudaExtent extent) {
  if (!pitchedDevPtr)
    return reportError(cudaErrorInvalidValue, "cudaMalloc3D");
  void *ptr = nullptr;
  size_t pitch = 0;
  cudaError_t status = allocatePitched(
      &ptr, &pitch, extent.width, extent.height * extent.depth, "cudaMalloc3D");
  if (status == cudaSuccess)
    *pitchedDevPtr =
        make_cudaPitchedPtr(ptr, pitch, extent.width, extent.height);
  return status;
}

extern "C" cudaError_t cudaFree(void *devPtr) {
  // cudaFree(nullptr) is the idiomatic way to create the context early: it
  // must initialize, then succeed.
  cudaError_t status = enterContext("cudaFree");
  if (status != cudaSuccess || !devPtr)
    return status;
  return checkDriver(driver().memFree(toDevicePtr(devPtr)), "cudaFree");
}

extern "C" cudaError_t cudaFreeHost(void *ptr) {
  cudaError_t status = enterContext("cudaFreeHost");
  if (status != cudaSuccess || !ptr)
    return status;
  return checkDriver(driver().memFreeHost(ptr), "cudaFreeHost");
}

extern "C" cudaError_t cudaHostRegister(void *ptr, size_t size,
                                        unsigned int flags) {
  const char *call = "cudaHostRegister";
  constexpr unsigned knownFlags =
      cudaHostRegisterPortable | cudaHostRegisterMapped |
      cudaHostRegisterIoMemory | cudaHostRegisterReadOnly;
  if (!ptr || size == 0 || (flags & ~knownFlags))
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().memHostRegister(ptr, size, flags), call);
}

extern "C" cudaError_t cudaHostUnregister(void *ptr) {
  const char *call = "cudaHostUnregister";
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().memHostUnregister(ptr), call);
}

extern "C" cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost,
                                                unsigned int flags) {
  const char *call = "cudaHostGetDevicePointer";
  if (!pDevice || flags != 0)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  CUdeviceptr address = 0;
  status =
      checkDriver(driver().memHostGetDevicePointer(&address, pHost, 0), call);
  if (status == cudaSuccess)
    *pDevice = fromDevicePtr(address);
  return status;
}

extern "C" cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost) {
  const char *call = "cudaHostGetFlags";
  if (!pFlags)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().memHostGetFlags(pFlags, pHost), call);
}

extern "C" cudaError_t cudaMemGetInfo(size_t *free, size_t *total) {
  const char *call = "cudaMemGetInfo";
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  size_t freeBytes = 0, totalBytes = 0;
  status = checkDriver(driver().memGetInfo(&freeBytes, &totalBytes), call);
  if (free)
    *free = freeBytes;
  if (total)
    *total = totalBytes;
  return status;
}

extern "C" cudaError_t
cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
                         const void *ptr) {
  const char *call = "cudaPointerGetAttributes";
  if (!attributes)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  std::memset(attributes, 0, sizeof(*attributes));
  const DriverApi &api = driver();
  CUdeviceptr address = toDevicePtr(ptr);
  unsigned memoryType = 0;
  // Memory the driver does not know (pageable host memory) is reported as
  // unregistered, with success, as CUDA 11 and later do.
  if (!ptr ||
      api.pointerGetAttribute(&memoryType, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                              address) != CUDA_SUCCESS) {
    attributes->type = cudaMemoryTypeUnregistered;
    attributes->device = cudaInvalidDeviceId;
    return cudaSuccess;
  }
  unsigned isManaged = 0;
  api.pointerGetAttribute(&isManaged, CU_POINTER_ATTRIBUTE_IS_MANAGED, address);
  if (isManaged)
    attributes->type = cudaMemoryTypeManaged;
  else if (memoryType == CU_MEMORYTYPE_HOST)
    attributes->type = cudaMemoryTypeHost;
  else
    attributes->type = cudaMemoryTypeDevice;
  int ordinal = 0;
  if (api.pointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                              address) == CUDA_SUCCESS)
    attributes->device = ordinal;
  CUdeviceptr devicePointer = 0;
  if (api.pointerGetAttribute(&devicePointer,
                              CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
                              address) == CUDA_SUCCESS)
    attributes->devicePointer = fromDevicePtr(devicePointer);
  void *hostPointer = nullptr;
  if (api.pointerGetAttribute(&hostPointer, CU_POINTER_ATTRIBUTE_HOST_POINTER,
                              address) == CUDA_SUCCESS)
    attributes->hostPointer = hostPointer;
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                            struct cudaMemLocation location,
                                            unsigned int flags,
                                            cudaStream_t stream) {
  const char *call = "cudaMemPrefetchAsync";
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  CUdevice target = 0;
  if (flags != 0 || !toDriverLocation(location, &target))
    return reportError(cudaErrorInvalidValue, call);
  return checkDriver(driver().memPrefetchAsync(toDevicePtr(devPtr), count,
                                               target, toDriverStream(stream)),
                     call);
}

extern "C" cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
                                     enum cudaMemoryAdvise advice,
                                     struct cudaMemLocation location) {
  const char *call = "cudaMemAdvise";
  if (advice < cudaMemAdviseSetReadMostly ||
      advice > cudaMemAdviseUnsetAccessedBy)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  // Read-mostly advice ignores the location.
  CUdevice target = 0;
  if (!toDriverLocation(location, &target) &&
      advice != cudaMemAdviseSetReadMostly &&
      advice != cudaMemAdviseUnsetReadMostly)
    return reportError(cudaErrorInvalidValue, call);
  // cudaMemoryAdvise and CUmem_advise share their values.
  return checkDriver(
      driver().memAdvise(toDevicePtr(devPtr), count, advice, target), call);
}

//===----------------------------------------------------------------------===//
// Per-thread default stream variants (_ptds, _ptsz): the memset is ordered
// on the calling thread's per-thread stream.
//===----------------------------------------------------------------------===//

extern "C" cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count) {
  return memset2D(devPtr, count, value, count, 1, perThreadSynchronous,
                  "cudaMemset");
}

extern "C" cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value,
                                         size_t width, size_t height) {
  return memset2D(devPtr, pitch, value, width, height, perThreadSynchronous,
                  "cudaMemset2D");
}

extern "C" cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr,
                                         int value, struct cudaExtent extent) {
  return memset3D(pitchedDevPtr, value, extent, perThreadSynchronous,
                  "cudaMemset3D");
}

extern "C" cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value,
                                            size_t count, cudaStream_t stream) {
  return memset2D(devPtr, count, value, count, 1, onPerThreadStream(stream),
                  "cudaMemsetAsync");
}

extern "C" cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch,
                                              int value, size_t width,
                                              size_t height,
                                              cudaStream_t stream) {
  return memset2D(devPtr, pitch, value, width, height,
                  onPerThreadStream(stream), "cudaMemset2DAsync");
}

extern "C" cudaError_t
cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value,
                       struct cudaExtent extent, cudaStream_t stream) {
  return memset3D(pitchedDevPtr, value, extent, onPerThreadStream(stream),
                  "cudaMemset3DAsync");
}

extern "C" cudaError_t
cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count,
                          struct cudaMemLocation location, unsigned int flags,
                          cudaStream_t stream) {
  return cudaMemPrefetchAsync(devPtr, count, location, flags,
                              perThreadDefault(stream));
}

// CUDA 12.2+ headers name the location-taking variants _v2.
extern "C" cudaError_t cudaMemPrefetchAsync_v2(const void *devPtr, size_t count,
                                               struct cudaMemLocation location,
                                               unsigned int flags,
                                               cudaStream_t stream) {
  return cudaMemPrefetchAsync(devPtr, count, location, flags, stream);
}

extern "C" cudaError_t
cudaMemPrefetchAsync_v2_ptsz(const void *devPtr, size_t count,
                             struct cudaMemLocation location,
                             unsigned int flags, cudaStream_t stream) {
  return cudaMemPrefetchAsync(devPtr, count, location, flags,
                              perThreadDefault(stream));
}

extern "C" cudaError_t cudaMemAdvise_v2(const void *devPtr, size_t count,
                                        enum cudaMemoryAdvise advice,
                                        struct cudaMemLocation location) {
  return cudaMemAdvise(devPtr, count, advice, location);
}
