// Kernels calling __device__ functions that contain __syncthreads(): a block
// sum helper taking a shared buffer (called several times, also in a loop),
// a __noinline__ block max helper with its own static __shared__ array, a
// rotate helper with two barriers, and a chain (normalize -> blockSum).
// Block sizes 256, 1024, 96 (the helpers handle non-powers of two).
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=4 -O2 %s -o %t.c1x4 && %t.c1x4 | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=1 -O2 %s -o %t.c2x1 && %t.c2x1 | FileCheck %s
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

__device__ int blockSum(int v, int *s) {
  int tid = threadIdx.x;
  s[tid] = v;
  __syncthreads();
  unsigned p = 1;
  while (p < blockDim.x)
    p <<= 1;
  for (unsigned stride = p / 2; stride > 0; stride >>= 1) {
    if (tid < stride && tid + stride < blockDim.x)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  int r = s[0];
  __syncthreads(); // s may be reused by the caller
  return r;
}

__device__ __noinline__ int blockMax(int v) {
  __shared__ int sm[1024];
  int tid = threadIdx.x;
  sm[tid] = v;
  __syncthreads();
  for (int active = blockDim.x; active > 1; active = (active + 1) / 2) {
    int half = (active + 1) / 2;
    if (tid < active / 2)
      sm[tid] = max(sm[tid], sm[tid + half]);
    __syncthreads();
  }
  int r = sm[0];
  __syncthreads();
  return r;
}

__device__ void rotate(int *s, int k) {
  int v = s[(threadIdx.x + k) % blockDim.x];
  __syncthreads();
  s[threadIdx.x] = v;
  __syncthreads();
}

__device__ int normalize(int v, int *s) {
  int total = blockSum(v, s);
  return v * (int)blockDim.x - total;
}

#define NOUT 6

__global__ void useHelpers(const int *in, int *out) {
  __shared__ int s[1024];
  int tid = threadIdx.x, g = blockIdx.x * blockDim.x + tid;
  int v = in[g];
  int sum = blockSum(v, s);
  int mx = blockMax(v);
  int acc = 0;
  for (int k = 0; k < 3; ++k)
    acc += blockSum(v + k, s);
  s[tid] = v;
  __syncthreads();
  rotate(s, 5);
  rotate(s, 2);
  int rot = s[tid];
  __syncthreads();
  int nz = normalize(v, s);
  int mn = -blockMax(-v);
  int *o = out + g * NOUT;
  o[0] = sum;
  o[1] = mx;
  o[2] = acc;
  o[3] = rot;
  o[4] = nz;
  o[5] = mn;
}

int main() {
  const int blockSizes[] = {256, 1024, 96};
  const int blocks = 5;
  int errors = 0;
  for (int bs : blockSizes) {
    int n = bs * blocks;
    int *h = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; ++i)
      h[i] = (int)(lcg() % 20001) - 10000;
    int *d, *dOut;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, n * NOUT * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    useHelpers<<<blocks, bs>>>(d, dOut);
    CUDA_CHECK(cudaGetLastError());
    int *got = (int *)malloc(n * NOUT * sizeof(int));
    CUDA_CHECK(cudaMemcpy(got, dOut, n * NOUT * sizeof(int),
                          cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) {
      const int *x = h + b * bs;
      int sum = 0, mx = x[0], mn = x[0];
      for (int t = 0; t < bs; ++t) {
        sum += x[t];
        mx = x[t] > mx ? x[t] : mx;
        mn = x[t] < mn ? x[t] : mn;
      }
      for (int t = 0; t < bs; ++t) {
        int want[NOUT] = {sum, mx, 3 * sum + 3 * bs, x[(t + 7) % bs],
                          x[t] * bs - sum, mn};
        for (int k = 0; k < NOUT; ++k)
          if (got[(b * bs + t) * NOUT + k] != want[k] && ++errors <= 5)
            printf("block size %d: block %d thread %d value %d = %d, expected "
                   "%d\n",
                   bs, b, t, k, got[(b * bs + t) * NOUT + k], want[k]);
      }
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
