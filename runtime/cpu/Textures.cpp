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
#include "../common/TexelFormat.h"
#include "WorkQueue.h"
#include "respec_rt/abi.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sys/mman.h>
#include <vector>
#include <new>

using namespace respec;
using namespace respec::cpu;

namespace {

/// The memory a texture or surface object reads: `layers` layers (1 unless
/// layered) of `depth` slices of `height` rows of `width` texels.
struct TexelMemory {
  const char *data;
  TexelFormat format;
  unsigned dims; ///< 1, 2 or 3 addressed dimensions, layers aside
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

/// The first word of every texture and surface object: it tells the kinds
/// apart, and a destroyed object's slot loses it.
enum ObjectTag : uint32_t { TextureTag = 0x54455854, SurfaceTag = 0x53555246 };

struct TextureObject;

/// A texel's channels as float results (absent channels 0, alpha 1).
struct FloatTexel {
  float lane[4];
};
/// Returned by value (in registers): lanes written to memory and read
/// back as a vector stall the store buffer.
using FloatReader = FloatTexel (*)(const char *texel,
                                   const TexelFormat &format);
/// Samples at float coordinates in `layer`.
using SampleFunction = respec_texel (*)(const TextureObject &t,
                                        const float coordinate[3],
                                        size_t layer);

struct TextureObject {
  respec_texture_header header; // first: generated code reads it
  cudaResourceDesc resource;
  cudaTextureDesc sampler;
  TexelMemory memory;
  /// Results are floats: float texels, or integers read as normalized
  /// floats.
  bool floatResults;
  bool normalizedRead;
  // Chosen when the object is created, so that sampling does not decide
  // them per fetch.
  int64_t extent[3];
  /// Address modes as they apply: wrap and mirror clamp with unnormalized
  /// coordinates.
  cudaTextureAddressMode mode[3];
  respec_texel border;
  FloatReader readFloats;
  SampleFunction sample;
};

struct SurfaceObject {
  uint32_t tag;
  cudaResourceDesc resource;
  TexelMemory memory;
};

/// Texture and surface objects live in reserved regions of address space,
/// in slots of equal size, so that a handle can be checked without a lock
/// and without reading memory outside the region: generated code asks for
/// the header of a texture wherever it likes (__respec_tex_header is
/// speculatable), also for handles a kernel receives but never samples,
/// and a destroyed object's slot stays readable (its tag is cleared). Both
/// kinds start with their 32-bit tag.
template <typename T, uint32_t Tag> class ObjectSlots {
public:
  static constexpr size_t capacity = size_t(1) << 16;
  static constexpr size_t slotBytes = (sizeof(T) + 63) / 64 * 64;

  static ObjectSlots &get() {
    static ObjectSlots slots;
    return slots;
  }

  /// Stores `object` in a free slot and returns it, or null when all are
  /// taken.
  T *add(const T &object) {
    std::lock_guard<std::mutex> lock(mutex);
    char *slot = nullptr;
    if (!released.empty()) {
      slot = released.back();
      released.pop_back();
    } else if (region && used < capacity) {
      slot = region + used++ * slotBytes;
    }
    if (!slot)
      return nullptr;
    return new (slot) T(object);
  }

  void remove(const T *object) {
    char *slot = reinterpret_cast<char *>(const_cast<T *>(object));
    *reinterpret_cast<uint32_t *>(slot) = 0;
    std::lock_guard<std::mutex> lock(mutex);
    released.push_back(slot);
  }

  /// The live object `handle` names, or null.
  const T *find(uint64_t handle) const {
    uint64_t start = reinterpret_cast<uint64_t>(region);
    if (!region || handle < start || handle >= start + capacity * slotBytes ||
        (handle - start) % slotBytes != 0)
      return nullptr;
    auto *slot = reinterpret_cast<const char *>(handle);
    return *reinterpret_cast<const uint32_t *>(slot) == Tag
               ? reinterpret_cast<const T *>(slot)
               : nullptr;
  }

private:
  ObjectSlots() {
    void *mapped = mmap(nullptr, capacity * slotBytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    region = mapped == MAP_FAILED ? nullptr : static_cast<char *>(mapped);
  }

  std::mutex mutex;
  char *region = nullptr;
  size_t used = 0;
  std::vector<char *> released;
};

using TextureSlots = ObjectSlots<TextureObject, TextureTag>;
using SurfaceSlots = ObjectSlots<SurfaceObject, SurfaceTag>;

/// The header __respec_tex_header gives for handles that are not live
/// texture objects: nothing is sampled inline, so the runtime's entry
/// points see the handle and report it.
const respec_texture_header inertHeader = {};

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
                        {e.width, array->rows(), layered ? 1 : array->slices()},
                        layered ? e.depth : 1,
                        array->rowBytes(),
                        array->rowBytes() * array->rows(),
                        false};
  return cudaSuccess;
}

/// The memory a resource description names, for a texture (`forSurface`
/// false) or a surface.
cudaError_t memoryOf(const cudaResourceDesc &resource, bool forSurface,
                     TexelMemory *memory, const char *call) {
  std::optional<TexelFormat> format;
  if (cudaError_t error = checkResource(resource, forSurface, &format, call))
    return error;
  if (resource.resType == cudaResourceTypeArray)
    return memoryOfArray(resource.res.array.array, memory, call);
  if (resource.resType == cudaResourceTypeLinear) {
    const auto &linear = resource.res.linear;
    size_t texels = linear.sizeInBytes / format->bytes;
    *memory = TexelMemory{static_cast<const char *>(linear.devPtr),
                          *format,
                          1,
                          {texels, 1, 1},
                          1,
                          linear.sizeInBytes,
                          linear.sizeInBytes,
                          true};
    return cudaSuccess;
  }
  const auto &pitch = resource.res.pitch2D;
  *memory = TexelMemory{static_cast<const char *>(pitch.devPtr),
                        *format,
                        2,
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

template <int Channels>
FloatTexel readFloat32(const char *texel, const TexelFormat &) {
  FloatTexel result = {{0, 0, 0, 1}};
  std::memcpy(result.lane, texel, Channels * sizeof(float));
  return result;
}

FloatTexel readFloatsOfAnyFormat(const char *texel, const TexelFormat &format) {
  FloatTexel result;
  for (int c = 0; c < 4; ++c)
    result.lane[c] = c < format.channels
                         ? floatChannel(texel + c * (format.bits / 8), format)
                     : c == 3 ? 1.0f
                              : 0.0f;
  return result;
}

FloatReader floatReaderFor(const TexelFormat &format) {
  if (format.kind == TexelFormat::Float && format.bits == 32)
    switch (format.channels) {
    case 1:
      return readFloat32<1>;
    case 2:
      return readFloat32<2>;
    case 4:
      return readFloat32<4>;
    }
  return readFloatsOfAnyFormat;
}

respec_texel floatLanes(const float lanes[4]) {
  respec_texel result;
  std::memcpy(&result, lanes, sizeof result);
  return result;
}

/// A texel as result lanes: floats, or sign- or zero-extended integers.
respec_texel readLanes(const TextureObject &t, const char *texel) {
  const TexelFormat &format = t.memory.format;
  if (t.floatResults)
    return floatLanes(t.readFloats(texel, format).lane);
  respec_texel result = {0, 0, 0, 1};
  for (int c = 0; c < format.channels; ++c)
    result[c] = static_cast<uint32_t>(
        integerChannel(texel + c * (format.bits / 8), format));
  return result;
}

/// Coordinates are scaled, shifted and split in float arithmetic, operation
/// by operation, exactly as the code respec generates for textures it
/// samples inline (InlinePTX.cpp), so that both give the same texels and
/// weights.
#pragma clang fp contract(off)

/// floorf without a call into the C library (the runtime is built for the
/// baseline x86-64, which has no rounding instruction): floats of magnitude
/// 2^23 and more, infinities and NaN are their own floor.
inline float floorOf(float value) {
  if (!(std::fabs(value) < 8388608.0f))
    return value;
  float truncated = static_cast<float>(static_cast<int32_t>(value));
  return truncated > value ? truncated - 1.0f : truncated;
}

/// `value` rounded down to an integer, saturated to int32 (NaN is 0), as
/// LLVM's fptosi.sat of the floor.
int64_t floorToInteger(float value) {
  float floor = floorOf(value);
  if (std::isnan(floor))
    return 0;
  if (floor <= -2147483648.0f)
    return INT32_MIN;
  if (floor >= 2147483647.0f)
    return INT32_MAX;
  return static_cast<int64_t>(floor);
}

/// The texel index integer position `i` selects in dimension `d`, or -1 for
/// the border.
inline int64_t addressTexel(const TextureObject &t, unsigned d, int64_t i) {
  int64_t n = t.extent[d];
  if (i >= 0 && i < n)
    return i;
  switch (t.mode[d]) {
  case cudaAddressModeWrap:
    return ((i % n) + n) % n;
  case cudaAddressModeMirror: {
    int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
    return m < n ? m : 2 * n - 1 - m;
  }
  case cudaAddressModeBorder:
    return -1;
  default:
    return i < 0 ? 0 : n - 1;
  }
}

/// A coordinate in texels (NaN reads as 0).
inline float texelCoordinate(const TextureObject &t, unsigned d,
                             float coordinate) {
  float u = std::isnan(coordinate) ? 0.0f : coordinate;
  return u * t.header.scale[d];
}

/// The texel at integer position `index` of `layer`, address modes applied.
template <unsigned Dims>
respec_texel texelAt(const TextureObject &t, const int64_t position[3],
                     size_t layer) {
  size_t index[3] = {0, 0, 0};
  for (unsigned d = 0; d < Dims; ++d) {
    int64_t i = addressTexel(t, d, position[d]);
    if (i < 0)
      return t.border;
    index[d] = static_cast<size_t>(i);
  }
  return readLanes(t, t.memory.texel(index, layer));
}

template <unsigned Dims>
respec_texel samplePoint(const TextureObject &t, const float coordinate[3],
                         size_t layer) {
  int64_t position[3] = {0, 0, 0};
  for (unsigned d = 0; d < Dims; ++d)
    position[d] = floorToInteger(texelCoordinate(t, d, coordinate[d]));
  return texelAt<Dims>(t, position, layer);
}

/// Linear filtering: the 2^Dims texels around the sample point, weighted
/// with the fraction in 9-bit fixed point (8 fraction bits), as the texture
/// units compute it.
template <unsigned Dims>
respec_texel sampleLinear(const TextureObject &t, const float coordinate[3],
                          size_t layer) {
  int64_t base[3] = {0, 0, 0};
  float weight[3] = {0, 0, 0};
  for (unsigned d = 0; d < Dims; ++d) {
    float below = texelCoordinate(t, d, coordinate[d]) - 0.5f;
    float floor = floorOf(below);
    base[d] = floorToInteger(below);
    float fraction = below - floor;
    float scaled = fraction * 256.0f;
    weight[d] = floorOf(scaled + 0.5f) * (1.0f / 256.0f);
  }
  float sum[4] = {0, 0, 0, 0};
  FloatTexel border;
  std::memcpy(border.lane, &t.border, sizeof border.lane);
  for (unsigned corner = 0; corner < (1u << Dims); ++corner) {
    size_t index[3] = {0, 0, 0};
    float w = 1.0f;
    bool onBorder = false;
    for (unsigned d = 0; d < Dims; ++d) {
      bool upper = corner & (1u << d);
      int64_t i = addressTexel(t, d, base[d] + upper);
      onBorder |= i < 0;
      index[d] = static_cast<size_t>(i);
      w *= upper ? weight[d] : 1.0f - weight[d];
    }
    FloatTexel texel =
        onBorder ? border
                 : t.readFloats(t.memory.texel(index, layer), t.memory.format);
    for (int c = 0; c < 4; ++c) {
      float term = w * texel.lane[c];
      sum[c] += term;
    }
  }
  return floatLanes(sum);
}

SampleFunction sampleFunctionFor(unsigned dims, bool linear) {
  static const SampleFunction table[3][2] = {
      {samplePoint<1>, sampleLinear<1>},
      {samplePoint<2>, sampleLinear<2>},
      {samplePoint<3>, sampleLinear<3>}};
  return table[dims - 1][linear];
}

size_t layerIndex(const TexelMemory &memory, int32_t layer) {
  return static_cast<size_t>(
      std::clamp<int64_t>(layer, 0, static_cast<int64_t>(memory.layers) - 1));
}

[[noreturn]] void deviceFault(const char *what, unsigned long long handle) {
  std::fflush(stdout);
  std::fprintf(stderr,
               "respec: a kernel used %s 0x%llx, which is not a live object "
               "of that kind%s: unspecified launch failure\n",
               what, handle,
               handle ? ""
                      : " (a texture<> reference no memory is bound to "
                        "reads as object 0)");
  std::fflush(stderr);
  std::abort();
}

const TextureObject &textureFor(uint64_t handle) {
  const TextureObject *texture = TextureSlots::get().find(handle);
  if (!texture)
    deviceFault("texture object", handle);
  return *texture;
}

const SurfaceObject &surfaceFor(uint64_t handle) {
  const SurfaceObject *surface = SurfaceSlots::get().find(handle);
  if (!surface)
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

namespace {

/// The sampler's modes, as CUDA accepts them (sRGB is not supported).
cudaError_t checkSampler(const cudaTextureDesc &s, const char *call) {
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
  return cudaSuccess;
}

/// Whether `t` gives float results, and the combinations CUDA refuses.
cudaError_t chooseResults(TextureObject &t, const char *call) {
  const TexelFormat &format = t.memory.format;
  const cudaTextureDesc &s = t.sampler;
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
  return cudaSuccess;
}

/// What the runtime's samplers decide once per object: the address modes
/// that apply, the border's result lanes, the texel reader and the sampler.
void prepareSampling(TextureObject &t) {
  const TexelMemory &m = t.memory;
  const cudaTextureDesc &s = t.sampler;
  for (unsigned d = 0; d < 3; ++d) {
    t.extent[d] = static_cast<int64_t>(m.size[d]);
    cudaTextureAddressMode mode = s.addressMode[d];
    bool repeats = mode == cudaAddressModeWrap || mode == cudaAddressModeMirror;
    t.mode[d] = repeats && !s.normalizedCoords ? cudaAddressModeClamp : mode;
    t.header.scale[d] =
        s.normalizedCoords ? static_cast<float>(m.size[d]) : 1.0f;
  }
  if (t.floatResults)
    t.border = floatLanes(s.borderColor);
  else
    for (int c = 0; c < 4; ++c)
      t.border[c] =
          static_cast<uint32_t>(static_cast<int32_t>(s.borderColor[c]));
  t.readFloats = floatReaderFor(m.format);
  t.sample = sampleFunctionFor(m.dims, s.filterMode == cudaFilterModeLinear);
}

/// The header's description for the code respec generates: which textures
/// it reads itself (tex1Dfetch of 32-bit channels, inline sampling of
/// single-channel floats with clamp or border addressing) and how.
void describeForGeneratedCode(TextureObject &t) {
  const TexelMemory &m = t.memory;
  const TexelFormat &format = m.format;
  respec_texture_header &h = t.header;
  h.linearWords = m.linear && format.bits == 32 && !t.normalizedRead;
  h.data = m.data;
  h.texels = m.size[0];
  h.channels = static_cast<uint32_t>(format.channels);
  h.alpha = format.kind == TexelFormat::Float ? 0x3f800000u : 1u;
  bool inlineAddressing = true;
  for (unsigned d = 0; d < 3; ++d) {
    h.size[d] = static_cast<int32_t>(m.size[d]);
    if (d < m.dims && t.mode[d] == cudaAddressModeBorder)
      h.borderMask |= 1u << d;
    else if (d < m.dims && t.mode[d] != cudaAddressModeClamp)
      inlineAddressing = false;
  }
  bool singleFloat = format.kind == TexelFormat::Float && format.bits == 32 &&
                     format.channels == 1;
  if (singleFloat && inlineAddressing && !m.linear)
    h.inlineSampling = t.sampler.filterMode == cudaFilterModeLinear ? 2 : 1;
  h.dims = m.dims;
  h.layers = static_cast<int32_t>(m.layers);
  h.borderColor = t.sampler.borderColor[0];
  h.rowPitch = m.rowPitch;
  h.slicePitch = m.slicePitch;
}

} // namespace

extern "C" cudaError_t cudaCreateTextureObject(
    cudaTextureObject_t *pTexObject, const cudaResourceDesc *pResDesc,
    const cudaTextureDesc *pTexDesc, const cudaResourceViewDesc *pResViewDesc) {
  const char *call = "cudaCreateTextureObject";
  if (!pTexObject || !pResDesc || !pTexDesc)
    return reportError(cudaErrorInvalidValue, call, "null pointer argument");
  if (pResViewDesc)
    return reportError(cudaErrorNotSupported, call,
                       "resource views are not supported by respec");
  TextureObject t = {};
  t.header.tag = TextureTag;
  t.resource = *pResDesc;
  t.sampler = *pTexDesc;
  if (cudaError_t error = memoryOf(*pResDesc, false, &t.memory, call))
    return error;
  if (cudaError_t error = checkSampler(t.sampler, call))
    return error;
  if (cudaError_t error = chooseResults(t, call))
    return error;
  prepareSampling(t);
  describeForGeneratedCode(t);
  TextureObject *created = TextureSlots::get().add(t);
  if (!created)
    return reportError(cudaErrorMemoryAllocation, call,
                       "more than %zu texture objects",
                       TextureSlots::capacity);
  *pTexObject = reinterpret_cast<cudaTextureObject_t>(created);
  return cudaSuccess;
}

extern "C" cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  if (!texObject)
    return cudaSuccess;
  const TextureObject *texture = TextureSlots::get().find(texObject);
  if (!texture)
    return reportError(cudaErrorInvalidValue, "cudaDestroyTextureObject",
                       "0x%llx is not a texture object", texObject);
  // As cudaFree: no queued kernel samples the texture any more.
  waitForAllWork();
  TextureSlots::get().remove(texture);
  return cudaSuccess;
}

extern "C" cudaError_t
cudaGetTextureObjectResourceDesc(cudaResourceDesc *pResDesc,
                                 cudaTextureObject_t texObject) {
  const TextureObject *t = TextureSlots::get().find(texObject);
  if (!pResDesc || !t)
    return reportError(cudaErrorInvalidValue,
                       "cudaGetTextureObjectResourceDesc");
  *pResDesc = t->resource;
  return cudaSuccess;
}

extern "C" cudaError_t
cudaGetTextureObjectTextureDesc(cudaTextureDesc *pTexDesc,
                                cudaTextureObject_t texObject) {
  const TextureObject *t = TextureSlots::get().find(texObject);
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
  SurfaceObject *created = SurfaceSlots::get().add(s);
  if (!created)
    return reportError(cudaErrorMemoryAllocation, call,
                       "more than %zu surface objects",
                       SurfaceSlots::capacity);
  *pSurfObject = reinterpret_cast<cudaSurfaceObject_t>(created);
  return cudaSuccess;
}

extern "C" cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  if (!surfObject)
    return cudaSuccess;
  const SurfaceObject *surface = SurfaceSlots::get().find(surfObject);
  if (!surface)
    return reportError(cudaErrorInvalidValue, "cudaDestroySurfaceObject",
                       "0x%llx is not a surface object", surfObject);
  // As cudaFree: no queued kernel uses the surface any more.
  waitForAllWork();
  SurfaceSlots::get().remove(surface);
  return cudaSuccess;
}

extern "C" cudaError_t
cudaGetSurfaceObjectResourceDesc(cudaResourceDesc *pResDesc,
                                 cudaSurfaceObject_t surfObject) {
  const SurfaceObject *s = SurfaceSlots::get().find(surfObject);
  if (!pResDesc || !s)
    return reportError(cudaErrorInvalidValue,
                       "cudaGetSurfaceObjectResourceDesc");
  *pResDesc = s->resource;
  return cudaSuccess;
}

//===- Device entry points ---------------------------------------------------===//

extern "C" const respec_texture_header *
__respec_tex_header(uint64_t texture) {
  const TextureObject *t = TextureSlots::get().find(texture);
  return t ? &t->header : &inertHeader;
}

extern "C" respec_texel __respec_tex_sample(uint64_t texture, float x, float y,
                                            float z, int32_t layer) {
  const TextureObject &t = textureFor(texture);
  float coordinate[3] = {x, y, z};
  return t.sample(t, coordinate, layerIndex(t.memory, layer));
}

extern "C" respec_texel __respec_tex_fetch(uint64_t texture, int32_t x,
                                           int32_t y, int32_t z,
                                           int32_t layer) {
  const TextureObject &t = textureFor(texture);
  if (t.memory.linear) {
    // tex1Dfetch: no addressing; out-of-range texels read as zero.
    if (x < 0 || static_cast<size_t>(x) >= t.memory.size[0])
      return respec_texel{0, 0, 0, 0};
    size_t at[3] = {static_cast<size_t>(x), 0, 0};
    return readLanes(t, t.memory.texel(at, 0));
  }
  int64_t position[3] = {x, y, z};
  size_t layerAt = layerIndex(t.memory, layer);
  switch (t.memory.dims) {
  case 1:
    return texelAt<1>(t, position, layerAt);
  case 2:
    return texelAt<2>(t, position, layerAt);
  default:
    return texelAt<3>(t, position, layerAt);
  }
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
