//===- cuda_runtime.h - CUDA runtime API with C++ conveniences, respec ----===//
//
// What nvcc makes visible in every CUDA translation unit: the C runtime API
// plus the C++ overloads of cuda_runtime.h (typed cudaMalloc, symbol copies by
// reference, occupancy helpers taking the kernel itself).
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_CUDA_RUNTIME_H
#define RESPEC_CUDA_RUNTIME_H

#include "cuda_runtime_api.h"
#include "device_launch_parameters.h"
#include "driver_types.h"
#include "host_defines.h"
#include "vector_functions.h"
#include "vector_types.h"

#if defined(__cplusplus)

template <class T>
static __inline__ __host__ cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return ::cudaMalloc((void **)(void *)devPtr, size);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocHost(T **ptr, size_t size,
                                                      unsigned int flags = 0) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaHostAlloc(T **ptr, size_t size,
                                                     unsigned int flags) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaHostGetDevicePointer(
    T **pDevice, void *pHost, unsigned int flags) {
  return ::cudaHostGetDevicePointer((void **)(void *)pDevice, pHost, flags);
}

template <class T>
static __inline__ __host__ cudaError_t
cudaMallocManaged(T **devPtr, size_t size,
                  unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocAsync(T **ptr, size_t size,
                                                       cudaStream_t stream) {
  return ::cudaMallocAsync((void **)(void *)ptr, size, stream);
}

static __inline__ __host__ cudaError_t cudaMallocAsync(void **ptr, size_t size,
                                                       cudaMemPool_t memPool,
                                                       cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync(ptr, size, memPool, stream);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocAsync(T **ptr, size_t size,
                                                       cudaMemPool_t memPool,
                                                       cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool,
                                   stream);
}

template <class T>
static __inline__ __host__ cudaError_t
cudaMallocFromPoolAsync(T **ptr, size_t size, cudaMemPool_t memPool,
                        cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool,
                                   stream);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocPitch(T **devPtr,
                                                       size_t *pitch,
                                                       size_t width,
                                                       size_t height) {
  return ::cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}

static __inline__ __host__ cudaError_t cudaEventCreate(cudaEvent_t *event,
                                                       unsigned int flags) {
  return ::cudaEventCreateWithFlags(event, flags);
}

// CUDA 11's form, which CUDA 13's cuda_runtime.h keeps as this overload:
// no node fails to instantiate by itself, and there is no log.
static __inline__ __host__ cudaError_t
cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                     cudaGraphNode_t *pErrorNode, char *pLogBuffer,
                     size_t bufferSize) {
  (void)pErrorNode;
  (void)pLogBuffer;
  (void)bufferSize;
  return ::cudaGraphInstantiate(pGraphExec, graph, 0);
}

// Symbols are passed by reference to the host shadow of the __device__ or
// __constant__ variable; the runtime maps its address to the device copy.
template <class T>
static __inline__ __host__ cudaError_t
cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                   size_t offset = 0,
                   enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyToSymbolAsync(
    const T &symbol, const void *src, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
    cudaStream_t stream = 0) {
  return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset,
                                   kind, stream);
}

template <class T>
static __inline__ __host__ cudaError_t
cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                     size_t offset = 0,
                     enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset,
                                kind);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyFromSymbolAsync(
    void *dst, const T &symbol, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
    cudaStream_t stream = 0) {
  return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset,
                                     kind, stream);
}

template <class T>
static __inline__ __host__ cudaError_t cudaGetSymbolAddress(void **devPtr,
                                                            const T &symbol) {
  return ::cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}

template <class T>
static __inline__ __host__ cudaError_t cudaGetSymbolSize(size_t *size,
                                                         const T &symbol) {
  return ::cudaGetSymbolSize(size, (const void *)&symbol);
}

// Kernels are identified by the address of their host stub.
template <class T>
static __inline__ __host__ cudaError_t
cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                 size_t sharedMem = 0, cudaStream_t stream = 0) {
  return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args,
                            sharedMem, stream);
}

template <class T>
static __inline__ __host__ cudaError_t
cudaLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                            size_t sharedMem = 0, cudaStream_t stream = 0) {
  return ::cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim,
                                       args, sharedMem, stream);
}

/// CUDA 12's extensible launch with the kernel's arguments as they are: each
/// is converted to the kernel's parameter type, as in a `<<<>>>` launch.
template <typename... ParameterTypes, typename... ArgumentTypes>
static __inline__ __host__ cudaError_t cudaLaunchKernelEx(
    const cudaLaunchConfig_t *config, void (*kernel)(ParameterTypes...),
    ArgumentTypes &&...arguments) {
  return [&](ParameterTypes... converted) {
    void *pointers[] = {static_cast<void *>(&converted)..., nullptr};
    return ::cudaLaunchKernelExC(config, (const void *)kernel, pointers);
  }(static_cast<ArgumentTypes &&>(arguments)...);
}

template <class T>
static __inline__ __host__ cudaError_t
cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *func) {
  return ::cudaFuncGetAttributes(attr, (const void *)func);
}

template <class T>
static __inline__ __host__ cudaError_t
cudaFuncSetAttribute(T *func, enum cudaFuncAttribute attr, int value) {
  return ::cudaFuncSetAttribute((const void *)func, attr, value);
}

template <class T>
static __inline__ __host__ cudaError_t
cudaFuncSetCacheConfig(T *func, enum cudaFuncCache cacheConfig) {
  return ::cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}

template <class T>
static __inline__ __host__ cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func,
                                              int blockSize,
                                              size_t dynamicSMemSize) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, (const void *)func, blockSize, dynamicSMemSize,
      cudaOccupancyDefault);
}

template <class T>
static __inline__ __host__ cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, T func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, (const void *)func, blockSize, dynamicSMemSize, flags);
}

/// Picks the block size (a multiple of the warp size, at most `blockSizeLimit`
/// when that is non-zero) with the most resident threads per multiprocessor,
/// preferring the larger block on ties, and the grid size that fills the
/// device with it. `smemForBlockSize(blockSize)` gives the dynamic shared
/// memory a block of that size needs.
template <class UnaryFunction, class T>
static __inline__ __host__ cudaError_t
cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int *minGridSize, int *blockSize, T func, UnaryFunction smemForBlockSize,
    int blockSizeLimit = 0, unsigned int flags = 0) {
  if (!minGridSize || !blockSize || !func)
    return cudaErrorInvalidValue;
  struct cudaFuncAttributes attr;
  cudaError_t status = ::cudaFuncGetAttributes(&attr, (const void *)func);
  if (status != cudaSuccess)
    return status;
  int device = 0, warp = 32, multiprocessors = 1;
  ::cudaGetDevice(&device);
  ::cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
  ::cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount,
                           device);
  int limit = attr.maxThreadsPerBlock;
  if (blockSizeLimit > 0 && blockSizeLimit < limit)
    limit = blockSizeLimit;
  int bestBlock = 0, bestBlocksPerSM = 0, bestThreads = 0;
  for (int size = (limit / warp) * warp; size > 0; size -= warp) {
    int blocksPerSM = 0;
    status = ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        &blocksPerSM, (const void *)func, size, smemForBlockSize(size), flags);
    if (status != cudaSuccess)
      return status;
    if (blocksPerSM * size > bestThreads) {
      bestThreads = blocksPerSM * size;
      bestBlock = size;
      bestBlocksPerSM = blocksPerSM;
    }
  }
  *blockSize = bestBlock;
  *minGridSize = bestBlocksPerSM * multiprocessors;
  return cudaSuccess;
}

template <class UnaryFunction, class T>
static __inline__ __host__ cudaError_t
cudaOccupancyMaxPotentialBlockSizeVariableSMem(int *minGridSize,
                                               int *blockSize, T func,
                                               UnaryFunction smemForBlockSize,
                                               int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, smemForBlockSize, blockSizeLimit,
      cudaOccupancyDefault);
}

/// Dynamic shared memory that does not depend on the block size.
class __respecFixedSharedMemory {
  size_t bytes;

public:
  explicit __respecFixedSharedMemory(size_t bytes) : bytes(bytes) {}
  size_t operator()(int) const { return bytes; }
};

template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(
    int *minGridSize, int *blockSize, T func, size_t dynamicSMemSize = 0,
    int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, __respecFixedSharedMemory(dynamicSMemSize),
      blockSizeLimit, cudaOccupancyDefault);
}

template <class T>
static __inline__ __host__ cudaError_t
cudaOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize,
                                            T func,
                                            size_t dynamicSMemSize = 0,
                                            int blockSizeLimit = 0,
                                            unsigned int flags = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, __respecFixedSharedMemory(dynamicSMemSize),
      blockSizeLimit, flags);
}

/// The channel descriptor of texel type T (CUDA's channel_descriptor.h).
template <class T> inline cudaChannelFormatDesc cudaCreateChannelDesc() {
  return cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
}
inline cudaChannelFormatDesc cudaCreateChannelDescHalf() {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
}
inline cudaChannelFormatDesc cudaCreateChannelDescHalf2() {
  return cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindFloat);
}
inline cudaChannelFormatDesc cudaCreateChannelDescHalf4() {
  return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindFloat);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<char>() {
  return cudaCreateChannelDesc(8, 0, 0, 0,
                               (char)-1 < 0 ? cudaChannelFormatKindSigned
                                            : cudaChannelFormatKindUnsigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<signed char>() {
  return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<char1>() {
  return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<char2>() {
  return cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindSigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<char4>() {
  return cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindSigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<unsigned char>() {
  return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<uchar1>() {
  return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<uchar2>() {
  return cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<uchar4>() {
  return cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<short>() {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindSigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<short1>() {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindSigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<short2>() {
  return cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindSigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<short4>() {
  return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindSigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<unsigned short>() {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<ushort1>() {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<ushort2>() {
  return cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<ushort4>() {
  return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindUnsigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<int>() {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindSigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<int1>() {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindSigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<int2>() {
  return cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindSigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<int4>() {
  return cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindSigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<unsigned int>() {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<uint1>() {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<uint2>() {
  return cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindUnsigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<uint4>() {
  return cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindUnsigned);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<float>() {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<float1>() {
  return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<float2>() {
  return cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindFloat);
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<float4>() {
  return cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindFloat);
}

#endif // __cplusplus

#endif // RESPEC_CUDA_RUNTIME_H
