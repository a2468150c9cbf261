// With --cuda-path pointing at a directory without a toolkit, respec uses
// its own CUDA headers; atomics, device math and device printf work.
// RUN: %respec --cuda-path=%t.nonexistent -O1 %s -o %t
// RUN: %t | FileCheck %s
// CHECK-DAG: block 0 says hello
// CHECK-DAG: block 1 says hello
// CHECK: PASSED

#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void work(const float *in, float *out, int *count, unsigned *maxBits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    printf("block %d says hello\n", blockIdx.x);
  if (i < n) {
    out[i] = sqrtf(in[i]) + sinf(0.0f) + expf(0.0f);
    atomicAdd(count, 1);
    atomicMax(maxBits, (unsigned)i);
  }
}

int main() {
  const int n = 100;
  float h[n];
  for (int i = 0; i < n; ++i)
    h[i] = float(i * i);
  float *in, *out;
  int *count;
  unsigned *maxBits;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&count, sizeof(int));
  cudaMalloc(&maxBits, sizeof(unsigned));
  cudaMemset(count, 0, sizeof(int));
  cudaMemset(maxBits, 0, sizeof(unsigned));
  cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
  work<<<2, 64>>>(in, out, count, maxBits, n);
  cudaDeviceSynchronize();
  int hc = 0;
  unsigned hm = 0;
  cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpy(&hc, count, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&hm, maxBits, sizeof(unsigned), cudaMemcpyDeviceToHost);
  bool ok = hc == n && hm == n - 1;
  for (int i = 0; i < n; ++i)
    ok = ok && std::fabs(h[i] - (i + 1.0f)) < 1e-4f;
  std::printf(ok ? "PASSED\n" : "FAILED count=%d max=%u\n", hc, hm);
  return ok ? 0 : 1;
}
