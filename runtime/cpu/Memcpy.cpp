//===- Memcpy.cpp - cudaMemcpy* and symbol copies -------------------------===//
//
// All memory of the CPU device is host memory, so every copy kind is a
// memmove; the kind is still validated as CUDA does. Asynchronous copies
// that involve pageable (untracked) host memory complete before returning,
// as CUDA documents for pageable transfers: programs may reuse the host
// buffer as soon as the call returns.
//
//===----------------------------------------------------------------------===//

#include "../common/Backend.h"
#include "../common/CudaArrays.h"
#include "../common/Diagnostics.h"
#include "../common/ModuleRegistry.h"
#include "Allocations.h"
#include "Streams.h"
#include "Textures.h"

#include <cstring>

using namespace respec;
using namespace respec::cpu;

namespace {

bool isValidKind(cudaMemcpyKind kind) {
  return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault;
}

bool isPageable(const void *ptr) {
  Allocation found;
  return !findAllocation(ptr, &found);
}

/// Describes one strided copy: `height * depth` rows of `width` bytes.
struct PitchedCopy {
  char *dst;
  size_t dstPitch;
  size_t dstSliceBytes;
  const char *src;
  size_t srcPitch;
  size_t srcSliceBytes;
  size_t width;
  size_t height;
  size_t depth;
};

void runPitchedCopy(const PitchedCopy &copy) {
  for (size_t slice = 0; slice < copy.depth; ++slice)
    for (size_t row = 0; row < copy.height; ++row)
      std::memmove(copy.dst + slice * copy.dstSliceBytes + row * copy.dstPitch,
                   copy.src + slice * copy.srcSliceBytes + row * copy.srcPitch,
                   copy.width);
}

/// Queues (or, when `wait` or pageable memory demands it, runs) a copy.
cudaError_t submitCopy(const PitchedCopy &copy, cudaStream_t stream, bool wait,
                       const char *call) {
  if (copy.width == 0 || copy.height == 0 || copy.depth == 0)
    return isValidStream(stream)
               ? cudaSuccess
               : reportError(cudaErrorInvalidResourceHandle, call);
  bool mustComplete = wait || isPageable(copy.dst) || isPageable(copy.src);
  auto work = [copy] { runPitchedCopy(copy); };
  return mustComplete ? runOnStreamAndWait(stream, call, work)
                      : enqueueOnStream(stream, call, work);
}

/// False (after reporting the error) if `count` bytes at `ptr` run past the
/// end of the runtime allocation `ptr` points into, as a GPU's driver
/// refuses them; pointers into memory the runtime did not allocate
/// (pageable host memory) are the program's to get right.
bool fitsAllocation(const void *ptr, size_t count, const char *role,
                    const char *call) {
  cpu::Allocation allocation;
  if (!count || !cpu::findAllocation(ptr, &allocation))
    return true;
  size_t offset = static_cast<size_t>(static_cast<const char *>(ptr) -
                                      static_cast<const char *>(allocation.base));
  if (count <= allocation.size - offset)
    return true;
  reportError(cudaErrorInvalidValue, call,
              "the %s range (%zu bytes at offset %zu) runs past the end of "
              "its %zu-byte allocation",
              role, count, offset, allocation.size);
  return false;
}

/// The array side of a copy, of `shape`, as a pitched pointer: the
/// extent's width and the array's x position count elements, a pointer's x
/// position bytes.
bool replaceArray(cudaArray_t &array, const ArrayShape &shape, cudaPos &pos,
                  cudaPitchedPtr &ptr, const cudaExtent &extent,
                  const char *role, const char *call) {
  if (!array)
    return true;
  if (!fitsArray(shape, pos, extent, role, call))
    return false;
  ptr = pitchedPointerOf(*array);
  pos.x *= shape.elementBytes;
  array = nullptr;
  return true;
}

cudaError_t copy3DWithArrays(cudaMemcpy3DParms p, Ordering order,
                             const char *call) {
  ArrayShape srcShape, dstShape;
  size_t elementBytes = 1;
  if (cudaError_t error =
          arraySidesOf(p, &srcShape, &dstShape, &elementBytes, call))
    return error;
  cudaExtent elements = p.extent;
  if (!replaceArray(p.srcArray, srcShape, p.srcPos, p.srcPtr, elements,
                    "source", call) ||
      !replaceArray(p.dstArray, dstShape, p.dstPos, p.dstPtr, elements,
                    "destination", call))
    return cudaErrorInvalidValue;
  p.extent.width *= elementBytes;
  return copy3D(&p, order, call);
}

} // namespace

cudaError_t respec::copyLinear(void *dst, const void *src, size_t count,
                               cudaMemcpyKind kind, Ordering order,
                               const char *call) {
  if (!isValidKind(kind))
    return reportError(cudaErrorInvalidMemcpyDirection, call, "kind %d",
                       static_cast<int>(kind));
  if (count && (!dst || !src))
    return reportError(cudaErrorInvalidValue, call, "null pointer");
  if (!fitsAllocation(dst, count, "destination", call) ||
      !fitsAllocation(src, count, "source", call))
    return cudaErrorInvalidValue;
  PitchedCopy copy{static_cast<char *>(dst),
                   count,
                   0,
                   static_cast<const char *>(src),
                   count,
                   0,
                   count,
                   1,
                   1};
  return submitCopy(copy, order.stream, !order.async, call);
}

cudaError_t respec::copy2D(void *dst, size_t dpitch, const void *src,
                           size_t spitch, size_t width, size_t height,
                           cudaMemcpyKind kind, Ordering order,
                           const char *call) {
  if (!isValidKind(kind))
    return reportError(cudaErrorInvalidMemcpyDirection, call);
  if (width > dpitch || width > spitch)
    return reportError(cudaErrorInvalidPitchValue, call,
                       "width %zu exceeds a pitch", width);
  if (width && height && (!dst || !src))
    return reportError(cudaErrorInvalidValue, call, "null pointer");
  PitchedCopy copy{static_cast<char *>(dst),
                   dpitch,
                   0,
                   static_cast<const char *>(src),
                   spitch,
                   0,
                   width,
                   height,
                   1};
  return submitCopy(copy, order.stream, !order.async, call);
}

cudaError_t respec::copy3D(const cudaMemcpy3DParms *p, Ordering order,
                           const char *call) {
  if (!p)
    return reportError(cudaErrorInvalidValue, call);
  if (p->srcArray || p->dstArray)
    return copy3DWithArrays(*p, order, call);
  if (!isValidKind(p->kind))
    return reportError(cudaErrorInvalidMemcpyDirection, call);
  const cudaExtent &e = p->extent;
  if (e.width > p->srcPtr.pitch || e.width > p->dstPtr.pitch)
    return reportError(cudaErrorInvalidPitchValue, call);
  if (e.width && e.height && e.depth && (!p->srcPtr.ptr || !p->dstPtr.ptr))
    return reportError(cudaErrorInvalidValue, call, "null pointer");
  // A pitched pointer's ysize is its slice height in rows.
  size_t srcRows = p->srcPtr.ysize ? p->srcPtr.ysize : e.height;
  size_t dstRows = p->dstPtr.ysize ? p->dstPtr.ysize : e.height;
  size_t srcSlice = srcRows * p->srcPtr.pitch;
  size_t dstSlice = dstRows * p->dstPtr.pitch;
  const char *src = static_cast<const char *>(p->srcPtr.ptr) +
                    p->srcPos.z * srcSlice + p->srcPos.y * p->srcPtr.pitch +
                    p->srcPos.x;
  char *dst = static_cast<char *>(p->dstPtr.ptr) + p->dstPos.z * dstSlice +
              p->dstPos.y * p->dstPtr.pitch + p->dstPos.x;
  PitchedCopy copy{dst,      p->dstPtr.pitch, dstSlice, src,    p->srcPtr.pitch,
                   srcSlice, e.width,         e.height, e.depth};
  return submitCopy(copy, order.stream, !order.async, call);
}

cudaError_t respec::symbolRange(const void *symbol, size_t count, size_t offset,
                                char **address, const char *call) {
  SymbolInfo info;
  if (!lookupSymbol(symbol, &info))
    return reportError(cudaErrorInvalidSymbol, call,
                       "%p is not a registered __device__/__constant__ "
                       "variable",
                       symbol);
  if (info.gpuModule)
    return reportError(cudaErrorInvalidSymbol, call,
                       "'%s' was built for NVIDIA GPUs (--target=nvptx); link "
                       "the program with the GPU runtime",
                       info.deviceName);
  if (offset > info.size || count > info.size - offset)
    return reportError(cudaErrorInvalidValue, call,
                       "%zu bytes at offset %zu exceed the symbol's %zu bytes",
                       count, offset, info.size);
  *address = static_cast<char *>(info.deviceAddress) + offset;
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src,
                                      int srcDevice, size_t count) {
  if (dstDevice != 0 || srcDevice != 0)
    return reportError(cudaErrorInvalidDevice, "cudaMemcpyPeer");
  return copyLinear(dst, src, count, cudaMemcpyDeviceToDevice,
                    Ordering{nullptr, false}, "cudaMemcpyPeer");
}

extern "C" cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice,
                                           const void *src, int srcDevice,
                                           size_t count, cudaStream_t stream) {
  if (dstDevice != 0 || srcDevice != 0)
    return reportError(cudaErrorInvalidDevice, "cudaMemcpyPeerAsync");
  return copyLinear(dst, src, count, cudaMemcpyDeviceToDevice,
                    Ordering{stream, true}, "cudaMemcpyPeerAsync");
}

extern "C" cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) {
  SymbolInfo info;
  if (!size)
    return reportError(cudaErrorInvalidValue, "cudaGetSymbolSize");
  if (!lookupSymbol(symbol, &info))
    return reportError(cudaErrorInvalidSymbol, "cudaGetSymbolSize");
  *size = info.size;
  return cudaSuccess;
}
