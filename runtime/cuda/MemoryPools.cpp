//===- MemoryPools.cpp - Stream-ordered allocation on the GPU -------------===//
//
// cudaMallocAsync/cudaFreeAsync and memory pools are the driver's
// (cuMemAllocAsync, cuMemPool*): the runtime's pool handles, attributes,
// access flags and pool properties have the driver's values and layouts, so
// they pass through unchanged.
//
//===----------------------------------------------------------------------===//

#include "../common/Diagnostics.h"
#include "Context.h"

using namespace respec;
using namespace respec::gpu;

namespace {

CUmemoryPool toDriverPool(cudaMemPool_t pool) {
  return reinterpret_cast<CUmemoryPool>(pool);
}

cudaMemPool_t fromDriverPool(CUmemoryPool pool) {
  return reinterpret_cast<cudaMemPool_t>(pool);
}

/// The driver's handle of runtime device `device`, or an error of `call`.
cudaError_t deviceFor(int device, const char *call, CUdevice *handle) {
  cudaError_t status = ensureDriver(call);
  if (status != cudaSuccess)
    return status;
  if (device < 0 || device >= deviceCount())
    return reportError(cudaErrorInvalidDevice, call, "device %d", device);
  *handle = deviceHandle(device);
  return cudaSuccess;
}

cudaError_t allocateAsync(void **ptr, size_t size, cudaMemPool_t pool,
                          cudaStream_t stream, const char *call) {
  if (!ptr)
    return reportError(cudaErrorInvalidValue, call, "null result pointer");
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  CUdeviceptr address = 0;
  const DriverApi &api = driver();
  CUresult result =
      pool ? api.memAllocFromPoolAsync(&address, size, toDriverPool(pool),
                                       toDriverStream(stream))
           : api.memAllocAsync(&address, size, toDriverStream(stream));
  status = checkDriver(result, call);
  *ptr = status == cudaSuccess ? fromDevicePtr(address) : nullptr;
  return status;
}

} // namespace

extern "C" cudaError_t cudaMallocAsync(void **devPtr, size_t size,
                                       cudaStream_t hStream) {
  return allocateAsync(devPtr, size, nullptr, hStream, "cudaMallocAsync");
}

extern "C" cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size,
                                               cudaMemPool_t memPool,
                                               cudaStream_t stream) {
  if (!memPool)
    return reportError(cudaErrorInvalidValue, "cudaMallocFromPoolAsync",
                       "null memory pool");
  return allocateAsync(ptr, size, memPool, stream, "cudaMallocFromPoolAsync");
}

extern "C" cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream) {
  const char *call = "cudaFreeAsync";
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(
      driver().memFreeAsync(toDevicePtr(devPtr), toDriverStream(hStream)),
      call);
}

extern "C" cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size,
                                            cudaStream_t hStream) {
  return cudaMallocAsync(devPtr, size, perThreadDefault(hStream));
}

extern "C" cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream) {
  return cudaFreeAsync(devPtr, perThreadDefault(hStream));
}

extern "C" cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size,
                                                    cudaMemPool_t memPool,
                                                    cudaStream_t stream) {
  return cudaMallocFromPoolAsync(ptr, size, memPool, perThreadDefault(stream));
}

namespace {

/// One of device `device`'s pools, read by the driver entry point `get`
/// (its default pool or its current one).
cudaError_t
readDevicePool(cudaMemPool_t *memPool, int device,
               decltype(DriverApi::deviceGetMemPool) DriverApi::*get,
               const char *call) {
  CUdevice handle;
  if (!memPool)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = deviceFor(device, call, &handle);
  if (status != cudaSuccess)
    return status;
  CUmemoryPool pool = nullptr;
  status = checkDriver((driver().*get)(&pool, handle), call);
  *memPool = fromDriverPool(pool);
  return status;
}

} // namespace

extern "C" cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool,
                                                   int device) {
  return readDevicePool(memPool, device, &DriverApi::deviceGetDefaultMemPool,
                        "cudaDeviceGetDefaultMemPool");
}

extern "C" cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool,
                                            int device) {
  return readDevicePool(memPool, device, &DriverApi::deviceGetMemPool,
                        "cudaDeviceGetMemPool");
}

extern "C" cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
  const char *call = "cudaDeviceSetMemPool";
  CUdevice handle;
  cudaError_t status = deviceFor(device, call, &handle);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().deviceSetMemPool(handle, toDriverPool(memPool)),
                     call);
}

extern "C" cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool,
                                         const cudaMemPoolProps *poolProps) {
  const char *call = "cudaMemPoolCreate";
  if (!memPool || !poolProps)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  static_assert(sizeof(cudaMemPoolProps) == sizeof(CUmemPoolProps));
  CUmemoryPool pool = nullptr;
  status = checkDriver(
      driver().memPoolCreate(
          &pool, reinterpret_cast<const CUmemPoolProps *>(poolProps)),
      call);
  *memPool = fromDriverPool(pool);
  return status;
}

extern "C" cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool) {
  const char *call = "cudaMemPoolDestroy";
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().memPoolDestroy(toDriverPool(memPool)), call);
}

extern "C" cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool,
                                         size_t minBytesToKeep) {
  const char *call = "cudaMemPoolTrimTo";
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(
      driver().memPoolTrimTo(toDriverPool(memPool), minBytesToKeep), call);
}

extern "C" cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool,
                                               enum cudaMemPoolAttr attr,
                                               void *value) {
  const char *call = "cudaMemPoolSetAttribute";
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().memPoolSetAttribute(
                         toDriverPool(memPool), static_cast<int>(attr), value),
                     call);
}

extern "C" cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool,
                                               enum cudaMemPoolAttr attr,
                                               void *value) {
  const char *call = "cudaMemPoolGetAttribute";
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().memPoolGetAttribute(
                         toDriverPool(memPool), static_cast<int>(attr), value),
                     call);
}

extern "C" cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool,
                                            const cudaMemAccessDesc *descList,
                                            size_t count) {
  const char *call = "cudaMemPoolSetAccess";
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  static_assert(sizeof(cudaMemAccessDesc) == sizeof(CUmemAccessDesc));
  return checkDriver(driver().memPoolSetAccess(
                         toDriverPool(memPool),
                         reinterpret_cast<const CUmemAccessDesc *>(descList),
                         count),
                     call);
}

extern "C" cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags,
                                            cudaMemPool_t memPool,
                                            cudaMemLocation *location) {
  const char *call = "cudaMemPoolGetAccess";
  if (!flags || !location)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  int driverFlags = 0;
  status = checkDriver(
      driver().memPoolGetAccess(&driverFlags, toDriverPool(memPool),
                                reinterpret_cast<CUmemLocation *>(location)),
      call);
  *flags = static_cast<cudaMemAccessFlags>(driverFlags);
  return status;
}
