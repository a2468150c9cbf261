//===- Device.cpp - Device selection, synchronization, limits, versions ---===//

#include "../common/Diagnostics.h"
#include "Context.h"
#include "DeviceProperties.h"

#include <atomic>

using namespace respec;
using namespace respec::gpu;

namespace {

std::atomic<unsigned> deviceFlags{cudaDeviceScheduleAuto};

bool isValidLimit(cudaLimit limit) {
  return limit >= cudaLimitStackSize && limit <= cudaLimitPersistingL2CacheSize;
}

} // namespace

extern "C" cudaError_t cudaGetDeviceCount(int *count) {
  if (!count)
    return reportError(cudaErrorInvalidValue, "cudaGetDeviceCount");
  *count = 0;
  cudaError_t status = ensureDriver("cudaGetDeviceCount");
  if (status == cudaSuccess)
    *count = deviceCount();
  return status;
}

extern "C" cudaError_t cudaSetDevice(int device) {
  const char *call = "cudaSetDevice";
  cudaError_t status = ensureDriver(call);
  if (status != cudaSuccess)
    return status;
  if (!isValidDevice(device))
    return reportError(cudaErrorInvalidDevice, call, "device %d of %d", device,
                       deviceCount());
  selectDevice(device);
  // Since CUDA 12 cudaSetDevice initializes the device's primary context
  // right away, so that errors surface here.
  return enterContext(call);
}

extern "C" cudaError_t cudaGetDevice(int *device) {
  if (!device)
    return reportError(cudaErrorInvalidValue, "cudaGetDevice");
  cudaError_t status = ensureDriver("cudaGetDevice");
  if (status == cudaSuccess)
    *device = currentDevice();
  return status;
}

extern "C" cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  const char *call = "cudaSetDeviceFlags";
  if (flags & ~unsigned(cudaDeviceMask))
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = ensureDriver(call);
  if (status != cudaSuccess)
    return status;
  // Mapping host memory is always enabled on devices with unified
  // addressing; the driver no longer takes the flag.
  unsigned driverFlags = flags & ~unsigned(cudaDeviceMapHost);
  status = checkDriver(
      driver().primaryCtxSetFlags(deviceHandle(currentDevice()), driverFlags),
      call);
  if (status == cudaSuccess)
    deviceFlags = flags;
  return status;
}

extern "C" cudaError_t cudaGetDeviceFlags(unsigned int *flags) {
  if (!flags)
    return reportError(cudaErrorInvalidValue, "cudaGetDeviceFlags");
  *flags = deviceFlags | cudaDeviceMapHost;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceSynchronize(void) {
  const char *call = "cudaDeviceSynchronize";
  // Nothing can be pending before the first call that initializes the
  // driver; this also keeps the synchronization at exit (module
  // unregistration) from initializing a driver the program never used.
  if (!driverInitializationAttempted())
    return cudaSuccess;
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().ctxSynchronize(), call);
}

extern "C" cudaError_t cudaDeviceReset(void) {
  const char *call = "cudaDeviceReset";
  if (!driverInitializationAttempted())
    return cudaSuccess;
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  driver().ctxSynchronize();
  status = resetCurrentDevice(call);
  takeLastError(/*clear=*/true);
  return status;
}

extern "C" cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value) {
  const char *call = "cudaDeviceSetLimit";
  if (!isValidLimit(limit))
    return reportError(cudaErrorUnsupportedLimit, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  // cudaLimit and CUlimit share their values.
  return checkDriver(driver().ctxSetLimit(limit, value), call);
}

extern "C" cudaError_t cudaDeviceGetLimit(size_t *pValue,
                                          enum cudaLimit limit) {
  const char *call = "cudaDeviceGetLimit";
  if (!pValue)
    return reportError(cudaErrorInvalidValue, call);
  if (!isValidLimit(limit))
    return reportError(cudaErrorUnsupportedLimit, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().ctxGetLimit(pValue, limit), call);
}

extern "C" cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *config) {
  const char *call = "cudaDeviceGetCacheConfig";
  if (!config)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  int value = 0;
  status = checkDriver(driver().ctxGetCacheConfig(&value), call);
  if (status == cudaSuccess)
    *config = static_cast<cudaFuncCache>(value); // CUfunc_cache: same values
  return status;
}

extern "C" cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config) {
  const char *call = "cudaDeviceSetCacheConfig";
  if (config < cudaFuncCachePreferNone || config > cudaFuncCachePreferEqual)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().ctxSetCacheConfig(config), call);
}

extern "C" cudaError_t cudaDriverGetVersion(int *driverVersion) {
  if (!driverVersion)
    return reportError(cudaErrorInvalidValue, "cudaDriverGetVersion");
  // CUDA documents 0 (and success) when no driver is installed.
  *driverVersion = 0;
  if (initializeDriver() == cudaErrorInsufficientDriver)
    return cudaSuccess;
  return checkDriver(driver().driverGetVersion(driverVersion),
                     "cudaDriverGetVersion");
}

// Profiling is controlled by the profiler attached to the process; without
// one these are no-ops in CUDA as well.
