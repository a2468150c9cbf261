// while loop around barriers whose condition is loaded from shared memory:
// a per-block work queue. Each round every thread takes items from the
// current shared queue; an item x > 1 is split into x / 2 and x - x / 2,
// which are appended to the other queue with atomicAdd on a shared tail;
// items equal to 1 are counted as leaves. The loop runs
// "while (qlen[cur] > 0)". The host checks per block the number of leaves
// (sum of the initial items), the number of rounds and the sum of squares of
// all processed items (order independent). Block sizes 256, 100, 1024.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=4 -O2 %s -o %t.c8x4 && %t.c8x4 | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=2 -O2 %s -o %t.c1x2 && %t.c1x2 | FileCheck %s
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

#define QCAP 4096

__global__ void splitQueue(const int *init, int perBlock, int *leaves,
                           int *rounds, unsigned long long *sumsq) {
  __shared__ int q[2][QCAP];
  __shared__ int qlen[2];
  __shared__ int sLeaves;
  __shared__ unsigned long long sSumsq;
  int tid = threadIdx.x;
  if (tid == 0) {
    qlen[0] = perBlock;
    qlen[1] = 0;
    sLeaves = 0;
    sSumsq = 0;
  }
  for (int i = tid; i < perBlock; i += blockDim.x)
    q[0][i] = init[blockIdx.x * perBlock + i];
  __syncthreads();
  int cur = 0, round = 0;
  while (qlen[cur] > 0) {
    int len = qlen[cur];
    for (int i = tid; i < len; i += blockDim.x) {
      int x = q[cur][i];
      atomicAdd(&sSumsq, (unsigned long long)(x * x));
      if (x == 1) {
        atomicAdd(&sLeaves, 1);
      } else {
        int pos = atomicAdd(&qlen[cur ^ 1], 2);
        q[cur ^ 1][pos] = x / 2;
        q[cur ^ 1][pos + 1] = x - x / 2;
      }
    }
    __syncthreads(); // every thread has read qlen[cur] and q[cur]
    if (tid == 0)
      qlen[cur] = 0;
    cur ^= 1;
    ++round;
    __syncthreads();
  }
  if (tid == 0) {
    leaves[blockIdx.x] = sLeaves;
    rounds[blockIdx.x] = round;
    sumsq[blockIdx.x] = sSumsq;
  }
}

static int depth(int x) { return x == 1 ? 1 : 1 + depth(x - x / 2); }
static unsigned long long sq(int x) {
  return x == 1 ? 1ull : (unsigned long long)x * x + sq(x / 2) + sq(x - x / 2);
}

int main() {
  const int perBlock = 64, blocks = 11;
  int *h = (int *)malloc(perBlock * blocks * sizeof(int));
  for (int i = 0; i < perBlock * blocks; ++i)
    h[i] = 1 + (int)(lcg() % (1 + 4 * (i / perBlock))); // block 0: all ones
  int *d, *dLeaves, *dRounds;
  unsigned long long *dSq;
  CUDA_CHECK(cudaMalloc(&d, perBlock * blocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dLeaves, blocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dRounds, blocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dSq, blocks * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemcpy(d, h, perBlock * blocks * sizeof(int),
                        cudaMemcpyHostToDevice));
  int errors = 0;
  const int blockSizes[] = {256, 100, 1024, 32};
  for (int bs : blockSizes) {
    splitQueue<<<blocks, bs>>>(d, perBlock, dLeaves, dRounds, dSq);
    CUDA_CHECK(cudaGetLastError());
    int gL[blocks], gR[blocks];
    unsigned long long gS[blocks];
    CUDA_CHECK(cudaMemcpy(gL, dLeaves, sizeof(gL), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(gR, dRounds, sizeof(gR), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(gS, dSq, sizeof(gS), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) {
      int wantL = 0, wantR = 0;
      unsigned long long wantS = 0;
      for (int i = 0; i < perBlock; ++i) {
        int x = h[b * perBlock + i];
        wantL += x;
        wantR = depth(x) > wantR ? depth(x) : wantR;
        wantS += sq(x);
      }
      if ((gL[b] != wantL || gR[b] != wantR || gS[b] != wantS) && ++errors <= 5)
        printf("block size %d: block %d leaves %d (expected %d) rounds %d "
               "(expected %d) sumsq %llu (expected %llu)\n",
               bs, b, gL[b], wantL, gR[b], wantR, gS[b], wantS);
    }
  }
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(dLeaves));
  CUDA_CHECK(cudaFree(dRounds));
  CUDA_CHECK(cudaFree(dSq));
  free(h);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
