// __syncthreads_count, __syncthreads_and and __syncthreads_or: predicates
// that differ per thread (data dependent, tid % 3), uniform ones (constant
// true/false, block-id dependent), block data chosen so that some blocks are
// all-true, all-false or have exactly one true thread. Every thread records
// every result. A second kernel uses the vote functions as barriers for
// shared memory and loops "while (__syncthreads_or(work > 0))".
// Block sizes 96, 256, 1024, 33.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=1 -O2 %s -o %t.c4x1 && %t.c4x1 | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=2 -O2 %s -o %t.c4x2 && %t.c4x2 | FileCheck %s
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

#define NV 9

__global__ void votes(const int *data, int threshold, int *out) {
  int tid = threadIdx.x;
  int g = blockIdx.x * blockDim.x + tid;
  int x = data[g];
  int *o = out + NV * g;
  o[0] = __syncthreads_count(x > threshold);
  o[1] = __syncthreads_and(x > threshold) != 0;
  o[2] = __syncthreads_or(x > threshold) != 0;
  o[3] = __syncthreads_count(tid % 3 == 0);
  o[4] = __syncthreads_and(1) != 0;
  o[5] = __syncthreads_or(0) != 0;
  o[6] = __syncthreads_count(blockIdx.x & 1);
  o[7] = __syncthreads_and(tid != blockIdx.x % blockDim.x) != 0;
  o[8] = __syncthreads_or(tid == blockDim.x - 1 && (blockIdx.x % 3 == 0)) != 0;
}

// Each thread has 'work' units; per round it does one unit. The loop runs
// until no thread has work left. Also a vote that orders a shared write.
__global__ void workRounds(const int *work, int *rounds, int *neighbour,
                           int *counts) {
  __shared__ int s[1024];
  int tid = threadIdx.x, g = blockIdx.x * blockDim.x + tid;
  int w = work[g];
  s[tid] = w * 10 + 1;
  int c = __syncthreads_count(w > 2); // also a barrier for s[]
  neighbour[g] = s[(tid + 1) % blockDim.x] + c;
  int r = 0;
  while (__syncthreads_or(w > 0)) {
    if (w > 0)
      --w;
    ++r;
  }
  rounds[g] = r;
  counts[g] = c;
}

int main() {
  const int blockSizes[] = {96, 256, 1024, 33};
  const int blocks = 8, threshold = 500;
  int errors = 0;
  for (int bs : blockSizes) {
    int n = bs * blocks;
    int *h = (int *)malloc(n * sizeof(int));
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < bs; ++t) {
        int v = (int)(lcg() % 1000);
        switch (b % 4) {
        case 1: v = threshold + 1 + v % 100; break; // all true
        case 2: v = v % (threshold + 1); break;     // all false
        case 3: v = t == bs / 2 ? 999 : 7; break;   // exactly one
        default: break;                              // mixed
        }
        h[b * bs + t] = v;
      }
    int *d, *dOut;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, NV * n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    votes<<<blocks, bs>>>(d, threshold, dOut);
    CUDA_CHECK(cudaGetLastError());
    int *got = (int *)malloc(NV * n * sizeof(int));
    CUDA_CHECK(cudaMemcpy(got, dOut, NV * n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) {
      int above = 0, mod3 = 0, notMe = 0, last = 0;
      for (int t = 0; t < bs; ++t) {
        above += h[b * bs + t] > threshold;
        mod3 += t % 3 == 0;
        notMe += t != b % bs;
        last += t == bs - 1 && b % 3 == 0;
      }
      int want[NV] = {above, above == bs, above > 0, mod3, 1, 0,
                      (b & 1) ? bs : 0, notMe == bs, last > 0};
      for (int t = 0; t < bs; ++t)
        for (int k = 0; k < NV; ++k)
          if (got[NV * (b * bs + t) + k] != want[k] && ++errors <= 5)
            printf("votes block size %d: block %d thread %d vote %d = %d, "
                   "expected %d\n",
                   bs, b, t, k, got[NV * (b * bs + t) + k], want[k]);
    }

    // workRounds
    for (int i = 0; i < n; ++i)
      h[i] = (int)(lcg() % (5 + i / bs * 3));
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    int *dR, *dN, *dC;
    CUDA_CHECK(cudaMalloc(&dR, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dN, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dC, n * sizeof(int)));
    workRounds<<<blocks, bs>>>(d, dR, dN, dC);
    CUDA_CHECK(cudaGetLastError());
    int *gR = (int *)malloc(n * sizeof(int));
    int *gN = (int *)malloc(n * sizeof(int));
    int *gC = (int *)malloc(n * sizeof(int));
    CUDA_CHECK(cudaMemcpy(gR, dR, n * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(gN, dN, n * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(gC, dC, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) {
      int mx = 0, c = 0;
      for (int t = 0; t < bs; ++t) {
        mx = h[b * bs + t] > mx ? h[b * bs + t] : mx;
        c += h[b * bs + t] > 2;
      }
      for (int t = 0; t < bs; ++t) {
        int i = b * bs + t;
        int wantN = h[b * bs + (t + 1) % bs] * 10 + 1 + c;
        if ((gR[i] != mx || gC[i] != c || gN[i] != wantN) && ++errors <= 5)
          printf("workRounds block size %d: block %d thread %d rounds %d "
                 "(expected %d) count %d (expected %d) neighbour %d "
                 "(expected %d)\n",
                 bs, b, t, gR[i], mx, gC[i], c, gN[i], wantN);
      }
    }
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(dOut));
    CUDA_CHECK(cudaFree(dR));
    CUDA_CHECK(cudaFree(dN));
    CUDA_CHECK(cudaFree(dC));
    free(h);
    free(got);
    free(gR);
    free(gN);
    free(gC);
  }
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
