//===- CudaArrays.h - Copies to, from and between CUDA arrays ------------===//
//
// The runtime API's array copies (cudaMemcpy2DToArray, the deprecated
// cudaMemcpyToArray, ...) are the same for both runtimes: each becomes one
// or more cudaMemcpy3D-style copies (copy3D, Backend.h), which each runtime
// performs its own way. What they need from a runtime is the shape of its
// arrays.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_COMMON_CUDAARRAYS_H
#define RESPEC_RUNTIME_COMMON_CUDAARRAYS_H

#include "Backend.h"

#include <cstddef>

namespace respec {

/// A CUDA array's size in the runtime API's units.
struct ArrayShape {
  size_t elementBytes;
  size_t width;  ///< elements
  size_t rows;   ///< at least 1
  size_t slices; ///< slices or layers, at least 1

  size_t rowBytes() const { return width * elementBytes; }
};

/// Backend hook: the shape of `array`, if it is a live CUDA array of this
/// runtime.
bool arrayShapeOf(cudaArray_const_t array, ArrayShape *shape);

/// Backend hook: creates an array of `extent` (height 0 for 1-D arrays,
/// depth 0 for 1-D and 2-D ones, the layers for layered ones) with the
/// cudaArray* `flags`, reporting errors for `call`.
cudaError_t createArray(cudaArray_t *array, const cudaChannelFormatDesc *desc,
                        cudaExtent extent, unsigned flags, const char *call);

/// The shapes of a cudaMemcpy3D's array sides (a pointer side's shape is
/// left as it is), after CUDA's checks: each is a live array
/// (cudaErrorInvalidResourceHandle), and two arrays have elements of one
/// size (cudaErrorInvalidValue). `elementBytes` is the arrays' element
/// size, in which the extent's width counts; unchanged without arrays.
cudaError_t arraySidesOf(const cudaMemcpy3DParms &p, ArrayShape *src,
                         ArrayShape *dst, size_t *elementBytes,
                         const char *call);

/// True if the region of `extent` elements, rows and slices at `pos` lies
/// inside an array of `shape`; reports cudaErrorInvalidValue for `call`
/// otherwise (`role`: "source" or "destination").
bool fitsArray(const ArrayShape &shape, const cudaPos &pos,
               const cudaExtent &extent, const char *role, const char *call);

/// The 2-D copies between arrays and memory, offsets and widths in bytes as
/// the runtime API states them (each must be whole elements): `dstArray` or
/// `dst`/`dpitch` is the destination, `srcArray` or `src`/`spitch` the
/// source.
cudaError_t copy2DWithArray(cudaArray_t dstArray, cudaArray_const_t srcArray,
                            size_t dstX, size_t dstY, size_t srcX, size_t srcY,
                            void *dst, size_t dpitch, const void *src,
                            size_t spitch, size_t width, size_t height,
                            cudaMemcpyKind kind, Ordering order,
                            const char *call);

/// The deprecated linear copies: `count` bytes from (x bytes, y rows) of an
/// array on, continuing into the following rows and slices.
cudaError_t copyLinearWithArray(cudaArray_t dstArray,
                                cudaArray_const_t srcArray, size_t dstX,
                                size_t dstY, size_t srcX, size_t srcY,
                                void *dst, const void *src, size_t count,
                                cudaMemcpyKind kind, Ordering order,
                                const char *call);

} // namespace respec

#endif // RESPEC_RUNTIME_COMMON_CUDAARRAYS_H
