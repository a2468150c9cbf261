//===- LegacyApi.cpp - Runtime functions CUDA 13 removed ------------------===//
//
// The thread-named predecessors of the device functions (cudaThread*, from
// CUDA 3, removed in CUDA 13) and the double-precision conversions for
// devices without doubles, which old programs still call. Each does what
// CUDA 12 did: the cudaThread* functions are the cudaDevice* ones, and the
// conversions change nothing on devices with double precision. Declared by
// __respec_legacy_api.h; both runtimes contain this file.
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"

#include <cuda_runtime.h>
// After the runtime API it extends.
#include <__respec_legacy_api.h>

using namespace respec;

extern "C" cudaError_t cudaThreadSynchronize(void) {
  return cudaDeviceSynchronize();
}

extern "C" cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }

extern "C" cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value) {
  return cudaDeviceSetLimit(limit, value);
}

extern "C" cudaError_t cudaThreadGetLimit(size_t *pValue,
                                          enum cudaLimit limit) {
  return cudaDeviceGetLimit(pValue, limit);
}

extern "C" cudaError_t
cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig) {
  return cudaDeviceSetCacheConfig(cacheConfig);
}

extern "C" cudaError_t
cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig) {
  return cudaDeviceGetCacheConfig(pCacheConfig);
}

extern "C" cudaError_t cudaSetDoubleForDevice(double *d) {
  if (!d)
    return reportError(cudaErrorInvalidValue, "cudaSetDoubleForDevice");
  return cudaSuccess;
}

extern "C" cudaError_t cudaSetDoubleForHost(double *d) {
  if (!d)
    return reportError(cudaErrorInvalidValue, "cudaSetDoubleForHost");
  return cudaSuccess;
}
