//===- Arrays.cpp - CUDA arrays of the CPU device -------------------------===//
//
// A CUDA array on the CPU device is one device allocation of row-major
// texels. The copies that involve arrays (common/CudaArrays.cpp) become
// cudaMemcpy3D-style pitched copies: copy3D (Memcpy.cpp) turns the array
// side into a pitched pointer.
//
//===----------------------------------------------------------------------===//

#include "Textures.h"

#include "../common/Backend.h"
#include "../common/CudaArrays.h"
#include "../common/Diagnostics.h"
#include "../common/TexelFormat.h"
#include "Allocations.h"
#include "DeviceProperties.h"
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

} // namespace

bool respec::cpu::isLiveArray(const cudaArray *array) {
  std::lock_guard<std::mutex> lock(arraysMutex());
  return array && liveArrays().count(array);
}

cudaPitchedPtr respec::cpu::pitchedPointerOf(const cudaArray &array) {
  return make_cudaPitchedPtr(array.data, array.rowBytes(), array.rowBytes(),
                             array.rows());
}

namespace {

cudaError_t checkArray(const cudaArray *array, const char *call) {
  return isLiveArray(array)
             ? cudaSuccess
             : reportError(cudaErrorInvalidResourceHandle, call,
                           "%p is not a CUDA array", (const void *)array);
}

} // namespace

bool respec::arrayShapeOf(cudaArray_const_t array, ArrayShape *shape) {
  if (!isLiveArray(array))
    return false;
  *shape = ArrayShape{array->elementBytes, array->extent.width, array->rows(),
                      array->slices()};
  return true;
}

cudaError_t respec::createArray(cudaArray_t *array,
                                const cudaChannelFormatDesc *desc,
                                cudaExtent extent, unsigned flags,
                                const char *call) {
  if (!array || !desc)
    return reportError(cudaErrorInvalidValue, call, "null pointer argument");
  std::string problem;
  std::optional<TexelFormat> format = TexelFormat::of(*desc, &problem);
  if (!format)
    return reportError(cudaErrorInvalidChannelDescriptor, call, "%s",
                       problem.c_str());
  if (cudaError_t error = checkExtent(extent, flags, call))
    return error;
  auto *created = new cudaArray{nullptr, *desc, format->bytes, extent, flags};
  size_t bytes = created->rowBytes() * created->rows() * created->slices();
  created->data =
      static_cast<char *>(allocate(bytes, AllocationKind::Device, 0));
  if (!created->data) {
    delete created;
    return reportError(cudaErrorMemoryAllocation, call, "%zu bytes", bytes);
  }
  std::lock_guard<std::mutex> lock(arraysMutex());
  liveArrays().insert(created);
  *array = created;
  return cudaSuccess;
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
