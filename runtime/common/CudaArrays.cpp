//===- CudaArrays.cpp - The CUDA array entry points of both runtimes ------===//

#include "CudaArrays.h"

#include "Diagnostics.h"

#include <algorithm>
#include <cstdint>

using namespace respec;

namespace {

cudaError_t checkArray(cudaArray_const_t array, ArrayShape *shape,
                       const char *call) {
  return arrayShapeOf(array, shape)
             ? cudaSuccess
             : reportError(cudaErrorInvalidResourceHandle, call,
                           "%p is not a CUDA array", (const void *)array);
}

/// A byte offset or width along an array's rows in elements; CUDA requires
/// whole elements.
bool toElements(const ArrayShape &array, size_t bytes, size_t *elements,
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

/// One side of a deprecated linear copy: a CUDA array, whose bytes are
/// numbered row by row and slice by slice (layer by layer), or memory.
struct LinearSide {
  cudaArray_t array;
  ArrayShape shape;
  char *memory;
  size_t offset; ///< bytes from the start of the array or of `memory`
};

/// Checks the array side `side` for a copy of `count` bytes from (`x`
/// bytes, `y` rows) and sets its starting offset.
cudaError_t startLinearSide(LinearSide &side, size_t x, size_t y, size_t count,
                            const char *call) {
  if (cudaError_t error = checkArray(side.array, &side.shape, call))
    return error;
  const ArrayShape &a = side.shape;
  size_t total = a.rowBytes() * a.rows * a.slices;
  side.offset = y * a.rowBytes() + x;
  if (x > a.rowBytes() || y > a.rows || side.offset > total ||
      count > total - side.offset)
    return reportError(cudaErrorInvalidValue, call,
                       "%zu bytes at (%zu, %zu) run past the array's end",
                       count, x, y);
  if (x % a.elementBytes || count % a.elementBytes)
    return reportError(cudaErrorInvalidValue, call,
                       "%zu bytes at offset %zu are not whole %zu-byte "
                       "elements of the array",
                       count, x, a.elementBytes);
  return cudaSuccess;
}

} // namespace

cudaError_t respec::arraySidesOf(const cudaMemcpy3DParms &p, ArrayShape *src,
                                 ArrayShape *dst, size_t *elementBytes,
                                 const char *call) {
  const cudaArray *unknown = nullptr;
  if (p.srcArray && !arrayShapeOf(p.srcArray, src))
    unknown = p.srcArray;
  else if (p.dstArray && !arrayShapeOf(p.dstArray, dst))
    unknown = p.dstArray;
  if (unknown)
    return reportError(cudaErrorInvalidResourceHandle, call,
                       "%p is not a CUDA array", (const void *)unknown);
  if (p.srcArray && p.dstArray && src->elementBytes != dst->elementBytes)
    return reportError(cudaErrorInvalidValue, call,
                       "the arrays' elements differ in size (%zu and %zu "
                       "bytes)",
                       src->elementBytes, dst->elementBytes);
  if (p.srcArray || p.dstArray)
    *elementBytes = p.srcArray ? src->elementBytes : dst->elementBytes;
  return cudaSuccess;
}

bool respec::fitsArray(const ArrayShape &shape, const cudaPos &pos,
                       const cudaExtent &extent, const char *role,
                       const char *call) {
  if (pos.x <= shape.width && extent.width <= shape.width - pos.x &&
      pos.y <= shape.rows && extent.height <= shape.rows - pos.y &&
      pos.z <= shape.slices && extent.depth <= shape.slices - pos.z)
    return true;
  reportError(cudaErrorInvalidValue, call,
              "the %s region (%zu x %zu x %zu at %zu, %zu, %zu) lies outside "
              "its %zu x %zu x %zu array",
              role, extent.width, extent.height, extent.depth, pos.x, pos.y,
              pos.z, shape.width, shape.rows, shape.slices);
  return false;
}

cudaError_t respec::copy2DWithArray(cudaArray_t dstArray,
                                    cudaArray_const_t srcArray, size_t dstX,
                                    size_t dstY, size_t srcX, size_t srcY,
                                    void *dst, size_t dpitch, const void *src,
                                    size_t spitch, size_t width, size_t height,
                                    cudaMemcpyKind kind, Ordering order,
                                    const char *call) {
  ArrayShape dstShape, srcShape;
  if (dstArray)
    if (cudaError_t error = checkArray(dstArray, &dstShape, call))
      return error;
  if (srcArray)
    if (cudaError_t error = checkArray(srcArray, &srcShape, call))
      return error;
  const ArrayShape &units = dstArray ? dstShape : srcShape;
  cudaMemcpy3DParms p = {};
  if (!toElements(units, width, &p.extent.width, "width", call))
    return cudaErrorInvalidValue;
  p.extent.height = height;
  p.extent.depth = 1;
  p.kind = kind;
  if (dstArray) {
    p.dstArray = dstArray;
    if (!toElements(dstShape, dstX, &p.dstPos.x, "offset", call))
      return cudaErrorInvalidValue;
    p.dstPos.y = dstY;
  } else {
    p.dstPtr = make_cudaPitchedPtr(dst, dpitch, width, height);
  }
  if (srcArray) {
    p.srcArray = const_cast<cudaArray_t>(srcArray);
    if (!toElements(srcShape, srcX, &p.srcPos.x, "offset", call))
      return cudaErrorInvalidValue;
    p.srcPos.y = srcY;
  } else {
    p.srcPtr =
        make_cudaPitchedPtr(const_cast<void *>(src), spitch, width, height);
  }
  return copy3D(&p, order, call);
}

/// The deprecated linear copies: `count` bytes from (wOffset bytes, hOffset
/// rows) on, continuing into the following rows. Each run of the range that
/// is a rectangle on every array side becomes one 3-D copy: with linear
/// memory on the other side, a 2-D array's range is at most a partial first
/// row, whole rows and a partial last row.
cudaError_t respec::copyLinearWithArray(cudaArray_t dstArray,
                                        cudaArray_const_t srcArray, size_t dstX,
                                        size_t dstY, size_t srcX, size_t srcY,
                                        void *dst, const void *src,
                                        size_t count, cudaMemcpyKind kind,
                                        Ordering order, const char *call) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
    return reportError(cudaErrorInvalidMemcpyDirection, call, "kind %d",
                       static_cast<int>(kind));
  LinearSide to{dstArray, {}, static_cast<char *>(dst), 0};
  LinearSide from{const_cast<cudaArray_t>(srcArray),
                  {},
                  static_cast<char *>(const_cast<void *>(src)),
                  0};
  if (to.array)
    if (cudaError_t error = startLinearSide(to, dstX, dstY, count, call))
      return error;
  if (from.array)
    if (cudaError_t error = startLinearSide(from, srcX, srcY, count, call))
      return error;
  if (count == 0)
    return cudaSuccess;
  if ((!to.array && !to.memory) || (!from.array && !from.memory))
    return reportError(cudaErrorInvalidValue, call, "null pointer");
  size_t elementBytes = (to.array ? to.shape : from.shape).elementBytes;
  for (size_t done = 0; done < count;) {
    size_t remaining = count - done;
    LinearSide *sides[2] = {&to, &from};
    // Where each array side stands, and the largest rectangle that fits it.
    size_t x[2] = {}, y[2] = {}, z[2] = {};
    bool aligned = true, wholeSlices = true;
    size_t rowBytes = 0, rows = 0;
    size_t width = remaining, height = SIZE_MAX, depth = SIZE_MAX;
    for (int i = 0; i < 2; ++i) {
      const LinearSide &s = *sides[i];
      if (!s.array)
        continue;
      const ArrayShape &a = s.shape;
      x[i] = s.offset % a.rowBytes();
      size_t row = s.offset / a.rowBytes();
      y[i] = row % a.rows;
      z[i] = row / a.rows;
      width = std::min(width, a.rowBytes() - x[i]);
      height = std::min(height, a.rows - y[i]);
      depth = std::min(depth, a.slices - z[i]);
      aligned = aligned && x[i] == 0 && (!rowBytes || rowBytes == a.rowBytes());
      wholeSlices = wholeSlices && y[i] == 0 && (!rows || rows == a.rows);
      rowBytes = a.rowBytes();
      rows = a.rows;
    }
    if (!aligned || remaining < rowBytes) {
      height = depth = 1; // a partial row
    } else {
      width = rowBytes;
      height = std::min(height, remaining / rowBytes);
      if (wholeSlices && height == rows)
        depth = std::min(depth, remaining / (rowBytes * rows));
      else
        depth = 1;
    }
    cudaMemcpy3DParms p = {};
    p.kind = kind;
    p.extent = make_cudaExtent(width / elementBytes, height, depth);
    for (int i = 0; i < 2; ++i) {
      LinearSide &s = *sides[i];
      cudaArray_t &array = i == 0 ? p.dstArray : p.srcArray;
      cudaPos &pos = i == 0 ? p.dstPos : p.srcPos;
      cudaPitchedPtr &ptr = i == 0 ? p.dstPtr : p.srcPtr;
      if (s.array) {
        array = s.array;
        pos = make_cudaPos(x[i] / s.shape.elementBytes, y[i], z[i]);
      } else {
        ptr = make_cudaPitchedPtr(s.memory + s.offset, width, width, height);
      }
    }
    if (cudaError_t error = copy3D(&p, order, call))
      return error;
    size_t piece = width * height * depth;
    to.offset += piece;
    from.offset += piece;
    done += piece;
  }
  return cudaSuccess;
}

namespace {
constexpr Ordering synchronous{nullptr, false};
Ordering onStream(cudaStream_t stream) { return Ordering{stream, true}; }
} // namespace

extern "C" cudaError_t cudaMallocArray(cudaArray_t *array,
                                       const cudaChannelFormatDesc *desc,
                                       size_t width, size_t height,
                                       unsigned int flags) {
  if (flags & cudaArrayLayered)
    return reportError(cudaErrorInvalidValue, "cudaMallocArray",
                       "layered arrays come from cudaMalloc3DArray");
  return createArray(array, desc, make_cudaExtent(width, height, 0), flags,
                     "cudaMallocArray");
}

extern "C" cudaError_t cudaMalloc3DArray(cudaArray_t *array,
                                         const cudaChannelFormatDesc *desc,
                                         cudaExtent extent,
                                         unsigned int flags) {
  return createArray(array, desc, extent, flags, "cudaMalloc3DArray");
}

extern "C" cudaChannelFormatDesc
cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return cudaChannelFormatDesc{x, y, z, w, f};
}

extern "C" cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset,
                                           size_t hOffset, const void *src,
                                           size_t spitch, size_t width,
                                           size_t height, cudaMemcpyKind kind) {
  return copy2DWithArray(dst, nullptr, wOffset, hOffset, 0, 0, nullptr, 0, src,
                         spitch, width, height, kind, synchronous,
                         "cudaMemcpy2DToArray");
}

extern "C" cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset,
                                                size_t hOffset, const void *src,
                                                size_t spitch, size_t width,
                                                size_t height,
                                                cudaMemcpyKind kind,
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
