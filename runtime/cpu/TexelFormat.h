//===- TexelFormat.h - The layout of a texel from a channel descriptor ----===//

#ifndef RESPEC_RUNTIME_CPU_TEXELFORMAT_H
#define RESPEC_RUNTIME_CPU_TEXELFORMAT_H

#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>
#include <string>

namespace respec::cpu {

/// What a cudaChannelFormatDesc describes: 1 to 4 channels of one kind and
/// width.
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

} // namespace respec::cpu

#endif // RESPEC_RUNTIME_CPU_TEXELFORMAT_H
