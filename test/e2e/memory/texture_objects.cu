// Texture objects over linear memory, pitched memory and CUDA arrays (1-D,
// 2-D, 3-D, layered), with point and linear filtering, the four address
// modes, normalized coordinates, border colors and the normalized-float
// read mode, checked against a host implementation of the CUDA programming
// guide's texture fetching rules; copies to, from and between arrays; and
// surface objects (reads and writes of 2-D, 3-D and layered arrays, with
// the zero and clamp boundary modes); and the errors of unsupported or
// invalid descriptions. Sample coordinates
// keep linear-filter weights multiples of 1/8, so that the texture unit's
// 8-bit weights are exact. Built with the toolkit's headers and with
// respec's own, and run with asynchronous launches.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: env RESPEC_ASYNC_LAUNCH=1 %t | FileCheck %s
// RUN: %respec --cuda-path=/nonexistent -O2 %s -o %t.own && %t.own | FileCheck %s
// CHECK: linear PASSED
// CHECK: array2d PASSED
// CHECK: normalized PASSED
// CHECK: uchar4 PASSED
// CHECK: array3d PASSED
// CHECK: layered PASSED
// CHECK: pitch2d PASSED
// CHECK: surfaces PASSED
// CHECK: copies PASSED
// CHECK: errors PASSED

#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t status_ = (call);                                              \
    if (status_ != cudaSuccess) {                                              \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                     \
             cudaGetErrorString(status_));                                     \
      return false;                                                            \
    }                                                                          \
  } while (0)

//===- Host reference ------------------------------------------------------===//

struct Sampler {
  cudaTextureFilterMode filter;
  cudaTextureAddressMode mode[3];
  bool normalized;
  float border;
};

/// The texel index of integer position `i` in `n` texels; -1: the border.
static long resolve(long i, long n, cudaTextureAddressMode mode,
                    bool normalized) {
  if (normalized && mode == cudaAddressModeWrap)
    return ((i % n) + n) % n;
  if (normalized && mode == cudaAddressModeMirror) {
    long period = ((i % (2 * n)) + 2 * n) % (2 * n);
    return period < n ? period : 2 * n - 1 - period;
  }
  if (mode == cudaAddressModeBorder)
    return i < 0 || i >= n ? -1 : i;
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/// Samples a single-channel texture of size[0] x size[1] x size[2] texels
/// (`dims` of them addressed) at `coord` (texel units after scaling).
static float reference(const float *texels, const long size[3], int dims,
                       const float coord[3], const Sampler &s) {
  double u[3];
  for (int d = 0; d < dims; ++d)
    u[d] = s.normalized ? coord[d] * size[d] : coord[d];
  auto at = [&](const long index[3]) -> float {
    long flat = 0, stride = 1;
    for (int d = 0; d < dims; ++d) {
      long i = resolve(index[d], size[d], s.mode[d], s.normalized);
      if (i < 0)
        return s.border;
      flat += i * stride;
      stride *= size[d];
    }
    return texels[flat];
  };
  if (s.filter == cudaFilterModePoint) {
    long index[3] = {0, 0, 0};
    for (int d = 0; d < dims; ++d)
      index[d] = (long)std::floor(u[d]);
    return at(index);
  }
  long base[3] = {0, 0, 0};
  double frac[3] = {0, 0, 0};
  for (int d = 0; d < dims; ++d) {
    double b = u[d] - 0.5;
    base[d] = (long)std::floor(b);
    frac[d] = b - std::floor(b);
  }
  double sum = 0;
  for (int corner = 0; corner < (1 << dims); ++corner) {
    long index[3] = {0, 0, 0};
    double w = 1;
    for (int d = 0; d < dims; ++d) {
      int up = (corner >> d) & 1;
      index[d] = base[d] + up;
      w *= up ? frac[d] : 1 - frac[d];
    }
    sum += w * at(index);
  }
  return (float)sum;
}

static bool near(float a, float b) {
  return std::fabs(a - b) <= 1e-4f * (1 + std::fabs(b));
}

/// Coordinate k of a sweep that starts before the texture and ends past it,
/// in steps of 1/4 texel, never on a texel boundary.
static float sweep(int k, long n) { return -2.125f + 0.25f * k; }
static int sweepCount(long n) { return (int)(4 * (n + 4)); }

//===- Kernels -------------------------------------------------------------===//

__global__ void fetchLinear(cudaTextureObject_t f, cudaTextureObject_t s,
                            cudaTextureObject_t u8, cudaTextureObject_t i2,
                            int n, float *outF, int *outS, float *outU8,
                            int2 *outI2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int at = i - 3; // also before and past the ends: zero
    outF[i] = tex1Dfetch<float>(f, at);
    outS[i] = tex1Dfetch<short>(s, at);
    outU8[i] = tex1Dfetch<float>(u8, at);
    outI2[i] = tex1Dfetch<int2>(i2, at);
  }
}

__global__ void sample1D(cudaTextureObject_t t, const float *x, int n,
                         float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1D<float>(t, x[i]);
}

__global__ void sample2D(cudaTextureObject_t t, const float2 *xy, int n,
                         float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex2D<float>(t, xy[i].x, xy[i].y);
}

__global__ void sample2DColor(cudaTextureObject_t t, const float2 *xy, int n,
                              float4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex2D<float4>(t, xy[i].x, xy[i].y);
}

__global__ void sample3D(cudaTextureObject_t t, const float4 *xyz, int n,
                         float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex3D<float>(t, xyz[i].x, xyz[i].y, xyz[i].z);
}

__global__ void sampleLayered(cudaTextureObject_t t2, cudaTextureObject_t t1,
                              const float4 *xyl, int n, float *out2,
                              float *out1) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int layer = (int)xyl[i].z;
    out2[i] = tex2DLayered<float>(t2, xyl[i].x, xyl[i].y, layer);
    out1[i] = tex1DLayered<float>(t1, xyl[i].x, layer);
  }
}

/// Writes f(x, y) to a 2-D surface of floats (and to a 3-D surface of
/// uchar4, and to layer `layer` of a layered one); reads back with the
/// boundary modes: zero outside reads 0, clamp the nearest texel.
__global__ void writeSurfaces(cudaSurfaceObject_t plane,
                              cudaSurfaceObject_t volume,
                              cudaSurfaceObject_t layered, int w, int h,
                              int d) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w)
    return;
  surf2Dwrite(x * 0.5f + y * 10.0f, plane, x * (int)sizeof(float), y);
  for (int z = 0; z < d; ++z)
    surf3Dwrite(make_uchar4(x, y, z, x + y + z), volume, x * 4, y, z);
  surf2DLayeredwrite(x + 1000 * y, layered, x * 4, y, 1);
  // Out-of-range writes with the zero mode are dropped.
  surf2Dwrite(-1.0f, plane, (x + w) * 4, y, cudaBoundaryModeZero);
}

__global__ void readSurfaces(cudaSurfaceObject_t plane,
                             cudaSurfaceObject_t volume,
                             cudaSurfaceObject_t layered, int w, int h,
                             float *zero, float *clamp, uchar4 *voxels,
                             int *cells) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w + 2)
    return;
  int i = y * (w + 2) + x;
  // Columns -1 .. w: one past each end.
  int at = (x - 1) * 4;
  zero[i] = surf2Dread<float>(plane, at, y, cudaBoundaryModeZero);
  clamp[i] = surf2Dread<float>(plane, at, y, cudaBoundaryModeClamp);
  if (x < w) {
    voxels[i] = surf3Dread<uchar4>(volume, x * 4, y, 2);
    cells[i] = surf2DLayeredread<int>(layered, x * 4, y, 1);
  }
}

//===- Checks ----------------------------------------------------------------===//

template <class T> struct DeviceBuffer {
  T *ptr = nullptr;
  explicit DeviceBuffer(size_t n) { cudaMalloc(&ptr, n * sizeof(T)); }
  ~DeviceBuffer() { cudaFree(ptr); }
};

static cudaTextureDesc textureDesc(const Sampler &s,
                                   cudaTextureReadMode read =
                                       cudaReadModeElementType) {
  cudaTextureDesc d;
  memset(&d, 0, sizeof d);
  for (int i = 0; i < 3; ++i)
    d.addressMode[i] = s.mode[i];
  d.filterMode = s.filter;
  d.readMode = read;
  d.normalizedCoords = s.normalized;
  for (int i = 0; i < 4; ++i)
    d.borderColor[i] = s.border;
  return d;
}

static cudaResourceDesc arrayResource(cudaArray_t array) {
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = array;
  return r;
}

static bool checkLinear() {
  const int n = 1000, threads = n + 6;
  std::vector<float> f(n);
  std::vector<short> s(n);
  std::vector<unsigned char> u8(n);
  std::vector<int2> i2(n);
  for (int i = 0; i < n; ++i) {
    f[i] = 0.5f * i - 7;
    s[i] = (short)(i * 37 - 20000);
    u8[i] = (unsigned char)(i * 7);
    i2[i] = make_int2(i, -3 * i);
  }
  DeviceBuffer<float> df(n), outF(threads), outU8(threads);
  DeviceBuffer<short> ds(n);
  DeviceBuffer<unsigned char> du8(n);
  DeviceBuffer<int2> di2(n), outI2(threads);
  DeviceBuffer<int> outS(threads);
  CHECK(cudaMemcpy(df.ptr, f.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(ds.ptr, s.data(), n * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(du8.ptr, u8.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(di2.ptr, i2.data(), n * 8, cudaMemcpyHostToDevice));
  auto linear = [&](void *p, cudaChannelFormatDesc desc, size_t bytes) {
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = p;
    r.res.linear.desc = desc;
    r.res.linear.sizeInBytes = bytes;
    return r;
  };
  Sampler point = {cudaFilterModePoint,
                   {cudaAddressModeClamp, cudaAddressModeClamp,
                    cudaAddressModeClamp},
                   false,
                   0};
  cudaTextureDesc element = textureDesc(point);
  cudaTextureDesc normalizedRead =
      textureDesc(point, cudaReadModeNormalizedFloat);
  cudaTextureObject_t tf, ts, tu8, ti2;
  cudaResourceDesc rf = linear(df.ptr, cudaCreateChannelDesc<float>(), n * 4);
  cudaResourceDesc rs = linear(ds.ptr, cudaCreateChannelDesc<short>(), n * 2);
  cudaResourceDesc ru8 =
      linear(du8.ptr, cudaCreateChannelDesc<unsigned char>(), n);
  cudaResourceDesc ri2 = linear(di2.ptr, cudaCreateChannelDesc<int2>(), n * 8);
  CHECK(cudaCreateTextureObject(&tf, &rf, &element, nullptr));
  CHECK(cudaCreateTextureObject(&ts, &rs, &element, nullptr));
  CHECK(cudaCreateTextureObject(&tu8, &ru8, &normalizedRead, nullptr));
  CHECK(cudaCreateTextureObject(&ti2, &ri2, &element, nullptr));
  fetchLinear<<<(threads + 127) / 128, 128>>>(tf, ts, tu8, ti2, threads,
                                               outF.ptr, outS.ptr, outU8.ptr,
                                               outI2.ptr);
  CHECK(cudaGetLastError());
  std::vector<float> gotF(threads), gotU8(threads);
  std::vector<int> gotS(threads);
  std::vector<int2> gotI2(threads);
  CHECK(cudaMemcpy(gotF.data(), outF.ptr, threads * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gotS.data(), outS.ptr, threads * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gotU8.data(), outU8.ptr, threads * 4,
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gotI2.data(), outI2.ptr, threads * 8,
                   cudaMemcpyDeviceToHost));
  for (int i = 0; i < threads; ++i) {
    int at = i - 3;
    bool in = at >= 0 && at < n;
    float wantF = in ? f[at] : 0;
    int wantS = in ? s[at] : 0;
    float wantU8 = in ? u8[at] / 255.0f : 0;
    int2 wantI2 = in ? i2[at] : make_int2(0, 0);
    if (gotF[i] != wantF || gotS[i] != wantS || !near(gotU8[i], wantU8) ||
        gotI2[i].x != wantI2.x || gotI2[i].y != wantI2.y) {
      printf("linear: at %d got %g %d %g (%d, %d), want %g %d %g (%d, %d)\n",
             at, gotF[i], gotS[i], gotU8[i], gotI2[i].x, gotI2[i].y, wantF,
             wantS, wantU8, wantI2.x, wantI2.y);
      return false;
    }
  }
  for (cudaTextureObject_t t : {tf, ts, tu8, ti2})
    CHECK(cudaDestroyTextureObject(t));
  return true;
}

/// Samples a W x H single-channel float texture at a sweep of points with
/// every sampler in `samplers`; coordinates are divided by the size for
/// normalized samplers.
static bool sweep2D(cudaResourceDesc resource, const std::vector<float> &host,
                    long w, long h, const std::vector<Sampler> &samplers,
                    const char *name) {
  std::vector<float2> points;
  for (int j = 0; j < sweepCount(h); j += 3)
    for (int i = 0; i < sweepCount(w); ++i)
      points.push_back(make_float2(sweep(i, w), sweep(j, h)));
  int n = (int)points.size();
  DeviceBuffer<float2> dPoints(n);
  DeviceBuffer<float> dOut(n);
  std::vector<float2> scaled(n);
  std::vector<float> got(n);
  long size[3] = {w, h, 1};
  for (const Sampler &s : samplers) {
    for (int k = 0; k < n; ++k)
      scaled[k] = s.normalized
                      ? make_float2(points[k].x / w, points[k].y / h)
                      : points[k];
    CHECK(cudaMemcpy(dPoints.ptr, scaled.data(), n * sizeof(float2),
                     cudaMemcpyHostToDevice));
    cudaTextureDesc desc = textureDesc(s);
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &resource, &desc, nullptr));
    sample2D<<<(n + 255) / 256, 256>>>(t, dPoints.ptr, n, dOut.ptr);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got.data(), dOut.ptr, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaDestroyTextureObject(t));
    for (int k = 0; k < n; ++k) {
      float coord[3] = {scaled[k].x, scaled[k].y, 0};
      float want = reference(host.data(), size, 2, coord, s);
      if (!near(got[k], want)) {
        printf("%s: filter %d modes %d/%d normalized %d at (%g, %g): got %g, "
               "want %g\n",
               name, s.filter, s.mode[0], s.mode[1], s.normalized, coord[0],
               coord[1], got[k], want);
        return false;
      }
    }
  }
  return true;
}

static std::vector<Sampler> unnormalizedSamplers() {
  std::vector<Sampler> samplers;
  for (cudaTextureFilterMode filter : {cudaFilterModePoint, cudaFilterModeLinear})
    for (cudaTextureAddressMode mode :
         {cudaAddressModeClamp, cudaAddressModeBorder})
      samplers.push_back({filter, {mode, cudaAddressModeClamp, mode}, false,
                          mode == cudaAddressModeBorder ? -5.0f : 0.0f});
  return samplers;
}

static bool checkArray2D() {
  const long w = 37, h = 23;
  std::vector<float> host(w * h);
  for (long y = 0; y < h; ++y)
    for (long x = 0; x < w; ++x)
      host[y * w + x] = (float)((x * 7 + y * 13) % 29) - 9.5f;
  cudaArray_t array;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  CHECK(cudaMallocArray(&array, &desc, w, h));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, host.data(), w * 4, w * 4, h,
                            cudaMemcpyHostToDevice));
  bool ok = sweep2D(arrayResource(array), host, w, h, unnormalizedSamplers(),
                    "array2d");
  // 1-D sampling of the array's first row through a 1-D array.
  cudaArray_t row;
  CHECK(cudaMallocArray(&row, &desc, w));
  CHECK(cudaMemcpyToArray(row, 0, 0, host.data(), w * 4,
                          cudaMemcpyHostToDevice));
  int n = sweepCount(w);
  std::vector<float> xs(n), got(n);
  for (int i = 0; i < n; ++i)
    xs[i] = sweep(i, w);
  DeviceBuffer<float> dX(n), dOut(n);
  CHECK(cudaMemcpy(dX.ptr, xs.data(), n * 4, cudaMemcpyHostToDevice));
  cudaResourceDesc resource = arrayResource(row);
  long size[3] = {w, 1, 1};
  for (const Sampler &s : unnormalizedSamplers()) {
    cudaTextureDesc td = textureDesc(s);
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &resource, &td, nullptr));
    sample1D<<<(n + 63) / 64, 64>>>(t, dX.ptr, n, dOut.ptr);
    CHECK(cudaMemcpy(got.data(), dOut.ptr, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaDestroyTextureObject(t));
    for (int i = 0; i < n && ok; ++i) {
      float coord[3] = {xs[i], 0, 0};
      float want = reference(host.data(), size, 1, coord, s);
      if (!near(got[i], want)) {
        printf("array1d: filter %d mode %d at %g: got %g, want %g\n", s.filter,
               s.mode[0], xs[i], got[i], want);
        ok = false;
      }
    }
  }
  CHECK(cudaFreeArray(row));
  CHECK(cudaFreeArray(array));
  return ok;
}

static bool checkNormalized() {
  // Power-of-two sizes keep normalized coordinates exact.
  const long w = 32, h = 16;
  std::vector<float> host(w * h);
  for (long i = 0; i < w * h; ++i)
    host[i] = (float)((i * 11) % 17);
  cudaArray_t array;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  CHECK(cudaMallocArray(&array, &desc, w, h));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, host.data(), w * 4, w * 4, h,
                            cudaMemcpyHostToDevice));
  std::vector<Sampler> samplers;
  for (cudaTextureFilterMode filter : {cudaFilterModePoint, cudaFilterModeLinear})
    for (cudaTextureAddressMode x :
         {cudaAddressModeWrap, cudaAddressModeMirror, cudaAddressModeClamp,
          cudaAddressModeBorder})
      samplers.push_back(
          {filter, {x, cudaAddressModeWrap, cudaAddressModeWrap}, true, 2.5f});
  // Wrap and mirror clamp with unnormalized coordinates.
  samplers.push_back({cudaFilterModeLinear,
                      {cudaAddressModeWrap, cudaAddressModeMirror,
                       cudaAddressModeWrap},
                      false,
                      0});
  bool ok = sweep2D(arrayResource(array), host, w, h, samplers, "normalized");
  CHECK(cudaFreeArray(array));
  return ok;
}

static bool checkUchar4() {
  const long w = 19, h = 9;
  std::vector<uchar4> host(w * h);
  std::vector<float> channel[4];
  for (int c = 0; c < 4; ++c)
    channel[c].resize(w * h);
  for (long i = 0; i < w * h; ++i) {
    unsigned char v[4] = {(unsigned char)(i * 3), (unsigned char)(255 - i),
                          (unsigned char)(i * 97), (unsigned char)(i % 2 * 255)};
    host[i] = make_uchar4(v[0], v[1], v[2], v[3]);
    for (int c = 0; c < 4; ++c)
      channel[c][i] = v[c] / 255.0f;
  }
  cudaArray_t array;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
  CHECK(cudaMallocArray(&array, &desc, w, h));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, host.data(), w * 4, w * 4, h,
                            cudaMemcpyHostToDevice));
  Sampler s = {cudaFilterModeLinear,
               {cudaAddressModeClamp, cudaAddressModeClamp,
                cudaAddressModeClamp},
               false,
               0};
  cudaTextureDesc td = textureDesc(s, cudaReadModeNormalizedFloat);
  cudaResourceDesc resource = arrayResource(array);
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &resource, &td, nullptr));
  std::vector<float2> points;
  for (int j = 0; j < sweepCount(h); ++j)
    for (int i = 0; i < sweepCount(w); i += 2)
      points.push_back(make_float2(sweep(i, w), sweep(j, h)));
  int n = (int)points.size();
  DeviceBuffer<float2> dPoints(n);
  DeviceBuffer<float4> dOut(n);
  CHECK(cudaMemcpy(dPoints.ptr, points.data(), n * sizeof(float2),
                   cudaMemcpyHostToDevice));
  sample2DColor<<<(n + 255) / 256, 256>>>(t, dPoints.ptr, n, dOut.ptr);
  std::vector<float4> got(n);
  CHECK(cudaMemcpy(got.data(), dOut.ptr, n * sizeof(float4),
                   cudaMemcpyDeviceToHost));
  long size[3] = {w, h, 1};
  for (int k = 0; k < n; ++k) {
    float coord[3] = {points[k].x, points[k].y, 0};
    float lanes[4] = {got[k].x, got[k].y, got[k].z, got[k].w};
    for (int c = 0; c < 4; ++c) {
      float want = reference(channel[c].data(), size, 2, coord, s);
      if (!near(lanes[c], want)) {
        printf("uchar4: channel %d at (%g, %g): got %g, want %g\n", c,
               coord[0], coord[1], lanes[c], want);
        return false;
      }
    }
  }
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(array));
  return true;
}

static bool checkArray3D() {
  const long w = 9, h = 7, d = 5;
  std::vector<float> host(w * h * d);
  for (long i = 0; i < w * h * d; ++i)
    host[i] = (float)((i * 5) % 23);
  cudaArray_t array;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  CHECK(cudaMalloc3DArray(&array, &desc, make_cudaExtent(w, h, d)));
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(host.data(), w * 4, w, h);
  p.dstArray = array;
  p.extent = make_cudaExtent(w, h, d);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  std::vector<float4> points;
  for (int k = 0; k < sweepCount(d); k += 3)
    for (int j = 0; j < sweepCount(h); j += 3)
      for (int i = 0; i < sweepCount(w); ++i)
        points.push_back(make_float4(sweep(i, w), sweep(j, h), sweep(k, d), 0));
  int n = (int)points.size();
  DeviceBuffer<float4> dPoints(n);
  DeviceBuffer<float> dOut(n);
  CHECK(cudaMemcpy(dPoints.ptr, points.data(), n * sizeof(float4),
                   cudaMemcpyHostToDevice));
  cudaResourceDesc resource = arrayResource(array);
  long size[3] = {w, h, d};
  std::vector<float> got(n);
  for (const Sampler &s : unnormalizedSamplers()) {
    cudaTextureDesc td = textureDesc(s);
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &resource, &td, nullptr));
    sample3D<<<(n + 255) / 256, 256>>>(t, dPoints.ptr, n, dOut.ptr);
    CHECK(cudaMemcpy(got.data(), dOut.ptr, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaDestroyTextureObject(t));
    for (int k = 0; k < n; ++k) {
      float coord[3] = {points[k].x, points[k].y, points[k].z};
      float want = reference(host.data(), size, 3, coord, s);
      if (!near(got[k], want)) {
        printf("array3d: filter %d mode %d at (%g, %g, %g): got %g, want %g\n",
               s.filter, s.mode[0], coord[0], coord[1], coord[2], got[k], want);
        return false;
      }
    }
  }
  CHECK(cudaFreeArray(array));
  return true;
}

static bool checkLayered() {
  const long w = 13, h = 11, layers = 3;
  std::vector<float> host(w * h * layers), rows(w * layers);
  for (long i = 0; i < w * h * layers; ++i)
    host[i] = (float)((i * 3) % 41) - 20;
  for (long l = 0; l < layers; ++l)
    for (long x = 0; x < w; ++x)
      rows[l * w + x] = (float)(l * 100 + x);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t planes, lines;
  CHECK(cudaMalloc3DArray(&planes, &desc, make_cudaExtent(w, h, layers),
                          cudaArrayLayered));
  CHECK(cudaMalloc3DArray(&lines, &desc, make_cudaExtent(w, 0, layers),
                          cudaArrayLayered));
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(host.data(), w * 4, w, h);
  p.dstArray = planes;
  p.extent = make_cudaExtent(w, h, layers);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(rows.data(), w * 4, w, 1);
  p.dstArray = lines;
  p.extent = make_cudaExtent(w, 1, layers);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  std::vector<float4> points;
  for (int l = 0; l < layers; ++l)
    for (int j = 0; j < sweepCount(h); j += 2)
      for (int i = 0; i < sweepCount(w); i += 2)
        points.push_back(make_float4(sweep(i, w), sweep(j, h), (float)l, 0));
  int n = (int)points.size();
  DeviceBuffer<float4> dPoints(n);
  DeviceBuffer<float> dOut2(n), dOut1(n);
  CHECK(cudaMemcpy(dPoints.ptr, points.data(), n * sizeof(float4),
                   cudaMemcpyHostToDevice));
  cudaResourceDesc r2 = arrayResource(planes), r1 = arrayResource(lines);
  std::vector<float> got2(n), got1(n);
  long size2[3] = {w, h, 1}, size1[3] = {w, 1, 1};
  for (const Sampler &s : unnormalizedSamplers()) {
    cudaTextureDesc td = textureDesc(s);
    cudaTextureObject_t t2, t1;
    CHECK(cudaCreateTextureObject(&t2, &r2, &td, nullptr));
    CHECK(cudaCreateTextureObject(&t1, &r1, &td, nullptr));
    sampleLayered<<<(n + 127) / 128, 128>>>(t2, t1, dPoints.ptr, n, dOut2.ptr,
                                             dOut1.ptr);
    CHECK(cudaMemcpy(got2.data(), dOut2.ptr, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got1.data(), dOut1.ptr, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaDestroyTextureObject(t2));
    CHECK(cudaDestroyTextureObject(t1));
    for (int k = 0; k < n; ++k) {
      long layer = (long)points[k].z;
      float coord[3] = {points[k].x, points[k].y, 0};
      float want2 = reference(host.data() + layer * w * h, size2, 2, coord, s);
      float want1 = reference(rows.data() + layer * w, size1, 1, coord, s);
      if (!near(got2[k], want2) || !near(got1[k], want1)) {
        printf("layered: filter %d mode %d layer %ld at (%g, %g): got %g %g, "
               "want %g %g\n",
               s.filter, s.mode[0], layer, coord[0], coord[1], got2[k], got1[k],
               want2, want1);
        return false;
      }
    }
  }
  CHECK(cudaFreeArray(planes));
  CHECK(cudaFreeArray(lines));
  return true;
}

static bool checkPitch2D() {
  const long w = 45, h = 17;
  std::vector<float> host(w * h);
  for (long i = 0; i < w * h; ++i)
    host[i] = (float)((i * 19) % 31) * 0.5f;
  float *device;
  size_t pitch;
  CHECK(cudaMallocPitch((void **)&device, &pitch, w * 4, h));
  CHECK(cudaMemcpy2D(device, pitch, host.data(), w * 4, w * 4, h,
                     cudaMemcpyHostToDevice));
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypePitch2D;
  r.res.pitch2D.devPtr = device;
  r.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  r.res.pitch2D.width = w;
  r.res.pitch2D.height = h;
  r.res.pitch2D.pitchInBytes = pitch;
  bool ok = sweep2D(r, host, w, h, unnormalizedSamplers(), "pitch2d");
  CHECK(cudaFree(device));
  return ok;
}

static bool checkSurfaces() {
  const int w = 29, h = 6, d = 3;
  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
  cudaChannelFormatDesc cdesc = cudaCreateChannelDesc<uchar4>();
  cudaChannelFormatDesc idesc = cudaCreateChannelDesc<int>();
  cudaArray_t plane, volume, layered;
  CHECK(cudaMallocArray(&plane, &fdesc, w, h, cudaArraySurfaceLoadStore));
  CHECK(cudaMalloc3DArray(&volume, &cdesc, make_cudaExtent(w, h, d),
                          cudaArraySurfaceLoadStore));
  CHECK(cudaMalloc3DArray(&layered, &idesc, make_cudaExtent(w, h, 2),
                          cudaArrayLayered | cudaArraySurfaceLoadStore));
  cudaSurfaceObject_t sPlane, sVolume, sLayered;
  cudaResourceDesc r = arrayResource(plane);
  CHECK(cudaCreateSurfaceObject(&sPlane, &r));
  r = arrayResource(volume);
  CHECK(cudaCreateSurfaceObject(&sVolume, &r));
  r = arrayResource(layered);
  CHECK(cudaCreateSurfaceObject(&sLayered, &r));
  writeSurfaces<<<dim3(1, h), 32>>>(sPlane, sVolume, sLayered, w, h, d);
  CHECK(cudaGetLastError());
  int n = (w + 2) * h;
  DeviceBuffer<float> zero(n), clamp(n);
  DeviceBuffer<uchar4> voxels(n);
  DeviceBuffer<int> cells(n);
  readSurfaces<<<dim3(1, h), 32>>>(sPlane, sVolume, sLayered, w, h, zero.ptr,
                                   clamp.ptr, voxels.ptr, cells.ptr);
  std::vector<float> gotZero(n), gotClamp(n), plain(w * h);
  std::vector<uchar4> gotVoxels(n);
  std::vector<int> gotCells(n);
  CHECK(cudaMemcpy(gotZero.data(), zero.ptr, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gotClamp.data(), clamp.ptr, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gotVoxels.data(), voxels.ptr, n * 4,
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gotCells.data(), cells.ptr, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy2DFromArray(plain.data(), w * 4, plane, 0, 0, w * 4, h,
                              cudaMemcpyDeviceToHost));
  auto f = [](int x, int y) { return x * 0.5f + y * 10.0f; };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w + 2; ++x) {
      int i = y * (w + 2) + x, column = x - 1;
      bool inside = column >= 0 && column < w;
      int nearest = column < 0 ? 0 : column >= w ? w - 1 : column;
      float wantZero = inside ? f(column, y) : 0.0f;
      if (gotZero[i] != wantZero || gotClamp[i] != f(nearest, y)) {
        printf("surfaces: column %d row %d: zero %g (want %g), clamp %g "
               "(want %g)\n",
               column, y, gotZero[i], wantZero, gotClamp[i], f(nearest, y));
        return false;
      }
      if (x < w) {
        uchar4 v = gotVoxels[i];
        if (v.x != x || v.y != y || v.z != 2 || v.w != x + y + 2 ||
            gotCells[i] != x + 1000 * y || plain[y * w + x] != f(x, y)) {
          printf("surfaces: (%d, %d): voxel (%d, %d, %d, %d), cell %d, "
                 "copied %g\n",
                 x, y, v.x, v.y, v.z, v.w, gotCells[i], plain[y * w + x]);
          return false;
        }
      }
    }
  // A texture reads what the surface wrote.
  Sampler point = {cudaFilterModePoint,
                   {cudaAddressModeClamp, cudaAddressModeClamp,
                    cudaAddressModeClamp},
                   false,
                   0};
  std::vector<float> reference2D(plain);
  r = arrayResource(plane);
  if (!sweep2D(r, reference2D, w, h, {point}, "surfaces"))
    return false;
  for (cudaSurfaceObject_t s : {sPlane, sVolume, sLayered})
    CHECK(cudaDestroySurfaceObject(s));
  // Surfaces need arrays made for them.
  cudaArray_t plain2D;
  CHECK(cudaMallocArray(&plain2D, &fdesc, 4, 4));
  r = arrayResource(plain2D);
  cudaSurfaceObject_t refused;
  if (cudaCreateSurfaceObject(&refused, &r) != cudaErrorInvalidValue) {
    printf("surfaces: an array without cudaArraySurfaceLoadStore was "
           "accepted\n");
    return false;
  }
  cudaGetLastError();
  for (cudaArray_t array : {plane, volume, layered, plain2D})
    CHECK(cudaFreeArray(array));
  return true;
}

/// Copies between host memory and arrays, array to array, and regions.
static bool checkCopies() {
  const long w = 21, h = 12, d = 4;
  std::vector<int> host(w * h * d), back(w * h * d, -1);
  for (long i = 0; i < w * h * d; ++i)
    host[i] = (int)(i * 7 + 1);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<int>();
  cudaArray_t a, b;
  CHECK(cudaMallocArray(&a, &desc, w, h));
  CHECK(cudaMallocArray(&b, &desc, w, h));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaMemcpy2DToArrayAsync(a, 0, 0, host.data(), w * 4, w * 4, h,
                                 cudaMemcpyHostToDevice, stream));
  CHECK(cudaStreamSynchronize(stream));
  // b = a shifted: columns 2.. and rows 1.. of a to (0, 0) of b.
  CHECK(cudaMemcpy2DArrayToArray(b, 0, 0, a, 2 * 4, 1, (w - 2) * 4, h - 1,
                                 cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpy2DFromArray(back.data(), w * 4, b, 0, 0, (w - 2) * 4, h - 1,
                              cudaMemcpyDeviceToHost));
  for (long y = 0; y < h - 1; ++y)
    for (long x = 0; x < w - 2; ++x)
      if (back[y * w + x] != host[(y + 1) * w + x + 2]) {
        printf("copies: 2-D at (%ld, %ld): got %d, want %d\n", x, y,
               back[y * w + x], host[(y + 1) * w + x + 2]);
        return false;
      }
  // A 3-D region into a 3-D array, and the whole array back.
  cudaArray_t c;
  CHECK(cudaMalloc3DArray(&c, &desc, make_cudaExtent(w, h, d)));
  std::vector<int> zeros(w * h * d, 0);
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(zeros.data(), w * 4, w, h);
  p.dstArray = c;
  p.extent = make_cudaExtent(w, h, d);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(host.data(), w * 4, w, h);
  p.srcPos = make_cudaPos(3 * 4, 2, 1); // bytes for a pointer
  p.dstArray = c;
  p.dstPos = make_cudaPos(1, 4, 2); // elements for an array
  p.extent = make_cudaExtent(5, 6, 2);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3DAsync(&p, stream));
  memset(&p, 0, sizeof p);
  p.srcArray = c;
  p.dstPtr = make_cudaPitchedPtr(back.data(), w * 4, w, h);
  p.extent = make_cudaExtent(w, h, d);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3DAsync(&p, stream));
  CHECK(cudaStreamSynchronize(stream));
  for (long z = 0; z < d; ++z)
    for (long y = 0; y < h; ++y)
      for (long x = 0; x < w; ++x) {
        bool inside = x >= 1 && x < 6 && y >= 4 && y < 10 && z >= 2 && z < 4;
        int want = inside ? host[(z - 1) * w * h + (y - 2) * w + x + 2] : 0;
        if (back[(z * h + y) * w + x] != want) {
          printf("copies: 3-D at (%ld, %ld, %ld): got %d, want %d\n", x, y, z,
                 back[(z * h + y) * w + x], want);
          return false;
        }
      }
  cudaChannelFormatDesc got;
  cudaExtent extent;
  unsigned flags;
  CHECK(cudaArrayGetInfo(&got, &extent, &flags, c));
  if (got.x != 32 || got.f != cudaChannelFormatKindSigned ||
      extent.width != (size_t)w || extent.height != (size_t)h ||
      extent.depth != (size_t)d || flags != 0) {
    printf("copies: cudaArrayGetInfo\n");
    return false;
  }
  // Regions outside the array are refused.
  p.extent = make_cudaExtent(w + 1, h, d);
  if (cudaMemcpy3D(&p) != cudaErrorInvalidValue) {
    printf("copies: an oversized region was accepted\n");
    return false;
  }
  cudaGetLastError();
  CHECK(cudaStreamDestroy(stream));
  for (cudaArray_t array : {a, b, c})
    CHECK(cudaFreeArray(array));
  return true;
}

static bool checkErrors() {
  cudaChannelFormatDesc rgb = cudaCreateChannelDesc(8, 8, 8, 0,
                                                    cudaChannelFormatKindUnsigned);
  cudaArray_t array;
  if (cudaMallocArray(&array, &rgb, 4, 4) != cudaErrorInvalidChannelDescriptor) {
    printf("errors: a 3-channel array was accepted\n");
    return false;
  }
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<int>();
  CHECK(cudaMallocArray(&array, &desc, 8, 8));
  cudaResourceDesc resource = arrayResource(array);
  Sampler linear = {cudaFilterModeLinear,
                    {cudaAddressModeClamp, cudaAddressModeClamp,
                     cudaAddressModeClamp},
                    false,
                    0};
  cudaTextureDesc td = textureDesc(linear);
  cudaTextureObject_t t;
  if (cudaCreateTextureObject(&t, &resource, &td, nullptr) !=
      cudaErrorInvalidValue) {
    printf("errors: linear filtering of integers was accepted\n");
    return false;
  }
  cudaResourceDesc mipmapped;
  memset(&mipmapped, 0, sizeof mipmapped);
  mipmapped.resType = cudaResourceTypeMipmappedArray;
  td.filterMode = cudaFilterModePoint;
  if (cudaCreateTextureObject(&t, &mipmapped, &td, nullptr) !=
      cudaErrorNotSupported) {
    printf("errors: a mipmapped texture was accepted\n");
    return false;
  }
  CHECK(cudaCreateTextureObject(&t, &resource, &td, nullptr));
  CHECK(cudaDestroyTextureObject(t));
  if (cudaDestroyTextureObject(t) != cudaErrorInvalidValue) {
    printf("errors: a texture object was destroyed twice\n");
    return false;
  }
  CHECK(cudaFreeArray(array));
  if (cudaFreeArray(array) != cudaErrorInvalidValue) {
    printf("errors: an array was freed twice\n");
    return false;
  }
  cudaGetLastError();
  return true;
}

int main() {
  printf("linear %s\n", checkLinear() ? "PASSED" : "FAILED");
  printf("array2d %s\n", checkArray2D() ? "PASSED" : "FAILED");
  printf("normalized %s\n", checkNormalized() ? "PASSED" : "FAILED");
  printf("uchar4 %s\n", checkUchar4() ? "PASSED" : "FAILED");
  printf("array3d %s\n", checkArray3D() ? "PASSED" : "FAILED");
  printf("layered %s\n", checkLayered() ? "PASSED" : "FAILED");
  printf("pitch2d %s\n", checkPitch2D() ? "PASSED" : "FAILED");
  printf("surfaces %s\n", checkSurfaces() ? "PASSED" : "FAILED");
  printf("copies %s\n", checkCopies() ? "PASSED" : "FAILED");
  printf("errors %s\n", checkErrors() ? "PASSED" : "FAILED");
  return 0;
}
