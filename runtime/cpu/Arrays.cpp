//===- Arrays.cpp - CUDA arrays and the copies to and from them -----------===//
//
// A CUDA array on the CPU device is one device allocation of row-major
// texels. Every copy that involves arrays becomes a cudaMemcpy3D-style
// pitched copy (copy3D in Memcpy.cpp turns the array side into a pitched
// pointer), so the copies share its checks and its stream ordering.
//
//===----------------------------------------------------------------------===//

#include "Textures.h"

#include "../common/Backend.h"
#include "../common/Diagnostics.h"
#include "Allocations.h"
#include "DeviceProperties.h"
#include "TexelFormat.h"
#include "WorkQueue.h"

#include <array>
#include <mutex>
#include <unordered_set>

using namespace respec;
using namespace respec::cpu;

namespace {

std::mutex &arraysMutex() {
  static std::mutex mutex;
  return mutex;
}

std::unordered_set<const cudaArray *> &liveArrays() {
  static std::unordered_set<const cudaArray *> arrays;
  return arrays;
}

/// The largest width, height and depth (or layers) of an array of the kind
/// `extent` describes: the device's texture limits, those of an sm_80 GPU,
/// so that programs that fit a GPU fit them.
using Limits = std::array<size_t, 3>;
Limits limitsFor(const cudaExtent &extent, bool layered) {
  const cudaDeviceProp &p = deviceProperties();
  auto size = [](int value) { return static_cast<size_t>(value); };
  if (layered && extent.height == 0)
    return {size(p.maxTexture1DLayered[0]), 0,
            size(p.maxTexture1DLayered[1])};
  if (layered)
    return {size(p.maxTexture2DLayered[0]), size(p.maxTexture2DLayered[1]),
            size(p.maxTexture2DLayered[2])};
  if (extent.depth)
    return {size(p.maxTexture3D[0]), size(p.maxTexture3D[1]),
            size(p.maxTexture3D[2])};
  if (extent.height)
    return {size(p.maxTexture2D[0]), size(p.maxTexture2D[1]), 0};
  return {size(p.maxTexture1D), 0, 0};
}

cudaError_t checkExtent(const cudaExtent &extent, unsigned flags,
                        const char *call) {
  if (flags & cudaArrayCubemap)
    return reportError(cudaErrorNotSupported, call,
                       "cubemap arrays are not supported by respec");
  if (flags & ~(unsigned)(cudaArrayLayered | cudaArraySurfaceLoadStore |
                          cudaArrayTextureGather))
    return reportError(cudaErrorInvalidValue, call, "unknown flags 0x%x",
                       flags);
  if (extent.width == 0)
    return reportError(cudaErrorInvalidValue, call, "width 0");
  bool layered = flags & cudaArrayLayered;
  if (layered) {
    if (extent.depth == 0)
      return reportError(cudaErrorInvalidValue, call,
                         "a layered array needs at least one layer (depth)");
  } else if (extent.height == 0 && extent.depth != 0) {
    return reportError(cudaErrorInvalidValue, call,
                       "depth %zu with height 0", extent.depth);
  }
  Limits limit = limitsFor(extent, layered);
  if (extent.width > limit[0] || extent.height > limit[1] ||
      extent.depth > limit[2])
    return reportError(cudaErrorInvalidValue, call,
                       "extent %zu x %zu x %zu exceeds the device's limits "
                       "for this kind of array (%zu x %zu x %zu)",
                       extent.width, extent.height, extent.depth, limit[0],
                       limit[1], limit[2]);
  return cudaSuccess;
}

cudaError_t allocateArray(cudaArray_t *array, const cudaChannelFormatDesc *desc,
                          cudaExtent extent, unsigned flags, const char *call) {
  if (!array || !desc)
    return reportError(cudaErrorInvalidValue, call, "null pointer argument");
  std::string problem;
  std::optional<TexelFormat> format = TexelFormat::of(*desc, &problem);
  if (!format)
    return reportError(cudaErrorInvalidChannelDescriptor, call, "%s",
                       problem.c_str());
  if (format->channels == 3)
    return reportError(cudaErrorInvalidChannelDescriptor, call,
                       "CUDA arrays have 1, 2 or 4 channels, not 3");
  if (cudaError_t error = checkExtent(extent, flags, call))
    return error;
  auto *created = new cudaArray{nullptr, *desc, format->bytes, extent, flags};
  size_t bytes = created->rowBytes() * created->rows() * created->slices();
  created->data = static_cast<char *>(allocate(bytes, AllocationKind::Device, 0));
  if (!created->data) {
    delete created;
    return reportError(cudaErrorMemoryAllocation, call, "%zu bytes", bytes);
  }
  std::lock_guard<std::mutex> lock(arraysMutex());
  liveArrays().insert(created);
  *array = created;
  return cudaSuccess;
}

/// A byte offset into an array's rows as an element position; CUDA requires
/// offsets and widths in whole elements.
bool toElements(const cudaArray &array, size_t bytes, size_t *elements,
                const char *what, const char *call) {
  if (bytes % array.elementBytes) {
    reportError(cudaErrorInvalidValue, call,
                "%s %zu is not a multiple of the array's %zu-byte elements",
                what, bytes, array.elementBytes);
    return false;
  }
  *elements = bytes / array.elementBytes;
  return true;
}

cudaError_t checkArray(const cudaArray *array, const char *call) {
  return isLiveArray(array)
             ? cudaSuccess
             : reportError(cudaErrorInvalidResourceHandle, call,
                           "%p is not a CUDA array", (const void *)array);
}

/// The 2-D copies between arrays and linear memory (offsets and widths in
/// bytes, as the runtime API states them).
cudaError_t copy2DWithArray(cudaArray *dstArray, const cudaArray *srcArray,
                            size_t dstX, size_t dstY, size_t srcX, size_t srcY,
                            void *dst, size_t dpitch, const void *src,
                            size_t spitch, size_t width, size_t height,
                            cudaMemcpyKind kind, Ordering order,
                            const char *call) {
  if (dstArray)
    if (cudaError_t error = checkArray(dstArray, call))
      return error;
  if (srcArray)
    if (cudaError_t error = checkArray(srcArray, call))
      return error;
  const cudaArray &units = dstArray ? *dstArray : *srcArray;
  cudaMemcpy3DParms p = {};
  if (!toElements(units, width, &p.extent.width, "width", call))
    return cudaErrorInvalidValue;
  p.extent.height = height;
  p.extent.depth = 1;
  p.kind = kind;
  if (dstArray) {
    p.dstArray = dstArray;
    if (!toElements(*dstArray, dstX, &p.dstPos.x, "offset", call))
      return cudaErrorInvalidValue;
    p.dstPos.y = dstY;
  } else {
    p.dstPtr = make_cudaPitchedPtr(dst, dpitch, width, height);
  }
  if (srcArray) {
    p.srcArray = const_cast<cudaArray *>(srcArray);
    if (!toElements(*srcArray, srcX, &p.srcPos.x, "offset", call))
      return cudaErrorInvalidValue;
    p.srcPos.y = srcY;
  } else {
    p.srcPtr = make_cudaPitchedPtr(const_cast<void *>(src), spitch, width,
                                   height);
  }
  return copy3D(&p, order, call);
}

/// The deprecated linear copies: `count` bytes from (wOffset, hOffset) on,
/// continuing into the following rows.
cudaError_t copyLinearWithArray(cudaArray *dstArray, const cudaArray *srcArray,
                                size_t dstX, size_t dstY, size_t srcX,
                                size_t srcY, void *dst, const void *src,
                                size_t count, cudaMemcpyKind kind,
                                Ordering order, const char *call) {
  auto linearAddress = [&](const cudaArray *array, size_t x, size_t y,
                           char **address) -> cudaError_t {
    if (cudaError_t error = checkArray(array, call))
      return error;
    size_t total = array->rowBytes() * array->rows() * array->slices();
    size_t offset = y * array->rowBytes() + x;
    if (x > array->rowBytes() || y > array->rows() || offset > total ||
        count > total - offset)
      return reportError(cudaErrorInvalidValue, call,
                         "%zu bytes at (%zu, %zu) run past the array's end",
                         count, x, y);
    *address = array->data + offset;
    return cudaSuccess;
  };
  char *to = static_cast<char *>(dst);
  char *from = static_cast<char *>(const_cast<void *>(src));
  if (dstArray)
    if (cudaError_t error = linearAddress(dstArray, dstX, dstY, &to))
      return error;
  if (srcArray)
    if (cudaError_t error = linearAddress(srcArray, srcX, srcY, &from))
      return error;
  return copyLinear(to, from, count, kind, order, call);
}

constexpr Ordering synchronous{nullptr, false};
Ordering onStream(cudaStream_t stream) { return Ordering{stream, true}; }

} // namespace

bool respec::cpu::isLiveArray(const cudaArray *array) {
  std::lock_guard<std::mutex> lock(arraysMutex());
  return array && liveArrays().count(array);
}

cudaPitchedPtr respec::cpu::pitchedPointerOf(const cudaArray &array) {
  return make_cudaPitchedPtr(array.data, array.rowBytes(), array.rowBytes(),
                             array.rows());
}

/// Checks that the region [pos, pos + extent) (elements, rows, slices) lies
/// inside `array`.
bool respec::cpu::fitsArray(const cudaArray &array, const cudaPos &pos,
                            const cudaExtent &extent, const char *role,
                            const char *call) {
  size_t slices = array.slices();
  if (pos.x <= array.extent.width && extent.width <= array.extent.width - pos.x &&
      pos.y <= array.rows() && extent.height <= array.rows() - pos.y &&
      pos.z <= slices && extent.depth <= slices - pos.z)
    return true;
  reportError(cudaErrorInvalidValue, call,
              "the %s region (%zu x %zu x %zu at %zu, %zu, %zu) lies outside "
              "its %zu x %zu x %zu array",
              role, extent.width, extent.height, extent.depth, pos.x, pos.y,
              pos.z, array.extent.width, array.rows(), slices);
  return false;
}


extern "C" cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z,
                                                       int w,
                                                       cudaChannelFormatKind f) {
  return cudaChannelFormatDesc{x, y, z, w, f};
}

extern "C" cudaError_t cudaMallocArray(cudaArray_t *array,
                                       const cudaChannelFormatDesc *desc,
                                       size_t width, size_t height,
                                       unsigned int flags) {
  if (flags & cudaArrayLayered)
    return reportError(cudaErrorInvalidValue, "cudaMallocArray",
                       "layered arrays come from cudaMalloc3DArray");
  return allocateArray(array, desc, make_cudaExtent(width, height, 0), flags,
                       "cudaMallocArray");
}

extern "C" cudaError_t cudaMalloc3DArray(cudaArray_t *array,
                                         const cudaChannelFormatDesc *desc,
                                         cudaExtent extent,
                                         unsigned int flags) {
  return allocateArray(array, desc, extent, flags, "cudaMalloc3DArray");
}

extern "C" cudaError_t cudaFreeArray(cudaArray_t array) {
  if (!array)
    return cudaSuccess;
  {
    std::lock_guard<std::mutex> lock(arraysMutex());
    if (!liveArrays().erase(array))
      return reportError(cudaErrorInvalidValue, "cudaFreeArray",
                         "%p is not a CUDA array", (void *)array);
  }
  // As cudaFree: no queued kernel or copy uses the memory any more.
  waitForAllWork();
  release(array->data, AllocationKind::Device);
  delete array;
  return cudaSuccess;
}

extern "C" cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc *desc,
                                        cudaExtent *extent,
                                        unsigned int *flags,
                                        cudaArray_t array) {
  if (cudaError_t error = checkArray(array, "cudaArrayGetInfo"))
    return error;
  if (desc)
    *desc = array->desc;
  if (extent)
    *extent = array->extent;
  if (flags)
    *flags = array->flags;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc *desc,
                                          cudaArray_const_t array) {
  if (!desc)
    return reportError(cudaErrorInvalidValue, "cudaGetChannelDesc");
  if (cudaError_t error = checkArray(array, "cudaGetChannelDesc"))
    return error;
  *desc = array->desc;
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset,
                                           size_t hOffset, const void *src,
                                           size_t spitch, size_t width,
                                           size_t height,
                                           cudaMemcpyKind kind) {
  return copy2DWithArray(dst, nullptr, wOffset, hOffset, 0, 0, nullptr, 0, src,
                         spitch, width, height, kind, synchronous,
                         "cudaMemcpy2DToArray");
}

extern "C" cudaError_t
cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                         const void *src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind,
                         cudaStream_t stream) {
  return copy2DWithArray(dst, nullptr, wOffset, hOffset, 0, 0, nullptr, 0, src,
                         spitch, width, height, kind, onStream(stream),
                         "cudaMemcpy2DToArrayAsync");
}

extern "C" cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch,
                                             cudaArray_const_t src,
                                             size_t wOffset, size_t hOffset,
                                             size_t width, size_t height,
                                             cudaMemcpyKind kind) {
  return copy2DWithArray(nullptr, src, 0, 0, wOffset, hOffset, dst, dpitch,
                         nullptr, 0, width, height, kind, synchronous,
                         "cudaMemcpy2DFromArray");
}

extern "C" cudaError_t
cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
                           size_t wOffset, size_t hOffset, size_t width,
                           size_t height, cudaMemcpyKind kind,
                           cudaStream_t stream) {
  return copy2DWithArray(nullptr, src, 0, 0, wOffset, hOffset, dst, dpitch,
                         nullptr, 0, width, height, kind, onStream(stream),
                         "cudaMemcpy2DFromArrayAsync");
}

extern "C" cudaError_t
cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                         cudaArray_const_t src, size_t wOffsetSrc,
                         size_t hOffsetSrc, size_t width, size_t height,
                         cudaMemcpyKind kind) {
  return copy2DWithArray(dst, src, wOffsetDst, hOffsetDst, wOffsetSrc,
                         hOffsetSrc, nullptr, 0, nullptr, 0, width, height,
                         kind, synchronous, "cudaMemcpy2DArrayToArray");
}

extern "C" cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset,
                                         size_t hOffset, const void *src,
                                         size_t count, cudaMemcpyKind kind) {
  return copyLinearWithArray(dst, nullptr, wOffset, hOffset, 0, 0, nullptr, src,
                             count, kind, synchronous, "cudaMemcpyToArray");
}

extern "C" cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset,
                                              size_t hOffset, const void *src,
                                              size_t count, cudaMemcpyKind kind,
                                              cudaStream_t stream) {
  return copyLinearWithArray(dst, nullptr, wOffset, hOffset, 0, 0, nullptr, src,
                             count, kind, onStream(stream),
                             "cudaMemcpyToArrayAsync");
}

extern "C" cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src,
                                           size_t wOffset, size_t hOffset,
                                           size_t count, cudaMemcpyKind kind) {
  return copyLinearWithArray(nullptr, src, 0, 0, wOffset, hOffset, dst, nullptr,
                             count, kind, synchronous, "cudaMemcpyFromArray");
}

extern "C" cudaError_t
cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset,
                         size_t hOffset, size_t count, cudaMemcpyKind kind,
                         cudaStream_t stream) {
  return copyLinearWithArray(nullptr, src, 0, 0, wOffset, hOffset, dst, nullptr,
                             count, kind, onStream(stream),
                             "cudaMemcpyFromArrayAsync");
}

extern "C" cudaError_t
cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                       cudaArray_const_t src, size_t wOffsetSrc,
                       size_t hOffsetSrc, size_t count, cudaMemcpyKind kind) {
  return copyLinearWithArray(dst, src, wOffsetDst, hOffsetDst, wOffsetSrc,
                             hOffsetSrc, nullptr, nullptr, count, kind,
                             synchronous, "cudaMemcpyArrayToArray");
}
