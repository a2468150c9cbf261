//===- Textures.cpp - Texture and surface objects on the CPU --------------===//
//
// A texture or surface object handle is the address of a description of its
// memory and sampler, which the generated code passes to the fetch entry
// points of abi.h (the translation of PTX's tex, suld and sust). Sampling
// follows the CUDA programming guide's texture fetching rules: point and
// linear filtering (weights in 9-bit fixed point with 8 fraction bits, as
// the texture units compute them), the four address modes (wrap and mirror
// for normalized coordinates only), border colors, and the normalized-float
// read mode of 8- and 16-bit integer texels.
//
//===----------------------------------------------------------------------===//

#include "Textures.h"

#include "../common/Diagnostics.h"
#include "TexelFormat.h"
#include "respec_rt/abi.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_set>

using namespace respec;
using namespace respec::cpu;

std::optional<TexelFormat>
TexelFormat::of(const cudaChannelFormatDesc &desc, std::string *problem) {
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
  bool sameWidths = channels > 0 && std::all_of(widths, widths + channels,
                                                [&](int w) { return w == bits; });
  bool validWidth = desc.f == cudaChannelFormatKindFloat
                        ? bits == 16 || bits == 32
                        : bits == 8 || bits == 16 || bits == 32;
  if (!sameWidths || !validWidth) {
    *problem = "channel widths {" + std::to_string(desc.x) + ", " +
               std::to_string(desc.y) + ", " + std::to_string(desc.z) + ", " +
               std::to_string(desc.w) + "} do not describe a texel";
    return std::nullopt;
  }
  Kind kind = desc.f == cudaChannelFormatKindSigned     ? Signed
              : desc.f == cudaChannelFormatKindUnsigned ? Unsigned
                                                        : Float;
  return TexelFormat{kind, channels, bits, false,
                     static_cast<size_t>(channels * bits / 8)};
}

namespace {

/// The memory a texture or surface object reads: `layers` layers (1 unless
/// layered) of `depth` slices of `height` rows of `width` texels.
struct TexelMemory {
  const char *data;
  TexelFormat format;
  unsigned dims; ///< 1, 2 or 3 addressed dimensions, layers aside
  bool layered;
  size_t size[3]; ///< width, height, depth in texels (1 past `dims`)
  size_t layers;
  size_t rowPitch;
  size_t slicePitch; ///< bytes from one slice or layer to the next
  /// Linear memory (tex1Dfetch): out-of-range fetches return zero.
  bool linear;

  const char *texel(const size_t index[3], size_t layer) const {
    return data + (layer * size[2] + index[2]) * slicePitch +
           index[1] * rowPitch + index[0] * format.bytes;
  }
};

/// Texture and surface objects share one registry; the tag at the start of
/// each tells the kinds apart.
enum ObjectTag : uint32_t { TextureTag = 0x54455854, SurfaceTag = 0x53555246 };

struct TextureObject {
  respec_texture_header header; // first: generated code reads it
  cudaResourceDesc resource;
  cudaTextureDesc sampler;
  TexelMemory memory;
  /// Results are floats: float texels, or integers read as normalized
  /// floats.
  bool floatResults;
  bool normalizedRead;
};

struct SurfaceObject {
  uint32_t tag;
  cudaResourceDesc resource;
  TexelMemory memory;
};

std::mutex &objectsMutex() {
  static std::mutex mutex;
  return mutex;
}

std::unordered_set<const void *> &liveObjects() {
  static std::unordered_set<const void *> objects;
  return objects;
}

void remember(const void *object) {
  std::lock_guard<std::mutex> lock(objectsMutex());
  liveObjects().insert(object);
}

bool forget(const void *object) {
  std::lock_guard<std::mutex> lock(objectsMutex());
  return liveObjects().erase(object) != 0;
}

bool isLive(const void *object) {
  std::lock_guard<std::mutex> lock(objectsMutex());
  return liveObjects().count(object) != 0;
}

template <typename T> T *lookup(unsigned long long handle, uint32_t tag) {
  auto *object = reinterpret_cast<T *>(handle);
  if (!handle || !isLive(object) || *reinterpret_cast<uint32_t *>(object) != tag)
    return nullptr;
  return object;
}

/// The memory an array-backed resource describes.
cudaError_t memoryOfArray(const cudaArray *array, TexelMemory *memory,
                          const char *call) {
  if (!isLiveArray(array))
    return reportError(cudaErrorInvalidResourceHandle, call,
                       "%p is not a CUDA array", (const void *)array);
  std::string problem;
  std::optional<TexelFormat> format = TexelFormat::of(array->desc, &problem);
  const cudaExtent &e = array->extent;
  bool layered = array->flags & cudaArrayLayered;
  unsigned dims = 1 + (e.height != 0) + (e.depth != 0 && !layered);
  *memory = TexelMemory{array->data,
                        *format,
                        dims,
                        layered,
                        {e.width, array->rows(), layered ? 1 : array->slices()},
                        layered ? e.depth : 1,
                        array->rowBytes(),
                        array->rowBytes() * array->rows(),
                        false};
  return cudaSuccess;
}

std::optional<TexelFormat> formatOf(const cudaChannelFormatDesc &desc,
                                    const char *call) {
  std::string problem;
  std::optional<TexelFormat> format = TexelFormat::of(desc, &problem);
  if (!format)
    reportError(cudaErrorInvalidChannelDescriptor, call, "%s", problem.c_str());
  return format;
}

/// The memory a resource description names, for a texture (`forSurface`
/// false) or a surface.
cudaError_t memoryOf(const cudaResourceDesc &resource, bool forSurface,
                     TexelMemory *memory, const char *call) {
  switch (resource.resType) {
  case cudaResourceTypeArray:
    return memoryOfArray(resource.res.array.array, memory, call);
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
  if (resource.resType == cudaResourceTypeLinear) {
    const auto &linear = resource.res.linear;
    std::optional<TexelFormat> format = formatOf(linear.desc, call);
    if (!format)
      return cudaErrorInvalidChannelDescriptor;
    if (!linear.devPtr)
      return reportError(cudaErrorInvalidValue, call, "null devPtr");
    size_t texels = linear.sizeInBytes / format->bytes;
    *memory = TexelMemory{static_cast<const char *>(linear.devPtr),
                          *format,
                          1,
                          false,
                          {texels, 1, 1},
                          1,
                          linear.sizeInBytes,
                          linear.sizeInBytes,
                          true};
    return cudaSuccess;
  }
  const auto &pitch = resource.res.pitch2D;
  std::optional<TexelFormat> format = formatOf(pitch.desc, call);
  if (!format)
    return cudaErrorInvalidChannelDescriptor;
  if (!pitch.devPtr || pitch.width == 0 || pitch.height == 0)
    return reportError(cudaErrorInvalidValue, call,
                       "null devPtr or empty extent");
  if (pitch.pitchInBytes < pitch.width * format->bytes)
    return reportError(cudaErrorInvalidPitchValue, call,
                       "pitch %zu is less than a row of %zu texels",
                       pitch.pitchInBytes, pitch.width);
  *memory = TexelMemory{static_cast<const char *>(pitch.devPtr),
                        *format,
                        2,
                        false,
                        {pitch.width, pitch.height, 1},
                        1,
                        pitch.pitchInBytes,
                        pitch.pitchInBytes * pitch.height,
                        false};
  return cudaSuccess;
}

//===- Sampling -----------------------------------------------------------===//

float halfToFloat(uint16_t half) {
  uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  uint32_t exponent = (half >> 10) & 0x1f;
  uint32_t mantissa = half & 0x3ff;
  if (exponent == 0) {
    float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  uint32_t bits = exponent == 31
                      ? sign | 0x7f800000u | (mantissa << 13)
                      : sign | ((exponent + 112) << 23) | (mantissa << 13);
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

int64_t integerChannel(const char *p, const TexelFormat &format) {
  switch (format.bits) {
  case 8:
    return format.kind == TexelFormat::Signed
               ? static_cast<int64_t>(*reinterpret_cast<const int8_t *>(p))
               : static_cast<int64_t>(*reinterpret_cast<const uint8_t *>(p));
  case 16: {
    uint16_t bits;
    std::memcpy(&bits, p, 2);
    return format.kind == TexelFormat::Signed
               ? static_cast<int64_t>(static_cast<int16_t>(bits))
               : static_cast<int64_t>(bits);
  }
  default: {
    uint32_t bits;
    std::memcpy(&bits, p, 4);
    return format.kind == TexelFormat::Signed
               ? static_cast<int64_t>(static_cast<int32_t>(bits))
               : static_cast<int64_t>(bits);
  }
  }
}

/// A channel as a float result: float texels converted, integers scaled to
/// [0, 1] or [-1, 1] (normalized read mode).
float floatChannel(const char *p, const TexelFormat &format) {
  if (format.kind == TexelFormat::Float) {
    if (format.bits == 16) {
      uint16_t bits;
      std::memcpy(&bits, p, 2);
      return halfToFloat(bits);
    }
    float value;
    std::memcpy(&value, p, 4);
    return value;
  }
  int64_t value = integerChannel(p, format);
  if (format.kind == TexelFormat::Unsigned)
    return static_cast<float>(value) /
           static_cast<float>((int64_t(1) << format.bits) - 1);
  float scaled = static_cast<float>(value) /
                 static_cast<float>((int64_t(1) << (format.bits - 1)) - 1);
  return std::max(scaled, -1.0f);
}

/// One texel's four result lanes (absent channels read 0, alpha 1).
struct Lanes {
  float f[4];
  uint32_t bits[4];
};

void readTexel(const TextureObject &t, const char *p, Lanes &out) {
  const TexelFormat &format = t.memory.format;
  for (int c = 0; c < 4; ++c) {
    if (c >= format.channels) {
      out.f[c] = c == 3 ? 1.0f : 0.0f;
      out.bits[c] = c == 3 ? 1u : 0u;
      continue;
    }
    const char *channel = p + c * (format.bits / 8);
    if (t.floatResults)
      out.f[c] = floatChannel(channel, format);
    else
      out.bits[c] = static_cast<uint32_t>(integerChannel(channel, format));
  }
}

void borderTexel(const TextureObject &t, Lanes &out) {
  for (int c = 0; c < 4; ++c) {
    out.f[c] = t.sampler.borderColor[c];
    out.bits[c] = static_cast<uint32_t>(
        static_cast<int32_t>(t.sampler.borderColor[c]));
  }
}

/// The texel index a coordinate's integer part selects in a dimension of
/// `n` texels, or -1 for the border.
int64_t addressTexel(int64_t i, int64_t n, cudaTextureAddressMode mode,
                     bool normalizedCoords) {
  // CUDA applies wrap and mirror to normalized coordinates only; with
  // unnormalized ones they clamp.
  if (!normalizedCoords &&
      (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror))
    mode = cudaAddressModeClamp;
  switch (mode) {
  case cudaAddressModeWrap:
    return ((i % n) + n) % n;
  case cudaAddressModeMirror: {
    int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
    return m < n ? m : 2 * n - 1 - m;
  }
  case cudaAddressModeBorder:
    return i >= 0 && i < n ? i : -1;
  default:
    return std::clamp<int64_t>(i, 0, n - 1);
  }
}

/// A coordinate in texels, kept finite and small enough for int64 indices.
double texelCoordinate(float coordinate, size_t size, bool normalizedCoords) {
  double u = coordinate;
  if (std::isnan(u))
    u = 0;
  if (normalizedCoords)
    u *= static_cast<double>(size);
  return std::clamp(u, -1e15, 1e15);
}

/// The texel at integer indices `index` (one per dimension) of `layer`,
/// address modes applied.
void fetchAt(const TextureObject &t, const int64_t index[3], size_t layer,
             Lanes &out) {
  size_t at[3] = {0, 0, 0};
  for (unsigned d = 0; d < t.memory.dims; ++d) {
    int64_t i = addressTexel(index[d], static_cast<int64_t>(t.memory.size[d]),
                             t.sampler.addressMode[d],
                             t.sampler.normalizedCoords);
    if (i < 0)
      return borderTexel(t, out);
    at[d] = static_cast<size_t>(i);
  }
  readTexel(t, t.memory.texel(at, layer), out);
}

respec_texel packLanes(const TextureObject &t, const Lanes &lanes) {
  respec_texel result;
  for (int c = 0; c < 4; ++c) {
    uint32_t bits = lanes.bits[c];
    if (t.floatResults)
      std::memcpy(&bits, &lanes.f[c], 4);
    result[c] = bits;
  }
  return result;
}

size_t layerIndex(const TexelMemory &memory, int32_t layer) {
  return static_cast<size_t>(
      std::clamp<int64_t>(layer, 0, static_cast<int64_t>(memory.layers) - 1));
}

respec_texel sampleLinear(const TextureObject &t, const double u[3],
                          size_t layer) {
  unsigned dims = t.memory.dims;
  int64_t base[3] = {0, 0, 0};
  float weight[3] = {0, 0, 0};
  for (unsigned d = 0; d < dims; ++d) {
    double b = u[d] - 0.5;
    double floor = std::floor(b);
    base[d] = static_cast<int64_t>(floor);
    // The texture unit keeps the fraction in 8 bits.
    weight[d] = static_cast<float>(std::nearbyint((b - floor) * 256.0) / 256.0);
  }
  float sum[4] = {0, 0, 0, 0};
  for (unsigned corner = 0; corner < (1u << dims); ++corner) {
    int64_t index[3] = {0, 0, 0};
    float w = 1.0f;
    for (unsigned d = 0; d < dims; ++d) {
      bool upper = corner & (1u << d);
      index[d] = base[d] + upper;
      w *= upper ? weight[d] : 1.0f - weight[d];
    }
    Lanes lanes;
    fetchAt(t, index, layer, lanes);
    for (int c = 0; c < 4; ++c)
      sum[c] += w * lanes.f[c];
  }
  Lanes result;
  std::copy(sum, sum + 4, result.f);
  return packLanes(t, result);
}

[[noreturn]] void deviceFault(const char *what, unsigned long long handle) {
  std::fflush(stdout);
  std::fprintf(stderr,
               "respec: a kernel used %s 0x%llx, which is not a live object "
               "of that kind: unspecified launch failure\n",
               what, handle);
  std::fflush(stderr);
  std::abort();
}

const TextureObject &textureFor(uint64_t handle) {
  auto *texture = reinterpret_cast<const TextureObject *>(handle);
  if (!texture || texture->header.tag != TextureTag)
    deviceFault("texture object", handle);
  return *texture;
}

const SurfaceObject &surfaceFor(uint64_t handle) {
  auto *surface = reinterpret_cast<const SurfaceObject *>(handle);
  if (!surface || surface->tag != SurfaceTag)
    deviceFault("surface object", handle);
  return *surface;
}

//===- Surfaces -----------------------------------------------------------===//

/// The address of the `bytes`-byte access at (`x` bytes, y, z, layer), after
/// the boundary mode; null for `.zero` accesses out of range.
char *surfaceAddress(const SurfaceObject &s, int32_t x, int32_t y, int32_t z,
                     int32_t layer, uint32_t bytes, int32_t mode) {
  const TexelMemory &m = s.memory;
  int64_t coordinate[4] = {x, y, z, layer};
  int64_t limit[4] = {static_cast<int64_t>(m.size[0] * m.format.bytes) -
                          static_cast<int64_t>(bytes) + 1,
                      static_cast<int64_t>(m.size[1]),
                      static_cast<int64_t>(m.size[2]),
                      static_cast<int64_t>(m.layers)};
  for (int d = 0; d < 4; ++d) {
    if (coordinate[d] >= 0 && coordinate[d] < limit[d])
      continue;
    if (mode == RESPEC_SURFACE_ZERO)
      return nullptr;
    if (mode == RESPEC_SURFACE_CLAMP && limit[d] > 0) {
      coordinate[d] = std::clamp<int64_t>(coordinate[d], 0, limit[d] - 1);
      continue;
    }
    std::fflush(stdout);
    std::fprintf(stderr,
                 "respec: a kernel accessed a surface out of range (%d "
                 "bytes at x = %d bytes, y = %d, z = %d, layer = %d; the "
                 "surface has %zu x %zu x %zu texels of %zu bytes and %zu "
                 "layers): unspecified launch failure\n",
                 bytes, x, y, z, layer, m.size[0], m.size[1], m.size[2],
                 m.format.bytes, m.layers);
    std::fflush(stderr);
    std::abort();
  }
  return const_cast<char *>(m.data) +
         (coordinate[3] * m.size[2] + coordinate[2]) * m.slicePitch +
         coordinate[1] * m.rowPitch + coordinate[0];
}

} // namespace

//===- Host API -------------------------------------------------------------===//

extern "C" cudaError_t
cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                        const cudaResourceDesc *pResDesc,
                        const cudaTextureDesc *pTexDesc,
                        const cudaResourceViewDesc *pResViewDesc) {
  const char *call = "cudaCreateTextureObject";
  if (!pTexObject || !pResDesc || !pTexDesc)
    return reportError(cudaErrorInvalidValue, call, "null pointer argument");
  if (pResViewDesc)
    return reportError(cudaErrorNotSupported, call,
                       "resource views are not supported by respec");
  TextureObject t{{TextureTag, 0, nullptr, 0, 0, 0}, *pResDesc, *pTexDesc, {},
                  false, false};
  if (cudaError_t error = memoryOf(*pResDesc, false, &t.memory, call))
    return error;
  const cudaTextureDesc &s = *pTexDesc;
  if (s.sRGB)
    return reportError(cudaErrorNotSupported, call,
                       "sRGB textures are not supported by respec");
  for (cudaTextureAddressMode mode : s.addressMode)
    if (mode < cudaAddressModeWrap || mode > cudaAddressModeBorder)
      return reportError(cudaErrorInvalidValue, call, "address mode %d",
                         static_cast<int>(mode));
  if (s.filterMode != cudaFilterModePoint &&
      s.filterMode != cudaFilterModeLinear)
    return reportError(cudaErrorInvalidValue, call, "filter mode %d",
                       static_cast<int>(s.filterMode));
  if (s.readMode != cudaReadModeElementType &&
      s.readMode != cudaReadModeNormalizedFloat)
    return reportError(cudaErrorInvalidValue, call, "read mode %d",
                       static_cast<int>(s.readMode));
  const TexelFormat &format = t.memory.format;
  bool integer = format.kind != TexelFormat::Float;
  t.normalizedRead = integer && (format.alwaysNormalized ||
                                 s.readMode == cudaReadModeNormalizedFloat);
  if (t.normalizedRead && format.bits == 32)
    return reportError(cudaErrorInvalidValue, call,
                       "32-bit integer texels cannot be read as normalized "
                       "floats");
  t.floatResults = !integer || t.normalizedRead;
  if (s.filterMode == cudaFilterModeLinear && !t.floatResults)
    return reportError(cudaErrorInvalidValue, call,
                       "linear filtering needs float results: float texels, "
                       "or integer texels read as normalized floats");
  const TexelMemory &m = t.memory;
  t.header.linearWords = m.linear && format.bits == 32 && !t.normalizedRead;
  t.header.data = m.data;
  t.header.texels = m.size[0];
  t.header.channels = static_cast<uint32_t>(format.channels);
  t.header.alpha = format.kind == TexelFormat::Float ? 0x3f800000u : 1u;
  auto *created = new TextureObject(t);
  remember(created);
  *pTexObject = reinterpret_cast<cudaTextureObject_t>(created);
  return cudaSuccess;
}

extern "C" cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  if (!texObject)
    return cudaSuccess;
  if (!lookup<TextureObject>(texObject, TextureTag) ||
      !forget(reinterpret_cast<void *>(texObject)))
    return reportError(cudaErrorInvalidValue, "cudaDestroyTextureObject",
                       "0x%llx is not a texture object", texObject);
  delete reinterpret_cast<TextureObject *>(texObject);
  return cudaSuccess;
}

extern "C" cudaError_t
cudaGetTextureObjectResourceDesc(cudaResourceDesc *pResDesc,
                                 cudaTextureObject_t texObject) {
  TextureObject *t = lookup<TextureObject>(texObject, TextureTag);
  if (!pResDesc || !t)
    return reportError(cudaErrorInvalidValue,
                       "cudaGetTextureObjectResourceDesc");
  *pResDesc = t->resource;
  return cudaSuccess;
}

extern "C" cudaError_t
cudaGetTextureObjectTextureDesc(cudaTextureDesc *pTexDesc,
                                cudaTextureObject_t texObject) {
  TextureObject *t = lookup<TextureObject>(texObject, TextureTag);
  if (!pTexDesc || !t)
    return reportError(cudaErrorInvalidValue,
                       "cudaGetTextureObjectTextureDesc");
  *pTexDesc = t->sampler;
  return cudaSuccess;
}

extern "C" cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                               const cudaResourceDesc *pResDesc) {
  const char *call = "cudaCreateSurfaceObject";
  if (!pSurfObject || !pResDesc)
    return reportError(cudaErrorInvalidValue, call, "null pointer argument");
  SurfaceObject s{SurfaceTag, *pResDesc, {}};
  if (cudaError_t error = memoryOf(*pResDesc, true, &s.memory, call))
    return error;
  if (!(pResDesc->res.array.array->flags & cudaArraySurfaceLoadStore))
    return reportError(cudaErrorInvalidValue, call,
                       "the array was allocated without "
                       "cudaArraySurfaceLoadStore");
  auto *created = new SurfaceObject(s);
  remember(created);
  *pSurfObject = reinterpret_cast<cudaSurfaceObject_t>(created);
  return cudaSuccess;
}

extern "C" cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  if (!surfObject)
    return cudaSuccess;
  if (!lookup<SurfaceObject>(surfObject, SurfaceTag) ||
      !forget(reinterpret_cast<void *>(surfObject)))
    return reportError(cudaErrorInvalidValue, "cudaDestroySurfaceObject",
                       "0x%llx is not a surface object", surfObject);
  delete reinterpret_cast<SurfaceObject *>(surfObject);
  return cudaSuccess;
}

extern "C" cudaError_t
cudaGetSurfaceObjectResourceDesc(cudaResourceDesc *pResDesc,
                                 cudaSurfaceObject_t surfObject) {
  SurfaceObject *s = lookup<SurfaceObject>(surfObject, SurfaceTag);
  if (!pResDesc || !s)
    return reportError(cudaErrorInvalidValue,
                       "cudaGetSurfaceObjectResourceDesc");
  *pResDesc = s->resource;
  return cudaSuccess;
}

//===- Device entry points ---------------------------------------------------===//

extern "C" respec_texel __respec_tex_sample(uint64_t texture, float x, float y,
                                            float z, int32_t layer) {
  const TextureObject &t = textureFor(texture);
  size_t layerAt = layerIndex(t.memory, layer);
  float coordinate[3] = {x, y, z};
  double u[3] = {0, 0, 0};
  for (unsigned d = 0; d < t.memory.dims; ++d)
    u[d] = texelCoordinate(coordinate[d], t.memory.size[d],
                           t.sampler.normalizedCoords);
  if (t.sampler.filterMode == cudaFilterModeLinear)
    return sampleLinear(t, u, layerAt);
  int64_t index[3] = {0, 0, 0};
  for (unsigned d = 0; d < t.memory.dims; ++d)
    index[d] = static_cast<int64_t>(std::floor(u[d]));
  Lanes lanes;
  fetchAt(t, index, layerAt, lanes);
  return packLanes(t, lanes);
}

extern "C" respec_texel __respec_tex_fetch(uint64_t texture, int32_t x,
                                           int32_t y, int32_t z,
                                           int32_t layer) {
  const TextureObject &t = textureFor(texture);
  int64_t index[3] = {x, y, z};
  Lanes lanes;
  if (t.memory.linear) {
    // tex1Dfetch: no addressing; out-of-range texels read as zero.
    if (x < 0 || static_cast<size_t>(x) >= t.memory.size[0])
      return respec_texel{0, 0, 0, 0};
    size_t at[3] = {static_cast<size_t>(x), 0, 0};
    readTexel(t, t.memory.texel(at, 0), lanes);
  } else {
    fetchAt(t, index, layerIndex(t.memory, layer), lanes);
  }
  return packLanes(t, lanes);
}

extern "C" respec_texel __respec_surf_load(uint64_t surface, int32_t x,
                                           int32_t y, int32_t z, int32_t layer,
                                           uint32_t bytes, int32_t mode) {
  respec_texel value = {0, 0, 0, 0};
  if (char *p = surfaceAddress(surfaceFor(surface), x, y, z, layer, bytes,
                               mode))
    std::memcpy(&value, p, std::min<uint32_t>(bytes, sizeof value));
  return value;
}

extern "C" void __respec_surf_store(uint64_t surface, int32_t x, int32_t y,
                                    int32_t z, int32_t layer, uint32_t bytes,
                                    int32_t mode, respec_texel value) {
  if (char *p = surfaceAddress(surfaceFor(surface), x, y, z, layer, bytes,
                               mode))
    std::memcpy(p, &value, std::min<uint32_t>(bytes, sizeof value));
}
