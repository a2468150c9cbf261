// Block-wide Hillis-Steele scans: every block scans its own segment of
// blockDim.x elements (a segmented scan) and writes the inclusive and the
// exclusive result. Two kernels: a double-buffered shared array (one barrier
// per step) and an in-place single buffer (read, barrier, write, barrier).
// Block sizes 1024, 256, 200, 37 (non-powers of two; partial last segment).
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=2 -O2 %s -o %t.c8x2 && %t.c8x2 | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=4 -O2 %s -o %t.c8x4 && %t.c8x4 | FileCheck %s
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

__global__ void scanDoubleBuffer(const int *in, int n, int *incl, int *excl) {
  __shared__ int buf[2][1024];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  int pout = 0;
  buf[pout][tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (int offset = 1; offset < (int)blockDim.x; offset *= 2) {
    pout = 1 - pout;
    int pin = 1 - pout;
    int v = buf[pin][tid];
    if (tid >= offset)
      v += buf[pin][tid - offset];
    buf[pout][tid] = v;
    __syncthreads();
  }
  if (i < n) {
    incl[i] = buf[pout][tid];
    excl[i] = tid > 0 ? buf[pout][tid - 1] : 0;
  }
}

__global__ void scanInPlace(const int *in, int n, int *incl, int *excl) {
  __shared__ int s[1024];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (int offset = 1; offset < (int)blockDim.x; offset <<= 1) {
    int t = tid >= offset ? s[tid - offset] : 0;
    __syncthreads();
    s[tid] += t;
    __syncthreads();
  }
  if (i < n) {
    incl[i] = s[tid];
    excl[i] = tid > 0 ? s[tid - 1] : 0;
  }
}

int main() {
  const int n = 50000;
  int *h = (int *)malloc(n * sizeof(int));
  int *gi = (int *)malloc(n * sizeof(int));
  int *ge = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = (int)(lcg() % 101) - 50;
  int *d, *di, *de;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&di, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&de, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));

  int errors = 0;
  const int blocks[] = {1024, 256, 200, 37};
  for (int variant = 0; variant < 2; ++variant)
    for (int b : blocks) {
      int grid = (n + b - 1) / b;
      CUDA_CHECK(cudaMemset(di, 0, n * sizeof(int)));
      CUDA_CHECK(cudaMemset(de, 0, n * sizeof(int)));
      if (variant == 0)
        scanDoubleBuffer<<<grid, b>>>(d, n, di, de);
      else
        scanInPlace<<<grid, b>>>(d, n, di, de);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaMemcpy(gi, di, n * sizeof(int), cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(ge, de, n * sizeof(int), cudaMemcpyDeviceToHost));
      int run = 0;
      for (int i = 0; i < n; ++i) {
        if (i % b == 0)
          run = 0;
        int wantExcl = run;
        run += h[i];
        if ((gi[i] != run || ge[i] != wantExcl) && ++errors <= 5)
          printf("%s block %d: element %d incl %d (expected %d) excl %d "
                 "(expected %d)\n",
                 variant ? "scanInPlace" : "scanDoubleBuffer", b, i, gi[i],
                 run, ge[i], wantExcl);
      }
    }

  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(di));
  CUDA_CHECK(cudaFree(de));
  free(h);
  free(gi);
  free(ge);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
