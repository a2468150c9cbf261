//===- Backend.h - Hooks each runtime backend implements ------------------===//
//
// Entry points whose logic is the same on every device (argument checks,
// which call name errors report, how the synchronous and asynchronous forms
// map onto one operation) are written once in EntryPoints.cpp. They call the
// hooks declared here, which the CPU backend (cpu/) and the CUDA driver
// backend (cuda/) each define once, for the work that does differ.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_COMMON_BACKEND_H
#define RESPEC_RUNTIME_COMMON_BACKEND_H

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace respec {

/// How a copy or memset is ordered: on `stream`, either queued (`async`) or
/// complete before the call returns. `stream` null and `async` false is the
/// legacy synchronous form (cudaMemcpy); a synchronous operation on another
/// stream (the per-thread stream of the _ptds forms) runs on that stream and
/// waits for it.
struct Ordering {
  cudaStream_t stream;
  bool async;
};

//===----------------------------------------------------------------------===//
// Implemented by each backend.
//===----------------------------------------------------------------------===//

/// Validates and runs (or queues) a launch of the kernel registered for
/// `func`; errors name `call`. A `cooperative` launch
/// (cudaLaunchCooperativeKernel) runs every block of the grid at the same
/// time, so that the blocks may synchronize with each other (cooperative
/// groups' grid.sync()); a grid larger than the device can hold at once is
/// cudaErrorCooperativeLaunchTooLarge.
cudaError_t launchKernel(const void *func, dim3 grid, dim3 block, void **args,
                         size_t sharedMem, cudaStream_t stream,
                         bool cooperative, const char *call);

/// Creates a stream; `priority` is clamped to the device's range.
cudaError_t createStream(cudaStream_t *pStream, unsigned flags, int priority,
                         const char *call);

/// Sets `height` rows of `width` bytes, `pitch` bytes apart, to `value`.
cudaError_t memset2D(void *devPtr, size_t pitch, int value, size_t width,
                     size_t height, Ordering order, const char *call);

/// Sets `extent` of the pitched allocation `ptr` to `value`.
cudaError_t memset3D(cudaPitchedPtr ptr, int value, cudaExtent extent,
                     Ordering order, const char *call);

/// Copies `count` bytes.
cudaError_t copyLinear(void *dst, const void *src, size_t count,
                       cudaMemcpyKind kind, Ordering order, const char *call);

/// Copies `height` rows of `width` bytes between pitched buffers.
cudaError_t copy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                   size_t width, size_t height, cudaMemcpyKind kind,
                   Ordering order, const char *call);

/// Copies what cudaMemcpy3D's `p` describes.
cudaError_t copy3D(const cudaMemcpy3DParms *p, Ordering order,
                   const char *call);

/// The device address of `count` bytes at `offset` in the device copy of
/// `symbol`, or an error naming `call`.
cudaError_t symbolRange(const void *symbol, size_t count, size_t offset,
                        char **address, const char *call);

namespace tuning {
struct DeviceDescriptor;
} // namespace tuning

/// Kernel versions (Tuning.cpp): the tuning database's name of the device
/// kernels run on ("cpu:...", "gpu:..."), its description for the geometry
/// heuristic, and the timing of one profiled launch: `startTunedTiming`
/// returns a token for the launches that follow, `finishTunedTiming` the
/// nanoseconds they took on the device (on a GPU they run asynchronously,
/// so the host's clock would also count launch latency and queued work).
std::string tuningDeviceKey();
const tuning::DeviceDescriptor &tuningDevice();
uint64_t startTunedTiming();
uint64_t finishTunedTiming(uint64_t token);

//===----------------------------------------------------------------------===//
// Implemented in EntryPoints.cpp, for backends' own variants (_ptds, _ptsz).
//===----------------------------------------------------------------------===//

/// Copies `count` bytes from `src` to `symbol` at `offset`.
cudaError_t copyToSymbol(const void *symbol, const void *src, size_t count,
                         size_t offset, cudaMemcpyKind kind, Ordering order,
                         const char *call);

/// Copies `count` bytes from `symbol` at `offset` to `dst`.
cudaError_t copyFromSymbol(void *dst, const void *symbol, size_t count,
                           size_t offset, cudaMemcpyKind kind, Ordering order,
                           const char *call);

/// Checks a cudaLaunchKernelEx configuration and launches it on
/// `streamOf(config->stream)`; the stream is looked at only once `config` is
/// known to be valid, so a _ptsz form passes its mapping rather than the
/// mapped stream.
cudaError_t launchKernelEx(const cudaLaunchConfig_t *config, const void *func,
                           void **args, cudaStream_t (*streamOf)(cudaStream_t));

} // namespace respec

#endif // RESPEC_RUNTIME_COMMON_BACKEND_H
