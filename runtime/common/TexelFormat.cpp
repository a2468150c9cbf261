//===- TexelFormat.cpp - The layout of a texel from a channel descriptor --===//

#include "TexelFormat.h"

#include "Diagnostics.h"

#include <algorithm>

using namespace respec;

std::optional<TexelFormat> TexelFormat::of(const cudaChannelFormatDesc &desc,
                                           std::string *problem) {
  auto normalized = [](Kind kind, int channels,
                       int bits) -> std::optional<TexelFormat> {
    return TexelFormat{kind, channels, bits, true,
                       static_cast<size_t>(channels * bits / 8)};
  };
  switch (desc.f) {
  case cudaChannelFormatKindUnsignedNormalized8X1:
    return normalized(Unsigned, 1, 8);
  case cudaChannelFormatKindUnsignedNormalized8X2:
    return normalized(Unsigned, 2, 8);
  case cudaChannelFormatKindUnsignedNormalized8X4:
    return normalized(Unsigned, 4, 8);
  case cudaChannelFormatKindUnsignedNormalized16X1:
    return normalized(Unsigned, 1, 16);
  case cudaChannelFormatKindUnsignedNormalized16X2:
    return normalized(Unsigned, 2, 16);
  case cudaChannelFormatKindUnsignedNormalized16X4:
    return normalized(Unsigned, 4, 16);
  case cudaChannelFormatKindSignedNormalized8X1:
    return normalized(Signed, 1, 8);
  case cudaChannelFormatKindSignedNormalized8X2:
    return normalized(Signed, 2, 8);
  case cudaChannelFormatKindSignedNormalized8X4:
    return normalized(Signed, 4, 8);
  case cudaChannelFormatKindSignedNormalized16X1:
    return normalized(Signed, 1, 16);
  case cudaChannelFormatKindSignedNormalized16X2:
    return normalized(Signed, 2, 16);
  case cudaChannelFormatKindSignedNormalized16X4:
    return normalized(Signed, 4, 16);
  case cudaChannelFormatKindSigned:
  case cudaChannelFormatKindUnsigned:
  case cudaChannelFormatKindFloat:
    break;
  default:
    *problem = "channel format kind " + std::to_string(desc.f) +
               " is not supported by respec";
    return std::nullopt;
  }
  int widths[4] = {desc.x, desc.y, desc.z, desc.w};
  int channels = 0;
  while (channels < 4 && widths[channels] != 0)
    ++channels;
  for (int i = channels; i < 4; ++i)
    if (widths[i] != 0)
      channels = -1;
  int bits = desc.x;
  bool sameWidths =
      channels > 0 &&
      std::all_of(widths, widths + channels, [&](int w) { return w == bits; });
  bool validWidth = desc.f == cudaChannelFormatKindFloat
                        ? bits == 16 || bits == 32
                        : bits == 8 || bits == 16 || bits == 32;
  if (!sameWidths || !validWidth) {
    *problem = "channel widths {" + std::to_string(desc.x) + ", " +
               std::to_string(desc.y) + ", " + std::to_string(desc.z) + ", " +
               std::to_string(desc.w) + "} do not describe a texel";
    return std::nullopt;
  }
  if (channels == 3) {
    *problem = "CUDA arrays and textures have 1, 2 or 4 channels, not 3";
    return std::nullopt;
  }
  Kind kind = desc.f == cudaChannelFormatKindSigned     ? Signed
              : desc.f == cudaChannelFormatKindUnsigned ? Unsigned
                                                        : Float;
  return TexelFormat{kind, channels, bits, false,
                     static_cast<size_t>(channels * bits / 8)};
}

cudaError_t respec::checkResource(const cudaResourceDesc &resource,
                                  bool forSurface,
                                  std::optional<TexelFormat> *memoryFormat,
                                  const char *call) {
  switch (resource.resType) {
  case cudaResourceTypeArray:
    return cudaSuccess;
  case cudaResourceTypeMipmappedArray:
    return reportError(cudaErrorNotSupported, call,
                       "mipmapped arrays are not supported by respec");
  case cudaResourceTypeLinear:
  case cudaResourceTypePitch2D:
    if (forSurface)
      return reportError(cudaErrorInvalidValue, call,
                         "surface objects need a CUDA array resource");
    break;
  default:
    return reportError(cudaErrorInvalidValue, call, "resource type %d",
                       static_cast<int>(resource.resType));
  }
  bool linear = resource.resType == cudaResourceTypeLinear;
  std::string problem;
  *memoryFormat = TexelFormat::of(
      linear ? resource.res.linear.desc : resource.res.pitch2D.desc, &problem);
  if (!*memoryFormat)
    return reportError(cudaErrorInvalidChannelDescriptor, call, "%s",
                       problem.c_str());
  if (linear)
    return resource.res.linear.devPtr
               ? cudaSuccess
               : reportError(cudaErrorInvalidValue, call, "null devPtr");
  const auto &pitch = resource.res.pitch2D;
  if (!pitch.devPtr || pitch.width == 0 || pitch.height == 0)
    return reportError(cudaErrorInvalidValue, call,
                       "null devPtr or empty extent");
  if (pitch.pitchInBytes < pitch.width * (*memoryFormat)->bytes)
    return reportError(cudaErrorInvalidPitchValue, call,
                       "pitch %zu is less than a row of %zu texels",
                       pitch.pitchInBytes, pitch.width);
  return cudaSuccess;
}
