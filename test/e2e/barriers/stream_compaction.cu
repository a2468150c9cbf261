// Stream compaction with block scans: kernel 1 flags the elements to keep
// (x % 3 == 0), computes each element's position with an exclusive
// Hillis-Steele scan of the flags in shared memory, and writes the kept
// elements to the block's region plus the block's count; kernel 2 (one
// block) scans the block counts into offsets in shared memory, looping over
// chunks of blockDim.x counts with a carried total; kernel 3 copies every
// block's kept elements to their final place, reading the block's offset
// from shared memory. The output must equal the stably compacted input.
// Block sizes 256 and 96; n = 100000.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=2 -O2 %s -o %t.c3x2 && %t.c3x2 | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=4 -O2 %s -o %t.c3x4 && %t.c3x4 | FileCheck %s
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

__global__ void compactBlocks(const int *in, int n, int *tmp, int *counts) {
  __shared__ int scan[2][1024];
  int tid = threadIdx.x, g = blockIdx.x * blockDim.x + tid;
  int x = g < n ? in[g] : 1;
  int flag = x % 3 == 0;
  int cur = 0;
  scan[cur][tid] = flag;
  __syncthreads();
  for (int off = 1; off < (int)blockDim.x; off <<= 1) {
    int v = scan[cur][tid] + (tid >= off ? scan[cur][tid - off] : 0);
    scan[cur ^ 1][tid] = v;
    cur ^= 1;
    __syncthreads();
  }
  int pos = scan[cur][tid] - flag; // exclusive
  if (flag)
    tmp[blockIdx.x * blockDim.x + pos] = x;
  if (tid == blockDim.x - 1)
    counts[blockIdx.x] = scan[cur][tid];
}

__global__ void scanCounts(const int *counts, int nb, int *offsets) {
  __shared__ int s[1024];
  __shared__ int carry;
  int tid = threadIdx.x;
  if (tid == 0)
    carry = 0;
  for (int base = 0; base < nb; base += blockDim.x) {
    int c = base + tid < nb ? counts[base + tid] : 0;
    s[tid] = c;
    __syncthreads();
    for (int off = 1; off < (int)blockDim.x; off <<= 1) {
      int v = tid >= off ? s[tid - off] : 0;
      __syncthreads();
      s[tid] += v;
      __syncthreads();
    }
    if (base + tid < nb)
      offsets[base + tid] = carry + s[tid] - c;
    __syncthreads(); // everyone has read carry
    if (tid == blockDim.x - 1)
      carry += s[tid];
    __syncthreads();
  }
}

__global__ void scatter(const int *tmp, const int *counts, const int *offsets,
                        int *out) {
  __shared__ int off, cnt;
  if (threadIdx.x == 0) {
    off = offsets[blockIdx.x];
    cnt = counts[blockIdx.x];
  }
  __syncthreads();
  if ((int)threadIdx.x < cnt)
    out[off + threadIdx.x] = tmp[blockIdx.x * blockDim.x + threadIdx.x];
}

int main() {
  const int n = 100000;
  int *h = (int *)malloc(n * sizeof(int));
  int *want = (int *)malloc(n * sizeof(int));
  int *got = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = (int)(lcg() % 1000000);
  int kept = 0;
  for (int i = 0; i < n; ++i)
    if (h[i] % 3 == 0)
      want[kept++] = h[i];
  int *d, *dTmp, *dCounts, *dOffsets, *dOut;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dTmp, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dCounts, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dOffsets, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
  int errors = 0;
  const int blockSizes[] = {256, 96};
  for (int bs : blockSizes) {
    int nb = (n + bs - 1) / bs;
    CUDA_CHECK(cudaMemset(dOut, 0xff, n * sizeof(int)));
    compactBlocks<<<nb, bs>>>(d, n, dTmp, dCounts);
    CUDA_CHECK(cudaGetLastError());
    scanCounts<<<1, 1024>>>(dCounts, nb, dOffsets);
    CUDA_CHECK(cudaGetLastError());
    scatter<<<nb, bs>>>(dTmp, dCounts, dOffsets, dOut);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      int w = i < kept ? want[i] : -1;
      if (got[i] != w && ++errors <= 5)
        printf("block %d: out[%d] = %d, expected %d\n", bs, i, got[i], w);
    }
  }
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(dTmp));
  CUDA_CHECK(cudaFree(dCounts));
  CUDA_CHECK(cudaFree(dOffsets));
  CUDA_CHECK(cudaFree(dOut));
  free(h);
  free(want);
  free(got);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
