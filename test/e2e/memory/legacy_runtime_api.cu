// Programs written for CUDA 11 and older compile and run unchanged, although
// CUDA 12 removed texture references and CUDA 13 the cudaThread* functions
// CUDA 12's device-number forms of cudaMemPrefetchAsync/cudaMemAdvise and
// cudaGraphAddDependencies without edge data, and CUDA 11's
// cudaGraphInstantiate with an error node and a log, which the toolkit's
// headers keep (with
// the toolkit's CUDA 13 headers nvcc rejects this file). Texture references
// (texture<> variables, without __device__) of 1-D linear memory, pitched
// memory and 1-D, 2-D and 3-D arrays, with the element and normalized-float
// read modes, point and linear filtering, normalized coordinates and the
// address modes set on the reference; the template and the C forms of
// cudaBindTexture*, cudaUnbindTexture, cudaGetTextureReference and
// cudaGetTextureAlignmentOffset; a rebinding between launches, which
// kernels launched before it do not see (also with asynchronous launches);
// and the errors. Linear-filter weights are multiples of 1/8, exact in the
// texture unit's 8-bit weights. Built with the toolkit's headers and with
// respec's own.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: env RESPEC_ASYNC_LAUNCH=1 OMP_NUM_THREADS=3 %t | FileCheck %s
// RUN: %respec --cuda-path=/nonexistent -O2 %s -o %t.own && %t.own | FileCheck %s
// RUN: not --crash %t unbound > %t.unbound 2>&1
// RUN: FileCheck %s --check-prefix=UNBOUND < %t.unbound
// CHECK: thread functions PASSED
// CHECK: linear memory PASSED
// CHECK: rebinding PASSED
// CHECK: arrays PASSED
// CHECK: pitched memory PASSED
// CHECK: C entry points PASSED
// CHECK: errors PASSED
// CHECK: managed memory hints PASSED
// CHECK: graph forms PASSED
// UNBOUND: respec: a kernel used texture object 0x0, which is not a live object of that kind (a texture<> reference no memory is bound to reads as object 0): unspecified launch failure

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t error_ = (call);                                               \
    if (error_ != cudaSuccess) {                                               \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                     \
             cudaGetErrorString(error_));                                      \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

texture<float, 1, cudaReadModeElementType> values;
texture<unsigned char, 1, cudaReadModeNormalizedFloat> bytes;
texture<uchar4, 1, cudaReadModeNormalizedFloat> pixels;
texture<int2, 1> doubles; // the old idiom for doubles through textures
texture<float4, 1> vectors;
texture<float, 1> line;                   // a 1-D array, linear filtering
texture<float, 2> image;                  // a 2-D array, normalized coordinates
texture<short, cudaTextureType2D, cudaReadModeNormalizedFloat> pitched;
texture<float, 3> volume;

static int failures = 0;

static void expect(bool ok, const char *what, int i, double got, double want) {
  if (!ok && failures++ < 10)
    printf("%s[%d]: %.9g, expected %.9g\n", what, i, got, want);
}

static bool close(double got, double want) {
  return std::fabs(got - want) <= 1e-6 * (1 + std::fabs(want));
}

static void report(const char *what) {
  printf("%s %s\n", what, failures ? "FAILED" : "PASSED");
  if (failures)
    exit(1);
}

__global__ void readLinear(float *out, double *outDoubles, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 pixel = tex1Dfetch(pixels, i);
  out[i] = 2.0f * tex1Dfetch(values, i) + tex1Dfetch(bytes, i) +
           tex1Dfetch(vectors, i).w + pixel.x + 2.0f * pixel.w;
  int2 bits = tex1Dfetch(doubles, i);
  outDoubles[i] = __hiloint2double(bits.y, bits.x);
}

__global__ void copyValues(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1Dfetch(values, i);
}

__global__ void sampleArrays(float *lineOut, float *imageOut, float *volumeOut,
                             int w, int h, int d) {
  int x = threadIdx.x, y = blockIdx.x;
  // Halfway between texels x and x + 1 (and clamped past the end).
  if (y == 0)
    lineOut[x] = tex1D(line, x + 1.0f);
  if (x < w && y < h) {
    // Normalized coordinates; the wrap address mode folds x + w onto x.
    float u = (x + w + 0.5f) / w, v = (y + 0.5f) / h;
    // A zero gradient samples the array's one level, as tex2D does.
    imageOut[y * w + x] =
        (tex2D(image, u, v) +
         tex2DGrad(image, u, v, make_float2(0, 0), make_float2(0, 0))) /
        2;
    for (int z = 0; z < d; ++z)
      volumeOut[(z * h + y) * w + x] = tex3D(volume, x + 0.5f, y + 0.5f, z + 0.5f);
  }
}

__global__ void samplePitched(float *out, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h)
    out[y * w + x] = tex2D(pitched, x + 0.5f, y + 0.5f);
}

__global__ void readUnbound(float *out) { out[threadIdx.x] = tex1Dfetch(line, 0); }

static void checkThreadFunctions() {
  // The cudaThread* functions of CUDA 3 are the cudaDevice* ones.
  CHECK(cudaThreadSetLimit(cudaLimitMallocHeapSize, 32 << 20));
  size_t heap = 0;
  CHECK(cudaThreadGetLimit(&heap, cudaLimitMallocHeapSize));
  size_t deviceHeap = 0;
  CHECK(cudaDeviceGetLimit(&deviceHeap, cudaLimitMallocHeapSize));
  expect(heap == deviceHeap && heap >= (32 << 20), "heap limit", 0, heap,
         32 << 20);
  CHECK(cudaThreadSetCacheConfig(cudaFuncCachePreferShared));
  cudaFuncCache cache;
  CHECK(cudaThreadGetCacheConfig(&cache));
  cudaFuncCache deviceCache;
  CHECK(cudaDeviceGetCacheConfig(&deviceCache));
  expect(cache == deviceCache, "cache config", 0, cache, deviceCache);
  double value = 1.5;
  CHECK(cudaSetDoubleForDevice(&value));
  CHECK(cudaSetDoubleForHost(&value));
  expect(value == 1.5, "double conversion", 0, value, 1.5);
  CHECK(cudaThreadSynchronize());
  report("thread functions");
}

static void checkLinear() {
  const int n = 1000;
  float *hostValues = new float[n];
  unsigned char *hostBytes = new unsigned char[n];
  uchar4 *hostPixels = new uchar4[n];
  double *hostDoubles = new double[n];
  float4 *hostVectors = new float4[n];
  for (int i = 0; i < n; ++i) {
    hostValues[i] = i * 0.25f - 7;
    hostBytes[i] = (unsigned char)(i * 7);
    hostPixels[i] = make_uchar4(i % 256, 0, 0, 255 - i % 256);
    hostDoubles[i] = 1.0 / (i + 1) + 1e-12 * i;
    hostVectors[i] = make_float4(0, 0, 0, (float)(i % 13));
  }
  float *deviceValues, *out;
  unsigned char *deviceBytes;
  uchar4 *devicePixels;
  double *deviceDoubles, *outDoubles;
  float4 *deviceVectors;
  CHECK(cudaMalloc(&deviceValues, n * sizeof(float)));
  CHECK(cudaMalloc(&deviceBytes, n));
  CHECK(cudaMalloc(&devicePixels, n * sizeof(uchar4)));
  CHECK(cudaMalloc(&deviceDoubles, n * sizeof(double)));
  CHECK(cudaMalloc(&deviceVectors, n * sizeof(float4)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMalloc(&outDoubles, n * sizeof(double)));
  CHECK(cudaMemcpy(deviceValues, hostValues, n * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(deviceBytes, hostBytes, n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(devicePixels, hostPixels, n * sizeof(uchar4),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(deviceDoubles, hostDoubles, n * sizeof(double),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(deviceVectors, hostVectors, n * sizeof(float4),
                   cudaMemcpyHostToDevice));

  size_t offset = 99;
  CHECK(cudaBindTexture(&offset, values, deviceValues, n * sizeof(float)));
  expect(offset == 0, "offset", 0, offset, 0);
  CHECK(cudaBindTexture(nullptr, bytes, deviceBytes, n));
  CHECK(cudaBindTexture(nullptr, pixels, devicePixels));
  cudaChannelFormatDesc int2Desc = cudaCreateChannelDesc<int2>();
  CHECK(cudaBindTexture(nullptr, doubles, deviceDoubles, int2Desc,
                        n * sizeof(double)));
  CHECK(cudaBindTexture(nullptr, vectors, deviceVectors, n * sizeof(float4)));
  CHECK(cudaGetTextureAlignmentOffset(&offset, values));
  expect(offset == 0, "alignment offset", 0, offset, 0);

  readLinear<<<(n + 127) / 128, 128>>>(out, outDoubles, n);
  CHECK(cudaGetLastError());
  float *result = new float[n];
  double *resultDoubles = new double[n];
  CHECK(cudaMemcpy(result, out, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(resultDoubles, outDoubles, n * sizeof(double),
                   cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    double want = 2.0 * hostValues[i] + hostBytes[i] / 255.0 + i % 13 +
                  (i % 256) / 255.0 + 2.0 * (255 - i % 256) / 255.0;
    expect(close(result[i], want), "linear", i, result[i], want);
    expect(resultDoubles[i] == hostDoubles[i], "doubles", i, resultDoubles[i],
           hostDoubles[i]);
  }
  report("linear memory");

  // Rebinding between launches: the first launch keeps its binding.
  float *other, *out2;
  CHECK(cudaMalloc(&other, n * sizeof(float)));
  CHECK(cudaMalloc(&out2, n * sizeof(float)));
  CHECK(cudaMemset(other, 0, n * sizeof(float)));
  copyValues<<<(n + 255) / 256, 256>>>(out, n);
  CHECK(cudaBindTexture(nullptr, values, other, n * sizeof(float)));
  copyValues<<<(n + 255) / 256, 256>>>(out2, n);
  float *result2 = new float[n];
  CHECK(cudaMemcpy(result, out, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(result2, out2, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    expect(result[i] == hostValues[i], "before rebinding", i, result[i],
           hostValues[i]);
    expect(result2[i] == 0, "after rebinding", i, result2[i], 0);
  }
  CHECK(cudaUnbindTexture(values));
  CHECK(cudaUnbindTexture(&bytes));
  report("rebinding");
  delete[] hostValues;
  delete[] hostBytes;
  delete[] hostPixels;
  delete[] hostDoubles;
  delete[] hostVectors;
  delete[] result;
  delete[] result2;
  delete[] resultDoubles;
}

static void checkArrays() {
  const int w = 24, h = 9, d = 5;
  float hostLine[w];
  for (int x = 0; x < w; ++x)
    hostLine[x] = x * x * 0.5f;
  cudaChannelFormatDesc floatDesc = cudaCreateChannelDesc<float>();
  cudaArray_t lineArray;
  CHECK(cudaMallocArray(&lineArray, &floatDesc, w));
  CHECK(cudaMemcpy2DToArray(lineArray, 0, 0, hostLine, w * sizeof(float),
                            w * sizeof(float), 1, cudaMemcpyHostToDevice));
  line.filterMode = cudaFilterModeLinear;
  line.addressMode[0] = cudaAddressModeClamp;
  CHECK(cudaBindTextureToArray(line, lineArray));

  float hostImage[h][w];
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      hostImage[y][x] = y * 100 + x;
  cudaArray_t imageArray;
  CHECK(cudaMallocArray(&imageArray, &floatDesc, w, h));
  CHECK(cudaMemcpy2DToArray(imageArray, 0, 0, hostImage, w * sizeof(float),
                            w * sizeof(float), h, cudaMemcpyHostToDevice));
  image.normalized = 1;
  image.addressMode[0] = cudaAddressModeWrap;
  image.addressMode[1] = cudaAddressModeWrap;
  CHECK(cudaBindTextureToArray(image, imageArray, floatDesc));

  static float hostVolume[d][h][w];
  for (int z = 0; z < d; ++z)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        hostVolume[z][y][x] = z * 1000 + y * 50 + x;
  cudaArray_t volumeArray;
  CHECK(cudaMalloc3DArray(&volumeArray, &floatDesc, make_cudaExtent(w, h, d)));
  cudaMemcpy3DParms copy = {};
  copy.srcPtr = make_cudaPitchedPtr(hostVolume, w * sizeof(float), w, h);
  copy.dstArray = volumeArray;
  copy.extent = make_cudaExtent(w, h, d);
  copy.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&copy));
  CHECK(cudaBindTextureToArray(volume, volumeArray));

  float *lineOut, *imageOut, *volumeOut;
  CHECK(cudaMallocManaged(&lineOut, w * sizeof(float)));
  CHECK(cudaMallocManaged(&imageOut, w * h * sizeof(float)));
  CHECK(cudaMallocManaged(&volumeOut, w * h * d * sizeof(float)));
  sampleArrays<<<h, 32>>>(lineOut, imageOut, volumeOut, w, h, d);
  CHECK(cudaDeviceSynchronize());
  for (int x = 0; x < w; ++x) {
    float want = x + 1 < w ? (hostLine[x] + hostLine[x + 1]) / 2 : hostLine[w - 1];
    expect(close(lineOut[x], want), "tex1D", x, lineOut[x], want);
  }
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      expect(imageOut[y * w + x] == hostImage[y][x], "tex2D", y * w + x,
             imageOut[y * w + x], hostImage[y][x]);
      for (int z = 0; z < d; ++z) {
        int i = (z * h + y) * w + x;
        expect(volumeOut[i] == hostVolume[z][y][x], "tex3D", i, volumeOut[i],
               hostVolume[z][y][x]);
      }
    }
  report("arrays");
}

static void checkPitched() {
  const int w = 19, h = 7;
  short hostShorts[h][w];
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      hostShorts[y][x] = (short)((y - 3) * 3000 + x * 17);
  short *device;
  size_t pitch;
  CHECK(cudaMallocPitch(&device, &pitch, w * sizeof(short), h));
  CHECK(cudaMemcpy2D(device, pitch, hostShorts, w * sizeof(short),
                     w * sizeof(short), h, cudaMemcpyHostToDevice));
  CHECK(cudaBindTexture2D(nullptr, pitched, device, w, h, pitch));
  float *out;
  CHECK(cudaMallocManaged(&out, w * h * sizeof(float)));
  samplePitched<<<h, 32>>>(out, w, h);
  CHECK(cudaDeviceSynchronize());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      // Signed 16-bit texels read as max(v / 32767, -1).
      double want = std::fmax(hostShorts[y][x] / 32767.0, -1.0);
      expect(close(out[y * w + x], want), "pitched", y * w + x, out[y * w + x],
             want);
    }
  report("pitched memory");
}

static void checkCEntryPoints() {
  // The C forms take the reference's address, as CUDA 11's C API did.
  const textureReference *reference = nullptr;
  CHECK(cudaGetTextureReference(&reference, &values));
  expect(reference == &values, "texture reference", 0, 0, 0);
  const int n = 64;
  float host[n];
  for (int i = 0; i < n; ++i)
    host[i] = 3.0f * i;
  float *device, *out;
  CHECK(cudaMalloc(&device, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemcpy(device, host, n * sizeof(float), cudaMemcpyHostToDevice));
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  CHECK(cudaBindTexture(nullptr, reference, device, &desc, n * sizeof(float)));
  copyValues<<<1, n>>>(out, n);
  float result[n];
  CHECK(cudaMemcpy(result, out, sizeof result, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    expect(result[i] == host[i], "C binding", i, result[i], host[i]);
  CHECK(cudaUnbindTexture(reference));
  report("C entry points");
}

static void checkErrors() {
  float notATexture = 0;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaError_t error =
      cudaBindTexture(nullptr, (const textureReference *)&notATexture,
                      &notATexture, &desc, sizeof(float));
  expect(error == cudaErrorInvalidTexture, "bind to a non-texture", 0, error,
         cudaErrorInvalidTexture);
  expect(cudaGetLastError() == cudaErrorInvalidTexture, "last error", 0, 0, 0);
  const textureReference *reference = nullptr;
  error = cudaGetTextureReference(&reference, &notATexture);
  expect(error == cudaErrorInvalidTexture, "reference of a non-texture", 0,
         error, cudaErrorInvalidTexture);
  expect(cudaGetLastError() == cudaErrorInvalidTexture, "last error", 1, 0, 0);
  report("errors");
}

static void checkManagedMemoryHints() {
  // CUDA 12's forms name the device by number.
  float *managed;
  CHECK(cudaMallocManaged(&managed, 256 * sizeof(float)));
  CHECK(cudaMemAdvise(managed, 256 * sizeof(float), cudaMemAdviseSetReadMostly,
                      0));
  CHECK(cudaMemPrefetchAsync(managed, 256 * sizeof(float), 0));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaMemPrefetchAsync(managed, 256 * sizeof(float), cudaCpuDeviceId,
                             stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(managed));
  report("managed memory hints");
}

__global__ void addOne(int *value) { *value += 1; }

static void checkGraphForms() {
  // CUDA 11's cudaGraphInstantiate (error node, log buffer) and CUDA 12's
  // cudaGraphAddDependencies (no edge data).
  int *value;
  CHECK(cudaMallocManaged(&value, sizeof(int)));
  *value = 0;
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  addOne<<<1, 1, 0, stream>>>(value);
  addOne<<<1, 1, 0, stream>>>(value);
  CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphNode_t first, second;
  CHECK(cudaGraphAddEmptyNode(&first, graph, nullptr, 0));
  CHECK(cudaGraphAddEmptyNode(&second, graph, nullptr, 0));
  CHECK(cudaGraphAddDependencies(graph, &first, &second, 1));
  cudaGraphExec_t exec;
  cudaGraphNode_t errorNode = nullptr;
  char log[16] = "";
  CHECK(cudaGraphInstantiate(&exec, graph, &errorNode, log, sizeof log));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  expect(*value == 4, "graph launches", 0, *value, 4);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(value));
  report("graph forms");
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "unbound")) {
    // A texture reference that no memory was bound to: a GPU's launch
    // fails; respec stops with a message.
    float *out;
    CHECK(cudaMallocManaged(&out, 32 * sizeof(float)));
    readUnbound<<<1, 32>>>(out);
    cudaDeviceSynchronize();
    printf("after the launch\n");
    return 0;
  }
  checkThreadFunctions();
  checkLinear();
  checkArrays();
  checkPitched();
  checkCEntryPoints();
  checkErrors();
  checkManagedMemoryHints();
  checkGraphForms();
  CHECK(cudaThreadExit());
  return 0;
}
