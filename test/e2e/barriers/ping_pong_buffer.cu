// "Ping-pong" double-buffered shared arrays in a loop: 1-D heat diffusion
// inside each block with fixed boundary cells, reading buffer cur and writing
// buffer cur ^ 1, so one barrier per time step suffices. An integer version
// (exact) and a float version (tolerance) with the buffer index kept in a
// variable and the buffers as __shared__ T buf[2][N + 2]. Block sizes 1024,
// 200, 64; 0, 1, 50 steps.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=1 -O2 %s -o %t.c3x1 && %t.c3x1 | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=2 -O2 %s -o %t.c3x2 && %t.c3x2 | FileCheck %s
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
#include <cmath>

template <typename T> __host__ __device__ T relax(T l, T c, T r);
template <> __host__ __device__ int relax<int>(int l, int c, int r) {
  return (l + 2 * c + r) / 4;
}
template <> __host__ __device__ float relax<float>(float l, float c, float r) {
  return (l + 2.0f * c + r) * 0.25f;
}

template <typename T>
__global__ void heat(const T *in, T *out, int steps) {
  __shared__ T buf[2][1026];
  int tid = threadIdx.x, n = blockDim.x, g = blockIdx.x * n + tid;
  buf[0][tid + 1] = in[g];
  if (tid == 0) {
    buf[0][0] = buf[1][0] = (T)(1000 * (int)blockIdx.x);
    buf[0][n + 1] = buf[1][n + 1] = (T)(-500);
  }
  __syncthreads();
  int cur = 0;
  for (int s = 0; s < steps; ++s) {
    T l = buf[cur][tid], c = buf[cur][tid + 1], r = buf[cur][tid + 2];
    buf[cur ^ 1][tid + 1] = relax<T>(l, c, r);
    cur ^= 1;
    __syncthreads();
  }
  out[g] = buf[cur][tid + 1];
}

template <typename T> static int check(int bs, int steps) {
  const int blocks = 5;
  int n = bs * blocks;
  T *h = (T *)malloc(n * sizeof(T));
  T *got = (T *)malloc(n * sizeof(T));
  for (int i = 0; i < n; ++i)
    h[i] = (T)((int)(lcg() % 20001) - 10000);
  T *d, *dOut;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(T)));
  CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  heat<T><<<blocks, bs>>>(d, dOut, steps);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(T), cudaMemcpyDeviceToHost));
  int errors = 0;
  const bool isInt = (T)0.5 == (T)0;
  T *a = (T *)malloc((bs + 2) * sizeof(T));
  T *b2 = (T *)malloc((bs + 2) * sizeof(T));
  for (int b = 0; b < blocks; ++b) {
    a[0] = b2[0] = (T)(1000 * b);
    a[bs + 1] = b2[bs + 1] = (T)(-500);
    for (int t = 0; t < bs; ++t)
      a[t + 1] = h[b * bs + t];
    for (int s = 0; s < steps; ++s) {
      for (int t = 0; t < bs; ++t)
        b2[t + 1] = relax<T>(a[t], a[t + 1], a[t + 2]);
      T *tmp = a;
      a = b2;
      b2 = tmp;
    }
    for (int t = 0; t < bs; ++t) {
      T want = a[t + 1], g = got[b * bs + t];
      bool ok = isInt ? g == want
                      : fabs((double)g - (double)want) <=
                            1e-5 * (1.0 + fabs((double)want));
      if (!ok && ++errors <= 5)
        printf("%s block %d steps %d: block %d cell %d = %.9g, expected %.9g\n",
               isInt ? "int" : "float", bs,
               steps, b, t, (double)g, (double)want);
    }
  }
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(dOut));
  free(h);
  free(got);
  free(a);
  free(b2);
  return errors;
}

int main() {
  int errors = 0;
  const int blockSizes[] = {1024, 200, 64};
  const int stepCounts[] = {0, 1, 50};
  for (int bs : blockSizes)
    for (int steps : stepCounts) {
      errors += check<int>(bs, steps);
      errors += check<float>(bs, steps);
    }
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
