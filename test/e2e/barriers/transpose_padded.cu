// Matrix transpose through a padded shared tile [TILE][TILE + 1] (no bank
// conflicts on the GPU): 32x8 blocks each moving a 32x32 tile with a loop of
// 4 rows per thread, and 16x16 blocks with a [16][17] double tile, on matrix
// sizes that are not multiples of the tile (1000x777, 33x1, 1x70, 64x64).
// The result is transposed back and both results are checked exactly.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=4 -O2 %s -o %t.c4x4 && %t.c4x4 | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=1 -O2 %s -o %t.c7x1 && %t.c7x1 | FileCheck %s
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

template <typename T, int TILE, int ROWS>
__global__ void transposePadded(const T *in, T *out, int width, int height) {
  __shared__ T tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x; // column in the output (input row)
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < height && y + j < width)
      out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

template <typename T, int TILE, int ROWS>
static int check(int width, int height) {
  size_t n = (size_t)width * height;
  T *h = (T *)malloc(n * sizeof(T));
  T *t = (T *)malloc(n * sizeof(T));
  for (size_t i = 0; i < n; ++i)
    h[i] = (T)(int)(lcg() % 100000);
  T *dIn, *dT, *dBack;
  CUDA_CHECK(cudaMalloc(&dIn, n * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&dT, n * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&dBack, n * sizeof(T)));
  CUDA_CHECK(cudaMemcpy(dIn, h, n * sizeof(T), cudaMemcpyHostToDevice));
  dim3 block(TILE, ROWS);
  dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
  transposePadded<T, TILE, ROWS><<<grid, block>>>(dIn, dT, width, height);
  CUDA_CHECK(cudaGetLastError());
  dim3 grid2((height + TILE - 1) / TILE, (width + TILE - 1) / TILE);
  transposePadded<T, TILE, ROWS><<<grid2, block>>>(dT, dBack, height, width);
  CUDA_CHECK(cudaGetLastError());
  int errors = 0;
  CUDA_CHECK(cudaMemcpy(t, dT, n * sizeof(T), cudaMemcpyDeviceToHost));
  for (int r = 0; r < height; ++r)
    for (int c = 0; c < width; ++c)
      if (t[(size_t)c * height + r] != h[(size_t)r * width + c] &&
          ++errors <= 5)
        printf("TILE %d %dx%d: out[%d][%d] = %g, expected %g\n", TILE, width,
               height, c, r, (double)t[(size_t)c * height + r],
               (double)h[(size_t)r * width + c]);
  CUDA_CHECK(cudaMemcpy(t, dBack, n * sizeof(T), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; ++i)
    if (t[i] != h[i] && ++errors <= 5)
      printf("TILE %d %dx%d: back[%zu] = %g, expected %g\n", TILE, width,
             height, i, (double)t[i], (double)h[i]);
  CUDA_CHECK(cudaFree(dIn));
  CUDA_CHECK(cudaFree(dT));
  CUDA_CHECK(cudaFree(dBack));
  free(h);
  free(t);
  return errors;
}

int main() {
  int errors = 0;
  errors += check<float, 32, 8>(1000, 777);
  errors += check<float, 32, 8>(33, 1);
  errors += check<float, 32, 8>(1, 70);
  errors += check<float, 32, 8>(64, 64);
  errors += check<double, 16, 16>(250, 123);
  errors += check<double, 16, 16>(17, 40);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
