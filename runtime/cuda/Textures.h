//===- Textures.h - CUDA arrays of the GPU runtime ------------------------===//
//
// The GPU runtime keeps a registry of the CUDA arrays it created
// (Textures.cpp); copies that involve arrays (Memcpy.cpp) ask it for their
// shape, since the driver's handles do not carry the runtime's units.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_CUDA_TEXTURES_H
#define RESPEC_RUNTIME_CUDA_TEXTURES_H

#include <cuda_runtime_api.h>

#include <cstddef>

namespace respec {
namespace gpu {

/// The element size in bytes of `array` and its width (elements), rows and
/// slices or layers (at least 1 each), if it is a live CUDA array.
bool arrayShape(const cudaArray *array, size_t *elementBytes, size_t size[3]);

} // namespace gpu
} // namespace respec

#endif // RESPEC_RUNTIME_CUDA_TEXTURES_H
