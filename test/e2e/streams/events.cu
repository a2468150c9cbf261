// Events: cudaEventRecord around a kernel, cudaEventSynchronize,
// cudaEventElapsedTime non-negative and finite, cudaEventQuery returning
// cudaSuccess once complete, events created with cudaEventDisableTiming,
// and cudaEventElapsedTime on such an event failing with an error.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// CHECK: PASSED

#include <cmath>
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

__global__ void busy(unsigned *out, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned x = i;
  for (int k = 0; k < iters; ++k)
    x = x * 1103515245u + 12345u;
  out[i] = x;
}

int main() {
  const int n = 100000, iters = 50;
  unsigned *d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(unsigned)));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  cudaEvent_t start, middle, stop, noTiming;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&middle));
  CUDA_CHECK(cudaEventCreateWithFlags(&stop, cudaEventDefault));
  CUDA_CHECK(cudaEventCreateWithFlags(&noTiming, cudaEventDisableTiming));

  CUDA_CHECK(cudaEventRecord(start, stream));
  busy<<<(n + 255) / 256, 256, 0, stream>>>(d, n, iters);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(middle, stream));
  busy<<<(n + 255) / 256, 256, 0, stream>>>(d, n, iters * 2);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stop, stream));
  CUDA_CHECK(cudaEventRecord(noTiming, stream));
  CUDA_CHECK(cudaEventSynchronize(stop));
  CUDA_CHECK(cudaEventQuery(stop));
  CUDA_CHECK(cudaEventSynchronize(noTiming));

  float total = -1.0f, first = -1.0f, second = -1.0f;
  CUDA_CHECK(cudaEventElapsedTime(&total, start, stop));
  CUDA_CHECK(cudaEventElapsedTime(&first, start, middle));
  CUDA_CHECK(cudaEventElapsedTime(&second, middle, stop));
  if (!(total >= 0.0f) || !(first >= 0.0f) || !(second >= 0.0f) ||
      !std::isfinite(total) || total > 60000.0f) {
    printf("bad elapsed times: total %f, first %f, second %f\n", total, first,
           second);
    printf("FAILED\n");
    return 1;
  }
  float bogus = 0.0f;
  if (cudaEventElapsedTime(&bogus, start, noTiming) == cudaSuccess) {
    printf("elapsed time with a cudaEventDisableTiming event succeeded\n");
    printf("FAILED\n");
    return 1;
  }
  cudaGetLastError(); // clear the expected error

  unsigned *h = (unsigned *)malloc(n * sizeof(unsigned));
  CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    unsigned x = i;
    for (int k = 0; k < iters * 2; ++k)
      x = x * 1103515245u + 12345u;
    if (h[i] != x) {
      printf("mismatch at %d: got %u, expected %u\n", i, h[i], x);
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(middle));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaEventDestroy(noTiming));
  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFree(d));
  free(h);
  printf("PASSED\n");
  return 0;
}
