//===- TexelFormat.h - The layout of a texel from a channel descriptor ----===//

#ifndef RESPEC_RUNTIME_COMMON_TEXELFORMAT_H
#define RESPEC_RUNTIME_COMMON_TEXELFORMAT_H

#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>
#include <string>

namespace respec {

/// What a cudaChannelFormatDesc describes: 1 to 4 channels of one kind and
/// width. Both runtimes read channel descriptors with it: the CPU's to
/// address and convert texels, the GPU's to name the driver's format.
struct TexelFormat {
  enum Kind { Signed, Unsigned, Float };
  Kind kind;
  int channels;
  int bits; ///< per channel: 8, 16 or 32
  /// The normalized-integer kinds (cudaChannelFormatKindUnsignedNormalized8X1
  /// ...) always read as normalized floats.
  bool alwaysNormalized;
  size_t bytes; ///< per texel

  /// The format of `desc`, or nullopt with the reason in `problem`.
  static std::optional<TexelFormat> of(const cudaChannelFormatDesc &desc,
                                       std::string *problem);
};

/// The checks both runtimes make on a texture's or surface's resource
/// description before they look at its memory: the resource type (mipmapped
/// arrays are not supported, surfaces take arrays only) and, for linear and
/// pitched memory, the channel descriptor (into `memoryFormat`), the
/// pointer, the extent and the pitch. Arrays are each runtime's to check.
cudaError_t checkResource(const cudaResourceDesc &resource, bool forSurface,
                          std::optional<TexelFormat> *memoryFormat,
                          const char *call);

} // namespace respec

#endif // RESPEC_RUNTIME_COMMON_TEXELFORMAT_H
