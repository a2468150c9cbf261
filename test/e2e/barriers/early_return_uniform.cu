// Early return in block-uniform control flow before barriers: (1) a grid
// launched with more blocks than used, where "if (blockIdx.x >= blocksUsed)
// return;" precedes a shared-memory reduction; (2) "if (len == 0) return;"
// on a kernel argument; (3) a 2-D grid where blocks above the diagonal
// (blockIdx.y > blockIdx.x) return. Blocks that return must leave their
// outputs untouched; the host checks every output, sentinels included.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=2 -O2 %s -o %t.c4x2 && %t.c4x2 | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=4 -O2 %s -o %t.c4x4 && %t.c4x4 | FileCheck %s
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

#define SENTINEL (-12345)

__global__ void chunkSums(const int *in, int n, int blocksUsed, int *out) {
  if (blockIdx.x >= (unsigned)blocksUsed)
    return;
  __shared__ int s[512];
  int chunk = (n + blocksUsed - 1) / blocksUsed;
  int begin = blockIdx.x * chunk;
  int end = min(begin + chunk, n);
  int acc = 0;
  for (int i = begin + threadIdx.x; i < end; i += blockDim.x)
    acc += in[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride)
      s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

__global__ void reverseFirst(const int *in, int *out, int len) {
  if (len == 0)
    return;
  __shared__ int s[256];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[g];
  __syncthreads();
  if ((int)threadIdx.x < len)
    out[g] = s[len - 1 - threadIdx.x];
}

// Blocks (x, y) with y <= x compute the sum of their 16x16 tile of 'in'.
__global__ void lowerTriangleTiles(const int *in, int width, int *out) {
  if (blockIdx.y > blockIdx.x)
    return;
  __shared__ int rows[16];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  if (threadIdx.x == 0)
    rows[threadIdx.y] = 0;
  __syncthreads();
  atomicAdd(&rows[threadIdx.y], in[y * width + x]);
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    int t = 0;
    for (int r = 0; r < 16; ++r)
      t += rows[r];
    out[blockIdx.y * gridDim.x + blockIdx.x] = t;
  }
}

static void fill(int *d, int count) {
  int *h = (int *)malloc(count * sizeof(int));
  for (int i = 0; i < count; ++i)
    h[i] = SENTINEL;
  CUDA_CHECK(cudaMemcpy(d, h, count * sizeof(int), cudaMemcpyHostToDevice));
  free(h);
}

int main() {
  int errors = 0;
  const int n = 50000;
  int *h = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = (int)(lcg() % 199) - 99;
  int *d, *dOut;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
  int *got = (int *)malloc(n * sizeof(int));

  // (1) blocksUsed < gridDim.x
  const int used[] = {7, 30, 1};
  for (int u : used) {
    int grid = u + 5;
    fill(dOut, grid);
    chunkSums<<<grid, 512>>>(d, n, u, dOut);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dOut, grid * sizeof(int), cudaMemcpyDeviceToHost));
    int chunk = (n + u - 1) / u;
    for (int b = 0; b < grid; ++b) {
      int want = SENTINEL;
      if (b < u) {
        want = 0;
        for (int i = b * chunk; i < n && i < (b + 1) * chunk; ++i)
          want += h[i];
      }
      if (got[b] != want && ++errors <= 5)
        printf("chunkSums used %d: out[%d] = %d, expected %d\n", u, b, got[b],
               want);
    }
  }

  // (2) uniform return on a kernel argument
  const int lens[] = {0, 200, 256};
  for (int len : lens) {
    fill(dOut, 10 * 256);
    reverseFirst<<<10, 256>>>(d, dOut, len);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dOut, 10 * 256 * sizeof(int),
                          cudaMemcpyDeviceToHost));
    for (int i = 0; i < 10 * 256; ++i) {
      int t = i % 256, b = i / 256;
      int want = t < len ? h[b * 256 + len - 1 - t] : SENTINEL;
      if (got[i] != want && ++errors <= 5)
        printf("reverseFirst len %d: out[%d] = %d, expected %d\n", len, i,
               got[i], want);
    }
  }

  // (3) 2-D grid, upper-triangle blocks return
  const int tiles = 9, width = tiles * 16;
  fill(dOut, tiles * tiles);
  lowerTriangleTiles<<<dim3(tiles, tiles), dim3(16, 16)>>>(d, width, dOut);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(got, dOut, tiles * tiles * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int by = 0; by < tiles; ++by)
    for (int bx = 0; bx < tiles; ++bx) {
      int want = SENTINEL;
      if (by <= bx) {
        want = 0;
        for (int y = by * 16; y < by * 16 + 16; ++y)
          for (int x = bx * 16; x < bx * 16 + 16; ++x)
            want += h[y * width + x];
      }
      if (got[by * tiles + bx] != want && ++errors <= 5)
        printf("lowerTriangleTiles: tile (%d,%d) = %d, expected %d\n", bx, by,
               got[by * tiles + bx], want);
    }

  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(dOut));
  free(h);
  free(got);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
