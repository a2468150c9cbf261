// The usual block reduction of modern CUDA code: each warp reduces its
// values with __shfl_down_sync, lane 0 of each warp writes the warp's sum to
// shared memory, and after __syncthreads the first warp reduces the partial
// sums. Block sizes 32, 64, 96, 256 and 1024, int and float data.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

template <typename T> __device__ T warpSum(T v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

template <typename T> __global__ void blockSum(const T *in, T *out) {
  __shared__ T partial[32];
  int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  T v = warpSum(in[blockIdx.x * blockDim.x + tid]);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int warps = (blockDim.x + 31) / 32;
    T w = lane < warps ? partial[lane] : T(0);
    w = warpSum(w);
    if (lane == 0)
      out[blockIdx.x] = w;
  }
}

template <typename T> static int check(int block, int blocks) {
  int n = block * blocks, errors = 0;
  T *h = (T *)malloc(n * sizeof(T)), got[64];
  for (int i = 0; i < n; ++i)
    h[i] = T((i * 7919) % 211) - T(100);
  T *d, *dOut;
  cudaMalloc(&d, n * sizeof(T));
  cudaMalloc(&dOut, blocks * sizeof(T));
  cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
  blockSum<T><<<blocks, block>>>(d, dOut);
  cudaMemcpy(got, dOut, blocks * sizeof(T), cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b) {
    T want = 0;
    for (int t = 0; t < block; ++t)
      want += h[b * block + t];
    if (got[b] != want && ++errors <= 5)
      printf("block size %d: block %d sum %g, expected %g\n", block, b,
             (double)got[b], (double)want);
  }
  cudaFree(d);
  cudaFree(dOut);
  free(h);
  return errors;
}

int main() {
  int errors = 0;
  for (int block : {32, 64, 96, 256, 1024}) {
    errors += check<int>(block, 5);
    errors += check<float>(block, 3);
  }
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
