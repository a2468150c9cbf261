// Page-locked host memory: cudaMallocHost and cudaHostAlloc buffers used as
// the source and destination of cudaMemcpyAsync on a stream around a
// kernel, and cudaFreeHost. The host reads the results only after
// cudaStreamSynchronize.
// RUN: %respec -O3 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=2 -O3 %s -o %t.c1x2 && %t.c1x2 | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=4 -O3 %s -o %t.c1x4 && %t.c1x4 | FileCheck %s
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

__global__ void cube(const int *in, long long *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = (long long)in[i] * in[i] * in[i];
}

int main() {
  const int n = 400000;
  int *hin;
  long long *hout;
  CUDA_CHECK(cudaMallocHost(&hin, n * sizeof(int)));
  CUDA_CHECK(cudaHostAlloc(&hout, n * sizeof(long long), cudaHostAllocDefault));
  for (int i = 0; i < n; ++i) {
    hin[i] = i % 20001 - 10000;
    hout[i] = -1;
  }
  int *din;
  long long *dout;
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(long long)));
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  CUDA_CHECK(cudaMemcpyAsync(din, hin, n * sizeof(int), cudaMemcpyHostToDevice, s));
  cube<<<(n + 255) / 256, 256, 0, s>>>(din, dout, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpyAsync(hout, dout, n * sizeof(long long),
                             cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; ++i) {
    long long v = hin[i];
    if (hout[i] != v * v * v) {
      printf("mismatch at %d: got %lld, expected %lld\n", i, hout[i], v * v * v);
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
  CUDA_CHECK(cudaFreeHost(hin));
  CUDA_CHECK(cudaFreeHost(hout));
  printf("PASSED\n");
  return 0;
}
