//===- Context.cpp - Driver initialization, devices, primary contexts -----===//

#include "Context.h"

#include "../common/Diagnostics.h"
#include "Modules.h"

#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace respec {
namespace gpu {
namespace {

struct Device {
  CUdevice handle = 0;
  CUcontext context = nullptr; // retained primary context, or null
};

struct DriverState {
  std::once_flag initialized;
  std::atomic<bool> attempted{false};
  std::atomic<bool> ready{false};
  cudaError_t initError = cudaSuccess;
  DriverApi api{};
  std::mutex mutex; // guards `devices`' contexts
  std::vector<Device> devices;
  /// Bumped by every context reset so that threads bind contexts anew.
  std::atomic<unsigned> generation{1};
};

DriverState &state() {
  // Never destroyed: late calls (module destructors at exit) still use it.
  static DriverState *instance = new DriverState;
  return *instance;
}

/// The calling host thread's device and the context bound to it.
struct ThreadBinding {
  int device = 0;
  CUcontext bound = nullptr;
  unsigned generation = 0;
};
thread_local ThreadBinding binding;

/// Prints why the program cannot run on a GPU; a program built for NVIDIA
/// GPUs cannot do anything useful without one, so this is always shown.
void explainFailure(const std::string &reason) {
  std::fprintf(stderr,
               "respec: this program was built for NVIDIA GPUs "
               "(--target=nvptx) but %s\n",
               reason.c_str());
}

void initialize(DriverState &s) {
  std::string reason;
  if (!loadDriverApi(s.api, reason)) {
    s.initError = cudaErrorInsufficientDriver;
    explainFailure(reason);
    return;
  }
  CUresult result = s.api.init(0);
  int count = 0;
  if (result == CUDA_SUCCESS)
    result = s.api.deviceGetCount(&count);
  if (result == CUDA_ERROR_NO_DEVICE ||
      (result == CUDA_SUCCESS && count == 0)) {
    s.initError = cudaErrorNoDevice;
    explainFailure("the CUDA driver found no NVIDIA GPU");
    return;
  }
  if (result != CUDA_SUCCESS) {
    // A stub library (the toolkit's, found instead of the driver's) or a
    // driver that does not match the kernel module comes here.
    s.initError = toRuntimeError(result);
    if (s.initError == cudaErrorStubLibrary ||
        s.initError == cudaErrorSystemDriverMismatch ||
        s.initError == cudaErrorCompatNotSupportedOnDevice)
      s.initError = cudaErrorInsufficientDriver;
    explainFailure("the CUDA driver failed to initialize: " +
                   describeDriverResult(s.api, result));
    return;
  }
  s.devices.resize(count);
  for (int i = 0; i < count; ++i) {
    result = s.api.deviceGet(&s.devices[i].handle, i);
    if (result != CUDA_SUCCESS) {
      s.initError = toRuntimeError(result);
      explainFailure("the CUDA driver could not open device " +
                     std::to_string(i) + ": " +
                     describeDriverResult(s.api, result));
      return;
    }
  }
  s.ready = true;
}

} // namespace

cudaError_t initializeDriver() {
  DriverState &s = state();
  std::call_once(s.initialized, [&s] {
    s.attempted = true;
    initialize(s);
  });
  return s.initError;
}

bool driverInitializationAttempted() { return state().attempted; }

cudaError_t ensureDriver(const char *call) {
  DriverState &s = state();
  if (initializeDriver() != cudaSuccess)
    return reportError(s.initError, call, "no usable NVIDIA GPU");
  return cudaSuccess;
}

const DriverApi &driver() { return state().api; }

bool driverReady() { return state().ready; }

int deviceCount() { return static_cast<int>(state().devices.size()); }

int currentDevice() { return binding.device; }

void selectDevice(int device) { binding.device = device; }

CUdevice deviceHandle(int device) { return state().devices[device].handle; }

CUcontext primaryContext(int device) {
  DriverState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  Device &d = s.devices[device];
  if (!d.context &&
      s.api.primaryCtxRetain(&d.context, d.handle) != CUDA_SUCCESS)
    d.context = nullptr;
  return d.context;
}

cudaError_t enterContext(const char *call) {
  cudaError_t status = ensureDriver(call);
  if (status != cudaSuccess)
    return status;
  DriverState &s = state();
  unsigned generation = s.generation.load(std::memory_order_acquire);
  // The common case costs two thread-local reads: the context is bound.
  if (binding.bound && binding.generation == generation)
    return cudaSuccess;
  CUcontext context = primaryContext(binding.device);
  if (!context)
    return reportError(cudaErrorDevicesUnavailable, call,
                       "the primary context of device %d could not be "
                       "created",
                       binding.device);
  status = checkDriver(s.api.ctxSetCurrent(context), call);
  if (status != cudaSuccess)
    return status;
  binding.bound = context;
  binding.generation = generation;
  return cudaSuccess;
}

cudaError_t resetCurrentDevice(const char *call) {
  DriverState &s = state();
  int device = binding.device;
  forgetModules(device);
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    Device &d = s.devices[device];
    if (d.context) {
      s.api.primaryCtxRelease(d.handle);
      d.context = nullptr;
    }
  }
  s.generation.fetch_add(1, std::memory_order_acq_rel);
  binding.bound = nullptr;
  return checkDriver(s.api.primaryCtxReset(deviceHandle(device)), call);
}

cudaError_t toRuntimeError(CUresult result) {
  switch (result) {
  case CUDA_SUCCESS:
    return cudaSuccess;
  // The driver reports a missing or invalid context where the runtime, which
  // manages contexts itself, means an unusable device.
  case CUDA_ERROR_INVALID_CONTEXT:
    return cudaErrorDeviceUninitialized;
  // A symbol the runtime looked up by name is missing.
  case CUDA_ERROR_NOT_FOUND:
    return cudaErrorSymbolNotFound;
  default:
    // CUDA numbers the runtime's errors after the driver's wherever both
    // describe the same condition; other driver codes (deprecated ones,
    // codes newer than respec's table) become cudaErrorUnknown.
    return isKnownError(result) ? static_cast<cudaError_t>(result)
                                : cudaErrorUnknown;
  }
}

cudaError_t checkDriver(CUresult result, const char *call) {
  if (result == CUDA_SUCCESS)
    return cudaSuccess;
  return reportError(toRuntimeError(result), call, "driver: %s",
                     describeDriverResult(state().api, result).c_str());
}

cudaError_t notSupported(const char *call) {
  static std::mutex mutex;
  static std::set<std::string> *reported = new std::set<std::string>;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (reported->insert(call).second)
      warnAlways("%s is not supported for NVIDIA GPUs yet", call);
  }
  return reportError(cudaErrorNotSupported, call);
}

} // namespace gpu
} // namespace respec
