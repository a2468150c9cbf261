// respec must compile CUDA programs without an installed CUDA toolkit: with
// --cuda-path pointing nowhere, <cuda_runtime.h> and the device builtins
// (threadIdx, atomics, math functions, printf) come from respec itself.
// Only <cuda_runtime.h> and <cstdio> are included, as the brief requires.
// RUN: %respec --cuda-path=/nonexistent -O2 %s -o %t && %t | FileCheck %s
// CHECK: device says 42
// CHECK: PASSED

#include <cuda_runtime.h>
#include <cstdio>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      printf("%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,             \
             cudaGetErrorString(err_));                                       \
      printf("FAILED\n");                                                     \
      return 1;                                                               \
    }                                                                         \
  } while (0)

__constant__ float gain;
__device__ int sumOfAll;

__global__ void work(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = sqrtf(in[i]) * gain + fmaxf(in[i] - 10.0f, 0.0f);
  atomicAdd(&sumOfAll, (int)in[i]);
  if (i == 0)
    printf("device says %d\n", 42);
}

int main() {
  const int n = 4096;
  static float h[n], r[n];
  long long expectedSum = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = (float)((i % 16) * (i % 16)); // perfect squares
    expectedSum += (long long)h[i];
  }
  float g = 0.5f;
  int zero = 0;
  CUDA_CHECK(cudaMemcpyToSymbol(gain, &g, sizeof(float)));
  CUDA_CHECK(cudaMemcpyToSymbol(sumOfAll, &zero, sizeof(int)));
  float *din, *dout;
  CUDA_CHECK(cudaMalloc((void **)&din, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void **)&dout, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(din, h, n * sizeof(float), cudaMemcpyHostToDevice));
  work<<<dim3((n + 127) / 128), dim3(128)>>>(din, dout, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(r, dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  int sum = 0;
  CUDA_CHECK(cudaMemcpyFromSymbol(&sum, sumOfAll, sizeof(int)));
  for (int i = 0; i < n; ++i) {
    float root = (float)(i % 16);
    float e = root * 0.5f + (h[i] - 10.0f > 0.0f ? h[i] - 10.0f : 0.0f);
    if (r[i] != e) {
      printf("mismatch at %d: got %f, expected %f\n", i, r[i], e);
      printf("FAILED\n");
      return 1;
    }
  }
  if (sum != expectedSum) {
    printf("sum %d, expected %lld\n", sum, expectedSum);
    printf("FAILED\n");
    return 1;
  }
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
  fflush(stdout);
  printf("PASSED\n");
  return 0;
}
