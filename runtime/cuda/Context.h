//===- Context.h - Driver state, devices and primary contexts -------------===//
//
// The GPU runtime initializes the CUDA driver on the first runtime call that
// needs it, and, like NVIDIA's runtime, works in each device's primary
// context: every host thread has a current device (cudaSetDevice, 0 by
// default) whose primary context is made current on the thread before the
// runtime calls into the driver.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_CUDA_CONTEXT_H
#define RESPEC_RUNTIME_CUDA_CONTEXT_H

#include "../common/Backend.h"
#include "DriverApi.h"

#include <cuda_runtime_api.h>

namespace respec {
namespace gpu {

/// Loads and initializes the driver once. Returns (and records as `call`'s
/// error) cudaErrorInsufficientDriver or cudaErrorNoDevice when that failed;
/// the reason is printed once, the first time.
cudaError_t ensureDriver(const char *call);

/// Loads and initializes the driver once, like ensureDriver, but returns its
/// status without recording an error.
cudaError_t initializeDriver();

/// Whether some call already tried to initialize the driver.
bool driverInitializationAttempted();

/// ensureDriver, then makes the primary context of the calling thread's
/// current device current on the thread. Every runtime entry point that
/// calls the driver starts with this.
cudaError_t enterContext(const char *call);

/// The driver's entry points; only valid after ensureDriver succeeded.
const DriverApi &driver();

/// Whether the driver was initialized successfully (by an earlier call).
bool driverReady();

/// Number of devices (after ensureDriver succeeded).
int deviceCount();

/// The calling host thread's current device.
int currentDevice();

/// Makes `device` the calling thread's current device.
void selectDevice(int device);

/// The driver's handle of device ordinal `device`, and its primary context
/// (retained on first use).
CUdevice deviceHandle(int device);
CUcontext primaryContext(int device);

/// Resets the current device's primary context: frees its allocations and
/// unloads its modules (cudaDeviceReset).
cudaError_t resetCurrentDevice(const char *call);

/// The CUDA runtime error that corresponds to a driver result.
cudaError_t toRuntimeError(CUresult result);

/// Maps a failed driver `result` to a runtime error and records it as
/// `call`'s error; cudaSuccess when `result` is CUDA_SUCCESS.
cudaError_t checkDriver(CUresult result, const char *call);

/// Reports `call` as not supported for NVIDIA GPUs (printed once per call).
cudaError_t notSupported(const char *call);

/// Converts between the runtime's pointers and the driver's addresses (one
/// unified address space).
inline CUdeviceptr toDevicePtr(const void *ptr) {
  return reinterpret_cast<CUdeviceptr>(ptr);
}
inline void *fromDevicePtr(CUdeviceptr ptr) {
  return reinterpret_cast<void *>(ptr);
}

/// The driver's handle of a runtime stream (the same values: cudaStreamLegacy
/// and cudaStreamPerThread are CU_STREAM_LEGACY and CU_STREAM_PER_THREAD).
inline CUstream toDriverStream(cudaStream_t stream) {
  return reinterpret_cast<CUstream>(stream);
}

/// The stream a call compiled with per-thread default streams (the _ptds
/// and _ptsz entry points) means by `stream`: its null stream is the
/// calling thread's per-thread stream.
inline cudaStream_t perThreadDefault(cudaStream_t stream) {
  return stream ? stream : cudaStreamPerThread;
}

/// The ordering of a synchronous _ptds copy or memset: on the calling
/// thread's per-thread stream, waiting for it.
inline const Ordering perThreadSynchronous{cudaStreamPerThread, false};

/// The ordering of an asynchronous _ptsz copy or memset on `stream`.
inline Ordering onPerThreadStream(cudaStream_t stream) {
  return {perThreadDefault(stream), true};
}

} // namespace gpu
} // namespace respec

#endif // RESPEC_RUNTIME_CUDA_CONTEXT_H
