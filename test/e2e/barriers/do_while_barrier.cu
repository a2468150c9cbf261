// do-while loop around barriers with a block-uniform condition read from
// shared memory: min-label propagation along a 1-D chain of cells split by
// walls. Every iteration each cell takes the minimum of itself and its
// connected neighbours (synchronous update), sets a shared "changed" flag
// with atomicOr, and the loop repeats while the flag is set; the number of
// iterations depends on the data of each block. The host simulates the same
// synchronous iteration and checks labels and iteration counts. Block sizes
// 1024 (one block without walls), 100 and 33.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=2 -O2 %s -o %t.c2x2 && %t.c2x2 | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=4 -O2 %s -o %t.c2x4 && %t.c2x4 | FileCheck %s
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

__global__ void propagate(const int *labelsIn, const unsigned char *wall,
                          int *labelsOut, int *iterations) {
  __shared__ int lab[1024];
  __shared__ int changed;
  int tid = threadIdx.x, n = blockDim.x;
  int g = blockIdx.x * n + tid;
  lab[tid] = labelsIn[g];
  bool linkLeft = tid > 0 && !wall[g - 1];
  bool linkRight = tid + 1 < n && !wall[g];
  int iters = 0;
  int cont;
  do {
    __syncthreads(); // everyone has read 'changed' of the last iteration
    if (tid == 0)
      changed = 0;
    int v = lab[tid];
    if (linkLeft)
      v = min(v, lab[tid - 1]);
    if (linkRight)
      v = min(v, lab[tid + 1]);
    __syncthreads(); // all reads of lab are done and 'changed' is reset
    if (v != lab[tid]) {
      lab[tid] = v;
      atomicOr(&changed, 1);
    }
    __syncthreads();
    cont = changed;
    ++iters;
  } while (cont);
  labelsOut[g] = lab[tid];
  if (tid == 0)
    iterations[blockIdx.x] = iters;
}

static int check(int n, int blocks) {
  int total = n * blocks;
  int *lab = (int *)malloc(total * sizeof(int));
  unsigned char *wall = (unsigned char *)malloc(total);
  for (int i = 0; i < total; ++i) {
    lab[i] = (int)(lcg() % 100000);
    int b = i / n;
    wall[i] = b == 0 ? 0 : (lcg() % (4 + 8 * b)) == 0; // block 0: no walls
  }
  int *dLab, *dOut, *dIt;
  unsigned char *dWall;
  CUDA_CHECK(cudaMalloc(&dLab, total * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dOut, total * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dIt, blocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dWall, total));
  CUDA_CHECK(cudaMemcpy(dLab, lab, total * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dWall, wall, total, cudaMemcpyHostToDevice));
  propagate<<<blocks, n>>>(dLab, dWall, dOut, dIt);
  CUDA_CHECK(cudaGetLastError());
  int *got = (int *)malloc(total * sizeof(int));
  int *gotIt = (int *)malloc(blocks * sizeof(int));
  CUDA_CHECK(cudaMemcpy(got, dOut, total * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(gotIt, dIt, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  int errors = 0;
  int *cur = (int *)malloc(n * sizeof(int));
  int *next = (int *)malloc(n * sizeof(int));
  for (int b = 0; b < blocks; ++b) {
    const unsigned char *w = wall + b * n;
    for (int i = 0; i < n; ++i)
      cur[i] = lab[b * n + i];
    int iters = 0;
    bool changed;
    do {
      changed = false;
      for (int i = 0; i < n; ++i) {
        int v = cur[i];
        if (i > 0 && !w[i - 1] && cur[i - 1] < v)
          v = cur[i - 1];
        if (i + 1 < n && !w[i] && cur[i + 1] < v)
          v = cur[i + 1];
        next[i] = v;
        changed |= v != cur[i];
      }
      for (int i = 0; i < n; ++i)
        cur[i] = next[i];
      ++iters;
    } while (changed);
    if (gotIt[b] != iters && ++errors <= 5)
      printf("block size %d: block %d took %d iterations, expected %d\n", n, b,
             gotIt[b], iters);
    for (int i = 0; i < n; ++i)
      if (got[b * n + i] != cur[i] && ++errors <= 5)
        printf("block size %d: block %d cell %d label %d, expected %d\n", n, b,
               i, got[b * n + i], cur[i]);
  }
  CUDA_CHECK(cudaFree(dLab));
  CUDA_CHECK(cudaFree(dOut));
  CUDA_CHECK(cudaFree(dIt));
  CUDA_CHECK(cudaFree(dWall));
  free(lab);
  free(wall);
  free(got);
  free(gotIt);
  free(cur);
  free(next);
  return errors;
}

int main() {
  int errors = 0;
  errors += check(1024, 3);
  errors += check(100, 9);
  errors += check(33, 5);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
