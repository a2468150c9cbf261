// Barriers inside if statements whose condition is block-uniform: a kernel
// argument (mode 0 / 1 / 2 selects different shared-memory exchanges with
// barriers in both branches), blockIdx.x % 3 == 1 (an extra exchange only in
// some blocks) and blockIdx.y == 1 combined with the argument. The host
// simulates each block. Grid 7x2, block sizes 128 and 100.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=2 -O2 %s -o %t.c7x2 && %t.c7x2 | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=4 -O2 %s -o %t.c7x4 && %t.c7x4 | FileCheck %s
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

__global__ void modes(const int *in, int *out, int mode) {
  __shared__ int s[512];
  int tid = threadIdx.x, n = blockDim.x;
  int blk = blockIdx.y * gridDim.x + blockIdx.x;
  int g = blk * n + tid;
  s[tid] = in[g];
  __syncthreads();
  int v;
  if (mode == 0) {
    v = s[n - 1 - tid];
    __syncthreads();
    s[tid] = v * 2;
    __syncthreads();
    v = s[(tid + 1) % n];
  } else {
    v = s[(tid + 3) % n];
    __syncthreads();
    s[tid] = v + 1;
    __syncthreads();
    v = s[(tid + n - 1) % n] - s[tid];
  }
  if (blockIdx.x % 3 == 1) {
    __syncthreads();
    s[tid] = v;
    __syncthreads();
    v += s[0];
  }
  if (blockIdx.y == 1 && mode != 2) {
    __syncthreads();
    s[tid] = v * 3;
    __syncthreads();
    v = s[n - 1 - tid] + v;
  }
  out[g] = v;
}

static void hostBlock(const int *in, int *out, int n, int mode, int bx,
                      int by) {
  int *s = (int *)malloc(n * sizeof(int));
  int *v = (int *)malloc(n * sizeof(int));
  for (int t = 0; t < n; ++t)
    s[t] = in[t];
  if (mode == 0) {
    for (int t = 0; t < n; ++t) v[t] = s[n - 1 - t];
    for (int t = 0; t < n; ++t) s[t] = v[t] * 2;
    for (int t = 0; t < n; ++t) v[t] = s[(t + 1) % n];
  } else {
    for (int t = 0; t < n; ++t) v[t] = s[(t + 3) % n];
    for (int t = 0; t < n; ++t) s[t] = v[t] + 1;
    for (int t = 0; t < n; ++t) v[t] = s[(t + n - 1) % n] - s[t];
  }
  if (bx % 3 == 1) {
    for (int t = 0; t < n; ++t) s[t] = v[t];
    for (int t = 0; t < n; ++t) v[t] += s[0];
  }
  if (by == 1 && mode != 2) {
    for (int t = 0; t < n; ++t) s[t] = v[t] * 3;
    for (int t = 0; t < n; ++t) v[t] = s[n - 1 - t] + v[t];
  }
  for (int t = 0; t < n; ++t)
    out[t] = v[t];
  free(s);
  free(v);
}

int main() {
  const int gx = 7, gy = 2;
  const int blockSizes[] = {128, 100};
  int errors = 0;
  for (int bs : blockSizes) {
    int n = gx * gy * bs;
    int *h = (int *)malloc(n * sizeof(int));
    int *got = (int *)malloc(n * sizeof(int));
    int *want = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; ++i)
      h[i] = (int)(lcg() % 1001) - 500;
    int *d, *dOut;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    for (int mode = 0; mode < 3; ++mode) {
      modes<<<dim3(gx, gy), bs>>>(d, dOut, mode);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
      for (int by = 0; by < gy; ++by)
        for (int bx = 0; bx < gx; ++bx) {
          int blk = by * gx + bx;
          hostBlock(h + blk * bs, want + blk * bs, bs, mode, bx, by);
        }
      for (int i = 0; i < n; ++i)
        if (got[i] != want[i] && ++errors <= 5)
          printf("block size %d mode %d: out[%d] = %d, expected %d\n", bs,
                 mode, i, got[i], want[i]);
    }
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(dOut));
    free(h);
    free(got);
    free(want);
  }
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
