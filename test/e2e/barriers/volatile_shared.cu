// volatile __shared__ variables used with barriers (volatile changes nothing
// about the synchronization, but the loads and stores must not be removed or
// merged): a volatile int reduction with a barrier after every step down to
// one element, a volatile shared flag written by one thread and read by all
// after a barrier, and a volatile float 2-D array with a neighbour exchange
// in a 2-D block. Block sizes 512, 128 and 32x8.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=1 -O2 %s -o %t.c8x1 && %t.c8x1 | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=2 -O2 %s -o %t.c8x2 && %t.c8x2 | FileCheck %s
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

// Deterministic pseudo-random numbers (same sequence on every platform).
static unsigned lcgState = 12345u;
static unsigned lcg() {
  lcgState = lcgState * 1664525u + 1013904223u;
  return lcgState >> 8;
}

__global__ void volatileReduce(const int *in, int *out) {
  volatile __shared__ int s[512];
  volatile __shared__ int flag;
  int tid = threadIdx.x, g = blockIdx.x * blockDim.x + tid;
  if (tid == 0)
    flag = (int)blockIdx.x * 100000;
  s[tid] = in[g];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  out[g] = s[0] + flag + tid;
}

__global__ void volatileExchange(const float *in, float *out) {
  volatile __shared__ float tile[8][33];
  int x = threadIdx.x, y = threadIdx.y;
  int g = (blockIdx.x * 8 + y) * 32 + x;
  tile[y][x] = in[g];
  __syncthreads();
  float v = tile[(y + 1) % 8][x] + tile[y][(x + 31) % 32];
  __syncthreads();
  tile[y][x] = v * 0.5f;
  __syncthreads();
  out[g] = tile[7 - y][31 - x];
}

int main() {
  int errors = 0;
  const int blockSizes[] = {512, 128};
  const int blocks = 6;
  for (int bs : blockSizes) {
    int n = bs * blocks;
    int *h = (int *)malloc(n * sizeof(int));
    int *got = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; ++i)
      h[i] = (int)(lcg() % 2001) - 1000;
    int *d, *dOut;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    volatileReduce<<<blocks, bs>>>(d, dOut);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) {
      int sum = 0;
      for (int t = 0; t < bs; ++t)
        sum += h[b * bs + t];
      for (int t = 0; t < bs; ++t) {
        int want = sum + b * 100000 + t;
        if (got[b * bs + t] != want && ++errors <= 5)
          printf("volatileReduce %d: block %d thread %d = %d, expected %d\n",
                 bs, b, t, got[b * bs + t], want);
      }
    }
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(dOut));
    free(h);
    free(got);
  }
  {
    const int nb = 5, n = nb * 8 * 32;
    float *h = (float *)malloc(n * sizeof(float));
    float *got = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i)
      h[i] = (float)(lcg() % 1000);
    float *d, *dOut;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    volatileExchange<<<nb, dim3(32, 8)>>>(d, dOut);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int b = 0; b < nb; ++b)
      for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 32; ++x) {
          int yy = 7 - y, xx = 31 - x;
          const float *t = h + b * 256;
          float want = (t[((yy + 1) % 8) * 32 + xx] + t[yy * 32 + (xx + 31) % 32]) * 0.5f;
          if (got[b * 256 + y * 32 + x] != want && ++errors <= 5)
            printf("volatileExchange: block %d (%d,%d) = %g, expected %g\n", b,
                   x, y, got[b * 256 + y * 32 + x], want);
        }
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(dOut));
    free(h);
    free(got);
  }
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
