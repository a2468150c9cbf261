// A block keeps the address of its shared tile in global memory (a
// __device__ table, or a table a kernel argument points to) and reads the
// tile through the pointer it loads back after a barrier. Before 0.29.0
// barrier elimination took a pointer loaded from global memory for one
// that cannot point into shared memory and removed the barrier between
// the tile's stores and those reads (508 of 512 values wrong); found by an
// audit of respec's alias reasoning.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 %t | FileCheck %s
// CHECK: device table PASSED
// CHECK: argument table PASSED

#include <cstdio>
#include <cuda_runtime.h>

#define N 128
#define B 4

__device__ float *slot[B];

template <bool DeviceTable>
__global__ void rotate(float **table, float *out, const float *in) {
  __shared__ float tile[N];
  __shared__ float staged[N];
  int tx = threadIdx.x, b = blockIdx.x;
  float **slots = DeviceTable ? slot : table;
  if (tx == 0)
    slots[b] = tile;
  staged[tx] = in[b * N + tx];
  __syncthreads();
  tile[tx] = staged[(tx + 1) % N] * 2.0f;
  __syncthreads();
  float *p = slots[b];
  out[b * N + tx] = p[(tx + 1) % N];
}

template <bool DeviceTable> static int run(const char *what) {
  float host[B * N], result[B * N];
  for (int i = 0; i < B * N; ++i)
    host[i] = i + 1;
  float *in, *out, **table;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof host);
  cudaMalloc(&table, B * sizeof(float *));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  rotate<DeviceTable><<<B, N>>>(table, out, in);
  cudaMemcpy(result, out, sizeof result, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < N; ++t) {
      float want = host[b * N + (t + 2) % N] * 2.0f;
      if (result[b * N + t] != want && bad++ < 5)
        printf("block %d thread %d: %g, expected %g\n", b, t,
               result[b * N + t], want);
    }
  printf("%s %s\n", what, bad ? "FAILED" : "PASSED");
  return bad;
}

int main() {
  int failures = run<true>("device table");
  failures += run<false>("argument table");
  return failures != 0;
}
