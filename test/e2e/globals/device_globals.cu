// __device__ global variables: scalars and arrays with static initializers
// read by kernels, a global counter updated with atomics and read back with
// cudaMemcpyFromSymbol, a global array reached through cudaGetSymbolAddress
// and filled with cudaMemset/cudaMemcpy, and a global struct.
// RUN: %respec -O1 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=1 -O1 %s -o %t.c2x1 && %t.c2x1 | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=2 -O1 %s -o %t.c2x2 && %t.c2x2 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,    \
              cudaGetErrorString(err_));                                      \
      printf("FAILED\n");                                                     \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

struct Config {
  int threshold;
  float scale;
  double shift;
};

__device__ int lookup[8] = {1, 1, 2, 6, 24, 120, 720, 5040};
__device__ Config config = {500, 2.0f, -0.5};
__device__ unsigned long long aboveCount = 0;
__device__ int buffer[4096];
static __device__ int staticScalar = 42;

__global__ void classify(const int *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = in[i];
  if (v > config.threshold)
    atomicAdd(&aboveCount, 1ull);
  out[i] = v * config.scale + config.shift + lookup[v & 7] + staticScalar;
}

__global__ void accumulateBuffer(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&buffer[i % 4096], 1 + (i % 3));
}

int main() {
  const int n = 200000;
  int *hin = (int *)malloc(n * sizeof(int));
  double *hout = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    hin[i] = (i * 7) % 1000;
  int *din;
  double *dout;
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(double)));
  CUDA_CHECK(cudaMemcpy(din, hin, n * sizeof(int), cudaMemcpyHostToDevice));

  // Change the threshold, keep the other initialized fields.
  Config hc;
  CUDA_CHECK(cudaMemcpyFromSymbol(&hc, config, sizeof(Config)));
  if (hc.threshold != 500 || hc.scale != 2.0f || hc.shift != -0.5) {
    printf("static initializer of config lost\n");
    printf("FAILED\n");
    return 1;
  }
  hc.threshold = 750;
  CUDA_CHECK(cudaMemcpyToSymbol(config, &hc, sizeof(Config)));

  classify<<<(n + 255) / 256, 256>>>(din, dout, n);
  CUDA_CHECK(cudaGetLastError());
  classify<<<(n + 255) / 256, 256>>>(din, dout, n); // counter accumulates
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(hout, dout, n * sizeof(double), cudaMemcpyDeviceToHost));
  unsigned long long count = 0, expectedCount = 0;
  CUDA_CHECK(cudaMemcpyFromSymbol(&count, aboveCount, sizeof(count)));
  const int fact[8] = {1, 1, 2, 6, 24, 120, 720, 5040};
  for (int i = 0; i < n; ++i) {
    int v = hin[i];
    if (v > 750)
      expectedCount += 2;
    double e = v * 2.0f + -0.5 + fact[v & 7] + 42;
    if (hout[i] != e) {
      printf("mismatch at %d: got %f, expected %f\n", i, hout[i], e);
      printf("FAILED\n");
      return 1;
    }
  }
  if (count != expectedCount) {
    printf("counter: got %llu, expected %llu\n", count, expectedCount);
    printf("FAILED\n");
    return 1;
  }

  int *bufPtr = nullptr;
  CUDA_CHECK(cudaGetSymbolAddress((void **)&bufPtr, buffer));
  size_t bufSize = 0;
  CUDA_CHECK(cudaGetSymbolSize(&bufSize, buffer));
  if (bufPtr == nullptr || bufSize != 4096 * sizeof(int)) {
    printf("bad symbol address %p or size %zu\n", (void *)bufPtr, bufSize);
    printf("FAILED\n");
    return 1;
  }
  CUDA_CHECK(cudaMemset(bufPtr, 0, bufSize));
  int init[16];
  for (int k = 0; k < 16; ++k)
    init[k] = 1000 * k;
  CUDA_CHECK(cudaMemcpy(bufPtr + 100, init, sizeof(init), cudaMemcpyHostToDevice));
  const int m = 4096 * 3 + 50; // some entries are touched 4 times, others 3
  accumulateBuffer<<<(m + 127) / 128, 128>>>(m);
  CUDA_CHECK(cudaGetLastError());
  int hbuf[4096];
  CUDA_CHECK(cudaMemcpyFromSymbol(hbuf, buffer, sizeof(hbuf)));
  for (int k = 0; k < 4096; ++k) {
    int e = (k >= 100 && k < 116) ? 1000 * (k - 100) : 0;
    for (int i = k; i < m; i += 4096)
      e += 1 + (i % 3);
    if (hbuf[k] != e) {
      printf("buffer[%d]: got %d, expected %d\n", k, hbuf[k], e);
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
  free(hin);
  free(hout);
  printf("PASSED\n");
  return 0;
}
