//===- Textures.h - CUDA arrays, texture and surface objects --------------===//
//
// The CPU device keeps a CUDA array as row-major texels in device memory
// (one allocation per array), so that copies to and from arrays are pitched
// copies (Memcpy.cpp) and texture and surface objects address it directly.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_CPU_TEXTURES_H
#define RESPEC_RUNTIME_CPU_TEXTURES_H

#include <cuda_runtime_api.h>

#include <cstddef>

/// A CUDA array (the runtime API's opaque cudaArray_t).
struct cudaArray {
  char *data;
  cudaChannelFormatDesc desc;
  size_t elementBytes;
  /// As allocated: height 0 for 1-D arrays, depth 0 for 1-D and 2-D ones;
  /// for layered arrays the depth is the number of layers.
  cudaExtent extent;
  unsigned flags;

  size_t rowBytes() const { return extent.width * elementBytes; }
  size_t rows() const { return extent.height ? extent.height : 1; }
  size_t slices() const { return extent.depth ? extent.depth : 1; }
};

namespace respec::cpu {

/// True if `array` was returned by cudaMallocArray / cudaMalloc3DArray and
/// not freed since.
bool isLiveArray(const cudaArray *array);

/// `array`'s texels as a pitched pointer (rows of `rowBytes()` bytes).
cudaPitchedPtr pitchedPointerOf(const cudaArray &array);

} // namespace respec::cpu

#endif // RESPEC_RUNTIME_CPU_TEXTURES_H
