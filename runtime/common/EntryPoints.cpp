//===- EntryPoints.cpp - Entry points shared by all runtime backends ------===//
//
// The CUDA runtime entry points that do the same on every device: they check
// arguments and pick the call name that errors report, then hand the work to
// the backend's hooks (Backend.h). Both librespec_cudart.a and
// librespec_cudart_gpu.a contain this file.
//
//===----------------------------------------------------------------------===//

#include "Backend.h"
#include "Diagnostics.h"
#include "LaunchChecks.h"

#include <atomic>

using namespace respec;

namespace {

const Ordering synchronous{nullptr, false};
Ordering onStream(cudaStream_t stream) { return {stream, true}; }
cudaStream_t sameStream(cudaStream_t stream) { return stream; }

/// Shared memory bank size configuration has no effect on the devices respec
/// targets (sm_50 and later have fixed 4-byte banks, and so has the CPU
/// device); CUDA accepts and remembers it, and so does respec.
std::atomic<int> deviceSharedMemConfig{cudaSharedMemBankSizeFourByte};

} // namespace

//===----------------------------------------------------------------------===//
// Device management and errors
//===----------------------------------------------------------------------===//

extern "C" cudaError_t
cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *config) {
  if (!config)
    return reportError(cudaErrorInvalidValue, "cudaDeviceGetSharedMemConfig");
  *config = static_cast<cudaSharedMemConfig>(deviceSharedMemConfig.load());
  return cudaSuccess;
}

extern "C" cudaError_t
cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config) {
  if (config < cudaSharedMemBankSizeDefault ||
      config > cudaSharedMemBankSizeEightByte)
    return reportError(cudaErrorInvalidValue, "cudaDeviceSetSharedMemConfig");
  deviceSharedMemConfig = config;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGetLastError(void) {
  return takeLastError(/*clear=*/true);
}

extern "C" cudaError_t cudaPeekAtLastError(void) {
  return takeLastError(/*clear=*/false);
}

extern "C" cudaError_t cudaRuntimeGetVersion(int *runtimeVersion) {
  if (!runtimeVersion)
    return reportError(cudaErrorInvalidValue, "cudaRuntimeGetVersion");
  *runtimeVersion = CUDART_VERSION;
  return cudaSuccess;
}

extern "C" cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
extern "C" cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

//===----------------------------------------------------------------------===//
// Kernel launches
//===----------------------------------------------------------------------===//

cudaError_t respec::launchKernelEx(const cudaLaunchConfig_t *config,
                                   const void *func, void **args,
                                   cudaStream_t (*streamOf)(cudaStream_t)) {
  const char *call = "cudaLaunchKernelEx";
  bool cooperative = false;
  cudaError_t status = checkLaunchAttributes(config, &cooperative, call);
  if (status != cudaSuccess)
    return status;
  return launchKernel(func, config->gridDim, config->blockDim, args,
                      config->dynamicSmemBytes, streamOf(config->stream),
                      cooperative, call);
}

extern "C" cudaError_t cudaLaunchCooperativeKernel(const void *func,
                                                   dim3 gridDim, dim3 blockDim,
                                                   void **args,
                                                   size_t sharedMem,
                                                   cudaStream_t stream) {
  return launchKernel(func, gridDim, blockDim, args, sharedMem, stream,
                      /*cooperative=*/true, "cudaLaunchCooperativeKernel");
}

extern "C" cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim,
                                        dim3 blockDim, void **args,
                                        size_t sharedMem, cudaStream_t stream) {
  return launchKernel(func, gridDim, blockDim, args, sharedMem, stream,
                      /*cooperative=*/false, "cudaLaunchKernel");
}

extern "C" cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
                                           const void *func, void **args) {
  return launchKernelEx(config, func, args, sameStream);
}

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

extern "C" cudaError_t cudaStreamCreate(cudaStream_t *pStream) {
  return createStream(pStream, cudaStreamDefault, 0, "cudaStreamCreate");
}

extern "C" cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream,
                                                 unsigned int flags) {
  return createStream(pStream, flags, 0, "cudaStreamCreateWithFlags");
}

extern "C" cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream,
                                                    unsigned int flags,
                                                    int priority) {
  return createStream(pStream, flags, priority, "cudaStreamCreateWithPriority");
}

//===----------------------------------------------------------------------===//
// Memset
//===----------------------------------------------------------------------===//

extern "C" cudaError_t cudaMemset(void *devPtr, int value, size_t count) {
  return memset2D(devPtr, count, value, count, 1, synchronous, "cudaMemset");
}

extern "C" cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                                       cudaStream_t stream) {
  return memset2D(devPtr, count, value, count, 1, onStream(stream),
                  "cudaMemsetAsync");
}

extern "C" cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value,
                                    size_t width, size_t height) {
  return memset2D(devPtr, pitch, value, width, height, synchronous,
                  "cudaMemset2D");
}

extern "C" cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value,
                                         size_t width, size_t height,
                                         cudaStream_t stream) {
  return memset2D(devPtr, pitch, value, width, height, onStream(stream),
                  "cudaMemset2DAsync");
}

extern "C" cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr,
                                    int value, struct cudaExtent extent) {
  return memset3D(pitchedDevPtr, value, extent, synchronous, "cudaMemset3D");
}

extern "C" cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr,
                                         int value, struct cudaExtent extent,
                                         cudaStream_t stream) {
  return memset3D(pitchedDevPtr, value, extent, onStream(stream),
                  "cudaMemset3DAsync");
}

//===----------------------------------------------------------------------===//
// Memcpy
//===----------------------------------------------------------------------===//

cudaError_t respec::copyToSymbol(const void *symbol, const void *src,
                                 size_t count, size_t offset,
                                 cudaMemcpyKind kind, Ordering order,
                                 const char *call) {
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return reportError(cudaErrorInvalidMemcpyDirection, call);
  char *address = nullptr;
  cudaError_t status = symbolRange(symbol, count, offset, &address, call);
  if (status != cudaSuccess)
    return status;
  return copyLinear(address, src, count, kind, order, call);
}

cudaError_t respec::copyFromSymbol(void *dst, const void *symbol, size_t count,
                                   size_t offset, cudaMemcpyKind kind,
                                   Ordering order, const char *call) {
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return reportError(cudaErrorInvalidMemcpyDirection, call);
  char *address = nullptr;
  cudaError_t status = symbolRange(symbol, count, offset, &address, call);
  if (status != cudaSuccess)
    return status;
  return copyLinear(dst, address, count, kind, order, call);
}

extern "C" cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                                  enum cudaMemcpyKind kind) {
  return copyLinear(dst, src, count, kind, synchronous, "cudaMemcpy");
}

extern "C" cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                       enum cudaMemcpyKind kind,
                                       cudaStream_t stream) {
  return copyLinear(dst, src, count, kind, onStream(stream), "cudaMemcpyAsync");
}

extern "C" cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
                                    size_t spitch, size_t width, size_t height,
                                    enum cudaMemcpyKind kind) {
  return copy2D(dst, dpitch, src, spitch, width, height, kind, synchronous,
                "cudaMemcpy2D");
}

extern "C" cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch,
                                         const void *src, size_t spitch,
                                         size_t width, size_t height,
                                         enum cudaMemcpyKind kind,
                                         cudaStream_t stream) {
  return copy2D(dst, dpitch, src, spitch, width, height, kind, onStream(stream),
                "cudaMemcpy2DAsync");
}

extern "C" cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p) {
  return copy3D(p, synchronous, "cudaMemcpy3D");
}

extern "C" cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
                                         cudaStream_t stream) {
  return copy3D(p, onStream(stream), "cudaMemcpy3DAsync");
}

extern "C" cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src,
                                          size_t count, size_t offset,
                                          enum cudaMemcpyKind kind) {
  return copyToSymbol(symbol, src, count, offset, kind, synchronous,
                      "cudaMemcpyToSymbol");
}

extern "C" cudaError_t cudaMemcpyToSymbolAsync(const void *symbol,
                                               const void *src, size_t count,
                                               size_t offset,
                                               enum cudaMemcpyKind kind,
                                               cudaStream_t stream) {
  return copyToSymbol(symbol, src, count, offset, kind, onStream(stream),
                      "cudaMemcpyToSymbolAsync");
}

extern "C" cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol,
                                            size_t count, size_t offset,
                                            enum cudaMemcpyKind kind) {
  return copyFromSymbol(dst, symbol, count, offset, kind, synchronous,
                        "cudaMemcpyFromSymbol");
}

extern "C" cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol,
                                                 size_t count, size_t offset,
                                                 enum cudaMemcpyKind kind,
                                                 cudaStream_t stream) {
  return copyFromSymbol(dst, symbol, count, offset, kind, onStream(stream),
                        "cudaMemcpyFromSymbolAsync");
}

extern "C" cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol) {
  if (!devPtr)
    return reportError(cudaErrorInvalidValue, "cudaGetSymbolAddress");
  char *address = nullptr;
  cudaError_t status =
      symbolRange(symbol, 0, 0, &address, "cudaGetSymbolAddress");
  if (status == cudaSuccess)
    *devPtr = address;
  return status;
}
